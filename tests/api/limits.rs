//! Abuse of legitimate accounts (decision 0008), tried as an attacker would: many requests
//! at once, spread over 16 instances of the functions (as Lambda runs them under
//! load) over one table. One account cannot hold more than 3 open bookings, and
//! bookings and registrations are rate limited per account and per client address.

use domain::geo::Point;
use domain::{ambulance::AmbulanceStatus, types::Id};
use futures::future::join_all;
use http::{Method, StatusCode};
use serde_json::{Value, json};
use store::limits::{BOOKINGS_PER_ADDRESS, BOOKINGS_PER_USER, Limit, REGISTRATIONS_PER_ADDRESS};
use testkit::{TestApp, TestResponse, TestUser};

use crate::helpers::crew_steps_to_completion;

const INSTANCES: usize = 16;

/// A hospital with `n` free ambulances; their ids.
async fn fleet(app: &TestApp, n: usize) -> (Id, Vec<Id>) {
    let hospital = app.seed_hospital("General", Point::new(30.67, 74.33)).await;
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

fn count(results: &[TestResponse], status: StatusCode) -> usize {
    results.iter().filter(|r| r.status == status).count()
}

/// Exactly `passed` of the requests got past `limit`, the others a 429 that says
/// its message and when to come back (within the limit's window).
fn assert_limited(results: &[TestResponse], passed: usize, limit: &Limit) {
    let refused = count(results, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refused, results.len() - passed, "{:?}", statuses(results));
    for r in results
        .iter()
        .filter(|r| r.status == StatusCode::TOO_MANY_REQUESTS)
    {
        let secs = r.retry_after();
        assert!(
            (1..=limit.window_secs).contains(&secs),
            "Retry-After {secs}"
        );
        assert_eq!(r.message(), limit.message);
    }
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
        app.state
            .store
            .bookings()
            .open_booking_ids(user.id)
            .await
            .unwrap(),
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
    let results = join_all(
        (0..10).map(|i| nodes[i % INSTANCES].book(Some(&user.token), booking(h, ambs[i]))),
    )
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
    let res = app.book(Some(&user.token), booking(h, ambs[10])).await;
    res.assert_status(StatusCode::CREATED);
    let res = app.book(Some(&user.token), booking(h, ambs[11])).await;
    res.assert_message(StatusCode::CONFLICT, "You already have 3 open bookings");

    // An admin completing one (through ACTIVE) frees a place too.
    let status =
        |id: &Value, to: &str| format!("/api/admin/bookings/status?bookingId={id}&status={to}");
    for to in ["ACTIVE", "COMPLETED"] {
        let res = app
            .patch(&status(&mine[1]["id"], to), Some(&admin.token))
            .await;
        res.assert_status(StatusCode::OK);
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
        res.assert_status(StatusCode::CREATED);
    }
    assert_eq!(assert_guard_recounts(&app, &user).await, 5);
    let res = app.book(Some(&user.token), booking(h, free[3])).await;
    res.assert_message(StatusCode::CONFLICT, "You already have 3 open bookings");
}

/// The guard is released in the transaction of every move to a final status, the
/// crew's completion (decision 0007) included.
#[tokio::test]
async fn a_crew_completing_a_booking_frees_a_place() {
    let app = TestApp::new(api_tests::system).await;
    let (h, ambs) = fleet(&app, 4).await;
    let user = app.user("regular").await;
    let crew = app.crew("driver", ambs[0]).await;
    let mut booked = vec![];
    for &amb in &ambs[..3] {
        let res = app.book(Some(&user.token), booking(h, amb)).await;
        res.assert_status(StatusCode::CREATED);
        booked.push(res.body);
    }
    let res = app.book(Some(&user.token), booking(h, ambs[3])).await;
    res.assert_message(StatusCode::CONFLICT, "You already have 3 open bookings");
    for stage in crew_steps_to_completion() {
        let body = json!({"bookingId": booked[0]["id"], "stage": stage});
        let res = app.crew_step(Some(&crew.token), body).await;
        assert_eq!(res.status, StatusCode::OK, "{stage}: {:?}", res.body);
    }
    assert_eq!(assert_guard_recounts(&app, &user).await, 2);
    let res = app.book(Some(&user.token), booking(h, ambs[3])).await;
    res.assert_status(StatusCode::CREATED);
    assert_eq!(assert_guard_recounts(&app, &user).await, 3);
}

#[tokio::test]
async fn bookings_are_rate_limited_per_account_across_instances() {
    testkit::clear_of_a_window_edge(&BOOKINGS_PER_USER, 90).await;
    let app = TestApp::new(api_tests::system).await;
    let (h, ambs) = fleet(&app, 31).await;
    let user = app.user("flooder").await;
    let nodes = app.instances(INSTANCES, api_tests::system).await;
    let max = BOOKINGS_PER_USER.max;
    let key = |i: usize| format!("flood-{i}");
    let nodes = &nodes;
    let send = |n: usize, i: usize| {
        let mut req = testkit::json_request(
            Method::POST,
            "/api/booking/book",
            Some(&user.token),
            Some(booking(h, ambs[i])),
        );
        req.headers_mut()
            .insert("idempotency-key", key(i).parse().unwrap());
        nodes[n % INSTANCES].send(req)
    };

    // 30 at once: 20 pass the limit (3 booked, 17 over the open-bookings limit).
    let results = join_all((0..30).map(|i| send(i, i))).await;
    assert_limited(&results, max, &BOOKINGS_PER_USER);
    assert_eq!(count(&results, StatusCode::CREATED), 3);
    assert_eq!(count(&results, StatusCode::CONFLICT), max - 3);

    // A retry of a counted request is the same request: it gets its answer again.
    let booked = results
        .iter()
        .position(|r| r.status == StatusCode::CREATED)
        .unwrap();
    let again = send(0, booked).await;
    assert_eq!(
        (again.status, &again.body["id"]),
        (StatusCode::CREATED, &results[booked].body["id"])
    );
    // A new one is refused; another account is not affected.
    let refused = results
        .iter()
        .position(|r| r.status == StatusCode::TOO_MANY_REQUESTS)
        .unwrap();
    assert_eq!(send(1, refused).await.status, StatusCode::TOO_MANY_REQUESTS);
    let other = app.user("bystander").await;
    let res = app.book(Some(&other.token), booking(h, ambs[30])).await;
    res.assert_status(StatusCode::CREATED);
}

#[tokio::test]
async fn bookings_are_rate_limited_per_client_address() {
    testkit::clear_of_a_window_edge(&BOOKINGS_PER_ADDRESS, 90).await;
    let app = TestApp::new(api_tests::system).await;
    let max = BOOKINGS_PER_ADDRESS.max;
    let (h, ambs) = fleet(&app, max + 7).await;
    let mut users = vec![];
    for i in 0..max + 6 {
        users.push(app.user(&format!("sock{i}")).await);
    }
    let nodes = app.instances(INSTANCES, api_tests::system).await;
    let (nodes, users) = (&nodes, &users);
    let book_from = |n: usize, ip: &'static str, i: usize| {
        nodes[n % INSTANCES].call_from(
            ip,
            Method::POST,
            "/api/booking/book",
            Some(&users[i].token),
            Some(booking(h, ambs[i])),
        )
    };

    // Many accounts behind one address, all at once.
    let results = join_all((0..max + 5).map(|i| book_from(i, "203.0.113.9", i))).await;
    assert_limited(&results, max, &BOOKINGS_PER_ADDRESS);
    assert_eq!(count(&results, StatusCode::CREATED), max);

    // Another address is not affected; neither is a refused account elsewhere.
    let res = book_from(0, "198.51.100.20", max + 5).await;
    res.assert_status(StatusCode::CREATED);
    let refused = results
        .iter()
        .position(|r| r.status == StatusCode::TOO_MANY_REQUESTS)
        .unwrap();
    let res = book_from(0, "198.51.100.21", refused).await;
    res.assert_status(StatusCode::CREATED);
}

