//! Bookings: their items, the idempotency keys, and the reads (one booking, a user's
//! history, the admin's pages, the counts). Making a booking and moving its status
//! change the ambulance too: `cross_aggregate`.

use crate::domain::refusal::{Missing, Refusal};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{
    counters::{self, Total},
    keys::{self, Key},
    paging::CountedList,
    schema::{GSI1, TTL_ATTRIBUTE},
    table::{Query, Store},
    tx::{Label, Tx, Write},
};
use crate::{
    domain::{
        booking::{
            Booking, BookingCounts, BookingStatus, Move, Progress, TimelineEntry, TripStage,
        },
        page::Page,
    },
    error::ApiError,
    types::{Id, Timestamp, epoch_seconds, now_rfc3339},
};

/// Bookings in one answer of a user's history (`before` asks for older ones).
pub const HISTORY_LIMIT: usize = 100;

/// Idempotency keys are remembered for 24 hours.
pub const IDEMPOTENCY_TTL_SECS: i64 = 24 * 60 * 60;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BookingItem {
    #[serde(flatten)]
    pub(crate) key: Key,
    #[serde(flatten)]
    pub(crate) booking: Booking,
    pub(crate) gsi1pk: String,
    pub(crate) gsi1sk: String,
    pub(crate) listpk: String,
    pub(crate) listsk: String,
    /// While open and with a pickup: the sparse `open` index by the pickup's res-2
    /// cell (the dispatcher's map). Removed by the move to a final status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) openpk: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) opensk: Option<String>,
    /// While its crew has not answered: the sparse `due` index by `answerBy` (epoch
    /// milliseconds), which the clock sweeps. Removed by the crew's accept, a final
    /// move, or the clock once it has acted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) duepk: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) duesk: Option<i64>,
    /// The ambulances that let this job's answer deadline pass: never offered it again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) missed_by: Vec<Id>,
    /// One more each time its requester revokes its tracking links (`shares`).
    #[serde(default)]
    pub(crate) share_epoch: u64,
    /// When each of its tracking links of the last 24 hours was made (epoch
    /// seconds), for their cap (`shares::MAX_SHARE_LINKS`), and one more with each
    /// write of that list, which is conditional on it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) share_links_made: Vec<i64>,
    #[serde(default)]
    pub(crate) share_links_version: u64,
    /// How many times its requester rewrote the patient details
    /// (`shares::MAX_PATIENT_EDITS`).
    #[serde(default)]
    pub(crate) patient_edits: u32,
}

impl BookingItem {
    pub(crate) fn new(booking: Booking) -> Self {
        let order = keys::booking_time(&booking.booking_time, booking.id);
        let open = booking
            .pickup
            .as_ref()
            .filter(|_| !booking.booking_status.is_final())
            .map(|p| keys::open_bookings(p.latitude.get(), p.longitude.get()));
        let due = booking.answer_by.map(due_key);
        BookingItem {
            key: keys::booking(booking.id),
            gsi1pk: keys::user_bookings(booking.user_id),
            gsi1sk: order.clone(),
            listpk: keys::BOOKINGS.into(),
            opensk: open.is_some().then(|| order.clone()),
            openpk: open,
            duepk: due.map(|_| keys::DUE.to_owned()),
            duesk: due,
            missed_by: vec![],
            listsk: order,
            share_epoch: 0,
            share_links_made: vec![],
            share_links_version: 0,
            patient_edits: 0,
            booking,
        }
    }
}

/// A booking's `duesk`: its `answerBy` in epoch milliseconds.
pub(crate) fn due_key(answer_by: Timestamp) -> i64 {
    (answer_by.get().unix_timestamp_nanos() / 1_000_000) as i64
}

impl From<BookingItem> for Booking {
    fn from(i: BookingItem) -> Self {
        i.booking
    }
}

/// The update of `booking` (as read) that makes move `m` at time `at`: status, stage
/// and timeline together, on the condition that the status and stage are still the
/// ones read (so a stale or repeated request writes nothing); a final status also
/// leaves the `open` index.
pub(crate) fn booking_move(booking: &Booking, m: &Move, at: &str) -> Write {
    let reached: Vec<TimelineEntry> = m
        .reached
        .iter()
        .map(|stage| TimelineEntry::new(*stage, at))
        .collect();
    let mut sets = vec![
        "bookingStatus = :to",
        "timeline = list_append(timeline, :reached)",
    ];
    let mut write = still_at(
        Write::update(keys::booking(booking.id), "")
            .value(":to", m.to.status)
            .value(":reached", reached),
        m.from,
    );
    if m.to.stage != m.from.stage {
        sets.push("tripStage = :stage");
        write = write.value(":stage", m.to.stage);
    }
    let mut removes = vec![];
    if m.frees_ambulance() {
        removes.extend(["openpk", "opensk"]);
    }
    if m.ends_the_wait() {
        // Answered or ended: off the clock.
        removes.extend(["answerBy", "duepk", "duesk"]);
    }
    let mut expression = format!("SET {}", sets.join(", "));
    if !removes.is_empty() {
        expression.push_str(&format!(" REMOVE {}", removes.join(", ")));
    }
    // Conditional on the ambulance read too: a crew's late accept of a job the
    // clock has meanwhile given to another ambulance is refused (decision 0012).
    write
        .when("ambulanceId = :ambulanceRead")
        .value(":ambulanceRead", booking.ambulance_id)
        .set_expression(expression)
}

