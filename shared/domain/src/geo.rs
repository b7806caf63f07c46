//! The geo index: k nearest hospitals from DynamoDB without reading them all.
//!
//! Each hospital stores `geopk = G2#<its res-2 H3 cell>` and `geosk = <its res-15 H3
//! cell as a number>`. In H3's bit layout the res-15 descendants of any cell form one
//! contiguous number range ([`cell_range`]), so one Query (`geopk = p AND geosk
//! BETWEEN lo AND hi`) reads exactly one cell, at any resolution from 2 to 15.
//!
//! # The search ([`nearest`])
//!
//! Rounds of a growing *target radius* `t`. A round covers the disk of radius `t`
//! with cells of one resolution (about three cells per radius), reads those cells
//! (compacted into parents where all seven children are in, contiguous ranges merged,
//! ranges read in earlier rounds subtracted unless they held next to nothing: see
//! [`ReadSet::ranges_for`]), all Queries of the round at once. After the round, the *proven radius* `B` (≥ `t`) says that
//! nothing unread is closer than `B`; the search stops when `k` results lie within
//! `min(B, radiusKm)`, or `B ≥ radiusKm`. Otherwise the next target is the k-th
//! distance seen so far (one more round then proves it), or, with fewer than `k`
//! candidates, a radius predicted from the density seen inside the proven disk.
//!
//! # Why the proven radius is a lower bound
//!
//! A round's cells `D` are grown from the cell containing the point `p` by adding
//! neighbours whose lower bound `LB(c) = dist(p, hex(c)) − δ(c)` is below `t`; the
//! neighbours left out are the *frontier*, and `B = min LB` over the frontier. Take an
//! unread item `q`; its res-r ancestor `a` is not in `D`.
//! - If `q` lies outside the outline of `D`, the great circle from `p` to `q` leaves
//!   that outline through the hexagon of a frontier cell `f`, so
//!   `dist(p, q) ≥ dist(p, hex(f)) ≥ LB(f) ≥ B`.
//! - If `q` lies inside the outline, then (H3 cells are not exactly nested) `q` lies
//!   in the stray fringe of `a`: within `δ(a)` of `hex(a)`. `δ(a)` is far less than a
//!   cell's width, so `a` touches the cell of `D` containing `q`: `a` is a frontier
//!   cell and `dist(p, q) ≥ dist(p, hex(a)) − δ(a) = LB(a) ≥ B`.
//!
//! `dist(p, hex(c))` is exact: cell outlines are great-circle arcs between the
//! boundary vertices h3o gives (gnomonic projection), and [`arc_distance`] is the exact
//! distance from a point to such an arc. `δ(c) = STRAY × circumradius(c)`: a child's
//! hexagon sticks out of its parent's by at most 0.13 × the parent's circumradius, and
//! circumradii shrink by at least 2.5× per resolution (both checked over cells of
//! every resolution by `a_cell_strays_little`), so by the triangle inequality down
//! the chain of ancestors all res-15 descendants stay within
//! 0.13 / (1 − 1/2.5) < 0.22 × circumradius of the cell (pentagons, whose hexagon
//! children are relatively larger: 0.25). The real worst, found by branch and bound
//! in the same test, is about 0.15.

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    convert::Infallible,
    future::Future,
};

use h3o::{CellIndex, LatLng, Resolution};

pub mod points;

pub const EARTH_RADIUS_KM: f64 = 6371.0088;
/// Hospitals are partitioned by their res-2 cell (~86 000 km² each).
pub const PARTITION_RES: Resolution = Resolution::Two;
/// How far (× the circumradius of a cell) its res-15 descendants may stray outside
/// its hexagon. See the module documentation.
pub const STRAY: f64 = 0.22;
/// The same for the twelve pentagons of each resolution, whose hexagon children are
/// relatively larger.
pub const STRAY_PENTAGON: f64 = 0.25;

fn stray_factor(cell: CellIndex) -> f64 {
    if cell.is_pentagon() {
        STRAY_PENTAGON
    } else {
        STRAY
    }
}

/// The search's knobs (the defaults are what the service uses; the benchmark tries
/// others).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchParams {
    /// The first round's target radius (km). Small, so that dense cities stop early.
    pub first_target_km: f64,
    /// Cover a disk of radius `t` with cells whose average edge is at least
    /// `t / cells_per_radius`: finer reads fewer items past the disk, coarser makes
    /// fewer Queries.
    pub cells_per_radius: f64,
    /// Growth of the target after a round that found nothing.
    pub empty_growth: f64,
    /// With fewer than k candidates, the next target is the radius that should hold
    /// k at the density seen so far, times this.
    pub margin: f64,
    /// How many times, in the round that proves the answer, cells crossing the
    /// target circle are split into children.
    pub refine: u8,
    /// Treat the first target as the k-th distance (refine it as a proving round).
    /// Only for `geo_tune`'s oracle, which knows that distance beforehand.
    pub first_round_proves: bool,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            first_target_km: 0.15,
            // Chosen with the `geo_tune` binary (docs/performance.md): of the settings
            // tried, about the fewest items at 100 000 hospitals, with a third fewer
            // Queries than 4 cells per radius.
            cells_per_radius: 3.0,
            empty_growth: 5.0,
            margin: 0.9,
            refine: 2,
            first_round_proves: false,
        }
    }
}

