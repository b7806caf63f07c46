//! Personal data (docs/decisions/0022-personal-data.md): an account deleted (at once
//! for sessions, devices and names; its bookings erased in the request's own
//! transaction, and by the clock past it, even when the clock is killed midway),
//! the export, the retention sweep and what it reads, who read a patient's details,
//! and every view of an erased booking showing nothing personal and nothing new.

use std::{
    collections::BTreeSet,
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
};

use domain::{
    booking::Booking,
    geo::Point,
    types::{Id, format_rfc3339},
};
use http::{Method, StatusCode};
use serde_json::{Value, json};
use store::{
    Tx,
    open_bookings::{self, OpenLimit},
    privacy::{ForgetReport, REQUEST_CHUNK, SWEEP_BUDGET},
    tx::{Label, TxError},
};
use testkit::{
    TEST_PASSWORD, TestApp, TestResponse, TestUser,
    hooks::Hooks,
    push_service::{PushService, vapid},
};

/// A pickup off the 0.01° grid, with a landmark: what an erasure must not keep.
const EXACT: Point = Point::new(30.712_345, 74.345_678);
const ROUNDED: Point = Point::new(30.71, 74.35);
const PATIENT: &str = "Hana Devi";
const CONDITION: &str = "breathless since morning";
const LANDMARK: &str = "blue gate behind the temple";
/// `testkit::test_account`'s phone, which a booking keeps for the crew.
const PHONE: &str = "+15550001111";

struct World {
    app: TestApp,
    admin: TestUser,
    hospital: Value,
    ambulance: Value,
}

impl World {
    async fn new() -> World {
        let app = TestApp::new(api_tests::system).await;
        let admin = app.admin().await;
        let hospital = app
            .add_hospital(
                Some(&admin.token),
                json!({"name": "Civil", "address": "Mall Road", "latitude": 30.70, "longitude": 74.33}),
            )
            .await
            .body;
        let res = app
            .add_ambulance(
                Some(&admin.token),
                json!({"number": "PB-7", "status": "AVAILABLE", "type": "ALS",
                       "hospital": {"id": hospital["id"]}, "driverInfo": "R. Kumar"}),
            )
            .await;
        res.assert_status(StatusCode::CREATED);
        World {
            app,
            admin,
            hospital,
            ambulance: res.body,
        }
    }

    fn store(&self) -> &store::Store {
        &self.app.state.store
    }

    /// A booking of `user` with every personal field filled in (open: PENDING).
    async fn book(&self, user: &TestUser) -> Value {
        let res = self
            .app
            .book(
                Some(&user.token),
                json!({
                    "hospitalId": self.hospital["id"], "ambulanceId": self.ambulance["id"],
                    "bookingType": "NORMAL",
                    "patient": {"name": PATIENT, "age": 71, "gender": "Female", "condition": CONDITION},
                    "pickup": {"latitude": EXACT.lat, "longitude": EXACT.lng, "landmark": LANDMARK},
                }),
            )
            .await;
        res.assert_status(StatusCode::CREATED);
        res.body
    }

    /// The admin ends `booking` (COMPLETED).
    async fn complete(&self, booking: &Value) {
        for status in ["ACTIVE", "COMPLETED"] {
            self.app
                .patch(
                    &format!(
                        "/api/admin/bookings/status?bookingId={}&status={status}",
                        booking["id"]
                    ),
                    Some(&self.admin.token),
                )
                .await
                .assert_status(StatusCode::OK);
        }
    }

    async fn delete_account(&self, token: &str, body: Option<Value>) -> TestResponse {
        self.app
            .call(Method::DELETE, "/api/user/account", Some(token), body)
            .await
    }

    async fn booking(&self, id: &Value) -> Booking {
        let id = Id::try_from(id.as_u64().unwrap()).unwrap();
        self.store().bookings().booking(id).await.unwrap().unwrap()
    }

    /// The clock's privacy sweep at the store's time plus `ahead`, as the clock
    /// function runs it (its calls checked against its grants).
    /// The clock `ahead` from now: its alerts' sweep (an ended job's alerts close),
    /// then its privacy sweep.
    async fn forget(&self, ahead: time::Duration) -> ForgetReport {
        let store = self.store();
        let now = store.now() + ahead;
        self.app
            .run_as("clock", store.deadlines().close_settled_alerts(now))
            .await
            .unwrap();
        self.app
            .run_as("clock", store.privacy().sweep(now))
            .await
            .unwrap()
    }
}

