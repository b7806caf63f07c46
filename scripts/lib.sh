# shellcheck shell=bash
# Shared helpers for the project's scripts. Source it: `. "$(dirname "$0")/lib.sh"`.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
DDB_DIR="${DDB_DIR:-$TOOLS/dynamodb-local}"
DDB_VERSION="10.3.0"
# The Python tools the scripts install (cargo-lambda, the SAM CLI, tree-sitter) go to
# a virtual environment of the project's own: a system Python may refuse `pip install`
# (PEP 668), and the project's pins stay out of the user's packages.
PY_VENV="$TOOLS/python"
export PATH="$PY_VENV/bin:$PATH"

# DynamoDB Local accepts any credentials; the SDK just needs some.
export SAM_CLI_TELEMETRY=0
export AWS_REGION="${AWS_REGION:-us-east-1}"
export AWS_ACCESS_KEY_ID="${AWS_ACCESS_KEY_ID:-local}"
export AWS_SECRET_ACCESS_KEY="${AWS_SECRET_ACCESS_KEY:-local}"

log() { printf '\033[1;34m==>\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31merror:\033[0m %s\n' "$*" >&2; exit 1; }

# For a script with one optional flag: prints 1 when its arguments are exactly FLAG, 0
# when there are none, and stops with the usage otherwise.
#   FAST=$(optional_flag --fast "scripts/test.sh [--fast]" "$@")
optional_flag() {
  local flag=$1 usage=$2; shift 2
  case "$#:${1:-}" in
    0:) echo 0 ;;
    "1:$flag") echo 1 ;;
    *) die "usage: $usage" ;;
  esac
}

# Runs `stage "title" command...`: prints the title, times the command and, when it
# fails, the durations so far, then stops. print_summary prints every stage's duration.
# In CI the stage's output is also kept, and on failure the lines that name what failed
# are printed again last: what CI keeps of a run is its end (stop 20 failed 1 of 354
# vitest tests, and the end of the log did not say which).
# Durations go to a file, so that stages run inside lanes (below) are summed up too.
# Not exported: a script run by a stage keeps a summary of its own.
# Each stage's CPU-seconds (user + system, of everything it started, the daemons it
# left to others to reap included) are measured beside it by scripts/cpu-meter.py: on a
# shared 2-core machine they, not the wall times, say what a stage costs
# (docs/performance.md, "CI time"). The command runs in a subshell that carries the
# meter's tag; a function's variables therefore stay in it.
STAGES_STARTED=$(date +%s)
STAGE_SUMMARY_FILE=$(mktemp)
stage() {
  local title=$1 t0 rc=0 log='' m tag meter cpu; shift
  t0=$(date +%s)
  # The meter's files: one folder per run, made by its first stage (lanes share it).
  if [ -z "${STAGE_CPU_DIR:-}" ]; then STAGE_CPU_DIR=$(mktemp -d); fi
  printf '\n\033[1;34m==== %s\033[0m (at %ss)\n' "${LANE:+[$LANE] }$title" "$(( t0 - STAGES_STARTED ))" >&2
  if [ "${CI:-}" = true ] && [ -z "${LANE:-}" ]; then log=$(mktemp); fi
  tag="s$(date +%s%N)$RANDOM"
  m="$STAGE_CPU_DIR/$tag"
  python3 "$ROOT/scripts/cpu-meter.py" watch --tag "$tag" --pid-file "$m.pid" --times-file "$m.times" \
    --json "$m.json" </dev/null &
  meter=$!
  (
    echo "$BASHPID" >"$m.pid"
    export CPU_METER_TAGS="${CPU_METER_TAGS:+$CPU_METER_TAGS:}$tag"
    rc=0
    if [ -n "$log" ]; then
      "$@" 2>&1 | tee "$log" || rc=${PIPESTATUS[0]}
    else
      "$@" || rc=$?
    fi
    times >"$m.times.part" && mv "$m.times.part" "$m.times"
    exit "$rc"
  ) || rc=$?
  wait "$meter" 2>/dev/null || true
  cpu=$(python3 -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["cpu"]))' "$m.json" 2>/dev/null || echo '?')
  rm -f "$m".*
  printf '%s\t%s\t%s%s\t%s\n' "$(( $(date +%s) - t0 ))" "$cpu" "${LANE:+[$LANE] }" "$title" "$([ $rc = 0 ] || echo FAILED)" >>"$STAGE_SUMMARY_FILE"
  if [ $rc != 0 ]; then
    [ -n "$log" ] && failure_lines "$log"
    [ -n "${LANE:-}" ] || print_summary
    die "stage failed: $title (exit $rc)"
  fi
  [ -z "$log" ] || rm -f "$log"
}
# The lines of a failed stage's output that name what failed (vitest, nextest, cargo,
# Playwright, schemathesis), without colours, at most 40; not the lines that only look
# like failures: a passed test's title ("✓ says 'Failed to load'") or a function's JSON
# log line (a metric named PushesFailed), which filled what CI kept of stop 32's run.
failure_pattern() {
  grep -E 'FAIL|×|✘|panicked|error(\[|:)|[Ff]ailed|Error:|flaky' | grep -vE '^\s*(✓|\{")|^\[[^]]*\] \{"'
}
failure_lines() {
  printf '\n%s\n' "what failed (from the stage's output):" >&2
  sed 's/\x1b\[[0-9;]*m//g' "$1" | failure_pattern | tail -n 40 >&2 || true
}
# Every stage's wall time and CPU-seconds, and its wall-time budget (scripts/budget.txt,
# the one place budgets are written): a stage over its budget is named, and one past
# BUDGET_WARN_AT per cent of it too, before it goes over. Budgets warn; they never fail
# a run (what a stage's time depends on, the machine, is not the code's to decide).
print_summary() {
  python3 "$ROOT/scripts/budget.py" "$STAGE_SUMMARY_FILE" "$(( $(date +%s) - STAGES_STARTED ))" "${RUN_NAME:-}" >&2 || true
}

