"""Schemathesis hooks for `make fuzz-api` (scripts/fuzz-api.sh, which points
SCHEMATHESIS_HOOKS here). They drop exactly seven kinds of failure, and list each in
a file the script reads afterwards:

- the alerts' page asked with a `cursor` the server never handed out, refused with
  400 naming `cursor` (a cursor is opaque: no schema can say which strings are
  one; decision 0019): only that 400 (FUZZ_CURSORS);
- a booking refused with 400 naming `ambulanceId` because the ambulance is not one of
  the hospital's (no schema can say which ids belong together): only that 400; any
  other 400 to a schema-valid booking still fails (FUZZ_BOOKING_PAIRS);
- a crew position refused with 400 naming `recordedAt` because it lies more than 30 s
  in the future or more than a day in the past (no schema can say "near now"): only
  that 400 (FUZZ_FUTURE_REPORTS);
- a hospital's diversion refused with 400 naming `until` because it is not in the
  future or more than 24 h ahead (no schema can say "within the next day";
  docs/decisions/0026-receiving-hospital.md): only that 400 (FUZZ_DIVERSIONS);
- a push subscription refused with 400 naming `keys.p256dh` because the key, of the
  right form (the contract's pattern), is not a point on the P-256 curve (no pattern
  can say so): only that 400 (FUZZ_PUSH_POINTS);
- a response-time report refused with 400 naming `to` because `to` is before `from`
  or the two are more than 366 days apart (each date alone is valid; no schema can
  compare two parameters): only that 400 (FUZZ_REPORT_RANGES);
- the stateful check "created resource not found" (ST302) when a crew account just
  created is moved (`PATCH /api/admin/crew/{id}`) to an ambulance that does not exist
  (removed earlier in the run): the 404 is the body's ambulance's, "Ambulance N not
  found" for the very `ambulanceId` sent (the contract: 404 for an unknown id), not the
  crew account's; only that 404 (FUZZ_MISSING_AMBULANCES);
- answers from `cargo lambda watch`, the local stand-in for API Gateway, never from a
  function: now and then (about 1 in 1000 requests, always a response of ~50 kB) it
  answers 500 `{"type":"https://httpstatuses.com/500",...}` (text/plain) of its own
  after the function logged its 200. Its Runtime API acknowledges the function's
  response POST before it has read the body, and the read then fails
  (cargo-lambda-watch 1.9.2: respond_to_next_invocation in
  runtime/functions_router.rs, create_buffered_response in trigger_router.rs). They
  are listed in FUZZ_EMULATOR_500S; that nothing was hidden is checked by the script
  from the functions' own log (no 5xx logged, no panic, no function restarted). A
  function's own 500 is JSON with a requestId and always counts.

Bodies that are not UTF-8 are not generated: API Gateway would hand them over
base64-encoded, but the stand-in answers them with a 500 before any function runs.
"""

import json
import os

import schemathesis

EMULATOR_500 = b'{"type":"https://httpstatuses.com/500","status":500,"title":"Internal Server Error"}'


@schemathesis.hook
def filter_body(ctx, body):
    raw = getattr(body, "data", body)
    if isinstance(raw, (bytes, bytearray)):
        try:
            bytes(raw).decode("utf-8")
        except UnicodeDecodeError:
            return False
    return True


def note(variable, case, failure):
    with open(os.environ[variable], "a") as out:
        out.write(f"{case.id} {case.method} {case.formatted_path}: {failure.title}\n")


def is_400_naming(case, response, method, path, field, words):
    """`response` is the 400 of `method path` that names `field` and says `words`."""
    if case.method.upper() != method or case.path != path or response.status_code != 400:
        return False
    try:
        body = json.loads(response.content)
    except ValueError:
        return False
    return body.get("field") == field and words in body.get("message", "")


def is_foreign_ambulance(case, response):
    return is_400_naming(case, response, "POST", "/api/booking/book", "ambulanceId", "does not belong to hospital")


def is_future_report(case, response):
    return any(
        is_400_naming(case, response, "PUT", "/api/crew/location", "recordedAt", words)
        for words in ("in the future", "a day in the past")
    )


def is_diversion_time(case, response):
    return any(
        is_400_naming(case, response, "PUT", "/api/hospital/diversion", "until", words)
        for words in ("must lie in the future", "at most 24 hours")
    )


def is_off_curve_key(case, response):
    return is_400_naming(case, response, "PUT", "/api/push/subscription", "keys.p256dh", "not a point on the P-256 curve")


def is_foreign_cursor(case, response):
    return is_400_naming(case, response, "GET", "/api/admin/alerts", "cursor", "the cursor of the previous page")


def is_report_range(case, response):
    return any(
        is_400_naming(case, response, "GET", "/api/admin/reports/response-times", "to", words)
        for words in ("is before 'from'", "A report covers at most 366 days")
    )


def is_missing_ambulance(case, response):
    """The 404 of a crew move that names the ambulance in its body, not the account."""
    if case.method.upper() != "PATCH" or case.path != "/api/admin/crew/{id}" or response.status_code != 404:
        return False
    try:
        message = json.loads(response.content).get("message")
    except ValueError:
        return False
    body = case.body if isinstance(case.body, dict) else {}
    return "ambulanceId" in body and message == f"Ambulance {body['ambulanceId']} not found"


@schemathesis.hook
def filter_failure(ctx, failure, case, response):
    if response is None:
        return True
    if response.status_code == 500 and (response.content or b"").strip() == EMULATOR_500:
        note("FUZZ_EMULATOR_500S", case, failure)
        return False
    if failure.code == "ST202" and is_foreign_ambulance(case, response):
        note("FUZZ_BOOKING_PAIRS", case, failure)
        return False
    if failure.code == "ST202" and is_future_report(case, response):
        note("FUZZ_FUTURE_REPORTS", case, failure)
        return False
    if failure.code == "ST202" and is_diversion_time(case, response):
        note("FUZZ_DIVERSIONS", case, failure)
        return False
    if failure.code == "ST202" and is_off_curve_key(case, response):
        note("FUZZ_PUSH_POINTS", case, failure)
        return False
    if failure.code == "ST202" and is_foreign_cursor(case, response):
        note("FUZZ_CURSORS", case, failure)
        return False
    if failure.code == "ST202" and is_report_range(case, response):
        note("FUZZ_REPORT_RANGES", case, failure)
        return False
    if failure.code == "ST302" and is_missing_ambulance(case, response):
        note("FUZZ_MISSING_AMBULANCES", case, failure)
        return False
    return True
