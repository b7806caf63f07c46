//! Crew accounts: the driver or paramedic of one ambulance (docs/decisions/0007-dispatch-data.md, "Crew accounts").
//! Several may share an ambulance; admins make, move and remove them.

use serde::{Deserialize, Serialize};

use super::user::{NewAccount, Role};
use crate::{error::ApiError, types::Id};

/// A crew account as the admin routes show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Crew {
    pub id: Id,
    pub username: String,
    pub email: String,
    pub phone: String,
    /// Always `CREW`.
    pub role: Role,
    pub ambulance_id: Id,
    pub created_at: String,
}

/// `{id, username, phone}`: who the crew screen says is signed in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrewRef {
    pub id: Id,
    pub username: String,
    pub phone: String,
}

impl From<&Crew> for CrewRef {
    fn from(c: &Crew) -> Self {
        CrewRef {
            id: c.id,
            username: c.username.clone(),
            phone: c.phone.clone(),
        }
    }
}

pub struct NewCrew {
    pub account: NewAccount,
    pub ambulance_id: Id,
}

pub fn not_found(id: Id) -> ApiError {
    ApiError::NotFound(format!("Crew {id} not found"))
}

/// A crew account whose stored user is gone or no longer a crew: its token stops.
pub fn not_a_crew() -> ApiError {
    ApiError::Forbidden("This route is only for ambulance crew accounts".into())
}

/// The job went to another ambulance (its answer deadline passed, or a dispatcher
/// moved it): the crew's late tap loses the race (decision 0012).
pub fn job_gone(booking: Id) -> ApiError {
    ApiError::Conflict(format!("Booking {booking} was given to another ambulance"))
}

/// The booking is not the one the crew's ambulance holds.
pub fn not_your_booking(booking: Id) -> ApiError {
    ApiError::Forbidden(format!("Booking {booking} is not held by your ambulance"))
}

/// An ambulance that still has crew cannot go (a hospital neither).
pub fn has_crew(number: &str, crew: u64) -> ApiError {
    ApiError::Conflict(format!("Ambulance {}", still_crewed(number, crew)))
}

/// `<number> still has <crew> crew account(s); ...`: why an ambulance (or its
/// hospital) is not removed.
pub fn still_crewed(number: &str, crew: u64) -> String {
    let accounts = if crew == 1 { "account" } else { "accounts" };
    format!(
        "{number} still has {crew} crew {accounts}; move them to another ambulance or remove them first"
    )
}

/// A crew change that lost a race (the crew was just moved or removed).
pub fn changed_meanwhile(id: Id) -> ApiError {
    ApiError::Conflict(format!(
        "Crew {id} was changed at the same time; please retry"
    ))
}
