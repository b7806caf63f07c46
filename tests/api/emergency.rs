//! One tap to help, through the routers against DynamoDB Local: the nearest free
//! ambulance (by a fresh live position, else its hospital's), the type filter, none
//! free (409 with hospitals to call), idempotent retries, one open emergency per
//! user, and 100 people racing for 10 ambulances.

use domain::{
    geo::Point,
    types::format_rfc3339,
    user::{NewUser, Role},
};
use futures::future::join_all;
use http::StatusCode;
use serde_json::{Value, json};
use store::limits::{EMERGENCIES_PER_USER, emergency_limit_message};
use testkit::{TestApp, TestResponse, TestUser};

use crate::{
    crew::id_of,
    helpers::{self, stages},
};

/// A table with hospitals and ambulances placed around a pickup.
pub struct World {
    pub app: TestApp,
    pub admin: TestUser,
}

/// The pickup every test asks from.
pub const PICKUP: Point = Point::new(30.70, 74.35);

/// A point `km` north (negative: south) of the pickup, a kilometre being 1/111.2
/// of a degree of latitude.
pub fn north(km: f64) -> Point {
    Point::new(PICKUP.lat + km / 111.2, PICKUP.lng)
}

pub fn pickup_body() -> Value {
    json!({"pickup": {"latitude": PICKUP.lat, "longitude": PICKUP.lng, "landmark": "gate 2"}})
}

impl World {
    /// The store of the world's stack.
    pub fn store(&self) -> &store::Store {
        &self.app.state.store
    }

    /// The ids `user`'s open-bookings guard holds.
    pub async fn open_bookings(&self, user: &TestUser) -> Vec<domain::types::Id> {
        self.store()
            .bookings()
            .open_booking_ids(user.id)
            .await
            .unwrap()
    }

    pub async fn new() -> World {
        World::over(testkit::fresh_state().await).await
    }

    pub async fn over(state: web::AppState) -> World {
        let app = TestApp::with_state(state, api_tests::system);
        let admin = app.admin().await;
        World { app, admin }
    }

    /// A world with one hospital 1 km north of the pickup and, there, one free BLS
    /// ambulance `number`.
    pub async fn with_one_ambulance(number: &str) -> (World, Value) {
        let w = World::new().await;
        let h = w.hospital("Near", north(1.0)).await;
        let ambulance = w.ambulance(&h, number, "BLS").await;
        (w, ambulance)
    }

    fn admin_token(&self) -> Option<&str> {
        Some(&self.admin.token)
    }

    pub async fn hospital(&self, name: &str, Point { lat, lng }: Point) -> Value {
        let res = self
            .app
            .add_hospital(
                self.admin_token(),
                json!({"name": name, "address": format!("{name} Road"), "latitude": lat,
                       "longitude": lng, "contactInfo": format!("+91 {}", name.len())}),
            )
            .await;
        res.assert_status(StatusCode::CREATED);
        res.body
    }

    pub async fn ambulance(&self, hospital: &Value, number: &str, kind: &str) -> Value {
        let res = self
            .app
            .add_ambulance(
                self.admin_token(),
                json!({"number": number, "status": "AVAILABLE", "type": kind,
                       "hospital": {"id": hospital["id"]}, "driverInfo": "R. Kumar"}),
            )
            .await;
        res.assert_status(StatusCode::CREATED);
        res.body
    }

    pub async fn emergency(
        &self,
        user: &TestUser,
        body: &Value,
        key: Option<&str>,
    ) -> TestResponse {
        self.app
            .post_keyed("/api/booking/emergency", &user.token, body, key)
            .await
    }

    /// A crew's position report, taken `ago` seconds before now, sent after the
    /// server's clock moved 5 s on (reports are written at most every 4 s).
    pub async fn report(&self, crew: &TestUser, Point { lat, lng }: Point, ago: i64) {
        self.app
            .state
            .store
            .advance_clock(time::Duration::seconds(5));
        let at = time::OffsetDateTime::now_utc() - time::Duration::seconds(ago);
        let res = self
            .app
            .put(
                "/api/crew/location",
                Some(&crew.token),
                json!({"latitude": lat, "longitude": lng, "recordedAt": format_rfc3339(at)}),
            )
            .await;
        res.assert_status(StatusCode::NO_CONTENT);
    }

