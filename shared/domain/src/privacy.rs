//! Personal data (docs/decisions/0022-personal-data.md, docs/data-map.md): what an
//! erased booking keeps, who may delete an account, who reads a patient's details
//! and what of them a list shows, and the export a person takes of what is held
//! about them. Pure rules; `store::privacy` writes and reads them.
//!
//! Two erasures, one rule each, both idempotent (erasing twice writes what once
//! did) and the second never undoing the first:
//! - **retention**: a booking finished longer ago than the retention period
//!   (`Settings::retention_days`) loses its patient details, its exact pickup (kept
//!   to [`PICKUP_GRID_DEGREES`], about 1 km, its landmark dropped) and the phone the
//!   crew called;
//! - **account deleted**: the same, and the requester's name and email too. The
//!   booking stays for the statistics: its times, hospital, ambulance, type, status.

use serde::{Deserialize, Serialize};

use super::{
    booking::{
        Booking, BookingStatus, Goal, Landmark, Mover, PatientDetails, Pickup, WithMoves, allowed,
    },
    refusal::{Conflict, NotAllowed, Refusal},
    user::{Role, User},
};
use crate::types::{Id, Latitude, Longitude, Timestamp};

// The booking's own field (`erased`), defined with it; the rules are here.
pub use super::booking::{Erasure, ErasureReason};

/// The grid an erased pickup is kept to: 0.01° is 1.11 km north–south and at most
/// that east–west, so the point kept is within about 800 m of the real one and
/// names a neighbourhood, not a door.
pub const PICKUP_GRID_DEGREES: f64 = 0.01;

/// `v` on the [`PICKUP_GRID_DEGREES`] grid (rounding a rounded value changes nothing).
pub fn on_grid(v: f64) -> f64 {
    let steps = (v / PICKUP_GRID_DEGREES).round();
    // Written through two decimals so the stored number is the short one (30.67,
    // not 30.670000000000002).
    format!("{:.2}", steps * PICKUP_GRID_DEGREES)
        .parse::<f64>()
        .map(|r| if r == 0.0 { 0.0 } else { r })
        .unwrap_or(0.0)
}

/// A pickup as an erased booking keeps it: on the grid, without its landmark.
pub fn rounded_pickup(pickup: &Pickup) -> Pickup {
    // On the grid a latitude stays within ±90 and a longitude within ±180.
    let lat = Latitude::try_from(on_grid(pickup.latitude.get())).unwrap_or(pickup.latitude);
    let lng = Longitude::try_from(on_grid(pickup.longitude.get())).unwrap_or(pickup.longitude);
    Pickup {
        latitude: lat,
        longitude: lng,
        landmark: Landmark::default(),
    }
}

/// `booking` with its personal fields erased for `reason` at `at`. A booking erased
/// before keeps the broader reason and its first time of that reason.
pub fn erased(mut booking: Booking, reason: ErasureReason, at: Timestamp) -> Booking {
    booking.patient = PatientDetails::default();
    booking.pickup = booking.pickup.as_ref().map(rounded_pickup);
    booking.user_phone = None;
    let reason = booking.erased.map_or(reason, |e| e.reason.max(reason));
    if reason == ErasureReason::AccountDeleted {
        booking.username = String::new();
        booking.user_email = String::new();
    }
    booking.erased = Some(match booking.erased {
        Some(e) if e.reason == reason => e,
        _ => Erasure { at, reason },
    });
    booking
}

/// When `booking` became final (its COMPLETED or CANCELLED entry), if it has.
pub fn finished_at(booking: &Booking) -> Option<Timestamp> {
    use super::booking::Milestone;
    booking
        .timeline
        .iter()
        .rev()
        .find(|e| matches!(e.stage, Milestone::Completed | Milestone::Cancelled))
        .map(|e| e.at)
}

/// Whether `role` may delete its own account through the API: the public's
/// accounts. Staff accounts (admins, crew, hospital staff) are the service's, removed by an admin
/// or an operator, so a dispatcher cannot leave the control room without one.
pub fn may_delete_own_account(role: Role) -> Result<(), Refusal> {
    match role {
        Role::User => Ok(()),
        Role::Admin | Role::Crew | Role::Hospital => Err(NotAllowed::StaffAccount.into()),
    }
}

