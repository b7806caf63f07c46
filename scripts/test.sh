#!/usr/bin/env bash
# `make test`: every test, printing each stage's duration. Starts its own in-memory
# DynamoDB Local on a free port (the database tests are never skipped: no database, no
# green run). What waits on a database or a browser runs beside what computes, in
# lanes (scripts/lib.sh; docs/performance.md, "Fast to build"):
#   1. cargo fmt, the import-cycle checks;
#   2. one dev build of everything (`cargo build` of EVERY_TARGET: the tests,
#      the functions, manage, the benchmarks), beside the frontend's eslint and tsc;
#      then a check that the stack's builds find all of it built (one feature set);
#   3. side by side: [rust] the Rust tests on DynamoDB Local, then every benchmark once
#      at its smallest size; [lint] clippy, SAM lint, then Vitest; [fuzz] the bounded
#      API fuzzing against the whole local stack;
#   4. the end-to-end browser tests (scripts/e2e.sh), alone: they are the ones a busy
#      machine makes flaky.
# A failed lane fails the run once the lanes beside it have ended.
# `make check` (--fast): the loop to run while editing, no database and no browser:
# format, the import-cycle check, clippy, the Rust unit tests (`--lib`) beside eslint
# and tsc (both with their caches).
. "$(dirname "$0")/lib.sh"
cd "$ROOT"

FAST=$(optional_flag --fast "scripts/test.sh [--fast]" "$@")
RUN_NAME=$([ "$FAST" = 1 ] && echo "make check" || echo "make test")
LANE_DIR="$ROOT/target/test-logs/lanes"
rm -rf "$LANE_DIR"

rust_runner=(cargo test)
if cargo nextest --version >/dev/null 2>&1; then rust_runner=(cargo nextest run); fi
rust_tests=("${rust_runner[@]}" --workspace --no-fail-fast)
# clippy builds in a target dir of its own: it then runs beside the tests' cargo
# instead of holding the build directory's lock while they wait. EVERY_TARGET
# (scripts/lib.sh), not `--all-targets`, which checks each `test = false` library and
# binary once more as a test: a quarter of clippy's time after an edit to the domain.
clippy=(env CARGO_TARGET_DIR="$ROOT/target/clippy" cargo clippy --quiet "${EVERY_TARGET[@]}" -- -D warnings)
# Every library of the workspace. In the layer crates (shared/*) the top-level modules
# are the files; elsewhere the files sit one level down (docs/architecture.md).
layer_crates=(shared/*/src/lib.rs)
libraries=(functions/*/src/lib.rs tests/api/lib.rs tests/kit/src/lib.rs tools/perf/src/lib.rs)
file_cycles() {
  python3 tools/layers/check.py "${layer_crates[@]}" &&
    python3 tools/layers/check.py --depth 2 "${libraries[@]}"
}

frontend_static() {
  # --cache: eslint re-lints only the files changed since its last run.
  stage "frontend: eslint" npm --prefix frontend run --silent lint -- --cache --cache-location "$ROOT/target/eslint-cache"
  stage "frontend: tsc --noEmit" npm --prefix frontend run --silent typecheck
}

