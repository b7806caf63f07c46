//! `make bench`: the response-time report (docs/decisions/0021-response-time-report.md)
//! in DynamoDB Local (DYNAMODB_ENDPOINT): a year of trips folded into days, then the
//! reports an admin asks for, one request at a time, and the clock's fold itself.
//!
//! The year: `BENCH_TRIPS` (default 1 000 000) trips over `BENCH_HOSPITALS` (default
//! 20: 137 trips a hospital-day, 2 700 a service-day) hospitals and the 365 days of
//! 2025, each hospital's share of a day drawn around the mean, 30 % emergencies; each trip's intervals drawn (answer 5 s to 3
//! min, travel 3 to 30 min, ...), 5 % cancelled, 3 % moved, 2 % never answered. The
//! days are written as the fold leaves them (`store.bulk().bulk_load_report_days`: the
//! hospital's day and the service's), which takes minutes instead of a fold per trip.
//!
//! Columns: `rows` periods answered; `calls` DynamoDB calls per request (each Query
//! page is one); `items` day items read; `RCU` read capacity units (eventually
//! consistent, DynamoDB Local's figure); p50 / p95 latency of the whole report (read
//! and figures). Then the fold: `BENCH_FOLDS` (default 2 000) finished bookings in
//! the `fold` index, folded by the clock's own call until none is left: trips folded
//! per second and the time of one fold (at most 200 trips).
//!
//! `BENCH_REQUESTS` (default 20) requests per report.

use std::time::Instant;

use domain::{
    booking::{Booking, BookingType, Milestone, ReassignReason, TimelineEntry},
    response_times::{Day, Period, ReportRequest, Scope, TripRecord},
    types::{Id, Timestamp},
};
use rand::{Rng, SeedableRng, rngs::StdRng};
use store::{Store, bulk::ReportDay};
use time::{Date, Duration, macros::date};

const YEAR_START: Date = date!(2025 - 01 - 01);

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One trip's record, drawn.
fn trip(rng: &mut StdRng) -> TripRecord {
    let unanswered = rng.random_bool(0.02);
    let cancelled = rng.random_bool(0.05);
    let answer = (!unanswered).then(|| rng.random_range(5..180));
    let travel = answer.and_then(|_| (!cancelled).then(|| rng.random_range(180..1800)));
    let on_scene = travel.map(|_| rng.random_range(120..1200));
    let transport = on_scene.map(|_| rng.random_range(300..2400));
    let ended = [answer, travel, on_scene, transport]
        .iter()
        .flatten()
        .sum::<u32>()
        + 60;
    TripRecord {
        dispatch: Some(0),
        answer,
        travel,
        on_scene,
        transport,
        handover: None,
        ended,
        moved: rng.random_bool(0.03),
        cancelled,
    }
}

/// The year of `trips` trips over `hospitals` hospitals, as day items; how many trips.
fn year(trips: usize, hospitals: usize) -> (Vec<ReportDay>, usize) {
    let mut rng = StdRng::seed_from_u64(21);
    let per_day = trips as f64 / 365.0 / hospitals as f64;
    let mut days = vec![];
    let mut made = 0;
    for d in 0..365 {
        let day = YEAR_START + Duration::days(d);
        let mut service = ReportDay {
            hospital: None,
            day,
            emergency: vec![],
            normal: vec![],
        };
        for h in 1..=hospitals as u64 {
            // Uniform around the mean (±50 %), never the whole load in one place.
            let n = (per_day * rng.random_range(0.5..1.5)).round() as usize;
            let mut item = ReportDay {
                hospital: Some(Id::try_from(h).unwrap()),
                day,
                emergency: vec![],
                normal: vec![],
            };
            for _ in 0..n {
                let record = trip(&mut rng);
                if rng.random_bool(0.3) {
                    item.emergency.push(record);
                } else {
                    item.normal.push(record);
                }
            }
            made += n;
            service.emergency.extend_from_slice(&item.emergency);
            service.normal.extend_from_slice(&item.normal);
            days.push(item);
        }
        days.push(service);
    }
    (days, made)
}

/// `n` finished bookings at `hospitals`, in the `fold` index.
fn finished(n: usize, hospitals: usize) -> Vec<Booking> {
    let mut rng = StdRng::seed_from_u64(7);
    (1..=n as u64)
        .map(|id| {
            let called =
                time::macros::datetime!(2026-02-01 06:00 UTC) + Duration::minutes(id as i64);
            let at = |s: i64| Timestamp::new(called + Duration::seconds(s)).unwrap();
            let answer = rng.random_range(5..120);
            let pickup = answer + rng.random_range(180..1800);
            let mut timeline = vec![
                TimelineEntry::new(Milestone::Active, at(0)),
                TimelineEntry::new(Milestone::Dispatched, at(0)),
            ];
            if rng.random_bool(0.05) {
                timeline.push(TimelineEntry::reassigned(
                    "B-1",
                    ReassignReason::NoAnswer,
                    at(61),
                ));
            }
            timeline.extend([
                TimelineEntry::new(Milestone::EnRoute, at(answer)),
                TimelineEntry::new(Milestone::AtPickup, at(pickup)),
                TimelineEntry::new(Milestone::Completed, at(pickup + 600)),
            ]);
            serde_json::from_value(serde_json::json!({
                "id": id, "bookingStatus": "COMPLETED", "bookingType": "EMERGENCY",
                "bookingTime": at(0), "userId": 1, "username": "u", "userEmail": "u@example.com",
                "hospitalId": 1 + id % hospitals as u64, "hospitalName": "H",
                "hospital": {"id": 1 + id % hospitals as u64, "name": "H", "address": "A"},
                "ambulanceId": 1, "ambulanceNumber": "B-1",
                "ambulance": {"id": 1, "number": "B-1", "type": "BLS", "driverInfo": null},
                "patient": {"name": null, "age": null, "gender": null, "condition": null},
                "userPhone": null, "pickup": null, "tripStage": "AT_PICKUP", "timeline": timeline,
            }))
            .unwrap()
        })
        .collect()
}

