//! The dispatcher's live map over any box (docs/decisions/0013-live-map.md): the
//! whole world shows the fleet wherever it is, a box holding more than 500 shows the
//! 500 most urgent and says so, a bad box is a 400 naming `bbox`.

use std::collections::BTreeSet;

use domain::{
    ambulance::{AmbulanceStatus, AmbulanceType, NewAmbulance},
    geo::Point,
    hospital::{Hospital, NewHospital},
    types::Id,
};
use http::StatusCode;
use serde_json::{Value, json};
use store::bulk::BulkAmbulance;
use testkit::TestApp;

fn ids(v: &Value, key: &str) -> BTreeSet<u64> {
    v[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} in {v}"))
        .iter()
        .map(|x| x["id"].as_u64().unwrap())
        .collect()
}

async fn live(app: &TestApp, token: &str, query: &str) -> Value {
    let res = app
        .get(&format!("/api/admin/live{query}"), Some(token))
        .await;
    res.assert_status(StatusCode::OK);
    res.body
}

#[tokio::test]
async fn the_live_map_of_the_world_shows_the_fleet_in_far_apart_cities() {
    let app = TestApp::new(api_tests::system).await;
    let admin = app.admin().await;
    let store = &app.state.store;
    // Two ambulances in each city, one of them on duty; Suva is beside the
    // antimeridian, Anchorage far north.
    let cities = [
        ("Delhi", 28.61, 77.21),
        ("London", 51.51, -0.13),
        ("New York", 40.71, -74.01),
        ("Sydney", -33.87, 151.21),
        ("Sao Paulo", -23.55, -46.63),
        ("Anchorage", 61.22, -149.90),
        ("Suva", -18.14, 178.44),
    ];
    let mut by_city: Vec<(Id, Id)> = vec![];
    for (name, lat, lng) in cities {
        let h = app.seed_hospital(name, Point::new(lat, lng)).await;
        let busy = app
            .seed_ambulance(h.id, &format!("{name}-1"), AmbulanceStatus::Available)
            .await;
        let free = app
            .seed_ambulance(h.id, &format!("{name}-2"), AmbulanceStatus::Available)
            .await;
        store
            .fleet()
            .set_ambulance_status(busy.id, AmbulanceStatus::OnDuty)
            .await
            .unwrap();
        by_city.push((busy.id, free.id));
    }
    let everyone: BTreeSet<u64> = by_city
        .iter()
        .flat_map(|(a, b)| [a.get(), b.get()])
        .collect();

    let world = live(&app, &admin.token, "?bbox=-90,-180,90,180").await;
    assert_eq!(ids(&world, "ambulances"), everyone, "{world}");
    assert_eq!(world["truncated"], false);
    // The most urgent first: every ambulance on duty before any free one.
    let statuses: Vec<&str> = world["ambulances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses[..7], ["ON_DUTY"; 7], "{statuses:?}");
    assert_eq!(statuses[7..], ["AVAILABLE"; 7], "{statuses:?}");
    // No box: the whole world too (the map's first view fits it).
    let unboxed = live(&app, &admin.token, "").await;
    assert_eq!(ids(&unboxed, "ambulances"), everyone);
    // A box around one city: that city's only; across the antimeridian: Suva's.
    let london = live(&app, &admin.token, "?bbox=51,-1,52,1").await;
    assert_eq!(
        ids(&london, "ambulances"),
        BTreeSet::from([by_city[1].0.get(), by_city[1].1.get()])
    );
    let suva = live(&app, &admin.token, "?bbox=-20,177,-16,-178").await;
    assert_eq!(
        ids(&suva, "ambulances"),
        BTreeSet::from([by_city[6].0.get(), by_city[6].1.get()])
    );

    // A Delhi ambulance reports from Mumbai, 1 150 km away: the map finds it
    // there, in a Mumbai box and still in the world, and no longer around Delhi.
    let mover = by_city[0].1;
    let crew = app.crew("mover", mover).await;
    // A first report that far from its hospital is taken once confirmed (decision 0020).
    crate::helpers::report_until_taken(&app, &crew, Point::new(19.07, 72.88)).await;
    let mumbai = live(&app, &admin.token, "?bbox=18.9,72.7,19.3,73.1").await;
    assert_eq!(ids(&mumbai, "ambulances"), BTreeSet::from([mover.get()]));
    assert_eq!(mumbai["ambulances"][0]["position"]["source"], "GPS");
    let delhi = live(&app, &admin.token, "?bbox=28,76.5,29,78").await;
    assert_eq!(
        ids(&delhi, "ambulances"),
        BTreeSet::from([by_city[0].0.get()])
    );
    let world = live(&app, &admin.token, "?bbox=-90,-180,90,180").await;
    assert_eq!(ids(&world, "ambulances"), everyone);

    // Open bookings in two cities, an emergency after a normal one: both in the
    // world, the emergency first; each in its own city's box only.
    let user = app.user("caller").await;
    let book = async |hospital: usize, ambulance: Id, kind: &str, at: Point| {
        let h: Hospital = store
            .hospitals()
            .hospitals_page(0, 100)
            .await
            .unwrap()
            .content
            .into_iter()
            .find(|h| h.name == cities[hospital].0)
            .unwrap();
        let res = app
            .book(
                Some(&user.token),
                json!({"hospitalId": h.id, "ambulanceId": ambulance, "bookingType": kind,
                   "patient": {"name": "P", "age": 30, "gender": "Male", "condition": "Fall"},
                   "pickup": {"latitude": at.lat, "longitude": at.lng}}),
            )
            .await;
        res.assert_status(StatusCode::CREATED);
        res.body["id"].as_u64().unwrap()
    };
    let normal = book(3, by_city[3].1, "NORMAL", Point::new(-33.86, 151.20)).await;
    let emergency = book(4, by_city[4].1, "EMERGENCY", Point::new(-23.56, -46.64)).await;
    let world = live(&app, &admin.token, "").await;
    let open: Vec<u64> = world["openBookings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_u64().unwrap())
        .collect();
    assert_eq!(open, [emergency, normal], "{world}");
    let sydney = live(&app, &admin.token, "?bbox=-34.5,150.5,-33.5,151.5").await;
    assert_eq!(ids(&sydney, "openBookings"), BTreeSet::from([normal]));
    assert_eq!(ids(&london, "openBookings"), BTreeSet::new());
}

#[tokio::test]
async fn a_live_box_holding_more_than_500_shows_the_500_most_urgent_and_says_truncated() {
    let app = TestApp::new(api_tests::system).await;
    let admin = app.admin().await;
    let store = &app.state.store;
    // Three hospitals around Delhi, one in Chandigarh (250 km north).
    let spots = [
        Point::new(28.61, 77.21),
        Point::new(28.70, 77.10),
        Point::new(28.50, 77.30),
        Point::new(30.73, 76.78),
    ];
    let hospitals: Vec<Hospital> = spots
        .iter()
        .enumerate()
        .map(|(i, &spot)| testkit::numbered_hospital(i as u64 + 1, spot))
        .collect();
    testkit::bulk_load_hospitals(store, &hospitals).await;
    // 600 around Delhi: 40 on duty, 20 in maintenance, the rest free, a third of
    // them reporting a little way from their hospital; 30 in Chandigarh, on duty.
    let mut fleet = vec![];
    let mut status_of = std::collections::HashMap::new();
    for i in 0..630u64 {
        let (hospital, status) = match i {
            0..40 => (&hospitals[(i % 3) as usize], AmbulanceStatus::OnDuty),
            40..60 => (&hospitals[(i % 3) as usize], AmbulanceStatus::Maintenance),
            60..600 => (&hospitals[(i % 3) as usize], AmbulanceStatus::Available),
            _ => (&hospitals[3], AmbulanceStatus::OnDuty),
        };
        let id = Id::try_from(i + 1).unwrap();
        status_of.insert(id.get(), status);
        let offset = (i % 7) as f64 * 0.01;
        fleet.push(BulkAmbulance {
            id,
            new: NewAmbulance {
                number: format!("L-{i}"),
                driver_info: None,
                status,
                ambulance_type: AmbulanceType::Bls,
                contact_info: None,
                hospital_id: hospital.id,
            },
            hospital: hospital.clone(),
            last: (i % 3 == 0).then(|| {
                (
                    Point::new(hospital.latitude + offset, hospital.longitude - offset),
                    time::Duration::seconds(20),
                )
            }),
        });
    }
    store.bulk().bulk_load_fleet(fleet).await.unwrap();

    let delhi = live(&app, &admin.token, "?bbox=28,76.5,29,78").await;
    let rows = delhi["ambulances"].as_array().unwrap();
    assert_eq!(rows.len(), 500);
    assert_eq!(delhi["truncated"], true);
    // The 40 on duty first, then 460 of the 540 free; none in maintenance.
    let statuses: Vec<&str> = rows.iter().map(|a| a["status"].as_str().unwrap()).collect();
    assert_eq!(statuses[..40], ["ON_DUTY"; 40]);
    assert_eq!(statuses[40..], ["AVAILABLE"; 460]);
    let shown = ids(&delhi, "ambulances");
    assert_eq!(shown.len(), 500, "each once");
    assert!(shown.iter().all(|id| *id <= 600), "none from Chandigarh");
    // The whole world: Chandigarh's 30 on duty come first too.
    let world = live(&app, &admin.token, "").await;
    assert_eq!(world["truncated"], true);
    let on_duty: BTreeSet<u64> = ids(&world, "ambulances")
        .into_iter()
        .filter(|id| status_of[id] == AmbulanceStatus::OnDuty)
        .collect();
    assert_eq!(on_duty, (1..=40).chain(601..=630).collect());
    // Chandigarh alone (30): everything, not truncated.
    let chandigarh = live(&app, &admin.token, "?bbox=30.5,76.5,31,77").await;
    assert_eq!(ids(&chandigarh, "ambulances"), (601..=630).collect());
    assert_eq!(chandigarh["truncated"], false);
}

#[tokio::test]
async fn a_bad_live_box_is_a_400_naming_bbox() {
    let app = TestApp::new(api_tests::system).await;
    let admin = app.admin().await;
    for bad in [
        "bbox=",
        "bbox=1,2,3",
        "bbox=1,2,3,4,5",
        "bbox=91,0,0,0",
        "bbox=0,-181,1,1",
        "bbox=a,b,c,d",
        "bbox=NaN,0,1,1",
        "bbox=inf,0,1,1",
    ] {
        let res = app
            .get(&format!("/api/admin/live?{bad}"), Some(&admin.token))
            .await;
        res.assert_field(StatusCode::BAD_REQUEST, "bbox");
    }
    let res = app
        .get("/api/admin/live?box=1,2,3,4", Some(&admin.token))
        .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{}", res.body);
}

#[tokio::test]
async fn an_ambulance_added_before_the_fleet_index_shows_on_the_live_map_once_backfilled() {
    let app = TestApp::new(api_tests::system).await;
    let admin = app.admin().await;
    let store = &app.state.store;
    let h = app.seed_hospital("Old", Point::new(30.67, 74.33)).await;
    let old = app
        .seed_ambulance(h.id, "OLD-1", AmbulanceStatus::Available)
        .await;
    let new = app
        .seed_ambulance(h.id, "NEW-1", AmbulanceStatus::Available)
        .await;
    // As stored before the index: no `fleetcell`.
    store
        .client()
        .update_item()
        .table_name(store.table())
        .set_key(Some(store::keys::ambulance(old.id).item()))
        .update_expression("REMOVE fleetcell")
        .send()
        .await
        .unwrap();
    let world = live(&app, &admin.token, "").await;
    assert_eq!(ids(&world, "ambulances"), BTreeSet::from([new.id.get()]));
    assert_eq!(store.fleet().backfill_fleet_cells().await.unwrap(), 1);
    assert_eq!(
        store.fleet().backfill_fleet_cells().await.unwrap(),
        0,
        "only where absent"
    );
    let world = live(&app, &admin.token, "").await;
    assert_eq!(
        ids(&world, "ambulances"),
        BTreeSet::from([old.id.get(), new.id.get()])
    );
}

#[tokio::test]
async fn more_than_500_open_bookings_in_a_box_show_the_emergencies_first_and_truncated() {
    use domain::booking::BookingRequest;
    use futures::{StreamExt, TryStreamExt};
    use store::open_bookings::OpenLimit;
    let app = TestApp::new(api_tests::system).await;
    let admin = app.admin().await;
    let store = &app.state.store;
    let hospital = Hospital {
        id: Id::try_from(1).unwrap(),
        name: "H".into(),
        address: "Road".into(),
        latitude: 28.61,
        longitude: 77.21,
        contact_info: None,
        distance: None,
        on_diversion_until: None,
    };
    let new = NewHospital {
        name: "H".into(),
        address: "Road".into(),
        location: Point::new(28.61, 77.21),
        contact_info: None,
    };
    store
        .bulk()
        .bulk_load_hospitals(vec![(hospital.id, new)])
        .await
        .unwrap();
    let n = 515u64;
    let fleet = (1..=n)
        .map(|i| BulkAmbulance {
            id: Id::try_from(i).unwrap(),
            new: NewAmbulance {
                number: format!("O-{i}"),
                driver_info: None,
                status: AmbulanceStatus::Available,
                ambulance_type: AmbulanceType::Bls,
                contact_info: None,
                hospital_id: hospital.id,
            },
            hospital: hospital.clone(),
            last: None,
        })
        .collect();
    store.bulk().bulk_load_fleet(fleet).await.unwrap();
    // Every 50th an emergency (10 of them), the rest normal; pickups around the city.
    let admin_id = admin.id;
    let booked: Vec<(u64, bool, u64)> = futures::stream::iter(1..=n)
        .map(|i| async move {
            let emergency = i % 50 == 0;
            let req: BookingRequest = serde_json::from_value(json!({
                "hospitalId": 1, "ambulanceId": i,
                "bookingType": if emergency { "EMERGENCY" } else { "NORMAL" },
                "patient": {"name": "P", "age": 30, "gender": "Male", "condition": "Fall"},
                "pickup": {"latitude": 28.5 + (i % 20) as f64 * 0.01, "longitude": 77.1 + (i % 17) as f64 * 0.01}
            }))
            .unwrap();
            let b = store
                .bookings().book(admin_id, req, None, OpenLimit::Exempt)
                .await
                .unwrap();
            Ok::<_, web::ApiError>((b.id.get(), emergency, i))
        })
        .buffer_unordered(16)
        .try_collect()
        .await
        .unwrap();
    let emergencies: BTreeSet<u64> = booked.iter().filter(|b| b.1).map(|b| b.0).collect();
    assert_eq!(emergencies.len(), 10);

    let city = live(&app, &admin.token, "?bbox=28,76.5,29,78").await;
    let rows = city["openBookings"].as_array().unwrap();
    assert_eq!(rows.len(), 500);
    assert_eq!(city["truncated"], true);
    let first: BTreeSet<u64> = rows[..10]
        .iter()
        .map(|b| b["id"].as_u64().unwrap())
        .collect();
    assert_eq!(first, emergencies, "the emergencies first");
    assert!(rows[10..].iter().all(|b| b["bookingType"] == "NORMAL"));
    assert_eq!(ids(&city, "openBookings").len(), 500, "each once");
    // A box holding a few of them: all, not truncated.
    let corner = live(&app, &admin.token, "?bbox=28.495,77.095,28.505,77.105").await;
    let expected: BTreeSet<u64> = booked
        .iter()
        .filter(|b| b.2 % 20 == 0 && b.2 % 17 == 0)
        .map(|b| b.0)
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(corner["truncated"], false);
    assert_eq!(ids(&corner, "openBookings"), expected);
}
