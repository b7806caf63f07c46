//! The deliveries queue (decision 0019): one SQS message per push to one device.
//! The stream's handler only decides who is told what and enqueues; the queue's
//! consumer sends, many at once, each push with its own timeout, and a push that
//! failed comes back on its own after a delay ([`RETRY_DELAYS`]) until it is sent,
//! expires or has had its tries. A message the consumer itself cannot handle (the
//! table unreachable) is received again after its visibility timeout and, after
//! [`MAX_RECEIVES`], moved by SQS to the dead-letter queue.
//!
//! In AWS the queue is `DeliveriesQueue` in template.yaml and Lambda's event source
//! mapping feeds [`crate::Notifier::deliveries`]; locally (`notify --every-ms`, the
//! tests, the benchmark) [`consume`] long-polls a queue on moto's server (an SQS of
//! this machine: `scripts/moto.sh`) and calls the same code for each message.

use std::{sync::Arc, time::Duration};

use aws_sdk_sqs::{
    Client,
    types::{QueueAttributeName, SendMessageBatchRequestEntry},
};
use domain::{
    push::{Payload, PushSubscription},
    types::Id,
};
use serde::{Deserialize, Serialize};
use web::ApiError;

/// A message SQS hands out this many times without it being deleted (the consumer
/// failed on it, never the push service) goes to the dead-letter queue.
pub const MAX_RECEIVES: u32 = 5;
/// How long a received message stays invisible to other consumers: longer than one
/// delivery can take (a push's timeout and a few table reads).
pub const VISIBILITY: Duration = Duration::from_secs(30);

/// The waits before the second, third and fourth try of a push (then it is
/// dropped): a push service down for a moment gets time to come back, and the last
/// try still falls inside a JOB's answer window (the shortest life of a message
/// worth retrying). SQS delays by whole seconds.
pub const RETRY_DELAYS: [Duration; 3] = [
    Duration::from_secs(2),
    Duration::from_secs(10),
    Duration::from_secs(30),
];

/// One push to one device, as the queue carries it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    pub user_id: Id,
    pub subscription: PushSubscription,
    pub payload: Payload,
    /// Epoch milliseconds after which the message is no longer true: a JOB's
    /// `answerBy`, else the moment it was decided plus its TTL. Never sent later.
    pub not_after_ms: i64,
    /// The ambulance whose crew a JOB is for: a retried JOB is sent only while that
    /// ambulance still holds the job unanswered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crew_of: Option<Id>,
    /// 0 for the first try.
    #[serde(default)]
    pub attempt: u32,
}

/// The queue and the client that reaches it.
#[derive(Clone)]
pub struct Deliveries {
    client: Client,
    url: Arc<str>,
}

fn queue_error(e: impl std::fmt::Display) -> ApiError {
    ApiError::internal(format!("deliveries queue: {e}"))
}

