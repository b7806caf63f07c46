//! The dispatcher's reassign choice (`GET /api/admin/ambulances/free-near`): at most
//! 10 free ambulances within 50 km, nearest first, each ranked as an emergency
//! ranks it (a fresh position, else its hospital), read from `freegeo`.

use domain::geo::Point;
use http::StatusCode;
use serde_json::Value;

use crate::{
    crew::id_of,
    emergency::{PICKUP, World, north, pickup_body},
};

fn near_uri(Point { lat, lng }: Point) -> String {
    format!("/api/admin/ambulances/free-near?lat={lat}&lng={lng}")
}

async fn free_near(w: &World, at: Point) -> Vec<Value> {
    let res = w.app.get(&near_uri(at), Some(&w.admin.token)).await;
    res.assert_status(StatusCode::OK);
    res.body.as_array().unwrap().clone()
}

fn numbers(list: &[Value]) -> Vec<&str> {
    list.iter().map(|a| a["number"].as_str().unwrap()).collect()
}

#[tokio::test]
async fn free_near_lists_the_ten_nearest_free_ambulances_nearest_first() {
    let w = World::new().await;
    // One ambulance at each hospital 1..=12 km north of the pickup, one 60 km off.
    let mut ambulances = vec![];
    for km in 1..=12 {
        let h = w.hospital(&format!("H{km}"), north(km as f64)).await;
        ambulances.push(w.ambulance(&h, &format!("A-{km:02}"), "BLS").await);
    }
    let far = w.hospital("Far", north(60.0)).await;
    w.ambulance(&far, "FAR", "ALS").await;
    // The nearest of all is taken by an emergency: not free, not listed.
    let closest = w.hospital("Closest", north(0.5)).await;
    let busy = w.ambulance(&closest, "BUSY", "BLS").await;
    let user = w.app.user("asha").await;
    let res = w.emergency(&user, &pickup_body(), None).await;
    res.assert_status(StatusCode::CREATED);
    assert_eq!(res.body["ambulance"]["id"], busy["id"]);

    let list = free_near(&w, PICKUP).await;
    let want: Vec<String> = (1..=10).map(|km| format!("A-{km:02}")).collect();
    assert_eq!(numbers(&list), want, "{list:?}");
    for (i, a) in list.iter().enumerate() {
        let km = a["distanceKm"].as_f64().unwrap();
        assert!((km - (i + 1) as f64).abs() < 0.01, "{a}");
        assert_eq!(a["id"], ambulances[i]["id"]);
        assert_eq!(a["type"], "BLS");
        assert!(a["hospitalId"].as_u64().is_some(), "{a}");
        // Nobody has a crew account for these: the crewless delay, 120 s, on top
        // of the drive (decision 0020).
        assert_eq!(a["crewPresence"], "NO_CREW");
        let drive = km * 1.4 / 40.0 * 3600.0;
        let eta = a["etaMinutes"].as_f64().unwrap();
        assert!((eta - (drive / 60.0).ceil()).abs() <= 1.0, "{a}");
        let start = a["expectedStartSeconds"].as_f64().unwrap();
        assert!((start - (drive + 120.0)).abs() <= 1.0, "{a}");
        let keys: Vec<&str> = a.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        assert_eq!(keys.len(), 8, "{a}");
    }

    // A fresh position ranks: A-12's crew reports from 200 m off the pickup; A-02's
    // from 40 km away, so its hospital 2 km off no longer counts.
    let crew12 = w.app.crew("crew_12", id_of(&ambulances[11])).await;
    w.report(&crew12, north(0.2), 0).await;
    let crew2 = w.app.crew("crew_2", id_of(&ambulances[1])).await;
    w.report(&crew2, north(40.0), 0).await;
    let list = free_near(&w, PICKUP).await;
    let got = numbers(&list);
    assert_eq!(
        got,
        [
            "A-12", "A-01", "A-03", "A-04", "A-05", "A-06", "A-07", "A-08", "A-09", "A-10"
        ],
        "{list:?}"
    );
    assert!((list[0]["distanceKm"].as_f64().unwrap() - 0.2).abs() < 0.01);

    // Near the far one: A-02 by its position (20.5 km) and A-11 at its hospital
    // (49.5 km); A-12, whose hospital is 48.5 km off, is where it reported, 60.3 km
    // off. Nothing at all in the sea.
    let list = free_near(&w, north(60.5)).await;
    assert_eq!(numbers(&list), ["FAR", "A-02", "A-11"], "{list:?}");
    assert!(free_near(&w, Point::new(0.0, -30.0)).await.is_empty());
}

#[tokio::test]
async fn free_near_answers_400_naming_a_bad_coordinate() {
    let w = World::new().await;
    for (query, field) in [
        ("lat=91&lng=0", "lat"),
        ("lat=NaN&lng=0", "lat"),
        ("lng=0", "lat"),
        ("lat=0&lng=-180.5", "lng"),
        ("lat=0&lng=east", "lng"),
        ("lat=0", "lng"),
    ] {
        let res = w
            .app
            .get(
                &format!("/api/admin/ambulances/free-near?{query}"),
                Some(&w.admin.token),
            )
            .await;
        res.assert_field(StatusCode::BAD_REQUEST, field);
    }
    let res = w
        .app
        .get(
            "/api/admin/ambulances/free-near?lat=0&lng=0&limit=3",
            Some(&w.admin.token),
        )
        .await;
    res.assert_status(StatusCode::BAD_REQUEST);
}
