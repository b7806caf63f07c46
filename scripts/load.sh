#!/usr/bin/env bash
# `make load`: a bounded load test on loopback. In-memory DynamoDB Local seeded with
# the demo data (manage create-tables / seed) -> all seven functions' routers on one
# port (tools/perf `serve`, routing /api/<group> as `api_tests::system` does) ->
# users registered and ambulances added through the API (prep.py) -> wrk:
# LOAD_CONNECTIONS clients (50) for LOAD_DURATION (30s), a mixed workload (nearest
# search, ambulance lists, profile reads, bookings; no crew or emergency requests
# yet; see tools/perf/load/mixed.lua). Prints p50/p95/p99, throughput and answers per
# kind; exits non-zero on any 5xx, connection error or timeout. Stops everything it
# started on exit, Ctrl-C included. Figures: docs/performance.md.
#
# LOAD_DB_TIMEOUTS=patient (default) gives the server 10 s DynamoDB timeouts: on 2
# cores DynamoDB Local, not the functions, saturates first, and the production 800 ms
# per attempt then turns its queue into 503s. LOAD_DB_TIMEOUTS=production keeps them.
. "$(dirname "$0")/lib.sh"
cd "$ROOT"

CONNECTIONS=${LOAD_CONNECTIONS:-50}
DB_TIMEOUTS=${LOAD_DB_TIMEOUTS:-patient}
DURATION=${LOAD_DURATION:-30s}
LOG_DIR="$ROOT/target/load-logs"
LOAD_DIR="$ROOT/tools/perf/load"

# wrk (Debian's package): the load generator, with a Lua script per request.
if ! command -v wrk >/dev/null 2>&1; then
  log "installing wrk (Debian package)"
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
  command -v wrk >/dev/null 2>&1 || die "wrk did not install"
fi
"$ROOT/scripts/ensure-tools.sh" ddb

log "building the local server (release profile)"
cargo build --quiet --release -p perf-tools --bin serve -p web --bin manage

rm -rf "$LOG_DIR"; mkdir -p "$LOG_DIR"
ddb_pid="" serve_pid=""
cleanup() {
  trap - EXIT INT TERM
  set +e
  stop_group "$serve_pid" TERM
  stop_group "$ddb_pid" TERM
}
trap cleanup EXIT
trap 'exit 130' INT TERM

DDB_PORT=$(free_port)
ddb_pid="$("$ROOT/scripts/ddb-local.sh" "$DDB_PORT" --in-memory "$LOG_DIR/dynamodb.log")"
export DYNAMODB_ENDPOINT="http://127.0.0.1:$DDB_PORT" TABLE_NAME=load APP_ENV=local
export JWT_SECRET="load-test-secret-local-only-0123456789abcdef"
log "creating and seeding the table (demo data)"
target/release/manage create-tables >/dev/null
target/release/manage seed >/dev/null

API_PORT=$(free_port)
# One JSON log line per 5xx (warn); RUST_LOG=info logs every request.
(RUST_LOG=${RUST_LOG:-warn} DB_TIMEOUTS=$DB_TIMEOUTS exec setsid target/release/serve "$API_PORT" >"$LOG_DIR/serve.log" 2>&1 </dev/null) &
serve_pid=$!
wait_http "$API_PORT" 30 "$serve_pid" || { cat "$LOG_DIR/serve.log"; die "the local server did not start"; }
BASE="http://127.0.0.1:$API_PORT"

log "registering ${LOAD_USERS:-50} users and adding ${LOAD_AMBULANCES:-1000} ambulances through the API"
python3 "$LOAD_DIR/prep.py" "$BASE" "$LOG_DIR/data.lua"

log "wrk: $CONNECTIONS connections for $DURATION on $BASE ($DB_TIMEOUTS DynamoDB timeouts)"
export LOAD_DATA="$LOG_DIR/data.lua" LOAD_RESULT="$LOG_DIR/result.json"
# CPU seconds a process has used (utime + stime), to show where the time went.
cpu_secs() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.1f", ($14 + $15) / hz }' "/proc/$1/stat"; }
ddb_cpu0=$(cpu_secs "$ddb_pid"); serve_cpu0=$(cpu_secs "$serve_pid")
# One thread per connection: the script counts each answer under the kind that asked.
# wrk ends early on Ctrl-C and still reports: remember it, and report nothing then.
interrupted=0; trap 'interrupted=1' INT TERM
wrk -t "$CONNECTIONS" -c "$CONNECTIONS" -d "$DURATION" --timeout 10s \
  -s "$LOAD_DIR/mixed.lua" "$BASE" >"$LOG_DIR/wrk.txt" 2>&1 || { cat "$LOG_DIR/wrk.txt"; die "wrk failed"; }
trap 'exit 130' INT TERM
[ "$interrupted" = 0 ] || { log "interrupted"; exit 130; }
ddb_cpu=$(awk -v a="$ddb_cpu0" -v b="$(cpu_secs "$ddb_pid")" 'BEGIN { printf "%.1f", b - a }')
serve_cpu=$(awk -v a="$serve_cpu0" -v b="$(cpu_secs "$serve_pid")" 'BEGIN { printf "%.1f", b - a }')
echo "CPU used during the run: DynamoDB Local ${ddb_cpu} s, the functions' server ${serve_cpu} s" \
  "(load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores)" >"$LOG_DIR/cpu.txt"

python3 "$LOAD_DIR/report.py" "$LOAD_RESULT" "$CONNECTIONS" "$LOG_DIR" "$DB_TIMEOUTS"
