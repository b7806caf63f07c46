//! The route-group → function map, written in a few places, agrees with
//! `api_tests::FUNCTIONS`: the crates under functions/, `cargo lambda watch`'s router
//! (Cargo.toml) and the functions of template.yaml with their HttpApi events. (The
//! routes of a function are under its group: `openapi.rs` checks that.)

use std::{
    collections::{BTreeMap, BTreeSet},
    path::Path,
};

use testkit::iam;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn groups() -> BTreeSet<String> {
    api_tests::FUNCTIONS
        .iter()
        .map(|(g, ..)| g.to_string())
        .collect()
}

#[test]
fn every_function_crate_is_in_the_table() {
    let crates: BTreeSet<String> = std::fs::read_dir(root().join("functions"))
        .expect("functions/")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.join("Cargo.toml").exists())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    let mut expected = groups();
    expected.extend(api_tests::BACKGROUND.map(String::from));
    assert_eq!(crates, expected);
}

#[test]
fn cargo_lambda_watch_routes_each_group_to_its_function() {
    let text = std::fs::read_to_string(root().join("Cargo.toml")).expect("Cargo.toml");
    let manifest: toml::Table = text.parse().expect("Cargo.toml is TOML");
    let router = &manifest["workspace"]["metadata"]["lambda"]["watch"]["router"];
    let routes: BTreeMap<String, String> = router
        .as_table()
        .expect("[workspace.metadata.lambda.watch.router]")
        .iter()
        .map(|(path, f)| (path.clone(), f.as_str().unwrap_or_default().to_owned()))
        .collect();
    let mut expected: BTreeMap<String, String> = groups()
        .into_iter()
        .flat_map(|g| {
            [
                (format!("/api/{g}"), g.clone()),
                (format!("/api/{g}/{{*proxy}}"), g),
            ]
        })
        .collect();
    // Every other /api path to the function of API Gateway's `$default` route, so
    // the local stack's `/api/nope` is the API's own JSON 404 with `no-store` and a
    // request id, as deployed (before: cargo lambda watch's empty 404).
    expected.insert("/api/{*proxy}".into(), api_tests::UNMATCHED.into());
    assert_eq!(routes, expected);
}

#[test]
fn api_gateway_routes_each_group_to_its_function() {
    let template = iam::template();
    let functions: BTreeSet<String> = template.functions.keys().cloned().collect();
    let mut expected = groups();
    expected.extend(api_tests::BACKGROUND.map(String::from));
    assert_eq!(functions, expected, "the functions template.yaml builds");
    for (group, f) in &template.functions {
        if api_tests::BACKGROUND.contains(&group.as_str()) {
            // No API Gateway path reaches a background function.
            assert!(
                f.paths.is_empty() && !f.default_route,
                "{}'s events",
                f.logical_id
            );
            continue;
        }
        let expected: BTreeSet<String> =
            [format!("/api/{group}"), format!("/api/{group}/{{proxy+}}")].into();
        assert_eq!(f.paths, expected, "{}'s events", f.logical_id);
    }
    // One function answers the paths no group routes (API Gateway's `$default`), and
    // the tests' system routes them to the same one.
    let default: Vec<&String> = template
        .functions
        .iter()
        .filter(|(_, f)| f.default_route)
        .map(|(g, _)| g)
        .collect();
    assert_eq!(default, [api_tests::UNMATCHED], "the $default route");
}

#[test]
fn a_path_belongs_to_the_group_of_its_first_segment() {
    assert_eq!(api_tests::group_of("/api/booking/book"), Some("booking"));
    assert_eq!(api_tests::group_of("/api/admin"), Some("admin"));
    assert_eq!(api_tests::group_of("/health"), None);
}

/// Each function has its Lambda alarms and a place on the dashboard, each route
/// group its latency alarm, and the 5xx metric knows every group.
#[test]
fn every_function_has_its_alarms_and_its_metrics() {
    let text = std::fs::read_to_string(root().join("template.yaml")).expect("template.yaml");
    let template = iam::template();
    for (group, f) in &template.functions {
        let stem = f.logical_id.trim_end_matches("Function");
        let mut alarms = vec!["Errors", "Throttles"];
        if !api_tests::BACKGROUND.contains(&group.as_str()) {
            alarms.push("Latency");
        }
        for alarm in alarms {
            let alarm = format!("{stem}{alarm}Alarm:");
            let at = text
                .find(&alarm)
                .unwrap_or_else(|| panic!("{alarm} missing"));
            let of = format!("Value: !Ref {} }}", f.logical_id);
            let next = text[at..].find("OKActions").expect("alarm actions") + at;
            assert!(
                text[at..next].contains(&of),
                "{alarm} watches {}",
                f.logical_id
            );
        }
        let on_dashboard = format!("\"${{{}}}\"", f.logical_id);
        assert!(
            text.contains(&on_dashboard),
            "{} on the dashboard",
            f.logical_id
        );
    }
    let named: BTreeSet<String> = telemetry::ROUTE_GROUPS
        .iter()
        .map(|g| g.to_string())
        .collect();
    assert_eq!(named, groups(), "telemetry::ROUTE_GROUPS");
}
