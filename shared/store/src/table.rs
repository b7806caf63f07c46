//! The table and the reads every store module shares: items by key, Queries through
//! the SDK's paginator, BatchGetItem, sequences. Items map with `serde_dynamo`;
//! nothing outside `store` sees an `AttributeValue`.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::Duration,
};

use aws_sdk_dynamodb::{
    Client,
    config::{Credentials, retry::RetryConfig, timeout::TimeoutConfig},
    error::{ProvideErrorMetadata, SdkError},
    types::{AttributeValue, KeysAndAttributes, ReturnValue},
};
use backon::Retryable;
use futures::{StreamExt, TryStreamExt};
use serde::{Deserialize, Serialize, de::DeserializeOwned};

use super::{
    keys::{self, Key},
    retry,
};
use crate::config::Config;
use crate::error::StoreError;
use domain::{
    geo::Range,
    types::{Id, Timestamp},
};

pub type Item = HashMap<String, AttributeValue>;

/// The DynamoDB table and its client, built once per cold start.
#[derive(Clone)]
pub struct Store {
    client: Client,
    table: String,
    /// This instance's copy of the nearest-hospital index (shared by clones).
    hospital_index: Arc<super::hospital_snapshot::HospitalIndex>,
    /// Milliseconds added to the system clock by [`Store::now`]: 0, except in tests
    /// that let time pass without waiting for it (shared by clones).
    clock_offset_ms: Arc<std::sync::atomic::AtomicI64>,
    /// The settings in force when nothing is stored (decision 0018).
    defaults: domain::settings::Settings,
    /// The settings read from the table, held a while (shared by clones).
    settings: Arc<super::settings_cache::SettingsCache>,
    /// The admin whose request this store serves: its changes are written to the
    /// audit trail (`store::audit`); none for everyone else.
    actor: Option<Arc<domain::audit::Actor>>,
    /// Whose days the response-time report counts (decision 0021).
    time_zone: domain::response_times::ServiceZone,
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
        .http_client(crate::config::aws_http_client())
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
pub fn db_error<E, R>(err: SdkError<E, R>) -> StoreError
where
    E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
    R: std::fmt::Debug + Send + Sync + 'static,
{
    match &err {
        SdkError::TimeoutError(_) | SdkError::DispatchFailure(_) | SdkError::ResponseError(_) => {
            tracing::warn!(error = ?err, "database unavailable");
            StoreError::Unavailable
        }
        SdkError::ServiceError(service) if is_throttling(service.err().code()) => {
            tracing::warn!(error = ?err, "database throttled");
            StoreError::Unavailable
        }
        _ => StoreError::caused_by(format!("DynamoDB: {err:?}"), err),
    }
}

/// Error codes that mean "busy, try again later", not "your request is wrong".
pub(crate) fn is_throttling(code: Option<&str>) -> bool {
    matches!(
        code,
        Some(
            "ProvisionedThroughputExceededException"
                | "ThrottlingException"
                | "ThrottlingError"
                | "ProvisionedThroughputExceeded"
                | "RequestLimitExceeded"
                | "InternalServerError"
                | "ServiceUnavailable"
        )
    )
}

pub fn to_item<T: Serialize>(value: &T) -> Result<Item, StoreError> {
    serde_dynamo::to_item(value).map_err(StoreError::internal)
}

pub fn from_item<T: DeserializeOwned>(item: Item) -> Result<T, StoreError> {
    serde_dynamo::from_item(item).map_err(StoreError::internal)
}

/// The item as `T`, or `None` when it does not read as one: then it is logged with
/// its key and counted (`telemetry::unreadable_item`). What searches, lists and pages
/// read goes through here: one bad item fails no answer (docs/requirements.md, "Inputs and answers").
pub(crate) fn readable<T: DeserializeOwned>(item: Item) -> Option<T> {
    // The key only, kept for the log: not a copy of every item read.
    let key = item_key(&item);
    match serde_dynamo::from_item(item) {
        Ok(value) => Some(value),
        Err(e) => {
            let (pk, sk) = key.map_or(("?".to_owned(), "?".to_owned()), |k| (k.pk, k.sk));
            telemetry::unreadable_item(&pk, &sk, &e);
            None
        }
    }
}

/// An item's `pk` and `sk`, when both are strings.
fn item_key(item: &Item) -> Option<Key> {
    match (item.get("pk"), item.get("sk")) {
        (Some(AttributeValue::S(pk)), Some(AttributeValue::S(sk))) => {
            Some(Key::new(pk.as_str(), sk.as_str()))
        }
        _ => None,
    }
}

/// A Query: its index (none: the table) and key condition, with values set through
/// serde. `Query::on(schema::GSI1, "gsi1pk = :p").value(":p", ...)`.
pub struct Query {
    index: Option<&'static str>,
    condition: &'static str,
    values: Item,
    newest_first: bool,
    page_size: Option<i32>,
    /// A table Query that may read a slightly older copy, for half the read units.
    eventual: bool,
    /// `#placeholder` → attribute name (for reserved words such as `status`).
    names: HashMap<String, String>,
    error: Option<StoreError>,
}

impl Query {
    /// A Query of an index (see `schema`), eventually consistent as indexes are.
    pub fn on(index: &'static str, condition: &'static str) -> Query {
        Query {
            index: Some(index),
            ..Query::table(condition)
        }
    }

