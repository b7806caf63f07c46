//! One-tap emergency (docs/decisions/0007-dispatch-data.md): the nearest free ambulance assigned in one
//! conditional transaction, no admin in the way; one open emergency per user.
//!
//! # Rounds
//!
//! 1. At once: the first search round(s) of `freegeo` (started at a radius guessed
//!    from this instance's copy of the hospital index), an earlier request under
//!    the Idempotency-Key, the user, the user's open-emergency guard, the nearest
//!    hospitals (the destination, and whom to call if none is free), a booking id.
//! 2. The transaction: the booking put (EMERGENCY, ACTIVE, DISPATCHED), the
//!    ambulance AVAILABLE → ON_DUTY held by it (its `FREEPOS` deleted, the fleet
//!    counter moved), for an ambulance ranked at its hospital a ConditionCheck that
//!    its `POSITION` is not fresh, the guard put (refused while another emergency of
//!    the user is open), the idempotency key, the booking counters, the booking's id
//!    among the user's open bookings (`open_bookings`, exempt from its limit), the
//!    request counted against the user's emergency rate limit (refused: 429;
//!    `limits::EMERGENCIES_PER_USER`).
//!
//! A refused ambulance sends the dispatch to the next candidate
//! (`domain::emergency::nearest`): a lost race costs one more round.
//!
//! # The guard
//!
//! `EMERGENCY#<user>` / `OPEN` names the user's open emergency booking. It is put
//! by the transaction that makes one (on the condition that none exists) and
//! deleted by the move that makes that booking final (`bookings`), so it
//! exists exactly while the user has an open one-tap emergency. A guard naming a
//! booking that is final anyway (none should) is replaced.

use domain::refusal::Conflict;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use super::{
    bookings::{BookingItem, count_new_booking, remember_request, request_hash},
    fleet::StatusMove,
    keys::{self, Key},
    limits,
    open_bookings::{self, OpenLimit},
    retry,
    table::Store,
    tx::{Label, Tx, TxError, Write},
};
use crate::error::StoreError;
use domain::{
    ambulance::AmbulanceStatus,
    booking::{self, Booking, BookingAmbulance, BookingType, NewBooking, Pickup},
    emergency::{
        self, EmergencyRequest,
        nearest::{
            Attempt, Candidate, DEFAULT_FIRST_TARGET_KM, Dispatch, DispatchStats, Dispatcher,
        },
    },
    geo::Point,
    hospital::{Hospital, HospitalRef},
    position::STALE_AFTER,
    presence::CrewPresence,
    settings::Settings,
    types::{Id, Timestamp, format_rfc3339},
    user::{self, User},
};

/// The hospitals a "none free" answer lists.
pub const HOSPITALS_TO_CALL: usize = 3;
/// How far the destination and the hospitals to call may be from the pickup.
pub const HOSPITALS_RADIUS_KM: f64 = 200.0;
/// The first search round reaches this far past the nearest hospital, where free
/// ambulances most likely stand (chosen with `bench_emergency`: the third nearest
/// hospital plus 1 km read 3 to 4 times the entries in a city for no fewer rounds).
const FIRST_TARGET_MARGIN_KM: f64 = 0.25;

/// `EMERGENCY#<user>` / `OPEN`: the user's open one-tap emergency.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct EmergencyGuard {
    #[serde(flatten)]
    key: Key,
    pub(crate) booking_id: Id,
}

/// What one emergency request cost (the benchmark's figures).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct EmergencyStats {
    /// Sequential DynamoDB rounds as the code issues them (calls made at once count
    /// once; a transaction the SDK retried after a conflict counts once).
    pub rounds: usize,
    pub dispatch: DispatchStats,
    /// How long the first round (the reads and the first search) took.
    pub first_round: std::time::Duration,
}

/// Why a dispatch stopped before trying every candidate.
enum Stop {
    Api(StoreError),
    /// The user's guard refused: another emergency of the user is open.
    Guard,
    /// The idempotency key refused: a retry of this request got there first.
    Repeated,
}

impl From<StoreError> for Stop {
    fn from(e: StoreError) -> Self {
        Stop::Api(e)
    }
}

/// What every attempt of one request shares.
struct Order<'a> {
    user: &'a User,
    key: Option<&'a str>,
    hash: &'a str,
    id: Id,
    pickup: &'a Pickup,
    req: &'a EmergencyRequest,
    destination: Option<&'a Hospital>,
    /// A guard naming a booking that is final: replaced.
    stale_guard: Option<Id>,
    now: OffsetDateTime,
    extra_rounds: &'a AtomicUsize,
    /// The settings read once for the request: the answer window, the number a
    /// refused requester is told to call.
    settings: &'a Settings,
}

