#!/usr/bin/env bash
# `make fuzz-api`: schemathesis against the whole local stack (scripts/stack.sh: an
# in-memory DynamoDB Local with the demo data, `cargo lambda watch`), driven by
# docs/openapi.yaml with every check on, signed in as the demo user, as a crew
# (crew1), as hospital staff (hospital1) and as the admin: the user on one stack, the
# crew, the hospital staff then the admin on a second, side by side. Passes only with 0 server errors and 0 responses that break the schema.
#
# Usage: scripts/fuzz-api.sh [--bounded]
#   --bounded   what `make test` runs: a fixed seed and FUZZ_MAX_EXAMPLES (default 20)
#               examples per operation, so it stays well under five minutes.
# Environment: FUZZ_MAX_EXAMPLES (default 100 unbounded, 20 bounded), FUZZ_SEED.
# Reports (JUnit, NDJSON) and summary.txt go to target/fuzz-api/{bounded,full}/, each
# stack's logs to its folder there (user-stack/, crew-admin-stack/).
. "$(dirname "$0")/lib.sh"
. "$ROOT/scripts/stack.sh"
cd "$ROOT"

SCHEMATHESIS_VERSION="4.32.5"
BOUNDED=$(optional_flag --bounded "scripts/fuzz-api.sh [--bounded]" "$@")
if [ "$BOUNDED" = 1 ]; then
  MAX_EXAMPLES="${FUZZ_MAX_EXAMPLES:-20}"
  SEED="${FUZZ_SEED:-20260101}"
else
  MAX_EXAMPLES="${FUZZ_MAX_EXAMPLES:-100}"
  SEED="${FUZZ_SEED:-}"
fi

"$ROOT/scripts/ensure-tools.sh" cargo-lambda ddb

# schemathesis in a venv of its own, pinned: its dependencies stay out of the SAM
# CLI's way, and a new release cannot change what `make test` checks.
ST_VENV="$TOOLS/schemathesis-$SCHEMATHESIS_VERSION"
ST="$ST_VENV/bin/st"
if ! "$ST" --version >/dev/null 2>&1; then
  log "installing schemathesis $SCHEMATHESIS_VERSION from PyPI"
  rm -rf "$ST_VENV"
  python3 -m venv "$ST_VENV"
  "$ST_VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
  "$ST" --version >/dev/null || die "schemathesis did not install"
fi

# One folder per form, so `make test`'s bounded run and a full one do not collide.
OUT="$ROOT/target/fuzz-api/$([ "$BOUNDED" = 1 ] && echo bounded || echo full)"
rm -rf "$OUT"
mkdir -p "$OUT"

FUZZ="$ROOT/scripts/fuzz"

token_of() {
  local body
  body=$(curl -sf -m 30 -H 'Content-Type: application/json' \
    -d "{\"username\":\"$1\",\"password\":\"$2\"}" "$BASE/api/auth/login") \
    || die "login as $1 failed: is the stack seeded?"
  python3 "$ROOT/scripts/json-field.py" 'b["token"]' <<<"$body"
}

