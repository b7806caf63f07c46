//! docs/requirements.md, "Inputs and answers": free text is NFC with no control characters and
//! something visible in it; every 400 names its field; every answer is
//! `Cache-Control: no-store`; a deployed function answers only requests that came
//! through CloudFront; a user's history comes in bounded pieces.

use domain::{
    ambulance::AmbulanceStatus,
    booking::{BookingStatus, Goal, Mover},
    geo::Point,
    types::Id,
};
use futures::future::join_all;
use http::{Method, StatusCode};
use serde_json::{Value, json};
use store::{bookings::HISTORY_LIMIT, open_bookings::OpenLimit};
use testkit::{TestApp, TestUser, json_request};
use web::{
    edge::{ORIGIN_SECRET_HEADER, VIEWER_ADDRESS_HEADER},
    http::parse_json,
};

/// Values found stored by probing: control characters and bidirectional overrides
/// (refused anywhere), and text with nothing visible (blank: refused where a value
/// is required, "none" where it is optional).
/// A later review added noncharacters (a name of only U+FFFF was stored) and the line and
/// paragraph separators, which break lines where no line feed is.
const CONTROL: [&str; 15] = [
    "a\u{0}b",
    "x\u{1b}[2J",
    "bell\u{7}",
    "del\u{7f}y",
    "\u{202e}gnp.exe",
    "a\u{2066}b\u{2069}",
    "\u{200f}rtl",
    "one\rtwo",
    "\u{ffff}",
    "name\u{fffe}",
    "a\u{fdd0}b",
    "x\u{1fffe}y",
    "\u{10ffff}z",
    "one\u{2028}two",
    "one\u{2029}two",
];
const BLANK: [&str; 5] = [
    "\u{200b}\u{200b}",
    "\u{2060}",
    "\u{feff}",
    "\u{3164}",
    " \u{200b} \u{2800} ",
];

/// Each (route, body, text field): the field set to each bad value is a 400 naming
/// it, and nothing is written.
#[tokio::test]
async fn text_with_control_or_no_visible_characters_is_refused_by_field() {
    let app = TestApp::new(api_tests::system).await;
    let admin = app.admin().await;
    let user = app.user("typist").await;
    let hospital = app.seed_hospital("General", Point::new(30.0, 74.0)).await;
    let amb = app
        .seed_ambulance(hospital.id, "T-1", AmbulanceStatus::Available)
        .await;
    let (a, u) = (Some(admin.token.as_str()), Some(user.token.as_str()));
    let register = json!({"username": "newbie", "email": "newbie@example.com", "password": "s3cret-pass",
        "phone": "+15550001111", "latitude": 30.0, "longitude": 74.0});
    let add_hospital = json!({"name": "N", "address": "A", "latitude": 1.0, "longitude": 1.0, "contactInfo": "+1555"});
    let add_ambulance = json!({"number": "NEW-1", "status": "AVAILABLE", "hospital": {"id": hospital.id},
        "driverInfo": "D", "contactInfo": "+1555"});
    let book = json!({"hospitalId": hospital.id, "ambulanceId": amb.id,
        "patient": {"name": "P", "age": 40, "gender": "Male", "condition": "c"}});
    // (route, token, body, field, required)
    let cases: Vec<(&str, Option<&str>, &Value, &str, bool)> = vec![
        ("/api/auth/register", None, &register, "email", true),
        ("/api/admin/hospitals/add", a, &add_hospital, "name", true),
        (
            "/api/admin/hospitals/add",
            a,
            &add_hospital,
            "address",
            true,
        ),
        (
            "/api/admin/hospitals/add",
            a,
            &add_hospital,
            "contactInfo",
            false,
        ),
        (
            "/api/admin/ambulances/add",
            a,
            &add_ambulance,
            "number",
            true,
        ),
        (
            "/api/admin/ambulances/add",
            a,
            &add_ambulance,
            "driverInfo",
            false,
        ),
        (
            "/api/admin/ambulances/add",
            a,
            &add_ambulance,
            "contactInfo",
            false,
        ),
        ("/api/booking/book", u, &book, "patient.name", true),
        ("/api/booking/book", u, &book, "patient.condition", true),
    ];
    let mut stored = vec![];
    for (uri, token, body, field, required) in cases {
        let blank: &[&str] = if required { &BLANK } else { &[] };
        for bad in CONTROL.iter().chain(blank) {
            let mut body = body.clone();
            let slot = field.split('.').fold(&mut body, |v, k| &mut v[k]);
            *slot = json!(bad);
            let res = app.post(uri, token, body).await;
            if (res.status, res.field()) != (StatusCode::BAD_REQUEST, Some(field)) {
                stored.push(format!(
                    "{uri} {field}={bad:?}: {} {:?}",
                    res.status, res.body
                ));
            }
        }
    }
    let res = app
        .edit_profile(u, json!({"email": "\u{202e}moc.elpmaxe@a"}))
        .await;
    assert_eq!(res.field(), Some("email"), "{:?}", res.body);
    assert!(stored.is_empty(), "accepted:\n{}", stored.join("\n"));
    // Nothing of it was written.
    assert_eq!(app.state.store.users().user_count().await.unwrap(), 2);
    assert_eq!(
        app.state.store.hospitals().hospital_count().await.unwrap(),
        1
    );
    assert_eq!(
        app.state
            .store
            .bookings()
            .booking_counts()
            .await
            .unwrap()
            .total,
        0
    );
    // A blank optional field is no value at all, never invisible text.
    let mut body = add_hospital.clone();
    body["contactInfo"] = json!("\u{200b}\u{200b}");
    let res = app.add_hospital(a, body).await;
    res.assert_status(StatusCode::CREATED);
    assert_eq!(res.body["contactInfo"], Value::Null);
}

