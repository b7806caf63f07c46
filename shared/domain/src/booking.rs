//! Bookings: the request a user makes (parsed into types that can only hold valid
//! values), the booking as stored and shown, and its trip: status, stage and who may
//! move them ([`trip`]).

pub mod trip;

use serde::{Deserialize, Serialize};
use strum::{AsRefStr, Display, VariantArray};

pub use trip::{
    CrewStep, Goal, Milestone, Move, Mover, Progress, ReassignReason, TimelineEntry, TripStage,
    WithMoves, allowed, plan,
};

use super::{ambulance::AmbulanceType, hospital::HospitalRef, lenient, user::User};
use crate::{
    geo::Point,
    refusal::{Conflict, Missing, Refusal},
    types::{Id, Latitude, Longitude, OptionalText, Text, Timestamp, WholeNumber},
};

/// Serialized as `PENDING`, `ACTIVE`, `COMPLETED`, `CANCELLED`; parsed
/// case-insensitively (`lenient!`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, AsRefStr, Display, VariantArray,
)]
#[serde(rename_all = "UPPERCASE", try_from = "String")]
#[strum(serialize_all = "UPPERCASE")]
pub enum BookingStatus {
    Pending,
    Active,
    Completed,
    Cancelled,
}

lenient!(BookingStatus, "status");

impl BookingStatus {
    /// COMPLETED and CANCELLED are final: nothing moves out of them.
    pub fn is_final(self) -> bool {
        matches!(self, BookingStatus::Completed | BookingStatus::Cancelled)
    }
}

/// Serialized as `NORMAL`, `EMERGENCY`; parsed case-insensitively.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, AsRefStr, VariantArray,
)]
#[serde(rename_all = "UPPERCASE", try_from = "String")]
#[strum(serialize_all = "UPPERCASE")]
pub enum BookingType {
    #[default]
    Normal,
    Emergency,
}

lenient!(BookingType, "bookingType");

/// 1–100 characters after trimming.
pub type PatientName = Text<100>;

/// Whole years, 0–150.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "WholeNumber", into = "u8")]
pub struct PatientAge(u8);

impl TryFrom<WholeNumber> for PatientAge {
    type Error = String;
    fn try_from(v: WholeNumber) -> Result<Self, String> {
        PatientAge::try_from(v.0)
    }
}

impl TryFrom<u64> for PatientAge {
    type Error = String;
    fn try_from(v: u64) -> Result<Self, String> {
        if v <= 150 {
            Ok(PatientAge(v as u8))
        } else {
            Err(format!("must be a whole number from 0 to 150, got {v}"))
        }
    }
}

impl From<PatientAge> for u8 {
    fn from(v: PatientAge) -> u8 {
        v.0
    }
}

/// Serialized as the spec spells it, `Male`, `Female`, `Other`; parsed
/// case-insensitively like every enum (`female`, `FEMALE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, AsRefStr, VariantArray)]
#[serde(try_from = "String")]
pub enum Gender {
    Male,
    Female,
    Other,
}

lenient!(Gender, "gender");

/// 1–500 characters after trimming.
pub type Condition = Text<500>;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Patient {
    pub name: PatientName,
    pub age: PatientAge,
    pub gender: Gender,
    pub condition: Condition,
}

/// What a booking knows of its patient: all four details for a booking made with
/// the form ([`Patient`]), any of them (or none) for a one-tap emergency until its
/// requester adds them (`PATCH /api/booking/{id}/patient`). Each detail holds only
/// what [`Patient`] accepts; an unknown one is `null`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PatientDetails {
    pub name: Option<PatientName>,
    pub age: Option<PatientAge>,
    pub gender: Option<Gender>,
    pub condition: Option<Condition>,
}

impl PatientDetails {
    /// Only the name: what a list shows an admin to find a booking by. The age,
    /// gender and condition are read one booking at a time (`GET /api/booking/{id}`),
    /// which the audit trail records (docs/decisions/0023-audit-trail.md).
    pub fn name_only(self) -> PatientDetails {
        PatientDetails {
            name: self.name,
            ..PatientDetails::default()
        }
    }
}

