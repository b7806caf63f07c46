#!/usr/bin/env bash
# `make dev`: the whole app on this machine with demo data.
# DynamoDB Local (data kept in .data/dynamodb) -> cargo lambda watch (:9000, one
# route per /api group) -> Vite (:5173, proxies /api). Ctrl-C stops all of it.
# RESET=1 wipes the local data first.
. "$(dirname "$0")/lib.sh"

DDB_PORT=${DDB_PORT:-8000}
API_PORT=${API_PORT:-9000}
WEB_PORT=${WEB_PORT:-5173}
DATA_DIR="$ROOT/.data/dynamodb"
LOG_DIR="$ROOT/.data/logs"

"$ROOT/scripts/ensure-tools.sh" cargo-lambda ddb frontend

if [ "${RESET:-0}" = 1 ]; then
  log "RESET=1: wiping $DATA_DIR"
  rm -rf "$DATA_DIR"
fi
mkdir -p "$DATA_DIR" "$LOG_DIR"

pids=()
cleanup() {
  trap - EXIT INT TERM
  log "stopping"
  for ((i=${#pids[@]}-1; i>=0; i--)); do stop_group "${pids[i]}" INT; done
  log "stopped"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "starting DynamoDB Local on :$DDB_PORT (data in .data/dynamodb)"
pids+=("$("$ROOT/scripts/ddb-local.sh" "$DDB_PORT" --db-path "$DATA_DIR" "$LOG_DIR/dynamodb.log")")

export TABLE_NAME=ambulance DYNAMODB_ENDPOINT="http://127.0.0.1:$DDB_PORT"
log "creating the table and seeding demo data where missing"
cargo build --quiet --workspace --bins
"$ROOT/target/debug/manage" create-tables
"$ROOT/target/debug/manage" seed

log "starting the functions (cargo lambda watch) on :$API_PORT"
(cd "$ROOT" && exec setsid cargo lambda watch -A 127.0.0.1 -P "$API_PORT" >"$LOG_DIR/functions.log" 2>&1 < /dev/null) &
pids+=("$!")

log "starting the web app (Vite) on :$WEB_PORT"
(cd "$ROOT/frontend" && API_PROXY_TARGET="http://127.0.0.1:$API_PORT" \
  exec setsid npm run dev -- --host 127.0.0.1 --port "$WEB_PORT" --strictPort >"$LOG_DIR/web.log" 2>&1 < /dev/null) &
pids+=("$!")

wait_http "$WEB_PORT" 120 "${pids[2]}" || { tail -n 30 "$LOG_DIR/web.log"; die "the web app did not start"; }
wait_http "$API_PORT" 120 "${pids[1]}" || { tail -n 30 "$LOG_DIR/functions.log"; die "the functions did not start"; }

cat <<BANNER

  Ambulance service running at  http://localhost:$WEB_PORT
  API (same origin)             http://localhost:$WEB_PORT/api  (functions on :$API_PORT)
  Demo logins (local only)      admin / admin12345    demo / demo12345
  Logs                          .data/logs/   Reset data: make dev-reset
  Press Ctrl-C to stop everything.

BANNER

# Stay up until Ctrl-C or until a part dies.
while true; do
  for pid in "${pids[@]}"; do
    kill -0 "$pid" 2>/dev/null || die "a process ($pid) exited; see .data/logs/"
  done
  sleep 2
done
