//! The benchmarks' tables and city: a store over a brand-new table, the yardstick
//! GetItem, numbered hospitals loaded in bulk, the table dropped after. The stores
//! have patient timeouts; the large-fleet tests lay out their cities the same way.

use domain::{
    geo::Point,
    hospital::{Hospital, NewHospital},
    types::Id,
};
use store::schema;

use crate::state::{config_at, endpoint, patient};

/// A store over a brand-new table `<prefix>-<random>` on the DynamoDB Local of
/// `DYNAMODB_ENDPOINT`, with patient timeouts: the benchmarks measure the search and
/// the bookings, not how a busy machine's emulator queues requests.
///
/// Without the table's stream, which no benchmark but the push one reads (and
/// which DynamoDB Local, unlike DynamoDB, makes every write pay for).
pub async fn bench_store(prefix: &str) -> store::Store {
    bench_store_of(prefix, false).await
}

/// [`bench_store`] with the table's stream (the push benchmark reads it).
pub async fn bench_store_with_stream(prefix: &str) -> store::Store {
    bench_store_of(prefix, true).await
}

async fn bench_store_of(prefix: &str, stream: bool) -> store::Store {
    let table = format!("{prefix}-{}", uuid::Uuid::new_v4().simple());
    let config = patient(config_at(&table, &endpoint()));
    let client = store::connect(&config).await;
    let created = if stream {
        schema::create_table(&client, &table).await
    } else {
        schema::create_table_without_stream(&client, &table).await
    };
    created.unwrap_or_else(|e| panic!("could not create a table on DynamoDB Local: {e:?}"));
    store::Store::new(client, table)
}

/// The benchmarks' yardstick: a bare strongly consistent GetItem of hospital 1
/// (which the benchmark loaded), timed (ms).
pub async fn timed_get_item(store: &store::Store) -> f64 {
    let start = std::time::Instant::now();
    let out = store
        .client()
        .get_item()
        .table_name(store.table())
        .set_key(Some(store::key("HOSPITAL#1", "HOSPITAL")))
        .consistent_read(true)
        .send()
        .await
        .unwrap();
    assert!(out.item.is_some(), "hospital 1 is loaded");
    start.elapsed().as_secs_f64() * 1000.0
}

/// Hospital `i` of a made-up city laid out in bulk ([`bulk_load_hospitals`]).
pub fn numbered_hospital(i: u64, at: Point) -> Hospital {
    Hospital {
        id: Id::try_from(i).expect("hospital numbers start at 1"),
        name: format!("Hospital {i}"),
        address: format!("{i} Bench Road"),
        latitude: at.lat,
        longitude: at.lng,
        contact_info: Some("+911234567".into()),
        distance: None,
        on_diversion_until: None,
    }
}

/// Loads `hospitals` (ids and all) in bulk, as the benchmarks and the large-fleet tests
/// lay out a city: `store.bulk().bulk_load_hospitals` of each as a `NewHospital`.
pub async fn bulk_load_hospitals(store: &store::Store, hospitals: &[Hospital]) {
    let new = hospitals
        .iter()
        .map(|h| {
            let new = NewHospital {
                name: h.name.clone(),
                address: h.address.clone(),
                location: h.point(),
                contact_info: h.contact_info.clone(),
            };
            (h.id, new)
        })
        .collect();
    store
        .bulk()
        .bulk_load_hospitals(new)
        .await
        .expect("hospitals load");
}

/// Drops a [`bench_store`]'s table (best effort: the database is in memory anyway).
pub async fn drop_table(store: &store::Store) {
    let _ = store
        .client()
        .delete_table()
        .table_name(store.table())
        .send()
        .await;
}
