//! One tap to help (docs/decisions/0007-dispatch-data.md): the emergency request, the nearest free
//! ambulance ([`nearest`]), and the tracking links a requester shares with family:
//! their tokens, their lifetime, and the view they open, which holds no personal
//! data.

pub mod nearest;
pub mod rank;

use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use time::{Duration, OffsetDateTime};

use super::{
    ambulance::AmbulanceType,
    booking::{BookingStatus, Milestone, PatientDetails, Pickup, TimelineEntry, TripStage},
    dispatch::Tracking,
    hospital::Hospital,
    position::Position,
};
use crate::{
    refusal::{Conflict, Missing, NotAllowed, Refusal},
    types::{Id, Timestamp},
};

/// The body of `POST /api/booking/emergency`: where (the phone's position; absent,
/// the profile's location), optionally which type of ambulance, and whatever is
/// known of the patient (more can follow: `PATCH /api/booking/{id}/patient`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EmergencyRequest {
    pub pickup: Option<Pickup>,
    pub ambulance_type: Option<AmbulanceType>,
    pub patient: Option<PatientDetails>,
}

/// No free ambulance within reach: a 409 listing the nearest `hospitals` to call.
pub fn no_ambulance_near(hospitals: &[Hospital]) -> Refusal {
    serde_json::to_value(hospitals).map_or_else(
        |e| Refusal::Broken(e.to_string()),
        |hospitals| Conflict::NoAmbulanceNear { hospitals }.into(),
    )
}

/// Someone asked for a second emergency while one is open.
pub fn open_emergency(booking_id: Id) -> Refusal {
    Conflict::OpenEmergency { booking_id }.into()
}

/// Patient details and share links change only while the booking is open.
pub fn booking_final(id: Id, status: BookingStatus, what: &str) -> Refusal {
    Conflict::BookingFinal {
        id,
        status: status.as_ref().to_lowercase(),
        what: what.into(),
    }
    .into()
}

/// Only the requester changes the patient details and shares the trip.
pub fn not_the_requester() -> Refusal {
    NotAllowed::NotTheRequester.into()
}

// ---- Share links ------------------------------------------------------------------

/// A link lives at most this long after it was made ...
pub const SHARE_MAX_AGE: Duration = Duration::hours(24);
/// ... and stops this long after the booking became final.
pub const SHARE_AFTER_FINAL: Duration = Duration::hours(1);
/// Random bytes per token: 256 bits (at least 128 are needed for a link no one can guess).
const TOKEN_BYTES: usize = 32;

/// A new share token: [`TOKEN_BYTES`] from `rand`'s thread generator (a CSPRNG
/// seeded by the operating system), base64url without padding (43 characters, safe
/// in a URL path).
pub fn new_share_token() -> String {
    use base64::Engine;
    let mut bytes = [0u8; TOKEN_BYTES];
    rand::rng().fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// What is stored of a token: its SHA-256, hex. `None` for text that is no token
/// we could have made (wrong length or characters): it is unknown without a read.
pub fn share_token_hash(token: &str) -> Option<String> {
    let well_formed = token.len() == 43
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    well_formed.then(|| hex::encode(Sha256::digest(token.as_bytes())))
}

/// When a link made at `created` stops working, for a booking with `timeline`: 24 h
/// after it was made, or 1 h after the booking became final if that is sooner.
pub fn share_expiry(created: OffsetDateTime, timeline: &[TimelineEntry]) -> OffsetDateTime {
    let latest = created + SHARE_MAX_AGE;
    let ended = timeline
        .iter()
        .find(|e| matches!(e.stage, Milestone::Completed | Milestone::Cancelled))
        .map(|e| e.at)
        .map(Timestamp::get);
    match ended {
        Some(at) => latest.min(at + SHARE_AFTER_FINAL),
        None => latest,
    }
}

/// Unknown, expired and revoked links all answer this ([`Missing::ShareLink`]).
pub fn share_not_found() -> Refusal {
    Missing::ShareLink.into()
}

/// `POST /api/booking/{id}/share`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShareLink {
    pub token: String,
    /// The SPA's page for it: `/t/<token>`.
    pub url: String,
    /// The latest it works (earlier if the booking ends first: 1 h after).
    pub expires_at: Timestamp,
}

impl ShareLink {
    pub fn new(token: String, expires_at: Timestamp) -> ShareLink {
        ShareLink {
            url: format!("/t/{token}"),
            token,
            expires_at,
        }
    }
}

