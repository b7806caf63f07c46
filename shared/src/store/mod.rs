//! The DynamoDB store: the only code that sees an `AttributeValue`. Items map with
//! `serde_dynamo`; requests are GetItem, Query, BatchGetItem, TransactWriteItems, and
//! a few single-item UpdateItem, PutItem and DeleteItem (see docs/data-model.md).
//!
//! - `table`: the client and the shared reads (by key, Query with the paginator,
//!   BatchGetItem, sequences); `tx`: the one way to write ([`Write`], [`Tx`] with
//!   labels); `retry`: the one retry policy; `keys` and `schema`: every key and index;
//! - one module per entity (`users`, `hospitals`, `ambulances`, `bookings`, `crew`,
//!   `positions`) with its items and reads; `counters`; `paging` (pages of the
//!   `list` index); `dispatch`: the tracking and live-map reads;
//! - `cross_aggregate`: the writes that change more than one entity at once;
//! - `hospital_index`: the nearest-hospital search from an in-memory copy, kept
//!   current in the same transactions as hospital writes; `hospital_snapshot`: the
//!   copy itself and its chunks' encoding (no table access: the `Store` holds it).

pub mod alerts;
pub mod bookings;
pub mod bulk;
pub mod counters;
pub mod crew;
pub mod cross_aggregate;
pub mod deadlines;
pub mod dispatch;
pub mod emergencies;
pub mod fleet;
pub mod hospital_index;
mod hospital_snapshot;
pub mod hospitals;
pub mod keys;
pub mod limits;
pub mod migrations;
pub mod open_bookings;
pub mod paging;
pub mod positions;
pub mod push;
pub mod retry;
pub mod schema;
pub mod sessions;
pub mod shares;
pub mod table;
pub mod tx;
pub mod users;

pub use keys::{Key, key};
pub use table::{Item, Store, connect, db_error};
pub use tx::{Label, Refused, Tx, TxError, Write};
