//! `make bench`: the dispatcher's live map (`store.dispatch().live`, `GET /api/admin/live`) at
//! 100, 10 000 and 100 000 ambulances in DynamoDB Local (DYNAMODB_ENDPOINT), one
//! request at a time, over four boxes: the whole world, a country (~1 000 km), a
//! city (~30 km, the dense one) and a street (~2 km inside the city).
//!
//! The fleet: one hospital per 10 ambulances; half of the ambulances in a dense city
//! of ~15 km radius, a quarter uniform over a ~1 000 km box around it, a quarter
//! spread over six far-apart regions of the world (the fleet a world box must find);
//! 20% ON_DUTY, 75% AVAILABLE, 5% MAINTENANCE; 30% reported 30 s ago within 2 km of
//! their hospital, the rest never (shown at their hospital). No open bookings are
//! loaded: the `openmap` Queries are made (and counted) but read nothing.
//!
//! Columns: `shown` ambulances in the answer (at most 500) and whether it was
//! `truncated`; `calls` DynamoDB calls per request (each Query page and each
//! BatchGetItem of up to 100 keys is one); `items` items DynamoDB returned (index
//! keys and items); `RCU` read capacity units by DynamoDB's rules (as in
//! bench_nearest: DynamoDB Local's figure, at least 0.5 for any Query); p50 / p95
//! latency.
//!
//! `BENCH_REQUESTS` (default 20) requests per box and size; `BENCH_SIZES` (default
//! `100,10000,100000`).

use std::time::Instant;

use domain::{
    ambulance::{AmbulanceStatus, AmbulanceType, NewAmbulance},
    dispatch::Bbox,
    geo::Point,
    hospital::Hospital,
    types::Id,
};
use perf_tools::near;
use rand::{Rng, SeedableRng, rngs::StdRng};
use store::{Store, bulk::BulkAmbulance};

const BOX: (f64, f64, f64, f64) = (22.0, 31.0, 70.0, 80.0); // lat min/max, lng min/max
const CITY: Point = Point::new(28.61, 77.21);
/// Far-apart regions (London, New York, São Paulo, Lagos, Sydney, Tokyo).
const WORLD_CITIES: [Point; 6] = [
    Point::new(51.51, -0.13),
    Point::new(40.71, -74.01),
    Point::new(-23.55, -46.63),
    Point::new(6.52, 3.38),
    Point::new(-33.87, 151.21),
    Point::new(35.68, 139.69),
];
const BOXES: [(&str, &str); 4] = [
    ("world", "-90,-180,90,180"),
    ("country", "22,70,31,80"),
    ("city", "28.47,77.05,28.75,77.37"),
    ("street", "28.60,77.20,28.62,77.22"),
];

/// A hospital's place: half in the city, a quarter over the country, a quarter in
/// the world's regions.
fn place(rng: &mut StdRng) -> Point {
    let roll = rng.random::<f64>();
    if roll < 0.5 {
        near(rng, CITY, 15.0)
    } else if roll < 0.75 {
        Point::new(
            rng.random_range(BOX.0..BOX.1),
            rng.random_range(BOX.2..BOX.3),
        )
    } else {
        let city = WORLD_CITIES[rng.random_range(0..WORLD_CITIES.len())];
        near(rng, city, 40.0)
    }
}

async fn load(store: &Store, ambulances: usize) {
    let mut rng = StdRng::seed_from_u64(ambulances as u64);
    let hospitals: Vec<Hospital> = (1..=(ambulances / 10).max(1) as u64)
        .map(|i| testkit::numbered_hospital(i, place(&mut rng)))
        .collect();
    testkit::bulk_load_hospitals(store, &hospitals).await;
    let fleet = (0..ambulances)
        .map(|i| {
            let hospital = hospitals[i / 10 % hospitals.len()].clone();
            let at = hospital.point();
            let last = rng
                .random_bool(0.3)
                .then(|| (near(&mut rng, at, 2.0), time::Duration::seconds(30)));
            let roll = rng.random::<f64>();
            let status = if roll < 0.2 {
                AmbulanceStatus::OnDuty
            } else if roll < 0.95 {
                AmbulanceStatus::Available
            } else {
                AmbulanceStatus::Maintenance
            };
            BulkAmbulance {
                id: Id::try_from(i as u64 + 1).unwrap(),
                new: NewAmbulance {
                    number: format!("B-{i}"),
                    driver_info: None,
                    status,
                    ambulance_type: AmbulanceType::Bls,
                    contact_info: None,
                    hospital_id: hospital.id,
                },
                hospital,
                last,
            }
        })
        .collect();
    store.bulk().bulk_load_fleet(fleet).await.unwrap();
}

#[tokio::main]
async fn main() {
    let requests: usize = std::env::var("BENCH_REQUESTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let sizes: Vec<usize> = std::env::var("BENCH_SIZES")
        .unwrap_or_else(|_| "100,10000,100000".into())
        .split(',')
        .map(|s| s.trim().parse().expect("BENCH_SIZES: numbers"))
        .collect();
    println!("live map, {requests} requests per box and size, one at a time (DynamoDB Local):");
    println!(
        "{:>8} {:>6} {:>8} {:>6} {:>9} {:>6} {:>7} {:>8} {:>8} {:>8}",
        "fleet", "load s", "box", "shown", "truncated", "calls", "items", "RCU", "p50 ms", "p95 ms"
    );
    for size in sizes {
        let plain = testkit::bench_store("bench-live").await;
        let store = testkit::hooks::read_capacity().on(&plain);
        let started = Instant::now();
        load(&store, size).await;
        let load_secs = started.elapsed().as_secs_f64();
        for (name, text) in BOXES {
            let bbox = Bbox::parse(text).unwrap();
            // Warm up the connections.
            store.dispatch().live(bbox).await.unwrap();
            testkit::hooks::take_reads();
            let (mut times, mut rcu, mut items, mut calls) = (vec![], 0.0, 0, 0);
            let mut last = None;
            for _ in 0..requests {
                let start = Instant::now();
                let live = store.dispatch().live(bbox).await.unwrap();
                times.push(start.elapsed().as_secs_f64() * 1000.0);
                let (r, i, c) = testkit::hooks::take_reads();
                (rcu, items, calls) = (rcu + r, items + i, calls + c);
                last = Some(live);
            }
            let live = last.expect("at least one request");
            times.sort_by(f64::total_cmp);
            let n = requests as f64;
            println!(
                "{:>8} {:>6.0} {:>8} {:>6} {:>9} {:>6.1} {:>7.0} {:>8.1} {:>8.1} {:>8.1}",
                size,
                load_secs,
                name,
                live.ambulances.len(),
                live.truncated,
                calls as f64 / n,
                items as f64 / n,
                rcu / n,
                perf_tools::percentile(&times, 0.5),
                perf_tools::percentile(&times, 0.95),
            );
        }
        testkit::drop_table(&plain).await;
    }
}
