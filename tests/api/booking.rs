//! Booking against DynamoDB Local: no double booking under a race, idempotent
//! retries, the state machine, who may do what, and bad input that writes nothing.

use domain::{
    ambulance::AmbulanceCounts,
    booking::{BookingCounts, BookingStatus},
};
use futures::future::join_all;
use http::{Method, StatusCode};
use serde_json::{Value, json};
use strum::VariantArray;
use testkit::{TestApp, TestResponse, TestUser};

struct World {
    booking: TestApp,
    admin_app: TestApp,
    admin: TestUser,
    hospital: Value,
    ambulance: Value,
}

async fn world() -> World {
    let booking = TestApp::new(api_tests::system).await;
    let admin_app = booking.with_router(api_tests::system);
    let admin = admin_app.admin().await;
    let hospital = admin_app
        .add_hospital(
            Some(&admin.token),
            json!({"name":"General","address":"1 Main St","latitude":30.67,"longitude":74.33}),
        )
        .await
        .body;
    let w = World {
        booking,
        admin_app,
        admin,
        hospital,
        ambulance: Value::Null,
    };
    let ambulance = w.add_ambulance("PB-01").await;
    World { ambulance, ..w }
}

impl World {
    async fn add_ambulance(&self, number: &str) -> Value {
        let res = self
            .admin_app
            .add_ambulance(
                Some(&self.admin.token),
                json!({"number": number, "status": "AVAILABLE", "hospital": {"id": self.hospital["id"]}, "driverInfo": "R. Kumar", "type": "ALS"}),
            )
            .await;
        res.assert_status(StatusCode::CREATED);
        res.body
    }

    fn body(&self, ambulance: &Value) -> Value {
        json!({
            "hospitalId": self.hospital["id"],
            "ambulanceId": ambulance["id"],
            "bookingType": "EMERGENCY",
            "patient": {"name": "Asha", "age": 67, "gender": "Female", "condition": "Chest pain"}
        })
    }

    async fn book(&self, user: &TestUser, body: Value, key: Option<&str>) -> TestResponse {
        self.booking
            .post_keyed("/api/booking/book", &user.token, &body, key)
            .await
    }

    async fn set_status(&self, booking: &Value, status: &str) -> TestResponse {
        self.admin_app
            .patch(
                &format!(
                    "/api/admin/bookings/status?bookingId={}&status={status}",
                    booking["id"]
                ),
                Some(&self.admin.token),
            )
            .await
    }

    /// A GET as the admin.
    async fn admin_get(&self, uri: &str) -> TestResponse {
        self.admin_app.get(uri, Some(&self.admin.token)).await
    }

    async fn ambulance_status(&self, ambulance: &Value) -> String {
        let token = Some(self.admin.token.as_str());
        let listed = crate::helpers::listed_ambulance(&self.admin_app, token, ambulance).await;
        listed["status"].as_str().unwrap().to_owned()
    }

    async fn stats(&self) -> Value {
        let res = self
            .admin_app
            .get("/api/admin/stats", Some(&self.admin.token))
            .await;
        res.assert_status(StatusCode::OK);
        res.body
    }

    /// The counters equal a recount of what is stored.
    async fn assert_counters_exact(&self) {
        let stats = self.stats().await;
        let fleet: AmbulanceCounts = serde_json::from_value(stats["ambulances"].clone()).unwrap();
        assert_eq!(
            fleet,
            crate::helpers::fleet_recount(&self.admin_app, &self.admin.token).await
        );
        let recount = crate::helpers::booking_recount(&self.admin_app, &self.admin.token).await;
        assert_eq!(
            serde_json::from_value::<BookingCounts>(stats["bookings"].clone()).unwrap(),
            recount
        );
        assert_eq!(stats["todayBookings"], recount.total);
    }
}

