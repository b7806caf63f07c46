#!/usr/bin/env bash
# `make bench`: performance figures, printed (no timed assertions). Starts its own
# in-memory DynamoDB Local. Figures are recorded in docs/performance.md.
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
"$ROOT/scripts/ensure-tools.sh" ddb

log "building the benchmark (profile bench-local: release without LTO)"
cargo build --quiet --profile bench-local -p shared --bin bench_nearest --bin bench_booking
if ls target/release/auth >/dev/null 2>&1; then
  echo "release binary sizes (x86_64, from the last release build):"
  for f in auth user hospitals ambulances booking admin; do
    [ -f "target/release/$f" ] && python3 -c "import os,sys; print(f\"  {sys.argv[1]:<11} {os.path.getsize(sys.argv[2])/1048576:6.1f} MiB\")" "$f" "target/release/$f"
  done
fi

LOG_DIR="$ROOT/target/bench-logs"; mkdir -p "$LOG_DIR"
DDB_PORT=$(free_port)
ddb_pid="$("$ROOT/scripts/ddb-local.sh" "$DDB_PORT" --in-memory "$LOG_DIR/dynamodb.log")"
trap 'stop_group "$ddb_pid"' EXIT
export DYNAMODB_ENDPOINT="http://127.0.0.1:$DDB_PORT"
target/bench-local/bench_nearest
target/bench-local/bench_booking