#[tokio::test]
async fn text_is_stored_in_nfc() {
    let app = TestApp::new(api_tests::system).await;
    let admin = app.admin().await;
    // "José" with a combining accent, and "Zürich" precomposed: one spelling each.
    let res = app
        .add_hospital(
            Some(&admin.token),
            json!({"name": "Jose\u{301} Clinic", "address": "Zu\u{308}rich\r\nStreet 1", "latitude": 1.0, "longitude": 1.0}),
        )
        .await;
    res.assert_status(StatusCode::CREATED);
    assert_eq!(res.body["name"], "Jos\u{e9} Clinic");
    assert_eq!(res.body["address"], "Z\u{fc}rich\nStreet 1");
    let read = app
        .get(&format!("/api/hospitals/{}", res.body["id"]), None)
        .await;
    assert_eq!(read.body["name"], "Jos\u{e9} Clinic");
}

/// Every field of every body, set to a value of each wrong JSON type: any 400 names
/// a field (found: `patient.gender: null` and `bookingType: 1` answered "Malformed
/// JSON: expected value").
#[tokio::test]
async fn every_400_names_its_field() {
    let app = TestApp::new(api_tests::system).await;
    let admin = app.admin().await;
    let user = app.user("prober").await;
    let (a, u) = (Some(admin.token.as_str()), Some(user.token.as_str()));
    let bodies: Vec<(Method, &str, Option<&str>, Value)> = vec![
        (
            Method::POST,
            "/api/auth/register",
            None,
            json!({"username": "x", "email": "e", "password": "p",
            "phone": "1", "latitude": 1.0, "longitude": 1.0, "role": "USER"}),
        ),
        (
            Method::POST,
            "/api/auth/login",
            None,
            json!({"username": "x", "password": "p"}),
        ),
        (
            Method::POST,
            "/api/auth/refresh",
            None,
            json!({"refreshToken": "t"}),
        ),
        (
            Method::POST,
            "/api/auth/logout",
            None,
            json!({"refreshToken": "t"}),
        ),
        (
            Method::PUT,
            "/api/user/profile",
            u,
            json!({"email": "e", "latitude": 1.0, "longitude": 1.0,
            "password": "p", "currentPassword": "c"}),
        ),
        (
            Method::POST,
            "/api/booking/book",
            u,
            json!({"hospitalId": 1, "ambulanceId": 1, "bookingType": "NORMAL",
            "patient": {"name": "n", "age": 1, "gender": "Male", "condition": "c"}}),
        ),
        (
            Method::POST,
            "/api/admin/hospitals/add",
            a,
            json!({"name": "n", "address": "a", "latitude": 1.0,
            "longitude": 1.0, "contactInfo": "c"}),
        ),
        (
            Method::POST,
            "/api/admin/ambulances/add",
            a,
            json!({"number": "n", "status": "AVAILABLE",
            "type": "ALS", "hospital": {"id": 1}, "driverInfo": "d", "contactInfo": "c"}),
        ),
    ];
    let wrong = [
        json!(null),
        json!(1),
        json!(-2.5),
        json!(true),
        json!("x"),
        json!([]),
        json!([1]),
        json!({}),
    ];
    let mut unnamed = vec![];
    let mut probes = 0;
    for (method, uri, token, body) in &bodies {
        let mut paths = vec![];
        for (k, v) in body.as_object().unwrap() {
            paths.push(vec![k.clone()]);
            if let Some(inner) = v.as_object() {
                paths.extend(inner.keys().map(|i| vec![k.clone(), i.clone()]));
            }
        }
        for path in paths {
            for value in &wrong {
                let mut body = body.clone();
                let slot = path.iter().fold(&mut body, |v, k| &mut v[k]);
                *slot = value.clone();
                let res = app
                    .call(method.clone(), uri, *token, Some(body.clone()))
                    .await;
                probes += 1;
                if res.status == StatusCode::BAD_REQUEST && res.field().is_none() {
                    unnamed.push(format!(
                        "{method} {uri} {}={value}: {}",
                        path.join("."),
                        res.message()
                    ));
                }
                assert!(
                    res.status.as_u16() < 500,
                    "{method} {uri} {body}: {:?}",
                    res.body
                );
            }
        }
    }
    assert!(probes > 250, "{probes}");
    assert!(
        unnamed.is_empty(),
        "400s without a field:\n{}",
        unnamed.join("\n")
    );
}

