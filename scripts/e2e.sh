#!/usr/bin/env bash
# End-to-end: the whole stack on free ports (in-memory DynamoDB Local with its own
# table, cargo lambda watch, the built frontend behind vite preview) and Playwright in
# Debian's Chromium. Artifacts (CI keeps frontend/e2e-artifacts/):
#   frontend/e2e-artifacts/screenshots/   screenshots the tests take
#   frontend/e2e-artifacts/report/        Playwright's HTML report
#   frontend/e2e-artifacts/test-results/  traces of failed tests
#   frontend/e2e-artifacts/logs/          DynamoDB Local, functions, web server
. "$(dirname "$0")/lib.sh"
cd "$ROOT"

"$ROOT/scripts/ensure-tools.sh" chromium cargo-lambda ddb frontend
LOG_DIR="$ROOT/frontend/e2e-artifacts/logs"
mkdir -p "$LOG_DIR" "$ROOT/target"

# One run at a time per checkout: Playwright empties its output folder when it starts,
# and the logs and screenshots folders are shared, so a second run waits its turn.
# (The servers started below do not inherit the lock: 9>&-.)
exec 9>"$ROOT/target/e2e.lock"
if ! flock -n 9; then
  log "another end-to-end run in this checkout is under way; waiting for it (up to 30 min)"
  flock -w 1800 9 || die "the other end-to-end run did not finish within 30 min"
fi

ddb_pid="" watch_pid="" web_pid="" DIST=""
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  trap '' PIPE; set +e
  stop_group "$web_pid" INT
  stop_watch "$watch_pid"
  stop_group "$ddb_pid" TERM
  [ -z "${DIST:-}" ] || rm -rf "$DIST"
  if [ "$rc" != 0 ]; then
    log "end-to-end failed; last lines of the function log (all logs: frontend/e2e-artifacts/logs/):"
    tail -n 40 "$LOG_DIR/functions.log" 2>/dev/null || true
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Built before anything starts, so the watcher's `cargo run` finds nothing to build.
cargo build --quiet --workspace --bins

DDB_PORT=$(free_port)
ddb_pid="$("$ROOT/scripts/ddb-local.sh" "$DDB_PORT" --in-memory "$LOG_DIR/dynamodb.log" 9>&-)"
# Own table and endpoint: never the dev database. The watcher passes its environment
# on to the functions (Cargo.toml's metadata leaves these two out on purpose).
export TABLE_NAME=e2e DYNAMODB_ENDPOINT="http://127.0.0.1:$DDB_PORT"
cargo run --quiet -p shared --bin manage -- create-tables
cargo run --quiet -p shared --bin manage -- seed

API_PORT=$(free_port)
# --ignore-changes: edits made while the tests run must not restart the functions.
(exec setsid cargo lambda watch --ignore-changes -A 127.0.0.1 -P "$API_PORT" \
  >"$LOG_DIR/functions.log" 2>&1 < /dev/null 9>&-) &
watch_pid=$!
wait_http "$API_PORT" 120 "$watch_pid" || die "cargo lambda watch did not start"
wait_functions "$API_PORT" || die "the functions did not answer"

# A build folder of this run's own: frontend/dist may be rebuilt meanwhile by someone else.
DIST="$(mktemp -d "$ROOT/target/e2e-dist.XXXXXX")"
(cd "$ROOT/frontend" && npm run build --silent -- --outDir "$DIST" --emptyOutDir >"$LOG_DIR/build.log" 2>&1) \
  || { cat "$LOG_DIR/build.log"; die "frontend build failed"; }
node "$ROOT/frontend/scripts/bundle-budget.mjs" "$DIST"

WEB_PORT=$(free_port)
(cd "$ROOT/frontend" && API_PROXY_TARGET="http://127.0.0.1:$API_PORT" \
  exec setsid npx vite preview --outDir "$DIST" --host 127.0.0.1 --port "$WEB_PORT" --strictPort >"$LOG_DIR/web.log" 2>&1 < /dev/null 9>&-) &
web_pid=$!
wait_http "$WEB_PORT" 60 "$web_pid" || die "vite preview did not start"

log "running Playwright against http://127.0.0.1:$WEB_PORT (functions :$API_PORT, DynamoDB Local :$DDB_PORT)"
(cd "$ROOT/frontend" && E2E_BASE_URL="http://127.0.0.1:$WEB_PORT" npx playwright test "$@")
log "screenshots: frontend/e2e-artifacts/screenshots/  report: frontend/e2e-artifacts/report/index.html"