#[tokio::test]
async fn a_booking_holds_the_ambulance_and_keeps_the_names() {
    let w = world().await;
    let user = w.booking.user("asha").await;
    let res = w.book(&user, w.body(&w.ambulance), None).await;
    res.assert_status(StatusCode::CREATED);
    let b = &res.body;
    assert_eq!(b["bookingStatus"], "PENDING");
    assert_eq!(b["bookingType"], "EMERGENCY");
    assert_eq!(b["userId"], user.id.get());
    assert_eq!(b["username"], "asha");
    assert_eq!(b["userEmail"], "asha@example.com");
    assert_eq!(b["hospitalName"], "General");
    assert_eq!(b["hospital"]["address"], "1 Main St");
    assert_eq!(b["ambulanceNumber"], "PB-01");
    assert_eq!(b["ambulance"]["driverInfo"], "R. Kumar");
    assert_eq!(b["ambulance"]["type"], "ALS");
    assert_eq!(
        b["patient"],
        json!({"name": "Asha", "age": 67, "gender": "Female", "condition": "Chest pain"})
    );
    assert!(b["bookingTime"].as_str().unwrap().ends_with('Z'));
    assert_eq!(w.ambulance_status(&w.ambulance).await, "ON_DUTY");

    // The held ambulance cannot be freed, removed, or booked again.
    let res = w
        .admin_app
        .patch(
            &format!(
                "/api/admin/ambulance/status?ambulanceId={}&status=AVAILABLE",
                w.ambulance["id"]
            ),
            Some(&w.admin.token),
        )
        .await;
    assert_eq!(res.status, StatusCode::CONFLICT);
    let res = w
        .admin_app
        .remove_hospital(Some(&w.admin.token), &w.hospital["id"])
        .await;
    assert_eq!(res.status, StatusCode::CONFLICT);
    assert!(
        res.message().contains(&format!("#{}", b["id"])),
        "{}",
        res.message()
    );
    let other = w.booking.user("other").await;
    let res = w.book(&other, w.body(&w.ambulance), None).await;
    res.assert_message(StatusCode::CONFLICT, "Ambulance is no longer available");

    // History and the single booking.
    let hist = w
        .booking
        .get("/api/booking/history", Some(&user.token))
        .await;
    assert_eq!(hist.body.as_array().unwrap().len(), 1);
    let one = w
        .booking
        .get(&format!("/api/booking/{}", b["id"]), Some(&user.token))
        .await;
    assert_eq!(one.body["id"], b["id"]);
    w.assert_counters_exact().await;
}

#[tokio::test]
async fn only_one_of_a_hundred_racers_gets_the_ambulance() {
    let w = world().await;
    let mut users = vec![];
    for i in 0..100 {
        users.push(w.booking.user(&format!("racer{i}")).await);
    }
    let body = w.body(&w.ambulance);
    let results = join_all(users.iter().map(|u| w.book(u, body.clone(), None))).await;
    let created = results
        .iter()
        .filter(|r| r.status == StatusCode::CREATED)
        .count();
    let conflicts: Vec<_> = results
        .iter()
        .filter(|r| r.status == StatusCode::CONFLICT)
        .collect();
    assert_eq!(
        created,
        1,
        "{:?}",
        results.iter().map(|r| r.status).collect::<Vec<_>>()
    );
    assert_eq!(
        conflicts.len(),
        99,
        "{:?}",
        results
            .iter()
            .filter(|r| r.status != StatusCode::CONFLICT)
            .map(|r| (r.status, r.message()))
            .collect::<Vec<_>>()
    );
    assert!(
        conflicts
            .iter()
            .all(|r| r.message() == "Ambulance is no longer available")
    );
    assert_eq!(w.ambulance_status(&w.ambulance).await, "ON_DUTY");
    let page = w.admin_get("/api/admin/bookings/all/paged").await;
    assert_eq!(page.body["totalElements"], 1);
    assert_eq!(page.body["content"].as_array().unwrap().len(), 1);
    w.assert_counters_exact().await;
}

#[tokio::test]
async fn retries_with_one_idempotency_key_make_one_booking() {
    let w = world().await;
    let user = w.booking.user("retrier").await;
    let key = uuid::Uuid::new_v4().to_string();
    let body = w.body(&w.ambulance);
    let results = join_all((0..20).map(|_| w.book(&user, body.clone(), Some(&key)))).await;
    let ids: Vec<_> = results
        .iter()
        .map(|r| (r.status, r.body["id"].clone()))
        .collect();
    assert!(
        ids.iter()
            .all(|(s, id)| *s == StatusCode::CREATED && *id == ids[0].1),
        "{ids:?}"
    );
    let hist = w
        .booking
        .get("/api/booking/history", Some(&user.token))
        .await;
    assert_eq!(hist.body.as_array().unwrap().len(), 1);

    // A later retry still answers with the first booking...
    let again = w.book(&user, body.clone(), Some(&key)).await;
    assert_eq!(
        (again.status, again.body["id"].clone()),
        (StatusCode::CREATED, ids[0].1.clone())
    );
    // ...but the same key with another request is refused.
    let mut other = body.clone();
    other["patient"]["age"] = json!(12);
    let res = w.book(&user, other, Some(&key)).await;
    assert_eq!(
        res.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{:?}",
        res.body
    );
    let res = w.book(&user, body, Some("has space")).await;
    res.assert_field(StatusCode::BAD_REQUEST, "Idempotency-Key");
    w.assert_counters_exact().await;
}

