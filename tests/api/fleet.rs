//! Hospitals and ambulances through the admin, hospitals and ambulances functions,
//! against DynamoDB Local. (The nearest search against brute force is
//! `functions/hospitals/tests/nearest.rs`.)

use crate::crew::id_of;
use domain::{
    ambulance::{AmbulanceCounts, AmbulanceStatus},
    geo::Point,
    types::Id,
};
use http::StatusCode;
use rand::{Rng, SeedableRng, rngs::StdRng};
use serde_json::{Value, json};
use store::{Tx, fleet::StatusMove};
use testkit::{TestApp, TestUser};

struct Apps {
    admin_app: TestApp,
    hospitals: TestApp,
    ambulances: TestApp,
    admin: TestUser,
}

async fn apps() -> Apps {
    let admin_app = TestApp::new(api_tests::system).await;
    let admin = admin_app.admin().await;
    Apps {
        hospitals: admin_app.with_router(api_tests::system),
        ambulances: admin_app.with_router(api_tests::system),
        admin_app,
        admin,
    }
}

impl Apps {
    async fn add_hospital(&self, name: &str, Point { lat, lng }: Point) -> Value {
        let res = self
            .admin_app
            .add_hospital(
                Some(&self.admin.token),
                json!({ "name": name, "address": format!("{name} Road"), "latitude": lat, "longitude": lng, "contactInfo": "+911234567" }),
            )
            .await;
        res.assert_status(StatusCode::CREATED);
        res.body
    }

    async fn add_ambulance(&self, number: &str, hospital: &Value, status: &str) -> Value {
        let res = self
            .admin_app
            .add_ambulance(
                Some(&self.admin.token),
                json!({ "number": number, "status": status, "hospital": { "id": hospital["id"] }, "driverInfo": "Ravi Kumar", "type": "ALS", "contactInfo": "+919999999" }),
            )
            .await;
        res.assert_status(StatusCode::CREATED);
        res.body
    }

    async fn counts(&self, query: &str) -> AmbulanceCounts {
        let res = self
            .ambulances
            .get(&format!("/api/ambulances/counts{query}"), None)
            .await;
        res.assert_status(StatusCode::OK);
        serde_json::from_value(res.body).unwrap()
    }

    /// Recounts the fleet from the ambulances themselves.
    async fn recount(&self) -> AmbulanceCounts {
        crate::helpers::fleet_recount(&self.admin_app, &self.admin.token).await
    }
}

#[tokio::test]
async fn every_admin_route_needs_an_admin() {
    let a = apps().await;
    let user = a.admin_app.user("plain").await;
    let routes: [(&str, &str, Option<Value>); 6] = [
        (
            "POST",
            "/api/admin/hospitals/add",
            Some(json!({"name":"x","address":"y","latitude":1,"longitude":1})),
        ),
        ("DELETE", "/api/admin/hospitals/remove?hospitalId=1", None),
        ("GET", "/api/admin/ambulances/all", None),
        (
            "POST",
            "/api/admin/ambulances/add",
            Some(json!({"number":"A1","status":"AVAILABLE","hospital":{"id":1}})),
        ),
        ("DELETE", "/api/admin/ambulances/remove?ambulanceId=1", None),
        (
            "PATCH",
            "/api/admin/ambulance/status?ambulanceId=1&status=AVAILABLE",
            None,
        ),
    ];
    for (method, uri, body) in routes {
        let m: http::Method = method.parse().unwrap();
        let anon = a.admin_app.call(m.clone(), uri, None, body.clone()).await;
        assert_eq!(anon.status, StatusCode::UNAUTHORIZED, "{method} {uri}");
        let res = a.admin_app.call(m, uri, Some(&user.token), body).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{method} {uri}");
    }
    assert_eq!(
        a.hospitals.get("/api/hospitals/all", None).await.body["totalElements"],
        0,
        "nothing was written"
    );
}