impl From<Patient> for PatientDetails {
    fn from(p: Patient) -> Self {
        PatientDetails {
            name: Some(p.name),
            age: Some(p.age),
            gender: Some(p.gender),
            condition: Some(p.condition),
        }
    }
}

/// Where the ambulance picks the patient up: a map pin and, optionally, words that
/// help find the door ("gate 2, blue house": at most 200 characters, trimmed; blank
/// means none).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pickup {
    pub latitude: Latitude,
    pub longitude: Longitude,
    #[serde(default, skip_serializing_if = "no_landmark")]
    pub landmark: Landmark,
}

/// What the requester says to find the pickup by ("the blue gate"); optional.
pub type Landmark = OptionalText<200>;

impl Pickup {
    pub fn point(&self) -> Point {
        Point::new(self.latitude.get(), self.longitude.get())
    }
}

fn no_landmark(landmark: &Landmark) -> bool {
    landmark.0.is_none()
}

/// The body of `POST /api/booking/book`. Without `pickup`, the user's stored
/// location is the pickup.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BookingRequest {
    pub hospital_id: Id,
    pub ambulance_id: Id,
    #[serde(default)]
    pub booking_type: BookingType,
    pub patient: Patient,
    pub pickup: Option<Pickup>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BookingAmbulance {
    pub id: Id,
    pub number: String,
    #[serde(rename = "type")]
    pub ambulance_type: AmbulanceType,
    pub driver_info: Option<String>,
}

/// A booking as the API shows it (docs/openapi.yaml). Names are those stored at
/// booking time, so history survives removed hospitals and ambulances.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Booking {
    pub id: Id,
    pub booking_status: BookingStatus,
    pub booking_type: BookingType,
    pub booking_time: Timestamp,
    pub user_id: Id,
    pub username: String,
    pub user_email: String,
    pub hospital_id: Id,
    pub hospital_name: String,
    pub hospital: HospitalRef,
    /// The hospital the patient is driven to (docs/decisions/0026-receiving-hospital.md):
    /// the ambulance's when the booking is made or moved before the pickup, unless
    /// its crew chose another. Absent only on bookings stored before destinations,
    /// until `manage migrate` copies the ambulance's hospital in
    /// ([`Booking::brought_up_to_date`]); [`Booking::destination`] reads it either way.
    #[serde(default)]
    pub destination_hospital_id: Option<Id>,
    /// The destination's name when it was chosen.
    #[serde(default)]
    pub destination_hospital_name: Option<String>,
    pub ambulance_id: Id,
    pub ambulance_number: String,
    pub ambulance: BookingAmbulance,
    pub patient: PatientDetails,
    /// The requester's phone at booking time, for the crew to call (null for bookings
    /// made before it was kept).
    pub user_phone: Option<String>,
    /// Null for bookings made before pickups existed.
    pub pickup: Option<Pickup>,
    /// Null while PENDING; the last stage reached once final.
    pub trip_stage: Option<TripStage>,
    /// Every status or stage reached, oldest first.
    #[serde(default)]
    pub timeline: Vec<TimelineEntry>,
    /// While its crew has not accepted (PENDING, or ACTIVE at DISPATCHED): when they
    /// must have (`domain::deadline`); null otherwise.
    #[serde(default)]
    pub answer_by: Option<Timestamp>,
    /// When and why its personal fields were erased (retention, or its requester's
    /// account deleted: `domain::privacy`); null while they are kept.
    #[serde(default)]
    pub erased: Option<Erasure>,
}

/// Why a booking's personal fields were erased.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErasureReason {
    /// Finished longer ago than the retention period.
    Retention,
    /// Its requester deleted their account.
    AccountDeleted,
}

/// When and why a booking's personal fields were erased (`erased` in the contract; the rules: `domain::privacy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Erasure {
    pub at: Timestamp,
    pub reason: ErasureReason,
}

/// What every new booking copies in at booking time, however it was asked for: who
/// asked, where to, which ambulance, the patient, the pickup, when, and by when its
/// crew must answer (`deadline::AnswerTimes` for the booking's type).
#[derive(Debug, Clone)]
pub struct NewBooking<'a> {
    pub id: Id,
    pub requester: &'a User,
    pub destination: HospitalRef,
    pub ambulance: BookingAmbulance,
    pub patient: PatientDetails,
    pub pickup: Pickup,
    pub at: Timestamp,
    pub answer_by: Timestamp,
}

