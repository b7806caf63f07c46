//! From booking to dispatch against DynamoDB Local, through the routers: pickups,
//! every stage move of the crew, the admin and the requester (allowed and refused),
//! the completing move freeing the ambulance atomically, racing taps, who may see
//! and move what, and old bookings that still read.

use domain::booking::{BookingStatus, Mover, Progress, TripStage, allowed};
use futures::future::join_all;
use http::{Method, StatusCode};
use serde_json::{Value, json};
use testkit::TestUser;

use crate::{
    crew::{Fleet, id_of},
    helpers::{self, stages, steps_to},
};

/// A fleet with a user and a crew per ambulance.
struct Dispatch {
    f: Fleet,
    user: TestUser,
    crews: Vec<TestUser>,
}

impl Dispatch {
    async fn new(ambulances: usize) -> Dispatch {
        let f = Fleet::new(ambulances).await;
        let user = f.app.user("requester").await;
        let mut crews = vec![];
        for (i, amb) in f.ambulances.iter().enumerate() {
            crews.push(f.app.crew(&format!("crew{i}"), id_of(amb)).await);
        }
        Dispatch { f, user, crews }
    }

    fn book_body(&self, ambulance: &Value) -> Value {
        json!({"hospitalId": self.f.hospital["id"], "ambulanceId": ambulance["id"], "bookingType": "EMERGENCY",
               "patient": {"name": "Asha", "age": 67, "gender": "Female", "condition": "Chest pain"},
               "pickup": {"latitude": 30.70, "longitude": 74.35, "landmark": " gate 2, blue house "}})
    }

    async fn book(&self, ambulance: &Value) -> Value {
        self.book_as(&self.user, ambulance).await
    }

    /// A booking of `requester` (a user holds at most 3 open bookings).
    async fn book_as(&self, requester: &TestUser, ambulance: &Value) -> Value {
        let res = self
            .f
            .app
            .book(Some(&requester.token), self.book_body(ambulance))
            .await;
        res.assert_status(StatusCode::CREATED);
        res.body
    }

    async fn crew_step(
        &self,
        crew: &TestUser,
        booking: &Value,
        stage: &str,
    ) -> (StatusCode, Value) {
        let res = self
            .f
            .app
            .crew_step(
                Some(&crew.token),
                json!({"bookingId": booking["id"], "stage": stage}),
            )
            .await;
        (res.status, res.body)
    }

    async fn admin_status(&self, booking: &Value, status: &str) -> (StatusCode, Value) {
        let res = self
            .f
            .app
            .patch(
                &format!(
                    "/api/admin/bookings/status?bookingId={}&status={status}",
                    booking["id"]
                ),
                self.f.admin_token(),
            )
            .await;
        (res.status, res.body)
    }

    async fn cancel(&self, who: &TestUser, booking: &Value) -> (StatusCode, Value) {
        let res = self
            .f
            .app
            .cancel_booking(Some(&who.token), &booking["id"])
            .await;
        (res.status, res.body)
    }

    async fn booking(&self, booking: &Value) -> Value {
        let res = self
            .f
            .app
            .get(
                &format!("/api/booking/{}", booking["id"]),
                self.f.admin_token(),
            )
            .await;
        assert_eq!(res.status, StatusCode::OK);
        res.body
    }

    /// The booking as stored: without `moves`, which each caller sees its own of.
    async fn stored(&self, booking: &Value) -> Value {
        without_moves(self.booking(booking).await)
    }

    /// The moves the admin's list shows on `booking` (the statuses its dropdown
    /// offers).
    async fn admin_moves(&self, booking: &Value) -> Value {
        let page = self
            .f
            .app
            .get(
                "/api/admin/bookings/all/paged?size=100",
                self.f.admin_token(),
            )
            .await;
        let content = page.body["content"].as_array().unwrap();
        let row = content.iter().find(|b| b["id"] == booking["id"]);
        row.expect("the booking is listed")["moves"].clone()
    }

