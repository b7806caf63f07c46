//! The geo index: k nearest hospitals from DynamoDB without reading them all.
//!
//! Each hospital stores `geopk = G2#<its res-2 H3 cell>` and `geosk = <its res-15 H3
//! cell as a number>`. In H3's bit layout the res-15 descendants of any cell form one
//! contiguous number range, so one Query (`geopk = p AND geosk BETWEEN lo AND hi`)
//! reads exactly one cell, at any resolution from 2 to 15.
//!
//! The search reads disks of cells around the point, fine to coarse, never reading
//! an item twice, and stops as soon as the k-th result is provably the k-th nearest:
//! everything not yet read lies farther than a lower bound computed from the
//! vertices of the cells just outside the disk read.

use std::future::Future;

use h3o::{CellIndex, LatLng, Resolution};

pub const EARTH_RADIUS_KM: f64 = 6371.0088;
/// Hospitals are partitioned by their res-2 cell (~86 000 km² each).
pub const PARTITION_RES: Resolution = Resolution::Two;

/// Great-circle distance in km.
pub fn haversine_km(lat1: f64, lng1: f64, lat2: f64, lng2: f64) -> f64 {
    let (p1, p2) = (lat1.to_radians(), lat2.to_radians());
    let dp = p2 - p1;
    let dl = (lng2 - lng1).to_radians();
    let a = (dp / 2.0).sin().powi(2) + p1.cos() * p2.cos() * (dl / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_KM * a.sqrt().min(1.0).asin()
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
    format!("G2#{parent}")
}

/// One Query's worth of the index: the items of `partition` with `lo <= geosk <= hi`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Range {
    pub partition: String,
    pub lo: u64,
    pub hi: u64,
}

/// The range of res-15 cell numbers inside `cell` (resolution 2..=15).
pub fn cell_range(cell: CellIndex) -> Range {
    let res = u8::from(cell.resolution()) as u32;
    let raw = u64::from(cell);
    let free_bits = (15 - res) * 3; // digits res+1..=15, 3 bits each, lowest bits
    let res_mask: u64 = 0xF << 52;
    let base = (raw & !res_mask & !((1u64 << free_bits) - 1)) | (15u64 << 52);
    let sixes = (0..(15 - res)).fold(0u64, |acc, i| acc | (6u64 << (i * 3)));
    Range {
        partition: partition_of(cell),
        lo: base,
        hi: base | sixes,
    }
}

