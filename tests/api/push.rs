//! Alerts that reach a locked phone (decision 0014), end to end
//! on DynamoDB Local: devices subscribe through `/api/push`, the requests write as
//! always, and notify reads the table's real stream (its local poller, the Lambda's
//! handler) and pushes to a push-service stand-in on loopback, which decrypts every
//! push with the device's own key and checks its VAPID signature and claims
//! (`testkit::push_service`). Who gets what is checked for every move of the
//! contract's table.

use std::time::Duration;

use domain::booking::TripStage;
use http::{Method, StatusCode};
use notify::{Notifier, Sender, Vapid, poll};
use serde_json::{Value, json};
use testkit::{
    TEST_PASSWORD, TestApp, TestUser,
    push_service::{PushService, TestDevice, vapid},
};

use crate::{
    deadlines::{PAST_EMERGENCY, fleet_over},
    helpers::steps_between,
};

/// Long enough for a push to come through a loaded CI machine's stream.
const WAIT: Duration = Duration::from_secs(20);

/// Waits between the tries of a failed push in these tests (SQS delays by whole
/// seconds).
pub const TEST_RETRY_DELAYS: [Duration; 3] = [Duration::from_secs(1); 3];

/// The notifier the stack runs, with the tests' VAPID key, a deliveries queue of the
/// test's own on moto's SQS (`testkit::sqs_endpoint`) and short waits between tries.
pub async fn notifier(store: &store::Store) -> Notifier {
    let vapid = Vapid::new(&vapid().private_key, "mailto:ops@example.com").unwrap();
    let queue = notify::queue::local(
        &testkit::sqs_endpoint(),
        &format!("deliveries-{}", store.table()),
    )
    .await
    .expect("a deliveries queue on moto's SQS");
    Notifier::new(
        store.clone(),
        Sender::new(vapid, domain::push::Endpoints::local(&[])),
        queue,
    )
    .with_retry_delays(&TEST_RETRY_DELAYS)
}

/// notify as the local stack runs it over the app's table: the stream's poller from
/// its beginning and the deliveries queue's consumer, until the returned task is
/// dropped.
async fn start_notify(app: &TestApp) -> AbortOnDrop {
    let notifier = notifier(&app.state.store).await;
    let streams = poll::LocalStreams::new(&testkit::endpoint());
    AbortOnDrop(tokio::spawn(async move {
        let every = Duration::from_millis(50);
        let stream = poll::poll(&notifier, &streams, every, poll::Start::Beginning);
        let sends = notify::queue::consume(&notifier);
        if let Err(e) = tokio::try_join!(stream, sends) {
            panic!("notify stopped: {e}");
        }
    }))
}

struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

async fn subscribe(app: &TestApp, token: &str, device: &TestDevice) {
    app.put("/api/push/subscription", Some(token), device.subscription())
        .await
        .assert_status(StatusCode::NO_CONTENT);
}

/// The one push `device` receives next (after the `seen` it already had).
async fn next(service: &PushService, device: &TestDevice, seen: &mut usize) -> Value {
    let got = service.wait_for(device, *seen + 1, WAIT).await;
    assert!(
        got.len() > *seen,
        "device {} got no push after {seen}; rejected: {:?}",
        device.id,
        service.rejected()
    );
    *seen += 1;
    got[*seen - 1].clone()
}

#[tokio::test]
async fn the_key_is_public_and_a_browser_can_subscribe_with_it() {
    let app = TestApp::with_state(testkit::streamed_state().await, api_tests::system);
    let res = app.get("/api/push/key", None).await;
    res.assert_status(StatusCode::OK);
    let key = res.body["publicKey"].as_str().unwrap();
    assert_eq!(key.len(), 87);
    assert_eq!(key, vapid().public_key);
    // A bad token is refused even here (public reads check one that is sent).
    app.get("/api/push/key", Some("nope"))
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
}

