//! Every emergency goes to a crew that will answer (decision 0020), through the
//! routers and the clock's own sweep against DynamoDB Local: crew presence from
//! heartbeats and position reports (and what it costs a report: nothing more),
//! ranking by expected start, a person told at once (CALL_STATION) and a minute
//! after an emergency whatever the moves (UNANSWERED), `accepted` on what the
//! requester and the family see, and positions a dispatcher can trust. Time passes by
//! moving the store's clock.

use domain::geo::Point;
use std::sync::{
    Arc,
    atomic::{AtomicUsize, Ordering},
};

use aws_sdk_dynamodb::operation::{
    batch_get_item::BatchGetItemInput, delete_item::DeleteItemInput, get_item::GetItemInput,
    put_item::PutItemInput, transact_write_items::TransactWriteItemsInput,
    update_item::UpdateItemInput,
};
use domain::{position::PositionReport, settings::Settings, types::format_rfc3339};
use http::{Method, StatusCode};
use serde_json::{Value, json};
use testkit::{TestResponse, TestUser};

use crate::{
    crew::id_of,
    emergency::{PICKUP, World, north},
};

impl World {
    /// The crew app's heartbeat: 204.
    pub(crate) async fn heartbeat(&self, crew: &TestUser) {
        self.app
            .call(Method::PUT, "/api/crew/presence", Some(&crew.token), None)
            .await
            .assert_status(StatusCode::NO_CONTENT);
    }

    /// `ambulance`'s `crewPresence` in the admin's list of the fleet.
    async fn presence_listed(&self, ambulance: &Value) -> Value {
        crate::helpers::listed_ambulance(&self.app, Some(&self.admin.token), ambulance).await
            ["crewPresence"]
            .clone()
    }

    /// `ambulance`'s row of the live map (the whole world).
    async fn live_row(&self, ambulance: &Value) -> Value {
        let live = self
            .app
            .get("/api/admin/live", Some(&self.admin.token))
            .await;
        live.assert_status(StatusCode::OK);
        live.body["ambulances"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["id"] == ambulance["id"])
            .expect("on the live map")
            .clone()
    }

    async fn open_alerts_of(&self, kind: &str) -> Vec<Value> {
        let res = self
            .app
            .get("/api/admin/alerts", Some(&self.admin.token))
            .await;
        res.assert_status(StatusCode::OK);
        res.body["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["kind"] == kind && a.get("acknowledgedAt").is_none())
            .filter(|a| a.get("closedAt").is_none())
            .cloned()
            .collect()
    }

    /// A position report taken `recorded` (the server's clock), `accuracy` metres.
    async fn report_at(
        &self,
        crew: &TestUser,
        Point { lat, lng }: Point,
        accuracy: Option<f64>,
    ) -> TestResponse {
        let at = format_rfc3339(self.store().now());
        let mut body = json!({"latitude": lat, "longitude": lng, "recordedAt": at});
        if let Some(a) = accuracy {
            body["accuracyM"] = json!(a);
        }
        self.app
            .put("/api/crew/location", Some(&crew.token), body)
            .await
    }

    async fn sweep_now(&self) -> store::deadlines::SweepReport {
        self.app
            .run_as("clock", clock::sweep(&self.app.state.store))
            .await
            .unwrap()
    }
}

#[tokio::test]
async fn presence_comes_from_heartbeats_and_reports_and_ends_with_silence_or_a_sign_out() {
    let w = World::new().await;
    let h = w.hospital("Civil", north(1.0)).await;
    let online = w.ambulance(&h, "ON-1", "BLS").await;
    let offline = w.ambulance(&h, "OFF-1", "BLS").await;
    let crewless = w.ambulance(&h, "NONE-1", "BLS").await;
    let crew_on = w.app.crew("crew_on", id_of(&online)).await;
    let crew_off = w.app.crew("crew_off", id_of(&offline)).await;
    w.heartbeat(&crew_on).await;

    // The admin's list, the live map, a hospital's fleet page and the crew's own screen.
    assert_eq!(w.presence_listed(&online).await, "ONLINE");
    assert_eq!(w.presence_listed(&offline).await, "OFFLINE");
    assert_eq!(w.presence_listed(&crewless).await, "NO_CREW");
    assert_eq!(w.live_row(&offline).await["crewPresence"], "OFFLINE");
    assert_eq!(w.live_row(&online).await["crewPresence"], "ONLINE");
    let page = format!("/api/ambulances/hospital/{}", h["id"]);
    let user = w.app.user("asha").await;
    let signed_in = w.app.get(&page, Some(&user.token)).await;
    let presences: Vec<&Value> = signed_in
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|a| &a["crewPresence"])
        .collect();
    assert_eq!(
        presences,
        [&json!("ONLINE"), &json!("OFFLINE"), &json!("NO_CREW")]
    );
    // The public sees no presence.
    let public = w.app.get(&page, None).await;
    assert!(
        public.body[0].get("crewPresence").is_none(),
        "{}",
        public.body
    );
    let me = w.app.get("/api/crew/me", Some(&crew_on.token)).await;
    assert_eq!(me.body["ambulance"]["crewPresence"], "ONLINE");

