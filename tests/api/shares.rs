//! What follows the tap: the patient details, and the tracking links family open
//! without an account (made, shown without personal data, expired, revoked).

use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::{
    operation::{batch_get_item::BatchGetItemInput, get_item::GetItemInput},
    types::AttributeValue,
};
use domain::{
    emergency::share_token_hash,
    geo::Point,
    types::{epoch_seconds, format_rfc3339},
};
use futures::future::join_all;
use http::StatusCode;
use serde_json::{Value, json};
use store::shares::{MAX_PATIENT_EDITS, MAX_SHARE_LINKS};
use testkit::{TestResponse, TestUser, hooks::Hooks};

use crate::{
    crew::id_of,
    emergency::{PICKUP, World, north, pickup_body},
};

/// The phone of the trip's ambulance.
const AMBULANCE_PHONE: &str = "+91 98140 00031";

/// A world with one ambulance and its crew, and an emergency dispatched to it.
struct Trip {
    w: World,
    user: TestUser,
    crew: TestUser,
    booking: Value,
}

impl Trip {
    async fn new() -> Trip {
        let w = World::new().await;
        let h = w.hospital("Civil", north(2.0)).await;
        // With its own phone, which the owner's tracking shows while the trip is on.
        let res = w
            .app
            .add_ambulance(
                Some(&w.admin.token),
                json!({"number": "T-1", "status": "AVAILABLE", "type": "ALS",
                       "hospital": {"id": h["id"]}, "driverInfo": "R. Kumar",
                       "contactInfo": AMBULANCE_PHONE}),
            )
            .await;
        res.assert_status(StatusCode::CREATED);
        let amb = res.body;
        let crew = w.app.crew("crew_t", id_of(&amb)).await;
        let user = w.app.user("hana").await;
        let mut body = pickup_body();
        body["patient"] = json!({"name": "Hana Devi", "condition": "unconscious"});
        let res = w.emergency(&user, &body, None).await;
        res.assert_status(StatusCode::CREATED);
        Trip {
            w,
            user,
            crew,
            booking: res.body,
        }
    }

    fn path(&self, tail: &str) -> String {
        format!("/api/booking/{}{tail}", self.booking["id"])
    }

    async fn share(&self, who: &TestUser) -> TestResponse {
        self.w
            .app
            .post(&self.path("/share"), Some(&who.token), json!({}))
            .await
    }

    /// A new link of the trip, by its requester: its token.
    async fn token(&self) -> String {
        let res = self.share(&self.user).await;
        res.assert_status(StatusCode::CREATED);
        res.body["token"].as_str().unwrap().to_owned()
    }

    /// The link answers 404 with `body`, the one answer of every dead link.
    async fn assert_dead(&self, token: &str, body: &Value) {
        let res = self.shared(token).await;
        assert_eq!(
            (res.status, &res.body),
            (StatusCode::NOT_FOUND, body),
            "{token}"
        );
    }

    async fn shared(&self, token: &str) -> TestResponse {
        self.w
            .app
            .get(&format!("/api/booking/shared/{token}"), None)
            .await
    }

    async fn patient(&self, who: &TestUser, body: Value) -> TestResponse {
        let req = http::Request::builder()
            .method(http::Method::PATCH)
            .uri(self.path("/patient"))
            .header("authorization", format!("Bearer {}", who.token))
            .header("content-type", "application/json")
            .body(lambda_http::Body::from(body.to_string()))
            .unwrap();
        self.w.app.send(req).await
    }

    /// Rewrites an attribute of an item, as time passing would have.
    async fn set(&self, pk: String, sk: &str, path: &str, value: &str) {
        let store = &self.w.app.state.store;
        let mut update = store
            .client()
            .update_item()
            .table_name(store.table())
            .key("pk", AttributeValue::S(pk))
            .key("sk", AttributeValue::S(sk.into()))
            .update_expression(format!("SET {path} = :v"))
            .expression_attribute_values(":v", AttributeValue::S(value.into()));
        if path.contains("#at") {
            update = update.expression_attribute_names("#at", "at");
        }
        update.send().await.unwrap();
    }
}

