//! The one ETA estimator: great-circle distance × a road factor ÷ a speed. Every
//! ETA and distance the API shows comes from [`estimate`], so a real routing engine
//! can replace it in one place.

use serde::{Deserialize, Serialize};

use crate::geo::Point;

/// Roads are longer than the straight line. The ratio of road to great-circle
/// distance ("circuity") is usually quoted between about 1.2 and 1.4 for road
/// networks (e.g. Ballou, Rahardja and Sakai, Transportation Research Part A, 2002);
/// short trips in towns, which most ambulance runs are, lie at the upper end. An
/// assumption to tune once real trip times are known.
pub const ROAD_FACTOR: f64 = 1.4;

/// Average speed of an ambulance on a run in mixed town and country traffic: an
/// assumption (40 km/h), to tune with the timelines of real trips (each stage's time
/// is in the booking's `timeline`).
pub const SPEED_KMH: f64 = 40.0;

/// An estimate: road distance (km, one decimal) and minutes (whole, rounded up).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Eta {
    pub distance_km: f64,
    pub eta_minutes: u32,
}

/// From `from` to `to`.
pub fn estimate(from: Point, to: Point) -> Eta {
    let road_km = from.km_to(to) * ROAD_FACTOR;
    let minutes = (road_km / SPEED_KMH * 60.0).ceil();
    Eta {
        distance_km: (road_km * 10.0).round() / 10.0,
        eta_minutes: minutes.clamp(0.0, f64::from(u32::MAX)) as u32,
    }
}

/// From `from` to `to` in whole seconds (rounded up), by the same rule as
/// [`estimate`]: what the receiving hospital's board counts down.
pub fn seconds(from: Point, to: Point) -> u32 {
    let road_km = from.km_to(to) * ROAD_FACTOR;
    (road_km / SPEED_KMH * 3600.0)
        .ceil()
        .clamp(0.0, f64::from(u32::MAX)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_agree_with_the_minutes() {
        let to = Point::new(30.0 + 9.9 / 111.195, 74.0);
        let s = seconds(Point::new(30.0, 74.0), to);
        assert_eq!(
            s.div_ceil(60),
            estimate(Point::new(30.0, 74.0), to).eta_minutes
        );
        assert!((1240..=1250).contains(&s), "{s}");
    }

    #[test]
    fn ten_km_of_straight_line_is_fourteen_of_road_and_21_minutes_at_40_kmh() {
        // One degree of latitude is 111.195 km; 9.9 km north of (30, 74) is 13.86 km
        // of road, 20.8 minutes at 40 km/h: 21 (rounded up).
        let to = Point::new(30.0 + 9.9 / 111.195, 74.0);
        let eta = estimate(Point::new(30.0, 74.0), to);
        assert_eq!(eta.distance_km, 13.9);
        assert_eq!(eta.eta_minutes, 21);
        assert_eq!(
            estimate(Point::new(30.0, 74.0), Point::new(30.0, 74.0)),
            Eta {
                distance_km: 0.0,
                eta_minutes: 0
            }
        );
        // A few metres still round up to a minute.
        assert_eq!(
            estimate(Point::new(30.0, 74.0), Point::new(30.0001, 74.0)).eta_minutes,
            1
        );
    }
}
