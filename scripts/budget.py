#!/usr/bin/env python3
"""Prints make test's (or make check's) stages with their wall time, CPU-seconds and
wall-time budget, and names every stage over its budget or close to it.

  budget.py SUMMARY_FILE TOTAL_SECONDS [RUN_NAME]

SUMMARY_FILE: one line per stage, "wall<TAB>cpu<TAB>title<TAB>FAILED?" (scripts/lib.sh's
`stage`). The budgets are in scripts/budget.txt, the one place they are written. A
budget warns, it never fails the run.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def budgets():
    """(prefix, seconds) from budget.txt; prefixes match a stage's title without its
    lane ("[rust] "), or a run's name ("make test", "make check") for its total."""
    found, warn_at = [], 85
    with open(os.path.join(HERE, "budget.txt")) as f:
        for line in f:
            line = line.split("#", 1)[0].rstrip()
            if not line.strip():
                continue
            m = re.match(r"\s*warn at\s+(\d+)\s*%", line)
            if m:
                warn_at = int(m.group(1))
                continue
            m = re.match(r"\s*(\d+)\s*(s|min)\s+(.+)$", line)
            if not m:
                sys.exit(f"scripts/budget.txt: cannot read {line!r} (want: '<n> s|min <start of a stage title>')")
            secs = int(m.group(1)) * (60 if m.group(2) == "min" else 1)
            found.append((m.group(3).strip(), secs))
    return found, warn_at


def budget_of(title, table):
    bare = re.sub(r"^\[[^]]*\] ", "", title)
    for prefix, secs in table:
        if bare.startswith(prefix):
            return secs
    return None


def fmt(secs):
    return f"{secs // 60}:{secs % 60:02d}" if secs >= 60 else f"{secs}s"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    summary, total = sys.argv[1], int(sys.argv[2])
    name = sys.argv[3] if len(sys.argv) > 3 else ""
    table, warn_at = budgets()
    rows = []
    with open(summary) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 3:
                rows.append((int(parts[0]), parts[1], parts[2], parts[3] if len(parts) > 3 else ""))
    out = ["", "stage durations (wall, CPU-seconds of everything the stage ran, wall budget in scripts/budget.txt):",
           "     wall      CPU   budget"]
    over, near = [], []
    cpu_total = 0
    for wall, cpu, title, failed in rows:
        b = budget_of(title, table)
        mark = ""
        if b is not None and wall > b:
            mark, _ = "  OVER BUDGET", over.append(f"{title} ({fmt(wall)} of {fmt(b)})")
        elif b is not None and wall * 100 >= b * warn_at:
            mark, _ = "  near its budget", near.append(f"{title} ({fmt(wall)} of {fmt(b)}, {wall * 100 // b} %)")
        cpu_total += int(cpu) if cpu.isdigit() else 0
        out.append(f"  {fmt(wall):>7}  {cpu + 's' if cpu.isdigit() else cpu:>7}  {fmt(b) if b else '-':>7}  {title}"
                   f"{'  FAILED' if failed else ''}{mark}")
    b = budget_of(name, table) if name else None
    mark = ""
    if b is not None and total > b:
        mark = "  OVER BUDGET"
        over.append(f"{name} in all ({fmt(total)} of {fmt(b)})")
    elif b is not None and total * 100 >= b * warn_at:
        mark = "  near its budget"
        near.append(f"{name} in all ({fmt(total)} of {fmt(b)}, {total * 100 // b} %)")
    out.append(f"  {fmt(total):>7}  {str(cpu_total) + 's':>7}  {fmt(b) if b else '-':>7}  total"
               f"{' (' + name + ')' if name else ''}; CPU summed over the stages{mark}")
    for what in over:
        out.append(f"warning: over budget: {what}")
    for what in near:
        out.append(f"warning: near its budget (warn at {warn_at} %): {what}")
    if over or near:
        out.append("  (budgets warn, never fail; docs/performance.md, \"CI time\", says what to do)")
    print("\n".join(out))


if __name__ == "__main__":
    main()
