#!/usr/bin/env bash
# End-to-end: the whole stack on free ports (in-memory DynamoDB Local, cargo lambda
# watch, the built frontend behind vite preview) and Playwright in Debian's Chromium.
# Screenshots land in frontend/e2e-artifacts/screenshots/.
. "$(dirname "$0")/lib.sh"

"$ROOT/scripts/ensure-tools.sh" chromium cargo-lambda ddb frontend
LOG_DIR="$ROOT/frontend/e2e-artifacts/logs"
mkdir -p "$LOG_DIR"

pids=()
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  for ((i=${#pids[@]}-1; i>=0; i--)); do stop_group "${pids[i]}" INT; done
  if [ "$rc" != 0 ]; then
    log "end-to-end failed; last lines of the function logs:"
    tail -n 40 "$LOG_DIR/functions.log" 2>/dev/null || true
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

DDB_PORT=$(free_port)
pids+=("$("$ROOT/scripts/ddb-local.sh" "$DDB_PORT" --in-memory "$LOG_DIR/dynamodb.log")")
export TABLE_NAME=e2e DYNAMODB_ENDPOINT="http://127.0.0.1:$DDB_PORT"

cargo build --quiet --workspace --bins
"$ROOT/target/debug/manage" create-tables
"$ROOT/target/debug/manage" seed

API_PORT=$(free_port)
(cd "$ROOT" && exec setsid cargo lambda watch -A 127.0.0.1 -P "$API_PORT" >"$LOG_DIR/functions.log" 2>&1 < /dev/null) &
pids+=("$!")
wait_http "$API_PORT" 120 "${pids[1]}" || die "cargo lambda watch did not start"
# Each function is started on its first request; warm them all before the browser.
for group in auth user hospitals ambulances booking admin; do
  [ -d "$ROOT/functions/$group" ] || continue
  for _ in $(seq 120); do
    code=$(curl -s -o /dev/null -w '%{http_code}' -m 60 "http://127.0.0.1:$API_PORT/api/$group/warm-up" || true)
    case "$code" in 4*) break ;; esac
    sleep 1
  done
  case "$code" in 4*) ;; *) die "function $group did not answer (last status $code)" ;; esac
done

WEB_PORT=$(free_port)
(cd "$ROOT/frontend" && npm run build --silent >"$LOG_DIR/build.log" 2>&1) || { cat "$LOG_DIR/build.log"; die "frontend build failed"; }
python3 "$ROOT/scripts/bundle-budget.py" "$ROOT/frontend/dist"
(cd "$ROOT/frontend" && API_PROXY_TARGET="http://127.0.0.1:$API_PORT" \
  exec setsid npx vite preview --host 127.0.0.1 --port "$WEB_PORT" --strictPort >"$LOG_DIR/web.log" 2>&1 < /dev/null) &
pids+=("$!")
wait_http "$WEB_PORT" 60 "${pids[2]}" || die "vite preview did not start"

log "running Playwright against http://127.0.0.1:$WEB_PORT"
(cd "$ROOT/frontend" && E2E_BASE_URL="http://127.0.0.1:$WEB_PORT" npx playwright test)
