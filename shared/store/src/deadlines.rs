//! The clock's work (decision 0012): the bookings whose answer deadline has passed,
//! read from the sparse `due` index, each decided by `domain::deadline` and done in
//! one conditional transaction; then the open alerts whose cause is gone, closed.
//!
//! Every write is conditional on what was read (the booking's `duesk` and
//! ambulance), so any number of sweeps running at once move a job once, and a late
//! accept, a cancel or a dispatcher's reassign racing the clock leaves exactly one
//! winner: a sweep that loses does nothing.

use domain::refusal::Conflict;
use futures::{StreamExt, stream};
use serde::Deserialize;
use serde_json::json;
use time::OffsetDateTime;

use super::{
    alerts,
    bookings::{BookingItem, due_key, still_at},
    emergencies,
    fleet::{AmbulanceItem, StatusMove},
    keys::{self, Key},
    schema::DUE,
    table::{Query, Store},
    tx::{Label, Tx, TxError, Write},
};
use crate::error::StoreError;
use domain::{
    alert::{Alert, AlertKind},
    ambulance::{self, AmbulanceStatus},
    audit::{Action, Note, Target},
    booking::{
        self, Booking, BookingAmbulance, BookingStatus, BookingType, ReassignReason, TimelineEntry,
        TripStage,
    },
    deadline::{self, AnswerTimes, Verdict},
    emergency::nearest::{Attempt, Candidate, DEFAULT_FIRST_TARGET_KM, Dispatch, Dispatcher},
    presence::CrewPresence,
    types::{Id, Timestamp},
};

/// Due bookings one sweep takes at most (oldest deadline first); the next sweep,
/// seconds later, takes the rest.
pub const SWEEP_LIMIT: usize = 200;
/// Bookings decided at once.
const AT_ONCE: usize = 8;

/// What one sweep did (logged by the clock, printed by the benchmark).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SweepReport {
    /// Bookings read from the `due` index.
    pub due: usize,
    pub moved: usize,
    pub alerted: usize,
    /// Accepted or ended meanwhile: taken off the clock.
    pub settled: usize,
    /// Not due after all (the index was behind a new deadline).
    pub not_due: usize,
    /// Another writer (a crew, a requester, an admin, another sweep) got there first.
    pub raced: usize,
    /// Failed (logged); the next sweep tries them again.
    pub failed: usize,
    pub alerts_closed: usize,
    /// How long the oldest `UNANSWERED` alert still open after the sweep has been
    /// open, in seconds (0: none): its alarm's metric.
    pub oldest_unanswered_secs: u64,
}

/// What the clock did with one booking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Settled,
    NotDue,
    /// Moved to this ambulance.
    Moved(Id),
    /// An `UNANSWERED` alert was raised (its id).
    Alerted(Id),
    Raced,
}

#[derive(Deserialize)]
struct DueKey {
    #[serde(flatten)]
    key: Key,
}

/// Why a move stopped before trying every candidate.
enum Stop {
    Api(StoreError),
    /// The booking or its ambulance changed since it was read.
    Raced,
}

impl From<StoreError> for Stop {
    fn from(e: StoreError) -> Self {
        Stop::Api(e)
    }
}

fn epoch_ms(t: OffsetDateTime) -> i64 {
    (t.unix_timestamp_nanos() / 1_000_000) as i64
}

/// `store.deadlines()`: the clock's work: answer deadlines, the manual reassign. Every
/// method of the handle is in this file.
#[derive(Clone, Copy)]
pub struct Deadlines<'a> {
    pub(super) store: &'a Store,
}

