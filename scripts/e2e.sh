#!/usr/bin/env bash
# End-to-end: the built frontend and Playwright in Debian's Chromium, against the
# whole stack (scripts/stack.sh) on free ports with an in-memory DynamoDB Local and a
# table of its own. With E2E_SHARDS=2 the test files run in two shards side by side,
# each against a stack of its own, so they never share data. Arguments go to
# `playwright test`. Artifacts (CI keeps frontend/e2e-artifacts/):
#   frontend/e2e-artifacts/screenshots/       screenshots the tests take
#   frontend/e2e-artifacts/report-<n>/        Playwright's HTML report of shard n
#   frontend/e2e-artifacts/test-results-<n>/  traces of failed tests of shard n
#   frontend/e2e-artifacts/logs/shard-<n>/    DynamoDB Local, functions, web server
#   frontend/e2e-artifacts/logs/build.log     the frontend's build
. "$(dirname "$0")/lib.sh"
. "$ROOT/scripts/stack.sh"
cd "$ROOT"

"$ROOT/scripts/ensure-tools.sh" chromium cargo-lambda ddb frontend
LOG_DIR="$ROOT/frontend/e2e-artifacts/logs"
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

# E2E_SHARDS=2 splits the files in two shards about evenly by time (a run of
# 2026-11-27: 4.3 of the 9.2 minutes were a11y.spec.ts): the accessibility, screenshot
# and edge files, and every other file (a new spec file joins the second). Not the
# default: in CI on 2 cores, two Chromiums running axe at once made the accessibility
# tests run out of time (docs/performance.md, "Fast to build"). Arguments naming tests
# always run in one shard.
SHARD_1_FILES=(e2e/a11y.spec.ts e2e/screens.spec.ts e2e/edge.spec.ts)
SHARDS=${E2E_SHARDS:-1}
if [ $# -gt 0 ]; then SHARDS=1; fi
case "$SHARDS" in 1|2) ;; *) die "E2E_SHARDS is 1 or 2, not $SHARDS" ;; esac
rm -rf "$LOG_DIR"/shard-* "$LOG_DIR"/playwright-*.log "$ROOT"/frontend/e2e-artifacts/report-* "$ROOT"/frontend/e2e-artifacts/test-results-*

# A build folder of this run's own: frontend/dist may be rebuilt meanwhile by someone else.
DIST="$(mktemp -d "$ROOT/target/e2e-dist.XXXXXX")"
trap 'rm -rf "$DIST"' EXIT
log "building the frontend"
# vite build without `npm run build`'s tsc: make test type-checks in a stage of its own
# (tsc --noEmit), and a type error does not change what vite bundles.
(cd "$ROOT/frontend" && npm run --silent api-types && npx vite build --outDir "$DIST" --emptyOutDir >"$LOG_DIR/build.log" 2>&1) \
  || { cat "$LOG_DIR/build.log"; die "frontend build failed"; }
node "$ROOT/frontend/scripts/bundle-budget.mjs" "$DIST"

# One shard: its own stack (the EXIT trap of stack_up stops it when the shard ends),
# vite preview of the build, and Playwright's share of the tests.
run_shard() {
  local n=$1; shift
  stack_up "$LOG_DIR/shard-$n" e2e
  local web_port; web_port=$(free_port)
  stack_web preview "$web_port" "$DIST"
  log "shard $n/$SHARDS: Playwright against http://127.0.0.1:$web_port (functions :$API_PORT, DynamoDB Local :$DDB_PORT)"
  (cd "$ROOT/frontend" && E2E_SHARD="$n" E2E_BASE_URL="http://127.0.0.1:$web_port" \
    npx playwright test "$@")
}

# The files of shard n (of 2).
files_of_shard() {
  local f
  if [ "$1" = 1 ]; then printf '%s\n' "${SHARD_1_FILES[@]}"; return; fi
  for f in "$ROOT"/frontend/e2e/*.spec.ts; do
    f="e2e/$(basename "$f")"
    [[ " ${SHARD_1_FILES[*]} " == *" $f "* ]] || printf '%s\n' "$f"
  done
}

pids=()
for n in $(seq "$SHARDS"); do
  if [ "$SHARDS" = 1 ]; then args=("$@"); else mapfile -t args < <(files_of_shard "$n"); fi
  # Each shard's lines carry its number; its exit status is Playwright's (or the stack's).
  ( set -o pipefail; run_shard "$n" "${args[@]}" 2>&1 | sed -u "s/^/[e2e $n] /" | tee "$LOG_DIR/playwright-$n.log" ) &
  pids+=($!)
done
failed=()
for n in $(seq "$SHARDS"); do
  wait "${pids[$((n - 1))]}" || failed+=("$n")
done
log "screenshots: frontend/e2e-artifacts/screenshots/  reports: frontend/e2e-artifacts/report-<shard>/index.html"
# Playwright's own summary ("N flaky" and the tests under it) scrolls by with the
# shard's lines: say once more, last, which tests needed their retry in CI.
sed 's/\x1b\[[0-9;]*m//g' "$LOG_DIR"/playwright-*.log 2>/dev/null \
  | grep -A 12 -E '^\[e2e [0-9]\] +[0-9]+ flaky' | grep '›' | sed -E 's/^\[e2e [0-9]\] +//; s/ ─+$//' \
  | while IFS= read -r line; do log "flaky (failed, then passed on its retry): $line"; done || true
[ "${#failed[@]}" = 0 ] || die "end-to-end shard(s) ${failed[*]} of $SHARDS failed (their lines start with [e2e <shard>])"
log "end-to-end: all $SHARDS shard(s) passed"
