//! Helpers several of these tests share.

use shared::{
    domain::ambulance::{AmbulanceCounts, AmbulanceStatus},
    testing::TestApp,
};

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
