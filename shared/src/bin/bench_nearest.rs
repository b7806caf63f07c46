//! `make bench`: the nearest-hospital search at 100, 10 000 and 100 000 hospitals in
//! DynamoDB Local (DYNAMODB_ENDPOINT), k = 10. Prints items read and Query calls per
//! search, and p50/p95 latency. Hospitals: half uniform over a ~1000 km box, half in a
//! dense city of ~15 km radius; search points likewise.

use std::time::Instant;

use rand::{Rng, SeedableRng, rngs::StdRng};
use shared::{
    Store,
    config::Config,
    store::{hospitals::NewHospital, schema},
    types::{Id, LatLng},
};

const BOX: (f64, f64, f64, f64) = (22.0, 31.0, 70.0, 80.0); // lat min/max, lng min/max
const CITY: (f64, f64) = (28.61, 77.21);

fn point(rng: &mut StdRng) -> (f64, f64) {
    if rng.random_bool(0.5) {
        (
            rng.random_range(BOX.0..BOX.1),
            rng.random_range(BOX.2..BOX.3),
        )
    } else {
        let r = 0.135 * rng.random::<f64>().sqrt();
        let a = rng.random::<f64>() * std::f64::consts::TAU;
        (CITY.0 + r * a.sin(), CITY.1 + r * a.cos())
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
    println!(
        "{:>9} {:>12} {:>14} {:>10} {:>10}",
        "hospitals", "items/search", "queries/search", "p50 ms", "p95 ms"
    );
    for size in [100usize, 10_000, 100_000] {
        let table = format!("bench-{size}-{}", rand::random::<u32>());
        let config = Config::from_lookup(|k| match k {
            "TABLE_NAME" => Some(table.clone()),
            "APP_ENV" => Some("local".into()),
            _ => std::env::var(k).ok(),
        })
        .unwrap();
        // Patient timeouts: bulk loading on a busy machine is not what is measured.
        let config = Config {
            db_attempt_timeout: std::time::Duration::from_secs(10),
            db_operation_timeout: std::time::Duration::from_secs(30),
            ..config
        };
        let client = shared::store::connect(&config).await;
        schema::create_table(&client, &table).await.unwrap();
        let store = Store::new(client, table.clone());
        let mut rng = StdRng::seed_from_u64(size as u64);
        let hospitals = (1..=size as u64)
            .map(|i| {
                let (lat, lng) = point(&mut rng);
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
        let (mut items, mut queries, mut times) = (0usize, 0usize, vec![]);
        for _ in 0..searches {
            let (lat, lng) = point(&mut rng);
            let start = Instant::now();
            let (_, stats) = store
                .nearest_hospitals(LatLng::new(lat, lng).unwrap(), 10, 100.0)
                .await
                .unwrap();
            times.push(start.elapsed().as_secs_f64() * 1000.0);
            items += stats.items_read;
            queries += stats.queries;
        }
        times.sort_by(f64::total_cmp);
        let pct = |p: f64| times[((times.len() as f64 * p) as usize).min(times.len() - 1)];
        println!(
            "{:>9} {:>12.1} {:>14.1} {:>10.1} {:>10.1}",
            size,
            items as f64 / searches as f64,
            queries as f64 / searches as f64,
            pct(0.50),
            pct(0.95)
        );
        let _ = store
            .client()
            .delete_table()
            .table_name(&table)
            .send()
            .await;
    }
}
