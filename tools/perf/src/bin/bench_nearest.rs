//! `make bench`: the nearest-hospital search at 100, 10 000 and 100 000 hospitals in
//! DynamoDB Local (DYNAMODB_ENDPOINT), k = 10, radius 100 km. Hospitals: half uniform
//! over a ~1000 km box, half in a dense city of ~15 km radius; search points likewise.
//!
//! Two searches over the same table, point by point, and a bare strongly consistent
//! GetItem of one hospital (the yardstick, measured in the same moments, just before
//! or just after the memory search, in turn): `h3`, the Query rounds over the H3 `geo` index (the search before
//! the in-memory index, still what a table without that index gets), and `memory`,
//! what `GET /api/hospitals/nearest` does now: one GetItem of the index's version
//! item, then the k-d tree of this instance's copy (warm: the copy was loaded by an
//! earlier search). Rows for all points and for country and city points apart.
//!
//! Columns: `found` the mean number returned (a floor for items read by a search
//! that reads hospitals); `items/search` items DynamoDB returned; `calls/search`
//! DynamoDB calls (Query pages, GetItems); `rounds` and `rounds p95` sequential
//! DynamoDB rounds (calls made at once count once); `RCU/search` read capacity units
//! by DynamoDB's rules (see `testkit::hooks::read_capacity`); `p95 / GetItem` the search's p95 over
//! the bare GetItem's p95.
//!
//! Then the cold start of the memory search: a new instance's first search (a fresh
//! `Store`, whose copy is empty, on the same warm connection pool), `COLD_RUNS`
//! times: its time, rounds and read units, and the extra over a warm search.
//!
//! `BENCH_SEARCHES` (default 200) searches per size; `BENCH_SIZES` (default
//! `100,10000,100000`).

use domain::geo::Point;
use std::time::Instant;

use domain::{hospital::NewHospital, types::Id};
use rand::{Rng, SeedableRng, rngs::StdRng};
use store::{
    Store,
    hospital_index::{IndexBuild, NearestStats},
};

const BOX: (f64, f64, f64, f64) = (22.0, 31.0, 70.0, 80.0); // lat min/max, lng min/max
const CITY: Point = Point::new(28.61, 77.21);
const COLD_RUNS: usize = 5;

/// A point: uniform over the box, or (half the time) over the city; and which.
fn point(rng: &mut StdRng) -> (Point, bool) {
    if rng.random_bool(0.5) {
        (
            Point::new(
                rng.random_range(BOX.0..BOX.1),
                rng.random_range(BOX.2..BOX.3),
            ),
            false,
        )
    } else {
        let r = 0.135 * rng.random::<f64>().sqrt();
        let a = rng.random::<f64>() * std::f64::consts::TAU;
        (
            Point::new(CITY.lat + r * a.sin(), CITY.lng + r * a.cos()),
            true,
        )
    }
}

/// CPU time this process has used (all threads, user + system), in ms: how much of
/// a cold start is this side's work (decoding, building the tree) and not the
/// emulator's.
fn cpu_ms() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which is in parentheses): utime is the 12th,
    // stime the 13th, in clock ticks (100 per second on Linux).
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let ticks: Vec<f64> = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|t| t.parse().ok())
        .collect();
    ticks.iter().sum::<f64>() * 10.0
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 * p) as usize).min(sorted.len() - 1)]
}

/// What one search cost.
#[derive(Clone, Copy)]
struct Cost {
    found: usize,
    items: usize,
    calls: usize,
    rounds: usize,
    rcu: f64,
    ms: f64,
}

/// Sums over a group of searches.
#[derive(Default)]
struct Group {
    costs: Vec<Cost>,
}

impl Group {
    fn row(&self, label: &str, get_item_p95: f64) -> String {
        let n = self.costs.len();
        if n == 0 {
            return format!("{label:>30} {n:>8}");
        }
        let sum = |f: fn(&Cost) -> f64| self.costs.iter().map(f).sum::<f64>();
        let sorted = |f: fn(&Cost) -> f64| {
            let mut v: Vec<f64> = self.costs.iter().map(f).collect();
            v.sort_by(f64::total_cmp);
            v
        };
        let (found, items) = (sum(|c| c.found as f64), sum(|c| c.items as f64));
        let times = sorted(|c| c.ms);
        let p95 = percentile(&times, 0.95);
        format!(
            "{label:>30} {n:>8} {:>6.2} {:>12.1} {:>11.2} {:>12.1} {:>7.2} {:>10.0} {:>10.2} {:>8.2} {:>8.2} {:>13.1}",
            found / n as f64,
            items / n as f64,
            items / found.max(1.0),
            sum(|c| c.calls as f64) / n as f64,
            sum(|c| c.rounds as f64) / n as f64,
            percentile(&sorted(|c| c.rounds as f64), 0.95),
            sum(|c| c.rcu) / n as f64,
            percentile(&times, 0.50),
            p95,
            p95 / get_item_p95,
        )
    }
}

fn header() -> String {
    format!(
        "{:>30} {:>8} {:>6} {:>12} {:>11} {:>12} {:>7} {:>10} {:>10} {:>8} {:>8} {:>13}",
        "hospitals / search / points",
        "searches",
        "found",
        "items/search",
        "items/found",
        "calls/search",
        "rounds",
        "rounds p95",
        "RCU/search",
        "p50 ms",
        "p95 ms",
        "p95 / GetItem"
    )
}