    // Two minutes of silence: offline. A position report is a sign of life too.
    w.store().advance_clock(time::Duration::seconds(121));
    assert_eq!(w.presence_listed(&online).await, "OFFLINE");
    w.report_at(&crew_off, north(1.0), Some(10.0))
        .await
        .assert_status(StatusCode::NO_CONTENT);
    assert_eq!(w.presence_listed(&offline).await, "ONLINE");

    // Signing out ends it at once; a heartbeat brings it back.
    w.heartbeat(&crew_on).await;
    assert_eq!(w.presence_listed(&online).await, "ONLINE");
    w.app
        .call(
            Method::DELETE,
            "/api/crew/presence",
            Some(&crew_on.token),
            None,
        )
        .await
        .assert_status(StatusCode::NO_CONTENT);
    assert_eq!(w.presence_listed(&online).await, "OFFLINE");
    w.heartbeat(&crew_on).await;
    assert_eq!(w.presence_listed(&online).await, "ONLINE");

    // A crew account moved away: its old ambulance is not online on its heartbeat.
    w.app
        .call(
            Method::PATCH,
            &format!("/api/admin/crew/{}", crew_on.id),
            Some(&w.admin.token),
            Some(json!({"ambulanceId": crewless["id"]})),
        )
        .await
        .assert_status(StatusCode::OK);
    assert_eq!(w.presence_listed(&online).await, "NO_CREW");
    assert_eq!(w.presence_listed(&crewless).await, "OFFLINE");

    // Only a crew sends heartbeats.
    w.app
        .call(Method::PUT, "/api/crew/presence", Some(&user.token), None)
        .await
        .assert_status(StatusCode::FORBIDDEN);
    w.app
        .call(Method::PUT, "/api/crew/presence", None, None)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
}

/// A store over the world's table whose every write call is counted.
fn counting_writes(w: &World) -> (store::Store, Arc<AtomicUsize>) {
    let writes = Arc::new(AtomicUsize::new(0));
    let counted = writes.clone();
    let store = testkit::hooks::Hooks::new("CountWrites")
        .on_input(move |context| {
            let input = context.input();
            if input.downcast_ref::<PutItemInput>().is_some()
                || input.downcast_ref::<UpdateItemInput>().is_some()
                || input.downcast_ref::<DeleteItemInput>().is_some()
                || input.downcast_ref::<TransactWriteItemsInput>().is_some()
            {
                counted.fetch_add(1, Ordering::Relaxed);
            }
            Ok(())
        })
        .on(w.store());
    (store, writes)
}

