//! Tunes the H3 nearest search (`domain::geo::nearest`: the free ambulances' and the
//! hospitals' `geo` index's) without a database, on the `make bench` hospital workload
//! (100, 10 000 and 100 000 hospitals, half over a ~1000 km box, half in a 15 km city;
//! k = 10, radius 100 km) against an in-memory copy of the index, printing items read,
//! Queries and rounds per search for city and country points apart.
//!
//! `cargo run --release -p perf-tools --bin geo_tune`; other knobs with
//! `GEO_PARAMS="first_km,cells_per_radius,empty_growth,margin,refine;..."`.
//!
//! Also printed: `found`, the mean number of hospitals returned (no exact search reads
//! fewer items). `GEO_ORACLE=f` starts each search with one proving round at `f` times
//! the true 10th distance (found by brute force): what the search would read if it
//! knew where to stop.

use domain::geo::{Located, MemoryIndex, Point, SearchParams, SearchStats, haversine_km};
use rand::{Rng, SeedableRng, rngs::StdRng};

const K: usize = 10;
const RADIUS_KM: f64 = 100.0;

#[derive(Clone)]
struct Site(Point);

impl Located for Site {
    fn point(&self) -> Point {
        self.0
    }
}

/// A point of the workload, and whether it is in the city.
fn place(rng: &mut StdRng) -> (Site, bool) {
    const CITY: Point = Point::new(28.61, 77.21);
    if rng.random_bool(0.5) {
        let p = Site(Point::new(
            rng.random_range(22.0..31.0),
            rng.random_range(70.0..80.0),
        ));
        (p, false)
    } else {
        let r = 0.135 * rng.random::<f64>().sqrt();
        let a = rng.random::<f64>() * std::f64::consts::TAU;
        let p = Site(Point::new(CITY.lat + r * a.sin(), CITY.lng + r * a.cos()));
        (p, true)
    }
}

fn search(params: SearchParams, idx: &MemoryIndex<Site>, at: &Site) -> SearchStats {
    idx.nearest(params, at.0, K, RADIUS_KM).1
}

fn parse_params(v: &str) -> Vec<SearchParams> {
    v.split(';')
        .map(|p| {
            let f: Vec<f64> = p
                .split(',')
                .map(|x| x.trim().parse().expect("GEO_PARAMS: numbers"))
                .collect();
            assert_eq!(f.len(), 5, "GEO_PARAMS: five numbers per setting");
            SearchParams {
                first_target_km: f[0],
                cells_per_radius: f[1],
                empty_growth: f[2],
                margin: f[3],
                refine: f[4] as u8,
                first_round_proves: false,
            }
        })
        .collect()
}

fn main() {
    let params = std::env::var("GEO_PARAMS")
        .map(|v| parse_params(&v))
        .unwrap_or_else(|_| vec![SearchParams::default()]);
    let oracle: Option<f64> = std::env::var("GEO_ORACLE")
        .ok()
        .map(|v| v.parse().expect("GEO_ORACLE: a number"));
    for size in [100usize, 10_000, 100_000] {
        let mut rng = StdRng::seed_from_u64(size as u64);
        let all: Vec<Site> = (0..size).map(|_| place(&mut rng).0).collect();
        let idx = MemoryIndex::new(all.iter().cloned());
        for params in &params {
            let mut rng = StdRng::seed_from_u64(7);
            // [country, city] x (searches, found, items, queries, rounds)
            let mut sums = [[0usize; 5]; 2];
            for _ in 0..400 {
                let (at, in_city) = place(&mut rng);
                let mut within: Vec<f64> = all
                    .iter()
                    .map(|q| haversine_km(at.0, q.0))
                    .filter(|d| *d <= RADIUS_KM)
                    .collect();
                within.sort_by(f64::total_cmp);
                let mut params = *params;
                if let Some(f) = oracle
                    && within.len() >= K
                {
                    params.first_target_km = within[K - 1] * f;
                    params.first_round_proves = true;
                }
                let stats = search(params, &idx, &at);
                let s = &mut sums[usize::from(in_city)];
                s[0] += 1;
                s[1] += within.len().min(K);
                s[2] += stats.items_read;
                s[3] += stats.queries;
                s[4] += stats.rounds;
            }
            let both = [0, 1, 2, 3, 4].map(|i| sums[0][i] + sums[1][i]);
            let per = |s: [usize; 5]| {
                let n = s[0].max(1) as f64;
                format!(
                    "found {:4.1} items {:5.1} queries {:5.1} rounds {:3.1}",
                    s[1] as f64 / n,
                    s[2] as f64 / n,
                    s[3] as f64 / n,
                    s[4] as f64 / n
                )
            };
            println!(
                "{size:>7} {params:?}\n    all: {}\n    country: {}\n    city: {}",
                per(both),
                per(sums[0]),
                per(sums[1])
            );
        }
    }
}
