//! No dispatch waits unanswered (decision 0012), through the routers and the clock's
//! own sweep against DynamoDB Local: an emergency nobody accepts moves to the next
//! nearest free ambulance, at most three times, then the dispatcher is alerted; a
//! normal booking alerts without a move; every race (a late accept, a cancel, twenty
//! sweeps at once, a dispatcher's reassign) has exactly one winner; alerts are
//! listed, acknowledged and close by themselves. Time passes by moving the store's
//! clock: no test waits a minute.

use futures::future::join_all;
use http::{Method, StatusCode};
use serde_json::{Value, json};
use store::deadlines::SweepReport;
use testkit::{TestResponse, TestUser};

use crate::{
    crew::id_of,
    emergency::{World, north, pickup_body},
    helpers::stages,
};

/// A minute and a second: past an emergency's answer deadline.
pub(crate) const PAST_EMERGENCY: time::Duration = time::Duration::seconds(61);
/// Past a normal booking's.
const PAST_NORMAL: time::Duration = time::Duration::seconds(301);

impl World {
    /// One sweep of the clock, as the clock function runs it.
    pub(crate) async fn sweep(&self) -> SweepReport {
        self.app
            .run_as("clock", clock::sweep(&self.app.state.store))
            .await
            .unwrap()
    }

    pub(crate) fn later(&self, by: time::Duration) {
        self.app.state.store.advance_clock(by);
    }

    async fn booking(&self, booking: &Value) -> Value {
        let res = self
            .app
            .get(
                &format!("/api/booking/{}", booking["id"]),
                Some(&self.admin.token),
            )
            .await;
        res.assert_status(StatusCode::OK);
        res.body
    }

    /// A normal booking of `ambulance` (an entry of an ambulance list) by `user`,
    /// for a patient named `patient`: 201.
    async fn book_normal(&self, user: &TestUser, ambulance: &Value, patient: &str) -> Value {
        let res = self
            .app
            .book(
                Some(&user.token),
                json!({"hospitalId": ambulance["hospitalId"], "ambulanceId": ambulance["id"],
                       "patient": {"name": patient, "age": 40, "gender": "Male", "condition": "checkup"}}),
            )
            .await;
        res.assert_status(StatusCode::CREATED);
        res.body
    }

    async fn listed(&self, ambulance: &Value) -> Value {
        crate::helpers::listed_ambulance(&self.app, Some(&self.admin.token), ambulance).await
    }

    async fn alerts(&self) -> Vec<Value> {
        let res = self
            .app
            .get("/api/admin/alerts", Some(&self.admin.token))
            .await;
        res.assert_status(StatusCode::OK);
        assert!(res.body.get("cursor").is_none(), "one page: {:?}", res.body);
        res.body["items"].as_array().unwrap().clone()
    }

    async fn open_alerts(&self) -> Vec<Value> {
        self.alerts()
            .await
            .into_iter()
            .filter(|a| a.get("acknowledgedAt").is_none() && a.get("closedAt").is_none())
            .collect()
    }

    pub(crate) async fn accept(&self, crew: &TestUser, booking: &Value) -> TestResponse {
        self.app
            .crew_step(
                Some(&crew.token),
                json!({"bookingId": booking["id"], "stage": "EN_ROUTE"}),
            )
            .await
    }

    async fn reassign(&self, booking: &Value, ambulance: &Value) -> TestResponse {
        self.app
            .call(
                Method::PATCH,
                &format!("/api/admin/bookings/{}/ambulance", booking["id"]),
                Some(&self.admin.token),
                Some(json!({"ambulanceId": ambulance["id"]})),
            )
            .await
    }

    /// An emergency from a new user at the pickup.
    pub(crate) async fn sos(&self, who: &str) -> (TestUser, Value) {
        let user = self.app.user(who).await;
        let res = self.emergency(&user, &pickup_body(), None).await;
        res.assert_status(StatusCode::CREATED);
        (user, res.body)
    }
}

/// A world with free ambulances `numbers` at hospitals 1, 2, 3... km north of the
/// pickup (the first nearest), each with a crew whose app is open (a heartbeat now:
/// ONLINE for 2 minutes, so no job given to them raises CALL_STATION; decision 0020).
pub(crate) async fn fleet(numbers: &[&str]) -> (World, Vec<Value>, Vec<TestUser>) {
    fleet_over(testkit::fresh_state().await, numbers).await
}

