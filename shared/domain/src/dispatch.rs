//! What the requester and the dispatcher see of trips under way: a booking's
//! tracking view with its ETA, and the live map's box and rows (docs/decisions/0007-dispatch-data.md).

use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};

use super::{
    ambulance::{AmbulanceStatus, AmbulanceType},
    booking::{Booking, BookingStatus, BookingType, Pickup, TimelineEntry, TripStage},
    eta::{self, Eta},
    hospital::Hospital,
    position::{Doubt, DoubtReason, Position},
    presence::CrewPresence,
};
use crate::{
    geo::{Point, haversine_km},
    refusal::Refusal,
    types::{Id, Timestamp},
};

/// `GET /api/booking/{id}/track`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tracking {
    pub booking_id: Id,
    pub booking_status: BookingStatus,
    pub booking_type: BookingType,
    pub trip_stage: Option<TripStage>,
    pub timeline: Vec<TimelineEntry>,
    pub pickup: Option<Pickup>,
    pub hospital: TrackedHospital,
    /// The hospital the patient is driven to (the booking's destination).
    pub destination_hospital_name: String,
    pub ambulance: TrackedAmbulance,
    pub eta_minutes: Option<u32>,
    pub distance_km: Option<f64>,
    /// While the crew has yet to accept: when they must have (the booking's own).
    pub answer_by: Option<Timestamp>,
    /// The requester's cue to call for help themselves: see [`still_looking`].
    pub still_looking: bool,
    /// Whether the crew has accepted the job (decision 0020): until then the pages
    /// say "waiting for the crew to accept", never "on its way".
    pub accepted: bool,
}

/// The destination: as named at booking time; its point and phone while it exists.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrackedHospital {
    pub id: Id,
    pub name: String,
    pub address: String,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub contact_info: Option<String>,
}

/// The ambulance: number and type as booked; its phone and position while it exists.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrackedAmbulance {
    pub id: Id,
    pub number: String,
    #[serde(rename = "type")]
    pub ambulance_type: AmbulanceType,
    pub contact_info: Option<String>,
    pub position: Option<Position>,
}

/// The ambulance as it is now, beside what the booking recorded of it: its phone
/// and its shown position (`None` when it has none to show).
#[derive(Debug, Clone, PartialEq)]
pub struct AmbulanceNow {
    pub contact_info: Option<String>,
    pub position: Option<Position>,
}

/// Whether a booking's views (the owner's tracking, the family's link) follow its
/// ambulance as it is now: its position, the ETA from it, its phone. Only while the
/// booking is open: once it is final (COMPLETED, CANCELLED) the ambulance serves
/// other patients, and where it drives is theirs (decision 0007). A final booking's views
/// show how the trip ended and nothing of the ambulance but its number and type as
/// booked; the store does not even read the ambulance for them.
pub fn follows_the_ambulance(status: BookingStatus) -> bool {
    !status.is_final()
}

impl Tracking {
    /// A booking's tracking view from the booking, its hospital as it is now
    /// (`None`: removed) and its ambulance as it is now (`None`: removed, or not
    /// read), at the store's time `now`. [`follows_the_ambulance`] decides here too:
    /// for a final booking `ambulance` is dropped, so no caller can show where it
    /// went next.
    pub fn new(
        booking: Booking,
        (hospital, destination): (Option<Hospital>, Option<Point>),
        ambulance: Option<AmbulanceNow>,
        now: OffsetDateTime,
    ) -> Tracking {
        let still_looking = still_looking(&booking, now);
        let accepted = booking.progress().accepted();
        let now = ambulance.filter(|_| follows_the_ambulance(booking.booking_status));
        let (contact_info, position) = now.map_or((None, None), |a| (a.contact_info, a.position));
        let point = hospital
            .as_ref()
            .map(|h| Point::new(h.latitude, h.longitude));
        // To the hospital: the destination's point (the crew may have changed it).
        let eta = trip_eta(
            booking.booking_status,
            booking.trip_stage,
            position.as_ref(),
            booking.pickup.as_ref(),
            destination,
        );
        let destination_hospital_name = booking.destination_name().to_owned();
        Tracking {
            booking_id: booking.id,
            booking_status: booking.booking_status,
            booking_type: booking.booking_type,
            trip_stage: booking.trip_stage,
            timeline: booking.timeline,
            pickup: booking.pickup,
            hospital: TrackedHospital {
                id: booking.hospital.id,
                name: booking.hospital.name,
                address: booking.hospital.address,
                latitude: point.map(|p| p.lat),
                longitude: point.map(|p| p.lng),
                contact_info: hospital.and_then(|h| h.contact_info),
            },
            destination_hospital_name,
            ambulance: TrackedAmbulance {
                id: booking.ambulance.id,
                number: booking.ambulance.number,
                ambulance_type: booking.ambulance.ambulance_type,
                contact_info,
                position,
            },
            eta_minutes: eta.map(|e| e.eta_minutes),
            distance_km: eta.map(|e| e.distance_km),
            answer_by: booking.answer_by,
            still_looking,
            accepted,
        }
    }
}