/// Every move of the contract's table, through the routers, the clock and the
/// table's stream: who is told, what, with which TTL and urgency.
#[tokio::test]
async fn each_move_tells_whom_the_contract_says() {
    let (w, _, crews) = fleet_over(testkit::streamed_state().await, &["AMB-01", "AMB-02"]).await;
    let service = PushService::start(&vapid().public_key).await;
    let _notify = start_notify(&w.app).await;
    let requester = w.app.user("caller").await;
    let [crew1, crew2, phone, desk] = [0; 4].map(|_| service.device());
    subscribe(&w.app, &crews[0].token, &crew1).await;
    subscribe(&w.app, &crews[1].token, &crew2).await;
    subscribe(&w.app, &requester.token, &phone).await;
    subscribe(&w.app, &w.admin.token, &desk).await;
    let (mut c1, mut c2, mut p, mut d) = (0, 0, 0, 0);

    // A one-tap emergency: the nearest crew gets the JOB, the requester DISPATCHED.
    let res = w
        .emergency(&requester, &crate::emergency::pickup_body(), None)
        .await;
    res.assert_status(StatusCode::CREATED);
    let booking = res.body;
    let id = &booking["id"];
    let job = next(&service, &crew1, &mut c1).await;
    assert_eq!(
        job,
        json!({"kind": "JOB", "bookingId": id, "bookingType": "EMERGENCY",
               "answerBy": booking["answerBy"], "distanceKm": 1.0}),
        "the hospital of AMB-01 is 1 km from the pickup"
    );
    // Waiting for the crew to accept, until when (decision 0020).
    let trip = next(&service, &phone, &mut p).await;
    assert_eq!(
        trip,
        json!({"kind": "TRIP", "bookingId": id, "tripStage": "DISPATCHED", "ambulanceNumber": "AMB-01",
               "answerBy": booking["answerBy"]})
    );

    // Nobody answers: the clock moves it. The new crew gets the JOB, the old one
    // JOB_GONE, the requester REASSIGNED (waiting again) and, a minute on with no
    // crew's accept, NO_AMBULANCE; every admin the NOT_RESPONDING and the
    // emergency's UNANSWERED alerts (decision 0020).
    w.later(PAST_EMERGENCY);
    assert_eq!(w.sweep().await.moved, 1);
    let job = next(&service, &crew2, &mut c2).await;
    assert_eq!((&job["kind"], &job["bookingId"]), (&json!("JOB"), id));
    assert_eq!(job["distanceKm"], 2.0);
    assert_eq!(
        next(&service, &crew1, &mut c1).await,
        json!({"kind": "JOB_GONE", "bookingId": id})
    );
    let moved = w
        .app
        .get(&format!("/api/booking/{id}"), Some(&w.admin.token))
        .await;
    let mut told = [
        next(&service, &phone, &mut p).await,
        next(&service, &phone, &mut p).await,
    ];
    told.sort_by_key(|t| t["tripStage"].to_string());
    assert_eq!(
        told,
        [
            json!({"kind": "TRIP", "bookingId": id, "tripStage": "NO_AMBULANCE"}),
            json!({"kind": "TRIP", "bookingId": id, "tripStage": "REASSIGNED", "ambulanceNumber": "AMB-02",
                   "answerBy": moved.body["answerBy"]}),
        ]
    );
    let mut alerts = [
        next(&service, &desk, &mut d).await,
        next(&service, &desk, &mut d).await,
    ];
    alerts.sort_by_key(|a| a["alertKind"].to_string());
    for (alert, kind) in alerts.iter().zip(["NOT_RESPONDING", "UNANSWERED"]) {
        assert_eq!(
            (&alert["kind"], &alert["alertKind"], &alert["bookingId"]),
            (&json!("ALERT"), &json!(kind), id)
        );
        assert!(alert["alertId"].is_u64(), "{alert}");
    }

    // The crew accepts: on its way, only now; then arrives: the requester is told.
    w.accept(&crews[1], &booking)
        .await
        .assert_status(StatusCode::OK);
    assert_eq!(
        next(&service, &phone, &mut p).await,
        json!({"kind": "TRIP", "bookingId": id, "tripStage": "ACCEPTED", "ambulanceNumber": "AMB-02"})
    );
    w.app
        .crew_step(
            Some(&crews[1].token),
            json!({"bookingId": id, "stage": "AT_PICKUP"}),
        )
        .await
        .assert_status(StatusCode::OK);
    assert_eq!(
        next(&service, &phone, &mut p).await,
        json!({"kind": "TRIP", "bookingId": id, "tripStage": "AT_PICKUP", "ambulanceNumber": "AMB-02"})
    );

    // Nothing else: no stray push, none refused by the stand-in's checks, each
    // one high-urgency and no longer-lived than it stays true.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(service.rejected(), Vec::<String>::new());
    assert_eq!(
        service.payloads(&crew1).len(),
        c1,
        "{:?}",
        service.payloads(&crew1)
    );
    assert_eq!(
        service.payloads(&crew2).len(),
        c2,
        "{:?}",
        service.payloads(&crew2)
    );
    assert_eq!(
        service.payloads(&desk).len(),
        d,
        "{:?}",
        service.payloads(&desk)
    );
    assert_eq!(
        service.payloads(&phone).len(),
        p,
        "{:?}",
        service.payloads(&phone)
    );
    for r in service.received() {
        assert_eq!(r.urgency, "high");
        let limit = if r.payload["kind"] == "JOB" { 60 } else { 3600 };
        assert!(r.ttl <= limit && r.ttl > 0, "{r:?}");
    }
}

