//! The ambulance service's domain, once. Every function crate is a thin adapter over
//! this crate: parse the request, check the caller, call in here, map to JSON.

pub mod auth;
pub mod booking;
pub mod config;
pub mod error;
pub mod geo;
pub mod http;
pub mod seed;
pub mod store;
pub mod telemetry;
pub mod types;

#[cfg(feature = "test-support")]
pub mod testing;

use std::sync::Arc;

pub use auth::{AdminCaller, Caller, MaybeCaller};
pub use error::{ApiError, ApiResult};
pub use http::{ApiJson, ApiPath, ApiQuery};
pub use store::Store;

/// What every handler gets: the store and the token keys, built once per cold start.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub auth: Arc<auth::AuthKeys>,
    pub config: Arc<config::Config>,
}

impl AppState {
    pub async fn new(config: config::Config) -> Self {
        let client = store::connect(&config).await;
        AppState {
            store: Store::new(client, config.table_name.clone()),
            auth: Arc::new(auth::AuthKeys::new(&config.jwt_secret)),
            config: Arc::new(config),
        }
    }
}
