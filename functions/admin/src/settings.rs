//! The settings a control room changes without a deploy (docs/decisions/0018-settings-without-a-deploy.md).

use axum::Json;
use domain::settings::{Settings, SettingsChange};
use web::http::Routes;
use web::{Admin, ApiError, ApiJson, ApiQuery, http::NoQuery};

pub fn routes() -> Routes {
    Routes::new()
        .get("/api/admin/settings", read)
        .put("/api/admin/settings", change)
}

/// The settings as stored now (not as this instance last read them).
async fn read(
    Admin(app): Admin,
    ApiQuery(_): ApiQuery<NoQuery>,
) -> Result<Json<Settings>, ApiError> {
    Ok(Json(app.store.stored_settings().current().await?))
}

/// All fields or some; 400 naming a field out of range or unknown, and nothing
/// changed. The answer is every setting after the change, in force on every
/// function within a minute; the change is on the audit trail.
async fn change(
    Admin(app): Admin,
    ApiJson(change): ApiJson<SettingsChange>,
) -> Result<Json<Settings>, ApiError> {
    Ok(Json(app.store.stored_settings().change(change).await?))
}