/// API answers are personal or change by the second: nobody may keep a copy.
#[tokio::test]
async fn every_answer_is_no_store() {
    let app = TestApp::new(api_tests::system).await;
    let user = app.user("cacheless").await;
    let t = Some(user.token.as_str());
    let requests: Vec<(Method, &str, Option<&str>, Option<Value>)> = vec![
        (Method::GET, "/api/hospitals/all", None, None),
        (Method::GET, "/api/ambulances/available/all", None, None),
        (Method::GET, "/api/user/profile", t, None),
        (Method::GET, "/api/booking/history", t, None),
        (Method::GET, "/api/admin/stats", t, None),
        (Method::GET, "/api/booking/history", None, None),
        (
            Method::POST,
            "/api/auth/login",
            None,
            Some(json!({"username": "cacheless", "password": "nope-nope"})),
        ),
        (Method::POST, "/api/auth/login", None, Some(json!({}))),
        (Method::GET, "/api/hospitals/nope", None, None),
        (Method::DELETE, "/api/auth/login", None, None),
        // Unknown paths of every function: its fallback's 404.
        (Method::GET, "/api/auth/nope", None, None),
        (Method::GET, "/api/user/profile/deeper", t, None),
        (Method::GET, "/api/hospitals/1/x", None, None),
        (Method::POST, "/api/ambulances/nope", None, Some(json!({}))),
        (Method::GET, "/api/booking/1/2/3", t, None),
        (Method::GET, "/api/admin/no-such-route", t, None),
        (Method::GET, "/api/crew/nope", None, None),
        (Method::GET, "/api/booking/", None, None),
        // Paths no group routes (once API Gateway's own 404, without either
        // header); now the `$default` route's function answers them.
        (Method::GET, "/api/nope", None, None),
        (Method::DELETE, "/api", t, None),
    ];
    for (method, uri, token, body) in requests {
        let res = app.call(method.clone(), uri, token, body).await;
        assert_answer_headers(&res, &format!("{method} {uri}"));
    }
}

