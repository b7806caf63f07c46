//! `make bench`: the nearest-hospital search at 100, 10 000 and 100 000 hospitals in
//! DynamoDB Local (DYNAMODB_ENDPOINT), k = 10. Prints items read and Query calls per
//! search, and p50/p95 latency. Hospitals: half uniform over a ~1000 km box, half in a
//! dense city of ~15 km radius; search points likewise. Then the same figures apart
//! for country and city points, and for the searches that returned all 10 (at 100
//! hospitals most country points have fewer than 10 within 100 km, so they read
//! little: the overall mean there is not a like-for-like baseline). `found` is the
//! mean number returned, a floor for items read by any exact search; `items/found`
//! is items read per hospital returned; `RCU/search` the read capacity units the
//! Queries consume by DynamoDB's rules (see [`ReadCapacity`]).
//!
//! `BENCH_SEARCHES` (default 200) searches per size; `BENCH_SIZES` (default
//! `100,10000,100000`).

use std::{
    sync::atomic::{AtomicU64, Ordering},
    time::Instant,
};

use aws_sdk_dynamodb::{
    config::{
        ConfigBag, Intercept, RuntimeComponents,
        interceptors::{BeforeSerializationInterceptorContextMut, FinalizerInterceptorContextRef},
    },
    operation::query::{QueryInput, QueryOutput},
    types::ReturnConsumedCapacity,
};

use rand::{Rng, SeedableRng, rngs::StdRng};
use shared::{
    Store,
    domain::hospital::NewHospital,
    testing,
    types::{Id, LatLng},
};

const BOX: (f64, f64, f64, f64) = (22.0, 31.0, 70.0, 80.0); // lat min/max, lng min/max
const CITY: (f64, f64) = (28.61, 77.21);

/// Read capacity units of the Queries since the last reset, in thousandths.
static MILLI_RCU: AtomicU64 = AtomicU64::new(0);

/// Asks every Query for its consumed capacity and adds it up: what DynamoDB would
/// bill for the search. Per Query, the size of the items read rounded up to 4 KB,
/// half a unit per 4 KB for the eventually consistent reads of an index (DynamoDB
/// Local computes this), and at least half a unit for a Query that reads nothing
/// (DynamoDB's rule; DynamoDB Local reports nothing for those, so the minimum is
/// applied here).
#[derive(Debug)]
struct ReadCapacity;

impl Intercept for ReadCapacity {
    fn name(&self) -> &'static str {
        "ReadCapacity"
    }
    fn modify_before_serialization(
        &self,
        context: &mut BeforeSerializationInterceptorContextMut<'_>,
        _components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        if let Some(query) = context.input_mut().downcast_mut::<QueryInput>() {
            query.return_consumed_capacity = Some(ReturnConsumedCapacity::Total);
        }
        Ok(())
    }
    fn read_after_execution(
        &self,
        context: &FinalizerInterceptorContextRef<'_>,
        _components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        if let Some(Ok(output)) = context.output_or_error()
            && let Some(query) = output.downcast_ref::<QueryOutput>()
        {
            let units = query
                .consumed_capacity()
                .and_then(|c| c.capacity_units())
                .unwrap_or(0.0)
                .max(0.5);
            MILLI_RCU.fetch_add((units * 1000.0).round() as u64, Ordering::Relaxed);
        }
        Ok(())
    }
}

/// A point: uniform over the box, or (half the time) over the city; and which.
fn point(rng: &mut StdRng) -> (f64, f64, bool) {
    if rng.random_bool(0.5) {
        (
            rng.random_range(BOX.0..BOX.1),
            rng.random_range(BOX.2..BOX.3),
            false,
        )
    } else {
        let r = 0.135 * rng.random::<f64>().sqrt();
        let a = rng.random::<f64>() * std::f64::consts::TAU;
        (CITY.0 + r * a.sin(), CITY.1 + r * a.cos(), true)
    }
}

/// Sums over a group of searches.
#[derive(Default)]
struct Group {
    searches: usize,
    /// Hospitals returned: no exact search reads fewer items than it returns.
    found: usize,
    items: usize,
    queries: usize,
    rounds: usize,
    /// Read capacity units consumed by the Queries.
    rcu: f64,
    times: Vec<f64>,
}

