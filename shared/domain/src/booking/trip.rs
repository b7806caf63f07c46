//! The trip of a booking: its status and, while ACTIVE, its stage, and who may move
//! it where (the table in docs/decisions/0007-dispatch-data.md, "Booking additions"). One pure function, [`plan`], decides
//! every move; the store writes what it answers, conditional on the [`Progress`] it
//! started from, so a stale or repeated request is a 409 that writes nothing.
//! [`allowed`] lists, from [`plan`] itself, the moves a caller may make now: every
//! answer shows them (`moves`), and the web app renders from them.
//!
//! ```text
//! PENDING ──crew accepts──────────────▶ ACTIVE·EN_ROUTE
//!    └──admin ACTIVE──▶ ACTIVE·DISPATCHED ──crew──▶ EN_ROUTE ──▶ AT_PICKUP
//!                                  ──▶ TO_HOSPITAL ──▶ AT_HOSPITAL ──crew or hospital──▶ HANDED_OVER
//! AT_HOSPITAL | HANDED_OVER ──crew──▶ COMPLETED
//! admin: any open ──▶ COMPLETED | CANCELLED
//! requester: PENDING, DISPATCHED, EN_ROUTE ──▶ CANCELLED
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};
use strum::{AsRefStr, Display, VariantArray};

use super::BookingStatus;
use crate::{
    lenient,
    refusal::{Conflict, Refusal},
};

/// The stages of an ACTIVE booking, in order.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, AsRefStr, Display, VariantArray,
)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[strum(serialize_all = "SCREAMING_SNAKE_CASE")]
pub enum TripStage {
    /// Assigned by a dispatcher (an admin's ACTIVE); the crew has not set off yet.
    Dispatched,
    EnRoute,
    AtPickup,
    ToHospital,
    AtHospital,
    /// The receiving hospital's staff took the patient over (recorded by them or by
    /// the crew); the crew then completes.
    HandedOver,
}

impl TripStage {
    /// Every stage, in trip order (DISPATCHED first).
    pub const ALL: &'static [TripStage] = <TripStage as VariantArray>::VARIANTS;

    /// The stage after this one; none after HANDED_OVER (then the crew completes).
    pub fn next(self) -> Option<TripStage> {
        use TripStage::*;
        match self {
            Dispatched => Some(EnRoute),
            EnRoute => Some(AtPickup),
            AtPickup => Some(ToHospital),
            ToHospital => Some(AtHospital),
            AtHospital => Some(HandedOver),
            HandedOver => None,
        }
    }

    /// Where the ambulance is at this stage: the one table the rules read a stage's
    /// meaning from (the pickup's cancel and reassign limit, the ETA's target, the
    /// hospital's diversion, completing), so a new stage is placed here once and every
    /// rule follows. The web app keeps the same table (`frontend/src/lib/trip/stages.ts`).
    pub fn leg(self) -> Leg {
        use TripStage::*;
        match self {
            Dispatched | EnRoute => Leg::ToPickup,
            AtPickup => Leg::AtPickup,
            ToHospital => Leg::ToHospital,
            AtHospital => Leg::AtHospital,
            HandedOver => Leg::HandedOver,
        }
    }

    /// Whether the ambulance has yet to reach the pickup: until then the requester
    /// may cancel and a dispatcher may move the job to another ambulance.
    pub fn before_pickup(self) -> bool {
        match self.leg() {
            Leg::ToPickup => true,
            Leg::AtPickup | Leg::ToHospital | Leg::AtHospital | Leg::HandedOver => false,
        }
    }

    /// Whether the ambulance has set off for the hospital (TO_HOSPITAL or later): its
    /// destination's diversion no longer offers another hospital.
    pub fn left_for_hospital(self) -> bool {
        match self.leg() {
            Leg::ToPickup | Leg::AtPickup => false,
            Leg::ToHospital | Leg::AtHospital | Leg::HandedOver => true,
        }
    }

    /// Whether the crew may complete the trip from here: after the handover, or
    /// straight from AT_HOSPITAL (a hospital without staff on the app never keeps an
    /// ambulance from its next patient; the trip then has no handover time).
    pub fn may_complete(self) -> bool {
        self.arrived()
    }