/// What the contract promises on every answer: `Cache-Control: no-store` and the
/// request id.
#[track_caller]
fn assert_answer_headers(res: &testkit::TestResponse, what: &str) {
    let header = |name: &str| res.headers.get(name).and_then(|v| v.to_str().ok());
    assert_eq!(
        header("cache-control"),
        Some("no-store"),
        "{what}: {}",
        res.status
    );
    assert!(
        header("x-request-id").is_some_and(|id| !id.is_empty()),
        "{what}: {} without a request id",
        res.status
    );
}

/// A deployed function (an origin secret configured) answers only what came through
/// CloudFront, and believes CloudFront's viewer address only then.
#[tokio::test]
async fn only_requests_through_cloudfront_reach_a_deployed_function() {
    testkit::clear_of_a_window_edge(&store::limits::REGISTRATIONS_PER_ADDRESS, 90).await;
    let state = testkit::fresh_state().await;
    let deployed = TestApp::with_state(state.clone(), |s| {
        let secrets = store::config::OriginSecrets {
            current: "origin-secret-0123456789".into(),
            previous: None,
        };
        web::edge::guard(api_tests::system(s), Some(&secrets))
    });
    let local = TestApp::with_state(state, api_tests::system);
    let with = |secret: Option<&str>, viewer: &str, name: &str| {
        let body = json!({"username": name, "email": format!("{name}@example.com"), "password": "s3cret-pass",
            "phone": "+15550001111", "latitude": 30.0, "longitude": 74.0});
        let mut req = json_request(Method::POST, "/api/auth/register", None, Some(body));
        if let Some(secret) = secret {
            req.headers_mut()
                .insert(ORIGIN_SECRET_HEADER, secret.parse().unwrap());
        }
        req.headers_mut()
            .insert(VIEWER_ADDRESS_HEADER, viewer.parse().unwrap());
        testkit::from_address(req, "130.176.0.1") // a CloudFront edge server
    };
    for secret in [None, Some("wrong"), Some("origin-secret-012345678")] {
        let res = deployed.send(with(secret, "192.0.2.1", "sneaky")).await;
        res.assert_message(StatusCode::FORBIDDEN, "Use the site's address for the API");
        // The guard answers outside the router's layers, and its 403 had
        // neither no-store nor the request id.
        assert_answer_headers(&res, &format!("the guard's 403 ({secret:?})"));
    }
    assert_eq!(deployed.state.store.users().user_count().await.unwrap(), 0);

    // Through CloudFront: the limit counts the viewers, not the edge server.
    let max = store::limits::REGISTRATIONS_PER_ADDRESS.max;
    for i in 0..max {
        let res = deployed
            .send(with(
                Some("origin-secret-0123456789"),
                "192.0.2.1",
                &format!("viewer{i}"),
            ))
            .await;
        res.assert_status(StatusCode::CREATED);
    }
    let res = deployed
        .send(with(
            Some("origin-secret-0123456789"),
            "192.0.2.1",
            "one-more",
        ))
        .await;
    assert_eq!(res.status, StatusCode::TOO_MANY_REQUESTS);
    let res = deployed
        .send(with(
            Some("origin-secret-0123456789"),
            "192.0.2.2",
            "neighbour",
        ))
        .await;
    assert_eq!(
        res.status,
        StatusCode::CREATED,
        "another viewer, same edge server"
    );
    // Without the guard (a local run) a viewer header proves nothing: the address is
    // API Gateway's, so a client cannot pick a fresh one per request.
    for i in 0..max {
        let res = local
            .send(with(
                None,
                &format!("192.0.2.{}", 100 + i),
                &format!("local{i}"),
            ))
            .await;
        res.assert_status(StatusCode::CREATED);
    }
    let res = local.send(with(None, "192.0.2.250", "spoofer")).await;
    assert_eq!(res.status, StatusCode::TOO_MANY_REQUESTS);
}

