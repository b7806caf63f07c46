#!/usr/bin/env bash
# `make bench`: performance figures, printed (no timed assertions). Starts its own
# in-memory DynamoDB Local. Figures are recorded in docs/performance.md.
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
"$ROOT/scripts/ensure-tools.sh" ddb

log "building the benchmark (profile bench-local: release without LTO)"
cargo build --quiet --profile bench-local -p perf-tools --bin bench_nearest --bin bench_booking --bin bench_emergency
# Deployable sizes, from the last `make lambda-build` (arm64 zips), else from the last
# x86_64 release build; nothing is printed that was not measured.
python3 "$ROOT/scripts/lambda-sizes.py" any

LOG_DIR="$ROOT/target/bench-logs"; mkdir -p "$LOG_DIR"
DDB_PORT=$(free_port)
ddb_pid="$("$ROOT/scripts/ddb-local.sh" "$DDB_PORT" --in-memory "$LOG_DIR/dynamodb.log")"
trap 'stop_group "$ddb_pid"' EXIT
export DYNAMODB_ENDPOINT="http://127.0.0.1:$DDB_PORT"
target/bench-local/bench_nearest
target/bench-local/bench_booking
target/bench-local/bench_emergency

# Lambda figures (tools/perf). Init: each function's release binary (what is
# deployed: thin LTO, opt-level "s") started INIT_RUNS times against a local stand-in
# for the Lambda Runtime API, timed from process start to its first request for work.
# Warm: every route in-process, WARM_ITERATIONS times, next to a bare GetItem.
log "building the functions with --release (first time: several minutes) and the Lambda benchmarks"
cargo build --quiet --release -p auth -p user -p hospitals -p ambulances -p booking -p admin
cargo build --quiet --profile bench-local -p perf-tools --bin bench_init --bin bench_warm
BENCH_LOG_DIR="$LOG_DIR" target/bench-local/bench_init --runs "${INIT_RUNS:-10}" target/release
target/bench-local/bench_warm --iterations "${WARM_ITERATIONS:-200}"