#[tokio::test]
async fn all_sixteen_status_moves_of_the_admin_dropdown() {
    use BookingStatus::*;
    let w = world().await;
    for from in BookingStatus::VARIANTS.iter().copied() {
        for to in BookingStatus::VARIANTS.iter().copied() {
            // A fresh user, ambulance and booking brought to `from` by allowed moves
            // (a user may hold only 3 open bookings).
            let user = w.booking.user(&format!("mover-{from}-{to}")).await;
            let amb = w.add_ambulance(&format!("M-{from}-{to}")).await;
            let b = w.book(&user, w.body(&amb), None).await.body;
            let path: &[BookingStatus] = match from {
                Pending => &[],
                Active => &[Active],
                Completed => &[Active, Completed],
                Cancelled => &[Cancelled],
            };
            for step in path {
                assert_eq!(w.set_status(&b, step.as_ref()).await.status, StatusCode::OK);
            }
            let before = w.ambulance_status(&amb).await;
            let res = w.set_status(&b, to.as_ref()).await;
            // The admin's dropdown (docs/decisions/0007-dispatch-data.md): ACTIVE from PENDING, and
            // COMPLETED or CANCELLED from any open status.
            let allowed = matches!(
                (from, to),
                (Pending, Active | Completed | Cancelled) | (Active, Completed | Cancelled)
            );
            if allowed {
                assert_eq!(res.status, StatusCode::OK, "{from}->{to}: {:?}", res.body);
                assert_eq!(res.body["bookingStatus"], to.as_ref());
                let expect = if to.is_final() {
                    "AVAILABLE"
                } else {
                    "ON_DUTY"
                };
                assert_eq!(w.ambulance_status(&amb).await, expect, "{from}->{to}");
            } else {
                assert_eq!(res.status, StatusCode::CONFLICT, "{from}->{to}");
                assert!(
                    res.message().contains(&format!("from {from} to {to}")),
                    "{}",
                    res.message()
                );
                assert_eq!(
                    w.ambulance_status(&amb).await,
                    before,
                    "{from}->{to} changed nothing"
                );
                let now = w
                    .booking
                    .get(&format!("/api/booking/{}", b["id"]), Some(&user.token))
                    .await;
                assert_eq!(now.body["bookingStatus"], from.as_ref());
            }
        }
    }
    w.assert_counters_exact().await;
}

