//! The views of trips under way, read from indexes (no Scan): the crew's ambulance
//! and job, a booking's tracking, and the dispatcher's live map (ADR 0007, "Who
//! reads what").

use std::collections::{BTreeSet, HashMap};

use futures::{StreamExt, TryStreamExt, stream};
use h3o::{CellIndex, LatLng as H3Point, Resolution};
use time::OffsetDateTime;

use super::{
    bookings::BookingItem,
    fleet::AmbulanceItem,
    keys::{self, Key},
    positions::KeptPosition,
    schema::{FLEET, OPENMAP},
    table::{Item, Query, Store},
};
use crate::error::StoreError;
use domain::{
    ambulance::{self, AmbulanceStatus},
    booking::{Booking, BookingStatus, BookingType},
    dispatch::{
        self, AmbulanceNow, Bbox, LIVE_LIMIT, Live, LiveAmbulance, OpenBooking, PositionDoubt,
        Tracking,
    },
    geo::Point,
    hospital::Hospital,
    position::{Doubt, Position, PositionedAmbulance},
    presence::{CrewPresence, Seen},
    types::Id,
};

/// The live map reads at most this many keys of one status (or booking type) from
/// one range of cells at a time: the answer's worth and more, so that a box showing
/// a part of its cells still fills up (further pages are read while needed).
const LIVE_KEYS_PAGE: u64 = 2 * LIVE_LIMIT as u64;
/// ... and reads the items of as many candidates at once as the answer still
/// lacks (ambulance items with their `POSITION`s, or bookings), at least this many,
/// stopping as soon as it is full: a box all of whose candidates are inside reads
/// 501 of them, not more.
const LIVE_CANDIDATES_AT_LEAST: usize = 100;
/// The most urgent first: ambulances on a trip, then those that can be sent, then
/// those out of service (the `fleet` index's partitions).
const FLEET_ORDER: [AmbulanceStatus; 3] = [
    AmbulanceStatus::OnDuty,
    AmbulanceStatus::Available,
    AmbulanceStatus::Maintenance,
];
/// Emergencies first (the `openmap` index's partitions).
const OPEN_ORDER: [BookingType; 2] = [BookingType::Emergency, BookingType::Normal];

/// `store.dispatch()`: the views of trips under way: the crew's job, a booking's tracking,
/// the live map. Every method of the handle is in this file.
#[derive(Clone, Copy)]
pub struct Dispatch<'a> {
    pub(super) store: &'a Store,
}

