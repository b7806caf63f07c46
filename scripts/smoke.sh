#!/usr/bin/env bash
# `make smoke URL=https://dxxxx.cloudfront.net`: a few real requests against a deployed
# (or local) stack, printing what failed.
#   1. register a throwaway user   POST /api/auth/register   -> 201 + token
#   2. sign in as that user        POST /api/auth/login      -> 200 + token
#   3. nearest hospitals           GET  /api/hospitals/nearest?lat=..&lng=..  -> 200 + list
#   4. read the profile            GET  /api/user/profile    -> 200, the same user
# URL is the site (the API is under /api) or the API itself; locally, e.g.
# http://localhost:9000 (make dev's functions). Optional: LAT, LNG (default city).
# The user stays in the table (there is no delete route); its name starts with "smoke-".
set -euo pipefail

BASE=${1:-${URL:-}}
[ -n "$BASE" ] || { echo "usage: scripts/smoke.sh BASE_URL   (or make smoke URL=BASE_URL)" >&2; exit 2; }
BASE=${BASE%/}
LAT=${LAT:-30.67}
LNG=${LNG:-74.33}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
status=""

green="" red="" plain=""
if [ -t 1 ]; then green=$'\033[32m' red=$'\033[31m' plain=$'\033[0m'; fi
pass() { printf '  %sPASS%s %s\n' "$green" "$plain" "$*"; }
fail() { printf '  %sFAIL%s %s\n' "$red" "$plain" "$*"; failures=$((failures + 1)); }

# request METHOD PATH [BODY] [TOKEN]: sets $status, body in $tmp/body.
request() {
  local method=$1 path=$2 body=${3:-} token=${4:-}
  local args=(-s -S -m 30 -o "$tmp/body" -w '%{http_code}' -X "$method" -H 'Accept: application/json')
  if [ -n "$body" ]; then args+=(-H 'Content-Type: application/json' --data "$body"); fi
  if [ -n "$token" ]; then args+=(-H "Authorization: Bearer $token"); fi
  status=$(curl "${args[@]}" "$BASE$path" 2>"$tmp/curl.err") || status="000 ($(cat "$tmp/curl.err"))"
}

# json EXPRESSION: evaluates a Python expression on the last body (as `b`); empty on error.
json() {
  python3 "$(dirname "$0")/json-field.py" "$1" "$tmp/body" 2>/dev/null || true
}

snippet() { head -c 300 "$tmp/body" 2>/dev/null | tr '\n' ' '; }

name="smoke-$(date +%s)-$RANDOM"
password="smoke-$RANDOM$RANDOM-pass"
echo "Smoke test against $BASE as $name"

request POST /api/auth/register "$(printf '{"username":"%s","email":"%s@example.com","password":"%s","phone":"5550100123","latitude":%s,"longitude":%s}' \
  "$name" "$name" "$password" "$LAT" "$LNG")"
if [ "$status" = 201 ] && [ -n "$(json 'b["token"]')" ]; then
  pass "register: 201, user id $(json 'b["user"]["id"]')"
else
  fail "register: expected 201 with a token, got $status: $(snippet)"
fi

request POST /api/auth/login "$(printf '{"username":"%s","password":"%s"}' "$name" "$password")"
token=$(json 'b["token"]')
if [ "$status" = 200 ] && [ -n "$token" ]; then
  pass "login: 200, role $(json 'b["role"]')"
else
  fail "login: expected 200 with a token, got $status: $(snippet)"
fi

request GET "/api/hospitals/nearest?lat=$LAT&lng=$LNG&limit=5"
count=$(json 'len(b) if isinstance(b, list) else None')
if [ "$status" = 200 ] && [ -n "$count" ]; then
  pass "nearest hospitals: 200, $count found$([ "$count" = 0 ] && echo ' (an empty table has none: add hospitals as an admin)')"
else
  fail "nearest hospitals: expected 200 with a list, got $status: $(snippet)"
fi

if [ -n "$token" ]; then
  request GET /api/user/profile "" "$token"
  if [ "$status" = 200 ] && [ "$(json 'b["username"]')" = "$name" ]; then
    pass "profile: 200, username $name"
  else
    fail "profile: expected 200 with username $name, got $status: $(snippet)"
  fi
else
  fail "profile: skipped, no token from login"
fi

if [ "$failures" -gt 0 ]; then
  echo "$failures check(s) failed against $BASE"
  exit 1
fi
echo "All checks passed against $BASE"
