//! Bookings: the request a user makes (parsed into types that can only hold valid
//! values), the booking as stored and shown, and the status state machine.
//!
//! The state machine is [`BookingStatus::next`]; a move is checked by
//! [`BookingStatus::move_to`], which answers the [`Transition`] the store writes
//! (and whether it frees the ambulance). Trip stages will hang off the same
//! transition.

use serde::{Deserialize, Serialize};
use strum::{AsRefStr, Display, VariantArray};

use super::{ambulance::AmbulanceType, hospital::HospitalRef};
use crate::{
    error::ApiError,
    types::{Id, Text, WholeNumber},
};

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, AsRefStr, Display, VariantArray,
)]
#[serde(rename_all = "UPPERCASE")]
#[strum(serialize_all = "UPPERCASE")]
pub enum BookingStatus {
    Pending,
    Active,
    Completed,
    Cancelled,
}

/// One allowed move of a booking's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transition {
    pub from: BookingStatus,
    pub to: BookingStatus,
}

impl Transition {
    /// Reaching a final status returns the ambulance to AVAILABLE (same transaction).
    pub fn frees_ambulance(self) -> bool {
        self.to.is_final()
    }
}

impl BookingStatus {
    /// COMPLETED and CANCELLED are final: nothing moves out of them.
    pub fn is_final(self) -> bool {
        matches!(self, BookingStatus::Completed | BookingStatus::Cancelled)
    }

    /// The statuses this one may move to.
    pub fn next(self) -> &'static [BookingStatus] {
        use BookingStatus::*;
        match self {
            Pending => &[Active, Cancelled],
            Active => &[Completed, Cancelled],
            Completed | Cancelled => &[],
        }
    }

    /// Checks one move of the state machine; a refused move is a 409 that says which.
    pub fn move_to(self, to: BookingStatus) -> Result<Transition, ApiError> {
        let from = self;
        if from.next().contains(&to) {
            return Ok(Transition { from, to });
        }
        let why = if from.is_final() {
            format!("{from} is final")
        } else {
            let allowed: Vec<&str> = from.next().iter().map(AsRef::as_ref).collect();
            format!("from {from} it can only become {}", allowed.join(" or "))
        };
        Err(ApiError::Conflict(format!(
            "Cannot change booking status from {from} to {to}: {why}"
        )))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum BookingType {
    #[default]
    Normal,
    Emergency,
}

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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Gender {
    Male,
    Female,
    Other,
}

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

/// The body of `POST /api/booking/book`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BookingRequest {
    pub hospital_id: Id,
    pub ambulance_id: Id,
    #[serde(default)]
    pub booking_type: BookingType,
    pub patient: Patient,
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

/// A booking as the API shows it (DESIGN.md section 5). Names are those stored at
/// booking time, so history survives removed hospitals and ambulances.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Booking {
    pub id: Id,
    pub booking_status: BookingStatus,
    pub booking_type: BookingType,
    pub booking_time: String,
    pub user_id: Id,
    pub username: String,
    pub user_email: String,
    pub hospital_id: Id,
    pub hospital_name: String,
    pub hospital: HospitalRef,
    pub ambulance_id: Id,
    pub ambulance_number: String,
    pub ambulance: BookingAmbulance,
    pub patient: Patient,
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

    /// The change of counts of one booking's move.
    pub fn moved(t: Transition) -> Self {
        let mut c = BookingCounts::default();
        *c.of_status(t.from) -= 1;
        *c.of_status(t.to) += 1;
        c
    }
}

pub fn not_found(id: Id) -> ApiError {
    ApiError::NotFound(format!("Booking {id} not found"))
}

/// Someone else booked the ambulance first.
pub fn ambulance_taken() -> ApiError {
    ApiError::Conflict("Ambulance is no longer available".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::parse_json;
    use BookingStatus::*;

    #[test]
    fn the_state_machine_allows_exactly_four_moves() {
        let mut allowed = vec![];
        for from in BookingStatus::VARIANTS {
            for to in BookingStatus::VARIANTS {
                if from.move_to(*to).is_ok() {
                    allowed.push((*from, *to));
                }
            }
        }
        assert_eq!(
            allowed,
            vec![
                (Pending, Active),
                (Pending, Cancelled),
                (Active, Completed),
                (Active, Cancelled)
            ]
        );
        let Err(ApiError::Conflict(msg)) = Completed.move_to(Active) else {
            panic!()
        };
        assert_eq!(
            msg,
            "Cannot change booking status from COMPLETED to ACTIVE: COMPLETED is final"
        );
        let Err(ApiError::Conflict(msg)) = Pending.move_to(Completed) else {
            panic!()
        };
        assert!(
            msg.ends_with("from PENDING it can only become ACTIVE or CANCELLED"),
            "{msg}"
        );
        assert!(Active.move_to(Cancelled).unwrap().frees_ambulance());
        assert!(!Pending.move_to(Active).unwrap().frees_ambulance());
        assert_eq!(
            BookingCounts::moved(Active.move_to(Completed).unwrap()),
            BookingCounts {
                active: -1,
                completed: 1,
                ..Default::default()
            }
        );
    }

    fn request(patch: impl FnOnce(&mut serde_json::Value)) -> Result<BookingRequest, ApiError> {
        let mut v = serde_json::json!({
            "hospitalId": 1, "ambulanceId": 2, "bookingType": "EMERGENCY",
            "patient": {"name": " Ravi ", "age": 40, "gender": "Male", "condition": "chest pain"}
        });
        patch(&mut v);
        parse_json(v.to_string().as_bytes())
    }

    fn field_of(r: Result<BookingRequest, ApiError>) -> Option<String> {
        match r {
            Err(ApiError::BadRequest { field, .. }) => field,
            other => panic!("expected a 400, got {other:?}"),
        }
    }

    #[test]
    fn a_valid_request_parses_and_trims() {
        let r = request(|_| {}).unwrap();
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

    #[test]
    fn every_bad_field_is_named() {
        for (patch, field) in crate::testing::bad_booking_fields() {
            assert_eq!(field_of(request(patch)).as_deref(), Some(field));
        }
    }
}
