#!/usr/bin/env python3
"""Every spec file of an end-to-end run, slowest first, from the timings reporter's
files (frontend/e2e/timings.ts writes e2e-artifacts/timings-<group>.json): wall
seconds and CPU-seconds, split into Chromium, the stack (functions, DynamoDB Local,
the watcher) and Node (Playwright, vite preview). Printed last by scripts/e2e.sh.

  e2e-timings.py FILE...
"""
import json
import sys

COLUMNS = {
    "chromium": ["chromium"],
    "stack": ["functions", "dynamodb", "cargo-lambda watch", "tools"],
    "node": ["node"],
}


def row(wall, cpu, name):
    total = sum(cpu.values())
    parts = [sum(cpu.get(k, 0) for k in kinds) for kinds in COLUMNS.values()]
    other = total - sum(parts)
    return f"{wall:7.0f} {total:7.0f} {parts[0]:9.0f} {parts[1]:6.0f} {parts[2]:6.0f} {other:6.0f}  {name}"


def main(paths):
    files, tests, runs = [], [], []
    for path in paths:
        try:
            with open(path) as f:
                data = json.load(f)
        except (OSError, ValueError):
            continue
        group = path.rsplit("timings-", 1)[-1].removesuffix(".json")
        files += [dict(f, group=group) for f in data["files"]]
        tests += data["tests"]
        runs.append(dict(data["run"], name=f"group {group} (tests, from Playwright's start)"))
    if not files:
        return
    metered = any(sum(f["cpu"].values()) > 0 for f in files)
    print("\nEvery spec file, slowest first (wall and CPU-seconds; CPU of every process of the run,"
          f"{'' if metered else ' not measured,'} by what spent it):")
    print(" wall s   CPU s  chromium  stack   node  other")
    for f in sorted(files, key=lambda f: -f["wall"]):
        print(row(f["wall"], f["cpu"], f"{f['name']} [{f['group']}]"))
    for r in runs:
        print(row(r["wall"], r["cpu"], r["name"]))
    print(" (the groups' runs include the time between tests; the stack's start is before them)")


if __name__ == "__main__":
    main(sys.argv[1:])
