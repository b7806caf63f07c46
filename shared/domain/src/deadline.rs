//! The answer deadline (decision 0012): a job given to an ambulance is real only once
//! its crew accepts. Until then the booking carries `answerBy`; when that passes,
//! [`on_deadline`] decides what happens, and the clock (`functions/clock`) does it.

use std::time::Duration;

use time::OffsetDateTime;

use super::booking::{Booking, BookingType, Milestone, ReassignReason};
use crate::{
    refusal::{Conflict, Refusal},
    types::Timestamp,
};

/// Whatever happens, a dispatcher has an open `UNANSWERED` alert on an emergency no
/// crew has accepted a minute after it was sent, while the automatic moves go on
/// (decision 0020): a person must know within a minute (NFPA 1710 gives alarm
/// processing 64 s for 90 % of calls), not after every move has been tried. Due 5 s
/// before the minute, one beat of the clock (`functions/clock`: a sweep every 5 s),
/// so that whatever the beat's phase it is open by the minute.
pub const UNANSWERED_AFTER: Duration = Duration::from_secs(55);

/// How long a crew has to accept, by booking type (settings: `ANSWER_EMERGENCY_SECS`,
/// `ANSWER_NORMAL_SECS`; a test stack sets them short).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnswerTimes {
    pub emergency: Duration,
    pub normal: Duration,
}

impl Default for AnswerTimes {
    fn default() -> Self {
        AnswerTimes {
            emergency: Duration::from_secs(60),
            normal: Duration::from_secs(5 * 60),
        }
    }
}

impl AnswerTimes {
    /// When the crew of a job of type `kind` given at `given` must have answered.
    pub fn answer_by(&self, kind: BookingType, given: OffsetDateTime) -> Timestamp {
        let wait = match kind {
            BookingType::Emergency => self.emergency,
            BookingType::Normal => self.normal,
        };
        Timestamp::new_or_now(given + wait)
    }
}

/// A dispatcher may move an open booking to another ambulance until that ambulance
/// reaches the pickup (a breakdown, an alert); 409 otherwise.
pub fn may_reassign(booking: &Booking) -> Result<(), Refusal> {
    let progress = booking.progress();
    if progress.before_pickup() {
        Ok(())
    } else {
        Err(Conflict::NotReassignable {
            id: booking.id,
            progress: progress.to_string(),
        }
        .into())
    }
}

/// What the clock does with a booking whose deadline it looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing waits: accepted, final, or no deadline (it leaves the clock's index).
    Settled,
    /// The deadline has not passed yet.
    NotDue,
    /// The deadline has not passed, but the emergency was sent
    /// [`UNANSWERED_AFTER`] ago: raise its `UNANSWERED` alert, the job stays where it
    /// is and on the clock.
    Warn,
    /// Move the job to the next free ambulance (with `warn`: and raise its
    /// `UNANSWERED` alert, which stays open while the moves go on); if none is free
    /// within reach, [`Verdict::Alert`] instead.
    TryMove { warn: bool },
    /// Leave the job where it is, off the clock, and alert (`UNANSWERED`).
    Alert,
}

/// When an emergency's `UNANSWERED` alert is due if no crew has accepted it: its
/// booking time + [`UNANSWERED_AFTER`]. None for a normal booking (its requester
/// chose the ambulance; its deadline alerts).
pub fn warn_at(booking: &Booking) -> Option<OffsetDateTime> {
    (booking.booking_type == BookingType::Emergency)
        .then(|| booking.booking_time.get() + UNANSWERED_AFTER)
}

/// When the clock must look at the booking next: its `answerBy`, or before it the
/// moment its `UNANSWERED` alert is due, unless `warned` (raised already).
pub fn next_due(booking: &Booking, answer_by: Timestamp, warned: bool) -> Timestamp {
    match warn_at(booking) {
        Some(w) if !warned && w < answer_by.get() => Timestamp::new(w).unwrap_or(answer_by),
        _ => answer_by,
    }
}

/// How many times the answer deadline has already moved this job.
pub fn moves_so_far(booking: &Booking) -> usize {
    booking
        .timeline
        .iter()
        .filter(|e| e.stage == Milestone::Reassigned && e.reason == Some(ReassignReason::NoAnswer))
        .count()
}