# The stack (make dev, the fuzzing, the browser tests) builds the functions and manage and
# cargo lambda watch runs each function with `cargo run --bin <function>`: after the
# build above, neither may compile anything. If one does, a dependency's features
# differ between builds (run `make hakari`) and every one of those builds pays again.
builds_share_one_feature_set() {
  local out dir build_args
  mapfile -t build_args < <(stack_build_args)
  out=$(cargo build "${build_args[@]}" 2>&1) || { echo "$out"; return 1; }
  for dir in functions/*/; do
    out+=$'\n'$(cargo build -p "$(basename "$dir")" --bin "$(basename "$dir")" 2>&1) || { echo "$out"; return 1; }
  done
  if grep -E '^ *Compiling ' <<<"$out"; then
    echo "these crates were compiled again for a build of the stack: their features differ from the test build's; run make hakari"
    return 1
  fi
  echo "the stack's build (cargo build ${build_args[*]}) and each function's own build: nothing compiled"
}

# The crates whose library has unit tests (`test = true`, the default). `--lib` with
# `--workspace` would build and link a test harness for every other crate too, each
# empty (tests/api/manifests.rs keeps a `test = false` crate free of unit tests): 15
# of 20 binaries, a third of make check's time after an edit to the domain.
unit_test_packages() {
  cargo metadata --no-deps --format-version 1 | python3 -c '
import json, sys
m = json.load(sys.stdin)
members = set(m["workspace_members"])
for p in m["packages"]:
    if p["id"] in members and any("lib" in t["kind"] and t.get("test") for t in p["targets"]):
        print("-p", p["name"])'
}
# Format, and no import cycle between the modules of any library (docs/architecture.md).
source_checks() {
  stage "cargo fmt --check" cargo fmt --all --check
  stage "import cycles: tools/layers/check.py" python3 tools/layers/check.py --self-test "${layer_crates[@]}" "${libraries[@]}"
  stage "import cycles between files" file_cycles
}

if [ "$FAST" = 1 ]; then
  stage "install what is missing" "$ROOT/scripts/ensure-tools.sh" frontend layers
  # Everything beside the unit tests' build: on 2 cores the two cargo runs set the pace.
  lane source source_checks
  lane frontend frontend_static
  lane clippy stage "cargo clippy -D warnings" "${clippy[@]}"
  read -ra unit_packages <<<"$(unit_test_packages | tr '\n' ' ')"
  stage "Rust tests (unit tests only): ${rust_runner[*]} --lib ${unit_packages[*]}" \
    "${rust_runner[@]}" --no-fail-fast --lib "${unit_packages[@]}"
  wait_lanes
  print_summary
  log "all fast checks passed"
  exit 0
fi

stage "install what is missing" "$ROOT/scripts/ensure-tools.sh" cargo-lambda ddb frontend sam layers
LOG_DIR="$ROOT/target/test-logs"
mkdir -p "$LOG_DIR"
DDB_PORT=$(free_port)
ddb_pid="$("$ROOT/scripts/ddb-local.sh" "$DDB_PORT" --in-memory "$LOG_DIR/dynamodb.log")"
trap 'trap "" PIPE; stop_group "$ddb_pid"' EXIT
trap 'exit 130' INT TERM
export DYNAMODB_ENDPOINT="http://127.0.0.1:$DDB_PORT"
# The fault tests start (and kill) DynamoDB Local processes of their own.
export DDB_LOCAL_DIR="$DDB_DIR"
log "DynamoDB Local (in memory) on :$DDB_PORT for the Rust tests"

source_checks

lane frontend frontend_static
# --timings: where a build's time goes (kept in target/cargo-timings/, a CI artifact).
stage "build everything the tests run: cargo build ${EVERY_TARGET[*]}" \
  cargo build --quiet "${EVERY_TARGET[@]}" --timings
stage "one feature set: the stack's builds reuse that build" builds_share_one_feature_set
wait_lanes

rust_lane() {
  stage "Rust tests (all, on DynamoDB Local): ${rust_tests[*]}" "${rust_tests[@]}"
  stage "benchmarks, each once at its smallest size (figures not judged)" "$ROOT/scripts/bench.sh" --smoke
}
lint_lane() {
  stage "cargo clippy -D warnings" "${clippy[@]}"
  stage "SAM template: sam validate --lint" sam validate --lint --template "$ROOT/template.yaml"
  stage "frontend: vitest" npm --prefix frontend test --silent
}
fuzz_lane() {
  stage "API contract: schemathesis against the local stack (bounded)" "$ROOT/scripts/fuzz-api.sh" --bounded
}
lane rust rust_lane
lane lint lint_lane
lane fuzz fuzz_lane
wait_lanes

stage "end-to-end: Playwright in Chromium against the local stack" "$ROOT/scripts/e2e.sh"

# The Rust tests' DynamoDB Local runs outside every stage: its CPU, as a line of its own.
ddb_cpu=$(awk '{ print int(($14 + $15) / '"$(getconf CLK_TCK)"') }' "/proc/$ddb_pid/stat" 2>/dev/null || echo '?')
printf '%s\t%s\t%s\t\n' "$(( $(date +%s) - STAGES_STARTED ))" "$ddb_cpu" "(DynamoDB Local of the Rust tests, the whole run)" >>"$STAGE_SUMMARY_FILE"
print_summary
log "all tests passed"
