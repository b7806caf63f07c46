//! Counters maintained inside the same transactions as the changes they count, so
//! they never drift. Each counter is split over a few shard items: concurrent
//! transactions on different ambulances rarely touch the same shard, and a read sums
//! the shards with one Query.
//!
//! A counter's fields are those of a serde type: `Total` for the simple ones, the
//! domain's `AmbulanceCounts` and `BookingCounts` for the fleet and the bookings. A
//! change is a value of that type (`AmbulanceCounts::moved(from, to)`), so a field is
//! named in one place.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize, de::DeserializeOwned};

use super::{
    keys,
    table::{Query, Store, from_item, to_item},
    tx::Write,
};
use crate::error::StoreError;

pub const SHARDS: u32 = 8;

pub const USERS: &str = "users";
pub const HOSPITALS: &str = "hospitals";
pub const AMBULANCES: &str = "ambulances";
pub const BOOKINGS: &str = "bookings";
pub const CREW: &str = "crew";

/// The counter of the bookings made on the UTC day of `time` (RFC 3339).
pub fn bookings_on_day(time: &str) -> String {
    format!("bookings-day-{}", &time[..10.min(time.len())])
}

/// The counters that count one thing.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Total {
    pub total: i64,
}

impl Total {
    pub const ONE: Total = Total { total: 1 };
}

/// The write adding each non-zero field of `delta` to counter `name`, on a random shard.
pub fn add<T: Serialize>(name: &str, delta: &T) -> Result<Write, StoreError> {
    let fields: BTreeMap<String, i64> = from_item(to_item(delta)?)?;
    let shard = rand::random::<u32>() % SHARDS;
    let mut parts = vec![];
    let mut write = Write::update(keys::counter_shard(name, shard), "");
    for (i, (field, delta)) in fields.into_iter().filter(|(_, d)| *d != 0).enumerate() {
        parts.push(format!("#f{i} :v{i}"));
        write = write
            .name(&format!("#f{i}"), &field)
            .value(&format!(":v{i}"), delta);
    }
    Ok(write.set_expression(format!("ADD {}", parts.join(", "))))
}

/// One field of a shard: a number, or a key (`pk`, `sk`) that is not counted.
#[derive(Deserialize)]
#[serde(untagged)]
enum Field {
    Number(i64),
    Other(serde::de::IgnoredAny),
}

/// The counter `name`: every field summed over the shards (missing fields are 0).
pub async fn read<T: DeserializeOwned>(store: &Store, name: &str) -> Result<T, StoreError> {
    let shards: Vec<BTreeMap<String, Field>> = store
        .query_all(Query::table("pk = :p").value(":p", keys::counter(name)))
        .await?;
    let mut sums: BTreeMap<String, i64> = BTreeMap::new();
    for (field, value) in shards.into_iter().flatten() {
        if let Field::Number(n) = value {
            *sums.entry(field).or_default() += n;
        }
    }
    from_item(to_item(&sums)?)
}