/// `store.emergencies()`: the one-tap emergency: the nearest free ambulance assigned. Every
/// method of the handle is in this file.
#[derive(Clone, Copy)]
pub struct Emergencies<'a> {
    pub(super) store: &'a Store,
}

impl Emergencies<'_> {
    /// Dispatches the nearest free ambulance to `user`'s emergency (see the module
    /// documentation). With an idempotency key, a retry of the same request answers
    /// the first booking; at most one booking is ever made per key.
    pub async fn emergency(
        self,
        user: Id,
        req: EmergencyRequest,
        idempotency_key: Option<&str>,
    ) -> Result<Booking, StoreError> {
        Ok(self
            .emergency_with_stats(user, req, idempotency_key)
            .await?
            .0)
    }

    /// [`Emergencies::emergency`] with what it cost.
    pub async fn emergency_with_stats(
        self,
        user: Id,
        req: EmergencyRequest,
        key: Option<&str>,
    ) -> Result<(Booking, EmergencyStats), StoreError> {
        let hash = request_hash(user, &("emergency", &req))?;
        let mut rounds = 0;
        // Without a pickup the profile's location is it: the user first.
        let (pickup, account) = match &req.pickup {
            Some(pickup) => (pickup.clone(), None),
            None => {
                rounds += 1;
                let account = self
                    .store
                    .users()
                    .user(user)
                    .await?
                    .ok_or_else(user::not_found)?;
                (booking::pickup_or_profile(None, &account)?, Some(account))
            }
        };
        let center = pickup.point();
        let now = self.store.now();
        let settings = self.store.settings().await;
        let radius_km = settings.sos_radius_km();
        let mut dispatcher = Dispatcher::new(
            center,
            req.ambulance_type,
            now,
            self.first_target_km(center, radius_km),
            settings.presence_delay_seconds,
        )
        .within(radius_km);
        let mut fetch = move |ranges| async move {
            self.store
                .positions()
                .free_entries(ranges)
                .await
                .map_err(Stop::Api)
        };
        let mut presence = move |ids| async move {
            self.store
                .positions()
                .presence(ids)
                .await
                .map_err(Stop::Api)
        };
        let earlier = async {
            match key {
                Some(key) => self.store.bookings().replay(user, key, &hash).await,
                None => Ok(None),
            }
        };
        let account = async move {
            match account {
                Some(account) => Ok(Some(account)),
                None => self.store.users().user(user).await,
            }
        };
        let guard_key = keys::open_emergency(user);
        let started = std::time::Instant::now();
        let (earlier, account, guard, hospitals, id, first) = tokio::join!(
            earlier,
            account,
            self.store.get::<EmergencyGuard>(&guard_key),
            self.store.hospitals().nearest_hospitals(
                center,
                HOSPITALS_TO_CALL,
                HOSPITALS_RADIUS_KM
            ),
            self.store.next_id("booking"),
            dispatcher.search(&mut fetch, &mut presence),
        );
        let first_round = started.elapsed();
        let (hospitals, hospital_stats) = hospitals?;
        rounds += hospital_stats.rounds.max(dispatcher.stats.search_rounds);
        let first_rounds = dispatcher.stats.search_rounds;
        if let Some(first) = earlier? {
            return Ok((first, EmergencyStats::default()));
        }
        let account = account?.ok_or_else(user::not_found)?;
        let stale_guard = match guard? {
            Some(guard) => {
                rounds += 1;
                match self.store.bookings().booking(guard.booking_id).await? {
                    Some(open) if !open.booking_status.is_final() => {
                        return Err(emergency::open_emergency(open.id).into());
                    }
                    _ => Some(guard.booking_id),
                }
            }
            None => None,
        };
        let first = first.map_err(stop_error)?;
        let extra_rounds = AtomicUsize::new(0);
        let order = Order {
            user: &account,
            key,
            hash: &hash,
            id: id?,
            pickup: &pickup,
            req: &req,
            destination: hospitals.first(),
            stale_guard,
            now,
            extra_rounds: &extra_rounds,
            settings: &settings,
        };
        let outcome = dispatcher
            .run(first, fetch, presence, |c| self.try_emergency(&order, c))
            .await;
        let stats = |d: DispatchStats| EmergencyStats {
            rounds: rounds
                + d.tries
                + (d.search_rounds - first_rounds)
                + d.presence_reads
                + extra_rounds.load(Ordering::Relaxed),
            dispatch: d,
            first_round,
        };
        match outcome {
            Ok((Dispatch::Assigned { result, candidate }, d)) => {
                // Its crew not online: a person must phone the station at once
                // (decision 0020); two more rounds for these only.
                if candidate.presence != CrewPresence::Online {
                    extra_rounds.fetch_add(2, Ordering::Relaxed);
                    self.store
                        .alerts()
                        .raise_call_station(
                            &result,
                            candidate.presence,
                            candidate.entry.hospital_id,
                            hospitals.first(),
                        )
                        .await;
                }
                Ok((result, stats(d)))
            }
            Ok((Dispatch::NoneNear, _)) => {
                // A retry of this very request may have taken the last one.
                let answer = self
                    .earlier_or(
                        user,
                        key,
                        &hash,
                        emergency::no_ambulance_near(&hospitals).into(),
                    )
                    .await;
                if answer.is_err() {
                    // Counted against the user's limit, and the dispatcher is told
                    // (decisions 0012, 0019). Beyond the limit: the 429, which says
                    // to call the emergency number. Any other failure is logged:
                    // the refusal itself is the answer.
                    match self
                        .store
                        .alerts()
                        .raise_no_ambulance(
                            user,
                            key,
                            &pickup,
                            hospitals.first(),
                            &settings.emergency_number,
                        )
                        .await
                    {
                        Err(limited @ StoreError::TooManyRequests { .. }) => return Err(limited),
                        Err(e) => {
                            tracing::error!(error = %e, %user, "could not raise a NO_AMBULANCE alert")
                        }
                        Ok(()) => {}
                    }
                }
                answer
            }
            Ok((Dispatch::GaveUp, _)) => {
                self.earlier_or(user, key, &hash, StoreError::Unavailable)
                    .await
            }
            Err(Stop::Repeated) => {
                let busy = Conflict::EmergencyKeyInProgress.into();
                self.earlier_or(user, key, &hash, busy).await
            }
            Err(Stop::Guard) => {
                let open = self
                    .store
                    .get::<EmergencyGuard>(&keys::open_emergency(user))
                    .await?;
                let err = match open {
                    Some(guard) => emergency::open_emergency(guard.booking_id).into(),
                    None => Conflict::EmergencyEnded.into(),
                };
                self.earlier_or(user, key, &hash, err).await
            }
            Err(Stop::Api(e)) => Err(e),
        }
    }

    /// The write that deletes the user's guard in the move that makes `booking`
    /// final, if the guard names it (an emergency booking from this route; not one
    /// of type EMERGENCY made with the booking form).
    pub(crate) async fn release_emergency_guard(
        self,
        booking: &Booking,
    ) -> Result<Option<Write>, StoreError> {
        if booking.booking_type != BookingType::Emergency {
            return Ok(None);
        }
        let key = keys::open_emergency(booking.user_id);
        Ok(self
            .store
            .get::<EmergencyGuard>(&key)
            .await?
            .filter(|guard| guard.booking_id == booking.id)
            .map(|_| {
                Write::delete(key)
                    .when("bookingId = :id")
                    .value(":id", booking.id)
            }))
    }

    /// The first search radius: just past the nearest hospital in this instance's
    /// copy of the hospital index (no read; a guess, which the answer does not
    /// depend on), all of `radius_km` where no hospital is that near.
    pub(super) fn first_target_km(self, center: Point, radius_km: f64) -> f64 {
        match self
            .store
            .hospitals()
            .nearest_hospitals_held(center, 1, radius_km)
        {
            None => DEFAULT_FIRST_TARGET_KM.min(radius_km),
            Some(near) => match near.first().and_then(|h| h.distance) {
                Some(d) => (d + FIRST_TARGET_MARGIN_KM).min(radius_km),
                None => radius_km,
            },
        }
    }

    /// The booking an earlier request under `key` made (a retry that won a race with
    /// this one), else `err`.
    async fn earlier_or<T: Default>(
        self,
        user: Id,
        key: Option<&str>,
        hash: &str,
        err: StoreError,
    ) -> Result<(Booking, T), StoreError> {
        match key {
            Some(key) => match self.store.bookings().replay(user, key, hash).await? {
                Some(first) => Ok((first, T::default())),
                None => Err(err),
            },
            None => Err(err),
        }
    }

    /// One attempt: `candidate` assigned to the order, all or nothing.
    async fn try_emergency(
        self,
        order: &Order<'_>,
        candidate: Candidate,
    ) -> Result<Attempt<Booking>, Stop> {
        let entry = &candidate.entry;
        let ambulance = entry.ambulance;
        let (number, driver_info) = (entry.number.clone(), entry.driver_info.clone());
        // The destination: the hospital nearest to the pickup; none within reach,
        // the ambulance's own.
        let destination = match order.destination {
            Some(h) => HospitalRef {
                id: h.id,
                name: h.name.clone(),
                address: h.address.clone(),
            },
            None => {
                order.extra_rounds.fetch_add(1, Ordering::Relaxed);
                let h = self
                    .store
                    .hospitals()
                    .hospital(entry.hospital_id)
                    .await?
                    .ok_or_else(|| {
                        StoreError::internal(format!("ambulance {ambulance} has no hospital"))
                    })?;
                HospitalRef {
                    id: h.id,
                    name: h.name,
                    address: h.address,
                }
            }
        };
        let now = self.store.now();
        let booking = Booking::emergency(NewBooking {
            id: order.id,
            requester: order.user,
            destination,
            ambulance: BookingAmbulance {
                id: ambulance,
                number,
                ambulance_type: entry.ambulance_type,
                driver_info,
            },
            patient: order.req.patient.clone().unwrap_or_default(),
            pickup: order.pickup.clone(),
            at: Timestamp::new_or_now(now),
            answer_by: order
                .settings
                .answer_times()
                .answer_by(BookingType::Emergency, now),
        });

        let mut tx = Tx::new();
        // The guard first: of several refusals it is the one to report.
        let guard = EmergencyGuard {
            key: keys::open_emergency(order.user.id),
            booking_id: order.id,
        };
        tx.push(
            Label::EmergencyGuard,
            match order.stale_guard {
                None => Write::put(&guard).absent(),
                Some(stale) => Write::put(&guard)
                    .when("attribute_not_exists(pk) OR bookingId = :stale")
                    .value(":stale", stale),
            },
        );
        if let Some(key) = order.key {
            tx.push(
                Label::IdempotencyKey,
                remember_request(order.user.id, key, order.id, order.hash),
            );
        }
        tx.push(
            Label::Booking(order.id),
            Write::put(&BookingItem::new(booking.clone())).absent(),
        )
        // Among the user's open bookings, refused only for an account deleted this
        // very moment (`store::privacy`): the guard above already limits
        // emergencies to one, and the open-bookings limit is for the form's.
        .push(
            Label::OpenBookings,
            open_bookings::claim(order.user.id, order.id, OpenLimit::Exempt),
        );
        take_candidate(&mut tx, &candidate, order.id, order.now)?;
        let (counted, limited) =
            limits::count_emergency(order.user.id, order.key, &order.settings.emergency_number);
        tx.push(Label::RateLimit, counted);
        count_new_booking(&mut tx, &booking)?;
        match self.store.commit_with(tx, retry::patient_policy()).await {
            Ok(()) => Ok(Attempt::Assigned(booking)),
            Err(TxError::Refused(r)) if r.by(Label::EmergencyGuard) => Err(Stop::Guard),
            Err(TxError::Refused(r)) if r.by(Label::IdempotencyKey) => Err(Stop::Repeated),
            Err(TxError::Refused(r)) if r.by(Label::RateLimit) => Err(Stop::Api(limited)),
            Err(TxError::Refused(r)) if r.by(Label::Ambulance(ambulance)) => Ok(Attempt::Taken),
            Err(TxError::Refused(r)) if r.by(Label::Position(ambulance)) => Ok(Attempt::Elsewhere),
            Err(TxError::Refused(r)) if r.by(Label::OpenBookings) => Err(Stop::Api(
                StoreError::SignedOut("This account has been deleted".into()),
            )),
            Err(TxError::Api(StoreError::Unavailable)) => Ok(Attempt::Busy),
            Err(e) => Err(Stop::Api(e.into_api())),
        }
    }
}

