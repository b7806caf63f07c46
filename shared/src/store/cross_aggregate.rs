//! Writes that change more than one entity at once, each in one transaction with
//! conditions, so a race or a crash never leaves them half done:
//!
//! - booking: the booking is written and its ambulance moves AVAILABLE → ON_DUTY
//!   (held by the booking) only together; a final status frees the ambulance in the
//!   same transaction. So two people can never book one ambulance, and a crash can
//!   never leave it stuck;
//! - an ambulance is added to, or removed from, its hospital's count with it, and a
//!   hospital goes only with all its ambulances.
//!
//! The rules (which moves are allowed, what a refusal says) are in `domain`.

use crate::domain::refusal::Conflict;
use std::sync::Mutex;

use backon::Retryable;
use serde::{Deserialize, Serialize};

use super::{
    ambulances::{AmbulanceItem, StatusMove},
    bookings::{BookingItem, booking_move, count_new_booking, remember_request, request_hash},
    counters::{self, Total},
    hospital_snapshot::IndexChange,
    hospitals::count_ambulances,
    keys::{self, Key},
    open_bookings::{self, OpenLimit},
    retry,
    table::Store,
    tx::{Label, Refused, Tx, TxError, Write},
};
use crate::{
    domain::{
        ambulance::{self, Ambulance, AmbulanceCounts, AmbulanceStatus, NewAmbulance},
        booking::{
            self, Booking, BookingAmbulance, BookingCounts, BookingRequest, Goal, Mover, NewBooking,
        },
        crew,
        hospital::{self, Hospital, HospitalRef},
        user,
    },
    error::ApiError,
    types::{Id, now_rfc3339},
};

/// Claims an ambulance number.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct NumberGuard {
    #[serde(flatten)]
    key: Key,
    ambulance_id: Id,
}

/// Ambulances removed per transaction: 4 items each (the ambulance, its number guard
/// and its two position items) plus up to 3 (the hospital or its count, and two
/// counters) plus, in the last one, the 3 of the nearest-hospital index stay within
/// DynamoDB's 100 items (4 × 23 + 3 + 3 = 98).
pub const AMBULANCES_PER_REMOVAL: usize = 23;

/// How one attempt of a booking's move ended.
enum MoveAttempt {
    /// Someone moved the booking at the same time: read it again and re-check.
    Raced,
    Failed(ApiError),
}

/// An error, or a domain refusal (`?` on the state machine's plan).
impl<E: Into<ApiError>> From<E> for MoveAttempt {
    fn from(e: E) -> Self {
        MoveAttempt::Failed(e.into())
    }
}

/// Why one attempt at a booking made none.
enum BookFailure {
    /// Refused by something a retry of the same request could have taken first (the
    /// ambulance, the open-bookings limit, the idempotency key): with a key, look for
    /// that booking before answering with the refusal.
    Raced(ApiError),
    Failed(ApiError),
}

impl<E: Into<ApiError>> From<E> for BookFailure {
    fn from(e: E) -> Self {
        BookFailure::Failed(e.into())
    }
}

impl Store {
    pub async fn add_ambulance(&self, new: NewAmbulance) -> Result<Ambulance, ApiError> {
        // The hospital (for its name and address) and a fresh id at once: independent.
        // An unknown hospital then leaves a gap in the ids, as any refused add does.
        let (hospital, id) = tokio::join!(
            self.hospital_item(new.hospital_id),
            self.next_id("ambulance")
        );
        let hospital = hospital?.ok_or_else(|| hospital::not_found(new.hospital_id))?;
        let id = id?;
        let hospital = Hospital::from(hospital);
        let item = AmbulanceItem::new(id, &new, &hospital);
        let guard = NumberGuard {
            key: keys::ambulance_number_guard(&new.number),
            ambulance_id: id,
        };
        let mut tx = Tx::new();
        tx.push(Label::Ambulance(id), Write::put(&item).absent())
            .push(Label::AmbulanceNumberGuard(id), Write::put(&guard).absent())
            .push(
                Label::Hospital(new.hospital_id),
                count_ambulances(new.hospital_id, 1),
            )
            .push(
                Label::Counter,
                counters::add(counters::AMBULANCES, &AmbulanceCounts::of(&[new.status]))?,
            );
        if new.status == AmbulanceStatus::Available {
            // A new ambulance never reported: its free entry stands at the hospital.
            tx.push(
                Label::FreeEntry(id),
                item.free_spot(
                    crate::geo::Point::new(hospital.latitude, hospital.longitude),
                    None,
                )
                .entry(),
            );
        }
        self.commit(tx).await.map_err(|e| {
            e.or_refused(|r| {
                if r.by(Label::AmbulanceNumberGuard(id)) {
                    ambulance::number_taken(&new.number).into()
                } else if r.by(Label::Hospital(new.hospital_id)) {
                    hospital::not_found(new.hospital_id).into()
                } else {
                    ApiError::internal(format!("adding an ambulance refused: {r:?}"))
                }
            })
        })?;
        Ok(item.into())
    }