/// How long past `answerBy` a job may still be waiting on its crew before the
/// requester is told nobody has answered: the clock sweeps every 5 s, so by then it
/// has either moved the job (a new `answerBy`) or left it and alerted a dispatcher
/// (UNANSWERED; the booking keeps its past `answerBy`).
pub const STILL_LOOKING_AFTER: Duration = Duration::seconds(15);

/// Whether the requester should be told "still looking for an ambulance": the
/// booking still awaits its crew's answer (PENDING, or ACTIVE at DISPATCHED) and its
/// `answerBy` passed more than [`STILL_LOOKING_AFTER`] before `now`.
pub fn still_looking(booking: &Booking, now: OffsetDateTime) -> bool {
    let Some(answer_by) = booking.answer_by else {
        return false;
    };
    booking.progress().awaits_answer() && now - answer_by.get() > STILL_LOOKING_AFTER
}

/// The ETA the tracking view shows: from a fresh live position to the pickup while
/// the ambulance is coming (DISPATCHED, EN_ROUTE), to the hospital while it carries
/// the patient (TO_HOSPITAL); none otherwise, or without a fresh position.
pub fn trip_eta(
    status: BookingStatus,
    stage: Option<TripStage>,
    position: Option<&Position>,
    pickup: Option<&Pickup>,
    hospital: Option<Point>,
) -> Option<Eta> {
    if status != BookingStatus::Active {
        return None;
    }
    use super::booking::trip::Leg;
    let from = position?.fresh()?;
    let to = match stage?.leg() {
        Leg::ToPickup => pickup.map(Pickup::point)?,
        Leg::ToHospital => hospital?,
        Leg::AtPickup | Leg::AtHospital | Leg::HandedOver => return None,
    };
    Some(eta::estimate(from, to))
}

/// `bbox=minLat,minLng,maxLat,maxLng` of the live map. A box whose `minLng` is
/// greater than its `maxLng` crosses the antimeridian; latitudes given the wrong way
/// round are taken as meant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bbox {
    pub min_lat: f64,
    pub min_lng: f64,
    pub max_lat: f64,
    pub max_lng: f64,
}

impl Bbox {
    /// The whole world.
    pub const WORLD: Bbox = Bbox {
        min_lat: -90.0,
        min_lng: -180.0,
        max_lat: 90.0,
        max_lng: 180.0,
    };

