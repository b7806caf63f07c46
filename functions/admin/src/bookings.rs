use axum::{
    Json, Router,
    extract::State,
    routing::{get, patch},
};
use serde::Deserialize;
use shared::{
    AdminCaller, ApiError, ApiQuery, AppState,
    booking::BookingStatus,
    store::{
        Page,
        bookings::{Booking, Dashboard},
    },
    types::Id,
};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/admin/bookings/all/paged", get(paged))
        .route("/api/admin/bookings/status", patch(set_status))
        .route("/api/admin/stats", get(stats))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PageQuery {
    page: Option<u32>,
    size: Option<u32>,
}

async fn paged(
    State(app): State<AppState>,
    _admin: AdminCaller,
    ApiQuery(q): ApiQuery<PageQuery>,
) -> Result<Json<Page<Booking>>, ApiError> {
    let (page, size) = shared::http::page_params(q.page, q.size, 10, 100)?;
    Ok(Json(app.store.bookings_page(page, size).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct StatusQuery {
    booking_id: Id,
    status: BookingStatus,
}

async fn set_status(
    State(app): State<AppState>,
    _admin: AdminCaller,
    ApiQuery(q): ApiQuery<StatusQuery>,
) -> Result<Json<Booking>, ApiError> {
    Ok(Json(
        app.store.set_booking_status(q.booking_id, q.status).await?,
    ))
}

/// The dashboard's figures, all from counters kept in the writing transactions.
async fn stats(
    State(app): State<AppState>,
    _admin: AdminCaller,
) -> Result<Json<Dashboard>, ApiError> {
    Ok(Json(app.store.dashboard().await?))
}
