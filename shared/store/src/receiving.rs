//! The receiving hospital's side of trips, the handle `store.receiving()`
//! (docs/decisions/0026-receiving-hospital.md): its board (two Queries of the `dest`
//! index at once, the open trips' ambulances read as soon as the open range is in),
//! the
//! handover, and the crew's change of destination, which moves the trip from one
//! hospital's board to the other's in one conditional write.

use std::collections::{BTreeSet, HashMap};

use super::{
    bookings::{BookingItem, still_at},
    keys,
    schema::DEST,
    table::{Query, Store},
    tx::{Label, Tx, TxError, Write},
};
use crate::error::StoreError;
use domain::{
    booking::{self, Booking, Goal, Mover, TripStage},
    crew::{self, Crew},
    geo::Point,
    hospital::{self, Hospital},
    hospital_staff::HospitalStaffRef,
    receiving::{
        self, AmbulanceNow, BoardEntry, BoardHospital, CrewDestination, ENDED_SHOWN_FOR, Incoming,
    },
    refusal::Conflict,
    types::{Id, format_rfc3339},
};

/// What the board reads of an ambulance's item: its phone, not the whole item.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct AmbulancePhone {
    id: Id,
    #[serde(default)]
    contact_info: Option<String>,
}

/// The attributes of an ambulance's item the board reads ([`AmbulancePhone`]), with
/// `pk` and `sk`, by which `batch_get` finds each item's key. Public for the
/// benchmark's bare reads (`bench_incoming`).
pub const AMBULANCE_PROJECTION: &str = "pk, sk, id, contactInfo";

/// `store.receiving()`. Every method of the handle is in this file.
#[derive(Clone, Copy)]
pub struct Receiving<'a> {
    pub(super) store: &'a Store,
}

