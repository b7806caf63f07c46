//! The nearest-hospital search through the real router and DynamoDB Local, against
//! brute force, on random hospital sets: around a city, across the antimeridian and
//! near both poles. (The in-memory property tests in `domain::geo` cover many more
//! cases; this one proves the store's Queries read what the search asked for.)

use domain::{
    geo::{Point, haversine_km, wrap_longitude},
    hospital::NewHospital,
    types::Id,
};
use http::StatusCode;
use rand::{Rng, SeedableRng, rngs::StdRng};
use serde_json::Value;
use testkit::TestApp;

/// `n` hospitals around `centre`, `spread` degrees either way.
fn around(rng: &mut StdRng, centre: Point, spread: f64, n: usize) -> Vec<Point> {
    (0..n)
        .map(|_| {
            Point::new(
                (centre.lat + rng.random_range(-spread..spread)).clamp(-90.0, 90.0),
                wrap_longitude(centre.lng + rng.random_range(-spread..spread)),
            )
        })
        .collect()
}

async fn load(app: &TestApp, points: &[Point]) {
    let hospitals = points
        .iter()
        .enumerate()
        .map(|(i, at)| {
            (
                Id::try_from(i as u64 + 1).unwrap(),
                NewHospital {
                    name: format!("H{i}"),
                    address: format!("{i} Test Road"),
                    location: *at,
                    contact_info: None,
                },
            )
        })
        .collect();
    app.state
        .store
        .bulk()
        .bulk_load_hospitals(hospitals)
        .await
        .unwrap();
}

async fn check(app: &TestApp, points: &[Point], at: Point, limit: usize, radius: f64) {
    let Point { lat, lng } = at;
    let res = app.nearest(at, limit, radius).await;
    res.assert_status(StatusCode::OK);
    let got: Vec<(u64, f64)> = res
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|h: &Value| (h["id"].as_u64().unwrap(), h["distance"].as_f64().unwrap()))
        .collect();
    let mut want: Vec<(u64, f64)> = points
        .iter()
        .enumerate()
        .map(|(i, p)| (i as u64 + 1, haversine_km(at, *p)))
        .filter(|(_, d)| *d <= radius)
        .collect();
    want.sort_by(|a, b| a.1.total_cmp(&b.1));
    want.truncate(limit);
    assert_eq!(
        got.len(),
        want.len(),
        "at {lat},{lng} k {limit} r {radius}: {got:?} vs {want:?}"
    );
    for (g, w) in got.iter().zip(&want) {
        // Distances are rounded to the metre; ids may differ only between ties.
        assert!(
            (g.1 - w.1).abs() < 0.001,
            "at {lat},{lng}: {got:?} vs {want:?}"
        );
        if g.0 != w.0 {
            let tie = want.iter().any(|x| x.0 == g.0 && (x.1 - w.1).abs() < 0.001);
            assert!(tie, "at {lat},{lng}: {got:?} vs {want:?}");
        }
    }
    assert!(got.windows(2).all(|w| w[0].1 <= w[1].1), "nearest first");
}

#[tokio::test]
async fn nearest_equals_brute_force_on_random_sets() {
    let app = TestApp::new(hospitals::router).await;
    let mut rng = StdRng::seed_from_u64(2026);
    let mut points = vec![];
    // A dense city, a sparse region, the antimeridian, and both polar caps.
    points.extend(around(&mut rng, Point::new(30.67, 74.33), 0.05, 150));
    points.extend(around(&mut rng, Point::new(30.67, 74.33), 2.0, 100));
    points.extend(around(&mut rng, Point::new(-16.5, 180.0), 1.5, 120));
    points.extend(around(&mut rng, Point::new(85.5, 40.0), 3.0, 80));
    points.extend(around(&mut rng, Point::new(-85.5, -120.0), 3.0, 80));
    load(&app, &points).await;

    let centres: [(f64, f64, f64); 5] = [
        (30.67, 74.33, 0.05),
        (30.67, 74.33, 2.5),
        (-16.5, 180.0, 2.0),
        (85.5, 40.0, 4.0),
        (-85.5, -120.0, 4.0),
    ];
    for (i, (clat, clng, spread)) in centres.iter().cycle().take(40).enumerate() {
        let lat = (clat + rng.random_range(-spread..*spread)).clamp(-90.0, 90.0);
        let lng = wrap_longitude(clng + rng.random_range(-spread..*spread));
        let limit = [1, 5, 10, 50][i % 4];
        let radius = [100.0, 500.0, 3.0, 37.5][i % 4];
        check(&app, &points, Point::new(lat, lng), limit, radius).await;
    }
    // The exact antimeridian and the poles themselves.
    for (lat, lng) in [(-16.5, 180.0), (-16.5, -180.0), (90.0, 0.0), (-90.0, 0.0)] {
        check(&app, &points, Point::new(lat, lng), 10, 500.0).await;
    }
}

#[tokio::test]
async fn nearest_defaults_and_an_empty_map() {
    let app = TestApp::new(hospitals::router).await;
    let res = app
        .get("/api/hospitals/nearest?lat=30.67&lng=74.33", None)
        .await;
    assert_eq!(res.status, StatusCode::OK);
    assert_eq!(res.body, serde_json::json!([]));

    let mut rng = StdRng::seed_from_u64(5);
    let points = around(&mut rng, Point::new(30.67, 74.33), 0.3, 60);
    load(&app, &points).await;
    let res = app
        .get("/api/hospitals/nearest?lat=30.67&lng=74.33", None)
        .await;
    let list = res.body.as_array().unwrap();
    assert_eq!(list.len(), 10, "default limit 10");
    for h in list {
        for field in ["id", "name", "address", "latitude", "longitude", "distance"] {
            assert!(h.get(field).is_some(), "{field} in {h}");
        }
    }
    // Default radius 100 km: every hospital is more than 110 km from (32.0, 74.33).
    let res = app
        .get("/api/hospitals/nearest?lat=32.0&lng=74.33", None)
        .await;
    assert_eq!(res.body, serde_json::json!([]));
    let res = app
        .get(
            "/api/hospitals/nearest?lat=32.0&lng=74.33&radiusKm=500&limit=50",
            None,
        )
        .await;
    assert_eq!(res.body.as_array().unwrap().len(), 50);
}
