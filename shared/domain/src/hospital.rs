//! Hospitals.

use serde::{Deserialize, Serialize, Serializer};
use time::{Duration, OffsetDateTime};

use crate::{
    geo::Point,
    refusal::{Conflict, Missing, Refusal},
    types::{Id, Timestamp},
};

/// A hospital as the API shows it; `distance` (km) only from the nearest search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Hospital {
    pub id: Id,
    pub name: String,
    pub address: String,
    pub latitude: f64,
    pub longitude: f64,
    pub contact_info: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<f64>,
    /// Until when it asks ambulances to go elsewhere (docs/decisions/0026-receiving-hospital.md):
    /// shown as null once that time has passed ([`diversion_shown`]), so no sweep
    /// has to end a diversion.
    #[serde(default, serialize_with = "serialize_diversion")]
    pub on_diversion_until: Option<Timestamp>,
}

impl Hospital {
    pub fn point(&self) -> Point {
        Point::new(self.latitude, self.longitude)
    }
}

impl Hospital {
    /// Whether it is on diversion at `now`.
    pub fn diverted_at(&self, now: OffsetDateTime) -> bool {
        diversion_shown(self.on_diversion_until, now).is_some()
    }
}

/// A diversion as shown at `now`: none once its time has passed.
pub fn diversion_shown(until: Option<Timestamp>, now: OffsetDateTime) -> Option<Timestamp> {
    until.filter(|u| u.get() > now)
}

/// `onDiversionUntil` as every answer shows it: null once passed (by the clock of
/// the machine answering).
pub fn serialize_diversion<S: Serializer>(
    until: &Option<Timestamp>,
    s: S,
) -> Result<S::Ok, S::Error> {
    diversion_shown(*until, OffsetDateTime::now_utc()).serialize(s)
}

/// The longest diversion a hospital may set at once: it must say again each day
/// that it is full, so a forgotten one ends by itself.
pub const MAX_DIVERSION: Duration = Duration::hours(24);

/// `until` of `PUT /api/hospital/diversion`, checked at `now`: in the future and at
/// most [`MAX_DIVERSION`] ahead (400 naming `until` otherwise).
pub fn diversion_until(until: Timestamp, now: OffsetDateTime) -> Result<Timestamp, Refusal> {
    if until.get() <= now {
        return Err(Refusal::invalid(
            "until",
            "Invalid 'until': it must lie in the future",
        ));
    }
    if until.get() > now + MAX_DIVERSION {
        return Err(Refusal::invalid(
            "until",
            "Invalid 'until': a diversion lasts at most 24 hours; set it again when it ends",
        ));
    }
    Ok(until)
}

/// `{id, name, address}`: the hospital an ambulance belongs to, or a booking went to
/// (as it was named at booking time).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HospitalRef {
    pub id: Id,
    pub name: String,
    pub address: String,
}

pub struct NewHospital {
    pub name: String,
    pub address: String,
    pub location: Point,
    pub contact_info: Option<String>,
}

pub fn not_found(id: Id) -> Refusal {
    Missing::Hospital(id).into()
}

/// A hospital goes only with all its ambulances, and none may be held.
pub fn held_conflict(id: Id, ambulance_number: &str, booking: Id) -> Refusal {
    Conflict::HospitalHeld {
        id,
        ambulance: ambulance_number.into(),
        booking,
    }
    .into()
}

/// A hospital goes only when none of its ambulances has crew accounts.
pub fn crew_conflict(id: Id, ambulance_number: &str, crew: u64) -> Refusal {
    Conflict::HospitalCrewed {
        id,
        ambulance: ambulance_number.into(),
        crew,
    }
    .into()
}

/// A removal that lost a race with another change of the hospital's fleet.
pub fn changed_during_removal(id: Id) -> Refusal {
    Conflict::HospitalChanged(id).into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn a_diversion_lies_in_the_next_24_hours_and_shows_until_it_ends() {
        let now = datetime!(2026-03-01 10:00 UTC);
        let at = |t: OffsetDateTime| Timestamp::new(t).unwrap();
        let field = |r: Result<Timestamp, Refusal>| match r {
            Err(Refusal::Invalid { field, .. }) => field,
            other => panic!("{other:?}"),
        };
        assert_eq!(field(diversion_until(at(now), now)), "until");
        assert_eq!(
            field(diversion_until(at(now - Duration::minutes(1)), now)),
            "until"
        );
        assert_eq!(
            field(diversion_until(
                at(now + Duration::hours(24) + Duration::seconds(1)),
                now
            )),
            "until"
        );
        let until = at(now + Duration::hours(24));
        assert_eq!(diversion_until(until, now).unwrap(), until);
        assert_eq!(diversion_shown(Some(until), now), Some(until));
        assert_eq!(
            diversion_shown(Some(until), now + Duration::hours(24)),
            None
        );
        assert_eq!(diversion_shown(None, now), None);
        let h = Hospital {
            id: Id::try_from(1).unwrap(),
            name: "H".into(),
            address: "A".into(),
            latitude: 1.0,
            longitude: 2.0,
            contact_info: None,
            distance: None,
            on_diversion_until: Some(at(now)),
        };
        // Long past by the wall clock: shown open.
        assert_eq!(
            serde_json::to_value(&h).unwrap()["onDiversionUntil"],
            serde_json::Value::Null
        );
        assert!(!h.diverted_at(now) && h.diverted_at(now - Duration::seconds(1)));
    }
}