/// The receiving hospital (docs/decisions/0026-receiving-hospital.md): the staff of
/// the trip's destination, and only they, hear when the ambulance sets off for it
/// (with an ETA) and when it arrives; a destination changed before then moves the
/// news to the new hospital.
#[tokio::test]
async fn the_destination_hospital_hears_the_ambulance_set_off_and_arrive() {
    let (w, ambulances, crews) =
        fleet_over(testkit::streamed_state().await, &["AMB-01", "AMB-02"]).await;
    let service = PushService::start(&vapid().public_key).await;
    let _notify = start_notify(&w.app).await;
    let requester = w.app.user("caller").await;
    let hospital_of = |i: usize| {
        domain::types::Id::try_from(ambulances[i]["hospitalId"].as_u64().unwrap()).unwrap()
    };
    let own = w.app.hospital_staff("er-own", hospital_of(0)).await;
    let other = w.app.hospital_staff("er-other", hospital_of(1)).await;
    let [own_desk, other_desk] = [0; 2].map(|_| service.device());
    subscribe(&w.app, &own.token, &own_desk).await;
    subscribe(&w.app, &other.token, &other_desk).await;
    let (mut o, mut x) = (0, 0);

    let res = w
        .emergency(&requester, &crate::emergency::pickup_body(), None)
        .await;
    res.assert_status(StatusCode::CREATED);
    let booking = res.body;
    let id = &booking["id"];
    assert_eq!(booking["ambulance"]["number"], "AMB-01");
    let step = async |stage: &str| {
        w.app
            .crew_step(
                Some(&crews[0].token),
                json!({"bookingId": id, "stage": stage}),
            )
            .await
            .assert_status(StatusCode::OK);
    };
    w.accept(&crews[0], &booking)
        .await
        .assert_status(StatusCode::OK);
    for s in steps_between(TripStage::EnRoute, TripStage::ToHospital) {
        step(&s).await;
    }
    let coming = next(&service, &own_desk, &mut o).await;
    assert_eq!(
        (&coming["kind"], &coming["bookingId"], &coming["tripStage"]),
        (&json!("INCOMING"), id, &json!("TO_HOSPITAL"))
    );
    assert_eq!(coming["bookingType"], "EMERGENCY");
    assert_eq!(coming["ambulanceNumber"], "AMB-01");
    assert!(coming["etaMinutes"].is_u64(), "{coming}");
    step("AT_HOSPITAL").await;
    assert_eq!(
        next(&service, &own_desk, &mut o).await,
        json!({"kind": "INCOMING", "bookingId": id, "bookingType": "EMERGENCY",
               "tripStage": "AT_HOSPITAL", "ambulanceNumber": "AMB-01", "etaMinutes": null})
    );
    step("COMPLETED").await;

    // A second trip whose crew drives to the other hospital: the news goes there.
    let res = w
        .emergency(&requester, &crate::emergency::pickup_body(), None)
        .await;
    res.assert_status(StatusCode::CREATED);
    let second = res.body;
    let id = &second["id"];
    assert_eq!(second["ambulance"]["number"], "AMB-01");
    let step = async |stage: &str| {
        w.app
            .crew_step(
                Some(&crews[0].token),
                json!({"bookingId": id, "stage": stage}),
            )
            .await
            .assert_status(StatusCode::OK);
    };
    w.accept(&crews[0], &second)
        .await
        .assert_status(StatusCode::OK);
    w.app
        .call(
            Method::PATCH,
            "/api/crew/job/destination",
            Some(&crews[0].token),
            Some(json!({"bookingId": id, "hospitalId": hospital_of(1)})),
        )
        .await
        .assert_status(StatusCode::OK);
    for s in steps_between(TripStage::EnRoute, TripStage::ToHospital) {
        step(&s).await;
    }
    let coming = next(&service, &other_desk, &mut x).await;
    assert_eq!(
        (&coming["kind"], &coming["bookingId"], &coming["tripStage"]),
        (&json!("INCOMING"), id, &json!("TO_HOSPITAL"))
    );
    step("AT_HOSPITAL").await;
    let arrived = next(&service, &other_desk, &mut x).await;
    assert_eq!(arrived["tripStage"], "AT_HOSPITAL");

    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(service.rejected(), Vec::<String>::new());
    assert_eq!(
        service.payloads(&own_desk).len(),
        o,
        "{:?}",
        service.payloads(&own_desk)
    );
    assert_eq!(
        service.payloads(&other_desk).len(),
        x,
        "{:?}",
        service.payloads(&other_desk)
    );
    for r in service.received() {
        assert_eq!(r.urgency, "high");
        assert!(r.ttl <= 3600 && r.ttl > 0, "{r:?}");
    }
}