    /// Whether the ambulance has reached its destination (AT_HOSPITAL or later): the
    /// destination can no longer change.
    pub fn arrived(self) -> bool {
        match self.leg() {
            Leg::ToPickup | Leg::AtPickup | Leg::ToHospital => false,
            Leg::AtHospital | Leg::HandedOver => true,
        }
    }

    /// The crew's steps from accepting the job up to and including `self`, in order
    /// (`EN_ROUTE`, `AT_PICKUP`, ..., `self`): how tests and benchmarks drive a trip,
    /// so none of them types the sequence out. Empty for DISPATCHED.
    pub fn path_to(self) -> Vec<TripStage> {
        let mut path = vec![];
        let mut at = TripStage::Dispatched;
        while at != self {
            let Some(next) = at.next() else { break };
            path.push(next);
            at = next;
        }
        path
    }
}

/// Where the ambulance is on its trip: what a stage means to the rules and screens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leg {
    /// Assigned or on its way to the patient.
    ToPickup,
    /// With the patient, not left yet.
    AtPickup,
    /// Driving the patient to the destination hospital.
    ToHospital,
    /// At the hospital, the patient not handed over (yet).
    AtHospital,
    /// The hospital's staff took the patient over.
    HandedOver,
}

/// A status or stage a booking reached: the entries of its timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, AsRefStr, Display)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[strum(serialize_all = "SCREAMING_SNAKE_CASE")]
pub enum Milestone {
    Pending,
    Active,
    Completed,
    Cancelled,
    Dispatched,
    EnRoute,
    AtPickup,
    ToHospital,
    AtHospital,
    HandedOver,
    /// The job moved to another ambulance (decision 0012): by the answer deadline's
    /// escalation or by a dispatcher.
    Reassigned,
}

impl From<BookingStatus> for Milestone {
    fn from(s: BookingStatus) -> Self {
        match s {
            BookingStatus::Pending => Milestone::Pending,
            BookingStatus::Active => Milestone::Active,
            BookingStatus::Completed => Milestone::Completed,
            BookingStatus::Cancelled => Milestone::Cancelled,
        }
    }
}

impl From<TripStage> for Milestone {
    fn from(s: TripStage) -> Self {
        match s {
            TripStage::Dispatched => Milestone::Dispatched,
            TripStage::EnRoute => Milestone::EnRoute,
            TripStage::AtPickup => Milestone::AtPickup,
            TripStage::ToHospital => Milestone::ToHospital,
            TripStage::AtHospital => Milestone::AtHospital,
            TripStage::HandedOver => Milestone::HandedOver,
        }
    }
}

/// `{stage, at}`: when a status or stage was reached; a REASSIGNED entry also says
/// from which ambulance (its number) and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TimelineEntry {
    pub stage: Milestone,
    pub at: crate::types::Timestamp,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_ambulance: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<ReassignReason>,
}

impl TimelineEntry {
    pub fn new(stage: Milestone, at: crate::types::Timestamp) -> TimelineEntry {
        TimelineEntry {
            stage,
            at,
            from_ambulance: None,
            reason: None,
        }
    }

    /// The job left ambulance `from` (its number) at `at`, for `reason`.
    pub fn reassigned(
        from: &str,
        reason: ReassignReason,
        at: crate::types::Timestamp,
    ) -> TimelineEntry {
        TimelineEntry {
            from_ambulance: Some(from.to_owned()),
            reason: Some(reason),
            ..TimelineEntry::new(Milestone::Reassigned, at)
        }
    }
}

/// Why a job moved to another ambulance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, AsRefStr, Display)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[strum(serialize_all = "SCREAMING_SNAKE_CASE")]
pub enum ReassignReason {
    /// Its crew did not accept before the answer deadline.
    NoAnswer,
    /// A dispatcher moved it (a breakdown, an alert).
    Manual,
}

/// Where a booking stands: its status and (null while PENDING) its stage, kept as
/// the last one reached once the booking is final.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub status: BookingStatus,
    pub stage: Option<TripStage>,
}

