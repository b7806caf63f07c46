//! `make bench`: the receiving hospital's board (`store.receiving().board`,
//! `GET /api/hospital/incoming`; docs/decisions/0026-receiving-hospital.md) in
//! DynamoDB Local (DYNAMODB_ENDPOINT), against a bare GetItem's p95 (the goal first
//! set: at most twice it) and against its own floor: the reads it cannot avoid,
//! issued bare with the SDK.
//!
//! The table: `BENCH_TOTAL` bookings (default 10 000) over 10 hospitals, of which
//! `BENCH_OPEN` (default 100) are open trips to hospital 1, each held by an
//! ambulance of its own that reported 30 s ago (so the board reads every one's
//! phone and position): a third at the door, the rest on their way. Of the others,
//! half ended at hospital 1 over the last 30 days (in its `dest` partition; those
//! older than a day outside the board's range) and half went to the other
//! hospitals. Loaded with BatchWriteItem as the store writes them.
//!
//! Then `BENCH_REQUESTS` (default 200) rounds, one call at a time, of: the board; a
//! bare GetItem; the bare reads (the floor): the open range of `dest` (all pages),
//! then at once the BatchGetItem of its ambulances (the board's projection) and of
//! their `POSITION`s, beside the ended range (all pages) and the hospital's GetItem,
//! the same calls and items the board makes, nothing decoded; and the same bare
//! reads in the board's first layout (one range, then the ambulances); and the
//! floor's two chains, each alone (where its time goes).
//!
//! Printed: the trips on the board, DynamoDB calls and items per request
//! (`testkit::hooks::read_capacity`), the p95 of each, the board's p95 over its
//! floor's and over the GetItem's, the cost per item read, and whether the measure
//! that can be met holds: the board within 1.25 x its own unavoidable reads.

use std::time::Instant;

use aws_sdk_dynamodb::types::{AttributeValue, KeysAndAttributes};
use domain::{
    ambulance::{AmbulanceStatus, AmbulanceType, NewAmbulance},
    booking::Booking,
    geo::Point,
    hospital::Hospital,
    hospital_staff::HospitalStaffRef,
    receiving::ENDED_SHOWN_FOR,
    types::{Id, format_rfc3339},
};
use serde_json::json;
use store::{
    Item, Store,
    bulk::BulkAmbulance,
    keys::{self, Key},
    receiving::AMBULANCE_PROJECTION,
    schema::DEST,
};
use time::{Duration, OffsetDateTime};

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .map_or(default, |v| v.parse().expect("a number"))
}

/// Booking `id` to hospital `to` by ambulance `amb`, called `called`, at the stages
/// `stages` (each a minute apart), ended when the last is COMPLETED.
fn booking(id: u64, to: &Hospital, amb: u64, called: OffsetDateTime, stages: &[&str]) -> Booking {
    let at = |i: usize| format_rfc3339(called + Duration::minutes(i as i64));
    let timeline: Vec<_> = stages
        .iter()
        .enumerate()
        .map(|(i, s)| json!({"stage": s, "at": at(i)}))
        .collect();
    let last = stages.last().copied().unwrap_or("PENDING");
    let (status, stage) = match last {
        "COMPLETED" => ("COMPLETED", Some("AT_HOSPITAL")),
        "PENDING" => ("PENDING", None),
        s => ("ACTIVE", Some(s)),
    };
    serde_json::from_value(json!({
        "id": id, "bookingStatus": status, "bookingType": if id.is_multiple_of(3) { "EMERGENCY" } else { "NORMAL" },
        "bookingTime": at(0), "userId": 1, "username": "bench", "userEmail": "bench@example.com",
        "hospitalId": to.id, "hospitalName": to.name,
        "hospital": {"id": to.id, "name": to.name, "address": to.address},
        "destinationHospitalId": to.id, "destinationHospitalName": to.name,
        "ambulanceId": amb, "ambulanceNumber": format!("B-{amb}"),
        "ambulance": {"id": amb, "number": format!("B-{amb}"), "type": "ALS", "driverInfo": null},
        "patient": {"name": "P", "age": 40 + id % 40, "gender": "Female", "condition": "chest pain"},
        "userPhone": "+15550100", "pickup": {"latitude": 30.7, "longitude": 74.3},
        "tripStage": stage, "timeline": timeline,
    }))
    .expect("a booking")
}

/// The board's floor's measure: its p95 within this many times the p95 of the
/// reads it cannot avoid, issued bare.
const WITHIN_FLOOR: f64 = 1.25;

