//! The audit trail (docs/decisions/0023-audit-trail.md): every admin action leaves
//! exactly one record, written in the action's own transaction, so an action refused,
//! raced or failed leaves none; `GET /api/admin/audit` pages the records newest
//! first, by booking, ambulance or admin.

use std::sync::atomic::{AtomicBool, Ordering};

use futures::future::join_all;
use http::{Method, StatusCode};
use serde_json::{Value, json};
use testkit::{TEST_PASSWORD, TestApp, TestUser, hooks::Hooks};

use crate::{
    deadlines::{PAST_EMERGENCY, fleet},
    emergency::{World, north, pickup_body},
};

impl World {
    /// One page of the trail as `admin` reads it (`query` e.g. `?bookingId=3`).
    async fn audit_as(&self, admin: &TestUser, query: &str) -> Value {
        let res = self
            .app
            .get(&format!("/api/admin/audit{query}"), Some(&admin.token))
            .await;
        res.assert_status(StatusCode::OK);
        res.body
    }

    async fn audit(&self, query: &str) -> Value {
        self.audit_as(&self.admin, query).await
    }

    /// The actions of the newest page, newest first.
    async fn actions(&self, query: &str) -> Vec<String> {
        actions(&self.audit(query).await)
    }
}

fn actions(page: &Value) -> Vec<String> {
    page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["action"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn every_admin_action_is_on_the_record_once_with_who_what_and_before_after() {
    let w = World::new().await;
    let h = w.hospital("Civil", north(1.0)).await;
    let far = w.hospital("Far", north(3.0)).await;
    let a1 = w.ambulance(&h, "AMB-01", "BLS").await;
    let a2 = w.ambulance(&h, "AMB-02", "BLS").await;
    let spare = w.ambulance(&far, "AMB-09", "BLS").await;
    assert_eq!(
        w.actions("").await,
        [
            "AMBULANCE_ADDED",
            "AMBULANCE_ADDED",
            "AMBULANCE_ADDED",
            "HOSPITAL_ADDED",
            "HOSPITAL_ADDED"
        ]
    );
    let newest = &w.audit("").await["items"][0];
    assert_eq!(newest["by"], json!({"id": w.admin.id, "username": "admin"}));
    assert_eq!(
        newest["target"],
        json!({"kind": "AMBULANCE", "id": spare["id"], "name": "AMB-09", "ambulanceIds": [spare["id"]]})
    );
    assert_eq!(newest["after"]["hospitalName"], "Far");

    // Status, crew made, moved, removed.
    let res = w
        .app
        .patch(
            &format!(
                "/api/admin/ambulance/status?ambulanceId={}&status=MAINTENANCE",
                spare["id"]
            ),
            Some(&w.admin.token),
        )
        .await;
    res.assert_status(StatusCode::OK);
    let res = w
        .app
        .post(
            "/api/admin/crew",
            Some(&w.admin.token),
            json!({"username": "driver1", "email": "driver1@example.com", "password": TEST_PASSWORD,
                   "phoneNumber": "+91 98000 11111", "ambulanceId": a1["id"]}),
        )
        .await;
    res.assert_status(StatusCode::CREATED);
    let crew = res.body["id"].clone();
    let crew_move = async |to: &Value| {
        w.app
            .call(
                Method::PATCH,
                &format!("/api/admin/crew/{crew}"),
                Some(&w.admin.token),
                Some(json!({"ambulanceId": to})),
            )
            .await
    };
    crew_move(&a2["id"]).await.assert_status(StatusCode::OK);
    // A move to where it is changes nothing: no record.
    crew_move(&a2["id"]).await.assert_status(StatusCode::OK);
    w.app
        .delete(&format!("/api/admin/crew/{crew}"), Some(&w.admin.token))
        .await
        .assert_status(StatusCode::NO_CONTENT);
    let page = w.audit("").await;
    assert_eq!(
        actions(&page)[..4],
        [
            "CREW_REMOVED",
            "CREW_MOVED",
            "CREW_CREATED",
            "AMBULANCE_STATUS_CHANGED"
        ]
    );
    assert_eq!(page["items"][1]["before"], json!({"ambulanceId": a1["id"]}));
    assert_eq!(page["items"][1]["after"], json!({"ambulanceId": a2["id"]}));
    assert_eq!(
        page["items"][1]["target"]["ambulanceIds"],
        json!([a1["id"], a2["id"]])
    );
    assert_eq!(
        (&page["items"][3]["before"], &page["items"][3]["after"]),
        (
            &json!({"status": "AVAILABLE"}),
            &json!({"status": "MAINTENANCE"})
        )
    );

    // A user's booking: the admin dispatches it, reads its patient, reassigns it.
    let user = w.app.user("patient").await;
    let res = w
        .app
        .book(
            Some(&user.token),
            json!({"hospitalId": h["id"], "ambulanceId": a1["id"],
                   "patient": {"name": "Asha", "age": 40, "gender": "Female", "condition": "fracture"}}),
        )
        .await;
    res.assert_status(StatusCode::CREATED);
    let booking = res.body;
    let id = &booking["id"];
    // Its owner reading it is no admin action.
    w.app
        .get(&format!("/api/booking/{id}"), Some(&user.token))
        .await
        .assert_status(StatusCode::OK);
    let res = w
        .app
        .patch(
            &format!("/api/admin/bookings/status?bookingId={id}&status=ACTIVE"),
            Some(&w.admin.token),
        )
        .await;
    res.assert_status(StatusCode::OK);
    // Lists show an admin the patient's name only...
    assert_eq!(
        res.body["patient"],
        json!({"name": "Asha", "age": null, "gender": null, "condition": null})
    );
    let listed = w
        .app
        .get("/api/admin/bookings/all/paged", Some(&w.admin.token))
        .await;
    assert_eq!(
        listed.body["content"][0]["patient"]["condition"],
        json!(null)
    );
    // ...the booking itself, whole, on the record.
    let read = w
        .app
        .get(&format!("/api/booking/{id}"), Some(&w.admin.token))
        .await;
    assert_eq!(read.body["patient"]["condition"], "fracture");
    let res = w
        .app
        .call(
            Method::PATCH,
            &format!("/api/admin/bookings/{id}/ambulance"),
            Some(&w.admin.token),
            Some(json!({"ambulanceId": a2["id"]})),
        )
        .await;
    res.assert_status(StatusCode::OK);
    let of_booking = w.audit(&format!("?bookingId={id}")).await;
    assert_eq!(
        actions(&of_booking),
        [
            "BOOKING_REASSIGNED",
            "PATIENT_DETAILS_READ",
            "BOOKING_STATUS_CHANGED"
        ]
    );
    let reassign = &of_booking["items"][0];
    assert_eq!(reassign["before"]["ambulanceNumber"], "AMB-01");
    assert_eq!(reassign["after"]["ambulanceNumber"], "AMB-02");
    assert_eq!(
        of_booking["items"][2]["before"],
        json!({"status": "PENDING", "stage": null})
    );
    assert_eq!(
        of_booking["items"][2]["after"],
        json!({"status": "ACTIVE", "stage": "DISPATCHED"})
    );
    // The first ambulance's trail: added, the booking's move, freed by the reassign.
    assert_eq!(
        w.actions(&format!("?ambulanceId={}", a1["id"])).await,
        [
            "BOOKING_REASSIGNED",
            "PATIENT_DETAILS_READ",
            "BOOKING_STATUS_CHANGED",
            "CREW_MOVED",
            "CREW_CREATED",
            "AMBULANCE_ADDED"
        ]
    );

    // An admin cancelling through the booking route is on the record too.
    w.cancel(&w.admin, &booking)
        .await
        .assert_status(StatusCode::OK);
    assert_eq!(
        w.actions(&format!("?bookingId={id}")).await[0],
        "BOOKING_STATUS_CHANGED"
    );

    // Settings, an alert acknowledged, an ambulance and a hospital removed.
    w.app
        .put(
            "/api/admin/settings",
            Some(&w.admin.token),
            json!({"automaticMoves": 2, "emergencyNumber": "112"}),
        )
        .await
        .assert_status(StatusCode::OK);
    let settings = &w.audit("").await["items"][0];
    assert_eq!(settings["action"], "SETTINGS_CHANGED");
    assert_eq!(
        settings["before"],
        json!({"automaticMoves": 3, "emergencyNumber": "911"})
    );
    assert_eq!(
        settings["after"],
        json!({"automaticMoves": 2, "emergencyNumber": "112"})
    );
    let lonely = w.app.user("lonely").await;
    let far_away = json!({"pickup": {"latitude": 10.0, "longitude": 10.0}});
    w.emergency(&lonely, &far_away, None)
        .await
        .assert_status(StatusCode::CONFLICT);
    let alerts = w.app.get("/api/admin/alerts", Some(&w.admin.token)).await;
    let alert = alerts.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "NO_AMBULANCE")
        .unwrap()["id"]
        .clone();
    let ack = format!("/api/admin/alerts/{alert}/ack");
    w.app
        .post(&ack, Some(&w.admin.token), json!({}))
        .await
        .assert_status(StatusCode::OK);
    // Acknowledged already: nothing changes, nothing is recorded.
    w.app
        .post(&ack, Some(&w.admin.token), json!({}))
        .await
        .assert_status(StatusCode::OK);
    w.app
        .delete(
            &format!("/api/admin/ambulances/remove?ambulanceId={}", spare["id"]),
            Some(&w.admin.token),
        )
        .await
        .assert_status(StatusCode::NO_CONTENT);
    w.app
        .remove_hospital(Some(&w.admin.token), &far["id"])
        .await
        .assert_status(StatusCode::NO_CONTENT);
    let page = w.audit("").await;
    assert_eq!(
        actions(&page)[..4],
        [
            "HOSPITAL_REMOVED",
            "AMBULANCE_REMOVED",
            "ALERT_ACKNOWLEDGED",
            "SETTINGS_CHANGED"
        ]
    );
    assert_eq!(page["items"][0]["before"]["name"], "Far");
    assert_eq!(page["items"][2]["target"]["kind"], "ALERT");
    assert_eq!(page["items"][2]["target"]["name"], "NO_AMBULANCE");

    // Newest first, every record once: 5 adds, status, 3 crew, the booking's 4,
    // settings, ack, 2 removals.
    let all = w.audit("").await["items"].as_array().unwrap().clone();
    assert_eq!(all.len(), 17, "{all:#?}");
    let times: Vec<&str> = all.iter().map(|r| r["at"].as_str().unwrap()).collect();
    assert!(times.windows(2).all(|p| p[0] >= p[1]), "{times:?}");
}

#[tokio::test]
async fn an_action_refused_or_raced_leaves_no_record_and_the_winner_one() {
    let (w, ambs, _) = fleet(&["AMB-01", "AMB-02", "AMB-03"]).await;
    let (_, booking) = w.sos("caller").await;
    let before = w.audit("").await["items"].as_array().unwrap().len();
    let id = &booking["id"];

    // Refused outright: a held ambulance's status, a reassign to a busy one, a
    // setting out of range, an unknown alert.
    let refused = [
        w.app
            .patch(
                &format!(
                    "/api/admin/ambulance/status?ambulanceId={}&status=MAINTENANCE",
                    ambs[0]["id"]
                ),
                Some(&w.admin.token),
            )
            .await,
        w.app
            .call(
                Method::PATCH,
                &format!("/api/admin/bookings/{id}/ambulance"),
                Some(&w.admin.token),
                Some(json!({"ambulanceId": ambs[0]["id"]})),
            )
            .await,
        w.app
            .put(
                "/api/admin/settings",
                Some(&w.admin.token),
                json!({"automaticMoves": 2, "sosRadiusKm": 0}),
            )
            .await,
        w.app
            .post("/api/admin/alerts/999/ack", Some(&w.admin.token), json!({}))
            .await,
    ];
    for res in &refused {
        assert!(res.status.is_client_error(), "{res:?}");
    }
    assert_eq!(
        w.audit("").await["items"].as_array().unwrap().len(),
        before,
        "refusals leave no record"
    );

    // Two admins reassign the same booking at once, each to another ambulance: one
    // wins, and the record is the winner's alone.
    let second = w.app.create_user("admin2", domain::user::Role::Admin).await;
    let uri = format!("/api/admin/bookings/{id}/ambulance");
    let app = &w.app;
    let reassign = |token: String, to: Value| {
        let uri = uri.clone();
        async move {
            app.call(
                Method::PATCH,
                &uri,
                Some(&token),
                Some(json!({"ambulanceId": to["id"]})),
            )
            .await
        }
    };
    let raced = join_all([
        reassign(w.admin.token.clone(), ambs[1].clone()),
        reassign(second.token.clone(), ambs[2].clone()),
    ])
    .await;
    let won: Vec<usize> = (0..2)
        .filter(|i| raced[*i].status == StatusCode::OK)
        .collect();
    assert_eq!(won.len(), 1, "{raced:?}");
    assert_eq!(raced[1 - won[0]].status, StatusCode::CONFLICT, "{raced:?}");
    let winner = [&w.admin, &second][won[0]];
    let trail = w.audit(&format!("?bookingId={id}")).await;
    assert_eq!(actions(&trail), ["BOOKING_REASSIGNED"]);
    assert_eq!(trail["items"][0]["by"]["id"], json!(winner.id));
    assert_eq!(
        trail["items"][0]["after"]["ambulanceId"],
        raced[won[0]].body["ambulanceId"]
    );

    // The clock moves the job on (no admin: no record) and alerts; two admins
    // acknowledge the alert at once: one record.
    w.later(PAST_EMERGENCY);
    w.sweep().await;
    let alerts = w.app.get("/api/admin/alerts", Some(&w.admin.token)).await;
    let alert = alerts.body["items"][0]["id"].clone();
    let ack = format!("/api/admin/alerts/{alert}/ack");
    let acks = join_all([
        w.app.post(&ack, Some(&w.admin.token), json!({})),
        w.app.post(&ack, Some(&second.token), json!({})),
    ])
    .await;
    assert!(acks.iter().all(|r| r.status == StatusCode::OK), "{acks:?}");
    let acked = w.actions("").await;
    assert_eq!(acked[0], "ALERT_ACKNOWLEDGED");
    assert_eq!(
        acked.iter().filter(|a| *a == "ALERT_ACKNOWLEDGED").count(),
        1,
        "{acked:?}"
    );
    let by_second = w.audit(&format!("?adminId={}", second.id)).await;
    assert!(
        actions(&by_second).len() <= 2,
        "only the second admin's own: {by_second}"
    );
    assert!(
        by_second["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["by"]["id"] == json!(second.id))
    );
}

/// Drops every TransactWriteItems before it leaves the process while set.
static DROP_TRANSACTIONS: AtomicBool = AtomicBool::new(false);

#[tokio::test]
async fn an_action_the_database_never_took_leaves_no_record() {
    let w = World::new().await;
    let h = w.hospital("Civil", north(1.0)).await;
    let mut state = w.app.state.clone();
    state.store = Hooks::new("DropTransactions")
        .on_send(|context| {
            let is_tx = context
                .request()
                .headers()
                .get("x-amz-target")
                .is_some_and(|t| t.ends_with("TransactWriteItems"));
            if is_tx && DROP_TRANSACTIONS.load(Ordering::Relaxed) {
                return Err("connection dropped (test fault)".into());
            }
            Ok(())
        })
        .on(&state.store);
    let faulty = TestApp::with_state(state, api_tests::system);
    DROP_TRANSACTIONS.store(true, Ordering::Relaxed);
    let res = faulty
        .add_ambulance(
            Some(&w.admin.token),
            json!({"number": "AMB-01", "status": "AVAILABLE", "hospital": {"id": h["id"]}}),
        )
        .await;
    assert!(res.status.is_server_error(), "{res:?}");
    let res = faulty
        .put(
            "/api/admin/settings",
            Some(&w.admin.token),
            json!({"automaticMoves": 1}),
        )
        .await;
    assert!(res.status.is_server_error(), "{res:?}");
    DROP_TRANSACTIONS.store(false, Ordering::Relaxed);
    assert_eq!(w.actions("").await, ["HOSPITAL_ADDED"]);

    // A read whose record cannot be written shows nothing.
    w.ambulance(&h, "AMB-01", "BLS").await;
    let user = w.app.user("patient").await;
    let res = w.emergency(&user, &pickup_body(), None).await;
    res.assert_status(StatusCode::CREATED);
    let uri = format!("/api/booking/{}", res.body["id"]);
    DROP_TRANSACTIONS.store(true, Ordering::Relaxed);
    let read = faulty.get(&uri, Some(&w.admin.token)).await;
    DROP_TRANSACTIONS.store(false, Ordering::Relaxed);
    assert!(read.status.is_server_error(), "{read:?}");
    assert!(read.body.get("patient").is_none(), "{read:?}");
    assert_eq!(w.actions("").await, ["AMBULANCE_ADDED", "HOSPITAL_ADDED"]);
    w.app
        .get(&uri, Some(&w.admin.token))
        .await
        .assert_status(StatusCode::OK);
    assert_eq!(w.actions("").await[0], "PATIENT_DETAILS_READ");
}

#[tokio::test]
async fn the_trail_pages_newest_first_by_each_filter() {
    let w = World::new().await;
    // 55 settings changes, then one ambulance's 2 records by a second admin.
    for i in 0..55u32 {
        w.app
            .put(
                "/api/admin/settings",
                Some(&w.admin.token),
                json!({"automaticMoves": i % 2 + 1, "retentionDays": 100 + i}),
            )
            .await
            .assert_status(StatusCode::OK);
    }
    let second = w.app.create_user("admin2", domain::user::Role::Admin).await;
    let h = w.hospital("Civil", north(1.0)).await;
    let res = w
        .app
        .add_ambulance(
            Some(&second.token),
            json!({"number": "AMB-01", "status": "AVAILABLE", "hospital": {"id": h["id"]}}),
        )
        .await;
    let amb = res.body;
    w.app
        .patch(
            &format!(
                "/api/admin/ambulance/status?ambulanceId={}&status=MAINTENANCE",
                amb["id"]
            ),
            Some(&second.token),
        )
        .await
        .assert_status(StatusCode::OK);

    let first = w.audit("").await;
    assert_eq!(first["items"].as_array().unwrap().len(), 50);
    let cursor = first["cursor"].as_str().expect("more to come").to_owned();
    let next = w.audit(&format!("?cursor={cursor}")).await;
    assert_eq!(next["items"].as_array().unwrap().len(), 8);
    assert!(next.get("cursor").is_none(), "{next}");
    let all: Vec<&Value> = first["items"]
        .as_array()
        .unwrap()
        .iter()
        .chain(next["items"].as_array().unwrap())
        .collect();
    let times: Vec<&str> = all.iter().map(|r| r["at"].as_str().unwrap()).collect();
    assert!(times.windows(2).all(|p| p[0] >= p[1]), "{times:?}");
    assert_eq!(
        all.last().unwrap()["after"]["retentionDays"],
        100,
        "the oldest last"
    );
    let retention: Vec<u64> = all
        .iter()
        .filter_map(|r| r["after"]["retentionDays"].as_u64())
        .collect();
    assert_eq!(
        retention,
        (100..155).rev().collect::<Vec<u64>>(),
        "none twice, none lost"
    );

    // By admin, by ambulance, and both at once.
    let mine = w.audit(&format!("?adminId={}", w.admin.id)).await;
    assert_eq!(mine["items"].as_array().unwrap().len(), 50);
    assert_eq!(
        w.actions(&format!("?adminId={}", second.id)).await,
        ["AMBULANCE_STATUS_CHANGED", "AMBULANCE_ADDED"]
    );
    assert_eq!(
        w.actions(&format!(
            "?ambulanceId={}&adminId={}",
            amb["id"], w.admin.id
        ))
        .await,
        Vec::<String>::new()
    );
    assert_eq!(
        w.actions(&format!("?ambulanceId={}&adminId={}", amb["id"], second.id))
            .await
            .len(),
        2
    );
    // An admin sees every admin's records; nobody else sees any.
    assert_eq!(
        w.audit_as(&second, "").await["items"]
            .as_array()
            .unwrap()
            .len(),
        50
    );
    let user = w.app.user("nosy").await;
    w.app
        .get("/api/admin/audit", Some(&user.token))
        .await
        .assert_status(StatusCode::FORBIDDEN);
    // Bad input names its field.
    for (query, field) in [
        ("?cursor=not-a-cursor", "cursor"),
        ("?cursor=0", "cursor"),
        ("?bookingId=0", "bookingId"),
        ("?ambulanceId=x", "ambulanceId"),
        ("?adminId=-1", "adminId"),
        ("?when=today", "when"),
    ] {
        w.app
            .get(&format!("/api/admin/audit{query}"), Some(&w.admin.token))
            .await
            .assert_field(StatusCode::BAD_REQUEST, field);
    }
}
