#!/usr/bin/env bash
# `make bench`: performance figures, printed (no timed assertions), of every function
# (the route groups are the directories under functions/). Starts its own in-memory
# DynamoDB Local. Figures are recorded in docs/performance.md.
#
# `scripts/bench.sh --smoke`: every benchmark once at its smallest size, in the dev
# profile, so that the test run catches a benchmark that no longer runs to its end:
# figures are printed but not judged; any panic or unexpected status fails it. Its
# build is make test's own (`cargo build` of EVERY_TARGET), so there it
# compiles nothing.
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
SMOKE=$(optional_flag --smoke "scripts/bench.sh [--smoke]" "$@")
"$ROOT/scripts/ensure-tools.sh" ddb

# Every function, as scripts/lambda-build.sh finds them.
packages=()
for dir in functions/*/; do packages+=(-p "$(basename "$dir")"); done

LOG_DIR="$ROOT/target/bench-logs"; mkdir -p "$LOG_DIR"
start_ddb() {
  DDB_PORT=$(free_port)
  ddb_pid="$("$ROOT/scripts/ddb-local.sh" "$DDB_PORT" --in-memory "$LOG_DIR/dynamodb.log")"
  trap 'stop_group "$ddb_pid"' EXIT
  export DYNAMODB_ENDPOINT="http://127.0.0.1:$DDB_PORT"
}

if [ "$SMOKE" = 1 ]; then
  log "bench smoke: building the benchmarks and the functions (dev profile)"
  cargo build --quiet "${EVERY_TARGET[@]}"
  start_ddb
  BIN=target/debug
  timings=()
  # Runs `timed NAME command...` and remembers how long it took.
  timed() {
    local name=$1 t0 secs; shift
    log "smoke: $name"
    t0=$(date +%s.%N)
    "$@" || die "bench smoke: $name failed (exit $?)"
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    timings+=("$(printf '%6ss  %s' "$secs" "$name")")
  }
  timed bench_nearest env BENCH_SIZES=100 BENCH_SEARCHES=10 "$BIN/bench_nearest"
  timed bench_booking env BENCH_ROUNDS=1 BENCH_RACES=1 BENCH_RACERS=20 "$BIN/bench_booking"
  timed bench_emergency env BENCH_SIZES=100 BENCH_REQUESTS=10 "$BIN/bench_emergency"
  timed bench_deadlines env BENCH_SIZES=10 BENCH_JOBS=5 BENCH_WINDOW_SECS=12 "$BIN/bench_deadlines"
  timed bench_live env BENCH_SIZES=100 BENCH_REQUESTS=2 "$BIN/bench_live"
  timed bench_privacy env BENCH_SIZES=100 BENCH_HISTORIES=45 "$BIN/bench_privacy"
  timed bench_push env BENCH_PUSHES=3 BENCH_REPLAYS=1 BENCH_HEALTHY=6 BENCH_WAVES=2 "$BIN/bench_push"
  timed bench_presence env BENCH_AMBULANCES=20 BENCH_EMERGENCIES=6 BENCH_GAP_SECS=20 BENCH_E2E_RUNS=1 BENCH_E2E_MINUTE=0 "$BIN/bench_presence"
  timed bench_reports env BENCH_TRIPS=2000 BENCH_HOSPITALS=4 BENCH_REQUESTS=2 BENCH_FOLDS=20 "$BIN/bench_reports"
  timed bench_incoming env BENCH_OPEN=10 BENCH_TOTAL=200 BENCH_REQUESTS=3 "$BIN/bench_incoming"
  timed "bench_init (dev binaries)" env BENCH_LOG_DIR="$LOG_DIR" "$BIN/bench_init" --runs 1 "$BIN"
  timed bench_warm "$BIN/bench_warm" --warm-up 1 --iterations 2
  printf '\n%s\n' "bench smoke: every benchmark ran to its end (figures of a dev build, not judged):" >&2
  printf '  %s\n' "${timings[@]}" >&2
  exit 0
fi

log "building the benchmark (release profile)"
cargo build --quiet --release -p perf-tools --bin bench_nearest --bin bench_booking --bin bench_emergency --bin bench_deadlines --bin bench_live --bin bench_privacy --bin bench_push --bin bench_presence --bin bench_reports --bin bench_incoming
# Deployable sizes, from the last `make lambda-build` (arm64 zips), else from the last
# x86_64 release build; nothing is printed that was not measured.
python3 "$ROOT/scripts/lambda-sizes.py" any

start_ddb
target/release/bench_nearest
target/release/bench_booking
target/release/bench_emergency
target/release/bench_deadlines
target/release/bench_live
target/release/bench_privacy
target/release/bench_push
target/release/bench_presence
target/release/bench_reports
target/release/bench_incoming

# Lambda figures (tools/perf). Init: each function's release binary (what is
# deployed: thin LTO, opt-level "s") started INIT_RUNS times against a local stand-in
# for the Lambda Runtime API, timed from process start to its first request for work.
# Warm: every route of every function in-process, WARM_ITERATIONS times, next to a
# bare GetItem.
log "building the functions with --release (first time: several minutes) and the Lambda benchmarks"
cargo build --quiet --release "${packages[@]}"
cargo build --quiet --release -p perf-tools --bin bench_init --bin bench_warm
BENCH_LOG_DIR="$LOG_DIR" target/release/bench_init --runs "${INIT_RUNS:-10}" target/release
target/release/bench_warm --iterations "${WARM_ITERATIONS:-200}"
