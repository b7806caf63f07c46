//! Alerts for the dispatcher (decision 0012): what nobody answered, where no
//! ambulance was free, which ambulance stopped answering. Raised by the clock and by
//! the emergency route; listed open first, oldest first; acknowledged by an admin;
//! closed by the clock once their cause is gone.

use serde::{Deserialize, Serialize};
use strum::{AsRefStr, Display};

use super::booking::Pickup;
use crate::{
    domain::refusal::{Missing, Refusal},
    types::{Id, Timestamp},
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, AsRefStr, Display)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[strum(serialize_all = "SCREAMING_SNAKE_CASE")]
pub enum AlertKind {
    /// A job's answer deadline passed and it was not moved.
    Unanswered,
    /// An emergency found no free ambulance (with the pickup).
    NoAmbulance,
    /// An ambulance missed a job and is out of the free pool until its crew taps
    /// Available.
    NotResponding,
}

/// `{id, kind, bookingId?, ambulanceId?, ambulanceNumber?, pickup?, since,
/// acknowledgedBy?, acknowledgedAt?, closedAt?}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Alert {
    pub id: Id,
    pub kind: AlertKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub booking_id: Option<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ambulance_id: Option<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ambulance_number: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pickup: Option<Pickup>,
    pub since: Timestamp,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acknowledged_by: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acknowledged_at: Option<Timestamp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closed_at: Option<Timestamp>,
}

impl Alert {
    /// Open: neither acknowledged nor closed.
    pub fn is_open(&self) -> bool {
        self.acknowledged_at.is_none() && self.closed_at.is_none()
    }

    pub fn new(id: Id, kind: AlertKind, since: Timestamp) -> Alert {
        Alert {
            id,
            kind,
            booking_id: None,
            ambulance_id: None,
            ambulance_number: None,
            pickup: None,
            since,
            acknowledged_by: None,
            acknowledged_at: None,
            closed_at: None,
        }
    }
}

pub fn not_found(id: Id) -> Refusal {
    Missing::Alert(id).into()
}