async fn load(store: &Store, size: usize) -> (f64, IndexBuild) {
    let mut rng = StdRng::seed_from_u64(size as u64);
    let hospitals = (1..=size as u64)
        .map(|i| {
            let (at, _) = point(&mut rng);
            (
                Id::try_from(i).unwrap(),
                NewHospital {
                    name: format!("Hospital {i}"),
                    address: format!("{i} Bench Road"),
                    location: at,
                    contact_info: None,
                },
            )
        })
        .collect();
    let start = Instant::now();
    let build = store.bulk().bulk_load_hospitals(hospitals).await.unwrap();
    (start.elapsed().as_secs_f64(), build)
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
        "nearest-hospital search, k = 10, radius 100 km, {searches} searches per size and search, DynamoDB Local at {endpoint}"
    );
    let sizes: Vec<usize> = std::env::var("BENCH_SIZES")
        .ok()
        .map(|v| v.split(',').filter_map(|s| s.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![100, 10_000, 100_000]);
    let mut cold_lines = vec![];
    println!("{}", header());
    for size in sizes {
        let plain = testkit::bench_store(&format!("bench-{size}")).await;
        let store = testkit::hooks::read_capacity().on(&plain);
        let client = store.client().clone();
        let (load_secs, build) = load(&store, size).await;

        // Cold starts: a new instance's first search, each on a fresh copy.
        let mut rng = StdRng::seed_from_u64(7);
        let mut cold = vec![];
        for _ in 0..COLD_RUNS {
            let (at, _) = point(&mut rng);
            let fresh = Store::new(client.clone(), store.table());
            testkit::hooks::take_reads();
            let (start, cpu) = (Instant::now(), cpu_ms());
            let (_, stats) = fresh
                .hospitals()
                .nearest_hospitals(at, 10, 100.0)
                .await
                .unwrap();
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            let (rcu, _, calls) = testkit::hooks::take_reads();
            cold.push((ms, rcu, stats, calls, cpu_ms() - cpu));
        }
        // Warm the copy of `store` once (its own cold start is not measured again).
        store
            .hospitals()
            .nearest_hospitals(CITY, 10, 100.0)
            .await
            .unwrap();

        let mut rng = StdRng::seed_from_u64(7);
        let mut get_items = vec![];
        // [h3, memory] x [all, country, city]
        let mut groups: [[Group; 3]; 2] = Default::default();
        for i in 0..searches {
            let (at, in_city) = point(&mut rng);
            testkit::hooks::take_reads();
            let start = Instant::now();
            let (found, h3) = store
                .hospitals()
                .nearest_hospitals_h3(at, 10, 100.0)
                .await
                .unwrap();
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            let (rcu, items, calls) = testkit::hooks::take_reads();
            let h3 = Cost {
                found: found.len(),
                items,
                calls,
                rounds: h3.rounds,
                rcu,
                ms,
            };
            // The bare GetItem and the memory search one after the other, in turn
            // first: both after the H3 search's burst of Queries, neither favoured.
            if i % 2 == 0 {
                get_items.push(testkit::timed_get_item(&store).await);
            }
            testkit::hooks::take_reads();
            let start = Instant::now();
            let (found, stats): (_, NearestStats) = store
                .hospitals()
                .nearest_hospitals(at, 10, 100.0)
                .await
                .unwrap();
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            let (rcu, items, calls) = testkit::hooks::take_reads();
            if i % 2 == 1 {
                get_items.push(testkit::timed_get_item(&store).await);
            }
            let memory = Cost {
                found: found.len(),
                items,
                calls,
                rounds: stats.rounds,
                rcu,
                ms,
            };
            for (g, cost) in [h3, memory].into_iter().enumerate() {
                groups[g][0].costs.push(cost);
                groups[g][if in_city { 2 } else { 1 }].costs.push(cost);
            }
        }
        get_items.sort_by(f64::total_cmp);
        let get_item_p95 = percentile(&get_items, 0.95);
        for (g, search) in ["h3", "memory"].iter().enumerate() {
            for (i, points) in ["all", "country", "city"].iter().enumerate() {
                println!(
                    "{}",
                    groups[g][i].row(&format!("{size} / {search} / {points}"), get_item_p95)
                );
            }
        }
        let warm_p50 = {
            let mut t: Vec<f64> = groups[1][0].costs.iter().map(|c| c.ms).collect();
            t.sort_by(f64::total_cmp);
            percentile(&t, 0.5)
        };
        println!(
            "{:>30} bare GetItem p50 {:.2} ms, p95 {get_item_p95:.2} ms; loaded in {load_secs:.1} s",
            format!("{size} /"),
            percentile(&get_items, 0.5)
        );
        let mut times: Vec<f64> = cold.iter().map(|c| c.0).collect();
        times.sort_by(f64::total_cmp);
        let median = percentile(&times, 0.5);
        let (_, rcu, stats, calls, _) = cold[0];
        let cpu = cold.iter().map(|c| c.4).sum::<f64>() / cold.len() as f64;
        cold_lines.push(format!(
            "{size:>7} hospitals ({} chunks, {:.0} KB deflated): first search of a new instance {median:.1} ms median of {COLD_RUNS} (min {:.1}, max {:.1}), \
             {} rounds, {} calls, {} chunks, {rcu:.1} RCU, this process's CPU {cpu:.0} ms (mean); \
             extra over a warm search (p50 {warm_p50:.2} ms): {:.1} ms, {:.1} RCU",
            build.chunks,
            build.bytes as f64 / 1024.0,
            times[0],
            times[times.len() - 1],
            stats.rounds,
            calls,
            stats.chunks_read,
            median - warm_p50,
            rcu - groups[1][0].costs.iter().map(|c| c.rcu).sum::<f64>() / searches as f64,
        ));
        testkit::drop_table(&store).await;
    }
    println!("cold start of the memory search (index loaded on a new instance's first search):");
    for line in cold_lines {
        println!("  {line}");
    }
}
