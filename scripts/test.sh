#!/usr/bin/env bash
# `make test`: every test, failing fast, printing each stage's duration. Starts its
# own in-memory DynamoDB Local on a free port (the database tests are never skipped:
# no database, no green run), then: format, clippy, Rust tests, SAM template lint,
# the bounded API fuzzing, frontend lint/types/unit tests, and the end-to-end browser
# tests (scripts/e2e.sh).
# `make check` (--fast): the loop to run while editing, under 2 minutes warm, no
# database and no browser: format, the import-cycle check, clippy, the Rust unit
# tests (`--lib`), eslint, tsc.
. "$(dirname "$0")/lib.sh"
cd "$ROOT"

FAST=$(optional_flag --fast "scripts/test.sh [--fast]" "$@")

if [ "$FAST" = 1 ]; then
  stage "install what is missing" "$ROOT/scripts/ensure-tools.sh" frontend layers
else
  stage "install what is missing" "$ROOT/scripts/ensure-tools.sh" cargo-lambda ddb frontend sam layers
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
fi

# Rust tests: the unit tests only (no database) in the fast loop, all of them here.
rust_tests=(cargo test)
if cargo nextest --version >/dev/null 2>&1; then rust_tests=(cargo nextest run); fi
rust_tests+=(--workspace --no-fail-fast)
rust_title="all, on DynamoDB Local"
if [ "$FAST" = 1 ]; then rust_tests+=(--lib) rust_title="unit tests only"; fi
stage "cargo fmt --check" cargo fmt --all --check
# No import cycle between the modules of any library (docs/architecture.md).
stage "import cycles: tools/layers/check.py" python3 tools/layers/check.py --self-test \
  shared/src/lib.rs functions/*/src/lib.rs tests/api/lib.rs tools/perf/src/lib.rs
stage "import cycles between files (depth 2)" python3 tools/layers/check.py --depth 2 \
  shared/src/lib.rs functions/*/src/lib.rs tests/api/lib.rs tools/perf/src/lib.rs
stage "cargo clippy -D warnings" cargo clippy --quiet --workspace --all-targets -- -D warnings
stage "Rust tests ($rust_title): ${rust_tests[*]}" "${rust_tests[@]}"
if [ "$FAST" = 0 ]; then
  stage "SAM template: sam validate --lint" sam validate --lint --template "$ROOT/template.yaml"
  stage "API contract: schemathesis against the local stack (bounded)" "$ROOT/scripts/fuzz-api.sh" --bounded
fi
stage "frontend: eslint" npm --prefix frontend run --silent lint
stage "frontend: tsc --noEmit" npm --prefix frontend run --silent typecheck
if [ "$FAST" = 0 ]; then
  stage "frontend: vitest" npm --prefix frontend test --silent
  stage "end-to-end: Playwright in Chromium against the local stack" "$ROOT/scripts/e2e.sh"
fi

print_summary
log "all $([ "$FAST" = 1 ] && echo 'fast checks' || echo tests) passed"
