//! What every handler gets, built once per cold start.

use std::sync::Arc;

use crate::auth::AuthKeys;
use store::config::Config;

/// The store and the token keys.
#[derive(Clone)]
pub struct AppState {
    pub store: store::Store,
    pub auth: Arc<AuthKeys>,
    pub config: Arc<Config>,
}

impl AppState {
    pub async fn new(config: Config) -> Self {
        let client = store::connect(&config).await;
        AppState {
            store: store::Store::new(client, config.table_name.clone())
                .with_settings(domain::settings::Settings::with_answer_times(
                    config.answer_times,
                ))
                .with_time_zone(config.time_zone.clone()),
            auth: Arc::new(AuthKeys::new(&config.jwt_secret)),
            config: Arc::new(config),
        }
    }
}