    /// The crew drives to `to` for `minutes` (the server's clock moves on) and
    /// reports from there, as taken now by that clock: a move the speed rule allows.
    pub async fn drive(&self, crew: &TestUser, Point { lat, lng }: Point, minutes: i64) {
        self.app
            .state
            .store
            .advance_clock(time::Duration::minutes(minutes));
        let at = format_rfc3339(self.app.state.store.now());
        let res = self
            .app
            .put(
                "/api/crew/location",
                Some(&crew.token),
                json!({"latitude": lat, "longitude": lng, "recordedAt": at}),
            )
            .await;
        res.assert_status(StatusCode::NO_CONTENT);
    }

    pub async fn ambulance_status(&self, ambulance: &Value) -> String {
        let listed = helpers::listed_ambulance(&self.app, self.admin_token(), ambulance).await;
        listed["status"].as_str().unwrap().to_owned()
    }

    pub async fn cancel(&self, user: &TestUser, booking: &Value) -> TestResponse {
        let uri = format!("/api/booking/cancel?bookingId={}", booking["id"]);
        self.app.patch(&uri, Some(&user.token)).await
    }

    /// The counters agree with a recount, and exactly the AVAILABLE ambulances have
    /// a free-ambulance entry.
    pub async fn assert_consistent(&self) {
        helpers::assert_consistent(&self.app, &self.admin.token).await;
    }
}

#[tokio::test]
async fn one_tap_dispatches_the_nearest_free_ambulance_to_the_nearest_hospital() {
    let w = World::new().await;
    let near = w.hospital("Near", north(2.0)).await;
    let far = w.hospital("Far", north(-9.0)).await;
    let close_to_pickup = w.hospital("Closest", north(0.5)).await; // no ambulance
    let amb = w.ambulance(&near, "N-1", "BLS").await;
    w.ambulance(&far, "F-1", "BLS").await;
    let crew = w.app.crew("crew_n", id_of(&amb)).await;
    let user = w.app.user("asha").await;

    let res = w.emergency(&user, &pickup_body(), None).await;
    res.assert_status(StatusCode::CREATED);
    let b = res.body;
    assert_eq!(
        (&b["bookingType"], &b["bookingStatus"], &b["tripStage"]),
        (&json!("EMERGENCY"), &json!("ACTIVE"), &json!("DISPATCHED"))
    );
    assert_eq!(stages(&b), ["ACTIVE", "DISPATCHED"]);
    assert_eq!(b["ambulance"]["id"], amb["id"]);
    assert_eq!(b["ambulance"]["number"], "N-1");
    assert_eq!(b["ambulance"]["driverInfo"], "R. Kumar");
    // The destination is the hospital nearest to the pickup, not the ambulance's.
    assert_eq!(b["hospital"]["id"], close_to_pickup["id"]);
    assert_eq!(b["hospitalName"], "Closest");
    assert_eq!(
        b["pickup"],
        json!({"latitude": PICKUP.lat, "longitude": PICKUP.lng, "landmark": "gate 2"})
    );
    assert_eq!(
        b["patient"],
        json!({"name": null, "age": null, "gender": null, "condition": null})
    );
    assert_eq!(
        (&b["userId"], &b["username"]),
        (&json!(user.id), &json!("asha"))
    );
    assert_eq!(b["userPhone"], "+15550001111");

    // The crew sees the job; the ambulance is on duty and out of the free index.
    let me = w.app.get("/api/crew/me", Some(&crew.token)).await;
    assert_eq!(me.status, StatusCode::OK);
    assert_eq!(me.body["job"]["id"], b["id"]);
    assert_eq!(me.body["ambulance"]["status"], "ON_DUTY");
    let history = w.app.get("/api/booking/history", Some(&user.token)).await;
    assert_eq!(history.body[0]["id"], b["id"]);
    let open = w.open_bookings(&user).await;
    assert_eq!(open, [id_of(&b)]);
    w.assert_consistent().await;

    // The requester follows it like any booking.
    let track = w
        .app
        .get(
            &format!("/api/booking/{}/track", b["id"]),
            Some(&user.token),
        )
        .await;
    assert_eq!(track.status, StatusCode::OK);
    assert_eq!(track.body["tripStage"], "DISPATCHED");
}