/// Every item of one Query of `dest` (all pages), bare.
async fn query_all(store: &Store, condition: &str, values: Vec<(&str, String)>) -> Vec<Item> {
    let mut items = vec![];
    let mut start = None;
    loop {
        let out = store
            .client()
            .query()
            .table_name(store.table())
            .index_name(DEST)
            .key_condition_expression(condition)
            .set_expression_attribute_values(Some(
                values
                    .iter()
                    .map(|(k, v)| (k.to_string(), AttributeValue::S(v.clone())))
                    .collect(),
            ))
            .set_exclusive_start_key(start)
            .send()
            .await
            .unwrap();
        items.extend(out.items.unwrap_or_default());
        start = out.last_evaluated_key.filter(|k| !k.is_empty());
        if start.is_none() {
            return items;
        }
    }
}

/// Strongly consistent BatchGetItems of `keys` (100 a call, at once, unprocessed
/// keys asked again), with `projection` if any; the items found.
async fn batch_get(store: &Store, keys: Vec<Key>, projection: Option<&str>) -> usize {
    let calls = keys.chunks(100).map(|chunk| async move {
        let mut found = 0;
        let mut pending = Some(
            KeysAndAttributes::builder()
                .set_keys(Some(chunk.iter().map(Key::item).collect()))
                .set_projection_expression(projection.map(str::to_owned))
                .consistent_read(true)
                .build()
                .unwrap(),
        );
        while let Some(request) = pending.take() {
            let out = store
                .client()
                .batch_get_item()
                .request_items(store.table(), request)
                .send()
                .await
                .unwrap();
            found += out
                .responses
                .and_then(|mut r| r.remove(store.table()))
                .map_or(0, |items| items.len());
            pending = out
                .unprocessed_keys
                .and_then(|mut u| u.remove(store.table()))
                .filter(|k| !k.keys().is_empty());
        }
        found
    });
    futures::future::join_all(calls).await.into_iter().sum()
}