# What is expected of valid requests (scripts/fuzz/schemathesis.toml) and the
# kinds of failure the hooks drop and list (scripts/fuzz/hooks.py says which and why).
EMULATOR_500S="$OUT/emulator-500s.txt"
BOOKING_PAIRS="$OUT/booking-pairs.txt"
FUTURE_REPORTS="$OUT/future-reports.txt"
MISSING_AMBULANCES="$OUT/missing-ambulances.txt"
PUSH_POINTS="$OUT/push-points.txt"
CURSORS="$OUT/cursors.txt"
: >"$CURSORS"
REPORT_RANGES="$OUT/report-ranges.txt"
: >"$REPORT_RANGES"
DIVERSIONS="$OUT/diversions.txt"
: >"$DIVERSIONS"
: >"$MISSING_AMBULANCES"
: >"$PUSH_POINTS"
: >"$EMULATOR_500S"
: >"$BOOKING_PAIRS"
: >"$FUTURE_REPORTS"
export FUZZ_EMULATOR_500S="$EMULATOR_500S" FUZZ_BOOKING_PAIRS="$BOOKING_PAIRS" FUZZ_FUTURE_REPORTS="$FUTURE_REPORTS" FUZZ_MISSING_AMBULANCES="$MISSING_AMBULANCES" FUZZ_PUSH_POINTS="$PUSH_POINTS" FUZZ_CURSORS="$CURSORS" FUZZ_REPORT_RANGES="$REPORT_RANGES" FUZZ_DIVERSIONS="$DIVERSIONS"
# No __pycache__ beside the hooks in the source tree.
export SCHEMATHESIS_HOOKS="$FUZZ/hooks.py" PYTHONDONTWRITEBYTECODE=1

run_as() {
  local who=$1 token=$2 dir=$3
  local args=(--config-file "$FUZZ/schemathesis.toml" run "$ROOT/docs/openapi.yaml" --url "$BASE"
    --checks all --max-examples "$MAX_EXAMPLES" --workers 1
    --request-timeout 30
    -H "Authorization: Bearer $token"
    --report junit,ndjson --report-dir "$OUT/$who")
  if [ -n "$SEED" ]; then args+=(--seed "$SEED"); fi
  log "schemathesis $SCHEMATHESIS_VERSION as $who: ${MAX_EXAMPLES} examples per operation${SEED:+, seed $SEED}"
  # From the stack's folder: schemathesis keeps a .schemathesis/ cache in its working
  # directory, one per run at a time.
  (cd "$dir" && "$ST" "${args[@]}") 2>&1 | tee "$OUT/$who.log"
  return "${PIPESTATUS[0]}"
}

# fuzz_on_stack NAME WHO...: a stack of its own (logs in $OUT/NAME), schemathesis as
# each identity in turn, then the checks of what that stack's functions logged. Two
# run side by side (the user; the crew, then the admin), so that neither sees the
# other's writes: the admin's run removes and moves crew accounts, which is why the
# crew runs first on theirs.
fuzz_on_stack() {
  local name=$1 dir="$OUT/$1" who status=0 starts group token; shift
  stack_on_exit() { [ "$1" = 0 ] || log "fuzz-api FAILED on stack $name (exit $1); logs in ${dir#"$ROOT"/}"; }
  stack_up "$dir" fuzz
  BASE="http://127.0.0.1:$API_PORT"
  log "stack $name up in ${SECONDS}s (functions on :$API_PORT, DynamoDB Local on :$DDB_PORT)"
  for who in "$@"; do
    # Each identity signs in right before its run: access tokens live 5 minutes. The
    # crew account is one of the seed's (shared/store/src/seed.rs), for the /api/crew routes.
    case "$who" in
      user) token=$(token_of demo demo12345) ;;
      crew) token=$(token_of crew1 crew12345) ;;
      hospital) token=$(token_of hospital1 hospital12345) ;;
      admin) token=$(token_of admin admin12345) ;;
    esac
    run_as "$who" "$token" "$dir" || status=1
  done
  # What was filtered must not hide a server error: no function logged a 5xx, none
  # panicked, and every function still runs in the one process it started with.
  if grep -nE '"status":5[0-9][0-9][,}]' "$dir/functions.log" >&2; then
    log "a function answered 5xx (see $dir/functions.log)"; status=1
  fi
  if grep -n 'panicked at' "$dir/functions.log" >&2; then
    log "a function panicked (see $dir/functions.log)"; status=1
  fi
  for group in $(route_groups); do
    starts=$(grep -c "spawning function instance function=\"$group\"" "$dir/functions.log" || true)
    if [ "$starts" != 1 ]; then
      log "function $group was started $starts times on stack $name: it crashed or was restarted mid-run"; status=1
    fi
  done
  return "$status"
}

