#!/usr/bin/env bash
# End-to-end: the built frontend and Playwright in Debian's Chromium, against the
# whole stack (scripts/stack.sh) on free ports with an in-memory DynamoDB Local and a
# table of its own. The tests run in two groups at the same time, each against a stack
# of its own and under a CPU meter of its own, so that each test's CPU-seconds are its
# group's (Playwright's projects, frontend/playwright.config.ts):
#   app        every spec but those below, on a stack with the production answer
#              windows, so a job never moves away under a test slow to accept it;
#   deadlines  the specs about answer deadlines (SHORT_DEADLINE_SPECS), on a stack whose
#              answer windows are ANSWER_WINDOW_SECS and whose clock sweeps every
#              second: the same settings, functions and clock as in AWS, with short
#              values, so that no test waits a minute for a deadline. Its two tests
#              mostly wait for that clock (0.6 of a core in CI): beside the app group
#              they take 3 minutes off the run's wall time, not one after it
#              (docs/performance.md, "CI time").
# A group none of whose tests is selected is not started. Arguments go to
# `playwright test`. Artifacts (CI keeps frontend/e2e-artifacts/):
#   frontend/e2e-artifacts/screenshots/            screenshots the tests take
#   frontend/e2e-artifacts/report-<group>/         Playwright's HTML report of a group
#   frontend/e2e-artifacts/test-results-<group>/   traces of failed tests of a group
#   frontend/e2e-artifacts/timings-<group>.json    each test's time and CPU-seconds
#   frontend/e2e-artifacts/logs/<group>/           DynamoDB Local, functions, web server
#   frontend/e2e-artifacts/logs/build.log          the frontend's build
. "$(dirname "$0")/lib.sh"
. "$ROOT/scripts/stack.sh"
cd "$ROOT"

LOG_DIR="$ROOT/frontend/e2e-artifacts/logs"
# The answer window of the deadlines group: long enough for a crew's screen to show the
# job (it polls every 3 s) and a test to look at it, short enough that no test waits
# long (docs/performance.md, "CI time").
ANSWER_WINDOW_SECS=${ANSWER_WINDOW_SECS:-15}
ALL_GROUPS=(app deadlines)

# One group: its own stack (the EXIT trap of stack_up stops it when the group ends),
# vite preview of the build, and Playwright's tests of that project.
run_group() {
  local group=$1; shift
  if [ "$group" = deadlines ]; then
    export ANSWER_EMERGENCY_SECS=$ANSWER_WINDOW_SECS ANSWER_NORMAL_SECS=$ANSWER_WINDOW_SECS CLOCK_EVERY_SECS=1
    log "group deadlines: answer windows of ${ANSWER_WINDOW_SECS} s, the clock every second"
  fi
  stack_up "$LOG_DIR/$group" "e2e-$group"
  local web_port; web_port=$(free_port)
  stack_web preview "$web_port" "$DIST"
  log "group $group: Playwright against http://127.0.0.1:$web_port (functions :$API_PORT, DynamoDB Local :$DDB_PORT)"
  (cd "$ROOT/frontend" && E2E_GROUP="$group" E2E_BASE_URL="http://127.0.0.1:$web_port" \
    npx playwright test --project="$group" "$@")
}

# A group's own process, started below once the frontend is built (E2E_DIST), under
# the group's own CPU meter (E2E_CPU_SNAPSHOT) and inside the run's lock.
if [ -n "${E2E_ONLY_GROUP:-}" ]; then
  DIST=$E2E_DIST
  run_group "$E2E_ONLY_GROUP" "$@"
  exit
fi

"$ROOT/scripts/ensure-tools.sh" chromium cargo-lambda ddb frontend
mkdir -p "$LOG_DIR" "$ROOT/target"

# The whole run under the CPU meter (scripts/cpu-meter.py): it writes the CPU-seconds
# so far of every process of the run (the stack, Chromium, Node) to E2E_CPU_SNAPSHOT,
# which the timings reporter (frontend/e2e/timings.ts) reads at each test's start and
# end to print what each spec cost; the run's own total goes to logs/cpu.json.
if [ -z "${E2E_CPU_SNAPSHOT:-}" ]; then
  export E2E_CPU_SNAPSHOT="$LOG_DIR/cpu-snapshot.json"
  exec python3 "$ROOT/scripts/cpu-meter.py" run --snapshot "$E2E_CPU_SNAPSHOT" --json "$LOG_DIR/cpu.json" -- "$0" "$@"
fi

