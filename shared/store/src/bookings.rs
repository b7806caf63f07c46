//! Bookings, the handle `store.bookings()`: their items, the idempotency keys, the
//! reads (one booking, a user's history, the admin's pages, the counts), and the two
//! writes that change the ambulance too, each in one transaction with conditions so
//! a race or a crash never leaves them half done: a booking is written and its
//! ambulance moves AVAILABLE → ON_DUTY (held by the booking) only together, and a
//! move to a final status frees the ambulance in the same transaction. So two people
//! can never book one ambulance, and a crash can never leave it stuck. The rules
//! (which moves are allowed, what a refusal says) are in `domain`.

use domain::refusal::{Conflict, Missing, Refusal};

use std::sync::Mutex;

use backon::Retryable;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{
    counters::{self, Total},
    fleet::StatusMove,
    keys::{self, Key},
    open_bookings::{self, OpenLimit},
    paging::CountedList,
    retry,
    schema::{GSI1, TTL_ATTRIBUTE},
    table::{Query, Store},
    tx::{Label, Tx, TxError, Write},
};
use crate::error::StoreError;
use domain::{
    ambulance::{self, AmbulanceStatus},
    audit::{Action, Note, Target},
    booking::{
        self, Booking, BookingAmbulance, BookingCounts, BookingRequest, BookingStatus, Goal, Move,
        Mover, NewBooking, Progress, TimelineEntry,
    },
    crew, deadline,
    hospital::{self, HospitalRef},
    page::Page,
    presence::{CrewPresence, Seen},
    privacy::finished_at,
    types::{Id, Timestamp, epoch_seconds, now_rfc3339},
    user,
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
    /// Its requester's history (`gsi1`): removed when the requester's account is
    /// deleted (`store::privacy`), so that history ends with the account.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) gsi1pk: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) gsi1sk: Option<String>,
    pub(crate) listpk: String,
    pub(crate) listsk: String,
    /// While open and with a pickup: the pickup's res-2 cell, the sort key of the
    /// live map's `openmap` index (with `bookingType`). Removed by the move to a
    /// final status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) openpk: Option<String>,
    /// While its crew has not answered: the sparse `due` index by `answerBy` (epoch
    /// milliseconds), which the clock sweeps. Removed by the crew's accept or the
    /// clock once it has acted. Once final, until the retention sweep has erased its
    /// personal fields: `duepk` [`keys::FORGET`], `duesk` when it became final
    /// (epoch milliseconds; `store::privacy`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) duepk: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) duesk: Option<i64>,
    /// Once ended and until the clock has folded it into the response-time report:
    /// the sparse `fold` index by when it ended (epoch milliseconds; decision 0021).
    /// Set by the move to a final status, removed by the fold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) foldpk: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) foldsk: Option<i64>,
    /// The receiving hospital's board, the `dest` index: `destpk` its destination
    /// hospital, `destsk` open (by booking time) or ended (by when); see
    /// `keys::destination_open` (docs/decisions/0026-receiving-hospital.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) destpk: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) destsk: Option<String>,
    /// The crew chose the destination (`PATCH /api/crew/job/destination`): a move
    /// to another ambulance no longer follows the new ambulance's hospital.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) destination_chosen: bool,
    /// The ambulances that let this job's answer deadline pass: never offered it again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) missed_by: Vec<Id>,
    /// The `UNANSWERED` alert raised for this emergency a minute after it was sent
    /// (decision 0020): once raised, not again while the moves go on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) unanswered_alert: Option<Id>,
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
        let order = keys::booking_time(&booking.booking_time.to_string(), booking.id);
        let open = booking
            .pickup
            .as_ref()
            .filter(|_| !booking.booking_status.is_final())
            .map(|p| keys::open_bookings(p.point()));
        let due = booking
            .answer_by
            .map(|by| due_key(deadline::next_due(&booking, by, false)));
        // A final booking whose personal fields are kept waits for the retention
        // sweep (`store::privacy`); an open one for its crew's answer.
        let forget = (booking.booking_status.is_final() && booking.erased.is_none())
            .then(|| finished_at(&booking).map_or_else(|| due_key(Timestamp::now()), due_key));
        let due = match forget {
            Some(at) => Some((keys::FORGET, at)),
            None => due.map(|at| (keys::DUE, at)),
        };
        BookingItem {
            key: keys::booking(booking.id),
            gsi1pk: Some(keys::user_bookings(booking.user_id)),
            gsi1sk: Some(order.clone()),
            listpk: keys::BOOKINGS.into(),
            openpk: open,
            duepk: due.map(|(p, _)| p.to_owned()),
            duesk: due.map(|(_, at)| at),
            foldpk: None,
            foldsk: None,
            destpk: Some(keys::destination_trips(booking.destination())),
            destsk: Some(destination_sk(&booking)),
            destination_chosen: false,
            missed_by: vec![],
            unanswered_alert: None,
            listsk: order,
            share_epoch: 0,
            share_links_made: vec![],
            share_links_version: 0,
            patient_edits: 0,
            booking,
        }
    }
}