impl Booking {
    /// This booking as a list shows it to an admin: the patient's name only
    /// ([`PatientDetails::name_only`]).
    pub fn listed(self) -> Booking {
        Booking {
            patient: self.patient.name_only(),
            ..self
        }
    }

    /// A booking made with the form (any type): PENDING, its crew to answer by its
    /// type's deadline.
    pub fn booked(new: NewBooking<'_>, booking_type: BookingType) -> Booking {
        Booking::made(new, booking_type, Progress::PENDING, &[Milestone::Pending])
    }

    /// A one-tap emergency: ACTIVE and DISPATCHED at once to the ambulance found, its
    /// crew to answer by the emergency deadline.
    pub fn emergency(new: NewBooking<'_>) -> Booking {
        Booking::made(
            new,
            BookingType::Emergency,
            Progress::DISPATCHED,
            &[Milestone::Active, Milestone::Dispatched],
        )
    }

    fn made(
        new: NewBooking<'_>,
        booking_type: BookingType,
        at: Progress,
        reached: &[Milestone],
    ) -> Booking {
        let time = new.at;
        Booking {
            answer_by: Some(new.answer_by),
            id: new.id,
            booking_status: at.status,
            booking_type,
            timeline: reached
                .iter()
                .map(|m| TimelineEntry::new(*m, time))
                .collect(),
            booking_time: time,
            user_id: new.requester.id,
            username: new.requester.username.clone(),
            user_email: new.requester.email.clone(),
            user_phone: Some(new.requester.phone.clone()),
            hospital_id: new.destination.id,
            hospital_name: new.destination.name.clone(),
            destination_hospital_id: Some(new.destination.id),
            destination_hospital_name: Some(new.destination.name.clone()),
            hospital: new.destination,
            ambulance_id: new.ambulance.id,
            ambulance_number: new.ambulance.number.clone(),
            ambulance: new.ambulance,
            patient: new.patient,
            pickup: Some(new.pickup),
            trip_stage: at.stage,
            erased: None,
        }
    }

    /// The hospital the patient is driven to: its destination, else (a booking
    /// stored before destinations) the ambulance's hospital as booked.
    pub fn destination(&self) -> Id {
        self.destination_hospital_id.unwrap_or(self.hospital_id)
    }

    /// The destination's name, as [`Booking::destination`].
    pub fn destination_name(&self) -> &str {
        self.destination_hospital_name
            .as_deref()
            .unwrap_or(&self.hospital_name)
    }

    /// Where the booking stands.
    pub fn progress(&self) -> Progress {
        Progress {
            status: self.booking_status,
            stage: self.trip_stage,
        }
    }

    /// A booking made before trip stages, as `manage migrate` writes it
    /// (`store.migrations().migrate`): an ACTIVE one without a stage is DISPATCHED (an admin made
    /// it ACTIVE), and a missing timeline starts with PENDING at the booking time.
    /// Reads assume it was run: no read fills these in.
    pub fn brought_up_to_date(mut self) -> Booking {
        if self.booking_status == BookingStatus::Active && self.trip_stage.is_none() {
            self.trip_stage = Some(TripStage::Dispatched);
        }
        if self.timeline.is_empty() {
            self.timeline = vec![TimelineEntry::new(Milestone::Pending, self.booking_time)];
        }
        if self.destination_hospital_id.is_none() {
            self.destination_hospital_id = Some(self.hospital_id);
            self.destination_hospital_name = Some(self.hospital_name.clone());
        }
        self
    }

    /// The booking after `m`, reached at `at`.
    pub fn after(mut self, m: &Move, at: Timestamp) -> Booking {
        self.booking_status = m.to.status;
        self.trip_stage = m.to.stage;
        self.timeline
            .extend(m.reached.iter().map(|stage| TimelineEntry::new(*stage, at)));
        if m.ends_the_wait() {
            self.answer_by = None;
        }
        self
    }
}

