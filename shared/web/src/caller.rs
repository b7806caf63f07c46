//! Who is calling: the extractors that turn a request's bearer token into a
//! [`Caller`] (401 without a valid one, 403 for the wrong role).
//!
//! Signed-in routes ([`SignedIn`], [`Caller`], [`Admin`], [`CrewCaller`]) confirm
//! every token against the stored user (one GetItem): the user must still exist, the
//! token's session version must be the user's (a new password ends every earlier
//! token at once), the token's session must not have ended (sign-out, a reused
//! refresh token), and the role is the stored one, so a demoted admin is an admin no
//! more. Public reads ([`MaybeCaller`]) check the token alone and add no database
//! read. The crew's account is read as stored now on every request, because an admin
//! may move the crew to another ambulance or remove it at any time, and that must
//! count at once (ADR 0007).

use axum::{extract::FromRequestParts, http::request::Parts};

use crate::{
    app::AppState,
    auth::{Caller, invalid_token},
    error::ApiError,
};
use domain::{
    audit::Actor,
    crew::{self, Crew},
    hospital_staff::{self, HospitalStaffRef},
    user::Role,
};
use store::users::Account;

/// The 403 of a route for the public and admins, to a crew or hospital staff token.
const NOT_FOR_STAFF: &str = "This route is not for ambulance crew or hospital staff accounts";

/// A role as the request's log line names it.
fn role_name(role: Role) -> &'static str {
    match role {
        Role::User => "user",
        Role::Admin => "admin",
        Role::Crew => "crew",
        Role::Hospital => "hospital",
    }
}

fn bearer(parts: &Parts) -> Result<Option<&str>, ApiError> {
    let Some(value) = parts.headers.get(axum::http::header::AUTHORIZATION) else {
        return Ok(None);
    };
    let value = value
        .to_str()
        .map_err(|_| ApiError::Unauthorized("Invalid or expired token".into()))?;
    match value.split_once(' ') {
        Some((scheme, token))
            if scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty() =>
        {
            Ok(Some(token.trim()))
        }
        _ => Err(ApiError::Unauthorized(
            "Authorization must be 'Bearer <token>'".into(),
        )),
    }
}

/// The stored account of a valid bearer token (one GetItem, strongly consistent):
/// 401 without a token, for a user that no longer exists, for a token of an
/// earlier session version (the password changed since), or of a session that has
/// ended (signed out, or ended by a reused refresh token). The account item holds
/// its recently ended sessions, so this one read answers all of it.
async fn signed_in_account(parts: &Parts, app: &AppState) -> Result<Account, ApiError> {
    signed_in_session(parts, app)
        .await
        .map(|(account, _)| account)
}

/// [`signed_in_account`] and the tag of the token's session.
async fn signed_in_session(
    parts: &Parts,
    app: &AppState,
) -> Result<(Account, Option<String>), ApiError> {
    let Some(token) = bearer(parts)? else {
        return Err(ApiError::Unauthorized("Authentication required".into()));
    };
    let claims = app.auth.verify_claims(token)?;
    let account = app
        .store
        .users()
        .account(claims.id)
        .await?
        .ok_or_else(invalid_token)?;
    if account.session_version != claims.session_version
        || account.session_ended(claims.session.as_deref())
    {
        return Err(ApiError::Unauthorized(
            "This session has ended; please sign in again".into(),
        ));
    }
    telemetry::record_role(role_name(account.user.role));
    Ok((account, claims.session))
}

/// The signed-in caller when their stored role is one `allowed` admits; 403 with
/// `refusal` otherwise ([`Caller`], [`Admin`]).
async fn caller_in_role(
    parts: &Parts,
    app: &AppState,
    allowed: fn(Role) -> bool,
    refusal: &str,
) -> Result<Caller, ApiError> {
    let account = signed_in_account(parts, app).await?;
    if allowed(account.user.role) {
        Ok(Caller {
            id: account.user.id,
            role: account.user.role,
        })
    } else {
        Err(ApiError::Forbidden(refusal.into()))
    }
}

/// Any signed-in caller, crew included: a valid token whose user still exists under
/// the same session version. The role is the stored user's, not the token's.
#[derive(Debug, Clone, Copy)]
pub struct SignedIn(pub Caller);

impl FromRequestParts<AppState> for SignedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, ApiError> {
        caller_in_role(parts, app, |_| true, "").await.map(SignedIn)
    }
}

/// A user or an admin (by the stored role), never crew or hospital staff: their
/// tokens get 403 (crew routes take [`CrewCaller`], hospital routes
/// [`HospitalCaller`], the few routes open to every role [`SignedIn`]).
#[derive(Debug, Clone, Copy)]
pub struct NotCrew(pub Caller);

impl FromRequestParts<AppState> for NotCrew {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, ApiError> {
        let not_staff = |r: Role| !r.is_staff();
        caller_in_role(parts, app, not_staff, NOT_FOR_STAFF)
            .await
            .map(NotCrew)
    }
}