#[tokio::test]
async fn a_position_report_writes_no_more_than_before_and_counts_as_presence() {
    let w = World::new().await;
    let h = w.hospital("Civil", north(1.0)).await;
    let amb = w.ambulance(&h, "ON-1", "BLS").await;
    let crew = w.app.crew("crew_1", id_of(&amb)).await;
    let (store, writes) = counting_writes(&w);
    let id = domain::types::Id::try_from(amb["id"].as_u64().unwrap()).unwrap();
    let report = |secs: i64| {
        let at = format_rfc3339(store.now() + time::Duration::seconds(secs));
        serde_json::from_value::<PositionReport>(
            json!({"latitude": 30.71, "longitude": 74.35, "accuracyM": 8.0, "recordedAt": at}),
        )
        .unwrap()
        .check(store.now())
        .unwrap()
    };
    // Every report: its POSITION put, and the free ambulance's entry moved to it
    // (an UpdateItem its condition refuses within 30 s of the last move), as before
    // presence existed; presence needs no write of its own.
    store
        .positions()
        .report_position(id, report(0))
        .await
        .unwrap();
    assert_eq!(writes.swap(0, Ordering::Relaxed), 2);
    for _ in 0..3 {
        store.advance_clock(time::Duration::seconds(5));
        store
            .positions()
            .report_position(id, report(0))
            .await
            .unwrap();
        assert_eq!(writes.swap(0, Ordering::Relaxed), 2);
    }
    let presence = store.positions().presence(vec![id]).await.unwrap();
    assert_eq!(presence[&id].to_string(), "ONLINE");
    // And through the routes, with no heartbeat ever sent.
    let _ = crew;
    assert_eq!(w.presence_listed(&amb).await, "ONLINE");
}

#[tokio::test]
async fn an_answering_crew_a_little_farther_beats_a_crewless_ambulance_next_door() {
    let w = World::new().await;
    let near = w.hospital("Near", north(0.3)).await;
    let farther = w.hospital("Farther", north(0.6)).await;
    w.ambulance(&near, "NONE-1", "BLS").await;
    let answering = w.ambulance(&farther, "ON-1", "BLS").await;
    let crew = w.app.crew("crew_on", id_of(&answering)).await;
    w.heartbeat(&crew).await;
    let (_, booking) = w.sos("first").await;
    assert_eq!(booking["ambulance"]["id"], answering["id"], "{booking}");
    // Given to a crew that is online: nobody needs to phone.
    assert!(w.open_alerts_of("CALL_STATION").await.is_empty());

    // The crew 40 km away loses to the crewless ambulance next door, and a person is
    // told at once to phone its hospital.
    let w = World::new().await;
    let next_door = w.hospital("Next door", north(0.05)).await;
    let far = w.hospital("Far", north(40.0)).await;
    let crewless = w.ambulance(&next_door, "NONE-1", "BLS").await;
    let distant = w.ambulance(&far, "ON-40", "BLS").await;
    let crew = w.app.crew("crew_far", id_of(&distant)).await;
    w.heartbeat(&crew).await;
    let (_, booking) = w.sos("second").await;
    assert_eq!(booking["ambulance"]["id"], crewless["id"], "{booking}");
    let calls = w.open_alerts_of("CALL_STATION").await;
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(
        (
            &calls[0]["bookingId"],
            &calls[0]["ambulanceNumber"],
            &calls[0]["crewPresence"],
            &calls[0]["hospitalName"],
            &calls[0]["phone"]
        ),
        (
            &booking["id"],
            &json!("NONE-1"),
            &json!("NO_CREW"),
            &json!("Next door"),
            &json!(format!("+91 {}", "Next door".len()))
        )
    );
    // The dispatcher's reassign list ranks the same way: by expected start.
    let free = w
        .app
        .get(
            &format!(
                "/api/admin/ambulances/free-near?lat={}&lng={}",
                PICKUP.lat, PICKUP.lng
            ),
            Some(&w.admin.token),
        )
        .await;
    assert_eq!(free.body[0]["number"], "ON-40");
    assert_eq!(free.body[0]["crewPresence"], "ONLINE");
}

