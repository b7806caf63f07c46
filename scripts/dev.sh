#!/usr/bin/env bash
# `make dev`: the whole app on this machine with demo data.
# DynamoDB Local (data kept in .data/dynamodb) -> cargo lambda watch (:9000, one
# route per /api group, reloads on code changes) -> Vite (:5173, proxies /api).
# Ctrl-C stops all of it. RESET=1 (`make dev-reset`) wipes the local data first.
. "$(dirname "$0")/lib.sh"
cd "$ROOT"

DDB_PORT=${DDB_PORT:-8000}
API_PORT=${API_PORT:-9000}
WEB_PORT=${WEB_PORT:-5173}
DATA_DIR="$ROOT/.data/dynamodb"
LOG_DIR="$ROOT/.data/logs"

"$ROOT/scripts/ensure-tools.sh" cargo-lambda ddb frontend

require_free_port "$DDB_PORT" "DynamoDB Local"
require_free_port "$API_PORT" "cargo lambda watch"
require_free_port "$WEB_PORT" "Vite"

if [ "${RESET:-0}" = 1 ]; then
  log "RESET=1: wiping the local data in .data/dynamodb"
  rm -rf "$DATA_DIR"
fi
mkdir -p "$DATA_DIR" "$LOG_DIR"

ddb_pid="" watch_pid="" web_pid=""
cleanup() {
  trap - EXIT INT TERM
  # Ctrl-C may also have ended a pipe reader (make dev | tee): keep stopping anyway.
  trap '' PIPE; set +e
  log "stopping every process make dev started"
  stop_group "$web_pid" INT
  stop_watch "$watch_pid"
  stop_group "$ddb_pid" TERM
  log "stopped"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "building the workspace (first time: several minutes)"
cargo build --quiet --workspace --bins

log "starting DynamoDB Local on :$DDB_PORT (data in .data/dynamodb)"
ddb_pid="$("$ROOT/scripts/ddb-local.sh" "$DDB_PORT" --db-path "$DATA_DIR" "$LOG_DIR/dynamodb.log")"

# The functions read these from the watcher's environment: the Cargo.toml metadata
# deliberately leaves them out, because there it would win over any override.
export TABLE_NAME=ambulance DYNAMODB_ENDPOINT="http://127.0.0.1:$DDB_PORT"
log "creating the table if absent, seeding demo data where missing"
cargo run --quiet -p shared --bin manage -- create-tables
cargo run --quiet -p shared --bin manage -- seed

log "starting the functions (cargo lambda watch) on :$API_PORT; logs in .data/logs/functions.log"
(exec setsid cargo lambda watch -A 127.0.0.1 -P "$API_PORT" >"$LOG_DIR/functions.log" 2>&1 < /dev/null) &
watch_pid=$!

log "starting the web app (Vite) on :$WEB_PORT; logs in .data/logs/web.log"
(cd "$ROOT/frontend" && API_PROXY_TARGET="http://127.0.0.1:$API_PORT" \
  exec setsid npm run dev -- --host 127.0.0.1 --port "$WEB_PORT" --strictPort >"$LOG_DIR/web.log" 2>&1 < /dev/null) &
web_pid=$!

wait_http "$API_PORT" 120 "$watch_pid" || { tail -n 30 "$LOG_DIR/functions.log"; die "the functions did not start"; }
log "waiting until the functions answer"
wait_functions "$API_PORT" || { tail -n 30 "$LOG_DIR/functions.log"; die "the functions did not answer"; }
wait_http "$WEB_PORT" 120 "$web_pid" || { tail -n 30 "$LOG_DIR/web.log"; die "the web app did not start"; }

cat <<BANNER

  Ambulance service running at  http://localhost:$WEB_PORT
  API (same origin)             http://localhost:$WEB_PORT/api  (functions on :$API_PORT)
  Demo logins (local only)      admin / admin12345    demo / demo12345
  Logs                          .data/logs/   Wipe the data: make dev-reset
  Press Ctrl-C to stop everything.

BANNER

# Stay up until Ctrl-C or until a part dies.
while true; do
  for pid in "$ddb_pid" "$watch_pid" "$web_pid"; do
    kill -0 "$pid" 2>/dev/null || die "a process ($pid) exited; see .data/logs/"
  done
  sleep 2
done
