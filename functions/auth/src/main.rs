//! Lambda entry point: build the state once at cold start, then serve.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    // Hash the login dummy off the init path, so the first unknown-user login costs
    // the same as any other without slowing cold start.
    tokio::task::spawn_blocking(shared::auth::warm_up);
    shared::run(auth::router).await
}