impl Dispatch<'_> {
    /// An ambulance with its shown position, and the booking it holds (the crew
    /// screen): the ambulance and its position at once, then the booking.
    pub async fn ambulance_and_job(
        self,
        ambulance: Id,
    ) -> Result<(PositionedAmbulance, Option<Booking>), StoreError> {
        let (item, kept) = tokio::try_join!(
            self.store.fleet().ambulance_item(ambulance),
            self.store.positions().kept_position(ambulance)
        )?;
        let item = item.ok_or_else(|| ambulance::not_found(ambulance))?;
        let (last, seen) = kept.map_or((None, Seen::default()), |k| (k.fix, k.seen));
        let presence = Seen {
            crew_count: item.crew_count,
            ..seen
        }
        .presence(self.store.now());
        let job = async {
            match item.held_by {
                Some(booking) => self.store.bookings().booking(booking).await,
                None => Ok(None),
            }
        };
        let (position, job) =
            tokio::try_join!(self.store.fleet().shown_position(&item, last.as_ref()), job)?;
        Ok((
            PositionedAmbulance {
                ambulance: domain::ambulance::Ambulance {
                    crew_presence: Some(presence),
                    ..item.into()
                },
                position: Some(position),
            },
            job,
        ))
    }

    /// A booking's tracking view: its ambulance as it is now (the item and its
    /// position) and the hospital, read at once; the view and its ETA from
    /// `domain::dispatch`. A final booking's ambulance is not read at all: its view
    /// may show nothing of it (`dispatch::follows_the_ambulance`, decision 0007).
    pub async fn tracking(self, booking: Booking) -> Result<Tracking, StoreError> {
        let ambulance = async {
            if !dispatch::follows_the_ambulance(booking.booking_status) {
                return Ok(None);
            }
            let id = booking.ambulance_id;
            // Read as a page part: an item that does not read shows as absent.
            let key = keys::ambulance(id);
            let (item, last) = tokio::try_join!(
                self.store.get_readable::<AmbulanceItem>(&key),
                self.store.positions().last_position(id)
            )?;
            let Some(item) = item else {
                return Ok(None);
            };
            let position = self
                .store
                .fleet()
                .shown_position(&item, last.as_ref())
                .await?;
            Ok(Some(AmbulanceNow {
                contact_info: item.contact_info,
                position: Some(position),
            }))
        };
        let hospitals = self.store.hospitals();
        let destination = booking.destination();
        let other_destination = async {
            match destination == booking.hospital_id {
                true => Ok(None),
                false => hospitals.readable_hospital(destination).await,
            }
        };
        let (ambulance, hospital, other) = tokio::try_join!(
            ambulance,
            hospitals.readable_hospital(booking.hospital_id),
            other_destination
        )?;
        let point = |h: &Hospital| Point::new(h.latitude, h.longitude);
        let destination = match destination == booking.hospital_id {
            true => hospital.as_ref().map(point),
            false => other.as_ref().map(point),
        };
        Ok(Tracking::new(
            booking,
            (hospital, destination),
            ambulance,
            self.store.now(),
        ))
    }

    /// The dispatcher's map: the ambulances shown inside `bbox` and the open
    /// bookings with their pickup inside it, at most [`LIVE_LIMIT`] of each, the most
    /// urgent first, `truncated` when there were more (docs/decisions/0013-live-map.md).
    pub async fn live(self, bbox: Bbox) -> Result<Live, StoreError> {
        let ((ambulances, more_ambulances), (open_bookings, more_bookings)) =
            tokio::try_join!(self.live_ambulances(bbox), self.live_open_bookings(bbox))?;
        Ok(Live {
            ambulances,
            open_bookings,
            truncated: more_ambulances || more_bookings,
        })
    }

    /// The `fleet` index over the box's cell ranges, one status after the other
    /// (most urgent first); each candidate's item and `POSITION` (BatchGetItem),
    /// kept when its shown position is inside. Stops at one more than the answer.
    async fn live_ambulances(self, bbox: Bbox) -> Result<(Vec<LiveAmbulance>, bool), StoreError> {
        let ranges = cell_ranges(bbox, keys::FLEET_RESOLUTION);
        let now = OffsetDateTime::now_utc();
        let mut out: Vec<LiveAmbulance> = vec![];
        for status in FLEET_ORDER {
            let query = |i: usize| {
                let (lo, hi) = ranges[i];
                // `#s`: `status` is a reserved word.
                Query::on(FLEET, "#s = :s AND fleetcell BETWEEN :lo AND :hi")
                    .name("#s", "status")
                    .value(":s", status)
                    .value(":lo", lo)
                    .value(":hi", hi)
                    .page_size(LIVE_KEYS_PAGE)
            };
            let mut cursors = (0..ranges.len()).map(|i| (i, None)).collect();
            while let Some(found) = self.key_round(&query, &mut cursors).await? {
                let mut rest = &found[..];
                while !rest.is_empty() {
                    let (chunk, later) = rest.split_at(next_chunk(out.len(), rest.len()));
                    rest = later;
                    let ids = ids_of(chunk);
                    let (items, lasts) = tokio::try_join!(
                        self.store.batch_get::<AmbulanceItem>(chunk.to_vec()),
                        self.store.positions().last_positions(&ids)
                    )?;
                    let mut lasts: HashMap<Id, KeptPosition> = ids
                        .into_iter()
                        .zip(lasts)
                        .filter_map(|(id, last)| Some((id, last?)))
                        .collect();
                    for item in items {
                        // The index is eventually consistent: the status read wins.
                        if item.status != status {
                            continue;
                        }
                        let kept = lasts.remove(&item.id);
                        let hospital = self.store.fleet().hospital_point(&item).await?;
                        let (last, doubt, seen) = kept
                            .map_or((None, None, Seen::default()), |k| (k.fix, k.doubt, k.seen));
                        let position = Position::shown(last.as_ref(), hospital, now);
                        let presence = Seen {
                            crew_count: item.crew_count,
                            ..seen
                        }
                        .presence(now);
                        if bbox.contains(Point::new(position.latitude, position.longitude)) {
                            out.push(live_row(item, position, doubt, presence));
                        }
                    }
                    if out.len() > LIVE_LIMIT {
                        out.truncate(LIVE_LIMIT);
                        return Ok((out, true));
                    }
                }
            }
        }
        Ok((out, false))
    }

    /// The `openmap` index over the box's res-2 cell ranges, emergencies first; the
    /// bookings (BatchGetItem), kept when open with the pickup inside. Within a type,
    /// those waiting for a crew first, then the longest waiting.
    async fn live_open_bookings(self, bbox: Bbox) -> Result<(Vec<OpenBooking>, bool), StoreError> {
        let ranges = cell_ranges(bbox, Resolution::Two);
        let mut out: Vec<Booking> = vec![];
        let mut truncated = false;
        'types: for booking_type in OPEN_ORDER {
            let query = |i: usize| {
                let (lo, hi) = ranges[i];
                Query::on(OPENMAP, "bookingType = :t AND openpk BETWEEN :lo AND :hi")
                    .value(":t", booking_type)
                    .value(":lo", keys::open_bookings_in(cell(lo)))
                    .value(":hi", keys::open_bookings_in(cell(hi)))
                    .page_size(LIVE_KEYS_PAGE)
            };
            let mut cursors = (0..ranges.len()).map(|i| (i, None)).collect();
            let mut of_type: Vec<Booking> = vec![];
            while let Some(found) = self.key_round(&query, &mut cursors).await? {
                let mut rest = &found[..];
                while !rest.is_empty() {
                    let (chunk, later) =
                        rest.split_at(next_chunk(out.len() + of_type.len(), rest.len()));
                    rest = later;
                    let items: Vec<BookingItem> = self.store.batch_get(chunk.to_vec()).await?;
                    of_type.extend(items.into_iter().map(Booking::from).filter(|b| {
                        b.booking_type == booking_type
                            && !b.booking_status.is_final()
                            && b.pickup.as_ref().is_some_and(|p| bbox.contains(p.point()))
                    }));
                    if out.len() + of_type.len() > LIVE_LIMIT {
                        truncated = true;
                        break;
                    }
                }
                if truncated {
                    break;
                }
            }
            of_type.sort_by(|a, b| {
                let under_way = |b: &Booking| b.booking_status != BookingStatus::Pending;
                (under_way(a), &a.booking_time, a.id).cmp(&(under_way(b), &b.booking_time, b.id))
            });
            out.extend(of_type);
            if truncated {
                break 'types;
            }
        }
        out.truncate(LIVE_LIMIT);
        Ok((
            out.into_iter()
                .map(|b| OpenBooking {
                    id: b.id,
                    booking_type: b.booking_type,
                    booking_status: b.booking_status,
                    trip_stage: b.trip_stage,
                    pickup: b.pickup,
                    ambulance_id: b.ambulance_id,
                })
                .collect(),
            truncated,
        ))
    }

    /// One round of reading index keys: the next page of each Query still open
    /// (`cursors`: which Query, where its next page starts), at most
    /// [`QUERIES_AT_ONCE`] in flight. None once every Query is read to its end.
    async fn key_round(
        self,
        query: &impl Fn(usize) -> Query,
        cursors: &mut Vec<(usize, Option<Item>)>,
    ) -> Result<Option<Vec<Key>>, StoreError> {
        if cursors.is_empty() {
            return Ok(None);
        }
        let pages: Vec<(usize, Vec<Key>, Option<Item>)> = stream::iter(cursors.drain(..))
            .map(|(i, start)| async move {
                let (keys, next) = self.store.query_page::<Key>(query(i), start).await?;
                Ok::<_, StoreError>((i, keys, next))
            })
            .buffered(QUERIES_AT_ONCE)
            .try_collect()
            .await?;
        let mut found = vec![];
        for (i, keys, next) in pages {
            found.extend(keys);
            if next.is_some() {
                cursors.push((i, next));
            }
        }
        Ok(Some(found))
    }
}

