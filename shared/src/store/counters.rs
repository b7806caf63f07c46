//! Counters maintained inside the same transactions as the changes they count, so
//! they never drift. Each counter is split over a few shard items: concurrent
//! transactions on different ambulances rarely touch the same shard, and a read sums
//! the shards with one Query.

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
        .set_key(Some(key(
            format!("COUNTER#{name}"),
            format!("SHARD#{shard}"),
        )));
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

/// The sum of every numeric field over the counter's shards (missing fields are 0).
pub async fn read(store: &Store, name: &str) -> Result<HashMap<String, i64>, ApiError> {
    let out = store
        .client()
        .query()
        .table_name(store.table())
        .key_condition_expression("pk = :p")
        .expression_attribute_values(":p", s(format!("COUNTER#{name}")))
        .consistent_read(true)
        .send()
        .await
        .map_err(db_error)?;
    let mut totals = HashMap::new();
    for item in out.items.unwrap_or_default() {
        for (field, value) in item {
            if let Ok(v) = value.as_n()
                && let Ok(v) = v.parse::<i64>()
            {
                *totals.entry(field).or_insert(0) += v;
            }
        }
    }
    Ok(totals)
}
