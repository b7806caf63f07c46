//! The views of trips under way, read from indexes (no Scan): the crew's ambulance
//! and job, a booking's tracking, and the dispatcher's live map (ADR 0007, "Who
//! reads what").

use std::collections::{BTreeSet, HashMap, HashSet};

use futures::future::try_join_all;
use h3o::{CellIndex, LatLng as H3Point, Resolution};
use time::OffsetDateTime;

use super::{
    ambulances::AmbulanceItem,
    bookings::BookingItem,
    keys::{self, Key},
    positions::KeptPosition,
    schema::{LIVE, OPEN},
    table::{Query, Store},
};
use crate::{
    domain::{
        ambulance,
        booking::Booking,
        dispatch::{
            self, AmbulanceNow, Bbox, LIVE_LIMIT, Live, LiveAmbulance, OpenBooking, PositionDoubt,
            Tracking,
        },
        position::{Doubt, Position, PositionedAmbulance},
    },
    error::ApiError,
    geo::haversine_km,
    types::{Id, LatLng},
};

/// The live map reads the ambulances of the hospitals within the box (plus this
/// margin: an ambulance may have driven out of its hospital's surroundings).
pub const LIVE_MARGIN_KM: f64 = 50.0;
/// ... of at most this many hospitals, nearest the box's middle first ...
pub const LIVE_HOSPITALS: usize = 300;
/// ... within at most this radius of it: a bigger box shows its middle part.
pub const LIVE_MAX_RADIUS_KM: f64 = 2500.0;
/// Hospitals whose fleets are read at once.
const HOSPITALS_AT_ONCE: usize = 25;
/// The open bookings come from at most this many res-2 cells (~86 000 km² each),
/// nearest the box's middle first ...
pub const LIVE_OPEN_CELLS: usize = 64;
/// ... and at most this many of their newest keys.
const LIVE_OPEN_KEYS: usize = 2000;

impl Store {
    /// An ambulance with its shown position, and the booking it holds (the crew
    /// screen): the ambulance and its position at once, then the booking.
    pub async fn ambulance_and_job(
        &self,
        ambulance: Id,
    ) -> Result<(PositionedAmbulance, Option<Booking>), ApiError> {
        let (item, last) = tokio::try_join!(
            self.ambulance_item(ambulance),
            self.last_position(ambulance)
        )?;
        let item = item.ok_or_else(|| ambulance::not_found(ambulance))?;
        let job = async {
            match item.held_by {
                Some(booking) => self.booking(booking).await,
                None => Ok(None),
            }
        };
        let (position, job) = tokio::try_join!(self.shown_position(&item, last.as_ref()), job)?;
        Ok((
            PositionedAmbulance {
                ambulance: item.into(),
                position: Some(position),
            },
            job,
        ))
    }

    /// A booking's tracking view: its ambulance as it is now (the item and its
    /// position) and the hospital, read at once; the view and its ETA from
    /// `domain::dispatch`. A final booking's ambulance is not read at all: its view
    /// may show nothing of it (`dispatch::follows_the_ambulance`, issue 22).
    pub async fn tracking(&self, booking: Booking) -> Result<Tracking, ApiError> {
        let ambulance = async {
            if !dispatch::follows_the_ambulance(booking.booking_status) {
                return Ok(None);
            }
            let id = booking.ambulance_id;
            // Read as a page part: an item that does not read shows as absent.
            let key = keys::ambulance(id);
            let (item, last) = tokio::try_join!(
                self.get_readable::<AmbulanceItem>(&key),
                self.last_position(id)
            )?;
            let Some(item) = item else {
                return Ok(None);
            };
            let position = self.shown_position(&item, last.as_ref()).await?;
            Ok(Some(AmbulanceNow {
                contact_info: item.contact_info,
                position: Some(position),
            }))
        };
        let (ambulance, hospital) =
            tokio::try_join!(ambulance, self.readable_hospital(booking.hospital_id))?;
        Ok(Tracking::new(booking, hospital, ambulance, self.now()))
    }

    /// The dispatcher's map: ambulances shown inside `bbox` and open bookings with
    /// their pickup inside it, at most [`LIVE_LIMIT`] of each.
    pub async fn live(&self, bbox: Bbox) -> Result<Live, ApiError> {
        let (ambulances, open_bookings) =
            tokio::try_join!(self.live_ambulances(bbox), self.live_open_bookings(bbox))?;
        Ok(Live {
            ambulances,
            open_bookings,
        })
    }

