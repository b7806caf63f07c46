//! One tap to help (docs/decisions/0007-dispatch-data.md): the emergency dispatch, the patient
//! details that follow it, and the tracking links its requester shares.

use axum::{Json, extract::State, http::StatusCode};
use domain::{
    booking::{Booking, Patient, WithMoves},
    emergency::{EmergencyRequest, ShareLink, SharedTrip},
    refusal::Conflict,
    types::Id,
};
use telemetry::{
    self,
    metrics::{Metrics, Unit},
};
use web::{ApiError, ApiJson, ApiPath, AppState, NotCrew};

use crate::{IdempotencyKey, shown};

/// `POST /api/booking/emergency`: the nearest free ambulance, assigned at once.
pub async fn dispatch(
    State(app): State<AppState>,
    NotCrew(caller): NotCrew,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson(req): ApiJson<EmergencyRequest>,
) -> Result<(StatusCode, Json<WithMoves<Booking>>), ApiError> {
    if caller.is_admin() {
        return Err(ApiError::Forbidden(
            "An emergency is asked for by the person who needs help: sign in with a user account"
                .into(),
        ));
    }
    let started = std::time::Instant::now();
    let booking = app
        .store
        .emergencies()
        .emergency(caller.id, req, key.as_deref())
        .await
        .map_err(ApiError::from);
    dispatch_metrics(&booking, started.elapsed());
    let booking = booking?;
    telemetry::record_booking(booking.id);
    Ok((StatusCode::CREATED, Json(shown(caller, booking))))
}

/// `EmergencyDispatches` by outcome and `EmergencyDispatchLatency` (the dispatch
/// itself, from the parsed request to the answer) for the dashboard and alarms.
fn dispatch_metrics(result: &Result<Booking, ApiError>, took: std::time::Duration) {
    let outcome = match result {
        Ok(_) => "dispatched",
        Err(ApiError::Conflict(Conflict::NoAmbulanceNear { .. })) => "noAmbulance",
        Err(ApiError::TooManyRequests { .. }) => "rateLimited",
        Err(e) if e.status().is_server_error() => "failed",
        Err(_) => "refused",
    };
    Metrics::of("booking")
        .dimension("Outcome", outcome)
        .count("EmergencyDispatches", 1)
        .value(
            "EmergencyDispatchLatency",
            took.as_secs_f64() * 1000.0,
            Unit::Milliseconds,
        )
        .emit();
}

/// `PATCH /api/booking/{id}/patient`: the details, whole, while the booking is open.
pub async fn patient(
    State(app): State<AppState>,
    NotCrew(caller): NotCrew,
    ApiPath(id): ApiPath<Id>,
    ApiJson(patient): ApiJson<Patient>,
) -> Result<Json<WithMoves<Booking>>, ApiError> {
    let booking = app
        .store
        .shares()
        .update_patient(id, caller.id, patient)
        .await?;
    Ok(Json(shown(caller, booking)))
}

/// `POST /api/booking/{id}/share`: a new tracking link.
pub async fn share(
    State(app): State<AppState>,
    NotCrew(caller): NotCrew,
    ApiPath(id): ApiPath<Id>,
) -> Result<(StatusCode, Json<ShareLink>), ApiError> {
    let link = app.store.shares().share_booking(id, caller.id).await?;
    Ok((StatusCode::CREATED, Json(link)))
}

/// `DELETE /api/booking/{id}/share`: every link of the booking stops.
pub async fn revoke(
    State(app): State<AppState>,
    NotCrew(caller): NotCrew,
    ApiPath(id): ApiPath<Id>,
) -> Result<StatusCode, ApiError> {
    app.store.shares().revoke_shares(id, caller.id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /api/booking/shared/{token}`: anyone with the link. The token is taken as
/// text: anything that is not a live link is the same 404.
pub async fn shared(
    State(app): State<AppState>,
    ApiPath(token): ApiPath<String>,
) -> Result<Json<SharedTrip>, ApiError> {
    Ok(Json(app.store.shares().shared_trip(&token).await?))
}
