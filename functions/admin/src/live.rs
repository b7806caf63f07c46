//! The dispatcher's live map: every ambulance and open booking in a box.

use axum::Json;
use domain::dispatch::{Bbox, Live};
use serde::Deserialize;
use web::http::Routes;
use web::{Admin, ApiError, ApiQuery};

pub fn routes() -> Routes {
    Routes::new().get("/api/admin/live", live)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LiveQuery {
    /// Absent: the whole world (the map's first view fits what it shows).
    bbox: Option<String>,
}

/// Ambulances shown inside the box (live position, else their hospital) and open
/// bookings with their pickup inside it, at most 500 of each, the most urgent
/// first, `truncated` when there were more; read from indexes
/// (docs/decisions/0013-live-map.md).
async fn live(Admin(app): Admin, ApiQuery(q): ApiQuery<LiveQuery>) -> Result<Json<Live>, ApiError> {
    let bbox = match q.bbox.as_deref() {
        Some(text) => Bbox::parse(text)?,
        None => Bbox::WORLD,
    };
    Ok(Json(app.store.dispatch().live(bbox).await?))
}