/// How many of `left` candidates to read next when the answer holds `have`: what
/// it lacks to be one past full (so that "more" is known), at least
/// [`LIVE_CANDIDATES_AT_LEAST`].
fn next_chunk(have: usize, left: usize) -> usize {
    (LIVE_LIMIT + 1)
        .saturating_sub(have)
        .max(LIVE_CANDIDATES_AT_LEAST)
        .min(left)
}

/// Queries of one [`Dispatch::key_round`] in flight at once.
const QUERIES_AT_ONCE: usize = 16;

/// The ambulance ids of `AMBULANCE#<id>` keys.
fn ids_of(keys: &[Key]) -> Vec<Id> {
    keys.iter()
        .filter_map(|k| keys::ambulance_of(&k.pk))
        .collect()
}

/// A cell number the index ranges were made of.
fn cell(n: u64) -> CellIndex {
    CellIndex::try_from(n).expect("ranges are made of cells")
}

/// An ambulance's row of the live map.
fn live_row(
    item: AmbulanceItem,
    position: Position,
    doubt: Option<Doubt>,
    crew_presence: CrewPresence,
) -> LiveAmbulance {
    LiveAmbulance {
        id: item.id,
        number: item.number,
        ambulance_type: item.ambulance_type,
        status: item.status,
        hospital_id: item.hospital_id,
        position: Some(position),
        position_doubt: doubt.map(PositionDoubt::from),
        not_responding: item.not_responding,
        crew_presence,
    }
}

