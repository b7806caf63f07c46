//! The DynamoDB store: the only code that sees an `AttributeValue`. Items map with
//! `serde_dynamo`; every request path is GetItem, Query, BatchGetItem or
//! TransactWriteItems (see docs/data-model.md).

pub mod ambulances;
pub mod bookings;
pub mod counters;
pub mod hospitals;
pub mod schema;
pub mod users;

use std::{collections::HashMap, time::Duration};

use aws_sdk_dynamodb::{
    Client,
    config::{Credentials, retry::RetryConfig, timeout::TimeoutConfig},
    error::{ProvideErrorMetadata, SdkError},
    operation::transact_write_items::TransactWriteItemsError,
    types::{AttributeValue, KeysAndAttributes, TransactWriteItem},
};
use futures::{StreamExt, TryStreamExt};
use serde::{Serialize, de::DeserializeOwned};

use crate::{config::Config, error::ApiError, types::Id};

pub type Item = HashMap<String, AttributeValue>;

#[derive(Clone)]
pub struct Store {
    client: Client,
    table: String,
}

/// Builds the SDK client with short timeouts and bounded retries, so a database
/// outage becomes a fast 503 instead of a hung Lambda.
pub async fn connect(config: &Config) -> Client {
    let timeouts = TimeoutConfig::builder()
        .connect_timeout(Duration::from_millis(500))
        .operation_attempt_timeout(config.db_attempt_timeout)
        .operation_timeout(config.db_operation_timeout)
        .build();
    let retry = RetryConfig::standard()
        .with_max_attempts(config.db_max_attempts)
        .with_initial_backoff(Duration::from_millis(40))
        .with_max_backoff(Duration::from_millis(400));
    let mut loader = aws_config::defaults(aws_config::BehaviorVersion::latest())
        .region(aws_config::Region::new(config.region.clone()))
        .timeout_config(timeouts)
        .retry_config(retry);
    if let Some(endpoint) = &config.dynamodb_endpoint {
        // DynamoDB Local accepts any credentials.
        loader = loader
            .endpoint_url(endpoint)
            .credentials_provider(Credentials::new("local", "local", None, None, "local"));
    }
    Client::new(&loader.load().await)
}

/// Maps an SDK failure: an unreachable, slow or throttled database is a 503 the
/// client may retry; anything else is a bug (500, logged).
pub fn db_error<E, R>(err: SdkError<E, R>) -> ApiError
where
    E: ProvideErrorMetadata + std::fmt::Debug,
    R: std::fmt::Debug,
{
    match &err {
        SdkError::TimeoutError(_) | SdkError::DispatchFailure(_) | SdkError::ResponseError(_) => {
            tracing::warn!(error = ?err, "database unavailable");
            ApiError::Unavailable
        }
        SdkError::ServiceError(service)
            if matches!(
                service.err().code(),
                Some(
                    "ProvisionedThroughputExceededException"
                        | "ThrottlingException"
                        | "RequestLimitExceeded"
                        | "InternalServerError"
                        | "ServiceUnavailable"
                )
            ) =>
        {
            tracing::warn!(error = ?err, "database throttled");
            ApiError::Unavailable
        }
        _ => ApiError::Internal(format!("{err:?}")),
    }
}

pub fn to_item<T: Serialize>(value: &T) -> Result<Item, ApiError> {
    serde_dynamo::to_item(value).map_err(ApiError::internal)
}

pub fn from_item<T: DeserializeOwned>(item: Item) -> Result<T, ApiError> {
    serde_dynamo::from_item(item).map_err(ApiError::internal)
}

pub fn s(v: impl Into<String>) -> AttributeValue {
    AttributeValue::S(v.into())
}

pub fn n(v: impl ToString) -> AttributeValue {
    AttributeValue::N(v.to_string())
}

pub fn key(pk: impl Into<String>, sk: impl Into<String>) -> Item {
    HashMap::from([("pk".to_owned(), s(pk)), ("sk".to_owned(), s(sk))])
}

/// Why a transaction was refused: one entry per item, `Some(code)` where it failed
/// (`ConditionalCheckFailed`, `TransactionConflict`, ...), with the item as it was.
#[derive(Debug)]
pub struct Cancelled {
    pub reasons: Vec<(Option<String>, Option<Item>)>,
}

impl Cancelled {
    pub fn failed_at(&self, index: usize) -> bool {
        matches!(self.reasons.get(index), Some((Some(code), _)) if code == "ConditionalCheckFailed")
    }

    pub fn old_item(&self, index: usize) -> Option<&Item> {
        self.reasons.get(index).and_then(|(_, item)| item.as_ref())
    }

    fn is_conflict(&self) -> bool {
        self.reasons
            .iter()
            .any(|(code, _)| code.as_deref() == Some("TransactionConflict"))
            && !self
                .reasons
                .iter()
                .any(|(code, _)| code.as_deref() == Some("ConditionalCheckFailed"))
    }
}

