//! Nothing a phone sends can break dispatch (docs/reliability.md): a report from a clock set to
//! year 0 is refused; an item that does not read (written by older code, by hand or
//! by a bug) is skipped, logged and counted by every search, list and page that
//! reads it, which answer with the rest; the next valid report replaces a bad
//! position at once; `manage repair-positions` deletes or rebuilds what is left.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use domain::types::{Id, format_rfc3339};
use http::StatusCode;
use serde_json::{Value, json};
use store::keys::{self, Key};
use time::OffsetDateTime;

use crate::{
    crew::id_of,
    emergency::{PICKUP, World, north, pickup_body},
};

/// What the old code stored for `0000-01-01T00:00:00+00:01`: year -1 in UTC.
const YEAR_MINUS_ONE: &str = "-0001-12-31T23:59:00.000Z";

type Item = HashMap<String, AttributeValue>;

pub async fn raw(w: &World, key: &Key) -> Option<Item> {
    let out = w
        .store()
        .client()
        .get_item()
        .table_name(w.app.state.store.table())
        .set_key(Some(key.item()))
        .consistent_read(true)
        .send()
        .await
        .unwrap();
    out.item
}

pub async fn put_raw(w: &World, item: Item) {
    w.app
        .state
        .store
        .client()
        .put_item()
        .table_name(w.app.state.store.table())
        .set_item(Some(item))
        .send()
        .await
        .unwrap();
}

fn s(v: &str) -> AttributeValue {
    AttributeValue::S(v.to_owned())
}

/// The item at `key` with `changes` made to it (it must exist).
pub async fn spoil(w: &World, key: &Key, changes: &[(&str, AttributeValue)]) {
    let mut item = raw(w, key).await.expect("the item to spoil exists");
    for (name, value) in changes {
        item.insert((*name).to_owned(), value.clone());
    }
    put_raw(w, item).await;
}

/// A `POSITION` item as the old code wrote it for a phone whose clock said year 0:
/// at the pickup, so it would rank first.
async fn plant_bad_position(w: &World, ambulance: Id) {
    let key = keys::position(ambulance);
    let mut item: Item = key.item();
    item.insert("latitude".into(), AttributeValue::N(PICKUP.lat.to_string()));
    item.insert(
        "longitude".into(),
        AttributeValue::N(PICKUP.lng.to_string()),
    );
    item.insert("recordedAt".into(), s(YEAR_MINUS_ONE));
    item.insert(
        "receivedAt".into(),
        s(&format_rfc3339(OffsetDateTime::now_utc())),
    );
    put_raw(w, item).await;
}

/// The ambulance's `FREEPOS` entry moved to the pickup with the year -1 time, as a
/// report moved it just now (so the 30-second rule would keep it there).
async fn plant_bad_free_entry(w: &World, ambulance: Id) {
    let (pk, sk) = keys::free_geo(PICKUP);
    spoil(
        w,
        &keys::free_position(ambulance),
        &[
            ("latitude", AttributeValue::N(PICKUP.lat.to_string())),
            ("longitude", AttributeValue::N(PICKUP.lng.to_string())),
            ("recordedAt", s(YEAR_MINUS_ONE)),
            ("movedAt", s(&format_rfc3339(OffsetDateTime::now_utc()))),
            ("freegeopk", s(&pk)),
            ("freegeosk", AttributeValue::N(sk.to_string())),
        ],
    )
    .await;
}

fn unreadable(kind: &str) -> u64 {
    telemetry::metrics::counted("UnreadableItems", kind) as u64
}

fn ids(list: &Value) -> Vec<u64> {
    let mut ids: Vec<u64> = list
        .as_array()
        .unwrap_or_else(|| panic!("a list: {list}"))
        .iter()
        .map(|v| v["id"].as_u64().unwrap())
        .collect();
    ids.sort();
    ids
}

