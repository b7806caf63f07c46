//! `make bench`: the one-tap emergency (`store.emergencies().emergency`) at 100, 10 000 and
//! 100 000 ambulances in DynamoDB Local (DYNAMODB_ENDPOINT), one request at a time.
//!
//! The fleet: one hospital per 10 ambulances, half uniform over a ~1000 km box, half
//! in a dense city of ~15 km radius (the hospital benchmark's places); 80% of the
//! ambulances AVAILABLE, types 70% BLS, 20% ALS, 10% PTA; 30% reported 30 s ago
//! within 2 km of their hospital (fresh), 20% reported 15 minutes ago within 5 km
//! (stale), the rest never. Pickups: the same two halves. Each emergency is
//! cancelled after it is timed (untimed), so the fleet stays as loaded.
//!
//! Beside each emergency, in turn just before or just after it: a bare strongly
//! consistent GetItem, and a bare TransactWriteItems of one Put (the yardsticks of
//! the same moments). Columns: `dispatched` / `none near` the answers (201 / 409);
//! `rounds` sequential DynamoDB rounds (calls made at once count once), mean, p95
//! and max; `calls` DynamoDB calls per request (every Query of every shard, counted
//! by an interceptor); `items` free-ambulance entries read; `tries` assignments
//! tried; p50 / p95 latency; `p95 / tx` the emergency's p95 over the bare
//! transaction's.
//!
//! `BENCH_REQUESTS` (default 200) emergencies per size; `BENCH_SIZES` (default
//! `100,10000,100000`). Exits non-zero when a request gets any other answer than a
//! dispatch or "none near".

use std::{
    sync::atomic::{AtomicUsize, Ordering},
    time::Instant,
};

use aws_sdk_dynamodb::types::{AttributeValue, Put, TransactWriteItem};
use domain::refusal::Refusal;
use domain::{
    ambulance::{AmbulanceStatus, AmbulanceType, NewAmbulance},
    booking::{BookingStatus, Goal, Mover},
    emergency::EmergencyRequest,
    geo::Point,
    hospital::Hospital,
    refusal::Conflict,
    types::Id,
};
use perf_tools::near;
use rand::{Rng, SeedableRng, rngs::StdRng};
use store::StoreError;
use store::bulk::BulkAmbulance;
use store::{Store, key, limits::EMERGENCIES_PER_USER};
use testkit::hooks::Hooks;

const BOX: (f64, f64, f64, f64) = (22.0, 31.0, 70.0, 80.0); // lat min/max, lng min/max
const CITY: Point = Point::new(28.61, 77.21);
/// Requesters: each asks for at most its hourly limit of emergencies
/// (`EMERGENCIES_PER_USER`), so the bench measures dispatches, not 429s.
const USERS: usize = 50;
/// Items of an assignment's transaction (an ambulance ranked at its hospital,
/// without an Idempotency-Key): guard, booking, ambulance, its fleet counter,
/// `FREEPOS`, the position check, the rate limit's window, two booking counters.
const TX_ITEMS: usize = 9;

/// DynamoDB calls since the last reset.
static CALLS: AtomicUsize = AtomicUsize::new(0);

