//! The receiving hospital's board (`GET /api/hospital/incoming`,
//! docs/decisions/0026-receiving-hospital.md): the trips whose destination is one
//! hospital, in the order a department acts on them. Pure: the store reads the trips
//! (from the `dest` index) and the ambulances' positions, this shapes and orders them.

use std::{
    cmp::Ordering,
    collections::{HashMap, HashSet},
};

use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};

use super::{
    ambulance::AmbulanceType,
    booking::{
        BookingStatus, BookingType, Gender, Milestone, PatientDetails, TimelineEntry, TripStage,
    },
    eta,
    hospital::serialize_diversion,
};
use crate::{
    geo::Point,
    types::{Id, Timestamp},
};

/// How long an ended trip stays on the board.
pub const ENDED_SHOWN_FOR: Duration = Duration::hours(24);

/// `{hospital, trips}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Incoming {
    pub hospital: BoardHospital,
    pub trips: Vec<IncomingTrip>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BoardHospital {
    pub id: Id,
    pub name: String,
    #[serde(serialize_with = "serialize_diversion")]
    pub on_diversion_until: Option<Timestamp>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IncomingTrip {
    pub booking_id: Id,
    pub booking_type: BookingType,
    /// ACTIVE while under way; COMPLETED or CANCELLED once ended (a trip ended at any
    /// stage stays on the board for the day with the stage it reached).
    pub booking_status: BookingStatus,
    pub stage: Option<TripStage>,
    pub ambulance: BoardAmbulance,
    pub crew_phone: Option<String>,
    pub eta_seconds: Option<u32>,
    pub patient: BoardPatient,
    pub arrived_at: Option<Timestamp>,
    pub handed_over_at: Option<Timestamp>,
    /// For the order only.
    #[serde(skip)]
    place: Place,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoardAmbulance {
    pub id: Id,
    pub number: String,
    #[serde(rename = "type")]
    pub ambulance_type: AmbulanceType,
}

/// What the department needs of the patient: never the name.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoardPatient {
    pub age: Option<u8>,
    pub gender: Option<Gender>,
    pub condition: Option<String>,
}

impl From<PatientDetails> for BoardPatient {
    fn from(p: PatientDetails) -> Self {
        BoardPatient {
            age: p.age.map(u8::from),
            gender: p.gender,
            condition: p.condition.map(String::from),
        }
    }
}

/// One trip as the `dest` index holds it (its projected attributes).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BoardEntry {
    pub id: Id,
    pub booking_type: BookingType,
    pub booking_status: BookingStatus,
    pub booking_time: Timestamp,
    #[serde(default)]
    pub trip_stage: Option<TripStage>,
    pub ambulance: BoardAmbulance,
    #[serde(default)]
    pub patient: PatientDetails,
    #[serde(default)]
    pub timeline: Vec<TimelineEntry>,
}

impl BoardEntry {
    /// Whether its ambulance is still on this trip (open), and has not arrived: the
    /// only trips whose ambulance the board reads (position, phone).
    pub fn on_the_way(&self) -> bool {
        !self.booking_status.is_final() && !self.trip_stage.is_some_and(TripStage::arrived)
    }

    pub fn is_open(&self) -> bool {
        !self.booking_status.is_final()
    }
}

/// Where a trip sorts: at the door, on the way, done (handed over or ended).
#[derive(Debug, Clone, PartialEq)]
enum Place {
    /// Waiting since (arrival).
    AtTheDoor(OffsetDateTime),
    OnTheWay {
        emergency: bool,
        eta: Option<u32>,
        booked: Timestamp,
    },
    /// Its latest moment (handover, end).
    Done(OffsetDateTime),
}

fn first_at(timeline: &[TimelineEntry], stage: Milestone) -> Option<Timestamp> {
    timeline.iter().find(|e| e.stage == stage).map(|e| e.at)
}

fn last_at(timeline: &[TimelineEntry]) -> Option<OffsetDateTime> {
    timeline.iter().map(|e| e.at).map(Timestamp::get).max()
}

/// What the board reads of a trip's ambulance, when it is on the way.
#[derive(Debug, Clone, Default)]
pub struct AmbulanceNow {
    pub phone: Option<String>,
    /// Its live position, when fresh.
    pub at: Option<Point>,
}

