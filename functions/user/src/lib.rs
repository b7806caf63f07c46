//! `/api/user`: read and edit a profile; delete the account, take one's data
//! (docs/decisions/0022-personal-data.md).

use axum::{Json, Router, extract::State, http::StatusCode};
use domain::{
    privacy::{self, Export},
    types::{Email, Latitude, Longitude, Password, Username},
    user::{self, ProfileChange, Role, User},
};
use serde::Deserialize;
use store::users::Account;
use web::http::Routes;
use web::{
    ApiError, ApiJson, ApiQuery, AppState, Caller, SignedIn,
    auth::{hash_password, verify_password},
    edge::ClientAddress,
    http::ForUser,
};

/// Every route of this function, declared once (the contract test reads the table).
pub fn routes() -> Routes {
    Routes::new()
        .get("/api/user/profile", profile)
        .put("/api/user/profile", update_profile)
        .delete("/api/user/account", delete_account)
        .get("/api/user/export", export)
}

pub fn router(state: AppState) -> Router {
    web::http::finish(routes().with_state(state))
}

/// Every role reads and edits its own profile (a crew account too: decision 0007).
async fn profile(
    State(app): State<AppState>,
    SignedIn(caller): SignedIn,
    ApiQuery(q): ApiQuery<ForUser>,
) -> Result<Json<User>, ApiError> {
    let id = caller.acting_for(q.user_id)?;
    app.store
        .users()
        .user(id)
        .await?
        .map(Json)
        .ok_or_else(|| user::not_found().into())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ProfileUpdate {
    email: Email,
    latitude: Option<Latitude>,
    longitude: Option<Longitude>,
    /// Empty or absent keeps the current password.
    password: Option<String>,
    /// The caller's own password: required to set a new one.
    current_password: Option<String>,
}

async fn update_profile(
    State(app): State<AppState>,
    SignedIn(caller): SignedIn,
    address: ClientAddress,
    ApiQuery(q): ApiQuery<ForUser>,
    ApiJson(req): ApiJson<ProfileUpdate>,
) -> Result<Json<User>, ApiError> {
    let id = caller.acting_for(q.user_id)?;
    let target = app
        .store
        .users()
        .user(id)
        .await?
        .ok_or_else(user::not_found)?;
    // The pair is checked for everyone (the contract says so); then an admin's or a
    // crew's, who have no location, is ignored.
    let location =
        user::location_pair(req.latitude, req.longitude)?.filter(|_| target.role == Role::User);
    let password_hash = match req.password.filter(|p| !p.is_empty()) {
        Some(p) => {
            let p = Password::try_from(p).map_err(|e| {
                ApiError::bad_request("password", format!("Invalid 'password': {e}"))
            })?;
            confirm_current_password(&app, caller, &address, req.current_password).await?;
            Some(hash_password(&p).await?)
        }
        None => None,
    };
    // The user as read above is what the store's conditional write starts from.
    let user = app
        .store
        .users()
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DeleteAccount {
    /// The caller's own password, asked again: a token alone deletes nothing.
    password: Option<String>,
}

/// Deletes the caller's own account (a member of the public's): 400 without the
/// password, 403 when it is wrong or for a staff account, 409 while a booking is
/// open. Every session and device ends at once; the bookings stay for the
/// statistics without the personal fields (`store.privacy()`).
async fn delete_account(
    State(app): State<AppState>,
    SignedIn(caller): SignedIn,
    address: ClientAddress,
    ApiJson(req): ApiJson<DeleteAccount>,
) -> Result<StatusCode, ApiError> {
    let account = app
        .store
        .users()
        .account(caller.id)
        .await?
        .ok_or_else(user::not_found)?;
    // A staff account is refused before its password is checked.
    privacy::may_delete_own_account(account.user.role)?;
    let Some(password) = req.password.filter(|p| !p.is_empty()) else {
        return Err(ApiError::bad_request("password", "'password' is required"));
    };
    check_password(&app, &account, &address, password, "Password is incorrect").await?;
    app.store.privacy().delete_account(&account).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Everything held about the caller, as one JSON document (any role).
async fn export(
    State(app): State<AppState>,
    SignedIn(caller): SignedIn,
) -> Result<Json<Export>, ApiError> {
    let me = app
        .store
        .users()
        .user(caller.id)
        .await?
        .ok_or_else(user::not_found)?;
    Ok(Json(app.store.privacy().export(me).await?))
}

/// A new password needs the caller's own current one (a token alone is not enough):
/// 400 naming `currentPassword` when absent, 403 when wrong. The check is a password
/// check like a login's, throttled the same way.
async fn confirm_current_password(
    app: &AppState,
    caller: Caller,
    address: &ClientAddress,
    current: Option<String>,
) -> Result<(), ApiError> {
    let Some(current) = current.filter(|p| !p.is_empty()) else {
        return Err(ApiError::bad_request(
            "currentPassword",
            "Missing 'currentPassword': your current password is needed to set a new one",
        ));
    };
    let account = app
        .store
        .users()
        .account(caller.id)
        .await?
        .ok_or_else(user::not_found)?;
    check_password(
        app,
        &account,
        address,
        current,
        "Current password is incorrect",
    )
    .await
}

/// `password` checked against `account`'s like a login's, and throttled the same
/// way: 403 with `wrong` when it does not match.
async fn check_password(
    app: &AppState,
    account: &Account,
    address: &ClientAddress,
    password: String,
    wrong: &str,
) -> Result<(), ApiError> {
    let name = Username::try_from(account.user.username.clone()).map_err(ApiError::internal)?;
    let attempt = app
        .store
        .limits()
        .reserve_login_attempt(&name, address.key().as_deref())
        .await?;
    let candidate = if password.len() <= 1024 {
        password
    } else {
        String::new()
    };
    if !verify_password(Some(account.password_hash.clone()), candidate).await? {
        return Err(ApiError::Forbidden(wrong.into()));
    }
    Ok(app.store.limits().login_succeeded(attempt).await?)
}
