//! How near and how far the res-15 descendants of an H3 cell can lie from a point:
//! the bounds the search's proof rests on (`search.rs`, "Why the proven radius is a
//! lower bound").
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

use h3o::{CellIndex, LatLng};

use super::EARTH_RADIUS_KM;

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

// Spherical geometry on unit vectors.

pub(super) type V3 = [f64; 3];

pub(super) fn unit(ll: LatLng) -> V3 {
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
pub(super) fn lower_bound_km(p: LatLng, pv: V3, cell: CellIndex) -> f64 {
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
pub(super) fn upper_bound_km(pv: V3, cell: CellIndex) -> f64 {
    let vertices = outline(cell);
    let far = vertices.iter().map(|v| angle(pv, *v)).fold(0.0, f64::max) * EARTH_RADIUS_KM;
    far + stray_factor(cell) * circumradius_km(cell, &vertices) + 1e-6
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geo::{Point, haversine_km};
    use h3o::Resolution;

    #[test]
    fn arc_distance_is_exact_on_simple_cases() {
        let u = |lat, lng| unit(Point::new(lat, lng).h3());
        let km = |r: f64| r * EARTH_RADIUS_KM;
        // Along the equator from lng 0 to 2: a point 1 degree north of lng 1.
        let d = km(arc_distance(u(1.0, 1.0), u(0.0, 0.0), u(0.0, 2.0)));
        assert!(
            (d - haversine_km(Point::new(1.0, 1.0), Point::new(0.0, 1.0))).abs() < 1e-6,
            "{d}"
        );
        // Beyond the end: the distance to the end point.
        let d = km(arc_distance(u(0.0, 3.0), u(0.0, 0.0), u(0.0, 2.0)));
        assert!(
            (d - haversine_km(Point::new(0.0, 3.0), Point::new(0.0, 2.0))).abs() < 1e-6,
            "{d}"
        );
        // Across the antimeridian.
        let d = km(arc_distance(u(0.5, 180.0), u(0.0, 179.0), u(0.0, -179.0)));
        assert!(
            (d - haversine_km(Point::new(0.5, 180.0), Point::new(0.0, 180.0))).abs() < 1e-6,
            "{d}"
        );
        // On the arc.
        assert!(arc_distance(u(0.0, 1.0), u(0.0, 0.0), u(0.0, 2.0)) < 1e-12);
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
                cells.push(
                    Point::new(lat, lng)
                        .h3()
                        .to_cell(Resolution::try_from(res).unwrap()),
                );
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
}
