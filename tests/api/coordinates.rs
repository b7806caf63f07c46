//! Every route that takes coordinates (register, profile update, nearest search, add
//! hospital) answers a 4xx or works for any number JSON or a query string can carry:
//! subnormals (schemathesis found `2.2e-309` was a 500: DynamoDB stores no magnitude
//! below 1e-130), negative zero, the exact bounds, overflows and just-out-of-range.

use http::StatusCode;
use serde_json::Value;
use testkit::{TestApp, TestResponse};

/// Raw JSON number texts that are in range, and the value each must read back as.
const IN_RANGE: [(&str, f64); 10] = [
    ("5e-324", 0.0),
    ("2.225073858507203e-309", 0.0),
    ("-1e-320", 0.0),
    ("1e-131", 0.0),
    ("-0.0", 0.0),
    ("1e-90", 1e-90),
    ("89.99999999999999", 89.99999999999999),
    ("90", 90.0),
    ("-90.0", -90.0),
    (
        "0.123456789012345678901234567890123456789",
        0.123_456_789_012_345_68,
    ),
];

/// JSON numbers no coordinate may be (for latitude; longitude allows up to 180).
const OUT_OF_RANGE: [&str; 5] = ["90.0000001", "-90.5", "1e400", "-1e400", "1e308"];

fn raw_post(uri: &str, token: Option<&str>, body: String) -> http::Request<lambda_http::Body> {
    let mut builder = http::Request::builder()
        .method("POST")
        .uri(uri)
        .header("content-type", "application/json");
    if let Some(token) = token {
        builder = builder.header("authorization", format!("Bearer {token}"));
    }
    builder.body(lambda_http::Body::from(body)).unwrap()
}

fn raw_put(uri: &str, token: &str, body: String) -> http::Request<lambda_http::Body> {
    http::Request::builder()
        .method("PUT")
        .uri(uri)
        .header("content-type", "application/json")
        .header("authorization", format!("Bearer {token}"))
        .body(lambda_http::Body::from(body))
        .unwrap()
}

fn assert_4xx(res: &TestResponse, what: &str) {
    assert!(
        res.status.is_client_error(),
        "{what}: expected a 4xx, got {} {:?}",
        res.status,
        res.body
    );
}