impl Deliveries {
    pub fn new(client: Client, url: &str) -> Deliveries {
        Deliveries {
            client,
            url: url.into(),
        }
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    pub fn client(&self) -> &Client {
        &self.client
    }

    /// Enqueues `deliveries` (ten to a call, SQS's batch), after `delay`.
    pub async fn send(&self, deliveries: &[Delivery], delay: Duration) -> Result<(), ApiError> {
        for chunk in deliveries.chunks(10) {
            let mut entries = vec![];
            for (i, d) in chunk.iter().enumerate() {
                let body = serde_json::to_string(d).map_err(queue_error)?;
                entries.push(
                    SendMessageBatchRequestEntry::builder()
                        .id(i.to_string())
                        .message_body(body)
                        .delay_seconds(delay.as_secs().min(900) as i32)
                        .build()
                        .map_err(queue_error)?,
                );
            }
            let out = self
                .client
                .send_message_batch()
                .queue_url(self.url.as_ref())
                .set_entries(Some(entries))
                .send()
                .await
                .map_err(|e| queue_error(aws_sdk_sqs::error::DisplayErrorContext(e)))?;
            if let Some(failed) = out.failed.first() {
                return Err(queue_error(format!(
                    "{} of {} not enqueued: {}",
                    out.failed.len(),
                    chunk.len(),
                    failed.code
                )));
            }
        }
        Ok(())
    }
}

impl Deliveries {
    /// Every message the queue hands out now, deleted as received: the bodies, for
    /// a test or the benchmark to deliver itself.
    pub async fn take_all(&self) -> Result<Vec<String>, ApiError> {
        let mut out = vec![];
        loop {
            let got = self
                .client
                .receive_message()
                .queue_url(self.url.as_ref())
                .max_number_of_messages(10)
                .send()
                .await
                .map_err(|e| queue_error(aws_sdk_sqs::error::DisplayErrorContext(e)))?;
            let messages = got.messages.unwrap_or_default();
            if messages.is_empty() {
                return Ok(out);
            }
            for m in messages {
                if let Some(receipt) = m.receipt_handle {
                    self.client
                        .delete_message()
                        .queue_url(self.url.as_ref())
                        .receipt_handle(receipt)
                        .send()
                        .await
                        .map_err(|e| queue_error(aws_sdk_sqs::error::DisplayErrorContext(e)))?;
                }
                out.extend(m.body);
            }
        }
    }
}

/// An SQS client for `region`, or for an SQS of this machine at `endpoint` (moto's
/// server, which takes any credentials).
pub async fn client(region: &str, endpoint: Option<&str>) -> Client {
    let mut loader = aws_config::defaults(aws_config::BehaviorVersion::latest())
        .http_client(store::config::aws_http_client())
        .region(aws_config::Region::new(region.to_owned()))
        .timeout_config(
            aws_config::timeout::TimeoutConfig::builder()
                .connect_timeout(Duration::from_millis(500))
                .operation_attempt_timeout(Duration::from_secs(2))
                .operation_timeout(Duration::from_secs(5))
                .build(),
        );
    if let Some(endpoint) = endpoint {
        loader = loader.endpoint_url(endpoint).credentials_provider(
            aws_sdk_sqs::config::Credentials::new("local", "local", None, None, "local"),
        );
    }
    Client::new(&loader.load().await)
}

/// Makes (or finds) the queue `name` with its dead-letter queue `<name>-dlq` and the
/// redrive between them, as template.yaml declares them: a local stack's and each
/// test's own. Answers the queue's URL.
pub async fn create_local(client: &Client, name: &str) -> Result<String, ApiError> {
    let err = |e: aws_sdk_sqs::error::SdkError<_, _>| {
        queue_error(aws_sdk_sqs::error::DisplayErrorContext(e))
    };
    let dlq = client
        .create_queue()
        .queue_name(format!("{name}-dlq"))
        .send()
        .await
        .map_err(err)?
        .queue_url
        .ok_or_else(|| queue_error("no URL for the dead-letter queue"))?;
    let dlq_arn = client
        .get_queue_attributes()
        .queue_url(&dlq)
        .attribute_names(QueueAttributeName::QueueArn)
        .send()
        .await
        .map_err(|e| queue_error(aws_sdk_sqs::error::DisplayErrorContext(e)))?
        .attributes
        .and_then(|mut a| a.remove(&QueueAttributeName::QueueArn))
        .ok_or_else(|| queue_error("no ARN for the dead-letter queue"))?;
    let redrive =
        serde_json::json!({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": MAX_RECEIVES})
            .to_string();
    client
        .create_queue()
        .queue_name(name)
        .attributes(QueueAttributeName::RedrivePolicy, redrive)
        .attributes(
            QueueAttributeName::VisibilityTimeout,
            VISIBILITY.as_secs().to_string(),
        )
        .send()
        .await
        .map_err(|e| queue_error(aws_sdk_sqs::error::DisplayErrorContext(e)))?
        .queue_url
        .ok_or_else(|| queue_error("no URL for the queue"))
}

/// The queue `name` (and its dead-letter queue) on the SQS of this machine at
/// `endpoint`, made if absent: the local stack's, a test's, the benchmark's.
pub async fn local(endpoint: &str, name: &str) -> Result<Deliveries, ApiError> {
    let client = client("us-east-1", Some(endpoint)).await;
    let url = create_local(&client, name).await?;
    Ok(Deliveries::new(client, &url))
}

/// One message as a consumer received it: its id (the Lambda event's `messageId`),
/// the receipt that deletes it, and its body.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QueueMessage {
    pub message_id: String,
    #[serde(default)]
    pub receipt_handle: String,
    pub body: String,
}

/// The Lambda event of an SQS event source mapping (the fields we read).
#[derive(Debug, Clone, Deserialize)]
pub struct QueueEvent {
    #[serde(rename = "Records", default)]
    pub records: Vec<QueueMessage>,
}

/// The local consumer: long-polls the queue and hands each message to
/// [`crate::Notifier::deliver`] at once (at most [`crate::send::IN_FLIGHT`] in
/// flight), deleting it when done; one that fails stays for SQS to hand out again.
/// Runs until the task is dropped.
pub async fn consume(notifier: &crate::Notifier) -> Result<(), ApiError> {
    let queue = notifier.queue.clone();
    loop {
        // Room for a whole batch before asking for one: a full sender stops the
        // receiving, not the sending.
        let permits = notifier.sender.room(10).await;
        let got = queue
            .client
            .receive_message()
            .queue_url(queue.url.as_ref())
            .max_number_of_messages(10)
            .wait_time_seconds(1)
            .visibility_timeout(VISIBILITY.as_secs() as i32)
            .send()
            .await
            .map_err(|e| queue_error(aws_sdk_sqs::error::DisplayErrorContext(e)))?;
        drop(permits);
        for m in got.messages.unwrap_or_default() {
            let (Some(body), Some(receipt)) = (m.body, m.receipt_handle) else {
                continue;
            };
            let notifier = notifier.clone();
            let queue = queue.clone();
            tokio::spawn(async move {
                match notifier.deliver(&body).await {
                    Ok(fate) => {
                        crate::count([fate]);
                        if let Err(e) = queue
                            .client
                            .delete_message()
                            .queue_url(queue.url.as_ref())
                            .receipt_handle(receipt)
                            .send()
                            .await
                        {
                            tracing::warn!(error = %aws_sdk_sqs::error::DisplayErrorContext(e), "a delivery could not be deleted; it may be sent again");
                        }
                    }
                    Err(e) => {
                        tracing::error!(error = %e, "a delivery failed; the queue hands it out again")
                    }
                }
            });
        }
    }
}
