//! The answer deadline (decision 0012): a job given to an ambulance is real only once
//! its crew accepts. Until then the booking carries `answerBy`; when that passes,
//! [`on_deadline`] decides what happens, and the clock (`functions/clock`) does it.

use std::time::Duration;

use time::OffsetDateTime;

use super::booking::{Booking, BookingStatus, BookingType, Milestone, ReassignReason, TripStage};
use crate::{
    domain::refusal::{Conflict, Refusal},
    types::Timestamp,
};

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
        Timestamp::new(given + wait).unwrap_or_else(Timestamp::now)
    }
}

/// A dispatcher may move an open booking to another ambulance until that ambulance
/// reaches the pickup (a breakdown, an alert); 409 otherwise.
pub fn may_reassign(booking: &Booking) -> Result<(), Refusal> {
    let progress = booking.progress();
    let before_pickup = match progress.status {
        BookingStatus::Pending => true,
        BookingStatus::Active => matches!(
            progress.stage,
            None | Some(TripStage::Dispatched | TripStage::EnRoute)
        ),
        BookingStatus::Completed | BookingStatus::Cancelled => false,
    };
    if before_pickup {
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
    /// Move the job to the next nearest free ambulance; if none is free within
    /// reach, [`Verdict::Alert`] instead.
    TryMove,
    /// Leave the job where it is and raise an `UNANSWERED` alert.
    Alert,
}

/// How many times the answer deadline has already moved this job.
pub fn moves_so_far(booking: &Booking) -> usize {
    booking
        .timeline
        .iter()
        .filter(|e| e.stage == Milestone::Reassigned && e.reason == Some(ReassignReason::NoAnswer))
        .count()
}

/// The rule: an emergency past its deadline moves to the next nearest free
/// ambulance, at most `automatic_moves` times (the setting, 3 by default:
/// `domain::settings`); a normal booking (whose requester chose the ambulance), an
/// emergency without a pickup to search from, or one moved that many times raises an
/// alert instead.
pub fn on_deadline(booking: &Booking, now: OffsetDateTime, automatic_moves: u32) -> Verdict {
    let Some(answer_by) = booking.answer_by else {
        return Verdict::Settled;
    };
    if !booking.progress().awaits_answer() {
        return Verdict::Settled;
    }
    if now < answer_by.get() {
        return Verdict::NotDue;
    }
    match booking.booking_type {
        BookingType::Emergency
            if booking.pickup.is_some() && moves_so_far(booking) < automatic_moves as usize =>
        {
            Verdict::TryMove
        }
        _ => Verdict::Alert,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::booking::TimelineEntry;

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
                "2026-11-27T10:00:30.000Z",
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
        let due = at("2026-11-27T10:01:00.000Z");
        let early = at("2026-11-27T10:00:59.999Z");
        #[rustfmt::skip]
        let cases = [
            // kind,   status,    stage,              moves, now,   verdict
            (Emergency, Active,    Some(Dispatched),   0,     due,   TryMove),
            (Emergency, Active,    Some(Dispatched),   2,     due,   TryMove),
            (Emergency, Active,    Some(Dispatched),   3,     due,   Alert),   // no moves left
            (Emergency, Pending,   None,               0,     due,   TryMove), // the form's EMERGENCY
            (Emergency, Active,    Some(Dispatched),   0,     early, NotDue),
            (Normal,    Pending,   None,               0,     due,   Alert),   // the requester chose it
            (Normal,    Active,    Some(Dispatched),   0,     due,   Alert),
            (Normal,    Pending,   None,               0,     early, NotDue),
            (Emergency, Active,    Some(EnRoute),      0,     due,   Settled), // accepted
            (Normal,    Active,    Some(AtPickup),     0,     due,   Settled),
            (Emergency, Cancelled, Some(Dispatched),   0,     due,   Settled),
            (Normal,    Completed, Some(AtHospital),   0,     due,   Settled), // final
        ];
        for (kind, status, stage, moves, now, verdict) in cases {
            let b = booking(kind, status, stage, moves);
            assert_eq!(
                on_deadline(&b, now, 3),
                verdict,
                "{kind:?} {status} {stage:?} after {moves} moves"
            );
        }
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
        assert_eq!(on_deadline(&emergency(0), due, 0), Verdict::Alert);
        assert_eq!(on_deadline(&emergency(4), due, 5), Verdict::TryMove);
        assert_eq!(on_deadline(&emergency(5), due, 5), Verdict::Alert);
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
            on_deadline(&b, due, 3),
            Verdict::Alert,
            "nowhere to search from"
        );
        b.answer_by = None;
        assert_eq!(on_deadline(&b, due, 3), Verdict::Settled);
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
            "2026-11-27T10:00:40.000Z",
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