status=0
pids=()
( set -o pipefail; fuzz_on_stack user-stack user 2>&1 | sed -u 's/^/[fuzz user] /' ) & pids+=($!)
( set -o pipefail; fuzz_on_stack crew-admin-stack crew hospital admin 2>&1 | sed -u 's/^/[fuzz crew, hospital, admin] /' ) & pids+=($!)
for pid in "${pids[@]}"; do wait "$pid" || status=1; done

emulator=$(cut -d' ' -f1 "$EMULATOR_500S" | sort -u | wc -l)
if [ "$emulator" -gt 0 ]; then
  log "ignored $emulator response(s) that were cargo lambda watch's own 500 (listed in $EMULATOR_500S)"
  # More than a handful would mean the run tested the stand-in, not the functions.
  [ "$emulator" -le 10 ] || { log "too many stand-in 500s"; status=1; }
fi
pairs=$(cut -d' ' -f1 "$BOOKING_PAIRS" | sort -u | wc -l)
future=$(cut -d' ' -f1 "$FUTURE_REPORTS" | sort -u | wc -l)
missing=$(cut -d' ' -f1 "$MISSING_AMBULANCES" | sort -u | wc -l)
points=$(cut -d' ' -f1 "$PUSH_POINTS" | sort -u | wc -l)
cursors=$(cut -d' ' -f1 "$CURSORS" | sort -u | wc -l)
ranges=$(cut -d' ' -f1 "$REPORT_RANGES" | sort -u | wc -l)
diversions=$(cut -d' ' -f1 "$DIVERSIONS" | sort -u | wc -l)
{
  echo "fuzz-api $(date -u +%Y-%m-%dT%H:%MZ) $([ "$BOUNDED" = 1 ] && echo bounded || echo full):" \
    "schemathesis $SCHEMATHESIS_VERSION, $MAX_EXAMPLES examples per operation${SEED:+, seed $SEED}, $(nproc) cores"
  for who in user crew hospital admin; do
    echo "$who: $(grep -E '^  [0-9]+ generated' "$OUT/$who.log" | tail -n 1 | sed 's/^ *//')," \
      "$(grep -E '^Seed: ' "$OUT/$who.log" | tail -n 1 | tr 'S' 's')"
  done
  echo "stand-in 500s ignored: $emulator; bookings refused for a foreign ambulance: $pairs;" \
    "positions refused as recorded in the future: $future;" \
    "crew moves to a removed ambulance (404 for the body's ambulance): $missing;" \
    "push keys of the right form off the P-256 curve: $points;" \
    "alert pages asked with a cursor never handed out: $cursors;" \
    "reports whose 'to' is before 'from' or over 366 days after it: $ranges;" \
    "diversions not within the next 24 h: $diversions"
  echo "result: $([ "$status" = 0 ] && echo passed || echo FAILED) in ${SECONDS}s"
} >"$OUT/summary.txt"
cat "$OUT/summary.txt" >&2
if [ "$status" != 0 ]; then
  # Each failed operation once, on one line that names it: CI keeps only a run's end,
  # and schemathesis' own account of a failure spans many lines.
  python3 - "$OUT" <<'PY' >&2
import glob, sys, xml.etree.ElementTree as ET
for who in ("user", "crew", "hospital", "admin"):
    for path in glob.glob(f"{sys.argv[1]}/{who}/junit-*.xml"):
        for case in ET.parse(path).iter("testcase"):
            for bad in list(case.iter("failure")) + list(case.iter("error")):
                text = " ".join((bad.get("message") or bad.text or "").split())
                print(f"fuzz-api failed as {who}: {case.get('name')}: {text[:300]}")
PY
  die "fuzz-api failed (see above and $OUT)"
fi
log "fuzz-api passed in ${SECONDS}s: 0 server errors and 0 schema violations, as user, crew, hospital staff and admin"
