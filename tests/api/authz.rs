//! Who may call what: every route × {signed out, user B, user A (the owner), admin,
//! crew (of the ambulance A booked first)}, on A's resources, in one table. Rows run
//! top to bottom; within a row the callers go in that order, so the owner's, the
//! admin's and the crew's writes come last.

use domain::geo::Point;
use http::Method;
use serde_json::{Value, json};
use testkit::{TEST_PASSWORD, TestApp};

const ANON: usize = 0;

#[tokio::test]
async fn the_authorization_matrix() {
    let base = TestApp::new(api_tests::system).await;
    let admin = base.admin().await;
    let a = base.user("owner_a").await;
    let b = base.user("other_b").await;
    let tok = Some(admin.token.as_str());
    let hospital =
        serde_json::to_value(base.seed_hospital("H", Point::new(30.0, 74.0)).await).unwrap();
    let empty_hospital =
        serde_json::to_value(base.seed_hospital("E", Point::new(30.1, 74.1)).await).unwrap();
    let mut ambs = vec![];
    for i in 0..4 {
        let res = base.add_ambulance(tok, json!({"number": format!("Z-{i}"), "status":"AVAILABLE", "hospital": {"id": hospital["id"]}})).await;
        ambs.push(res.body["id"].clone());
    }
    let spare = base
        .add_ambulance(
            tok,
            json!({"number": "Z-S", "status":"AVAILABLE", "hospital": {"id": hospital["id"]}}),
        )
        .await
        .body["id"]
        .clone();
    let book = |amb: &Value| json!({"hospitalId": hospital["id"], "ambulanceId": amb, "patient": {"name":"P","age":40,"gender":"Male","condition":"c"}});
    let a_booking = base.book(Some(&a.token), book(&ambs[0])).await.body["id"].clone();
    let a_pending = base.book(Some(&a.token), book(&ambs[1])).await.body["id"].clone();
    let (h, uid) = (hospital["id"].clone(), a.id);
    let amb_id = |i: usize| domain::types::Id::try_from(ambs[i].as_u64().unwrap()).unwrap();
    let crew = base.crew("crew_c", amb_id(0)).await;
    let movable = base.crew("crew_m", amb_id(1)).await;
    let removable = base.crew("crew_r", amb_id(1)).await;
    let new_crew = |name: &str| {
        json!({"username": name, "email": format!("{name}@example.com"),
        "password": TEST_PASSWORD, "phoneNumber": "+919800011111", "ambulanceId": ambs[2]})
    };

    // A browser's subscription (a real P-256 key and a 16-byte secret).
    let device = json!({"endpoint": "https://fcm.googleapis.com/fcm/send/abc", "keys": {
        "p256dh": "BLn9b-VR0ca83knDNZ32dCHGyjJp-1riX9ZTN40MqV8K_LpQmLqxC_DoHvqvFXO_nGdAB4W9dogZb_sM-uV4JbY",
        "auth": "_ordMnz7uTCmrpBTeUV4Bw"}});

    #[rustfmt::skip]
    let rows: Vec<(Method, String, Option<Value>, [u16; 5])> = vec![
        // (method, path, body, [signed out, user B, user A, admin, crew])
        (Method::POST, "/api/auth/login".into(), Some(json!({"username":"owner_a","password":TEST_PASSWORD})), [200, 200, 200, 200, 200]),
        // A refresh token is the credential itself: a bearer token adds nothing
        // (tests/api/sessions.rs has rotation, reuse, sign-out and new passwords).
        (Method::POST, "/api/auth/refresh".into(), Some(json!({"refreshToken": format!("{}.{}", "a".repeat(32), "b".repeat(64))})), [401, 401, 401, 401, 401]),
        (Method::POST, "/api/auth/logout".into(), Some(json!({"refreshToken": "unknown"})), [204, 204, 204, 204, 204]),
        (Method::GET, format!("/api/user/profile?userId={uid}"), None, [401, 403, 200, 200, 403]),
        (Method::PUT, format!("/api/user/profile?userId={uid}"), Some(json!({"email":"owner_a@example.com"})), [401, 403, 200, 200, 403]),
        (Method::GET, "/api/user/profile".into(), None, [401, 200, 200, 200, 200]),
        // Push: the key is public; a device is the caller's own, whatever the role.
        (Method::GET, "/api/push/key".into(), None, [200, 200, 200, 200, 200]),
        (Method::PUT, "/api/push/subscription".into(), Some(device.clone()), [401, 204, 204, 204, 204]),
        (Method::DELETE, "/api/push/subscription".into(), Some(json!({"endpoint": device["endpoint"]})), [401, 204, 204, 204, 204]),
        (Method::GET, "/api/hospitals/all".into(), None, [200, 200, 200, 200, 200]),
        (Method::GET, "/api/hospitals/nearest?lat=30&lng=74".into(), None, [200, 200, 200, 200, 200]),
        (Method::GET, format!("/api/hospitals/{h}"), None, [200, 200, 200, 200, 200]),
        (Method::GET, format!("/api/ambulances/available?hospitalId={h}"), None, [200, 200, 200, 200, 200]),
        (Method::GET, "/api/ambulances/available/all".into(), None, [200, 200, 200, 200, 200]),
        (Method::GET, format!("/api/ambulances/hospital/{h}"), None, [200, 200, 200, 200, 200]),
        (Method::GET, format!("/api/ambulances/counts?hospitalId={h}"), None, [200, 200, 200, 200, 200]),
        (Method::GET, format!("/api/booking/history?userId={uid}"), None, [401, 403, 200, 200, 403]),
        (Method::GET, "/api/booking/history".into(), None, [401, 200, 200, 200, 403]),
        (Method::GET, format!("/api/booking/{a_booking}"), None, [401, 403, 200, 200, 403]),
        (Method::GET, format!("/api/booking/{a_booking}/track"), None, [401, 403, 200, 200, 200]),
        (Method::GET, format!("/api/booking/{a_pending}/track"), None, [401, 403, 200, 200, 403]),
        (Method::GET, "/api/crew/me".into(), None, [401, 403, 403, 403, 200]),
        (Method::PATCH, "/api/crew/job/stage".into(), Some(json!({"bookingId": a_booking, "stage": "EN_ROUTE"})), [401, 403, 403, 403, 200]),
        (Method::PUT, "/api/crew/location".into(), Some(json!({"latitude": 30.0, "longitude": 74.0, "recordedAt": domain::types::now_rfc3339()})), [401, 403, 403, 403, 204]),
        (Method::POST, format!("/api/booking/book?userId={uid}"), Some(book(&ambs[2])), [401, 403, 201, 409, 403]),
        (Method::PATCH, format!("/api/booking/cancel?bookingId={a_booking}"), None, [401, 403, 200, 409, 403]),
        (Method::PATCH, "/api/crew/status".into(), Some(json!({"status": "MAINTENANCE"})), [401, 403, 403, 403, 200]),
        (Method::GET, "/api/admin/ambulances/all".into(), None, [401, 403, 403, 200, 403]),
        (Method::POST, "/api/admin/hospitals/add".into(), Some(json!({"name":"N","address":"A","latitude":1,"longitude":1})), [401, 403, 403, 201, 403]),
        (Method::POST, "/api/admin/ambulances/add".into(), Some(json!({"number":"NEW-1","status":"AVAILABLE","hospital":{"id":h}})), [401, 403, 403, 201, 403]),
        (Method::PATCH, format!("/api/admin/ambulance/status?ambulanceId={}&status=MAINTENANCE", ambs[3]), None, [401, 403, 403, 200, 403]),
        (Method::DELETE, format!("/api/admin/ambulances/remove?ambulanceId={}", ambs[3]), None, [401, 403, 403, 204, 403]),
        (Method::GET, "/api/admin/bookings/all/paged".into(), None, [401, 403, 403, 200, 403]),
        (Method::PATCH, format!("/api/admin/bookings/status?bookingId={a_pending}&status=ACTIVE"), None, [401, 403, 403, 200, 403]),
        (Method::GET, "/api/admin/stats".into(), None, [401, 403, 403, 200, 403]),
        (Method::GET, "/api/admin/crew".into(), None, [401, 403, 403, 200, 403]),
        (Method::POST, "/api/admin/crew".into(), Some(new_crew("crew_new")), [401, 403, 403, 201, 403]),
        (Method::PATCH, format!("/api/admin/crew/{}", movable.id), Some(json!({"ambulanceId": ambs[2]})), [401, 403, 403, 200, 403]),
        (Method::DELETE, format!("/api/admin/crew/{}", removable.id), None, [401, 403, 403, 204, 403]),
        (Method::GET, "/api/admin/live?bbox=29,73,31,75".into(), None, [401, 403, 403, 200, 403]),
        (Method::DELETE, format!("/api/admin/hospitals/remove?hospitalId={}", empty_hospital["id"]), None, [401, 403, 403, 204, 403]),
        // The dispatcher's (decision 0012).
        (Method::GET, "/api/admin/alerts".into(), None, [401, 403, 403, 200, 403]),
        (Method::POST, "/api/admin/alerts/999999/ack".into(), None, [401, 403, 403, 404, 403]),
        (Method::PATCH, format!("/api/admin/bookings/{a_pending}/ambulance"), Some(json!({"ambulanceId": spare})), [401, 403, 403, 200, 403]),
        (Method::GET, "/api/admin/ambulances/free-near?lat=30&lng=74".into(), None, [401, 403, 403, 200, 403]),
    ];

    let callers = [
        None,
        Some(b.token.as_str()),
        Some(a.token.as_str()),
        Some(admin.token.as_str()),
        Some(crew.token.as_str()),
    ];
    let names = ["signed out", "user B", "user A", "admin", "crew"];
    let mut failures = vec![];
    let check = async |rows: Vec<(Method, String, Option<Value>, [u16; 5])>,
                       failures: &mut Vec<String>| {
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
    };
    check(rows, &mut failures).await;

    // The one-tap emergency (after the booking rows: it is one of A's open bookings).
    // A's one-tap emergency, far from the others (the only ambulance near it), and
    // a tracking link of it.
    let far = base
        .add_hospital(
            tok,
            json!({"name":"Far","address":"A","latitude":35.0,"longitude":80.0}),
        )
        .await
        .body;
    let far_amb = json!({"number": "FAR-1", "status": "AVAILABLE", "hospital": {"id": far["id"]}});
    base.add_ambulance(tok, far_amb).await;
    let far_pickup = json!({"pickup": {"latitude": 35.01, "longitude": 80.0}});
    let a_emergency = base
        .post("/api/booking/emergency", Some(&a.token), far_pickup.clone())
        .await
        .body["id"]
        .clone();
    let a_link = base
        .post(
            &format!("/api/booking/{a_emergency}/share"),
            Some(&a.token),
            json!({}),
        )
        .await
        .body["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let patient = json!({"name":"P","age":40,"gender":"Male","condition":"c"});

    #[rustfmt::skip]
    let rows: Vec<(Method, String, Option<Value>, [u16; 5])> = vec![
        // B: none free near (A's took the only one); A: has an open one.
        (Method::POST, "/api/booking/emergency".into(), Some(far_pickup.clone()), [401, 409, 409, 403, 403]),
        (Method::PATCH, format!("/api/booking/{a_emergency}/patient"), Some(patient.clone()), [401, 403, 200, 403, 403]),
        (Method::POST, format!("/api/booking/{a_emergency}/share"), None, [401, 403, 201, 403, 403]),
        (Method::GET, format!("/api/booking/shared/{a_link}"), None, [200, 200, 200, 200, 200]),
        (Method::DELETE, format!("/api/booking/{a_emergency}/share"), None, [401, 403, 204, 403, 403]),
        (Method::GET, format!("/api/booking/shared/{a_link}"), None, [404, 404, 404, 404, 404]),
    ];
    check(rows, &mut failures).await;
    assert!(
        failures.is_empty(),
        "authorization matrix:\n{}",
        failures.join("\n")
    );
}
