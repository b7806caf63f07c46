#!/usr/bin/env python3
"""The functions' JSON log lines, one readable line each (`make logs`): a request as
`POST /api/booking/emergency 201 412 ms user booking=1 req=0661927c`, a metric line as
`metric booking EmergencyDispatches=1 Outcome=dispatched`, anything else as it is.
Reads stdin (or the files named) and follows nothing itself: `make logs` tails."""

import json
import sys


def readable(line: str) -> str:
    try:
        entry = json.loads(line)
    except ValueError:
        return line
    if not isinstance(entry, dict):
        return line
    aws = entry.get("_aws")
    if isinstance(aws, dict):  # a CloudWatch Embedded Metric Format line
        spec = (aws.get("CloudWatchMetrics") or [{}])[0]
        names = [m.get("Name") for m in spec.get("Metrics", [])]
        dims = [d for ds in spec.get("Dimensions", []) for d in ds if d != "Function"]
        values = " ".join(f"{n}={entry.get(n):g}" for n in names if isinstance(entry.get(n), (int, float)))
        where = " ".join(f"{d}={entry.get(d)}" for d in dims)
        return f"metric {entry.get('Function', '?')} {values} {where}".rstrip()
    fields, span = entry.get("fields") or {}, entry.get("span") or {}
    level = entry.get("level", "")
    if fields.get("message") == "request" and span:
        parts = [
            span.get("method", "?"),
            span.get("route", "?"),
            str(fields.get("status", "?")),
            f"{fields.get('latency_ms', 0):.0f} ms",
            span.get("role", "-"),
        ]
        if "booking_id" in span:
            parts.append(f"booking={span['booking_id']}")
        parts.append(f"req={str(span.get('request_id', '-'))[:8]}")
        return ("WARN " if level == "WARN" else "") + " ".join(parts)
    rest = " ".join(f"{k}={v}" for k, v in fields.items() if k != "message")
    where = f" [{span.get('route')} req={str(span.get('request_id', '-'))[:8]}]" if span else ""
    return f"{level} {fields.get('message', '')} {rest}{where}".strip()


def main() -> None:
    files = [open(p, encoding="utf-8", errors="replace") for p in sys.argv[1:]] or [sys.stdin]
    for f in files:
        for line in f:
            print(readable(line.rstrip("\n")), flush=True)


if __name__ == "__main__":
    try:
        main()
    except (KeyboardInterrupt, BrokenPipeError):
        pass
