//! Lambda entry point (event source mappings on the table's stream and on the
//! deliveries queue), or with `--every-ms N` the local stack's poller of DynamoDB
//! Local's stream and consumer of moto's queue: the state is built once at cold
//! start; every stream batch goes through `Notifier::handle`, every queue batch
//! through `Notifier::deliveries`.

use std::time::Duration;

use domain::push::Endpoints;
use lambda_http::{lambda_runtime, service_fn};
use notify::{Deliveries, Notifier, QueueEvent, Sender, StreamEvent, Vapid, poll, queue};
use store::config::{AppEnv, Config};
use web::AppState;

fn main() -> Result<(), lambda_http::Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let every =
        store::config::local_every(&args, "--every-ms", Duration::from_millis(1), 50..=60_000)
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
            let extra = store::config::push_hosts();
            let endpoints = match config.app_env {
                AppEnv::Local => Endpoints::local(extra),
                AppEnv::Deployed => Endpoints::deployed(extra),
            };
            let state = AppState::new(config).await;
            let queue = deliveries(&state.config, every.is_some()).await?;
            let notifier = Notifier::new(state.store.clone(), Sender::new(vapid, endpoints), queue);
            let notifier = &notifier;
            match every {
                Some(every) => {
                    tracing::info!(every_ms = every.as_millis() as u64, "notify polls the table's stream and consumes the deliveries queue until stopped");
                    let endpoint = state.config.dynamodb_endpoint.clone().ok_or(
                        "--every-ms polls DynamoDB Local's stream: DYNAMODB_ENDPOINT is required",
                    )?;
                    let streams = poll::LocalStreams::new(&endpoint);
                    let stream = async {
                        loop {
                            if let Err(e) = poll::poll(notifier, &streams, every, poll::Start::Now).await {
                                tracing::error!(error = %e, "polling the stream failed; starting again");
                                tokio::time::sleep(Duration::from_secs(1)).await;
                            }
                        }
                    };
                    let sends = async {
                        loop {
                            if let Err(e) = queue::consume(notifier).await {
                                tracing::error!(error = %e, "consuming the deliveries queue failed; starting again");
                                tokio::time::sleep(Duration::from_secs(1)).await;
                            }
                        }
                    };
                    tokio::join!(stream, sends);
                    Ok(())
                }
                None => {
                    lambda_runtime::run(service_fn(
                        |event: lambda_runtime::LambdaEvent<serde_json::Value>| async move {
                            // Two mappings feed this function: the queue's records
                            // say `aws:sqs`, the stream's `aws:dynamodb`.
                            let from_queue = event.payload["Records"][0]["eventSource"] == "aws:sqs";
                            let answer = if from_queue {
                                notifier.deliveries(serde_json::from_value::<QueueEvent>(event.payload)?).await
                            } else {
                                notifier.handle(serde_json::from_value::<StreamEvent>(event.payload)?).await
                            };
                            Ok::<_, lambda_http::Error>(answer)
                        },
                    ))
                    .await
                }
            }
        })
}

/// The deliveries queue: `DELIVERIES_QUEUE_URL` in AWS (template.yaml); locally an
/// SQS of this machine at `SQS_ENDPOINT` (moto's server), where the queue and its
/// dead-letter queue are made if absent, named `DELIVERIES_QUEUE` (default
/// `deliveries-<table>`).
async fn deliveries(config: &Config, local: bool) -> Result<Deliveries, lambda_http::Error> {
    let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    let endpoint = env("SQS_ENDPOINT");
    if local && endpoint.is_none() {
        return Err("--every-ms consumes a local queue: SQS_ENDPOINT is required (scripts/moto.sh starts one)".into());
    }
    let client = queue::client(&config.region, endpoint.as_deref()).await;
    let url = match (env("DELIVERIES_QUEUE_URL"), &endpoint) {
        (Some(url), _) => url,
        (None, Some(_)) => {
            let name = env("DELIVERIES_QUEUE")
                .unwrap_or_else(|| format!("deliveries-{}", config.table_name));
            queue::create_local(&client, &name).await?
        }
        (None, None) => return Err("DELIVERIES_QUEUE_URL is required".into()),
    };
    Ok(Deliveries::new(client, &url))
}

/// The VAPID identity: `VAPID_PRIVATE_KEY` (local stacks), or in AWS the secret
/// `VAPID_PRIVATE_KEY_ARN` names, read once here; `VAPID_SUBJECT`.
async fn vapid(config: &Config) -> Result<Vapid, lambda_http::Error> {
    let env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    let private = match (env("VAPID_PRIVATE_KEY"), env("VAPID_PRIVATE_KEY_ARN")) {
        (Some(key), _) => key,
        (None, Some(arn)) => store::config::fetch_secret(&arn, Some(config.region.clone())).await?,
        (None, None) => return Err("VAPID_PRIVATE_KEY or VAPID_PRIVATE_KEY_ARN is required".into()),
    };
    let subject = env("VAPID_SUBJECT").ok_or("VAPID_SUBJECT (a mailto: address) is required")?;
    Ok(Vapid::new(&private, &subject)?)
}