#[tokio::test]
async fn a_job_for_a_crew_not_online_calls_the_station_until_it_is_accepted_or_moved() {
    let (w, ambs, crews) = crate::deadlines::fleet(&["AMB-01", "AMB-02"]).await;
    // Two minutes later the heartbeats are old: both crews are offline.
    w.store().advance_clock(time::Duration::seconds(121));
    let user = w.app.user("planner").await;
    let res = w
        .app
        .book(
            Some(&user.token),
            json!({"hospitalId": ambs[0]["hospital"]["id"], "ambulanceId": ambs[0]["id"],
                   "patient": {"name": "P", "age": 40, "gender": "Male", "condition": "checkup"}}),
        )
        .await;
    res.assert_status(StatusCode::CREATED);
    assert_eq!(res.body["accepted"], false);
    let calls = w.open_alerts_of("CALL_STATION").await;
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0]["crewPresence"], "OFFLINE");
    assert_eq!(calls[0]["ambulanceId"], ambs[0]["id"]);
    // Phoned, the crew accepts: the alert closes by itself.
    w.app
        .crew_step(
            Some(&crews[0].token),
            json!({"bookingId": res.body["id"], "stage": "EN_ROUTE"}),
        )
        .await
        .assert_status(StatusCode::OK);
    assert_eq!(w.sweep_now().await.alerts_closed, 1);
    assert!(w.open_alerts_of("CALL_STATION").await.is_empty());

    // An emergency to AMB-02, whose crew is offline: a call. A dispatcher moves it
    // to a crewless ambulance: a call for that one, and AMB-02's closes (moved).
    let (_, sos) = w.sos("caller").await;
    assert_eq!(sos["ambulance"]["number"], "AMB-02");
    assert_eq!(w.open_alerts_of("CALL_STATION").await.len(), 1);
    let h = w.hospital("Spare", north(3.0)).await;
    let spare = w.ambulance(&h, "SPARE-1", "BLS").await;
    w.app
        .call(
            Method::PATCH,
            &format!("/api/admin/bookings/{}/ambulance", sos["id"]),
            Some(&w.admin.token),
            Some(json!({"ambulanceId": spare["id"]})),
        )
        .await
        .assert_status(StatusCode::OK);
    assert_eq!(w.sweep_now().await.alerts_closed, 1);
    let calls = w.open_alerts_of("CALL_STATION").await;
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(
        (&calls[0]["ambulanceId"], &calls[0]["crewPresence"]),
        (&spare["id"], &json!("NO_CREW"))
    );
    w.assert_consistent().await;
}

#[tokio::test]
async fn an_emergency_not_accepted_in_a_minute_has_an_alert_while_the_moves_go_on() {
    // A 90 s answer window (a setting): the first move comes after the minute.
    let mut state = testkit::fresh_state().await;
    let settings = Settings {
        emergency_answer_seconds: 90,
        ..Settings::default()
    };
    state.store = state.store.clone().with_settings(settings);
    let (w, _, crews) = crate::deadlines::fleet_over(state, &["AMB-01", "AMB-02", "AMB-03"]).await;
    let (_, booking) = w.sos("caller").await;
    assert_eq!(booking["ambulance"]["number"], "AMB-01");
    w.store().advance_clock(time::Duration::seconds(54));
    assert_eq!(w.sweep_now().await.alerted, 0);
    // By the minute after it was sent (55 s: one beat of the clock early): the alert,
    // the job where it is.
    w.store().advance_clock(time::Duration::seconds(2));
    let report = w.sweep_now().await;
    assert_eq!((report.alerted, report.moved), (1, 0), "{report:?}");
    let open = w.open_alerts_of("UNANSWERED").await;
    assert_eq!(open.len(), 1);
    assert_eq!(
        (&open[0]["bookingId"], &open[0]["moves"]),
        (&booking["id"], &json!(0))
    );
    // The deadline moves it on; the alert stays open, and is not raised twice.
    for crew in &crews {
        w.heartbeat(crew).await;
    }
    w.store().advance_clock(time::Duration::seconds(35));
    let report = w.sweep_now().await;
    assert_eq!((report.alerted, report.moved), (0, 1), "{report:?}");
    assert_eq!(w.open_alerts_of("UNANSWERED").await.len(), 1);
    // The second crew accepts: the alert closes by itself.
    w.app
        .crew_step(
            Some(&crews[1].token),
            json!({"bookingId": booking["id"], "stage": "EN_ROUTE"}),
        )
        .await
        .assert_status(StatusCode::OK);
    w.sweep_now().await;
    assert!(w.open_alerts_of("UNANSWERED").await.is_empty());
}