    /// The moves `requester` sees on `booking`, the same on the booking and on its
    /// tracking view.
    async fn requester_moves(&self, requester: &TestUser, booking: &Value) -> Value {
        let token = Some(requester.token.as_str());
        let one = self
            .f
            .app
            .get(&format!("/api/booking/{}", booking["id"]), token)
            .await;
        let track = self
            .f
            .app
            .get(&format!("/api/booking/{}/track", booking["id"]), token)
            .await;
        assert_eq!(one.body["moves"], track.body["moves"], "{:?}", track.body);
        one.body["moves"].clone()
    }

    /// The moves `crew` sees on its job (`GET /api/crew/me`), the same on the job's
    /// tracking view; null when it is not the crew's job (any more).
    async fn crew_moves(&self, crew: &TestUser, booking: &Value) -> Value {
        let token = Some(crew.token.as_str());
        let me = self.f.app.get("/api/crew/me", token).await;
        let job = &me.body["job"];
        if job["id"] != booking["id"] {
            return Value::Null;
        }
        let track = self
            .f
            .app
            .get(&format!("/api/booking/{}/track", booking["id"]), token)
            .await;
        assert_eq!(job["moves"], track.body["moves"], "{:?}", track.body);
        job["moves"].clone()
    }

    async fn ambulance(&self, ambulance: &Value) -> Value {
        helpers::listed_ambulance(&self.f.app, self.f.admin_token(), ambulance).await
    }

    /// The dashboard's counters equal a recount of the bookings and the fleet, and
    /// the free-ambulance entries exist exactly for the AVAILABLE ambulances.
    async fn assert_consistent(&self) {
        crate::helpers::assert_consistent(&self.f.app, self.f.admin_token().unwrap()).await;
    }
}

#[tokio::test]
async fn the_crew_takes_a_booking_from_pending_to_completed() {
    let d = Dispatch::new(1).await;
    let (amb, crew) = (&d.f.ambulances[0], &d.crews[0]);
    let b = d.book(amb).await;
    assert_eq!(b["bookingStatus"], "PENDING");
    assert_eq!(b["tripStage"], Value::Null);
    assert_eq!(
        b["pickup"],
        json!({"latitude": 30.70, "longitude": 74.35, "landmark": "gate 2, blue house"})
    );
    assert_eq!(b["userPhone"], "+15550001111");
    assert_eq!(stages(&b), ["PENDING"]);
    assert_eq!(b["timeline"][0]["at"], b["bookingTime"]);

    // The job shows on the crew's screen.
    let me = d.f.app.get("/api/crew/me", Some(&crew.token)).await;
    me.assert_status(StatusCode::OK);
    assert_eq!(me.body["job"]["id"], b["id"]);
    assert_eq!(me.body["crew"]["username"], "crew0");
    assert_eq!(me.body["ambulance"]["status"], "ON_DUTY");
    assert_eq!(me.body["ambulance"]["position"]["source"], "HOSPITAL");
    // The requester may cancel it; the crew's one move is accepting it.
    assert_eq!(b["moves"], json!(["CANCELLED"]));
    assert_eq!(me.body["job"]["moves"], json!(["EN_ROUTE"]));

    // The domain's stages up to AT_HOSPITAL, then COMPLETED straight from there (no
    // handover): each step reaches its own name, the first one also ACTIVE.
    let mut want = vec!["PENDING".to_owned()];
    let path = TripStage::AtHospital.path_to();
    for (i, to) in path.iter().copied().map(Some).chain([None]).enumerate() {
        let step = to.map_or("COMPLETED".to_owned(), |s| s.to_string());
        let step = step.as_str();
        let (status, stage) = match to {
            Some(stage) => ("ACTIVE", stage.to_string()),
            None => ("COMPLETED", "AT_HOSPITAL".to_owned()),
        };
        let mut reached = if i == 0 { vec!["ACTIVE"] } else { vec![] };
        reached.push(step);
        // The server's moves for the crew hold the step it then accepts (at the
        // hospital also the handover: decision 0026).
        let shown = d.crew_moves(crew, &b).await;
        assert!(shown.as_array().unwrap().contains(&json!(step)), "{shown}");
        let (code, moved) = d.crew_step(crew, &b, step).await;
        assert_eq!(code, StatusCode::OK, "{step}: {moved:?}");
        assert_eq!(
            (moved["bookingStatus"].as_str(), moved["tripStage"].as_str()),
            (Some(status), Some(stage.as_str()))
        );
        want.extend(reached.iter().map(|s| s.to_string()));
        assert_eq!(stages(&moved), want, "{step}");
        // What the route answered is what is stored, with the crew's next move (the
        // domain's, whose own tests hold the table: at the hospital COMPLETED beside
        // the handover).
        let now = Progress {
            status: serde_json::from_value(moved["bookingStatus"].clone()).unwrap(),
            stage: to.or(path.last().copied()),
        };
        assert_eq!(moved["moves"], json!(allowed(now, Mover::Crew)), "{step}");
        assert_eq!(d.stored(&b).await, without_moves(moved), "{step}");
        let amb_now = d.ambulance(amb).await;
        let expect = if step == "COMPLETED" {
            "AVAILABLE"
        } else {
            "ON_DUTY"
        };
        assert_eq!(amb_now["status"], expect, "{step}");
    }
    // Free again: bookable, and no job on the crew's screen.
    let me = d.f.app.get("/api/crew/me", Some(&crew.token)).await;
    assert_eq!(me.body["job"], Value::Null);
    assert_eq!(me.body["ambulance"]["status"], "AVAILABLE");
    d.book(amb).await;
    d.assert_consistent().await;
}

