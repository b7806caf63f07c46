//! Notify (decisions 0014, 0019): turns the table's stream into Web Push messages.
//! Each record (a write, with the item before and after it) is read as a domain
//! change (`store::push::change_of`), the contract's rule says who is told what
//! (`domain::push::who_is_told`), and each device of each recipient becomes one
//! message on the deliveries queue ([`queue`]). The queue's consumer sends each one,
//! encrypted (RFC 8291, aes128gcm) and signed (RFC 8292, VAPID), many at once, each
//! with its own timeout; one that fails is tried again on its own later, so a slow
//! or broken device never holds up another push, and never fails a stream record.
//!
//! In AWS event source mappings invoke [`Notifier::handle`] with a batch of the
//! stream and [`Notifier::deliveries`] with a batch of the queue; locally the same
//! binary polls DynamoDB Local's stream ([`poll`]) and moto's queue
//! ([`queue::consume`]) and calls the same code. A push service's 404/410 deletes
//! that subscription.

pub mod poll;
pub mod queue;
pub mod send;

use std::{sync::Arc, time::Duration};

use domain::{
    booking::TripStage,
    eta,
    geo::Point,
    push::{Message, Payload, Recipient, who_is_told},
    types::{Id, Timestamp},
};
use futures::future::join_all;
use serde::{Deserialize, Serialize};
use store::{
    Store,
    push::{Device, change_of},
};
use telemetry::metrics::Metrics;
use web::ApiError;

pub use queue::{Deliveries, Delivery, QueueEvent};
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

/// What one record came to: the pushes enqueued for it (one per device of each
/// recipient).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Report {
    pub enqueued: usize,
}

/// Records of a stream batch read at once (each a few table reads).
pub const RECORDS_AT_ONCE: usize = 16;

/// What became of one delivery's try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    Delivered,
    /// 404/410: the subscription is deleted.
    Gone,
    /// Another 4xx, or a subscription that cannot be encrypted for: dropped.
    Refused,
    /// Failed; enqueued again for a later try.
    Retried,
    /// Failed its last try, or its next would come too late: dropped.
    GivenUp,
    /// Past its `notAfter` (a JOB's answer deadline), its device signed out, or its
    /// job no longer waiting for that crew: not sent.
    Stale,
}

/// The store, the sender and the deliveries queue, built once per cold start.
#[derive(Clone)]
pub struct Notifier {
    pub store: Store,
    pub sender: Arc<Sender>,
    pub queue: Deliveries,
    /// The waits before each retry of a failed push ([`queue::RETRY_DELAYS`]).
    pub retry_delays: Arc<[Duration]>,
}

impl Notifier {
    pub fn new(store: Store, sender: Sender, queue: Deliveries) -> Notifier {
        Notifier {
            store,
            sender: Arc::new(sender),
            queue,
            retry_delays: queue::RETRY_DELAYS.into(),
        }
    }

    /// Other waits between tries (the tests' are short).
    pub fn with_retry_delays(mut self, delays: &[Duration]) -> Notifier {
        self.retry_delays = delays.into();
        self
    }

    /// One batch of the stream. Its records are read at once (their order no longer
    /// matters: each push goes out alone from the queue), their deliveries enqueued
    /// together, ten a call, the calls at once. A record fails only when the table or
    /// the queue cannot be reached (never because of a device): the first that failed
    /// is reported (with `ReportBatchItemFailures` Lambda retries it and what follows;
    /// those after it that did not fail are enqueued again then: at least once).
    pub async fn handle(&self, event: StreamEvent) -> BatchResponse {
        let mut read = Vec::with_capacity(event.records.len());
        for chunk in event.records.chunks(RECORDS_AT_ONCE) {
            read.extend(join_all(chunk.iter().map(|r| self.deliveries_of(r))).await);
        }
        let failed = read.iter().position(Result::is_err);
        let deliveries: Vec<Delivery> = read
            .into_iter()
            .take(failed.unwrap_or(event.records.len()))
            .flat_map(|r| r.unwrap_or_default())
            .collect();
        let sent = join_all(
            deliveries
                .chunks(10)
                .map(|chunk| self.queue.send(chunk, Duration::ZERO)),
        )
        .await;
        let failed = match sent.into_iter().find_map(Result::err) {
            // Which record a failed send held is not known: the batch again, whole.
            Some(e) => {
                tracing::error!(error = %e, "enqueueing failed; the batch will be retried");
                Some(0)
            }
            None => failed,
        };
        match failed.and_then(|i| event.records.get(i)) {
            Some(record) => {
                tracing::error!("stream record failed; it will be retried");
                BatchResponse {
                    batch_item_failures: vec![ItemFailure {
                        item_identifier: record.dynamodb.sequence_number.clone(),
                    }],
                }
            }
            None => BatchResponse::default(),
        }
    }