#[tokio::test]
async fn hospitals_page_by_name_with_exact_totals() {
    let a = apps().await;
    for i in 0..23 {
        a.add_hospital(
            &format!("Hospital {:02}", 22 - i),
            Point::new(30.0 + i as f64 * 0.01, 74.0),
        )
        .await;
    }
    let res = a
        .hospitals
        .get("/api/hospitals/all?page=0&size=10", None)
        .await;
    assert_eq!(res.status, StatusCode::OK);
    assert_eq!(res.body["totalElements"], 23);
    assert_eq!(res.body["totalPages"], 3);
    assert_eq!(res.body["content"][0]["name"], "Hospital 00");
    assert_eq!(res.body["content"].as_array().unwrap().len(), 10);
    let last = a
        .hospitals
        .get("/api/hospitals/all?page=2&size=10", None)
        .await;
    let names: Vec<&str> = last.body["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Hospital 20", "Hospital 21", "Hospital 22"]);
    let beyond = a
        .hospitals
        .get("/api/hospitals/all?page=9&size=10", None)
        .await;
    assert_eq!(beyond.body["content"], json!([]));
    let default = a.hospitals.get("/api/hospitals/all", None).await;
    assert_eq!(
        (default.body["page"].clone(), default.body["size"].clone()),
        (json!(0), json!(10))
    );
    let one = a
        .hospitals
        .get(
            &format!("/api/hospitals/{}", last.body["content"][0]["id"]),
            None,
        )
        .await;
    assert_eq!(one.body["name"], "Hospital 20");
    assert_eq!(
        a.hospitals.get("/api/hospitals/999999", None).await.status,
        StatusCode::NOT_FOUND
    );
}

/// Pages within the first Query of keys read the total and the keys at once; deeper
/// pages read the total first. Both give the same pages, in name order across the
/// BatchGetItem requests (100 keys each, run at once).
#[tokio::test]
async fn deep_and_shallow_hospital_pages() {
    use domain::{geo::Point, hospital::NewHospital};
    let a = apps().await;
    let store = &a.admin_app.state.store;
    let n = 1005u64;
    let hospitals = (1..=n)
        .map(|i| {
            (
                Id::try_from(i).unwrap(),
                NewHospital {
                    name: format!("H{:04}", (i * 7919) % 10_000),
                    address: "Road".into(),
                    location: Point::new(30.0, 74.0),
                    contact_info: None,
                },
            )
        })
        .collect();
    store.bulk().bulk_load_hospitals(hospitals).await.unwrap();

    let first = store.hospitals().hospitals_page(0, 1000).await.unwrap();
    assert_eq!((first.total_elements, first.total_pages), (n, 2));
    let names: Vec<&str> = first.content.iter().map(|h| h.name.as_str()).collect();
    assert_eq!(names.len(), 1000);
    assert!(names.windows(2).all(|w| w[0] < w[1]), "in name order");
    let deep = store.hospitals().hospitals_page(1, 1000).await.unwrap();
    assert_eq!(deep.total_elements, n);
    assert_eq!(deep.content.len(), 5);
    assert!(names[999] < deep.content[0].name.as_str());
    for (page, size) in [(2, 1000), (101, 10), (9, 1000)] {
        let past = store.hospitals().hospitals_page(page, size).await.unwrap();
        assert_eq!((past.content.len(), past.total_elements), (0, n), "{page}");
    }
    let middle = store.hospitals().hospitals_page(50, 10).await.unwrap();
    assert_eq!(middle.content[0].name, names[500]);
}

