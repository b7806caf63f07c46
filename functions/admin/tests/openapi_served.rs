//! docs/openapi.yaml against the real routers: every documented (method, path) is
//! served by its function's router (neither its 404 "No such route" fallback nor a
//! 405), and every other method on a documented path is a 405. Together with
//! `shared/tests/openapi_routes.rs`, which reads the `.route(...)` declarations, a
//! route can neither ship undocumented nor be documented and missing.

use std::collections::{BTreeMap, BTreeSet};

use http::{Method, StatusCode};
use shared::testing::{TestApp, TestResponse};

const METHODS: [&str; 5] = ["get", "put", "post", "delete", "patch"];

mod common;
use common::group_router;

/// path -> documented methods, read from the `paths:` block of docs/openapi.yaml
/// (two-space path keys, four-space method keys, as the file is written).
fn documented() -> BTreeMap<String, BTreeSet<String>> {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/openapi.yaml");
    let text = std::fs::read_to_string(file).expect("docs/openapi.yaml");
    let mut paths: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut in_paths = false;
    let mut current: Option<String> = None;
    for line in text.lines() {
        if !line.starts_with(' ') && !line.trim().is_empty() {
            in_paths = line.trim_end() == "paths:";
            current = None;
            continue;
        }
        if !in_paths {
            continue;
        }
        if let Some(path) = line.strip_prefix("  /").and_then(|l| l.strip_suffix(':')) {
            let path = format!("/{path}");
            paths.entry(path.clone()).or_default();
            current = Some(path);
        } else if let (Some(path), Some(key)) = (&current, line.strip_prefix("    ")) {
            if let Some(method) = key.strip_suffix(':').filter(|m| METHODS.contains(m)) {
                paths.get_mut(path).unwrap().insert(method.to_owned());
            }
        }
    }
    assert!(paths.len() >= 20, "only {} paths read", paths.len());
    paths
}

fn is_fallback(res: &TestResponse) -> bool {
    res.status == StatusCode::NOT_FOUND && res.message() == "No such route"
}

#[tokio::test]
async fn every_documented_operation_is_served_and_no_other_method() {
    let base = TestApp::new(admin::router).await;
    let mut problems = vec![];
    let mut served = 0;
    for (path, methods) in documented() {
        let app = TestApp::with_state(base.state.clone(), group_router(&path));
        let uri = path.replace("{id}", "1");
        assert!(!uri.contains('{'), "{path}: teach this test its parameter");
        for method in METHODS {
            let m = Method::from_bytes(method.to_ascii_uppercase().as_bytes()).unwrap();
            // Signed out and without a body: enough to reach routing, never a write.
            let res = app.call(m.clone(), &uri, None, None).await;
            if methods.contains(method) {
                served += 1;
                if is_fallback(&res) || res.status == StatusCode::METHOD_NOT_ALLOWED {
                    problems.push(format!(
                        "{m} {path} is documented but not served: {} {:?}",
                        res.status, res.body
                    ));
                }
            } else if res.status != StatusCode::METHOD_NOT_ALLOWED {
                problems.push(format!(
                    "{m} {path} is not documented but answers {} {:?}",
                    res.status, res.body
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(served >= 20, "only {served} operations checked");

    // The check can tell: an unknown path is the fallback.
    let res = base.get("/api/admin/no-such-route", None).await;
    assert!(is_fallback(&res), "{:?}", res.body);
}