fn hours_ago(h: i64) -> String {
    format_rfc3339(time::OffsetDateTime::now_utc() - time::Duration::hours(h))
}

fn full_patient() -> Value {
    json!({"name": "Hana Devi", "age": 71, "gender": "Female", "condition": "unconscious, breathing"})
}

#[tokio::test]
async fn the_patient_details_follow_while_the_ambulance_comes() {
    let t = Trip::new().await;
    assert_eq!(
        t.booking["patient"],
        json!({"name": "Hana Devi", "age": null, "gender": null, "condition": "unconscious"})
    );
    let res = t.patient(&t.user, full_patient()).await;
    res.assert_status(StatusCode::OK);
    assert_eq!(res.body["patient"], full_patient());
    assert_eq!(res.body["bookingStatus"], "ACTIVE");
    // The crew screen shows them.
    let me = t.w.app.get("/api/crew/me", Some(&t.crew.token)).await;
    assert_eq!(me.body["job"]["patient"], full_patient());

    // The booking's rules: every field, each valid, nothing else.
    for (patch, field) in [
        (
            json!({"name": "X", "age": 3, "gender": "Other"}),
            "condition",
        ),
        (
            json!({"name": "X", "age": 151, "gender": "Other", "condition": "c"}),
            "age",
        ),
        (
            json!({"name": " ", "age": 3, "gender": "Other", "condition": "c"}),
            "name",
        ),
        (
            json!({"name": "X", "age": 3, "gender": "x", "condition": "c"}),
            "gender",
        ),
        (
            json!({"name": "X", "age": 3, "gender": "Other", "condition": "c", "blood": "O"}),
            "blood",
        ),
    ] {
        let res = t.patient(&t.user, patch.clone()).await;
        res.assert_field(StatusCode::BAD_REQUEST, field);
    }
    // Only the requester, only while open.
    let other = t.w.app.user("other").await;
    for who in [&other, &t.w.admin, &t.crew] {
        assert_eq!(
            t.patient(who, full_patient()).await.status,
            StatusCode::FORBIDDEN
        );
    }
    let unknown =
        t.w.app
            .call(
                http::Method::PATCH,
                "/api/booking/999999/patient",
                Some(&t.user.token),
                Some(full_patient()),
            )
            .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_eq!(t.w.cancel(&t.user, &t.booking).await.status, StatusCode::OK);
    let res = t.patient(&t.user, full_patient()).await;
    res.assert_status(StatusCode::CONFLICT);
    assert!(res.message().contains("cancelled"), "{}", res.message());
}

/// Every key of a JSON value, nested.
fn keys(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                out.push(k.clone());
                keys(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| keys(v, out)),
        _ => {}
    }
}

/// Every leaf value of a JSON value (strings, numbers...).
fn leaves(v: &Value, out: &mut Vec<Value>) {
    match v {
        Value::Object(map) => map.values().for_each(|v| leaves(v, out)),
        Value::Array(items) => items.iter().for_each(|v| leaves(v, out)),
        leaf => out.push(leaf.clone()),
    }
}