impl Progress {
    pub const PENDING: Progress = Progress {
        status: BookingStatus::Pending,
        stage: None,
    };

    /// A one-tap emergency as it is made: ACTIVE, its ambulance DISPATCHED.
    pub const DISPATCHED: Progress = Progress {
        status: BookingStatus::Active,
        stage: Some(TripStage::Dispatched),
    };

    /// Whether the crew has yet to answer (decision 0012): PENDING, or ACTIVE at
    /// DISPATCHED.
    /// Whether the crew of its ambulance has accepted the job: it reached EN_ROUTE
    /// or a later stage (kept once final). A job moved to another ambulance waits
    /// again (DISPATCHED).
    pub fn accepted(self) -> bool {
        self.stage.is_some_and(|s| s != TripStage::Dispatched)
    }

    /// Whether the ambulance has yet to reach the pickup: PENDING, or ACTIVE at a
    /// stage before it ([`TripStage::before_pickup`]); never once final. The one rule
    /// for the requester's cancel and a dispatcher's reassign.
    pub fn before_pickup(self) -> bool {
        match self.status {
            BookingStatus::Pending => true,
            BookingStatus::Active => self.stage.is_none_or(TripStage::before_pickup),
            BookingStatus::Completed | BookingStatus::Cancelled => false,
        }
    }

    pub fn awaits_answer(self) -> bool {
        match self.status {
            BookingStatus::Pending => true,
            BookingStatus::Active => matches!(self.stage, None | Some(TripStage::Dispatched)),
            BookingStatus::Completed | BookingStatus::Cancelled => false,
        }
    }

    fn active(stage: TripStage) -> Progress {
        Progress {
            status: BookingStatus::Active,
            stage: Some(stage),
        }
    }
}

impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.status, self.stage) {
            (BookingStatus::Active, Some(stage)) => write!(f, "ACTIVE ({stage})"),
            (status, _) => write!(f, "{status}"),
        }
    }
}

/// Who asks for a move: each may make the moves of its rows in decision 0007's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mover {
    /// The crew of the booking's ambulance (`PATCH /api/crew/job/stage`).
    Crew,
    /// An admin: the spec's status dropdown, or cancelling anyone's booking.
    Admin,
    /// The user who booked (`PATCH /api/booking/cancel`).
    Requester,
    /// The staff of the booking's destination hospital: the handover only
    /// (`POST /api/hospital/bookings/{id}/handover`).
    Hospital,
}

/// What the crew asks for: the next stage, or COMPLETED after AT_HOSPITAL or
/// HANDED_OVER. (Only these parse: DISPATCHED is a dispatcher's, not a step the crew
/// takes.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, AsRefStr, VariantArray)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE", try_from = "String")]
#[strum(serialize_all = "SCREAMING_SNAKE_CASE")]
pub enum CrewStep {
    EnRoute,
    AtPickup,
    ToHospital,
    AtHospital,
    HandedOver,
    Completed,
}

lenient!(CrewStep, "stage");

/// Where a move is to go: a status (admin, requester, the crew's COMPLETED) or a
/// stage (the crew's steps). Shown as its name: `CANCELLED`, `EN_ROUTE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Goal {
    Status(BookingStatus),
    Stage(TripStage),
}

impl From<CrewStep> for Goal {
    fn from(step: CrewStep) -> Self {
        match step {
            CrewStep::EnRoute => Goal::Stage(TripStage::EnRoute),
            CrewStep::AtPickup => Goal::Stage(TripStage::AtPickup),
            CrewStep::ToHospital => Goal::Stage(TripStage::ToHospital),
            CrewStep::AtHospital => Goal::Stage(TripStage::AtHospital),
            CrewStep::HandedOver => Goal::Stage(TripStage::HandedOver),
            CrewStep::Completed => Goal::Status(BookingStatus::Completed),
        }
    }
}

impl Goal {
    /// Every goal there is, statuses first, each in its own order.
    pub fn all() -> impl Iterator<Item = Goal> {
        let statuses = BookingStatus::VARIANTS.iter().map(|s| Goal::Status(*s));
        statuses.chain(TripStage::VARIANTS.iter().map(|s| Goal::Stage(*s)))
    }
}

