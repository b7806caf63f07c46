//! `/api/auth`: register, sign in, renew the access token, sign out.

use axum::{Json, Router, extract::State, http::StatusCode};
use domain::{
    types::{Email, Id, LatLng, Latitude, Longitude, Password, Phone, Username},
    user::{NewUser, Role, User},
};
use serde::{Deserialize, Serialize, de::IgnoredAny};
use store::sessions::Renewed;
use telemetry::metrics::Metrics;
use web::http::Routes;
use web::{
    ApiError, ApiJson, AppState,
    auth::{new_account, verify_password},
    edge::ClientAddress,
};

/// The routes. Also starts hashing the login dummy in the background (once per
/// process), so the first unknown-user login costs the same as any other without
/// slowing cold start.
/// Every route of this function, declared once (the contract test reads the table).
pub fn routes() -> Routes {
    Routes::new()
        .post("/api/auth/register", register)
        .post("/api/auth/login", login)
        .post("/api/auth/refresh", refresh)
        .post("/api/auth/logout", logout)
}

pub fn router(state: AppState) -> Router {
    tokio::task::spawn_blocking(web::auth::warm_up);
    web::http::finish(routes().with_state(state))
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

/// A signed-in session: the access token (`token`, 5 minutes, expiring at
/// `expiresAt`) and the refresh token that renews it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AuthResponse {
    token: String,
    user: User,
    role: Role,
    id: Id,
    refresh_token: String,
    expires_at: domain::types::Timestamp,
}

/// The answer for `user`, signed in under `session`.
fn signed_in(app: &AppState, user: User, session: Renewed) -> Result<AuthResponse, ApiError> {
    let access = app.auth.issue_access(
        user.id,
        user.role,
        session.session_version,
        Some(&session.session),
    )?;
    Ok(AuthResponse {
        token: access.token,
        role: user.role,
        id: user.id,
        user,
        refresh_token: session.refresh_token,
        expires_at: access.expires_at,
    })
}

async fn register(
    State(app): State<AppState>,
    address: ClientAddress,
    ApiJson(req): ApiJson<RegisterRequest>,
) -> Result<(StatusCode, Json<AuthResponse>), ApiError> {
    app.store
        .limits()
        .count_registration(address.key().as_deref())
        .await?;
    let account = new_account(req.username, req.email, req.phone, &req.password).await?;
    let user = app
        .store
        .users()
        .create_user(NewUser {
            account,
            location: Some(
                LatLng {
                    lat: req.latitude,
                    lng: req.longitude,
                }
                .into(),
            ),
            role: Role::User,
        })
        .await?;
    let session = app.store.sessions().start_session(user.id, 0).await?;
    Ok((StatusCode::CREATED, Json(signed_in(&app, user, session)?)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LoginRequest {
    username: String,
    password: String,
}

async fn login(
    state: State<AppState>,
    address: ClientAddress,
    req: ApiJson<LoginRequest>,
) -> Result<Json<AuthResponse>, ApiError> {
    let answer = sign_in(state, address, req).await;
    // Refusals and throttles, for the dashboard and a password-guessing alarm.
    let refused = match &answer {
        Err(ApiError::Unauthorized(_)) => Some("badCredentials"),
        Err(ApiError::TooManyRequests { .. }) => Some("throttled"),
        _ => None,
    };
    if let Some(reason) = refused {
        Metrics::of("auth")
            .dimension("Reason", reason)
            .count("LoginRefusals", 1)
            .emit();
    }
    answer
}

async fn sign_in(
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
    let (attempt, account) = match &username {
        Some(name) => {
            let attempt = app
                .store
                .limits()
                .reserve_login_attempt(name, address.key().as_deref())
                .await?;
            (
                Some(attempt),
                app.store.users().account_by_name(name).await?,
            )
        }
        None => (None, None),
    };
    let hash = account.as_ref().map(|a| a.password_hash.clone());
    let ok = verify_password(hash, candidate).await?;
    let (Some(account), true) = (account, ok) else {
        return Err(ApiError::BadCredentials);
    };
    if let Some(attempt) = attempt {
        app.store.limits().login_succeeded(attempt).await?;
    }
    let session = app
        .store
        .sessions()
        .start_session(account.user.id, account.session_version)
        .await?;
    Ok(Json(signed_in(&app, account.user, session)?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RefreshRequest {
    refresh_token: String,
}

/// A new access token and the next refresh token; the one presented is used up.
async fn refresh(
    State(app): State<AppState>,
    ApiJson(req): ApiJson<RefreshRequest>,
) -> Result<Json<AuthResponse>, ApiError> {
    let session = app
        .store
        .sessions()
        .refresh_session(&req.refresh_token)
        .await?;
    let account = app.store.users().account(session.user_id).await?;
    match account {
        Some(account) if account.session_version == session.session_version => {
            Ok(Json(signed_in(&app, account.user, session)?))
        }
        // The user is gone, or their password changed since this session began.
        _ => {
            app.store
                .sessions()
                .end_session(&session.refresh_token)
                .await?;
            Err(ApiError::Unauthorized(
                "Invalid or expired refresh token".into(),
            ))
        }
    }
}

/// Signs out: the refresh token's session ends, its access tokens with it (the
/// signed-in routes refuse them at once). Always 204, whatever the token.
async fn logout(
    State(app): State<AppState>,
    ApiJson(req): ApiJson<RefreshRequest>,
) -> Result<StatusCode, ApiError> {
    app.store.sessions().end_session(&req.refresh_token).await?;
    Ok(StatusCode::NO_CONTENT)
}
