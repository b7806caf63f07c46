//! `make bench`: the clock (decision 0012) in DynamoDB Local (DYNAMODB_ENDPOINT).
//!
//! 1. What one sweep costs with 10, 1 000 and 10 000 jobs waiting (answer deadlines
//!    an hour away): with none due (the sweep every 5 s of a quiet system), and with
//!    10 due (normal bookings: each raises an UNANSWERED alert). Columns: DynamoDB
//!    read calls, read capacity units by DynamoDB's rules
//!    (`testkit::hooks::read_capacity`), items read, and the sweep's time. The
//!    waiting jobs must not count: the sweep reads the sparse `due` index up to now.
//! 2. The delay from `answerBy` to the clock's action, in real time: `BENCH_JOBS`
//!    (default 40) normal bookings due at random moments from 2 s to
//!    `BENCH_WINDOW_SECS` − 8 s (default 30: over 20 s), the clock sweeping every 5 s
//!    for the window as the Lambda does (`clock::sweep_for`); each alert's `since`
//!    minus its booking's `answerBy`: p50, p95, max.
//!
//! `BENCH_SIZES` (default `10,1000,10000`).

use std::time::{Duration, Instant};

use domain::{
    alert::AlertKind,
    booking::Booking,
    types::{Id, Timestamp, format_rfc3339},
};
use rand::Rng;
use serde_json::json;
use store::Store;
use time::OffsetDateTime;

/// A normal booking of nobody's, waiting for its crew until `answer_by`.
fn waiting(id: u64, answer_by: OffsetDateTime) -> Booking {
    let at = format_rfc3339(answer_by - time::Duration::minutes(5));
    let mut booking: Booking = serde_json::from_value(json!({
        "id": id, "bookingStatus": "PENDING", "bookingType": "NORMAL", "bookingTime": at,
        "userId": 1, "username": "bench", "userEmail": "bench@example.com", "hospitalId": 1,
        "hospitalName": "H", "hospital": {"id": 1, "name": "H", "address": "A"},
        "ambulanceId": id, "ambulanceNumber": format!("B-{id}"),
        "ambulance": {"id": id, "number": format!("B-{id}"), "type": "BLS", "driverInfo": null},
        "patient": {"name": "P", "age": 40, "gender": "Male", "condition": "c"},
        "userPhone": null, "pickup": {"latitude": 30.7, "longitude": 74.3},
        "tripStage": null, "timeline": [{"stage": "PENDING", "at": at}],
    }))
    .expect("a booking");
    booking.answer_by = Timestamp::new(answer_by);
    booking
}

async fn measured_sweep(store: &Store) -> (usize, usize, f64, usize, f64) {
    testkit::hooks::take_reads();
    let started = Instant::now();
    let report = store.deadlines().sweep(store.now()).await.expect("a sweep");
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let (rcu, items, calls) = testkit::hooks::take_reads();
    (report.due, calls, rcu, items, ms)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

#[tokio::main]
async fn main() {
    let sizes: Vec<usize> = std::env::var("BENCH_SIZES")
        .unwrap_or_else(|_| "10,1000,10000".into())
        .split(',')
        .map(|s| s.trim().parse().expect("BENCH_SIZES: numbers"))
        .collect();
    let jobs: usize = std::env::var("BENCH_JOBS")
        .ok()
        .map_or(40, |s| s.parse().expect("BENCH_JOBS: a number"));
    let window: u64 = std::env::var("BENCH_WINDOW_SECS")
        .ok()
        .map_or(30, |s| s.parse().expect("BENCH_WINDOW_SECS: a number"));
    assert!(window >= 11, "BENCH_WINDOW_SECS: at least 11");

    println!("one sweep of the clock (reads only; 10 due = 10 UNANSWERED alerts raised)");
    println!(
        "{:>8} {:>6} {:>6} {:>8} {:>7} {:>9}",
        "waiting", "due", "calls", "RCU", "items", "time ms"
    );
    for &n in &sizes {
        let plain = testkit::bench_store("deadlines").await;
        let store = testkit::hooks::read_capacity().on(&plain);
        let later = OffsetDateTime::now_utc() + time::Duration::hours(1);
        let waiting_jobs: Vec<Booking> = (1..=n as u64).map(|id| waiting(id, later)).collect();
        store
            .bulk()
            .bulk_load_bookings(waiting_jobs)
            .await
            .expect("loaded");
        let (due, calls, rcu, items, ms) = measured_sweep(&store).await;
        println!("{n:>8} {due:>6} {calls:>6} {rcu:>8.1} {items:>7} {ms:>9.1}");
        let past = OffsetDateTime::now_utc() - time::Duration::seconds(1);
        let due_jobs = (0..10).map(|i| waiting(n as u64 + 1 + i, past)).collect();
        store
            .bulk()
            .bulk_load_bookings(due_jobs)
            .await
            .expect("loaded");
        let (due, calls, rcu, items, ms) = measured_sweep(&store).await;
        println!("{n:>8} {due:>6} {calls:>6} {rcu:>8.1} {items:>7} {ms:>9.1}");
        testkit::drop_table(&plain).await;
    }

    // The delay, in real time.
    let store = testkit::bench_store("deadline-delay").await;
    let start = OffsetDateTime::now_utc();
    let mut rng = rand::rng();
    let due: Vec<Booking> = (1..=jobs as u64)
        .map(|id| {
            let after = Duration::from_millis(rng.random_range(2_000..(window - 8) * 1000));
            waiting(id, start + after)
        })
        .collect();
    let answer_by: std::collections::HashMap<Id, OffsetDateTime> = due
        .iter()
        .map(|b| (b.id, b.answer_by.expect("a deadline").get()))
        .collect();
    store.bulk().bulk_load_bookings(due).await.expect("loaded");
    clock::sweep_for(&store, Duration::from_secs(window), clock::EVERY)
        .await
        .expect("the sweeps");
    let mut delays: Vec<f64> = store
        .alerts()
        .open_alerts()
        .await
        .expect("the alerts")
        .into_iter()
        .filter(|a| a.kind == AlertKind::Unanswered)
        .filter_map(|a| {
            let due = answer_by.get(&a.booking_id?)?;
            Some((a.since.get() - *due).as_seconds_f64())
        })
        .collect();
    assert_eq!(delays.len(), jobs, "every job was alerted");
    delays.sort_by(f64::total_cmp);
    println!(
        "\ndelay from answerBy to the clock's action ({jobs} jobs due over {} s, a sweep every {} s): p50 {:.1} s, p95 {:.1} s, max {:.1} s",
        window - 10,
        clock::EVERY.as_secs(),
        percentile(&delays, 0.5),
        percentile(&delays, 0.95),
        delays[delays.len() - 1]
    );
    testkit::drop_table(&store).await;
}