/// A user's history is the spec's array, bounded: the newest 100, and with `before`
/// (the last id received) the older ones.
#[tokio::test]
async fn a_long_history_comes_in_pieces_of_a_hundred() {
    let app = TestApp::new(api_tests::system).await;
    let user = app.user("regular").await;
    let other = app.user("someone").await;
    let hospital = app.seed_hospital("General", Point::new(30.0, 74.0)).await;
    let extra = 23;
    let total = HISTORY_LIMIT + extra;
    // 10 ambulances, each booked and released over and over, 10 at a time.
    let mut ambulances = vec![];
    for i in 0..10 {
        let amb = app
            .seed_ambulance(hospital.id, &format!("H-{i}"), AmbulanceStatus::Available)
            .await;
        ambulances.push(amb.id);
    }
    let store = &app.state.store;
    let book = |user: &TestUser, amb: Id| {
        let user = user.id;
        async move {
            let body = json!({"hospitalId": hospital.id, "ambulanceId": amb,
                "patient": {"name": "P", "age": 40, "gender": "Male", "condition": "c"}});
            let req = parse_json(body.to_string().as_bytes()).unwrap();
            let b = store
                .bookings()
                .book(user, req, None, OpenLimit::Exempt)
                .await
                .unwrap();
            store
                .bookings()
                .move_booking(b.id, Mover::Admin, Goal::Status(BookingStatus::Cancelled))
                .await
                .unwrap();
            b.id
        }
    };
    // One chain of bookings per ambulance, the chains at once.
    let chains = join_all((0..10).map(|k| {
        let (book, user, amb) = (&book, &user, ambulances[k]);
        async move {
            let mut ids = vec![];
            for _ in (k..total).step_by(10) {
                ids.push(book(user, amb).await);
            }
            ids
        }
    }))
    .await;
    let mut ids: Vec<Id> = chains.into_iter().flatten().collect();
    assert_eq!(ids.len(), total);
    let foreign = book(&other, ambulances[0]).await;

    let page = |query: String| {
        let uri = format!("/api/booking/history{query}");
        let token = user.token.clone();
        let app = &app;
        async move { app.get(&uri, Some(&token)).await }
    };
    let ids_of = |body: &Value| -> Vec<Id> {
        body.as_array()
            .unwrap()
            .iter()
            .map(|b| serde_json::from_value(b["id"].clone()).unwrap())
            .collect()
    };
    let first = page(String::new()).await;
    assert_eq!(first.status, StatusCode::OK);
    let first_ids = ids_of(&first.body);
    assert_eq!(first_ids.len(), HISTORY_LIMIT);
    let last = first_ids.last().unwrap();
    let second = page(format!("?before={last}")).await;
    let second_ids = ids_of(&second.body);
    assert_eq!(second_ids.len(), extra);
    // Together: every booking once, newest first (by time, then id).
    let times: Vec<(String, Id)> = first
        .body
        .as_array()
        .unwrap()
        .iter()
        .chain(second.body.as_array().unwrap())
        .map(|b| {
            (
                b["bookingTime"].as_str().unwrap().to_owned(),
                serde_json::from_value(b["id"].clone()).unwrap(),
            )
        })
        .collect();
    let mut sorted = times.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(times, sorted, "newest first");
    let mut all: Vec<Id> = first_ids.into_iter().chain(second_ids.clone()).collect();
    all.sort();
    ids.sort();
    assert_eq!(all, ids);
    let end = page(format!("?before={}", second_ids.last().unwrap())).await;
    assert_eq!(end.body, json!([]));
    // The cursor is one of the user's own bookings: someone else's is as unknown.
    let mut answers = vec![];
    for bad in [foreign.to_string(), "999999".into()] {
        let res = page(format!("?before={bad}")).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{bad}: {:?}", res.body);
        answers.push(res.message().replace(&bad, "N"));
    }
    assert_eq!(answers[0], answers[1]);
    for bad in ["abc", "0", "-1"] {
        let res = page(format!("?before={bad}")).await;
        res.assert_field(StatusCode::BAD_REQUEST, "before");
    }
}

