//! The crew extractor: a CREW token whose account is read from the table on every
//! request (the one GetItem every signed-in route makes), because an admin may move
//! the crew to another ambulance or remove it at any time, and that must count at
//! once (ADR 0007).

use axum::{extract::FromRequestParts, http::request::Parts};

use super::signed_in_account;
use crate::{
    app::AppState,
    domain::crew::{self, Crew},
    error::ApiError,
};

/// A signed-in crew account as stored now: 401 without a valid token, when the
/// account is gone or its session ended, 403 for users and admins.
#[derive(Debug, Clone)]
pub struct CrewCaller(pub Crew);

impl FromRequestParts<AppState> for CrewCaller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, ApiError> {
        // The one read that confirms the token (`signed_in_account`) is the crew's.
        let account = signed_in_account(parts, app).await?;
        account.crew.map(CrewCaller).ok_or_else(crew::not_a_crew)
    }
}
