//! Ambulances: status and type, what the public may see, the fleet counts, and the
//! rule that an ambulance held by an open booking stays as it is until that booking
//! ends.

use serde::{Deserialize, Serialize};
use strum::{AsRefStr, Display, VariantArray};

use super::{hospital::HospitalRef, lenient, presence::CrewPresence};
use crate::{
    refusal::{Conflict, Missing, Refusal},
    types::{Id, Timestamp},
};

/// Serialized as `AVAILABLE`, `ON_DUTY`, `MAINTENANCE`; parsed case-insensitively
/// (`on_duty`, `On-Duty` and `on duty` too), as people type query strings.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, AsRefStr, Display, VariantArray,
)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE", try_from = "String")]
#[strum(serialize_all = "SCREAMING_SNAKE_CASE")]
pub enum AmbulanceStatus {
    Available,
    OnDuty,
    Maintenance,
}

lenient!(AmbulanceStatus, "status");

/// Serialized as `BLS`, `ALS`, `PTA`; parsed case-insensitively.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    Serialize,
    Deserialize,
    AsRefStr,
    Display,
    VariantArray,
)]
#[serde(rename_all = "UPPERCASE", try_from = "String")]
#[strum(serialize_all = "UPPERCASE")]
pub enum AmbulanceType {
    /// Basic life support.
    #[default]
    Bls,
    /// Advanced life support.
    Als,
    /// Patient transport.
    Pta,
}

lenient!(AmbulanceType, "type");

/// An ambulance as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Ambulance {
    pub id: Id,
    pub number: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub driver_info: Option<String>,
    pub status: AmbulanceStatus,
    #[serde(rename = "type")]
    pub ambulance_type: AmbulanceType,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contact_info: Option<String>,
    pub hospital_id: Id,
    pub hospital: HospitalRef,
    /// Since when it has been out of the free pool for missing a job's answer
    /// deadline (decision 0012), until its crew sets it AVAILABLE; null otherwise.
    #[serde(default)]
    pub not_responding: Option<Timestamp>,
    /// Whether its crew can answer now (decision 0020): in the lists of signed-in
    /// callers (the admin's, a hospital's fleet page, the booking form's), absent
    /// elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crew_presence: Option<CrewPresence>,
}

impl Ambulance {
    /// Signed-out callers see no driver or contact details (nor whether it missed a
    /// job).
    pub fn public(self, signed_in: bool) -> Self {
        if signed_in {
            self
        } else {
            Ambulance {
                driver_info: None,
                contact_info: None,
                not_responding: None,
                crew_presence: None,
                ..self
            }
        }
    }
}

pub struct NewAmbulance {
    pub number: String,
    pub driver_info: Option<String>,
    pub status: AmbulanceStatus,
    pub ambulance_type: AmbulanceType,
    pub contact_info: Option<String>,
    pub hospital_id: Id,
}

/// A new ambulance is AVAILABLE or MAINTENANCE: ON_DUTY comes from a booking (or a
/// later status change).
pub fn check_new_status(status: AmbulanceStatus) -> Result<(), Refusal> {
    if status == AmbulanceStatus::OnDuty {
        return Err(Refusal::invalid(
            "status",
            "Invalid 'status': a new ambulance is AVAILABLE or MAINTENANCE",
        ));
    }
    Ok(())
}

/// Fleet counts by status. The same fields are the fleet counter's (see
/// `store::counters`), so a count and a change of counts are one type.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AmbulanceCounts {
    pub total: i64,
    pub available: i64,
    pub on_duty: i64,
    pub maintenance: i64,
}

impl AmbulanceCounts {
    fn of_status(&mut self, status: AmbulanceStatus) -> &mut i64 {
        match status {
            AmbulanceStatus::Available => &mut self.available,
            AmbulanceStatus::OnDuty => &mut self.on_duty,
            AmbulanceStatus::Maintenance => &mut self.maintenance,
        }
    }

    pub fn of<'a>(statuses: impl IntoIterator<Item = &'a AmbulanceStatus>) -> Self {
        let mut c = AmbulanceCounts::default();
        for s in statuses {
            c.total += 1;
            *c.of_status(*s) += 1;
        }
        c
    }

    /// The change of counts when one ambulance moves from `from` to `to`.
    pub fn moved(from: AmbulanceStatus, to: AmbulanceStatus) -> Self {
        let mut c = AmbulanceCounts::default();
        *c.of_status(from) -= 1;
        *c.of_status(to) += 1;
        c
    }

    /// The change of counts when these ambulances go.
    pub fn removed(self) -> Self {
        AmbulanceCounts {
            total: -self.total,
            available: -self.available,
            on_duty: -self.on_duty,
            maintenance: -self.maintenance,
        }
    }
}