# Lanes: series of stages that run side by side, so that what waits on a database or
# a browser leaves the second core to what computes (docs/performance.md, "Fast to
# build"). `lane NAME FUNCTION [ARGS]` starts FUNCTION (which calls `stage`) in the
# background with its output in LANE_DIR/NAME.log; `wait_lanes` waits for every lane
# started, prints each lane's log as it ends, and fails when any lane failed (after
# all have ended: a lane's processes clean up after themselves on exit).
LANE_DIR=${LANE_DIR:-}
LANE_PIDS=() LANE_NAMES=()
lane() {
  local name=$1; shift
  [ -n "$LANE_DIR" ] || { LANE_DIR=$(mktemp -d); }
  mkdir -p "$LANE_DIR"
  log "lane $name started (log: ${LANE_DIR#"$ROOT"/}/$name.log)"
  ( LANE=$name; "$@" ) >"$LANE_DIR/$name.log" 2>&1 < /dev/null &
  LANE_PIDS+=($!) LANE_NAMES+=("$name")
}
wait_lanes() {
  local i rc failed=() pid
  local -A done=()
  while [ "${#done[@]}" -lt "${#LANE_PIDS[@]}" ]; do
    for i in "${!LANE_PIDS[@]}"; do
      pid=${LANE_PIDS[$i]}
      [ -z "${done[$i]:-}" ] || continue
      kill -0 "$pid" 2>/dev/null && continue
      rc=0; wait "$pid" || rc=$?
      done[$i]=1
      printf '\n\033[1;34m======== lane %s ended (exit %s) at %ss; its output:\033[0m\n' \
        "${LANE_NAMES[$i]}" "$rc" "$(( $(date +%s) - STAGES_STARTED ))" >&2
      cat "$LANE_DIR/${LANE_NAMES[$i]}.log" >&2
      if [ "$rc" != 0 ]; then
        failed+=("${LANE_NAMES[$i]}")
        failure_lines "$LANE_DIR/${LANE_NAMES[$i]}.log"
      fi
    done
    sleep 1
  done
  LANE_PIDS=() LANE_NAMES=()
  if [ "${#failed[@]}" -gt 0 ]; then
    print_summary
    die "lane(s) failed: ${failed[*]}"
  fi
}

