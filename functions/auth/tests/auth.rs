//! /api/auth against DynamoDB Local: every rule of registration and sign-in, and
//! that bad input is a 4xx naming the problem that writes nothing.

use futures::future::join_all;
use http::{Method, StatusCode};
use serde_json::{Value, json};
use testkit::{TEST_PASSWORD, TestApp, TestResponse};

async fn app() -> TestApp {
    TestApp::new(auth::router).await
}

fn registration(username: &str) -> Value {
    json!({
        "username": username,
        "email": format!("{username}@example.com"),
        "password": "s3cret-pass",
        "phone": "+91 98765 43210",
        "latitude": 30.67,
        "longitude": 74.33
    })
}

async fn register(app: &TestApp, body: Value) -> TestResponse {
    app.post("/api/auth/register", None, body).await
}

async fn login(app: &TestApp, username: &str, password: &str) -> TestResponse {
    app.login(json!({ "username": username, "password": password }))
        .await
}

#[tokio::test]
async fn registering_creates_a_user_and_signs_them_in() {
    let app = app().await;
    let mut body = registration("Asha_1");
    body["role"] = json!("ADMIN"); // ignored: registration always creates a USER
    let res = register(&app, body).await;
    res.assert_status(StatusCode::CREATED);
    assert_eq!(res.body["role"], "USER");
    assert_eq!(res.body["user"]["role"], "USER");
    assert_eq!(res.body["user"]["username"], "Asha_1");
    assert_eq!(res.body["user"]["phone"], "+919876543210");
    assert_eq!(res.body["id"], res.body["user"]["id"]);
    assert!(res.body["user"].get("passwordHash").is_none());
    assert!(res.body["user"].get("password").is_none());
    let caller = app
        .state
        .auth
        .verify(res.body["token"].as_str().unwrap())
        .unwrap();
    assert_eq!(caller.id.get(), res.body["id"].as_u64().unwrap());
    assert_eq!(app.state.store.users().user_count().await.unwrap(), 1);

    let res = login(&app, "asha_1", "s3cret-pass").await;
    res.assert_status(StatusCode::OK);
    assert_eq!(res.body["user"]["username"], "Asha_1");
    assert_eq!(res.body["role"], "USER");
}

#[tokio::test]
async fn usernames_and_emails_are_unique_ignoring_case() {
    let app = app().await;
    assert_eq!(
        register(&app, registration("ravi")).await.status,
        StatusCode::CREATED
    );

    let mut same_name = registration("RAVI");
    same_name["email"] = json!("other@example.com");
    let res = register(&app, same_name).await;
    assert_eq!(res.status, StatusCode::CONFLICT);
    assert!(res.message().contains("Username"), "{}", res.message());

    let mut same_email = registration("ravi2");
    same_email["email"] = json!("Ravi@Example.com");
    let res = register(&app, same_email).await;
    assert_eq!(res.status, StatusCode::CONFLICT);
    assert!(res.message().contains("Email"), "{}", res.message());
    assert_eq!(app.state.store.users().user_count().await.unwrap(), 1);
}

#[tokio::test]
async fn concurrent_registrations_of_one_name_create_one_user() {
    let app = app().await;
    let attempts = (0..10).map(|i| {
        let mut body = registration("racer");
        body["email"] = json!(format!("racer{i}@example.com"));
        register(&app, body)
    });
    let results = join_all(attempts).await;
    let created = results
        .iter()
        .filter(|r| r.status == StatusCode::CREATED)
        .count();
    let conflicts = results
        .iter()
        .filter(|r| r.status == StatusCode::CONFLICT)
        .count();
    assert_eq!(
        (created, conflicts),
        (1, 9),
        "{:?}",
        results.iter().map(|r| r.status).collect::<Vec<_>>()
    );
    assert_eq!(app.state.store.users().user_count().await.unwrap(), 1);
}

