//! Places on the Earth: the app-wide [`Point`] and the great-circle distance.
//!
//! Beneath them the nearest searches, a file by job:
//! - `search.rs`: the exact k-nearest search over an H3 index read by Queries
//!   ([`nearest`]), with its proof;
//! - `bounds.rs`: how near and how far a cell's descendants lie, which the proof
//!   rests on;
//! - [`cells`]: H3 cells as the indexes name them (partition, sort key, ranges);
//! - [`memory`]: that search over items held in memory (the property tests,
//!   `geo_tune`);
//! - [`points`]: the k-d tree of the in-memory hospital index
//!   (docs/decisions/0006-nearest-search.md).

mod bounds;
pub mod cells;
pub mod memory;
pub mod points;
mod search;

pub use bounds::{STRAY, STRAY_PENTAGON};
pub use cells::{PARTITION_RES, Range, cell_range, keys_of};
pub use memory::MemoryIndex;
pub use search::{Located, Proven, SearchParams, SearchStats, nearest, nearest_proven};

pub const EARTH_RADIUS_KM: f64 = 6371.0088;

/// Great-circle distance in km.
pub fn haversine_km(a: Point, b: Point) -> f64 {
    let (p1, p2) = (a.lat.to_radians(), b.lat.to_radians());
    let dp = p2 - p1;
    let dl = (b.lng - a.lng).to_radians();
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

/// A point on the Earth in degrees, named so that a latitude and a longitude cannot be
/// swapped unseen (a `(f64, f64)` pair can): the one type of a place that the domain,
/// the store and the functions pass around and compute with. Unlike `types::LatLng`
/// it is not input: it holds what the edge has already checked (a request's
/// `LatLng`, converted with `Point::from`) or what the store and the domain already
/// trust (docs/decisions/0027-one-point-type.md).
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
        haversine_km(self, other)
    }

    /// The point as H3 takes it.
    ///
    /// # Panics
    /// On a coordinate that is not finite: points are checked before they reach the
    /// indexes (`types::LatLng` at the edge).
    pub fn h3(self) -> h3o::LatLng {
        h3o::LatLng::new(self.lat, self.lng)
            .expect("coordinates were validated before reaching the index")
    }
}

impl From<crate::types::LatLng> for Point {
    fn from(p: crate::types::LatLng) -> Point {
        Point::new(p.lat.get(), p.lng.get())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn haversine_knows_some_distances() {
        let p = Point::new;
        assert!((p(0.0, 0.0).km_to(p(0.0, 1.0)) - 111.195).abs() < 0.01);
        assert!((haversine_km(p(0.0, 179.5), p(0.0, -179.5)) - 111.195).abs() < 0.01);
        assert_eq!(p(30.0, 74.0).km_to(p(30.0, 74.0)), 0.0);
    }
}