/// Serde reads a struct from a JSON array by position, so
/// `["demo","demo12345"]` signed in and `[164,"AT_PICKUP"]` moved a trip. A body, and
/// any object in it, is a JSON object: anything else is a 400 saying so, naming the
/// field when it is not the whole body, and nothing is done.
#[tokio::test]
async fn bodies_and_the_objects_in_them_are_json_objects_never_arrays() {
    use crate::{
        crew::id_of,
        emergency::{World, north, pickup_body},
    };
    let w = World::new().await;
    let app = &w.app;
    let h = w.hospital("Civil", north(2.0)).await;
    let amb = w.ambulance(&h, "A-1", "ALS").await;
    let crew = app.crew("arrayed_crew", id_of(&amb)).await;
    let user = app.user("arrayed").await;
    let trip = w.emergency(&user, &pickup_body(), None).await;
    trip.assert_status(StatusCode::CREATED);

    let refused = |res: &testkit::TestResponse, field: Option<&str>| {
        assert_eq!(
            (res.status, res.field()),
            (StatusCode::BAD_REQUEST, field),
            "{}: {:?}",
            res.request,
            res.body
        );
        assert!(res.message().contains("JSON object"), "{}", res.message());
    };
    let login = app.login(json!(["arrayed", testkit::TEST_PASSWORD])).await;
    refused(&login, None);
    assert!(login.body.get("token").is_none());
    let step = app
        .crew_step(Some(&crew.token), json!([trip.body["id"], "EN_ROUTE"]))
        .await;
    refused(&step, None);
    let me = app.get("/api/crew/me", Some(&crew.token)).await;
    assert_eq!(me.body["job"]["tripStage"], "DISPATCHED", "{:?}", me.body);
    // An object inside the body, by position: refused naming it.
    let book = json!({"hospitalId": h["id"], "ambulanceId": amb["id"],
        "patient": ["P", 40, "Male", "c"]});
    refused(&app.book(Some(&user.token), book).await, Some("patient"));
    let other = app.user("arrayed_too").await;
    let emergency = json!({"pickup": [30.7, 74.35]});
    refused(&w.emergency(&other, &emergency, None).await, Some("pickup"));
    // The same bodies as objects still work.
    let login = app
        .login(json!({"username": "arrayed", "password": testkit::TEST_PASSWORD}))
        .await;
    login.assert_status(StatusCode::OK);
    let step = app
        .crew_step(
            Some(&crew.token),
            json!({"bookingId": trip.body["id"], "stage": "EN_ROUTE"}),
        )
        .await;
    step.assert_status(StatusCode::OK);
}