/// One trip of the board, from its index entry and (on the way) its ambulance now.
pub fn trip(entry: BoardEntry, ambulance: AmbulanceNow, hospital: Point) -> IncomingTrip {
    let arrived_at = first_at(&entry.timeline, Milestone::AtHospital);
    let handed_over_at = first_at(&entry.timeline, Milestone::HandedOver);
    let on_the_way = entry.on_the_way();
    let eta_seconds = ambulance
        .at
        .filter(|_| on_the_way)
        .map(|from| eta::seconds(from, hospital));
    let place = if on_the_way {
        Place::OnTheWay {
            emergency: entry.booking_type == BookingType::Emergency,
            eta: eta_seconds,
            booked: entry.booking_time,
        }
    } else if entry.is_open() && entry.trip_stage == Some(TripStage::AtHospital) {
        Place::AtTheDoor(arrived_at.map_or(OffsetDateTime::UNIX_EPOCH, Timestamp::get))
    } else {
        Place::Done(last_at(&entry.timeline).unwrap_or(OffsetDateTime::UNIX_EPOCH))
    };
    IncomingTrip {
        booking_id: entry.id,
        booking_type: entry.booking_type,
        booking_status: entry.booking_status,
        stage: entry.trip_stage,
        ambulance: entry.ambulance,
        crew_phone: ambulance.phone.filter(|_| !entry.booking_status.is_final()),
        eta_seconds,
        patient: entry.patient.into(),
        arrived_at,
        handed_over_at,
        place,
    }
}

/// The board's trips from its two reads, made at once (decision 0026): `open` (with
/// `ambulances`, the open trips' ambulances now, by id) and `ended` (in the day). A
/// trip that ended between the two reads is in both: it is shown once, as ended (its
/// later state, final).
pub fn trips(
    open: Vec<BoardEntry>,
    ended: Vec<BoardEntry>,
    ambulances: &HashMap<Id, AmbulanceNow>,
    hospital: Point,
) -> Vec<IncomingTrip> {
    let ended_ids: HashSet<Id> = ended.iter().map(|e| e.id).collect();
    let open = open
        .into_iter()
        .filter(|e| !ended_ids.contains(&e.id))
        .map(|e| {
            let now = match e.is_open() {
                true => ambulances.get(&e.ambulance.id).cloned().unwrap_or_default(),
                false => AmbulanceNow::default(),
            };
            trip(e, now, hospital)
        });
    let ended = ended
        .into_iter()
        .map(|e| trip(e, AmbulanceNow::default(), hospital));
    open.chain(ended).collect()
}

/// A job's destination as the crew screen shows it (`CrewMe.destination`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CrewDestination {
    pub id: Id,
    pub name: String,
    pub latitude: f64,
    pub longitude: f64,
    #[serde(serialize_with = "serialize_diversion")]
    pub on_diversion_until: Option<Timestamp>,
}

impl From<&super::hospital::Hospital> for CrewDestination {
    fn from(h: &super::hospital::Hospital) -> Self {
        CrewDestination {
            id: h.id,
            name: h.name.clone(),
            latitude: h.latitude,
            longitude: h.longitude,
            on_diversion_until: h.on_diversion_until,
        }
    }
}

/// Whether the crew should be offered another hospital: its destination is on
/// diversion at `now` and the patient is not on board yet (before TO_HOSPITAL).
pub fn offer_alternative(
    destination: &super::hospital::Hospital,
    stage: Option<TripStage>,
    now: OffsetDateTime,
) -> bool {
    let before_leaving = !stage.is_some_and(TripStage::left_for_hospital);
    before_leaving && destination.diverted_at(now)
}

/// The nearest of `nearest` (nearest first) that is open at `now`.
pub fn first_open(
    nearest: Vec<super::hospital::Hospital>,
    now: OffsetDateTime,
) -> Option<super::hospital::Hospital> {
    nearest.into_iter().find(|h| !h.diverted_at(now))
}

