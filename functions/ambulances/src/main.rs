//! Lambda entry point: build the state once at cold start, then serve.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::telemetry::init();
    // The secret comes from Secrets Manager in AWS, from JWT_SECRET locally.
    let config = shared::config::Config::load().await?;
    let state = shared::AppState::new(config).await;
    lambda_http::run(ambulances::router(state)).await
}