/// The crew's steps to AT_HOSPITAL, then COMPLETED from there (without the handover).
fn steps_then_completed() -> Vec<String> {
    let mut steps = steps_to(TripStage::AtHospital);
    steps.push(BookingStatus::Completed.to_string());
    steps
}

/// `booking` without the moves its caller may make.
fn without_moves(mut booking: Value) -> Value {
    booking.as_object_mut().unwrap().remove("moves");
    booking
}

/// Asserts a 409 whose message says `why`.
#[track_caller]
fn assert_refused(code: StatusCode, body: &Value, why: &str) {
    let message = body["message"].as_str().unwrap_or_default();
    assert!(
        code == StatusCode::CONFLICT && message.contains(why),
        "want 409 saying {why:?}, got {code}: {body:?}"
    );
}

#[tokio::test]
async fn every_refused_crew_step_is_a_409_that_writes_nothing() {
    let d = Dispatch::new(1).await;
    let (amb, crew) = (&d.f.ambulances[0], &d.crews[0]);
    let order = steps_then_completed();
    // At each point of the trip, every step but the next one is refused.
    let b = d.book(amb).await;
    for (i, next) in order.iter().enumerate() {
        let before = d.booking(&b).await;
        // The moves shown are exactly the steps accepted: the next one, and at the
        // hospital the handover beside COMPLETED (decision 0026).
        let (shown, why) = match next.as_str() {
            "COMPLETED" => (
                json!(["COMPLETED", "HANDED_OVER"]),
                "the next step is HANDED_OVER or COMPLETED".to_owned(),
            ),
            _ => (json!([next]), format!("the next step is {next}")),
        };
        assert_eq!(d.crew_moves(crew, &b).await, shown);
        for step in order.iter().filter(|s| *s != next) {
            let (code, body) = d.crew_step(crew, &b, step).await;
            assert_refused(code, &body, &why);
        }
        assert_eq!(
            d.booking(&b).await,
            before,
            "nothing was written before {next}"
        );
        let (code, _) = d.crew_step(crew, &b, next).await;
        assert_eq!(code, StatusCode::OK, "{i}");
    }
    // After COMPLETED every step is refused: the booking is final.
    for step in &order {
        let (code, body) = d.crew_step(crew, &b, step).await;
        assert_refused(code, &body, "COMPLETED is final");
    }
    // Unknown and dispatcher-only stages are 400 naming `stage`.
    for stage in ["DISPATCHED", "FLYING", ""] {
        let res =
            d.f.app
                .crew_step(
                    Some(&crew.token),
                    json!({"bookingId": b["id"], "stage": stage}),
                )
                .await;
        res.assert_field(StatusCode::BAD_REQUEST, "stage");
    }
    d.assert_consistent().await;
}

