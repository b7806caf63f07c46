#!/usr/bin/env python3
"""samconfig-stack.py ENV: the stack_name of samconfig.toml's [ENV.global.parameters]
(`make deploy`, CONFIG_ENV)."""
import pathlib
import sys
import tomllib

if len(sys.argv) != 2:
    sys.exit(__doc__)
env = sys.argv[1]
with open(pathlib.Path(__file__).resolve().parent.parent / "samconfig.toml", "rb") as f:
    config = tomllib.load(f)
try:
    print(config[env]["global"]["parameters"]["stack_name"])
except KeyError:
    sys.exit(f"samconfig.toml has no [{env}.global.parameters] stack_name")