impl fmt::Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Goal::Status(s) => write!(f, "{s}"),
            Goal::Stage(s) => write!(f, "{s}"),
        }
    }
}

/// One allowed move: from where, to where, and what the timeline gains (one or two
/// entries: accepting a PENDING booking reaches ACTIVE and EN_ROUTE at once).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    pub from: Progress,
    pub to: Progress,
    pub reached: Vec<Milestone>,
}

impl Move {
    /// A move to a final status returns the ambulance to AVAILABLE, in the same
    /// transaction.
    pub fn frees_ambulance(&self) -> bool {
        self.to.status.is_final()
    }

    /// The crew has answered (or the booking ended): no answer deadline any more.
    pub fn ends_the_wait(&self) -> bool {
        !self.to.awaits_answer()
    }

    pub fn changes_status(&self) -> bool {
        self.from.status != self.to.status
    }

    fn to_status(from: Progress, status: BookingStatus) -> Move {
        let stage = match status {
            // An admin's ACTIVE dispatches: the crew takes it from there.
            BookingStatus::Active => Some(TripStage::Dispatched),
            _ => from.stage,
        };
        let mut reached = vec![Milestone::from(status)];
        if status == BookingStatus::Active {
            reached.push(Milestone::Dispatched);
        }
        Move {
            from,
            to: Progress { status, stage },
            reached,
        }
    }
}

/// Checks one move of `mover` from `from` towards `goal`; a refused move is a 409
/// that says why and what is possible instead.
pub fn plan(from: Progress, mover: Mover, goal: Goal) -> Result<Move, Refusal> {
    use BookingStatus::*;
    if from.status.is_final() {
        return Err(refused(
            mover,
            from,
            goal,
            format!("{} is final", from.status),
        ));
    }
    match (mover, goal) {
        (Mover::Admin, Goal::Status(to @ (Completed | Cancelled))) => Ok(Move::to_status(from, to)),
        (Mover::Admin, Goal::Status(Active)) if from.status == Pending => {
            Ok(Move::to_status(from, Active))
        }
        (Mover::Admin, _) => Err(refused(
            mover,
            from,
            goal,
            match from.status {
                Pending => "from PENDING it can only become ACTIVE, COMPLETED or CANCELLED",
                _ => "from ACTIVE it can only become COMPLETED or CANCELLED",
            }
            .into(),
        )),
        (Mover::Requester, Goal::Status(Cancelled)) if from.before_pickup() => {
            Ok(Move::to_status(from, Cancelled))
        }
        (Mover::Requester, Goal::Status(Cancelled)) => Err(refused(
            mover,
            from,
            goal,
            "the ambulance has already reached the pickup; please call the crew instead".into(),
        )),
        (Mover::Requester, _) => Err(refused(
            mover,
            from,
            goal,
            "a booking can only be cancelled by its requester".into(),
        )),
        (Mover::Crew, goal) => crew_step(from, goal),
        // The hospital records the handover, by the crew's own rule (one rule for
        // both): only from AT_HOSPITAL.
        (Mover::Hospital, goal @ Goal::Stage(TripStage::HandedOver)) => crew_step(from, goal),
        (Mover::Hospital, _) => Err(refused(
            mover,
            from,
            goal,
            "the receiving hospital records the handover (HANDED_OVER) only".into(),
        )),
    }
}

/// The moves `mover` may make from `from` now: every goal [`plan`] allows, so what
/// callers are shown (a booking's `moves`) can never disagree with what the routes
/// accept. In [`Goal::all`]'s order: an admin on PENDING gets ACTIVE, COMPLETED,
/// CANCELLED; the crew at most its one next step; the requester CANCELLED or nothing.
pub fn allowed(from: Progress, mover: Mover) -> Vec<Goal> {
    Goal::all()
        .filter(|goal| plan(from, mover, *goal).is_ok())
        .collect()
}

