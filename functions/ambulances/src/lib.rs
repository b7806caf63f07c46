//! `/api/ambulances`: public reads of the fleet. Driver and contact details, and a
//! hospital's ambulances' crew presence (decision 0020), only go to signed-in callers.

use axum::{Json, Router, extract::State};
use domain::{
    ambulance::{Ambulance, AmbulanceCounts},
    hospital,
    types::Id,
};
use serde::Deserialize;
use web::http::Routes;
use web::{ApiError, ApiPath, ApiQuery, AppState, MaybeCaller, http::NoQuery};

/// Every route of this function, declared once (the contract test reads the table).
pub fn routes() -> Routes {
    Routes::new()
        .get("/api/ambulances/available", available)
        .get("/api/ambulances/available/all", available_all)
        .get("/api/ambulances/hospital/{id}", of_hospital)
        .get("/api/ambulances/counts", counts)
}

pub fn router(state: AppState) -> Router {
    web::http::finish(routes().with_state(state))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct HospitalQuery {
    hospital_id: Id,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct OptionalHospitalQuery {
    hospital_id: Option<Id>,
}

fn shown(list: Vec<Ambulance>, caller: MaybeCaller) -> Json<Vec<Ambulance>> {
    Json(
        list.into_iter()
            .map(|a| a.public(caller.0.is_some()))
            .collect(),
    )
}

async fn require_hospital(app: &AppState, id: Id) -> Result<(), ApiError> {
    match app.store.hospitals().hospital(id).await? {
        Some(_) => Ok(()),
        None => Err(hospital::not_found(id).into()),
    }
}

async fn available(
    State(app): State<AppState>,
    caller: MaybeCaller,
    ApiQuery(q): ApiQuery<HospitalQuery>,
) -> Result<Json<Vec<Ambulance>>, ApiError> {
    require_hospital(&app, q.hospital_id).await?;
    Ok(shown(
        app.store
            .fleet()
            .available_ambulances(Some(q.hospital_id), caller.0.is_some())
            .await?,
        caller,
    ))
}

async fn available_all(
    State(app): State<AppState>,
    caller: MaybeCaller,
    ApiQuery(_): ApiQuery<NoQuery>,
) -> Result<Json<Vec<Ambulance>>, ApiError> {
    Ok(shown(
        // The home page's count: no presence (it would read every crewed one's position).
        app.store.fleet().available_ambulances(None, false).await?,
        caller,
    ))
}

async fn of_hospital(
    State(app): State<AppState>,
    caller: MaybeCaller,
    ApiPath(id): ApiPath<Id>,
) -> Result<Json<Vec<Ambulance>>, ApiError> {
    require_hospital(&app, id).await?;
    Ok(shown(
        app.store
            .fleet()
            .hospital_ambulances(id, caller.0.is_some())
            .await?,
        caller,
    ))
}

async fn counts(
    State(app): State<AppState>,
    _caller: MaybeCaller,
    ApiQuery(q): ApiQuery<OptionalHospitalQuery>,
) -> Result<Json<AmbulanceCounts>, ApiError> {
    Ok(Json(match q.hospital_id {
        Some(id) => {
            require_hospital(&app, id).await?;
            app.store.fleet().hospital_counts(id).await?
        }
        None => app.store.fleet().fleet_counts().await?,
    }))
}