/// The refusal of an account deletion while bookings are open (their ids).
pub fn open_bookings(ids: Vec<Id>) -> Refusal {
    Conflict::AccountHasOpenBookings(ids).into()
}

/// Who read a booking's patient details: an admin, or (once the role exists) the
/// staff of the receiving hospital. The seam for hospital staff: their reads are
/// recorded through the same `store.privacy().record_patient_read`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ReaderRole {
    /// Also what a record without a role reads as (the admin audit trail's own).
    #[default]
    Admin,
    Hospital,
}

/// One reader of patient details, as recorded: the account and its name then.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reader {
    pub id: Id,
    pub username: String,
    #[serde(default)]
    pub role: ReaderRole,
}

/// One read of a booking's patient details, as its owner's export lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PatientRead {
    pub booking_id: Id,
    pub at: Timestamp,
    pub by: Reader,
}

/// `booking` as its requester is shown it: with CANCELLED among its moves while
/// they may still cancel it (the booking routes' rule).
pub fn as_requester_sees_it(booking: Booking) -> WithMoves<Booking> {
    let cancel = Goal::Status(BookingStatus::Cancelled);
    let moves = allowed(booking.progress(), Mover::Requester)
        .into_iter()
        .filter(|g| *g == cancel)
        .collect();
    WithMoves::booking(booking, moves)
}

/// A Web Push subscription as the export shows it: which push service, since when,
/// until when unless renewed. The endpoint and keys are credentials (whoever holds
/// them can send to the device) and stay out, as the password's hash does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportedDevice {
    pub push_service: String,
    pub created_at: Timestamp,
    pub lapses_at: Option<Timestamp>,
}

/// A tracking link as the export shows it (the token itself is never stored).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportedShareLink {
    pub booking_id: Id,
    pub created_at: Timestamp,
    pub expires_at: Timestamp,
}