/// Most urgent first: at the door (the longest waiting first), then on the way
/// (EMERGENCY before NORMAL, then the smallest ETA, unknown last, then the oldest
/// booking), then handed over or ended (the newest first).
pub fn by_urgency(a: &IncomingTrip, b: &IncomingTrip) -> Ordering {
    use Place::*;
    let rank = |p: &Place| match p {
        AtTheDoor(_) => 0,
        OnTheWay { .. } => 1,
        Done(_) => 2,
    };
    rank(&a.place)
        .cmp(&rank(&b.place))
        .then_with(|| match (&a.place, &b.place) {
            (AtTheDoor(x), AtTheDoor(y)) => x.cmp(y),
            (
                OnTheWay {
                    emergency: e1,
                    eta: t1,
                    booked: b1,
                },
                OnTheWay {
                    emergency: e2,
                    eta: t2,
                    booked: b2,
                },
            ) => e2
                .cmp(e1)
                .then_with(|| match (t1, t2) {
                    (Some(x), Some(y)) => x.cmp(y),
                    (Some(_), None) => Ordering::Less,
                    (None, Some(_)) => Ordering::Greater,
                    (None, None) => Ordering::Equal,
                })
                .then_with(|| b1.cmp(b2)),
            (Done(x), Done(y)) => y.cmp(x),
            _ => Ordering::Equal,
        })
        .then_with(|| a.booking_id.cmp(&b.booking_id))
}

