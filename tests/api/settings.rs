//! The settings a control room changes without a deploy (decision 0018): read and
//! changed by admins, each value checked (a 400 naming the field, nothing changed),
//! held by every instance for at most `settings_cache::MAX_AGE` and then in force
//! there, through the very code that serves requests: the store's clock moves, no
//! test waits.

use domain::geo::Point;
use std::sync::atomic::{AtomicBool, Ordering};

use aws_sdk_dynamodb::{operation::get_item::GetItemInput, types::AttributeValue};
use domain::settings::Settings;
use http::StatusCode;
use serde_json::{Value, json};
use store::settings_cache::MAX_AGE;
use testkit::{TestApp, TestUser, hooks::Hooks};

use crate::{
    deadlines::fleet,
    emergency::{World, pickup_body},
};

/// The cache's age, as the store's clock takes it.
fn max_age() -> time::Duration {
    time::Duration::seconds(MAX_AGE.as_secs() as i64)
}

async fn put(app: &TestApp, admin: &TestUser, body: Value) -> testkit::TestResponse {
    app.put("/api/admin/settings", Some(&admin.token), body)
        .await
}

async fn get(app: &TestApp, admin: &TestUser) -> Value {
    let res = app.get("/api/admin/settings", Some(&admin.token)).await;
    res.assert_status(StatusCode::OK);
    res.body
}

/// Seconds from a booking's time to its answer deadline.
fn answer_window(booking: &Value) -> i64 {
    let at = |f: &str| domain::types::Timestamp::parse(booking[f].as_str().unwrap()).unwrap();
    (at("answerBy").get() - at("bookingTime").get()).whole_seconds()
}

#[tokio::test]
async fn admins_read_and_change_the_settings_all_or_some() {
    let w = World::new().await;
    let defaults = serde_json::to_value(Settings::default()).unwrap();
    assert_eq!(get(&w.app, &w.admin).await, defaults);

    let res = put(
        &w.app,
        &w.admin,
        json!({"emergencyAnswerSeconds": 45, "presenceDelaySeconds": {"ONLINE": 20}, "emergencyNumber": "112"}),
    )
    .await;
    res.assert_status(StatusCode::OK);
    let mut want = defaults.clone();
    want["emergencyAnswerSeconds"] = json!(45);
    want["presenceDelaySeconds"]["ONLINE"] = json!(20);
    want["emergencyNumber"] = json!("112");
    assert_eq!(res.body, want);
    assert_eq!(get(&w.app, &w.admin).await, want);
    // Another change keeps the first.
    let res = put(&w.app, &w.admin, json!({"automaticMoves": 5.0})).await;
    want["automaticMoves"] = json!(5);
    assert_eq!(res.body, want);

    // Every refusal names its field and changes nothing.
    for (body, field) in [
        (
            json!({"emergencyAnswerSeconds": 4}),
            "emergencyAnswerSeconds",
        ),
        (json!({"sosRadiusKm": 0}), "sosRadiusKm"),
        (json!({"sosRadiusKm": 201}), "sosRadiusKm"),
        (json!({"automaticMoves": -1}), "automaticMoves"),
        (json!({"automaticMoves": "three"}), "automaticMoves"),
        (json!({"normalAnswerSeconds": 1.5}), "normalAnswerSeconds"),
        (json!({"pickupTargetMinutes": null}), "pickupTargetMinutes"),
        (json!({"emergencyNumber": null}), "emergencyNumber"),
        (
            json!({"presenceDelaySeconds": {"NO_CREW": 3601}}),
            "presenceDelaySeconds.NO_CREW",
        ),
        (
            json!({"presenceDelaySeconds": {"AWAY": 3}}),
            "presenceDelaySeconds.AWAY",
        ),
        (json!({"emergencyNumber": "9-1-1"}), "emergencyNumber"),
        (json!({"answerSeconds": 30}), "answerSeconds"),
        (
            json!({"emergencyAnswerSeconds": 30, "retentionDays": 1}),
            "retentionDays",
        ),
    ] {
        put(&w.app, &w.admin, body.clone())
            .await
            .assert_field(StatusCode::BAD_REQUEST, field);
    }
    assert_eq!(get(&w.app, &w.admin).await, want);

    // Admins only.
    let user = w.app.user("someone").await;
    w.app
        .get("/api/admin/settings", Some(&user.token))
        .await
        .assert_status(StatusCode::FORBIDDEN);
    put(&w.app, &user, json!({"automaticMoves": 1}))
        .await
        .assert_status(StatusCode::FORBIDDEN);
    // The public number is the setting.
    let res = w.app.get("/api/hospitals/emergency-number", None).await;
    assert_eq!(res.body, json!({"emergencyNumber": "112"}));
}

