//! Helpers several of these tests share.

use domain::{
    ambulance::{AmbulanceCounts, AmbulanceStatus},
    booking::{BookingCounts, BookingStatus, TripStage},
    types::Id,
};
use serde_json::Value;
use testkit::TestApp;

/// The crew's moves that take a booking from DISPATCHED to COMPLETED, in order: the
/// domain's stage order ([`TripStage::next`]), then COMPLETED.
pub fn crew_steps_to_completion() -> Vec<String> {
    let stages = std::iter::successors(TripStage::Dispatched.next(), |s| s.next());
    let mut steps: Vec<String> = stages.map(|s| s.to_string()).collect();
    steps.push(BookingStatus::Completed.to_string());
    steps
}

/// The crew's steps (by name) from accepting the job up to and including `stage`:
/// the domain's order ([`TripStage::path_to`]), never typed out in a test.
pub fn steps_to(stage: TripStage) -> Vec<String> {
    stage.path_to().iter().map(ToString::to_string).collect()
}

/// The crew's steps (by name) after `from` up to and including `to`: the domain's
/// order, as for [`steps_to`].
pub fn steps_between(from: TripStage, to: TripStage) -> Vec<String> {
    let done = from.path_to().len();
    steps_to(to).split_off(done)
}

/// The fleet recounted from the ambulances themselves (the admin's list), to
/// compare with the counters.
pub async fn fleet_recount(app: &TestApp, admin_token: &str) -> AmbulanceCounts {
    let res = app
        .get("/api/admin/ambulances/all", Some(admin_token))
        .await;
    let statuses: Vec<AmbulanceStatus> = res
        .body
        .as_array()
        .expect("a list of ambulances")
        .iter()
        .map(|a| serde_json::from_value(a["status"].clone()).expect("a status"))
        .collect();
    AmbulanceCounts::of(statuses.iter())
}

/// The bookings recounted from the admin's list (at most 100 of them), to compare
/// with the counters.
pub async fn booking_recount(app: &TestApp, admin_token: &str) -> BookingCounts {
    let page = app
        .get("/api/admin/bookings/all/paged?size=100", Some(admin_token))
        .await;
    let bookings = page.body["content"].as_array().expect("a page of bookings");
    let mut recount = BookingCounts {
        total: bookings.len() as i64,
        ..Default::default()
    };
    for b in bookings {
        match b["bookingStatus"].as_str().expect("a status") {
            "PENDING" => recount.pending += 1,
            "ACTIVE" => recount.active += 1,
            "COMPLETED" => recount.completed += 1,
            _ => recount.cancelled += 1,
        }
    }
    recount
}

/// The dashboard's counters equal a recount of the bookings and the fleet, and the
/// free-ambulance entries exist exactly for the AVAILABLE ambulances.
pub async fn assert_consistent(app: &TestApp, admin_token: &str) {
    let stats = app.get("/api/admin/stats", Some(admin_token)).await.body;
    assert_eq!(
        serde_json::from_value::<AmbulanceCounts>(stats["ambulances"].clone()).unwrap(),
        fleet_recount(app, admin_token).await
    );
    assert_eq!(
        serde_json::from_value::<BookingCounts>(stats["bookings"].clone()).unwrap(),
        booking_recount(app, admin_token).await
    );
    let fleet = app
        .get("/api/admin/ambulances/all", Some(admin_token))
        .await
        .body;
    for a in fleet.as_array().unwrap() {
        let id = Id::try_from(a["id"].as_u64().unwrap()).unwrap();
        let free = app
            .state
            .store
            .positions()
            .has_free_entry(id)
            .await
            .unwrap();
        assert_eq!(free, a["status"] == "AVAILABLE", "{a}");
    }
}

/// `ambulance` as the admin's list of the fleet shows it now.
pub async fn listed_ambulance(
    app: &TestApp,
    admin_token: Option<&str>,
    ambulance: &Value,
) -> Value {
    let all = app.get("/api/admin/ambulances/all", admin_token).await;
    let list = all.body.as_array().expect("a list of ambulances");
    let found = list.iter().find(|a| a["id"] == ambulance["id"]);
    found.expect("the ambulance is listed").clone()
}

/// The stages of a booking's timeline, oldest first.
pub fn stages(booking: &Value) -> Vec<String> {
    booking["timeline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["stage"].as_str().unwrap().to_owned())
        .collect()
}

/// A crew's reports from `at`, taken now by the server's clock, until the
/// position is taken: a first report over 50 km from the ambulance's hospital is
/// doubted (409) until 3 agreeing reports over 20 s confirm it (decision 0020). The
/// server's clock moves 5 s on before each. Answers how many were doubted.
pub async fn report_until_taken(
    app: &testkit::TestApp,
    crew: &testkit::TestUser,
    at: domain::geo::Point,
) -> usize {
    let domain::geo::Point { lat, lng } = at;
    let mut doubted = 0;
    loop {
        app.state.store.advance_clock(time::Duration::seconds(5));
        let at = domain::types::format_rfc3339(app.state.store.now());
        let res = app
            .put(
                "/api/crew/location",
                Some(&crew.token),
                serde_json::json!({"latitude": lat, "longitude": lng, "recordedAt": at}),
            )
            .await;
        if res.status == http::StatusCode::NO_CONTENT {
            return doubted;
        }
        res.assert_status(http::StatusCode::CONFLICT);
        doubted += 1;
        assert!(
            doubted <= 5,
            "still doubted after {doubted} agreeing reports"
        );
    }
}