/// `GET /api/booking/shared/{token}`: what family may see of a trip. Built only
/// from the tracking view's trip fields: no patient, no pickup, no names, phones or
/// emails, no ids.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SharedTrip {
    pub booking_status: BookingStatus,
    pub trip_stage: Option<TripStage>,
    pub timeline: Vec<TimelineEntry>,
    pub ambulance: SharedAmbulance,
    pub hospital: SharedHospital,
    pub destination_hospital_name: String,
    pub eta_minutes: Option<u32>,
    /// As in the tracking view: family see the same "no answer yet" cues.
    pub answer_by: Option<Timestamp>,
    pub still_looking: bool,
    pub accepted: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SharedAmbulance {
    pub number: String,
    #[serde(rename = "type")]
    pub ambulance_type: AmbulanceType,
    pub position: Option<Position>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SharedHospital {
    pub name: String,
    pub address: String,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
}

impl From<Tracking> for SharedTrip {
    fn from(t: Tracking) -> Self {
        SharedTrip {
            booking_status: t.booking_status,
            trip_stage: t.trip_stage,
            timeline: t.timeline,
            ambulance: SharedAmbulance {
                number: t.ambulance.number,
                ambulance_type: t.ambulance.ambulance_type,
                position: t.ambulance.position,
            },
            hospital: SharedHospital {
                name: t.hospital.name,
                address: t.hospital.address,
                latitude: t.hospital.latitude,
                longitude: t.hospital.longitude,
            },
            destination_hospital_name: t.destination_hospital_name,
            eta_minutes: t.eta_minutes,
            answer_by: t.answer_by,
            still_looking: t.still_looking,
            accepted: t.accepted,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_input::json as parse_json;
    use time::macros::datetime;

    #[test]
    fn tokens_are_long_random_and_url_safe_and_only_their_hash_is_kept() {
        let a = new_share_token();
        let b = new_share_token();
        assert_ne!(a, b);
        assert_eq!(a.len(), 43);
        let hash = share_token_hash(&a).unwrap();
        assert_eq!(hash.len(), 64);
        assert!(!hash.contains(&a));
        assert_eq!(share_token_hash(&a), Some(hash));
        for bad in [
            "",
            "short",
            &format!("{a}x"),
            &a.replace(&a[..1], "/"),
            &"é".repeat(22),
        ] {
            assert_eq!(share_token_hash(bad), None, "{bad}");
        }
    }

    fn entry(stage: Milestone, at: &str) -> TimelineEntry {
        TimelineEntry::new(stage, Timestamp::parse(at).unwrap())
    }

    #[test]
    fn a_link_lasts_a_day_or_an_hour_after_the_end() {
        let made = datetime!(2026-03-04 05:00:00 UTC);
        let open = [entry(Milestone::Active, "2026-03-04T04:59:00.000Z")];
        assert_eq!(
            share_expiry(made, &open),
            datetime!(2026-03-05 05:00:00 UTC)
        );
        let done = [
            entry(Milestone::Active, "2026-03-04T04:59:00.000Z"),
            entry(Milestone::Completed, "2026-03-04T06:30:00.000Z"),
        ];
        assert_eq!(
            share_expiry(made, &done),
            datetime!(2026-03-04 07:30:00 UTC)
        );
        // Ended 23.5 h after the link was made: the day still comes first.
        let late = [entry(Milestone::Cancelled, "2026-03-05T04:30:00.000Z")];
        assert_eq!(
            share_expiry(made, &late),
            datetime!(2026-03-05 05:00:00 UTC)
        );
    }

    /// The shared view is built from the tracking view and keeps none of its
    /// personal or identifying fields.
    #[test]
    fn the_shared_view_drops_everything_personal() {
        let tracking: Tracking = serde_json::from_value(serde_json::json!({
            "bookingId": 7, "bookingStatus": "ACTIVE", "bookingType": "EMERGENCY",
            "tripStage": "EN_ROUTE", "timeline": [{"stage": "ACTIVE", "at": "2026-03-04T05:00:00.000Z"}],
            "pickup": {"latitude": 30.5, "longitude": 74.2, "landmark": "blue house"},
            "hospital": {"id": 3, "name": "Civil", "address": "1 Road", "latitude": 30.6,
                         "longitude": 74.3, "contactInfo": "+91 111"},
            "destinationHospitalName": "Civil",
            "ambulance": {"id": 4, "number": "PB-1", "type": "ALS", "contactInfo": "+91 222",
                          "position": null},
            "etaMinutes": 6, "distanceKm": 2.5, "answerBy": null, "stillLooking": false,
            "accepted": true
        }))
        .unwrap();
        let shared = serde_json::to_value(SharedTrip::from(tracking)).unwrap();
        assert_eq!(
            shared,
            serde_json::json!({
                "bookingStatus": "ACTIVE", "tripStage": "EN_ROUTE",
                "timeline": [{"stage": "ACTIVE", "at": "2026-03-04T05:00:00.000Z"}],
                "ambulance": {"number": "PB-1", "type": "ALS", "position": null},
                "hospital": {"name": "Civil", "address": "1 Road", "latitude": 30.6, "longitude": 74.3},
                "destinationHospitalName": "Civil",
                "etaMinutes": 6, "answerBy": null, "stillLooking": false, "accepted": true
            })
        );
    }

    #[test]
    fn an_emergency_needs_nothing_but_may_say_a_lot() {
        let bare: EmergencyRequest = parse_json(b"{}").unwrap();
        assert_eq!(bare.pickup, None);
        assert_eq!(bare.patient, None);
        let full: EmergencyRequest = parse_json(
            br#"{"pickup": {"latitude": 30.5, "longitude": 74.2}, "ambulanceType": "als",
                 "patient": {"age": 70, "condition": " breathless "}}"#,
        )
        .unwrap();
        assert_eq!(full.ambulance_type, Some(AmbulanceType::Als));
        let patient = full.patient.unwrap();
        assert_eq!(patient.name, None);
        assert_eq!(patient.age.map(u8::from), Some(70));
        assert_eq!(
            patient.condition.map(String::from).as_deref(),
            Some("breathless")
        );
        for (body, want) in [
            (r#"{"patient": {"age": 151}}"#, "patient.age"),
            (r#"{"patient": {"name": "  "}}"#, "patient.name"),
            (r#"{"patient": {"blood": "O+"}}"#, "patient.blood"),
            (r#"{"ambulanceType": "TAXI"}"#, "ambulanceType"),
            (
                r#"{"pickup": {"latitude": 95, "longitude": 0}}"#,
                "pickup.latitude",
            ),
            (r#"{"hospitalId": 3}"#, "hospitalId"),
        ] {
            match parse_json::<EmergencyRequest>(body.as_bytes()) {
                Err(crate::refusal::Refusal::Invalid { field, .. }) => {
                    assert_eq!(field, want, "{body}")
                }
                other => panic!("{body}: {other:?}"),
            }
        }
    }
}
