//! The receiving hospital (docs/decisions/0026-receiving-hospital.md): staff
//! accounts made by admins, the board of trips coming to one hospital (only its
//! own, open or ended in the last day, most urgent first), the handover on the
//! record, the crew's change of destination moving a trip between two boards, and
//! diversion shown by the nearest search and offered around on the crew's screen.

use domain::booking::TripStage;
use domain::geo::Point;
use domain::types::{Timestamp, format_rfc3339};
use http::{Method, StatusCode};
use serde_json::{Value, json};
use testkit::{TEST_PASSWORD, TestApp, TestUser};
use time::{Duration, OffsetDateTime};

use crate::{
    crew::id_of,
    helpers::{stages, steps_between, steps_to},
};

/// Two hospitals 20 km apart, A with two ambulances and B with one, a crew each,
/// a requester, and staff at each hospital.
struct Two {
    app: TestApp,
    admin: TestUser,
    user: TestUser,
    a: Value,
    b: Value,
    ambulances: Vec<Value>,
    crews: Vec<TestUser>,
    staff_a: TestUser,
    staff_b: TestUser,
}

impl Two {
    async fn new() -> Two {
        let app = TestApp::new(api_tests::system).await;
        let admin = app.admin().await;
        let user = app.user("requester").await;
        let hospital = async |name: &str, lat: f64| {
            let res = app
                .add_hospital(
                    Some(&admin.token),
                    json!({"name": name, "address": "1 Main St", "latitude": lat, "longitude": 74.33,
                           "contactInfo": "+911234567"}),
                )
                .await;
            res.assert_status(StatusCode::CREATED);
            res.body
        };
        let a = hospital("Alpha", 30.67).await;
        let b = hospital("Beta", 30.85).await;
        let mut ambulances = vec![];
        for (number, h) in [("A-1", &a), ("A-2", &a), ("B-1", &b)] {
            let res = app
                .add_ambulance(
                    Some(&admin.token),
                    json!({"number": number, "status": "AVAILABLE", "hospital": {"id": h["id"]},
                           "driverInfo": "R. Kumar", "type": "ALS", "contactInfo": format!("+91 {number}")}),
                )
                .await;
            res.assert_status(StatusCode::CREATED);
            ambulances.push(res.body);
        }
        let mut crews = vec![];
        for (i, amb) in ambulances.iter().enumerate() {
            crews.push(app.crew(&format!("crew{i}"), id_of(amb)).await);
        }
        let staff_a = app.hospital_staff("er-alpha", id_of(&a)).await;
        let staff_b = app.hospital_staff("er-beta", id_of(&b)).await;
        Two {
            app,
            admin,
            user,
            a,
            b,
            ambulances,
            crews,
            staff_a,
            staff_b,
        }
    }

    /// A booking of ambulance `i` (of its hospital), of `kind`.
    async fn book(&self, i: usize, kind: &str) -> Value {
        let amb = &self.ambulances[i];
        let res = self
            .app
            .book(
                Some(&self.user.token),
                json!({"hospitalId": amb["hospitalId"], "ambulanceId": amb["id"], "bookingType": kind,
                       "patient": {"name": "Asha", "age": 67, "gender": "Female", "condition": "Chest pain"},
                       "pickup": {"latitude": 30.70, "longitude": 74.35}}),
            )
            .await;
        res.assert_status(StatusCode::CREATED);
        res.body
    }

    /// Crew `i` takes booking `b` through `steps`, each answered 200.
    async fn steps(&self, i: usize, b: &Value, steps: &[impl AsRef<str>]) -> Value {
        let mut last = Value::Null;
        for step in steps.iter().map(AsRef::as_ref) {
            let res = self
                .app
                .crew_step(
                    Some(&self.crews[i].token),
                    json!({"bookingId": b["id"], "stage": step}),
                )
                .await;
            res.assert_status(StatusCode::OK);
            last = res.body;
        }
        last
    }

    async fn board(&self, staff: &TestUser) -> Value {
        let res = self
            .app
            .get("/api/hospital/incoming", Some(&staff.token))
            .await;
        res.assert_status(StatusCode::OK);
        res.body
    }

    fn ids(board: &Value) -> Vec<u64> {
        board["trips"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["bookingId"].as_u64().unwrap())
            .collect()
    }