#[tokio::test]
async fn the_admin_dropdown_dispatches_and_ends_bookings_consistently_with_the_stages() {
    let d = Dispatch::new(0).await;
    let crew_amb = d.f.add_ambulance("ADM-CREW", "AVAILABLE").await;
    let crew = d.f.app.crew("admincrew", id_of(&crew_amb)).await;

    // ACTIVE from PENDING dispatches; the crew takes it from DISPATCHED.
    let b = d.book(&crew_amb).await;
    let (code, moved) = d.admin_status(&b, "ACTIVE").await;
    assert_eq!(code, StatusCode::OK);
    assert_eq!(
        (moved["bookingStatus"].clone(), moved["tripStage"].clone()),
        (json!("ACTIVE"), json!("DISPATCHED"))
    );
    assert_eq!(stages(&moved), ["PENDING", "ACTIVE", "DISPATCHED"]);
    let (code, moved) = d.crew_step(&crew, &b, "EN_ROUTE").await;
    assert_eq!(code, StatusCode::OK, "{moved:?}");
    assert_eq!(
        stages(&moved),
        ["PENDING", "ACTIVE", "DISPATCHED", "EN_ROUTE"]
    );
    let (code, done) = d.admin_status(&b, "COMPLETED").await;
    assert_eq!(code, StatusCode::OK);
    assert_eq!(
        done["tripStage"], "EN_ROUTE",
        "the last stage reached stays"
    );
    assert_eq!(d.ambulance(&crew_amb).await["status"], "AVAILABLE");

    // Every (status, stage) the admin can meet × every dropdown value.
    use BookingStatus::*;
    let mut places: Vec<(&str, Vec<String>)> = vec![
        ("PENDING", vec![]),
        ("DISPATCHED", vec!["admin:ACTIVE".into()]),
    ];
    // Every stage the crew reaches, each by the domain's path to it.
    places.extend(
        TripStage::ALL
            .iter()
            .skip(1)
            .map(|s| (s.as_ref(), steps_to(*s))),
    );
    places.extend([
        ("COMPLETED", vec!["admin:COMPLETED".into()]),
        ("CANCELLED", vec!["admin:CANCELLED".into()]),
        ("CREW_COMPLETED", steps_then_completed()),
    ]);
    for (place, setup) in places {
        for to in [Pending, Active, Completed, Cancelled] {
            let amb =
                d.f.add_ambulance(&format!("A-{place}-{to}"), "AVAILABLE")
                    .await;
            let c =
                d.f.app
                    .crew(
                        &format!("c-{place}-{to}").to_lowercase().replace('_', "-"),
                        id_of(&amb),
                    )
                    .await;
            // A requester each: many of these bookings stay open.
            let requester =
                d.f.app
                    .user(&format!("r-{place}-{to}").to_lowercase().replace('_', "-"))
                    .await;
            let b = d.book_as(&requester, &amb).await;
            for step in &setup {
                let code = match step.strip_prefix("admin:") {
                    Some(status) => d.admin_status(&b, status).await.0,
                    None => d.crew_step(&c, &b, step).await.0,
                };
                assert_eq!(code, StatusCode::OK, "{place}: {step}");
            }
            let before = d.booking(&b).await;
            let moves = d.admin_moves(&b).await;
            let (code, body) = d.admin_status(&b, to.as_ref()).await;
            let open = matches!(before["bookingStatus"].as_str(), Some("PENDING" | "ACTIVE"));
            let allowed = match to {
                Pending => false,
                Active => place == "PENDING",
                Completed | Cancelled => open,
            };
            // The dropdown offers exactly what the route accepts.
            let offered = moves.as_array().unwrap().contains(&json!(to.as_ref()));
            assert_eq!(offered, allowed, "{place} -> {to}: {moves}");
            if allowed {
                assert_eq!(code, StatusCode::OK, "{place} -> {to}: {body:?}");
                assert_eq!(body["bookingStatus"], to.as_ref());
                assert_eq!(body["moves"], d.admin_moves(&b).await, "{place} -> {to}");
                let ambulance_now = d.ambulance(&amb).await["status"].clone();
                let want = if to.is_final() {
                    "AVAILABLE"
                } else {
                    "ON_DUTY"
                };
                assert_eq!(ambulance_now, want, "{place} -> {to}");
                if to.is_final() {
                    assert_eq!(body["tripStage"], before["tripStage"], "{place} -> {to}");
                }
            } else {
                assert_refused(code, &body, &format!(" to {to}"));
                assert_eq!(d.booking(&b).await, before, "{place} -> {to} wrote nothing");
            }
        }
    }
    d.assert_consistent().await;
}

