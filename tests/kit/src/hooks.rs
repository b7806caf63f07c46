//! An SDK interceptor made of closures, for tests and benchmarks: record or count
//! the DynamoDB calls, change a request, fail one as the network would, read an
//! answer. `TestApp` (the IAM recorder), the benchmarks and the fault tests each
//! build theirs from [`Hooks`] instead of an `Intercept` impl of their own.

use std::fmt;

use aws_sdk_dynamodb::config::{
    ConfigBag, Intercept, RuntimeComponents,
    interceptors::{
        BeforeSerializationInterceptorContextMut, BeforeTransmitInterceptorContextRef,
        FinalizerInterceptorContextRef,
    },
};

use std::sync::atomic::{AtomicU64, Ordering};

use aws_sdk_dynamodb::{
    operation::{
        batch_get_item::{BatchGetItemInput, BatchGetItemOutput},
        delete_item::{DeleteItemInput, DeleteItemOutput},
        get_item::{GetItemInput, GetItemOutput},
        put_item::{PutItemInput, PutItemOutput},
        query::{QueryInput, QueryOutput},
        transact_write_items::{TransactWriteItemsInput, TransactWriteItemsOutput},
        update_item::{UpdateItemInput, UpdateItemOutput},
    },
    types::{ConsumedCapacity, ReturnConsumedCapacity},
};
use store::Store;

/// What a hook returns: an error fails the call (or the attempt) with it.
pub type HookResult = Result<(), Box<dyn std::error::Error + Send + Sync>>;