    pub fn parse(text: &str) -> Result<Bbox, Refusal> {
        let bad = |why: &str| {
            Refusal::invalid(
                "bbox",
                format!(
                    "Invalid query parameter 'bbox': {why} (expected minLat,minLng,maxLat,maxLng)"
                ),
            )
        };
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        if parts.len() != 4 {
            return Err(bad("it needs four numbers"));
        }
        let mut n = [0.0; 4];
        for (i, part) in parts.iter().enumerate() {
            n[i] = part
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| bad(&format!("'{part}' is not a number")))?;
        }
        let [lat1, min_lng, lat2, max_lng] = n;
        if !((-90.0..=90.0).contains(&lat1) && (-90.0..=90.0).contains(&lat2)) {
            return Err(bad("latitudes must be from -90 to 90"));
        }
        if !((-180.0..=180.0).contains(&min_lng) && (-180.0..=180.0).contains(&max_lng)) {
            return Err(bad("longitudes must be from -180 to 180"));
        }
        Ok(Bbox {
            min_lat: lat1.min(lat2),
            max_lat: lat1.max(lat2),
            min_lng,
            max_lng,
        })
    }

    pub fn crosses_antimeridian(&self) -> bool {
        self.min_lng > self.max_lng
    }

    /// Longitudes the box spans (degrees, 0..=360).
    pub fn lng_span(&self) -> f64 {
        if self.crosses_antimeridian() {
            360.0 - (self.min_lng - self.max_lng)
        } else {
            self.max_lng - self.min_lng
        }
    }

    pub fn contains(&self, at: Point) -> bool {
        let Point { lat, lng } = at;
        let lat_in = (self.min_lat..=self.max_lat).contains(&lat);
        let lng_in = if self.crosses_antimeridian() {
            lng >= self.min_lng || lng <= self.max_lng
        } else {
            (self.min_lng..=self.max_lng).contains(&lng)
        };
        lat_in && lng_in
    }

    /// The box's middle.
    pub fn center(&self) -> Point {
        let lng = self.min_lng + self.lng_span() / 2.0;
        Point::new(
            (self.min_lat + self.max_lat) / 2.0,
            if lng > 180.0 { lng - 360.0 } else { lng },
        )
    }

    /// The distance (km) from the middle to the farthest corner: a circle of this
    /// radius around [`Bbox::center`] covers the box.
    pub fn radius_km(&self) -> f64 {
        let center = self.center();
        [
            Point::new(self.min_lat, self.min_lng),
            Point::new(self.min_lat, self.max_lng),
            Point::new(self.max_lat, self.min_lng),
            Point::new(self.max_lat, self.max_lng),
        ]
        .into_iter()
        .map(|corner| haversine_km(center, corner))
        .fold(0.0, f64::max)
    }
}

/// At most this many ambulances and open bookings each on the live map.
pub const LIVE_LIMIT: usize = 500;

/// One ambulance on the live map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LiveAmbulance {
    pub id: Id,
    pub number: String,
    #[serde(rename = "type")]
    pub ambulance_type: AmbulanceType,
    pub status: AmbulanceStatus,
    pub hospital_id: Id,
    pub position: Option<Position>,
    /// Reports refused for an impossible speed since the shown position, if any:
    /// the dispatcher checks on the ambulance (its phone may be wrong, or it is).
    pub position_doubt: Option<PositionDoubt>,
    /// Since when it has been out of the free pool for a missed answer deadline
    /// (decision 0012); null otherwise.
    pub not_responding: Option<Timestamp>,
    /// Whether its crew can answer now (decision 0020).
    pub crew_presence: CrewPresence,
}

/// `positionDoubt` of the live map: the latest doubted report, why it was doubted,
/// the speed it implied, since when such reports came and how many agree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PositionDoubt {
    pub latitude: f64,
    pub longitude: f64,
    pub accuracy_m: Option<f64>,
    pub at: Timestamp,
    pub since: Timestamp,
    pub speed_kmh: f64,
    pub reason: DoubtReason,
    pub reports: u32,
}

impl From<Doubt> for PositionDoubt {
    fn from(d: Doubt) -> PositionDoubt {
        PositionDoubt {
            latitude: d.latest.fix.latitude,
            longitude: d.latest.fix.longitude,
            accuracy_m: d.latest.accuracy_m,
            at: d.latest.fix.recorded_at,
            since: d.since,
            speed_kmh: d.speed_kmh,
            reason: d.reason,
            reports: d.reports,
        }
    }
}

/// One open booking's pickup on the live map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenBooking {
    pub id: Id,
    pub booking_type: BookingType,
    pub booking_status: BookingStatus,
    pub trip_stage: Option<TripStage>,
    pub pickup: Option<Pickup>,
    pub ambulance_id: Id,
}

