//! docs/data-map.md holds a line for every field of the contract (docs/openapi.yaml)
//! whose name says it may hold personal data: where it is kept, or why it is not
//! personal. A new such field without its line fails here, and so does a line for a
//! field the contract no longer has (docs/decisions/0022-personal-data.md).

use std::{collections::BTreeSet, fs, path::Path};

use serde_norway::Value;

/// Words that, in a field's name, say it may hold personal data (camelCase words,
/// compared lower-case): who someone is, how to reach them, where they are, their
/// health, their credentials. `by` (who did it) and `user` too.
const PERSONAL_WORDS: &[&str] = &[
    "name",
    "username",
    "email",
    "phone",
    "contact",
    "address",
    "latitude",
    "longitude",
    "lat",
    "lng",
    "location",
    "position",
    "pickup",
    "landmark",
    "patient",
    "age",
    "gender",
    "condition",
    "birth",
    "dob",
    "blood",
    "allergy",
    "allergies",
    "medication",
    "medications",
    "diagnosis",
    "symptom",
    "symptoms",
    "note",
    "notes",
    "comment",
    "comments",
    "remarks",
    "photo",
    "signature",
    "aadhaar",
    "insurance",
    "driver",
    "endpoint",
    "p256dh",
    "auth",
    "password",
    "token",
    "user",
    "by",
    "ip",
    "device",
    "devices",
    "reads",
];

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The words of a camelCase name, lower-case (`userEmail` → user, email).
fn words(name: &str) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    for c in name.chars() {
        if c.is_ascii_uppercase() || out.is_empty() || !c.is_ascii_alphanumeric() {
            out.push(String::new());
        }
        if c.is_ascii_alphanumeric() {
            out.last_mut().expect("pushed").push(c.to_ascii_lowercase());
        }
    }
    out.retain(|w| !w.is_empty());
    out
}

fn looks_personal(field: &str) -> bool {
    let name = field.rsplit('.').next().unwrap_or(field);
    words(name)
        .iter()
        .any(|w| PERSONAL_WORDS.contains(&w.as_str()))
}

/// Every property of `schema` as `<at>.<name>` (nested objects and array items
/// too, `[]` for an item), through `allOf`/`anyOf`/`oneOf`; `$ref`s are the named
/// schema's own fields, not followed.
fn walk(schema: &Value, at: &str, out: &mut BTreeSet<String>) {
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Sequence(subs)) = schema.get(key) {
            for sub in subs {
                walk(sub, at, out);
            }
        }
    }
    if let Some(items) = schema.get("items") {
        walk(items, &format!("{at}[]"), out);
    }
    if let Some(Value::Mapping(props)) = schema.get("properties") {
        for (name, sub) in props {
            let path = format!("{at}.{}", name.as_str().expect("a property name"));
            out.insert(path.clone());
            walk(sub, &path, out);
        }
    }
}

/// Every field the contract names: the components' schemas', and those of request
/// and response bodies written inline (`<METHOD> <path>.<field>`).
fn contract_fields(spec: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if let Some(Value::Mapping(schemas)) = spec.get("components").and_then(|c| c.get("schemas")) {
        for (name, schema) in schemas {
            walk(schema, name.as_str().expect("a schema name"), &mut out);
        }
    }
    if let Some(Value::Mapping(paths)) = spec.get("paths") {
        for (path, ops) in paths {
            let Value::Mapping(ops) = ops else { continue };
            for (method, op) in ops {
                let at = format!(
                    "{} {}",
                    method.as_str().unwrap_or_default().to_uppercase(),
                    path.as_str().unwrap_or_default()
                );
                let json = |v: &Value| {
                    v.get("content")
                        .and_then(|c| c.get("application/json"))
                        .and_then(|c| c.get("schema"))
                        .cloned()
                };
                let mut bodies = vec![];
                bodies.extend(op.get("requestBody").and_then(json));
                if let Some(Value::Mapping(responses)) = op.get("responses") {
                    bodies.extend(responses.values().filter_map(json));
                }
                for body in bodies.iter().filter(|b| b.get("$ref").is_none()) {
                    walk(body, &at, &mut out);
                }
            }
        }
    }
    out
}

/// The fields docs/data-map.md's last section names (`Schema.field` in backticks).
fn mapped_fields(doc: &str) -> BTreeSet<String> {
    let section = doc
        .split("## The contract's personal fields")
        .nth(1)
        .expect("docs/data-map.md has a section \"The contract's personal fields\"");
    let field = regex_lite::Regex::new(r"`([A-Z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+(?:\[\])?)+)`")
        .expect("a regex");
    field
        .captures_iter(section)
        .map(|c| c[1].to_owned())
        .collect()
}

/// What the data map lacks (personal-looking fields without a line) and what it
/// names that the contract does not have.
fn differences(spec: &Value, doc: &str) -> (Vec<String>, Vec<String>) {
    let fields = contract_fields(spec);
    let mapped = mapped_fields(doc);
    let missing = fields
        .iter()
        .filter(|f| looks_personal(f) && !mapped.contains(*f))
        .cloned()
        .collect();
    let stale = mapped.difference(&fields).cloned().collect();
    (missing, stale)
}

fn spec() -> Value {
    let text = fs::read_to_string(root().join("docs/openapi.yaml")).expect("docs/openapi.yaml");
    serde_norway::from_str(&text).expect("docs/openapi.yaml is YAML")
}

fn doc() -> String {
    fs::read_to_string(root().join("docs/data-map.md")).expect("docs/data-map.md")
}

#[test]
fn every_personal_field_of_the_contract_has_a_line_in_the_data_map() {
    let (missing, stale) = differences(&spec(), &doc());
    assert!(
        missing.is_empty(),
        "fields of docs/openapi.yaml that may hold personal data, with no line in \
         docs/data-map.md (\"The contract's personal fields\": where it is kept and for how \
         long, or why it is not personal): {missing:?}"
    );
    assert!(
        stale.is_empty(),
        "docs/data-map.md names fields docs/openapi.yaml does not have: {stale:?}"
    );
}

#[test]
fn a_new_personal_field_without_a_line_is_named() {
    let mut spec = spec();
    let booking = spec["components"]["schemas"]["Booking"]["properties"]
        .as_mapping_mut()
        .expect("Booking has properties");
    booking.insert(
        "guardianPhone".into(),
        serde_norway::from_str("{type: string}").unwrap(),
    );
    booking.insert(
        "bloodGroup".into(),
        serde_norway::from_str("{type: string}").unwrap(),
    );
    let (missing, _) = differences(&spec, &doc());
    assert_eq!(missing, ["Booking.bloodGroup", "Booking.guardianPhone"]);
    // A line for a field that went is named too.
    let doc = doc().replace(
        "| `ShareLink.token` |",
        "| `ShareLink.token`, `ShareLink.secret` |",
    );
    assert_eq!(differences(&self::spec(), &doc).1, ["ShareLink.secret"]);
    // And the words are camelCase words, not substrings.
    assert!(looks_personal("Booking.userPhone") && looks_personal("X.acknowledgedBy"));
    assert!(!looks_personal("BookingPage.totalPages") && !looks_personal("Booking.tripStage"));
}
