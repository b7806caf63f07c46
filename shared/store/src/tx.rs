//! One way to write. A [`Write`] is one item's put, update or delete with its
//! condition, values set through serde; a [`Tx`] is a list of writes, each with a
//! [`Label`], that DynamoDB applies all or none (TransactWriteItems). When a
//! condition fails, [`Store::commit`] says which writes refused by their labels, so
//! the order of the items never decides which error a user sees:
//!
//! ```ignore
//! let mut tx = Tx::new();
//! tx.push(Label::Booking, Write::put(&booking_item).absent());
//! tx.push(Label::Ambulance(id), take_ambulance);
//! match store.commit(tx).await {
//!     Err(TxError::Refused(r)) if r.by(Label::Ambulance(id)) => Err(ambulance_taken()),
//!     other => other.map_err(TxError::into_api),
//! }
//! ```

use std::collections::HashMap;

use aws_sdk_dynamodb::{
    Client,
    error::SdkError,
    operation::{
        delete_item::builders::DeleteItemFluentBuilder,
        put_item::builders::PutItemFluentBuilder,
        transact_write_items::TransactWriteItemsError,
        update_item::{UpdateItemError, builders::UpdateItemFluentBuilder},
    },
    types::{
        AttributeValue, ConditionCheck, Delete, Put, ReturnValue,
        ReturnValuesOnConditionCheckFailure, TransactWriteItem, Update,
    },
};
use backon::Retryable;
use serde::{Serialize, de::DeserializeOwned};

use super::{
    keys::Key,
    retry,
    table::{Item, Store, db_error, from_item, is_throttling, to_item},
};
use crate::error::StoreError;
use domain::types::Id;

/// What one conditional write outside a transaction answered: `None` when its
/// condition failed or it raced a transaction on the item (the three write calls have
/// error types of their own with the same two questions, hence a macro).
macro_rules! held {
    ($out:expr) => {
        match $out {
            Ok(out) => Ok(Some(out)),
            Err(SdkError::ServiceError(e))
                if e.err().is_conditional_check_failed_exception()
                    || e.err().is_transaction_conflict_exception() =>
            {
                Ok(None)
            }
            Err(e) => Err(db_error(e)),
        }
    };
}

/// What an item of a transaction is, for telling which condition refused it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Label {
    User,
    /// A sign-in session (a refresh-token family, `sessions`).
    Session,
    UsernameGuard,
    EmailGuard,
    /// The guard of the email a profile edit gives up.
    OldEmailGuard,
    Hospital(Id),
    Ambulance(Id),
    AmbulanceNumberGuard(Id),
    Booking(Id),
    /// An ambulance's `FREEPOS` or `POSITION` item (`positions`).
    FreeEntry(Id),
    Position(Id),
    IdempotencyKey,
    /// A user's one open emergency (`store::emergencies`).
    EmergencyGuard,
    /// A rate limit's window (`limits::count_write`).
    RateLimit,
    /// A tracking link's item (`store::shares`).
    ShareLink,
    /// The user's open-bookings guard (`open_bookings`).
    OpenBookings,
    /// A shard of a counter (`counters`): never conditional.
    Counter,
    /// The nearest-hospital index's items (`hospital_index`); only its version
    /// item is conditional.
    HospitalIndex,
    /// An alert for the dispatcher (`alerts`).
    Alert,
    /// The settings item (`stored_settings`).
    Settings,
    /// A copy of an audit record (`audit`): never refused but by a bug.
    Audit,
    /// The open `NO_AMBULANCE` alert of an area (`alerts`).
    AreaAlert,
    /// A deleted account's erasure still to finish (`privacy`).
    Erasure,
    /// A Web Push subscription (`push`), and one it replaces beyond the cap.
    Device,
    OldDevice,
    /// A day of the response-time report (`reports`).
    ReportDay,
}

enum Op {
    Put(Item),
    Update(Key, String),
    Delete(Key),
    /// Writes nothing: only its condition counts.
    Check(Key),
}

/// One item's write, with its condition and the names and values its expressions use.
pub struct Write {
    op: Op,
    condition: Option<String>,
    names: HashMap<String, String>,
    values: Item,
    /// A value that did not serialize: reported when the write is sent.
    error: Option<StoreError>,
}

/// A [`Write`] taken apart to build a request.
struct Parts {
    op: Op,
    condition: Option<String>,
    names: Option<HashMap<String, String>>,
    values: Option<Item>,
}

impl Write {
    fn of(op: Op) -> Write {
        Write {
            op,
            condition: None,
            names: HashMap::new(),
            values: Item::new(),
            error: None,
        }
    }

