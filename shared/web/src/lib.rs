//! The HTTP edge every function is built on: parse the request, check the caller,
//! call the domain and the store, map their answers and refusals to the contract.
//!
//! - `http`, `error`, `auth`, `caller`, `edge`: requests in, answers and errors out;
//! - `app`, `lambda`: a function's start-up (the state built once per cold start).
//!
//! The layers below are crates of their own (docs/architecture.md): `domain` (the
//! rules, types, geo), `telemetry` (logs and metrics), `store` (DynamoDB, the
//! configuration, demo data). Test support is the `testkit` crate (tests/kit).

pub mod app;
pub mod auth;
pub mod caller;
pub mod edge;
pub mod error;
pub mod http;
pub mod lambda;

pub use app::AppState;
pub use auth::Caller;
pub use caller::{
    Admin, AdminNamed, CrewCaller, HospitalCaller, MaybeCaller, NotCrew, NotCrewNamed, SignedIn,
};
pub use error::{ApiError, ApiResult};
pub use http::{ApiJson, ApiPath, ApiQuery};
