#!/usr/bin/env python3
"""Prints each function's deployable size (functions/*/).
  lambda-sizes.py zips   the arm64 zips of the last `make lambda-build`
                         (target/lambda/<function>/bootstrap.zip); fails when one is missing
  lambda-sizes.py any    those zips when all exist, else the x86_64 release binaries
                         (target/release/<function>), else says that none is built
Nothing is printed that was not measured."""
import pathlib
import sys
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
FUNCTIONS = sorted(d.name for d in (ROOT / "functions").iterdir() if (d / "Cargo.toml").exists())


def mib(n):
    return f"{n / 1048576:6.2f} MiB"


def zips():
    print(f"function sizes (arm64, from the last make lambda-build):\n  {'function':<11} {'bootstrap':>10} {'zip':>10}")
    for f in FUNCTIONS:
        z = ROOT / f"target/lambda/{f}/bootstrap.zip"
        raw = zipfile.ZipFile(z).getinfo("bootstrap").file_size
        print(f"  {f:<11} {mib(raw)} {mib(z.stat().st_size)}")


mode = sys.argv[1] if len(sys.argv) == 2 else ""
missing = [f for f in FUNCTIONS if not (ROOT / f"target/lambda/{f}/bootstrap.zip").exists()]
if mode == "zips":
    if missing:
        sys.exit(f"missing target/lambda/{missing[0]}/bootstrap.zip")
    zips()
elif mode == "any":
    if not missing:
        zips()
    elif all((ROOT / f"target/release/{f}").exists() for f in FUNCTIONS):
        print("release binary sizes (x86_64, from the last cargo build --release):")
        for f in FUNCTIONS:
            print(f"  {f:<11} {mib((ROOT / f'target/release/{f}').stat().st_size)}")
    else:
        print("function sizes: none built yet (make lambda-build builds the arm64 zips and prints them)")
else:
    sys.exit(__doc__)