/// The rule: an emergency past its deadline moves to the next free ambulance, at
/// most `automatic_moves` times (the setting, 3 by default: `domain::settings`); a
/// normal booking (whose requester chose the ambulance), an emergency without a
/// pickup to search from, or one moved that many times raises an alert instead.
/// An emergency [`UNANSWERED_AFTER`] its sending has its `UNANSWERED` alert raised
/// then, unless `warned` (raised already), whether or not it moves.
pub fn on_deadline(
    booking: &Booking,
    now: OffsetDateTime,
    warned: bool,
    automatic_moves: u32,
) -> Verdict {
    let Some(answer_by) = booking.answer_by else {
        return Verdict::Settled;
    };
    if !booking.progress().awaits_answer() {
        return Verdict::Settled;
    }
    let warn = !warned && warn_at(booking).is_some_and(|w| now >= w);
    if now < answer_by.get() {
        return if warn { Verdict::Warn } else { Verdict::NotDue };
    }
    match booking.booking_type {
        BookingType::Emergency
            if booking.pickup.is_some() && moves_so_far(booking) < automatic_moves as usize =>
        {
            Verdict::TryMove { warn }
        }
        _ => Verdict::Alert,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::booking::{BookingStatus, TimelineEntry, TripStage};

    fn at(text: &str) -> OffsetDateTime {
        Timestamp::parse(text).unwrap().get()
    }

    fn booking(
        kind: BookingType,
        status: BookingStatus,
        stage: Option<TripStage>,
        moves: usize,
    ) -> Booking {
        let mut v = serde_json::json!({
            "id": 7, "bookingStatus": status, "bookingType": kind,
            "bookingTime": "2026-11-27T10:00:00.000Z", "userId": 1, "username": "u",
            "userEmail": "u@example.com", "hospitalId": 2, "hospitalName": "H",
            "hospital": {"id": 2, "name": "H", "address": "A"}, "ambulanceId": 3,
            "ambulanceNumber": "AMB-03",
            "ambulance": {"id": 3, "number": "AMB-03", "type": "BLS", "driverInfo": null},
            "patient": {"name": null, "age": null, "gender": null, "condition": null},
            "userPhone": null, "pickup": {"latitude": 30.0, "longitude": 75.0},
            "tripStage": stage, "timeline": [],
            "answerBy": "2026-11-27T10:01:00.000Z",
        });
        let mut b: Booking = serde_json::from_value(v.take()).unwrap();
        for i in 0..moves {
            b.timeline.push(TimelineEntry::reassigned(
                &format!("AMB-{i}"),
                ReassignReason::NoAnswer,
                Timestamp::parse("2026-11-27T10:00:30.000Z").unwrap(),
            ));
        }
        b
    }

    #[test]
    fn every_case_of_the_rule() {
        use BookingStatus::*;
        use BookingType::*;
        use TripStage::*;
        use Verdict::*;
        // Sent at 10:00:00, to be answered by 10:01:00; its alert due at 10:00:55.
        let due = at("2026-11-27T10:01:00.000Z");
        let early = at("2026-11-27T10:00:54.999Z");
        let warned = true;
        #[rustfmt::skip]
        let cases = [
            // kind,   status,    stage,              moves, now,   warned,  verdict
            (Emergency, Active,    Some(Dispatched),   0,     due,   false,   TryMove { warn: true }),
            (Emergency, Active,    Some(Dispatched),   0,     due,   warned,  TryMove { warn: false }),
            (Emergency, Active,    Some(Dispatched),   2,     due,   warned,  TryMove { warn: false }),
            (Emergency, Active,    Some(Dispatched),   3,     due,   warned,  Alert),   // no moves left
            (Emergency, Pending,   None,               0,     due,   false,   TryMove { warn: true }), // the form's EMERGENCY
            (Emergency, Active,    Some(Dispatched),   0,     early, false,   NotDue),
            (Emergency, Active,    Some(Dispatched),   0,     at("2026-11-27T10:00:55.000Z"), false, Warn), // the alert before the deadline
            (Normal,    Pending,   None,               0,     due,   false,   Alert),   // the requester chose it
            (Normal,    Active,    Some(Dispatched),   0,     due,   false,   Alert),
            (Normal,    Pending,   None,               0,     early, false,   NotDue),
            (Emergency, Active,    Some(EnRoute),      0,     due,   false,   Settled), // accepted
            (Normal,    Active,    Some(AtPickup),     0,     due,   false,   Settled),
            (Emergency, Cancelled, Some(Dispatched),   0,     due,   false,   Settled),
            (Normal,    Completed, Some(AtHospital),   0,     due,   false,   Settled), // final
        ];
        for (kind, status, stage, moves, now, warned, verdict) in cases {
            let b = booking(kind, status, stage, moves);
            assert_eq!(
                on_deadline(&b, now, warned, 3),
                verdict,
                "{kind:?} {status} {stage:?} after {moves} moves, warned {warned}"
            );
        }
    }

    /// An answer window longer than the minute (a setting): the alert still comes by
    /// the minute after the emergency was sent, the move at the deadline.
    #[test]
    fn the_unanswered_alert_comes_a_minute_after_sending_whatever_the_window() {
        let mut b = booking(
            BookingType::Emergency,
            BookingStatus::Active,
            Some(TripStage::Dispatched),
            0,
        );
        b.answer_by = Timestamp::parse("2026-11-27T10:02:00.000Z");
        let answer_by = b.answer_by.unwrap();
        assert_eq!(
            next_due(&b, answer_by, false).to_string(),
            "2026-11-27T10:00:55.000Z"
        );
        assert_eq!(next_due(&b, answer_by, true), answer_by);
        assert_eq!(
            on_deadline(&b, at("2026-11-27T10:00:54.000Z"), false, 3),
            Verdict::NotDue
        );
        assert_eq!(
            on_deadline(&b, at("2026-11-27T10:00:55.000Z"), false, 3),
            Verdict::Warn
        );
        assert_eq!(
            on_deadline(&b, at("2026-11-27T10:01:30.000Z"), true, 3),
            Verdict::NotDue
        );
        assert_eq!(
            on_deadline(&b, at("2026-11-27T10:02:00.000Z"), true, 3),
            Verdict::TryMove { warn: false }
        );
        // A shorter window: the first move comes first, without the alert.
        b.answer_by = Timestamp::parse("2026-11-27T10:00:30.000Z");
        assert_eq!(
            on_deadline(&b, at("2026-11-27T10:00:30.000Z"), false, 3),
            Verdict::TryMove { warn: false }
        );
        // A normal booking has no such alert: its deadline alerts.
        b.booking_type = BookingType::Normal;
        assert_eq!(warn_at(&b), None);
        assert_eq!(next_due(&b, answer_by, false), answer_by);
    }

    #[test]
    fn the_number_of_automatic_moves_is_the_setting() {
        let due = at("2026-11-27T10:01:00.000Z");
        let emergency = |moves| {
            booking(
                BookingType::Emergency,
                BookingStatus::Active,
                Some(TripStage::Dispatched),
                moves,
            )
        };
        assert_eq!(on_deadline(&emergency(0), due, true, 0), Verdict::Alert);
        assert_eq!(
            on_deadline(&emergency(4), due, true, 5),
            Verdict::TryMove { warn: false }
        );
        assert_eq!(on_deadline(&emergency(5), due, true, 5), Verdict::Alert);
    }

    #[test]
    fn without_a_deadline_or_a_pickup() {
        let mut b = booking(
            BookingType::Emergency,
            BookingStatus::Active,
            Some(TripStage::Dispatched),
            0,
        );
        let due = at("2026-11-27T10:05:00.000Z");
        b.pickup = None;
        assert_eq!(
            on_deadline(&b, due, true, 3),
            Verdict::Alert,
            "nowhere to search from"
        );
        b.answer_by = None;
        assert_eq!(on_deadline(&b, due, false, 3), Verdict::Settled);
    }

    #[test]
    fn a_dispatcher_reassigns_until_the_pickup() {
        use BookingStatus::*;
        use TripStage::*;
        for (status, stage, allowed) in [
            (Pending, None, true),
            (Active, Some(Dispatched), true),
            (Active, Some(EnRoute), true),
            (Active, Some(AtPickup), false),
            (Active, Some(ToHospital), false),
            (Active, Some(AtHospital), false),
            (Completed, Some(AtHospital), false),
            (Cancelled, Some(Dispatched), false),
        ] {
            let b = booking(BookingType::Normal, status, stage, 0);
            assert_eq!(may_reassign(&b).is_ok(), allowed, "{status} {stage:?}");
        }
    }

    #[test]
    fn manual_moves_do_not_count_against_the_three() {
        let mut b = booking(
            BookingType::Emergency,
            BookingStatus::Active,
            Some(TripStage::Dispatched),
            2,
        );
        b.timeline.push(TimelineEntry::reassigned(
            "AMB-9",
            ReassignReason::Manual,
            Timestamp::parse("2026-11-27T10:00:40.000Z").unwrap(),
        ));
        assert_eq!(moves_so_far(&b), 2);
    }

    #[test]
    fn the_deadline_is_a_minute_for_an_emergency_five_for_a_normal_booking() {
        let t = AnswerTimes::default();
        let given = at("2026-11-27T10:00:00.000Z");
        assert_eq!(
            t.answer_by(BookingType::Emergency, given).to_string(),
            "2026-11-27T10:01:00.000Z"
        );
        assert_eq!(
            t.answer_by(BookingType::Normal, given).to_string(),
            "2026-11-27T10:05:00.000Z"
        );
    }
}