#[tokio::test]
async fn a_report_from_year_zero_is_refused_and_bad_items_never_fail_an_answer() {
    let w = World::new().await;
    let h = w.hospital("Near", north(2.0)).await;
    let a = w.ambulance(&h, "BAD-CLOCK", "BLS").await;
    let b = w.ambulance(&h, "FINE", "BLS").await;
    let c = w.ambulance(&h, "SPOILT", "BLS").await;
    let (a_id, b_id, c_id) = (id_of(&a), id_of(&b), id_of(&c));
    let crew = w.app.crew("badclock", a_id).await;

    // The report that did it (docs/reliability.md): refused, naming the field; nothing stored.
    let res = w
        .app
        .put(
            "/api/crew/location",
            Some(&crew.token),
            json!({"latitude": -61.5, "longitude": 101.25, "recordedAt": "0000-01-01T00:00:00+00:01"}),
        )
        .await;
    res.assert_field(StatusCode::BAD_REQUEST, "recordedAt");
    assert!(raw(&w, &keys::position(a_id)).await.is_none());

    // What the old code stored from it, and more that does not read: the nearest
    // free entry's time, an ambulance's status.
    plant_bad_position(&w, a_id).await;
    plant_bad_free_entry(&w, a_id).await;
    spoil(&w, &keys::ambulance(c_id), &[("status", s("BROKEN"))]).await;
    // A free entry that reads but cannot rank: no point.
    let mut item = raw(&w, &keys::free_position(c_id)).await.unwrap();
    item.remove("latitude");
    put_raw(&w, item).await;

    // The crew's own screen: its ambulance at its hospital, as if it never reported.
    let me = w.app.get("/api/crew/me", Some(&crew.token)).await;
    me.assert_status(StatusCode::OK);
    assert_eq!(me.body["ambulance"]["position"]["source"], "HOSPITAL");

    // The dispatcher's lists and map answer with the rest.
    let admin = Some(w.admin.token.as_str());
    let all = w.app.get("/api/admin/ambulances/all", admin).await;
    all.assert_status(StatusCode::OK);
    assert_eq!(ids(&all.body), [a_id.get(), b_id.get()]);
    let hospital_fleet = w
        .app
        .get(&format!("/api/ambulances/hospital/{}", h["id"]), None)
        .await;
    hospital_fleet.assert_status(StatusCode::OK);
    assert_eq!(ids(&hospital_fleet.body), [a_id.get(), b_id.get()]);
    let live = w
        .app
        .get("/api/admin/live?bbox=30.5,74.2,30.9,74.5", admin)
        .await;
    live.assert_status(StatusCode::OK);
    assert_eq!(ids(&live.body["ambulances"]), [a_id.get(), b_id.get()]);

    // An emergency at the pickup: the bad entry (which would rank first) is skipped,
    // an ambulance is sent.
    let user = w.app.user("caller").await;
    let sent = w.emergency(&user, &pickup_body(), Some("k1")).await;
    sent.assert_status(StatusCode::CREATED);
    let booking_id = sent.body["id"].clone();
    assert!(
        [a_id.get(), b_id.get()].contains(&sent.body["ambulanceId"].as_u64().unwrap()),
        "{}",
        sent.body
    );
    assert!(
        unreadable("FREEPOS") >= 2,
        "the skipped entries are counted"
    );
    assert!(unreadable("POSITION") >= 1);
    assert!(unreadable("AMBULANCE") >= 1);

    // Tracking, with the booked ambulance's position unreadable: the hospital stands in.
    let booked = Id::try_from(sent.body["ambulanceId"].as_u64().unwrap()).unwrap();
    plant_bad_position(&w, booked).await;
    let track = w
        .app
        .get(
            &format!("/api/booking/{booking_id}/track"),
            Some(&user.token),
        )
        .await;
    track.assert_status(StatusCode::OK);
    assert_eq!(track.body["ambulance"]["position"]["source"], "HOSPITAL");
    assert_eq!(track.body["etaMinutes"], Value::Null);

    // An unreadable booking: the admin's bookings page and the live map go on.
    let cancelled = w.cancel(&user, &sent.body).await;
    cancelled.assert_status(StatusCode::OK);
    let second = w.emergency(&user, &pickup_body(), Some("k2")).await;
    second.assert_status(StatusCode::CREATED);
    let second_id = Id::try_from(second.body["id"].as_u64().unwrap()).unwrap();
    spoil(
        &w,
        &keys::booking(second_id),
        &[("bookingStatus", s("LOST"))],
    )
    .await;
    let page = w
        .app
        .get("/api/admin/bookings/all/paged?page=0&size=10", admin)
        .await;
    page.assert_status(StatusCode::OK);
    assert_eq!(ids(&page.body["content"]), [booking_id.as_u64().unwrap()]);
    let live = w
        .app
        .get("/api/admin/live?bbox=30.5,74.2,30.9,74.5", admin)
        .await;
    live.assert_status(StatusCode::OK);
    assert_eq!(live.body["openBookings"], json!([]));
    assert!(unreadable("BOOKING") >= 2);

    // Tracking with its ambulance and its hospital unreadable: the trip still shows.
    let other = w.app.user("other").await;
    let third = w.emergency(&other, &pickup_body(), Some("k3")).await;
    third.assert_status(StatusCode::CREATED);
    let taken = Id::try_from(third.body["ambulanceId"].as_u64().unwrap()).unwrap();
    spoil(&w, &keys::ambulance(taken), &[("type", s("JET"))]).await;
    let hospital = Id::try_from(third.body["hospitalId"].as_u64().unwrap()).unwrap();
    spoil(&w, &keys::hospital(hospital), &[("latitude", s("north"))]).await;
    let track = w
        .app
        .get(
            &format!("/api/booking/{}/track", third.body["id"]),
            Some(&other.token),
        )
        .await;
    track.assert_status(StatusCode::OK);
    assert_eq!(
        track.body["ambulance"]["number"],
        third.body["ambulanceNumber"]
    );
    assert_eq!(track.body["ambulance"]["position"], Value::Null);
    assert_eq!(track.body["hospital"]["latitude"], Value::Null);
    assert!(unreadable("HOSPITAL") >= 1);
}

