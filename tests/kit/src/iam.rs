//! Least privilege, from what the functions really call: while a test's request is
//! served, an SDK interceptor records every DynamoDB call as the IAM action and
//! resource it needs, and refuses (as IAM would) one that template.yaml does not
//! grant to the function serving the request; `TestApp::send` then fails the test
//! naming it. `tests/api` checks the other direction (no grant goes unused).

use std::{
    collections::{BTreeMap, BTreeSet},
    sync::{Arc, Mutex, OnceLock},
};

use aws_sdk_dynamodb::operation::{
    batch_get_item::BatchGetItemInput, batch_write_item::BatchWriteItemInput,
    delete_item::DeleteItemInput, get_item::GetItemInput, put_item::PutItemInput,
    query::QueryInput, scan::ScanInput, transact_get_items::TransactGetItemsInput,
    transact_write_items::TransactWriteItemsInput, update_item::UpdateItemInput,
};
use serde_norway::Value;

use super::hooks::Hooks;

/// One permission: an IAM action (`dynamodb:Query`) on a resource of template.yaml
/// (`Table`, `Table/index/geo`, `JwtSecret`; `RestoredTable`, `RestoredTable/index/geo`
/// for the table named by the `RestoredTableName` parameter).
pub type Grant = (String, String);

/// The condition under which the stack runs on a table restored from its own
/// (`RestoredTableName` set): every use of the table is `!If [UseRestoredTable,
/// <the restored table>, <Table>]`.
pub const RESTORED: &str = "UseRestoredTable";

/// The restored table's ARN as the template writes it, read as `RestoredTable`.
const RESTORED_TABLE_ARN: &str =
    "arn:${AWS::Partition}:dynamodb:${AWS::Region}:${AWS::AccountId}:table/${RestoredTableName}";

/// Which branch of `!If [UseRestoredTable, ...]` a reading of the template takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// `RestoredTableName` empty: the stack's own `Table`.
    Own,
    /// `RestoredTableName` set.
    Restored,
}

/// The calls of one app's requests, by function, and the refused ones.
#[derive(Debug, Default)]
pub struct Calls {
    pub made: BTreeMap<String, BTreeSet<Grant>>,
    pub refused: Vec<String>,
}

tokio::task_local! {
    /// The function serving the request being handled, and where its calls go.
    static SERVING: (String, Arc<Mutex<Calls>>);
}

/// Runs `request` as served by `function`, recording its DynamoDB calls in `calls`.
pub async fn serving<F: Future>(function: &str, calls: Arc<Mutex<Calls>>, request: F) -> F::Output {
    SERVING.scope((function.to_owned(), calls), request).await
}

/// The hooks `TestApp` runs on its DynamoDB client.
pub fn record_calls() -> Hooks {
    Hooks::new("RecordCalls").on_input(|context| {
        // Calls outside a request (fixtures, checks) belong to no function.
        let Ok((function, calls)) = SERVING.try_with(|s| s.clone()) else {
            return Ok(());
        };
        let input = context.input();
        // The IAM actions (on `Table` or one of its indexes) this request needs.
        let needs: Vec<Grant> = {
            let grant = |action: &str, resource: String| (format!("dynamodb:{action}"), resource);
            let table = || "Table".to_owned();
            let on = |index: Option<&str>| index.map_or_else(table, |i| format!("Table/index/{i}"));
            if input.downcast_ref::<GetItemInput>().is_some() {
                vec![grant("GetItem", table())]
            } else if input.downcast_ref::<PutItemInput>().is_some() {
                vec![grant("PutItem", table())]
            } else if input.downcast_ref::<UpdateItemInput>().is_some() {
                vec![grant("UpdateItem", table())]
            } else if input.downcast_ref::<DeleteItemInput>().is_some() {
                vec![grant("DeleteItem", table())]
            } else if let Some(q) = input.downcast_ref::<QueryInput>() {
                vec![grant("Query", on(q.index_name()))]
            } else if let Some(s) = input.downcast_ref::<ScanInput>() {
                vec![grant("Scan", on(s.index_name()))]
            } else if input.downcast_ref::<BatchGetItemInput>().is_some() {
                vec![grant("BatchGetItem", table())]
            } else if input.downcast_ref::<BatchWriteItemInput>().is_some() {
                vec![grant("BatchWriteItem", table())]
            } else if input.downcast_ref::<TransactGetItemsInput>().is_some() {
                vec![grant("GetItem", table())]
            } else if let Some(tx) = input.downcast_ref::<TransactWriteItemsInput>() {
                // IAM checks each item's own action; there is no TransactWriteItems action.
                tx.transact_items()
                    .iter()
                    .map(|item| {
                        let action = if item.put().is_some() {
                            "PutItem"
                        } else if item.update().is_some() {
                            "UpdateItem"
                        } else if item.delete().is_some() {
                            "DeleteItem"
                        } else {
                            "ConditionCheckItem"
                        };
                        grant(action, table())
                    })
                    .collect()
            } else {
                vec![grant(&format!("{input:?}"), table())]
            }
        };
        let granted = template().grants(&function);
        let mut calls = calls.lock().expect("not poisoned");
        for need in needs {
            if !granted.contains(&need) {
                let refusal = format!(
                    "functions/{function} called {} on {}, which template.yaml does not grant it",
                    need.0, need.1
                );
                calls.refused.push(refusal.clone());
                return Err(refusal.into());
            }
            calls.made.entry(function.clone()).or_default().insert(need);
        }
        Ok(())
    })
}