/// What a caller is shown: `item` (a booking, a tracking view) with the moves that
/// caller may make on it now, as `moves: ["CANCELLED"]`, and for a booking whether
/// its crew has accepted it (`accepted`, decision 0020: computed from its stage,
/// never stored).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WithMoves<T> {
    #[serde(flatten)]
    pub item: T,
    pub moves: Vec<Goal>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accepted: Option<bool>,
}

impl<T> WithMoves<T> {
    pub fn new(item: T, moves: Vec<Goal>) -> WithMoves<T> {
        WithMoves {
            item,
            moves,
            accepted: None,
        }
    }
}

impl WithMoves<super::Booking> {
    /// A booking with its moves and whether its crew has accepted it.
    pub fn booking(booking: super::Booking, moves: Vec<Goal>) -> Self {
        WithMoves {
            accepted: Some(booking.progress().accepted()),
            item: booking,
            moves,
        }
    }
}

/// The crew's moves: accept (PENDING or DISPATCHED → EN_ROUTE), then one stage at a
/// time, then COMPLETED from AT_HOSPITAL or HANDED_OVER.
fn crew_step(from: Progress, goal: Goal) -> Result<Move, Refusal> {
    let mut expected = vec![];
    match from.stage {
        None => expected.push(Goal::Stage(TripStage::EnRoute)),
        Some(stage) => {
            expected.extend(stage.next().map(Goal::Stage));
            if stage.may_complete() {
                expected.push(Goal::Status(BookingStatus::Completed));
            }
        }
    }
    if !expected.contains(&goal) {
        let names: Vec<String> = expected.iter().map(Goal::to_string).collect();
        return Err(refused(
            Mover::Crew,
            from,
            goal,
            format!("the next step is {}", names.join(" or ")),
        ));
    }
    Ok(match goal {
        Goal::Stage(stage) => {
            let mut reached = vec![];
            if from.status == BookingStatus::Pending {
                reached.push(Milestone::Active);
            }
            reached.push(stage.into());
            Move {
                from,
                to: Progress::active(stage),
                reached,
            }
        }
        Goal::Status(status) => Move::to_status(from, status),
    })
}