    /// Removes an idle ambulance; one held by an open booking is refused (409).
    pub async fn remove_ambulance(&self, id: Id) -> Result<(), ApiError> {
        let a = self
            .ambulance_item(id)
            .await?
            .ok_or_else(|| ambulance::not_found(id))?;
        if let Some(booking) = a.held_by {
            return Err(ambulance::held_conflict(&a.number, booking, "removed").into());
        }
        if a.crew_count > 0 {
            return Err(crew::has_crew(&a.number, a.crew_count).into());
        }
        let mut tx = Tx::new();
        a.push_removal(&mut tx);
        tx.push(
            Label::Hospital(a.hospital_id),
            count_ambulances(a.hospital_id, -1),
        )
        .push(
            Label::Counter,
            counters::add(
                counters::AMBULANCES,
                &AmbulanceCounts::of(&[a.status]).removed(),
            )?,
        );
        match self.commit(tx).await {
            Ok(()) => Ok(()),
            Err(TxError::Refused(_)) => Err(match self.ambulance_item(id).await {
                // A crew account was just bound to it.
                Ok(Some(now)) if now.crew_count > 0 => {
                    crew::has_crew(&now.number, now.crew_count).into()
                }
                _ => ambulance::changed_meanwhile(&a.number, "while it was being removed").into(),
            }),
            Err(TxError::Api(e)) => Err(e),
        }
    }

    /// Removes a hospital with its idle ambulances. Refused (409 naming the booking)
    /// while any of its ambulances is held by an open booking.
    ///
    /// Up to [`AMBULANCES_PER_REMOVAL`] ambulances, everything goes in one
    /// transaction: each ambulance deleted on the condition that its status is the
    /// one read and no booking holds it, its number guard, the hospital on the
    /// condition that its `ambulanceCount` is the number of ambulances deleted (so an
    /// ambulance the index did not show yet, or one added meanwhile, makes the whole
    /// removal fail instead of being orphaned), and the counters.
    ///
    /// A bigger fleet does not fit in one transaction (100 items): its surplus goes
    /// first in transactions of [`AMBULANCES_PER_REMOVAL`] ambulances, each keeping
    /// the counters and the hospital's `ambulanceCount` exact, and the last one
    /// takes the hospital. If something changes in between (an ambulance booked),
    /// the removal stops with a 409 and what was removed stays removed; the hospital
    /// and its remaining ambulances are intact and consistent, and a retry finishes.
    pub async fn remove_hospital(&self, id: Id) -> Result<(), ApiError> {
        // Two independent reads at once; the hospital's 404 still comes first. (The
        // final transaction's condition on `ambulanceCount`, not this read, is what
        // proves the list of ambulances complete.)
        let (hospital, ambulances) =
            tokio::join!(self.hospital_item(id), self.hospital_ambulance_items(id));
        if hospital?.is_none() {
            return Err(hospital::not_found(id).into());
        }
        let ambulances = ambulances?;
        if let Some((held, booking)) = ambulances
            .iter()
            .find_map(|a| a.held_by.map(|booking| (a, booking)))
        {
            return Err(hospital::held_conflict(id, &held.number, booking).into());
        }
        if let Some(crewed) = ambulances.iter().find(|a| a.crew_count > 0) {
            return Err(hospital::crew_conflict(id, &crewed.number, crewed.crew_count).into());
        }
        let (first, last) = ambulances.split_at(ambulances.len() % AMBULANCES_PER_REMOVAL);
        let mut chunks: Vec<&[AmbulanceItem]> = last.chunks(AMBULANCES_PER_REMOVAL).collect();
        if !first.is_empty() || chunks.is_empty() {
            chunks.insert(0, first);
        }
        let final_chunk = chunks.len() - 1;
        for (i, chunk) in chunks.into_iter().enumerate() {
            let is_final = i == final_chunk;
            let removal = || {
                let mut tx = Tx::new();
                for a in chunk {
                    a.push_removal(&mut tx);
                }
                let gone = AmbulanceCounts::of(chunk.iter().map(|a| &a.status));
                if gone.total != 0 {
                    tx.push(
                        Label::Counter,
                        counters::add(counters::AMBULANCES, &gone.removed())?,
                    );
                }
                if is_final {
                    tx.push(
                        Label::Hospital(id),
                        Write::delete(keys::hospital(id))
                            .exists()
                            .when("ambulanceCount = :n")
                            .value(":n", chunk.len()),
                    )
                    .push(
                        Label::Counter,
                        counters::add(counters::HOSPITALS, &Total { total: -1 })?,
                    );
                } else {
                    tx.push(
                        Label::Hospital(id),
                        count_ambulances(id, -(chunk.len() as i64)),
                    );
                }
                Ok(tx)
            };
            let committed = if is_final {
                // The hospital leaves the nearest-search index in the same transaction.
                self.commit_with_index(IndexChange::Remove(id), removal)
                    .await
            } else {
                self.commit(removal()?).await
            };
            if let Err(e) = committed {
                return Err(match e {
                    TxError::Api(e) => e,
                    TxError::Refused(r) => self.removal_conflict(id, &r).await,
                });
            }
        }
        Ok(())
    }