    /// The hospitals near the box (the hospital search), their fleets (`gsi1`), the
    /// fleets' last positions (BatchGetItem); kept when the shown position is inside.
    async fn live_ambulances(&self, bbox: Bbox) -> Result<Vec<LiveAmbulance>, ApiError> {
        let (lat, lng) = bbox.center();
        let center = LatLng::new(lat, lng).map_err(ApiError::internal)?;
        let radius = (bbox.radius_km() + LIVE_MARGIN_KM).min(LIVE_MAX_RADIUS_KM);
        let (hospitals, _) = self
            .nearest_hospitals(center, LIVE_HOSPITALS, radius)
            .await?;
        let now = OffsetDateTime::now_utc();
        let mut out = vec![];
        let mut seen: HashSet<Id> = HashSet::new();
        for chunk in hospitals.chunks(HOSPITALS_AT_ONCE) {
            let fleets =
                try_join_all(chunk.iter().map(|h| self.hospital_ambulance_items(h.id))).await?;
            let items: Vec<(AmbulanceItem, (f64, f64))> = chunk
                .iter()
                .zip(fleets)
                .flat_map(|(h, fleet)| {
                    fleet
                        .into_iter()
                        .map(move |a| (a, (h.latitude, h.longitude)))
                })
                .collect();
            let ids: Vec<Id> = items.iter().map(|(a, _)| a.id).collect();
            seen.extend(ids.iter().copied());
            let lasts = self.last_positions(&ids).await?;
            for ((item, hospital), last) in items.into_iter().zip(lasts) {
                let (last, doubt) = last.map_or((None, None), |k| (Some(k.fix), k.doubt));
                let position = Position::shown(last.as_ref(), hospital, now);
                if bbox.contains(position.latitude, position.longitude) {
                    out.push(live_row(item, position, doubt));
                }
            }
            if out.len() >= LIVE_LIMIT {
                break;
            }
        }
        if out.len() < LIVE_LIMIT {
            out.extend(self.live_ambulances_seen_in(bbox, &seen, now).await?);
        }
        out.truncate(LIVE_LIMIT);
        Ok(out)
    }

    /// The ambulances whose last accepted position lies in the box (the `live`
    /// index), but for those in `seen`: one far from its hospital is found where it
    /// is, not only through the hospitals near the box.
    async fn live_ambulances_seen_in(
        &self,
        bbox: Bbox,
        seen: &HashSet<Id>,
        now: OffsetDateTime,
    ) -> Result<Vec<LiveAmbulance>, ApiError> {
        let cells = covering_cells(bbox, keys::LIVE_RESOLUTION, LIVE_SAMPLE_KM);
        let per_cell = try_join_all(cells.iter().map(|cell| {
            self.query_first::<LiveKey>(
                Query::on(LIVE, "livepk = :p").value(":p", keys::live_positions_in(*cell)),
                LIVE_OPEN_KEYS,
            )
        }))
        .await?;
        let ids: Vec<Id> = per_cell
            .into_iter()
            .flatten()
            .map(|k| k.livesk)
            .filter(|id| !seen.contains(id))
            .take(LIVE_OPEN_KEYS)
            .collect();
        let (items, lasts) = tokio::try_join!(
            self.batch_get::<AmbulanceItem>(ids.iter().map(|id| keys::ambulance(*id)).collect()),
            self.last_positions(&ids)
        )?;
        let mut lasts: HashMap<Id, KeptPosition> = ids
            .into_iter()
            .zip(lasts)
            .filter_map(|(id, last)| Some((id, last?)))
            .collect();
        Ok(items
            .into_iter()
            .filter_map(|item| {
                let kept = lasts.remove(&item.id)?;
                let position = Position::shown(Some(&kept.fix), kept.fix.point(), now);
                bbox.contains(position.latitude, position.longitude)
                    .then(|| live_row(item, position, kept.doubt))
            })
            .collect())
    }

    /// The `open` cells covering the box, their newest keys, the bookings
    /// (BatchGetItem); kept when the pickup is inside, newest first.
    async fn live_open_bookings(&self, bbox: Bbox) -> Result<Vec<OpenBooking>, ApiError> {
        let cells = covering_cells(bbox, Resolution::Two, SAMPLE_KM);
        let per_cell = try_join_all(cells.iter().map(|cell| {
            self.query_first::<OpenKey>(
                Query::on(OPEN, "openpk = :p")
                    .value(":p", keys::open_bookings_in(*cell))
                    .newest_first(true)
                    .page_size(LIVE_LIMIT as u64),
                LIVE_LIMIT,
            )
        }))
        .await?;
        // `opensk` starts with the booking time: newest across cells first.
        let mut found: Vec<OpenKey> = per_cell.into_iter().flatten().collect();
        found.sort_by(|a, b| b.opensk.cmp(&a.opensk));
        found.truncate(LIVE_OPEN_KEYS);
        let items: Vec<BookingItem> = self
            .batch_get(found.into_iter().map(|k| k.key).collect())
            .await?;
        let mut open: Vec<Booking> = items
            .into_iter()
            .map(Booking::from)
            .filter(|b| !b.booking_status.is_final())
            .filter(|b| {
                b.pickup
                    .as_ref()
                    .is_some_and(|p| bbox.contains(p.latitude.get(), p.longitude.get()))
            })
            .collect();
        open.sort_by(|a, b| (&b.booking_time, b.id).cmp(&(&a.booking_time, a.id)));
        open.truncate(LIVE_LIMIT);
        Ok(open
            .into_iter()
            .map(|b| OpenBooking {
                id: b.id,
                booking_type: b.booking_type,
                booking_status: b.booking_status,
                trip_stage: b.trip_stage,
                pickup: b.pickup,
                ambulance_id: b.ambulance_id,
            })
            .collect())
    }
}

