//! Alerts for the dispatcher (decisions 0012 and 0020): what nobody answered, where
//! no ambulance was free, which ambulance stopped answering, which job went to an
//! ambulance whose crew is not online (a person must phone its station). Raised by
//! the clock and by the routes that give jobs; listed open first, oldest first;
//! acknowledged by an admin; closed by the clock once their cause is gone.

use serde::{Deserialize, Serialize};
use strum::{AsRefStr, Display};

use super::{
    booking::{BookingType, Pickup},
    presence::CrewPresence,
};
use crate::{
    geo::Point,
    refusal::{Missing, Refusal},
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
    /// A job was given to an ambulance whose crew is not online (decision 0020): a
    /// person must phone its station (`phone`) now; the answer deadline still runs.
    CallStation,
}

/// `{id, kind, bookingId?, ambulanceId?, ambulanceNumber?, pickup?, since,
/// acknowledgedBy?, acknowledgedAt?, closedAt?, moves?, crewPresence?, hospitalId?,
/// hospitalName?, phone?}`.
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
    /// For `NO_AMBULANCE`, the latest pickup of the area's refused emergencies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pickup: Option<Pickup>,
    /// For `NO_AMBULANCE`: how many emergencies of its area found nobody while it
    /// was open (one open alert per area: [`no_ambulance_area`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
    pub since: Timestamp,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acknowledged_by: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acknowledged_at: Option<Timestamp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closed_at: Option<Timestamp>,
    /// `UNANSWERED` of an emergency: how many times it had moved on by itself when
    /// the alert was raised (or, once every move was tried, in all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<u32>,
    /// `CALL_STATION`: the crew's presence when the job was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crew_presence: Option<CrewPresence>,
    /// `CALL_STATION`: the ambulance's hospital and its phone (the station to call);
    /// `NO_AMBULANCE`: the hospital nearest the latest pickup and its phone (someone
    /// to call there; decision 0024).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hospital_id: Option<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hospital_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
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
            count: None,
            since,
            acknowledged_by: None,
            acknowledged_at: None,
            closed_at: None,
            moves: None,
            crew_presence: None,
            hospital_id: None,
            hospital_name: None,
            phone: None,
        }
    }
}

/// What a `CALL_STATION` alert names: the job, the ambulance given it and its crew's
/// presence, the ambulance's hospital and the phone to call there.
#[derive(Debug, Clone, PartialEq)]
pub struct StationCall {
    pub booking_id: Id,
    pub ambulance_id: Id,
    pub ambulance_number: String,
    pub presence: CrewPresence,
    pub hospital_id: Id,
    pub hospital_name: Option<String>,
    pub phone: Option<String>,
    pub pickup: Option<Pickup>,
}

impl Alert {
    /// A job given to an ambulance whose crew is not online: a person phones.
    pub fn call_station(id: Id, since: Timestamp, call: StationCall) -> Alert {
        Alert {
            booking_id: Some(call.booking_id),
            ambulance_id: Some(call.ambulance_id),
            ambulance_number: Some(call.ambulance_number),
            pickup: call.pickup,
            crew_presence: Some(call.presence),
            hospital_id: Some(call.hospital_id),
            hospital_name: call.hospital_name,
            phone: call.phone,
            ..Alert::new(id, AlertKind::CallStation, since)
        }
    }
}

impl AlertKind {
    /// Where an open alert of this kind stands in the dispatcher's list: a patient
    /// whose job nobody took, or whose crew must be phoned now, first (oldest first
    /// among them), then one nobody could be sent to, then an ambulance that stopped
    /// answering (lower is more urgent).
    pub fn urgency(self) -> u8 {
        match self {
            AlertKind::Unanswered | AlertKind::CallStation => 0,
            AlertKind::NoAmbulance => 1,
            AlertKind::NotResponding => 2,
        }
    }
}

/// The side of an area of [`no_ambulance_area`], in km.
pub const NO_AMBULANCE_AREA_KM: f64 = 5.0;
const KM_PER_DEGREE: f64 = 111.32;

/// The 5 km square a pickup lies in (rows of 5 km of latitude, each cut into 5 km
/// of longitude at its middle): the area of one open `NO_AMBULANCE` alert, so a
/// hundred refused emergencies in one place are one alert with a count.
pub fn no_ambulance_area(pickup: Point) -> String {
    let step = NO_AMBULANCE_AREA_KM / KM_PER_DEGREE;
    let row = (pickup.lat / step).floor();
    let middle = ((row + 0.5) * step).clamp(-89.9, 89.9);
    let column_step = step / middle.to_radians().cos();
    let column = (pickup.lng / column_step).floor();
    format!("{row}:{column}")
}

/// An alert as the dispatcher's list shows it: an open alert of a booking also
/// carries what a dispatcher needs to act on it without opening the booking (the
/// requester's phone to call, the booking's type and destination hospital) and the
/// ambulance's crew presence now. Never stored: read with the page (docs/decisions/0024-a-console-row-acts-alone.md).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListedAlert {
    #[serde(flatten)]
    pub alert: Alert,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requester_phone: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub booking_type: Option<BookingType>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destination_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ambulance_presence: Option<CrewPresence>,
}

impl From<Alert> for ListedAlert {
    fn from(alert: Alert) -> ListedAlert {
        ListedAlert {
            alert,
            requester_phone: None,
            booking_type: None,
            destination_name: None,
            ambulance_presence: None,
        }
    }
}

/// One page of the dispatcher's alerts: the open ones, most urgent first (then
/// oldest first), then at most 50 recently ended ones, newest first; `cursor`
/// fetches the next page (absent on the last).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AlertsPage {
    pub items: Vec<ListedAlert>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

pub fn not_found(id: Id) -> Refusal {
    Missing::Alert(id).into()
}

#[cfg(test)]
mod area_tests {
    use super::*;

    #[test]
    fn an_area_is_a_five_km_square() {
        // 30.67, 74.33 (the demo city): 4 km apart in one area or two, never one
        // area 6 km across.
        let here = no_ambulance_area(Point::new(30.6701, 74.3301));
        assert_eq!(here, no_ambulance_area(Point::new(30.6702, 74.3302)));
        let step = NO_AMBULANCE_AREA_KM / KM_PER_DEGREE;
        for (dlat, dlng) in [
            (1.2 * step, 0.0),
            (0.0, 1.2 * step / 30.67f64.to_radians().cos()),
        ] {
            assert_ne!(
                here,
                no_ambulance_area(Point::new(30.6701 + dlat, 74.3301 + dlng))
            );
        }
        // Near the poles and across the antimeridian it still answers.
        assert!(!no_ambulance_area(Point::new(89.99, 179.99)).is_empty());
        assert_ne!(
            no_ambulance_area(Point::new(0.0, 179.99)),
            no_ambulance_area(Point::new(0.0, -179.99))
        );
        assert_eq!(AlertKind::Unanswered.urgency(), 0);
    }
}
