//! Lambda entry point, or with `--every-secs N` the local stack's own schedule: the
//! state is built once at cold start; the sweeps are `clock::sweep_for`.

use std::time::Duration;

use lambda_http::{lambda_runtime, service_fn};
use store::config::Config;
use web::AppState;

fn main() -> Result<(), lambda_http::Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let every = store::config::local_every(&args, "--every-secs", Duration::from_secs(1), 1..=60)
        .map_err(|e| format!("clock: {e}"))?;
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(async {
            telemetry::init();
            let state = AppState::new(Config::for_background()?).await;
            let store = &state.store;
            match every {
                // Until stopped: the local stack stops it with the rest.
                Some(every) => {
                    tracing::info!(
                        every_secs = every.as_secs(),
                        "the clock sweeps until stopped"
                    );
                    loop {
                        clock::sweep_for(store, Duration::MAX, every).await.ok();
                    }
                }
                None => {
                    lambda_runtime::run(service_fn(
                        |_: lambda_runtime::LambdaEvent<serde_json::Value>| async move {
                            let sweeps =
                                clock::sweep_for(store, clock::WINDOW, clock::EVERY).await?;
                            Ok::<_, lambda_http::Error>(serde_json::json!({ "sweeps": sweeps }))
                        },
                    ))
                    .await
                }
            }
        })
}
