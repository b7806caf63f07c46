//! Hospitals as admins manage them: add one, remove one with its ambulances.

use axum::{Json, http::StatusCode};
use domain::{
    hospital::{Hospital, NewHospital},
    types::{Id, LatLng, Latitude, Longitude, OptionalText, Text},
};
use serde::Deserialize;
use web::http::Routes;
use web::{Admin, ApiError, ApiJson, ApiQuery};

pub fn routes() -> Routes {
    Routes::new()
        .post("/api/admin/hospitals/add", add)
        .delete("/api/admin/hospitals/remove", remove)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct AddHospital {
    name: Text<200>,
    address: Text<500>,
    latitude: Latitude,
    longitude: Longitude,
    #[serde(default)]
    contact_info: OptionalText<100>,
}

async fn add(
    Admin(app): Admin,
    ApiJson(req): ApiJson<AddHospital>,
) -> Result<(StatusCode, Json<Hospital>), ApiError> {
    let hospital = app
        .store
        .hospitals()
        .add_hospital(NewHospital {
            name: req.name.into(),
            address: req.address.into(),
            location: LatLng {
                lat: req.latitude,
                lng: req.longitude,
            }
            .into(),
            contact_info: req.contact_info.0,
        })
        .await?;
    Ok((StatusCode::CREATED, Json(hospital)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RemoveQuery {
    hospital_id: Id,
}

async fn remove(
    Admin(app): Admin,
    ApiQuery(q): ApiQuery<RemoveQuery>,
) -> Result<StatusCode, ApiError> {
    app.store.hospitals().remove_hospital(q.hospital_id).await?;
    Ok(StatusCode::NO_CONTENT)
}