#[tokio::test]
async fn bad_registrations_name_the_field_and_write_nothing() {
    let app = app().await;
    let cases: Vec<(&str, Value, &str)> = vec![
        ("username", json!("ab"), "short username"),
        ("username", json!("x".repeat(33)), "long username"),
        ("username", json!("námé"), "unicode username"),
        ("username", json!("has space"), "space in username"),
        ("username", json!(42), "number as username"),
        ("email", json!("not-an-email"), "bad email"),
        ("email", json!("a@b"), "email without a dotted domain"),
        ("password", json!("short"), "short password"),
        ("password", json!("x".repeat(129)), "long password"),
        ("phone", json!("12345"), "short phone"),
        ("phone", json!("1234567890123456"), "long phone"),
        ("phone", json!("12ab567"), "letters in phone"),
        ("latitude", json!(91), "latitude out of range"),
        ("latitude", json!("30.6"), "latitude as a string"),
        ("longitude", json!(-180.5), "longitude out of range"),
        ("longitude", json!(null), "null longitude"),
    ];
    for (field, value, what) in cases {
        let mut body = registration("valid_name");
        body[field] = value;
        let res = register(&app, body).await;
        assert_eq!(
            res.status,
            StatusCode::BAD_REQUEST,
            "{what}: {:?}",
            res.body
        );
        assert_eq!(res.field(), Some(field), "{what}: {:?}", res.body);
        assert!(res.message().contains(field), "{what}: {}", res.message());
    }
    for field in [
        "username",
        "email",
        "password",
        "phone",
        "latitude",
        "longitude",
    ] {
        let mut body = registration("valid_name");
        body.as_object_mut().unwrap().remove(field);
        let res = register(&app, body).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "missing {field}");
        assert_eq!(res.field(), Some(field));
        assert_eq!(res.message(), format!("'{field}' is required"));
    }
    let mut body = registration("valid_name");
    body["isAdmin"] = json!(true);
    let res = register(&app, body).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST);
    assert_eq!(res.field(), Some("isAdmin"));

    assert_eq!(
        app.state.store.users().user_count().await.unwrap(),
        0,
        "nothing was written"
    );
}

fn raw(
    body: impl Into<lambda_http::Body>,
    content_type: Option<&str>,
) -> http::Request<lambda_http::Body> {
    let mut b = http::Request::builder()
        .method("POST")
        .uri("/api/auth/register");
    if let Some(ct) = content_type {
        b = b.header("content-type", ct);
    }
    b.body(body.into()).unwrap()
}