impl Deadlines<'_> {
    /// One sweep at `now`: every booking due (at most [`SWEEP_LIMIT`]) decided and
    /// done, then the open alerts whose cause is gone closed.
    pub async fn sweep(self, now: OffsetDateTime) -> Result<SweepReport, StoreError> {
        let due: Vec<DueKey> = self
            .store
            .query_first(
                Query::on(DUE, "duepk = :p AND duesk <= :now")
                    .value(":p", keys::DUE)
                    .value(":now", epoch_ms(now)),
                SWEEP_LIMIT,
            )
            .await?;
        let mut report = SweepReport {
            due: due.len(),
            ..SweepReport::default()
        };
        // One booking that fails (an item that does not read, a database error) is
        // logged and counted, and never holds up the others: the next sweep tries it
        // again.
        let outcomes: Vec<Result<Outcome, StoreError>> = stream::iter(due)
            .map(|d| async move {
                let pk = d.key.pk.clone();
                self.answer_deadline(d.key, now).await.inspect_err(
                    |e| tracing::error!(error = %e, booking = %pk, "answer deadline failed"),
                )
            })
            .buffer_unordered(AT_ONCE)
            .collect()
            .await;
        for outcome in outcomes {
            match outcome {
                Ok(Outcome::Settled) => report.settled += 1,
                Ok(Outcome::NotDue) => report.not_due += 1,
                Ok(Outcome::Moved(_)) => report.moved += 1,
                Ok(Outcome::Alerted(_)) => report.alerted += 1,
                Ok(Outcome::Raced) => report.raced += 1,
                Err(_) => report.failed += 1,
            }
        }
        (report.alerts_closed, report.oldest_unanswered_secs) =
            self.close_settled_alerts(now).await?;
        Ok(report)
    }

    /// Decides and does what booking `key`'s passed deadline calls for.
    pub async fn answer_deadline(
        self,
        key: Key,
        now: OffsetDateTime,
    ) -> Result<Outcome, StoreError> {
        let Some(item) = self.store.get::<BookingItem>(&key).await? else {
            return Ok(Outcome::Settled);
        };
        let booking = Booking::from(item.clone());
        let warned = item.unanswered_alert.is_some();
        let moves = self.store.settings().await.automatic_moves;
        match deadline::on_deadline(&booking, now, warned, moves) {
            Verdict::NotDue => Ok(Outcome::NotDue),
            Verdict::Warn => self.warn(&item, &booking, now).await,
            Verdict::Settled => {
                // Off the clock already, unless a write left its index keys behind
                // (a final booking's are the retention sweep's: `keys::FORGET`).
                if let (Some(due), Some(keys::DUE)) = (item.duesk, item.duepk.as_deref()) {
                    self.store
                        .update_returning::<serde::de::IgnoredAny>(
                            Write::update(key, "REMOVE duepk, duesk")
                                .when("duepk = :p AND duesk = :due")
                                .value(":p", keys::DUE)
                                .value(":due", due),
                        )
                        .await?;
                }
                Ok(Outcome::Settled)
            }
            Verdict::TryMove { warn } => match self.move_on(&item, &booking, now, warn).await? {
                Some(outcome) => Ok(outcome),
                None => self.raise_unanswered(&item, &booking, now).await,
            },
            Verdict::Alert => self.raise_unanswered(&item, &booking, now).await,
        }
    }

    /// The job stays where it is, off the clock, and an `UNANSWERED` alert is
    /// raised, in one transaction conditional on the deadline and ambulance read;
    /// when the emergency's alert is open already (raised a minute after it was
    /// sent), that one is brought up to date (the moves in all) instead of a second.
    async fn raise_unanswered(
        self,
        item: &BookingItem,
        booking: &Booking,
        now: OffsetDateTime,
    ) -> Result<Outcome, StoreError> {
        let moves = u32::try_from(deadline::moves_so_far(booking)).unwrap_or(u32::MAX);
        let open = match item.unanswered_alert {
            Some(id) => self
                .store
                .alerts()
                .alert(id)
                .await?
                .filter(Alert::is_open)
                .map(|a| a.id),
            None => None,
        };
        let mut tx = Tx::new();
        let mut booking_write = off_the_clock(item, booking);
        let id = match open {
            Some(id) => {
                booking_write = booking_write.set_expression("REMOVE duepk, duesk".into());
                tx.push(Label::Alert, alerts::count_moves(id, moves, booking));
                id
            }
            None => {
                let id = self.store.next_id("alert").await?;
                booking_write = booking_write
                    .set_expression("SET unansweredAlert = :alert REMOVE duepk, duesk".into())
                    .value(":alert", id);
                tx.push(
                    Label::Alert,
                    alerts::raise(unanswered(id, booking, moves, now)),
                );
                id
            }
        };
        tx.push(Label::Booking(booking.id), booking_write);
        match self.store.commit(tx).await {
            Ok(()) => {
                tracing::warn!(booking = %booking.id, alert = %id, "answer deadline passed: UNANSWERED");
                Ok(Outcome::Alerted(id))
            }
            Err(TxError::Refused(_)) => Ok(Outcome::Raced),
            Err(TxError::Api(e)) => Err(e),
        }
    }

    /// A minute after an emergency was sent and before its deadline (an answer
    /// window longer than that): its `UNANSWERED` alert, the job where it is and on
    /// the clock until its deadline.
    async fn warn(
        self,
        item: &BookingItem,
        booking: &Booking,
        now: OffsetDateTime,
    ) -> Result<Outcome, StoreError> {
        let Some(answer_by) = booking.answer_by else {
            return Ok(Outcome::Settled);
        };
        let id = self.store.next_id("alert").await?;
        let moves = u32::try_from(deadline::moves_so_far(booking)).unwrap_or(u32::MAX);
        let mut tx = Tx::new();
        tx.push(
            Label::Booking(booking.id),
            off_the_clock(item, booking)
                .set_expression("SET unansweredAlert = :alert, duesk = :due".into())
                .value(":alert", id)
                .value(":due", due_key(answer_by)),
        )
        .push(
            Label::Alert,
            alerts::raise(unanswered(id, booking, moves, now)),
        );
        match self.store.commit(tx).await {
            Ok(()) => {
                tracing::warn!(booking = %booking.id, alert = %id, "emergency not accepted after a minute: UNANSWERED");
                Ok(Outcome::Alerted(id))
            }
            Err(TxError::Refused(_)) => Ok(Outcome::Raced),
            Err(TxError::Api(e)) => Err(e),
        }
    }

    /// The job to the next nearest free ambulance that has not missed it; `None`
    /// when none is free within reach (then an alert).
    async fn move_on(
        self,
        item: &BookingItem,
        booking: &Booking,
        now: OffsetDateTime,
        warn: bool,
    ) -> Result<Option<Outcome>, StoreError> {
        let Some(pickup) = &booking.pickup else {
            return Ok(None);
        };
        let mut missed = item.missed_by.clone();
        missed.push(booking.ambulance_id);
        let settings = self.store.settings().await;
        // Any type: an ambulance now beats the right kind later (decision 0012).
        let radius_km = settings.sos_radius_km();
        let mut dispatcher = Dispatcher::new(
            domain::geo::Point::new(pickup.latitude.get(), pickup.longitude.get()),
            None,
            now,
            DEFAULT_FIRST_TARGET_KM.min(radius_km),
            settings.presence_delay_seconds,
        )
        .within(radius_km);
        let missed = &missed;
        let mut fetch = move |ranges| async move {
            let mut entries = self
                .store
                .positions()
                .free_entries(ranges)
                .await
                .map_err(Stop::Api)?;
            entries.retain(|e| !missed.contains(&e.ambulance));
            Ok::<_, Stop>(entries)
        };
        let mut presence = move |ids| async move {
            self.store
                .positions()
                .presence(ids)
                .await
                .map_err(Stop::Api)
        };
        let first = match dispatcher.search(&mut fetch, &mut presence).await {
            Ok(first) => first,
            Err(Stop::Api(e)) => return Err(e),
            Err(Stop::Raced) => return Ok(Some(Outcome::Raced)),
        };
        let (alert_id, unanswered_id) = tokio::try_join!(self.store.next_id("alert"), async {
            match warn {
                true => self.store.next_id("alert").await.map(Some),
                false => Ok(None),
            }
        })?;
        let ids = MoveAlerts {
            not_responding: alert_id,
            unanswered: unanswered_id,
        };
        let answer_times = settings.answer_times();
        let outcome = dispatcher
            .run(first, fetch, presence, |c| {
                self.try_move(item, booking, c, now, ids, answer_times)
            })
            .await;
        match outcome {
            Ok((Dispatch::Assigned { result, .. }, _)) => {
                tracing::warn!(booking = %booking.id, from = %booking.ambulance_id, to = %result, "answer deadline passed: moved");
                Ok(Some(Outcome::Moved(result)))
            }
            Ok((Dispatch::NoneNear, _)) => Ok(None),
            // Every candidate refused (a crowd of racers): the next sweep tries again.
            Ok((Dispatch::GaveUp, _)) => Ok(Some(Outcome::Raced)),
            Err(Stop::Raced) => Ok(Some(Outcome::Raced)),
            Err(Stop::Api(e)) => Err(e),
        }
    }

    /// One attempt: the booking to `candidate`, the old ambulance out of the free
    /// pool as not responding (with its alert), all or nothing.
    async fn try_move(
        self,
        item: &BookingItem,
        booking: &Booking,
        candidate: Candidate,
        now: OffsetDateTime,
        ids: MoveAlerts,
        answer_times: AnswerTimes,
    ) -> Result<Attempt<Id>, Stop> {
        let entry = &candidate.entry;
        let to = entry.ambulance;
        let (number, driver_info) = (entry.number.clone(), entry.driver_info.clone());
        let at = Timestamp::new_or_now(now);
        let answer_by = answer_times.answer_by(booking.booking_type, now);
        let warned = item.unanswered_alert.is_some() || ids.unanswered.is_some();
        let due = deadline::next_due(booking, answer_by, warned);
        // Its crew not online: a person must phone the station (decision 0020).
        let call = match candidate.presence {
            CrewPresence::Online => None,
            presence => Some((
                presence,
                self.store
                    .alerts()
                    .station_call_parts(entry.hospital_id, None)
                    .await?,
            )),
        };
        let moved = BookingAmbulance {
            id: to,
            number: number.clone(),
            ambulance_type: entry.ambulance_type,
            driver_info,
        };
        let from = booking.ambulance_id;
        let mut sets = String::from(
            "SET ambulanceId = :to, ambulanceNumber = :number, ambulance = :ambulance, \
             answerBy = :answerBy, duepk = :duepk, duesk = :duesk, \
             timeline = list_append(timeline, :entry), \
             missedBy = list_append(if_not_exists(missedBy, :none), :missed)",
        );
        let mut write = off_the_clock(item, booking);
        if let Some(id) = ids.unanswered {
            sets.push_str(", unansweredAlert = :alert");
            write = write.value(":alert", id);
        }
        // The new ambulance's hospital receives the patient, unless the crew chose.
        if !item.destination_chosen && booking.destination() != entry.hospital_id {
            let name = self
                .store
                .hospitals()
                .hospital(entry.hospital_id)
                .await?
                .map_or_else(|| booking.destination_name().to_owned(), |h| h.name);
            write = follow_to_hospital(write, &mut sets, item, (entry.hospital_id, &name));
        }
        let mut tx = Tx::new();
        tx.push(
            Label::Booking(booking.id),
            write
                .set_expression(sets)
                .value(":to", to)
                .value(":number", &number)
                .value(":ambulance", &moved)
                .value(":answerBy", answer_by)
                .value(":duepk", keys::DUE)
                .value(":duesk", due_key(due))
                .value(
                    ":entry",
                    [TimelineEntry::reassigned(
                        &booking.ambulance_number,
                        ReassignReason::NoAnswer,
                        at,
                    )],
                )
                .value(":none", Vec::<Id>::new())
                .value(":missed", [from]),
        )
        // The ambulance that did not answer: out of the free pool (it is ON_DUTY and
        // held by nobody) until its crew taps Available.
        .push(
            Label::Ambulance(from),
            Write::update(
                keys::ambulance(from),
                "SET notResponding = :since REMOVE heldBy",
            )
            .name("#status", "status")
            .value(":since", at)
            .value(":booking", booking.id)
            .value(":onDuty", AmbulanceStatus::OnDuty)
            .when("heldBy = :booking AND #status = :onDuty"),
        );
        emergencies::take_candidate(&mut tx, &candidate, booking.id, now)?;
        let mut alert = Alert::new(ids.not_responding, AlertKind::NotResponding, at);
        alert.ambulance_id = Some(from);
        alert.ambulance_number = Some(booking.ambulance_number.clone());
        alert.booking_id = Some(booking.id);
        tx.push(Label::Alert, alerts::raise(alert));
        let mut moved_booking = booking.clone();
        moved_booking.ambulance_id = to;
        moved_booking.ambulance_number = number.clone();
        if let Some(id) = ids.unanswered {
            let moves = u32::try_from(deadline::moves_so_far(booking) + 1).unwrap_or(u32::MAX);
            tx.push(
                Label::Alert,
                alerts::raise(unanswered(id, &moved_booking, moves, now)),
            );
        }
        if let Some((presence, (id, hospital))) = call {
            tx.push(
                Label::Alert,
                alerts::call_station(
                    id,
                    at,
                    &moved_booking,
                    presence,
                    entry.hospital_id,
                    hospital.as_ref(),
                ),
            );
        }
        match self.store.commit(tx).await {
            Ok(()) => Ok(Attempt::Assigned(to)),
            Err(TxError::Refused(r)) if r.by(Label::Ambulance(to)) => Ok(Attempt::Taken),
            Err(TxError::Refused(r)) if r.by(Label::Position(to)) => Ok(Attempt::Elsewhere),
            Err(TxError::Refused(_)) => Err(Stop::Raced),
            Err(TxError::Api(StoreError::Unavailable)) => Ok(Attempt::Busy),
            Err(TxError::Api(e)) => Err(Stop::Api(e)),
        }
    }

    /// A dispatcher moves booking `id` to ambulance `to` (a breakdown, an alert):
    /// any open booking before AT_PICKUP, to an AVAILABLE ambulance. The booking
    /// waits for the new crew's answer (ACTIVE goes back to DISPATCHED, with a new
    /// `answerBy`); the old ambulance is freed unless it is marked not responding;
    /// the timeline gains REASSIGNED (MANUAL). One transaction conditional on both
    /// sides as read: 409 if either changed meanwhile, and nothing written.
    pub async fn reassign(self, id: Id, to: Id) -> Result<Booking, StoreError> {
        let key = keys::booking(id);
        let (item, target, presence) = tokio::try_join!(
            self.store.get::<BookingItem>(&key),
            self.store.fleet().ambulance_item(to),
            self.store.positions().presence(vec![to])
        )?;
        let item = item.ok_or_else(|| booking::not_found(id))?;
        let target = target.ok_or_else(|| ambulance::not_found(to))?;
        let booking = Booking::from(item.clone());
        deadline::may_reassign(&booking)?;
        if target.id == booking.ambulance_id {
            return Err(Conflict::SameAmbulance {
                id,
                number: target.number,
            }
            .into());
        }
        if target.status != AmbulanceStatus::Available {
            return Err(Conflict::AmbulanceNotFree {
                number: target.number,
                status: target.status.to_string(),
            }
            .into());
        }
        let old = self
            .store
            .fleet()
            .ambulance_item(booking.ambulance_id)
            .await?
            .filter(|a| a.held_by == Some(id));
        let now = self.store.now();
        let at = Timestamp::new_or_now(now);
        let answer_by = self
            .store
            .settings()
            .await
            .answer_times()
            .answer_by(booking.booking_type, now);
        let due = deadline::next_due(&booking, answer_by, item.unanswered_alert.is_some());
        let stage = match booking.booking_status {
            BookingStatus::Active => Some(TripStage::Dispatched),
            _ => None,
        };
        // Its crew not online: a person must phone the station (decision 0020).
        let presence = presence.get(&to).copied().unwrap_or(CrewPresence::NoCrew);
        let call = match presence {
            CrewPresence::Online => None,
            _ => Some(
                self.store
                    .alerts()
                    .station_call_parts(target.hospital_id, None)
                    .await?,
            ),
        };
        let moved = BookingAmbulance {
            id: to,
            number: target.number.clone(),
            ambulance_type: target.ambulance_type,
            driver_info: target.driver_info.clone(),
        };
        let entry =
            TimelineEntry::reassigned(&booking.ambulance_number, ReassignReason::Manual, at);
        let mut tx = Tx::new();
        let mut sets = String::from(
            "SET ambulanceId = :to, ambulanceNumber = :number, ambulance = :ambulance, \
             answerBy = :answerBy, duepk = :duepk, duesk = :duesk, tripStage = :stage, \
             timeline = list_append(timeline, :entry)",
        );
        let write = still_at(
            Write::update(keys::booking(id), "")
                .value(":ambulanceRead", booking.ambulance_id)
                .when("ambulanceId = :ambulanceRead"),
            booking.progress(),
        );
        let write = follow_to_hospital(
            write,
            &mut sets,
            &item,
            (target.hospital_id, &target.hospital_name),
        );
        tx.push(
            Label::Booking(id),
            write
                .set_expression(sets)
                .value(":to", to)
                .value(":number", &target.number)
                .value(":ambulance", &moved)
                .value(":answerBy", answer_by)
                .value(":duepk", keys::DUE)
                .value(":duesk", due_key(due))
                .value(":stage", stage)
                .value(":entry", [entry.clone()]),
        );
        if let Some((alert, hospital)) = &call {
            let mut moved = booking.clone();
            moved.ambulance_id = to;
            moved.ambulance_number = target.number.clone();
            tx.push(
                Label::Alert,
                alerts::call_station(
                    *alert,
                    at,
                    &moved,
                    presence,
                    target.hospital_id,
                    hospital.as_ref(),
                ),
            );
        }
        let take = StatusMove {
            ambulance: to,
            hospital_of_ambulance: target.hospital_id,
            from: AmbulanceStatus::Available,
            to: AmbulanceStatus::OnDuty,
            require_hospital: None,
            expected_holder: None,
            held_by: Some(id),
            free_at: None,
        };
        match old {
            // It missed a job: it stays out of the free pool until its crew is back.
            Some(old) if old.not_responding.is_some() => {
                tx.push(
                    Label::Ambulance(old.id),
                    Write::update(keys::ambulance(old.id), "REMOVE heldBy")
                        .value(":booking", id)
                        .when("heldBy = :booking"),
                );
                take.push_into(&mut tx)?;
            }
            // Freed while the other is taken: the fleet's counts do not change.
            Some(old) => {
                StatusMove {
                    ambulance: old.id,
                    hospital_of_ambulance: old.hospital_id,
                    from: old.status,
                    to: AmbulanceStatus::Available,
                    require_hospital: None,
                    expected_holder: Some(id),
                    held_by: None,
                    free_at: Some(self.store.fleet().free_spot_of(&old).await?),
                }
                .push_uncounted(&mut tx)?;
                take.push_uncounted(&mut tx)?;
            }
            None => take.push_into(&mut tx)?,
        }
        self.store.audit().push(
            &mut tx,
            Note::new(
                Action::BookingReassigned,
                Target::booking(id, booking.ambulance_id).and_ambulance(to),
            )
            .before(json!({
                "ambulanceId": booking.ambulance_id,
                "ambulanceNumber": booking.ambulance_number,
                "status": booking.booking_status,
                "stage": booking.trip_stage,
            }))
            .after(json!({
                "ambulanceId": to,
                "ambulanceNumber": target.number,
                "status": booking.booking_status,
                "stage": stage,
                "answerBy": answer_by,
            })),
        );
        match self.store.commit(tx).await {
            Ok(()) => {}
            Err(TxError::Refused(r)) if r.by(Label::Ambulance(to)) => {
                return Err(Conflict::AmbulanceTakenMeanwhile(target.number).into());
            }
            Err(TxError::Refused(_)) => {
                return Err(Conflict::ReassignRaced(id).into());
            }
            Err(TxError::Api(e)) => return Err(e),
        }
        let mut booking = booking;
        if !item.destination_chosen && booking.destination() != target.hospital_id {
            booking.destination_hospital_id = Some(target.hospital_id);
            booking.destination_hospital_name = Some(target.hospital_name.clone());
        }
        booking.ambulance_id = to;
        booking.ambulance_number = target.number;
        booking.ambulance = moved;
        booking.answer_by = Some(answer_by);
        booking.trip_stage = stage;
        booking.timeline.push(entry);
        Ok(booking)
    }

    /// Closes the open alerts whose cause is gone: an `UNANSWERED` job accepted,
    /// ended or moved to another ambulance; a `NOT_RESPONDING` ambulance whose crew
    /// tapped Available (or that was removed). `NO_AMBULANCE` waits for a person.
    /// Returns how many it closed and the age in seconds of the oldest
    /// `UNANSWERED` one left open.
    pub async fn close_settled_alerts(
        self,
        now: OffsetDateTime,
    ) -> Result<(usize, u64), StoreError> {
        let open = self.store.alerts().open_alerts().await?;
        // An alert whose cause cannot be read now stays open (and is logged).
        let gone: Vec<bool> = stream::iter(open.iter())
            .map(|a| async move {
                self.cause_gone(a).await.unwrap_or_else(|e| {
                    tracing::error!(error = %e, alert = %a.id, "could not check an alert's cause");
                    false
                })
            })
            .buffered(AT_ONCE)
            .collect()
            .await;
        let at = Timestamp::new_or_now(now);
        let mut closed = 0;
        let mut oldest = 0;
        for (alert, gone) in open.iter().zip(gone) {
            if !gone {
                if alert.kind == AlertKind::Unanswered {
                    let age = (now - alert.since.get()).whole_seconds();
                    oldest = oldest.max(u64::try_from(age).unwrap_or(0));
                }
            } else if self.store.alerts().close_alert(alert.id, at).await? {
                closed += 1;
            }
        }
        Ok((closed, oldest))
    }

    async fn cause_gone(self, alert: &Alert) -> Result<bool, StoreError> {
        Ok(match (alert.kind, alert.booking_id, alert.ambulance_id) {
            // An emergency's stays open while the moves go on (and after a
            // dispatcher's reassign: a person acknowledges it), until a crew accepts
            // (decision 0020); a normal booking's ends when it is reassigned too.
            (AlertKind::Unanswered, Some(booking), ambulance) => {
                match self.store.bookings().booking(booking).await? {
                    None => true,
                    Some(b) => {
                        !b.progress().awaits_answer()
                            || (b.booking_type == BookingType::Normal
                                && Some(b.ambulance_id) != ambulance)
                    }
                }
            }
            // Phoned or not, it is over once the crew accepts or the job moves on.
            (AlertKind::CallStation, Some(booking), ambulance) => {
                match self.store.bookings().booking(booking).await? {
                    None => true,
                    Some(b) => !b.progress().awaits_answer() || Some(b.ambulance_id) != ambulance,
                }
            }
            (AlertKind::NotResponding, _, Some(ambulance)) => self
                .store
                .get::<AmbulanceItem>(&keys::ambulance(ambulance))
                .await?
                .is_none_or(|a| a.not_responding.is_none()),
            _ => false,
        })
    }
}