#[tokio::test]
async fn users_cancel_their_own_open_bookings_only() {
    let w = world().await;
    let a = w.booking.user("user_a").await;
    let b = w.booking.user("user_b").await;
    let booking = w.book(&a, w.body(&w.ambulance), None).await.body;
    let id = &booking["id"];

    // B cannot act for A in any way.
    let res = w
        .booking
        .call(
            Method::POST,
            &format!("/api/booking/book?userId={}", a.id),
            Some(&b.token),
            Some(w.body(&w.ambulance)),
        )
        .await;
    assert_eq!(res.status, StatusCode::FORBIDDEN);
    assert_eq!(
        w.booking
            .get(
                &format!("/api/booking/history?userId={}", a.id),
                Some(&b.token)
            )
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        w.booking
            .get(&format!("/api/booking/{id}"), Some(&b.token))
            .await
            .status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        w.booking.cancel_booking(Some(&b.token), id).await.status,
        StatusCode::FORBIDDEN
    );
    // Signed out: 401 everywhere.
    assert_eq!(
        w.booking.get("/api/booking/history", None).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        w.booking
            .get(&format!("/api/booking/{id}"), None)
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
    // Users get 403 on the admin booking routes.
    for (m, uri) in [
        (Method::GET, "/api/admin/bookings/all/paged".to_owned()),
        (
            Method::PATCH,
            format!("/api/admin/bookings/status?bookingId={id}&status=ACTIVE"),
        ),
        (Method::GET, "/api/admin/stats".to_owned()),
    ] {
        assert_eq!(
            w.admin_app
                .call(m.clone(), &uri, Some(&a.token), None)
                .await
                .status,
            StatusCode::FORBIDDEN,
            "{uri}"
        );
        assert_eq!(
            w.admin_app.call(m, &uri, None, None).await.status,
            StatusCode::UNAUTHORIZED,
            "{uri}"
        );
    }

    // A cancels: the ambulance is free again; a second cancel is refused.
    let res = w.booking.cancel_booking(Some(&a.token), id).await;
    assert_eq!(res.status, StatusCode::OK);
    assert_eq!(res.body["bookingStatus"], "CANCELLED");
    assert_eq!(w.ambulance_status(&w.ambulance).await, "AVAILABLE");
    let res = w.booking.cancel_booking(Some(&a.token), id).await;
    assert_eq!(res.status, StatusCode::CONFLICT);
    // An admin books on behalf of B.
    let res = w
        .booking
        .call(
            Method::POST,
            &format!("/api/booking/book?userId={}", b.id),
            Some(&w.admin.token),
            Some(w.body(&w.ambulance)),
        )
        .await;
    res.assert_status(StatusCode::CREATED);
    assert_eq!(res.body["username"], "user_b");
    w.assert_counters_exact().await;
}

#[tokio::test]
async fn bad_bookings_name_the_field_and_write_nothing() {
    let w = world().await;
    let user = w.booking.user("careless").await;
    for (patch, field) in testkit::bad_booking_fields() {
        let mut body = w.body(&w.ambulance);
        patch(&mut body);
        let res = w.book(&user, body.clone(), None).await;
        res.assert_field(StatusCode::BAD_REQUEST, field);
    }
    let res = w
        .booking
        .send(
            http::Request::builder()
                .method("POST")
                .uri("/api/booking/book")
                .header("authorization", format!("Bearer {}", user.token))
                .header("content-type", "application/json")
                .body(lambda_http::Body::from("{\"hospitalId\": 1,"))
                .unwrap(),
        )
        .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST);

    // Unknown ids are 404; another hospital's ambulance is 400.
    let mut body = w.body(&w.ambulance);
    body["ambulanceId"] = json!(999_999);
    assert_eq!(
        w.book(&user, body, None).await.status,
        StatusCode::NOT_FOUND
    );
    let mut body = w.body(&w.ambulance);
    body["hospitalId"] = json!(999_999);
    assert_eq!(
        w.book(&user, body, None).await.status,
        StatusCode::NOT_FOUND
    );
    let other = w
        .admin_app
        .add_hospital(
            Some(&w.admin.token),
            json!({"name":"Other","address":"x","latitude":30.0,"longitude":74.0}),
        )
        .await
        .body;
    let mut body = w.body(&w.ambulance);
    body["hospitalId"] = other["id"].clone();
    let res = w.book(&user, body, None).await;
    res.assert_field(StatusCode::BAD_REQUEST, "ambulanceId");

    assert_eq!(w.ambulance_status(&w.ambulance).await, "AVAILABLE");
    assert_eq!(
        w.stats().await["bookings"]["total"],
        0,
        "nothing was written"
    );
}

#[tokio::test]
async fn admin_pages_newest_first_and_history_survives_removal() {
    let w = world().await;
    let user = w.booking.user("frequent").await;
    let mut ids = vec![];
    for i in 0..12 {
        let amb = w.add_ambulance(&format!("P-{i}")).await;
        let b = w.book(&user, w.body(&amb), None).await.body;
        w.set_status(&b, "CANCELLED").await;
        ids.push(b["id"].as_u64().unwrap());
    }
    let first = w
        .admin_get("/api/admin/bookings/all/paged?page=0&size=5")
        .await;
    assert_eq!(
        (
            first.body["totalElements"].clone(),
            first.body["totalPages"].clone()
        ),
        (json!(12), json!(3))
    );
    let got: Vec<u64> = first.body["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_u64().unwrap())
        .collect();
    assert_eq!(got, ids.iter().rev().take(5).copied().collect::<Vec<_>>());
    let last = w
        .admin_get("/api/admin/bookings/all/paged?page=2&size=5")
        .await;
    assert_eq!(last.body["content"].as_array().unwrap().len(), 2);
    let res = w.admin_get("/api/admin/bookings/all/paged?size=101").await;
    res.assert_field(StatusCode::BAD_REQUEST, "size");
    let hist = w
        .booking
        .get("/api/booking/history", Some(&user.token))
        .await;
    let hist_ids: Vec<u64> = hist
        .body
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_u64().unwrap())
        .collect();
    assert_eq!(hist_ids, ids.iter().rev().copied().collect::<Vec<_>>());

    // Remove the hospital (all its ambulances are free now): history keeps the names.
    let res = w
        .admin_app
        .remove_hospital(Some(&w.admin.token), &w.hospital["id"])
        .await;
    res.assert_status(StatusCode::NO_CONTENT);
    let hist = w
        .booking
        .get("/api/booking/history", Some(&user.token))
        .await;
    assert_eq!(hist.body[0]["hospitalName"], "General");
    w.assert_counters_exact().await;
}