/// `range` minus the parts already read (ranges of one partition nest or are disjoint,
/// but plain interval subtraction is correct either way).
fn subtract(range: &Range, read: &[Range]) -> Vec<Range> {
    let mut pieces = vec![(range.lo, range.hi)];
    for r in read.iter().filter(|r| r.partition == range.partition) {
        pieces = pieces
            .into_iter()
            .flat_map(|(lo, hi)| {
                if r.hi < lo || r.lo > hi {
                    return vec![(lo, hi)];
                }
                let mut out = vec![];
                if r.lo > lo {
                    out.push((lo, r.lo - 1));
                }
                if r.hi < hi {
                    out.push((r.hi + 1, hi));
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

/// Anything outside `disk(center, k)` is at least this far from `p` (km): the
/// boundary of the disk runs along the cells of ring k+1, and any point of an edge
/// lies within half the edge's length of one of its vertices. H3 is not exactly
/// nested, so a Query for a cell reads its res-15 *descendants*, whose footprint
/// strays past the cell's outline by less than the sum of the finer cells' radii
/// (≤ 1.62 × the next resolution's edge, i.e. < 0.62 × this edge); the bound takes
/// 1.3 edges off, with margin.
fn covered_radius_km(p: LatLng, center: CellIndex, k: u32) -> f64 {
    let mut min_vertex = f64::INFINITY;
    let mut max_edge: f64 = 0.0;
    let ring: Vec<(CellIndex, u32)> = center.grid_disk_distances(k + 1);
    for (cell, d) in ring {
        if d != k + 1 {
            continue;
        }
        let vertices: Vec<LatLng> = cell.boundary().iter().copied().collect();
        for (i, v) in vertices.iter().enumerate() {
            min_vertex = min_vertex.min(haversine_km(p.lat(), p.lng(), v.lat(), v.lng()));
            let w = vertices[(i + 1) % vertices.len()];
            max_edge = max_edge.max(haversine_km(v.lat(), v.lng(), w.lat(), w.lng()));
        }
    }
    (min_vertex - 1.3 * max_edge).max(0.0)
}

/// Rounds of the search: (resolution, ring radius). Fine first, so dense cities stop
/// early with few items read; coarser rounds cover sparse country quickly.
fn schedule() -> Vec<(Resolution, u32)> {
    let mut rounds = vec![];
    for res in [
        Resolution::Nine,
        Resolution::Eight,
        Resolution::Seven,
        Resolution::Six,
        Resolution::Five,
        Resolution::Four,
        Resolution::Three,
    ] {
        rounds.push((res, 1));
        rounds.push((res, 2));
    }
    for k in 1..=8 {
        rounds.push((Resolution::Two, k));
    }
    rounds
}

pub trait Located {
    fn latitude(&self) -> f64;
    fn longitude(&self) -> f64;
}

/// What one search cost, for the benchmark.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SearchStats {
    pub queries: usize,
    pub items_read: usize,
    pub rounds: usize,
}

/// The `k` nearest items within `radius_km` of (`lat`, `lng`), nearest first, each
/// with its distance in km. `fetch` reads the items of a batch of ranges (one Query
/// each; they may run concurrently).
pub async fn nearest<T, E, F, Fut>(
    lat: f64,
    lng: f64,
    k: usize,
    radius_km: f64,
    mut fetch: F,
) -> Result<(Vec<(T, f64)>, SearchStats), E>
where
    T: Located,
    F: FnMut(Vec<Range>) -> Fut,
    Fut: Future<Output = Result<Vec<T>, E>>,
{
    let p = point(lat, lng);
    let mut stats = SearchStats::default();
    let mut read: Vec<Range> = vec![];
    let mut found: Vec<(T, f64)> = vec![];
    if k == 0 {
        return Ok((found, stats));
    }
    for (res, ring) in schedule() {
        let center = p.to_cell(res);
        let cells: Vec<CellIndex> = center.grid_disk(ring);
        let mut todo = vec![];
        for cell in cells {
            for piece in subtract(&cell_range(cell), &read) {
                todo.push(piece);
            }
        }
        stats.rounds += 1;
        stats.queries += todo.len();
        if !todo.is_empty() {
            let items = fetch(todo.clone()).await?;
            stats.items_read += items.len();
            found.extend(items.into_iter().map(|item| {
                let d = haversine_km(lat, lng, item.latitude(), item.longitude());
                (item, d)
            }));
            read.extend(todo);
        }
        let covered = covered_radius_km(p, center, ring);
        let limit = covered.min(radius_km);
        let proven = found.iter().filter(|(_, d)| *d <= limit).count();
        if proven >= k || covered >= radius_km {
            break;
        }
    }
    found.retain(|(_, d)| *d <= radius_km);
    found.sort_by(|a, b| a.1.total_cmp(&b.1));
    found.truncate(k);
    Ok((found, stats))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    #[derive(Debug, Clone, PartialEq)]
    struct P {
        id: usize,
        lat: f64,
        lng: f64,
    }

    impl Located for P {
        fn latitude(&self) -> f64 {
            self.lat
        }
        fn longitude(&self) -> f64 {
            self.lng
        }
    }

    /// The index as DynamoDB holds it, in memory: partition -> geosk -> items.
    fn index(points: &[P]) -> BTreeMap<String, BTreeMap<u64, Vec<P>>> {
        let mut idx: BTreeMap<String, BTreeMap<u64, Vec<P>>> = BTreeMap::new();
        for p in points {
            let (pk, sk) = keys_of(p.lat, p.lng);
            idx.entry(pk)
                .or_default()
                .entry(sk)
                .or_default()
                .push(p.clone());
        }
        idx
    }

    fn search(
        points: &[P],
        lat: f64,
        lng: f64,
        k: usize,
        radius: f64,
    ) -> (Vec<(P, f64)>, SearchStats) {
        let idx = index(points);
        let fetch = |ranges: Vec<Range>| {
            let mut out = vec![];
            for r in &ranges {
                if let Some(part) = idx.get(&r.partition) {
                    for items in part.range(r.lo..=r.hi).map(|(_, v)| v) {
                        out.extend(items.iter().cloned());
                    }
                }
            }
            async move { Ok::<_, ()>(out) }
        };
        futures::executor::block_on(nearest(lat, lng, k, radius, fetch)).unwrap()
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

    #[test]
    fn haversine_knows_some_distances() {
        assert!((haversine_km(0.0, 0.0, 0.0, 1.0) - 111.195).abs() < 0.01);
        assert!((haversine_km(0.0, 179.5, 0.0, -179.5) - 111.195).abs() < 0.01);
        assert_eq!(haversine_km(30.0, 74.0, 30.0, 74.0), 0.0);
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
    fn subtraction_leaves_the_gaps() {
        let r = Range {
            partition: "a".into(),
            lo: 0,
            hi: 100,
        };
        let read = vec![
            Range {
                partition: "a".into(),
                lo: 10,
                hi: 20,
            },
            Range {
                partition: "b".into(),
                lo: 0,
                hi: 100,
            },
            Range {
                partition: "a".into(),
                lo: 90,
                hi: 100,
            },
        ];
        let got: Vec<(u64, u64)> = subtract(&r, &read).iter().map(|r| (r.lo, r.hi)).collect();
        assert_eq!(got, vec![(0, 9), (21, 89)]);
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
        assert_eq!(got.iter().map(|g| g.1).collect::<Vec<_>>(), want);
        assert!(stats.items_read < 200, "{stats:?}");
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
        let (got, stats) = search(&points, -40.0, -70.0, 10, 100.0);
        assert!(got.is_empty());
        assert_eq!(stats.items_read, 0);
    }

    fn wrap(lng: f64) -> f64 {
        if lng > 180.0 {
            lng - 360.0
        } else if lng < -180.0 {
            lng + 360.0
        } else {
            lng
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
                lat: (center_lat + a * spread).clamp(-89.9, 89.9),
                lng: wrap(center_lng + b * spread),
            })
            .collect()
    }

    fn offsets() -> impl Strategy<Value = Vec<(f64, f64)>> {
        prop::collection::vec((-1.0f64..1.0, -1.0f64..1.0), 0..150)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn equals_brute_force_anywhere(
            (clat, clng) in (-80.0f64..80.0, -180.0f64..180.0),
            spread in 0.01f64..3.0,
            offs in offsets(),
            k in 1usize..20,
            radius in 5.0f64..500.0,
        ) {
            let points = make_points(clat, clng, spread, &offs);
            let (got, _) = search(&points, clat, clng, k, radius);
            prop_assert_eq!(got.iter().map(|g| g.1).collect::<Vec<_>>(), brute(&points, clat, clng, k, radius));
        }

        #[test]
        fn equals_brute_force_across_the_antimeridian_and_near_the_poles(
            (clat, clng, spread) in prop_oneof![Just((0.0, 179.9, 1.5)), Just((86.0, 0.0, 3.0)), Just((-85.0, -179.5, 2.0))],
            offs in offsets(),
            (qlat_off, qlng_off) in (-1.0f64..1.0, -1.0f64..1.0),
            k in 1usize..15,
        ) {
            let points = make_points(clat, clng, spread, &offs);
            let lat = (clat + qlat_off).clamp(-89.9, 89.9);
            let lng = wrap(clng + qlng_off);
            let (got, _) = search(&points, lat, lng, k, 500.0);
            prop_assert_eq!(got.iter().map(|g| g.1).collect::<Vec<_>>(), brute(&points, lat, lng, k, 500.0));
        }
    }
}