/// Great-circle distance in km.
pub fn haversine_km(lat1: f64, lng1: f64, lat2: f64, lng2: f64) -> f64 {
    let (p1, p2) = (lat1.to_radians(), lat2.to_radians());
    let dp = p2 - p1;
    let dl = (lng2 - lng1).to_radians();
    let a = (dp / 2.0).sin().powi(2) + p1.cos() * p2.cos() * (dl / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_KM * a.sqrt().min(1.0).asin()
}

/// A longitude moved past ±180° (a point offset across the antimeridian) brought back
/// into range.
pub fn wrap_longitude(lng: f64) -> f64 {
    if lng > 180.0 {
        lng - 360.0
    } else if lng < -180.0 {
        lng + 360.0
    } else {
        lng
    }
}

fn point(lat: f64, lng: f64) -> LatLng {
    LatLng::new(lat, lng).expect("coordinates were validated before reaching the index")
}

/// The index keys of a location: `(geopk, geosk)`.
pub fn keys_of(lat: f64, lng: f64) -> (String, u64) {
    let cell = point(lat, lng).to_cell(Resolution::Fifteen);
    (partition_of(cell), u64::from(cell))
}

fn partition_of(cell: CellIndex) -> String {
    let parent = cell
        .parent(PARTITION_RES)
        .expect("cells searched are at resolution 2 or finer");
    partition_named(&parent.to_string())
}

/// The partition name of a res-2 cell given as text.
pub fn partition_named(cell: &str) -> String {
    format!("{PARTITION_PREFIX}{cell}")
}

/// What names a partition of the index: the prefix, then its res-2 cell.
const PARTITION_PREFIX: &str = "G2#";

/// The res-2 cell a partition name (`partition_of`) is for.
pub fn partition_cell(partition: &str) -> &str {
    partition
        .strip_prefix(PARTITION_PREFIX)
        .unwrap_or(partition)
}

/// One Query's worth of the index: the items of `partition` with `lo <= geosk <= hi`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Range {
    pub partition: String,
    pub lo: u64,
    pub hi: u64,
}

const DIGIT_BITS: u32 = 3;
const RES_SHIFT: u32 = 52;

/// The range of res-15 cell numbers inside `cell` (resolution 2..=15): the cell's
/// digits for resolutions 1..=r, then digits r+1..=15 from all 0 to all 6, with the
/// resolution field set to 15. Numbers in between with a digit 7 are not cells.
pub fn cell_range(cell: CellIndex) -> Range {
    let res = u32::from(u8::from(cell.resolution()));
    let raw = u64::from(cell);
    let free_bits = (15 - res) * DIGIT_BITS; // digits res+1..=15, the lowest bits
    let res_mask: u64 = 0xF << RES_SHIFT;
    let base = (raw & !res_mask & !((1u64 << free_bits) - 1)) | (15u64 << RES_SHIFT);
    let sixes = (0..(15 - res)).fold(0u64, |acc, i| acc | (6u64 << (i * DIGIT_BITS)));
    Range {
        partition: partition_of(cell),
        lo: base,
        hi: base | sixes,
    }
}

/// The smallest number `>= x` whose 15 digits are all 0..=6 (a res-15 cell number, or
/// one of a pentagon's deleted ones, which hold no item either). `None` past the
/// base cell, which no range of one partition reaches.
fn leaf_at_or_after(x: u64) -> Option<u64> {
    let digits_mask = (1u64 << (15 * DIGIT_BITS)) - 1;
    let mut digits = x & digits_mask;
    // The most significant digit equal to 7, if any: round up past it.
    for i in (0..15).rev() {
        let shift = i * DIGIT_BITS;
        if (digits >> shift) & 7 == 7 {
            digits &= !((1u64 << (shift + DIGIT_BITS)) - 1); // clear it and below
            // Add one at the next digit up, carrying over sevens.
            let mut pos = shift + DIGIT_BITS;
            loop {
                if pos >= 15 * DIGIT_BITS {
                    return None;
                }
                let d = (digits >> pos) & 7;
                if d < 6 {
                    digits += 1 << pos;
                    break;
                }
                digits &= !(7u64 << pos);
                pos += DIGIT_BITS;
            }
            break;
        }
    }
    Some((x & !digits_mask) | digits)
}

/// `range` minus the parts already read.
fn subtract(range: &Range, read: &[(u64, u64)]) -> Vec<Range> {
    let mut pieces = vec![(range.lo, range.hi)];
    for &(rlo, rhi) in read {
        pieces = pieces
            .into_iter()
            .flat_map(|(lo, hi)| {
                if rhi < lo || rlo > hi {
                    return vec![(lo, hi)];
                }
                let mut out = vec![];
                if rlo > lo {
                    out.push((lo, rlo - 1));
                }
                if rhi < hi {
                    out.push((rhi + 1, hi));
                }
                out
            })
            .collect();
    }
    pieces
        .into_iter()
        .map(|(lo, hi)| Range {
            partition: range.partition.clone(),
            lo,
            hi,
        })
        .collect()
}

/// Sorts ranges and joins neighbours of one partition that no cell number separates
/// (e.g. the ranges of sibling cells with consecutive digits): one Query instead of
/// two, the same items.
fn merge(mut ranges: Vec<Range>) -> Vec<Range> {
    ranges.sort_by(|a, b| (&a.partition, a.lo).cmp(&(&b.partition, b.lo)));
    let mut out: Vec<Range> = Vec::with_capacity(ranges.len());
    for r in ranges {
        if let Some(last) = out.last_mut()
            && last.partition == r.partition
            && leaf_at_or_after(last.hi + 1).is_none_or(|next| next >= r.lo)
        {
            last.hi = last.hi.max(r.hi);
            continue;
        }
        out.push(r);
    }
    out
}