fn coord(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[tokio::test]
async fn registering_with_any_coordinate_is_a_201_or_a_400() {
    let app = TestApp::new(api_tests::system).await;
    for (i, (text, expected)) in IN_RANGE.iter().enumerate() {
        // The same text as latitude, and (within ±180) as longitude.
        let body = format!(
            r#"{{"username":"coord_{i}","email":"coord_{i}@example.com","password":"s3cret-pass","phone":"+15550001111","latitude":{text},"longitude":{text}}}"#
        );
        let res = app.send(raw_post("/api/auth/register", None, body)).await;
        assert_eq!(res.status, StatusCode::CREATED, "{text}: {:?}", res.body);
        assert_eq!(coord(&res.body["user"]["latitude"]), *expected, "{text}");
        assert_eq!(coord(&res.body["user"]["longitude"]), *expected, "{text}");
        // And it was stored as such.
        let id = domain::types::Id::try_from(res.body["id"].as_u64().unwrap()).unwrap();
        let stored = app.state.store.users().user(id).await.unwrap().unwrap();
        let stored = serde_json::to_value(stored).unwrap();
        assert_eq!(coord(&stored["latitude"]), *expected, "{text}");
    }
    for (i, text) in OUT_OF_RANGE.iter().enumerate() {
        let body = format!(
            r#"{{"username":"bad_{i}","email":"bad_{i}@example.com","password":"s3cret-pass","phone":"+15550001111","latitude":{text},"longitude":0}}"#
        );
        let res = app.send(raw_post("/api/auth/register", None, body)).await;
        assert_4xx(&res, text);
        assert_eq!(
            res.status,
            StatusCode::BAD_REQUEST,
            "{text}: {:?}",
            res.body
        );
    }
    for (field, lat, lng) in [
        ("longitude", "0", "180.00001"),
        ("longitude", "0", "-1e309"),
        ("latitude", "\"30\"", "0"),
        ("latitude", "null", "0"),
    ] {
        let body = format!(
            r#"{{"username":"bad_x","email":"bad_x@example.com","password":"s3cret-pass","phone":"+15550001111","latitude":{lat},"longitude":{lng}}}"#
        );
        let res = app.send(raw_post("/api/auth/register", None, body)).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{lat},{lng}");
        // An overflow is a JSON syntax error (no field); anything else names it.
        if !lng.contains("e309") {
            assert_eq!(res.field(), Some(field), "{lat},{lng}: {:?}", res.body);
        }
    }
    assert_eq!(
        app.state.store.users().user_count().await.unwrap(),
        IN_RANGE.len() as i64
    );
}

#[tokio::test]
async fn updating_a_profile_with_any_coordinate_is_a_200_or_a_400() {
    let app = TestApp::new(api_tests::system).await;
    let u = app.user("mover").await;
    for (text, expected) in IN_RANGE {
        let body =
            format!(r#"{{"email":"mover@example.com","latitude":{text},"longitude":{text}}}"#);
        let res = app.send(raw_put("/api/user/profile", &u.token, body)).await;
        assert_eq!(res.status, StatusCode::OK, "{text}: {:?}", res.body);
        assert_eq!(coord(&res.body["latitude"]), expected, "{text}");
        let res = app.get("/api/user/profile", Some(&u.token)).await;
        assert_eq!(coord(&res.body["longitude"]), expected, "{text}");
    }
    for text in OUT_OF_RANGE {
        let body = format!(r#"{{"email":"mover@example.com","latitude":{text},"longitude":1}}"#);
        let res = app.send(raw_put("/api/user/profile", &u.token, body)).await;
        assert_eq!(
            res.status,
            StatusCode::BAD_REQUEST,
            "{text}: {:?}",
            res.body
        );
    }
}

#[tokio::test]
async fn adding_a_hospital_at_any_coordinate_is_a_201_or_a_400_and_the_search_finds_it() {
    let app = TestApp::new(api_tests::system).await;
    let admin = app.admin().await;
    let tok = Some(admin.token.as_str());
    for (i, (text, expected)) in IN_RANGE.iter().enumerate() {
        let body =
            format!(r#"{{"name":"H{i}","address":"A","latitude":{text},"longitude":{text}}}"#);
        let res = app
            .send(raw_post("/api/admin/hospitals/add", tok, body))
            .await;
        assert_eq!(res.status, StatusCode::CREATED, "{text}: {:?}", res.body);
        assert_eq!(coord(&res.body["latitude"]), *expected, "{text}");
        assert_eq!(coord(&res.body["longitude"]), *expected, "{text}");
    }
    for lng in ["180", "-180", "-180.0", "179.99999999999997"] {
        let body = format!(r#"{{"name":"Edge","address":"A","latitude":-90,"longitude":{lng}}}"#);
        let res = app
            .send(raw_post("/api/admin/hospitals/add", tok, body))
            .await;
        assert_eq!(res.status, StatusCode::CREATED, "{lng}: {:?}", res.body);
    }
    for text in OUT_OF_RANGE {
        let body = format!(r#"{{"name":"Bad","address":"A","latitude":{text},"longitude":0}}"#);
        let res = app
            .send(raw_post("/api/admin/hospitals/add", tok, body))
            .await;
        assert_eq!(
            res.status,
            StatusCode::BAD_REQUEST,
            "{text}: {:?}",
            res.body
        );
    }

    // The five flushed to (0, 0) and the one at 1e-90 are all at the origin.
    let res = app
        .get(
            "/api/hospitals/nearest?lat=5e-324&lng=-0.0&radiusKm=1",
            None,
        )
        .await;
    res.assert_status(StatusCode::OK);
    let found = res.body.as_array().unwrap();
    assert_eq!(found.len(), 6, "{found:?}");
    assert!(
        found.iter().all(|h| coord(&h["distance"]) == 0.0),
        "{found:?}"
    );
}

#[tokio::test]
async fn the_nearest_search_takes_any_query_number_or_answers_400() {
    let app = TestApp::new(api_tests::system).await;
    for query in [
        "lat=5e-324&lng=-5e-324",
        "lat=-0&lng=-0.0",
        "lat=1e-400&lng=0",
        "lat=90&lng=180",
        "lat=-90&lng=-180",
        "lat=0&lng=0&radiusKm=5e-324",
        "lat=0&lng=0&radiusKm=500",
        "lat=89.99999999999999&lng=-179.99999999999997&radiusKm=500&limit=50",
    ] {
        let res = app
            .get(&format!("/api/hospitals/nearest?{query}"), None)
            .await;
        assert_eq!(res.status, StatusCode::OK, "{query}: {:?}", res.body);
    }
    for (query, field) in [
        ("lat=1e400&lng=0", "lat"),
        ("lat=NaN&lng=0", "lat"),
        ("lat=inf&lng=0", "lat"),
        ("lat=0&lng=-180.0000001", "lng"),
        ("lat=0&lng=0&radiusKm=0", "radiusKm"),
        ("lat=0&lng=0&radiusKm=-0", "radiusKm"),
        ("lat=0&lng=0&radiusKm=NaN", "radiusKm"),
        ("lat=0&lng=0&radiusKm=500.0000001", "radiusKm"),
        ("lat=0&lng=", "lng"),
    ] {
        let res = app
            .get(&format!("/api/hospitals/nearest?{query}"), None)
            .await;
        res.assert_field(StatusCode::BAD_REQUEST, field);
    }
}
