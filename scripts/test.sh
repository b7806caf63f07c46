#!/usr/bin/env bash
# `make test`: every test. Starts its own in-memory DynamoDB Local (never skips the
# database tests), then: format, lints, Rust tests, SAM template lint, frontend
# lint/types/unit tests, and the end-to-end browser tests.
. "$(dirname "$0")/lib.sh"
cd "$ROOT"

"$ROOT/scripts/ensure-tools.sh" cargo-lambda ddb frontend sam

started=$(date +%s)
stage() { log "[$(( $(date +%s) - started ))s] $*"; }

LOG_DIR="$ROOT/target/test-logs"
mkdir -p "$LOG_DIR"
DDB_PORT=$(free_port)
ddb_pid="$("$ROOT/scripts/ddb-local.sh" "$DDB_PORT" --in-memory "$LOG_DIR/dynamodb.log")"
trap 'stop_group "$ddb_pid"' EXIT
export DYNAMODB_ENDPOINT="http://127.0.0.1:$DDB_PORT"
# The fault tests start (and kill) DynamoDB Local processes of their own.
export DDB_LOCAL_DIR="$DDB_DIR"
stage "DynamoDB Local (in memory) on :$DDB_PORT"

stage "cargo fmt --check"
cargo fmt --all --check

stage "cargo clippy -D warnings"
cargo clippy --quiet --workspace --all-targets -- -D warnings

stage "Rust tests (unit + integration on DynamoDB Local)"
if cargo nextest --version >/dev/null 2>&1; then
  cargo nextest run --workspace --no-fail-fast
else
  cargo test --workspace --no-fail-fast
fi

stage "SAM template lint"
sam validate --lint --template "$ROOT/template.yaml"

if [ -f frontend/package.json ]; then
  stage "frontend: eslint, tsc --noEmit, vitest"
  (cd frontend && npm run --silent lint && npm run --silent typecheck && npm test --silent)

  stage "end-to-end (Playwright in Chromium against the local stack)"
  "$ROOT/scripts/e2e.sh"
fi

stage "all tests passed"