    /// Puts `item` (any `Serialize` with `pk` and `sk`), replacing what is there.
    pub fn put<T: Serialize>(item: &T) -> Write {
        match to_item(item) {
            Ok(item) => Write::of(Op::Put(item)),
            Err(e) => Write {
                error: Some(e),
                ..Write::of(Op::Put(Item::new()))
            },
        }
    }

    /// Updates the item at `key` with an update expression (`SET ...`, `ADD ...`).
    pub fn update(key: Key, expression: impl Into<String>) -> Write {
        Write::of(Op::Update(key, expression.into()))
    }

    pub fn delete(key: Key) -> Write {
        Write::of(Op::Delete(key))
    }

    /// A condition on the item at `key` that writes nothing (ConditionCheck): the
    /// transaction commits only if it holds.
    pub fn check(key: Key) -> Write {
        Write::of(Op::Check(key))
    }

    /// Replaces an update's expression (for expressions built from the values set).
    pub(crate) fn set_expression(mut self, expression: String) -> Write {
        if let Op::Update(_, e) = &mut self.op {
            *e = expression;
        }
        self
    }

    /// Adds a condition (joined with AND to any earlier one).
    pub fn when(mut self, condition: impl AsRef<str>) -> Write {
        let condition = condition.as_ref();
        self.condition = Some(match self.condition.take() {
            Some(earlier) => format!("{earlier} AND {condition}"),
            None => condition.to_owned(),
        });
        self
    }

    /// Only if no item has this key yet: the conditional put of unique things (a new
    /// id, a username guard, an idempotency key).
    pub fn absent(self) -> Write {
        self.when("attribute_not_exists(pk)")
    }

    /// Only if the item exists.
    pub fn exists(self) -> Write {
        self.when("attribute_exists(pk)")
    }

    /// `#placeholder` stands for the attribute `name` (for reserved words).
    pub fn name(mut self, placeholder: &str, name: &str) -> Write {
        self.names.insert(placeholder.to_owned(), name.to_owned());
        self
    }

    /// `:placeholder` is `value`, as serde_dynamo writes it.
    pub fn value(mut self, placeholder: &str, value: impl Serialize) -> Write {
        match serde_dynamo::to_attribute_value::<_, AttributeValue>(value) {
            Ok(v) => {
                self.values.insert(placeholder.to_owned(), v);
            }
            Err(e) => self.error = Some(StoreError::internal(e)),
        }
        self
    }

    /// What a request is built from: the operation, its condition and the names
    /// and values these use (None when there are none); or the error a value made.
    fn parts(self) -> Result<Parts, StoreError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        Ok(Parts {
            op: self.op,
            condition: self.condition,
            names: (!self.names.is_empty()).then_some(self.names),
            values: (!self.values.is_empty()).then_some(self.values),
        })
    }

    fn into_transact_item(self, table: &str) -> Result<TransactWriteItem, StoreError> {
        let Parts {
            op,
            condition,
            names,
            values,
        } = self.parts()?;
        // The SDK's four item builders share these setters, but no trait.
        macro_rules! conditional {
            ($builder:expr) => {
                $builder
                    .table_name(table)
                    .set_condition_expression(condition)
                    .set_expression_attribute_names(names)
                    .set_expression_attribute_values(values)
                    .build()
                    .map_err(StoreError::internal)?
            };
        }
        let item = match op {
            Op::Put(item) => {
                TransactWriteItem::builder().put(conditional!(Put::builder().set_item(Some(item))))
            }
            Op::Update(key, expression) => TransactWriteItem::builder().update(conditional!(
                Update::builder()
                    .set_key(Some(key.item()))
                    .update_expression(expression)
            )),
            Op::Delete(key) => TransactWriteItem::builder()
                .delete(conditional!(Delete::builder().set_key(Some(key.item())))),
            Op::Check(key) => TransactWriteItem::builder().condition_check(conditional!(
                ConditionCheck::builder().set_key(Some(key.item()))
            )),
        };
        Ok(item.build())
    }

    /// This delete as a single DeleteItem request (see `Store::delete_if`).
    fn delete_item(
        self,
        client: &Client,
        table: &str,
    ) -> Result<DeleteItemFluentBuilder, StoreError> {
        let p = self.parts()?;
        let Op::Delete(key) = p.op else {
            return Err(StoreError::internal("delete_item of a put or update"));
        };
        Ok(client
            .delete_item()
            .table_name(table)
            .set_key(Some(key.item()))
            .set_condition_expression(p.condition)
            .set_expression_attribute_names(p.names)
            .set_expression_attribute_values(p.values))
    }

    /// This put as a single PutItem request (see `Store::put_if`).
    fn put_item(self, client: &Client, table: &str) -> Result<PutItemFluentBuilder, StoreError> {
        let p = self.parts()?;
        let Op::Put(item) = p.op else {
            return Err(StoreError::internal("put_item of an update or delete"));
        };
        Ok(client
            .put_item()
            .table_name(table)
            .set_item(Some(item))
            .set_condition_expression(p.condition)
            .set_expression_attribute_names(p.names)
            .set_expression_attribute_values(p.values))
    }

    /// This update as a single UpdateItem request (see `Store::update_returning`).
    pub(crate) fn update_item(
        self,
        client: &Client,
        table: &str,
    ) -> Result<UpdateItemFluentBuilder, StoreError> {
        let p = self.parts()?;
        let Op::Update(key, expression) = p.op else {
            return Err(StoreError::internal("update_item of a put or delete"));
        };
        Ok(client
            .update_item()
            .table_name(table)
            .set_key(Some(key.item()))
            .update_expression(expression)
            .set_condition_expression(p.condition)
            .set_expression_attribute_names(p.names)
            .set_expression_attribute_values(p.values))
    }
}