#[tokio::test]
async fn bad_parameters_are_400_naming_them() {
    let a = apps().await;
    let cases = [
        (&a.hospitals, "/api/hospitals/nearest?lat=91&lng=10", "lat"),
        (&a.hospitals, "/api/hospitals/nearest?lat=10&lng=abc", "lng"),
        (&a.hospitals, "/api/hospitals/nearest?lng=10", "lat"),
        (
            &a.hospitals,
            "/api/hospitals/nearest?lat=1&lng=1&limit=51",
            "limit",
        ),
        (
            &a.hospitals,
            "/api/hospitals/nearest?lat=1&lng=1&radiusKm=501",
            "radiusKm",
        ),
        (&a.hospitals, "/api/hospitals/all?page=-1", "page"),
        (&a.hospitals, "/api/hospitals/all?size=0", "size"),
        (&a.hospitals, "/api/hospitals/all?size=1000000", "size"),
        (&a.hospitals, "/api/hospitals/abc", "id"),
        (
            &a.ambulances,
            "/api/ambulances/available?hospitalId=1152921504606846976",
            "hospitalId",
        ),
        (&a.ambulances, "/api/ambulances/available", "hospitalId"),
        (
            &a.ambulances,
            "/api/ambulances/counts?hospitalId=0",
            "hospitalId",
        ),
        (
            &a.ambulances,
            "/api/ambulances/counts?hospitalId=abc",
            "hospitalId",
        ),
        (&a.ambulances, "/api/ambulances/hospital/0", "id"),
        (
            &a.ambulances,
            "/api/ambulances/hospital/9007199254740992",
            "id",
        ),
        (
            &a.hospitals,
            "/api/hospitals/nearest?lat=1&lng=1&limit=0",
            "limit",
        ),
        (
            &a.hospitals,
            "/api/hospitals/nearest?lat=1&lng=1&limit=x",
            "limit",
        ),
        (
            &a.hospitals,
            "/api/hospitals/nearest?lat=1&lng=1&radiusKm=0",
            "radiusKm",
        ),
        (
            &a.hospitals,
            "/api/hospitals/nearest?lat=1&lng=1&radiusKm=abc",
            "radiusKm",
        ),
        (&a.hospitals, "/api/hospitals/nearest?lat=NaN&lng=1", "lat"),
        (
            &a.hospitals,
            "/api/hospitals/nearest?lat=1&lng=-180.5",
            "lng",
        ),
        (&a.hospitals, "/api/hospitals/all?page=abc", "page"),
        (&a.hospitals, "/api/hospitals/1152921504606846976", "id"),
    ];
    for (app, uri, field) in cases {
        let res = app.get(uri, None).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{uri}: {:?}", res.body);
        assert_eq!(res.field(), Some(field), "{uri}: {:?}", res.body);
    }
    let token = Some(a.admin.token.as_str());
    for (method, uri, field) in [
        (
            http::Method::PATCH,
            "/api/admin/ambulance/status?ambulanceId=1&status=BROKEN",
            "status",
        ),
        (
            http::Method::PATCH,
            "/api/admin/ambulance/status?ambulanceId=1",
            "status",
        ),
        (
            http::Method::PATCH,
            "/api/admin/ambulance/status?ambulanceId=0&status=AVAILABLE",
            "ambulanceId",
        ),
        (
            http::Method::DELETE,
            "/api/admin/hospitals/remove?hospitalId=1152921504606846976",
            "hospitalId",
        ),
        (
            http::Method::DELETE,
            "/api/admin/hospitals/remove",
            "hospitalId",
        ),
        (
            http::Method::DELETE,
            "/api/admin/ambulances/remove?ambulanceId=-1",
            "ambulanceId",
        ),
    ] {
        let res = a.admin_app.call(method, uri, token, None).await;
        res.assert_field(StatusCode::BAD_REQUEST, field);
    }
    for (body, field) in [
        (json!({"name":"n","address":"a","latitude":1}), "longitude"),
        (
            json!({"name":"x".repeat(201),"address":"a","latitude":1,"longitude":1}),
            "name",
        ),
        (
            json!({"name":"n","address":"a","latitude":"1","longitude":1}),
            "latitude",
        ),
        (
            json!({"name":"n","address":"a","latitude":1,"longitude":1,"contactInfo":"9".repeat(101)}),
            "contactInfo",
        ),
    ] {
        let res = a.admin_app.add_hospital(token, body).await;
        res.assert_field(StatusCode::BAD_REQUEST, field);
    }
    for (body, field) in [
        (json!({"status":"AVAILABLE","hospital":{"id":1}}), "number"),
        (
            json!({"number":"  ","status":"AVAILABLE","hospital":{"id":1}}),
            "number",
        ),
        (
            json!({"number":"X".repeat(33),"status":"AVAILABLE","hospital":{"id":1}}),
            "number",
        ),
        (json!({"number":"X","status":"AVAILABLE"}), "hospital"),
        (
            json!({"number":"X","status":"AVAILABLE","hospital":{"id":0}}),
            "hospital.id",
        ),
        (json!({"number":"X","hospital":{"id":1}}), "status"),
    ] {
        let res = a.admin_app.add_ambulance(token, body).await;
        res.assert_field(StatusCode::BAD_REQUEST, field);
    }
    let res = a
        .admin_app
        .add_hospital(
            token,
            json!({"name":" ","address":"a","latitude":1,"longitude":1}),
        )
        .await;
    res.assert_field(StatusCode::BAD_REQUEST, "name");
    let res = a
        .admin_app
        .add_hospital(
            token,
            json!({"name":"n","address":"a","latitude":91,"longitude":1}),
        )
        .await;
    res.assert_field(StatusCode::BAD_REQUEST, "latitude");
    let res = a
        .admin_app
        .add_ambulance(
            token,
            json!({"number":"X","status":"ON_DUTY","hospital":{"id":1}}),
        )
        .await;
    res.assert_field(StatusCode::BAD_REQUEST, "status");
    let res = a
        .admin_app
        .add_ambulance(
            token,
            json!({"number":"X","status":"AVAILABLE","hospital":{"id":1},"type":"JET"}),
        )
        .await;
    res.assert_field(StatusCode::BAD_REQUEST, "type");
    let res = a
        .admin_app
        .add_ambulance(
            token,
            json!({"number":"X","status":"AVAILABLE","hospital":{"id":424242}}),
        )
        .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    assert_eq!(
        a.counts("").await,
        AmbulanceCounts::default(),
        "nothing was written"
    );
}

