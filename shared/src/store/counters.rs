//! Counters maintained inside the same transactions as the changes they count, so
//! they never drift. Each counter is split over a few shard items: concurrent
//! transactions on different ambulances rarely touch the same shard, and a read sums
//! the shards with one Query (or several counters' shards with one BatchGetItem).

use std::collections::HashMap;

use aws_sdk_dynamodb::types::{TransactWriteItem, Update};

use super::{Store, db_error, key, n, s};
use crate::error::ApiError;

pub const SHARDS: u32 = 8;

pub const USERS: &str = "users";
pub const HOSPITALS: &str = "hospitals";
pub const AMBULANCES: &str = "ambulances";
pub const BOOKINGS: &str = "bookings";

/// A transaction item adding `deltas` to counter `name` on a random shard.
pub fn add(
    store: &Store,
    name: &str,
    deltas: &[(&str, i64)],
) -> Result<TransactWriteItem, ApiError> {
    let shard = rand::random::<u32>() % SHARDS;
    let mut update = Update::builder()
        .table_name(store.table())
        .set_key(Some(key(counter_pk(name), format!("SHARD#{shard}"))));
    let mut parts = Vec::with_capacity(deltas.len());
    for (i, (field, delta)) in deltas.iter().enumerate() {
        parts.push(format!("#f{i} :v{i}"));
        update = update
            .expression_attribute_names(format!("#f{i}"), *field)
            .expression_attribute_values(format!(":v{i}"), n(delta));
    }
    let update = update
        .update_expression(format!("ADD {}", parts.join(", ")))
        .build()
        .map_err(ApiError::internal)?;
    Ok(TransactWriteItem::builder().update(update).build())
}

/// A counter's fields, each summed over the counter's shards.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Totals(HashMap<String, i64>);

impl Totals {
    /// The field's total; a field no transaction has touched yet is 0.
    pub fn get(&self, field: &str) -> i64 {
        self.0.get(field).copied().unwrap_or(0)
    }

    fn add_shard(&mut self, shard: HashMap<String, serde_json::Value>) {
        for (field, value) in shard {
            if let Some(v) = value.as_i64() {
                *self.0.entry(field).or_insert(0) += v;
            }
        }
    }
}

fn counter_pk(name: &str) -> String {
    format!("COUNTER#{name}")
}

/// One counter: its shards with one Query.
pub async fn read(store: &Store, name: &str) -> Result<Totals, ApiError> {
    let out = store
        .client()
        .query()
        .table_name(store.table())
        .key_condition_expression("pk = :p")
        .expression_attribute_values(":p", s(counter_pk(name)))
        .consistent_read(true)
        .send()
        .await
        .map_err(db_error)?;
    let mut totals = Totals::default();
    for item in out.items.unwrap_or_default() {
        totals.add_shard(super::from_item(item)?);
    }
    Ok(totals)
}

/// Several counters with one BatchGetItem of all their shards (one call where a
/// Query each would be several).
pub async fn read_many<const N: usize>(
    store: &Store,
    names: [&str; N],
) -> Result<[Totals; N], ApiError> {
    let keys = names
        .iter()
        .flat_map(|name| {
            (0..SHARDS).map(move |shard| key(counter_pk(name), format!("SHARD#{shard}")))
        })
        .collect();
    let shards: Vec<HashMap<String, serde_json::Value>> = store.batch_get(keys).await?;
    let mut totals: [Totals; N] = std::array::from_fn(|_| Totals::default());
    for shard in shards {
        let pk = shard
            .get("pk")
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default();
        if let Some(i) = names.iter().position(|name| counter_pk(name) == pk) {
            totals[i].add_shard(shard);
        }
    }
    Ok(totals)
}
