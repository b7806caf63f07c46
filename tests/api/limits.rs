//! Abuse of legitimate accounts (issue 16), tried as an attacker would: many requests
//! at once, spread over 16 instances of the functions (as Lambda runs them under
//! load) over one table. One account cannot hold more than 3 open bookings.

use futures::future::join_all;
use http::StatusCode;
use serde_json::{Value, json};
use shared::{
    domain::ambulance::AmbulanceStatus,
    testing::{TestApp, TestResponse, TestUser},
    types::Id,
};

const INSTANCES: usize = 16;

/// A hospital with `n` free ambulances; their ids.
async fn fleet(app: &TestApp, n: usize) -> (Id, Vec<Id>) {
    let hospital = app.seed_hospital("General", 30.67, 74.33).await;
    let mut ambulances = vec![];
    for i in 0..n {
        let amb = app
            .seed_ambulance(hospital.id, &format!("F-{i}"), AmbulanceStatus::Available)
            .await;
        ambulances.push(amb.id);
    }
    (hospital.id, ambulances)
}

fn booking(hospital: Id, ambulance: Id) -> Value {
    json!({"hospitalId": hospital, "ambulanceId": ambulance,
        "patient": {"name": "P", "age": 40, "gender": "Male", "condition": "c"}})
}

fn statuses(results: &[TestResponse]) -> Vec<u16> {
    let mut s: Vec<u16> = results.iter().map(|r| r.status.as_u16()).collect();
    s.sort();
    s
}

/// The ids of `user`'s open bookings, from their history (newest first).
async fn open_in_history(app: &TestApp, user: &TestUser) -> Vec<Id> {
    let history = app.get("/api/booking/history", Some(&user.token)).await;
    let mut ids: Vec<Id> = history
        .body
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| matches!(b["bookingStatus"].as_str(), Some("PENDING" | "ACTIVE")))
        .map(|b| serde_json::from_value(b["id"].clone()).unwrap())
        .collect();
    ids.sort();
    ids
}

/// The guard item holds exactly the user's open bookings (a recount).
async fn assert_guard_recounts(app: &TestApp, user: &TestUser) -> usize {
    let open = open_in_history(app, user).await;
    assert_eq!(
        app.state.store.open_booking_ids(user.id).await.unwrap(),
        open,
        "the open-bookings guard equals a recount"
    );
    open.len()
}

#[tokio::test]
async fn one_account_holds_at_most_three_open_bookings() {
    let app = TestApp::new(api_tests::system).await;
    let (h, ambs) = fleet(&app, 12).await;
    let user = app.user("hoarder").await;
    let admin = app.admin().await;
    let nodes = app.instances(INSTANCES, api_tests::system).await;

    // Ten at once, each for another free ambulance, over 16 instances.
    let results = join_all((0..10).map(|i| {
        nodes[i % INSTANCES].post("/api/booking/book", Some(&user.token), booking(h, ambs[i]))
    }))
    .await;
    assert_eq!(
        statuses(&results),
        [[201; 3].as_slice(), &[409; 7]].concat()
    );
    for r in results.iter().filter(|r| r.status == StatusCode::CONFLICT) {
        assert_eq!(r.message(), "You already have 3 open bookings");
    }
    // The refused ones wrote nothing: their ambulances are free, three bookings exist.
    let available = app
        .get(&format!("/api/ambulances/available?hospitalId={h}"), None)
        .await;
    assert_eq!(available.body.as_array().unwrap().len(), 12 - 3);
    assert_eq!(assert_guard_recounts(&app, &user).await, 3);

    // A cancelled one frees a place; the next one is refused again.
    let mine: Vec<&Value> = results
        .iter()
        .filter(|r| r.status == StatusCode::CREATED)
        .map(|r| &r.body)
        .collect();
    let cancel = format!("/api/booking/cancel?bookingId={}", mine[0]["id"]);
    assert_eq!(
        app.patch(&cancel, Some(&user.token)).await.status,
        StatusCode::OK
    );
    let res = app
        .post("/api/booking/book", Some(&user.token), booking(h, ambs[10]))
        .await;
    assert_eq!(res.status, StatusCode::CREATED, "{:?}", res.body);
    let res = app
        .post("/api/booking/book", Some(&user.token), booking(h, ambs[11]))
        .await;
    assert_eq!(
        (res.status, res.message()),
        (StatusCode::CONFLICT, "You already have 3 open bookings")
    );

    // An admin completing one (through ACTIVE) frees a place too.
    let status =
        |id: &Value, to: &str| format!("/api/admin/bookings/status?bookingId={id}&status={to}");
    for to in ["ACTIVE", "COMPLETED"] {
        let res = app
            .patch(&status(&mine[1]["id"], to), Some(&admin.token))
            .await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.body);
    }
    assert_eq!(assert_guard_recounts(&app, &user).await, 2);

    // Admins booking for the user are exempt, and counted: the user is then over.
    let held: Vec<Id> = mine[2..]
        .iter()
        .map(|b| serde_json::from_value(b["ambulanceId"].clone()).unwrap())
        .chain([ambs[10]])
        .collect();
    let free: Vec<Id> = ambs.iter().copied().filter(|a| !held.contains(a)).collect();
    for &amb in &free[..3] {
        let res = app
            .post(
                &format!("/api/booking/book?userId={}", user.id),
                Some(&admin.token),
                booking(h, amb),
            )
            .await;
        assert_eq!(res.status, StatusCode::CREATED, "{:?}", res.body);
    }
    assert_eq!(assert_guard_recounts(&app, &user).await, 5);
    let res = app
        .post("/api/booking/book", Some(&user.token), booking(h, free[3]))
        .await;
    assert_eq!(
        (res.status, res.message()),
        (StatusCode::CONFLICT, "You already have 3 open bookings")
    );
}