#[tokio::test]
async fn the_next_valid_report_replaces_a_bad_position_at_once() {
    let w = World::new().await;
    let h = w.hospital("Near", north(2.0)).await;
    let a = w.ambulance(&h, "BAD-CLOCK", "BLS").await;
    let a_id = id_of(&a);
    let crew = w.app.crew("badclock", a_id).await;
    plant_bad_position(&w, a_id).await;
    plant_bad_free_entry(&w, a_id).await;

    // At once, whatever the 4-second and 30-second rules say.
    let res = w
        .app
        .put(
            "/api/crew/location",
            Some(&crew.token),
            json!({"latitude": north(0.5).lat, "longitude": north(0.5).lng,
                   "recordedAt": format_rfc3339(OffsetDateTime::now_utc())}),
        )
        .await;
    res.assert_status(StatusCode::NO_CONTENT);
    let me = w.app.get("/api/crew/me", Some(&crew.token)).await;
    assert_eq!(me.body["ambulance"]["position"]["source"], "GPS");
    let latitude = me.body["ambulance"]["position"]["latitude"]
        .as_f64()
        .unwrap();
    assert!((latitude - north(0.5).lat).abs() < 1e-9, "{latitude}");
    let entry: store::positions::FreeGeoEntry = serde_dynamo::from_item(
        raw(&w, &keys::free_position(a_id))
            .await
            .expect("still free"),
    )
    .expect("the free entry reads again");
    assert!(
        (entry.latitude.unwrap() - north(0.5).lat).abs() < 1e-9,
        "{entry:?}"
    );

    // And the emergency finds it there.
    let user = w.app.user("caller").await;
    let sent = w.emergency(&user, &pickup_body(), None).await;
    sent.assert_status(StatusCode::CREATED);
    assert_eq!(sent.body["ambulanceId"], a["id"]);
}

#[tokio::test]
async fn repair_positions_deletes_or_rebuilds_what_does_not_read() {
    let w = World::new().await;
    let h = w.hospital("Near", north(2.0)).await;
    let free = id_of(&w.ambulance(&h, "FREE", "BLS").await);
    let fine = id_of(&w.ambulance(&h, "FINE", "BLS").await);
    let away = id_of(&w.ambulance(&h, "AWAY", "BLS").await);
    let crew = w.app.crew("fine", fine).await;
    w.report(&crew, north(1.0), 5).await;
    plant_bad_position(&w, free).await;
    plant_bad_free_entry(&w, free).await;
    // A free entry left behind by an ambulance that is not AVAILABLE.
    let leftover = raw(&w, &keys::free_position(away)).await.unwrap();
    let res = w
        .app
        .patch(
            &format!("/api/admin/ambulance/status?ambulanceId={away}&status=MAINTENANCE"),
            Some(&w.admin.token),
        )
        .await;
    res.assert_status(StatusCode::OK);
    put_raw(&w, leftover).await;
    plant_bad_free_entry(&w, away).await;

    let repair = w.store().positions().repair_positions().await.unwrap();
    assert_eq!(
        (
            repair.positions_removed,
            repair.free_rebuilt,
            repair.free_removed
        ),
        (1, 1, 1),
        "{repair:?}"
    );
    assert!(raw(&w, &keys::position(free)).await.is_none());
    assert!(raw(&w, &keys::free_position(away)).await.is_none());
    let rebuilt: store::positions::FreeGeoEntry =
        serde_dynamo::from_item(raw(&w, &keys::free_position(free)).await.unwrap()).unwrap();
    assert_eq!(
        rebuilt.recorded_at, None,
        "at its hospital until it reports"
    );
    // The good ones are left alone, and a second run finds nothing.
    assert!(raw(&w, &keys::position(fine)).await.is_some());
    let again = w.store().positions().repair_positions().await.unwrap();
    assert_eq!(
        (
            again.positions_removed,
            again.free_rebuilt,
            again.free_removed
        ),
        (0, 0, 0)
    );
    w.assert_consistent().await;
}