/// [`fleet`] over `state` (e.g. a table with its stream: `testkit::streamed_state`).
pub(crate) async fn fleet_over(
    state: web::AppState,
    numbers: &[&str],
) -> (World, Vec<Value>, Vec<TestUser>) {
    let w = World::over(state).await;
    let mut ambulances = vec![];
    let mut crews = vec![];
    for (i, number) in numbers.iter().enumerate() {
        let h = w.hospital(&format!("H{i}"), north(1.0 + i as f64)).await;
        let a = w.ambulance(&h, number, "BLS").await;
        let crew = w.app.crew(&format!("crew{}", i + 1), id_of(&a)).await;
        w.heartbeat(&crew).await;
        crews.push(crew);
        ambulances.push(a);
    }
    (w, ambulances, crews)
}

#[tokio::test]
async fn an_unanswered_emergency_moves_to_the_next_nearest_free_ambulance() {
    let (w, ambs, crews) = fleet(&["AMB-01", "AMB-02"]).await;
    let (_, booking) = w.sos("caller").await;
    assert_eq!(booking["ambulance"]["number"], "AMB-01");
    let answer_by = booking["answerBy"].as_str().expect("an answer deadline");
    assert!(answer_by > booking["bookingTime"].as_str().unwrap());

    // Before the deadline the clock leaves it be.
    assert_eq!(w.sweep().await.moved, 0);
    w.later(PAST_EMERGENCY);
    let report = w.sweep().await;
    assert_eq!((report.due, report.moved), (1, 1), "{report:?}");

    let moved = w.booking(&booking).await;
    assert_eq!(moved["ambulance"]["number"], "AMB-02");
    assert_eq!(moved["ambulanceId"], ambs[1]["id"]);
    assert_eq!(moved["bookingStatus"], "ACTIVE");
    assert_eq!(moved["tripStage"], "DISPATCHED");
    assert!(moved["answerBy"].as_str().unwrap() > answer_by);
    let last = last_entry(&moved);
    assert_eq!(
        (&last["stage"], &last["fromAmbulance"], &last["reason"]),
        (&json!("REASSIGNED"), &json!("AMB-01"), &json!("NO_ANSWER"))
    );
    // The first ambulance left the free pool, marked; the second holds the job.
    let first = w.listed(&ambs[0]).await;
    assert_eq!(first["status"], "ON_DUTY");
    assert!(first["notResponding"].is_string(), "{first}");
    assert_eq!(w.listed(&ambs[1]).await["status"], "ON_DUTY");
    // The dispatcher's map shows the mark too.
    let live = w.app.get("/api/admin/live", Some(&w.admin.token)).await;
    live.assert_status(StatusCode::OK);
    let shown = live.body["ambulances"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["id"] == ambs[0]["id"])
        .expect("on the live map")
        .clone();
    assert_eq!(shown["notResponding"], first["notResponding"]);
    // The first ambulance's alert, and the emergency's own a minute after it was
    // sent, with the move so far and where the job is now (decision 0020).
    let open = w.open_alerts().await;
    let kinds: Vec<&str> = open.iter().map(|a| a["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["UNANSWERED", "NOT_RESPONDING"], "{open:?}");
    assert_eq!(open[1]["ambulanceNumber"], "AMB-01");
    assert_eq!(
        (
            &open[0]["bookingId"],
            &open[0]["moves"],
            &open[0]["ambulanceNumber"]
        ),
        (&booking["id"], &json!(1), &json!("AMB-02"))
    );

    // The first crew's late tap loses; its screen shows no job and the mark.
    w.accept(&crews[0], &booking).await.assert_message(
        StatusCode::CONFLICT,
        &format!("Booking {} was given to another ambulance", booking["id"]),
    );
    let me = w.app.get("/api/crew/me", Some(&crews[0].token)).await;
    assert!(me.body["job"].is_null());
    assert!(me.body["ambulance"]["notResponding"].is_string());
    // The second crew accepts: the deadline is gone.
    let accepted = w.accept(&crews[1], &booking).await;
    accepted.assert_status(StatusCode::OK);
    assert!(accepted.body["answerBy"].is_null());
    // The first crew taps Available: back in the pool, and its alert closes.
    let back = w
        .app
        .call(
            Method::PATCH,
            "/api/crew/status",
            Some(&crews[0].token),
            Some(json!({"status": "AVAILABLE"})),
        )
        .await;
    back.assert_status(StatusCode::OK);
    assert!(back.body["notResponding"].is_null());
    assert_eq!(w.sweep().await.alerts_closed, 2);
    assert!(w.open_alerts().await.is_empty());
    w.assert_consistent().await;
}

#[tokio::test]
async fn three_moves_then_the_dispatcher_is_alerted() {
    let (w, ambs, _) = fleet(&["AMB-01", "AMB-02", "AMB-03", "AMB-04", "AMB-05"]).await;
    let (_, booking) = w.sos("caller").await;
    for _ in 0..3 {
        w.later(PAST_EMERGENCY);
        assert_eq!(w.sweep().await.moved, 1);
    }
    w.later(PAST_EMERGENCY);
    let report = w.sweep().await;
    assert_eq!((report.moved, report.alerted), (0, 1), "{report:?}");
    let now = w.booking(&booking).await;
    assert_eq!(now["ambulance"]["number"], "AMB-04", "three moves, no more");
    assert_eq!(
        stages(&now).iter().filter(|s| *s == "REASSIGNED").count(),
        3
    );
    // AMB-05 is still free: the rule, not a lack of ambulances, stopped it.
    assert_eq!(w.listed(&ambs[4]).await["status"], "AVAILABLE");
    let unanswered: Vec<Value> = w
        .open_alerts()
        .await
        .into_iter()
        .filter(|a| a["kind"] == "UNANSWERED")
        .collect();
    // One alert: raised a minute after the emergency, still open, now with every
    // move and where the job stays.
    assert_eq!(unanswered.len(), 1);
    assert_eq!(unanswered[0]["bookingId"], booking["id"]);
    assert_eq!(unanswered[0]["ambulanceNumber"], "AMB-04");
    assert_eq!(unanswered[0]["moves"], 3);
    assert_eq!(unanswered[0]["pickup"]["latitude"], json!(30.70));
    // Off the clock: later sweeps do nothing more.
    w.later(PAST_EMERGENCY);
    assert_eq!(w.sweep().await.due, 0);
    w.assert_consistent().await;
}

#[tokio::test]
async fn with_nobody_free_the_emergency_stays_and_an_alert_is_raised() {
    let (w, _, crews) = fleet(&["AMB-01"]).await;
    let (_, booking) = w.sos("caller").await;
    w.later(PAST_EMERGENCY);
    let report = w.sweep().await;
    assert_eq!((report.moved, report.alerted), (0, 1), "{report:?}");
    assert_eq!(w.booking(&booking).await["ambulance"]["number"], "AMB-01");
    // Its crew answers late after all: accepted, and the alert closes by itself.
    w.accept(&crews[0], &booking)
        .await
        .assert_status(StatusCode::OK);
    assert_eq!(w.sweep().await.alerts_closed, 1);
    let ended = w.alerts().await;
    assert!(ended[0]["closedAt"].is_string(), "{ended:?}");
}

#[tokio::test]
async fn a_normal_booking_alerts_without_a_move() {
    let (w, ambs, _) = fleet(&["AMB-01", "AMB-02"]).await;
    let user = w.app.user("planner").await;
    let mut listed = ambs[0].clone();
    listed["hospitalId"] = ambs[0]["hospital"]["id"].clone();
    let booking = w.book_normal(&user, &listed, "P").await;
    w.later(PAST_EMERGENCY);
    assert_eq!(w.sweep().await.due, 0, "five minutes for a normal booking");
    w.later(PAST_NORMAL);
    let report = w.sweep().await;
    assert_eq!((report.moved, report.alerted), (0, 1), "{report:?}");
    assert_eq!(w.booking(&booking).await["ambulanceId"], ambs[0]["id"]);
    assert_eq!(w.listed(&ambs[1]).await["status"], "AVAILABLE");
    // A dispatcher cancels it: the cause is gone, the alert closes.
    w.app
        .patch(
            &format!(
                "/api/admin/bookings/status?bookingId={}&status=CANCELLED",
                booking["id"]
            ),
            Some(&w.admin.token),
        )
        .await
        .assert_status(StatusCode::OK);
    assert_eq!(w.sweep().await.alerts_closed, 1);
}

#[tokio::test]
async fn twenty_sweeps_at_once_move_a_job_once() {
    let (w, _, _) = fleet(&["AMB-01", "AMB-02", "AMB-03"]).await;
    let (_, booking) = w.sos("caller").await;
    w.later(PAST_EMERGENCY);
    let reports = join_all((0..20).map(|_| w.sweep())).await;
    let moved: usize = reports.iter().map(|r| r.moved).sum();
    assert_eq!(moved, 1, "{reports:?}");
    let now = w.booking(&booking).await;
    assert_eq!(
        stages(&now).iter().filter(|s| *s == "REASSIGNED").count(),
        1
    );
    assert_eq!(now["ambulance"]["number"], "AMB-02");
    w.assert_consistent().await;
}

/// `a` and `b` by `round`: `a` first, then `b` first, then (round 2 on) both at once.
async fn race<A, B>(round: usize, a: impl AsyncFn() -> A, b: impl AsyncFn() -> B) -> (A, B) {
    match round {
        0 => {
            let x = a().await;
            (x, b().await)
        }
        1 => {
            let y = b().await;
            (a().await, y)
        }
        _ => tokio::join!(a(), b()),
    }
}

/// The newest entry of a booking's timeline.
fn last_entry(booking: &Value) -> Value {
    let timeline = booking["timeline"].as_array().expect("a timeline");
    timeline.last().expect("an entry").clone()
}

/// Two free ambulances, an emergency given to the first, and its answer deadline
/// passed: what a race with the clock starts from.
async fn overdue_sos() -> (World, Vec<Value>, Vec<TestUser>, TestUser, Value) {
    let (w, ambs, crews) = fleet(&["AMB-01", "AMB-02"]).await;
    let (user, booking) = w.sos("caller").await;
    w.later(PAST_EMERGENCY);
    (w, ambs, crews, user, booking)
}

/// A late accept and the clock at once, many times: exactly one wins each time,
/// and the ambulances agree with whoever did.
#[tokio::test]
async fn a_late_accept_and_the_clock_racing_have_one_winner() {
    for round in 0..4 {
        let (w, ambs, crews, _, booking) = overdue_sos().await;
        let (accept, report) = race(
            round,
            async || w.accept(&crews[0], &booking).await,
            async || w.sweep().await,
        )
        .await;
        let now = w.booking(&booking).await;
        if accept.status == StatusCode::OK {
            assert_eq!(report.moved, 0, "round {round}: {report:?}");
            assert_eq!(now["tripStage"], "EN_ROUTE");
            assert_eq!(now["ambulanceId"], ambs[0]["id"]);
            assert_eq!(w.listed(&ambs[1]).await["status"], "AVAILABLE");
        } else {
            accept.assert_status(StatusCode::CONFLICT);
            assert_eq!(report.moved, 1, "round {round}: {report:?}");
            assert_eq!(now["tripStage"], "DISPATCHED");
            assert_eq!(now["ambulanceId"], ambs[1]["id"]);
        }
        w.assert_consistent().await;
    }
}

#[tokio::test]
async fn a_cancel_and_the_clock_racing_have_one_winner() {
    for round in 0..3 {
        let (w, ambs, _, user, booking) = overdue_sos().await;
        let (cancel, report) = race(
            round,
            async || w.cancel(&user, &booking).await,
            async || w.sweep().await,
        )
        .await;
        // A cancel always wins in the end (it retries on a race); the clock moved
        // the job at most once before it.
        cancel.assert_status(StatusCode::OK);
        assert!(report.moved <= 1, "{report:?}");
        let now = w.booking(&booking).await;
        assert_eq!(now["bookingStatus"], "CANCELLED");
        assert!(now["answerBy"].is_null());
        // Whoever held it last is free again; the one that missed it is not held.
        for a in &ambs {
            assert_ne!(w.listed(a).await["status"], "MAINTENANCE");
        }
        w.later(PAST_EMERGENCY);
        assert_eq!(w.sweep().await.due, 0, "round {round}: off the clock");
        w.assert_consistent().await;
    }
}

#[tokio::test]
async fn a_dispatcher_reassigns_and_conflicts_write_nothing() {
    let (w, ambs, crews) = fleet(&["AMB-01", "AMB-02", "AMB-03"]).await;
    let (_, booking) = w.sos("caller").await;
    // To an ambulance that is not free: 409, nothing written.
    let before = w.booking(&booking).await;
    w.reassign(&booking, &ambs[0]).await.assert_message(
        StatusCode::CONFLICT,
        &format!("Booking {} already has ambulance AMB-01", booking["id"]),
    );
    w.app
        .patch(
            &format!(
                "/api/admin/ambulance/status?ambulanceId={}&status=MAINTENANCE",
                ambs[2]["id"]
            ),
            Some(&w.admin.token),
        )
        .await
        .assert_status(StatusCode::OK);
    w.reassign(&booking, &ambs[2]).await.assert_message(
        StatusCode::CONFLICT,
        "Ambulance AMB-03 is MAINTENANCE: only an AVAILABLE ambulance can take a job",
    );
    assert_eq!(w.booking(&booking).await, before);

    // A breakdown: the dispatcher moves the job; the old ambulance is free again.
    let res = w.reassign(&booking, &ambs[1]).await;
    res.assert_status(StatusCode::OK);
    assert_eq!(res.body["ambulance"]["number"], "AMB-02");
    assert!(res.body["answerBy"].is_string());
    let last = last_entry(&res.body);
    assert_eq!(
        (&last["fromAmbulance"], &last["reason"]),
        (&json!("AMB-01"), &json!("MANUAL"))
    );
    // Answered as stored (the moves are the caller's: the admin's dropdown here).
    let mut stored = w.booking(&booking).await;
    stored["moves"] = res.body["moves"].clone();
    assert_eq!(res.body, stored, "answered as stored");
    assert_eq!(res.body["moves"], json!(["COMPLETED", "CANCELLED"]));
    assert_eq!(w.listed(&ambs[0]).await["status"], "AVAILABLE");
    assert!(w.listed(&ambs[0]).await["notResponding"].is_null());
    w.accept(&crews[1], &booking)
        .await
        .assert_status(StatusCode::OK);
    w.assert_consistent().await;

    // At the pickup it can no longer move; a final one neither.
    w.app
        .crew_step(
            Some(&crews[1].token),
            json!({"bookingId": booking["id"], "stage": "AT_PICKUP"}),
        )
        .await
        .assert_status(StatusCode::OK);
    let res = w.reassign(&booking, &ambs[0]).await;
    res.assert_status(StatusCode::CONFLICT);
    assert!(
        res.message().contains("has not reached the pickup"),
        "{}",
        res.message()
    );
    assert_eq!(w.listed(&ambs[0]).await["status"], "AVAILABLE");
    // A final one neither, and the refusal writes nothing.
    let (user, other) = w.sos("second").await;
    w.cancel(&user, &other).await.assert_status(StatusCode::OK);
    let before = w.booking(&other).await;
    let res = w.reassign(&other, &ambs[2]).await;
    res.assert_status(StatusCode::CONFLICT);
    assert!(res.message().contains("is CANCELLED"), "{}", res.message());
    assert_eq!(w.booking(&other).await, before, "nothing written");
    w.assert_consistent().await;
}

#[tokio::test]
async fn a_reassign_racing_the_clock_has_one_winner() {
    let (w, ambs, _) = fleet(&["AMB-01", "AMB-02", "AMB-03"]).await;
    let (_, booking) = w.sos("caller").await;
    w.later(PAST_EMERGENCY);
    // The dispatcher picks AMB-03 while the clock picks AMB-02.
    let (res, report) = tokio::join!(w.reassign(&booking, &ambs[2]), w.sweep());
    let now = w.booking(&booking).await;
    let reassigned = stages(&now).iter().filter(|s| *s == "REASSIGNED").count();
    match res.status {
        StatusCode::OK => {
            assert_eq!(now["ambulanceId"], ambs[2]["id"]);
            // The clock may still have moved it first; then the reassign came after.
            assert_eq!(reassigned, 1 + report.moved);
        }
        _ => {
            res.assert_status(StatusCode::CONFLICT);
            assert_eq!(report.moved, 1);
            assert_eq!(now["ambulanceId"], ambs[1]["id"]);
            assert_eq!(reassigned, 1);
        }
    }
    w.assert_consistent().await;
}

#[tokio::test]
async fn alerts_are_listed_most_urgent_first_and_acknowledged_once() {
    let (w, amb) = World::with_one_ambulance("AMB-01").await;
    // Its crew's app is open: no CALL_STATION for the first caller's job.
    let crew = w.app.crew("crew1", id_of(&amb)).await;
    w.heartbeat(&crew).await;
    // No free ambulance near the second caller: the 409 raises NO_AMBULANCE, once
    // however often they tap (each tap counted in it).
    let (_, _) = w.sos("first").await;
    let second = w.app.user("second").await;
    for _ in 0..3 {
        w.emergency(&second, &pickup_body(), None)
            .await
            .assert_status(StatusCode::CONFLICT);
    }
    w.later(PAST_EMERGENCY);
    w.sweep().await;
    let open = w.open_alerts().await;
    let kinds: Vec<&str> = open.iter().map(|a| a["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        ["UNANSWERED", "NO_AMBULANCE"],
        "most urgent first: {open:?}"
    );
    assert_eq!(open[1]["pickup"]["latitude"], json!(30.70));
    assert_eq!(open[1]["count"], 3);
    assert!(open[1].get("bookingId").is_none());

    let uri = format!("/api/admin/alerts/{}/ack", open[1]["id"]);
    let acked = w
        .app
        .call(Method::POST, &uri, Some(&w.admin.token), None)
        .await;
    acked.assert_status(StatusCode::OK);
    assert_eq!(acked.body["acknowledgedBy"], "admin");
    assert!(acked.body["acknowledgedAt"].is_string());
    // Again: nothing changes.
    let again = w
        .app
        .call(Method::POST, &uri, Some(&w.admin.token), None)
        .await;
    assert_eq!(again.body, acked.body);
    let all = w.alerts().await;
    assert_eq!(all.len(), 2);
    assert_eq!(all[0]["kind"], "UNANSWERED", "open ones first");
    assert_eq!(all[1]["id"], acked.body["id"]);

    // Unknown and malformed ids.
    w.app
        .call(
            Method::POST,
            "/api/admin/alerts/999999/ack",
            Some(&w.admin.token),
            None,
        )
        .await
        .assert_message(StatusCode::NOT_FOUND, "Alert 999999 not found");
    let res = w
        .app
        .call(
            Method::POST,
            "/api/admin/alerts/abc/ack",
            Some(&w.admin.token),
            None,
        )
        .await;
    res.assert_status(StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn bad_reassign_input_names_the_field_and_writes_nothing() {
    let (w, ambs, _) = fleet(&["AMB-01", "AMB-02"]).await;
    let (_, booking) = w.sos("caller").await;
    let before = w.booking(&booking).await;
    let uri = format!("/api/admin/bookings/{}/ambulance", booking["id"]);
    let token = Some(w.admin.token.as_str());
    for (body, field) in [
        (json!({}), "ambulanceId"),
        (json!({"ambulanceId": "x"}), "ambulanceId"),
        (json!({"ambulanceId": -1}), "ambulanceId"),
        (json!({"ambulanceId": ambs[1]["id"], "extra": 1}), "extra"),
    ] {
        let res = w
            .app
            .call(Method::PATCH, &uri, token, Some(body.clone()))
            .await;
        res.assert_status(StatusCode::BAD_REQUEST);
        assert!(res.message().contains(field), "{body}: {}", res.message());
    }
    w.app
        .call(
            Method::PATCH,
            &uri,
            token,
            Some(json!({"ambulanceId": 999999})),
        )
        .await
        .assert_status(StatusCode::NOT_FOUND);
    w.app
        .call(
            Method::PATCH,
            "/api/admin/bookings/999999/ambulance",
            token,
            Some(json!({"ambulanceId": ambs[1]["id"]})),
        )
        .await
        .assert_message(StatusCode::NOT_FOUND, "Booking 999999 not found");
    assert_eq!(w.booking(&booking).await, before);
    assert_eq!(w.listed(&ambs[1]).await["status"], "AVAILABLE");
}

#[tokio::test]
async fn one_booking_that_does_not_read_holds_up_no_other() {
    use aws_sdk_dynamodb::types::AttributeValue;
    let (w, _, _) = fleet(&["AMB-01", "AMB-02"]).await;
    let user = w.app.user("planner").await;
    let mut bookings = vec![];
    for (i, a) in w
        .app
        .get("/api/ambulances/available/all", None)
        .await
        .body
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        bookings.push(w.book_normal(&user, a, &format!("P{i}")).await);
    }
    // The first one's item no longer reads (a status no code writes).
    let key = store::keys::booking(id_of(&bookings[0]));
    crate::unreadable::spoil(
        &w,
        &key,
        &[("bookingStatus", AttributeValue::S("LOST".into()))],
    )
    .await;
    w.later(PAST_NORMAL);
    let report = w.sweep().await;
    assert_eq!((report.failed, report.alerted), (1, 1), "{report:?}");
    // And the alerts close each by its own cause: only the accepted job's.
    let (w2, _, crews) = fleet(&["AMB-01", "AMB-02"]).await;
    let user = w2.app.user("planner").await;
    let mut jobs = vec![];
    for i in 0..2 {
        let a = &w2.app.get("/api/ambulances/available/all", None).await.body[0];
        jobs.push(w2.book_normal(&user, a, &format!("Q{i}")).await);
    }
    w2.later(PAST_NORMAL);
    assert_eq!(w2.sweep().await.alerted, 2);
    // crew1 is AMB-01's.
    let mine = jobs
        .iter()
        .find(|j| j["ambulanceNumber"] == "AMB-01")
        .unwrap();
    w2.accept(&crews[0], mine)
        .await
        .assert_status(StatusCode::OK);
    assert_eq!(w2.sweep().await.alerts_closed, 1);
    let open = w2.open_alerts().await;
    assert_eq!(open.len(), 1);
    assert_ne!(open[0]["bookingId"], mine["id"]);
}

/// The requester's tracking view and the family's link follow the answer deadline:
/// a move shows as REASSIGNED (from whom, why) with the new ambulance and deadline;
/// once the clock has given up (15 s past `answerBy`, nobody free) both say
/// `stillLooking`, until a crew accepts.
#[tokio::test]
async fn the_track_and_share_views_show_moves_and_still_looking() {
    let (w, _, crews) = fleet(&["AMB-01", "AMB-02"]).await;
    let (user, booking) = w.sos("caller").await;
    let id = &booking["id"];
    let share = w
        .app
        .post(
            &format!("/api/booking/{id}/share"),
            Some(&user.token),
            json!({}),
        )
        .await;
    share.assert_status(StatusCode::CREATED);
    let token = share.body["token"].as_str().unwrap().to_owned();
    let views = || async {
        let track = w
            .app
            .get(&format!("/api/booking/{id}/track"), Some(&user.token))
            .await;
        track.assert_status(StatusCode::OK);
        let shared = w
            .app
            .get(&format!("/api/booking/shared/{token}"), None)
            .await;
        shared.assert_status(StatusCode::OK);
        [track.body, shared.body]
    };

    for v in views().await {
        assert_eq!(v["answerBy"], booking["answerBy"], "{v}");
        assert_eq!(v["stillLooking"], false, "{v}");
    }

    // The first crew does not answer: the job moves, and both views say so.
    w.later(PAST_EMERGENCY);
    assert_eq!(w.sweep().await.moved, 1);
    for v in views().await {
        assert_eq!(v["ambulance"]["number"], "AMB-02", "{v}");
        let last = v["timeline"].as_array().unwrap().last().unwrap().clone();
        assert_eq!(
            last,
            json!({"stage": "REASSIGNED", "at": last["at"], "fromAmbulance": "AMB-01",
                   "reason": "NO_ANSWER"}),
        );
        assert!(v["answerBy"].as_str().unwrap() > booking["answerBy"].as_str().unwrap());
        assert_eq!(v["stillLooking"], false, "{v}");
    }

    // Nor does the second, and nobody else is free: the clock alerts and leaves it.
    w.later(PAST_EMERGENCY);
    let report = w.sweep().await;
    assert_eq!((report.moved, report.alerted), (0, 1), "{report:?}");
    for v in views().await {
        assert_eq!(v["stillLooking"], false, "a second past: not yet {v}");
    }
    w.later(time::Duration::seconds(15));
    for v in views().await {
        assert_eq!(v["stillLooking"], true, "{v}");
        assert!(v["answerBy"].is_string(), "the past deadline stays: {v}");
    }

    // The second crew answers late after all: nothing is awaited any more.
    w.accept(&crews[1], &booking)
        .await
        .assert_status(StatusCode::OK);
    for v in views().await {
        assert_eq!(
            (&v["stillLooking"], &v["answerBy"]),
            (&json!(false), &Value::Null),
            "{v}"
        );
    }
}

/// Refused emergencies in one place are one open `NO_AMBULANCE` alert with a count
/// and the latest pickup (before decision 0019 each refusal of each account raised
/// one, pushing every admin's phone); the list pages with a cursor, open alerts
/// most urgent first, so no number of them pushes one off (before: the 500 oldest).
#[tokio::test]
async fn no_ambulance_alerts_merge_per_area_and_the_list_pages_so_none_is_pushed_off() {
    use domain::{alert::no_ambulance_area, booking::Pickup};
    let (w, _) = World::with_one_ambulance("AMB-01").await;
    let (_, _) = w.sos("first").await;
    // That job went to a crew not online: its CALL_STATION, dealt with, is not the
    // subject here.
    for station in w.open_alerts().await {
        assert_eq!(station["kind"], "CALL_STATION", "{station}");
        let uri = format!("/api/admin/alerts/{}/ack", station["id"]);
        w.app
            .call(Method::POST, &uri, Some(&w.admin.token), None)
            .await
            .assert_status(StatusCode::OK);
    }
    let (a, b) = (w.app.user("near_a").await, w.app.user("near_b").await);
    let near = north(0.3);
    assert_eq!(
        no_ambulance_area(near),
        no_ambulance_area(crate::emergency::PICKUP),
        "the test's two pickups share an area"
    );
    w.emergency(&a, &pickup_body(), None)
        .await
        .assert_status(StatusCode::CONFLICT);
    let later = json!({"pickup": {"latitude": near.lat, "longitude": near.lng}});
    w.emergency(&b, &later, None)
        .await
        .assert_status(StatusCode::CONFLICT);
    let open = w.open_alerts().await;
    assert_eq!(open.len(), 1, "{open:?}");
    assert_eq!(open[0]["kind"], "NO_AMBULANCE");
    assert_eq!(open[0]["count"], 2);
    // Someone to call there: the hospital nearest the latest pickup, and its phone
    // (decision 0024).
    assert_eq!(
        (&open[0]["hospitalName"], &open[0]["phone"]),
        (&json!("Near"), &json!("+91 4"))
    );
    let latest = open[0]["pickup"]["latitude"].as_f64().unwrap();
    assert!(
        (latest - near.lat).abs() < 1e-9,
        "the latest pickup: {latest}"
    );

    // Acknowledged, the next refusal there is a new alert.
    let uri = format!("/api/admin/alerts/{}/ack", open[0]["id"]);
    w.app
        .call(Method::POST, &uri, Some(&w.admin.token), None)
        .await
        .assert_status(StatusCode::OK);
    w.emergency(&a, &pickup_body(), None)
        .await
        .assert_status(StatusCode::CONFLICT);
    let open = w.open_alerts().await;
    assert_eq!(open.len(), 1);
    assert_eq!(open[0]["count"], 1);

    // 250 more areas: every open alert comes, once, over pages of 100.
    for i in 0..250u64 {
        let pickup: Pickup =
            serde_json::from_value(json!({"latitude": 10.0 + i as f64 * 0.1, "longitude": 10.0}))
                .unwrap();
        w.store()
            .alerts()
            .raise_no_ambulance(
                domain::types::Id::try_from(100_000 + i).unwrap(),
                None,
                &pickup,
                None,
                "112",
            )
            .await
            .unwrap();
    }
    let (mut seen, mut cursor, mut pages) = (vec![], None::<String>, 0);
    loop {
        let uri = match &cursor {
            Some(c) => format!("/api/admin/alerts?cursor={c}"),
            None => "/api/admin/alerts".into(),
        };
        let res = w.app.get(&uri, Some(&w.admin.token)).await;
        res.assert_status(StatusCode::OK);
        let items = res.body["items"].as_array().unwrap().clone();
        assert!(items.len() <= 100);
        pages += 1;
        seen.extend(items);
        match res.body["cursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    assert_eq!(pages, 3);
    let open: Vec<&Value> = seen
        .iter()
        .filter(|a| a.get("acknowledgedAt").is_none() && a.get("closedAt").is_none())
        .collect();
    assert_eq!(open.len(), 251);
    let mut ids: Vec<u64> = seen.iter().map(|a| a["id"].as_u64().unwrap()).collect();
    let all = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), all, "each alert once");
    assert_eq!(
        all, 253,
        "251 open and the two acknowledged (the CALL_STATION, one NO_AMBULANCE)"
    );
    let first_ended = seen.iter().position(|a| a.get("acknowledgedAt").is_some());
    assert_eq!(first_ended, Some(251), "open ones first");

    w.app
        .get("/api/admin/alerts?cursor=nope", Some(&w.admin.token))
        .await
        .assert_field(StatusCode::BAD_REQUEST, "cursor");
}