/// The rows the first test does not reach: a cancelled job, and a job nobody
/// takes with no ambulance left (a world of its own: the store's clock has not
/// moved, so each new job's answer deadline is a minute ahead of it).
#[tokio::test]
async fn a_cancelled_job_and_a_job_nobody_takes() {
    let (w, ambs, crews) = fleet_over(testkit::streamed_state().await, &["AMB-01"]).await;
    let service = PushService::start(&vapid().public_key).await;
    let _notify = start_notify(&w.app).await;
    let [crew, desk, phone] = [0; 3].map(|_| service.device());
    subscribe(&w.app, &crews[0].token, &crew).await;
    subscribe(&w.app, &w.admin.token, &desk).await;
    let (mut c, mut d, mut p) = (0, 0, 0);

    // The requester cancels: the crew is told the job is gone.
    let (first_user, first) = w.sos("first").await;
    assert_eq!(first["ambulanceId"], ambs[0]["id"]);
    assert_eq!(next(&service, &crew, &mut c).await["kind"], "JOB");
    w.cancel(&first_user, &first)
        .await
        .assert_status(StatusCode::OK);
    assert_eq!(
        next(&service, &crew, &mut c).await,
        json!({"kind": "JOB_GONE", "bookingId": first["id"]})
    );

    // Nobody answers the next one and no other ambulance is free: every admin gets
    // the UNANSWERED alert, the requester NO_AMBULANCE.
    let user = w.app.user("second").await;
    subscribe(&w.app, &user.token, &phone).await;
    let second = w
        .emergency(&user, &crate::emergency::pickup_body(), None)
        .await
        .body;
    assert_eq!(next(&service, &crew, &mut c).await["kind"], "JOB");
    assert_eq!(
        next(&service, &phone, &mut p).await["tripStage"],
        "DISPATCHED"
    );
    w.later(PAST_EMERGENCY);
    w.sweep().await;
    assert_eq!(
        next(&service, &phone, &mut p).await,
        json!({"kind": "TRIP", "bookingId": second["id"], "tripStage": "NO_AMBULANCE"})
    );
    let alert = next(&service, &desk, &mut d).await;
    assert_eq!(
        alert,
        json!({"kind": "ALERT", "alertId": alert["alertId"], "alertKind": "UNANSWERED", "bookingId": second["id"]})
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(service.rejected(), Vec::<String>::new());
    assert_eq!(
        service.payloads(&crew).len(),
        c,
        "{:?}",
        service.payloads(&crew)
    );
    assert_eq!(
        service.payloads(&desk).len(),
        d,
        "{:?}",
        service.payloads(&desk)
    );
}

/// Waits until `done` holds (or fails the test after [`WAIT`], saying `what`).
async fn until(what: &str, mut done: impl AsyncFnMut() -> bool) {
    let until = std::time::Instant::now() + WAIT;
    while !done().await {
        assert!(std::time::Instant::now() < until, "{what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_gone_subscription_is_deleted_and_a_failing_one_is_tried_four_times_alone() {
    let (w, _, crews) = fleet_over(testkit::streamed_state().await, &["AMB-01", "AMB-02"]).await;
    let service = PushService::start(&vapid().public_key).await;
    let _notify = start_notify(&w.app).await;
    let requester = w.app.user("caller").await;
    let gone = service.device();
    let broken = service.device();
    let fine = service.device();
    subscribe(&w.app, &crews[0].token, &gone).await;
    subscribe(&w.app, &crews[0].token, &broken).await;
    subscribe(&w.app, &requester.token, &fine).await;
    service.answer(&gone, StatusCode::GONE);
    service.answer(&broken, StatusCode::INTERNAL_SERVER_ERROR);

    // The dispatch answers as always: pushing is not on its path.
    let started = std::time::Instant::now();
    let res = w
        .emergency(&requester, &crate::emergency::pickup_body(), None)
        .await;
    res.assert_status(StatusCode::CREATED);
    assert!(started.elapsed() < Duration::from_secs(5));

    // 410: that subscription is deleted, the other device of the crew stays.
    let crew = crews[0].id;
    until("the gone subscription is still there", async || {
        let endpoints: Vec<String> = w
            .store()
            .push()
            .devices(crew)
            .await
            .unwrap()
            .into_iter()
            .map(|d| d.subscription.endpoint().to_owned())
            .collect();
        !endpoints.contains(&gone.endpoint)
    })
    .await;
    assert_eq!(
        w.store().push().devices(crew).await.unwrap().len(),
        1,
        "the broken device stays"
    );
    // 500: tried 4 times in all, a second apart, then dropped; the requester's push
    // came at once, not after them.
    until("four tries of the broken device", async || {
        service.attempts(&broken) >= 4
    })
    .await;
    tokio::time::sleep(TEST_RETRY_DELAYS[0] * 2).await;
    assert_eq!(service.attempts(&broken), 4);
    assert_eq!(service.attempts(&gone), 1);
    let told = service.payloads(&fine);
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(told[0]["tripStage"], "DISPATCHED");
    // The stream goes on: a later write still pushes.
    w.later(PAST_EMERGENCY);
    w.sweep().await;
    until("no REASSIGNED after a failed push", async || {
        service
            .payloads(&fine)
            .iter()
            .any(|t| t["tripStage"] == "REASSIGNED")
    })
    .await;
    assert_eq!(service.rejected(), Vec::<String>::new());
}

/// One user's devices that never answer, answer 503 or answer after 5 s hold up
/// nobody else's push: the next dispatch's crew hears of its job at once.
#[tokio::test]
async fn a_slow_or_broken_device_delays_no_other_push() {
    let (w, _, crews) = fleet_over(testkit::streamed_state().await, &["AMB-01", "AMB-02"]).await;
    let service = PushService::start(&vapid().public_key).await;
    let _notify = start_notify(&w.app).await;
    let attacker = w.app.user("attacker").await;
    let [hangs, fails, slow] = [0; 3].map(|_| service.device());
    for d in [&hangs, &fails, &slow] {
        subscribe(&w.app, &attacker.token, d).await;
    }
    service.delay(&hangs, Duration::from_secs(600));
    service.answer(&fails, StatusCode::SERVICE_UNAVAILABLE);
    service.delay(&slow, Duration::from_secs(5));
    let crew2 = service.device();
    subscribe(&w.app, &crews[1].token, &crew2).await;

    w.emergency(&attacker, &crate::emergency::pickup_body(), None)
        .await
        .assert_status(StatusCode::CREATED);
    // The attacker's pushes are on their way (and stuck) before the next dispatch.
    until("the attacker's devices are tried", async || {
        [&hangs, &fails, &slow]
            .iter()
            .all(|d| service.attempts(d) >= 1)
    })
    .await;
    let other = w.app.user("other").await;
    let res = w
        .emergency(&other, &crate::emergency::pickup_body(), None)
        .await;
    res.assert_status(StatusCode::CREATED);
    let committed = std::time::Instant::now();
    let job = next(&service, &crew2, &mut 0).await;
    let took = service
        .received()
        .into_iter()
        .find(|r| r.device == crew2.id)
        .unwrap()
        .at
        .saturating_duration_since(committed);
    assert_eq!(
        (&job["kind"], &job["bookingId"]),
        (&json!("JOB"), &res.body["id"])
    );
    // Before decision 0019 this waited for the hanging device: 5 s an attempt.
    assert!(
        took < Duration::from_secs(2),
        "the JOB came {took:?} after the dispatch"
    );
    // Each bad device is tried alone, at most 4 times, then dropped.
    until("the 503 device's four tries", async || {
        service.attempts(&fails) >= 4
    })
    .await;
    assert_eq!(service.attempts(&fails), 4);
    assert_eq!(service.rejected(), Vec::<String>::new());
}

#[tokio::test]
async fn bad_subscriptions_are_refused_naming_the_field() {
    let app = TestApp::with_state(testkit::streamed_state().await, api_tests::system);
    let user = app.user("asha").await;
    let service = PushService::start(&vapid().public_key).await;
    let good = service.device().subscription();
    let with = |path: &[&str], value: Value| {
        let mut body = good.clone();
        let mut at = &mut body;
        for p in &path[..path.len() - 1] {
            at = &mut at[*p];
        }
        at[path[path.len() - 1]] = value;
        body
    };
    let long = format!("https://push.example/{}", "a".repeat(990));
    let cases = [
        (
            with(&["endpoint"], json!("http://push.example/x")),
            "endpoint",
        ),
        (
            with(&["endpoint"], json!("ftp://push.example/x")),
            "endpoint",
        ),
        (with(&["endpoint"], json!(long)), "endpoint"),
        // Push services only (decision 0019): no address, no other host or port.
        (
            with(&["endpoint"], json!("https://10.0.0.5:8443/x")),
            "endpoint",
        ),
        (with(&["endpoint"], json!("https://10.0.0.5/x")), "endpoint"),
        (
            with(&["endpoint"], json!("https://push.example/x")),
            "endpoint",
        ),
        (
            with(&["endpoint"], json!("https://fcm.googleapis.com:8443/x")),
            "endpoint",
        ),
        (with(&["endpoint"], json!(5)), "endpoint"),
        (with(&["keys", "p256dh"], json!("AAAA")), "keys.p256dh"),
        (
            with(&["keys", "p256dh"], json!("not base64!")),
            "keys.p256dh",
        ),
        (with(&["keys", "auth"], json!("AAAA")), "keys.auth"),
        (with(&["keys", "auth"], json!(null)), "keys.auth"),
        (json!({"endpoint": good["endpoint"]}), "keys"),
        (with(&["extra"], json!(1)), "extra"),
    ];
    for (body, field) in cases {
        let res = app
            .put("/api/push/subscription", Some(&user.token), body)
            .await;
        res.assert_field(StatusCode::BAD_REQUEST, field);
    }
    let res = app
        .call(
            Method::DELETE,
            "/api/push/subscription",
            Some(&user.token),
            Some(json!({"endpoint": "nope"})),
        )
        .await;
    res.assert_field(StatusCode::BAD_REQUEST, "endpoint");
    // Nothing was stored.
    assert!(
        app.state
            .store
            .push()
            .devices(user.id)
            .await
            .unwrap()
            .is_empty()
    );
}

async fn sign_in(app: &TestApp, username: &str) -> Value {
    let res = app
        .login(json!({"username": username, "password": TEST_PASSWORD}))
        .await;
    res.assert_status(StatusCode::OK);
    res.body
}

async fn endpoints(app: &TestApp, user: &TestUser) -> Vec<String> {
    let mut out: Vec<String> = app
        .state
        .store
        .push()
        .devices(user.id)
        .await
        .unwrap()
        .into_iter()
        .map(|d| d.subscription.endpoint().to_owned())
        .collect();
    out.sort();
    out
}

#[tokio::test]
async fn five_devices_at_most_and_each_ends_with_its_session() {
    let app = TestApp::with_state(testkit::streamed_state().await, api_tests::system);
    let user = app.user("asha").await;
    let service = PushService::start(&vapid().public_key).await;
    let devices: Vec<TestDevice> = (0..6).map(|_| service.device()).collect();
    for d in &devices {
        subscribe(&app, &user.token, d).await;
    }
    // The same device again changes nothing; the oldest was dropped for the sixth.
    subscribe(&app, &user.token, &devices[5]).await;
    let mut kept: Vec<String> = devices[1..].iter().map(|d| d.endpoint.clone()).collect();
    kept.sort();
    assert_eq!(endpoints(&app, &user).await, kept);
    // DELETE removes one; an unknown endpoint is fine.
    for d in [&devices[1], &devices[0]] {
        app.call(
            Method::DELETE,
            "/api/push/subscription",
            Some(&user.token),
            Some(json!({"endpoint": d.endpoint})),
        )
        .await
        .assert_status(StatusCode::NO_CONTENT);
    }
    assert_eq!(endpoints(&app, &user).await.len(), 4);

    // Two signed-in phones: signing one out deletes its subscription only.
    let bob = app.user("bob").await;
    let (one, two) = (sign_in(&app, "bob").await, sign_in(&app, "bob").await);
    let (phone1, phone2) = (service.device(), service.device());
    subscribe(&app, one["token"].as_str().unwrap(), &phone1).await;
    subscribe(&app, two["token"].as_str().unwrap(), &phone2).await;
    app.post(
        "/api/auth/logout",
        None,
        json!({"refreshToken": one["refreshToken"]}),
    )
    .await
    .assert_status(StatusCode::NO_CONTENT);
    assert_eq!(
        endpoints(&app, &bob).await,
        std::slice::from_ref(&phone2.endpoint)
    );
    // A new password ends every session: every device goes.
    app.edit_profile(
        two["token"].as_str(),
        json!({"email": "bob@example.com", "password": "a-new-password-1", "currentPassword": TEST_PASSWORD}),
    )
    .await
    .assert_status(StatusCode::OK);
    assert!(endpoints(&app, &bob).await.is_empty());
    // Another user's devices are untouched.
    assert_eq!(endpoints(&app, &user).await.len(), 4);

    // A device not subscribed again for as long as an unused session lives lapses
    // (its session ran out on its own); subscribing again renews it.
    subscribe(&app, &user.token, &devices[2]).await;
    app.state.store.advance_clock(time::Duration::days(29));
    let again = sign_in(&app, "asha").await;
    subscribe(&app, again["token"].as_str().unwrap(), &devices[3]).await;
    app.state.store.advance_clock(time::Duration::days(2));
    assert_eq!(
        endpoints(&app, &user).await,
        std::slice::from_ref(&devices[3].endpoint)
    );
}

/// DynamoDB Local writes an empty map as `{}` in stream records; the poller mends it
/// to DynamoDB's `{"M": {}}` at any depth, and nothing else.
#[test]
fn an_empty_map_in_a_local_stream_record_reads_as_dynamodb_writes_it() {
    let mut answer = json!({"Records": [{"eventName": "MODIFY", "dynamodb": {
        "SequenceNumber": "1",
        "Keys": {"pk": {"S": "HOSPITAL_INDEX"}, "sk": {"S": "MANIFEST"}},
        "NewImage": {"pk": {"S": "HOSPITAL_INDEX"}, "chunks": {},
                     "log": {"L": [{}, {"M": {"inner": {}}}]}, "n": {"N": "1"}},
        "OldImage": {"chunks": {"M": {"0": {"N": "2"}}}}
    }}]});
    poll::repair_empty_maps(&mut answer);
    let record = &answer["Records"][0]["dynamodb"];
    assert_eq!(record["NewImage"]["chunks"], json!({"M": {}}));
    assert_eq!(
        record["NewImage"]["log"],
        json!({"L": [{"M": {}}, {"M": {"inner": {"M": {}}}}]})
    );
    assert_eq!(record["NewImage"]["n"], json!({"N": "1"}));
    assert_eq!(
        record["OldImage"]["chunks"],
        json!({"M": {"0": {"N": "2"}}})
    );
    let event: notify::StreamEvent = serde_json::from_value(answer).unwrap();
    assert!(event.records[0].dynamodb.new_image.is_some());
}

/// A phone signing out while its app subscribes (the two requests at once, on two
/// instances): whichever lands first, no device of the ended session is left to
/// ring for 30 days. 50 rounds, the sign-out a few milliseconds earlier or later
/// each time.
#[tokio::test]
async fn a_subscribe_racing_its_sign_out_leaves_no_device() {
    let app = TestApp::with_state(testkit::streamed_state().await, api_tests::system);
    let user = app.user("racer").await;
    let nodes = app.instances(2, api_tests::system).await;
    let service = PushService::start(&vapid().public_key).await;
    let (mut subscribed, mut refused) = (0, 0);
    for round in 0..50u64 {
        let session = sign_in(&app, "racer").await;
        let device = service.device();
        let subscribe = nodes[0].put(
            "/api/push/subscription",
            session["token"].as_str(),
            device.subscription(),
        );
        let sign_out = async {
            tokio::time::sleep(Duration::from_millis(round % 8)).await;
            nodes[1]
                .post(
                    "/api/auth/logout",
                    None,
                    json!({"refreshToken": session["refreshToken"]}),
                )
                .await
        };
        let (put, out) = tokio::join!(subscribe, sign_out);
        out.assert_status(StatusCode::NO_CONTENT);
        match put.status {
            StatusCode::NO_CONTENT => subscribed += 1,
            StatusCode::UNAUTHORIZED => refused += 1,
            other => panic!(
                "round {round}: the subscribe answered {other}: {:?}",
                put.body
            ),
        }
        assert_eq!(
            endpoints(&app, &user).await,
            Vec::<String>::new(),
            "round {round}: a device of the ended session is left"
        );
    }
    println!("subscribed then deleted: {subscribed}, refused: {refused}");
}
