#!/usr/bin/env python3
"""The report of one `make load` run (scripts/load.sh): report.py RESULT_JSON
CONNECTIONS LOG_DIR DB_TIMEOUTS. RESULT_JSON is what mixed.lua wrote when wrk finished.
Prints throughput, latency percentiles and the answers per kind of request; exits 1
on any 5xx answer or connection error."""
import json
import sys

if len(sys.argv) != 5:
    sys.exit(__doc__)
r = json.load(open(sys.argv[1])); conns = sys.argv[2]; logs = sys.argv[3]
secs = r["duration_us"] / 1e6
lat = {k: v / 1000 for k, v in r["latency_us"].items()}
print(f"load: {conns} clients for {secs:.1f} s on loopback, mixed workload, {sys.argv[4]} DynamoDB timeouts")
print(f"  requests {r['requests']}  throughput {r['requests'] / secs:.0f} req/s")
print(f"  latency  p50 {lat['p50']:.1f} ms  p95 {lat['p95']:.1f} ms  p99 {lat['p99']:.1f} ms  max {lat['max']:.1f} ms")
total = {"2xx": 0, "4xx": 0, "5xx": 0}
print(f"  {'kind':<11} {'answers':>8} {'2xx':>7} {'4xx':>7} {'5xx':>5}  statuses")
answers = {}
for key, n in r["counts"].items():  # "kind status": n
    kind, status = key.split()
    answers.setdefault(kind, {})[int(status)] = n
for kind in ("search", "ambulances", "profile", "booking"):
    counts = answers.get(kind, {})
    by = {c: sum(n for s, n in counts.items() if s // 100 == int(c[0])) for c in total}
    for c in total: total[c] += by[c]
    detail = " ".join(f"{s}:{n}" for s, n in sorted(counts.items()))
    print(f"  {kind:<11} {sum(counts.values()):>8} {by['2xx']:>7} {by['4xx']:>7} {by['5xx']:>5}  {detail}")
e = r["errors"]
conn_errors = e["connect"] + e["read"] + e["write"] + e["timeout"]
print(f"  connection errors: connect {e['connect']}, read {e['read']}, write {e['write']}, timeout {e['timeout']}")
print("  " + open(f"{logs}/cpu.txt").read().strip())
if total["5xx"] or conn_errors:
    print(f"FAILED: {total['5xx']} 5xx answers, {conn_errors} connection errors (server log: {logs}/serve.log)")
    sys.exit(1)
print(f"OK: 0 5xx, 0 connection errors ({total['4xx']} 4xx, e.g. 409 for an ambulance already booked)")
