# shellcheck shell=bash
# The local stack, started one way for `make dev`, the end-to-end tests and
# `make fuzz-api` (docs/decisions/0005-tooling.md):
#   one `cargo build` of the functions and manage -> DynamoDB Local -> the table and the demo
#   data (target/debug/manage, the binary that build made) -> the functions behind
#   `cargo lambda watch` -> wait until every function answers -> the clock (the
#   answer deadlines: the same binary as in AWS, on a schedule of its own, every
#   CLOCK_EVERY_SECS, default 2) and notify (Web Push: the same binary as in AWS,
#   reading DynamoDB Local's stream every NOTIFY_EVERY_MS, default 200, and sending
#   through its deliveries queue on moto's SQS, started beside DynamoDB Local:
#   decision 0019) [-> Vite in front].
# Source it after lib.sh, then:
#   stack_up LOG_DIR TABLE [--data DIR] [--ddb-port N] [--api-port N] [--reload]
#     --data DIR   keep the database in DIR (default: in memory, gone at exit)
#     --ddb-port, --api-port   fixed ports, refused when busy (default: free ones)
#     --reload     restart a function when its code changes (default: never, so an
#                  edit made during a test run cannot restart functions under it)
#     --vapid FILE the VAPID key pair (decision 0014), made there when absent
#                  (default: LOG_DIR/vapid.env, one per stack; make dev keeps .data/vapid.env)
#   stack_web dev PORT            Vite's dev server, /api proxied to the functions
#   stack_web preview PORT DIST   the production build in DIST behind `vite preview`
#   stack_wait                    block until Ctrl-C or until a part of the stack exits
# stack_up sets DDB_PORT and API_PORT and exports TABLE_NAME and DYNAMODB_ENDPOINT.
# It installs the EXIT trap that stops every process it and stack_web started (on
# success, failure and Ctrl-C), calls the script's `stack_on_exit RC` when defined, and
# on failure prints the end of LOG_DIR/functions.log. Logs: LOG_DIR/{dynamodb,moto,manage,
# functions,clock,notify,web}.log. VAPID_PUBLIC_KEY and VAPID_SUBJECT (default
# mailto:dev@localhost) reach the functions; VAPID_PRIVATE_KEY only notify. ANSWER_EMERGENCY_SECS / ANSWER_NORMAL_SECS, when set,
# reach the functions and the clock alike (a test stack's short deadlines). Every
# process starts in a process group of its own (setsid) and without fd 9 (e2e.sh
# holds its lock there).

_stack_ddb_pid="" _stack_moto_pid="" _stack_watch_pid="" _stack_gateway_pid="" _stack_clock_pid="" _stack_notify_pid="" _stack_web_pid="" STACK_LOG_DIR=""

_stack_exit() {
  local rc=$?
  trap - EXIT INT TERM
  # Ctrl-C may also have ended a pipe reader (make dev | tee): keep stopping anyway.
  trap '' PIPE; set +e
  if [ -n "$_stack_ddb_pid$_stack_moto_pid$_stack_watch_pid$_stack_gateway_pid$_stack_clock_pid$_stack_notify_pid$_stack_web_pid" ]; then log "stopping the local stack"; fi
  stop_group "$_stack_web_pid" INT
  stop_group "$_stack_notify_pid" TERM
  stop_group "$_stack_clock_pid" TERM
  stop_group "$_stack_gateway_pid" TERM
  stop_watch "$_stack_watch_pid"
  stop_group "$_stack_moto_pid" TERM
  stop_group "$_stack_ddb_pid" TERM
  if declare -F stack_on_exit >/dev/null; then stack_on_exit "$rc"; fi
  if [ "$rc" != 0 ] && [ "$rc" != 130 ] && [ -s "$STACK_LOG_DIR/functions.log" ]; then
    log "failed (exit $rc); last lines of ${STACK_LOG_DIR#"$ROOT"/}/functions.log:"
    tail -n 40 "$STACK_LOG_DIR/functions.log" >&2
  fi
  exit "$rc"
}