/// A point: uniform over the box, or (half the time) over the city.
fn point(rng: &mut StdRng) -> Point {
    if rng.random_bool(0.5) {
        Point::new(
            rng.random_range(BOX.0..BOX.1),
            rng.random_range(BOX.2..BOX.3),
        )
    } else {
        near(rng, CITY, 15.0)
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let rank = (p * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn sorted(mut v: Vec<f64>) -> Vec<f64> {
    v.sort_by(f64::total_cmp);
    v
}

async fn load(store: &Store, ambulances: usize) -> Vec<Id> {
    let mut rng = StdRng::seed_from_u64(ambulances as u64);
    let hospitals: Vec<Hospital> = (1..=(ambulances / 10).max(1) as u64)
        .map(|i| testkit::numbered_hospital(i, point(&mut rng)))
        .collect();
    testkit::bulk_load_hospitals(store, &hospitals).await;
    let mut fleet = vec![];
    for i in 0..ambulances {
        let hospital = hospitals[i / 10 % hospitals.len()].clone();
        let at = hospital.point();
        let roll = rng.random::<f64>();
        let last = if roll < 0.3 {
            Some((near(&mut rng, at, 2.0), time::Duration::seconds(30)))
        } else if roll < 0.5 {
            Some((near(&mut rng, at, 5.0), time::Duration::minutes(15)))
        } else {
            None
        };
        let kind = rng.random::<f64>();
        fleet.push(BulkAmbulance {
            id: Id::try_from(i as u64 + 1).unwrap(),
            new: NewAmbulance {
                number: format!("B-{i}"),
                driver_info: Some("Bench Driver".into()),
                status: if rng.random_bool(0.8) {
                    AmbulanceStatus::Available
                } else {
                    AmbulanceStatus::OnDuty
                },
                ambulance_type: if kind < 0.7 {
                    AmbulanceType::Bls
                } else if kind < 0.9 {
                    AmbulanceType::Als
                } else {
                    AmbulanceType::Pta
                },
                contact_info: None,
                hospital_id: hospital.id,
            },
            hospital,
            last,
        });
    }
    // Fresh reports last, so they are still fresh when the requests start.
    fleet.sort_by_key(|a| a.last.is_some_and(|(_, age)| age.whole_seconds() < 60));
    store.bulk().bulk_load_fleet(fleet).await.unwrap();
    store.bulk().bench_users(USERS).await.unwrap()
}

/// A bare TransactWriteItems of `items` Puts, timed (ms).
async fn transact(store: &Store, n: usize, items: usize) -> f64 {
    let puts = (0..items).map(|i| {
        let mut item = key(format!("BENCH#tx{i}"), format!("{n}"));
        item.insert("n".into(), AttributeValue::N(n.to_string()));
        let put = Put::builder()
            .table_name(store.table())
            .set_item(Some(item))
            .build()
            .unwrap();
        TransactWriteItem::builder().put(put).build()
    });
    let start = Instant::now();
    store
        .client()
        .transact_write_items()
        .set_transact_items(Some(puts.collect()))
        .send()
        .await
        .unwrap();
    start.elapsed().as_secs_f64() * 1000.0
}

#[derive(Default)]
struct Figures {
    dispatched: usize,
    none_near: usize,
    other: usize,
    rounds: Vec<f64>,
    calls: Vec<f64>,
    items: Vec<f64>,
    tries: Vec<f64>,
    times: Vec<f64>,
    first_round: Vec<f64>,
    get_item: Vec<f64>,
    transact: Vec<f64>,
    transact8: Vec<f64>,
}

#[tokio::main]
async fn main() {
    let requests: usize = std::env::var("BENCH_REQUESTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    assert!(
        requests <= USERS * EMERGENCIES_PER_USER.max,
        "BENCH_REQUESTS: at most {} (the users' emergency rate limit)",
        USERS * EMERGENCIES_PER_USER.max
    );
    let sizes: Vec<usize> = std::env::var("BENCH_SIZES")
        .unwrap_or_else(|_| "100,10000,100000".into())
        .split(',')
        .map(|s| s.trim().parse().expect("BENCH_SIZES: numbers"))
        .collect();
    println!("emergency dispatch, {requests} requests per size, one at a time (DynamoDB Local):");
    println!(
        "{:>8} {:>6} {:>10} {:>9} {:>11} {:>9} {:>10} {:>8} {:>7} {:>8} {:>8} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "fleet",
        "load s",
        "dispatched",
        "none near",
        "rounds mean",
        "rounds p95",
        "rounds max",
        "calls",
        "items",
        "tries",
        "p50 ms",
        "p95 ms",
        "Get p95",
        "Tx p50",
        "Tx p95",
        "p95 / tx",
        "Tx8 p95",
        "1st p50"
    );
    for size in sizes {
        let plain = testkit::bench_store("bench-emergency").await;
        let store = Hooks::new("CountCalls")
            .on_send(|_| {
                CALLS.fetch_add(1, Ordering::Relaxed);
                Ok(())
            })
            .on(&plain);
        let started = Instant::now();
        let users = load(&store, size).await;
        let load_secs = started.elapsed().as_secs_f64();
        let mut rng = StdRng::seed_from_u64(7 + size as u64);
        let mut f = Figures::default();
        // Warm up: the hospital index's copy, connections.
        for _ in 0..3 {
            let _ = testkit::timed_get_item(&store).await;
            let _ = transact(&store, 0, 1).await;
        }
        let warm = store.hospitals().nearest_hospitals(CITY, 3, 200.0).await;
        warm.unwrap();
        for i in 0..requests {
            let Point { lat, lng } = point(&mut rng);
            let req: EmergencyRequest = web::http::parse_json(
                serde_json::json!({"pickup": {"latitude": lat, "longitude": lng}})
                    .to_string()
                    .as_bytes(),
            )
            .unwrap();
            if i % 2 == 0 {
                f.get_item.push(testkit::timed_get_item(&store).await);
                f.transact.push(transact(&store, i, 1).await);
                f.transact8.push(transact(&store, i, TX_ITEMS).await);
            }
            CALLS.store(0, Ordering::Relaxed);
            let start = Instant::now();
            let answer = store
                .emergencies()
                .emergency_with_stats(users[i % USERS], req, None)
                .await;
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            let calls = CALLS.load(Ordering::Relaxed);
            match answer {
                Ok((booking, stats)) => {
                    f.dispatched += 1;
                    f.rounds.push(stats.rounds as f64);
                    f.calls.push(calls as f64);
                    f.items.push(stats.dispatch.items_read as f64);
                    f.tries.push(stats.dispatch.tries as f64);
                    f.times.push(ms);
                    f.first_round.push(stats.first_round.as_secs_f64() * 1000.0);
                    let cancelled = store
                        .bookings()
                        .move_booking(
                            booking.id,
                            Mover::Requester,
                            Goal::Status(BookingStatus::Cancelled),
                        )
                        .await
                        .unwrap();
                    assert_eq!(cancelled.booking_status, BookingStatus::Cancelled);
                }
                Err(StoreError::Refused(Refusal::Conflict(Conflict::NoAmbulanceNear {
                    ..
                }))) => {
                    f.none_near += 1;
                    f.calls.push(calls as f64);
                    f.times.push(ms);
                }
                Err(e) => {
                    f.other += 1;
                    eprintln!("emergency failed: {e:?}");
                }
            }
            if i % 2 == 1 {
                f.transact8.push(transact(&store, i, TX_ITEMS).await);
                f.transact.push(transact(&store, i, 1).await);
                f.get_item.push(testkit::timed_get_item(&store).await);
            }
        }
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
        let (rounds, times) = (sorted(f.rounds.clone()), sorted(f.times.clone()));
        let (gets, txs) = (sorted(f.get_item.clone()), sorted(f.transact.clone()));
        println!(
            "{:>8} {:>6.0} {:>10} {:>9} {:>11.2} {:>9.0} {:>10.0} {:>8.1} {:>7.1} {:>8.2} {:>8.1} {:>9.1} {:>9.1} {:>9.1} {:>9.1} {:>9.2} {:>9.1} {:>9.1}",
            size,
            load_secs,
            f.dispatched,
            f.none_near,
            mean(&rounds),
            percentile(&rounds, 0.95),
            rounds.last().copied().unwrap_or(0.0),
            mean(&f.calls),
            mean(&f.items),
            mean(&f.tries),
            percentile(&times, 0.5),
            percentile(&times, 0.95),
            percentile(&gets, 0.95),
            percentile(&txs, 0.5),
            percentile(&txs, 0.95),
            percentile(&times, 0.95) / percentile(&txs, 0.95),
            percentile(&sorted(f.transact8.clone()), 0.95),
            percentile(&sorted(f.first_round.clone()), 0.5),
        );
        testkit::drop_table(&store).await;
        if f.other > 0 {
            // Every request is answered 201 or 409 (none near): anything else is a
            // fault, not a figure.
            eprintln!(
                "bench-emergency: {} of {requests} requests at {size} ambulances failed otherwise (above)",
                f.other
            );
            std::process::exit(1);
        }
    }
}