    /// A strongly consistent Query of the table itself.
    pub fn table(condition: &'static str) -> Query {
        Query {
            index: None,
            condition,
            values: Item::new(),
            newest_first: false,
            page_size: None,
            eventual: false,
            names: HashMap::new(),
            error: None,
        }
    }

    /// `#placeholder` stands for the attribute `name` (for reserved words).
    pub fn name(mut self, placeholder: &str, name: &str) -> Query {
        self.names.insert(placeholder.to_owned(), name.to_owned());
        self
    }

    pub fn value(mut self, placeholder: &str, value: impl Serialize) -> Query {
        match serde_dynamo::to_attribute_value(value) {
            Ok(v) => {
                self.values.insert(placeholder.to_owned(), v);
            }
            Err(e) => self.error = Some(StoreError::internal(e)),
        }
        self
    }

    /// The values of a geo index's range condition (`<pk> = :p AND <sk> BETWEEN
    /// :lo AND :hi`): one H3 range of the nearest searches.
    pub fn range(self, r: &Range) -> Query {
        self.value(":p", &r.partition)
            .value(":lo", r.lo)
            .value(":hi", r.hi)
    }

    /// Descending sort key order.
    pub fn newest_first(mut self, yes: bool) -> Query {
        self.newest_first = yes;
        self
    }

    /// An eventually consistent Query of the table: half the read units, for items
    /// whose reader checks that what it got is recent enough.
    pub fn eventually_consistent(mut self) -> Query {
        self.eventual = true;
        self
    }

    /// Items per request (DynamoDB's `Limit`); the paginator asks again until done.
    pub fn page_size(mut self, items: u64) -> Query {
        self.page_size = Some(items.min(i32::MAX as u64) as i32);
        self
    }
}

/// Keys one Query of the `list` index asks for at most.
pub const LIST_QUERY_LIMIT: u64 = 1000;

/// BatchGetItem requests of one [`Store::batch_get`] in flight at once.
pub const BATCH_GETS_AT_ONCE: usize = 8;

/// The atomic counter of a sequence (`SEQ#<entity>`).
#[derive(Deserialize)]
struct Sequence {
    value: u64,
}

/// Why one BatchGetItem round did not finish its keys.
enum Round {
    /// DynamoDB left keys unprocessed and asks to come back for them.
    Unprocessed,
    Failed(StoreError),
}

impl Store {
    pub fn new(client: Client, table: impl Into<String>) -> Self {
        Store {
            client,
            table: table.into(),
            hospital_index: Arc::default(),
            clock_offset_ms: Arc::default(),
            defaults: Default::default(),
            settings: Arc::default(),
            actor: None,
            time_zone: Default::default(),
        }
    }

    /// This store with another service time zone (`SERVICE_TIME_ZONE`).
    pub fn with_time_zone(mut self, zone: domain::response_times::ServiceZone) -> Self {
        self.time_zone = zone;
        self
    }

    /// Whose days the response-time report counts.
    pub fn time_zone(&self) -> &domain::response_times::ServiceZone {
        &self.time_zone
    }

    /// This store serving `actor`'s request: what it changes is on the audit trail
    /// under their name. The same table, cache and clock (a copy of the store).
    pub fn acting_as(&self, actor: domain::audit::Actor) -> Store {
        Store {
            actor: Some(Arc::new(actor)),
            ..self.clone()
        }
    }

    /// The admin this store acts for, if any (see [`Store::acting_as`]).
    pub fn actor(&self) -> Option<&domain::audit::Actor> {
        self.actor.as_deref()
    }

    /// This store with other default settings (a test stack's short answer windows).
    pub fn with_settings(mut self, defaults: domain::settings::Settings) -> Self {
        self.defaults = defaults;
        self
    }

    /// The default settings this store was made with (a copy of the store takes them).
    pub fn defaults(&self) -> &domain::settings::Settings {
        &self.defaults
    }

    /// The settings in force now: every rule that has a setting reads it here. What
    /// admins stored over the defaults, read from the table at most every
    /// `settings_cache::MAX_AGE` by this instance, shared by every copy of this store
    /// (decision 0018).
    pub async fn settings(&self) -> domain::settings::Settings {
        self.settings
            .get(self.now(), &self.defaults, || async {
                self.stored_settings().read().await
            })
            .await
    }