/// Before: `gender` was case-sensitive while `stage` and `type` were not. Every
/// enum is read whatever its case and answered in its one spelling.
#[tokio::test]
async fn every_enum_is_read_in_any_case_and_answered_in_one_spelling() {
    let app = TestApp::new(api_tests::system).await;
    let admin = app.admin().await;
    let user = app.user("casual").await;
    let hospital = app.seed_hospital("General", Point::new(30.0, 74.0)).await;
    let res = app
        .add_ambulance(
            Some(&admin.token),
            json!({"number": "E-1", "status": "available", "type": "als",
                "hospital": {"id": hospital.id}}),
        )
        .await;
    res.assert_status(StatusCode::CREATED);
    assert_eq!(
        (&res.body["status"], &res.body["type"]),
        (&json!("AVAILABLE"), &json!("ALS"))
    );
    let booked = app
        .book(
            Some(&user.token),
            json!({"hospitalId": hospital.id, "ambulanceId": res.body["id"], "bookingType": "Emergency",
                "patient": {"name": "P", "age": 40, "gender": "fEMALE", "condition": "c"}}),
        )
        .await;
    booked.assert_status(StatusCode::CREATED);
    assert_eq!(booked.body["bookingType"], "EMERGENCY");
    assert_eq!(booked.body["patient"]["gender"], "Female");
    let moved = app
        .patch(
            &format!(
                "/api/admin/bookings/status?bookingId={}&status=active",
                booked.body["id"]
            ),
            Some(&admin.token),
        )
        .await;
    moved.assert_status(StatusCode::OK);
    assert_eq!(moved.body["bookingStatus"], "ACTIVE");
    // A value that is none of them is still a 400 naming the field and the values.
    let bad = app
        .book(
            Some(&user.token),
            json!({"hospitalId": hospital.id, "ambulanceId": res.body["id"],
                "patient": {"name": "P", "age": 40, "gender": "m", "condition": "c"}}),
        )
        .await;
    bad.assert_field(StatusCode::BAD_REQUEST, "patient.gender");
    assert!(
        bad.message().contains("Male, Female or Other"),
        "{}",
        bad.message()
    );
}

/// Before: `/api/admin/ambulances/all` took `?page=-1`, `?size=0` and any unknown
/// parameter while the other lists answered 400. Every list refuses what it does
/// not take, naming it.
#[tokio::test]
async fn lists_refuse_bad_and_unknown_query_parameters() {
    let app = TestApp::new(api_tests::system).await;
    let admin = app.admin().await;
    let a = Some(admin.token.as_str());
    for list in [
        "/api/admin/ambulances/all",
        "/api/ambulances/available/all",
        "/api/hospitals/all",
        "/api/admin/bookings/all/paged",
    ] {
        for (query, field) in [
            ("page=-1", "page"),
            ("size=0", "size"),
            ("bogus=1", "bogus"),
        ] {
            let res = app.get(&format!("{list}?{query}"), a).await;
            res.assert_field(StatusCode::BAD_REQUEST, field);
        }
        app.get(list, a).await.assert_status(StatusCode::OK);
    }
}

/// Words of the server's language that must never reach a client: a refusal says
/// what the contract says ("must be a JSON object", "'endpoint' is required").
fn names_a_rust_type(message: &str) -> bool {
    let rust = regex_lite::Regex::new(
        r"\bstruct\b|\benum\b|\bvariant\b|\b(u8|u16|u32|u64|usize|i32|i64|f32|f64)\b|\b[A-Z][a-z]+[A-Z][A-Za-z]*\b",
    )
    .unwrap();
    rust.is_match(message)
}