// ---- Spherical geometry on unit vectors ------------------------------------------

type V3 = [f64; 3];

fn unit(ll: LatLng) -> V3 {
    let (lat, lng) = (ll.lat_radians(), ll.lng_radians());
    [lat.cos() * lng.cos(), lat.cos() * lng.sin(), lat.sin()]
}

fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// The angle between two unit vectors (radians), accurate at any size.
fn angle(a: V3, b: V3) -> f64 {
    dot(cross(a, b), cross(a, b)).sqrt().atan2(dot(a, b))
}

/// Exact distance (radians) from `p` to the minor great-circle arc from `a` to `b`.
fn arc_distance(p: V3, a: V3, b: V3) -> f64 {
    let n = cross(a, b);
    let len = dot(n, n).sqrt();
    if len < 1e-300 {
        return angle(p, a);
    }
    let n = [n[0] / len, n[1] / len, n[2] / len];
    // The foot of the perpendicular from p lies between a and b: the distance to the
    // great circle. Otherwise the nearer end.
    if dot(cross(a, p), n) >= 0.0 && dot(cross(p, b), n) >= 0.0 {
        dot(p, n).abs().min(1.0).asin()
    } else {
        angle(p, a).min(angle(p, b))
    }
}

/// A cell's outline as unit vectors.
fn outline(cell: CellIndex) -> Vec<V3> {
    cell.boundary().iter().map(|v| unit(*v)).collect()
}

/// Distance (km) from a point outside `cell` to its hexagon (or pentagon).
fn distance_to_outline_km(p: V3, vertices: &[V3]) -> f64 {
    let n = vertices.len();
    (0..n)
        .map(|i| arc_distance(p, vertices[i], vertices[(i + 1) % n]))
        .fold(f64::INFINITY, f64::min)
        * EARTH_RADIUS_KM
}

fn circumradius_km(cell: CellIndex, vertices: &[V3]) -> f64 {
    let center = unit(LatLng::from(cell));
    vertices
        .iter()
        .map(|v| angle(center, *v))
        .fold(0.0, f64::max)
        * EARTH_RADIUS_KM
}

/// No item of `cell` (any res-15 descendant) is closer to `p` than this (km).
fn lower_bound_km(p: LatLng, pv: V3, cell: CellIndex) -> f64 {
    if p.to_cell(cell.resolution()) == cell {
        return 0.0;
    }
    let vertices = outline(cell);
    let d = distance_to_outline_km(pv, &vertices)
        - stray_factor(cell) * circumradius_km(cell, &vertices);
    // A millimetre for rounding between this and the haversine of the results.
    (d - 1e-6).max(0.0)
}

/// No item of `cell` is farther from `p` than this (km): the farthest point of a
/// small convex cell is a vertex.
fn upper_bound_km(pv: V3, cell: CellIndex) -> f64 {
    let vertices = outline(cell);
    let far = vertices.iter().map(|v| angle(pv, *v)).fold(0.0, f64::max) * EARTH_RADIUS_KM;
    far + stray_factor(cell) * circumradius_km(cell, &vertices) + 1e-6
}

/// The cells to read for target `t` (mixed resolutions), and the proven radius.
struct Cover {
    cells: Vec<CellIndex>,
    proven_km: f64,
}

/// Grows the cells of resolution `res` around `p` whose lower bound is under
/// `target_km` (see the module documentation), then `refine` times replaces each
/// cell that crosses the target circle by those of its children whose lower bound is
/// under the target (the children left out count towards the proven radius like the
/// frontier). `None` if growing takes more than `max_cells` (use a coarser
/// resolution).
fn cover(
    p: LatLng,
    res: Resolution,
    target_km: f64,
    refine: u8,
    max_cells: usize,
) -> Option<Cover> {
    let pv = unit(p);
    let start = p.to_cell(res);
    let mut seen: HashSet<CellIndex> = HashSet::from([start]);
    let mut cells = vec![start];
    let mut proven_km = f64::INFINITY;
    let mut i = 0;
    while i < cells.len() {
        let cell = cells[i];
        i += 1;
        for neighbour in cell.grid_disk_safe(1) {
            if !seen.insert(neighbour) {
                continue;
            }
            let lb = lower_bound_km(p, pv, neighbour);
            if lb < target_km {
                cells.push(neighbour);
                if cells.len() > max_cells {
                    return None;
                }
            } else {
                proven_km = proven_km.min(lb);
            }
        }
    }
    let mut crossing = cells;
    let mut whole = vec![];
    for _ in 0..refine {
        let mut next = vec![];
        for cell in crossing {
            let Some(child_res) = cell.resolution().succ() else {
                whole.push(cell);
                continue;
            };
            if upper_bound_km(pv, cell) <= target_km {
                whole.push(cell);
                continue;
            }
            for child in cell.children(child_res) {
                let lb = lower_bound_km(p, pv, child);
                if lb < target_km {
                    next.push(child);
                } else {
                    proven_km = proven_km.min(lb);
                }
            }
        }
        crossing = next;
    }
    whole.extend(crossing);
    Some(Cover {
        cells: whole,
        proven_km,
    })
}

/// The resolution (2..=15) whose average edge is nearest (by ratio) to
/// `target_km / cells_per_radius`.
fn resolution_for(target_km: f64, cells_per_radius: f64) -> Resolution {
    let want = (target_km / cells_per_radius).ln();
    let mut best = PARTITION_RES;
    for res in Resolution::range(PARTITION_RES, Resolution::Fifteen) {
        if (res.edge_length_km().ln() - want).abs() < (best.edge_length_km().ln() - want).abs() {
            best = res;
        }
    }
    best
}