    /// The settings this instance just read or wrote itself, in force here at once.
    pub(crate) fn hold_settings(&self, settings: domain::settings::Settings) {
        self.settings.put(settings, self.now());
    }

    /// The server's time, by which the time rules of positions are judged.
    pub fn now(&self) -> time::OffsetDateTime {
        let offset = self
            .clock_offset_ms
            .load(std::sync::atomic::Ordering::Relaxed);
        time::OffsetDateTime::now_utc() + time::Duration::milliseconds(offset)
    }

    /// [`Store::now`] as a [`Timestamp`] (the system clock's, should this store's
    /// test clock ever be moved past year 9999).
    pub fn timestamp(&self) -> Timestamp {
        Timestamp::new_or_now(self.now())
    }

    /// Moves this store's clock (and its clones') forward: a test's way to let the
    /// 4-second write bound pass without sleeping. Tests only (testkit): no request
    /// path calls it. Not behind a feature, so `shared` keeps one feature set.
    #[doc(hidden)]
    pub fn advance_clock(&self, by: time::Duration) {
        let ms = i64::try_from(by.whole_milliseconds()).expect("a test's few seconds");
        self.clock_offset_ms
            .fetch_add(ms, std::sync::atomic::Ordering::Relaxed);
    }

    pub(crate) fn hospital_index(&self) -> &super::hospital_snapshot::HospitalIndex {
        &self.hospital_index
    }

    pub fn client(&self) -> &Client {
        &self.client
    }

    pub fn table(&self) -> &str {
        &self.table
    }

    /// A strongly consistent GetItem.
    pub(crate) async fn get<T: DeserializeOwned>(
        &self,
        key: &Key,
    ) -> Result<Option<T>, StoreError> {
        self.get_item(key).await?.map(from_item).transpose()
    }

    /// A strongly consistent GetItem that takes an unreadable item as absent (logged
    /// and counted): for the parts of a page that can be shown without it.
    pub(crate) async fn get_readable<T: DeserializeOwned>(
        &self,
        key: &Key,
    ) -> Result<Option<T>, StoreError> {
        Ok(self.get_item(key).await?.and_then(readable))
    }

    /// A strongly consistent GetItem, the item as stored.
    pub(crate) async fn get_item(&self, key: &Key) -> Result<Option<Item>, StoreError> {
        let out = self
            .client
            .get_item()
            .table_name(&self.table)
            .set_key(Some(key.item()))
            .consistent_read(true)
            .send()
            .await
            .map_err(db_error)?;
        Ok(out.item)
    }

    fn query_request(
        &self,
        q: Query,
    ) -> Result<aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder, StoreError> {
        if let Some(e) = q.error {
            return Err(e);
        }
        Ok(self
            .client
            .query()
            .table_name(&self.table)
            .set_index_name(q.index.map(str::to_owned))
            .key_condition_expression(q.condition)
            .set_expression_attribute_values(Some(q.values))
            .set_expression_attribute_names((!q.names.is_empty()).then_some(q.names))
            .scan_index_forward(!q.newest_first)
            .set_consistent_read((q.index.is_none() && !q.eventual).then_some(true))
            .set_limit(q.page_size))
    }

    /// Every readable item of a Query, all pages (an unreadable one is skipped,
    /// logged and counted).
    pub(crate) async fn query_all<T: DeserializeOwned>(
        &self,
        q: Query,
    ) -> Result<Vec<T>, StoreError> {
        let items: Vec<Item> = self
            .query_request(q)?
            .into_paginator()
            .items()
            .send()
            .try_collect()
            .await
            .map_err(db_error)?;
        Ok(items.into_iter().filter_map(readable).collect())
    }

    /// The first `n` readable items of a Query, asking for more pages only while
    /// needed.
    pub(crate) async fn query_first<T: DeserializeOwned>(
        &self,
        q: Query,
        n: usize,
    ) -> Result<Vec<T>, StoreError> {
        let mut items = self.query_request(q)?.into_paginator().items().send();
        let mut out = Vec::with_capacity(n.min(1024));
        while out.len() < n {
            match items.next().await {
                Some(item) => out.extend(readable(item.map_err(db_error)?)),
                None => break,
            }
        }
        Ok(out)
    }

    /// One page of a Query from `start` (None: the first): its readable items and
    /// where the next page starts (None: there is none).
    pub(crate) async fn query_page<T: DeserializeOwned>(
        &self,
        q: Query,
        start: Option<Item>,
    ) -> Result<(Vec<T>, Option<Item>), StoreError> {
        let out = self
            .query_request(q)?
            .set_exclusive_start_key(start)
            .send()
            .await
            .map_err(db_error)?;
        let items = out.items.unwrap_or_default();
        Ok((
            items.into_iter().filter_map(readable).collect(),
            out.last_evaluated_key.filter(|k| !k.is_empty()),
        ))
    }

