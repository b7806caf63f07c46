#!/usr/bin/env bash
# `make lambda-build`: what `sam build` does for each function (BuildMethod
# rust-cargolambda): a release build for Lambda's arm64 (cross-compiled with zig,
# which cargo-lambda brings from PyPI), zipped. Prints the build time and each
# function's binary and zip size. Output: target/lambda/<function>/bootstrap.zip
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$ROOT" || exit 1
"$ROOT/scripts/ensure-tools.sh" cargo-lambda rust-arm64

packages=()
for dir in functions/*/; do packages+=(-p "$(basename "$dir")"); done

t0=$(date +%s)
# --timings: where the build's time goes, per crate (target/cargo-timings/, kept by CI).
cargo lambda build --release --arm64 --output-format zip --timings "${packages[@]}"
secs=$(( $(date +%s) - t0 ))

echo
echo "cargo lambda build --release --arm64: ${secs}s on $(nproc) cores"
python3 "$ROOT/scripts/lambda-sizes.py" zips