/// The contract's test: the emergency answer window changed on one instance, and the
/// next job given by another instance (a booking function that has served jobs
/// before) follows within the cache's age, without a restart.
#[tokio::test]
async fn a_changed_answer_window_reaches_the_next_job_within_a_minute_without_a_restart() {
    let (w, _, _) = fleet(&["AMB-01", "AMB-02", "AMB-03"]).await;
    let booking_fn = w.app.new_instance(api_tests::system);
    let sos = async |who: &str| {
        let user = booking_fn.user(who).await;
        let res = booking_fn
            .post_keyed("/api/booking/emergency", &user.token, &pickup_body(), None)
            .await;
        res.assert_status(StatusCode::CREATED);
        answer_window(&res.body)
    };
    assert_eq!(sos("first").await, 60);

    put(&w.app, &w.admin, json!({"emergencyAnswerSeconds": 45}))
        .await
        .assert_status(StatusCode::OK);
    // The instance that changed it holds it at once, every copy of its store too.
    assert_eq!(w.store().settings().await.emergency_answer_seconds, 45);
    // The other still holds what it read (it is allowed to, for the cache's age)...
    assert_eq!(sos("second").await, 60);
    // ...and once that has passed on its clock, its next job follows.
    assert!(MAX_AGE.as_secs() <= 60, "the contract's minute");
    booking_fn.state.store.advance_clock(max_age());
    assert_eq!(sos("third").await, 45);
}

/// Fails the settings item's GetItem while set (the database unreachable for it).
static SETTINGS_DOWN: AtomicBool = AtomicBool::new(false);

fn settings_down() -> Hooks {
    Hooks::new("SettingsDown").on_input(|context| {
        let asks_settings = context
            .input_mut()
            .downcast_mut::<GetItemInput>()
            .is_some_and(|get| {
                get.key.as_ref().and_then(|k| k.get("pk"))
                    == Some(&AttributeValue::S("SETTINGS".into()))
            });
        if asks_settings && SETTINGS_DOWN.load(Ordering::Relaxed) {
            return Err("connection dropped (test fault)".into());
        }
        Ok(())
    })
}

#[tokio::test]
async fn a_failed_refresh_keeps_the_last_settings_read_and_says_so() {
    let logs = testkit::capture_process_logs();
    let w = World::new().await;
    let mut state = w.app.state.clone();
    state.store = settings_down().on(&state.store);
    let other = TestApp::with_state(state, api_tests::system);
    let number = async || {
        let res = other.get("/api/hospitals/emergency-number", None).await;
        res.assert_status(StatusCode::OK);
        res.body["emergencyNumber"].as_str().unwrap().to_owned()
    };
    put(&w.app, &w.admin, json!({"emergencyNumber": "112"}))
        .await
        .assert_status(StatusCode::OK);
    assert_eq!(number().await, "112");

    put(&w.app, &w.admin, json!({"emergencyNumber": "108"}))
        .await
        .assert_status(StatusCode::OK);
    SETTINGS_DOWN.store(true, Ordering::Relaxed);
    other.state.store.advance_clock(max_age());
    assert_eq!(number().await, "112", "the last settings read");
    assert!(
        logs.text().contains("could not read the settings"),
        "{}",
        logs.text()
    );
    // Back up: tried again a few seconds later, not on every request.
    SETTINGS_DOWN.store(false, Ordering::Relaxed);
    assert_eq!(number().await, "112");
    other.state.store.advance_clock(time::Duration::seconds(
        store::settings_cache::RETRY_AFTER.as_secs() as i64,
    ));
    assert_eq!(number().await, "108");
}

#[tokio::test]
async fn the_automatic_moves_and_the_sos_radius_are_the_settings() {
    // Two ambulances 1 and 2 km north: with no automatic move the clock alerts at
    // once; with a radius of 1 km the second is out of reach of a reassign list.
    let (w, _, _) = fleet(&["AMB-01", "AMB-02"]).await;
    put(&w.app, &w.admin, json!({"automaticMoves": 0}))
        .await
        .assert_status(StatusCode::OK);
    let (_, booking) = w.sos("caller").await;
    assert_eq!(booking["ambulance"]["number"], "AMB-01");
    w.later(crate::deadlines::PAST_EMERGENCY);
    let report = w.sweep().await;
    assert_eq!((report.moved, report.alerted), (0, 1), "{report:?}");

    let free = async || {
        let Point { lat, lng } = crate::emergency::PICKUP;
        let res = w
            .app
            .get(
                &format!("/api/admin/ambulances/free-near?lat={lat}&lng={lng}"),
                Some(&w.admin.token),
            )
            .await;
        res.assert_status(StatusCode::OK);
        res.body.as_array().unwrap().len()
    };
    assert_eq!(free().await, 1, "AMB-02, 2 km away");
    put(&w.app, &w.admin, json!({"sosRadiusKm": 1}))
        .await
        .assert_status(StatusCode::OK);
    assert_eq!(free().await, 0);
    // An emergency within 1 km finds none either: 409, and the alert.
    let user = w.app.user("far").await;
    let res = w.emergency(&user, &pickup_body(), None).await;
    res.assert_status(StatusCode::CONFLICT);
}