/// Writes applied all or none.
#[derive(Default)]
pub struct Tx {
    writes: Vec<(Label, Write)>,
}

impl Tx {
    pub fn new() -> Tx {
        Tx::default()
    }

    pub fn push(&mut self, label: Label, write: Write) -> &mut Tx {
        self.writes.push((label, write));
        self
    }

    pub fn len(&self) -> usize {
        self.writes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.writes.is_empty()
    }
}

/// The writes whose conditions failed, by label.
#[derive(Debug, Clone)]
pub struct Refused(Vec<Label>);

impl Refused {
    pub fn by(&self, label: Label) -> bool {
        self.0.contains(&label)
    }

    pub fn labels(&self) -> &[Label] {
        &self.0
    }
}

#[derive(Debug)]
pub enum TxError {
    /// A condition failed: the caller decides what that means (409, 404...).
    Refused(Refused),
    Api(StoreError),
}

impl From<StoreError> for TxError {
    fn from(e: StoreError) -> Self {
        TxError::Api(e)
    }
}

impl TxError {
    /// For transactions whose conditions can only fail through a bug: a refusal is a 500.
    pub fn into_api(self) -> StoreError {
        self.or_refused(|r| StoreError::internal(format!("transaction refused: {r:?}")))
    }

    /// The error, with a refusal mapped by `refused`.
    pub fn or_refused(self, refused: impl FnOnce(Refused) -> StoreError) -> StoreError {
        match self {
            TxError::Refused(r) => refused(r),
            TxError::Api(e) => e,
        }
    }
}

/// How one attempt of a transaction ended.
enum Attempt {
    /// Lost a race on an item with another transaction: worth another try.
    Conflict,
    Failed(TxError),
}

/// Reads DynamoDB's cancellation reasons (one per item, in order) as labels.
fn attempt_error(
    err: SdkError<TransactWriteItemsError, aws_sdk_dynamodb::config::http::HttpResponse>,
    labels: &[Label],
) -> Attempt {
    let reasons = match &err {
        SdkError::ServiceError(service) => match service.err() {
            TransactWriteItemsError::TransactionCanceledException(e) => e.cancellation_reasons(),
            TransactWriteItemsError::TransactionInProgressException(_) => return Attempt::Conflict,
            _ => return Attempt::Failed(TxError::Api(db_error(err))),
        },
        _ => return Attempt::Failed(TxError::Api(db_error(err))),
    };
    let code = |c: &str| reasons.iter().any(|r| r.code() == Some(c));
    let refused: Vec<Label> = labels
        .iter()
        .zip(reasons)
        .filter(|(_, r)| r.code() == Some("ConditionalCheckFailed"))
        .map(|(label, _)| *label)
        .collect();
    if !refused.is_empty() {
        Attempt::Failed(TxError::Refused(Refused(refused)))
    } else if code("TransactionConflict") {
        Attempt::Conflict
    } else if reasons.iter().any(|r| is_throttling(r.code())) {
        tracing::warn!(?reasons, "transaction throttled");
        Attempt::Failed(TxError::Api(StoreError::Unavailable))
    } else {
        Attempt::Failed(TxError::Api(StoreError::internal(format!(
            "transaction cancelled: {reasons:?}"
        ))))
    }
}