#[tokio::test]
async fn the_requester_cancels_until_the_ambulance_is_at_the_pickup() {
    let d = Dispatch::new(0).await;
    // Before the crew answers, then at every stage the crew reaches: allowed exactly
    // while the domain's one before-pickup rule says so (its own tests pin which
    // stages those are; this holds the routes to it).
    let mut setups: Vec<(Vec<String>, bool)> =
        vec![(vec![], true), (vec!["admin:ACTIVE".into()], true)];
    setups.extend(
        TripStage::ALL
            .iter()
            .skip(1)
            .map(|s| (steps_to(*s), s.before_pickup())),
    );
    assert!(
        setups.iter().any(|(_, allowed)| !allowed),
        "some stage refuses"
    );
    for (i, (setup, allowed)) in setups.iter().enumerate() {
        let amb = d.f.add_ambulance(&format!("Q-{i}"), "AVAILABLE").await;
        let crew = d.f.app.crew(&format!("qcrew{i}"), id_of(&amb)).await;
        let b = d.book(&amb).await;
        for step in setup {
            let code = match step.strip_prefix("admin:") {
                Some(status) => d.admin_status(&b, status).await.0,
                None => d.crew_step(&crew, &b, step).await.0,
            };
            assert_eq!(code, StatusCode::OK);
        }
        let before = d.booking(&b).await;
        // The Cancel button shows iff the route then cancels.
        let moves = d.requester_moves(&d.user, &b).await;
        let want = if *allowed {
            json!(["CANCELLED"])
        } else {
            json!([])
        };
        assert_eq!(moves, want, "{setup:?}");
        let (code, body) = d.cancel(&d.user, &b).await;
        if *allowed {
            assert_eq!(code, StatusCode::OK, "{setup:?}: {body:?}");
            assert_eq!(body["bookingStatus"], "CANCELLED");
            assert_eq!(body["moves"], json!([]), "nothing more once final");
            assert_eq!(d.ambulance(&amb).await["status"], "AVAILABLE");
        } else {
            assert_refused(code, &body, "call the crew");
            assert_eq!(d.booking(&b).await, before);
            // An admin still may, and is shown so on the same route.
            assert_eq!(before["moves"], json!(["CANCELLED"]));
            let res = d.f.app.cancel_booking(d.f.admin_token(), &b["id"]).await;
            res.assert_status(StatusCode::OK);
        }
    }
    d.assert_consistent().await;
}

