//! Least privilege, checked against the source: each function's policy in
//! template.yaml must grant exactly the DynamoDB actions (on the table and on the
//! indexes) that the function's code can call, plus reading the JWT secret. An
//! extra grant fails as surely as a missing one.
//!
//! Method: plain text, no Rust parser, so it stays short and readable.
//! 1. Every `.rs` file loses its comments; string literals keep their text but
//!    their braces are blanked, so braces can be counted.
//! 2. `shared/src/store/**` is cut into function bodies (`fn name ... { ... }`).
//!    What a body needs directly:
//!    - SDK calls: `.get_item()` is GetItem, `.query()` is Query, and so on;
//!    - the items of a TransactWriteItems, by their builders: `Put::builder()` is
//!      PutItem, `Update::builder()` UpdateItem, `Delete::builder()` DeleteItem,
//!      `ConditionCheck::builder()` ConditionCheckItem (IAM checks each item's
//!      action; there is no TransactWriteItems action);
//!    - a Query uses an index when the body calls `.index_name(`; which index is
//!      read from the string literals naming one (`"gsi1"`) anywhere in the call
//!      chain (`query_all(index, ..)` gets its index from its callers).
//! 3. A body calls another store fn when its name appears as `name(` or
//!    `name::<` after a non-identifier character; names that are also common std
//!    methods (`get`, `add`, ...) count only behind `self.`, `store.` or
//!    `counters::`.
//! 4. A function crate calls the store fns whose names appear as `.name(` or
//!    `.name::<` in `functions/<f>/src/**`; its needs are the closure of those.
//!
//! Limits: names, not types, so fns of one name are merged (the check may then ask
//! for more than needed, never less). A call through a fn pointer or a trait
//! object, an SDK client built outside `shared/src/store`, or shared code outside
//! the store calling it would be missed: the last is guarded by
//! `only_the_store_talks_to_dynamodb`. Operations the map below does not know
//! (PartiQL, ...) fail the test rather than pass silently.

use std::{
    collections::{BTreeMap, BTreeSet},
    fmt::Write as _,
    path::{Path, PathBuf},
};

use serde_yaml::Value;
use shared::store::schema::INDEXES;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// SDK operation (as called on the client) → the IAM action it needs. `None`:
/// no action of its own (the items of a transaction carry them).
const SDK_OPERATIONS: &[(&str, Option<&str>)] = &[
    ("get_item", Some("GetItem")),
    ("put_item", Some("PutItem")),
    ("update_item", Some("UpdateItem")),
    ("delete_item", Some("DeleteItem")),
    ("query", Some("Query")),
    ("scan", Some("Scan")),
    ("batch_get_item", Some("BatchGetItem")),
    ("batch_write_item", Some("BatchWriteItem")),
    ("transact_get_items", Some("GetItem")),
    ("transact_write_items", None),
    ("describe_table", Some("DescribeTable")),
    ("create_table", Some("CreateTable")),
    ("delete_table", Some("DeleteTable")),
    ("update_table", Some("UpdateTable")),
    ("update_time_to_live", Some("UpdateTimeToLive")),
    ("describe_time_to_live", Some("DescribeTimeToLive")),
    ("list_tables", Some("ListTables")),
];

/// Client calls this check cannot map to actions: using one fails the test.
const UNSUPPORTED_OPERATIONS: &[&str] = &[
    "execute_statement",
    "batch_execute_statement",
    "execute_transaction",
];

/// Transaction item builders → the action IAM checks for that item.
const ITEM_BUILDERS: &[(&str, &str)] = &[
    ("Put::builder()", "PutItem"),
    ("Update::builder()", "UpdateItem"),
    ("Delete::builder()", "DeleteItem"),
    ("ConditionCheck::builder()", "ConditionCheckItem"),
    ("Get::builder()", "GetItem"),
];

/// Store fn names that are also everyday method names: only `self.`, `store.` or
/// `counters::` in front of them makes a call to the store.
const AMBIGUOUS: &[&str] = &["get", "new", "add", "read", "of", "key", "s", "n"];

/// The logical id of the table in template.yaml.
const TABLE: &str = "Table";

// ---------------------------------------------------------------- source text