/// Average cell area (km²) at resolutions 0..=6, and a sample spacing (km) well
/// under each one's inradius: every cell meeting the box then has a sampled point
/// in it or in a neighbour, so the sampled cells with their neighbours cover it.
const CELL_AREA_KM2: [f64; 7] = [
    4_357_449.0,
    609_788.0,
    86_801.0,
    12_393.0,
    1_770.0,
    252.9,
    36.1,
];
const SAMPLE_KM: [f64; 7] = [500.0, 200.0, 100.0, 40.0, 12.0, 5.0, 2.0];
/// A box is covered with cells of the finest resolution (down to the index's) that
/// takes about this many cells: few Queries for any box, the world's one.
const COVER_CELLS: f64 = 12.0;
const EARTH_RADIUS_KM: f64 = 6371.0;

/// The box's cover as ranges of `finest`-resolution cell numbers (inclusive, sorted,
/// adjacent ones joined): the cells of a coarser resolution chosen by the box's
/// area, each standing for the range of its `finest` descendants. The whole world
/// is one range; a city a few.
fn cell_ranges(bbox: Bbox, finest: Resolution) -> Vec<(u64, u64)> {
    let area = EARTH_RADIUS_KM
        * EARTH_RADIUS_KM
        * bbox.lng_span().to_radians()
        * (bbox.max_lat.to_radians().sin() - bbox.min_lat.to_radians().sin()).abs();
    // A thin box has little area but a long extent: its cells are counted along each
    // side too, or a sliver along a meridian would be thousands of cells (and
    // Queries: the fuzzer's `-39,180,-90,180` took 12 s).
    let tall_km = (bbox.max_lat - bbox.min_lat) * 111.2;
    let widest_lat = if bbox.min_lat <= 0.0 && bbox.max_lat >= 0.0 {
        0.0
    } else {
        bbox.min_lat.abs().min(bbox.max_lat.abs())
    };
    let wide_km = bbox.lng_span() * 111.2 * widest_lat.to_radians().cos();
    let along_sides = |r: usize| {
        let edge = CELL_AREA_KM2[r].sqrt();
        (tall_km / edge + 1.0) * (wide_km / edge + 1.0)
    };
    let finest_n = usize::from(u8::from(finest));
    let res = (0..=finest_n)
        .rev()
        .find(|&r| area / CELL_AREA_KM2[r] <= COVER_CELLS && along_sides(r) <= 4.0 * COVER_CELLS)
        .unwrap_or(0);
    let resolution = Resolution::try_from(res as u8).expect("0..=6");
    // Coarser cells stand for their descendants, which stray past their outline;
    // cells of the index's own resolution only need the outline's arcs.
    let widen = if res == finest_n { 0.1 } else { 1.0 / 3.0 };
    let mut ranges: Vec<(u64, u64)> = cover(bbox, resolution, SAMPLE_KM[res], widen)
        .into_iter()
        .map(|c| {
            let last = c.children_count(finest) - 1;
            let first = c.child_at(0, finest).expect("a child");
            let last = c.child_at(last, finest).expect("a child");
            (u64::from(first), u64::from(last))
        })
        .collect();
    ranges.sort_unstable();
    let mut out: Vec<(u64, u64)> = Vec::with_capacity(ranges.len());
    for (lo, hi) in ranges {
        if let Some(last) = out.last_mut()
            && ordinal(lo, finest_n) <= ordinal(last.1, finest_n) + 1
        {
            last.1 = last.1.max(hi);
            continue;
        }
        out.push((lo, hi));
    }
    out
}