#[tokio::test]
async fn malformed_oversized_and_non_json_bodies_are_refused() {
    let app = app().await;
    let res = app
        .send(raw(r#"{"username": "abc", "#, Some("application/json")))
        .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST);
    assert!(
        res.message().starts_with("Malformed JSON"),
        "{}",
        res.message()
    );

    let res = app.send(raw("", Some("application/json"))).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST);

    let res = app.send(raw("[1,2,3]", Some("application/json"))).await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST);

    let big = format!(r#"{{"username":"{}"}}"#, "a".repeat(1024 * 1024));
    let res = app.send(raw(big, Some("application/json"))).await;
    res.assert_status(StatusCode::PAYLOAD_TOO_LARGE);
    assert!(!res.message().is_empty());

    let res = app
        .send(raw(registration("textual").to_string(), Some("text/plain")))
        .await;
    assert_eq!(res.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let res = app
        .send(raw(registration("textual").to_string(), None))
        .await;
    assert_eq!(res.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);

    assert_eq!(app.state.store.users().user_count().await.unwrap(), 0);
}

#[tokio::test]
async fn wrong_password_and_unknown_user_look_the_same() {
    let app = app().await;
    let user = app.user("meera").await;
    let wrong = login(&app, &user.username, "not-the-password").await;
    let unknown = login(&app, "nobody_here", "not-the-password").await;
    let invalid_name = login(&app, "x", "not-the-password").await;
    for res in [&wrong, &unknown, &invalid_name] {
        assert_eq!(res.status, StatusCode::UNAUTHORIZED);
        assert_eq!(
            res.body,
            json!({ "message": "Invalid username or password", "code": "badCredentials" })
        );
    }
    let ok = login(&app, "MEERA", TEST_PASSWORD).await;
    assert_eq!(ok.status, StatusCode::OK);
}

#[tokio::test]
async fn login_needs_both_fields() {
    let app = app().await;
    let res = app.login(json!({ "username": "", "password": "x" })).await;
    res.assert_field(StatusCode::BAD_REQUEST, "username");
    let res = app.login(json!({ "username": "abc" })).await;
    res.assert_field(StatusCode::BAD_REQUEST, "password");
}

async fn login_from(app: &TestApp, ip: &str, username: &str, password: &str) -> TestResponse {
    app.call_from(
        ip,
        Method::POST,
        "/api/auth/login",
        None,
        Some(json!({ "username": username, "password": password })),
    )
    .await
}

#[tokio::test]
async fn failures_slow_down_the_address_they_come_from_not_the_owner() {
    let app = app().await;
    let user = app.user("target").await;
    for attempt in 1..=5 {
        let res = login_from(&app, "203.0.113.66", "target", "wrong-password").await;
        assert_eq!(res.status, StatusCode::UNAUTHORIZED, "attempt {attempt}");
    }
    // From that address even the right password must wait now, and is told how long.
    let res = login_from(&app, "203.0.113.66", &user.username, TEST_PASSWORD).await;
    res.assert_status(StatusCode::TOO_MANY_REQUESTS);
    let retry = res.retry_after();
    assert!(
        (1..=15).contains(&retry),
        "a short wait, not a lock: {retry}"
    );
    // The owner, elsewhere, signs in; other users are not affected.
    let res = login_from(&app, "198.51.100.7", &user.username, TEST_PASSWORD).await;
    res.assert_status(StatusCode::OK);
    let other = app.user("bystander").await;
    assert_eq!(
        login_from(&app, "203.0.113.66", &other.username, TEST_PASSWORD)
            .await
            .status,
        StatusCode::OK
    );
}

/// Found: the throttle read the count, hashed, then recorded the failure, so 40
/// parallel logins over 16 instances checked 18 and 32 passwords (limit 5). Now each
/// check is reserved by a conditional write before anything is hashed.
#[tokio::test]
async fn forty_logins_at_once_over_sixteen_instances_check_at_most_five_passwords() {
    let app = app().await;
    let user = app.user("besieged").await;
    let nodes = app.instances(16, auth::router).await;
    let results = join_all((0..40).map(|i| {
        // The right password is among them.
        let password = if i == 20 {
            TEST_PASSWORD
        } else {
            "a-wrong-guess"
        };
        login_from(&nodes[i % 16], "203.0.113.99", &user.username, password)
    }))
    .await;
    let checked = results
        .iter()
        .filter(|r| r.status != StatusCode::TOO_MANY_REQUESTS)
        .count();
    let statuses: Vec<u16> = results.iter().map(|r| r.status.as_u16()).collect();
    assert!(
        (1..=5).contains(&checked),
        "{checked} passwords checked: {statuses:?}"
    );
    assert!(
        results
            .iter()
            .all(|r| matches!(r.status.as_u16(), 200 | 401 | 429)),
        "{statuses:?}"
    );
}

/// Found: 5 wrong passwords locked anyone (an admin too) out for 15 minutes.
#[tokio::test]
async fn a_hammered_username_still_signs_its_owner_in_from_elsewhere() {
    let app = app().await;
    app.admin().await;
    let nodes = app.instances(16, auth::router).await;
    let attack = |i: usize| login_from(&nodes[i % 16], "192.0.2.13", "admin", "a-guess");
    let owner = |i: usize| login_from(&nodes[i % 16], "198.51.100.40", "admin", TEST_PASSWORD);
    // The attacker, on one address, hammers the admin's name over 16 instances while
    // the admin signs in from their own address.
    let (burst, during) = tokio::join!(join_all((0..40).map(attack)), owner(3));
    during.assert_status(StatusCode::OK);
    assert_eq!(during.body["role"], "ADMIN");
    let checked = burst
        .iter()
        .filter(|r| r.status == StatusCode::UNAUTHORIZED)
        .count();
    assert!((1..=5).contains(&checked), "{checked} guesses checked");
    // Afterwards the attacker's address waits once its 5 free checks are used (racers
    // that lost every round gave up without using theirs); the admin's does not.
    let mut total = checked;
    let next_guess = loop {
        let res = attack(0).await;
        if res.status != StatusCode::UNAUTHORIZED {
            break res;
        }
        total += 1;
    };
    assert_eq!(next_guess.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(total <= 5, "{total} guesses checked");
    let after = owner(5).await;
    after.assert_status(StatusCode::OK);
}

#[tokio::test]
async fn a_successful_login_clears_earlier_failures() {
    let app = app().await;
    let user = app.user("forgetful").await;
    for _ in 0..4 {
        login(&app, "forgetful", "wrong-password").await;
    }
    assert_eq!(
        login(&app, &user.username, TEST_PASSWORD).await.status,
        StatusCode::OK
    );
    for _ in 0..4 {
        login(&app, "forgetful", "wrong-password").await;
    }
    assert_eq!(
        login(&app, &user.username, TEST_PASSWORD).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn unknown_routes_and_methods_answer_json() {
    let app = app().await;
    let res = app.get("/api/auth/nope", None).await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    assert!(!res.message().is_empty());
    let res = app.get("/api/auth/login", None).await;
    assert_eq!(res.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(res.message(), "Method not allowed");
}

/// The same router behind the real Lambda adapter: an API Gateway HTTP API (v2)
/// event is turned into a request by lambda_http exactly as in AWS.
#[tokio::test]
async fn an_api_gateway_event_reaches_the_router() {
    let app = app().await;
    let body = registration("via_gateway").to_string().replace('"', "\\\"");
    let event = format!(
        r#"{{"version":"2.0","routeKey":"ANY /api/auth/{{proxy+}}","rawPath":"/api/auth/register",
        "rawQueryString":"","headers":{{"content-type":"application/json"}},
        "requestContext":{{"accountId":"1","apiId":"a","domainName":"x","domainPrefix":"x",
        "http":{{"method":"POST","path":"/api/auth/register","protocol":"HTTP/1.1","sourceIp":"127.0.0.1","userAgent":"t"}},
        "requestId":"req-1","routeKey":"ANY /api/auth/{{proxy+}}","stage":"$default","time":"23/Nov/2026:00:00:00 +0000","timeEpoch":0}},
        "body":"{body}","isBase64Encoded":false}}"#
    );
    let request = lambda_http::request::from_str(&event).expect("a valid API Gateway v2 event");
    let res = app.send(request).await;
    res.assert_status(StatusCode::CREATED);
    assert_eq!(res.body["user"]["username"], "via_gateway");
}

/// The retry-after of a 429, or a panic naming what came instead.
fn retry_after<T: std::fmt::Debug>(r: Result<T, store::StoreError>) -> u64 {
    match r {
        Err(store::StoreError::TooManyRequests {
            retry_after_secs, ..
        }) => retry_after_secs,
        other => panic!("expected a 429, got {other:?}"),
    }
}

/// The growing delay, in simulated time (epoch seconds given to the store).
#[tokio::test]
async fn the_wait_doubles_with_each_attempt_and_a_quiet_hour_forgets_the_streak() {
    let app = app().await;
    let store = &app.state.store;
    let name = domain::types::Username::try_from("slowpoke".to_owned()).unwrap();
    let at = |t: i64| {
        store
            .limits()
            .reserve_login_attempt_at(&name, Some("203.0.113.5"), t)
    };
    let t0 = 1_900_000_000;
    for _ in 0..5 {
        at(t0).await.unwrap();
    }
    let mut t = t0;
    for wait in [15, 30, 60, 120, 240] {
        assert_eq!(retry_after(at(t).await), wait);
        assert_eq!(retry_after(at(t + wait as i64 - 1).await), 1);
        t += wait as i64;
        at(t).await.unwrap();
    }
    // Another address has its own streak.
    store
        .limits()
        .reserve_login_attempt_at(&name, Some("198.51.100.1"), t)
        .await
        .unwrap();
    // An hour without attempts: five at once again.
    let later = t + 3601;
    for _ in 0..5 {
        at(later).await.unwrap();
    }
    assert_eq!(retry_after(at(later).await), 15);
}

/// Across addresses, one username gets at most 100 password checks an hour.
#[tokio::test]
async fn one_username_has_a_ceiling_across_addresses() {
    let app = app().await;
    let store = &app.state.store;
    let name = domain::types::Username::try_from("popular".to_owned()).unwrap();
    let t = 1_900_000_000 - 1_900_000_000 % 3600 + 600;
    for i in 0..100 {
        store
            .limits()
            .reserve_login_attempt_at(&name, Some(&format!("10.0.{}.{}", i / 200, i % 200)), t)
            .await
            .unwrap();
    }
    let wait = retry_after(
        store
            .limits()
            .reserve_login_attempt_at(&name, Some("10.9.9.9"), t)
            .await,
    );
    assert_eq!(wait, 3000, "until the hour is over");
    let other = domain::types::Username::try_from("unpopular".to_owned()).unwrap();
    store
        .limits()
        .reserve_login_attempt_at(&other, Some("10.9.9.9"), t)
        .await
        .unwrap();
}
