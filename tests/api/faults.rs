//! Faults: the test starts its own DynamoDB Local (`scripts/ddb-local.sh`, through
//! `testkit::ddb_local`), then hangs it and kills it under load. Requests must answer 503 with
//! Retry-After within 3 s, the same function process must recover when the database
//! comes back, and no booking may be half-written.

use domain::geo::Point;
use std::time::{Duration, Instant};

use domain::{ambulance::AmbulanceStatus, types::Id};
use futures::future::join_all;
use http::StatusCode;
use serde_json::{Value, json};
use store::{config::Config, schema};
use testkit::{
    TestApp, config_at,
    ddb_local::{DynamoDbLocal as Ddb, free_port},
};
use web::AppState;

/// Two states over one table on `port`: a patient one for setting up and checking
/// (a busy test machine must not fail the setup), and one with the production
/// client settings (short timeouts, 3 attempts) for the requests under test.
async fn states(port: u16) -> (AppState, AppState) {
    let endpoint = format!("http://127.0.0.1:{port}");
    let patient = config_at("faults", &endpoint);
    let production = Config::from_lookup(|k| match k {
        "TABLE_NAME" => Some("faults".to_owned()),
        "APP_ENV" => Some("local".to_owned()),
        _ => None,
    })
    .unwrap();
    let production = Config {
        db_attempt_timeout: production.db_attempt_timeout,
        db_operation_timeout: production.db_operation_timeout,
        db_max_attempts: production.db_max_attempts,
        ..patient.clone()
    };
    let setup = AppState::new(patient).await;
    schema::create_table(setup.store.client(), "faults")
        .await
        .unwrap();
    (setup, AppState::new(production).await)
}

/// Polls until the router answers 200 again (within 20 s).
async fn until_ok(app: &TestApp, token: &str) {
    let started = Instant::now();
    loop {
        let (status, _, _) = timed(app, token).await;
        if status == StatusCode::OK {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "did not recover: {status}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn timed(app: &TestApp, token: &str) -> (StatusCode, Duration, Option<String>) {
    let started = Instant::now();
    let res = app.get("/api/booking/history", Some(token)).await;
    let retry = res
        .headers
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_owned());
    (res.status, started.elapsed(), retry)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_dead_or_hung_database_is_a_fast_503_and_the_function_recovers() {
    let data = std::env::temp_dir().join(format!("ddb-faults-{}", uuid::Uuid::new_v4().simple()));
    let ddb = Ddb::start(free_port(), data);
    let (setup, state) = states(ddb.port).await;
    let app = TestApp::with_state(state, booking::router);
    let user = TestApp::with_state(setup, booking::router)
        .user("patient")
        .await;
    until_ok(&app, &user.token).await;

    // Hung (SIGSTOP): the attempt timeouts end it.
    ddb.signal("-STOP");
    let (status, took, retry) = timed(&app, &user.token).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(took < Duration::from_secs(3), "took {took:?}");
    assert_eq!(retry.as_deref(), Some("1"));
    ddb.signal("-CONT");
    until_ok(&app, &user.token).await;

    // Dead (killed): connection refused, retried, then 503.
    let (port, data) = ddb.stop();
    let (status, took, retry) = timed(&app, &user.token).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(took < Duration::from_secs(3), "took {took:?}");
    assert!(retry.is_some());

    // Back on the same port with the same data: the same router serves again.
    let _ddb = Ddb::start(port, data);
    until_ok(&app, &user.token).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn bookings_interrupted_by_a_dead_database_are_whole_or_absent() {
    let data = std::env::temp_dir().join(format!("ddb-faults-{}", uuid::Uuid::new_v4().simple()));
    let ddb = Ddb::start(free_port(), data);
    let (setup, state) = states(ddb.port).await;
    let store = setup.store.clone();
    let app = TestApp::with_state(state, booking::router);
    let admin = TestApp::with_state(setup.clone(), admin::router);
    let setup_app = TestApp::with_state(setup, booking::router);
    let admin_user = admin.admin().await;
    let hospital = setup_app.seed_hospital("H", Point::new(30.0, 74.0)).await;
    let mut ambulances = vec![];
    let mut users = vec![];
    for i in 0..80 {
        let number = format!("F-{i}");
        ambulances.push(
            setup_app
                .seed_ambulance(hospital.id, &number, AmbulanceStatus::Available)
                .await,
        );
        users.push(setup_app.user(&format!("user{i}")).await);
    }

    // A burst of bookings; the database dies in the middle of it.
    let burst = join_all(users.iter().zip(&ambulances).map(|(u, a)| {
        app.book(
            Some(&u.token),
            json!({"hospitalId": hospital.id, "ambulanceId": a.id, "patient": {"name": "P", "age": 30, "gender": "Other", "condition": "c"}}),
        )
    }));
    let killer = async {
        tokio::time::sleep(Duration::from_millis(30)).await;
        ddb.stop()
    };
    let (results, (port, data)) = tokio::join!(burst, killer);
    let codes: Vec<StatusCode> = results.iter().map(|r| r.status).collect();
    assert!(
        codes
            .iter()
            .all(|c| *c == StatusCode::CREATED || *c == StatusCode::SERVICE_UNAVAILABLE),
        "{codes:?}"
    );
    assert!(
        codes.contains(&StatusCode::SERVICE_UNAVAILABLE),
        "the database died during the burst: {codes:?}"
    );

    let _ddb = Ddb::start(port, data);
    let started = Instant::now();
    let page = loop {
        let page = admin
            .get(
                "/api/admin/bookings/all/paged?size=100",
                Some(&admin_user.token),
            )
            .await;
        if page.status == StatusCode::OK || started.elapsed() > Duration::from_secs(20) {
            break page;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };

    // Every stored booking holds its ambulance, every held ambulance has its booking,
    // and the counters equal a recount.
    page.assert_status(StatusCode::OK);
    let bookings: Vec<Value> = page.body["content"].as_array().unwrap().clone();
    for b in &bookings {
        let amb = Id::try_from(b["ambulanceId"].as_u64().unwrap()).unwrap();
        assert_eq!(
            store.fleet().ambulance_holder(amb).await.unwrap(),
            Some(Id::try_from(b["id"].as_u64().unwrap()).unwrap())
        );
    }
    let mut held = 0;
    for a in &ambulances {
        let now = store.fleet().ambulance(a.id).await.unwrap().unwrap();
        if let Some(holder) = store.fleet().ambulance_holder(a.id).await.unwrap() {
            held += 1;
            assert_eq!(now.status, AmbulanceStatus::OnDuty);
            assert!(
                bookings
                    .iter()
                    .any(|b| b["id"].as_u64() == Some(holder.get())),
                "ambulance {} held by a missing booking",
                a.number
            );
        } else {
            assert_eq!(
                now.status,
                AmbulanceStatus::Available,
                "ambulance {} stuck",
                a.number
            );
        }
    }
    assert_eq!(held, bookings.len());
    assert_eq!(
        page.body["totalElements"].as_u64().unwrap() as usize,
        bookings.len(),
        "booking counter"
    );
    let fleet = store.fleet().fleet_counts().await.unwrap();
    assert_eq!(
        (fleet.total, fleet.on_duty, fleet.available),
        (80, held as i64, 80 - held as i64)
    );
    // Each 201 the clients saw is a stored booking.
    let created = codes.iter().filter(|c| **c == StatusCode::CREATED).count();
    assert!(created <= bookings.len());
}