stack_up() {
  STACK_LOG_DIR=${1:?log dir}; local table=${2:?table}; shift 2
  local data="" reload=0 vapid=""
  DDB_PORT="" API_PORT=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --data) data=${2:?dir}; shift 2 ;;
      --ddb-port) DDB_PORT=${2:?port}; shift 2 ;;
      --api-port) API_PORT=${2:?port}; shift 2 ;;
      --reload) reload=1; shift ;;
      --vapid) vapid=${2:?file}; shift 2 ;;
      *) die "stack_up: unknown option $1" ;;
    esac
  done
  trap _stack_exit EXIT
  trap 'exit 130' INT TERM
  mkdir -p "$STACK_LOG_DIR"
  # Fixed ports are checked before the (long) build; free ones are picked after it.
  [ -z "$DDB_PORT" ] || require_free_port "$DDB_PORT" "DynamoDB Local"
  [ -z "$API_PORT" ] || require_free_port "$API_PORT" "cargo lambda watch"

  # Every binary the stack runs, once: `manage` below and the watcher's `cargo run
  # --bin <function>` then find them built (one feature set per dependency across
  # builds: tools/workspace-hack, checked by make test).
  local build_args
  mapfile -t build_args < <(stack_build_args)
  log "building the functions and manage (cargo build ${build_args[*]}; first time: a few minutes)"
  cargo build --quiet "${build_args[@]}"

  DDB_PORT=${DDB_PORT:-$(free_port)}
  if [ -n "$data" ]; then
    log "starting DynamoDB Local on :$DDB_PORT (data in ${data#"$ROOT"/})"
    _stack_ddb_pid="$("$ROOT/scripts/ddb-local.sh" "$DDB_PORT" --db-path "$data" "$STACK_LOG_DIR/dynamodb.log" 9>&-)"
  else
    log "starting DynamoDB Local on :$DDB_PORT (in memory)"
    _stack_ddb_pid="$("$ROOT/scripts/ddb-local.sh" "$DDB_PORT" --in-memory "$STACK_LOG_DIR/dynamodb.log" 9>&-)"
  fi

  # notify's deliveries queue (decision 0019): moto's SQS, on a free port, in memory.
  local moto_port; moto_port=$(free_port)
  log "starting moto (SQS: notify's deliveries queue) on :$moto_port"
  _stack_moto_pid="$("$ROOT/scripts/moto.sh" "$moto_port" "$STACK_LOG_DIR/moto.log" 9>&-)"

  # The functions read these from the watcher's environment: the Cargo.toml metadata
  # deliberately leaves them out, because there they would win over any override.
  export TABLE_NAME="$table" DYNAMODB_ENDPOINT="http://127.0.0.1:$DDB_PORT"
  log "creating table $table if absent, seeding demo data where missing"
  { "$ROOT/target/debug/manage" create-tables && "$ROOT/target/debug/manage" seed; } >"$STACK_LOG_DIR/manage.log" 2>&1 \
    || { cat "$STACK_LOG_DIR/manage.log" >&2; die "manage create-tables / seed failed"; }

  # The VAPID key pair (decision 0014): made once into the file, then reused, so a
  # browser's subscription outlives a restart of make dev.
  vapid=${vapid:-$STACK_LOG_DIR/vapid.env}
  if [ ! -s "$vapid" ]; then
    log "making a VAPID key pair in ${vapid#"$ROOT"/}"
    (umask 077 && "$ROOT/target/debug/manage" vapid-keys >"$vapid")
  fi
  export VAPID_PUBLIC_KEY VAPID_SUBJECT=${VAPID_SUBJECT:-mailto:dev@localhost}
  VAPID_PUBLIC_KEY=$(sed -n 's/^VAPID_PUBLIC_KEY=//p' "$vapid")
  [ "${#VAPID_PUBLIC_KEY}" = 87 ] || die "${vapid#"$ROOT"/} holds no VAPID_PUBLIC_KEY (delete it to make a new pair)"

  API_PORT=${API_PORT:-$(free_port)}
  # No CORS: deployed, the app and the API share one origin and the API sends none
  # (docs/requirements.md, "The web app"); a page of another site must not read local answers either.
  # The watcher on a port of its own, API Gateway's stand-in in front of it on
  # $API_PORT: the watcher's own HTTP front answers a body that is not UTF-8 or a
  # header byte above 0x7f with a 500 of its own (docs/decisions/0025-a-local-api-gateway.md).
  local watch_port; watch_port=$(free_port)
  local watch_args=(-A 127.0.0.1 -P "$watch_port" --disable-cors)
  [ "$reload" = 1 ] || watch_args=(--ignore-changes "${watch_args[@]}")
  log "starting the functions (cargo lambda watch) on :$watch_port; log in ${STACK_LOG_DIR#"$ROOT"/}/functions.log"
  (exec setsid cargo lambda watch "${watch_args[@]}" >"$STACK_LOG_DIR/functions.log" 2>&1 < /dev/null 9>&-) &
  _stack_watch_pid=$!
  wait_http "$watch_port" 120 "$_stack_watch_pid" || die "cargo lambda watch did not start on :$watch_port"
  local groups default
  groups=$(route_groups | paste -sd, -)
  # API Gateway's `$default` route: the function the watcher's router gives every other /api path.
  default=$(sed -n 's#^"/api/{\*proxy}" = "\(.*\)"$#\1#p' "$ROOT/Cargo.toml")
  [ -n "$default" ] || die "Cargo.toml names no function for \"/api/{*proxy}\""
  log "starting the API gateway on :$API_PORT; log in ${STACK_LOG_DIR#"$ROOT"/}/gateway.log"
  (exec setsid "$ROOT/target/debug/gateway" --port "$API_PORT" --functions "http://127.0.0.1:$watch_port" \
    --groups "$groups" --default "$default" >"$STACK_LOG_DIR/gateway.log" 2>&1 < /dev/null 9>&-) &
  _stack_gateway_pid=$!
  wait_http "$API_PORT" 30 "$_stack_gateway_pid" || die "the API gateway did not start on :$API_PORT"
  log "waiting until every function answers"
  wait_functions "$API_PORT" || die "the functions did not answer"
  # The clock: what EventBridge invokes once a minute in AWS sweeps here every few
  # seconds until the stack stops (docs/decisions/0012-background-work.md).
  log "starting the clock (answer deadlines) every ${CLOCK_EVERY_SECS:-2} s; log in ${STACK_LOG_DIR#"$ROOT"/}/clock.log"
  (APP_ENV=local exec setsid "$ROOT/target/debug/clock" --every-secs "${CLOCK_EVERY_SECS:-2}" \
    >"$STACK_LOG_DIR/clock.log" 2>&1 < /dev/null 9>&-) &
  _stack_clock_pid=$!
  # notify: what the table's stream invokes in AWS reads DynamoDB Local's stream here
  # and sends the pushes (decision 0014). Only it gets the private key.
  log "starting notify (Web Push from the table's stream) every ${NOTIFY_EVERY_MS:-200} ms; log in ${STACK_LOG_DIR#"$ROOT"/}/notify.log"
  (APP_ENV=local SQS_ENDPOINT="http://127.0.0.1:$moto_port" \
    VAPID_PRIVATE_KEY=$(sed -n 's/^VAPID_PRIVATE_KEY=//p' "$vapid") \
    exec setsid "$ROOT/target/debug/notify" --every-ms "${NOTIFY_EVERY_MS:-200}" \
    >"$STACK_LOG_DIR/notify.log" 2>&1 < /dev/null 9>&-) &
  _stack_notify_pid=$!
  # The build above should have left the watcher nothing to compile; if it did, a
  # function's features differ from the workspace build's and every start pays for it.
  if grep -q '^ *Compiling ' "$STACK_LOG_DIR/functions.log"; then
    log "warning: cargo lambda watch compiled crates the workspace build had built (features differ?):"
    grep '^ *Compiling ' "$STACK_LOG_DIR/functions.log" | head -n 5 >&2
  fi
}