/// How a crew's ambulance stands to a booking: the one rule for every crew route
/// that reads or moves a booking (its trip view, its steps).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hold {
    /// Its ambulance holds the booking: the crew may see it and take its steps.
    Holds,
    /// Its ambulance carried the booking to its end: held by nobody now. A step is
    /// refused by the trip's rule ("COMPLETED is final"), a view as not held.
    Ended,
    /// The booking was reassigned (a missed answer deadline, a dispatcher's move) and
    /// is another ambulance's now: the late tap of a crew that had it lost the race.
    Gone,
    /// Not this ambulance's booking.
    NotYours,
}

/// How the crew of `ambulance` stands to `booking`.
pub fn hold(ambulance: Id, booking: &Booking) -> Hold {
    if booking.ambulance_id == ambulance {
        if booking.booking_status.is_final() {
            Hold::Ended
        } else {
            Hold::Holds
        }
    } else if booking
        .timeline
        .iter()
        .any(|e| e.stage == Milestone::Reassigned)
    {
        Hold::Gone
    } else {
        Hold::NotYours
    }
}

/// Figures for the admin dashboard. The same fields are the bookings counter's (see
/// `store::counters`), so a count and a change of counts are one type.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BookingCounts {
    pub total: i64,
    pub pending: i64,
    pub active: i64,
    pub completed: i64,
    pub cancelled: i64,
}

impl BookingCounts {
    fn of_status(&mut self, status: BookingStatus) -> &mut i64 {
        match status {
            BookingStatus::Pending => &mut self.pending,
            BookingStatus::Active => &mut self.active,
            BookingStatus::Completed => &mut self.completed,
            BookingStatus::Cancelled => &mut self.cancelled,
        }
    }

    /// The change of counts a new (PENDING) booking makes.
    pub fn booked() -> Self {
        BookingCounts {
            total: 1,
            pending: 1,
            ..Default::default()
        }
    }

    /// The change of counts a booking made ACTIVE at once (a one-tap emergency).
    pub fn dispatched() -> Self {
        BookingCounts {
            total: 1,
            active: 1,
            ..Default::default()
        }
    }

    /// The change of counts of one booking's move.
    pub fn moved(from: BookingStatus, to: BookingStatus) -> Self {
        let mut c = BookingCounts::default();
        *c.of_status(from) -= 1;
        *c.of_status(to) += 1;
        c
    }
}

pub fn not_found(id: Id) -> Refusal {
    Missing::Booking(id).into()
}

/// A booking without `pickup` by a user without a stored location.
pub fn pickup_needed() -> Refusal {
    Refusal::invalid(
        "pickup",
        "Missing 'pickup': say where the ambulance should come (your profile has no location to use instead)",
    )
}

/// Where to pick up: as asked, else the user's stored location (400 naming `pickup`
/// without either).
pub fn pickup_or_profile(pickup: Option<Pickup>, user: &User) -> Result<Pickup, Refusal> {
    if let Some(pickup) = pickup {
        return Ok(pickup);
    }
    match (user.latitude, user.longitude) {
        (Some(lat), Some(lng)) => Ok(Pickup {
            latitude: Latitude::try_from(lat).map_err(Refusal::Broken)?,
            longitude: Longitude::try_from(lng).map_err(Refusal::Broken)?,
            landmark: OptionalText(None),
        }),
        _ => Err(pickup_needed()),
    }
}