/// Any signed-in caller (as [`SignedIn`]) and the tag of their token's session: a
/// device that subscribes to pushes is bound to it, so signing it out stops them.
#[derive(Debug, Clone)]
pub struct SignedInDevice {
    pub caller: Caller,
    pub session: Option<String>,
    /// The token's session version (the account's, as checked): a write bound to the
    /// session is conditional on it (a new password ends every session).
    pub session_version: u64,
}

impl FromRequestParts<AppState> for SignedInDevice {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, ApiError> {
        let (account, session) = signed_in_session(parts, app).await?;
        Ok(SignedInDevice {
            caller: Caller {
                id: account.user.id,
                role: account.user.role,
            },
            session,
            session_version: account.session_version,
        })
    }
}

/// Who an admin's account is, as the audit trail names them.
fn actor_of(account: &Account) -> Actor {
    Actor {
        id: account.user.id,
        username: account.user.username.clone(),
    }
}

/// The app with its store acting for the signed-in admin, and who they are: 403
/// for any other role.
async fn admin_app(parts: &Parts, app: &AppState) -> Result<(AppState, Actor), ApiError> {
    let account = signed_in_account(parts, app).await?;
    if !account.user.role.is_admin() {
        return Err(ApiError::Forbidden("Administrator access required".into()));
    }
    let actor = actor_of(&account);
    let mut app = app.clone();
    app.store = app.store.acting_as(actor.clone());
    Ok((app, actor))
}

/// The app, for a signed-in admin (by the stored role): 401 without a valid token,
/// 403 for any other role. Every `/api/admin` handler takes it in place of `State`,
/// so none reaches the store without the check. Its store acts for the admin
/// (`Store::acting_as`): every change it makes is on the audit trail under their
/// name, in the change's own transaction (docs/decisions/0023-audit-trail.md).
#[derive(Clone)]
pub struct Admin(pub AppState);

impl FromRequestParts<AppState> for Admin {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, ApiError> {
        Ok(Admin(admin_app(parts, app).await?.0))
    }
}

/// [`Admin`] and the admin's username, for the routes that record who did
/// something on the item itself (an alert's `acknowledgedBy`): the same one read
/// and refusals.
#[derive(Clone)]
pub struct AdminNamed(pub AppState, pub String);

impl FromRequestParts<AppState> for AdminNamed {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, ApiError> {
        let (app, actor) = admin_app(parts, app).await?;
        Ok(AdminNamed(app, actor.username))
    }
}

/// [`NotCrew`], and for an admin who they are: the routes open to users and admins
/// alike whose admin use is on the audit trail (an admin cancelling a booking,
/// reading someone's patient details). The same one read and refusals.
#[derive(Debug, Clone)]
pub struct NotCrewNamed(pub Caller, pub Option<Actor>);

impl FromRequestParts<AppState> for NotCrewNamed {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, ApiError> {
        let account = signed_in_account(parts, app).await?;
        let role = account.user.role;
        if role.is_staff() {
            return Err(ApiError::Forbidden(NOT_FOR_STAFF.into()));
        }
        let caller = Caller {
            id: account.user.id,
            role,
        };
        Ok(NotCrewNamed(
            caller,
            role.is_admin().then(|| actor_of(&account)),
        ))
    }
}

/// The app and the signed-in crew account as stored now: 401 without a valid token,
/// when the account is gone or its session ended, 403 for users and admins. Every
/// `/api/crew` handler takes it in place of `State`, as admin handlers take [`Admin`].
#[derive(Clone)]
pub struct CrewCaller(pub AppState, pub Crew);

impl FromRequestParts<AppState> for CrewCaller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, ApiError> {
        // The one read that confirms the token (`signed_in_account`) is the crew's.
        let account = signed_in_account(parts, app).await?;
        let crew = account.crew.ok_or_else(crew::not_a_crew)?;
        Ok(CrewCaller(app.clone(), crew))
    }
}

/// The app and the signed-in hospital staff account as stored now (its hospital):
/// 401 without a valid token or when the account is gone, 403 for every other role.
/// Every `/api/hospital` handler takes it in place of `State`.
#[derive(Clone)]
pub struct HospitalCaller(pub AppState, pub HospitalStaffRef);

impl FromRequestParts<AppState> for HospitalCaller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, ApiError> {
        // The one read that confirms the token is the staff account's.
        let account = signed_in_account(parts, app).await?;
        let staff = account
            .hospital_staff
            .ok_or_else(hospital_staff::not_staff)?;
        Ok(HospitalCaller(app.clone(), staff))
    }
}

/// For public reads: signed out is fine, but a token that is present must be valid.
/// Checked by the token alone: public reads add no database read.
#[derive(Debug, Clone, Copy)]
pub struct MaybeCaller(pub Option<Caller>);

impl FromRequestParts<AppState> for MaybeCaller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, ApiError> {
        match bearer(parts)? {
            Some(token) => app.auth.verify(token).map(|c| {
                telemetry::record_role(role_name(c.role));
                MaybeCaller(Some(c))
            }),
            None => Ok(MaybeCaller(None)),
        }
    }
}