#[tokio::test]
async fn the_requester_and_the_family_see_waiting_until_the_crew_accepts() {
    let (w, _, crews) = crate::deadlines::fleet(&["AMB-01"]).await;
    let (user, booking) = w.sos("caller").await;
    assert_eq!(booking["accepted"], false);
    let track = format!("/api/booking/{}/track", booking["id"]);
    let t = w.app.get(&track, Some(&user.token)).await;
    assert_eq!(
        (&t.body["accepted"], &t.body["tripStage"]),
        (&json!(false), &json!("DISPATCHED"))
    );
    assert!(t.body["answerBy"].is_string());
    let share = w
        .app
        .call(
            Method::POST,
            &format!("/api/booking/{}/share", booking["id"]),
            Some(&user.token),
            None,
        )
        .await;
    share.assert_status(StatusCode::CREATED);
    let token = share.body["token"].as_str().unwrap().to_owned();
    let shared = format!("/api/booking/shared/{token}");
    assert_eq!(w.app.get(&shared, None).await.body["accepted"], false);

    w.app
        .crew_step(
            Some(&crews[0].token),
            json!({"bookingId": booking["id"], "stage": "EN_ROUTE"}),
        )
        .await
        .assert_status(StatusCode::OK);
    assert_eq!(
        w.app.get(&track, Some(&user.token)).await.body["accepted"],
        true
    );
    assert_eq!(w.app.get(&shared, None).await.body["accepted"], true);
    let history = w.app.get("/api/booking/history", Some(&user.token)).await;
    assert_eq!(history.body[0]["accepted"], true);
    // Moved to another ambulance after the accept (a breakdown): waiting again.
    let h = w.hospital("Spare", north(3.0)).await;
    let spare = w.ambulance(&h, "SPARE-1", "BLS").await;
    let moved = w
        .app
        .call(
            Method::PATCH,
            &format!("/api/admin/bookings/{}/ambulance", booking["id"]),
            Some(&w.admin.token),
            Some(json!({"ambulanceId": spare["id"]})),
        )
        .await;
    moved.assert_status(StatusCode::OK);
    assert_eq!(moved.body["accepted"], false);
    assert_eq!(w.app.get(&shared, None).await.body["accepted"], false);
}

#[tokio::test]
async fn a_first_report_far_from_its_hospital_wins_no_emergency_until_confirmed() {
    let w = World::new().await;
    // Three ambulances 1.7 km from the pickup, nobody's app open.
    let near = w.hospital("Near", north(1.7)).await;
    for i in 0..3 {
        w.ambulance(&near, &format!("NEAR-{i}"), "BLS").await;
    }
    // The attacker's ambulance belongs to a hospital 2 954 km south.
    let far = w.hospital("Far", north(-2954.0)).await;
    let fake = w.ambulance(&far, "FAKE-1", "BLS").await;
    let attacker = w.app.crew("attacker", id_of(&fake)).await;
    // Its first report puts it at the pickup: doubted (409), kept for the dispatcher.
    let res = w.report_at(&attacker, PICKUP, Some(5.0)).await;
    res.assert_status(StatusCode::CONFLICT);
    assert!(res.message().contains("50 km"), "{}", res.message());
    let row = w.live_row(&fake).await;
    assert_eq!(row["positionDoubt"]["reason"], "FAR_FROM_HOSPITAL");
    assert_eq!(row["positionDoubt"]["reports"], 1);
    assert_eq!(row["position"]["source"], "HOSPITAL", "{row}");
    // The next emergency there goes to an ambulance 1.7 km away, not to it.
    let (_, booking) = w.sos("victim").await;
    assert!(
        booking["ambulance"]["number"]
            .as_str()
            .unwrap()
            .starts_with("NEAR-"),
        "{booking}"
    );
    // Three agreeing reports over 20 s make it the position (a real transfer far
    // from home): the fourth, 20 s on, is taken.
    for _ in 0..3 {
        w.store().advance_clock(time::Duration::seconds(5));
        w.report_at(&attacker, PICKUP, Some(5.0))
            .await
            .assert_status(StatusCode::CONFLICT);
    }
    w.store().advance_clock(time::Duration::seconds(5));
    w.report_at(&attacker, PICKUP, Some(5.0))
        .await
        .assert_status(StatusCode::NO_CONTENT);
    let row = w.live_row(&fake).await;
    assert_eq!(row["position"]["source"], "GPS");
    assert!(row["positionDoubt"].is_null());
}

