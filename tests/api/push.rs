//! Alerts that reach a locked phone (decision 0014), end to end
//! on DynamoDB Local: devices subscribe through `/api/push`, the requests write as
//! always, and notify reads the table's real stream (its local poller, the Lambda's
//! handler) and pushes to a push-service stand-in on loopback, which decrypts every
//! push with the device's own key and checks its VAPID signature and claims
//! (`testkit::push_service`). Who gets what is checked for every move of the
//! contract's table.

use std::time::Duration;

use http::{Method, StatusCode};
use notify::{Notifier, Sender, Vapid, poll};
use serde_json::{Value, json};
use testkit::{
    TEST_PASSWORD, TestApp, TestUser,
    push_service::{PushService, TestDevice, vapid},
};

use crate::deadlines::{PAST_EMERGENCY, fleet_over};

/// Long enough for a push to come through a loaded CI machine's stream.
const WAIT: Duration = Duration::from_secs(20);

/// The notifier the stack runs, with the tests' VAPID key and short retries.
fn notifier(app: &TestApp) -> Notifier {
    let vapid = Vapid::new(&vapid().private_key, "mailto:ops@example.com").unwrap();
    let retry = backon::ExponentialBuilder::default()
        .with_min_delay(Duration::from_millis(10))
        .with_max_delay(Duration::from_millis(50))
        .with_max_times(3);
    Notifier::new(
        app.state.store.clone(),
        Sender::new(vapid, shared::domain::push::Endpoints::AlsoLoopback).with_retry(retry),
    )
}

/// notify's local poller over the app's table, from the stream's beginning, until
/// the returned task is dropped.
async fn start_notify(app: &TestApp) -> AbortOnDrop {
    let notifier = notifier(app);
    let streams = poll::LocalStreams::new(&testkit::endpoint());
    AbortOnDrop(tokio::spawn(async move {
        let every = Duration::from_millis(50);
        if let Err(e) = poll::poll(&notifier, &streams, every, poll::Start::Beginning).await {
            panic!("the poller stopped: {e}");
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

#[tokio::test]
async fn a_gone_subscription_is_deleted_and_a_failing_push_service_fails_nothing_else() {
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
    let until = std::time::Instant::now() + WAIT;
    loop {
        let endpoints: Vec<String> = w
            .store()
            .push()
            .devices(crew)
            .await
            .unwrap()
            .into_iter()
            .map(|d| d.subscription.endpoint().to_owned())
            .collect();
        if !endpoints.contains(&gone.endpoint) {
            assert_eq!(endpoints, std::slice::from_ref(&broken.endpoint));
            break;
        }
        assert!(
            std::time::Instant::now() < until,
            "the gone subscription is still there"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // 500: retried (1 + 3 times per try of the record, the record tried 1 + 3
    // times), then given up on, and the stream goes on: a later write still pushes.
    // (Each try of the record pushes its other messages again: at least once.)
    let until = std::time::Instant::now() + WAIT;
    while service.attempts(&broken) < 16 && std::time::Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(service.attempts(&broken), 16);
    let told = service.payloads(&fine);
    assert!(
        !told.is_empty() && told.iter().all(|t| t["tripStage"] == "DISPATCHED"),
        "{told:?}"
    );
    w.later(PAST_EMERGENCY);
    w.sweep().await;
    let until = std::time::Instant::now() + WAIT;
    while !service
        .payloads(&fine)
        .iter()
        .any(|t| t["tripStage"] == "REASSIGNED")
    {
        assert!(
            std::time::Instant::now() < until,
            "no REASSIGNED after a failed record"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
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
