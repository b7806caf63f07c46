//! Notify (decision 0014): turns the table's stream into Web Push messages. Each
//! record (a write, with the item before and after it) is read as a domain change
//! (`store::push::change_of`), the contract's rule says who is told what
//! (`domain::push::who_is_told`), and each device of each recipient gets the message,
//! encrypted (RFC 8291, aes128gcm) and signed (RFC 8292, VAPID).
//!
//! In AWS an event source mapping on the stream invokes [`Notifier::handle`] with a
//! batch; locally the same binary polls DynamoDB Local's stream ([`poll`]) and calls
//! the same handler. A push service's 404/410 deletes that subscription; 429, 5xx and
//! network failures are retried with backoff, then the record fails: Lambda retries
//! it, bisects the batch, and finally sends it to the failure queue.

pub mod poll;
pub mod send;

use std::{sync::Arc, time::Instant};

use futures::future::join_all;
use serde::{Deserialize, Serialize};
use shared::{
    ApiError, Store,
    domain::push::{Message, Payload, Recipient, who_is_told},
    geo::Point,
    store::push::{Device, change_of},
    telemetry::metrics::Metrics,
    types::{Id, Timestamp},
};

pub use send::{Outcome, Sender, Vapid};

/// The Lambda event of a DynamoDB stream (the fields we read).
#[derive(Debug, Clone, Deserialize)]
pub struct StreamEvent {
    #[serde(rename = "Records", default)]
    pub records: Vec<StreamRecord>,
}

/// One record, as the Lambda event and DynamoDB Local's GetRecords both give it.
#[derive(Debug, Clone, Deserialize)]
pub struct StreamRecord {
    #[serde(rename = "eventName", default)]
    pub event_name: String,
    pub dynamodb: StreamData,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct StreamData {
    #[serde(default)]
    pub sequence_number: String,
    #[serde(default)]
    pub old_image: Option<serde_dynamo::Item>,
    #[serde(default)]
    pub new_image: Option<serde_dynamo::Item>,
}

/// The answer of a batch with `ReportBatchItemFailures`: Lambda retries from the
/// first failed record on (the records before it are done).
#[derive(Debug, Default, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct BatchResponse {
    pub batch_item_failures: Vec<ItemFailure>,
}

#[derive(Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ItemFailure {
    pub item_identifier: String,
}

/// What one record came to.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Report {
    pub messages: usize,
    pub delivered: usize,
    /// Subscriptions the push service said are gone: deleted.
    pub gone: usize,
    /// Refused for good by the push service (another 4xx): logged, not retried.
    pub refused: usize,
}

/// The store and the sender, built once per cold start.
#[derive(Clone)]
pub struct Notifier {
    pub store: Store,
    pub sender: Arc<Sender>,
}

impl Notifier {
    pub fn new(store: Store, sender: Sender) -> Notifier {
        Notifier {
            store,
            sender: Arc::new(sender),
        }
    }

    /// One batch, in stream order. The first record that fails stops the batch and is
    /// reported (with `ReportBatchItemFailures`, Lambda retries it and what follows;
    /// with bisection, a record that keeps failing ends up alone in the failure
    /// queue).
    pub async fn handle(&self, event: StreamEvent) -> BatchResponse {
        for record in &event.records {
            if let Err(e) = self.record(record).await {
                tracing::error!(error = %e, "stream record failed; it will be retried");
                return BatchResponse {
                    batch_item_failures: vec![ItemFailure {
                        item_identifier: record.dynamodb.sequence_number.clone(),
                    }],
                };
            }
        }
        BatchResponse::default()
    }

    /// The pushes of one record; `Err` when a push could not be delivered after its
    /// retries (or the table could not be read): the record is retried.
    pub async fn record(&self, record: &StreamRecord) -> Result<Report, ApiError> {
        let Some(change) = change_of(
            record.dynamodb.old_image.clone(),
            record.dynamodb.new_image.clone(),
        ) else {
            return Ok(Report::default());
        };
        let now = Timestamp::new(self.store.now()).unwrap_or_else(Timestamp::now);
        let mut report = Report::default();
        let mut failed = None;
        let mut failures = 0;
        for message in who_is_told(&change, now) {
            report.messages += 1;
            let message = self.with_distance(message).await?;
            let devices = self.devices(message.to).await?;
            let body = serde_json::to_vec(&message.payload).map_err(ApiError::internal)?;
            let started = Instant::now();
            let outcomes = join_all(
                devices
                    .iter()
                    .map(|d| self.sender.send(&d.subscription, &body, &message)),
            )
            .await;
            for (device, outcome) in devices.iter().zip(outcomes) {
                match outcome {
                    Outcome::Delivered => report.delivered += 1,
                    Outcome::Gone => {
                        report.gone += 1;
                        self.store
                            .push()
                            .forget_device(device.user_id, device.subscription.endpoint())
                            .await?;
                    }
                    Outcome::Refused(status) => {
                        report.refused += 1;
                        tracing::warn!(user = %device.user_id, status, kind = kind(&message.payload), "push refused");
                    }
                    Outcome::Failed(why) => {
                        failures += 1;
                        failed = Some(why);
                    }
                }
            }
            tracing::info!(
                kind = kind(&message.payload),
                devices = devices.len(),
                ms = started.elapsed().as_millis() as u64,
                "pushed"
            );
        }
        if report.messages > 0 {
            // Dropped: refused for good by the push service, or its subscription gone.
            Metrics::of("notify")
                .count("PushesSent", report.delivered)
                .count("PushesFailed", failures)
                .count("PushesDropped", report.refused + report.gone)
                .emit();
        }
        match failed {
            Some(why) => Err(ApiError::internal(format!(
                "a push could not be delivered: {why}"
            ))),
            None => Ok(report),
        }
    }

    /// Every device of a recipient.
    async fn devices(&self, to: Recipient) -> Result<Vec<Device>, ApiError> {
        match to {
            Recipient::CrewOf(ambulance) => self.store.push().crew_devices(ambulance).await,
            Recipient::User(user) => self.store.push().devices(user).await,
            Recipient::RequesterOf(booking) => match self.store.push().requester_of(booking).await?
            {
                Some(user) => self.store.push().devices(user).await,
                None => Ok(vec![]),
            },
            Recipient::Admins => self.store.push().admin_devices().await,
        }
    }

    /// A JOB's `distanceKm`: from the ambulance's last reported position, or its
    /// own hospital, to the pickup (one decimal); null when either is unknown.
    async fn with_distance(&self, mut message: Message) -> Result<Message, ApiError> {
        let Payload::Job {
            booking_id,
            distance_km,
            ..
        } = &mut message.payload
        else {
            return Ok(message);
        };
        *distance_km = self.distance_km(*booking_id).await?;
        Ok(message)
    }

    async fn distance_km(&self, booking: Id) -> Result<Option<f64>, ApiError> {
        let Some(b) = self.store.bookings().booking(booking).await? else {
            return Ok(None);
        };
        let Some(pickup) = b.pickup else {
            return Ok(None);
        };
        let from = self.store.push().ambulance_point(b.ambulance_id).await?;
        Ok(from.map(|from| {
            let km = from.km_to(Point::new(pickup.latitude.get(), pickup.longitude.get()));
            (km * 10.0).round() / 10.0
        }))
    }
}

/// The payload's kind, for the logs (which never carry an endpoint or a key).
fn kind(p: &Payload) -> &'static str {
    match p {
        Payload::Job { .. } => "JOB",
        Payload::JobGone { .. } => "JOB_GONE",
        Payload::Trip { .. } => "TRIP",
        Payload::Alert { .. } => "ALERT",
    }
}