#[derive(Debug)]
pub enum TxError {
    /// A condition failed: the caller decides what that means (409, 404...).
    Cancelled(Cancelled),
    Api(ApiError),
}

impl From<ApiError> for TxError {
    fn from(e: ApiError) -> Self {
        TxError::Api(e)
    }
}

impl Store {
    pub fn new(client: Client, table: impl Into<String>) -> Self {
        Store {
            client,
            table: table.into(),
        }
    }

    pub fn client(&self) -> &Client {
        &self.client
    }

    pub fn table(&self) -> &str {
        &self.table
    }

    pub async fn get<T: DeserializeOwned>(
        &self,
        pk: &str,
        sk: &str,
    ) -> Result<Option<T>, ApiError> {
        let out = self
            .client
            .get_item()
            .table_name(&self.table)
            .set_key(Some(key(pk, sk)))
            .consistent_read(true)
            .send()
            .await
            .map_err(db_error)?;
        out.item.map(from_item).transpose()
    }

    /// A fresh id from the entity's atomic sequence.
    pub async fn next_id(&self, entity: &str) -> Result<Id, ApiError> {
        let out = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(format!("SEQ#{entity}"), "SEQ")))
            .update_expression("ADD #v :one")
            .expression_attribute_names("#v", "value")
            .expression_attribute_values(":one", n(1))
            .return_values(aws_sdk_dynamodb::types::ReturnValue::UpdatedNew)
            .send()
            .await
            .map_err(db_error)?;
        let value = out
            .attributes
            .and_then(|a| a.get("value").cloned())
            .and_then(|v| v.as_n().ok().and_then(|n| n.parse::<u64>().ok()))
            .ok_or_else(|| ApiError::internal("sequence returned no value"))?;
        Id::try_from(value).map_err(ApiError::internal)
    }

    /// Runs a transaction, retrying a few times when it only lost a race on an item
    /// (`TransactionConflict`); a failed condition comes back as [`TxError::Cancelled`].
    pub async fn transact(&self, items: Vec<TransactWriteItem>) -> Result<(), TxError> {
        let mut attempt = 0u32;
        loop {
            let result = self
                .client
                .transact_write_items()
                .set_transact_items(Some(items.clone()))
                .send()
                .await;
            let err = match result {
                Ok(_) => return Ok(()),
                Err(err) => err,
            };
            let cancelled = match &err {
                SdkError::ServiceError(service) => match service.err() {
                    TransactWriteItemsError::TransactionCanceledException(e) => Some(Cancelled {
                        reasons: e
                            .cancellation_reasons()
                            .iter()
                            .map(|r| {
                                (
                                    r.code().filter(|c| *c != "None").map(str::to_owned),
                                    r.item().cloned(),
                                )
                            })
                            .collect(),
                    }),
                    TransactWriteItemsError::TransactionInProgressException(_) => Some(Cancelled {
                        reasons: vec![(Some("TransactionConflict".into()), None)],
                    }),
                    _ => None,
                },
                _ => None,
            };
            match cancelled {
                Some(c) if c.is_conflict() && attempt < 6 => {
                    attempt += 1;
                    let jitter = rand::random::<u64>() % (20 * u64::from(attempt));
                    tokio::time::sleep(Duration::from_millis(10 + jitter)).await;
                }
                Some(c) if c.is_conflict() => {
                    tracing::warn!("transaction still conflicting after retries");
                    return Err(TxError::Api(ApiError::Unavailable));
                }
                Some(c) => return Err(TxError::Cancelled(c)),
                None => return Err(TxError::Api(db_error(err))),
            }
        }
    }

    /// Reads items by key, in the order given, skipping keys that no longer exist.
    /// The requests of 100 keys each run at once (up to [`BATCH_GETS_AT_ONCE`]), not
    /// one after the other.
    pub async fn batch_get<T: DeserializeOwned>(
        &self,
        keys: Vec<Item>,
    ) -> Result<Vec<T>, ApiError> {
        let mut found: HashMap<(String, String), Item> = HashMap::with_capacity(keys.len());
        let requests: Vec<Vec<Item>> = keys.chunks(100).map(<[Item]>::to_vec).collect();
        let chunks: Vec<Vec<Item>> = futures::stream::iter(requests)
            .map(|chunk| self.batch_get_chunk(chunk))
            .buffer_unordered(BATCH_GETS_AT_ONCE)
            .try_collect()
            .await?;
        for item in chunks.into_iter().flatten() {
            found.insert(item_key(&item), item);
        }
        keys.iter()
            .filter_map(|k| found.remove(&item_key(k)))
            .map(from_item)
            .collect()
    }

    /// One BatchGetItem of up to 100 keys, asking again for the unprocessed ones.
    async fn batch_get_chunk(&self, chunk: Vec<Item>) -> Result<Vec<Item>, ApiError> {
        let mut found = Vec::with_capacity(chunk.len());
        let mut pending = Some(
            KeysAndAttributes::builder()
                .set_keys(Some(chunk))
                .consistent_read(true)
                .build()
                .map_err(ApiError::internal)?,
        );
        let mut rounds = 0;
        while let Some(request) = pending.take() {
            rounds += 1;
            if rounds > 8 {
                return Err(ApiError::Unavailable);
            }
            let out = self
                .client
                .batch_get_item()
                .request_items(&self.table, request)
                .send()
                .await
                .map_err(db_error)?;
            found.extend(
                out.responses
                    .unwrap_or_default()
                    .remove(&self.table)
                    .unwrap_or_default(),
            );
            pending = out
                .unprocessed_keys
                .and_then(|mut u| u.remove(&self.table))
                .filter(|k| !k.keys().is_empty());
            if pending.is_some() {
                tokio::time::sleep(Duration::from_millis(20 * rounds)).await;
            }
        }
        Ok(found)
    }

    /// A page of a counted list: the list's total (`total`, from its counter) and the
    /// page's keys ([`Store::list_page_keys`]); no keys for a page past the total.
    /// When the page lies within the first Query of keys (skip + size ≤
    /// [`LIST_QUERY_LIMIT`]) the two are read at once, one round trip instead of
    /// two; a deeper page reads the total first, so that a page past the end does not
    /// walk the whole index.
    pub async fn counted_page_keys(
        &self,
        total: impl Future<Output = Result<u64, ApiError>>,
        list: &str,
        page: u32,
        size: u32,
        newest_first: bool,
    ) -> Result<(u64, Vec<Item>), ApiError> {
        let skip = u64::from(page) * u64::from(size);
        let (total, keys) = if skip + u64::from(size) <= LIST_QUERY_LIMIT {
            tokio::try_join!(total, self.list_page_keys(list, page, size, newest_first))?
        } else {
            let total = total.await?;
            if skip >= total {
                return Ok((total, vec![]));
            }
            (
                total,
                self.list_page_keys(list, page, size, newest_first).await?,
            )
        };
        Ok((total, if skip >= total { vec![] } else { keys }))
    }

    /// One page of keys from the KEYS_ONLY `list` index: the pages before it are
    /// skipped by reading keys only, so deep pages stay cheap.
    pub async fn list_page_keys(
        &self,
        list: &str,
        page: u32,
        size: u32,
        newest_first: bool,
    ) -> Result<Vec<Item>, ApiError> {
        let skip = u64::from(page) * u64::from(size);
        let mut seen: u64 = 0;
        let mut keys = Vec::with_capacity(size as usize);
        let mut start: Option<Item> = None;
        loop {
            let remaining_skip = skip.saturating_sub(seen);
            let want = remaining_skip + u64::from(size) - keys.len() as u64;
            let out = self
                .client
                .query()
                .table_name(&self.table)
                .index_name("list")
                .key_condition_expression("listpk = :p")
                .expression_attribute_values(":p", s(list))
                .scan_index_forward(!newest_first)
                .limit(want.min(LIST_QUERY_LIMIT) as i32)
                .set_exclusive_start_key(start.take())
                .send()
                .await
                .map_err(db_error)?;
            for item in out.items.unwrap_or_default() {
                if seen >= skip && keys.len() < size as usize {
                    keys.push(key(
                        item.get("pk")
                            .and_then(|v| v.as_s().ok())
                            .cloned()
                            .unwrap_or_default(),
                        item.get("sk")
                            .and_then(|v| v.as_s().ok())
                            .cloned()
                            .unwrap_or_default(),
                    ));
                }
                seen += 1;
            }
            start = out.last_evaluated_key;
            if keys.len() >= size as usize || start.is_none() {
                return Ok(keys);
            }
        }
    }
}

/// Keys one Query of the `list` index asks for at most.
pub const LIST_QUERY_LIMIT: u64 = 1000;

/// BatchGetItem requests of one [`Store::batch_get`] in flight at once.
pub const BATCH_GETS_AT_ONCE: usize = 8;

fn item_key(item: &Item) -> (String, String) {
    let get = |k: &str| {
        item.get(k)
            .and_then(|v| v.as_s().ok())
            .cloned()
            .unwrap_or_default()
    };
    (get("pk"), get("sk"))
}

/// `{content, totalPages, totalElements, page, size}` of DESIGN.md section 5.
#[derive(Debug, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Page<T> {
    pub content: Vec<T>,
    pub total_pages: u64,
    pub total_elements: u64,
    pub page: u32,
    pub size: u32,
}

impl<T> Page<T> {
    pub fn new(content: Vec<T>, total_elements: u64, page: u32, size: u32) -> Self {
        Page {
            content,
            total_pages: total_elements.div_ceil(u64::from(size.max(1))),
            total_elements,
            page,
            size,
        }
    }
}