/// Someone else booked the ambulance first.
pub fn ambulance_taken() -> Refusal {
    Conflict::AmbulanceTaken.into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use BookingStatus::*;

    fn id(n: u64) -> Id {
        Id::try_from(n).unwrap()
    }

    fn requester() -> User {
        User {
            id: id(5),
            username: "asha".into(),
            email: "asha@example.com".into(),
            phone: "+15550100".into(),
            latitude: None,
            longitude: None,
            role: crate::user::Role::User,
            created_at: Timestamp::parse("2026-01-01T00:00:00.000Z").unwrap(),
        }
    }

    /// A new booking, with what each constructor adds left out.
    fn new_booking(requester: &User, kind: BookingType) -> NewBooking<'_> {
        let at = time::macros::datetime!(2026-03-01 10:00 UTC);
        NewBooking {
            id: id(7),
            requester,
            destination: HospitalRef {
                id: id(3),
                name: "City Hospital".into(),
                address: "1 Main Road".into(),
            },
            ambulance: BookingAmbulance {
                id: id(11),
                number: "PB-11".into(),
                ambulance_type: AmbulanceType::Bls,
                driver_info: None,
            },
            patient: PatientDetails::default(),
            pickup: Pickup {
                latitude: Latitude::try_from(30.2).unwrap(),
                longitude: Longitude::try_from(74.9).unwrap(),
                landmark: Landmark::default(),
            },
            at: Timestamp::new(at).unwrap(),
            answer_by: crate::deadline::AnswerTimes::default().answer_by(kind, at),
        }
    }

    #[test]
    fn the_two_kinds_of_new_booking_start_where_their_kind_starts() {
        let requester = requester();
        let stages = |b: &Booking| b.timeline.iter().map(|e| e.stage).collect::<Vec<_>>();

        let booked = Booking::booked(
            new_booking(&requester, BookingType::Normal),
            BookingType::Normal,
        );
        assert_eq!(booked.progress(), Progress::PENDING);
        assert_eq!(stages(&booked), [Milestone::Pending]);
        assert_eq!(
            booked.answer_by.unwrap().to_string(),
            "2026-03-01T10:05:00.000Z"
        );
        let urgent = Booking::booked(
            new_booking(&requester, BookingType::Emergency),
            BookingType::Emergency,
        );
        assert_eq!(
            urgent.answer_by.unwrap().to_string(),
            "2026-03-01T10:01:00.000Z"
        );

        let emergency = Booking::emergency(new_booking(&requester, BookingType::Emergency));
        assert_eq!(emergency.progress(), Progress::DISPATCHED);
        assert_eq!(emergency.booking_type, BookingType::Emergency);
        assert_eq!(
            stages(&emergency),
            [Milestone::Active, Milestone::Dispatched]
        );
        assert_eq!(
            emergency.answer_by.unwrap().to_string(),
            "2026-03-01T10:01:00.000Z"
        );

        for b in [&booked, &emergency] {
            assert_eq!(b.booking_time.to_string(), "2026-03-01T10:00:00.000Z");
            assert!(b.timeline.iter().all(|e| e.at == b.booking_time));
            assert_eq!((b.user_id, b.username.as_str()), (id(5), "asha"));
            assert_eq!(b.user_phone.as_deref(), Some("+15550100"));
            assert_eq!(
                (b.hospital_id, b.hospital_name.as_str()),
                (id(3), "City Hospital")
            );
            assert_eq!(
                (b.ambulance_id, b.ambulance_number.as_str()),
                (id(11), "PB-11")
            );
            assert!(b.pickup.is_some());
            assert_eq!(
                (b.destination(), b.destination_name()),
                (id(3), "City Hospital")
            );
        }
    }

    /// `crew::hold`, the one rule of the crew's trip view and steps, at every point.
    #[test]
    fn a_crew_holds_its_ambulances_booking_until_it_ends_or_moves_away() {
        let requester = requester();
        let open = Booking::emergency(new_booking(&requester, BookingType::Emergency));
        let mut ended = open.clone();
        ended.booking_status = Completed;
        let mut moved = open.clone();
        moved.ambulance_id = id(12);
        moved.timeline.push(TimelineEntry::reassigned(
            "PB-11",
            ReassignReason::NoAnswer,
            Timestamp::parse("2026-03-01T10:01:02.000Z").unwrap(),
        ));
        for (booking, crew_of, expected) in [
            (&open, 11, Hold::Holds),
            (&open, 12, Hold::NotYours),
            (&ended, 11, Hold::Ended),
            (&ended, 12, Hold::NotYours),
            (&moved, 11, Hold::Gone),
            (&moved, 12, Hold::Holds),
        ] {
            assert_eq!(hold(id(crew_of), booking), expected, "{crew_of}");
        }
    }

    #[test]
    fn a_move_changes_the_counts_of_two_statuses() {
        assert_eq!(
            BookingCounts::moved(Active, Completed),
            BookingCounts {
                active: -1,
                completed: 1,
                ..Default::default()
            }
        );
        assert!(Completed.is_final() && Cancelled.is_final());
        assert!(!Pending.is_final() && !Active.is_final());
    }

    #[test]
    fn old_bookings_read_with_a_stage_and_a_timeline() {
        let mut v = serde_json::json!({
            "id": 1, "bookingStatus": "ACTIVE", "bookingType": "NORMAL",
            "bookingTime": "2026-01-02T03:04:05.006Z", "userId": 2, "username": "u",
            "userEmail": "u@example.com", "hospitalId": 3, "hospitalName": "H",
            "hospital": {"id": 3, "name": "H", "address": "A"}, "ambulanceId": 4,
            "ambulanceNumber": "N", "ambulance": {"id": 4, "number": "N", "type": "BLS", "driverInfo": null},
            "patient": {"name": "P", "age": 3, "gender": "Other", "condition": "c"}
        });
        let old: Booking = serde_json::from_value(v.clone()).unwrap();
        let read = old.brought_up_to_date();
        assert_eq!(read.trip_stage, Some(TripStage::Dispatched));
        assert_eq!(
            read.timeline,
            [TimelineEntry::new(
                Milestone::Pending,
                Timestamp::parse("2026-01-02T03:04:05.006Z").unwrap()
            )]
        );
        assert_eq!((read.pickup.clone(), read.user_phone.clone()), (None, None));
        assert_eq!(
            (read.destination_hospital_id, read.destination_name()),
            (Some(id(3)), "H")
        );
        let shown = serde_json::to_value(&read).unwrap();
        assert_eq!(shown["tripStage"], "DISPATCHED");
        assert_eq!(shown["pickup"], serde_json::Value::Null);
        v["bookingStatus"] = "CANCELLED".into();
        let cancelled: Booking = serde_json::from_value(v).unwrap();
        assert_eq!(cancelled.brought_up_to_date().trip_stage, None);
    }

    fn request(patch: impl FnOnce(&mut serde_json::Value)) -> Result<BookingRequest, Refusal> {
        let mut v = serde_json::json!({
            "hospitalId": 1, "ambulanceId": 2, "bookingType": "EMERGENCY",
            "patient": {"name": " Ravi ", "age": 40, "gender": "Male", "condition": "chest pain"},
            "pickup": {"latitude": 30.5, "longitude": 74.25, "landmark": "  gate 2, blue house "}
        });
        patch(&mut v);
        crate::test_input::json(v.to_string().as_bytes())
    }

    #[test]
    fn a_valid_request_parses_and_trims() {
        let r = request(|_| {}).unwrap();
        let pickup = r.pickup.clone().unwrap();
        assert_eq!(pickup.landmark.0.as_deref(), Some("gate 2, blue house"));
        assert_eq!(
            (pickup.latitude.get(), pickup.longitude.get()),
            (30.5, 74.25)
        );
        let blank = request(|v| v["pickup"]["landmark"] = "   ".into()).unwrap();
        assert_eq!(blank.pickup.unwrap().landmark.0, None);
        let shown = serde_json::to_value(blank_pickup()).unwrap();
        assert!(shown.get("landmark").is_none(), "{shown}");
        let none = request(|v| {
            v.as_object_mut().unwrap().remove("pickup");
        })
        .unwrap();
        assert_eq!(none.pickup, None);
        assert_eq!(String::from(r.patient.name), "Ravi");
        assert_eq!(r.booking_type, BookingType::Emergency);
        let r = request(|v| {
            v.as_object_mut().unwrap().remove("bookingType");
        })
        .unwrap();
        assert_eq!(r.booking_type, BookingType::Normal);
        assert!(request(|v| v["patient"]["age"] = 0.into()).is_ok());
        assert!(request(|v| v["patient"]["age"] = 150.into()).is_ok());
        // JSON has one number type: 40.0 is the whole number 40 (ids alike).
        let r = request(|v| {
            v["patient"]["age"] = serde_json::json!(40.0);
            v["ambulanceId"] = serde_json::json!(7.0);
        })
        .unwrap();
        assert_eq!((u8::from(r.patient.age), r.ambulance_id.get()), (40, 7));
    }

    fn blank_pickup() -> Pickup {
        Pickup {
            latitude: Latitude::try_from(1.0).unwrap(),
            longitude: Longitude::try_from(2.0).unwrap(),
            landmark: OptionalText(None),
        }
    }
}