/// What a search has read so far: per partition, the ranges read and how many items
/// each held.
#[derive(Default)]
struct ReadSet {
    ranges: HashMap<String, Vec<(u64, u64, usize)>>,
}

impl ReadSet {
    fn contains(&self, partition: &str, key: u64) -> bool {
        self.ranges
            .get(partition)
            .is_some_and(|rs| rs.iter().any(|(lo, hi, _)| (*lo..=*hi).contains(&key)))
    }

    /// The Query ranges for a set of cells: compacted (seven siblings become their
    /// parent, never above the partition resolution), minus what was read, merged.
    /// Where subtracting would split a range into pieces although the parts read
    /// held (almost) no item, the whole range is read again instead: fewer Queries
    /// for at most one item re-read per Query saved (re-read items are counted in
    /// `items_read` and dropped as duplicates).
    fn ranges_for(&self, cells: Vec<CellIndex>) -> Vec<Range> {
        let mut by_res: HashMap<Resolution, Vec<CellIndex>> = HashMap::new();
        for cell in cells {
            by_res.entry(cell.resolution()).or_default().push(cell);
        }
        let mut compacted = vec![];
        for (_, mut group) in by_res {
            if CellIndex::compact(&mut group).is_err() {
                // Cannot happen (one resolution, no duplicates); uncompacted is as good.
                group.sort_unstable();
                group.dedup();
            }
            compacted.extend(group);
        }
        let mut ranges = vec![];
        for cell in compacted {
            let pieces: Vec<CellIndex> = if cell.resolution() < PARTITION_RES {
                cell.children(PARTITION_RES).collect()
            } else {
                vec![cell]
            };
            for piece in pieces {
                let range = cell_range(piece);
                let Some(done) = self.ranges.get(&range.partition) else {
                    ranges.push(range);
                    continue;
                };
                let overlapping: Vec<&(u64, u64, usize)> = done
                    .iter()
                    .filter(|(lo, hi, _)| *hi >= range.lo && *lo <= range.hi)
                    .collect();
                let spans: Vec<(u64, u64)> =
                    overlapping.iter().map(|(lo, hi, _)| (*lo, *hi)).collect();
                let rest = subtract(&range, &spans);
                let held: usize = overlapping.iter().map(|(_, _, n)| *n).sum();
                if rest.len() > 1 && held < rest.len() {
                    ranges.push(range);
                } else {
                    ranges.extend(rest);
                }
            }
        }
        merge(ranges)
    }

    fn record(&mut self, ranges: &[Range], keys: &[(String, u64)]) {
        for r in ranges {
            let held = keys
                .iter()
                .filter(|(p, k)| *p == r.partition && (r.lo..=r.hi).contains(k))
                .count();
            self.ranges
                .entry(r.partition.clone())
                .or_default()
                .push((r.lo, r.hi, held));
        }
    }
}

/// A point on the Earth in degrees, named so that a latitude and a longitude cannot be
/// swapped unseen (a `(f64, f64)` pair can). Unlike `types::LatLng` it is not input:
/// it holds what the store and the domain already trust.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub lat: f64,
    pub lng: f64,
}

impl Point {
    pub const fn new(lat: f64, lng: f64) -> Point {
        Point { lat, lng }
    }

    /// Great-circle distance in km.
    pub fn km_to(self, other: Point) -> f64 {
        haversine_km(self.lat, self.lng, other.lat, other.lng)
    }
}

impl From<crate::types::LatLng> for Point {
    fn from(p: crate::types::LatLng) -> Point {
        Point::new(p.lat.get(), p.lng.get())
    }
}

/// What the search finds: an item at a point.
pub trait Located {
    fn point(&self) -> Point;
    /// The item's index keys `(geopk, geosk)`; stored items return what is stored.
    fn geo_keys(&self) -> (String, u64) {
        let p = self.point();
        keys_of(p.lat, p.lng)
    }
}

/// What one search cost, for the benchmark.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SearchStats {
    /// Query calls (one per range; a range never needs a second page in practice,
    /// and the store counts extra pages as Queries too).
    pub queries: usize,
    /// Items read from the index (an item read twice counts twice).
    pub items_read: usize,
    pub rounds: usize,
}

/// The `k` nearest items within `radius_km` of (`lat`, `lng`), nearest first, each
/// with its distance in km, searched with `params` (`SearchParams::default()`, or
/// other knobs to tune them). `fetch` reads the items of a batch of ranges (one
/// Query each; the store runs them concurrently).
pub async fn nearest<T, E, F, Fut>(
    params: SearchParams,
    lat: f64,
    lng: f64,
    k: usize,
    radius_km: f64,
    fetch: F,
) -> Result<(Vec<(T, f64)>, SearchStats), E>
where
    T: Located,
    F: FnMut(Vec<Range>) -> Fut,
    Fut: Future<Output = Result<Vec<T>, E>>,
{
    let (mut proven, stats) = nearest_proven(params, lat, lng, k, radius_km, fetch).await?;
    proven.items.truncate(k);
    Ok((proven.items, stats))
}

/// What [`nearest_proven`] proved: every item within `radius_km` (km) of the point,
/// nearest first, and no other item lies within it.
#[derive(Debug, Clone, PartialEq)]
pub struct Proven<T> {
    pub items: Vec<(T, f64)>,
    pub radius_km: f64,
}

