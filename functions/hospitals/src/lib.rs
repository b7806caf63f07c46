//! `/api/hospitals`: public reads of hospitals, the nearest-hospital search among
//! them, and the number to call when no hospital or ambulance will do.

use axum::{Json, Router, extract::State};
use domain::{
    hospital::{self, Hospital},
    page::Page,
    types::{Id, LatLng, Latitude, Longitude},
};
use serde::Deserialize;
use web::http::Routes;
use web::{ApiError, ApiPath, ApiQuery, AppState, MaybeCaller, http::PageQuery};

/// Every route of this function, declared once (the contract test reads the table).
pub fn routes() -> Routes {
    Routes::new()
        .get("/api/hospitals/nearest", nearest)
        .get("/api/hospitals/all", all)
        .get("/api/hospitals/emergency-number", emergency_number)
        .get("/api/hospitals/{id}", one)
}

pub fn router(state: AppState) -> Router {
    web::http::finish(routes().with_state(state))
}

/// `{emergencyNumber}`: the number every call button dials.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct EmergencyNumber {
    emergency_number: String,
}

/// The setting `emergencyNumber` (decision 0018), public: the web app asks for it
/// after it opens and keeps it on the device, so a number an admin changes reaches
/// the call buttons without a rebuild, and one that never reached a device leaves
/// the number it was built with.
async fn emergency_number(
    State(app): State<AppState>,
    ApiQuery(_): ApiQuery<web::http::NoQuery>,
) -> Json<EmergencyNumber> {
    Json(EmergencyNumber {
        emergency_number: app.store.settings().await.emergency_number,
    })
}

pub const DEFAULT_LIMIT: u32 = 10;
pub const MAX_LIMIT: u32 = 50;
pub const DEFAULT_RADIUS_KM: f64 = 100.0;
pub const MAX_RADIUS_KM: f64 = 500.0;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NearestQuery {
    lat: Latitude,
    lng: Longitude,
    limit: Option<u32>,
    radius_km: Option<f64>,
}

async fn nearest(
    State(app): State<AppState>,
    _caller: MaybeCaller,
    ApiQuery(q): ApiQuery<NearestQuery>,
) -> Result<Json<Vec<Hospital>>, ApiError> {
    let limit = q.limit.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(ApiError::bad_request(
            "limit",
            format!("Invalid query parameter 'limit': must be 1 to {MAX_LIMIT}"),
        ));
    }
    let radius = q.radius_km.unwrap_or(DEFAULT_RADIUS_KM);
    if !(radius.is_finite() && radius > 0.0 && radius <= MAX_RADIUS_KM) {
        return Err(ApiError::bad_request(
            "radiusKm",
            format!(
                "Invalid query parameter 'radiusKm': must be more than 0 and at most {MAX_RADIUS_KM}"
            ),
        ));
    }
    let (hospitals, stats) = app
        .store
        .hospitals()
        .nearest_hospitals(
            LatLng {
                lat: q.lat,
                lng: q.lng,
            }
            .into(),
            limit as usize,
            radius,
        )
        .await?;
    tracing::debug!(
        rounds = stats.rounds,
        chunks_read = stats.chunks_read,
        "nearest search"
    );
    Ok(Json(hospitals))
}

/// The hospital list pages are capped at 1000 (the dashboard loads them all).
pub const MAX_PAGE_SIZE: u32 = 1000;

async fn all(
    State(app): State<AppState>,
    _caller: MaybeCaller,
    ApiQuery(q): ApiQuery<PageQuery>,
) -> Result<Json<Page<Hospital>>, ApiError> {
    let (page, size) = q.parse(10, MAX_PAGE_SIZE)?;
    Ok(Json(
        app.store.hospitals().hospitals_page(page, size).await?,
    ))
}

async fn one(
    State(app): State<AppState>,
    _caller: MaybeCaller,
    ApiPath(id): ApiPath<Id>,
) -> Result<Json<Hospital>, ApiError> {
    app.store
        .hospitals()
        .hospital(id)
        .await?
        .map(Json)
        .ok_or_else(|| hospital::not_found(id).into())
}