    async fn report_position(&self, i: usize, Point { lat, lng }: Point) {
        let res = self
            .app
            .put(
                "/api/crew/location",
                Some(&self.crews[i].token),
                json!({"latitude": lat, "longitude": lng, "accuracyM": 5,
                       "recordedAt": format_rfc3339(OffsetDateTime::now_utc())}),
            )
            .await;
        res.assert_status(StatusCode::NO_CONTENT);
    }
}

/// The crew's steps from accepting to setting off for the hospital, and to arriving:
/// the domain's order.
fn to_hospital() -> Vec<String> {
    steps_to(TripStage::ToHospital)
}
fn at_hospital() -> Vec<String> {
    steps_to(TripStage::AtHospital)
}

fn in_an_hour() -> String {
    format_rfc3339(OffsetDateTime::now_utc() + Duration::hours(1))
}

#[tokio::test]
async fn admins_make_staff_accounts_tied_to_an_existing_hospital() {
    let t = Two::new().await;
    let body = |username: &str, hospital: &Value| {
        json!({"username": username, "email": format!("{username}@example.com"), "password": TEST_PASSWORD,
               "phoneNumber": "+91 98000 22222", "hospitalId": hospital["id"]})
    };
    let res = t
        .app
        .post(
            "/api/admin/hospital-staff",
            Some(&t.admin.token),
            body("er-desk", &t.a),
        )
        .await;
    res.assert_status(StatusCode::CREATED);
    assert_eq!(res.body["username"], "er-desk");
    assert_eq!(res.body["hospitalId"], t.a["id"]);
    assert_eq!(res.body["hospitalName"], "Alpha");
    assert_eq!(res.body["phoneNumber"], "+919800022222");
    // The new account signs in and sees its hospital's board.
    let login = t
        .app
        .login(json!({"username": "er-desk", "password": TEST_PASSWORD}))
        .await;
    login.assert_status(StatusCode::OK);
    assert_eq!(login.body["role"], "HOSPITAL");
    let token = login.body["token"].as_str().unwrap();
    let board = t.app.get("/api/hospital/incoming", Some(token)).await;
    board.assert_status(StatusCode::OK);
    assert_eq!(board.body["hospital"]["name"], "Alpha");

    // Taken names, an unknown hospital, bad input.
    let again = t
        .app
        .post(
            "/api/admin/hospital-staff",
            Some(&t.admin.token),
            body("er-desk", &t.b),
        )
        .await;
    again.assert_status(StatusCode::CONFLICT);
    let nowhere = t
        .app
        .post(
            "/api/admin/hospital-staff",
            Some(&t.admin.token),
            body("er-none", &json!({"id": 999})),
        )
        .await;
    nowhere.assert_status(StatusCode::NOT_FOUND);
    for (patch, field) in [
        (json!({"email": "not-an-email"}), "email"),
        (json!({"hospitalId": 0}), "hospitalId"),
        (json!({"username": "x"}), "username"),
        (json!({"phoneNumber": "call me"}), "phoneNumber"),
    ] {
        let mut b = body("er-bad", &t.a);
        for (k, v) in patch.as_object().unwrap() {
            b[k] = v.clone();
        }
        let res = t
            .app
            .post("/api/admin/hospital-staff", Some(&t.admin.token), b)
            .await;
        res.assert_field(StatusCode::BAD_REQUEST, field);
    }
    // Nobody else makes them.
    for token in [
        Some(t.user.token.as_str()),
        Some(t.crews[0].token.as_str()),
        Some(t.staff_a.token.as_str()),
    ] {
        let res = t
            .app
            .post("/api/admin/hospital-staff", token, body("er-x", &t.a))
            .await;
        res.assert_status(StatusCode::FORBIDDEN);
    }
    let res = t
        .app
        .post("/api/admin/hospital-staff", None, body("er-x", &t.a))
        .await;
    res.assert_status(StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_hospital_routes_are_for_its_staff_and_staff_reach_no_other_role_s_routes() {
    let t = Two::new().await;
    let b = t.book(0, "NORMAL").await;
    let routes: Vec<(Method, String, Option<Value>)> = vec![
        (Method::GET, "/api/hospital/incoming".into(), None),
        (
            Method::POST,
            format!("/api/hospital/bookings/{}/handover", b["id"]),
            None,
        ),
        (
            Method::PUT,
            "/api/hospital/diversion".into(),
            Some(json!({"until": in_an_hour()})),
        ),
        (Method::DELETE, "/api/hospital/diversion".into(), None),
    ];
    for (method, uri, body) in &routes {
        for token in [&t.user.token, &t.crews[0].token, &t.admin.token] {
            let res = t
                .app
                .call(method.clone(), uri, Some(token), body.clone())
                .await;
            res.assert_status(StatusCode::FORBIDDEN);
        }
        let res = t.app.call(method.clone(), uri, None, body.clone()).await;
        res.assert_status(StatusCode::UNAUTHORIZED);
    }
    // The crew's change of destination is the crew's: everyone else 403, signed out 401.
    let change = json!({"bookingId": b["id"], "hospitalId": t.b["id"]});
    for token in [&t.user.token, &t.admin.token, &t.staff_a.token] {
        let res = t
            .app
            .call(
                Method::PATCH,
                "/api/crew/job/destination",
                Some(token),
                Some(change.clone()),
            )
            .await;
        res.assert_status(StatusCode::FORBIDDEN);
    }
    let res = t
        .app
        .call(
            Method::PATCH,
            "/api/crew/job/destination",
            None,
            Some(change),
        )
        .await;
    res.assert_status(StatusCode::UNAUTHORIZED);
    // A handover of a path that is no booking id: 400 naming it.
    let res = t
        .app
        .post(
            "/api/hospital/bookings/abc/handover",
            Some(&t.staff_a.token),
            json!({}),
        )
        .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{:?}", res.body);
    // Staff are refused where crews are: the public's, the admins' and the crews'.
    let staff = Some(t.staff_a.token.as_str());
    for (method, uri) in [
        (Method::GET, "/api/booking/history".to_owned()),
        (Method::GET, format!("/api/booking/{}", b["id"])),
        (Method::GET, format!("/api/booking/{}/track", b["id"])),
        (Method::GET, "/api/admin/stats".to_owned()),
        (Method::GET, "/api/crew/me".to_owned()),
    ] {
        let res = t.app.call(method, &uri, staff, None).await;
        res.assert_status(StatusCode::FORBIDDEN);
    }
}

#[tokio::test]
async fn the_board_holds_its_own_trips_open_or_ended_within_a_day_most_urgent_first() {
    let t = Two::new().await;
    // On A's board: a NORMAL trip at the door, an EMERGENCY on its way with a live
    // position, and one ended. On B's: its own only.
    let at_door = t.book(0, "NORMAL").await;
    t.steps(0, &at_door, &at_hospital()).await;
    let coming = t.book(1, "EMERGENCY").await;
    t.steps(1, &coming, &to_hospital()).await;
    t.report_position(1, Point::new(30.70, 74.35)).await;
    let at_b = t.book(2, "NORMAL").await;

    let board = t.board(&t.staff_a).await;
    assert_eq!(board["hospital"]["id"], t.a["id"]);
    assert_eq!(board["hospital"]["onDiversionUntil"], Value::Null);
    assert_eq!(
        Two::ids(&board),
        [
            at_door["id"].as_u64().unwrap(),
            coming["id"].as_u64().unwrap()
        ]
    );
    let door = &board["trips"][0];
    assert_eq!(door["stage"], "AT_HOSPITAL");
    assert_eq!(door["bookingType"], "NORMAL");
    assert_eq!(door["bookingStatus"], "ACTIVE");
    assert_eq!(door["etaSeconds"], Value::Null, "arrived: no ETA");
    assert!(door["arrivedAt"].as_str().is_some());
    assert_eq!(door["handedOverAt"], Value::Null);
    assert_eq!(door["crewPhone"], "+91 A-1");
    assert_eq!(
        door["patient"],
        json!({"age": 67, "gender": "Female", "condition": "Chest pain"})
    );
    assert_eq!(door["ambulance"]["number"], "A-1");
    assert_eq!(door["ambulance"]["type"], "ALS");
    assert!(door.get("userPhone").is_none() && door.get("pickup").is_none());
    let way = &board["trips"][1];
    assert_eq!(way["stage"], "TO_HOSPITAL");
    // About 3.3 km straight from (30.70, 74.35) to (30.67, 74.33): some minutes.
    let eta = way["etaSeconds"]
        .as_u64()
        .expect("a live position gives an ETA");
    assert!((200..=900).contains(&eta), "{eta}");
    assert_eq!(
        Two::ids(&t.board(&t.staff_b).await),
        [at_b["id"].as_u64().unwrap()]
    );

    // Handed over and completed: stays on the board, after the open ones.
    let handed = t
        .app
        .post(
            &format!("/api/hospital/bookings/{}/handover", at_door["id"]),
            Some(&t.staff_a.token),
            json!({}),
        )
        .await;
    handed.assert_status(StatusCode::OK);
    t.steps(0, &at_door, &["COMPLETED"]).await;
    let board = t.board(&t.staff_a).await;
    assert_eq!(
        Two::ids(&board),
        [
            coming["id"].as_u64().unwrap(),
            at_door["id"].as_u64().unwrap()
        ]
    );
    let done = &board["trips"][1];
    assert!(done["handedOverAt"].as_str().is_some());
    // Ended: the status says so, whatever stage it reached (the web app files it as done).
    assert_eq!(done["bookingStatus"], "COMPLETED");
    assert_eq!(
        done["crewPhone"],
        Value::Null,
        "ended: its ambulance serves others"
    );

    // Ended more than 24 h ago: off the board (its index key says when it ended).
    let old = format_rfc3339(OffsetDateTime::now_utc() - Duration::hours(25));
    testkit::raw_update(
        &t.app.state.store,
        &store::keys::booking(id_of(&at_door)),
        "SET destsk = :sk",
        vec![(
            ":sk",
            aws_sdk_dynamodb::types::AttributeValue::S(store::keys::destination_ended(
                &old,
                id_of(&at_door),
            )),
        )],
    )
    .await;
    assert_eq!(
        Two::ids(&t.board(&t.staff_a).await),
        [coming["id"].as_u64().unwrap()]
    );
}

#[tokio::test]
async fn a_handover_is_recorded_by_the_destination_only_at_the_door_and_timed() {
    let t = Two::new().await;
    let b = t.book(0, "EMERGENCY").await;
    let handover = async |staff: &TestUser| {
        t.app
            .post(
                &format!("/api/hospital/bookings/{}/handover", b["id"]),
                Some(&staff.token),
                json!({}),
            )
            .await
    };
    // Not yet arrived: 409; another hospital's trip: 404, whatever its stage.
    t.steps(0, &b, &to_hospital()).await;
    handover(&t.staff_a)
        .await
        .assert_status(StatusCode::CONFLICT);
    handover(&t.staff_b)
        .await
        .assert_status(StatusCode::NOT_FOUND);
    let unknown = t
        .app
        .post(
            "/api/hospital/bookings/99999/handover",
            Some(&t.staff_a.token),
            json!({}),
        )
        .await;
    unknown.assert_status(StatusCode::NOT_FOUND);
    let arrived = t.steps(0, &b, &["AT_HOSPITAL"]).await;
    assert_eq!(arrived["moves"], json!(["COMPLETED", "HANDED_OVER"]));
    handover(&t.staff_b)
        .await
        .assert_status(StatusCode::NOT_FOUND);
    let res = handover(&t.staff_a).await;
    res.assert_status(StatusCode::OK);
    assert_eq!(res.body["tripStage"], "HANDED_OVER");
    assert_eq!(res.body["bookingStatus"], "ACTIVE");
    assert_eq!(
        stages(&res.body).last().map(String::as_str),
        Some("HANDED_OVER")
    );
    // Stored with its time, after the arrival.
    let stored = t
        .app
        .get(&format!("/api/booking/{}", b["id"]), Some(&t.admin.token))
        .await;
    let at = |stage: &str| {
        stored.body["timeline"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["stage"] == stage)
            .and_then(|e| Timestamp::parse(e["at"].as_str().unwrap()))
            .unwrap()
    };
    assert!(at("HANDED_OVER") >= at("AT_HOSPITAL"));
    assert_eq!(stored.body["tripStage"], "HANDED_OVER");
    // Once only; the crew then completes, and the ambulance is free.
    handover(&t.staff_a)
        .await
        .assert_status(StatusCode::CONFLICT);
    let done = t.steps(0, &b, &["COMPLETED"]).await;
    assert_eq!(done["bookingStatus"], "COMPLETED");
    assert_eq!(done["tripStage"], "HANDED_OVER");

    // A hospital without staff on the app never blocks the crew: COMPLETED straight
    // from AT_HOSPITAL, or the crew records the handover itself.
    let b2 = t.book(1, "NORMAL").await;
    let done = t
        .steps(1, &b2, &[at_hospital(), vec!["COMPLETED".into()]].concat())
        .await;
    assert_eq!(done["bookingStatus"], "COMPLETED");
    assert!(!stages(&done).contains(&"HANDED_OVER".to_owned()));
    let b3 = t.book(1, "NORMAL").await;
    let by_crew = t.steps(1, &b3, &at_hospital()).await;
    assert_eq!(by_crew["tripStage"], "AT_HOSPITAL");
    let by_crew = t.steps(1, &b3, &["HANDED_OVER"]).await;
    assert_eq!(by_crew["moves"], json!(["COMPLETED"]));
}

#[tokio::test]
async fn the_crew_changes_the_destination_until_arrival_and_the_trip_moves_between_boards() {
    let t = Two::new().await;
    let b = t.book(0, "EMERGENCY").await;
    assert_eq!(b["destinationHospitalId"], t.a["id"]);
    assert_eq!(b["destinationHospitalName"], "Alpha");
    t.steps(0, &b, &["EN_ROUTE", "AT_PICKUP"]).await;
    let change = async |crew: &TestUser, hospital: Value| {
        t.app
            .call(
                Method::PATCH,
                "/api/crew/job/destination",
                Some(&crew.token),
                Some(json!({"bookingId": b["id"], "hospitalId": hospital})),
            )
            .await
    };
    let id = b["id"].as_u64().unwrap();
    assert_eq!(Two::ids(&t.board(&t.staff_a).await), [id]);
    assert!(Two::ids(&t.board(&t.staff_b).await).is_empty());
    // Another ambulance's crew: 403; an unknown hospital: 404; bad input: 400.
    change(&t.crews[2], t.b["id"].clone())
        .await
        .assert_status(StatusCode::FORBIDDEN);
    change(&t.crews[0], json!(999))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    change(&t.crews[0], json!("B"))
        .await
        .assert_field(StatusCode::BAD_REQUEST, "hospitalId");
    // Nothing moved by the refusals.
    assert_eq!(Two::ids(&t.board(&t.staff_a).await), [id]);

    let res = change(&t.crews[0], t.b["id"].clone()).await;
    res.assert_status(StatusCode::OK);
    assert_eq!(res.body["destinationHospitalId"], t.b["id"]);
    assert_eq!(res.body["destinationHospitalName"], "Beta");
    assert_eq!(
        res.body["hospitalId"], t.a["id"],
        "the ambulance's hospital stays"
    );
    assert!(Two::ids(&t.board(&t.staff_a).await).is_empty());
    assert_eq!(Two::ids(&t.board(&t.staff_b).await), [id]);
    // The requester's tracking names it.
    let track = t
        .app
        .get(&format!("/api/booking/{id}/track"), Some(&t.user.token))
        .await;
    assert_eq!(track.body["destinationHospitalName"], "Beta");
    // Now B receives it: A's staff cannot hand it over, B's can.
    let rest = steps_between(TripStage::AtPickup, TripStage::AtHospital);
    t.steps(0, &b, &rest).await;
    let by_a = t
        .app
        .post(
            &format!("/api/hospital/bookings/{id}/handover"),
            Some(&t.staff_a.token),
            json!({}),
        )
        .await;
    by_a.assert_status(StatusCode::NOT_FOUND);
    // Arrived: the destination is fixed.
    change(&t.crews[0], t.a["id"].clone())
        .await
        .assert_status(StatusCode::CONFLICT);
    let by_b = t
        .app
        .post(
            &format!("/api/hospital/bookings/{id}/handover"),
            Some(&t.staff_b.token),
            json!({}),
        )
        .await;
    by_b.assert_status(StatusCode::OK);
}

#[tokio::test]
async fn a_diversion_shows_in_the_searches_and_the_crew_is_offered_an_open_hospital() {
    let t = Two::new().await;
    let b = t.book(0, "EMERGENCY").await;
    t.steps(0, &b, &["EN_ROUTE"]).await;
    let me = t.app.get("/api/crew/me", Some(&t.crews[0].token)).await;
    me.assert_status(StatusCode::OK);
    assert_eq!(me.body["destination"]["id"], t.a["id"]);
    assert_eq!(me.body["destination"]["onDiversionUntil"], Value::Null);
    assert_eq!(me.body["alternative"], Value::Null);

    // Bad times: 400 naming `until`.
    for until in [
        json!("soon"),
        json!(format_rfc3339(
            OffsetDateTime::now_utc() - Duration::minutes(1)
        )),
        json!(format_rfc3339(
            OffsetDateTime::now_utc() + Duration::hours(25)
        )),
    ] {
        let res = t
            .app
            .put(
                "/api/hospital/diversion",
                Some(&t.staff_a.token),
                json!({"until": until}),
            )
            .await;
        res.assert_field(StatusCode::BAD_REQUEST, "until");
    }
    let until = in_an_hour();
    let res = t
        .app
        .put(
            "/api/hospital/diversion",
            Some(&t.staff_a.token),
            json!({"until": until}),
        )
        .await;
    res.assert_status(StatusCode::OK);
    assert_eq!(res.body["id"], t.a["id"]);
    let shown = res.body["onDiversionUntil"].as_str().unwrap().to_owned();
    assert_eq!(Timestamp::parse(&shown), Timestamp::parse(&until));

    // The nearest search and the hospital read show it; B stays open.
    let near = t.app.nearest(Point::new(30.67, 74.33), 5, 50.0).await;
    near.assert_status(StatusCode::OK);
    let of = |id: &Value| {
        near.body
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["id"] == *id)
            .cloned()
            .unwrap()
    };
    assert_eq!(of(&t.a["id"])["onDiversionUntil"], json!(shown));
    assert_eq!(of(&t.b["id"])["onDiversionUntil"], Value::Null);
    let one = t
        .app
        .get(&format!("/api/hospitals/{}", t.a["id"]), None)
        .await;
    assert_eq!(one.body["onDiversionUntil"], json!(shown));
    assert_eq!(
        t.board(&t.staff_a).await["hospital"]["onDiversionUntil"],
        json!(shown)
    );

    // The crew, before TO_HOSPITAL, is offered B.
    let me = t.app.get("/api/crew/me", Some(&t.crews[0].token)).await;
    assert_eq!(me.body["destination"]["onDiversionUntil"], json!(shown));
    assert_eq!(me.body["alternative"]["id"], t.b["id"]);
    assert!(me.body["alternative"]["distance"].as_f64().is_some());
    // A diverted hospital may still be chosen; once on the way, no offer.
    let rest = steps_between(TripStage::EnRoute, TripStage::ToHospital);
    t.steps(0, &b, &rest).await;
    let me = t.app.get("/api/crew/me", Some(&t.crews[0].token)).await;
    assert_eq!(me.body["alternative"], Value::Null);

    // Open again.
    let res = t
        .app
        .delete("/api/hospital/diversion", Some(&t.staff_a.token))
        .await;
    res.assert_status(StatusCode::OK);
    assert_eq!(res.body["onDiversionUntil"], Value::Null);
    let near = t.app.nearest(Point::new(30.67, 74.33), 5, 50.0).await;
    assert!(
        near.body
            .as_array()
            .unwrap()
            .iter()
            .all(|h| h["onDiversionUntil"].is_null())
    );
}

#[tokio::test]
async fn a_move_to_another_hospitals_ambulance_follows_it_unless_the_crew_chose() {
    let t = Two::new().await;
    let reassign = async |b: &Value, to: &Value| {
        let res = t
            .app
            .call(
                Method::PATCH,
                &format!("/api/admin/bookings/{}/ambulance", b["id"]),
                Some(&t.admin.token),
                Some(json!({"ambulanceId": to["id"]})),
            )
            .await;
        res.assert_status(StatusCode::OK);
        res.body
    };
    // Moved from A's ambulance to B's before the pickup: B receives it.
    let first = t.book(0, "NORMAL").await;
    let moved = reassign(&first, &t.ambulances[2]).await;
    assert_eq!(moved["destinationHospitalId"], t.b["id"]);
    assert_eq!(moved["destinationHospitalName"], "Beta");
    let id = first["id"].as_u64().unwrap();
    assert!(Two::ids(&t.board(&t.staff_b).await).contains(&id));
    assert!(!Two::ids(&t.board(&t.staff_a).await).contains(&id));

    // The crew chose B; a move to A's other ambulance keeps the crew's choice.
    let second = t.book(1, "NORMAL").await;
    t.app
        .call(
            Method::PATCH,
            "/api/crew/job/destination",
            Some(&t.crews[1].token),
            Some(json!({"bookingId": second["id"], "hospitalId": t.b["id"]})),
        )
        .await
        .assert_status(StatusCode::OK);
    let moved = reassign(&second, &t.ambulances[0]).await;
    assert_eq!(moved["ambulanceId"], t.ambulances[0]["id"]);
    assert_eq!(moved["destinationHospitalId"], t.b["id"]);
    let stored = t
        .app
        .get(
            &format!("/api/booking/{}", second["id"]),
            Some(&t.admin.token),
        )
        .await;
    assert_eq!(stored.body["destinationHospitalId"], t.b["id"]);
}