/// `GET /api/admin/live`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Live {
    pub ambulances: Vec<LiveAmbulance>,
    pub open_bookings: Vec<OpenBooking>,
    /// There were more than [`LIVE_LIMIT`] ambulances or open bookings in the box:
    /// the answer holds the most urgent ones (a smaller box shows all).
    pub truncated: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geo::Point;
    use crate::{
        position::PositionSource,
        types::{Latitude, Longitude, OptionalText},
    };

    fn gps(at: Point, stale: bool) -> Position {
        Position {
            latitude: at.lat,
            longitude: at.lng,
            at: crate::types::Timestamp::parse("2026-01-01T00:00:00.000Z"),
            stale,
            source: PositionSource::Gps,
        }
    }

    #[test]
    fn the_eta_goes_to_the_pickup_then_to_the_hospital_from_a_fresh_position_only() {
        use BookingStatus::*;
        use TripStage::*;
        let pickup = Pickup {
            latitude: Latitude::try_from(30.1).unwrap(),
            longitude: Longitude::try_from(74.0).unwrap(),
            landmark: OptionalText(None),
        };
        let hospital = Some(Point::new(30.2, 74.0));
        let here = gps(Point::new(30.0, 74.0), false);
        let eta = |status, stage, position: &Position| {
            trip_eta(status, stage, Some(position), Some(&pickup), hospital)
        };
        let to_pickup = eta::estimate(Point::new(30.0, 74.0), Point::new(30.1, 74.0));
        let to_hospital = eta::estimate(Point::new(30.0, 74.0), Point::new(30.2, 74.0));
        assert_eq!(eta(Active, Some(Dispatched), &here), Some(to_pickup));
        assert_eq!(eta(Active, Some(EnRoute), &here), Some(to_pickup));
        assert_eq!(eta(Active, Some(ToHospital), &here), Some(to_hospital));
        for stage in [AtPickup, AtHospital] {
            assert_eq!(eta(Active, Some(stage), &here), None, "{stage}");
        }
        assert_eq!(eta(Pending, None, &here), None);
        assert_eq!(eta(Completed, Some(ToHospital), &here), None);
        assert_eq!(
            eta(Active, Some(EnRoute), &gps(Point::new(30.0, 74.0), true)),
            None,
            "stale"
        );
        let stand_in = Position {
            source: PositionSource::Hospital,
            at: None,
            ..gps(Point::new(30.0, 74.0), false)
        };
        assert_eq!(
            eta(Active, Some(EnRoute), &stand_in),
            None,
            "never reported"
        );
        assert_eq!(
            trip_eta(Active, Some(EnRoute), None, Some(&pickup), hospital),
            None
        );
    }

    /// A booking of ambulance 4 (PB-1) to hospital 3, `status` at `stage`.
    fn booking(status: &str, stage: Option<&str>) -> Booking {
        serde_json::from_value(serde_json::json!({
            "id": 7, "bookingStatus": status, "bookingType": "EMERGENCY",
            "bookingTime": "2026-01-01T00:00:00.000Z", "userId": 1, "username": "hana",
            "userEmail": "hana@example.com", "hospitalId": 3, "hospitalName": "Civil",
            "hospital": {"id": 3, "name": "Civil", "address": "1 Road"},
            "ambulanceId": 4, "ambulanceNumber": "PB-1",
            "ambulance": {"id": 4, "number": "PB-1", "type": "ALS", "driverInfo": null},
            "patient": {"name": null, "age": null, "gender": null, "condition": null},
            "userPhone": null, "pickup": {"latitude": 30.1, "longitude": 74.0},
            "tripStage": stage, "timeline": []
        }))
        .unwrap()
    }

    #[test]
    fn a_final_bookings_view_shows_nothing_of_the_ambulance_as_it_is_now() {
        let hospital = Hospital {
            id: Id::try_from(3).unwrap(),
            name: "Civil".into(),
            address: "1 Road".into(),
            latitude: 30.2,
            longitude: 74.0,
            contact_info: Some("+91 111".into()),
            distance: None,
            on_diversion_until: None,
        };
        let now = AmbulanceNow {
            contact_info: Some("+91 222".into()),
            position: Some(gps(Point::new(30.0, 74.0), false)),
        };
        let view = |status, stage| {
            Tracking::new(
                booking(status, stage),
                (
                    Some(hospital.clone()),
                    Some(Point::new(hospital.latitude, hospital.longitude)),
                ),
                Some(now.clone()),
                OffsetDateTime::now_utc(),
            )
        };
        // Open: followed, with the ETA.
        for (status, stage) in [("PENDING", None), ("ACTIVE", Some("EN_ROUTE"))] {
            let t = view(status, stage);
            assert_eq!(t.ambulance.position, now.position, "{status}");
            assert_eq!(t.ambulance.contact_info, now.contact_info, "{status}");
        }
        assert!(view("ACTIVE", Some("EN_ROUTE")).eta_minutes.is_some());
        // Final: the trip's end only, whatever the store passed in.
        for (status, stage) in [
            ("COMPLETED", Some("AT_HOSPITAL")),
            ("CANCELLED", Some("EN_ROUTE")),
            ("CANCELLED", None),
        ] {
            let t = view(status, stage);
            assert_eq!(
                (&t.ambulance.position, &t.ambulance.contact_info),
                (&None, &None),
                "{status}"
            );
            assert_eq!((t.eta_minutes, t.distance_km), (None, None), "{status}");
            assert_eq!(t.ambulance.number, "PB-1", "as booked");
            assert_eq!(t.hospital.contact_info.as_deref(), Some("+91 111"));
            assert!(!follows_the_ambulance(t.booking_status));
        }
        assert!(follows_the_ambulance(BookingStatus::Pending));
        assert!(follows_the_ambulance(BookingStatus::Active));
    }

    #[test]
    fn still_looking_once_the_answer_is_15_s_late_while_nobody_accepted() {
        let due = Timestamp::parse("2026-01-01T00:01:00.000Z").unwrap();
        let at = |secs: i64| due.get() + Duration::seconds(secs);
        let waiting = |status, stage| {
            let mut b = booking(status, stage);
            b.answer_by = Some(due);
            b
        };
        for (status, stage) in [("PENDING", None), ("ACTIVE", Some("DISPATCHED"))] {
            let b = waiting(status, stage);
            assert!(!still_looking(&b, at(-30)), "{status}: not due yet");
            assert!(
                !still_looking(&b, at(5)),
                "{status}: the clock has not swept"
            );
            assert!(
                !still_looking(&b, at(15)),
                "{status}: exactly 15 s is not past"
            );
            assert!(still_looking(&b, at(16)), "{status}");
            assert!(still_looking(&b, at(3600)), "{status}: left with an alert");
        }
        // Accepted, or final: the crew answered or it no longer matters.
        for (status, stage) in [
            ("ACTIVE", Some("EN_ROUTE")),
            ("COMPLETED", Some("AT_HOSPITAL")),
            ("CANCELLED", None),
        ] {
            assert!(!still_looking(&waiting(status, stage), at(60)), "{status}");
        }
        // No deadline at all.
        assert!(!still_looking(&booking("PENDING", None), at(60)));
        // The view carries both.
        let t = Tracking::new(waiting("PENDING", None), (None, None), None, at(20));
        assert_eq!((t.answer_by, t.still_looking), (Some(due), true));
        let json = serde_json::to_value(&t).unwrap();
        assert_eq!(json["answerBy"], "2026-01-01T00:01:00.000Z");
        assert_eq!(json["stillLooking"], true);
    }

    #[test]
    fn a_box_parses_and_holds_its_points() {
        let b = Bbox::parse("30, 74, 31, 75").unwrap();
        assert!(
            b.contains(Point::new(30.5, 74.5))
                && !b.contains(Point::new(31.5, 74.5))
                && !b.contains(Point::new(30.5, 73.9))
        );
        assert_eq!(b.center(), Point::new(30.5, 74.5));
        assert!((b.radius_km() - 74.0).abs() < 2.0, "{}", b.radius_km());
        let swapped = Bbox::parse("31,74,30,75").unwrap();
        assert_eq!(swapped, b);
        let across = Bbox::parse("-10,170,10,-170").unwrap();
        assert!(across.crosses_antimeridian());
        assert_eq!(across.lng_span(), 20.0);
        assert_eq!(across.center(), Point::new(0.0, 180.0));
        assert!(
            across.contains(Point::new(0.0, 179.0)) && across.contains(Point::new(0.0, -179.0))
        );
        assert!(!across.contains(Point::new(0.0, 0.0)));
        for bad in [
            "",
            "1,2,3",
            "1,2,3,4,5",
            "a,2,3,4",
            "91,0,0,0",
            "0,181,0,0",
            "0,0,NaN,0",
            "0,0,inf,0",
        ] {
            let Err(Refusal::Invalid { field, .. }) = Bbox::parse(bad) else {
                panic!("{bad} parsed");
            };
            assert_eq!(field, "bbox", "{bad}");
        }
    }
}