/// The search of [`nearest`], stopped by the same rule, answering every item it
/// proved: at least the `k` nearest (or all within `radius_km`), plus any other item
/// read that lies as close as the radius the search proved. Nearest first (items at
/// the same distance in the order read).
pub async fn nearest_proven<T, E, F, Fut>(
    params: SearchParams,
    lat: f64,
    lng: f64,
    k: usize,
    radius_km: f64,
    mut fetch: F,
) -> Result<(Proven<T>, SearchStats), E>
where
    T: Located,
    F: FnMut(Vec<Range>) -> Fut,
    Fut: Future<Output = Result<Vec<T>, E>>,
{
    let p = point(lat, lng);
    let mut stats = SearchStats::default();
    let mut read = ReadSet::default();
    let mut found: Vec<(T, f64)> = vec![];
    if k == 0 || radius_km.is_nan() || radius_km <= 0.0 {
        let none = Proven {
            items: found,
            radius_km: 0.0,
        };
        return Ok((none, stats));
    }
    let mut target = params.first_target_km.min(radius_km);
    // Whether this round's target is the k-th distance seen (the round that proves
    // the answer): only then are cells on the circle split finer, which reads fewer
    // items past it at the price of more Queries.
    let mut proving = params.first_round_proves;
    let limit = loop {
        let refine = if proving { params.refine } else { 0 };
        let mut res = resolution_for(target, params.cells_per_radius);
        let cover = loop {
            // A few hundred cells at most: near pentagons and at high latitudes cells
            // are smaller than the average the resolution was picked by.
            match cover(p, res, target, refine, 600) {
                Some(c) => break c,
                None if res > PARTITION_RES => res = res.pred().expect("above resolution 2"),
                None => {
                    break cover(p, res, target, refine, usize::MAX).expect("unbounded cover");
                }
            }
        };
        let ranges = read.ranges_for(cover.cells);
        stats.rounds += 1;
        stats.queries += ranges.len();
        if !ranges.is_empty() {
            let items = fetch(ranges.clone()).await?;
            stats.items_read += items.len();
            let keyed: Vec<((String, u64), T)> =
                items.into_iter().map(|i| (i.geo_keys(), i)).collect();
            let mut keys = Vec::with_capacity(keyed.len());
            for ((partition, key), item) in keyed {
                if !read.contains(&partition, key) {
                    let at = item.point();
                    let d = haversine_km(lat, lng, at.lat, at.lng);
                    found.push((item, d));
                }
                keys.push((partition, key));
            }
            read.record(&ranges, &keys);
        }
        let proven = cover.proven_km;
        if proven >= radius_km {
            break radius_km;
        }
        let limit = proven.min(radius_km);
        if found.iter().filter(|(_, d)| *d <= limit).count() >= k {
            break limit;
        }
        let mut distances: Vec<f64> = found.iter().map(|(_, d)| *d).collect();
        distances.sort_by(f64::total_cmp);
        proving = distances.len() >= k;
        let next = if proving {
            // The k-th seen so far lies past the proven radius (else we would have
            // stopped): one more round covering it proves the answer.
            distances[k - 1]
        } else {
            // Predict the radius holding k from the density inside the proven disk.
            let inside = distances.iter().filter(|d| **d <= proven).count();
            let factor = if inside == 0 {
                params.empty_growth
            } else {
                ((k as f64 / inside as f64).sqrt() * params.margin).clamp(1.5, params.empty_growth)
            };
            proven * factor
        };
        // Always at least a little further than proven, so the search terminates.
        target = next.max(proven * 1.05 + 1e-3).min(radius_km);
    };
    // Past `limit` there may be unread items nearer than those read; within it the
    // search has read everything (and it holds the k nearest, or all within the
    // radius asked for).
    found.sort_by(|a, b| a.1.total_cmp(&b.1));
    found.truncate(found.partition_point(|(_, d)| *d <= limit));
    let proven = Proven {
        items: found,
        radius_km: limit,
    };
    Ok((proven, stats))
}

/// The index in memory, as DynamoDB holds it (partition → geosk → items): the same
/// search without a database, for the property tests and the `geo_tune` tool.
pub struct MemoryIndex<T> {
    partitions: BTreeMap<String, BTreeMap<u64, Vec<T>>>,
}

impl<T: Located + Clone> MemoryIndex<T> {
    pub fn new(items: impl IntoIterator<Item = T>) -> Self {
        let mut partitions: BTreeMap<String, BTreeMap<u64, Vec<T>>> = BTreeMap::new();
        for item in items {
            let (pk, sk) = item.geo_keys();
            partitions
                .entry(pk)
                .or_default()
                .entry(sk)
                .or_default()
                .push(item);
        }
        MemoryIndex { partitions }
    }

    /// [`nearest`] over this index.
    pub fn nearest(
        &self,
        params: SearchParams,
        lat: f64,
        lng: f64,
        k: usize,
        radius_km: f64,
    ) -> (Vec<(T, f64)>, SearchStats) {
        let fetch =
            |ranges: Vec<Range>| std::future::ready(Ok::<_, Infallible>(self.read(&ranges)));
        match futures::executor::block_on(nearest(params, lat, lng, k, radius_km, fetch)) {
            Ok(found) => found,
            Err(never) => match never {},
        }
    }