/// The booking's update (its expression set by the caller), on the condition that
/// its deadline and ambulance are still the ones read.
fn off_the_clock(item: &BookingItem, booking: &Booking) -> Write {
    let write = Write::update(keys::booking(booking.id), "")
        .value(":ambulanceRead", booking.ambulance_id)
        .when("ambulanceId = :ambulanceRead");
    match item.duesk {
        Some(due) => write.value(":dueRead", due).when("duesk = :dueRead"),
        None => write.when("attribute_not_exists(duesk)"),
    }
}

/// The alert ids one automatic move may raise: the missed ambulance's
/// `NOT_RESPONDING` and, a minute after the emergency was sent, its `UNANSWERED`.
#[derive(Debug, Clone, Copy)]
struct MoveAlerts {
    not_responding: Id,
    unanswered: Option<Id>,
}

/// The `UNANSWERED` alert `id` of `booking` (with its ambulance now) after `moves`
/// automatic moves.
fn unanswered(id: Id, booking: &Booking, moves: u32, now: OffsetDateTime) -> Alert {
    let mut alert = Alert::new(id, AlertKind::Unanswered, Timestamp::new_or_now(now));
    alert.booking_id = Some(booking.id);
    alert.ambulance_id = Some(booking.ambulance_id);
    alert.ambulance_number = Some(booking.ambulance_number.clone());
    alert.pickup = booking.pickup.clone();
    alert.moves = (booking.booking_type == BookingType::Emergency).then_some(moves);
    alert
}

/// A job moved to another ambulance before the pickup goes to the new ambulance's
/// hospital (`hospital`, id and name), unless its crew chose the destination
/// (docs/decisions/0026-receiving-hospital.md): adds the destination to the update's
/// `sets`, on the condition that no crew chose one meanwhile.
fn follow_to_hospital(
    write: Write,
    sets: &mut String,
    item: &BookingItem,
    (hospital, name): (Id, &str),
) -> Write {
    if item.destination_chosen || item.booking.destination() == hospital {
        return write;
    }
    sets.push_str(
        ", destinationHospitalId = :destination, destinationHospitalName = :destinationName, \
         destpk = :destpk, destsk = :destsk",
    );
    write
        .when("attribute_not_exists(destinationChosen)")
        .value(":destination", hospital)
        .value(":destinationName", name)
        .value(":destpk", keys::destination_trips(hospital))
        .value(
            ":destsk",
            keys::destination_open(&item.booking.booking_time.to_string(), item.booking.id),
        )
}