#[tokio::test]
async fn registrations_are_rate_limited_per_client_address() {
    testkit::clear_of_a_window_edge(&REGISTRATIONS_PER_ADDRESS, 90).await;
    let app = TestApp::new(api_tests::system).await;
    let nodes = app.instances(INSTANCES, api_tests::system).await;
    let max = REGISTRATIONS_PER_ADDRESS.max;
    let nodes = &nodes;
    let register_from = |n: usize, ip: String, name: String| {
        let body = json!({"username": name, "email": format!("{name}@example.com"),
            "password": "s3cret-pass", "phone": "+15550001111", "latitude": 30.0, "longitude": 74.0});
        async move {
            nodes[n % INSTANCES]
                .call_from(&ip, Method::POST, "/api/auth/register", None, Some(body))
                .await
        }
    };

    // One IPv6 subscriber (one /64), a different address per request, all at once.
    let results = join_all(
        (0..max + 3)
            .map(|i| register_from(i, format!("2001:db8:0:1::{:x}", i + 1), format!("bot{i}"))),
    )
    .await;
    assert_limited(&results, max, &REGISTRATIONS_PER_ADDRESS);
    assert_eq!(count(&results, StatusCode::CREATED), max);
    assert_eq!(
        app.state.store.users().user_count().await.unwrap(),
        max as i64,
        "a refused one wrote nothing"
    );

    // The next /64 and an IPv4 address register as usual.
    for (ip, name) in [("2001:db8:0:2::1", "neighbour"), ("192.0.2.4", "elsewhere")] {
        let res = register_from(0, ip.into(), name.into()).await;
        assert_eq!(res.status, StatusCode::CREATED, "{ip}: {:?}", res.body);
    }
}

/// An emergency must never be held back by normal bookings: beside 3 open bookings
/// made with the form, a one-tap emergency still goes out (4 open in all), and the
/// form's limit counts it, so a 4th form booking is refused.
#[tokio::test]
async fn an_emergency_goes_out_beside_three_open_bookings() {
    use crate::emergency::{World, north, pickup_body};
    let w = World::new().await;
    let h = w.hospital("Near", north(1.0)).await;
    let mut ambulances = vec![];
    for i in 0..6 {
        ambulances.push(w.ambulance(&h, &format!("B-{i}"), "BLS").await);
    }
    let user = w.app.user("busy").await;
    let form = |amb: &Value| {
        json!({"hospitalId": h["id"], "ambulanceId": amb["id"],
            "patient": {"name": "P", "age": 40, "gender": "Male", "condition": "c"}})
    };
    for amb in &ambulances[..3] {
        let res = w.app.book(Some(&user.token), form(amb)).await;
        res.assert_status(StatusCode::CREATED);
    }
    let res = w.app.book(Some(&user.token), form(&ambulances[3])).await;
    res.assert_message(StatusCode::CONFLICT, "You already have 3 open bookings");

    let emergency = w.emergency(&user, &pickup_body(), None).await;
    emergency.assert_status(StatusCode::CREATED);
    assert_eq!(assert_guard_recounts(&w.app, &user).await, 4);
    let sent = &emergency.body["ambulance"]["id"];
    let free = ambulances[3..].iter().find(|a| &a["id"] != sent).unwrap();
    let res = w.app.book(Some(&user.token), form(free)).await;
    res.assert_message(StatusCode::CONFLICT, "You already have 3 open bookings");
}