#[tokio::test]
async fn public_reads_hide_driver_and_contact_details() {
    let a = apps().await;
    let h = a
        .add_hospital("City Hospital", Point::new(30.0, 74.0))
        .await;
    a.add_ambulance("PB-01", &h, "AVAILABLE").await;
    let user = a.admin_app.user("reader").await;
    for uri in [
        "/api/ambulances/available/all".to_owned(),
        format!("/api/ambulances/hospital/{}", h["id"]),
        format!("/api/ambulances/available?hospitalId={}", h["id"]),
    ] {
        let anon = a.ambulances.get(&uri, None).await;
        assert_eq!(anon.status, StatusCode::OK, "{uri}");
        assert!(
            anon.body[0].get("driverInfo").is_none(),
            "{uri}: {:?}",
            anon.body
        );
        assert!(anon.body[0].get("contactInfo").is_none());
        assert_eq!(anon.body[0]["hospital"]["name"], "City Hospital");
        let signed = a.ambulances.get(&uri, Some(&user.token)).await;
        assert_eq!(signed.body[0]["driverInfo"], "Ravi Kumar", "{uri}");
        assert_eq!(signed.body[0]["type"], "ALS");
    }
}

#[tokio::test]
async fn ambulance_numbers_are_unique_and_statuses_move() {
    let a = apps().await;
    let token = Some(a.admin.token.as_str());
    let h = a.add_hospital("General", Point::new(30.0, 74.0)).await;
    let amb = a.add_ambulance("PB-10-AB-1234", &h, "AVAILABLE").await;
    let dup = a
        .admin_app
        .add_ambulance(
            token,
            json!({"number":"pb-10-ab-1234","status":"AVAILABLE","hospital":{"id":h["id"]}}),
        )
        .await;
    assert_eq!(dup.status, StatusCode::CONFLICT);
    assert!(dup.message().contains("already exists"));

    let res = a
        .admin_app
        .patch(
            &format!(
                "/api/admin/ambulance/status?ambulanceId={}&status=on_duty",
                amb["id"]
            ),
            token,
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "statuses parse in any case");
    assert_eq!(res.body["status"], "ON_DUTY");
    let listed = a
        .admin_app
        .get("/api/admin/ambulances/all", token)
        .await
        .body;
    assert_eq!(
        listed,
        json!([res.body]),
        "the answer is the ambulance as stored"
    );
    assert_eq!(
        res.body["driverInfo"], "Ravi Kumar",
        "admins see the driver"
    );
    let avail = a
        .ambulances
        .get("/api/ambulances/available/all", None)
        .await;
    assert_eq!(avail.body, json!([]), "not listed as available any more");
    assert_eq!(
        a.counts("").await,
        AmbulanceCounts {
            total: 1,
            available: 0,
            on_duty: 1,
            maintenance: 0
        }
    );
    let res = a
        .admin_app
        .patch(
            &format!(
                "/api/admin/ambulance/status?ambulanceId={}&status=AVAILABLE",
                amb["id"]
            ),
            token,
        )
        .await;
    assert_eq!(res.body["status"], "AVAILABLE");
    assert_eq!(
        a.ambulances
            .get("/api/ambulances/available/all", None)
            .await
            .body
            .as_array()
            .unwrap()
            .len(),
        1
    );

    let res = a
        .admin_app
        .delete(
            &format!("/api/admin/ambulances/remove?ambulanceId={}", amb["id"]),
            token,
        )
        .await;
    assert_eq!(res.status, StatusCode::NO_CONTENT);
    assert_eq!(a.counts("").await, AmbulanceCounts::default());
    let again = a.add_ambulance("PB-10-AB-1234", &h, "MAINTENANCE").await;
    assert_eq!(again["status"], "MAINTENANCE", "the number is free again");
}