    /// The pushes of one record, enqueued: one message per device of each recipient.
    pub async fn record(&self, record: &StreamRecord) -> Result<Report, ApiError> {
        let deliveries = self.deliveries_of(record).await?;
        self.queue.send(&deliveries, Duration::ZERO).await?;
        Ok(Report {
            enqueued: deliveries.len(),
        })
    }

    /// The deliveries of one record: one per device of each recipient.
    async fn deliveries_of(&self, record: &StreamRecord) -> Result<Vec<Delivery>, ApiError> {
        let Some(change) = change_of(
            record.dynamodb.old_image.clone(),
            record.dynamodb.new_image.clone(),
        ) else {
            return Ok(vec![]);
        };
        let now = self.store.timestamp();
        let mut deliveries = vec![];
        for message in who_is_told(&change, now) {
            let message = self.with_distance(message).await?;
            let not_after_ms = not_after_ms(&message, now);
            let crew_of = match (&message.to, &message.payload) {
                (Recipient::CrewOf(amb), Payload::Job { .. }) => Some(*amb),
                _ => None,
            };
            let devices = self.devices(message.to).await?;
            tracing::info!(
                kind = kind(&message.payload),
                devices = devices.len(),
                "enqueued"
            );
            deliveries.extend(devices.into_iter().map(|d| Delivery {
                user_id: d.user_id,
                subscription: d.subscription,
                payload: message.payload.clone(),
                not_after_ms,
                crew_of,
                attempt: 0,
            }));
        }
        Ok(deliveries)
    }

    /// One batch of the deliveries queue, every message at once (the sender bounds
    /// how many are in flight). A message fails only when the table or the queue
    /// cannot be reached: SQS hands it out again, and after `queue::MAX_RECEIVES`
    /// moves it to the dead-letter queue.
    pub async fn deliveries(&self, event: QueueEvent) -> BatchResponse {
        let outcomes = join_all(event.records.iter().map(|m| self.deliver(&m.body))).await;
        count(outcomes.iter().filter_map(|o| o.as_ref().ok().copied()));
        BatchResponse {
            batch_item_failures: event
                .records
                .iter()
                .zip(outcomes)
                .filter_map(|(m, outcome)| {
                    outcome.err().map(|e| {
                        tracing::error!(error = %e, "a delivery failed; the queue hands it out again");
                        ItemFailure {
                            item_identifier: m.message_id.clone(),
                        }
                    })
                })
                .collect(),
        }
    }

    /// One delivery (a queue message's body): sent, or dropped, or enqueued again.
    pub async fn deliver(&self, body: &str) -> Result<Fate, ApiError> {
        let Ok(delivery) = serde_json::from_str::<Delivery>(body) else {
            // Not ours, or from another version: no try will read it better.
            tracing::error!("a delivery that does not read: dropped");
            return Ok(Fate::Refused);
        };
        let fate = self.try_delivery(&delivery).await?;
        if fate != Fate::Delivered {
            tracing::warn!(user = %delivery.user_id, kind = kind(&delivery.payload), attempt = delivery.attempt, fate = ?fate, "push not delivered");
        }
        Ok(fate)
    }

    /// One try of `d`, and what follows from its outcome.
    pub async fn try_delivery(&self, d: &Delivery) -> Result<Fate, ApiError> {
        let now_ms = (self.store.now().unix_timestamp_nanos() / 1_000_000) as i64;
        let left_ms = d.not_after_ms - now_ms;
        if left_ms <= 0 || (d.attempt > 0 && !self.still_true(d).await?) {
            return Ok(Fate::Stale);
        }
        let body = serde_json::to_vec(&d.payload).map_err(ApiError::internal)?;
        // RFC 8030's TTL: what is left of the message's life, whole seconds.
        let ttl = Duration::from_secs((left_ms as u64).div_ceil(1000));
        Ok(match self.sender.send(&d.subscription, &body, ttl).await {
            Outcome::Delivered => Fate::Delivered,
            Outcome::Gone => {
                self.store
                    .push()
                    .forget_device(d.user_id, d.subscription.endpoint())
                    .await?;
                Fate::Gone
            }
            Outcome::Refused(status) => {
                tracing::warn!(user = %d.user_id, status, "push refused");
                Fate::Refused
            }
            Outcome::Failed(why) => {
                let next = d.attempt + 1;
                let delay = self.retry_delays.get(d.attempt as usize).copied();
                let in_time =
                    delay.is_some_and(|w| now_ms + (w.as_millis() as i64) < d.not_after_ms);
                if let (Some(delay), true) = (delay, in_time) {
                    let again = Delivery {
                        attempt: next,
                        ..d.clone()
                    };
                    self.queue.send(&[again], delay).await?;
                    Fate::Retried
                } else {
                    tracing::warn!(user = %d.user_id, why, "push failed its last try");
                    Fate::GivenUp
                }
            }
        })
    }

