#!/usr/bin/env python3
"""Prepares `make load`: through the API itself, registers users (their tokens),
adds ambulances as the seeded admin, and writes what the wrk script picks from.

usage: prep.py BASE_URL OUT.lua   (LOAD_USERS, LOAD_AMBULANCES from the environment)
"""
import json
import os
import random
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

BASE, OUT = sys.argv[1], sys.argv[2]
USERS = int(os.environ.get("LOAD_USERS", "50"))
AMBULANCES = int(os.environ.get("LOAD_AMBULANCES", "1000"))
RUN = f"{random.randrange(16**6):06x}"


def call(method, path, body=None, token=None, expect=(200,)):
    headers = {"accept": "application/json"}
    data = None
    if body is not None:
        headers["content-type"] = "application/json"
        data = json.dumps(body).encode()
    if token:
        headers["authorization"] = f"Bearer {token}"
    req = urllib.request.Request(BASE + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            status, text = r.status, r.read()
    except urllib.error.HTTPError as e:
        status, text = e.code, e.read()
    if status not in expect:
        sys.exit(f"prep: {method} {path} answered {status}: {text[:300]!r}")
    return json.loads(text) if text else None


def register(i):
    name = f"load{RUN}u{i}"
    answer = call("POST", "/api/auth/register", {
        "username": name, "email": f"{name}@example.com", "password": "load-password-1",
        "phone": "+919800000000", "latitude": 30.67, "longitude": 74.33,
    }, expect=(201,))
    return answer["token"]


with ThreadPoolExecutor(4) as pool:
    tokens = list(pool.map(register, range(USERS)))
print(f"prep: {len(tokens)} users registered", file=sys.stderr)

admin = call("POST", "/api/auth/login", {"username": "admin", "password": "admin12345"})["token"]
hospitals = call("GET", "/api/hospitals/all?page=0&size=1000")["content"]
if not hospitals:
    sys.exit("prep: no hospitals (was the table seeded?)")


def add_ambulance(i):
    h = hospitals[i % len(hospitals)]
    call("POST", "/api/admin/ambulances/add", {
        "number": f"LOAD-{RUN}-{i}", "status": "AVAILABLE", "hospital": {"id": h["id"]},
        "type": random.choice(["BLS", "ALS", "PTA"]), "driverInfo": "Load Driver",
    }, token=admin, expect=(201,))


with ThreadPoolExecutor(8) as pool:
    list(pool.map(add_ambulance, range(AMBULANCES)))
ambulances = call("GET", "/api/ambulances/available/all")
print(f"prep: {AMBULANCES} ambulances added; {len(ambulances)} available at "
      f"{len(hospitals)} hospitals", file=sys.stderr)


def lua_list(items):
    return "{" + ",".join(items) + "}"


with open(OUT, "w") as f:
    f.write("-- written by tools/perf/load/prep.py for one make load run\nreturn {\n")
    f.write("  tokens = " + lua_list(json.dumps(t) for t in tokens) + ",\n")
    f.write("  hospitals = " + lua_list(
        f"{{id={h['id']},lat={h['latitude']},lng={h['longitude']}}}" for h in hospitals) + ",\n")
    f.write("  ambulances = " + lua_list(
        f"{{id={a['id']},hid={a['hospitalId']}}}" for a in ambulances) + ",\n")
    f.write("}\n")
