//! The table is defined once in Rust (`store::schema`); template.yaml must declare
//! exactly the same keys, indexes and projections, so local and deployed never drift.
//! (`manage create-tables` and the tests create their tables from `store::schema`.)

use std::collections::BTreeSet;

use serde_norway::Value;
use store::schema::{ATTRIBUTES, INDEXES, PRIMARY, STREAM_VIEW, TTL_ATTRIBUTE};

fn template() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../template.yaml");
    let text = std::fs::read_to_string(path).expect("template.yaml at the repository root");
    // CloudFormation's short tags (!Ref, !If, ...) parse as tagged values.
    serde_norway::from_str(&text).expect("template.yaml is YAML")
}

/// `!If [IsProd, true, false]` as (condition, then, else).
fn if_of(v: &Value) -> Option<(String, Value, Value)> {
    let Value::Tagged(t) = v else { return None };
    if t.tag != "If" {
        return None;
    }
    let args = t.value.as_sequence()?;
    Some((
        args[0].as_str()?.to_owned(),
        args[1].clone(),
        args[2].clone(),
    ))
}

fn keys(schema: &Value) -> (String, String) {
    let mut hash = String::new();
    let mut range = String::new();
    for k in schema.as_sequence().expect("KeySchema is a list") {
        let name = k["AttributeName"].as_str().unwrap().to_owned();
        match k["KeyType"].as_str().unwrap() {
            "HASH" => hash = name,
            "RANGE" => range = name,
            other => panic!("unknown KeyType {other}"),
        }
    }
    (hash, range)
}

#[test]
fn template_declares_the_same_table_as_the_code() {
    let t = template();
    let table = &t["Resources"]["Table"];
    assert_eq!(table["Type"], "AWS::DynamoDB::Table");
    let props = &table["Properties"];

    let attributes: BTreeSet<(String, String)> = props["AttributeDefinitions"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["AttributeName"].as_str().unwrap().to_owned(),
                a["AttributeType"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let expected: BTreeSet<(String, String)> = ATTRIBUTES
        .iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect();
    assert_eq!(attributes, expected, "AttributeDefinitions");

    assert_eq!(
        keys(&props["KeySchema"]),
        (PRIMARY.0.to_owned(), PRIMARY.1.to_owned())
    );
    assert_eq!(
        props["StreamSpecification"]["StreamViewType"], STREAM_VIEW,
        "the stream notify reads (decision 0014)"
    );

    type Index = (String, String, String, String, BTreeSet<String>);
    let indexes: BTreeSet<Index> = props["GlobalSecondaryIndexes"]
        .as_sequence()
        .unwrap()
        .iter()
        .map(|i| {
            let (h, r) = keys(&i["KeySchema"]);
            (
                i["IndexName"].as_str().unwrap().to_owned(),
                h,
                r,
                i["Projection"]["ProjectionType"]
                    .as_str()
                    .unwrap()
                    .to_owned(),
                i["Projection"]["NonKeyAttributes"]
                    .as_sequence()
                    .into_iter()
                    .flatten()
                    .map(|a| a.as_str().unwrap().to_owned())
                    .collect(),
            )
        })
        .collect();
    let expected: BTreeSet<Index> = INDEXES
        .iter()
        .map(|i| {
            (
                i.name.to_owned(),
                i.hash.to_owned(),
                i.range.to_owned(),
                i.projection.to_owned(),
                i.non_key.iter().map(|a| a.to_string()).collect(),
            )
        })
        .collect();
    assert_eq!(indexes, expected, "GlobalSecondaryIndexes");

    assert_eq!(props["BillingMode"], "PAY_PER_REQUEST");
    assert_eq!(
        props["TimeToLiveSpecification"]["AttributeName"],
        TTL_ATTRIBUTE
    );
    assert_eq!(props["TimeToLiveSpecification"]["Enabled"], true);
}

/// What docs/requirements.md ("Deployment") asks of the deployed table beyond its keys.
#[test]
fn the_deployed_table_is_protected() {
    let t = template();
    let props = &t["Resources"]["Table"]["Properties"];
    assert_eq!(
        props["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"],
        true
    );
    assert_eq!(props["SSESpecification"]["SSEEnabled"], true);
    // Deletion protection exactly when the stage is prod.
    let (condition, then, otherwise) =
        if_of(&props["DeletionProtectionEnabled"]).expect("DeletionProtectionEnabled: !If [...]");
    assert_eq!((then, otherwise), (Value::Bool(true), Value::Bool(false)));
    let Value::Tagged(equals) = &t["Conditions"][condition.as_str()] else {
        panic!("condition {condition} is not !Equals");
    };
    assert_eq!(equals.tag, "Equals");
    let args = equals.value.as_sequence().unwrap();
    let Value::Tagged(stage) = &args[0] else {
        panic!("{condition} compares {:?}", args[0]);
    };
    assert_eq!(
        (stage.tag.to_string(), &stage.value),
        ("!Ref".into(), &Value::from("Stage"))
    );
    assert_eq!(args[1], "prod");
}
