//! Targets built without a test harness (`test = false`, docs/performance.md: "Fast to
//! build") hold no test: a `#[test]` there would never run, and nothing would say so.

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use serde_json::Value;

/// The marks that make code a test (or test-only code).
const TEST_MARKS: [&str; 3] = ["#[test]", "#[tokio::test", "#[cfg(test)]"];

/// The files a target compiles, near enough: a library at `src/lib.rs` is every `.rs`
/// under `src/` but the binaries (`src/main.rs`, `src/bin/`); any other target is its
/// root file (a library elsewhere, as `tests/api/lib.rs`, has no modules).
fn files_of(kind: &str, root: &Path) -> Vec<PathBuf> {
    let src = root.parent().expect("a target's root is in a folder");
    if kind == "lib" && root.ends_with("src/lib.rs") {
        let mut files = vec![];
        let mut dirs = vec![src.to_path_buf()];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().map(Result::unwrap) {
                let path = entry.path();
                if path.is_dir() && path != src.join("bin") {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") && path != src.join("main.rs")
                {
                    files.push(path);
                }
            }
        }
        files
    } else {
        vec![root.to_path_buf()]
    }
}

/// The workspace's packages, as `cargo metadata` lists them.
fn packages() -> Vec<Value> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let metadata: Value = serde_json::from_slice(&out.stdout).unwrap();
    metadata["packages"].as_array().unwrap().clone()
}

#[test]
fn no_test_hides_in_a_target_built_without_a_harness() {
    let mut without_harness = 0;
    let mut hidden = vec![];
    for package in &packages() {
        for target in package["targets"].as_array().unwrap() {
            let kind = target["kind"][0].as_str().unwrap();
            if !matches!(kind, "lib" | "bin") || target["test"] != Value::Bool(false) {
                continue;
            }
            without_harness += 1;
            let root = Path::new(target["src_path"].as_str().unwrap());
            for file in files_of(kind, root) {
                let text = std::fs::read_to_string(&file).unwrap();
                if let Some(mark) = TEST_MARKS.iter().find(|m| text.contains(*m)) {
                    hidden.push(format!("{} ({mark})", file.display()));
                }
            }
        }
    }
    // The functions' libraries and binaries, perf-tools' and shared's tools at least.
    assert!(
        without_harness >= 14,
        "{without_harness} targets without a harness"
    );
    assert!(
        hidden.is_empty(),
        "tests in targets with `test = false` never run; remove `test = false` from their \
         Cargo.toml target, or move the tests: {hidden:#?}"
    );
}

/// make test builds and clippy checks `--lib --bins --tests --examples`, not
/// `--all-targets` (scripts/lib.sh, EVERY_TARGET): a `[[bench]]` would be neither built
/// nor linted. The benchmarks are tools/perf's binaries.
#[test]
fn no_bench_target_escapes_the_build() {
    let benches: Vec<String> = packages()
        .iter()
        .flat_map(|p| p["targets"].as_array().unwrap().clone())
        .filter(|t| t["kind"].as_array().unwrap().iter().any(|k| k == "bench"))
        .map(|t| t["src_path"].as_str().unwrap().to_owned())
        .collect();
    assert!(
        benches.is_empty(),
        "bench targets are not in scripts/lib.sh's EVERY_TARGET: add `--benches` there, or \
         make them tools/perf binaries: {benches:#?}"
    );
}