    /// Why a removal transaction was refused, as clearly as we can tell.
    async fn removal_conflict(&self, id: Id, refused: &Refused) -> ApiError {
        for label in refused.labels() {
            if let Label::Ambulance(ambulance) = label
                && let Ok(Some(now)) = self.ambulance_item(*ambulance).await
            {
                if let Some(booking) = now.held_by {
                    return hospital::held_conflict(id, &now.number, booking).into();
                }
                if now.crew_count > 0 {
                    return hospital::crew_conflict(id, &now.number, now.crew_count).into();
                }
            }
        }
        hospital::changed_during_removal(id).into()
    }

    /// Books an ambulance for `user`. With an idempotency key, a retry of the same
    /// request returns the first booking, and a different request under the same key
    /// is refused (422); at most one booking is ever made per key. Where `limit`
    /// applies, a user with [`open_bookings::MAX_OPEN_BOOKINGS`] open bookings gets 409.
    pub async fn book(
        &self,
        user: Id,
        req: BookingRequest,
        idempotency_key: Option<&str>,
        limit: OpenLimit,
    ) -> Result<Booking, ApiError> {
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
        &self,
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
        let (earlier, account, hospital, ambulance, id) = tokio::join!(
            earlier,
            self.user(user),
            self.hospital(req.hospital_id),
            self.ambulance(req.ambulance_id),
            self.next_id("booking")
        );
        if let Some(existing) = earlier? {
            return Ok(existing);
        }
        let account = account?.ok_or_else(user::not_found)?;
        let hospital = hospital?.ok_or_else(|| hospital::not_found(req.hospital_id))?;
        let ambulance = ambulance?.ok_or_else(|| ambulance::not_found(req.ambulance_id))?;
        if ambulance.hospital_id != hospital.id {
            return Err(ApiError::bad_request(
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
        let booking = Booking::booked(
            NewBooking {
                id,
                requester: &account,
                destination: HospitalRef {
                    id: hospital.id,
                    name: hospital.name,
                    address: hospital.address,
                },
                ambulance: BookingAmbulance {
                    id: ambulance.id,
                    number: ambulance.number,
                    ambulance_type: ambulance.ambulance_type,
                    driver_info: ambulance.driver_info,
                },
                patient: req.patient.clone().into(),
                pickup,
                at: now,
                answer_by: self.answer_times().answer_by(req.booking_type, now),
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
        match self.commit(tx).await {
            Ok(()) => Ok(booking),
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
        &self,
        id: Id,
        mover: Mover,
        goal: Goal,
    ) -> Result<Booking, ApiError> {
        self.move_from(id, mover, goal, None).await
    }

    /// [`Store::move_booking`] of a booking the caller has just read (to check who may
    /// move it): the first attempt starts from it instead of reading it again. The
    /// move is still conditional on the status and stage read, and a refused attempt
    /// reads the booking afresh.
    pub async fn move_read_booking(
        &self,
        booking: Booking,
        mover: Mover,
        goal: Goal,
    ) -> Result<Booking, ApiError> {
        self.move_from(booking.id, mover, goal, Some(booking)).await
    }

    async fn move_from(
        &self,
        id: Id,
        mover: Mover,
        goal: Goal,
        read: Option<Booking>,
    ) -> Result<Booking, ApiError> {
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
            let at = now_rfc3339();
            let mut tx = Tx::new();
            tx.push(Label::Booking(id), booking_move(&booking, &m, &at));
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
                    self.ambulance_item(booking.ambulance_id),
                    self.release_emergency_guard(&booking)
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
                        free_at: Some(self.free_spot_of(&amb).await?),
                    }
                    .push_into(&mut tx)?;
                }
            }
            match self.commit(tx).await {
                // The update changed only the status, stage and timeline, on the
                // condition that they were as read: the booking as read, moved, is
                // what is stored.
                Ok(()) => Ok(booking.after(&m, &at)),
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