/// The board: `trips` ordered [`by_urgency`].
pub fn board(hospital: BoardHospital, mut trips: Vec<IncomingTrip>) -> Incoming {
    trips.sort_by(by_urgency);
    Incoming { hospital, trips }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u64) -> Id {
        Id::try_from(n).unwrap()
    }

    fn entry(
        n: u64,
        kind: BookingType,
        status: BookingStatus,
        stages: &[(Milestone, &str)],
    ) -> BoardEntry {
        // The last stage reached, by the domain's own stage-to-milestone table.
        let stage = stages.iter().rev().find_map(|(m, _)| {
            TripStage::ALL
                .iter()
                .copied()
                .find(|s| Milestone::from(*s) == *m)
        });
        BoardEntry {
            id: id(n),
            booking_type: kind,
            booking_status: status,
            booking_time: Timestamp::parse(&format!("2026-03-01T10:00:{n:02}.000Z")).unwrap(),
            trip_stage: stage,
            ambulance: BoardAmbulance {
                id: id(100 + n),
                number: format!("PB-{n}"),
                ambulance_type: AmbulanceType::Als,
            },
            patient: PatientDetails::default(),
            timeline: stages
                .iter()
                .map(|(m, at)| {
                    TimelineEntry::new(
                        *m,
                        Timestamp::parse(&format!("2026-03-01T{at}.000Z")).unwrap(),
                    )
                })
                .collect(),
        }
    }

    #[test]
    fn the_door_first_then_emergencies_by_eta_then_the_newest_done() {
        use BookingStatus::*;
        use BookingType::*;
        use Milestone as M;
        let hospital = Point::new(30.0, 74.0);
        let near = Point::new(30.01, 74.0);
        let far = Point::new(30.2, 74.0);
        let phone = |at: Option<Point>| AmbulanceNow {
            phone: Some("+91 1".into()),
            at,
        };
        let trips = vec![
            trip(
                entry(1, Normal, Active, &[(M::ToHospital, "10:05:00")]),
                phone(Some(near)),
                hospital,
            ),
            trip(
                entry(2, Emergency, Active, &[(M::ToHospital, "10:05:00")]),
                phone(Some(far)),
                hospital,
            ),
            trip(
                entry(3, Emergency, Active, &[(M::EnRoute, "10:05:00")]),
                phone(Some(near)),
                hospital,
            ),
            trip(
                entry(4, Normal, Active, &[(M::AtHospital, "10:20:00")]),
                phone(Some(near)),
                hospital,
            ),
            trip(
                entry(5, Emergency, Active, &[(M::AtHospital, "10:10:00")]),
                phone(None),
                hospital,
            ),
            trip(
                entry(
                    6,
                    Normal,
                    Completed,
                    &[(M::AtHospital, "09:00:00"), (M::Completed, "09:30:00")],
                ),
                phone(None),
                hospital,
            ),
            trip(
                entry(
                    7,
                    Normal,
                    Active,
                    &[(M::AtHospital, "09:00:00"), (M::HandedOver, "09:40:00")],
                ),
                phone(None),
                hospital,
            ),
            trip(
                entry(8, Emergency, Active, &[(M::EnRoute, "10:05:00")]),
                phone(None),
                hospital,
            ),
        ];
        let order: Vec<u64> = board(
            BoardHospital {
                id: id(1),
                name: "H".into(),
                on_diversion_until: None,
            },
            trips,
        )
        .trips
        .iter()
        .map(|t| t.booking_id.get())
        .collect();
        assert_eq!(order, [5, 4, 3, 2, 8, 1, 7, 6]);
    }

    #[test]
    fn an_arrived_trip_has_no_eta_and_an_ended_one_no_phone() {
        use Milestone as M;
        let hospital = Point::new(30.0, 74.0);
        let now = AmbulanceNow {
            phone: Some("+91 1".into()),
            at: Some(Point::new(30.1, 74.0)),
        };
        let on_way = trip(
            entry(
                1,
                BookingType::Normal,
                BookingStatus::Active,
                &[(M::ToHospital, "10:00:00")],
            ),
            now.clone(),
            hospital,
        );
        assert!(on_way.eta_seconds.is_some_and(|s| s > 0));
        assert_eq!(on_way.arrived_at, None);
        let arrived = trip(
            entry(
                2,
                BookingType::Normal,
                BookingStatus::Active,
                &[(M::AtHospital, "10:00:00")],
            ),
            now.clone(),
            hospital,
        );
        assert_eq!(arrived.eta_seconds, None);
        assert_eq!(
            arrived.arrived_at.unwrap().to_string(),
            "2026-03-01T10:00:00.000Z"
        );
        assert_eq!(arrived.crew_phone.as_deref(), Some("+91 1"));
        let ended = trip(
            entry(
                3,
                BookingType::Normal,
                BookingStatus::Completed,
                &[
                    (M::AtHospital, "10:00:00"),
                    (M::HandedOver, "10:09:00"),
                    (M::Completed, "10:10:00"),
                ],
            ),
            now,
            hospital,
        );
        assert_eq!((ended.eta_seconds, ended.crew_phone.clone()), (None, None));
        assert_eq!(
            ended.handed_over_at.unwrap().to_string(),
            "2026-03-01T10:09:00.000Z"
        );
        let json = serde_json::to_value(&ended).unwrap();
        assert_eq!(
            json["patient"],
            serde_json::json!({"age": null, "gender": null, "condition": null})
        );
        assert!(json.get("place").is_none());
    }

    /// The two reads run at once: a trip that ended between them is in both, and is
    /// shown once, as ended (no phone, no ETA); the open ones get their ambulance.
    #[test]
    fn a_trip_in_both_reads_is_shown_once_as_ended() {
        use Milestone as M;
        let hospital = Point::new(30.0, 74.0);
        let open = vec![
            entry(
                1,
                BookingType::Normal,
                BookingStatus::Active,
                &[(M::ToHospital, "10:00:00")],
            ),
            entry(
                2,
                BookingType::Normal,
                BookingStatus::Active,
                &[(M::AtHospital, "10:00:00")],
            ),
        ];
        let ended = vec![entry(
            2,
            BookingType::Normal,
            BookingStatus::Completed,
            &[(M::AtHospital, "10:00:00"), (M::Completed, "10:20:00")],
        )];
        let now = AmbulanceNow {
            phone: Some("+91 1".into()),
            at: Some(Point::new(30.1, 74.0)),
        };
        let ambulances = HashMap::from([(id(101), now.clone()), (id(102), now)]);
        let shown = trips(open, ended, &ambulances, hospital);
        let ids: Vec<u64> = shown.iter().map(|t| t.booking_id.get()).collect();
        assert_eq!(ids, [1, 2]);
        assert_eq!(shown[0].crew_phone.as_deref(), Some("+91 1"));
        assert!(shown[0].eta_seconds.is_some());
        assert_eq!(shown[1].crew_phone, None);
        assert!(matches!(shown[1].place, Place::Done(_)));
    }
}