#[tokio::test]
async fn a_shared_link_shows_the_trip_and_nothing_personal() {
    let t = Trip::new().await;
    assert_eq!(
        t.patient(&t.user, full_patient()).await.status,
        StatusCode::OK
    );
    let res = t.share(&t.user).await;
    res.assert_status(StatusCode::CREATED);
    let token = res.body["token"].as_str().unwrap().to_owned();
    assert_eq!(token.len(), 43);
    assert_eq!(res.body["url"], format!("/t/{token}"));
    let expires = time::OffsetDateTime::parse(
        res.body["expiresAt"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap();
    let in_a_day = time::OffsetDateTime::now_utc() + time::Duration::hours(24);
    assert!(
        (expires - in_a_day).abs() < time::Duration::minutes(1),
        "{expires}"
    );
    // Only the hash is stored.
    let store = &t.w.app.state.store;
    let hash = share_token_hash(&token).unwrap();
    assert_ne!(hash, token);

    let crew_report = json!({"latitude": 30.72, "longitude": 74.35,
        "recordedAt": format_rfc3339(time::OffsetDateTime::now_utc())});
    let res =
        t.w.app
            .put("/api/crew/location", Some(&t.crew.token), crew_report)
            .await;
    assert_eq!(res.status, StatusCode::NO_CONTENT);
    let view = t.shared(&token).await;
    view.assert_status(StatusCode::OK);
    assert_eq!(view.body["bookingStatus"], "ACTIVE");
    assert_eq!(view.body["tripStage"], "DISPATCHED");
    assert_eq!(view.body["ambulance"]["number"], "T-1");
    assert_eq!(view.body["ambulance"]["type"], "ALS");
    assert_eq!(view.body["ambulance"]["position"]["source"], "GPS");
    assert_eq!(view.body["hospital"]["name"], t.booking["hospitalName"]);
    assert!(view.body["etaMinutes"].is_number(), "{:?}", view.body);
    // The same stage and ETA as the requester's own tracking.
    let track =
        t.w.app
            .get(&t.path("/track"), Some(&t.user.token))
            .await
            .body;
    assert_eq!(view.body["etaMinutes"], track["etaMinutes"]);
    assert_eq!(view.body["timeline"], track["timeline"]);

    // Nothing personal: no such field anywhere, and none of the values.
    let mut found = vec![];
    keys(&view.body, &mut found);
    found.sort();
    found.dedup();
    let allowed = [
        "accepted",
        "address",
        "ambulance",
        "answerBy",
        "at",
        "bookingStatus",
        // The hospital the patient is driven to (decision 0026): an institution's name.
        "destinationHospitalName",
        "etaMinutes",
        "hospital",
        "latitude",
        "longitude",
        "name",
        "number",
        "position",
        "source",
        "stage",
        "stale",
        "stillLooking",
        "timeline",
        "tripStage",
        "type",
    ];
    assert_eq!(found, allowed, "the shared view's fields");
    let mut values = vec![];
    leaves(&view.body, &mut values);
    for personal in [
        "Hana",
        "unconscious",
        "hana@example.com",
        "+15550001111",
        "gate 2",
        "R. Kumar",
    ] {
        assert!(
            !values
                .iter()
                .any(|v| v.as_str().is_some_and(|s| s.contains(personal))),
            "{personal} in {}",
            view.body
        );
    }
    // (The hospital lies due north of the pickup: the same longitude is not the
    // pickup's.)
    for number in [json!(PICKUP.lat), json!(t.user.id), t.booking["id"].clone()] {
        assert!(!values.contains(&number), "{number} in {}", view.body);
    }
    // A link is public: a token in the header changes nothing, and no store write.
    let with_token =
        t.w.app
            .get(&format!("/api/booking/shared/{token}"), Some(&t.crew.token))
            .await;
    assert_eq!(with_token.body, view.body);
    assert!(
        store
            .bookings()
            .booking(id_of(&t.booking))
            .await
            .unwrap()
            .is_some()
    );
}

#[tokio::test]
async fn links_expire_and_are_revoked_with_one_answer_for_every_dead_link() {
    let t = Trip::new().await;
    let first = t.token().await;
    let second = t.token().await;
    assert_ne!(first, second);
    assert_eq!(t.shared(&first).await.status, StatusCode::OK);

    let unknown = t.shared(&"A".repeat(43)).await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    t.assert_dead("not-a-token", &unknown.body).await;

    // Someone else may neither share nor revoke; the requester revokes them all.
    let other = t.w.app.user("other").await;
    for who in [&other, &t.w.admin, &t.crew] {
        assert_eq!(t.share(who).await.status, StatusCode::FORBIDDEN);
        let res = t.w.app.delete(&t.path("/share"), Some(&who.token)).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN);
    }
    let res = t.w.app.delete(&t.path("/share"), Some(&t.user.token)).await;
    assert_eq!(res.status, StatusCode::NO_CONTENT);
    for token in [&first, &second] {
        t.assert_dead(token, &unknown.body).await;
    }
    // A new link after revoking works.
    let third = t.token().await;
    assert_eq!(t.shared(&third).await.status, StatusCode::OK);

    // At most 24 hours after it was made.
    let hash = share_token_hash(&third).unwrap();
    t.set(
        format!("SHARE#{hash}"),
        "SHARE",
        "createdAt",
        &hours_ago(25),
    )
    .await;
    t.assert_dead(&third, &unknown.body).await;

    // An hour after the booking became final: still shown (final) before, not after.
    let fourth = t.token().await;
    let done = t.w.cancel(&t.user, &t.booking).await;
    assert_eq!(done.status, StatusCode::OK);
    let view = t.shared(&fourth).await;
    assert_eq!(
        (view.status, &view.body["bookingStatus"]),
        (StatusCode::OK, &json!("CANCELLED"))
    );
    let last = done.body["timeline"].as_array().unwrap().len() - 1;
    let pk = format!("BOOKING#{}", t.booking["id"]);
    t.set(
        pk,
        "BOOKING",
        &format!("timeline[{last}].#at"),
        &hours_ago(2),
    )
    .await;
    t.assert_dead(&fourth, &unknown.body).await;
    // And a final booking is not shared again.
    let res = t.share(&t.user).await;
    res.assert_status(StatusCode::CONFLICT);
    let unknown_booking =
        t.w.app
            .post("/api/booking/999999/share", Some(&t.user.token), json!({}))
            .await;
    assert_eq!(unknown_booking.status, StatusCode::NOT_FOUND);
}

/// How a trip ends in [`an_ended_trip_no_longer_follows_the_ambulance`].
#[derive(Clone, Copy, Debug)]
enum End {
    /// The crew takes it to the hospital and completes it.
    Completed,
    /// The requester cancels it while the ambulance is coming.
    Cancelled,
}

/// Once a booking is final its ambulance drives on to other
/// patients. The owner's tracking and the family's link then show the trip's end
/// and nothing of the ambulance as it is now: no position, no ETA, no phone; the
/// link still answers (with the final stage) while it works.
async fn an_ended_trip_no_longer_follows_the_ambulance(end: End) {
    let t = Trip::new().await;
    let token = t.token().await;
    let track = async || {
        let res = t.w.app.get(&t.path("/track"), Some(&t.user.token)).await;
        res.assert_status(StatusCode::OK);
        res.body
    };
    // On the way: both views follow it.
    t.w.report(&t.crew, north(1.0), 10).await;
    let view = t.shared(&token).await.body;
    assert_eq!(view["ambulance"]["position"]["source"], "GPS", "{view}");
    assert!(view["etaMinutes"].is_number(), "{view}");
    let on_the_way = track().await;
    assert_eq!(on_the_way["ambulance"]["position"]["source"], "GPS");
    assert_eq!(on_the_way["ambulance"]["contactInfo"], AMBULANCE_PHONE);

    let ended = match end {
        End::Completed => {
            let mut last = Value::Null;
            for stage in [
                "EN_ROUTE",
                "AT_PICKUP",
                "TO_HOSPITAL",
                "AT_HOSPITAL",
                "COMPLETED",
            ] {
                let res =
                    t.w.app
                        .crew_step(
                            Some(&t.crew.token),
                            json!({"bookingId": t.booking["id"], "stage": stage}),
                        )
                        .await;
                res.assert_status(StatusCode::OK);
                last = res.body;
            }
            last
        }
        End::Cancelled => {
            let res = t.w.cancel(&t.user, &t.booking).await;
            res.assert_status(StatusCode::OK);
            res.body
        }
    };
    // Free again, the ambulance drives elsewhere (its next patient's pickup).
    let elsewhere = Point::new(30.91, 74.62);
    t.w.drive(&t.crew, elsewhere, 30).await;

    let owner = track().await;
    let admin =
        t.w.app
            .get(&t.path("/track"), Some(&t.w.admin.token))
            .await
            .body;
    let res = t.shared(&token).await;
    res.assert_status(StatusCode::OK);
    let family = res.body;
    for (who, view) in [("owner", &owner), ("admin", &admin), ("family", &family)] {
        assert_eq!(view["bookingStatus"], ended["bookingStatus"], "{who}");
        assert_eq!(view["tripStage"], ended["tripStage"], "{who}");
        assert_eq!(view["timeline"], ended["timeline"], "{who}");
        assert_eq!(view["ambulance"]["position"], Value::Null, "{who}: {view}");
        assert_eq!(view["etaMinutes"], Value::Null, "{who}: {view}");
        assert_eq!(view["ambulance"]["number"], "T-1", "{who}: as booked");
        let mut values = vec![];
        leaves(view, &mut values);
        for number in [elsewhere.lat, elsewhere.lng, north(1.0).lat] {
            assert!(
                !values.contains(&json!(number)),
                "{who}: {number} in {view}"
            );
        }
    }
    for view in [&owner, &admin] {
        assert_eq!(view["distanceKm"], Value::Null, "{view}");
        // The phone now answers for other patients; the hospital's stays.
        assert_eq!(view["ambulance"]["contactInfo"], Value::Null, "{view}");
        assert!(view["hospital"]["contactInfo"].is_string(), "{view}");
    }

    // Neither view reads the ambulance at all: nothing of it to leak.
    let reads = Arc::new(Mutex::new(Vec::<String>::new()));
    let store = Hooks::new("ReadKeys")
        .on_input({
            let reads = reads.clone();
            move |context| {
                let input = context.input();
                let pks: Vec<String> = if let Some(get) = input.downcast_ref::<GetItemInput>() {
                    get.key()
                        .into_iter()
                        .flat_map(|k| k.get("pk"))
                        .map(|v| format!("{v:?}"))
                        .collect()
                } else if let Some(batch) = input.downcast_ref::<BatchGetItemInput>() {
                    batch
                        .request_items()
                        .into_iter()
                        .flat_map(|items| items.values())
                        .flat_map(|ka| ka.keys())
                        .flat_map(|k| k.get("pk"))
                        .map(|v| format!("{v:?}"))
                        .collect()
                } else {
                    vec![format!("{input:?}")]
                };
                reads.lock().unwrap().extend(pks);
                Ok(())
            }
        })
        .on(&t.w.app.state.store);
    let booking = store
        .bookings()
        .booking(id_of(&t.booking))
        .await
        .unwrap()
        .unwrap();
    reads.lock().unwrap().clear();
    store.dispatch().tracking(booking).await.unwrap();
    store.shares().shared_trip(&token).await.unwrap();
    let reads = reads.lock().unwrap().clone();
    assert!(!reads.is_empty());
    assert!(
        reads.iter().all(|pk| !pk.contains("AMBULANCE#")),
        "{reads:?}"
    );
}

#[tokio::test]
async fn a_completed_trip_no_longer_follows_the_ambulance() {
    an_ended_trip_no_longer_follows_the_ambulance(End::Completed).await;
}

#[tokio::test]
async fn a_cancelled_booking_no_longer_follows_the_ambulance() {
    an_ended_trip_no_longer_follows_the_ambulance(End::Cancelled).await;
}

/// The tracking-link items in the table.
async fn share_items(t: &Trip) -> usize {
    let store = &t.w.app.state.store;
    let out = store
        .client()
        .scan()
        .table_name(store.table())
        .filter_expression("begins_with(pk, :share)")
        .expression_attribute_values(":share", AttributeValue::S("SHARE#".into()))
        .send()
        .await
        .unwrap();
    assert!(
        out.last_evaluated_key.is_none(),
        "one page is the whole table"
    );
    out.items.unwrap_or_default().len()
}

/// Before: 20 links asked in half a second were 20 items kept 24 hours. A
/// booking has at most [`MAX_SHARE_LINKS`] links made in any 24 hours, however many
/// requests race over 16 instances; the others are 409 and write nothing. Revoking
/// stops links but gives no new ones; a link made more than 24 hours ago (dead by
/// then) no longer counts.
#[tokio::test]
async fn a_booking_has_at_most_five_links_however_many_race() {
    let t = Trip::new().await;
    let nodes = t.w.app.instances(16, api_tests::system).await;
    let uri = t.path("/share");
    let results = join_all(
        (0..20).map(|i| nodes[i % nodes.len()].post(&uri, Some(&t.user.token), json!({}))),
    )
    .await;
    let made = results
        .iter()
        .filter(|r| r.status == StatusCode::CREATED)
        .count();
    assert_eq!(made, MAX_SHARE_LINKS);
    for r in results.iter().filter(|r| r.status != StatusCode::CREATED) {
        r.assert_status(StatusCode::CONFLICT);
        assert!(
            r.message()
                .contains(&format!("{MAX_SHARE_LINKS} tracking links")),
            "{}",
            r.message()
        );
    }
    assert_eq!(share_items(&t).await, MAX_SHARE_LINKS);
    // The links made work.
    let token = results[0].body["token"].as_str().map(str::to_owned);
    let token = token.unwrap_or_else(|| {
        let made = results.iter().find(|r| r.status == StatusCode::CREATED);
        made.unwrap().body["token"].as_str().unwrap().to_owned()
    });
    assert_eq!(t.shared(&token).await.status, StatusCode::OK);

    // Revoked, they stop; the allowance stays used (their items are still kept).
    let res = t.w.app.delete(&uri, Some(&t.user.token)).await;
    res.assert_status(StatusCode::NO_CONTENT);
    t.share(&t.user).await.assert_status(StatusCode::CONFLICT);
    assert_eq!(share_items(&t).await, MAX_SHARE_LINKS);

    // A day later those links are dead and no longer count: the next one is made.
    let day_ago = epoch_seconds() - 25 * 3600;
    let store = &t.w.app.state.store;
    let made_at: Vec<AttributeValue> = (0..MAX_SHARE_LINKS)
        .map(|_| AttributeValue::N(day_ago.to_string()))
        .collect();
    testkit::raw_update(
        store,
        &store::keys::booking(crate::crew::id_of(&t.booking)),
        "SET shareLinksMade = :made",
        vec![(":made", AttributeValue::L(made_at))],
    )
    .await;
    let next = t.token().await;
    assert_eq!(t.shared(&next).await.status, StatusCode::OK);
}

/// Before: the patient details could be rewritten without end. A booking takes
/// at most [`MAX_PATIENT_EDITS`] rewrites, however many race over 16 instances; the
/// others are 409 and change nothing.
#[tokio::test]
async fn patient_details_are_rewritten_at_most_twenty_times() {
    let t = Trip::new().await;
    let nodes = t.w.app.instances(16, api_tests::system).await;
    let attempts = MAX_PATIENT_EDITS as usize + 10;
    let results = join_all((0..attempts).map(|i| {
        let mut patient = full_patient();
        patient["age"] = json!(i);
        let req = http::Request::builder()
            .method(http::Method::PATCH)
            .uri(t.path("/patient"))
            .header("authorization", format!("Bearer {}", t.user.token))
            .header("content-type", "application/json")
            .body(lambda_http::Body::from(patient.to_string()))
            .unwrap();
        nodes[i % nodes.len()].send(req)
    }))
    .await;
    let ok: Vec<&TestResponse> = results
        .iter()
        .filter(|r| r.status == StatusCode::OK)
        .collect();
    assert_eq!(ok.len(), MAX_PATIENT_EDITS as usize);
    for r in results.iter().filter(|r| r.status != StatusCode::OK) {
        r.assert_status(StatusCode::CONFLICT);
        assert!(
            r.message()
                .contains(&format!("changed {MAX_PATIENT_EDITS} times")),
            "{}",
            r.message()
        );
    }
    // What is stored is one of the accepted rewrites, and a refused one changes nothing.
    let stored = t.w.app.get(&t.path(""), Some(&t.user.token)).await.body;
    assert!(
        ok.iter().any(|r| r.body["patient"] == stored["patient"]),
        "{}",
        stored["patient"]
    );
    let res = t.patient(&t.user, full_patient()).await;
    res.assert_status(StatusCode::CONFLICT);
    let after = t.w.app.get(&t.path(""), Some(&t.user.token)).await.body;
    assert_eq!(after["patient"], stored["patient"]);
}
