//! Crew accounts: the driver or paramedic of one ambulance (docs/decisions/0007-dispatch-data.md, "Crew accounts").
//! Several may share an ambulance; admins make, move and remove them.

use serde::{Deserialize, Serialize};

use super::{
    booking::{self, Booking, Hold},
    user::{NewAccount, Role},
};
use crate::{
    refusal::{Conflict, Missing, NotAllowed, Refusal},
    types::Id,
};

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
    pub created_at: crate::types::Timestamp,
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

pub fn not_found(id: Id) -> Refusal {
    Missing::Crew(id).into()
}

/// A crew account whose stored user is gone or no longer a crew: its token stops.
pub fn not_a_crew() -> Refusal {
    NotAllowed::NotACrew.into()
}

/// The job went to another ambulance (its answer deadline passed, or a dispatcher
/// moved it): the crew's late tap loses the race (decision 0012).
pub fn job_gone(booking: Id) -> Refusal {
    Conflict::JobGone(booking).into()
}

/// The booking is not the one the crew's ambulance holds.
pub fn not_your_booking(booking: Id) -> Refusal {
    NotAllowed::NotYourJob(booking).into()
}

/// Whether the crew of `ambulance` may act on `job` ([`booking::hold`]): its own,
/// held or ended (the trip's rule then says why no step is left), else why not.
pub fn may_act_on(ambulance: Id, job: &Booking) -> Result<(), Refusal> {
    match booking::hold(ambulance, job) {
        Hold::Holds | Hold::Ended => Ok(()),
        Hold::Gone => Err(job_gone(job.id)),
        Hold::NotYours => Err(not_your_booking(job.id)),
    }
}

/// An ambulance that still has crew cannot go (a hospital neither).
pub fn has_crew(number: &str, crew: u64) -> Refusal {
    Conflict::AmbulanceCrewed {
        number: number.into(),
        crew,
    }
    .into()
}

/// A crew change that lost a race (the crew was just moved or removed).
pub fn changed_meanwhile(id: Id) -> Refusal {
    Conflict::CrewChanged(id).into()
}