type OnInput =
    dyn Fn(&mut BeforeSerializationInterceptorContextMut<'_>) -> HookResult + Send + Sync;
type OnSend = dyn Fn(&BeforeTransmitInterceptorContextRef<'_>) -> HookResult + Send + Sync;
type OnDone = dyn Fn(&FinalizerInterceptorContextRef<'_>) + Send + Sync;

/// The closures to run at three points of every call a client makes.
pub struct Hooks {
    name: &'static str,
    input: Option<Box<OnInput>>,
    send: Option<Box<OnSend>>,
    done: Option<Box<OnDone>>,
}

impl Hooks {
    pub fn new(name: &'static str) -> Self {
        Hooks {
            name,
            input: None,
            send: None,
            done: None,
        }
    }

    /// Sees each call's input before it is serialized, once per call (retries not
    /// again), and may change it (`context.input_mut().downcast_mut::<QueryInput>()`).
    pub fn on_input(
        mut self,
        f: impl Fn(&mut BeforeSerializationInterceptorContextMut<'_>) -> HookResult
        + Send
        + Sync
        + 'static,
    ) -> Self {
        self.input = Some(Box::new(f));
        self
    }

    /// Sees each attempt's HTTP request just before it is sent, retries included.
    pub fn on_send(
        mut self,
        f: impl Fn(&BeforeTransmitInterceptorContextRef<'_>) -> HookResult + Send + Sync + 'static,
    ) -> Self {
        self.send = Some(Box::new(f));
        self
    }

    /// Sees each call once it is over, its output or its error.
    pub fn on_done(
        mut self,
        f: impl Fn(&FinalizerInterceptorContextRef<'_>) + Send + Sync + 'static,
    ) -> Self {
        self.done = Some(Box::new(f));
        self
    }

    /// `store` over the same table, its client running these hooks.
    pub fn on(self, store: &Store) -> Store {
        let config = store
            .client()
            .config()
            .to_builder()
            .interceptor(self)
            .build();
        Store::new(aws_sdk_dynamodb::Client::from_conf(config), store.table())
            .with_settings(store.defaults().clone())
            .with_time_zone(store.time_zone().clone())
    }
}

impl fmt::Debug for Hooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hooks").field("name", &self.name).finish()
    }
}

impl Intercept for Hooks {
    fn name(&self) -> &'static str {
        self.name
    }

    fn modify_before_serialization(
        &self,
        context: &mut BeforeSerializationInterceptorContextMut<'_>,
        _components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> HookResult {
        self.input.as_ref().map_or(Ok(()), |f| f(context))
    }

    fn read_before_transmit(
        &self,
        context: &BeforeTransmitInterceptorContextRef<'_>,
        _components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> HookResult {
        self.send.as_ref().map_or(Ok(()), |f| f(context))
    }

    fn read_after_execution(
        &self,
        context: &FinalizerInterceptorContextRef<'_>,
        _components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> HookResult {
        if let Some(f) = &self.done {
            f(context);
        }
        Ok(())
    }
}

/// Read capacity units since the last reset, in thousandths; items returned; calls.
static MILLI_RCU: AtomicU64 = AtomicU64::new(0);
static ITEMS: AtomicU64 = AtomicU64::new(0);
static CALLS: AtomicU64 = AtomicU64::new(0);

/// The benchmarks' read meter: asks every read for its consumed capacity and adds it up: what DynamoDB would
/// bill. Per call, the size of the items read rounded up to 4 KB, one unit per 4 KB
/// for a strongly consistent read, half for an eventually consistent one (DynamoDB
/// Local computes this), and at least half a unit for a Query that reads nothing
/// (DynamoDB's rule; DynamoDB Local reports nothing for those, so the minimum is
/// applied here). Also counts the items returned and the calls (each page of a
/// Query is one).
pub fn read_capacity() -> Hooks {
    Hooks::new("ReadCapacity")
        .on_input(|context| {
            let input = context.input_mut();
            let total = Some(ReturnConsumedCapacity::Total);
            if let Some(query) = input.downcast_mut::<QueryInput>() {
                query.return_consumed_capacity = total;
            } else if let Some(get) = input.downcast_mut::<GetItemInput>() {
                get.return_consumed_capacity = total;
            } else if let Some(batch) = input.downcast_mut::<BatchGetItemInput>() {
                batch.return_consumed_capacity = total;
            }
            Ok(())
        })
        .on_done(|context| {
            let Some(Ok(output)) = context.output_or_error() else {
                return;
            };
            CALLS.fetch_add(1, Ordering::Relaxed);
            let (units, items) = if let Some(query) = output.downcast_ref::<QueryOutput>() {
                let units = query.consumed_capacity().and_then(|c| c.capacity_units());
                (units.unwrap_or(0.0).max(0.5), query.items().len())
            } else if let Some(get) = output.downcast_ref::<GetItemOutput>() {
                let units = get.consumed_capacity().and_then(|c| c.capacity_units());
                (
                    units.unwrap_or(0.0).max(0.5),
                    usize::from(get.item().is_some()),
                )
            } else if let Some(batch) = output.downcast_ref::<BatchGetItemOutput>() {
                let units = batch
                    .consumed_capacity()
                    .iter()
                    .filter_map(|c| c.capacity_units())
                    .sum::<f64>();
                let items = batch
                    .responses()
                    .map_or(0, |r| r.values().map(Vec::len).sum());
                (units, items)
            } else {
                return;
            };
            MILLI_RCU.fetch_add((units * 1000.0).round() as u64, Ordering::Relaxed);
            ITEMS.fetch_add(items as u64, Ordering::Relaxed);
        })
}

/// Read units, items and calls since the last call (of every store [`read_capacity`]
/// is on).
pub fn take_reads() -> (f64, usize, usize) {
    (
        MILLI_RCU.swap(0, Ordering::Relaxed) as f64 / 1000.0,
        ITEMS.swap(0, Ordering::Relaxed) as usize,
        CALLS.swap(0, Ordering::Relaxed) as usize,
    )
}

/// Write capacity units since the last [`take_writes`], in thousandths; write calls.
static MILLI_WCU: AtomicU64 = AtomicU64::new(0);
static WRITE_CALLS: AtomicU64 = AtomicU64::new(0);

/// The benchmarks' write meter: asks every write (PutItem, UpdateItem, DeleteItem,
/// TransactWriteItems) for the capacity it consumed, the table's and each index's
/// (`INDEXES`), and adds it up, as DynamoDB Local reports it.
pub fn write_capacity() -> Hooks {
    Hooks::new("WriteCapacity")
        .on_input(|context| {
            let input = context.input_mut();
            let indexes = Some(ReturnConsumedCapacity::Indexes);
            if let Some(put) = input.downcast_mut::<PutItemInput>() {
                put.return_consumed_capacity = indexes;
            } else if let Some(update) = input.downcast_mut::<UpdateItemInput>() {
                update.return_consumed_capacity = indexes;
            } else if let Some(delete) = input.downcast_mut::<DeleteItemInput>() {
                delete.return_consumed_capacity = indexes;
            } else if let Some(tx) = input.downcast_mut::<TransactWriteItemsInput>() {
                tx.return_consumed_capacity = indexes;
            }
            Ok(())
        })
        .on_done(|context| {
            let Some(Ok(output)) = context.output_or_error() else {
                return;
            };
            let total = |c: Option<&ConsumedCapacity>| c.and_then(|c| c.capacity_units());
            let units = if let Some(put) = output.downcast_ref::<PutItemOutput>() {
                total(put.consumed_capacity())
            } else if let Some(update) = output.downcast_ref::<UpdateItemOutput>() {
                total(update.consumed_capacity())
            } else if let Some(delete) = output.downcast_ref::<DeleteItemOutput>() {
                total(delete.consumed_capacity())
            } else if let Some(tx) = output.downcast_ref::<TransactWriteItemsOutput>() {
                Some(
                    tx.consumed_capacity()
                        .iter()
                        .filter_map(|c| c.capacity_units())
                        .sum(),
                )
            } else {
                return;
            };
            WRITE_CALLS.fetch_add(1, Ordering::Relaxed);
            MILLI_WCU.fetch_add(
                (units.unwrap_or(0.0) * 1000.0).round() as u64,
                Ordering::Relaxed,
            );
        })
}

/// Write units and write calls since the last call (of every client
/// [`write_capacity`] is on).
pub fn take_writes() -> (f64, usize) {
    (
        MILLI_WCU.swap(0, Ordering::Relaxed) as f64 / 1000.0,
        WRITE_CALLS.swap(0, Ordering::Relaxed) as usize,
    )
}