/// Every route that takes a body (docs/openapi.yaml's operations with a
/// `requestBody`), sent `[]`, `null`, `"x"` and `1`, and `{}`: 400, the body named for
/// what it is ("must be a JSON object, not an array") or a required field named as
/// the contract names it ("'endpoint' is required"), never a Rust type (found: `PUT
/// /api/push/subscription []` answered "invalid length 0, expected struct
/// RawSubscription with 3 elements").
#[tokio::test]
async fn every_body_refused_for_its_shape_says_so_in_the_contracts_words() {
    let app = TestApp::new(api_tests::system).await;
    let admin = app.admin().await;
    let user = app.user("shaper").await;
    let h = app.seed_hospital("Shape", Point::new(30.7, 74.3)).await;
    let amb = app
        .seed_ambulance(h.id, "SHAPE-1", AmbulanceStatus::Available)
        .await;
    let crew = app.crew("shape_crew", amb.id).await;
    let staff = app.hospital_staff("shape_staff", h.id).await;
    let spec: Value = serde_json::to_value(crate::openapi::spec()).unwrap();
    let mut walked = 0;
    let mut problems = vec![];
    for (path, ops) in spec["paths"].as_object().unwrap() {
        for (method, op) in ops.as_object().unwrap() {
            if op.get("requestBody").is_none() {
                continue;
            }
            let method: Method = method.to_uppercase().parse().unwrap();
            let uri = regex_lite::Regex::new(r"\{[^}]+\}")
                .unwrap()
                .replace_all(path, "1")
                .into_owned();
            let token = if path.starts_with("/api/admin") {
                Some(admin.token.as_str())
            } else if path.starts_with("/api/crew") {
                Some(crew.token.as_str())
            } else if path.starts_with("/api/hospital/") {
                Some(staff.token.as_str())
            } else if path.starts_with("/api/auth") {
                None
            } else {
                Some(user.token.as_str())
            };
            walked += 1;
            for (body, kind) in [
                (json!([]), "an array"),
                (json!(null), "null"),
                (json!("x"), "a string"),
                (json!(1), "a number"),
            ] {
                let res = app
                    .call(method.clone(), &uri, token, Some(body.clone()))
                    .await;
                let message = res.body["message"].as_str().unwrap_or_default();
                let expected = format!("The request body must be a JSON object, not {kind}");
                if res.status != StatusCode::BAD_REQUEST || message != expected {
                    problems.push(format!("{method} {uri} {body}: {} {message:?}", res.status));
                }
            }
            let res = app.call(method.clone(), &uri, token, Some(json!({}))).await;
            let message = res.body["message"].as_str().unwrap_or_default();
            if res.status == StatusCode::BAD_REQUEST
                && let Some(field) = res.body["field"].as_str()
                && (message.contains("required") || message.contains("Missing"))
                && message != format!("'{field}' is required")
            {
                problems.push(format!("{method} {uri} {{}}: {message:?}"));
            }
            if names_a_rust_type(message) {
                problems.push(format!("{method} {uri} {{}}: {message:?}"));
            }
        }
    }
    assert!(
        walked >= 15,
        "only {walked} routes with a body in the contract"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The subscription's own: what the contract says a missing field is.
    let res = app
        .put("/api/push/subscription", Some(&user.token), json!({}))
        .await;
    res.assert_field(StatusCode::BAD_REQUEST, "endpoint");
    assert_eq!(res.body["message"], "'endpoint' is required");
}

/// The same words for wrong types inside a body: a nested object where a string
/// belongs, a string where an object belongs, a number out of its type's range.
#[tokio::test]
async fn wrong_types_inside_a_body_name_no_rust_type() {
    let app = TestApp::new(api_tests::system).await;
    let user = app.user("typer").await;
    let cases = [
        (
            "/api/push/subscription",
            json!({"endpoint": "https://fcm.googleapis.com/x", "keys": "x"}),
            "keys",
        ),
        (
            "/api/push/subscription",
            json!({"endpoint": "https://fcm.googleapis.com/x", "keys": []}),
            "keys",
        ),
        (
            "/api/push/subscription",
            json!({"endpoint": {}, "keys": {}}),
            "endpoint",
        ),
        (
            "/api/user/profile",
            json!({"email": "a@b.co", "latitude": {}, "longitude": 1}),
            "latitude",
        ),
    ];
    for (path, body, field) in cases {
        let res = app.put(path, Some(&user.token), body.clone()).await;
        res.assert_field(StatusCode::BAD_REQUEST, field);
        let message = res.body["message"].as_str().unwrap();
        assert!(!names_a_rust_type(message), "{body}: {message}");
    }
    let res = app
        .post(
            "/api/booking/book",
            Some(&user.token),
            json!({"hospitalId": 1, "ambulanceId": 1, "bookingType": "NORMAL",
                   "patient": {"name": "n", "age": 300, "gender": "Male", "condition": "c"}}),
        )
        .await;
    res.assert_field(StatusCode::BAD_REQUEST, "patient.age");
    let message = res.body["message"].as_str().unwrap();
    assert!(!names_a_rust_type(message), "{message}");
}
