//! `/api/hospital`: the receiving hospital's side of trips
//! (docs/decisions/0026-receiving-hospital.md). Every route takes a
//! [`HospitalCaller`]: the app and the staff account as stored now (one GetItem),
//! so a removed account stops at once; every other role gets 403. Staff see and act
//! on the trips whose destination is their own hospital only.

use axum::{Json, Router};
use domain::{
    booking::{Booking, Mover, WithMoves, allowed},
    hospital::{self, Hospital},
    receiving::Incoming,
    types::{Id, Timestamp},
};
use serde::Deserialize;
use web::http::Routes;
use web::{ApiError, ApiJson, ApiPath, AppState, HospitalCaller};

/// Every route of this function, declared once (the contract test reads the table).
pub fn routes() -> Routes {
    Routes::new()
        .get("/api/hospital/incoming", incoming)
        .post("/api/hospital/bookings/{id}/handover", handover)
        .put("/api/hospital/diversion", divert)
        .delete("/api/hospital/diversion", undivert)
}

pub fn router(state: AppState) -> Router {
    web::http::finish(routes().with_state(state))
}

/// The board: the trips coming to the caller's hospital, most urgent first.
async fn incoming(HospitalCaller(app, staff): HospitalCaller) -> Result<Json<Incoming>, ApiError> {
    Ok(Json(app.store.receiving().board(staff).await?))
}

/// AT_HOSPITAL → HANDED_OVER; 404 for another hospital's trip.
async fn handover(
    HospitalCaller(app, staff): HospitalCaller,
    ApiPath(id): ApiPath<Id>,
) -> Result<Json<WithMoves<Booking>>, ApiError> {
    let booking = app.store.receiving().handover(staff, id).await?;
    // The moves shown are the hospital's own (none left after the handover).
    let moves = allowed(booking.progress(), Mover::Hospital);
    Ok(Json(WithMoves::booking(booking, moves)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DiversionRequest {
    until: Timestamp,
}

/// On diversion until `until` (future, at most 24 h ahead: 400 naming `until`).
async fn divert(
    HospitalCaller(app, staff): HospitalCaller,
    ApiJson(req): ApiJson<DiversionRequest>,
) -> Result<Json<Hospital>, ApiError> {
    let until = hospital::diversion_until(req.until, app.store.now())?;
    Ok(Json(
        app.store
            .hospitals()
            .set_diversion(staff.hospital_id, Some(until))
            .await?,
    ))
}

/// Open again.
async fn undivert(HospitalCaller(app, staff): HospitalCaller) -> Result<Json<Hospital>, ApiError> {
    Ok(Json(
        app.store
            .hospitals()
            .set_diversion(staff.hospital_id, None)
            .await?,
    ))
}
