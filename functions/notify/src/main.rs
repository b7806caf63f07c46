//! Lambda entry point (an event source mapping on the table's stream), or with
//! `--every-ms N` the local stack's poller of DynamoDB Local's stream: the state is
//! built once at cold start; every batch goes through `Notifier::handle`.

use std::time::Duration;

use lambda_http::{lambda_runtime, service_fn};
use notify::{Notifier, Sender, StreamEvent, Vapid, poll};
use shared::{
    AppState,
    config::{AppEnv, Config},
    domain::push::Endpoints,
    telemetry,
};

fn main() -> Result<(), lambda_http::Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let every =
        shared::config::local_every(&args, "--every-ms", Duration::from_millis(1), 50..=60_000)
            .map_err(|e| format!("notify: {e}"))?;
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(async {
            telemetry::init();
            let config = Config::for_background()?;
            let vapid = vapid(&config).await.inspect_err(
                |e| tracing::error!(error = %e, "configuration error; refusing to start"),
            )?;
            // A local stack's devices may be at a push service on loopback (http).
            let endpoints = match config.app_env {
                AppEnv::Local => Endpoints::AlsoLoopback,
                AppEnv::Deployed => Endpoints::HttpsOnly,
            };
            let state = AppState::new(config).await;
            let notifier = Notifier::new(state.store.clone(), Sender::new(vapid, endpoints));
            let notifier = &notifier;
            match every {
                Some(every) => {
                    tracing::info!(every_ms = every.as_millis() as u64, "notify polls the table's stream until stopped");
                    let endpoint = state.config.dynamodb_endpoint.clone().ok_or(
                        "--every-ms polls DynamoDB Local's stream: DYNAMODB_ENDPOINT is required",
                    )?;
                    let streams = poll::LocalStreams::new(&endpoint);
                    loop {
                        if let Err(e) = poll::poll(notifier, &streams, every, poll::Start::Now).await {
                            tracing::error!(error = %e, "polling the stream failed; starting again");
                            tokio::time::sleep(Duration::from_secs(1)).await;
                        }
                    }
                }
                None => {
                    lambda_runtime::run(service_fn(
                        |event: lambda_runtime::LambdaEvent<StreamEvent>| async move {
                            Ok::<_, lambda_http::Error>(notifier.handle(event.payload).await)
                        },
                    ))
                    .await
                }
            }
        })
}

/// The VAPID identity: `VAPID_PRIVATE_KEY` (local stacks), or in AWS the secret
/// `VAPID_PRIVATE_KEY_ARN` names, read once here; `VAPID_SUBJECT`.
async fn vapid(config: &Config) -> Result<Vapid, lambda_http::Error> {
    let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    let private = match (env("VAPID_PRIVATE_KEY"), env("VAPID_PRIVATE_KEY_ARN")) {
        (Some(key), _) => key,
        (None, Some(arn)) => {
            shared::config::fetch_secret(&arn, Some(config.region.clone())).await?
        }
        (None, None) => return Err("VAPID_PRIVATE_KEY or VAPID_PRIVATE_KEY_ARN is required".into()),
    };
    let subject = env("VAPID_SUBJECT").ok_or("VAPID_SUBJECT (a mailto: address) is required")?;
    Ok(Vapid::new(&private, &subject)?)
}
