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

impl Store {
    /// Users and their uniqueness guards (`users.rs`).
    pub fn users(&self) -> users::Users<'_> {
        users::Users { store: self }
    }

    /// Sessions: what a refresh token renews (`sessions.rs`).
    pub fn sessions(&self) -> sessions::Sessions<'_> {
        sessions::Sessions { store: self }
    }

    /// Hospitals: add, remove (with their ambulances), read, page, the nearest search (`hospitals.rs`).
    pub fn hospitals(&self) -> hospitals::Hospitals<'_> {
        hospitals::Hospitals { store: self }
    }

    /// Ambulances: add, remove, read, page, an admin's status change (`fleet.rs`).
    pub fn fleet(&self) -> fleet::Fleet<'_> {
        fleet::Fleet { store: self }
    }

    /// Crew accounts: made, read, moved and removed (`crew.rs`).
    pub fn crew(&self) -> crew::CrewAccounts<'_> {
        crew::CrewAccounts { store: self }
    }

    /// Bookings: book, move, read, page, count (`bookings.rs`).
    pub fn bookings(&self) -> bookings::Bookings<'_> {
        bookings::Bookings { store: self }
    }

    /// The one-tap emergency: the nearest free ambulance assigned (`emergencies.rs`).
    pub fn emergencies(&self) -> emergencies::Emergencies<'_> {
        emergencies::Emergencies { store: self }
    }

    /// The views of trips under way: the crew's job, a booking's tracking, the live map (`dispatch.rs`).
    pub fn dispatch(&self) -> dispatch::Dispatch<'_> {
        dispatch::Dispatch { store: self }
    }

    /// Where ambulances are: reports, the free entries, the nearest free search (`positions.rs`).
    pub fn positions(&self) -> positions::Positions<'_> {
        positions::Positions { store: self }
    }

    /// The dispatcher's alerts (`alerts.rs`).
    pub fn alerts(&self) -> alerts::Alerts<'_> {
        alerts::Alerts { store: self }
    }

    /// The clock's work: answer deadlines, the manual reassign (`deadlines.rs`).
    pub fn deadlines(&self) -> deadlines::Deadlines<'_> {
        deadlines::Deadlines { store: self }
    }

    /// Web Push: subscriptions, devices, recipients (`push.rs`).
    pub fn push(&self) -> push::Push<'_> {
        push::Push { store: self }
    }

    /// What a requester changes after the tap: patient details, tracking links (`shares.rs`).
    pub fn shares(&self) -> shares::Shares<'_> {
        shares::Shares { store: self }
    }

    /// Rate limits and the login throttle (`limits.rs`).
    pub fn limits(&self) -> limits::Limits<'_> {
        limits::Limits { store: self }
    }

    /// Bulk loads for benchmarks and big test sets (`bulk.rs`).
    pub fn bulk(&self) -> bulk::Bulk<'_> {
        bulk::Bulk { store: self }
    }

    /// `manage migrate`: old items brought up to date (`migrations.rs`).
    pub fn migrations(&self) -> migrations::Migrations<'_> {
        migrations::Migrations { store: self }
    }
}
