//! Tunes the nearest-hospital search without a database: the `make bench` workload
//! (100, 10 000 and 100 000 hospitals, half over a ~1000 km box, half in a 15 km city;
//! k = 10, radius 100 km) against an in-memory copy of the index, printing items read,
//! Queries and rounds per search for city and country points apart.
//!
//! `cargo run --profile bench-local -p shared --bin geo_tune`; other knobs with
//! `GEO_PARAMS="first_km,cells_per_radius,empty_growth,margin,refine;..."`.

use std::collections::BTreeMap;

use rand::{Rng, SeedableRng, rngs::StdRng};
use shared::geo::{Located, Range, SearchParams, SearchStats, keys_of, nearest_with};

#[derive(Clone)]
struct Point {
    lat: f64,
    lng: f64,
}

impl Located for Point {
    fn latitude(&self) -> f64 {
        self.lat
    }
    fn longitude(&self) -> f64 {
        self.lng
    }
}

/// The index as DynamoDB holds it: partition -> geosk -> items.
type Index = BTreeMap<String, BTreeMap<u64, Vec<Point>>>;

/// A point of the workload, and whether it is in the city.
fn place(rng: &mut StdRng) -> (Point, bool) {
    const CITY: (f64, f64) = (28.61, 77.21);
    if rng.random_bool(0.5) {
        let p = Point {
            lat: rng.random_range(22.0..31.0),
            lng: rng.random_range(70.0..80.0),
        };
        (p, false)
    } else {
        let r = 0.135 * rng.random::<f64>().sqrt();
        let a = rng.random::<f64>() * std::f64::consts::TAU;
        let p = Point {
            lat: CITY.0 + r * a.sin(),
            lng: CITY.1 + r * a.cos(),
        };
        (p, true)
    }
}

fn search(params: SearchParams, idx: &Index, at: &Point) -> SearchStats {
    let fetch = |ranges: Vec<Range>| {
        let mut out = vec![];
        for r in &ranges {
            if let Some(part) = idx.get(&r.partition) {
                for items in part.range(r.lo..=r.hi).map(|(_, v)| v) {
                    out.extend(items.iter().cloned());
                }
            }
        }
        async move { Ok::<_, ()>(out) }
    };
    let (_, stats) =
        futures::executor::block_on(nearest_with(params, at.lat, at.lng, 10, 100.0, fetch))
            .expect("the in-memory fetch cannot fail");
    stats
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
            }
        })
        .collect()
}

fn main() {
    let params = std::env::var("GEO_PARAMS")
        .map(|v| parse_params(&v))
        .unwrap_or_else(|_| vec![SearchParams::default()]);
    for size in [100usize, 10_000, 100_000] {
        let mut rng = StdRng::seed_from_u64(size as u64);
        let mut idx = Index::new();
        for _ in 0..size {
            let (p, _) = place(&mut rng);
            let (pk, sk) = keys_of(p.lat, p.lng);
            idx.entry(pk).or_default().entry(sk).or_default().push(p);
        }
        for params in &params {
            let mut rng = StdRng::seed_from_u64(7);
            // [country, city] x (searches, items, queries, rounds)
            let mut sums = [[0usize; 4]; 2];
            for _ in 0..400 {
                let (at, in_city) = place(&mut rng);
                let stats = search(*params, &idx, &at);
                let s = &mut sums[usize::from(in_city)];
                s[0] += 1;
                s[1] += stats.items_read;
                s[2] += stats.queries;
                s[3] += stats.rounds;
            }
            let all = [0, 1, 2, 3].map(|i| sums[0][i] + sums[1][i]);
            let per = |s: [usize; 4]| {
                let n = s[0].max(1) as f64;
                format!(
                    "items {:5.1} queries {:5.1} rounds {:3.1}",
                    s[1] as f64 / n,
                    s[2] as f64 / n,
                    s[3] as f64 / n
                )
            };
            println!(
                "{size:>7} {params:?}\n    all: {}\n    country: {}\n    city: {}",
                per(all),
                per(sums[0]),
                per(sums[1])
            );
        }
    }
}