/// `GET /api/user/export`: everything held about the caller, in one document.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Export {
    pub exported_at: Timestamp,
    pub profile: User,
    /// Every booking they made, newest first, with its timeline (and the one move
    /// its requester has, as the booking routes answer it).
    pub bookings: Vec<WithMoves<Booking>>,
    pub devices: Vec<ExportedDevice>,
    pub share_links: Vec<ExportedShareLink>,
    /// Every read of their bookings' patient details by staff, newest first.
    pub patient_reads: Vec<PatientRead>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        ambulance::AmbulanceType,
        booking::{
            BookingAmbulance, BookingStatus, BookingType, Gender, Milestone, NewBooking,
            TimelineEntry, TripStage,
        },
        hospital::HospitalRef,
    };

    fn id(n: u64) -> Id {
        Id::try_from(n).unwrap()
    }

    fn at(text: &str) -> Timestamp {
        Timestamp::parse(text).unwrap()
    }

    fn user() -> User {
        User {
            id: id(5),
            username: "neha".into(),
            email: "neha@example.com".into(),
            phone: "+919876543210".into(),
            latitude: Some(30.67),
            longitude: Some(74.33),
            role: Role::User,
            created_at: crate::types::Timestamp::parse("2026-01-01T00:00:00.000Z").unwrap(),
        }
    }

    fn finished_booking() -> Booking {
        let requester = user();
        let mut b = Booking::booked(
            NewBooking {
                id: id(9),
                requester: &requester,
                destination: HospitalRef {
                    id: id(1),
                    name: "City".into(),
                    address: "Mall Road".into(),
                },
                ambulance: BookingAmbulance {
                    id: id(2),
                    number: "PB-1".into(),
                    ambulance_type: AmbulanceType::Als,
                    driver_info: Some("Ravi".into()),
                },
                patient: PatientDetails {
                    name: Some("Asha".to_owned().try_into().unwrap()),
                    age: Some(40u64.try_into().unwrap()),
                    gender: Some(Gender::Female),
                    condition: Some("Chest pain".to_owned().try_into().unwrap()),
                },
                pickup: serde_json::from_value(serde_json::json!({
                    "latitude": 30.676543, "longitude": 74.334999, "landmark": "blue gate"
                }))
                .unwrap(),
                at: at("2026-01-02T03:04:05.000Z"),
                answer_by: at("2026-01-02T03:09:05.000Z"),
            },
            BookingType::Normal,
        );
        b.booking_status = BookingStatus::Completed;
        b.trip_stage = Some(TripStage::AtHospital);
        b.timeline.push(TimelineEntry::new(
            Milestone::Completed,
            at("2026-01-02T04:00:00.000Z"),
        ));
        b
    }

    #[test]
    fn the_grid_keeps_about_a_kilometre_and_is_stable() {
        assert_eq!(on_grid(30.676543), 30.68);
        assert_eq!(on_grid(74.334999), 74.33);
        assert_eq!(on_grid(-0.004), 0.0);
        assert_eq!(on_grid(-33.8651), -33.87);
        assert_eq!(on_grid(180.0), 180.0);
        assert_eq!(on_grid(-90.0), -90.0);
        for i in -1800..=1800 {
            let v = f64::from(i) * 0.0997;
            let once = on_grid(v);
            assert_eq!(on_grid(once), once, "{v}");
            // Within half a step (and float noise) of the real value.
            assert!(
                (once - v).abs() <= PICKUP_GRID_DEGREES / 2.0 + 1e-9,
                "{v} -> {once}"
            );
        }
    }

    #[test]
    fn retention_erases_the_patient_the_exact_pickup_and_the_phone_only() {
        let b = finished_booking();
        let e = erased(
            b.clone(),
            ErasureReason::Retention,
            at("2026-04-02T00:00:00.000Z"),
        );
        assert_eq!(e.patient, PatientDetails::default());
        let pickup = e.pickup.clone().unwrap();
        assert_eq!(pickup.point(), crate::geo::Point::new(30.68, 74.33));
        assert_eq!(pickup.landmark, Landmark::default());
        assert_eq!(e.user_phone, None);
        // The requester still sees their own history under their name.
        assert_eq!(
            (e.username.as_str(), e.user_email.as_str()),
            ("neha", "neha@example.com")
        );
        assert_eq!(e.erased.unwrap().reason, ErasureReason::Retention);
        // What statistics need is untouched.
        assert_eq!(
            (
                &e.timeline,
                e.hospital_id,
                e.ambulance_id,
                e.booking_type,
                e.booking_status
            ),
            (
                &b.timeline,
                b.hospital_id,
                b.ambulance_id,
                b.booking_type,
                b.booking_status
            )
        );
    }

    #[test]
    fn erasing_twice_writes_what_once_did_and_never_narrows() {
        let first = at("2026-04-02T00:00:00.000Z");
        let later = at("2026-05-02T00:00:00.000Z");
        let once = erased(finished_booking(), ErasureReason::AccountDeleted, first);
        assert_eq!(
            erased(once.clone(), ErasureReason::AccountDeleted, later),
            once
        );
        // Retention after the account's deletion keeps the broader erasure.
        assert_eq!(erased(once.clone(), ErasureReason::Retention, later), once);
        assert_eq!((once.username.as_str(), once.user_email.as_str()), ("", ""));
        // The account's deletion after retention erases the names too.
        let kept = erased(finished_booking(), ErasureReason::Retention, first);
        let both = erased(kept, ErasureReason::AccountDeleted, later);
        assert_eq!(
            both.erased,
            Some(Erasure {
                at: later,
                reason: ErasureReason::AccountDeleted
            })
        );
        assert_eq!(both.username, "");
    }

    #[test]
    fn a_booking_finishes_at_its_final_entry() {
        assert_eq!(
            finished_at(&finished_booking()),
            Some(at("2026-01-02T04:00:00.000Z"))
        );
        let mut open = finished_booking();
        open.timeline.pop();
        assert_eq!(finished_at(&open), None);
    }

    #[test]
    fn only_the_publics_accounts_delete_themselves() {
        assert!(may_delete_own_account(Role::User).is_ok());
        assert!(may_delete_own_account(Role::Admin).is_err());
        assert!(may_delete_own_account(Role::Crew).is_err());
    }
}
