#!/usr/bin/env bash
# `make test`: every test, failing fast. Starts its own in-memory DynamoDB Local on a
# free port (the database tests are never skipped: no database, no green run), then:
# format, clippy, Rust tests, SAM template lint, frontend lint/types/unit tests, and
# the end-to-end browser tests (scripts/e2e.sh). Prints each stage's duration.
. "$(dirname "$0")/lib.sh"
cd "$ROOT"

started=$(date +%s)
summary=()
stage() { # stage "title" command...
  local title=$1 t0 rc=0; shift
  t0=$(date +%s)
  printf '\n\033[1;34m==== %s\033[0m (at %ss)\n' "$title" "$(( t0 - started ))" >&2
  "$@" || rc=$?
  summary+=("$(printf '%6ss  %s%s' "$(( $(date +%s) - t0 ))" "$title" "$([ $rc = 0 ] || echo '  FAILED')")")
  if [ $rc != 0 ]; then print_summary; die "stage failed: $title (exit $rc)"; fi
}
print_summary() {
  printf '\n%s\n' "stage durations:" >&2
  printf '  %s\n' "${summary[@]}" >&2
  printf '%6ss  total\n' "$(( $(date +%s) - started ))" | sed 's/^/  /' >&2
}

stage "install what is missing" "$ROOT/scripts/ensure-tools.sh" cargo-lambda ddb frontend sam

LOG_DIR="$ROOT/target/test-logs"
mkdir -p "$LOG_DIR"
DDB_PORT=$(free_port)
ddb_pid="$("$ROOT/scripts/ddb-local.sh" "$DDB_PORT" --in-memory "$LOG_DIR/dynamodb.log")"
trap 'trap "" PIPE; stop_group "$ddb_pid"' EXIT
trap 'exit 130' INT TERM
export DYNAMODB_ENDPOINT="http://127.0.0.1:$DDB_PORT"
# The fault tests start (and kill) DynamoDB Local processes of their own.
export DDB_LOCAL_DIR="$DDB_DIR"
log "DynamoDB Local (in memory) on :$DDB_PORT for the Rust tests"

stage "cargo fmt --check" cargo fmt --all --check
stage "cargo clippy -D warnings" cargo clippy --quiet --workspace --all-targets -- -D warnings
if cargo nextest --version >/dev/null 2>&1; then
  stage "Rust tests (cargo nextest, DynamoDB Local)" cargo nextest run --workspace --no-fail-fast
else
  stage "Rust tests (cargo test, DynamoDB Local)" cargo test --workspace --no-fail-fast
fi
stage "SAM template: sam validate --lint" sam validate --lint --template "$ROOT/template.yaml"
stage "API contract: schemathesis against the local stack (bounded)" "$ROOT/scripts/fuzz-api.sh" --bounded
stage "frontend: eslint" npm --prefix frontend run --silent lint
stage "frontend: tsc --noEmit" npm --prefix frontend run --silent typecheck
stage "frontend: vitest" npm --prefix frontend test --silent
stage "end-to-end: Playwright in Chromium against the local stack" "$ROOT/scripts/e2e.sh"

print_summary
log "all tests passed"