/// An ambulance's row of the live map.
fn live_row(item: AmbulanceItem, position: Position, doubt: Option<Doubt>) -> LiveAmbulance {
    LiveAmbulance {
        id: item.id,
        number: item.number,
        ambulance_type: item.ambulance_type,
        status: item.status,
        hospital_id: item.hospital_id,
        position: Some(position),
        position_doubt: doubt.map(PositionDoubt::from),
    }
}

/// An entry of the keys-only `live` index.
#[derive(serde::Deserialize)]
struct LiveKey {
    livesk: Id,
}

/// An entry of the keys-only `open` index.
#[derive(serde::Deserialize)]
struct OpenKey {
    #[serde(flatten)]
    key: Key,
    opensk: String,
}

/// Sample spacing (km) for covering a box with res-2 cells: well under a res-2
/// cell's inradius (~137 km), so every cell meeting the box has a sampled
/// neighbour, and the sampled cells with their neighbours cover the box.
const SAMPLE_KM: f64 = 100.0;
/// The same for res-3 cells (inradius ~52 km).
const LIVE_SAMPLE_KM: f64 = 40.0;

/// The cells of `resolution` that cover the box (a superset), nearest its middle
/// first, at most [`LIVE_OPEN_CELLS`]; `sample_km` well under the cells' inradius.
fn covering_cells(bbox: Bbox, resolution: Resolution, sample_km: f64) -> Vec<CellIndex> {
    let (c_lat, c_lng) = bbox.center();
    let reach = bbox.radius_km().min(LIVE_MAX_RADIUS_KM);
    let lat_step = sample_km / 111.0;
    let mut sampled: BTreeSet<CellIndex> = BTreeSet::new();
    let mut lat = bbox.min_lat;
    loop {
        let lat_here = lat.min(bbox.max_lat);
        let lng_step = sample_km / (111.0 * lat_here.to_radians().cos().max(0.01));
        let mut offset: f64 = 0.0;
        loop {
            let mut lng = bbox.min_lng + offset.min(bbox.lng_span());
            if lng > 180.0 {
                lng -= 360.0;
            }
            if haversine_km(c_lat, c_lng, lat_here, lng) <= reach + sample_km
                && let Ok(p) = H3Point::new(lat_here, lng)
            {
                sampled.insert(p.to_cell(resolution));
            }
            if offset >= bbox.lng_span() {
                break;
            }
            offset += lng_step;
        }
        if lat >= bbox.max_lat {
            break;
        }
        lat += lat_step;
    }
    let mut cells: HashMap<CellIndex, f64> = HashMap::new();
    for cell in sampled {
        for c in cell.grid_disk::<Vec<_>>(1) {
            let mid = H3Point::from(c);
            cells.insert(c, haversine_km(c_lat, c_lng, mid.lat(), mid.lng()));
        }
    }
    let mut cells: Vec<(CellIndex, f64)> = cells.into_iter().collect();
    cells.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    cells.truncate(LIVE_OPEN_CELLS);
    cells.into_iter().map(|(c, _)| c).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_covering_cells_hold_every_point_of_the_box() {
        for (text, resolution, sample) in [
            ("30.0,74.0,31.5,76.8", Resolution::Two, SAMPLE_KM),
            ("29.9,74.2,30.0,74.3", Resolution::Two, SAMPLE_KM),
            ("-5,175,5,-175", Resolution::Two, SAMPLE_KM),
            ("60,-10,65,10", Resolution::Two, SAMPLE_KM),
            ("30.0,74.0,31.5,76.8", Resolution::Three, LIVE_SAMPLE_KM),
            ("29.9,74.2,30.0,74.3", Resolution::Three, LIVE_SAMPLE_KM),
            ("-1,179,1,-179", Resolution::Three, LIVE_SAMPLE_KM),
            ("64,-5,65.5,2", Resolution::Three, LIVE_SAMPLE_KM),
        ] {
            let bbox = Bbox::parse(text).unwrap();
            let cells: BTreeSet<CellIndex> = covering_cells(bbox, resolution, sample)
                .into_iter()
                .collect();
            // A fine grid of points in the box: each one's cell is covered.
            for i in 0..=20 {
                for j in 0..=20 {
                    let lat = bbox.min_lat + (bbox.max_lat - bbox.min_lat) * f64::from(i) / 20.0;
                    let mut lng = bbox.min_lng + bbox.lng_span() * f64::from(j) / 20.0;
                    if lng > 180.0 {
                        lng -= 360.0;
                    }
                    let cell = H3Point::new(lat, lng).unwrap().to_cell(resolution);
                    assert!(cells.contains(&cell), "{text}: ({lat}, {lng})");
                }
            }
        }
        // A huge box is cut to the cells nearest its middle.
        let world = Bbox::parse("-90,-180,90,180").unwrap();
        assert_eq!(
            covering_cells(world, Resolution::Two, SAMPLE_KM).len(),
            LIVE_OPEN_CELLS
        );
    }
}