/// What a booking does to an ambulance (the booking function does it in its own
/// transaction): here, to prove admins cannot free or remove a held ambulance.
async fn hold(a: &Apps, ambulance: &Value, booking: u64) {
    assert!(
        try_hold(a, ambulance, booking).await,
        "could not hold {ambulance}"
    );
}

async fn try_hold(a: &Apps, ambulance: &Value, booking: u64) -> bool {
    let store = &a.admin_app.state.store;
    let id = id_of(ambulance);
    let hospital = Id::try_from(ambulance["hospitalId"].as_u64().unwrap()).unwrap();
    let mut tx = Tx::new();
    StatusMove {
        ambulance: id,
        hospital_of_ambulance: hospital,
        from: AmbulanceStatus::Available,
        to: AmbulanceStatus::OnDuty,
        require_hospital: Some(hospital),
        expected_holder: None,
        held_by: Some(Id::try_from(booking).unwrap()),
        free_at: None,
    }
    .push_into(&mut tx)
    .unwrap();
    store.commit(tx).await.is_ok()
}

/// What the end of a booking does: ON_DUTY held by `booking` back to AVAILABLE.
async fn try_release(a: &Apps, ambulance: &Value, booking: u64) -> bool {
    let store = &a.admin_app.state.store;
    let hospital = Id::try_from(ambulance["hospitalId"].as_u64().unwrap()).unwrap();
    let mut tx = Tx::new();
    StatusMove {
        ambulance: id_of(ambulance),
        hospital_of_ambulance: hospital,
        from: AmbulanceStatus::OnDuty,
        to: AmbulanceStatus::Available,
        require_hospital: None,
        expected_holder: Some(Id::try_from(booking).unwrap()),
        held_by: None,
        free_at: store.fleet().free_spot(id_of(ambulance)).await.unwrap(),
    }
    .push_into(&mut tx)
    .unwrap();
    store.commit(tx).await.is_ok()
}

#[tokio::test]
async fn held_ambulances_cannot_be_freed_or_removed_nor_their_hospital() {
    let a = apps().await;
    let token = Some(a.admin.token.as_str());
    let h = a.add_hospital("Busy", Point::new(30.0, 74.0)).await;
    let held = a.add_ambulance("HELD-1", &h, "AVAILABLE").await;
    let idle = a.add_ambulance("IDLE-1", &h, "MAINTENANCE").await;
    hold(&a, &held, 77).await;
    for status in ["AVAILABLE", "MAINTENANCE"] {
        let res = a
            .admin_app
            .patch(
                &format!(
                    "/api/admin/ambulance/status?ambulanceId={}&status={status}",
                    held["id"]
                ),
                token,
            )
            .await;
        assert_eq!(res.status, StatusCode::CONFLICT, "{status}");
        assert!(res.message().contains("#77"), "{}", res.message());
    }
    let res = a
        .admin_app
        .delete(
            &format!("/api/admin/ambulances/remove?ambulanceId={}", held["id"]),
            token,
        )
        .await;
    assert_eq!(res.status, StatusCode::CONFLICT);
    let res = a.admin_app.remove_hospital(token, &h["id"]).await;
    assert_eq!(res.status, StatusCode::CONFLICT);
    assert!(res.message().contains("#77"), "{}", res.message());
    // Nothing was removed.
    assert_eq!(
        a.counts("").await,
        AmbulanceCounts {
            total: 2,
            available: 0,
            on_duty: 1,
            maintenance: 1
        }
    );
    assert_eq!(
        a.hospitals
            .get(&format!("/api/hospitals/{}", h["id"]), None)
            .await
            .status,
        StatusCode::OK
    );
    let _ = idle;
}