/// Removes comments; keeps string literals (their text matters: index names) but
/// blanks their braces, so `{`/`}` outside strings balance.
fn clean(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            i += 2;
            while i + 1 < c.len() && !(c[i] == '*' && c[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c[i] == 'r'
            && (next == Some('"') || next == Some('#'))
            && (i == 0 || !ident(c[i - 1]))
        {
            // Raw string r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            out.push('"');
            j += 1;
            while j < c.len()
                && !(c[j] == '"' && (0..hashes).all(|h| c.get(j + 1 + h) == Some(&'#')))
            {
                out.push(blank_braces(c[j]));
                j += 1;
            }
            out.push('"');
            i = j + 1 + hashes;
        } else if c[i] == '"' {
            out.push('"');
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                }
                if i < c.len() {
                    out.push(blank_braces(c[i]));
                }
                i += 1;
            }
            out.push('"');
            i += 1;
        } else if c[i] == '\'' && (next == Some('\\') || c.get(i + 2) == Some(&'\'')) {
            // A char literal ('{', '\n'); a lifetime ('a) is left alone.
            let mut j = i + 1;
            if c[j] == '\\' {
                j += 1;
            }
            j += 1;
            while j < c.len() && c[j] != '\'' {
                j += 1;
            }
            out.push_str("' '");
            i = j + 1;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn blank_braces(ch: char) -> char {
    if ch == '{' || ch == '}' { ' ' } else { ch }
}

fn without_whitespace(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = vec![];
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn read_clean(path: &Path) -> String {
    clean(&std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// `fn name ... { body }` of a cleaned file: (name, body without whitespace).
fn fn_bodies(src: &str) -> Vec<(String, String)> {
    let b = src.as_bytes();
    let mut out = vec![];
    let mut from = 0;
    while let Some(pos) = src[from..].find("fn ").map(|p| p + from) {
        from = pos + 3;
        if pos > 0 && (b[pos - 1].is_ascii_alphanumeric() || b[pos - 1] == b'_') {
            continue;
        }
        let name: String = src[pos + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue;
        }
        // The body opens at the first `{` after the signature; `;` first: no body.
        let Some(open) = src[from..].find(['{', ';']).map(|p| p + from) else {
            continue;
        };
        if b[open] == b';' {
            continue;
        }
        let mut depth = 0;
        let mut close = open;
        for (i, ch) in src[open..].char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                close = open + i;
                break;
            }
        }
        assert!(depth == 0, "unbalanced braces in the body of fn {name}");
        out.push((name, without_whitespace(&src[open..=close])));
    }
    out
}

/// `pattern` in `text` right after a non-identifier character (so `add(` is not
/// found in `pad(`).
fn has_token(text: &str, pattern: &str) -> bool {
    text.match_indices(pattern).any(|(at, _)| {
        !text[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// A call of store fn `name`: `name(` or `name::<`, or for an ambiguous name
/// `self.name(`, `store.name(` or `counters::name(` (and their `::<` forms).
fn calls(body: &str, name: &str) -> bool {
    let prefixes: &[&str] = if AMBIGUOUS.contains(&name) {
        &["self.", "store.", "counters::"]
    } else {
        &[""]
    };
    prefixes.iter().any(|prefix| {
        has_token(body, &format!("{prefix}{name}("))
            || has_token(body, &format!("{prefix}{name}::<"))
    })
}

// ---------------------------------------------------------------- what the code needs

/// One permission: an action on the table (`Table`) or on an index (`Table/index/x`).
type Grant = (String, String);

#[derive(Default)]
struct Body {
    actions: BTreeSet<String>,
    uses_index: bool,
    index_names: BTreeSet<String>,
    unsupported: Vec<String>,
    calls: BTreeSet<String>,
}

/// Every fn of shared/src/store, by name (same-named fns merged).
fn store_graph() -> BTreeMap<String, Body> {
    let mut raw: BTreeMap<String, String> = BTreeMap::new();
    for file in rust_files(&Path::new(ROOT).join("shared/src/store")) {
        for (name, body) in fn_bodies(&read_clean(&file)) {
            raw.entry(name).or_default().push_str(&body);
        }
    }
    let names: Vec<String> = raw.keys().cloned().collect();
    raw.iter()
        .map(|(name, text)| {
            let mut body = Body::default();
            for (op, action) in SDK_OPERATIONS {
                if text.contains(&format!(".{op}()")) {
                    if let Some(action) = action {
                        body.actions.insert(action.to_string());
                    }
                }
            }
            for op in UNSUPPORTED_OPERATIONS {
                if text.contains(&format!(".{op}()")) {
                    body.unsupported.push(op.to_string());
                }
            }
            for (builder, action) in ITEM_BUILDERS {
                if has_token(text, builder) {
                    body.actions.insert(action.to_string());
                }
            }
            body.uses_index = text.contains(".index_name(");
            for index in INDEXES {
                if text.contains(&format!("\"{}\"", index.name)) {
                    body.index_names.insert(index.name.to_string());
                }
            }
            body.calls = names
                .iter()
                .filter(|callee| *callee != name && calls(text, callee))
                .cloned()
                .collect();
            (name.clone(), body)
        })
        .collect()
}

/// The grants a set of entry points needs, each with the first entry point that
/// needs it (for the message).
fn needs(graph: &BTreeMap<String, Body>, entries: &BTreeSet<String>) -> BTreeMap<Grant, String> {
    let mut out = BTreeMap::new();
    for entry in entries {
        let mut seen = BTreeSet::new();
        let mut stack = vec![entry.clone()];
        let (mut actions, mut uses_index, mut index_names) =
            (BTreeSet::new(), false, BTreeSet::new());
        let mut table_query = false;
        while let Some(name) = stack.pop() {
            if !seen.insert(name.clone()) {
                continue;
            }
            let body = &graph[&name];
            assert!(
                body.unsupported.is_empty(),
                "store fn {name} calls {:?}, which this check cannot map to IAM actions",
                body.unsupported
            );
            actions.extend(body.actions.iter().cloned());
            // A Query in a body that names no index reads the table itself.
            table_query |= body.actions.contains("Query") && !body.uses_index;
            uses_index |= body.uses_index;
            index_names.extend(body.index_names.iter().cloned());
            stack.extend(body.calls.iter().cloned());
        }
        let mut grants: Vec<Grant> = actions
            .iter()
            .filter(|a| *a != "Query")
            .map(|a| (a.clone(), TABLE.to_owned()))
            .collect();
        if table_query {
            grants.push(("Query".into(), TABLE.into()));
        }
        if uses_index {
            assert!(
                !index_names.is_empty(),
                "{entry} queries an index but no index name was found in its call chain"
            );
            for index in &index_names {
                grants.push(("Query".into(), format!("{TABLE}/index/{index}")));
            }
        }
        for grant in grants {
            out.entry(grant).or_insert_with(|| entry.clone());
        }
    }
    out
}

/// Store fns a function crate calls: `.name(` / `.name::<` in functions/<f>/src.
fn entry_points(graph: &BTreeMap<String, Body>, function: &str) -> BTreeSet<String> {
    let dir = Path::new(ROOT).join("functions").join(function).join("src");
    let text: String = rust_files(&dir)
        .iter()
        .map(|f| without_whitespace(&read_clean(f)))
        .collect();
    graph
        .keys()
        .filter(|name| {
            if AMBIGUOUS.contains(&name.as_str()) {
                text.contains(&format!("store.{name}("))
                    || text.contains(&format!("store.{name}::<"))
            } else {
                text.contains(&format!(".{name}(")) || text.contains(&format!(".{name}::<"))
            }
        })
        .cloned()
        .collect()
}

fn function_crates() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(Path::new(ROOT).join("functions"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("Cargo.toml").exists())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

// ---------------------------------------------------------------- what the template grants

fn template() -> Value {
    let path = Path::new(ROOT).join("template.yaml");
    let text = std::fs::read_to_string(&path).expect("template.yaml at the repository root");
    serde_yaml::from_str(&text).expect("template.yaml is YAML (short tags like !Ref are kept)")
}

fn list(v: &Value) -> Vec<&Value> {
    match v {
        Value::Sequence(items) => items.iter().collect(),
        Value::Null => vec![],
        other => vec![other],
    }
}

/// `!GetAtt Table.Arn` → `Table`, `!Sub "${Table.Arn}/index/x"` → `Table/index/x`,
/// `!Ref JwtSecret` → `JwtSecret`; anything else as written (it will not match).
fn resource_name(v: &Value) -> String {
    match v {
        Value::Tagged(t) => {
            let tag = t.tag.to_string();
            let inner = t.value.as_str().unwrap_or_default();
            match tag.trim_start_matches('!') {
                "GetAtt" => inner.trim_end_matches(".Arn").to_owned(),
                "Ref" => inner.to_owned(),
                "Sub" => inner.replace("${", "").replace(".Arn}", ""),
                _ => format!("{tag} {inner}"),
            }
        }
        Value::String(s) => s.clone(),
        other => format!("{other:?}"),
    }
}

struct TemplateFunction {
    logical_id: String,
    dynamodb: BTreeSet<Grant>,
    other: BTreeSet<Grant>,
    problems: Vec<String>,
}

/// Every AWS::Serverless::Function, by the crate it builds (`BuildProperties.Binary`).
fn template_functions(t: &Value) -> BTreeMap<String, TemplateFunction> {
    let mut out = BTreeMap::new();
    for (id, resource) in t["Resources"].as_mapping().expect("Resources") {
        if resource["Type"] != "AWS::Serverless::Function" {
            continue;
        }
        let logical_id = id.as_str().unwrap().to_owned();
        let binary = resource["Metadata"]["BuildProperties"]["Binary"]
            .as_str()
            .unwrap_or_else(|| panic!("{logical_id}: Metadata.BuildProperties.Binary"))
            .to_owned();
        let props = &resource["Properties"];
        let mut f = TemplateFunction {
            logical_id: logical_id.clone(),
            dynamodb: BTreeSet::new(),
            other: BTreeSet::new(),
            problems: vec![],
        };
        if !props["Role"].is_null() {
            f.problems
                .push("has a Role of its own: its grants cannot be checked here".into());
        }
        for policy in list(&props["Policies"]) {
            if policy["Statement"].is_null() {
                f.problems.push(format!(
                    "uses the policy {policy:?}: write its statements out so they can be checked"
                ));
                continue;
            }
            for statement in list(&policy["Statement"]) {
                if statement["Effect"] != "Allow" {
                    f.problems.push(format!(
                        "has a statement that is not Effect: Allow: {statement:?}"
                    ));
                    continue;
                }
                for action in list(&statement["Action"]) {
                    let action = action.as_str().unwrap_or_default().to_owned();
                    for resource in list(&statement["Resource"]) {
                        let resource = resource_name(resource);
                        match action.strip_prefix("dynamodb:") {
                            Some(a) => f.dynamodb.insert((a.to_owned(), resource)),
                            None => f.other.insert((action.clone(), resource)),
                        };
                    }
                }
            }
        }
        assert!(
            out.insert(binary.clone(), f).is_none(),
            "two functions build {binary}"
        );
    }
    out
}

// ---------------------------------------------------------------- the checks

#[test]
fn each_function_is_granted_exactly_the_dynamodb_calls_its_code_makes() {
    let graph = store_graph();
    let t = template();
    let mut functions = template_functions(&t);
    let mut report = String::new();
    let mut summary = String::new();

    for crate_name in function_crates() {
        let Some(f) = functions.remove(&crate_name) else {
            writeln!(
                report,
                "functions/{crate_name}: no function in template.yaml builds it"
            )
            .unwrap();
            continue;
        };
        let entries = entry_points(&graph, &crate_name);
        let needed = needs(&graph, &entries);
        let who = format!("{} (functions/{crate_name})", f.logical_id);
        for p in &f.problems {
            writeln!(report, "{who}: {p}").unwrap();
        }
        for ((action, resource), via) in &needed {
            if !f.dynamodb.contains(&(action.clone(), resource.clone())) {
                writeln!(
                    report,
                    "{who}: MISSING dynamodb:{action} on {resource} (the code calls it: store fn {via})"
                )
                .unwrap();
            }
        }
        for (action, resource) in &f.dynamodb {
            if !needed.contains_key(&(action.clone(), resource.clone())) {
                writeln!(
                    report,
                    "{who}: EXTRA dynamodb:{action} on {resource} (granted, but the code never calls it)"
                )
                .unwrap();
            }
        }
        let secret: BTreeSet<Grant> =
            [("secretsmanager:GetSecretValue".into(), "JwtSecret".into())].into();
        if f.other != secret {
            writeln!(
                report,
                "{who}: other grants must be exactly secretsmanager:GetSecretValue on JwtSecret, found {:?}",
                f.other
            )
            .unwrap();
        }
        writeln!(
            summary,
            "{crate_name}: {}",
            needed
                .keys()
                .map(|(a, r)| format!("{a}@{r}"))
                .collect::<Vec<_>>()
                .join(" ")
        )
        .unwrap();
    }
    for (binary, f) in functions {
        writeln!(
            report,
            "{}: builds {binary}, which is not a crate under functions/",
            f.logical_id
        )
        .unwrap();
    }
    // Shown with --nocapture: what the analysis found.
    println!("{summary}");
    assert!(
        report.is_empty(),
        "template.yaml's policies differ from the code:\n{report}"
    );
}

#[test]
fn every_index_the_code_queries_is_in_the_template() {
    let graph = store_graph();
    let t = template();
    let declared: BTreeSet<String> =
        list(&t["Resources"][TABLE]["Properties"]["GlobalSecondaryIndexes"])
            .iter()
            .map(|i| i["IndexName"].as_str().unwrap().to_owned())
            .collect();
    let queried: BTreeSet<String> = graph
        .values()
        .flat_map(|b| b.index_names.iter().cloned())
        .collect();
    assert!(
        !queried.is_empty(),
        "the analysis found no index query at all"
    );
    let missing: Vec<_> = queried.difference(&declared).collect();
    assert!(
        missing.is_empty(),
        "indexes queried but not in template.yaml: {missing:?}"
    );
}

/// The analysis itself, on fns whose needs are known, so a parsing slip cannot make
/// the main check pass by finding nothing.
#[test]
fn the_analysis_finds_known_calls() {
    let graph = store_graph();
    let grants = |entry: &str| -> BTreeSet<String> {
        needs(&graph, &[entry.to_owned()].into())
            .into_keys()
            .map(|(a, r)| format!("{a}@{r}"))
            .collect()
    };
    let set = |items: &[&str]| items.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    assert_eq!(grants("user"), set(&["GetItem@Table"]));
    // next_id (UpdateItem) + a transaction of Puts and a counter Update.
    assert_eq!(
        grants("create_user"),
        set(&["PutItem@Table", "UpdateItem@Table"])
    );
    assert_eq!(grants("user_bookings"), set(&["Query@Table/index/gsi1"]));
    // Counter shards (Query on the table), keys from `list`, then BatchGetItem.
    assert_eq!(
        grants("hospitals_page"),
        set(&[
            "Query@Table",
            "Query@Table/index/list",
            "BatchGetItem@Table"
        ])
    );
    assert_eq!(grants("nearest_hospitals"), set(&["Query@Table/index/geo"]));
    // The function crates call the store as written across lines, too.
    assert!(entry_points(&graph, "hospitals").contains("nearest_hospitals"));
    assert!(entry_points(&graph, "admin").contains("user_count"));
}

#[test]
fn cleaning_keeps_code_and_drops_comments() {
    let src = "fn a() { x.get_item() } // fn b() { y.scan() }\nfn c() { let s = \"{ http://x }\"; let ch = '{'; z.query() }";
    let bodies = fn_bodies(&clean(src));
    let names: Vec<_> = bodies.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["a", "c"]);
    assert!(bodies[1].1.contains(".query()") && bodies[1].1.contains("http://x"));
}

/// The check reads only the store for DynamoDB calls: anything else in `shared/src`
/// that a function runs must not reach the store or a DynamoDB client itself.
#[test]
fn only_the_store_talks_to_dynamodb() {
    let shared_src = Path::new(ROOT).join("shared/src");
    // Not part of any function: the local and admin tools, and test helpers.
    let outside_functions = ["bin", "seed.rs", "testing.rs", "store"];
    let mut offenders = vec![];
    for file in rust_files(&shared_src) {
        let rel = file.strip_prefix(&shared_src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        if outside_functions.contains(&first.as_ref()) {
            continue;
        }
        let text = without_whitespace(&read_clean(&file));
        if text.contains(".store.")
            || text.contains("aws_sdk_dynamodb")
            || text.contains(".client()")
        {
            offenders.push(rel.display().to_string());
        }
    }
    // lib.rs builds the Store (AppState::new) but calls none of its methods.
    offenders.retain(|f| f != "lib.rs");
    assert!(
        offenders.is_empty(),
        "shared code outside store/ calls DynamoDB: {offenders:?}"
    );
}
