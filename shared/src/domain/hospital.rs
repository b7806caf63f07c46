//! Hospitals.

use serde::{Deserialize, Serialize};

use crate::{
    domain::refusal::{Conflict, Missing, Refusal},
    types::{Id, LatLng},
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
    pub location: LatLng,
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
