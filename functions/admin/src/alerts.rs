//! The dispatcher's alerts and the manual reassign (docs/decisions/0012-background-work.md).

use axum::{
    Json, Router,
    routing::{get, patch, post},
};
use serde::Deserialize;
use shared::{
    Admin, AdminNamed, ApiError, ApiJson, ApiPath, AppState,
    domain::{
        alert::Alert,
        booking::{Booking, WithMoves},
    },
    types::Id,
};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/admin/alerts", get(list))
        .route("/api/admin/alerts/{id}/ack", post(acknowledge))
        .route("/api/admin/bookings/{id}/ambulance", patch(reassign))
}

/// The open alerts oldest first, then at most 50 recently ended ones.
async fn list(Admin(app): Admin) -> Result<Json<Vec<Alert>>, ApiError> {
    Ok(Json(app.store.alerts().await?))
}

async fn acknowledge(
    AdminNamed(app, admin): AdminNamed,
    ApiPath(id): ApiPath<Id>,
) -> Result<Json<Alert>, ApiError> {
    Ok(Json(app.store.acknowledge_alert(id, &admin).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Reassign {
    ambulance_id: Id,
}

/// For a breakdown or an alert: the booking to another, AVAILABLE ambulance.
async fn reassign(
    Admin(app): Admin,
    ApiPath(id): ApiPath<Id>,
    ApiJson(req): ApiJson<Reassign>,
) -> Result<Json<WithMoves<Booking>>, ApiError> {
    let moved = app.store.reassign(id, req.ambulance_id).await?;
    Ok(Json(crate::bookings::shown(moved)))
}
