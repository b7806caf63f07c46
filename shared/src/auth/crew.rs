//! The crew extractor: a CREW token whose account is read from the table on every
//! request (one GetItem), because an admin may move the crew to another ambulance or
//! remove it at any time, and that must count at once (ADR 0007).

use axum::{extract::FromRequestParts, http::request::Parts};

use super::SignedIn;
use crate::{
    app::AppState,
    domain::crew::{self, Crew},
    error::ApiError,
};

/// A signed-in crew account as stored now: 401 without a valid token or when the
/// account is gone, 403 for users and admins.
#[derive(Debug, Clone)]
pub struct CrewCaller(pub Crew);

impl FromRequestParts<AppState> for CrewCaller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, ApiError> {
        let SignedIn(caller) = SignedIn::from_request_parts(parts, app).await?;
        if !caller.role.is_crew() {
            return Err(crew::not_a_crew());
        }
        match app.store.account_as_crew(caller.id).await? {
            None => Err(ApiError::Unauthorized(
                "This crew account no longer exists".into(),
            )),
            Some(account) => account.map(CrewCaller).ok_or_else(crew::not_a_crew),
        }
    }
}