/// A function of template.yaml: what it builds, serves and may do.
#[derive(Debug, Default)]
pub struct TemplateFunction {
    pub logical_id: String,
    /// `Events.*.Properties.Path`.
    pub paths: BTreeSet<String>,
    /// Whether it has an HttpApi event without a path: API Gateway's `$default`
    /// route, every request no other route matches.
    pub default_route: bool,
    pub grants: BTreeSet<Grant>,
    /// The same policies read with `RestoredTableName` set ([`Side::Restored`]).
    pub restored_grants: BTreeSet<Grant>,
    /// What makes the grants impossible to check (a `Role` of its own, a managed
    /// policy, a `Deny`).
    pub problems: Vec<String>,
}

/// The functions of template.yaml, by the crate they build (`BuildProperties.Binary`).
#[derive(Debug, Default)]
pub struct Template {
    pub functions: BTreeMap<String, TemplateFunction>,
}

impl Template {
    pub fn grants(&self, function: &str) -> BTreeSet<Grant> {
        self.functions
            .get(function)
            .map(|f| f.grants.clone())
            .unwrap_or_default()
    }
}

/// template.yaml as YAML, read once.
fn template_yaml() -> &'static Value {
    static YAML: OnceLock<Value> = OnceLock::new();
    YAML.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../template.yaml");
        let text = std::fs::read_to_string(path).expect("template.yaml at the repository root");
        serde_norway::from_str(&text).expect("template.yaml is YAML")
    })
}

/// template.yaml, parsed once.
pub fn template() -> &'static Template {
    static TEMPLATE: OnceLock<Template> = OnceLock::new();
    TEMPLATE.get_or_init(|| parse_template(template_yaml()))
}

fn list(v: &Value) -> Vec<&Value> {
    match v {
        Value::Sequence(items) => items.iter().collect(),
        Value::Null => vec![],
        other => vec![other],
    }
}

fn tag(t: &serde_norway::value::TaggedValue) -> String {
    t.tag.to_string().trim_start_matches('!').to_owned()
}

/// `[condition, then, else]` of an `!If` on [`RESTORED`], the branch `side` takes.
fn restored_branch(v: &Value, side: Side) -> Option<&Value> {
    let Value::Tagged(t) = v else { return None };
    match (tag(t).as_str(), t.value.as_sequence().map(Vec::as_slice)) {
        ("If", Some([condition, then, otherwise])) if condition.as_str() == Some(RESTORED) => {
            Some(match side {
                Side::Restored => then,
                Side::Own => otherwise,
            })
        }
        _ => None,
    }
}

/// A statement's resources on one side of [`RESTORED`]: `!GetAtt Table.Arn` →
/// `Table`, `!Sub "${Table.Arn}/index/x"` → `Table/index/x`, the restored table's ARN
/// (`.../table/${RestoredTableName}/index/x`) → `RestoredTable/index/x`, `!Ref
/// JwtSecret` → `JwtSecret`; anything else as written (it will not match).
fn resource_names(v: &Value, side: Side) -> Vec<String> {
    if let Some(branch) = restored_branch(v, side) {
        return list(branch)
            .into_iter()
            .flat_map(|v| resource_names(v, side))
            .collect();
    }
    let name = match v {
        Value::Tagged(t) => {
            let inner = t.value.as_str().unwrap_or_default();
            match tag(t).as_str() {
                "GetAtt" => inner.trim_end_matches(".Arn").to_owned(),
                "Ref" => inner.to_owned(),
                "Sub" => match inner.strip_prefix(RESTORED_TABLE_ARN) {
                    Some(rest) => format!("RestoredTable{rest}"),
                    None => inner.replace("${", "").replace(".Arn}", ""),
                },
                other => format!("!{other} {:?}", t.value),
            }
        }
        Value::String(s) => s.clone(),
        other => format!("{other:?}"),
    };
    vec![name]
}