stack_web() {
  local mode=${1:?dev or preview} port=${2:?port} dist=${3:-}
  local args=(--host 127.0.0.1 --port "$port" --strictPort)
  log "starting the web app (vite $mode) on :$port; log in ${STACK_LOG_DIR#"$ROOT"/}/web.log"
  case "$mode" in
    dev) (cd "$ROOT/frontend" && API_PROXY_TARGET="http://127.0.0.1:$API_PORT" \
      exec setsid npm run dev -- "${args[@]}" >"$STACK_LOG_DIR/web.log" 2>&1 < /dev/null 9>&-) & ;;
    preview) (cd "$ROOT/frontend" && API_PROXY_TARGET="http://127.0.0.1:$API_PORT" \
      exec setsid npx vite preview --outDir "${dist:?dist}" "${args[@]}" >"$STACK_LOG_DIR/web.log" 2>&1 < /dev/null 9>&-) & ;;
    *) die "stack_web: dev or preview, not $mode" ;;
  esac
  _stack_web_pid=$!
  wait_http "$port" 120 "$_stack_web_pid" || { tail -n 30 "$STACK_LOG_DIR/web.log" >&2; die "the web app did not start on :$port"; }
}

stack_wait() {
  local pid
  while true; do
    for pid in $_stack_ddb_pid $_stack_moto_pid $_stack_watch_pid $_stack_gateway_pid $_stack_clock_pid $_stack_notify_pid $_stack_web_pid; do
      kill -0 "$pid" 2>/dev/null || die "a part of the stack (pid $pid) exited; see ${STACK_LOG_DIR#"$ROOT"/}/"
    done
    sleep 2
  done
}
