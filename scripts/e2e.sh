#!/usr/bin/env bash
# End-to-end: the whole stack (scripts/stack.sh) on free ports, an in-memory DynamoDB
# Local with its own table, the built frontend behind vite preview, and Playwright in
# Debian's Chromium. Arguments go to `playwright test`. Artifacts (CI keeps
# frontend/e2e-artifacts/):
#   frontend/e2e-artifacts/screenshots/   screenshots the tests take
#   frontend/e2e-artifacts/report/        Playwright's HTML report
#   frontend/e2e-artifacts/test-results/  traces of failed tests
#   frontend/e2e-artifacts/logs/          DynamoDB Local, functions, web server
. "$(dirname "$0")/lib.sh"
. "$ROOT/scripts/stack.sh"
cd "$ROOT"

"$ROOT/scripts/ensure-tools.sh" chromium cargo-lambda ddb frontend
LOG_DIR="$ROOT/frontend/e2e-artifacts/logs"
mkdir -p "$LOG_DIR" "$ROOT/target"

# One run at a time per checkout: Playwright empties its output folder when it starts,
# and the logs and screenshots folders are shared, so a second run waits its turn.
# (The stack's processes do not inherit the lock: stack.sh closes fd 9 for them.)
exec 9>"$ROOT/target/e2e.lock"
if ! flock -n 9; then
  log "another end-to-end run in this checkout is under way; waiting for it (up to 30 min)"
  flock -w 1800 9 || die "the other end-to-end run did not finish within 30 min"
fi

DIST=""
stack_on_exit() { [ -z "$DIST" ] || rm -rf "$DIST"; }
# Its own table on its own in-memory database: never the dev database.
stack_up "$LOG_DIR" e2e

# A build folder of this run's own: frontend/dist may be rebuilt meanwhile by someone else.
DIST="$(mktemp -d "$ROOT/target/e2e-dist.XXXXXX")"
log "building the frontend"
# vite build without `npm run build`'s tsc: make test type-checks in a stage of its own
# (tsc --noEmit), and a type error does not change what vite bundles.
(cd "$ROOT/frontend" && npm run --silent api-types && npx vite build --outDir "$DIST" --emptyOutDir >"$LOG_DIR/build.log" 2>&1) \
  || { cat "$LOG_DIR/build.log"; die "frontend build failed"; }
node "$ROOT/frontend/scripts/bundle-budget.mjs" "$DIST"

WEB_PORT=$(free_port)
stack_web preview "$WEB_PORT" "$DIST"

log "running Playwright against http://127.0.0.1:$WEB_PORT (functions :$API_PORT, DynamoDB Local :$DDB_PORT)"
(cd "$ROOT/frontend" && E2E_BASE_URL="http://127.0.0.1:$WEB_PORT" npx playwright test "$@")
log "screenshots: frontend/e2e-artifacts/screenshots/  report: frontend/e2e-artifacts/report/index.html"
