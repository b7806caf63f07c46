//! The dispatcher's alerts and the manual reassign (docs/decisions/0012-background-work.md).

use axum::Json;
use domain::{
    alert::{Alert, AlertsPage},
    booking::{Booking, WithMoves},
    emergency::nearest::{FREE_NEAR_MAX, FreeNear},
    types::{Id, LatLng},
};
use web::http::Routes;
use web::{Admin, AdminNamed, ApiError, ApiJson, ApiPath, ApiQuery};

pub fn routes() -> Routes {
    Routes::new()
        .get("/api/admin/alerts", list)
        .post("/api/admin/alerts/{id}/ack", acknowledge)
        .patch("/api/admin/bookings/{id}/ambulance", reassign)
        .get("/api/admin/ambulances/free-near", free_near)
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PageQuery {
    cursor: Option<String>,
}

/// A page of the alerts: the open ones most urgent first, then at most 50 recently
/// ended ones; `cursor` from the previous page for the next.
async fn list(
    Admin(app): Admin,
    ApiQuery(q): ApiQuery<PageQuery>,
) -> Result<Json<AlertsPage>, ApiError> {
    Ok(Json(app.store.alerts().page(q.cursor.as_deref()).await?))
}

async fn acknowledge(
    AdminNamed(app, admin): AdminNamed,
    ApiPath(id): ApiPath<Id>,
) -> Result<Json<Alert>, ApiError> {
    Ok(Json(
        app.store.alerts().acknowledge_alert(id, &admin).await?,
    ))
}

/// For a breakdown or an alert: the booking to another, AVAILABLE ambulance.
async fn reassign(
    Admin(app): Admin,
    ApiPath(id): ApiPath<Id>,
    ApiJson(req): ApiJson<crate::AmbulanceChoice>,
) -> Result<Json<WithMoves<Booking>>, ApiError> {
    let moved = app.store.deadlines().reassign(id, req.ambulance_id).await?;
    Ok(Json(crate::bookings::shown(moved)))
}

/// The reassign's choice: at most 10 free ambulances within the SOS search radius
/// (the setting) of the point,
/// nearest first, ranked as an emergency ranks them.
async fn free_near(
    Admin(app): Admin,
    ApiQuery(at): ApiQuery<LatLng>,
) -> Result<Json<Vec<FreeNear>>, ApiError> {
    Ok(Json(
        app.store
            .positions()
            .free_near(at.into(), FREE_NEAR_MAX)
            .await?,
    ))
}