# One run at a time per checkout: Playwright empties its output folder when it starts,
# and the logs and screenshots folders are shared, so a second run waits its turn.
# (The stack's processes do not inherit the lock: stack.sh closes fd 9 for them.)
exec 9>"$ROOT/target/e2e.lock"
if ! flock -n 9; then
  log "another end-to-end run in this checkout is under way; waiting for it (up to 30 min)"
  flock -w 1800 9 || die "the other end-to-end run did not finish within 30 min"
fi

rm -rf "$LOG_DIR"/shard-* "$LOG_DIR"/app "$LOG_DIR"/deadlines "$LOG_DIR"/playwright-*.log \
  "$ROOT"/frontend/e2e-artifacts/report-* "$ROOT"/frontend/e2e-artifacts/test-results-* "$ROOT"/frontend/e2e-artifacts/timings*.json

# A build folder of this run's own: frontend/dist may be rebuilt meanwhile by someone else.
DIST="$(mktemp -d "$ROOT/target/e2e-dist.XXXXXX")"
trap 'rm -rf "$DIST"' EXIT
log "building the frontend"
# vite build without `npm run build`'s tsc: make test type-checks in a stage of its own
# (tsc --noEmit), and a type error does not change what vite bundles. The crew's phone
# reports a parked position every 20 s here, not 100, and a moved one after 5 s, not
# 60 (frontend/README.md, "Build settings"): a test that moves a phone sees the report
# at once, and a position never turns stale while a test waits on something else.
(cd "$ROOT/frontend" && npm run --silent api-types \
  && VITE_CREW_IDLE_REPORT_SECS=5 VITE_CREW_HEARTBEAT_SECS=20 npx vite build --outDir "$DIST" --emptyOutDir >"$LOG_DIR/build.log" 2>&1) \
  || { cat "$LOG_DIR/build.log"; die "frontend build failed"; }
node "$ROOT/frontend/scripts/bundle-budget.mjs" "$DIST"

# How many tests of a group the arguments select (Playwright's --list; a --reporter of
# the arguments is left out, so that listing writes no report over the last group's).
tests_in() {
  local group=$1 arg args=(); shift
  for arg in "$@"; do [[ "$arg" == --reporter* ]] || args+=("$arg"); done
  { (cd "$ROOT/frontend" && npx playwright test --list --project="$group" "${args[@]}" 2>/dev/null) || true; } \
    | sed -n 's/^Total: \([0-9]*\) tests\{0,1\} in .*/\1/p' | tail -n 1
}

failed=() ran=() pids=()
for group in "${ALL_GROUPS[@]}"; do
  count=$(tests_in "$group" "$@")
  if [ -z "$count" ] || [ "$count" = 0 ]; then continue; fi
  ran+=("$group")
  # Each group's lines carry its name; its exit status is Playwright's (or the stack's).
  ( set -o pipefail
    E2E_ONLY_GROUP=$group E2E_DIST=$DIST E2E_CPU_SNAPSHOT="$LOG_DIR/cpu-snapshot-$group.json" \
      python3 "$ROOT/scripts/cpu-meter.py" run --snapshot "$LOG_DIR/cpu-snapshot-$group.json" \
        --json "$LOG_DIR/cpu-$group.json" -- "$0" "$@" 2>&1 \
      | sed -u "s/^/[e2e $group] /" | tee "$LOG_DIR/playwright-$group.log" ) &
  pids+=($!)
done
for i in "${!pids[@]}"; do wait "${pids[$i]}" || failed+=("${ran[$i]}"); done
[ "${#ran[@]}" -gt 0 ] || die "no test selected by: $*"
log "screenshots: frontend/e2e-artifacts/screenshots/  reports: frontend/e2e-artifacts/report-<group>/index.html"
# Every spec file of the run, slowest first, with its CPU-seconds (both groups).
python3 "$ROOT/scripts/e2e-timings.py" "$ROOT"/frontend/e2e-artifacts/timings-*.json || true
# Playwright's own summary ("N flaky" and the tests under it) scrolls by with the
# group's lines: say once more, last, which tests needed their retry in CI.
sed 's/\x1b\[[0-9;]*m//g' "$LOG_DIR"/playwright-*.log 2>/dev/null \
  | grep -A 12 -E '^\[e2e [a-z]+\] +[0-9]+ flaky' | grep '›' | sed -E 's/^\[e2e [a-z]+\] +//; s/ ─+$//' \
  | while IFS= read -r line; do log "flaky (failed, then passed on its retry): $line"; done || true
[ "${#failed[@]}" = 0 ] || die "end-to-end group(s) ${failed[*]} failed (their lines start with [e2e <group>])"
log "end-to-end: group(s) ${ran[*]} passed"
