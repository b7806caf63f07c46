//! A function's `main`: the state built once at cold start, then the Lambda runtime.

use axum::Router;

use crate::{app::AppState, edge};
use store::config::Config;

/// Serves `router` on Lambda: JSON logs, the configuration (the secrets from
/// Secrets Manager in AWS, JWT_SECRET locally) and the DynamoDB client, once; in AWS
/// only requests that came through CloudFront reach it (`edge::guard`).
pub fn serve(router: fn(AppState) -> Router) -> Result<(), lambda_http::Error> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(async {
            telemetry::init();
            let config = Config::load().await?;
            let origin_secrets = config.origin_secrets.clone();
            let state = AppState::new(config).await;
            lambda_http::run(edge::guard(router(state), origin_secrets.as_ref())).await
        })
}
