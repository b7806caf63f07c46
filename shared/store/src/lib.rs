//! The DynamoDB store: the only code that sees an `AttributeValue`. Items map with
//! `serde_dynamo`; requests are GetItem, Query, BatchGetItem, TransactWriteItems, and
//! a few single-item UpdateItem, PutItem and DeleteItem (see docs/data-model.md).
//!
//! # Where does X live
//!
//! Every domain method is on a handle, one per aggregate, reached from the
//! [`Store`] by its name: `store.bookings().book(..)`, `store.fleet().add_ambulance(..)`,
//! `store.hospitals().remove_hospital(..)`. A handle is a `Copy` struct over
//! `&Store`, and it and every method of it are in the file named after it, so the
//! handle a call names is the file to open. A write that changes several aggregates
//! is on the handle a caller looks for (the booking's, the new ambulance's, the
//! removed hospital's), in one transaction with conditions.
//!
//! | handle | file | what it does |
//! |---|---|---|
//! | `store.users()` | `users.rs` | accounts and their uniqueness guards, profiles, the admin's account |
//! | `store.sessions()` | `sessions.rs` | sessions: start, refresh (rotation), end |
//! | `store.hospitals()` | `hospitals.rs` | add, remove with all its ambulances, read, page, count, the nearest search, the index build |
//! | `store.fleet()` | `fleet.rs` | ambulances: add, remove, read, list, count, an admin's status change, the `fleetcell` backfill |
//! | `store.crew()` | `crew.rs` | crew accounts (`CrewAccounts`): make, read, page, move, remove |
//! | `store.hospital_staff()` | `hospital_staff.rs` | hospital staff accounts (`HospitalStaffAccounts`): make |
//! | `store.receiving()` | `receiving.rs` | the receiving hospital: its board, the handover, the crew's change of destination and the alternative to a diverted one |
//! | `store.bookings()` | `bookings.rs` | book, move a booking (frees its ambulance), read, page, count, the open-bookings guard's ids |
//! | `store.emergencies()` | `emergencies.rs` | the one-tap emergency: the nearest free ambulance assigned |
//! | `store.dispatch()` | `dispatch.rs` | the views of trips under way: the crew's job, a booking's tracking, the live map |
//! | `store.positions()` | `positions.rs` | position reports, the free entries, the nearest free search, the repair, crew presence (heartbeats, sign-outs) |
//! | `store.alerts()` | `alerts.rs` | the dispatcher's alerts: raise, list, acknowledge, close |
//! | `store.deadlines()` | `deadlines.rs` | the clock's sweep of answer deadlines, the manual reassign |
//! | `store.push()` | `push.rs` | Web Push subscriptions and the devices of each recipient |
//! | `store.shares()` | `shares.rs` | a requester's changes after the tap: patient details, tracking links |
//! | `store.privacy()` | `privacy.rs` | personal data: an account deleted (its bookings erased, by the clock past one transaction), the export, the retention sweep, who read a patient's details |
//! | `store.limits()` | `limits.rs` | rate limits and the login throttle |
//! | `store.reports()` | `reports.rs` | the response-time report: finished trips folded into days, the report read |
//! | `store.bulk()` | `bulk.rs` | bulk loads for benchmarks and big test sets |
//! | `store.stored_settings()` | `stored_settings.rs` | the settings admins changed: read (what `Store::settings` holds a while), changed with its audit record |
//! | `store.audit()` | `audit.rs` | the audit trail: a record written in the transaction of the change it describes, pages newest first by booking, ambulance or admin |
//! | `store.migrations()` | `migrations.rs` | `manage migrate` |
//!
//! The `Store` keeps only its plumbing, with no domain method: its construction and
//! clock and the accessors above (here); `table`: the client and the shared reads
//! (by key, Query with the paginator, BatchGetItem, sequences); `tx`: the one way to
//! write ([`Write`], [`Tx`] with labels); `paging`: pages of the `list` index. The
//! other files have no handle: `retry` (the one retry policy), `keys` and `schema`
//! (every key and index), `counters`, `open_bookings` (the guard's writes),
//! `hospital_index` (the nearest-hospital search from an in-memory copy, kept current
//! in the same transactions as hospital writes: a crate-private `Index`, used through
//! `store.hospitals()`), `hospital_snapshot` (the copy itself and its chunks'
//! encoding, no table access: the `Store` holds it) and `settings_cache` (the
//! settings an instance holds, read again at most every 30 s: `Store::settings`).
//! `tests/api/docs.rs`
//! (`store_handles_live_in_their_files`) fails when an `impl` of a handle is outside
//! its file, an `impl Store` outside the plumbing files, or this table drifts.

pub mod alerts;
pub mod audit;
pub mod bookings;
pub mod bulk;
pub mod config;
pub mod counters;
pub mod crew;
pub mod deadlines;
pub mod dispatch;
pub mod emergencies;
pub mod error;
pub mod fleet;
pub mod hospital_index;
mod hospital_snapshot;
pub mod hospital_staff;
pub mod hospitals;
pub mod keys;
pub mod limits;
pub mod migrations;
pub mod open_bookings;
pub mod paging;
pub mod positions;
pub mod privacy;
pub mod push;
pub mod receiving;
pub mod reports;
pub mod retry;
pub mod schema;
pub mod seed;
pub mod sessions;
pub mod settings_cache;
pub mod shares;
pub mod stored_settings;
pub mod table;
pub mod tx;
pub mod users;

pub use error::{StoreError, StoreResult};
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

    /// Hospital staff accounts (`hospital_staff.rs`).
    pub fn hospital_staff(&self) -> hospital_staff::HospitalStaffAccounts<'_> {
        hospital_staff::HospitalStaffAccounts { store: self }
    }

    /// The receiving hospital's side of trips: its board, the handover, the crew's
    /// change of destination (`receiving.rs`).
    pub fn receiving(&self) -> receiving::Receiving<'_> {
        receiving::Receiving { store: self }
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

    /// Where ambulances are: reports, the free entries, the nearest free search, crew presence (`positions.rs`).
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

    /// Personal data: an account deleted, the export, retention, who looked (`privacy.rs`).
    pub fn privacy(&self) -> privacy::Privacy<'_> {
        privacy::Privacy { store: self }
    }

    /// Rate limits and the login throttle (`limits.rs`).
    pub fn limits(&self) -> limits::Limits<'_> {
        limits::Limits { store: self }
    }

    /// The response-time report: trips folded into days, the report read (`reports.rs`).
    pub fn reports(&self) -> reports::Reports<'_> {
        reports::Reports { store: self }
    }

    /// Bulk loads for benchmarks and big test sets (`bulk.rs`).
    pub fn bulk(&self) -> bulk::Bulk<'_> {
        bulk::Bulk { store: self }
    }

    /// The settings admins changed: read, changed (`stored_settings.rs`).
    pub fn stored_settings(&self) -> stored_settings::StoredSettings<'_> {
        stored_settings::StoredSettings { store: self }
    }

    /// The audit trail: records written with the changes, pages of it (`audit.rs`).
    pub fn audit(&self) -> audit::Audit<'_> {
        audit::Audit { store: self }
    }

    /// `manage migrate`: old items brought up to date (`migrations.rs`).
    pub fn migrations(&self) -> migrations::Migrations<'_> {
        migrations::Migrations { store: self }
    }
}