pub fn parse_template(t: &Value) -> Template {
    let mut out = Template::default();
    for (id, resource) in t["Resources"].as_mapping().expect("Resources") {
        if resource["Type"] != "AWS::Serverless::Function" {
            continue;
        }
        let logical_id = id.as_str().unwrap_or_default().to_owned();
        let binary = resource["Metadata"]["BuildProperties"]["Binary"]
            .as_str()
            .unwrap_or_else(|| panic!("{logical_id}: Metadata.BuildProperties.Binary"))
            .to_owned();
        let props = &resource["Properties"];
        let mut f = TemplateFunction {
            logical_id,
            ..Default::default()
        };
        if !props["Role"].is_null() {
            f.problems
                .push("has a Role of its own: its grants cannot be checked here".into());
        }
        for event in props["Events"].as_mapping().into_iter().flatten() {
            match event.1["Properties"]["Path"].as_str() {
                Some(path) => {
                    f.paths.insert(path.to_owned());
                }
                None if event.1["Type"] == "HttpApi" => f.default_route = true,
                None => {}
            }
        }
        for policy in list(&props["Policies"]) {
            if policy["Statement"].is_null() {
                f.problems.push(format!(
                    "uses the policy {policy:?}: write its statements out so they can be checked"
                ));
            }
            for statement in list(&policy["Statement"]) {
                if statement["Effect"] != "Allow" {
                    f.problems
                        .push(format!("has a statement that is not Allow: {statement:?}"));
                    continue;
                }
                for action in list(&statement["Action"]) {
                    let action = action.as_str().unwrap_or_default();
                    for (side, grants) in [
                        (Side::Own, &mut f.grants),
                        (Side::Restored, &mut f.restored_grants),
                    ] {
                        for resource in list(&statement["Resource"]) {
                            for name in resource_names(resource, side) {
                                grants.insert((action.to_owned(), name));
                            }
                        }
                    }
                }
            }
        }
        assert!(
            out.functions.insert(binary.clone(), f).is_none(),
            "two functions build {binary}"
        );
    }
    out
}

/// Where template.yaml names a table, read on one `side` of [`RESTORED`]: by path
/// (`Resources.BookingFunction.Properties.Policies[0].Statement[1].Resource[0]`, the
/// path of the `!If` for what is inside one), `Table` for the stack's own table
/// (`!Ref Table`, `!GetAtt Table.X`, `${Table}`, `${Table.X}` in a `!Sub`),
/// `RestoredTable` for the parameters `RestoredTableName` and `RestoredTableStreamArn`.
/// Read: `Globals`, `Resources` but the table itself, `Outputs`.
pub fn table_references(side: Side) -> BTreeMap<String, BTreeSet<&'static str>> {
    table_references_in(template_yaml(), side)
}

pub fn table_references_in(t: &Value, side: Side) -> BTreeMap<String, BTreeSet<&'static str>> {
    let mut found = BTreeMap::new();
    for section in ["Globals", "Resources", "Outputs"] {
        for (key, v) in t[section].as_mapping().into_iter().flatten() {
            let key = key.as_str().unwrap_or_default();
            if section == "Resources" && key == "Table" {
                continue;
            }
            walk(v, &format!("{section}.{key}"), side, &mut found);
        }
    }
    found
}

fn walk(v: &Value, path: &str, side: Side, found: &mut BTreeMap<String, BTreeSet<&'static str>>) {
    let mut note = |what: &'static str| {
        found.entry(path.to_owned()).or_default().insert(what);
    };
    let names = |what: &str| match what {
        "Table" => Some("Table"),
        "RestoredTableName" | "RestoredTableStreamArn" => Some("RestoredTable"),
        _ => None,
    };
    if let Some(branch) = restored_branch(v, side) {
        return walk(branch, path, side, found);
    }
    match v {
        Value::Tagged(t) => match (tag(t).as_str(), &t.value) {
            ("Ref", Value::String(name)) => names(name).into_iter().for_each(note),
            ("GetAtt", Value::String(name)) => {
                names(name.split('.').next().unwrap_or_default())
                    .into_iter()
                    .for_each(note);
            }
            ("GetAtt", Value::Sequence(parts)) => {
                names(parts.first().and_then(Value::as_str).unwrap_or_default())
                    .into_iter()
                    .for_each(note);
            }
            ("Sub", body) => {
                let (text, vars) = match body {
                    Value::Sequence(parts) => (parts.first(), parts.get(1)),
                    text => (Some(text), None),
                };
                let text = text.and_then(Value::as_str).unwrap_or_default();
                for variable in text.split("${").skip(1) {
                    let name = variable.split(['}', '.']).next().unwrap_or_default();
                    names(name).into_iter().for_each(&mut note);
                }
                if let Some(vars) = vars {
                    walk(vars, &format!("{path}[1]"), side, found);
                }
            }
            (_, inner) => walk(inner, path, side, found),
        },
        Value::Mapping(m) => {
            for (k, v) in m {
                let k = k.as_str().map_or_else(|| format!("{k:?}"), str::to_owned);
                walk(v, &format!("{path}.{k}"), side, found);
            }
        }
        Value::Sequence(items) => {
            for (i, v) in items.iter().enumerate() {
                walk(v, &format!("{path}[{i}]"), side, found);
            }
        }
        _ => {}
    }
}

/// The differences between what a function was granted and what it called.
pub fn compare(function: &str, granted: &BTreeSet<Grant>, called: &BTreeSet<Grant>) -> Vec<String> {
    let dynamodb = |g: &&Grant| g.0.starts_with("dynamodb:");
    let missing = called
        .iter()
        .filter(|g| !granted.contains(*g))
        .map(|(a, r)| format!("functions/{function}: MISSING {a} on {r} (the code calls it)"));
    let extra = granted
        .iter()
        .filter(dynamodb)
        .filter(|g| !called.contains(*g))
        .map(|(a, r)| {
            format!("functions/{function}: EXTRA {a} on {r} (granted, but no request called it)")
        });
    missing.chain(extra).collect()
}
