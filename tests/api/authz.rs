//! Who may call what: every route × {signed out, user B, user A (the owner), admin},
//! on A's resources, in one table. Rows run top to bottom; within a row the callers
//! go in that order, so the owner's and the admin's writes come last.

use http::Method;
use serde_json::{Value, json};
use shared::testing::{TEST_PASSWORD, TestApp};

const ANON: usize = 0;

#[tokio::test]
async fn the_authorization_matrix() {
    let base = TestApp::new(api_tests::system).await;
    let admin = base.admin().await;
    let a = base.user("owner_a").await;
    let b = base.user("other_b").await;
    let tok = Some(admin.token.as_str());
    let hospital = serde_json::to_value(base.seed_hospital("H", 30.0, 74.0).await).unwrap();
    let empty_hospital = serde_json::to_value(base.seed_hospital("E", 30.1, 74.1).await).unwrap();
    let mut ambs = vec![];
    for i in 0..4 {
        let res = base.post("/api/admin/ambulances/add", tok, json!({"number": format!("Z-{i}"), "status":"AVAILABLE", "hospital": {"id": hospital["id"]}})).await;
        ambs.push(res.body["id"].clone());
    }
    let book = |amb: &Value| json!({"hospitalId": hospital["id"], "ambulanceId": amb, "patient": {"name":"P","age":40,"gender":"Male","condition":"c"}});
    let a_booking = base
        .post("/api/booking/book", Some(&a.token), book(&ambs[0]))
        .await
        .body["id"]
        .clone();
    let a_pending = base
        .post("/api/booking/book", Some(&a.token), book(&ambs[1]))
        .await
        .body["id"]
        .clone();
    let (h, uid) = (hospital["id"].clone(), a.id);

    #[rustfmt::skip]
    let rows: Vec<(Method, String, Option<Value>, [u16; 4])> = vec![
        // (method, path, body, [signed out, user B, user A, admin])
        (Method::POST, "/api/auth/login".into(), Some(json!({"username":"owner_a","password":TEST_PASSWORD})), [200, 200, 200, 200]),
        // A refresh token is the credential itself: a bearer token adds nothing
        // (tests/api/sessions.rs has rotation, reuse, sign-out and new passwords).
        (Method::POST, "/api/auth/refresh".into(), Some(json!({"refreshToken": format!("{}.{}", "a".repeat(32), "b".repeat(64))})), [401, 401, 401, 401]),
        (Method::POST, "/api/auth/logout".into(), Some(json!({"refreshToken": "unknown"})), [204, 204, 204, 204]),
        (Method::GET, format!("/api/user/profile?userId={uid}"), None, [401, 403, 200, 200]),
        (Method::PUT, format!("/api/user/profile?userId={uid}"), Some(json!({"email":"owner_a@example.com"})), [401, 403, 200, 200]),
        (Method::GET, "/api/hospitals/all".into(), None, [200, 200, 200, 200]),
        (Method::GET, "/api/hospitals/nearest?lat=30&lng=74".into(), None, [200, 200, 200, 200]),
        (Method::GET, format!("/api/hospitals/{h}"), None, [200, 200, 200, 200]),
        (Method::GET, format!("/api/ambulances/available?hospitalId={h}"), None, [200, 200, 200, 200]),
        (Method::GET, "/api/ambulances/available/all".into(), None, [200, 200, 200, 200]),
        (Method::GET, format!("/api/ambulances/hospital/{h}"), None, [200, 200, 200, 200]),
        (Method::GET, format!("/api/ambulances/counts?hospitalId={h}"), None, [200, 200, 200, 200]),
        (Method::GET, format!("/api/booking/history?userId={uid}"), None, [401, 403, 200, 200]),
        (Method::GET, format!("/api/booking/{a_booking}"), None, [401, 403, 200, 200]),
        (Method::POST, format!("/api/booking/book?userId={uid}"), Some(book(&ambs[2])), [401, 403, 201, 409]),
        (Method::PATCH, format!("/api/booking/cancel?bookingId={a_booking}"), None, [401, 403, 200, 409]),
        (Method::GET, "/api/admin/ambulances/all".into(), None, [401, 403, 403, 200]),
        (Method::POST, "/api/admin/hospitals/add".into(), Some(json!({"name":"N","address":"A","latitude":1,"longitude":1})), [401, 403, 403, 201]),
        (Method::POST, "/api/admin/ambulances/add".into(), Some(json!({"number":"NEW-1","status":"AVAILABLE","hospital":{"id":h}})), [401, 403, 403, 201]),
        (Method::PATCH, format!("/api/admin/ambulance/status?ambulanceId={}&status=MAINTENANCE", ambs[3]), None, [401, 403, 403, 200]),
        (Method::DELETE, format!("/api/admin/ambulances/remove?ambulanceId={}", ambs[3]), None, [401, 403, 403, 204]),
        (Method::GET, "/api/admin/bookings/all/paged".into(), None, [401, 403, 403, 200]),
        (Method::PATCH, format!("/api/admin/bookings/status?bookingId={a_pending}&status=ACTIVE"), None, [401, 403, 403, 200]),
        (Method::GET, "/api/admin/stats".into(), None, [401, 403, 403, 200]),
        (Method::DELETE, format!("/api/admin/hospitals/remove?hospitalId={}", empty_hospital["id"]), None, [401, 403, 403, 204]),
    ];

    let callers = [
        None,
        Some(b.token.as_str()),
        Some(a.token.as_str()),
        Some(admin.token.as_str()),
    ];
    let names = ["signed out", "user B", "user A", "admin"];
    let mut failures = vec![];
    for (method, path, body, expected) in &rows {
        for (i, caller) in callers.iter().enumerate() {
            let res = base.call(method.clone(), path, *caller, body.clone()).await;
            if res.status.as_u16() != expected[i] {
                failures.push(format!(
                    "{method} {path} as {}: expected {}, got {} {:?}",
                    names[i], expected[i], res.status, res.body
                ));
            }
            if i == ANON && expected[i] == 401 {
                assert!(!res.message().is_empty());
            }
        }
    }
    assert!(
        failures.is_empty(),
        "authorization matrix:\n{}",
        failures.join("\n")
    );
}
