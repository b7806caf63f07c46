//! `/api/auth`: register and sign in.

use axum::{Json, Router, extract::State, http::StatusCode, routing::post};
use serde::{Deserialize, Serialize, de::IgnoredAny};
use shared::{
    ApiError, ApiJson, AppState,
    auth::{hash_password, verify_password},
    domain::user::{NewUser, Role, User},
    edge::ClientAddress,
    types::{Email, Id, LatLng, Latitude, Longitude, Password, Phone, Username},
};

/// The routes. Also starts hashing the login dummy in the background (once per
/// process), so the first unknown-user login costs the same as any other without
/// slowing cold start.
pub fn router(state: AppState) -> Router {
    tokio::task::spawn_blocking(shared::auth::warm_up);
    shared::http::finish(
        Router::new()
            .route("/api/auth/register", post(register))
            .route("/api/auth/login", post(login))
            .with_state(state),
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RegisterRequest {
    username: Username,
    email: Email,
    password: Password,
    phone: Phone,
    latitude: Latitude,
    longitude: Longitude,
    /// Accepted and ignored: registration always creates a USER.
    #[serde(default, rename = "role")]
    _role: Option<IgnoredAny>,
}

#[derive(Serialize)]
struct AuthResponse {
    token: String,
    user: User,
    role: Role,
    id: Id,
}

async fn register(
    State(app): State<AppState>,
    address: ClientAddress,
    ApiJson(req): ApiJson<RegisterRequest>,
) -> Result<(StatusCode, Json<AuthResponse>), ApiError> {
    app.store
        .count_registration(address.key().as_deref())
        .await?;
    let password_hash = hash_password(&req.password).await?;
    let user = app
        .store
        .create_user(NewUser {
            username: req.username,
            email: req.email,
            phone: req.phone,
            location: Some(LatLng {
                lat: req.latitude,
                lng: req.longitude,
            }),
            role: Role::User,
            password_hash,
        })
        .await?;
    let token = app.auth.issue(user.id, user.role)?;
    Ok((
        StatusCode::CREATED,
        Json(AuthResponse {
            token,
            role: user.role,
            id: user.id,
            user,
        }),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LoginRequest {
    username: String,
    password: String,
}

const INVALID_LOGIN: &str = "Invalid username or password";

async fn login(
    State(app): State<AppState>,
    address: ClientAddress,
    ApiJson(req): ApiJson<LoginRequest>,
) -> Result<Json<AuthResponse>, ApiError> {
    if req.username.trim().is_empty() {
        return Err(ApiError::bad_request("username", "Username is required"));
    }
    if req.password.is_empty() {
        return Err(ApiError::bad_request("password", "Password is required"));
    }
    // A name that could never have registered still costs one hash, so timing does
    // not tell which names exist.
    let username = Username::try_from(req.username).ok();
    let candidate = if req.password.len() <= 1024 {
        req.password
    } else {
        String::new()
    };
    // The check is reserved (throttled) before anything is hashed.
    let (attempt, found) = match &username {
        Some(name) => {
            let attempt = app
                .store
                .reserve_login_attempt(name, address.key().as_deref())
                .await?;
            (Some(attempt), app.store.user_for_login(name).await?)
        }
        None => (None, None),
    };
    let (user, hash) = match found {
        Some((user, hash)) => (Some(user), Some(hash)),
        None => (None, None),
    };
    let ok = verify_password(hash, candidate).await?;
    let (Some(user), true) = (user, ok) else {
        return Err(ApiError::Unauthorized(INVALID_LOGIN.into()));
    };
    if let Some(attempt) = attempt {
        app.store.login_succeeded(attempt).await?;
    }
    let token = app.auth.issue(user.id, user.role)?;
    Ok(Json(AuthResponse {
        token,
        role: user.role,
        id: user.id,
        user,
    }))
}