pub fn not_found(id: Id) -> Refusal {
    Missing::Ambulance(id).into()
}

/// What an admin may not do to an ambulance held by an open booking (`what`: "removed",
/// "set to AVAILABLE"...).
pub fn held_conflict(number: &str, booking: Id, what: &str) -> Refusal {
    Conflict::AmbulanceHeld {
        number: number.into(),
        booking,
        what: what.into(),
    }
    .into()
}

pub fn number_taken(number: &str) -> Refusal {
    Conflict::AmbulanceNumberTaken(number.into()).into()
}

/// An admin's change that lost a race (the ambulance may just have been booked).
pub fn changed_meanwhile(number: &str, during: &str) -> Refusal {
    Conflict::AmbulanceChanged {
        number: number.into(),
        during: during.into(),
    }
    .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(text: &str) -> Result<AmbulanceStatus, String> {
        AmbulanceStatus::try_from(text.to_owned())
    }

    #[test]
    fn statuses_parse_case_insensitively_and_serialize_in_capitals() {
        for (text, want) in [
            ("AVAILABLE", AmbulanceStatus::Available),
            ("available", AmbulanceStatus::Available),
            (" On_Duty ", AmbulanceStatus::OnDuty),
            ("on-duty", AmbulanceStatus::OnDuty),
            ("maintenance", AmbulanceStatus::Maintenance),
        ] {
            assert_eq!(status(text), Ok(want), "{text}");
            let json: AmbulanceStatus = serde_json::from_value(text.into()).unwrap();
            assert_eq!(json, want, "{text}");
        }
        assert_eq!(
            status("BROKEN"),
            Err("unknown status 'BROKEN': expected AVAILABLE, ON_DUTY or MAINTENANCE".into())
        );
        assert!(status("ONDUTY").is_err());
        assert_eq!(
            serde_json::to_value(AmbulanceStatus::OnDuty).unwrap(),
            "ON_DUTY"
        );
        assert_eq!(AmbulanceStatus::OnDuty.to_string(), "ON_DUTY");
        let t: AmbulanceType = serde_json::from_str("\"als\"").unwrap();
        assert_eq!(t, AmbulanceType::Als);
        assert_eq!(serde_json::to_value(t).unwrap(), "ALS");
        assert_eq!(
            serde_json::from_str::<AmbulanceType>("\"JET\"")
                .unwrap_err()
                .to_string(),
            "unknown type 'JET': expected BLS, ALS or PTA"
        );
        assert_eq!(AmbulanceType::default(), AmbulanceType::Bls);
    }

    #[test]
    fn signed_out_callers_see_no_driver_or_contact() {
        let a = Ambulance {
            id: Id::try_from(1).unwrap(),
            number: "PB-1".into(),
            driver_info: Some("R. Kumar".into()),
            status: AmbulanceStatus::Available,
            ambulance_type: AmbulanceType::Als,
            contact_info: Some("+911234567".into()),
            hospital_id: Id::try_from(2).unwrap(),
            hospital: HospitalRef {
                id: Id::try_from(2).unwrap(),
                name: "City".into(),
                address: "Road".into(),
            },
            not_responding: None,
            crew_presence: Some(CrewPresence::Online),
        };
        let public = serde_json::to_value(a.clone().public(false)).unwrap();
        assert!(public.get("driverInfo").is_none() && public.get("contactInfo").is_none());
        assert!(public.get("crewPresence").is_none());
        assert_eq!(public["hospital"]["name"], "City");
        assert_eq!(public["type"], "ALS");
        let full = serde_json::to_value(a.public(true)).unwrap();
        assert_eq!(full["driverInfo"], "R. Kumar");
        assert_eq!(full["hospitalId"], 2);
    }

    #[test]
    fn counter_deltas_and_counts() {
        use AmbulanceStatus::*;
        let c = AmbulanceCounts::of(&[Available, OnDuty, Available]);
        assert_eq!(
            c,
            AmbulanceCounts {
                total: 3,
                available: 2,
                on_duty: 1,
                maintenance: 0
            }
        );
        assert_eq!(
            AmbulanceCounts::moved(Available, OnDuty),
            AmbulanceCounts {
                total: 0,
                available: -1,
                on_duty: 1,
                maintenance: 0
            }
        );
        assert_eq!(c.removed().available, -2);
        assert!(check_new_status(OnDuty).is_err());
        assert!(check_new_status(Maintenance).is_ok());
    }
}