#[tokio::test]
async fn a_claimed_accuracy_of_100_km_does_not_switch_the_speed_rule_off() {
    let w = World::new().await;
    let h = w.hospital("Home", north(1.0)).await;
    let amb = w.ambulance(&h, "AMB-1", "BLS").await;
    let crew = w.app.crew("crew_1", id_of(&amb)).await;
    w.report_at(&crew, north(1.0), Some(10.0))
        .await
        .assert_status(StatusCode::NO_CONTENT);
    // 566 km in 13 s, both claiming 100 km: refused, the position stays.
    w.store().advance_clock(time::Duration::seconds(13));
    let res = w.report_at(&crew, north(567.0), Some(100_000.0)).await;
    res.assert_status(StatusCode::CONFLICT);
    // The same jump with 900 m of accuracy: the speed rule alone refuses it.
    w.store().advance_clock(time::Duration::seconds(5));
    let res = w.report_at(&crew, north(567.0), Some(900.0)).await;
    res.assert_status(StatusCode::CONFLICT);
    assert!(res.message().contains("km/h"), "{}", res.message());
    let row = w.live_row(&amb).await;
    let lat = row["position"]["latitude"].as_f64().unwrap();
    assert!((lat - north(1.0).lat).abs() < 1e-9, "{row}");
    assert_eq!(row["positionDoubt"]["reason"], "SPEED");
}

#[tokio::test]
async fn the_list_says_whom_to_call_reading_the_page_bookings_in_one_request() {
    let (w, _, _crews) = crate::deadlines::fleet(&["AMB-01", "AMB-02", "AMB-03"]).await;
    // Two minutes later every crew is offline: each emergency raises a CALL_STATION.
    w.store().advance_clock(time::Duration::seconds(121));
    let mut sent = vec![];
    for who in ["caller_a", "caller_b", "caller_c"] {
        sent.push(w.sos(who).await.1);
    }
    let calls = w.open_alerts_of("CALL_STATION").await;
    assert_eq!(calls.len(), 3, "{calls:?}");
    for call in &calls {
        // The requester's phone (the test accounts'), what the booking is and where
        // it goes, and the ambulance's crew as it is now.
        assert_eq!(call["requesterPhone"], "+15550001111", "{call}");
        assert_eq!(call["bookingType"], "EMERGENCY");
        let booking = sent.iter().find(|b| b["id"] == call["bookingId"]).unwrap();
        assert_eq!(call["destinationName"], booking["hospitalName"]);
        assert_eq!(call["ambulancePresence"], "OFFLINE");
    }

    // However many alerts, the page reads its bookings in one BatchGetItem (and the
    // presence in at most two more): never a GetItem per alert.
    let reads = Arc::new(std::sync::Mutex::new(Vec::<&'static str>::new()));
    let counted = reads.clone();
    let store = testkit::hooks::Hooks::new("CountReads")
        .on_input(move |context| {
            let input = context.input();
            let name = if input.downcast_ref::<BatchGetItemInput>().is_some() {
                "BatchGetItem"
            } else if input.downcast_ref::<GetItemInput>().is_some() {
                "GetItem"
            } else {
                "other"
            };
            counted.lock().unwrap().push(name);
            Ok(())
        })
        .on(w.store());
    let page = store.alerts().page(None).await.unwrap();
    assert_eq!(
        page.items
            .iter()
            .filter(|a| a.requester_phone.is_some())
            .count(),
        3
    );
    let reads = reads.lock().unwrap().clone();
    assert_eq!(
        reads.iter().filter(|r| **r == "GetItem").count(),
        0,
        "{reads:?}"
    );
    let batches = reads.iter().filter(|r| **r == "BatchGetItem").count();
    assert!((1..=3).contains(&batches), "{reads:?}");

    // Acknowledged, an alert no longer hands out the phone.
    let id = calls[0]["id"].clone();
    w.app
        .call(
            Method::POST,
            &format!("/api/admin/alerts/{id}/ack"),
            Some(&w.admin.token),
            None,
        )
        .await
        .assert_status(StatusCode::OK);
    let listed = w.app.get("/api/admin/alerts", Some(&w.admin.token)).await;
    let ended = listed.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["id"] == id)
        .unwrap()
        .clone();
    assert!(ended.get("acknowledgedAt").is_some());
    assert!(ended.get("requesterPhone").is_none(), "{ended}");
    assert_eq!(w.open_alerts_of("CALL_STATION").await.len(), 2);
}