/// `write` on the condition that the booking's status and stage are still `from`
/// (placeholders `:from`, `:fromStage`, `:null`).
pub(crate) fn still_at(write: Write, from: Progress) -> Write {
    let write = write
        .value(":from", from.status)
        .when("bookingStatus = :from");
    match from.stage {
        // An ACTIVE booking made before stages is read as DISPATCHED.
        Some(TripStage::Dispatched) => write
            .when(format!("(tripStage = :fromStage OR {NO_STAGE})"))
            .value(":fromStage", TripStage::Dispatched)
            .value(":null", "NULL"),
        Some(stage) => write
            .when("tripStage = :fromStage")
            .value(":fromStage", stage),
        None => write.when(NO_STAGE).value(":null", "NULL"),
    }
}

/// The booking has no stage yet (absent in old items, null in new ones).
const NO_STAGE: &str = "(attribute_not_exists(tripStage) OR attribute_type(tripStage, :null))";

/// What a new booking adds to the counters: its status's count, and its day's.
pub(crate) fn count_new_booking(tx: &mut Tx, booking: &Booking) -> Result<(), ApiError> {
    let counts = match booking.booking_status {
        BookingStatus::Active => BookingCounts::dispatched(),
        _ => BookingCounts::booked(),
    };
    tx.push(Label::Counter, counters::add(counters::BOOKINGS, &counts)?)
        .push(
            Label::Counter,
            counters::add(
                &counters::bookings_on_day(&booking.booking_time),
                &Total::ONE,
            )?,
        );
    Ok(())
}

/// The booking a request under an `Idempotency-Key` made, and a hash of that request.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct IdempotencyItem {
    #[serde(flatten)]
    pub(crate) key: Key,
    pub(crate) booking_id: Id,
    pub(crate) request_hash: String,
    /// The table's TTL attribute (`schema::TTL_ATTRIBUTE`).
    pub(crate) ttl: i64,
}

/// What makes two booking requests "the same request" for an idempotency key (a
/// booking form's [`BookingRequest`], or an emergency's request with its route's
/// name: the same key on two routes is two different requests).
pub(crate) fn request_hash(user: Id, req: &impl Serialize) -> Result<String, ApiError> {
    let canonical = serde_json::to_string(&(user, req)).map_err(ApiError::internal)?;
    Ok(hex::encode(Sha256::digest(canonical.as_bytes())))
}

/// The write that remembers which booking a request under an idempotency key made:
/// refused while the key holds an unexpired earlier one (TTL deletes lazily, so an
/// expired key may be reused).
pub(crate) fn remember_request(user: Id, key: &str, booking: Id, hash: &str) -> Write {
    let now = epoch_seconds();
    let idem = IdempotencyItem {
        key: keys::idempotency(user, key),
        booking_id: booking,
        request_hash: hash.to_owned(),
        ttl: now + IDEMPOTENCY_TTL_SECS,
    };
    Write::put(&idem)
        .when("attribute_not_exists(pk) OR #ttl < :now")
        .name("#ttl", TTL_ATTRIBUTE)
        .value(":now", now)
}

impl Store {
    /// The booking an earlier request with this key made, if any (422 when the key
    /// was used for a different request).
    pub(crate) async fn replay(
        &self,
        user: Id,
        key: &str,
        hash: &str,
    ) -> Result<Option<Booking>, ApiError> {
        let Some(idem) = self
            .get::<IdempotencyItem>(&keys::idempotency(user, key))
            .await?
        else {
            return Ok(None);
        };
        if idem.ttl < epoch_seconds() {
            return Ok(None);
        }
        if idem.request_hash != hash {
            return Err(ApiError::Unprocessable(
                "This Idempotency-Key was already used for a different booking request".into(),
            ));
        }
        self.booking(idem.booking_id).await
    }

    pub async fn booking(&self, id: Id) -> Result<Option<Booking>, ApiError> {
        Ok(self
            .get::<BookingItem>(&keys::booking(id))
            .await?
            .map(Booking::from))
    }

    /// A user's newest [`HISTORY_LIMIT`] bookings, newest first (Query on the user's
    /// partition of `gsi1`); with `before`, one of the user's bookings, the newest
    /// ones older than it (ties in time by id), so a long history comes in pieces
    /// that stay far below Lambda's 6 MB answer.
    pub async fn user_bookings(
        &self,
        user: Id,
        before: Option<Id>,
    ) -> Result<Vec<Booking>, ApiError> {
        let query = match before {
            None => Query::on(GSI1, "gsi1pk = :p"),
            Some(id) => {
                let cursor = self
                    .booking(id)
                    .await?
                    .filter(|b| b.user_id == user)
                    // Unknown and someone else's look the same.
                    .ok_or(Refusal::from(Missing::BookingInHistory(id)))?;
                Query::on(GSI1, "gsi1pk = :p AND gsi1sk < :before")
                    .value(":before", keys::booking_time(&cursor.booking_time, id))
            }
        };
        let query = query
            .value(":p", keys::user_bookings(user))
            .newest_first(true)
            .page_size(HISTORY_LIMIT as u64);
        let items: Vec<BookingItem> = self.query_first(query, HISTORY_LIMIT).await?;
        Ok(items.into_iter().map(Booking::from).collect())
    }

    /// All bookings, newest first; the pages before `page` are skipped reading keys only.
    /// The total comes from the counter, read at the same time as the page's keys
    /// (see [`Store::counted_page_keys`]).
    pub async fn bookings_page(&self, page: u32, size: u32) -> Result<Page<Booking>, ApiError> {
        self.page(CountedList::BOOKINGS, page, size, |b: BookingItem| {
            Some(b.into())
        })
        .await
    }

    pub async fn booking_counts(&self) -> Result<BookingCounts, ApiError> {
        counters::read(self, counters::BOOKINGS).await
    }

    /// Bookings made on the UTC day of `now`.
    pub async fn bookings_today(&self) -> Result<i64, ApiError> {
        let day: Total = counters::read(self, &counters::bookings_on_day(&now_rfc3339())).await?;
        Ok(day.total)
    }
}