fn ask(
    from: Date,
    to: Date,
    by: Period,
    hospital: Option<u64>,
    kind: Option<BookingType>,
) -> ReportRequest {
    ReportRequest {
        from: Some(Day(from)),
        to: Some(Day(to)),
        by,
        hospital_id: hospital.map(|h| Id::try_from(h).unwrap()),
        booking_type: kind,
    }
}

async fn reports(store: &Store, requests: usize) {
    let year_end = date!(2025 - 12 - 31);
    let asks: [(&str, ReportRequest); 5] = [
        (
            "hospital, year, weeks, emergencies",
            ask(
                YEAR_START,
                year_end,
                Period::Week,
                Some(1),
                Some(BookingType::Emergency),
            ),
        ),
        (
            "hospital, year, days, both",
            ask(YEAR_START, year_end, Period::Day, Some(1), None),
        ),
        (
            "hospital, 12 weeks, weeks",
            ask(
                date!(2025 - 10 - 09),
                year_end,
                Period::Week,
                Some(2),
                Some(BookingType::Emergency),
            ),
        ),
        (
            "service, year, months, emergencies",
            ask(
                YEAR_START,
                year_end,
                Period::Month,
                None,
                Some(BookingType::Emergency),
            ),
        ),
        (
            "service, year, weeks, both",
            ask(YEAR_START, year_end, Period::Week, None, None),
        ),
    ];
    println!(
        "{:>36} {:>6} {:>8} {:>6} {:>6} {:>8} {:>8} {:>8}",
        "report", "rows", "trips", "calls", "items", "RCU", "p50 ms", "p95 ms"
    );
    for (name, asked) in asks {
        // Warm up the connections.
        let report = store
            .reports()
            .response_times(asked.clone(), Scope::Everything)
            .await
            .unwrap();
        testkit::hooks::take_reads();
        let (mut times, mut rcu, mut items, mut calls) = (vec![], 0.0, 0, 0);
        for _ in 0..requests {
            let start = Instant::now();
            store
                .reports()
                .response_times(asked.clone(), Scope::Everything)
                .await
                .unwrap();
            times.push(perf_tools::ms_since(start));
            let (r, i, c) = testkit::hooks::take_reads();
            (rcu, items, calls) = (rcu + r, items + i, calls + c);
        }
        times.sort_by(f64::total_cmp);
        let n = requests as f64;
        println!(
            "{:>36} {:>6} {:>8} {:>6.1} {:>6.0} {:>8.1} {:>8.1} {:>8.1}",
            name,
            report.rows.len(),
            report.total.count,
            calls as f64 / n,
            items as f64 / n,
            rcu / n,
            perf_tools::percentile(&times, 0.5),
            perf_tools::percentile(&times, 0.95),
        );
        assert!(
            items as f64 / n <= 366.0,
            "{name}: more than 366 items a report"
        );
    }
}

async fn fold(store: &Store, folds: usize, hospitals: usize) {
    store
        .bulk()
        .bulk_load_finished_bookings(finished(folds, hospitals))
        .await
        .unwrap();
    let started = Instant::now();
    let (mut times, mut folded) = (vec![], 0);
    loop {
        let start = Instant::now();
        let report = clock::fold(store).await.unwrap();
        if report.due == 0 {
            break;
        }
        assert_eq!(report.failed, 0, "{report:?}");
        times.push(perf_tools::ms_since(start));
        folded += report.folded;
    }
    let secs = started.elapsed().as_secs_f64();
    times.sort_by(f64::total_cmp);
    println!(
        "fold: {folded} trips in {secs:.1} s ({:.0} trips/s), {} folds of at most 200: p50 {:.0} ms, p95 {:.0} ms",
        folded as f64 / secs,
        times.len(),
        perf_tools::percentile(&times, 0.5),
        perf_tools::percentile(&times, 0.95),
    );
    assert_eq!(folded, folds);
}

#[tokio::main]
async fn main() {
    let trips = env_or("BENCH_TRIPS", 1_000_000);
    let hospitals = env_or("BENCH_HOSPITALS", 20).max(2);
    let requests = env_or("BENCH_REQUESTS", 20);
    let folds = env_or("BENCH_FOLDS", 2000);
    let plain = testkit::bench_store("bench-reports").await;
    let store = testkit::hooks::read_capacity().on(&plain);
    let (days, made) = year(trips, hospitals);
    let started = Instant::now();
    let items = days.len();
    // The service's days are ~44 kB each: a few at a time, so DynamoDB Local on a busy
    // machine answers each batch within the timeouts.
    let (service, hospital): (Vec<ReportDay>, Vec<ReportDay>) =
        days.into_iter().partition(|d| d.hospital.is_none());
    store.bulk().bulk_load_report_days(hospital).await.unwrap();
    let mut service = service.into_iter().peekable();
    while service.peek().is_some() {
        let chunk: Vec<ReportDay> = service.by_ref().take(4).collect();
        store.bulk().bulk_load_report_days(chunk).await.unwrap();
    }
    println!(
        "response-time report: {made} trips of 2025 over {hospitals} hospitals ({} a day at a hospital, {} in the service), {items} day items loaded in {:.0} s; {requests} requests each, one at a time (DynamoDB Local):",
        made / 365 / hospitals,
        made / 365,
        started.elapsed().as_secs_f64()
    );
    reports(&store, requests).await;
    fold(&store, folds, hospitals).await;
    testkit::drop_table(&plain).await;
}
