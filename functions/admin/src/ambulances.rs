//! Ambulances as admins manage them: the whole fleet, add and remove, and the status an admin sets.

use axum::{Json, http::StatusCode};
use domain::{
    ambulance::{self, Ambulance, AmbulanceStatus, AmbulanceType, NewAmbulance},
    types::{Id, OptionalText, Text},
};
use serde::Deserialize;
use web::http::Routes;
use web::{Admin, ApiError, ApiJson, ApiQuery, http::NoQuery};

pub fn routes() -> Routes {
    Routes::new()
        .get("/api/admin/ambulances/all", all)
        .post("/api/admin/ambulances/add", add)
        .delete("/api/admin/ambulances/remove", remove)
        .patch("/api/admin/ambulance/status", set_status)
}

/// The whole fleet, unpaged (the dashboard's table): no parameters.
async fn all(
    Admin(app): Admin,
    ApiQuery(_): ApiQuery<NoQuery>,
) -> Result<Json<Vec<Ambulance>>, ApiError> {
    Ok(Json(app.store.fleet().all_ambulances().await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HospitalRef {
    id: Id,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct AddAmbulance {
    number: Text<32>,
    status: AmbulanceStatus,
    hospital: HospitalRef,
    #[serde(default)]
    driver_info: OptionalText<200>,
    #[serde(default, rename = "type")]
    ambulance_type: Option<AmbulanceType>,
    #[serde(default)]
    contact_info: OptionalText<100>,
}

async fn add(
    Admin(app): Admin,
    ApiJson(req): ApiJson<AddAmbulance>,
) -> Result<(StatusCode, Json<Ambulance>), ApiError> {
    ambulance::check_new_status(req.status)?;
    let ambulance = app
        .store
        .fleet()
        .add_ambulance(NewAmbulance {
            number: req.number.into(),
            driver_info: req.driver_info.0,
            status: req.status,
            ambulance_type: req.ambulance_type.unwrap_or_default(),
            contact_info: req.contact_info.0,
            hospital_id: req.hospital.id,
        })
        .await?;
    Ok((StatusCode::CREATED, Json(ambulance)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RemoveQuery {
    ambulance_id: Id,
}

async fn remove(
    Admin(app): Admin,
    ApiQuery(q): ApiQuery<RemoveQuery>,
) -> Result<StatusCode, ApiError> {
    app.store.fleet().remove_ambulance(q.ambulance_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct StatusQuery {
    ambulance_id: Id,
    status: AmbulanceStatus,
}

async fn set_status(
    Admin(app): Admin,
    ApiQuery(q): ApiQuery<StatusQuery>,
) -> Result<Json<Ambulance>, ApiError> {
    Ok(Json(
        app.store
            .fleet()
            .set_ambulance_status(q.ambulance_id, q.status)
            .await?,
    ))
}