/// A free entry written before the ambulance's number was projected into it does not
/// read (it is skipped like any item that does not: the ambulance is not sent);
/// `manage migrate` gives it the number, once, and the ambulance is sent again.
#[tokio::test]
async fn a_free_entry_without_its_number_is_sent_again_once_migrated() {
    let w = World::new().await;
    let h = w.hospital("Near", north(2.0)).await;
    let a = w.ambulance(&h, "OLD-ENTRY", "BLS").await;
    let a_id = id_of(&a);
    let crew = w.app.crew("oldentry", a_id).await;
    w.report(&crew, north(0.5), 0).await;
    let mut item = raw(&w, &keys::free_position(a_id))
        .await
        .expect("a reporting free ambulance has a free entry");
    item.remove("number");
    put_raw(&w, item).await;
    let user = w.app.user("caller").await;
    let res = w.emergency(&user, &pickup_body(), None).await;
    assert_eq!(res.status, StatusCode::CONFLICT, "{:?}", res.body);

    let store = &w.app.state.store;
    assert_eq!(store.migrations().migrate().await.unwrap().free_entries, 1);
    assert_eq!(
        store.migrations().migrate().await.unwrap().free_entries,
        0,
        "once"
    );
    let item = raw(&w, &keys::free_position(a_id)).await.unwrap();
    assert_eq!(item["number"], s("OLD-ENTRY"));
    let res = w.emergency(&user, &pickup_body(), None).await;
    res.assert_status(StatusCode::CREATED);
    assert_eq!(res.body["ambulance"]["number"], "OLD-ENTRY");
}

/// A free entry that does not read at all (its `recordedAt` a number, its `type`
/// unknown: planted behind the API, just moved so the 30-second rule would keep it)
/// hid its ambulance from every emergency for ever: a valid report now writes it
/// anew, and the next emergency finds the ambulance.
#[tokio::test]
async fn the_next_valid_report_rewrites_an_unreadable_free_entry() {
    let w = World::new().await;
    let h = w.hospital("Near", north(2.0)).await;
    let a = w.ambulance(&h, "HIDDEN", "BLS").await;
    let a_id = id_of(&a);
    let crew = w.app.crew("hidden", a_id).await;
    // A first report, so the entry is a live one near the pickup.
    let report = |km: f64| {
        json!({"latitude": north(km).lat, "longitude": north(km).lng,
               "recordedAt": format_rfc3339(OffsetDateTime::now_utc())})
    };
    w.app
        .put("/api/crew/location", Some(&crew.token), report(0.5))
        .await
        .assert_status(StatusCode::NO_CONTENT);
    for (name, bad) in [
        ("recordedAt", AttributeValue::N("5".into())),
        ("type", s("SPACESHIP")),
    ] {
        spoil(
            &w,
            &keys::free_position(a_id),
            &[
                (name, bad),
                ("movedAt", s(&format_rfc3339(OffsetDateTime::now_utc()))),
            ],
        )
        .await;
        // Skipped, not a 500: nobody else near, so nothing is found.
        let user = w.app.user(&format!("first_{name}")).await;
        let res = w.emergency(&user, &pickup_body(), None).await;
        res.assert_status(StatusCode::CONFLICT);

        // The next valid report (5 s on, past the 4-second rule) writes it anew.
        w.app.state.store.advance_clock(time::Duration::seconds(5));
        w.app
            .put("/api/crew/location", Some(&crew.token), report(0.4))
            .await
            .assert_status(StatusCode::NO_CONTENT);
        let entry: store::positions::FreeGeoEntry =
            serde_dynamo::from_item(raw(&w, &keys::free_position(a_id)).await.unwrap())
                .expect("the free entry reads again");
        assert!(
            (entry.latitude.unwrap() - north(0.4).lat).abs() < 1e-9,
            "{entry:?}"
        );
        let user = w.app.user(&format!("second_{name}")).await;
        let sent = w.emergency(&user, &pickup_body(), None).await;
        sent.assert_status(StatusCode::CREATED);
        assert_eq!(sent.body["ambulanceId"], a["id"]);
        // Free again for the next round.
        w.app
            .cancel_booking(Some(&user.token), &sent.body["id"])
            .await
            .assert_status(StatusCode::OK);
    }
}
