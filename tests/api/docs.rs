//! What the docs name must exist: a file a newcomer is sent to, a test a guarantee
//! cites. A rename or a move that forgets the docs fails here, naming the doc.

use std::{
    fs,
    path::{Path, PathBuf},
};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every file of the repository (as paths from its root), without what is built,
/// installed or generated.
fn files() -> Vec<String> {
    fn walk(dir: &Path, from: &Path, out: &mut Vec<String>) {
        for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if path.is_dir() {
                if !matches!(
                    name.as_ref(),
                    "target" | "node_modules" | ".tools" | ".data" | ".git" | "dist"
                ) {
                    walk(&path, from, out);
                }
            } else if let Ok(rel) = path.strip_prefix(from) {
                out.push(rel.to_string_lossy().into_owned());
            }
        }
    }
    let mut out = vec![];
    let root = root();
    walk(&root, &root, &mut out);
    out
}

/// Files the build makes, which docs name on purpose.
const GENERATED: [&str; 2] = ["frontend/src/lib/api-schema.ts", "dist/.vite/manifest.json"];

/// A doc names a file as `` `dir/name.ext` ``, from the root or from a folder a
/// reader knows from the context (`shared/store/src/bulk.rs`, `lib/api.ts`): some file of the
/// repository must end with it.
#[test]
fn every_file_the_docs_name_exists() {
    let files = files();
    let cited = regex_lite::Regex::new(
        r"`([A-Za-z0-9_./-]+/[A-Za-z0-9_.-]+\.(?:rs|ts|tsx|md|yaml|toml|sh|py|mjs|json))`",
    )
    .unwrap();
    let docs: Vec<&String> = files
        .iter()
        .filter(|f| {
            (f.starts_with("docs/") && !f.starts_with("docs/decisions/") && f.ends_with(".md"))
                || *f == "README.md"
                || *f == "frontend/README.md"
        })
        .collect();
    assert!(docs.len() >= 7, "the docs were found: {docs:?}");
    let mut missing = vec![];
    for doc in docs {
        let text = fs::read_to_string(root().join(doc)).unwrap();
        for name in cited.captures_iter(&text).map(|c| c[1].to_owned()) {
            // A file in the tree or one the build generates, by its path or its end.
            let found = GENERATED
                .iter()
                .copied()
                .chain(files.iter().map(String::as_str))
                .any(|f| f == name || f.ends_with(&format!("/{name}")));
            if !found {
                missing.push(format!("{doc}: `{name}`"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "named but absent:\n{}",
        missing.join("\n")
    );
}

/// docs/reliability.md backs each guarantee with a test by name
/// (`api::limits::one_account_holds_at_most_three_open_bookings`): a test of that
/// name must exist (a name of three words or more; shorter ones are not tests).
#[test]
fn every_test_reliability_cites_exists() {
    let rust: String = files()
        .iter()
        .filter(|f| f.ends_with(".rs"))
        .map(|f| fs::read_to_string(root().join(f)).unwrap_or_default())
        .collect();
    let doc = fs::read_to_string(root().join("docs/reliability.md")).unwrap();
    let cited = regex_lite::Regex::new(r"`([a-z][a-z0-9_]*(?:::[a-z0-9_]+)*)`").unwrap();
    let mut checked = 0;
    let mut missing = vec![];
    for path in cited.captures_iter(&doc).map(|c| c[1].to_owned()) {
        let name = path.rsplit("::").next().unwrap_or_default();
        if name.matches('_').count() < 3 {
            continue;
        }
        checked += 1;
        // A prefix is how the doc names a family (`all_sixteen_status_moves…`).
        if !rust.contains(&format!("fn {name}")) {
            missing.push(path);
        }
    }
    assert!(checked >= 20, "the cited tests were found ({checked})");
    assert!(missing.is_empty(), "cited but absent: {missing:?}");
}

/// docs/architecture.md lists every Rust module of the libraries and functions
/// ("Every module"), so "where does X live" has an answer for each: a new file
/// missing there fails here.
#[test]
fn architecture_lists_every_module() {
    let doc = fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let modules: Vec<String> = files()
        .into_iter()
        .filter(|f| f.ends_with(".rs"))
        .filter(|f| {
            ["tests/kit/src/", "tools/perf/src/", "tools/gateway/src/"]
                .iter()
                .any(|p| f.starts_with(p))
                || ((f.starts_with("functions/") || f.starts_with("shared/"))
                    && f.contains("/src/"))
        })
        .collect();
    assert!(
        modules.len() > 80,
        "the modules were found: {}",
        modules.len()
    );
    let missing: Vec<&String> = modules
        .iter()
        .filter(|m| !doc.contains(&format!("`{m}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "not in docs/architecture.md's \"Every module\" (scripts/doc-modules.py prints the section from each file's //! line): {missing:?}"
    );
}

/// The plumbing files of `shared/store/src/`: the only ones with an `impl Store`
/// (construction, the shared reads and writes, the accessors of the handles).
const STORE_PLUMBING: [&str; 4] = ["lib.rs", "table.rs", "tx.rs", "paging.rs"];

/// The store's handles, from their accessors in `shared/store/src/lib.rs`
/// (`pub fn fleet(&self) -> fleet::Fleet<'_>`): (accessor, module, struct).
fn store_handles() -> Vec<(String, String, String)> {
    let text = fs::read_to_string(root().join("shared/store/src/lib.rs")).unwrap();
    let accessor = regex_lite::Regex::new(r"pub fn (\w+)\(&self\) -> (\w+)::(\w+)<'_>").unwrap();
    accessor
        .captures_iter(&text)
        .map(|c| (c[1].to_owned(), c[2].to_owned(), c[3].to_owned()))
        .collect()
}

/// The type an `impl` line is for (`impl<'a> Fleet<'a> {` and
/// `impl From<X> for Fleet<'_> {` are both for `Fleet`), or `None` for another line.
fn impl_target(line: &str) -> Option<String> {
    let rest = line.trim_start().strip_prefix("impl")?;
    if !(rest.starts_with(' ') || rest.starts_with('<')) {
        return None;
    }
    let head = rest.split('{').next()?;
    let target = head.rsplit(" for ").next()?;
    // Skip the `impl`'s own generics, then take the type's name.
    let target = match target.trim_start().strip_prefix('<') {
        Some(generics) => generics.split_once('>')?.1,
        None => target,
    };
    // The last segment of its path (`super::fleet::Fleet<'_>` is `Fleet`).
    let path: String = target
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
        .collect();
    let name = path.rsplit("::").next().unwrap_or_default();
    (!name.is_empty()).then(|| name.to_owned())
}

/// "Where does X live" in the store is answered by a name: a method is on a handle
/// (`store.fleet()`), and the handle and every method of it are in the file named
/// after it (`shared/store/src/fleet.rs`). So: each accessor's module is its own name; an `impl`
/// of a handle anywhere but in its file, an `impl Store` outside the plumbing files,
/// or a `pub` struct over the `Store` with no accessor fails here; and both the module doc
/// of `shared/store/src/lib.rs` and docs/architecture.md ("The store") list every handle with
/// its file, and no handle that is gone.
#[test]
fn store_handles_live_in_their_files() {
    let handles = store_handles();
    assert!(
        handles.len() >= 10,
        "the handles were found in shared/store/src/lib.rs: {handles:?}"
    );
    let mut wrong = vec![];
    for (accessor, module, _) in &handles {
        if accessor != module {
            wrong.push(format!(
                "store.{accessor}() is defined in {module}.rs: a handle's file is named after it"
            ));
        }
    }
    let over_store =
        regex_lite::Regex::new(r"pub struct (\w+)<'a> \{\s*pub\(super\) store: &'a Store,")
            .unwrap();
    for file in files() {
        if !(file.starts_with("shared/") && file.contains("/src/") && file.ends_with(".rs")) {
            continue;
        }
        let text = fs::read_to_string(root().join(&file)).unwrap();
        let name = file.rsplit('/').next().unwrap_or_default();
        let in_store = file.starts_with("shared/store/src/");
        for (n, line) in text.lines().enumerate() {
            let Some(target) = impl_target(line) else {
                continue;
            };
            let at = format!("{file}:{}: `{}`", n + 1, line.trim());
            if target == "Store" && !(in_store && STORE_PLUMBING.contains(&name)) {
                wrong.push(format!(
                    "{at}: `impl Store` only in the plumbing files ({STORE_PLUMBING:?}); a domain method goes on its handle"
                ));
            }
            if let Some((accessor, module, _)) = handles.iter().find(|h| h.2 == target)
                && file != format!("shared/store/src/{module}.rs")
            {
                wrong.push(format!(
                    "{at}: the methods of `store.{accessor}()` live in shared/store/src/{module}.rs"
                ));
            }
        }
        for c in over_store.captures_iter(&text) {
            let is_handle = handles.iter().any(|h| h.2 == c[1]);
            if in_store && !is_handle {
                wrong.push(format!(
                    "{file}: `{}` holds the Store but has no accessor in shared/store/src/lib.rs",
                    &c[1]
                ));
            }
        }
    }
    let listed = regex_lite::Regex::new(r"`store\.(\w+)\(\)` *\| *`(\w+)\.rs`").unwrap();
    for doc in ["shared/store/src/lib.rs", "docs/architecture.md"] {
        let text = fs::read_to_string(root().join(doc)).unwrap();
        let rows: Vec<(String, String)> = listed
            .captures_iter(&text)
            .map(|c| (c[1].to_owned(), c[2].to_owned()))
            .collect();
        for (accessor, module, _) in &handles {
            if !rows.contains(&(accessor.clone(), module.clone())) {
                wrong.push(format!(
                    "{doc}: no row \"| `store.{accessor}()` | `{module}.rs` |\""
                ));
            }
        }
        for (accessor, module) in &rows {
            if !handles.iter().any(|h| &h.0 == accessor && &h.1 == module) {
                wrong.push(format!(
                    "{doc}: lists `store.{accessor}()` in `{module}.rs`, which is no handle"
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "the store's layout drifted:\n{}",
        wrong.join("\n")
    );
}

/// docs/architecture.md's "Every route": each route of every function with the
/// handler that serves it and its file, as the route tables (`routes()`) say. On a
/// difference the test prints the whole section to paste over the old one.
#[test]
fn architecture_lists_every_route_with_its_handler() {
    let mut rows = vec![
        "## Every route\n".to_owned(),
        "Each route of each function, with the handler that serves it (as the function's"
            .to_owned(),
        "`routes()` table names it) and the file it is in; `tests/api/docs.rs` prints this"
            .to_owned(),
        "section again when a route is added, moved or renamed.\n".to_owned(),
        "| route | handler | file |".to_owned(),
        "|---|---|---|".to_owned(),
    ];
    for (name, _, routes) in api_tests::FUNCTIONS {
        for route in routes().table() {
            // `admin::alerts::free_near`: the crate, its modules, the function.
            let mut parts: Vec<&str> = route.handler.split("::").collect();
            assert!(
                parts.len() >= 2 && parts[0] == name && !route.handler.contains('{'),
                "{} {}: its handler {} is not a named function of the crate {name}",
                route.method,
                route.path,
                route.handler
            );
            parts.pop();
            let modules = &parts[1..];
            let file = if modules.is_empty() {
                format!("functions/{name}/src/lib.rs")
            } else {
                let stem = format!("functions/{name}/src/{}", modules.join("/"));
                if root().join(format!("{stem}.rs")).exists() {
                    format!("{stem}.rs")
                } else {
                    format!("{stem}/mod.rs")
                }
            };
            assert!(root().join(&file).exists(), "{file} exists");
            rows.push(format!(
                "| `{} {}` | `{}` | `{file}` |",
                route.method, route.path, route.handler
            ));
        }
    }
    let section = rows.join("\n") + "\n";
    let doc = fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let now = doc.find("## Every route\n").map(|start| {
        let end = doc[start + 3..]
            .find("\n## ")
            .map_or(doc.len(), |i| start + 3 + i + 1);
        doc[start..end].trim_end()
    });
    assert!(
        now == Some(section.trim_end()),
        "docs/architecture.md's \"Every route\" differs from the route tables; the section should read:\n\n{section}"
    );
}

/// The table's secondary indexes as the store creates them (`schema::INDEXES`, what
/// every test's table has), as template.yaml deploys them and as docs/data-model.md
/// lists them: the same keys and the same projection, attribute for attribute. An
/// index projecting less in AWS than in the tests would fail only once deployed.
#[test]
fn the_indexes_are_the_same_in_the_store_the_template_and_the_data_model() {
    use serde_norway::Value;
    let text = fs::read_to_string(root().join("template.yaml")).unwrap();
    let template: Value = serde_norway::from_str(&text).unwrap();
    let deployed = template["Resources"]["Table"]["Properties"]["GlobalSecondaryIndexes"]
        .as_sequence()
        .expect("the table's GlobalSecondaryIndexes");
    let model = fs::read_to_string(root().join("docs/data-model.md")).unwrap();
    let s = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    let mut wrong = vec![];
    assert_eq!(
        deployed.len(),
        store::schema::INDEXES.len(),
        "as many indexes"
    );
    for index in store::schema::INDEXES {
        let Some(d) = deployed.iter().find(|d| s(&d["IndexName"]) == index.name) else {
            wrong.push(format!("{}: not in template.yaml", index.name));
            continue;
        };
        let keys: Vec<(String, String)> = d["KeySchema"]
            .as_sequence()
            .unwrap()
            .iter()
            .map(|k| (s(&k["AttributeName"]), s(&k["KeyType"])))
            .collect();
        let want = [
            (index.hash.to_owned(), "HASH".to_owned()),
            (index.range.to_owned(), "RANGE".to_owned()),
        ];
        if keys != want {
            wrong.push(format!("{}: keys {keys:?} in template.yaml", index.name));
        }
        let projection = &d["Projection"];
        let non_key: Vec<String> = projection["NonKeyAttributes"]
            .as_sequence()
            .map(|a| a.iter().map(s).collect())
            .unwrap_or_default();
        if s(&projection["ProjectionType"]) != index.projection || non_key != index.non_key {
            wrong.push(format!(
                "{}: projection {} {non_key:?} in template.yaml",
                index.name,
                s(&projection["ProjectionType"])
            ));
        }
        let row = model
            .lines()
            .find(|l| l.starts_with(&format!("| `{}` |", index.name)));
        let listed = match index.projection {
            "INCLUDE" => format!("| INCLUDE `{}` |", index.non_key.join(", ")),
            other => format!("| {other} |"),
        };
        if !row.is_some_and(|r| r.contains(&listed)) {
            wrong.push(format!(
                "{}: docs/data-model.md has no row \"| `{}` | ... {listed}\"",
                index.name, index.name
            ));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Every file git tracks, as paths from the root.
fn tracked() -> Vec<String> {
    let out = std::process::Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root())
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git ls-files: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
        .split(|b| *b == 0)
        .filter(|p| !p.is_empty())
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect()
}

/// Citations a clone cannot follow: a request of the tracker by its number, or a
/// section of the original spec (or of its design notes) by its number. Neither is in
/// the repository; docs/requirements.md ("Citing a requirement") says what to cite.
fn unfollowable(text: &str) -> Vec<(usize, String)> {
    let cited = regex_lite::Regex::new(concat!(
        r"(?i)\bissues?[ _-]?#?\d+",
        r"|\bspec(?:ification)?[ -]?(?:§ ?)?\d+",
        r"|\bspec(?:ification)?(?:'s|’s)? (?:sections?|sec\.) ?\d+",
        r"|(?:\bsections?|§) ?\d+(?:\.\d+)* of the spec",
        r"|\bdesign(?:\.md)?,? (?:§ ?|sections? )\d+",
    ))
    .unwrap();
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| cited.find(line).map(|m| (i + 1, m.as_str().to_owned())))
        .collect()
}

/// No file git tracks cites an issue or a spec section by its number ("issue N",
/// "spec N", "section N of the spec"): a comment or doc cites `docs/` and the decisions.
/// Lockfiles are left out (package names and versions); files that are not text too.
#[test]
fn no_citation_a_clone_cannot_follow() {
    // The rule itself, on samples made here so that this file holds none.
    for sample in [
        format!("(issue {})", 22),
        format!("Issues #{} and 25", 13),
        format!("every issue-{} screen", 3),
        format!("(spec {})", 4),
        format!("Spec {}: every field", 5),
        format!("spec §{}", 9),
        format!("the spec's section {}", 2),
        format!("(spec sections {}, 5 and 8)", 2),
        format!("section {} of the spec", 7),
        format!("DESIGN section {}", 8),
    ] {
        assert_eq!(unfollowable(&sample).len(), 1, "{sample:?} is a citation");
    }
    for fine in [
        "the spec's 911",
        "every spec file of the run",
        "issue_access(7)",
        "tokens we issue: 5 minutes",
        "decision 0008",
    ] {
        assert!(unfollowable(fine).is_empty(), "{fine:?} is no citation");
    }

    let files = tracked();
    assert!(files.len() > 300, "git lists the files ({})", files.len());
    let mut found = vec![];
    for file in files {
        if file.ends_with(".lock") || file.ends_with("package-lock.json") {
            continue;
        }
        let Ok(text) = fs::read_to_string(root().join(&file)) else {
            continue; // not text (an image), or deleted and not yet committed
        };
        for (line, cited) in unfollowable(&text) {
            found.push(format!("{file}:{line}: {cited:?}"));
        }
    }
    assert!(
        found.is_empty(),
        "cite docs/ (a section by name) or a decision instead (docs/requirements.md, \
         \"Citing a requirement\"):\n{}",
        found.join("\n")
    );
}

/// A count written as a word or in digits ("twelve", "12") read back as a number.
fn count_of(word: &str) -> Option<usize> {
    const WORDS: [&str; 21] = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ];
    let word = word.to_lowercase();
    WORDS
        .iter()
        .position(|w| *w == word)
        .or_else(|| word.parse().ok())
}

/// Every "N <what>" the docs say, with the file and the number, for a phrase pattern
/// whose first group is the count.
fn counts_said(pattern: &str) -> Vec<(String, String, Option<usize>)> {
    let re = regex_lite::Regex::new(pattern).unwrap();
    let mut said = vec![];
    for doc in files().into_iter().filter(|f| {
        f.ends_with(".md") && !f.starts_with("docs/decisions/") && !f.contains("node_modules")
    }) {
        let text = fs::read_to_string(root().join(&doc)).unwrap();
        // A phrase may wrap: read the doc as one line.
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for c in re.captures_iter(&flat) {
            said.push((doc.clone(), c[0].to_owned(), count_of(&c[1])));
        }
    }
    said
}

/// Counts that drift when the code grows (the stack's outputs, the table's indexes,
/// the languages, the functions' zips) are checked against the code, so a doc cannot
/// go on saying "twelve indexes" after one is added or removed. The ADRs are left
/// out: each is a decision as of its date.
#[test]
fn the_counts_the_docs_give_are_the_codes() {
    use serde_norway::Value;
    let mut wrong = vec![];
    let template: Value =
        serde_norway::from_str(&fs::read_to_string(root().join("template.yaml")).unwrap()).unwrap();
    let outputs = template["Outputs"]
        .as_mapping()
        .expect("template.yaml's Outputs");
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    for name in outputs.keys().filter_map(Value::as_str) {
        if !readme.contains(&format!("`{name}`")) {
            wrong.push(format!("README.md does not name the stack output `{name}`"));
        }
    }
    let languages = fs::read_to_string(root().join("frontend/src/i18n/languages.ts")).unwrap();
    let languages = regex_lite::Regex::new(r"LANGUAGES = \[([^\]]*)\]")
        .unwrap()
        .captures(&languages)
        .expect("LANGUAGES in languages.ts")[1]
        .split(',')
        .filter(|l| !l.trim().is_empty())
        .count();
    let checks = [
        (
            r"(?i)\b(\w+) of `template\.yaml`'s `Outputs`",
            outputs.len(),
            "stack outputs",
        ),
        (
            r"(?i)\b(\w+) (?:global secondary )?indexes\b",
            store::schema::INDEXES.len(),
            "indexes (store::schema::INDEXES)",
        ),
        (
            r"(?i)\b(\w+) languages\b",
            languages,
            "languages (frontend/src/i18n/languages.ts)",
        ),
    ];
    let mut seen = 0;
    for (pattern, real, what) in checks {
        for (doc, phrase, n) in counts_said(pattern) {
            let Some(n) = n else { continue };
            seen += 1;
            if n != real {
                wrong.push(format!("{doc}: \"{phrase}\", but there are {real} {what}"));
            }
        }
    }
    assert!(seen >= 4, "the counts were found in the docs ({seen})");
    // The zip table: one row per function, none for a function that is gone.
    let deploy = fs::read_to_string(root().join("docs/deploy.md")).unwrap();
    let functions: Vec<String> = fs::read_dir(root().join("functions"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let row = regex_lite::Regex::new(r"\|\s*(\w+)\s*\|\s*[\d.]+ MiB").unwrap();
    let rows: Vec<String> = row
        .captures_iter(&deploy)
        .map(|c| c[1].to_owned())
        .collect();
    for f in &functions {
        if !rows.contains(f) {
            wrong.push(format!("docs/deploy.md: no zip row for the function {f}"));
        }
    }
    for r in &rows {
        if !functions.contains(r) {
            wrong.push(format!(
                "docs/deploy.md: a zip row for {r}, which is no function"
            ));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Key prefixes written out as literals (`"AMBULANCE#"`, `"G2#"`): a string that
/// starts with capitals and a `#`.
fn key_literals(text: &str) -> Vec<(usize, String)> {
    let literal = regex_lite::Regex::new(r#""[A-Z][A-Z0-9_]*#"#).unwrap();
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| literal.find(line).map(|m| (i + 1, m.as_str().to_owned())))
        .collect()
}

/// Every key of the table is made in one place, `shared/store/src/keys.rs`
/// (docs/data-model.md): no other source file of the shared crates or the functions
/// writes out a key prefix; it calls a function of `keys.rs` (tests of those crates
/// too).
#[test]
fn keys_are_built_only_in_keys_rs() {
    for sample in [
        r#"format!("AMBULANCE#{id}")"#,
        r#"pk.strip_prefix("DAY#")"#,
        r#"const PREFIX: &str = "G2#";"#,
    ] {
        assert_eq!(key_literals(sample).len(), 1, "{sample:?} is a key literal");
    }
    for fine in [
        r##".name("#ttl", TTL_ATTRIBUTE)"##,
        r##"r#"{"a": 1}"#"##,
        r#"keys::ambulance(id)"#,
    ] {
        assert!(key_literals(fine).is_empty(), "{fine:?} is no key literal");
    }

    let sources: Vec<String> = tracked()
        .into_iter()
        .filter(|f| f.ends_with(".rs"))
        .filter(|f| {
            let parts: Vec<&str> = f.split('/').collect();
            matches!(parts.as_slice(), ["shared" | "functions", _, "src", ..])
        })
        .collect();
    assert!(
        sources.iter().any(|f| f == "shared/store/src/keys.rs"),
        "the store's sources are listed"
    );
    let mut found = vec![];
    for file in sources {
        if file == "shared/store/src/keys.rs" {
            continue;
        }
        let Ok(text) = fs::read_to_string(root().join(&file)) else {
            continue; // deleted and not yet committed
        };
        for (line, literal) in key_literals(&text) {
            found.push(format!("{file}:{line}: {literal}"));
        }
    }
    assert!(
        found.is_empty(),
        "make the key with a function of shared/store/src/keys.rs:\n{}",
        found.join("\n")
    );
}
