//! `/api/user`: read and edit a profile.

use axum::{Json, Router, extract::State, routing::get};
use serde::Deserialize;
use shared::{
    ApiError, ApiJson, ApiQuery, AppState, SignedIn,
    auth::hash_password,
    domain::user::{self, ProfileChange, Role, User},
    http::ForUser,
    types::{Email, Latitude, Longitude, Password},
};

pub fn router(state: AppState) -> Router {
    shared::http::finish(
        Router::new()
            .route("/api/user/profile", get(profile).put(update_profile))
            .with_state(state),
    )
}

/// Every role reads and edits its own profile (a crew account too: DESIGN.md 8).
async fn profile(
    State(app): State<AppState>,
    SignedIn(caller): SignedIn,
    ApiQuery(q): ApiQuery<ForUser>,
) -> Result<Json<User>, ApiError> {
    let id = caller.acting_for(q.user_id)?;
    app.store
        .user(id)
        .await?
        .map(Json)
        .ok_or_else(user::not_found)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProfileUpdate {
    email: Email,
    latitude: Option<Latitude>,
    longitude: Option<Longitude>,
    /// Empty or absent keeps the current password.
    password: Option<String>,
}

async fn update_profile(
    State(app): State<AppState>,
    SignedIn(caller): SignedIn,
    ApiQuery(q): ApiQuery<ForUser>,
    ApiJson(req): ApiJson<ProfileUpdate>,
) -> Result<Json<User>, ApiError> {
    let id = caller.acting_for(q.user_id)?;
    let target = app.store.user(id).await?.ok_or_else(user::not_found)?;
    // The pair is checked for everyone (the contract says so); then an admin's or a
    // crew's, who have no location, is ignored.
    let location =
        user::location_pair(req.latitude, req.longitude)?.filter(|_| target.role == Role::User);
    let password_hash = match req.password.filter(|p| !p.is_empty()) {
        Some(p) => {
            let p = Password::try_from(p).map_err(|e| {
                ApiError::bad_request("password", format!("Invalid 'password': {e}"))
            })?;
            Some(hash_password(&p).await?)
        }
        None => None,
    };
    // The user as read above is what the store's conditional write starts from.
    let user = app
        .store
        .update_profile(
            &target,
            ProfileChange {
                email: req.email,
                location,
                password_hash,
            },
        )
        .await?;
    Ok(Json(user))
}
