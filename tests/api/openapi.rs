//! docs/openapi.yaml is the HTTP contract, and it and the routers agree both ways:
//! - every route of the functions' route tables (`routes()`, which their routers are
//!   built from) is documented and every documented operation is declared, so a new
//!   route cannot ship undocumented;
//! - every documented operation is served by the real routers (neither the 404
//!   "No such route" fallback nor a 405), and every other method on a documented
//!   path is a 405;
//! - every operation documents the statuses every route shares.

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::{Path, PathBuf},
};

use http::{Method, StatusCode};
use serde_norway::Value;
use testkit::{TestApp, TestResponse};

type Route = (String, String); // (METHOD, path)

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "patch", "head", "options", "trace",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub(crate) fn spec() -> Value {
    let path = root().join("docs/openapi.yaml");
    let text = fs::read_to_string(&path).expect("docs/openapi.yaml exists");
    serde_norway::from_str(&text).expect("docs/openapi.yaml is YAML")
}

/// Every (METHOD, path) the functions' routers serve, with the function serving it:
/// each function's route table (`routes()`, from which its router is built).
fn router_routes() -> BTreeMap<Route, String> {
    let mut routes = BTreeMap::new();
    for (name, _, table) in api_tests::FUNCTIONS {
        let table = table();
        assert!(
            !table.table().is_empty(),
            "functions/{name} declares no route"
        );
        for web::http::Route { method, path, .. } in table.table() {
            assert!(
                path.starts_with(&format!("/api/{name}/")) || *path == format!("/api/{name}"),
                "functions/{name}: {path} is not under /api/{name}, so API Gateway would not route it to this function"
            );
            let route = (method.to_string(), path.to_string());
            if let Some(other) = routes.insert(route.clone(), name.to_owned()) {
                panic!("{route:?} is served twice ({other} and {name})");
            }
        }
    }
    routes
}

/// Every documented (METHOD, path).
fn spec_routes(spec: &Value) -> BTreeSet<Route> {
    documented(spec)
        .into_iter()
        .flat_map(|(path, methods)| methods.into_iter().map(move |m| (m, path.clone())))
        .collect()
}

/// path -> its documented METHODS, from the `paths` of docs/openapi.yaml.
fn documented(spec: &Value) -> BTreeMap<String, BTreeSet<String>> {
    let paths = spec["paths"].as_mapping().expect("paths is a mapping");
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, item) in paths {
        let path = path.as_str().unwrap().to_owned();
        let methods = out.entry(path).or_default();
        for (key, _) in item.as_mapping().expect("a path item is a mapping") {
            let key = key.as_str().unwrap();
            if METHODS.contains(&key) {
                methods.insert(key.to_ascii_uppercase());
            }
        }
    }
    assert!(out.len() >= 20, "only {} paths read", out.len());
    out
}

#[test]
fn every_route_is_in_the_spec_and_every_spec_route_is_served() {
    let served = router_routes();
    let documented = spec_routes(&spec());
    let undocumented: Vec<String> = served
        .iter()
        .filter(|(r, _)| !documented.contains(*r))
        .map(|((m, p), f)| format!("  {m} {p}  (functions/{f})"))
        .collect();
    let unserved: Vec<String> = documented
        .iter()
        .filter(|r| !served.contains_key(*r))
        .map(|(m, p)| format!("  {m} {p}"))
        .collect();
    assert!(
        undocumented.is_empty() && unserved.is_empty(),
        "docs/openapi.yaml and the routers disagree.\n\
         Served but missing from docs/openapi.yaml:\n{}\n\
         In docs/openapi.yaml but served by no function:\n{}",
        undocumented.join("\n"),
        unserved.join("\n"),
    );
    assert!(served.len() >= 20, "only {} routes found", served.len());
}

