#!/usr/bin/env python3
"""Fails when the JavaScript a first visit loads (the entry script of dist/index.html
and the modules it preloads) exceeds the budget, gzipped. Screens loaded on demand
(the map, admin, booking) do not count."""
import gzip, pathlib, re, sys

BUDGET = 150 * 1024
dist = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "frontend/dist")
html = (dist / "index.html").read_text()
files = sorted(set(re.findall(r'(?:src|href)="/?(assets/[^"]+\.js)"', html)))
if not files:
    sys.exit("no entry script found in index.html")
total = 0
for f in files:
    size = len(gzip.compress((dist / f).read_bytes(), 9))
    total += size
    print(f"  {f}: {size / 1024:.1f} kB gzip")
print(f"initial JavaScript: {total / 1024:.1f} kB gzip (budget {BUDGET / 1024:.0f} kB)")
if total > BUDGET:
    sys.exit("over the bundle budget")
