#!/usr/bin/env python3
"""json-field.py EXPRESSION [FILE]: evaluates the Python EXPRESSION on a JSON document
(FILE, else stdin), bound to `b`, and prints the result (nothing for None). Exits
non-zero when the document is not JSON or the expression fails, e.g.
  json-field.py 'b["token"]' body.json
  json-field.py 'len(b) if isinstance(b, list) else None' body.json"""
import json
import sys

if len(sys.argv) not in (2, 3):
    sys.exit(__doc__)
with open(sys.argv[2]) if len(sys.argv) == 3 else sys.stdin as f:
    b = json.load(f)
value = eval(sys.argv[1], {"b": b})
print("" if value is None else value)