/// The statuses every route shares are documented on every route: 503 (database
/// unavailable) and 500 (the request-id body) everywhere, 401 wherever a token is
/// read, 403 on admin routes, 400/413/415 wherever a JSON body is read, 429 where a
/// rate limit or the login throttle applies.
#[test]
fn every_operation_documents_the_statuses_it_can_answer() {
    let spec = spec();
    let mut problems = vec![];
    for (path, item) in spec["paths"].as_mapping().unwrap() {
        let path = path.as_str().unwrap();
        for (method, op) in item.as_mapping().unwrap() {
            let method = method.as_str().unwrap();
            if !METHODS.contains(&method) {
                continue;
            }
            let responses = op["responses"].as_mapping().expect("responses");
            let has = |code: &str| responses.contains_key(Value::from(code));
            let mut need = vec!["500", "503"];
            // Routes that read no access token: sign-out answers 204 whatever the
            // refresh token; a shared trip's link is its key.
            let public = matches!(
                path,
                "/api/auth/register"
                    | "/api/auth/login"
                    | "/api/auth/logout"
                    | "/api/booking/shared/{token}"
            );
            if !public {
                need.push("401");
            }
            // The routes behind a rate limit or the login throttle (store::limits).
            if matches!(
                (method, path),
                (
                    "post",
                    "/api/auth/register" | "/api/auth/login" | "/api/booking/book"
                ) | ("put", "/api/user/profile")
            ) {
                need.push("429");
            }
            if path.starts_with("/api/admin/") {
                need.push("403");
                assert_eq!(
                    op["security"],
                    serde_norway::from_str::<Value>("[{bearerAuth: []}]").unwrap(),
                    "{method} {path}: admin routes require the token"
                );
            }
            if !op["requestBody"].is_null() {
                need.extend(["400", "413", "415"]);
            }
            if path.contains('{')
                || op["parameters"]
                    .as_sequence()
                    .is_some_and(|p| !p.is_empty())
            {
                need.push("400");
            }
            if !responses
                .keys()
                .any(|k| k.as_str().is_some_and(|k| k.starts_with('2')))
            {
                problems.push(format!("{method} {path}: no 2xx response"));
            }
            for code in need {
                if !has(code) {
                    problems.push(format!("{method} {path}: {code} not documented"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

fn is_fallback(res: &TestResponse) -> bool {
    res.status == StatusCode::NOT_FOUND && res.message() == "No such route"
}

#[tokio::test]
async fn every_documented_operation_is_served_and_no_other_method() {
    let app = TestApp::new(api_tests::system).await;
    let mut problems = vec![];
    let mut served = 0;
    for (path, methods) in documented(&spec()) {
        let uri = path.replace("{id}", "1").replace("{token}", "unknown");
        assert!(!uri.contains('{'), "{path}: teach this test its parameter");
        for method in ["get", "put", "post", "delete", "patch"] {
            let m = Method::from_bytes(method.to_ascii_uppercase().as_bytes()).unwrap();
            // Signed out and without a body: enough to reach routing, never a write.
            let res = app.call(m.clone(), &uri, None, None).await;
            if methods.contains(&method.to_ascii_uppercase()) {
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
    let res = app.get("/api/admin/no-such-route", None).await;
    assert!(is_fallback(&res), "{:?}", res.body);
}

/// Whether the server's free-text rule takes `text` for a field of at most `MAX`
/// characters (`optional`: blank is none, not refused).
fn server_takes<const MAX: usize>(text: &str, optional: bool) -> bool {
    use domain::types::{OptionalText, Text};
    if optional {
        OptionalText::<MAX>::try_from(Some(text.to_owned())).is_ok()
    } else {
        Text::<MAX>::try_from(text.to_owned()).is_ok()
    }
}

/// The free-text patterns of docs/openapi.yaml take exactly what the server takes
/// (`domain::types::Text`): schemathesis makes its values from the patterns, and a
/// value the pattern allows but the server refuses fails the fuzzing. Probed with
/// every kind of character the rule names, alone, inside text and at either end.
#[test]
fn the_free_text_patterns_take_what_the_server_takes() {
    let spec = spec();
    let special = [
        "\u{0}",
        "\t",
        "\n",
        "\u{b}",
        "\r",
        "\u{1b}",
        "\u{7f}",
        "\u{85}",
        "\u{a0}",
        "\u{ad}",
        "\u{34f}",
        "\u{61c}",
        "\u{115f}",
        "\u{1680}",
        "\u{17b4}",
        "\u{180b}",
        "\u{2000}",
        "\u{200b}",
        "\u{200d}",
        "\u{200e}",
        "\u{200f}",
        "\u{2028}",
        "\u{2029}",
        "\u{202a}",
        "\u{202e}",
        "\u{202f}",
        "\u{205f}",
        "\u{2060}",
        "\u{2065}",
        "\u{2066}",
        "\u{2069}",
        "\u{206a}",
        "\u{2800}",
        "\u{3000}",
        "\u{3164}",
        "\u{fdcf}",
        "\u{fdd0}",
        "\u{fdef}",
        "\u{fdf0}",
        "\u{fe00}",
        "\u{fe0f}",
        "\u{feff}",
        "\u{ffa0}",
        "\u{fff0}",
        "\u{fff8}",
        "\u{fff9}",
        "\u{fffd}",
        "\u{fffe}",
        "\u{ffff}",
        "\u{1fffd}",
        "\u{1fffe}",
        "\u{1ffff}",
        "\u{e0001}",
        "\u{efffe}",
        "\u{10fffd}",
        "\u{10fffe}",
        "\u{10ffff}",
        "é",
        "😀",
    ];
    let mut probes: Vec<String> = vec![String::new(), "a".into(), " a ".into()];
    for c in special {
        probes.extend([
            c.to_owned(),
            format!("a{c}b"),
            format!("{c}a"),
            format!("a{c}"),
            format!("{c}{c}"),
        ]);
    }
    let mut differ = vec![];
    for (name, optional) in [
        ("Text32", false),
        ("Text100", false),
        ("Text200", false),
        ("Text500", false),
        ("OptionalText100", true),
        ("OptionalText200", true),
    ] {
        let pattern = spec["components"]["schemas"][name]["pattern"]
            .as_str()
            .unwrap_or_else(|| panic!("{name} has a pattern"));
        let pattern = regex_lite::Regex::new(pattern).expect("the pattern compiles");
        let max: usize = name
            .trim_start_matches(char::is_alphabetic)
            .parse()
            .unwrap();
        for probe in &probes {
            let server = match max {
                32 => server_takes::<32>(probe, optional),
                100 => server_takes::<100>(probe, optional),
                200 => server_takes::<200>(probe, optional),
                _ => server_takes::<500>(probe, optional),
            };
            if pattern.is_match(probe) != server {
                differ.push(format!(
                    "{name} {probe:?}: pattern {}, server {server}",
                    pattern.is_match(probe)
                ));
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// The most characters a schema's property takes, through a `$ref`, `allOf` or
/// `anyOf`: its `maxLength` (answers), or for request text, whose spaces around are
/// trimmed and not counted, its pattern's visible run: a first and a last character
/// with `{0,n}` between them.
fn max_length(spec: &Value, schema: &str, property: &str) -> Option<u64> {
    fn of(spec: &Value, v: &Value) -> Option<u64> {
        if let Some(n) = v["maxLength"].as_u64() {
            return Some(n);
        }
        if let Some(pattern) = v["pattern"].as_str() {
            let runs: Vec<u64> = pattern
                .split("]{0,")
                .skip(1)
                .filter_map(|rest| rest.split_once('}')?.0.parse().ok())
                .collect();
            if let [n] = runs[..] {
                return Some(n + 2);
            }
        }
        if let Some(r) = v["$ref"].as_str() {
            let name = r.trim_start_matches("#/components/schemas/");
            return of(spec, &spec["components"]["schemas"][name]);
        }
        ["allOf", "anyOf"]
            .iter()
            .filter_map(|k| v[*k].as_sequence())
            .flatten()
            .find_map(|v| of(spec, v))
    }
    of(
        spec,
        &spec["components"]["schemas"][schema]["properties"][property],
    )
}

/// The web app's own limit `name` (`export const MAX_X = n` in
/// frontend/src/features/booking/validation.ts), where its inputs stop typing.
fn web_limit(name: &str) -> Option<u64> {
    let path = root().join("frontend/src/features/booking/validation.ts");
    let text = fs::read_to_string(&path).expect("validation.ts exists");
    let prefix = format!("export const {name} = ");
    text.lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .and_then(|v| v.trim().parse().ok())
}

/// A booking's free-text limits are written in three places (the Rust types, the
/// contract, and the web app's form): they must say the same, in requests and in
/// answers, or a form would accept what the server refuses (or cut what it takes).
#[test]
fn the_booking_field_limits_agree_in_the_server_the_contract_and_the_web_app() {
    use domain::booking::{Condition, Landmark, PatientName};
    let spec = spec();
    let mut differ = vec![];
    for (server, web, fields) in [
        (
            PatientName::MAX,
            "MAX_NAME",
            &[("PatientRequest", "name"), ("PatientDetails", "name")][..],
        ),
        (
            Condition::MAX,
            "MAX_CONDITION",
            &[
                ("PatientRequest", "condition"),
                ("PatientDetails", "condition"),
            ],
        ),
        (
            Landmark::MAX,
            "MAX_LANDMARK",
            &[("PickupRequest", "landmark"), ("Pickup", "landmark")],
        ),
    ] {
        let server = server as u64;
        if web_limit(web) != Some(server) {
            differ.push(format!(
                "{web}: web app {:?}, server {server}",
                web_limit(web)
            ));
        }
        for (schema, property) in fields {
            let contract = max_length(&spec, schema, property);
            if contract != Some(server) {
                differ.push(format!(
                    "{schema}.{property}: contract {contract:?}, server {server}"
                ));
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// The push subscription's patterns in docs/openapi.yaml take only what the server
/// takes (schemathesis makes its values from them), and take what browsers send.
/// A key of the right form may still lie off the P-256 curve: the one refusal no
/// pattern can say (the fuzzing hooks list it, FUZZ_PUSH_POINTS).
#[test]
fn the_push_subscription_patterns_take_what_the_server_takes() {
    use domain::push::{Endpoints, RawSubscription, parse_endpoint};
    use rand::{Rng, SeedableRng};
    let spec = spec();
    let schemas = &spec["components"]["schemas"];
    let pattern = |v: &Value| {
        regex_lite::Regex::new(v["pattern"].as_str().expect("a pattern")).expect("it compiles")
    };
    let endpoint = pattern(&schemas["PushEndpoint"]);
    // The server checks an https endpoint with the contract's very pattern.
    assert_eq!(
        schemas["PushEndpoint"]["pattern"].as_str(),
        Some(domain::push::ENDPOINT_PATTERN)
    );
    let keys = &schemas["PushSubscription"]["properties"]["keys"]["properties"];
    let (p256dh, auth) = (pattern(&keys["p256dh"]), pattern(&keys["auth"]));

    // What browsers send: Chrome (FCM), Firefox (Mozilla), Safari (Apple), Edge (WNS).
    let real = [
        "https://fcm.googleapis.com/fcm/send/cXyzAbC:APA91bHkq-x_Y1z",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABl_x-Y",
        "https://web.push.apple.com/QGuQyavXutnMgnAo6HTnPTzt",
        "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB",
    ];
    for e in &real {
        assert!(endpoint.is_match(e), "the pattern refuses {e}");
    }
    let mut probes: Vec<String> = real.iter().map(|e| e.to_string()).collect();
    probes.extend(
        [
            "https://a",
            "https://a.b:1/",
            "https://a-b.c:9999/x:y@z%41!$&'()*+,;=~._-/",
            "https://fcm.googleapis.com:443/fcm/send/x:y@z%41!$&'()*+,;=~._-/?a=b&c=/d?",
            "https://fcm.googleapis.com:8443/fcm/send/x",
            "https://fcm.googleapis.com.evil.example/x",
            "https://evilfcm.googleapis.com/x",
            "https://push.apple.com/x",
            "https://a.b.push.apple.com/x",
            "https://notify.windows.com.example/x",
            "https://10.0.0.5:8443/x",
            "https://10.0.0.5/x",
            "https://[::1]/x",
            "https://127.0.0.1/x",
            "http://127.0.0.1:8080/x",
            "https://user@fcm.googleapis.com/x",
            "http://push.example/x",
            "https://",
            "https://a b/",
            "https://user@host/x",
            "ftp://a/",
            "",
        ]
        .map(String::from),
    );
    let mut differ = vec![];
    probes.extend(
        [
            "https://a.z*",
            "https://a.b:99999/",
            "https://a/?q=1",
            "https://a/#f",
            "https://fcm.googleapis.com/x#f",
        ]
        .map(String::from),
    );
    for probe in &probes {
        let server = parse_endpoint(probe, &Endpoints::deployed(&[])).is_ok();
        if endpoint.is_match(probe) != server {
            differ.push(format!(
                "endpoint {probe:?}: pattern {}, server {server}",
                endpoint.is_match(probe)
            ));
        }
    }

    // The generator point G of P-256 (on the curve), and random keys of the form.
    let g =
        "BGsX0fLhLEJH-Lzm5WOkQPJ3A32BLeszoPShOUXYmMKWT-NC4v4af5uO5-tKfA-eFivOM1drMV7Oy7ZAaDe_UfU";
    assert!(p256dh.is_match(g) && p256dh.is_match(&format!("{g}=")));
    assert!(auth.is_match("AAECAwQFBgcICQoLDA0ODw==") && auth.is_match("AAECAwQFBgcICQoLDA0ODw"));
    const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut rng = rand::rngs::StdRng::seed_from_u64(25);
    let mut random = |n: usize, last: &[u8]| -> String {
        let mut s: String = (0..n)
            .map(|_| B64[rng.random_range(0..64)] as char)
            .collect();
        s.push(last[rng.random_range(0..last.len())] as char);
        s
    };
    let subscription = |p: &str, a: &str| -> Result<(), String> {
        let raw: RawSubscription = serde_json::from_value(serde_json::json!({
            "endpoint": real[0], "keys": {"p256dh": p, "auth": a}
        }))
        .expect("the shape");
        raw.parse(&Endpoints::deployed(&[]))
            .map(|_| ())
            .map_err(|e| format!("{e:?}"))
    };
    if let Err(e) = subscription(g, "AAECAwQFBgcICQoLDA0ODw==") {
        differ.push(format!("the generator point refused: {e}"));
    }
    for _ in 0..200 {
        let p = format!("B{}", random(84, b"AEIMQUYcgkosw048"));
        // The second character holds the first byte's last two bits (0x04: 00).
        let p = format!("{}{}{}", &p[..1], random(0, b"ABCDEFGHIJKLMNOP"), &p[1..]);
        let a = random(21, b"AQgw");
        assert!(p256dh.is_match(&p) && auth.is_match(&a), "{p} {a}");
        match subscription(g, &a) {
            Ok(()) => {}
            Err(e) => differ.push(format!("auth {a:?}: {e}")),
        }
        match subscription(&p, "AAECAwQFBgcICQoLDA0ODw") {
            Err(e) if !e.contains("not a point on the P-256 curve") => {
                differ.push(format!("p256dh {p:?}: {e}"))
            }
            _ => {}
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// The error body's `code` is what the web app words in the reader's language: the
/// contract's list and the server's must be the same list, or a code would reach a
/// client that was never told of it.
#[test]
fn the_error_codes_are_the_contracts() {
    let spec = spec();
    let contract: Vec<&str> = spec["components"]["schemas"]["ErrorCode"]["enum"]
        .as_sequence()
        .expect("ErrorCode is an enum")
        .iter()
        .filter_map(|v| v.as_str())
        .collect();
    assert_eq!(contract, web::ApiError::CODES);
}