# Every target of the workspace, as make test builds it once and the benchmarks' smoke
# run reuses it. Not `--all-targets`: that also builds every `test = false` library and
# binary again as an empty test harness (39 units, 37 of 481 unit-seconds of CI's
# build of our crates at 3c40b65). A crate with unit tests keeps `test = true`
# (tests/api/manifests.rs). The workspace has no `[[bench]]`: the benchmarks are
# tools/perf's binaries.
EVERY_TARGET=(--workspace --lib --bins --tests --examples)

# What the local stack runs, as cargo arguments: every function (one per folder of
# functions/, the one list of route groups) and web's bin (`manage`).
stack_build_args() {
  local dir
  printf '%s\n' --bins -p web -p local-gateway
  for dir in "$ROOT"/functions/*/; do printf '%s\n' -p "$(basename "$dir")"; done
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Waits until an HTTP server answers on 127.0.0.1:$1 (any status), up to $2 seconds;
# gives up at once if process $3 (when given) has exited.
wait_http() {
  local port=$1 secs=${2:-60} pid=${3:-}
  for _ in $(seq $((secs * 4))); do
    if curl -s -o /dev/null "http://127.0.0.1:$port/"; then return 0; fi
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then return 1; fi
    sleep 0.25
  done
  return 1
}

# Fails loudly when something already listens on 127.0.0.1:$1 (say what it is for).
require_free_port() {
  local port=$1 what=$2
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    die "port $port ($what) is already in use; stop whatever listens there (ss -ltnp 'sport = :$port')"
  fi
}

# Kills a background process and everything in its process group.
stop_group() {
  local pid=$1 sig=${2:-TERM}
  [ -n "$pid" ] || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  kill "-$sig" -- "-$pid" 2>/dev/null || kill "-$sig" "$pid" 2>/dev/null || true
  for _ in $(seq 40); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.25; done
  kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
}

# Stops `cargo lambda watch` (started with setsid, pid $1). The watcher runs each
# function as `cargo run` in a process group of its own: SIGINT makes the watcher stop
# them, and whatever is still alive afterwards is stopped here, so nothing leaks.
stop_watch() {
  local pid=$1 kids
  [ -n "$pid" ] || return 0
  kids="$(pgrep -P "$pid" || true)"
  stop_group "$pid" INT
  for kid in $kids; do kill -TERM -- "-$kid" 2>/dev/null || true; done
  for kid in $kids; do
    for _ in $(seq 20); do pgrep -g "$kid" >/dev/null || continue 2; sleep 0.25; done
    kill -KILL -- "-$kid" 2>/dev/null || true
  done
}

# The route groups: the crates under functions/ that serve `/api/<group>` (their
# lib.rs exports `router`); the others are fed by events (the clock, decision 0012).
route_groups() {
  local dir
  for dir in "$ROOT"/functions/*/; do
    if grep -q '^pub fn router' "$dir/src/lib.rs"; then basename "$dir"; fi
  done
}

# Waits until every route group's function answers through the watcher on port $1
# with a 4xx (the request is deliberately incomplete), up to $2 seconds each. The
# watcher starts a function on demand, so this also warms them all up.
wait_functions() {
  local port=$1 secs=${2:-180} code group
  for group in $(route_groups); do
    code=000
    for _ in $(seq "$secs"); do
      if [ "$group" = auth ]; then
        code=$(curl -s -o /dev/null -w '%{http_code}' -m 60 -X POST -H 'Content-Type: application/json' \
          -d '{}' "http://127.0.0.1:$port/api/auth/login" || true)
      else
        code=$(curl -s -o /dev/null -w '%{http_code}' -m 60 "http://127.0.0.1:$port/api/$group/warm-up" || true)
      fi
      case "$code" in 4??) break ;; esac
      sleep 1
    done
    case "$code" in 4??) ;; *) log "function $group did not answer (last status $code)"; return 1 ;; esac
  done
}
