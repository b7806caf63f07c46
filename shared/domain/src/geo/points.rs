//! Exact k nearest on the sphere, in memory: a k-d tree ([`kiddo`]) over unit vectors.
//!
//! The straight-line (chord) distance between two points of the unit sphere grows
//! with their great-circle distance (`chord = 2 sin(θ / 2)`, increasing for θ in
//! 0..π), so the nearest by chord are the nearest on the globe; no cell, pole or
//! antimeridian needs a special case. The tree is only trusted up to rounding: it
//! proposes every point whose chord is within a hair (relative 1e-9, far above the
//! error of a few ulps in either distance) of the k-th chord or of the radius, and the
//! answer is decided by [`haversine_km`], the same function a brute-force search
//! would use, so the result is the brute-force one (see [`PointIndex::nearest`]).
//!
//! Building costs about 9 ms of CPU for 100 000 points; a search a few µs.

use std::num::NonZero;

use kiddo::{ImmutableKdTree, SquaredEuclidean};

use super::{EARTH_RADIUS_KM, Point, haversine_km};

/// Points in a k-d tree; results name a point by its position
/// in the slice it was built from.
pub struct PointIndex {
    /// `None` when there are no points (kiddo wants at least one).
    tree: Option<ImmutableKdTree<f64, 3>>,
    points: Vec<Point>,
}

/// The unit vector of a point.
fn unit(at: Point) -> [f64; 3] {
    let (lat, lng) = (at.lat.to_radians(), at.lng.to_radians());
    [lat.cos() * lng.cos(), lat.cos() * lng.sin(), lat.sin()]
}

/// The squared chord of a great-circle distance, widened so that rounding never
/// leaves out a point the haversine puts within that distance.
fn widened_chord2(km: f64) -> f64 {
    let half_angle = (km / EARTH_RADIUS_KM / 2.0).min(std::f64::consts::FRAC_PI_2);
    widen((2.0 * half_angle.sin()).powi(2))
}

fn widen(chord2: f64) -> f64 {
    chord2 * (1.0 + 1e-9) + 1e-15
}

impl PointIndex {
    /// Builds the tree over `points` (in range).
    pub fn new(points: Vec<Point>) -> Self {
        let vectors: Vec<[f64; 3]> = points.iter().map(|p| unit(*p)).collect();
        let tree = (!vectors.is_empty()).then(|| ImmutableKdTree::new_from_slice(&vectors));
        PointIndex { tree, points }
    }

    pub fn len(&self) -> usize {
        self.points.len()
    }

    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The `k` points nearest to `at` within `radius_km`, nearest first, as
    /// (position, great-circle km); equal distances in the order of the positions.
    ///
    /// Exact: let `c_k` be the k-th smallest chord the tree reports. Every point of
    /// the true answer has a chord at most `c_k` plus rounding: otherwise the k
    /// points the tree found would all be strictly nearer, by more than the
    /// haversine's rounding, and the point would not be among the k nearest. So all
    /// points with a chord up to `widen(c_k)` (and within the widened radius) are
    /// measured with the haversine, and the k smallest of those within the radius are
    /// the answer.
    pub fn nearest(&self, at: Point, k: usize, radius_km: f64) -> Vec<(usize, f64)> {
        let (Some(tree), Some(k)) = (&self.tree, NonZero::new(k)) else {
            return vec![];
        };
        if radius_km.is_nan() || radius_km <= 0.0 {
            return vec![];
        }
        let query = unit(at);
        let reach = widened_chord2(radius_km);
        let first = tree.nearest_n_within::<SquaredEuclidean>(&query, reach, k, true);
        let bound = match first.last() {
            Some(kth) if first.len() == k.get() => widen(kth.distance).min(reach),
            Some(_) => reach,
            None => return vec![],
        };
        let mut found: Vec<(usize, f64)> = tree
            .within_unsorted::<SquaredEuclidean>(&query, bound)
            .into_iter()
            .map(|n| {
                let i = n.item as usize;
                (i, haversine_km(at, self.points[i]))
            })
            .filter(|(_, d)| *d <= radius_km)
            .collect();
        found.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        found.truncate(k.get());
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(points: &[Point], at: Point, k: usize, r: f64) -> Vec<(usize, f64)> {
        let mut all: Vec<(usize, f64)> = points
            .iter()
            .enumerate()
            .map(|(i, p)| (i, haversine_km(at, *p)))
            .filter(|(_, d)| *d <= r)
            .collect();
        all.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        all.truncate(k);
        all
    }

    #[test]
    fn nothing_to_find() {
        let empty = PointIndex::new(vec![]);
        assert!(empty.nearest(Point::new(10.0, 10.0), 5, 100.0).is_empty());
        let one = PointIndex::new(vec![Point::new(10.0, 10.0)]);
        assert!(one.nearest(Point::new(10.0, 10.0), 0, 100.0).is_empty());
        assert!(one.nearest(Point::new(10.0, 10.0), 5, f64::NAN).is_empty());
        assert!(one.nearest(Point::new(10.0, 10.0), 5, 0.0).is_empty());
        assert!(one.nearest(Point::new(-40.0, 10.0), 5, 500.0).is_empty());
        assert_eq!(one.nearest(Point::new(10.0, 10.0), 5, 1.0), vec![(0, 0.0)]);
    }

    /// Many points on one spot (every longitude of a pole is one point), and ties
    /// that must come in the order of the positions, whatever the tree's order.
    #[test]
    fn duplicates_and_ties() {
        let mut points = vec![Point::new(90.0, 0.0); 500];
        points.extend((0..500).map(|i| Point::new(90.0, f64::from(i) * 0.7 - 175.0)));
        points.extend((0..300).map(|i| Point::new(89.9, f64::from(i))));
        let index = PointIndex::new(points.clone());
        for (lat, lng, k) in [(90.0, 0.0, 10), (89.95, 10.0, 40), (88.0, -90.0, 1200)] {
            assert_eq!(
                index.nearest(Point::new(lat, lng), k, 500.0),
                brute(&points, Point::new(lat, lng), k, 500.0),
                "{lat},{lng} k {k}"
            );
        }
    }

    /// The k-th and (k+1)-th distances equal up to the last bits: the haversine
    /// decides, as in a brute-force search.
    #[test]
    fn near_ties_at_the_kth() {
        let mut points = vec![];
        for i in 0..200 {
            let a = f64::from(i) * std::f64::consts::TAU / 200.0;
            points.push(Point::new(
                30.0 + 0.1 * a.sin(),
                74.0 + 0.1 * a.cos() / 30f64.to_radians().cos(),
            ));
        }
        let index = PointIndex::new(points.clone());
        for k in [1, 7, 50, 199, 200] {
            assert_eq!(
                index.nearest(Point::new(30.0, 74.0), k, 100.0),
                brute(&points, Point::new(30.0, 74.0), k, 100.0)
            );
        }
    }
}
