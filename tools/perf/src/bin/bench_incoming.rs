//! `make bench`: the receiving hospital's board (`store.receiving().board`,
//! `GET /api/hospital/incoming`; docs/decisions/0026-receiving-hospital.md) in
//! DynamoDB Local (DYNAMODB_ENDPOINT), against a bare GetItem's p95 (the contract's
//! bound: at most twice it).
//!
//! The table: `BENCH_TOTAL` bookings (default 10 000) over 10 hospitals, of which
//! `BENCH_OPEN` (default 100) are open trips to hospital 1, each held by an
//! ambulance of its own that reported 30 s ago (so the board reads every one's
//! phone and position): a third at the door, the rest on their way. Of the others,
//! half ended at hospital 1 over the last 30 days (in its `dest` partition; those
//! older than a day outside the board's range) and half went to the other
//! hospitals. Loaded with BatchWriteItem as the store writes them.
//!
//! Columns: the trips on the board, DynamoDB calls and items per request
//! (`testkit::hooks::read_capacity`), the board's p50 and p95, the bare GetItem's
//! p95 measured between the same requests, and their ratio. `BENCH_REQUESTS`
//! (default 200) of each.

use std::time::Instant;

use serde_json::json;
use shared::{
    domain::{
        ambulance::{AmbulanceStatus, AmbulanceType, NewAmbulance},
        booking::Booking,
        hospital::Hospital,
        hospital_staff::HospitalStaffRef,
    },
    store::bulk::BulkAmbulance,
    types::{Id, format_rfc3339},
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

#[tokio::main]
async fn main() {
    let open = env("BENCH_OPEN", 100);
    let total = env("BENCH_TOTAL", 10_000).max(open);
    let requests = env("BENCH_REQUESTS", 200);
    let plain = testkit::bench_store("bench-incoming").await;
    let store = testkit::hooks::read_capacity().on(&plain);
    let started = Instant::now();

    let hospitals: Vec<Hospital> = (1..=10u64)
        .map(|i| testkit::numbered_hospital(i, (30.6 + i as f64 * 0.02, 74.3)))
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
                (board.latitude + 0.045, board.longitude),
                Duration::seconds(30),
            )),
        })
        .collect();
    store.bulk().bulk_load_fleet(fleet).await.unwrap();
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
    testkit::hooks::take_reads();
    let (mut board_ms, mut get_ms) = (vec![], vec![]);
    let (mut calls, mut items) = (0, 0);
    for _ in 0..requests {
        let t = Instant::now();
        let answer = store.receiving().board(staff).await.unwrap();
        board_ms.push(t.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(answer.trips.len(), on_board);
        let (_, n, c) = testkit::hooks::take_reads();
        calls += c;
        items += n;
        get_ms.push(testkit::timed_get_item(&store).await);
        testkit::hooks::take_reads();
    }
    board_ms.sort_by(f64::total_cmp);
    get_ms.sort_by(f64::total_cmp);
    let (p50, p95, get95) = (
        percentile(&board_ms, 0.5),
        percentile(&board_ms, 0.95),
        percentile(&get_ms, 0.95),
    );
    println!(
        "receiving hospital's board: {open} open trips to one hospital, {total} bookings, loaded in {load_secs:.1} s; {requests} requests, one at a time (DynamoDB Local):"
    );
    println!(
        "{:>6} {:>6} {:>7} {:>8} {:>8} {:>12} {:>14}",
        "trips", "calls", "items", "p50 ms", "p95 ms", "GetItem p95", "p95 / GetItem"
    );
    println!(
        "{:>6} {:>6.1} {:>7.0} {:>8.2} {:>8.2} {:>12.2} {:>14.2}",
        on_board,
        calls as f64 / requests as f64,
        items as f64 / requests as f64,
        p50,
        p95,
        get95,
        p95 / get95
    );
}