impl Group {
    fn add(&mut self, found: usize, stats: shared::geo::SearchStats, rcu: f64, ms: f64) {
        self.searches += 1;
        self.rcu += rcu;
        self.found += found;
        self.items += stats.items_read;
        self.queries += stats.queries;
        self.rounds += stats.rounds;
        self.times.push(ms);
    }

    fn row(&mut self, label: &str) -> String {
        if self.searches == 0 {
            return format!("{label:>22} {:>9}", 0);
        }
        self.times.sort_by(f64::total_cmp);
        let pct =
            |p: f64| self.times[((self.times.len() as f64 * p) as usize).min(self.times.len() - 1)];
        let n = self.searches as f64;
        format!(
            "{label:>22} {:>9} {:>8.2} {:>12.1} {:>11.2} {:>14.1} {:>7.1} {:>10.1} {:>8.1} {:>8.1}",
            self.searches,
            self.found as f64 / n,
            self.items as f64 / n,
            self.items as f64 / self.found.max(1) as f64,
            self.queries as f64 / n,
            self.rounds as f64 / n,
            self.rcu / n,
            pct(0.50),
            pct(0.95)
        )
    }
}

#[tokio::main]
async fn main() {
    let endpoint =
        std::env::var("DYNAMODB_ENDPOINT").expect("DYNAMODB_ENDPOINT (DynamoDB Local) is required");
    let searches: usize = std::env::var("BENCH_SEARCHES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    println!(
        "nearest-hospital search, k = 10, radius 100 km, {searches} searches per size, DynamoDB Local at {endpoint}"
    );
    let sizes: Vec<usize> = std::env::var("BENCH_SIZES")
        .ok()
        .map(|v| v.split(',').filter_map(|s| s.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![100, 10_000, 100_000]);
    println!(
        "{:>22} {:>9} {:>8} {:>12} {:>11} {:>14} {:>7} {:>10} {:>8} {:>8}",
        "hospitals / points",
        "searches",
        "found",
        "items/search",
        "items/found",
        "queries/search",
        "rounds",
        "RCU/search",
        "p50 ms",
        "p95 ms"
    );
    for size in sizes {
        let plain = testing::bench_store(&format!("bench-{size}")).await;
        let store = Store::new(
            aws_sdk_dynamodb::Client::from_conf(
                plain
                    .client()
                    .config()
                    .to_builder()
                    .interceptor(ReadCapacity)
                    .build(),
            ),
            plain.table(),
        );
        let mut rng = StdRng::seed_from_u64(size as u64);
        let hospitals = (1..=size as u64)
            .map(|i| {
                let (lat, lng, _) = point(&mut rng);
                (
                    Id::try_from(i).unwrap(),
                    NewHospital {
                        name: format!("Hospital {i}"),
                        address: format!("{i} Bench Road"),
                        location: LatLng::new(lat, lng).unwrap(),
                        contact_info: None,
                    },
                )
            })
            .collect();
        store.bulk_load_hospitals(hospitals).await.unwrap();

        let mut rng = StdRng::seed_from_u64(7);
        // all, country points, city points, searches that returned 10
        let mut groups: [Group; 4] = Default::default();
        for _ in 0..searches {
            let (lat, lng, in_city) = point(&mut rng);
            MILLI_RCU.store(0, Ordering::Relaxed);
            let start = Instant::now();
            let (found, stats) = store
                .nearest_hospitals_h3(LatLng::new(lat, lng).unwrap(), 10, 100.0)
                .await
                .unwrap();
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            let rcu = MILLI_RCU.load(Ordering::Relaxed) as f64 / 1000.0;
            let n = found.len();
            groups[0].add(n, stats, rcu, ms);
            groups[if in_city { 2 } else { 1 }].add(n, stats, rcu, ms);
            if n == 10 {
                groups[3].add(n, stats, rcu, ms);
            }
        }
        for (i, label) in ["all", "country points", "city points", "returned 10"]
            .iter()
            .enumerate()
        {
            println!("{}", groups[i].row(&format!("{size} / {label}")));
        }
        testing::drop_table(&store).await;
    }
}