#[tokio::test]
async fn a_crew_moves_only_its_own_ambulances_booking() {
    let d = Dispatch::new(2).await;
    let b = d.book(&d.f.ambulances[0]).await;
    let other_crew = &d.crews[1];
    let (code, body) = d.crew_step(other_crew, &b, "EN_ROUTE").await;
    assert_eq!(code, StatusCode::FORBIDDEN, "{body:?}");
    let res =
        d.f.app
            .get(
                &format!("/api/booking/{}/track", b["id"]),
                Some(&other_crew.token),
            )
            .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    assert_eq!(
        stages(&d.booking(&b).await),
        ["PENDING"],
        "nothing was written"
    );
    // Moved to the booking's ambulance by an admin, it may at once.
    let res = d.f.move_crew(other_crew.id, &d.f.ambulances[0]["id"]).await;
    assert_eq!(res.status, StatusCode::OK);
    assert_eq!(
        d.crew_step(other_crew, &b, "EN_ROUTE").await.0,
        StatusCode::OK
    );
    // Unknown booking: 404. Users and admins: 403 on every crew route.
    let (code, _) = d
        .crew_step(other_crew, &json!({"id": 999_999}), "EN_ROUTE")
        .await;
    assert_eq!(code, StatusCode::NOT_FOUND);
    for token in [&d.user.token, &d.f.admin.token] {
        for (m, uri, body) in [
            (Method::GET, "/api/crew/me", None),
            (
                Method::PATCH,
                "/api/crew/job/stage",
                Some(json!({"bookingId": b["id"], "stage": "AT_PICKUP"})),
            ),
            (
                Method::PUT,
                "/api/crew/location",
                Some(json!({"latitude": 1, "longitude": 1, "recordedAt": "2026-01-01T00:00:00Z"})),
            ),
            (
                Method::PATCH,
                "/api/crew/status",
                Some(json!({"status": "MAINTENANCE"})),
            ),
        ] {
            let res = d.f.app.call(m.clone(), uri, Some(token), body).await;
            assert_eq!(res.status, StatusCode::FORBIDDEN, "{m} {uri}");
        }
    }
    // A removed crew's token stops at once.
    let res = d.f.remove_crew(d.crews[0].id).await;
    assert_eq!(res.status, StatusCode::NO_CONTENT);
    let res = d.f.app.get("/api/crew/me", Some(&d.crews[0].token)).await;
    res.assert_status(StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn two_crew_tapping_the_same_step_at_once_make_one_move() {
    let d = Dispatch::new(1).await;
    let amb = &d.f.ambulances[0];
    let second = d.f.app.crew("second", id_of(amb)).await;
    let b = d.book(amb).await;
    let steps = steps_then_completed();
    for step in &steps {
        let taps = join_all([
            d.crew_step(&d.crews[0], &b, step),
            d.crew_step(&second, &b, step),
            d.crew_step(&d.crews[0], &b, step),
        ])
        .await;
        let codes: Vec<StatusCode> = taps.iter().map(|(c, _)| *c).collect();
        assert_eq!(
            codes.iter().filter(|c| **c == StatusCode::OK).count(),
            1,
            "{step}: {taps:?}"
        );
        assert_eq!(
            codes.iter().filter(|c| **c == StatusCode::CONFLICT).count(),
            2,
            "{step}: {codes:?}"
        );
    }
    let done = d.booking(&b).await;
    let mut want = vec!["PENDING".to_owned(), "ACTIVE".to_owned()];
    want.extend(steps);
    assert_eq!(stages(&done), want, "each stage once");
    d.assert_consistent().await;
}

#[tokio::test]
async fn completing_and_cancelling_race_and_exactly_one_frees_the_ambulance() {
    let d = Dispatch::new(1).await;
    let (amb, crew) = (&d.f.ambulances[0], &d.crews[0]);
    for round in 0..4 {
        let b = d.book(amb).await;
        for step in steps_to(TripStage::AtHospital) {
            assert_eq!(d.crew_step(crew, &b, &step).await.0, StatusCode::OK);
        }
        let (done, cancelled) = tokio::join!(
            d.crew_step(crew, &b, "COMPLETED"),
            d.admin_status(&b, "CANCELLED")
        );
        let oks = [done.0, cancelled.0]
            .iter()
            .filter(|c| **c == StatusCode::OK)
            .count();
        assert_eq!(oks, 1, "round {round}: {done:?} {cancelled:?}");
        assert_eq!(d.ambulance(amb).await["status"], "AVAILABLE");
        d.assert_consistent().await;
    }
}

#[tokio::test]
async fn pickups_default_to_the_profile_and_are_checked() {
    let d = Dispatch::new(3).await;
    let mut body = d.book_body(&d.f.ambulances[0]);
    body.as_object_mut().unwrap().remove("pickup");
    let res = d.f.app.book(Some(&d.user.token), body).await;
    res.assert_status(StatusCode::CREATED);
    assert_eq!(
        res.body["pickup"],
        json!({"latitude": 30.67, "longitude": 74.33})
    );

    // A user without a location (an admin booking for itself) must give one.
    let mut body = d.book_body(&d.f.ambulances[1]);
    body.as_object_mut().unwrap().remove("pickup");
    let res = d.f.app.book(d.f.admin_token(), body.clone()).await;
    res.assert_field(StatusCode::BAD_REQUEST, "pickup");
    body["pickup"] = Value::Null;
    let res = d.f.app.book(d.f.admin_token(), body).await;
    res.assert_field(StatusCode::BAD_REQUEST, "pickup");
    for (pickup, field) in [
        (json!({"latitude": 95, "longitude": 74}), "pickup.latitude"),
        (
            json!({"latitude": 30, "longitude": "x"}),
            "pickup.longitude",
        ),
        (json!({"longitude": 74}), "pickup.latitude"),
        (
            json!({"latitude": 30, "longitude": 74, "landmark": "l".repeat(201)}),
            "pickup.landmark",
        ),
        (
            json!({"latitude": 30, "longitude": 74, "floor": 2}),
            "pickup.floor",
        ),
        (json!("30,74"), "pickup"),
    ] {
        let mut body = d.book_body(&d.f.ambulances[1]);
        body["pickup"] = pickup.clone();
        let res = d.f.app.book(Some(&d.user.token), body).await;
        res.assert_field(StatusCode::BAD_REQUEST, field);
    }
    // 200 characters after trimming is fine; blank is none.
    let mut body = d.book_body(&d.f.ambulances[1]);
    body["pickup"]["landmark"] = json!(format!("  {}  ", "l".repeat(200)));
    let res = d.f.app.book(Some(&d.user.token), body).await;
    res.assert_status(StatusCode::CREATED);
    assert_eq!(res.body["pickup"]["landmark"].as_str().unwrap().len(), 200);
    let mut body = d.book_body(&d.f.ambulances[2]);
    body["pickup"]["landmark"] = json!("   ");
    let res = d.f.app.book(Some(&d.user.token), body).await;
    assert_eq!(res.status, StatusCode::CREATED);
    assert!(
        res.body["pickup"].get("landmark").is_none(),
        "{:?}",
        res.body
    );
    d.assert_consistent().await;
}

#[tokio::test]
async fn bookings_made_before_dispatch_read_track_and_move_once_migrated() {
    let d = Dispatch::new(1).await;
    let amb = &d.f.ambulances[0];
    // A booking as stored before pickups and stages: book, then strip the new
    // attributes off the item (what an old item looks like), ACTIVE by an admin.
    let b = d.book(amb).await;
    assert_eq!(d.admin_status(&b, "ACTIVE").await.0, StatusCode::OK);
    let store = &d.f.app.state.store;
    testkit::raw_update(
        store,
        &store::keys::booking(crate::crew::id_of(&b)),
        "REMOVE pickup, tripStage, timeline, userPhone, openpk, opensk, \
         destinationHospitalId, destinationHospitalName, destpk, destsk",
        vec![],
    )
    .await;
    // `manage migrate` brings it up to date (once: a second run changes nothing).
    let migrated = store.migrations().migrate().await.unwrap();
    assert_eq!(migrated.bookings, 1, "{migrated:?}");
    assert_eq!(migrated.destinations, 1, "{migrated:?}");
    let again = store.migrations().migrate().await.unwrap();
    assert_eq!((again.bookings, again.destinations), (0, 0));
    let old = d.booking(&b).await;
    // Its destination is its ambulance's hospital, and it is on that one's board.
    assert_eq!(old["destinationHospitalId"], d.f.hospital["id"]);
    assert_eq!(old["destinationHospitalName"], d.f.hospital["name"]);
    let staff =
        d.f.app
            .hospital_staff("er-old", crate::crew::id_of(&d.f.hospital))
            .await;
    let board =
        d.f.app
            .get("/api/hospital/incoming", Some(&staff.token))
            .await;
    assert_eq!(board.body["trips"][0]["bookingId"], b["id"]);
    assert_eq!(
        (old["pickup"].clone(), old["userPhone"].clone()),
        (Value::Null, Value::Null)
    );
    assert_eq!(
        old["tripStage"], "DISPATCHED",
        "an old ACTIVE booking reads as dispatched"
    );
    assert_eq!(stages(&old), ["PENDING"]);
    let hist =
        d.f.app
            .get("/api/booking/history", Some(&d.user.token))
            .await;
    assert_eq!(hist.body[0]["timeline"], old["timeline"]);
    let track =
        d.f.app
            .get(
                &format!("/api/booking/{}/track", b["id"]),
                Some(&d.user.token),
            )
            .await;
    track.assert_status(StatusCode::OK);
    assert_eq!(
        (
            track.body["pickup"].clone(),
            track.body["etaMinutes"].clone()
        ),
        (Value::Null, Value::Null)
    );
    // The crew accepts it like any dispatched booking; the timeline goes on from it.
    let (code, moved) = d.crew_step(&d.crews[0], &b, "EN_ROUTE").await;
    assert_eq!(code, StatusCode::OK, "{moved:?}");
    assert_eq!(stages(&moved), ["PENDING", "EN_ROUTE"]);
    assert_eq!(d.stored(&b).await, without_moves(moved));
}

/// A job given before stages and answer deadlines (no `tripStage`, no `answerBy`):
/// `manage migrate` gives it a null stage and a deadline from now, on the clock's
/// agenda (once: a second run changes nothing); its crew then accepts it as any job.
#[tokio::test]
async fn a_waiting_job_from_before_deadlines_gets_its_stage_and_deadline_once_migrated() {
    let d = Dispatch::new(1).await;
    let b = d.book(&d.f.ambulances[0]).await;
    let store = &d.f.app.state.store;
    let key = store::keys::booking(crate::crew::id_of(&b));
    testkit::raw_update(
        store,
        &key,
        "REMOVE tripStage, answerBy, duepk, duesk",
        vec![],
    )
    .await;
    let before = time::OffsetDateTime::now_utc();
    let migrated = store.migrations().migrate().await.unwrap();
    assert_eq!(
        (migrated.bookings, migrated.answer_deadlines),
        (1, 1),
        "{migrated:?}"
    );
    let again = store.migrations().migrate().await.unwrap();
    assert_eq!((again.bookings, again.answer_deadlines), (0, 0));
    let item = store
        .client()
        .get_item()
        .table_name(store.table())
        .set_key(Some(key.item()))
        .send()
        .await
        .unwrap()
        .item
        .unwrap();
    assert!(item["tripStage"].is_null(), "{:?}", item.get("tripStage"));
    assert_eq!(item["duepk"].as_s().unwrap(), store::keys::DUE);
    let read = d.booking(&b).await;
    let answer_by = time::OffsetDateTime::parse(
        read["answerBy"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap();
    assert!(answer_by > before, "{answer_by} is after the migration");
    let (code, moved) = d.crew_step(&d.crews[0], &b, "EN_ROUTE").await;
    assert_eq!(code, StatusCode::OK, "{moved:?}");
    assert_eq!(moved["tripStage"], "EN_ROUTE");
    d.assert_consistent().await;
}

#[tokio::test]
async fn the_crew_sets_its_ambulance_out_of_service_only_while_it_holds_no_booking() {
    let d = Dispatch::new(1).await;
    let (amb, crew) = (&d.f.ambulances[0], &d.crews[0]);
    let set = async |status: &str| {
        d.f.app
            .call(
                Method::PATCH,
                "/api/crew/status",
                Some(&crew.token),
                Some(json!({ "status": status })),
            )
            .await
    };
    let res = set("MAINTENANCE").await;
    res.assert_status(StatusCode::OK);
    assert_eq!(res.body["status"], "MAINTENANCE");
    d.assert_consistent().await;
    let res = set("AVAILABLE").await;
    assert_eq!(res.body["status"], "AVAILABLE");
    d.assert_consistent().await;
    // ON_DUTY comes only with a booking.
    let res = set("ON_DUTY").await;
    res.assert_field(StatusCode::BAD_REQUEST, "status");
    // Holding a booking: 409, nothing written.
    let b = d.book(amb).await;
    for status in ["MAINTENANCE", "AVAILABLE"] {
        let res = set(status).await;
        assert_eq!(res.status, StatusCode::CONFLICT, "{status}: {:?}", res.body);
        assert_eq!(d.ambulance(amb).await["status"], "ON_DUTY");
    }
    assert_eq!(d.booking(&b).await["bookingStatus"], "PENDING");
    d.assert_consistent().await;
}