/// A booking's `destsk`: open by booking time, or ended by when.
pub(crate) fn destination_sk(booking: &Booking) -> String {
    match (booking.booking_status.is_final(), finished_at(booking)) {
        (true, Some(at)) => keys::destination_ended(&at.to_string(), booking.id),
        (true, None) => keys::destination_ended(&booking.booking_time.to_string(), booking.id),
        (false, _) => keys::destination_open(&booking.booking_time.to_string(), booking.id),
    }
}

/// A booking's `duesk`: when the clock must look at it next (its `answerBy`, or
/// before it its `UNANSWERED` alert's moment: `deadline::next_due`) in epoch
/// milliseconds.
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
/// leaves the live map's `openmap` index.
pub(crate) fn booking_move(booking: &Booking, m: &Move, at: Timestamp) -> Write {
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
        removes.push("openpk");
    }
    if m.to.status.is_final() {
        // Ended: the clock folds it into the response-time report (decision 0021),
        // never this request; off the answer clock, onto the retention sweep's
        // (`store::privacy`).
        removes.push("answerBy");
        sets.push("foldpk = :foldpk, foldsk = :foldsk");
        sets.push("duepk = :forget, duesk = :finished");
        // Off the receiving hospital's open trips, onto its ended ones for a day.
        sets.push("destsk = :destEnded");
        let ended = due_key(at);
        write = write
            .value(
                ":destEnded",
                keys::destination_ended(&at.to_string(), booking.id),
            )
            .value(":foldpk", keys::FOLD)
            .value(":foldsk", ended)
            .value(":forget", keys::FORGET)
            .value(":finished", ended);
    } else if m.ends_the_wait() {
        // Answered: off the clock.
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
/// (placeholders `:from`, `:fromStage`, `:null`). Every booking has `tripStage`,
/// null until it has a stage (`manage migrate` gave it to older ones).
pub(crate) fn still_at(write: Write, from: Progress) -> Write {
    let write = write
        .value(":from", from.status)
        .when("bookingStatus = :from");
    match from.stage {
        Some(stage) => write
            .when("tripStage = :fromStage")
            .value(":fromStage", stage),
        None => write
            .when("attribute_type(tripStage, :null)")
            .value(":null", "NULL"),
    }
}

/// What a new booking adds to the counters: its status's count, and its day's.
pub(crate) fn count_new_booking(tx: &mut Tx, booking: &Booking) -> Result<(), StoreError> {
    let counts = match booking.booking_status {
        BookingStatus::Active => BookingCounts::dispatched(),
        _ => BookingCounts::booked(),
    };
    tx.push(Label::Counter, counters::add(counters::BOOKINGS, &counts)?)
        .push(
            Label::Counter,
            counters::add(
                &counters::bookings_on_day(&booking.booking_time.to_string()),
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
pub(crate) fn request_hash(user: Id, req: &impl Serialize) -> Result<String, StoreError> {
    let canonical = serde_json::to_string(&(user, req)).map_err(StoreError::internal)?;
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

/// A final booking's `duesk` in the retention sweep's partition: when it became
/// final (`at`, the move's time), in epoch milliseconds.
/// `store.bookings()`: bookings: book, move, read, page, count. Every method of the handle
/// is in this file.
#[derive(Clone, Copy)]
pub struct Bookings<'a> {
    pub(super) store: &'a Store,
}

impl Bookings<'_> {
    /// The ids `user`'s open-bookings guard holds, ascending (for recounts and
    /// support; `open_bookings.rs`).
    pub async fn open_booking_ids(self, user: Id) -> Result<Vec<Id>, StoreError> {
        open_bookings::ids(self.store, user).await
    }

    /// The booking an earlier request with this key made, if any (422 when the key
    /// was used for a different request).
    pub(crate) async fn replay(
        self,
        user: Id,
        key: &str,
        hash: &str,
    ) -> Result<Option<Booking>, StoreError> {
        let Some(idem) = self
            .store
            .get::<IdempotencyItem>(&keys::idempotency(user, key))
            .await?
        else {
            return Ok(None);
        };
        if idem.ttl < epoch_seconds() {
            return Ok(None);
        }
        if idem.request_hash != hash {
            return Err(StoreError::KeyReused(
                "This Idempotency-Key was already used for a different booking request".into(),
            ));
        }
        self.booking(idem.booking_id).await
    }

    pub async fn booking(self, id: Id) -> Result<Option<Booking>, StoreError> {
        Ok(self
            .store
            .get::<BookingItem>(&keys::booking(id))
            .await?
            .map(Booking::from))
    }

    /// A user's newest [`HISTORY_LIMIT`] bookings, newest first (Query on the user's
    /// partition of `gsi1`); with `before`, one of the user's bookings, the newest
    /// ones older than it (ties in time by id), so a long history comes in pieces
    /// that stay far below Lambda's 6 MB answer.
    pub async fn user_bookings(
        self,
        user: Id,
        before: Option<Id>,
    ) -> Result<Vec<Booking>, StoreError> {
        let query = match before {
            None => Query::on(GSI1, "gsi1pk = :p"),
            Some(id) => {
                let cursor = self
                    .booking(id)
                    .await?
                    .filter(|b| b.user_id == user)
                    // Unknown and someone else's look the same.
                    .ok_or(Refusal::from(Missing::BookingInHistory(id)))?;
                Query::on(GSI1, "gsi1pk = :p AND gsi1sk < :before").value(
                    ":before",
                    keys::booking_time(&cursor.booking_time.to_string(), id),
                )
            }
        };
        let query = query
            .value(":p", keys::user_bookings(user))
            .newest_first(true)
            .page_size(HISTORY_LIMIT as u64);
        let items: Vec<BookingItem> = self.store.query_first(query, HISTORY_LIMIT).await?;
        Ok(items.into_iter().map(Booking::from).collect())
    }

    /// All bookings, newest first; the pages before `page` are skipped reading keys only.
    /// The total comes from the counter, read at the same time as the page's keys
    /// (see [`Store::counted_page_keys`]).
    pub async fn bookings_page(self, page: u32, size: u32) -> Result<Page<Booking>, StoreError> {
        self.store
            .page(CountedList::BOOKINGS, page, size, |b: BookingItem| {
                Some(b.into())
            })
            .await
    }

    pub async fn booking_counts(self) -> Result<BookingCounts, StoreError> {
        counters::read(self.store, counters::BOOKINGS).await
    }

    /// Bookings made on the UTC day of `now`.
    pub async fn bookings_today(self) -> Result<i64, StoreError> {
        let day: Total =
            counters::read(self.store, &counters::bookings_on_day(&now_rfc3339())).await?;
        Ok(day.total)
    }
}

/// How one attempt of a booking's move ended.
enum MoveAttempt {
    /// Someone moved the booking at the same time: read it again and re-check.
    Raced,
    Failed(StoreError),
}

/// An error, or a domain refusal (`?` on the state machine's plan).
impl<E: Into<StoreError>> From<E> for MoveAttempt {
    fn from(e: E) -> Self {
        MoveAttempt::Failed(e.into())
    }
}

/// Why one attempt at a booking made none.
enum BookFailure {
    /// Refused by something a retry of the same request could have taken first (the
    /// ambulance, the open-bookings limit, the idempotency key): with a key, look for
    /// that booking before answering with the refusal.
    Raced(StoreError),
    Failed(StoreError),
}

impl<E: Into<StoreError>> From<E> for BookFailure {
    fn from(e: E) -> Self {
        BookFailure::Failed(e.into())
    }
}

impl Bookings<'_> {
    /// Books an ambulance for `user`. With an idempotency key, a retry of the same
    /// request returns the first booking, and a different request under the same key
    /// is refused (422); at most one booking is ever made per key. Where `limit`
    /// applies, a user with [`open_bookings::MAX_OPEN_BOOKINGS`] open bookings gets 409.
    pub async fn book(
        self,
        user: Id,
        req: BookingRequest,
        idempotency_key: Option<&str>,
        limit: OpenLimit,
    ) -> Result<Booking, StoreError> {
        let hash = request_hash(user, &req)?;
        match self
            .try_book(user, req, idempotency_key, &hash, limit)
            .await
        {
            Ok(booking) => Ok(booking),
            // The ambulance, the open-bookings limit or the key may be taken by a
            // retry of this very request that got there first (DynamoDB reports only
            // the first failed condition): then the answer is that booking.
            Err(BookFailure::Raced(refusal)) => match idempotency_key {
                Some(key) => Ok(self.replay(user, key, &hash).await?.ok_or(refusal)?),
                None => Err(refusal),
            },
            Err(BookFailure::Failed(e)) => Err(e),
        }
    }

    async fn try_book(
        self,
        user: Id,
        req: BookingRequest,
        idempotency_key: Option<&str>,
        hash: &str,
        limit: OpenLimit,
    ) -> Result<Booking, BookFailure> {
        // Everything the transaction needs that does not depend on anything else, at
        // once (one round trip, not three): an earlier booking under the idempotency
        // key, the user, the hospital, the ambulance and a fresh booking id. Their
        // errors are still reported in this order, the id's last. A refused request
        // leaves a gap in the booking ids (as a lost race always did).
        let earlier = async {
            match idempotency_key {
                Some(key) => self.replay(user, key, hash).await,
                None => Ok(None),
            }
        };
        let (earlier, account, hospital, ambulance, id, kept) = tokio::join!(
            earlier,
            self.store.users().user(user),
            self.store.hospitals().hospital(req.hospital_id),
            self.store.fleet().ambulance_item(req.ambulance_id),
            self.store.next_id("booking"),
            // Its crew's signs of life (decision 0020), with the ambulance's crew count.
            self.store.positions().kept_position(req.ambulance_id)
        );
        if let Some(existing) = earlier? {
            return Ok(existing);
        }
        let account = account?.ok_or_else(user::not_found)?;
        let hospital = hospital?.ok_or_else(|| hospital::not_found(req.hospital_id))?;
        let ambulance = ambulance?.ok_or_else(|| ambulance::not_found(req.ambulance_id))?;
        let presence = Seen {
            crew_count: ambulance.crew_count,
            ..kept?.map(|k| k.seen).unwrap_or_default()
        }
        .presence(self.store.now());
        if ambulance.hospital_id != hospital.id {
            return Err(StoreError::bad_request(
                "ambulanceId",
                format!(
                    "Ambulance {} does not belong to hospital {}",
                    ambulance.number, hospital.name
                ),
            )
            .into());
        }
        if ambulance.status != AmbulanceStatus::Available {
            return Err(BookFailure::Raced(booking::ambulance_taken().into()));
        }

        // The spec's payload has no pickup: the user's stored location is it.
        let pickup = booking::pickup_or_profile(req.pickup.clone(), &account)?;
        let id = id?;
        let now = time::OffsetDateTime::now_utc();
        let at = Timestamp::new_or_now(now);
        let booking = Booking::booked(
            NewBooking {
                id,
                requester: &account,
                destination: HospitalRef {
                    id: hospital.id,
                    name: hospital.name.clone(),
                    address: hospital.address.clone(),
                },
                ambulance: BookingAmbulance {
                    id: ambulance.id,
                    number: ambulance.number,
                    ambulance_type: ambulance.ambulance_type,
                    driver_info: ambulance.driver_info,
                },
                patient: req.patient.clone().into(),
                pickup,
                at,
                answer_by: self
                    .store
                    .settings()
                    .await
                    .answer_times()
                    .answer_by(req.booking_type, now),
            },
            req.booking_type,
        );
        let mut tx = Tx::new();
        tx.push(
            Label::Booking(id),
            Write::put(&BookingItem::new(booking.clone())).absent(),
        )
        .push(Label::OpenBookings, open_bookings::claim(user, id, limit));

        StatusMove {
            ambulance: req.ambulance_id,
            hospital_of_ambulance: req.hospital_id,
            from: AmbulanceStatus::Available,
            to: AmbulanceStatus::OnDuty,
            require_hospital: Some(req.hospital_id),
            expected_holder: None,
            held_by: Some(id),
            free_at: None,
        }
        .push_into(&mut tx)?;
        count_new_booking(&mut tx, &booking)?;
        if let Some(key) = idempotency_key {
            tx.push(Label::IdempotencyKey, remember_request(user, key, id, hash));
        }
        match self.store.commit(tx).await {
            Ok(()) => {
                // Its crew not online: a person must phone the station now (decision 0020).
                if presence != CrewPresence::Online {
                    self.store
                        .alerts()
                        .raise_call_station(&booking, presence, hospital.id, Some(&hospital))
                        .await;
                }
                Ok(booking)
            }
            Err(TxError::Refused(r)) if r.by(Label::IdempotencyKey) => {
                Err(BookFailure::Raced(Conflict::BookingKeyInProgress.into()))
            }
            Err(TxError::Refused(r)) if r.by(Label::Ambulance(req.ambulance_id)) => {
                Err(BookFailure::Raced(booking::ambulance_taken().into()))
            }
            Err(TxError::Refused(r)) if r.by(Label::OpenBookings) => {
                Err(BookFailure::Raced(open_bookings::too_many().into()))
            }
            Err(e) => Err(e.into_api().into()),
        }
    }

    /// Moves booking `id` as `mover` asks (`domain::booking::plan` decides); a move to
    /// a final status frees its ambulance in the same transaction. A refused move is
    /// a 409 saying which, and writes nothing.
    pub async fn move_booking(
        self,
        id: Id,
        mover: Mover,
        goal: Goal,
    ) -> Result<Booking, StoreError> {
        self.move_from(id, mover, goal, None).await
    }

    /// [`Bookings::move_booking`] of a booking the caller has just read (to check who may
    /// move it): the first attempt starts from it instead of reading it again. The
    /// move is still conditional on the status and stage read, and a refused attempt
    /// reads the booking afresh.
    pub async fn move_read_booking(
        self,
        booking: Booking,
        mover: Mover,
        goal: Goal,
    ) -> Result<Booking, StoreError> {
        self.move_from(booking.id, mover, goal, Some(booking)).await
    }

    async fn move_from(
        self,
        id: Id,
        mover: Mover,
        goal: Goal,
        read: Option<Booking>,
    ) -> Result<Booking, StoreError> {
        let crew_ambulance = read.as_ref().map(|b| b.ambulance_id);
        let read = Mutex::new(read);
        let attempt = || async {
            let first = read.lock().expect("not poisoned").take();
            let booking = match first {
                Some(booking) => booking,
                None => self
                    .booking(id)
                    .await?
                    .ok_or_else(|| booking::not_found(id))?,
            };
            // A crew moves only its own ambulance's job: read again after a race, the
            // job may have gone to another ambulance (the answer deadline).
            if mover == Mover::Crew
                && crew_ambulance.is_some_and(|mine| mine != booking.ambulance_id)
            {
                return Err(crew::job_gone(id).into());
            }
            let m = booking::plan(booking.progress(), mover, goal)?;
            let at = Timestamp::now();
            let mut tx = Tx::new();
            tx.push(Label::Booking(id), booking_move(&booking, &m, at));
            if m.changes_status() {
                tx.push(
                    Label::Counter,
                    counters::add(
                        counters::BOOKINGS,
                        &BookingCounts::moved(m.from.status, m.to.status),
                    )?,
                );
            }
            if m.to.status.is_final() {
                tx.push(
                    Label::OpenBookings,
                    open_bookings::release(booking.user_id, id),
                );
            }
            if m.frees_ambulance() {
                // An emergency's end also lets its user ask for the next one.
                let (amb, guard) = tokio::join!(
                    self.store.fleet().ambulance_item(booking.ambulance_id),
                    self.store.emergencies().release_emergency_guard(&booking)
                );
                if let Some(release) = guard? {
                    tx.push(Label::EmergencyGuard, release);
                }
                // The ambulance is held by this booking (admins cannot change a held
                // ambulance); free it. If it is no longer held by it, leave it be.
                if let Some(amb) = amb?
                    && amb.held_by == Some(id)
                {
                    StatusMove {
                        ambulance: amb.id,
                        hospital_of_ambulance: amb.hospital_id,
                        from: amb.status,
                        to: AmbulanceStatus::Available,
                        require_hospital: None,
                        expected_holder: Some(id),
                        held_by: None,
                        free_at: Some(self.store.fleet().free_spot_of(&amb).await?),
                    }
                    .push_into(&mut tx)?;
                }
            }
            self.store.audit().push(
                &mut tx,
                Note::new(
                    Action::BookingStatusChanged,
                    Target::booking(id, booking.ambulance_id),
                )
                .before(progress_json(m.from))
                .after(progress_json(m.to)),
            );
            match self.store.commit(tx).await {
                // The update changed only the status, stage and timeline, on the
                // condition that they were as read: the booking as read, moved, is
                // what is stored.
                Ok(()) => Ok(booking.after(&m, at)),
                Err(TxError::Refused(_)) => Err(MoveAttempt::Raced),
                Err(TxError::Api(e)) => Err(MoveAttempt::Failed(e)),
            }
        };
        match attempt
            .retry(retry::policy().with_max_times(2))
            .when(|e| matches!(e, MoveAttempt::Raced))
            .await
        {
            Ok(booking) => Ok(booking),
            Err(MoveAttempt::Failed(e)) => Err(e),
            Err(MoveAttempt::Raced) => Err(Conflict::BookingChanged(id).into()),
        }
    }
}

/// `{status, stage}`: a booking's move as the audit trail shows it.
fn progress_json(p: Progress) -> serde_json::Value {
    serde_json::json!({ "status": p.status, "stage": p.stage })
}