/// The crew speak of the trip (status and stage); admins and requesters of the
/// booking's status.
fn refused(mover: Mover, from: Progress, goal: Goal, why: String) -> Refusal {
    let crew = mover == Mover::Crew;
    Conflict::TripMove {
        crew,
        from: if crew {
            from.to_string()
        } else {
            from.status.to_string()
        },
        to: goal.to_string(),
        why,
    }
    .into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use BookingStatus::*;
    use TripStage::*;

    /// Every place a booking can be.
    fn all_progress() -> Vec<Progress> {
        let mut all = vec![Progress::PENDING];
        all.extend(TripStage::VARIANTS.iter().map(|s| Progress::active(*s)));
        for status in [Completed, Cancelled] {
            all.push(Progress {
                status,
                stage: None,
            });
            all.extend(TripStage::VARIANTS.iter().map(|s| Progress {
                status,
                stage: Some(*s),
            }));
        }
        all
    }

    fn all_goals() -> Vec<Goal> {
        let mut goals: Vec<Goal> = BookingStatus::VARIANTS
            .iter()
            .map(|s| Goal::Status(*s))
            .collect();
        goals.extend(TripStage::VARIANTS.iter().map(|s| Goal::Stage(*s)));
        goals
    }

    /// (from, goal) → to, for every move `mover` may make; everything else refused.
    fn allowed_by_plan(mover: Mover) -> Vec<(Progress, Goal, Progress)> {
        let mut out = vec![];
        for from in all_progress() {
            for goal in all_goals() {
                match plan(from, mover, goal) {
                    Ok(m) => {
                        assert_eq!(m.from, from);
                        out.push((from, goal, m.to));
                    }
                    Err(Refusal::Conflict(Conflict::TripMove { to, .. })) => {
                        assert_eq!(to, goal.to_string());
                    }
                    Err(other) => panic!("{other:?}"),
                }
            }
        }
        out
    }

    fn p(status: BookingStatus, stage: Option<TripStage>) -> Progress {
        Progress { status, stage }
    }

    #[test]
    fn the_crew_accepts_then_moves_one_stage_at_a_time_then_completes() {
        let want = vec![
            (
                p(Pending, None),
                Goal::Stage(EnRoute),
                p(Active, Some(EnRoute)),
            ),
            (
                p(Active, Some(Dispatched)),
                Goal::Stage(EnRoute),
                p(Active, Some(EnRoute)),
            ),
            (
                p(Active, Some(EnRoute)),
                Goal::Stage(AtPickup),
                p(Active, Some(AtPickup)),
            ),
            (
                p(Active, Some(AtPickup)),
                Goal::Stage(ToHospital),
                p(Active, Some(ToHospital)),
            ),
            (
                p(Active, Some(ToHospital)),
                Goal::Stage(AtHospital),
                p(Active, Some(AtHospital)),
            ),
            (
                p(Active, Some(AtHospital)),
                Goal::Status(Completed),
                p(Completed, Some(AtHospital)),
            ),
            (
                p(Active, Some(AtHospital)),
                Goal::Stage(HandedOver),
                p(Active, Some(HandedOver)),
            ),
            (
                p(Active, Some(HandedOver)),
                Goal::Status(Completed),
                p(Completed, Some(HandedOver)),
            ),
        ];
        assert_eq!(allowed_by_plan(Mover::Crew), want);
        // The hospital: the handover from AT_HOSPITAL, nothing else.
        assert_eq!(
            allowed_by_plan(Mover::Hospital),
            vec![(
                p(Active, Some(AtHospital)),
                Goal::Stage(HandedOver),
                p(Active, Some(HandedOver)),
            )]
        );
        let handed = plan(
            p(Active, Some(AtHospital)),
            Mover::Hospital,
            Goal::Stage(HandedOver),
        )
        .unwrap();
        assert_eq!(handed.reached, [Milestone::HandedOver]);
        assert!(!handed.frees_ambulance());
        let accept = plan(Progress::PENDING, Mover::Crew, Goal::Stage(EnRoute)).unwrap();
        assert_eq!(accept.reached, [Milestone::Active, Milestone::EnRoute]);
        assert!(!accept.frees_ambulance() && accept.changes_status());
        let done = plan(
            p(Active, Some(AtHospital)),
            Mover::Crew,
            Goal::Status(Completed),
        )
        .unwrap();
        assert!(done.frees_ambulance());
        assert_eq!(done.reached, [Milestone::Completed]);
        let Err(Refusal::Conflict(msg @ Conflict::TripMove { .. })) = plan(
            p(Active, Some(EnRoute)),
            Mover::Crew,
            Goal::Stage(ToHospital),
        ) else {
            panic!()
        };
        let msg = msg.to_string();
        assert_eq!(
            msg,
            "Cannot move the trip from ACTIVE (EN_ROUTE) to TO_HOSPITAL: the next step is AT_PICKUP"
        );
        let Err(Refusal::Conflict(msg @ Conflict::TripMove { .. })) = plan(
            p(Active, Some(AtPickup)),
            Mover::Crew,
            Goal::Stage(AtPickup),
        ) else {
            panic!()
        };
        let msg = msg.to_string();
        assert!(
            msg.ends_with("the next step is TO_HOSPITAL"),
            "a repeated tap: {msg}"
        );
    }

    #[test]
    fn the_admin_dispatches_and_ends_any_open_booking() {
        let mut want = vec![
            (
                p(Pending, None),
                Goal::Status(Active),
                p(Active, Some(Dispatched)),
            ),
            (
                p(Pending, None),
                Goal::Status(Completed),
                p(Completed, None),
            ),
            (
                p(Pending, None),
                Goal::Status(Cancelled),
                p(Cancelled, None),
            ),
        ];
        for stage in TripStage::VARIANTS {
            for end in [Completed, Cancelled] {
                want.push((
                    p(Active, Some(*stage)),
                    Goal::Status(end),
                    p(end, Some(*stage)),
                ));
            }
        }
        assert_eq!(allowed_by_plan(Mover::Admin), want);
        let dispatch = plan(Progress::PENDING, Mover::Admin, Goal::Status(Active)).unwrap();
        assert_eq!(dispatch.reached, [Milestone::Active, Milestone::Dispatched]);
        assert!(!dispatch.frees_ambulance());
        let Err(Refusal::Conflict(msg @ Conflict::TripMove { .. })) = plan(
            p(Completed, Some(AtHospital)),
            Mover::Admin,
            Goal::Status(Active),
        ) else {
            panic!()
        };
        let msg = msg.to_string();
        assert_eq!(
            msg,
            "Cannot change booking status from COMPLETED to ACTIVE: COMPLETED is final"
        );
        let Err(Refusal::Conflict(msg @ Conflict::TripMove { .. })) =
            plan(p(Active, Some(EnRoute)), Mover::Admin, Goal::Status(Active))
        else {
            panic!()
        };
        let msg = msg.to_string();
        assert!(
            msg.ends_with("from ACTIVE it can only become COMPLETED or CANCELLED"),
            "{msg}"
        );
    }

    #[test]
    fn the_requester_cancels_until_the_ambulance_is_at_the_pickup() {
        let want = vec![
            (
                p(Pending, None),
                Goal::Status(Cancelled),
                p(Cancelled, None),
            ),
            (
                p(Active, Some(Dispatched)),
                Goal::Status(Cancelled),
                p(Cancelled, Some(Dispatched)),
            ),
            (
                p(Active, Some(EnRoute)),
                Goal::Status(Cancelled),
                p(Cancelled, Some(EnRoute)),
            ),
        ];
        assert_eq!(allowed_by_plan(Mover::Requester), want);
        let cancel = plan(Progress::PENDING, Mover::Requester, Goal::Status(Cancelled)).unwrap();
        assert!(cancel.frees_ambulance());
        assert_eq!(cancel.reached, [Milestone::Cancelled]);
        let Err(Refusal::Conflict(msg @ Conflict::TripMove { .. })) = plan(
            p(Active, Some(AtPickup)),
            Mover::Requester,
            Goal::Status(Cancelled),
        ) else {
            panic!()
        };
        let msg = msg.to_string();
        assert!(msg.contains("please call the crew"), "{msg}");
    }

    #[test]
    fn allowed_lists_each_movers_moves_from_every_place() {
        use Goal::{Stage, Status};
        let pending = Progress::PENDING;
        let at = |stage| p(Active, Some(stage));
        #[rustfmt::skip]
        let table: Vec<(Progress, Mover, Vec<Goal>)> = vec![
            (pending, Mover::Admin, vec![Status(Active), Status(Completed), Status(Cancelled)]),
            (pending, Mover::Crew, vec![Stage(EnRoute)]),
            (pending, Mover::Requester, vec![Status(Cancelled)]),
            (at(Dispatched), Mover::Admin, vec![Status(Completed), Status(Cancelled)]),
            (at(Dispatched), Mover::Crew, vec![Stage(EnRoute)]),
            (at(Dispatched), Mover::Requester, vec![Status(Cancelled)]),
            (at(EnRoute), Mover::Crew, vec![Stage(AtPickup)]),
            (at(EnRoute), Mover::Requester, vec![Status(Cancelled)]),
            (at(AtPickup), Mover::Crew, vec![Stage(ToHospital)]),
            (at(AtPickup), Mover::Requester, vec![]),
            (at(ToHospital), Mover::Crew, vec![Stage(AtHospital)]),
            (at(AtHospital), Mover::Admin, vec![Status(Completed), Status(Cancelled)]),
            (at(AtHospital), Mover::Crew, vec![Status(Completed), Stage(HandedOver)]),
            (at(AtHospital), Mover::Hospital, vec![Stage(HandedOver)]),
            (at(HandedOver), Mover::Crew, vec![Status(Completed)]),
            (at(HandedOver), Mover::Hospital, vec![]),
            (at(HandedOver), Mover::Admin, vec![Status(Completed), Status(Cancelled)]),
            (at(AtHospital), Mover::Requester, vec![]),
            (p(Completed, Some(AtHospital)), Mover::Admin, vec![]),
            (p(Completed, Some(AtHospital)), Mover::Crew, vec![]),
            (p(Cancelled, None), Mover::Requester, vec![]),
        ];
        for (from, mover, want) in table {
            assert_eq!(allowed(from, mover), want, "{mover:?} from {from}");
        }
        // And the same as plan everywhere: allowed is plan, asked about every goal.
        for mover in [Mover::Admin, Mover::Crew, Mover::Requester, Mover::Hospital] {
            for from in all_progress() {
                let via_plan: Vec<Goal> = allowed_by_plan(mover)
                    .into_iter()
                    .filter(|(f, _, _)| *f == from)
                    .map(|(_, goal, _)| goal)
                    .collect();
                assert_eq!(allowed(from, mover), via_plan, "{mover:?} from {from}");
            }
        }
        let shown = WithMoves::new(
            serde_json::json!({"id": 1}),
            allowed(at(Dispatched), Mover::Crew),
        );
        assert_eq!(
            serde_json::to_value(&shown).unwrap(),
            serde_json::json!({"id": 1, "moves": ["EN_ROUTE"]})
        );
        assert_eq!(
            serde_json::to_value(allowed(pending, Mover::Admin)).unwrap(),
            serde_json::json!(["ACTIVE", "COMPLETED", "CANCELLED"])
        );
    }

    #[test]
    fn the_stages_are_declared_in_trip_order_and_paths_follow_it() {
        // The declaration order (VARIANTS, the contract's enum) is the order of `next`.
        let mut walked = vec![Dispatched];
        walked.extend(HandedOver.path_to());
        assert_eq!(walked, TripStage::VARIANTS);
        assert_eq!(
            AtHospital.path_to(),
            [EnRoute, AtPickup, ToHospital, AtHospital]
        );
        assert_eq!(EnRoute.path_to(), [EnRoute]);
        assert!(Dispatched.path_to().is_empty());
        // Every stage the crew reaches is a step it can ask for, by the same name.
        for stage in HandedOver.path_to() {
            let step = CrewStep::try_from(stage.to_string()).unwrap();
            assert_eq!(Goal::from(step), Goal::Stage(stage));
        }
        assert_eq!(CrewStep::VARIANTS.len(), HandedOver.path_to().len() + 1);
    }

    #[test]
    fn one_before_pickup_rule_for_every_place() {
        let before: Vec<Progress> = all_progress()
            .into_iter()
            .filter(|p| p.before_pickup())
            .collect();
        assert_eq!(
            before,
            [
                Progress::PENDING,
                p(Active, Some(Dispatched)),
                p(Active, Some(EnRoute))
            ]
        );
        let arrived: Vec<TripStage> = TripStage::VARIANTS
            .iter()
            .copied()
            .filter(|s| s.arrived())
            .collect();
        assert_eq!(arrived, [AtHospital, HandedOver]);
        let left: Vec<TripStage> = TripStage::VARIANTS
            .iter()
            .copied()
            .filter(|s| s.left_for_hospital())
            .collect();
        assert_eq!(left, [ToHospital, AtHospital, HandedOver]);
    }

    #[test]
    fn crew_steps_parse_from_their_names_only() {
        for (text, want) in [
            ("EN_ROUTE", CrewStep::EnRoute),
            ("en-route", CrewStep::EnRoute),
            ("AT_HOSPITAL", CrewStep::AtHospital),
            ("completed", CrewStep::Completed),
        ] {
            assert_eq!(CrewStep::try_from(text.to_owned()), Ok(want), "{text}");
        }
        assert_eq!(
            CrewStep::try_from("DISPATCHED".to_owned()),
            Err(
                "unknown stage 'DISPATCHED': expected EN_ROUTE, AT_PICKUP, TO_HOSPITAL, AT_HOSPITAL, HANDED_OVER or COMPLETED"
                    .into()
            )
        );
        assert_eq!(Goal::from(CrewStep::Completed), Goal::Status(Completed));
        assert_eq!(
            serde_json::to_value(Milestone::from(TripStage::ToHospital)).unwrap(),
            "TO_HOSPITAL"
        );
        assert_eq!(Progress::active(AtPickup).to_string(), "ACTIVE (AT_PICKUP)");
    }
}