impl Receiving<'_> {
    /// The board of `staff`'s hospital: its trips open or ended in the last 24 h,
    /// most urgent first (`domain::receiving`). 404 when the hospital is gone.
    ///
    /// Two ranges of its `dest` partition read at once, beside the hospital: the
    /// open trips, then at once their ambulances (phone, position); and the trips
    /// ended in the day, which need nothing more. So the answer waits for the
    /// longest of the two chains, not for their sum (docs/performance.md).
    pub async fn board(self, staff: HospitalStaffRef) -> Result<Incoming, StoreError> {
        let hospital_id = staff.hospital_id;
        let now = self.store.now();
        let since = format_rfc3339(now - ENDED_SHOWN_FOR);
        let open = Query::on(DEST, "destpk = :p AND begins_with(destsk, :open)")
            .value(":p", keys::destination_trips(hospital_id))
            .value(":open", keys::DESTINATION_OPEN_PREFIX);
        let ended = Query::on(DEST, "destpk = :p AND destsk BETWEEN :from AND :last")
            .value(":p", keys::destination_trips(hospital_id))
            .value(":from", keys::destination_board_from(&since))
            .value(":last", keys::DESTINATION_ENDED_LAST);
        let open_now = async {
            let open = self.store.query_all::<BoardEntry>(open).await?;
            let ambulances = self.ambulances_now(&open, now).await?;
            Ok::<_, StoreError>((open, ambulances))
        };
        let (hospital, (open, ambulances), ended) = tokio::try_join!(
            self.store.hospitals().hospital(hospital_id),
            open_now,
            self.store.query_all::<BoardEntry>(ended)
        )?;
        let hospital = hospital.ok_or_else(|| hospital::not_found(hospital_id))?;
        let at = Point::new(hospital.latitude, hospital.longitude);
        Ok(receiving::board(
            BoardHospital {
                id: hospital.id,
                name: hospital.name,
                on_diversion_until: hospital.on_diversion_until,
            },
            receiving::trips(open, ended, &ambulances, at),
        ))
    }

    /// The phone and fresh position of the ambulances of the open trips, read at
    /// once (BatchGetItem of their items, only the phone, and `POSITION` items).
    async fn ambulances_now(
        self,
        entries: &[BoardEntry],
        now: time::OffsetDateTime,
    ) -> Result<HashMap<Id, AmbulanceNow>, StoreError> {
        let ids: Vec<Id> = entries
            .iter()
            .filter(|e| e.is_open())
            .map(|e| e.ambulance.id)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        let (phones, positions) = tokio::try_join!(
            self.store.batch_get_projected::<AmbulancePhone>(
                ids.iter().map(|id| keys::ambulance(*id)).collect(),
                AMBULANCE_PROJECTION
            ),
            self.store.positions().last_positions(&ids)
        )?;
        let mut out: HashMap<Id, AmbulanceNow> = ids
            .iter()
            .zip(positions)
            .map(|(id, kept)| {
                let at = kept
                    .and_then(|k| k.fix)
                    .filter(|f| f.is_fresh(now))
                    .map(|f| f.point());
                (*id, AmbulanceNow { phone: None, at })
            })
            .collect();
        for item in phones {
            if let Some(a) = out.get_mut(&item.id) {
                a.phone = item.contact_info;
            }
        }
        Ok(out)
    }

    /// The handover of booking `id` recorded by `staff`: AT_HOSPITAL → HANDED_OVER
    /// by the trip's one rule (409 from anywhere else). 404 when there is no such
    /// booking or it is another hospital's (never said which).
    pub async fn handover(self, staff: HospitalStaffRef, id: Id) -> Result<Booking, StoreError> {
        let booking = self
            .store
            .bookings()
            .booking(id)
            .await?
            .filter(|b| b.destination() == staff.hospital_id)
            .ok_or_else(|| booking::not_found(id))?;
        // The stage stays AT_HOSPITAL until the move, and the destination cannot
        // change from AT_HOSPITAL on: a retry reads the same hospital's trip.
        self.store
            .bookings()
            .move_read_booking(booking, Mover::Hospital, Goal::Stage(TripStage::HandedOver))
            .await
    }

    /// The crew of `crew`'s ambulance drives booking `id` to hospital `to` instead:
    /// 404 for an unknown booking or hospital, 403 when its ambulance does not hold
    /// it, 409 from AT_HOSPITAL on. The booking leaves the old hospital's board and
    /// joins the new one's in the same write, conditional on the stage and
    /// ambulance read.
    pub async fn change_destination(
        self,
        crew: &Crew,
        id: Id,
        to: Id,
    ) -> Result<Booking, StoreError> {
        let key = keys::booking(id);
        let (item, hospital) = tokio::try_join!(
            self.store.get::<BookingItem>(&key),
            self.store.hospitals().hospital(to)
        )?;
        let item = item.ok_or_else(|| booking::not_found(id))?;
        let booking = Booking::from(item);
        crew::may_act_on(crew.ambulance_id, &booking)?;
        let hospital: Hospital = hospital.ok_or_else(|| hospital::not_found(to))?;
        let progress = booking.progress();
        if progress.status.is_final() || progress.stage.is_some_and(TripStage::arrived) {
            return Err(Conflict::DestinationFixed {
                id,
                at: progress.to_string(),
            }
            .into());
        }
        if booking.destination() == to {
            return Ok(booking);
        }
        let write = still_at(
            Write::update(
                keys::booking(id),
                "SET destinationHospitalId = :to, destinationHospitalName = :name, \
                 destinationChosen = :chosen, destpk = :destpk, destsk = :destsk",
            )
            .value(":to", to)
            .value(":name", &hospital.name)
            .value(":chosen", true)
            .value(":destpk", keys::destination_trips(to))
            .value(
                ":destsk",
                keys::destination_open(&booking.booking_time.to_string(), id),
            )
            .value(":ambulanceRead", booking.ambulance_id)
            .when("ambulanceId = :ambulanceRead"),
            progress,
        );
        let mut tx = Tx::new();
        tx.push(Label::Booking(id), write);
        self.store.commit(tx).await.map_err(|e| match e {
            TxError::Refused(_) => StoreError::from(Conflict::BookingChanged(id)),
            TxError::Api(e) => e,
        })?;
        Ok(Booking {
            destination_hospital_id: Some(to),
            destination_hospital_name: Some(hospital.name),
            ..booking
        })
    }
}

/// How many of the nearest hospitals the crew's alternative is looked for among,
/// and how far.
const ALTERNATIVES: usize = 10;
const ALTERNATIVE_RADIUS_KM: f64 = 100.0;

impl Receiving<'_> {
    /// The destination of `job` as it is now (None when its hospital was removed),
    /// and, while it is on diversion before TO_HOSPITAL, the nearest open hospital
    /// to `from` (the ambulance's shown position).
    pub async fn crew_destination(
        self,
        job: &Booking,
        from: Option<Point>,
    ) -> Result<(Option<CrewDestination>, Option<Hospital>), StoreError> {
        let Some(destination) = self.store.hospitals().hospital(job.destination()).await? else {
            return Ok((None, None));
        };
        let now = time::OffsetDateTime::now_utc();
        let shown = CrewDestination::from(&destination);
        if !receiving::offer_alternative(&destination, job.trip_stage, now) {
            return Ok((Some(shown), None));
        }
        let from = from.unwrap_or(destination.point());
        // On the H3 `geo` index, whose items carry the diversion: a rare read (a
        // diverted destination before TO_HOSPITAL) that needs no copy of the
        // nearest-search index in the crew's function.
        let (nearest, _) = self
            .store
            .hospitals()
            .nearest_hospitals_h3(from, ALTERNATIVES, ALTERNATIVE_RADIUS_KM)
            .await?;
        Ok((Some(shown), receiving::first_open(nearest, now)))
    }
}