#[tokio::test]
async fn removing_a_hospital_takes_its_idle_ambulances() {
    let a = apps().await;
    let token = Some(a.admin.token.as_str());
    let keep = a.add_hospital("Keep", Point::new(30.0, 74.0)).await;
    let gone = a.add_hospital("Gone", Point::new(30.1, 74.1)).await;
    a.add_ambulance("K-1", &keep, "AVAILABLE").await;
    for i in 0..50 {
        a.add_ambulance(
            &format!("G-{i}"),
            &gone,
            if i % 3 == 0 {
                "MAINTENANCE"
            } else {
                "AVAILABLE"
            },
        )
        .await;
    }
    let res = a.admin_app.remove_hospital(token, &gone["id"]).await;
    res.assert_status(StatusCode::NO_CONTENT);
    assert_eq!(
        a.hospitals
            .get(&format!("/api/hospitals/{}", gone["id"]), None)
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        a.hospitals.get("/api/hospitals/all", None).await.body["totalElements"],
        1
    );
    assert_eq!(
        a.counts("").await,
        AmbulanceCounts {
            total: 1,
            available: 1,
            on_duty: 0,
            maintenance: 0
        }
    );
    assert_eq!(a.counts("").await, a.recount().await);
    let res = a.admin_app.remove_hospital(token, &gone["id"]).await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn counters_equal_a_recount_after_random_operations() {
    let a = apps().await;
    let token = Some(a.admin.token.as_str());
    let mut rng = StdRng::seed_from_u64(42);
    let hospitals = [
        a.add_hospital("A", Point::new(30.0, 74.0)).await,
        a.add_hospital("B", Point::new(30.2, 74.2)).await,
    ];
    let mut fleet: Vec<Value> = vec![];
    // ambulance id -> the booking holding it
    let mut held: std::collections::HashMap<u64, u64> = Default::default();
    for step in 0..90u64 {
        match rng.random_range(0..6) {
            0 | 1 if fleet.len() < 12 => {
                let h = &hospitals[rng.random_range(0..2)];
                let status = if rng.random_bool(0.7) {
                    "AVAILABLE"
                } else {
                    "MAINTENANCE"
                };
                fleet.push(a.add_ambulance(&format!("R-{step}"), h, status).await);
            }
            2 if !fleet.is_empty() => {
                let amb = &fleet[rng.random_range(0..fleet.len())];
                let status = ["AVAILABLE", "ON_DUTY", "MAINTENANCE"][rng.random_range(0..3)];
                let res = a
                    .admin_app
                    .patch(
                        &format!(
                            "/api/admin/ambulance/status?ambulanceId={}&status={status}",
                            amb["id"]
                        ),
                        token,
                    )
                    .await;
                let amb_id = amb["id"].as_u64().unwrap();
                if held.contains_key(&amb_id) && status != "ON_DUTY" {
                    assert_eq!(res.status, StatusCode::CONFLICT);
                } else {
                    res.assert_status(StatusCode::OK);
                }
            }
            3 if !fleet.is_empty() => {
                // A booking takes an ambulance (only an AVAILABLE free one moves).
                let amb = fleet[rng.random_range(0..fleet.len())].clone();
                let amb_id = amb["id"].as_u64().unwrap();
                if try_hold(&a, &amb, 1000 + step).await {
                    held.insert(amb_id, 1000 + step);
                }
            }
            4 if !held.is_empty() => {
                // A booking ends and frees its ambulance.
                let (&amb_id, &booking) = held.iter().next().unwrap();
                let amb = fleet.iter().find(|f| f["id"] == amb_id).unwrap().clone();
                assert!(try_release(&a, &amb, booking).await);
                held.remove(&amb_id);
            }
            _ if !fleet.is_empty() => {
                let i = rng.random_range(0..fleet.len());
                let amb_id = fleet[i]["id"].as_u64().unwrap();
                let res = a
                    .admin_app
                    .delete(
                        &format!("/api/admin/ambulances/remove?ambulanceId={amb_id}"),
                        token,
                    )
                    .await;
                if let Some(booking) = held.get(&amb_id) {
                    assert_eq!(res.status, StatusCode::CONFLICT);
                    assert!(
                        res.message().contains(&format!("#{booking}")),
                        "{}",
                        res.message()
                    );
                } else {
                    assert_eq!(res.status, StatusCode::NO_CONTENT);
                    fleet.swap_remove(i);
                }
            }
            _ => {}
        }
    }
    assert_eq!(a.counts("").await, a.recount().await);
    for h in &hospitals {
        let per = a.counts(&format!("?hospitalId={}", h["id"])).await;
        let list = a
            .ambulances
            .get(&format!("/api/ambulances/hospital/{}", h["id"]), None)
            .await;
        assert_eq!(per.total as usize, list.body.as_array().unwrap().len());
    }
}

#[tokio::test]
async fn a_big_hospital_with_one_held_ambulance_is_not_touched() {
    let a = apps().await;
    let token = Some(a.admin.token.as_str());
    let h = a.add_hospital("Big", Point::new(30.0, 74.0)).await;
    let mut fleet = vec![];
    for i in 0..60 {
        fleet.push(a.add_ambulance(&format!("BIG-{i}"), &h, "AVAILABLE").await);
    }
    hold(&a, &fleet[57], 4242).await;
    let before = a.counts("").await;
    let res = a.admin_app.remove_hospital(token, &h["id"]).await;
    assert_eq!(res.status, StatusCode::CONFLICT);
    assert!(
        res.message().contains("#4242") && res.message().contains("BIG-57"),
        "{}",
        res.message()
    );
    assert_eq!(a.counts("").await, before, "nothing was removed");
    assert_eq!(a.recount().await, before);

    // Once the booking ends, the whole fleet (two transactions) goes with it.
    assert!(try_release(&a, &fleet[57], 4242).await);
    let res = a.admin_app.remove_hospital(token, &h["id"]).await;
    res.assert_status(StatusCode::NO_CONTENT);
    assert_eq!(a.counts("").await, AmbulanceCounts::default());
    assert_eq!(a.recount().await, AmbulanceCounts::default());
    // The numbers are free again.
    let other = a.add_hospital("Other", Point::new(30.0, 74.0)).await;
    a.add_ambulance("BIG-0", &other, "AVAILABLE").await;
}

#[tokio::test]
async fn a_small_hospital_goes_in_one_transaction_with_its_numbers_freed() {
    let a = apps().await;
    let token = Some(a.admin.token.as_str());
    let h = a.add_hospital("Small", Point::new(30.0, 74.0)).await;
    for (i, status) in ["AVAILABLE", "MAINTENANCE", "AVAILABLE"].iter().enumerate() {
        a.add_ambulance(&format!("S-{i}"), &h, status).await;
    }
    let amb = a.add_ambulance("S-3", &h, "AVAILABLE").await;
    let res = a
        .admin_app
        .patch(
            &format!(
                "/api/admin/ambulance/status?ambulanceId={}&status=ON_DUTY",
                amb["id"]
            ),
            token,
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "manual ON_DUTY, no booking");
    let res = a.admin_app.remove_hospital(token, &h["id"]).await;
    res.assert_status(StatusCode::NO_CONTENT);
    assert_eq!(a.counts("").await, AmbulanceCounts::default());
    assert_eq!(
        a.hospitals.get("/api/hospitals/all", None).await.body["totalElements"],
        0
    );
    let res = a
        .ambulances
        .get(&format!("/api/ambulances/hospital/{}", h["id"]), None)
        .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
    let other = a.add_hospital("Other", Point::new(30.0, 74.0)).await;
    a.add_ambulance("s-3", &other, "AVAILABLE").await;
}
