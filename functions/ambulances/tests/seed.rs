//! The demo seed through the public routes: what `make dev` shows on a fresh machine.

use domain::{
    ambulance::AmbulanceCounts,
    geo::{Point, haversine_km},
};
use http::StatusCode;
use serde_json::Value;
use store::seed::{seed_crew, seed_hospital_staff, seed_hospitals_and_ambulances};
use testkit::TestApp;

#[tokio::test]
async fn the_seed_fills_an_empty_table_once_with_consistent_counters() {
    let app = TestApp::new(ambulances::router).await;
    let store = &app.state.store;
    let summary = seed_hospitals_and_ambulances(store).await.unwrap();
    assert_eq!(summary.hospitals, 52);
    assert!(summary.ambulances >= 150, "{summary:?}");

    let hospitals = store.hospitals().hospitals_page(0, 1000).await.unwrap();
    assert_eq!(hospitals.total_elements, 52);
    let near_default = hospitals
        .content
        .iter()
        .filter(|h| haversine_km(Point::new(30.67, 74.33), h.point()) <= 60.0)
        .count();
    assert!(
        near_default >= 40,
        "{near_default} within 60 km of the default city"
    );
    let mut names: Vec<&str> = hospitals.content.iter().map(|h| h.name.as_str()).collect();
    names.dedup();
    assert_eq!(names.len(), 52, "hospital names are distinct");
    assert!(hospitals.content.iter().all(|h| h.contact_info.is_some()));

    // The fleet counters equal a recount, and the fleet is mixed.
    let fleet = store.fleet().all_ambulances().await.unwrap();
    assert_eq!(fleet.len(), summary.ambulances);
    // By number, across the BatchGetItem requests of 100 keys (run at once).
    let order: Vec<(String, u64)> = fleet
        .iter()
        .map(|a| (a.number.to_lowercase(), a.id.get()))
        .collect();
    assert!(order.is_sorted(), "by number");
    let recount = AmbulanceCounts::of(fleet.iter().map(|a| &a.status));
    let res = app.get("/api/ambulances/counts", None).await;
    assert_eq!(res.status, StatusCode::OK);
    let counts: AmbulanceCounts = serde_json::from_value(res.body).unwrap();
    assert_eq!(counts, recount);
    assert!(counts.available > counts.total / 2, "{counts:?}");
    assert!(counts.on_duty > 0 && counts.maintenance > 0, "{counts:?}");
    let types: std::collections::HashSet<String> = fleet
        .iter()
        .map(|a| {
            serde_json::to_value(a.ambulance_type)
                .unwrap()
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(types.len(), 3, "{types:?}");

    // Available ones are on the sparse index; the seed never holds one for a booking.
    let res = app.get("/api/ambulances/available/all", None).await;
    let available: &Vec<Value> = res.body.as_array().unwrap();
    assert_eq!(available.len() as i64, counts.available);
    for a in &fleet {
        assert_eq!(store.fleet().ambulance_holder(a.id).await.unwrap(), None);
    }

    // A second run leaves everything as it was.
    let again = seed_hospitals_and_ambulances(store).await.unwrap();
    assert_eq!((again.hospitals, again.ambulances), (0, 0));
    assert_eq!(store.hospitals().hospital_count().await.unwrap(), 52);

    // A crew account per ambulance of the hospital nearest the default city, with
    // the local password; a second run makes none more.
    let hash = testkit::test_password_hash().await;
    let logins = seed_crew(store, &hash).await.unwrap();
    let (nearest, _) = store
        .hospitals()
        .nearest_hospitals(Point::new(30.67, 74.33), 1, 100.0)
        .await
        .unwrap();
    let first_fleet = store
        .fleet()
        .hospital_ambulances(nearest[0].id, false)
        .await
        .unwrap();
    assert_eq!(logins.len(), first_fleet.len());
    assert!(logins.len() >= 3, "{logins:?}");
    for (i, login) in logins.iter().enumerate() {
        assert_eq!(login.username, format!("crew{}", i + 1));
        assert!(
            app.password_works(&login.username, testkit::TEST_PASSWORD)
                .await
        );
        assert!(
            first_fleet
                .iter()
                .any(|a| a.number == login.ambulance_number)
        );
    }
    for a in &first_fleet {
        assert_eq!(
            store.crew().ambulance_crew(a.id).await.unwrap().len(),
            1,
            "{}",
            a.number
        );
    }
    assert_eq!(seed_crew(store, &hash).await.unwrap(), logins);
    assert_eq!(
        store.crew().crew_count().await.unwrap(),
        logins.len() as u64
    );

    // One hospital staff login at that same hospital (its board fills as the demo
    // crews work), once.
    let staff = seed_hospital_staff(store, &hash).await.unwrap().unwrap();
    assert_eq!(staff.username, "hospital1");
    assert_eq!(staff.hospital_name, nearest[0].name);
    assert!(
        app.password_works("hospital1", testkit::TEST_PASSWORD)
            .await
    );
    let account = store
        .users()
        .account_by_name(&"hospital1".to_owned().try_into().unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        account.hospital_staff.map(|s| s.hospital_id),
        Some(nearest[0].id)
    );
    assert_eq!(
        seed_hospital_staff(store, &hash).await.unwrap(),
        Some(staff)
    );
}
