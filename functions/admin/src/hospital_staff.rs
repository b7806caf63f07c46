//! Hospital staff accounts (docs/decisions/0026-receiving-hospital.md): made by
//! admins only, each tied to one hospital.

use axum::{Json, http::StatusCode};
use domain::{
    hospital_staff::{HospitalStaff, NewHospitalStaff},
    types::{Email, Id, Password, Phone, Username},
};
use serde::Deserialize;
use web::http::Routes;
use web::{Admin, ApiError, ApiJson, auth::new_account};

pub fn routes() -> Routes {
    Routes::new().post("/api/admin/hospital-staff", create)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NewStaffRequest {
    username: Username,
    email: Email,
    password: Password,
    phone_number: Phone,
    hospital_id: Id,
}

/// 201 with the account; 404 for an unknown hospital, 409 for a taken username or
/// email.
async fn create(
    Admin(app): Admin,
    ApiJson(req): ApiJson<NewStaffRequest>,
) -> Result<(StatusCode, Json<HospitalStaff>), ApiError> {
    let account = new_account(req.username, req.email, req.phone_number, &req.password).await?;
    let staff = app
        .store
        .hospital_staff()
        .create_hospital_staff(NewHospitalStaff {
            account,
            hospital_id: req.hospital_id,
        })
        .await?;
    Ok((StatusCode::CREATED, Json(staff)))
}