impl Store {
    /// Runs a transaction, retrying (the store's policy) while it only loses races on
    /// items; a failed condition comes back as [`TxError::Refused`] naming the labels.
    ///
    /// `pub` (not `pub(crate)`) for the API tests, which race a raw status move
    /// against the routes (`tests/api/fleet.rs`).
    pub async fn commit(&self, tx: Tx) -> Result<(), TxError> {
        self.commit_with(tx, retry::policy()).await
    }

    /// [`Store::commit`] with another patience for conflicts (see `retry`).
    pub(crate) async fn commit_with(
        &self,
        tx: Tx,
        policy: backon::ExponentialBuilder,
    ) -> Result<(), TxError> {
        let mut labels = Vec::with_capacity(tx.len());
        let mut items = Vec::with_capacity(tx.len());
        for (label, write) in tx.writes {
            labels.push(label);
            items.push(write.into_transact_item(self.table())?);
        }
        let attempt = || async {
            self.client()
                .transact_write_items()
                .set_transact_items(Some(items.clone()))
                .send()
                .await
                .map(|_| ())
                .map_err(|e| attempt_error(e, &labels))
        };
        match attempt
            .retry(policy)
            .when(|e| matches!(e, Attempt::Conflict))
            .await
        {
            Ok(()) => Ok(()),
            Err(Attempt::Failed(e)) => Err(e),
            Err(Attempt::Conflict) => {
                tracing::warn!("transaction still conflicting after retries");
                Err(TxError::Api(StoreError::Unavailable))
            }
        }
    }

    /// One UpdateItem (outside a transaction), answering the item as stored after it;
    /// `Ok(None)` when its condition failed or it raced a transaction on the item.
    ///
    /// `pub` for the API tests, which change a stored user under a live session
    /// (`tests/api/sessions.rs`).
    pub async fn update_returning<T: DeserializeOwned>(
        &self,
        write: Write,
    ) -> Result<Option<T>, StoreError> {
        let out = write
            .update_item(self.client(), self.table())?
            .return_values(ReturnValue::AllNew)
            .send()
            .await;
        match held!(out)? {
            Some(out) => from_item(out.attributes.unwrap_or_default()).map(Some),
            None => Ok(None),
        }
    }

    /// One conditional UpdateItem that, when its condition fails, answers the item as
    /// it was (`Err(Some(item))`; `Err(None)`: absent, or a transaction raced it):
    /// DynamoDB returns it with the refusal, so knowing why costs no read.
    pub(crate) async fn update_or_old(
        &self,
        write: Write,
    ) -> Result<Result<(), Option<Item>>, StoreError> {
        let out = write
            .update_item(self.client(), self.table())?
            .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
            .send()
            .await;
        match out {
            Ok(_) => Ok(Ok(())),
            Err(SdkError::ServiceError(e)) => match e.err() {
                UpdateItemError::ConditionalCheckFailedException(refused) => {
                    Ok(Err(refused.item.clone()))
                }
                other if other.is_transaction_conflict_exception() => Ok(Err(None)),
                _ => Err(db_error(SdkError::ServiceError(e))),
            },
            Err(e) => Err(db_error(e)),
        }
    }

    /// One conditional DeleteItem outside a transaction: `false` when its condition
    /// failed (nothing deleted).
    ///
    /// `pub` for the API tests, which delete a user under a live session
    /// (`tests/api/sessions.rs`).
    pub async fn delete_if(&self, write: Write) -> Result<bool, StoreError> {
        Ok(held!(write.delete_item(self.client(), self.table())?.send().await)?.is_some())
    }

    /// One conditional PutItem outside a transaction: `false` when its condition
    /// failed (nothing written).
    pub(crate) async fn put_if(&self, write: Write) -> Result<bool, StoreError> {
        Ok(held!(write.put_item(self.client(), self.table())?.send().await)?.is_some())
    }

    /// One PutItem outside a transaction, replacing what is there.
    pub(crate) async fn put_item<T: Serialize>(&self, item: &T) -> Result<(), StoreError> {
        self.client()
            .put_item()
            .table_name(self.table())
            .set_item(Some(to_item(item)?))
            .send()
            .await
            .map_err(db_error)?;
        Ok(())
    }

    /// One DeleteItem outside a transaction (no item: nothing happens).
    pub(crate) async fn delete_item(&self, key: &Key) -> Result<(), StoreError> {
        self.client()
            .delete_item()
            .table_name(self.table())
            .set_key(Some(key.item()))
            .send()
            .await
            .map_err(db_error)?;
        Ok(())
    }

    /// A transaction whose conditions can only fail through a bug.
    pub(crate) async fn commit_or_500(&self, tx: Tx) -> Result<(), StoreError> {
        self.commit(tx).await.map_err(TxError::into_api)
    }
}
