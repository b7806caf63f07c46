//! Crew accounts (docs/decisions/0007-dispatch-data.md): made, moved and removed by admins only.

use axum::{Json, http::StatusCode};
use domain::{
    crew::{Crew, NewCrew},
    page::Page,
    types::{Email, Id, Password, Phone, Username},
};
use serde::Deserialize;
use web::http::Routes;
use web::{Admin, ApiError, ApiJson, ApiPath, ApiQuery, auth::new_account};

pub fn routes() -> Routes {
    Routes::new()
        .get("/api/admin/crew", list)
        .post("/api/admin/crew", create)
        .patch("/api/admin/crew/{id}", move_to)
        .delete("/api/admin/crew/{id}", remove)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NewCrewRequest {
    username: Username,
    email: Email,
    password: Password,
    phone_number: Phone,
    ambulance_id: Id,
}

async fn create(
    Admin(app): Admin,
    ApiJson(req): ApiJson<NewCrewRequest>,
) -> Result<(StatusCode, Json<Crew>), ApiError> {
    let account = new_account(req.username, req.email, req.phone_number, &req.password).await?;
    let crew = app
        .store
        .crew()
        .create_crew(NewCrew {
            account,
            ambulance_id: req.ambulance_id,
        })
        .await?;
    Ok((StatusCode::CREATED, Json(crew)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ListQuery {
    page: Option<u32>,
    size: Option<u32>,
    /// Only this ambulance's crew (the admin ambulances screen).
    ambulance_id: Option<Id>,
}

/// Crew pages hold at most this many accounts.
pub const MAX_PAGE_SIZE: u32 = 100;

async fn list(
    Admin(app): Admin,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> Result<Json<Page<Crew>>, ApiError> {
    let (page, size) = web::http::page_params(q.page, q.size, 20, MAX_PAGE_SIZE)?;
    let Some(ambulance) = q.ambulance_id else {
        return Ok(Json(app.store.crew().crew_page(page, size).await?));
    };
    // One ambulance has a handful of crew: read them all, page in memory.
    let all = app.store.crew().ambulance_crew(ambulance).await?;
    let total = all.len() as u64;
    let skip = usize::try_from(u64::from(page) * u64::from(size)).unwrap_or(usize::MAX);
    let content = all.into_iter().skip(skip).take(size as usize).collect();
    Ok(Json(Page::new(content, total, page, size)))
}

async fn move_to(
    Admin(app): Admin,
    ApiPath(id): ApiPath<Id>,
    ApiJson(req): ApiJson<crate::AmbulanceChoice>,
) -> Result<Json<Crew>, ApiError> {
    Ok(Json(
        app.store.crew().move_crew(id, req.ambulance_id).await?,
    ))
}

async fn remove(Admin(app): Admin, ApiPath(id): ApiPath<Id>) -> Result<StatusCode, ApiError> {
    app.store.crew().remove_crew(id).await?;
    Ok(StatusCode::NO_CONTENT)
}