/// A signed-in session of `username` (a real one, with its refresh token).
async fn sign_in(app: &TestApp, username: &str) -> Value {
    let res = app
        .login(json!({"username": username, "password": TEST_PASSWORD}))
        .await;
    res.assert_status(StatusCode::OK);
    res.body
}

fn password() -> Option<Value> {
    Some(json!({ "password": TEST_PASSWORD }))
}

#[tokio::test]
async fn deleting_an_account_ends_its_sessions_and_devices_at_once_and_frees_its_names() {
    let w = World::new().await;
    w.app.user("leaving").await;
    let session = sign_in(&w.app, "leaving").await;
    let token = session["token"].as_str().unwrap().to_owned();
    let push = PushService::start(&vapid().public_key).await;
    w.app
        .put(
            "/api/push/subscription",
            Some(&token),
            push.device().subscription(),
        )
        .await
        .assert_status(StatusCode::NO_CONTENT);
    let user_id = Id::try_from(session["id"].as_u64().unwrap()).unwrap();
    let leaving = TestUser {
        id: user_id,
        username: "leaving".into(),
        token: token.clone(),
    };
    let booking = w.book(&leaving).await;

    // Bad input, each a clear 4xx that deletes nothing.
    w.delete_account(&token, None)
        .await
        .assert_status(StatusCode::UNSUPPORTED_MEDIA_TYPE);
    w.delete_account(&token, Some(json!({})))
        .await
        .assert_field(StatusCode::BAD_REQUEST, "password");
    w.delete_account(&token, Some(json!({"password": "", "extra": 1})))
        .await
        .assert_field(StatusCode::BAD_REQUEST, "extra");
    w.delete_account(&token, Some(json!({"password": "not-my-password"})))
        .await
        .assert_message(StatusCode::FORBIDDEN, "Password is incorrect");
    // An open booking: 409 naming it, with its own code.
    let res = w.delete_account(&token, password()).await;
    res.assert_status(StatusCode::CONFLICT);
    assert_eq!(res.body["code"], "openBookings");
    assert!(
        res.message().contains(&format!("#{}", booking["id"])),
        "{}",
        res.message()
    );
    assert_eq!(
        w.app.get("/api/user/profile", Some(&token)).await.status,
        StatusCode::OK
    );

    w.complete(&booking).await;
    let users_before = w
        .app
        .get("/api/admin/stats", Some(&w.admin.token))
        .await
        .body["users"]
        .as_i64()
        .unwrap();
    let started = std::time::Instant::now();
    w.delete_account(&token, password())
        .await
        .assert_status(StatusCode::NO_CONTENT);
    let took = started.elapsed();

    // At once: the access token, the refresh token and the password are refused...
    assert_eq!(
        w.app.get("/api/user/profile", Some(&token)).await.status,
        StatusCode::UNAUTHORIZED
    );
    w.app
        .post(
            "/api/auth/refresh",
            None,
            json!({"refreshToken": session["refreshToken"]}),
        )
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
    w.app
        .login(json!({"username": "leaving", "password": TEST_PASSWORD}))
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
    // ...the device is gone, the counter counts one user less...
    assert!(w.store().push().devices(user_id).await.unwrap().is_empty());
    let users_after = w
        .app
        .get("/api/admin/stats", Some(&w.admin.token))
        .await
        .body["users"]
        .as_i64()
        .unwrap();
    assert_eq!(users_after, users_before - 1);
    // ...the booking (within the request's transaction) keeps no personal field...
    let erased = w.booking(&booking["id"]).await;
    assert_eq!(
        (erased.username.as_str(), erased.user_email.as_str()),
        ("", "")
    );
    assert_eq!(erased.user_phone, None);
    assert_eq!(erased.patient, Default::default());
    let pickup = erased.pickup.clone().unwrap();
    assert_eq!(pickup.point(), ROUNDED, "to about 1 km");
    assert_eq!(
        serde_json::to_value(erased.erased).unwrap()["reason"],
        "ACCOUNT_DELETED"
    );
    // ...and the username and email are free again.
    w.app
        .post(
            "/api/auth/register",
            None,
            json!({"username": "leaving", "email": "leaving@example.com", "password": "another-pass",
                   "phone": "+919876543210", "latitude": 30.7, "longitude": 74.3}),
        )
        .await
        .assert_status(StatusCode::CREATED);
    // The newcomer sees none of the old account's history.
    let newcomer = sign_in_as(&w.app, "leaving", "another-pass").await;
    let history = w
        .app
        .get("/api/booking/history", Some(&newcomer))
        .await
        .body;
    assert_eq!(history, json!([]));

    // The clock finishes the rest: nothing is left, the marker goes.
    assert!(w.store().privacy().erasure_pending(user_id).await.unwrap());
    let report = w.forget(time::Duration::seconds(11)).await;
    assert_eq!(report.accounts_finished, 1, "{report:?}");
    assert!(!w.store().privacy().erasure_pending(user_id).await.unwrap());
    println!("DELETE /api/user/account (1 booking, 1 device): {took:?}");
}