    /// Whether a retry is still worth sending: its device still subscribed (not
    /// signed out meanwhile) and, for a JOB, the job still waiting for that crew.
    async fn still_true(&self, d: &Delivery) -> Result<bool, ApiError> {
        if !self
            .store
            .push()
            .is_subscribed(d.user_id, d.subscription.endpoint())
            .await?
        {
            return Ok(false);
        }
        let (Some(amb), Payload::Job { booking_id, .. }) = (d.crew_of, &d.payload) else {
            return Ok(true);
        };
        Ok(self
            .store
            .bookings()
            .booking(*booking_id)
            .await?
            .is_some_and(|b| {
                b.ambulance_id == amb
                    && !b.booking_status.is_final()
                    && b.progress().awaits_answer()
            }))
    }

    /// Every device of a recipient.
    async fn devices(&self, to: Recipient) -> store::StoreResult<Vec<Device>> {
        match to {
            Recipient::CrewOf(ambulance) => self.store.push().crew_devices(ambulance).await,
            Recipient::User(user) => self.store.push().devices(user).await,
            Recipient::RequesterOf(booking) => match self.store.push().requester_of(booking).await?
            {
                Some(user) => self.store.push().devices(user).await,
                None => Ok(vec![]),
            },
            Recipient::Admins => self.store.push().admin_devices().await,
            Recipient::StaffOf(hospital) => self.store.push().staff_devices(hospital).await,
        }
    }

    /// A JOB's `distanceKm`: from the ambulance's last reported position, or its
    /// own hospital, to the pickup (one decimal); null when either is unknown.
    async fn with_distance(&self, mut message: Message) -> Result<Message, ApiError> {
        if let Payload::Incoming {
            booking_id,
            trip_stage: TripStage::ToHospital,
            eta_minutes,
            ..
        } = &mut message.payload
        {
            *eta_minutes = self.eta_to_destination(*booking_id).await?;
            return Ok(message);
        }
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

    /// An INCOMING's `etaMinutes`: from the ambulance's last position (else its own
    /// hospital) to the trip's destination, by the one ETA rule.
    async fn eta_to_destination(&self, booking: Id) -> Result<Option<u32>, ApiError> {
        let Some(b) = self.store.bookings().booking(booking).await? else {
            return Ok(None);
        };
        let (from, to) = tokio::try_join!(
            self.store.push().ambulance_point(b.ambulance_id),
            self.store.hospitals().hospital(b.destination())
        )?;
        Ok(from.zip(to).map(|(from, to)| {
            eta::estimate(from, Point::new(to.latitude, to.longitude)).eta_minutes
        }))
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

/// The metrics of what became of some deliveries: one EMF line.
pub fn count(fates: impl IntoIterator<Item = Fate>) {
    let (mut sent, mut retried, mut dropped) = (0, 0, 0);
    for fate in fates {
        match fate {
            Fate::Delivered => sent += 1,
            Fate::Retried => retried += 1,
            Fate::Gone | Fate::Refused | Fate::GivenUp | Fate::Stale => dropped += 1,
        }
    }
    // Dropped: gone, refused for good, out of tries, or no longer true.
    Metrics::of("notify")
        .count("PushesSent", sent)
        .count("PushesRetried", retried)
        .count("PushesDropped", dropped)
        .emit();
}

/// Epoch milliseconds after which `message` is no longer worth delivering: a JOB's
/// answer deadline, else its TTL from `now`.
fn not_after_ms(message: &Message, now: Timestamp) -> i64 {
    let ms = |t: Timestamp| (t.get().unix_timestamp_nanos() / 1_000_000) as i64;
    match &message.payload {
        Payload::Job {
            answer_by: Some(by),
            ..
        } => ms(*by),
        _ => ms(now) + message.ttl.as_millis() as i64,
    }
}

/// The payload's kind, for the logs (which never carry an endpoint or a key).
fn kind(p: &Payload) -> &'static str {
    match p {
        Payload::Job { .. } => "JOB",
        Payload::JobGone { .. } => "JOB_GONE",
        Payload::Trip { .. } => "TRIP",
        Payload::Alert { .. } => "ALERT",
        Payload::Incoming { .. } => "INCOMING",
    }
}
