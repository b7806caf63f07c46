//! `serve [PORT]`: every function's router (`api_tests::system`, routing
//! `/api/<group>` as API Gateway does) on 127.0.0.1:PORT (default 9100), one
//! process, the state built once as a Lambda builds it at cold start: configuration
//! from the environment (TABLE_NAME, DYNAMODB_ENDPOINT, APP_ENV, JWT_SECRET, ...).
//! For `make load`; not a Lambda. Stops on SIGTERM or Ctrl-C.
//!
//! `DB_TIMEOUTS=patient` replaces the production DynamoDB timeouts (800 ms per
//! attempt, 2.5 s per operation: a dead database answers 503 fast) with 10 s / 30 s,
//! for a DynamoDB Local that is slow because the machine is saturated, not down.

use std::time::Duration;

use store::config::Config;
use web::AppState;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    telemetry::init();
    let port: u16 = match std::env::args().nth(1) {
        Some(p) => p.parse().map_err(|_| format!("not a port: {p}"))?,
        None => 9100,
    };
    let mut config = Config::from_env()?;
    match std::env::var("DB_TIMEOUTS").as_deref() {
        Ok("patient") => {
            config.db_attempt_timeout = Duration::from_secs(10);
            config.db_operation_timeout = Duration::from_secs(30);
        }
        Ok("production") | Err(_) => {}
        Ok(other) => return Err(format!("DB_TIMEOUTS={other}: patient or production").into()),
    }
    eprintln!(
        "serve: DynamoDB timeouts {:?} per attempt, {:?} per operation",
        config.db_attempt_timeout, config.db_operation_timeout
    );
    let state = AppState::new(config).await;
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    eprintln!(
        "serve: the {} routers on http://{}",
        api_tests::FUNCTIONS.len(),
        listener.local_addr()?
    );
    axum::serve(listener, api_tests::system(state))
        .with_graceful_shutdown(async {
            let mut term =
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
                    .expect("SIGTERM handler");
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
        })
        .await?;
    Ok(())
}
