//! Lambda entry point: build the state once at cold start, then serve.

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::run(booking::router).await
}