/// Into `tx`: `candidate`'s ambulance AVAILABLE → ON_DUTY, held by `booking` and,
/// when it was ranked at its hospital, only if it has no fresh position elsewhere
/// (refusals: `Label::Ambulance`, `Label::Position`).
pub(crate) fn take_candidate(
    tx: &mut Tx,
    candidate: &Candidate,
    booking: Id,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    let ambulance = candidate.entry.ambulance;
    StatusMove {
        ambulance,
        hospital_of_ambulance: candidate.entry.hospital_id,
        from: AmbulanceStatus::Available,
        to: AmbulanceStatus::OnDuty,
        require_hospital: None,
        expected_holder: None,
        held_by: Some(booking),
        free_at: None,
    }
    .push_into(tx)?;
    if candidate.check_position {
        tx.push(
            Label::Position(ambulance),
            Write::check(keys::position(ambulance))
                .when("attribute_not_exists(recordedAt) OR recordedAt < :freshSince")
                .value(":freshSince", format_rfc3339(now - STALE_AFTER)),
        );
    }
    Ok(())
}

fn stop_error(stop: Stop) -> StoreError {
    match stop {
        Stop::Api(e) => e,
        Stop::Guard | Stop::Repeated => StoreError::internal("a search cannot be refused"),
    }
}