/// The place of a cell of resolution `res` in the order of cell numbers, counting
/// every digit pattern (a pentagon's deleted cells hold no item): two ranges whose
/// ends are consecutive here have no cell between them.
fn ordinal(cell: u64, res: usize) -> u64 {
    let base = (cell >> 45) & 0x7F;
    (1..=res).fold(base, |acc, r| acc * 7 + ((cell >> ((15 - r) * 3)) & 7))
}

/// The cells of `resolution` meeting the box (a superset): points sampled every
/// `sample_km` over it, their cells and those cells' neighbours, kept when
/// [`may_meet`] the box with their vertices' box widened by `widen` of its size.
fn cover(bbox: Bbox, resolution: Resolution, sample_km: f64, widen: f64) -> BTreeSet<CellIndex> {
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
            if let Ok(p) = H3Point::new(lat_here, lng) {
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
    sampled
        .into_iter()
        .flat_map(|cell| cell.grid_disk::<Vec<_>>(1))
        .filter(|cell| may_meet(*cell, bbox, widen))
        .collect()
}

/// Whether the cell may meet the box: the box of its vertices, widened by `widen`
/// of its size, meets it. A third holds its descendants too, which stray past its
/// outline by up to ~0.22 of its radius (docs/decisions/0002-geo-index.md); a tenth
/// holds the bulge of its edges (great-circle arcs) between the vertices. Cells near
/// a pole are always kept (their vertices do not bound their longitudes).
fn may_meet(cell: CellIndex, bbox: Bbox, widen: f64) -> bool {
    let vertices: Vec<H3Point> = cell.boundary().iter().copied().collect();
    if vertices.iter().any(|v| v.lat().abs() > 80.0) {
        return true;
    }
    let lats = vertices.iter().map(|v| v.lat());
    let (lat_lo, lat_hi) = (
        lats.clone().fold(90.0, f64::min),
        lats.fold(-90.0, f64::max),
    );
    // Longitudes unwrapped across the antimeridian when the cell straddles it.
    let mut lngs: Vec<f64> = vertices.iter().map(|v| v.lng()).collect();
    let (lo, hi) = (
        lngs.iter().copied().fold(180.0, f64::min),
        lngs.iter().copied().fold(-180.0, f64::max),
    );
    if hi - lo > 180.0 {
        lngs.iter_mut()
            .filter(|l| **l < 0.0)
            .for_each(|l| *l += 360.0);
    }
    let (lng_lo, lng_hi) = (
        lngs.iter().copied().fold(540.0, f64::min),
        lngs.iter().copied().fold(-540.0, f64::max),
    );
    let pad_lat = (lat_hi - lat_lo) * widen;
    let pad_lng = (lng_hi - lng_lo) * widen;
    let (lat_lo, lat_hi) = (lat_lo - pad_lat, lat_hi + pad_lat);
    let (lng_lo, lng_hi) = (lng_lo - pad_lng, lng_hi + pad_lng);
    if lat_hi < bbox.min_lat || lat_lo > bbox.max_lat {
        return false;
    }
    // The box's longitudes as intervals, each also a turn of the globe either way.
    let spans: Vec<(f64, f64)> = if bbox.crosses_antimeridian() {
        vec![(bbox.min_lng, 180.0), (-180.0, bbox.max_lng)]
    } else {
        vec![(bbox.min_lng, bbox.max_lng)]
    };
    spans.iter().any(|&(a, b)| {
        [-360.0, 0.0, 360.0]
            .iter()
            .any(|turn| lng_lo <= b + turn && a + turn <= lng_hi)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cell_ranges_hold_every_point_of_the_box() {
        for (text, finest) in [
            ("30.0,74.0,31.5,76.8", Resolution::Two),
            ("29.9,74.2,30.0,74.3", Resolution::Two),
            ("-5,175,5,-175", Resolution::Two),
            ("60,-10,65,10", Resolution::Two),
            ("-90,-180,90,180", Resolution::Two),
            ("30.0,74.0,31.5,76.8", Resolution::Four),
            ("29.9,74.2,30.0,74.3", Resolution::Four),
            ("-1,179,1,-179", Resolution::Four),
            ("64,-5,65.5,2", Resolution::Four),
            ("-60,-120,70,150", Resolution::Four),
            ("85,-180,90,180", Resolution::Four),
            ("-90,-180,90,180", Resolution::Four),
            ("28.60,77.20,28.62,77.22", Resolution::Six),
            ("30.0,74.0,31.5,76.8", Resolution::Six),
            ("-17.9,179.9,-17.7,-179.9", Resolution::Six),
            ("-90,-180,90,180", Resolution::Six),
            ("10,-30,60,40", Resolution::Six),
            // Slivers: little area, long sides (the fuzzer's first is 12 s before).
            ("-39,180,-90,180", Resolution::Six),
            ("0,10,60,10.0001", Resolution::Six),
            ("10,-180,10.0001,180", Resolution::Six),
            ("-89.9,-180,-89.8,180", Resolution::Four),
        ] {
            let bbox = Bbox::parse(text).unwrap();
            let ranges = cell_ranges(bbox, finest);
            // A fine grid of points in the box: each one's cell is in a range.
            for i in 0..=40 {
                for j in 0..=40 {
                    let lat = bbox.min_lat + (bbox.max_lat - bbox.min_lat) * f64::from(i) / 40.0;
                    let mut lng = bbox.min_lng + bbox.lng_span() * f64::from(j) / 40.0;
                    if lng > 180.0 {
                        lng -= 360.0;
                    }
                    let cell = u64::from(H3Point::new(lat, lng).unwrap().to_cell(finest));
                    assert!(
                        ranges.iter().any(|&(lo, hi)| (lo..=hi).contains(&cell)),
                        "{text}: ({lat}, {lng})"
                    );
                }
            }
            // Few Queries whatever the box.
            assert!(ranges.len() <= 40, "{text}: {} ranges", ranges.len());
        }
        // The whole world is one Query; a city a few.
        let world = Bbox::parse("-90,-180,90,180").unwrap();
        assert_eq!(cell_ranges(world, Resolution::Four).len(), 1);
        let city = Bbox::parse("28.4,76.8,28.9,77.4").unwrap();
        assert!(cell_ranges(city, Resolution::Six).len() <= 20);
        // A street's box reads a few res-6 cells (~36 km² each), not a city.
        let street = Bbox::parse("28.60,77.20,28.62,77.22").unwrap();
        let cells: u64 = cell_ranges(street, Resolution::Six)
            .iter()
            .map(|&(lo, hi)| ordinal(hi, 6) - ordinal(lo, 6) + 1)
            .sum();
        assert!(cells <= 3, "{cells} cells");
    }

    #[test]
    fn a_cells_range_holds_its_descendants_and_no_other_cell() {
        // Every res-4 cell under a res-1 cell lies in its range, and the res-4
        // cells of its neighbours do not.
        let cell = H3Point::new(28.6, 77.2).unwrap().to_cell(Resolution::One);
        let lo = u64::from(cell.child_at(0, Resolution::Four).unwrap());
        let hi = u64::from(
            cell.child_at(cell.children_count(Resolution::Four) - 1, Resolution::Four)
                .unwrap(),
        );
        for child in cell.children(Resolution::Four) {
            assert!((lo..=hi).contains(&u64::from(child)));
        }
        for other in cell.grid_disk::<Vec<_>>(1) {
            if other == cell {
                continue;
            }
            for child in other.children(Resolution::Four) {
                assert!(!(lo..=hi).contains(&u64::from(child)));
            }
        }
        // Consecutive ordinals: the last res-4 cell of base cell 5 and the first
        // of base cell 6 join.
        let last = CellIndex::base_cells().nth(5).unwrap();
        let next = CellIndex::base_cells().nth(6).unwrap();
        let a = last.child_at(last.children_count(Resolution::Four) - 1, Resolution::Four);
        let b = next.child_at(0, Resolution::Four);
        assert_eq!(
            ordinal(u64::from(a.unwrap()), 4) + 1,
            ordinal(u64::from(b.unwrap()), 4)
        );
    }
}
