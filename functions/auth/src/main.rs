//! Lambda entry point: build the state once at cold start, then serve.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::telemetry::init();
    // Hash the login dummy off the init path, so the first unknown-user login costs
    // the same as any other without slowing cold start.
    tokio::task::spawn_blocking(shared::auth::warm_up);
    // The secret comes from Secrets Manager in AWS, from JWT_SECRET locally.
    let config = shared::config::Config::load().await?;
    let state = shared::AppState::new(config).await;
    lambda_http::run(auth::router(state)).await
}