/// The ambulances of the open trips among `items` (index items of `dest`).
fn open_ambulances(items: &[Item]) -> Vec<Id> {
    let mut ids: Vec<Id> = items
        .iter()
        .filter(|i| matches!(i.get("destsk"), Some(AttributeValue::S(sk)) if sk.starts_with(keys::DESTINATION_OPEN_PREFIX)))
        .filter_map(|i| match i.get("ambulance")? {
            AttributeValue::M(m) => match m.get("id")? {
                AttributeValue::N(n) => Id::try_from(n.parse::<u64>().ok()?).ok(),
                _ => None,
            },
            _ => None,
        })
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

/// The phones (the board's projection) and positions of `ambulances`, at once.
async fn ambulances_now(store: &Store, ambulances: &[Id]) -> usize {
    let (phones, positions) = tokio::join!(
        batch_get(
            store,
            ambulances.iter().map(|id| keys::ambulance(*id)).collect(),
            Some(AMBULANCE_PROJECTION),
        ),
        batch_get(
            store,
            ambulances.iter().map(|id| keys::position(*id)).collect(),
            None,
        )
    );
    phones + positions
}

/// The hospital's item, bare.
async fn hospital_item(store: &Store, hospital: Id) -> usize {
    let out = store
        .client()
        .get_item()
        .table_name(store.table())
        .set_key(Some(keys::hospital(hospital).item()))
        .consistent_read(true)
        .send()
        .await
        .unwrap();
    usize::from(out.item.is_some())
}

/// The open range of `hospital`'s partition, then its ambulances: items read.
async fn open_chain(store: &Store, hospital: Id) -> usize {
    let items = query_all(
        store,
        "destpk = :p AND begins_with(destsk, :open)",
        vec![
            (":p", keys::destination_trips(hospital)),
            (":open", keys::DESTINATION_OPEN_PREFIX.to_owned()),
        ],
    )
    .await;
    items.len() + ambulances_now(store, &open_ambulances(&items)).await
}

/// The range of the trips ended since `since`: items read.
async fn ended_range(store: &Store, hospital: Id, since: &str) -> usize {
    query_all(
        store,
        "destpk = :p AND destsk BETWEEN :from AND :last",
        vec![
            (":p", keys::destination_trips(hospital)),
            (":from", keys::destination_board_from(since)),
            (":last", keys::DESTINATION_ENDED_LAST.to_owned()),
        ],
    )
    .await
    .len()
}

/// The board's unavoidable reads, bare, as the board makes them: the open range,
/// then its ambulances, beside the ended range and the hospital. Items read.
async fn floor(store: &Store, hospital: Id, since: &str) -> usize {
    let (open, ended, found) = tokio::join!(
        open_chain(store, hospital),
        ended_range(store, hospital, since),
        hospital_item(store, hospital)
    );
    open + ended + found
}

/// The same reads in the board's first layout: one range (∥ the hospital), then the
/// ambulances.
async fn floor_one_range(store: &Store, hospital: Id, since: &str) -> usize {
    let range = query_all(
        store,
        "destpk = :p AND destsk > :from",
        vec![
            (":p", keys::destination_trips(hospital)),
            (":from", keys::destination_board_from(since)),
        ],
    );
    let (items, found) = tokio::join!(range, hospital_item(store, hospital));
    items.len() + found + ambulances_now(store, &open_ambulances(&items)).await
}

/// Runs `f`, timed (ms), with the items and calls it read.
async fn timed<F: std::future::Future>(f: F) -> (f64, F::Output, usize, usize) {
    testkit::hooks::take_reads();
    let t = Instant::now();
    let out = f.await;
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    let (_, items, calls) = testkit::hooks::take_reads();
    (ms, out, items, calls)
}

#[tokio::main]
async fn main() {
    let open = env("BENCH_OPEN", 100);
    let total = env("BENCH_TOTAL", 10_000).max(open);
    let requests = env("BENCH_REQUESTS", 200);
    let plain = testkit::bench_store("bench-incoming").await;
    let store = testkit::hooks::read_capacity().on(&plain);
    let started = Instant::now();

    let hospitals: Vec<Hospital> = (1..=10u64)
        .map(|i| testkit::numbered_hospital(i, Point::new(30.6 + i as f64 * 0.02, 74.3)))
        .collect();
    testkit::bulk_load_hospitals(&store, &hospitals).await;
    let board = &hospitals[0];
    // One ambulance per open trip, ON_DUTY, seen 30 s ago 5 km out.
    let fleet = (1..=open as u64)
        .map(|i| BulkAmbulance {
            id: Id::try_from(i).unwrap(),
            new: NewAmbulance {
                number: format!("B-{i}"),
                driver_info: None,
                status: AmbulanceStatus::OnDuty,
                ambulance_type: AmbulanceType::Als,
                contact_info: Some(format!("+91 98000 {i:05}")),
                hospital_id: board.id,
            },
            hospital: board.clone(),
            last: Some((
                Point::new(board.latitude + 0.045, board.longitude),
                Duration::seconds(30),
            )),
        })
        .collect();
    // No fleet to load without open trips (`BENCH_OPEN=0`: the board of ended trips).
    if open > 0 {
        store.bulk().bulk_load_fleet(fleet).await.unwrap();
    }
    let now = OffsetDateTime::now_utc();
    let mut bookings = vec![];
    for i in 1..=open as u64 {
        let stages: &[&str] = if i.is_multiple_of(3) {
            &[
                "ACTIVE",
                "DISPATCHED",
                "EN_ROUTE",
                "AT_PICKUP",
                "TO_HOSPITAL",
                "AT_HOSPITAL",
            ]
        } else if i % 3 == 1 {
            &[
                "ACTIVE",
                "DISPATCHED",
                "EN_ROUTE",
                "AT_PICKUP",
                "TO_HOSPITAL",
            ]
        } else {
            &["ACTIVE", "DISPATCHED", "EN_ROUTE"]
        };
        bookings.push(booking(i, board, i, now - Duration::minutes(40), stages));
    }
    let done = [
        "ACTIVE",
        "DISPATCHED",
        "EN_ROUTE",
        "AT_PICKUP",
        "TO_HOSPITAL",
        "AT_HOSPITAL",
        "COMPLETED",
    ];
    let mut on_board = open;
    for i in (open as u64 + 1)..=total as u64 {
        let k = i - open as u64;
        let (to, called) = if k.is_multiple_of(2) {
            // Ended at hospital 1 over the last 30 days (spread by the id).
            let mut ago =
                Duration::minutes((k as i64 * 4_321) % (30 * 24 * 60)) + Duration::hours(1);
            // Clear of the board's 24 h edge, so the count below holds while it runs.
            if (Duration::hours(23)..Duration::hours(25)).contains(&ago) {
                ago += Duration::hours(2);
            }
            if ago < Duration::hours(24) {
                on_board += 1;
            }
            (board, now - ago)
        } else {
            (&hospitals[1 + (k as usize % 9)], now - Duration::days(2))
        };
        bookings.push(booking(i, to, 1_000 + i, called, &done));
    }
    store.bulk().bulk_load_bookings(bookings).await.unwrap();
    let load_secs = started.elapsed().as_secs_f64();

    let staff = HospitalStaffRef {
        id: Id::try_from(1).unwrap(),
        hospital_id: board.id,
    };
    // Warm up the connections.
    let first = store.receiving().board(staff).await.unwrap();
    assert_eq!(
        first.trips.len(),
        on_board,
        "the board holds its open and recent trips"
    );
    testkit::timed_get_item(&store).await;
    let since = || format_rfc3339(store.now() - ENDED_SHOWN_FOR);
    floor(&store, board.id, &since()).await;
    floor_one_range(&store, board.id, &since()).await;
    let (mut board_ms, mut get_ms, mut floor_ms, mut first_ms) = (vec![], vec![], vec![], vec![]);
    let (mut open_ms, mut ended_ms) = (vec![], vec![]);
    let (mut calls, mut items, mut floor_calls, mut floor_items) = (0, 0, 0, 0);
    for _ in 0..requests {
        let (ms, answer, n, c) = timed(store.receiving().board(staff)).await;
        board_ms.push(ms);
        assert_eq!(answer.unwrap().trips.len(), on_board);
        calls += c;
        items += n;
        get_ms.push(timed(testkit::timed_get_item(&store)).await.1);
        let (ms, read, n, c) = timed(floor(&store, board.id, &since())).await;
        assert_eq!(read, n, "the floor's items, as the meter counts them");
        floor_ms.push(ms);
        floor_calls += c;
        floor_items += n;
        first_ms.push(timed(floor_one_range(&store, board.id, &since())).await.0);
        open_ms.push(timed(open_chain(&store, board.id)).await.0);
        ended_ms.push(timed(ended_range(&store, board.id, &since())).await.0);
    }
    for v in [
        &mut board_ms,
        &mut get_ms,
        &mut floor_ms,
        &mut first_ms,
        &mut open_ms,
        &mut ended_ms,
    ] {
        v.sort_by(f64::total_cmp);
    }
    let r = requests as f64;
    let (p50, p95, get95, floor95, first95) = (
        percentile(&board_ms, 0.5),
        percentile(&board_ms, 0.95),
        percentile(&get_ms, 0.95),
        percentile(&floor_ms, 0.95),
        percentile(&first_ms, 0.95),
    );
    let (per_request, floor_per_request) = (items as f64 / r, floor_items as f64 / r);
    assert_eq!(
        items, floor_items,
        "the bare reads read what the board reads"
    );
    println!(
        "receiving hospital's board: {open} open trips to one hospital, {total} bookings, loaded in {load_secs:.1} s; {requests} rounds, one call at a time (DynamoDB Local):"
    );
    println!(
        "{:>6} {:>6} {:>7} {:>8} {:>8} {:>12} {:>10} {:>14} {:>12} {:>14}",
        "trips",
        "calls",
        "items",
        "p50 ms",
        "p95 ms",
        "GetItem p95",
        "bare p95",
        "bare 1-range",
        "p95 / bare",
        "p95 / GetItem"
    );
    println!(
        "{:>6} {:>6.1} {:>7.0} {:>8.2} {:>8.2} {:>12.2} {:>10.2} {:>14.2} {:>12.2} {:>14.2}",
        on_board,
        calls as f64 / r,
        per_request,
        p50,
        p95,
        get95,
        floor95,
        first95,
        p95 / floor95,
        p95 / get95
    );
    println!(
        "bare reads (the floor): {:.1} calls, {floor_per_request:.0} items; per item read at p95: board {:.3} ms, bare reads {:.3} ms, GetItem {get95:.3} ms (1 item)",
        floor_calls as f64 / r,
        p95 / per_request,
        floor95 / per_request,
    );
    println!(
        "the floor's two chains, each alone, p95: the open range then its ambulances {:.2} ms; the ended range {:.2} ms",
        percentile(&open_ms, 0.95),
        percentile(&ended_ms, 0.95)
    );
    println!(
        "2 x GetItem: {}; the floor alone is {:.1} x a GetItem",
        if p95 <= 2.0 * get95 { "met" } else { "not met" },
        floor95 / get95
    );
    println!(
        "board p95 within {WITHIN_FLOOR} x its bare reads' p95: {} ({:.2} x)",
        if p95 <= WITHIN_FLOOR * floor95 {
            "met"
        } else {
            "NOT met"
        },
        p95 / floor95
    );
}
