//! The k nearest items of an H3 index read by Queries, exactly, without reading them
//! all: the free ambulances' `freegeo` (the one-tap emergency, the dispatcher's
//! reassign) and the hospitals' `geo` (the crew's alternative to a diverted
//! destination).
//!
//! Each item is indexed by its res-2 H3 cell (the partition) and its res-15 cell as
//! a number (the sort key). In H3's bit layout the res-15 descendants of any cell form
//! one contiguous number range ([`cell_range`]), so one Query (`pk = p AND sk BETWEEN
//! lo AND hi`) reads exactly one cell, at any resolution from 2 to 15.
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

use std::{
    collections::{HashMap, HashSet},
    future::Future,
};

use h3o::{CellIndex, LatLng, Resolution};

use super::{
    Point,
    bounds::{lower_bound_km, unit, upper_bound_km},
    cells::{PARTITION_RES, Range, cell_range, keys_of, merge, subtract},
    haversine_km,
};

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

/// What the search finds: an item at a point.
pub trait Located {
    fn point(&self) -> Point;
    /// The item's keys in the search's terms ([`keys_of`]: its partition's res-2
    /// cell, its res-15 cell number); stored items return what is stored.
    fn geo_keys(&self) -> (String, u64) {
        keys_of(self.point())
    }
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

/// The `k` nearest items within `radius_km` of `at`, nearest first, each
/// with its distance in km, searched with `params` (`SearchParams::default()`, or
/// other knobs to tune them). `fetch` reads the items of a batch of ranges (one
/// Query each; the store runs them concurrently).
pub async fn nearest<T, E, F, Fut>(
    params: SearchParams,
    at: Point,
    k: usize,
    radius_km: f64,
    fetch: F,
) -> Result<(Vec<(T, f64)>, SearchStats), E>
where
    T: Located,
    F: FnMut(Vec<Range>) -> Fut,
    Fut: Future<Output = Result<Vec<T>, E>>,
{
    let (mut proven, stats) = nearest_proven(params, at, k, radius_km, fetch).await?;
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
    at: Point,
    k: usize,
    radius_km: f64,
    mut fetch: F,
) -> Result<(Proven<T>, SearchStats), E>
where
    T: Located,
    F: FnMut(Vec<Range>) -> Fut,
    Fut: Future<Output = Result<Vec<T>, E>>,
{
    let p = at.h3();
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
                    let d = haversine_km(at, item.point());
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geo::{MemoryIndex, points, wrap_longitude};
    use proptest::prelude::*;

    #[derive(Debug, Clone, PartialEq)]
    struct P {
        id: usize,
        at: Point,
    }

    impl Located for P {
        fn point(&self) -> Point {
            self.at
        }
    }

    fn search(points: &[P], at: Point, k: usize, radius: f64) -> (Vec<(P, f64)>, SearchStats) {
        MemoryIndex::new(points.iter().cloned()).nearest(SearchParams::default(), at, k, radius)
    }

    /// The distances the in-memory k-d tree ([`points::PointIndex`]) finds: every test
    /// that checks the H3 search against brute force checks it too.
    fn tree(points: &[P], at: Point, k: usize, radius: f64) -> Vec<f64> {
        points::PointIndex::new(points.iter().map(|p| p.at).collect())
            .nearest(at, k, radius)
            .into_iter()
            .map(|(_, d)| d)
            .collect()
    }

    fn brute(points: &[P], at: Point, k: usize, radius: f64) -> Vec<f64> {
        let mut d: Vec<f64> = points
            .iter()
            .map(|p| haversine_km(at, p.at))
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
    fn finds_the_nearest_in_a_city_and_reads_few_items() {
        let mut points = vec![];
        for i in 0..2000 {
            let a = i as f64 * 0.7;
            let r = (i as f64).sqrt() * 0.004;
            points.push(P {
                id: i,
                at: Point::new(30.67 + r * a.sin(), 74.33 + r * a.cos()),
            });
        }
        let (got, stats) = search(&points, Point::new(30.67, 74.33), 10, 100.0);
        let want = brute(&points, Point::new(30.67, 74.33), 10, 100.0);
        assert_eq!(distances(&got), want);
        assert_eq!(tree(&points, Point::new(30.67, 74.33), 10, 100.0), want);
        assert!(stats.items_read < 60, "{stats:?}");
    }

    #[test]
    fn respects_the_radius_and_handles_nothing_near() {
        let points = vec![
            P {
                id: 1,
                at: Point::new(10.0, 10.0),
            },
            P {
                id: 2,
                at: Point::new(10.5, 10.0),
            },
        ];
        let (got, _) = search(&points, Point::new(10.0, 10.2), 10, 40.0);
        assert_eq!(got.len(), 1);
        let (got, stats) = search(&points, Point::new(-40.0, -70.0), 10, 500.0);
        assert!(got.is_empty());
        assert_eq!(stats.items_read, 0);
        let (got, _) = search(&points, Point::new(10.0, 10.0), 0, 100.0);
        assert!(got.is_empty());
    }

    #[test]
    fn the_poles_and_the_antimeridian() {
        let points = vec![
            P {
                id: 1,
                at: Point::new(89.99, 0.0),
            },
            P {
                id: 2,
                at: Point::new(89.99, 180.0),
            },
            P {
                id: 3,
                at: Point::new(-89.0, 45.0),
            },
            P {
                id: 4,
                at: Point::new(0.0, -179.99),
            },
            P {
                id: 5,
                at: Point::new(0.0, 179.99),
            },
        ];
        for (lat, lng) in [(90.0, 0.0), (-90.0, 0.0), (0.0, 180.0), (0.0, -180.0)] {
            let (got, _) = search(&points, Point::new(lat, lng), 2, 500.0);
            let want = brute(&points, Point::new(lat, lng), 2, 500.0);
            assert_eq!(distances(&got), want, "{lat},{lng}");
            assert_eq!(
                tree(&points, Point::new(lat, lng), 2, 500.0),
                want,
                "{lat},{lng}"
            );
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
                let center = Point::new(lat, lng)
                    .h3()
                    .to_cell(Resolution::try_from(res).unwrap());
                for cell in center.grid_disk::<Vec<_>>(3) {
                    for v in cell.boundary().iter() {
                        points.push(P {
                            id: points.len(),
                            at: Point::new(v.lat(), v.lng()),
                        });
                    }
                }
            }
            for k in [1, 5, 10, 40] {
                let (got, _) = search(&points, Point::new(lat, lng), k, 100.0);
                let want = brute(&points, Point::new(lat, lng), k, 100.0);
                assert_eq!(distances(&got), want, "{lat},{lng} k {k}");
                assert_eq!(
                    tree(&points, Point::new(lat, lng), k, 100.0),
                    want,
                    "{lat},{lng} k {k}"
                );
            }
        }
    }

    fn make_points(center: Point, spread: f64, offsets: &[(f64, f64)]) -> Vec<P> {
        offsets
            .iter()
            .enumerate()
            .map(|(id, (a, b))| P {
                id,
                at: Point::new(
                    (center.lat + a * spread).clamp(-90.0, 90.0),
                    wrap_longitude(center.lng + b * spread),
                ),
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
            let points = make_points(Point::new(clat, clng), spread, &offs);
            let (got, _) = search(&points, Point::new(clat, clng), k, radius);
            let want = brute(&points, Point::new(clat, clng), k, radius);
            prop_assert_eq!(distances(&got), want.clone());
            prop_assert_eq!(tree(&points, Point::new(clat, clng), k, radius), want);
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
            let points = make_points(Point::new(clat, clng), spread, &offs);
            let lat = (clat + qlat_off * spread).clamp(-90.0, 90.0);
            let lng = wrap_longitude(clng + qlng_off * spread);
            let (got, _) = search(&points, Point::new(lat, lng), k, radius);
            let want = brute(&points, Point::new(lat, lng), k, radius);
            prop_assert_eq!(distances(&got), want.clone());
            prop_assert_eq!(tree(&points, Point::new(lat, lng), k, radius), want);
        }
    }
}