    /// A fresh id from the entity's atomic sequence.
    pub(crate) async fn next_id(&self, entity: &str) -> Result<Id, StoreError> {
        let out = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(keys::sequence(entity).item()))
            .update_expression("ADD #v :one")
            .expression_attribute_names("#v", "value")
            .expression_attribute_values(":one", AttributeValue::N("1".into()))
            .return_values(ReturnValue::UpdatedNew)
            .send()
            .await
            .map_err(db_error)?;
        let seq: Sequence = from_item(out.attributes.unwrap_or_default())?;
        Id::try_from(seq.value).map_err(StoreError::internal)
    }

    /// Reads items by key, in the order given, skipping keys that no longer exist and
    /// items that do not read (logged and counted).
    /// The requests of 100 keys each run at once (up to [`BATCH_GETS_AT_ONCE`]), not
    /// one after the other.
    pub(crate) async fn batch_get<T: DeserializeOwned>(
        &self,
        keys: Vec<Key>,
    ) -> Result<Vec<T>, StoreError> {
        self.batch_get_of(keys, None).await
    }

    /// [`Store::batch_get`] of only the attributes `projection` names (a
    /// ProjectionExpression, which must name `pk` and `sk`): for a reader that needs
    /// a few small fields of large items.
    pub(crate) async fn batch_get_projected<T: DeserializeOwned>(
        &self,
        keys: Vec<Key>,
        projection: &'static str,
    ) -> Result<Vec<T>, StoreError> {
        self.batch_get_of(keys, Some(projection)).await
    }

    async fn batch_get_of<T: DeserializeOwned>(
        &self,
        keys: Vec<Key>,
        projection: Option<&'static str>,
    ) -> Result<Vec<T>, StoreError> {
        // Owned chunks: a borrowed one makes the future not `Send` for axum.
        let requests: Vec<Vec<Key>> = keys.chunks(100).map(<[Key]>::to_vec).collect();
        let chunks: Vec<Vec<Item>> = futures::stream::iter(requests)
            .map(|chunk| self.batch_get_chunk(chunk, projection))
            .buffer_unordered(BATCH_GETS_AT_ONCE)
            .try_collect()
            .await?;
        let mut found: HashMap<Key, Item> = HashMap::with_capacity(keys.len());
        for item in chunks.into_iter().flatten() {
            let key = item_key(&item)
                .ok_or_else(|| StoreError::internal("a BatchGetItem item without its key"))?;
            found.insert(key, item);
        }
        Ok(keys
            .iter()
            .filter_map(|k| found.remove(k))
            .filter_map(readable)
            .collect())
    }

    /// One BatchGetItem of up to 100 keys, asking again (with the store's retry
    /// policy) for the keys DynamoDB left unprocessed.
    async fn batch_get_chunk(
        &self,
        chunk: Vec<Key>,
        projection: Option<&'static str>,
    ) -> Result<Vec<Item>, StoreError> {
        let found = Mutex::new(Vec::with_capacity(chunk.len()));
        let pending = Mutex::new(Some(
            KeysAndAttributes::builder()
                .set_keys(Some(chunk.iter().map(Key::item).collect()))
                .set_projection_expression(projection.map(str::to_owned))
                .consistent_read(true)
                .build()
                .map_err(StoreError::internal)?,
        ));
        let round = || async {
            let Some(request) = pending.lock().expect("not poisoned").take() else {
                return Ok(());
            };
            let out = self
                .client
                .batch_get_item()
                .request_items(&self.table, request)
                .send()
                .await
                .map_err(|e| Round::Failed(db_error(e)))?;
            found.lock().expect("not poisoned").extend(
                out.responses
                    .unwrap_or_default()
                    .remove(&self.table)
                    .unwrap_or_default(),
            );
            let left = out
                .unprocessed_keys
                .and_then(|mut u| u.remove(&self.table))
                .filter(|k| !k.keys().is_empty());
            match left {
                Some(left) => {
                    *pending.lock().expect("not poisoned") = Some(left);
                    Err(Round::Unprocessed)
                }
                None => Ok(()),
            }
        };
        match round
            .retry(retry::policy())
            .when(|e| matches!(e, Round::Unprocessed))
            .await
        {
            Ok(()) => Ok(found.into_inner().expect("not poisoned")),
            Err(Round::Unprocessed) => Err(StoreError::Unavailable),
            Err(Round::Failed(e)) => Err(e),
        }
    }
}
