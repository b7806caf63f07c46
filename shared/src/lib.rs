//! The ambulance service's domain, once. Every function crate is a thin adapter over
//! this crate: parse the request, check the caller, call in here, map to JSON.
//!
//! - `domain`: the entities and their rules (no database);
//! - `store`: DynamoDB (items, keys, queries, transactions);
//! - `types`: newtypes that parse input; `http`, `error`, `auth`, `caller`, `edge`:
//!   the HTTP edge;
//! - `app`, `config`, `lambda`, `telemetry`: a function's start-up;
//! - `geo`: the nearest search; `seed`: local demo data. Test support is
//!   the `testkit` crate (tests/kit).

pub mod app;
pub mod auth;
pub mod caller;
pub mod config;
pub mod domain;
pub mod edge;
pub mod error;
pub mod geo;
pub mod http;
pub mod lambda;
pub mod seed;
pub mod store;
pub mod telemetry;
pub mod types;

pub use app::AppState;
pub use auth::Caller;
pub use caller::{
    Admin, AdminNamed, CrewCaller, HospitalCaller, MaybeCaller, NotCrew, NotCrewNamed, SignedIn,
};
pub use error::{ApiError, ApiResult};
pub use http::{ApiJson, ApiPath, ApiQuery};
pub use store::Store;