    /// The items of some ranges, as the Queries of a search's round read them.
    pub fn read(&self, ranges: &[Range]) -> Vec<T> {
        let mut out = vec![];
        for r in ranges {
            if let Some(part) = self.partitions.get(&r.partition) {
                for items in part.range(r.lo..=r.hi).map(|(_, v)| v) {
                    out.extend(items.iter().cloned());
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[derive(Debug, Clone, PartialEq)]
    struct P {
        id: usize,
        lat: f64,
        lng: f64,
    }

    impl Located for P {
        fn point(&self) -> Point {
            Point::new(self.lat, self.lng)
        }
    }

    fn search(
        points: &[P],
        lat: f64,
        lng: f64,
        k: usize,
        radius: f64,
    ) -> (Vec<(P, f64)>, SearchStats) {
        MemoryIndex::new(points.iter().cloned()).nearest(
            SearchParams::default(),
            lat,
            lng,
            k,
            radius,
        )
    }

    /// The distances the in-memory k-d tree ([`points::PointIndex`]) finds: every test
    /// that checks the H3 search against brute force checks it too.
    fn tree(points: &[P], lat: f64, lng: f64, k: usize, radius: f64) -> Vec<f64> {
        points::PointIndex::new(points.iter().map(|p| (p.lat, p.lng)).collect())
            .nearest(lat, lng, k, radius)
            .into_iter()
            .map(|(_, d)| d)
            .collect()
    }

    fn brute(points: &[P], lat: f64, lng: f64, k: usize, radius: f64) -> Vec<f64> {
        let mut d: Vec<f64> = points
            .iter()
            .map(|p| haversine_km(lat, lng, p.lat, p.lng))
            .filter(|d| *d <= radius)
            .collect();
        d.sort_by(f64::total_cmp);
        d.truncate(k);
        d
    }

    fn distances(got: &[(P, f64)]) -> Vec<f64> {
        got.iter().map(|g| g.1).collect()
    }

    #[test]
    fn haversine_knows_some_distances() {
        assert!((haversine_km(0.0, 0.0, 0.0, 1.0) - 111.195).abs() < 0.01);
        assert!((haversine_km(0.0, 179.5, 0.0, -179.5) - 111.195).abs() < 0.01);
        assert_eq!(haversine_km(30.0, 74.0, 30.0, 74.0), 0.0);
    }

    #[test]
    fn arc_distance_is_exact_on_simple_cases() {
        let u = |lat: f64, lng: f64| unit(point(lat, lng));
        let km = |r: f64| r * EARTH_RADIUS_KM;
        // Along the equator from lng 0 to 2: a point 1 degree north of lng 1.
        let d = km(arc_distance(u(1.0, 1.0), u(0.0, 0.0), u(0.0, 2.0)));
        assert!((d - haversine_km(1.0, 1.0, 0.0, 1.0)).abs() < 1e-6, "{d}");
        // Beyond the end: the distance to the end point.
        let d = km(arc_distance(u(0.0, 3.0), u(0.0, 0.0), u(0.0, 2.0)));
        assert!((d - haversine_km(0.0, 3.0, 0.0, 2.0)).abs() < 1e-6, "{d}");
        // Across the antimeridian.
        let d = km(arc_distance(u(0.5, 180.0), u(0.0, 179.0), u(0.0, -179.0)));
        assert!(
            (d - haversine_km(0.5, 180.0, 0.0, 180.0)).abs() < 1e-6,
            "{d}"
        );
        // On the arc.
        assert!(arc_distance(u(0.0, 1.0), u(0.0, 0.0), u(0.0, 2.0)) < 1e-12);
    }

    #[test]
    fn a_cell_range_holds_exactly_its_descendants() {
        let p = point(30.67, 74.33);
        let leaf = u64::from(p.to_cell(Resolution::Fifteen));
        for res in 2..=15u8 {
            // H3 is not geometrically nested: the range holds the *descendants*.
            let cell = p
                .to_cell(Resolution::Fifteen)
                .parent(Resolution::try_from(res).unwrap())
                .unwrap();
            let r = cell_range(cell);
            assert!(r.lo <= leaf && leaf <= r.hi, "res {res}");
            let first = cell.children(Resolution::Fifteen).next().unwrap();
            assert_eq!(u64::from(first), r.lo, "res {res}: lo is the first leaf");
            if res >= 9 {
                let all: Vec<u64> = cell.children(Resolution::Fifteen).map(u64::from).collect();
                assert_eq!(*all.last().unwrap(), r.hi, "res {res}: hi is the last leaf");
                assert!(all.iter().all(|l| (r.lo..=r.hi).contains(l)));
            }
            for neighbour in cell.grid_disk::<Vec<_>>(1) {
                if neighbour == cell {
                    continue;
                }
                let n = cell_range(neighbour);
                let nleaf = u64::from(neighbour.center_child(Resolution::Fifteen).unwrap());
                assert!(n.lo <= nleaf && nleaf <= n.hi);
                if n.partition == r.partition {
                    assert!(
                        n.hi < r.lo || n.lo > r.hi,
                        "neighbours overlap at res {res}"
                    );
                }
            }
        }
    }

    #[test]
    fn no_cell_number_lies_between_consecutive_siblings() {
        let cell = point(-33.9, 151.2).to_cell(Resolution::Seven);
        let kids: Vec<CellIndex> = cell.children(Resolution::Eight).collect();
        for pair in kids.windows(2) {
            let (a, b) = (cell_range(pair[0]), cell_range(pair[1]));
            assert_eq!(leaf_at_or_after(a.hi + 1), Some(b.lo));
        }
        assert_eq!(
            merge(kids.iter().map(|c| cell_range(*c)).collect()),
            vec![cell_range(cell)]
        );
        // A leaf is its own ceiling; a gap with a digit 7 rounds up to the next leaf.
        let leaf = u64::from(point(1.0, 2.0).to_cell(Resolution::Fifteen));
        assert_eq!(leaf_at_or_after(leaf), Some(leaf));
        let next = leaf_at_or_after(leaf | 7).unwrap();
        assert!(next > leaf);
        assert!(CellIndex::try_from(next).is_ok() || next & 0o7 == 0);
    }

    #[test]
    fn subtraction_leaves_the_gaps() {
        let r = Range {
            partition: "a".into(),
            lo: 0,
            hi: 100,
        };
        let got: Vec<(u64, u64)> = subtract(&r, &[(10, 20), (90, 100)])
            .iter()
            .map(|r| (r.lo, r.hi))
            .collect();
        assert_eq!(got, vec![(0, 9), (21, 89)]);
    }

    fn rng(seed: u64) -> impl FnMut() -> f64 {
        let mut s = seed.max(1);
        move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    fn stray_km(parent: CellIndex, vertices_of_parent: &[V3], child: CellIndex) -> f64 {
        child
            .boundary()
            .iter()
            .map(|v| {
                if v.to_cell(parent.resolution()) == parent {
                    0.0
                } else {
                    distance_to_outline_km(unit(*v), vertices_of_parent)
                }
            })
            .fold(0.0, f64::max)
    }

    /// The facts behind [`STRAY`] and [`STRAY_PENTAGON`], over random cells of every
    /// resolution and every pentagon neighbourhood of a few resolutions; plus, for a
    /// sample, the actual worst stray of deep descendants found by branch and bound.
    #[test]
    fn a_cell_strays_little() {
        let mut next = rng(99);
        let mut cells = vec![];
        for res in 2..=14u8 {
            for _ in 0..12 {
                let lat = (2.0 * next() - 1.0).asin().to_degrees();
                let lng = 360.0 * next() - 180.0;
                cells.push(point(lat, lng).to_cell(Resolution::try_from(res).unwrap()));
            }
        }
        for res in [2u8, 3, 7, 12, 14] {
            for p in Resolution::try_from(res).unwrap().pentagons() {
                cells.extend(p.grid_disk::<Vec<_>>(1));
            }
        }
        // Worst child stick-out / circumradius, and child / parent circumradius:
        // [hexagon parent, pentagon parent]; shrink of a pentagon to its hexagon
        // children and to its pentagon child apart.
        let (mut stick, mut shrink) = ([0.0f64; 2], 0.0f64);
        let (mut pent_to_hex, mut pent_to_pent) = (0.0f64, 0.0f64);
        for cell in &cells {
            let vertices = outline(*cell);
            let radius = circumradius_km(*cell, &vertices);
            let child_res = cell.resolution().succ().unwrap();
            let pent = usize::from(cell.is_pentagon());
            for child in cell.children(child_res) {
                stick[pent] = stick[pent].max(stray_km(*cell, &vertices, child) / radius);
                let ratio = circumradius_km(child, &outline(child)) / radius;
                match (cell.is_pentagon(), child.is_pentagon()) {
                    (false, _) => shrink = shrink.max(ratio),
                    (true, false) => pent_to_hex = pent_to_hex.max(ratio),
                    (true, true) => pent_to_pent = pent_to_pent.max(ratio),
                }
            }
        }
        assert!(
            stick[0] <= 0.13 && stick[1] <= 0.13,
            "children stick out {stick:?}"
        );
        assert!(shrink <= 0.4, "children shrink only {shrink}");
        // Hexagons: each level adds at most 0.13 of a circumradius 2.5 times smaller.
        const { assert!(0.13 / (1.0 - 0.4) < STRAY) };
        // Pentagons: their children are one pentagon and hexagons (whose descendants
        // stray by STRAY of their own, smaller, circumradius).
        assert!(
            pent_to_hex <= 0.48 && pent_to_pent <= 0.41,
            "{pent_to_hex} {pent_to_pent}"
        );
        const {
            let (hex, pent) = (STRAY * 0.48, STRAY_PENTAGON * 0.41);
            assert!(0.13 + if hex > pent { hex } else { pent } <= STRAY_PENTAGON)
        };

        // Deep descendants (5 levels down): the real worst is about 0.15.
        for cell in cells.iter().step_by(9) {
            let vertices = outline(*cell);
            let radius = circumradius_km(*cell, &vertices);
            let last = u8::from(cell.resolution()).saturating_add(5).min(15);
            let mut best = 0.0f64;
            let mut stack = vec![*cell];
            while let Some(d) = stack.pop() {
                let s = stray_km(*cell, &vertices, d);
                if u8::from(d.resolution()) == last {
                    best = best.max(s);
                    continue;
                }
                if s + circumradius_km(d, &outline(d)) <= best {
                    continue;
                }
                best = best.max(s);
                stack.extend(d.children(d.resolution().succ().unwrap()));
            }
            assert!(
                best / radius < stray_factor(*cell),
                "{cell}: {}",
                best / radius
            );
        }
    }

    #[test]
    fn finds_the_nearest_in_a_city_and_reads_few_items() {
        let mut points = vec![];
        for i in 0..2000 {
            let a = i as f64 * 0.7;
            let r = (i as f64).sqrt() * 0.004;
            points.push(P {
                id: i,
                lat: 30.67 + r * a.sin(),
                lng: 74.33 + r * a.cos(),
            });
        }
        let (got, stats) = search(&points, 30.67, 74.33, 10, 100.0);
        let want = brute(&points, 30.67, 74.33, 10, 100.0);
        assert_eq!(distances(&got), want);
        assert_eq!(tree(&points, 30.67, 74.33, 10, 100.0), want);
        assert!(stats.items_read < 60, "{stats:?}");
    }

    #[test]
    fn respects_the_radius_and_handles_nothing_near() {
        let points = vec![
            P {
                id: 1,
                lat: 10.0,
                lng: 10.0,
            },
            P {
                id: 2,
                lat: 10.5,
                lng: 10.0,
            },
        ];
        let (got, _) = search(&points, 10.0, 10.2, 10, 40.0);
        assert_eq!(got.len(), 1);
        let (got, stats) = search(&points, -40.0, -70.0, 10, 500.0);
        assert!(got.is_empty());
        assert_eq!(stats.items_read, 0);
        let (got, _) = search(&points, 10.0, 10.0, 0, 100.0);
        assert!(got.is_empty());
    }

    #[test]
    fn the_poles_and_the_antimeridian() {
        let points = vec![
            P {
                id: 1,
                lat: 89.99,
                lng: 0.0,
            },
            P {
                id: 2,
                lat: 89.99,
                lng: 180.0,
            },
            P {
                id: 3,
                lat: -89.0,
                lng: 45.0,
            },
            P {
                id: 4,
                lat: 0.0,
                lng: -179.99,
            },
            P {
                id: 5,
                lat: 0.0,
                lng: 179.99,
            },
        ];
        for (lat, lng) in [(90.0, 0.0), (-90.0, 0.0), (0.0, 180.0), (0.0, -180.0)] {
            let (got, _) = search(&points, lat, lng, 2, 500.0);
            let want = brute(&points, lat, lng, 2, 500.0);
            assert_eq!(distances(&got), want, "{lat},{lng}");
            assert_eq!(tree(&points, lat, lng, 2, 500.0), want, "{lat},{lng}");
            assert!(!got.is_empty());
        }
    }

    /// Points where the stray fringe matters: right on cell edges and vertices of
    /// several resolutions around the query point.
    #[test]
    fn items_on_cell_outlines_are_found() {
        for (lat, lng) in [(30.67, 74.33), (64.1, -21.9), (-0.01, 179.99), (84.0, 60.0)] {
            let mut points = vec![];
            for res in [8u8, 9, 10, 11, 12] {
                let center = point(lat, lng).to_cell(Resolution::try_from(res).unwrap());
                for cell in center.grid_disk::<Vec<_>>(3) {
                    for v in cell.boundary().iter() {
                        points.push(P {
                            id: points.len(),
                            lat: v.lat(),
                            lng: v.lng(),
                        });
                    }
                }
            }
            for k in [1, 5, 10, 40] {
                let (got, _) = search(&points, lat, lng, k, 100.0);
                let want = brute(&points, lat, lng, k, 100.0);
                assert_eq!(distances(&got), want, "{lat},{lng} k {k}");
                assert_eq!(tree(&points, lat, lng, k, 100.0), want, "{lat},{lng} k {k}");
            }
        }
    }

    fn make_points(
        center_lat: f64,
        center_lng: f64,
        spread: f64,
        offsets: &[(f64, f64)],
    ) -> Vec<P> {
        offsets
            .iter()
            .enumerate()
            .map(|(id, (a, b))| P {
                id,
                lat: (center_lat + a * spread).clamp(-90.0, 90.0),
                lng: wrap_longitude(center_lng + b * spread),
            })
            .collect()
    }

    fn offsets() -> impl Strategy<Value = Vec<(f64, f64)>> {
        prop::collection::vec((-1.0f64..1.0, -1.0f64..1.0), 0..200)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn equals_brute_force_anywhere(
            (clat, clng) in (-85.0f64..85.0, -180.0f64..180.0),
            spread in prop_oneof![0.001f64..0.05, 0.05f64..3.0],
            offs in offsets(),
            k in 1usize..30,
            radius in prop_oneof![0.5f64..20.0, 20.0f64..500.0],
        ) {
            let points = make_points(clat, clng, spread, &offs);
            let (got, _) = search(&points, clat, clng, k, radius);
            let want = brute(&points, clat, clng, k, radius);
            prop_assert_eq!(distances(&got), want.clone());
            prop_assert_eq!(tree(&points, clat, clng, k, radius), want);
        }

        #[test]
        fn equals_brute_force_across_the_antimeridian_and_near_the_poles(
            (clat, clng, spread) in prop_oneof![
                Just((0.0, 179.9, 1.5)),
                Just((0.0, -180.0, 0.02)),
                Just((86.0, 0.0, 3.0)),
                Just((89.5, 120.0, 0.8)),
                Just((-85.0, -179.5, 2.0)),
                Just((-89.9, 10.0, 0.3)),
            ],
            offs in offsets(),
            (qlat_off, qlng_off) in (-1.0f64..1.0, -1.0f64..1.0),
            k in 1usize..15,
            radius in prop_oneof![Just(500.0), 1.0f64..200.0],
        ) {
            let points = make_points(clat, clng, spread, &offs);
            let lat = (clat + qlat_off * spread).clamp(-90.0, 90.0);
            let lng = wrap_longitude(clng + qlng_off * spread);
            let (got, _) = search(&points, lat, lng, k, radius);
            let want = brute(&points, lat, lng, k, radius);
            prop_assert_eq!(distances(&got), want.clone());
            prop_assert_eq!(tree(&points, lat, lng, k, radius), want);
        }
    }
}