/// Two hospitals 5 and 20 km north of the pickup with an ambulance each; the far
/// one's crew reports 1 km from the pickup, taken `ago` seconds before now. The
/// number of the ambulance an emergency gets.
async fn assigned_after_a_report(ago: i64) -> String {
    let w = World::new().await;
    let h5 = w.hospital("Five", north(5.0)).await;
    let h20 = w.hospital("Twenty", north(20.0)).await;
    w.ambulance(&h5, "A-5", "BLS").await;
    let at20 = w.ambulance(&h20, "A-20", "BLS").await;
    let crew20 = w.app.crew("crew_20", id_of(&at20)).await;
    w.report(&crew20, north(1.0), ago).await;
    let res = w
        .emergency(&w.app.user("ann").await, &pickup_body(), None)
        .await;
    res.assert_status(StatusCode::CREATED);
    w.assert_consistent().await;
    res.body["ambulance"]["number"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_fresh_position_counts_a_stale_one_does_not() {
    // A minute old: the far hospital's ambulance is 1 km away.
    assert_eq!(assigned_after_a_report(60).await, "A-20");
    // Three minutes old: it ranks at its hospital, behind the one 5 km away.
    assert_eq!(assigned_after_a_report(180).await, "A-5");
}

/// The free-ambulance entry follows reports at most every 30 s, so for a moment it
/// can say "stale" while the last report is fresh: an ambulance taken at its
/// hospital must have no fresh position elsewhere, checked in the transaction.
#[tokio::test]
async fn an_ambulance_ranked_at_its_hospital_is_taken_only_without_a_fresh_position() {
    let w = World::new().await;
    let h2 = w.hospital("Two", north(2.0)).await;
    let h5 = w.hospital("Five", north(5.0)).await;
    let elsewhere = w.ambulance(&h2, "X-2", "BLS").await;
    let other = w.ambulance(&h5, "Y-5", "BLS").await;
    let crew = w.app.crew("crew_x", id_of(&elsewhere)).await;
    // Three minutes ago 30 km north (the entry moves there, stale); now 40 km north
    // (the position is fresh; the entry, moved a moment ago, stays).
    w.report(&crew, north(30.0), 180).await;
    w.report(&crew, north(40.0), 0).await;
    let res = w
        .emergency(&w.app.user("cyrus").await, &pickup_body(), None)
        .await;
    res.assert_status(StatusCode::CREATED);
    assert_eq!(res.body["ambulance"]["id"], other["id"]);
    assert_eq!(w.ambulance_status(&elsewhere).await, "AVAILABLE");
    w.assert_consistent().await;
}

#[tokio::test]
async fn the_type_asked_for_and_none_free_near() {
    let w = World::new().await;
    let near = w.hospital("Near", north(1.0)).await;
    let mid = w.hospital("Mid", north(10.0)).await;
    w.hospital("Third", north(-30.0)).await;
    w.hospital("Fourth", north(-45.0)).await;
    w.hospital("Beyond", north(300.0)).await;
    w.ambulance(&near, "ALS-1", "ALS").await;
    let bls = w.ambulance(&mid, "BLS-1", "BLS").await;
    w.ambulance(&w.hospital("Far away", north(60.0)).await, "PTA-60", "PTA")
        .await;
    let user = w.app.user("dev").await;

    let mut body = pickup_body();
    body["ambulanceType"] = json!("BLS");
    let res = w.emergency(&user, &body, None).await;
    res.assert_status(StatusCode::CREATED);
    assert_eq!(res.body["ambulance"]["id"], bls["id"]);
    assert_eq!(res.body["ambulance"]["type"], "BLS");
    assert_eq!(w.cancel(&user, &res.body).await.status, StatusCode::OK);

    // The only PTA is 60 km away: none near. The answer lists the three nearest
    // hospitals with their phones, nearest first.
    body["ambulanceType"] = json!("PTA");
    let res = w.emergency(&user, &body, None).await;
    res.assert_status(StatusCode::CONFLICT);
    assert_eq!(res.message(), "No ambulance is available near you");
    let hospitals = res.body["hospitals"].as_array().unwrap();
    let names: Vec<&str> = hospitals
        .iter()
        .map(|h| h["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Near", "Mid", "Third"]);
    assert!(
        hospitals
            .iter()
            .all(|h| h["contactInfo"].is_string() && h["distance"].is_number())
    );
    // Nothing was written: no booking, every ambulance free.
    let history = w.app.get("/api/booking/history", Some(&user.token)).await;
    assert_eq!(history.body.as_array().unwrap().len(), 1);
    w.assert_consistent().await;

    let mut bad = pickup_body();
    bad["ambulanceType"] = json!("HELICOPTER");
    let res = w.emergency(&user, &bad, None).await;
    res.assert_field(StatusCode::BAD_REQUEST, "ambulanceType");
}

#[tokio::test]
async fn without_a_pickup_the_profile_location_and_without_either_a_400() {
    let (w, amb) = World::with_one_ambulance("P-1").await;
    let store = &w.app.state.store;
    let homeless = store
        .users()
        .create_user(NewUser {
            account: testkit::test_account("homeless", "+15550003333").await,
            location: None,
            role: Role::User,
        })
        .await
        .unwrap();
    let homeless = TestUser {
        token: w.app.state.auth.issue(homeless.id, Role::User).unwrap(),
        id: homeless.id,
        username: homeless.username,
    };
    let res = w.emergency(&homeless, &json!({}), None).await;
    res.assert_field(StatusCode::BAD_REQUEST, "pickup");
    let located = w.app.user("located").await;
    let res = w
        .app
        .edit_profile(
            Some(&located.token),
            json!({"email": "located@example.com", "latitude": PICKUP.lat, "longitude": PICKUP.lng}),
        )
        .await;
    res.assert_status(StatusCode::OK);
    let res = w
        .emergency(
            &located,
            &json!({"patient": {"name": "Lata", "age": 80}}),
            None,
        )
        .await;
    res.assert_status(StatusCode::CREATED);
    assert_eq!(res.body["ambulance"]["id"], amb["id"]);
    assert_eq!(
        res.body["pickup"],
        json!({"latitude": PICKUP.lat, "longitude": PICKUP.lng})
    );
    assert_eq!(
        res.body["patient"],
        json!({"name": "Lata", "age": 80, "gender": null, "condition": null})
    );
}

#[tokio::test]
async fn retries_with_one_idempotency_key_make_one_emergency() {
    let w = World::new().await;
    let h = w.hospital("Near", north(1.0)).await;
    for i in 0..3 {
        w.ambulance(&h, &format!("I-{i}"), "BLS").await;
    }
    let user = w.app.user("eve").await;
    // Five sends of one request at once (a flaky network), then one more later.
    let body = pickup_body();
    let sends = (0..5).map(|_| w.emergency(&user, &body, Some("tap-1")));
    let answers = join_all(sends).await;
    let first = &answers[0].body;
    for a in &answers {
        a.assert_status(StatusCode::CREATED);
        assert_eq!(a.body["id"], first["id"]);
    }
    let again = w.emergency(&user, &pickup_body(), Some("tap-1")).await;
    assert_eq!(
        (again.status, &again.body["id"]),
        (StatusCode::CREATED, &first["id"])
    );
    let history = w.app.get("/api/booking/history", Some(&user.token)).await;
    assert_eq!(history.body.as_array().unwrap().len(), 1);
    // The same key for another request is refused, and writes nothing.
    let mut other = pickup_body();
    other["ambulanceType"] = json!("ALS");
    let res = w.emergency(&user, &other, Some("tap-1")).await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{:?}",
        res.body
    );
    w.assert_consistent().await;
}

#[tokio::test]
async fn one_open_emergency_per_user() {
    let w = World::new().await;
    let h = w.hospital("Near", north(1.0)).await;
    let mut ambulances = vec![];
    for i in 0..4 {
        ambulances.push(w.ambulance(&h, &format!("O-{i}"), "BLS").await);
    }
    let user = w.app.user("fay").await;
    let first = w.emergency(&user, &pickup_body(), Some("a")).await.body;
    // A second one, with another key or none: 409 naming the open one.
    for key in [Some("b"), None] {
        let res = w.emergency(&user, &pickup_body(), key).await;
        res.assert_status(StatusCode::CONFLICT);
        assert_eq!(res.body["bookingId"], first["id"]);
        assert!(
            res.message().contains(&format!("#{}", first["id"])),
            "{}",
            res.message()
        );
    }
    // Racing sends without a key: still one.
    let body = pickup_body();
    let racing = join_all((0..4).map(|_| w.emergency(&user, &body, None))).await;
    assert!(racing.iter().all(|r| r.status == StatusCode::CONFLICT));
    // A booking of type EMERGENCY made with the form is another matter: it neither
    // blocks nor, when cancelled, frees the one-tap emergency's place.
    let free = ambulances
        .iter()
        .find(|a| a["id"] != first["ambulance"]["id"])
        .unwrap();
    let form = w
        .app
        .book(
            Some(&user.token),
            json!({"hospitalId": h["id"], "ambulanceId": free["id"], "bookingType": "EMERGENCY",
                   "patient": {"name": "Fay", "age": 30, "gender": "Female", "condition": "c"}}),
        )
        .await;
    form.assert_status(StatusCode::CREATED);
    assert_eq!(w.cancel(&user, &form.body).await.status, StatusCode::OK);
    let res = w.emergency(&user, &pickup_body(), None).await;
    assert_eq!(res.status, StatusCode::CONFLICT);
    // Once the open one ends (the crew or an admin completes it, or the user
    // cancels it), the next emergency goes through.
    let done = w
        .app
        .patch(
            &format!(
                "/api/admin/bookings/status?bookingId={}&status=COMPLETED",
                first["id"]
            ),
            w.admin_token(),
        )
        .await;
    done.assert_status(StatusCode::OK);
    let second = w.emergency(&user, &pickup_body(), None).await;
    second.assert_status(StatusCode::CREATED);
    assert_eq!(w.cancel(&user, &second.body).await.status, StatusCode::OK);
    let third = w.emergency(&user, &pickup_body(), None).await;
    third.assert_status(StatusCode::CREATED);
    // The open-bookings guard holds only what is open: the third.
    let open = w.open_bookings(&user).await;
    assert_eq!(open, [id_of(&third.body)]);
    w.assert_consistent().await;
}

#[tokio::test]
async fn emergencies_per_account_are_limited_and_none_free_refusals_count_too() {
    testkit::clear_of_a_window_edge(&EMERGENCIES_PER_USER, 90).await;
    let (w, ambulance) = World::with_one_ambulance("L-1").await;
    let max = EMERGENCIES_PER_USER.max;
    let user = w.app.user("prank").await;
    // An open emergency's 409 sends nothing and raises nothing: not counted.
    let first = w.emergency(&user, &pickup_body(), Some("k0")).await;
    first.assert_status(StatusCode::CREATED);
    for i in 0..max {
        let res = w
            .emergency(&user, &pickup_body(), Some(&format!("open{i}")))
            .await;
        res.assert_status(StatusCode::CONFLICT);
    }
    assert_eq!(w.cancel(&user, &first.body).await.status, StatusCode::OK);
    // None free (409 with hospitals, an alert for the dispatcher): counted, as a
    // dispatch is (decision 0019: before, a prank account raised alerts without end).
    let other = w.app.user("neighbour").await;
    let taken = w.emergency(&other, &pickup_body(), None).await;
    taken.assert_status(StatusCode::CREATED);
    for i in 1..3 {
        let none = w
            .emergency(&user, &pickup_body(), Some(&format!("k{i}")))
            .await;
        none.assert_status(StatusCode::CONFLICT);
        assert!(none.body["hospitals"].is_array(), "{:?}", none.body);
    }
    assert_eq!(w.cancel(&other, &taken.body).await.status, StatusCode::OK);
    // Dispatched then cancelled up to `max` in all: each one counted ...
    for i in 3..max {
        let res = w
            .emergency(&user, &pickup_body(), Some(&format!("k{i}")))
            .await;
        assert_eq!(res.status, StatusCode::CREATED, "{i}: {:?}", res.body);
        assert_eq!(w.cancel(&user, &res.body).await.status, StatusCode::OK);
    }
    // ... a retry of a counted one is the same request (its answer again) ...
    let again = w.emergency(&user, &pickup_body(), Some("k0")).await;
    assert_eq!(
        (again.status, &again.body["id"]),
        (StatusCode::CREATED, &first.body["id"])
    );
    // ... and the next is 429 with Retry-After, telling whom to call; nothing written.
    let stats = w.app.get("/api/admin/stats", w.admin_token()).await.body;
    let res = w.emergency(&user, &pickup_body(), Some("over")).await;
    res.assert_status(StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(res.message(), emergency_limit_message("911"));
    let secs = res.retry_after();
    assert!(
        (1..=EMERGENCIES_PER_USER.window_secs).contains(&secs),
        "{secs}"
    );
    assert_eq!(
        w.app.get("/api/admin/stats", w.admin_token()).await.body,
        stats
    );
    assert_eq!(w.ambulance_status(&ambulance).await, "AVAILABLE");
    // Another account is not held back by it.
    let res = w.emergency(&other, &pickup_body(), Some("again")).await;
    res.assert_status(StatusCode::CREATED);
    w.assert_consistent().await;
}

#[tokio::test]
async fn only_signed_in_users_ask_and_bad_input_names_the_field() {
    let (w, amb) = World::with_one_ambulance("Q-1").await;
    let crew = w.app.crew("crew_q", id_of(&amb)).await;
    let user = w.app.user("gus").await;
    let res = w
        .app
        .post("/api/booking/emergency", None, pickup_body())
        .await;
    assert_eq!(res.status, StatusCode::UNAUTHORIZED);
    for caller in [&w.admin, &crew] {
        let res = w.emergency(caller, &pickup_body(), None).await;
        res.assert_status(StatusCode::FORBIDDEN);
    }
    for (body, field) in [
        (
            json!({"pickup": {"latitude": 91, "longitude": 0}}),
            "pickup.latitude",
        ),
        (
            json!({"pickup": {"latitude": 30, "longitude": 74}, "patient": {"age": -1}}),
            "patient.age",
        ),
        (
            json!({"pickup": {"latitude": 30, "longitude": 74}, "patient": {"gender": "x"}}),
            "patient.gender",
        ),
        (
            json!({"pickup": {"latitude": 30, "longitude": 74}, "hospitalId": 1}),
            "hospitalId",
        ),
    ] {
        let res = w.emergency(&user, &body, None).await;
        res.assert_field(StatusCode::BAD_REQUEST, field);
    }
    let res = w.emergency(&user, &pickup_body(), Some("   ")).await;
    res.assert_field(StatusCode::BAD_REQUEST, "Idempotency-Key");
    assert_eq!(w.ambulance_status(&amb).await, "AVAILABLE");
    w.assert_consistent().await;
}

/// 100 people around one point at once, 10 free ambulances within 10 km: exactly
/// 10 dispatched, each ambulance once; 90 told that none is free, with hospitals to
/// call; nothing half written.
#[tokio::test]
async fn a_hundred_emergencies_for_ten_ambulances() {
    // A hundred requests at once make thousands of Queries at once: patient
    // timeouts, so that the emulator's queue is not taken for a fault.
    let w = World::over(testkit::patient_state().await).await;
    let mut ambulances = vec![];
    for i in 0..5 {
        let h = w
            .hospital(&format!("H{i}"), north(1.0 + 2.0 * i as f64))
            .await;
        for j in 0..2 {
            ambulances.push(w.ambulance(&h, &format!("R-{i}-{j}"), "BLS").await);
        }
    }
    let mut users = vec![];
    for i in 0..100 {
        users.push(w.app.user(&format!("racer{i}")).await);
    }
    let body = pickup_body();
    // Each racer is a client as the contract asks: one Idempotency-Key per
    // emergency, and a 503 ("retry shortly": the database did not answer in time,
    // as a loaded DynamoDB Local sometimes does with a hundred at once) sent again
    // under the same key. So the retries are raced too, and must make no second
    // booking and hold no second ambulance.
    let answers = join_all(users.iter().enumerate().map(|(i, u)| {
        let (w, body) = (&w, &body);
        async move {
            let key = format!("racer-{i}");
            let mut res = w.emergency(u, body, Some(&key)).await;
            for _ in 0..4 {
                if res.status != StatusCode::SERVICE_UNAVAILABLE {
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                res = w.emergency(u, body, Some(&key)).await;
            }
            res
        }
    }))
    .await;
    let won: Vec<&TestResponse> = answers
        .iter()
        .filter(|r| r.status == StatusCode::CREATED)
        .collect();
    let lost: Vec<&TestResponse> = answers
        .iter()
        .filter(|r| r.status == StatusCode::CONFLICT)
        .collect();
    let others: Vec<_> = answers
        .iter()
        .filter(|r| r.status != StatusCode::CREATED && r.status != StatusCode::CONFLICT)
        .map(|r| (r.status, r.body.clone()))
        .collect();
    assert!(others.is_empty(), "{others:?}");
    assert_eq!((won.len(), lost.len()), (10, 90));
    let mut taken: Vec<u64> = won
        .iter()
        .map(|r| r.body["ambulance"]["id"].as_u64().unwrap())
        .collect();
    taken.sort_unstable();
    taken.dedup();
    assert_eq!(taken.len(), 10, "an ambulance was dispatched twice");
    for r in &lost {
        assert_eq!(r.message(), "No ambulance is available near you");
        assert_eq!(r.body["hospitals"].as_array().unwrap().len(), 3);
    }
    for a in &ambulances {
        assert_eq!(w.ambulance_status(a).await, "ON_DUTY");
    }
    w.assert_consistent().await;
}