async fn sign_in_as(app: &TestApp, username: &str, password: &str) -> String {
    let res = app
        .login(json!({"username": username, "password": password}))
        .await;
    res.assert_status(StatusCode::OK);
    res.body["token"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn staff_accounts_are_not_deleted_from_the_profile() {
    let w = World::new().await;
    let crew = w
        .app
        .crew(
            "driver",
            Id::try_from(w.ambulance["id"].as_u64().unwrap()).unwrap(),
        )
        .await;
    for who in [&w.admin, &crew] {
        let res = w.delete_account(&who.token, password()).await;
        res.assert_status(StatusCode::FORBIDDEN);
        assert!(res.message().contains("Staff"), "{}", res.message());
        assert_eq!(
            w.app
                .get("/api/user/profile", Some(&who.token))
                .await
                .status,
            StatusCode::OK
        );
    }
    // No token: 401.
    w.app
        .call(Method::DELETE, "/api/user/account", None, password())
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_booking_racing_the_deletion_is_refused_by_the_guards_tombstone() {
    let w = World::new().await;
    let user = w.app.user("racer").await;
    w.delete_account(&user.token, password())
        .await
        .assert_status(StatusCode::NO_CONTENT);
    // A booking whose request read the account just before it went: its
    // transaction claims the open-bookings guard, and is refused, limit or not.
    for limit in [OpenLimit::Applies, OpenLimit::Exempt] {
        let mut tx = Tx::new();
        tx.push(
            Label::OpenBookings,
            open_bookings::claim(user.id, Id::try_from(999).unwrap(), limit),
        );
        match w.store().commit(tx).await {
            Err(TxError::Refused(r)) => assert!(r.by(Label::OpenBookings)),
            other => panic!("{limit:?}: {other:?}"),
        }
    }
}

/// `n` finished bookings of `user` (COMPLETED an hour after being made, `days_ago`
/// days ago), loaded in bulk as the store writes them, ids from `first`.
fn finished(user: &TestUser, first: u64, n: u64, days_ago: i64) -> Vec<Booking> {
    (first..first + n)
        .map(|id| {
            let made = time::OffsetDateTime::now_utc() - time::Duration::days(days_ago)
                + time::Duration::seconds(id as i64);
            let at = format_rfc3339(made);
            let done = format_rfc3339(made + time::Duration::hours(1));
            serde_json::from_value(json!({
                "id": id, "bookingStatus": "COMPLETED", "bookingType": "NORMAL", "bookingTime": at,
                "userId": user.id.get(), "username": user.username, "userEmail": format!("{}@example.com", user.username),
                "hospitalId": 1, "hospitalName": "H", "hospital": {"id": 1, "name": "H", "address": "A"},
                "ambulanceId": 1, "ambulanceNumber": "B-1",
                "ambulance": {"id": 1, "number": "B-1", "type": "BLS", "driverInfo": null},
                "patient": {"name": PATIENT, "age": 40, "gender": "Male", "condition": CONDITION},
                "userPhone": PHONE,
                "pickup": {"latitude": EXACT.lat, "longitude": EXACT.lng, "landmark": LANDMARK},
                "tripStage": "AT_HOSPITAL",
                "timeline": [{"stage": "PENDING", "at": at}, {"stage": "COMPLETED", "at": done}],
            }))
            .expect("a booking")
        })
        .collect()
}

/// Whether `b` is erased whole for a deleted account (or not touched at all:
/// `false`); anything in between fails.
fn erased_whole(b: &Booking) -> bool {
    match b.erased {
        Some(_) => {
            assert_eq!(b.patient, Default::default(), "{}", b.id);
            assert_eq!((b.username.as_str(), b.user_email.as_str()), ("", ""));
            assert_eq!(b.user_phone, None);
            let p = b.pickup.clone().unwrap();
            assert_eq!(p.point(), ROUNDED);
            assert!(p.landmark.0.is_none());
            true
        }
        None => {
            assert_eq!(
                b.user_phone.as_deref(),
                Some(PHONE),
                "half erased: {}",
                b.id
            );
            assert_eq!(
                b.patient.name.clone().map(String::from).as_deref(),
                Some(PATIENT)
            );
            false
        }
    }
}

/// The bookings, with what differs between twins by nature (ids, who, when
/// erased) taken out.
fn comparable(bookings: Vec<Booking>) -> Vec<Value> {
    let mut out: Vec<Value> = bookings
        .into_iter()
        .map(|b| {
            let mut v = serde_json::to_value(b).unwrap();
            let o = v.as_object_mut().unwrap();
            for field in ["id", "userId", "bookingTime", "timeline"] {
                o.remove(field);
            }
            o["erased"].as_object_mut().unwrap().remove("at");
            v
        })
        .collect();
    out.sort_by_key(|v| v.to_string());
    out
}

async fn all_of(w: &World, ids: impl Iterator<Item = u64>) -> Vec<Booking> {
    let mut out = vec![];
    for id in ids {
        out.push(w.booking(&json!(id)).await);
    }
    out
}

#[tokio::test]
async fn the_clock_erases_what_one_transaction_cannot_and_a_killed_run_is_finished_by_the_next() {
    // More than one transaction holds; the clock's rest fits one sweep (SWEEP_BUDGET).
    const N: u64 = 150;
    let w = World::new().await;
    let (a, b) = (w.app.user("twin_a").await, w.app.user("twin_b").await);
    let store = w.store();
    let mut all = finished(&a, 10_000, N, 3);
    all.extend(finished(&b, 20_000, N, 3));
    store.bulk().bulk_load_bookings(all).await.unwrap();

    // B first: deleted, then the clock's plain sweeps until its marker goes.
    w.delete_account(&b.token, password())
        .await
        .assert_status(StatusCode::NO_CONTENT);
    let mut sweeps = 0;
    while store.privacy().erasure_pending(b.id).await.unwrap() {
        let report = w.forget(time::Duration::seconds(11)).await;
        sweeps += 1;
        assert!(sweeps < 5, "{report:?}");
    }
    assert_eq!(
        sweeps,
        1,
        "{} left, {SWEEP_BUDGET} a sweep",
        N as usize - REQUEST_CHUNK
    );

    // A: deleted; the request erased the newest REQUEST_CHUNK in its transaction.
    w.delete_account(&a.token, password())
        .await
        .assert_status(StatusCode::NO_CONTENT);
    let a_ids = || 10_000..10_000 + N;
    let first: Vec<bool> = all_of(&w, a_ids()).await.iter().map(erased_whole).collect();
    assert_eq!(first.iter().filter(|e| **e).count(), REQUEST_CHUNK);
    // Then a run of the clock killed after its 40th erasure.
    let now = store.now() + time::Duration::seconds(11);
    let counter = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let tx = std::sync::Mutex::new(Some(tx));
    let killer = Hooks::new("kill")
        .on_done(move |context| {
            let updated = context.output_or_error().is_some_and(|o| {
                o.as_ref().is_ok_and(|o| {
                    o.downcast_ref::<aws_sdk_dynamodb::operation::update_item::UpdateItemOutput>()
                        .is_some()
                })
            });
            if updated
                && counter.fetch_add(1, Ordering::SeqCst) + 1 == 40
                && let Some(tx) = tx.lock().unwrap().take()
            {
                let _ = tx.send(());
            }
        })
        .on(store);
    let run = tokio::spawn(async move {
        let mut report = ForgetReport::default();
        killer
            .privacy()
            .finish_erasures(now, 1_000, &mut report)
            .await
            .map(|()| report)
    });
    rx.await.expect("the run got 40 erasures in");
    run.abort();
    assert!(
        run.await.unwrap_err().is_cancelled(),
        "killed, not finished"
    );

    // Killed midway: every booking erased whole or not at all, the marker there.
    let mid: Vec<bool> = all_of(&w, a_ids()).await.iter().map(erased_whole).collect();
    let done = mid.iter().filter(|e| **e).count();
    assert!(
        (REQUEST_CHUNK + 40..N as usize).contains(&done),
        "{done} of {N} erased when killed"
    );
    assert!(store.privacy().erasure_pending(a.id).await.unwrap());

    // The next runs (plain sweeps) finish it.
    for _ in 0..5 {
        w.forget(time::Duration::seconds(11)).await;
        if !store.privacy().erasure_pending(a.id).await.unwrap() {
            break;
        }
    }
    assert!(!store.privacy().erasure_pending(a.id).await.unwrap());
    assert!(!store.privacy().erasure_pending(b.id).await.unwrap());
    let (a_end, b_end) = (
        all_of(&w, a_ids()).await,
        all_of(&w, 20_000..20_000 + N).await,
    );
    assert!(a_end.iter().chain(&b_end).all(erased_whole));
    assert_eq!(
        comparable(a_end),
        comparable(b_end),
        "killed and plain agree"
    );
    // Neither history lists anything any more.
    for user in [&a, &b] {
        let left = store.bookings().user_bookings(user.id, None).await.unwrap();
        assert!(left.is_empty(), "{}", left.len());
    }
}

#[tokio::test]
async fn retention_erases_bookings_finished_long_ago_reading_only_those() {
    let w = World::new().await;
    let user = w.app.user("keeper").await;
    let store = w.store();
    // 300 finished 3 days ago, 8 finished 100 days ago.
    let mut all = finished(&user, 10_000, 300, 3);
    all.extend(finished(&user, 20_000, 8, 100));
    store.bulk().bulk_load_bookings(all).await.unwrap();

    let metered = testkit::hooks::read_capacity().on(store);
    testkit::hooks::take_reads();
    let mut report = ForgetReport::default();
    metered
        .privacy()
        .forget_finished(store.now(), 90, 200, &mut report)
        .await
        .unwrap();
    let (rcu, items, calls) = testkit::hooks::take_reads();
    assert_eq!(report.retained_bookings, 8, "{report:?}");
    // The 8 index entries (one Query) and the 8 bookings (one BatchGetItem), then
    // the 8 writes (the meter counts every call): not the 300 kept ones.
    assert_eq!((items, calls), (16, 2 + 8), "{rcu} RCU");
    assert!(rcu <= 9.0, "{rcu} RCU");

    for b in all_of(&w, 20_000..20_008).await {
        assert_eq!(b.patient, Default::default());
        assert_eq!(b.user_phone, None);
        let p = b.pickup.unwrap();
        assert_eq!(p.point(), ROUNDED);
        assert!(p.landmark.0.is_none());
        // The requester still sees it as theirs.
        assert_eq!(b.username, "keeper");
        assert_eq!(
            serde_json::to_value(b.erased).unwrap()["reason"],
            "RETENTION"
        );
    }
    for b in all_of(&w, 10_000..10_010).await {
        assert_eq!(b.erased, None);
        assert_eq!(b.user_phone.as_deref(), Some(PHONE));
    }
    // Again: nothing due, one empty Query.
    let mut again = ForgetReport::default();
    metered
        .privacy()
        .forget_finished(store.now(), 90, 200, &mut again)
        .await
        .unwrap();
    assert_eq!(again, ForgetReport::default());
    let (_, items, calls) = testkit::hooks::take_reads();
    assert_eq!((items, calls), (0, 1));

    // A booking ended through the API waits for the sweep from the moment it ends,
    // and the setting decides when (the clock's sweep, 91 days on).
    let b = w.book(&user).await;
    w.complete(&b).await;
    assert_eq!(
        w.forget(time::Duration::days(80)).await.retained_bookings,
        0
    );
    assert_eq!(w.booking(&b["id"]).await.erased, None);
    // 91 days on, the 300 and then it, oldest first, at most SWEEP_BUDGET a sweep.
    let mut erased = vec![];
    loop {
        let n = w.forget(time::Duration::days(91)).await.retained_bookings;
        assert!(n <= SWEEP_BUDGET);
        if n == 0 {
            break;
        }
        erased.push(n);
    }
    assert_eq!(erased, [200, 101]);
    assert!(w.booking(&b["id"]).await.erased.is_some());
}

/// Every key path of `v` (array items as `[]`), the `erased` object's left out.
fn shape(v: &Value, at: &str, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(o) => {
            for (k, v) in o {
                let path = format!("{at}.{k}");
                if path.ends_with(".erased") {
                    continue;
                }
                out.insert(path.clone());
                shape(v, &path, out);
            }
        }
        Value::Array(a) => {
            for v in a {
                shape(v, &format!("{at}[]"), out);
            }
        }
        _ => {}
    }
}

fn shape_of(v: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    shape(v, "", &mut out);
    out
}

/// The personal values an erased booking must show nowhere.
fn assert_nothing_personal(view: &str, body: &Value, also: &[&str]) {
    let text = body.to_string();
    for secret in [
        PATIENT,
        CONDITION,
        LANDMARK,
        PHONE,
        &EXACT.lat.to_string(),
        &EXACT.lng.to_string(),
    ]
    .iter()
    .chain(also)
    {
        assert!(!text.contains(secret), "{view} shows {secret}: {text}");
    }
}

#[tokio::test]
async fn every_view_of_an_erased_booking_shows_nothing_personal_and_nothing_new() {
    let w = World::new().await;
    let ambulance = Id::try_from(w.ambulance["id"].as_u64().unwrap()).unwrap();
    let crew = w.app.crew("crew_p", ambulance).await;
    let owner = w.app.user("owner").await;
    let booking = w.book(&owner).await;
    let id = booking["id"].clone();
    let share = w
        .app
        .post(
            &format!("/api/booking/{id}/share"),
            Some(&owner.token),
            json!({}),
        )
        .await;
    share.assert_status(StatusCode::CREATED);
    let token = share.body["token"].as_str().unwrap().to_owned();
    w.complete(&booking).await;
    // The clock's next beat closes the ended job's alerts.
    w.forget(time::Duration::ZERO).await;

    let admin = w.admin.token.clone();
    let views: Vec<(&str, String, Option<String>)> = vec![
        (
            "owner's booking",
            format!("/api/booking/{id}"),
            Some(owner.token.clone()),
        ),
        (
            "owner's history",
            "/api/booking/history".into(),
            Some(owner.token.clone()),
        ),
        (
            "owner's tracking",
            format!("/api/booking/{id}/track"),
            Some(owner.token.clone()),
        ),
        (
            "admin's booking",
            format!("/api/booking/{id}"),
            Some(admin.clone()),
        ),
        (
            "admin's page",
            "/api/admin/bookings/all/paged".into(),
            Some(admin.clone()),
        ),
        (
            "admin's history of the owner",
            format!("/api/booking/history?userId={}", owner.id),
            Some(admin.clone()),
        ),
        (
            "admin's tracking",
            format!("/api/booking/{id}/track"),
            Some(admin.clone()),
        ),
        ("live map", "/api/admin/live".into(), Some(admin.clone())),
        ("alerts", "/api/admin/alerts".into(), Some(admin.clone())),
        (
            "crew's screen",
            "/api/crew/me".into(),
            Some(crew.token.clone()),
        ),
        (
            "crew's tracking",
            format!("/api/booking/{id}/track"),
            Some(crew.token.clone()),
        ),
        ("family link", format!("/api/booking/shared/{token}"), None),
    ];
    let look = async |views: &[(&str, String, Option<String>)]| {
        let mut out = vec![];
        for (name, uri, token) in views {
            let res = w.app.get(uri, token.as_deref()).await;
            out.push((name.to_string(), res.status, res.body));
        }
        out
    };
    let before = look(&views).await;
    assert!(
        before[0].2.to_string().contains(PATIENT),
        "the owner sees the patient before"
    );

    // Retention (the clock, 91 days on): the owner's views too.
    w.forget(time::Duration::days(91)).await;
    assert!(w.booking(&id).await.erased.is_some());
    let after = look(&views).await;
    for ((name, status, body), (_, was_status, was)) in after.iter().zip(&before) {
        assert_eq!(status, was_status, "{name}: {body}");
        assert_nothing_personal(name, body, &[]);
        let new: Vec<String> = shape_of(body).difference(&shape_of(was)).cloned().collect();
        assert!(new.is_empty(), "{name} shows more than before: {new:?}");
    }

    // The account deleted: what staff and the family still see names nobody.
    w.delete_account(&owner.token, password())
        .await
        .assert_status(StatusCode::NO_CONTENT);
    let staff_views: Vec<_> = views
        .into_iter()
        .filter(|(name, ..)| !name.starts_with("owner"))
        .collect();
    let deleted = look(&staff_views).await;
    for (name, status, body) in &deleted {
        assert!(!status.is_server_error(), "{name}: {status} {body}");
        assert_nothing_personal(name, body, &["owner@example.com", "\"owner\""]);
        let was = &before.iter().find(|(n, ..)| n == name).unwrap().2;
        let new: Vec<String> = shape_of(body).difference(&shape_of(was)).cloned().collect();
        assert!(new.is_empty(), "{name} shows more than before: {new:?}");
    }
}

#[tokio::test]
async fn who_looked_at_patient_details_is_recorded_and_listed_for_the_owner() {
    let w = World::new().await;
    let owner = w.app.user("patient_owner").await;
    let booking = w.book(&owner).await;
    let id = booking["id"].clone();
    let booking_id = Id::try_from(id.as_u64().unwrap()).unwrap();
    let reads = async || w.store().privacy().patient_reads(booking_id).await.unwrap();

    // Lists show staff the patient's name only, and record nothing.
    let page = w
        .app
        .get("/api/admin/bookings/all/paged", Some(&w.admin.token))
        .await
        .body;
    assert_eq!(
        page["content"][0]["patient"],
        json!({"name": PATIENT, "age": null, "gender": null, "condition": null})
    );
    let history = w
        .app
        .get(
            &format!("/api/booking/history?userId={}", owner.id),
            Some(&w.admin.token),
        )
        .await
        .body;
    assert_eq!(history[0]["patient"]["condition"], Value::Null);
    // The owner sees their own, whole, and is not recorded.
    let own = w
        .app
        .get(&format!("/api/booking/{id}"), Some(&owner.token))
        .await;
    assert_eq!(own.body["patient"]["condition"], CONDITION);
    assert!(reads().await.is_empty());

    // An admin opening it: whole, and recorded (who, when, which booking).
    let opened = w
        .app
        .get(&format!("/api/booking/{id}"), Some(&w.admin.token))
        .await;
    opened.assert_status(StatusCode::OK);
    assert_eq!(opened.body["patient"]["condition"], CONDITION);
    let recorded = reads().await;
    assert_eq!(recorded.len(), 1);
    assert_eq!(
        serde_json::to_value(&recorded[0]).unwrap()["by"],
        json!({"id": w.admin.id.get(), "username": "admin", "role": "ADMIN"})
    );
    assert_eq!(recorded[0].booking_id, booking_id);

    // A record that cannot be written answers no details (fails closed).
    let failing = Hooks::new("no-audit")
        .on_input(|context| {
            let is_tx = context
                .input()
                .downcast_ref::<aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsInput>()
                .is_some();
            if is_tx {
                Err("the audit write fails".into())
            } else {
                Ok(())
            }
        })
        .on(w.store());
    let mut state = w.app.state.clone();
    state.store = failing;
    let broken = TestApp::with_state(state, api_tests::system);
    let res = broken
        .get(&format!("/api/booking/{id}"), Some(&w.admin.token))
        .await;
    assert!(res.status.is_server_error(), "{}", res.status);
    assert!(!res.body.to_string().contains(CONDITION));
    assert_eq!(reads().await.len(), 1);

    // The owner's export lists it.
    let export = w.app.get("/api/user/export", Some(&owner.token)).await;
    export.assert_status(StatusCode::OK);
    assert_eq!(
        export.body["patientReads"],
        json!([{"bookingId": id, "at": recorded[0].at.to_string(),
                "by": {"id": w.admin.id.get(), "username": "admin", "role": "ADMIN"}}])
    );
}

#[tokio::test]
async fn the_export_holds_everything_held_about_the_caller_and_nobody_elses() {
    let w = World::new().await;
    let owner = w.app.user("exporter").await;
    let other = w.app.user("someone_else").await;
    let push = PushService::start(&vapid().public_key).await;
    w.app
        .put(
            "/api/push/subscription",
            Some(&owner.token),
            push.device().subscription(),
        )
        .await
        .assert_status(StatusCode::NO_CONTENT);
    let booking = w.book(&owner).await;
    let id = booking["id"].clone();
    w.app
        .post(
            &format!("/api/booking/{id}/share"),
            Some(&owner.token),
            json!({}),
        )
        .await
        .assert_status(StatusCode::CREATED);
    w.complete(&booking).await;
    let theirs = w.book(&other).await;

    let res = w.app.get("/api/user/export", Some(&owner.token)).await;
    res.assert_status(StatusCode::OK);
    let e = &res.body;
    assert_eq!(e["profile"]["username"], "exporter");
    assert_eq!(e["profile"]["email"], "exporter@example.com");
    assert_eq!(e["profile"]["phone"], PHONE);
    let bookings = e["bookings"].as_array().unwrap();
    assert_eq!(bookings.len(), 1);
    assert_eq!(bookings[0]["id"], id);
    assert_ne!(bookings[0]["id"], theirs["id"]);
    assert_eq!(bookings[0]["patient"]["condition"], CONDITION);
    let stages: Vec<&str> = bookings[0]["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["stage"].as_str().unwrap())
        .collect();
    assert_eq!(stages, ["PENDING", "ACTIVE", "DISPATCHED", "COMPLETED"]);
    let devices = e["devices"].as_array().unwrap();
    assert_eq!(devices.len(), 1);
    assert_eq!(devices[0]["pushService"], "127.0.0.1");
    assert!(devices[0]["createdAt"].is_string() && devices[0]["lapsesAt"].is_string());
    let links = e["shareLinks"].as_array().unwrap();
    assert_eq!(links.len(), 1);
    assert_eq!(links[0]["bookingId"], id);
    assert!(links[0]["expiresAt"].as_str() > links[0]["createdAt"].as_str());
    assert_eq!(e["patientReads"], json!([]));
    // No credential, nobody else's.
    let text = e.to_string();
    for absent in [
        "passwordHash",
        "p256dh",
        "\"auth\"",
        "endpoint",
        "someone_else",
    ] {
        assert!(!text.contains(absent), "the export shows {absent}");
    }
    // Every role takes its own; without a token, nothing.
    let staff = w.app.get("/api/user/export", Some(&w.admin.token)).await;
    staff.assert_status(StatusCode::OK);
    assert_eq!(staff.body["profile"]["role"], "ADMIN");
    w.app
        .get("/api/user/export", None)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn an_ambulances_last_position_goes_30_days_after_its_last_report() {
    let w = World::new().await;
    let ambulance = Id::try_from(w.ambulance["id"].as_u64().unwrap()).unwrap();
    let crew = w.app.crew("crew_ttl", ambulance).await;
    let ttl = async || {
        let store = w.store();
        let out = store
            .client()
            .get_item()
            .table_name(store.table())
            .set_key(Some(store::keys::position(ambulance).item()))
            .consistent_read(true)
            .send()
            .await
            .unwrap();
        let item = out.item.expect("the position is kept");
        item["ttl"].as_n().unwrap().parse::<i64>().unwrap()
    };
    for _ in 0..2 {
        w.store().advance_clock(time::Duration::seconds(5));
        w.app
            .put(
                "/api/crew/location",
                Some(&crew.token),
                json!({"latitude": 30.70, "longitude": 74.33,
                       "recordedAt": format_rfc3339(time::OffsetDateTime::now_utc())}),
            )
            .await
            .assert_status(StatusCode::NO_CONTENT);
        // 30 days after the report as the server received it (its clock).
        let expected = (w.store().now() + time::Duration::days(30)).unix_timestamp();
        assert!(
            (ttl().await - expected).abs() <= 5,
            "{} vs {expected}",
            ttl().await
        );
    }
}
