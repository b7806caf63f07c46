//! One error type for every function. Each variant maps to one HTTP status and a
//! `{message, code, field?}` body; a 500 carries only the request id, never internals.
//! `code` is stable (the web app shows its own words for it in the reader's language);
//! `message` is English and may change.

use axum::{
    Json,
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::Serialize;

use domain::{
    refusal::{Conflict, Refusal},
    types::Id,
};
use store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// Bad input: the message names the problem, `field` the offending input.
    #[error("{message}")]
    BadRequest {
        message: String,
        field: Option<String>,
    },
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    /// A domain rule's refusal that clashes with how things stand (409); which
    /// reason, and its `code`, is the domain's [`Conflict`].
    #[error(transparent)]
    Conflict(#[from] Conflict),
    /// A sign-in whose name or password is wrong (which one is not said).
    #[error("Invalid username or password")]
    BadCredentials,
    #[error("Method not allowed")]
    MethodNotAllowed,
    #[error("Request body is too large")]
    PayloadTooLarge,
    #[error("{0}")]
    UnsupportedMediaType(String),
    #[error("{0}")]
    Unprocessable(String),
    #[error("{message}")]
    TooManyRequests {
        message: String,
        retry_after_secs: u64,
    },
    /// The database did not answer in time; the client may retry shortly.
    #[error("Service temporarily unavailable, please retry")]
    Unavailable,
    /// A bug or an unexpected dependency failure. The detail is logged, not sent.
    #[error("internal error: {0}")]
    Internal(String),
}

/// The JSON error body of the HTTP contract (docs/openapi.yaml, `Error`).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorBody {
    pub message: String,
    /// Stable: what went wrong, for a client to word it (`ApiError::code`).
    pub code: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    /// The open booking a conflict is about ([`Conflict::OpenEmergency`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub booking_id: Option<Id>,
    /// The hospitals to call instead ([`Conflict::NoAmbulanceNear`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hospitals: Option<serde_json::Value>,
}

impl ErrorBody {
    /// The message alone.
    fn of(e: &ApiError) -> ErrorBody {
        ErrorBody {
            message: e.to_string(),
            code: e.code(),
            field: None,
            request_id: None,
            booking_id: None,
            hospitals: None,
        }
    }
}

impl ApiError {
    pub fn bad_request(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::BadRequest {
            message: message.into(),
            field: Some(field.into()),
        }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        Self::BadRequest {
            message: message.into(),
            field: None,
        }
    }

    pub fn internal(err: impl std::fmt::Display) -> Self {
        Self::Internal(err.to_string())
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Self::BadRequest { .. } => StatusCode::BAD_REQUEST,
            Self::Unauthorized(_) | Self::BadCredentials => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Self::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl ApiError {
    /// The error body's `code`: one per variant, listed in the contract (`ErrorCode`).
    pub fn code(&self) -> &'static str {
        match self {
            Self::BadRequest { .. } => "invalid",
            Self::Unauthorized(_) => "unauthorized",
            Self::BadCredentials => "badCredentials",
            Self::Forbidden(_) => "forbidden",
            Self::NotFound(_) => "notFound",
            Self::Conflict(conflict) => match conflict {
                Conflict::UsernameTaken => "usernameTaken",
                Conflict::EmailTaken => "emailTaken",
                Conflict::AmbulanceTaken => "ambulanceTaken",
                Conflict::NoAmbulanceNear { .. } => "noAmbulanceNear",
                Conflict::OpenEmergency { .. } => "openEmergency",
                Conflict::AccountHasOpenBookings(_) => "openBookings",
                _ => "conflict",
            },
            Self::MethodNotAllowed => "methodNotAllowed",
            Self::PayloadTooLarge => "tooLarge",
            Self::UnsupportedMediaType(_) => "unsupportedMediaType",
            Self::Unprocessable(_) => "unprocessable",
            Self::TooManyRequests { .. } => "rateLimited",
            Self::Unavailable => "unavailable",
            Self::Internal(_) => "internal",
        }
    }

    /// Every code [`ApiError::code`] can answer, for the contract test.
    pub const CODES: [&'static str; 19] = [
        "invalid",
        "unauthorized",
        "badCredentials",
        "forbidden",
        "notFound",
        "conflict",
        "usernameTaken",
        "emailTaken",
        "ambulanceTaken",
        "noAmbulanceNear",
        "openEmergency",
        "openBookings",
        "methodNotAllowed",
        "tooLarge",
        "unsupportedMediaType",
        "unprocessable",
        "rateLimited",
        "unavailable",
        "internal",
    ];
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let request_id = telemetry::current_request_id();
        let body = match &self {
            Self::Internal(detail) => {
                tracing::error!(error = %detail, request_id = request_id.as_deref().unwrap_or("-"), "internal error");
                ErrorBody {
                    message: "Internal server error".into(),
                    request_id,
                    ..ErrorBody::of(&self)
                }
            }
            Self::BadRequest { field, .. } => ErrorBody {
                field: field.clone(),
                ..ErrorBody::of(&self)
            },
            Self::Conflict(Conflict::NoAmbulanceNear { hospitals }) => ErrorBody {
                hospitals: Some(hospitals.clone()),
                ..ErrorBody::of(&self)
            },
            Self::Conflict(Conflict::OpenEmergency { booking_id }) => ErrorBody {
                booking_id: Some(*booking_id),
                ..ErrorBody::of(&self)
            },
            other => ErrorBody::of(other),
        };
        let mut response = (status, Json(body)).into_response();
        let retry_after = match &self {
            Self::TooManyRequests {
                retry_after_secs, ..
            } => Some(*retry_after_secs),
            Self::Unavailable => Some(1),
            _ => None,
        };
        if let Some(secs) = retry_after {
            response.headers_mut().insert(
                header::RETRY_AFTER,
                HeaderValue::from_str(&secs.max(1).to_string()).expect("digits are a valid header"),
            );
        }
        response
    }
}

/// The edge of the domain: each kind of refusal answers one status (400, 404, 403,
/// 409), and a broken fact a 500 whose detail is only logged.
impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> Self {
        match refusal {
            Refusal::Invalid { field, message } => ApiError::BadRequest {
                message,
                field: Some(field),
            },
            Refusal::NotFound(missing) => ApiError::NotFound(missing.to_string()),
            Refusal::NotAllowed(not) => ApiError::Forbidden(not.to_string()),
            Refusal::Conflict(conflict) => ApiError::Conflict(conflict),
            Refusal::Broken(what) => ApiError::Internal(what),
        }
    }
}

/// The edge of the store: its refusals as the domain's, a rate limit a 429, a
/// database that did not answer a 503, a gone session a 401, a reused idempotency
/// key a 422, and a failure a 500 whose cause (every `source` below it) is logged.
impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Refused(refusal) => refusal.into(),
            StoreError::TooManyRequests {
                message,
                retry_after_secs,
            } => ApiError::TooManyRequests {
                message,
                retry_after_secs,
            },
            StoreError::SignedOut(message) => ApiError::Unauthorized(message),
            StoreError::KeyReused(message) => ApiError::Unprocessable(message),
            StoreError::Unavailable => ApiError::Unavailable,
            internal @ StoreError::Internal { .. } => {
                ApiError::Internal(store::error::chain(&internal))
            }
        }
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;

    /// One of each variant: its code is listed, and every listed code is answered,
    /// so `CODES` (which the contract test compares with docs/openapi.yaml) cannot
    /// drift from `code()`.
    #[test]
    fn every_variant_has_a_listed_code_and_every_code_a_variant() {
        let all = [
            ApiError::invalid("x"),
            ApiError::Unauthorized("x".into()),
            ApiError::BadCredentials,
            ApiError::Forbidden("x".into()),
            ApiError::NotFound("x".into()),
            Conflict::EmergencyEnded.into(),
            Conflict::UsernameTaken.into(),
            Conflict::EmailTaken.into(),
            Conflict::AmbulanceTaken.into(),
            Conflict::NoAmbulanceNear {
                hospitals: serde_json::json!([]),
            }
            .into(),
            Conflict::OpenEmergency {
                booking_id: Id::try_from(1).unwrap(),
            }
            .into(),
            Conflict::AccountHasOpenBookings(vec![Id::try_from(1).unwrap()]).into(),
            ApiError::MethodNotAllowed,
            ApiError::PayloadTooLarge,
            ApiError::UnsupportedMediaType("x".into()),
            ApiError::Unprocessable("x".into()),
            ApiError::TooManyRequests {
                message: "x".into(),
                retry_after_secs: 1,
            },
            ApiError::Unavailable,
            ApiError::Internal("x".into()),
        ];
        let codes: Vec<&str> = all.iter().map(ApiError::code).collect();
        assert_eq!(codes, ApiError::CODES);
    }

    /// Each kind of refusal answers one status, with its message and, for an invalid
    /// input, its field; a broken fact is an internal error.
    #[test]
    fn each_kind_of_refusal_answers_its_status() {
        use domain::refusal::{Missing, NotAllowed};
        let id = Id::try_from(3).unwrap();
        let cases: [(Refusal, StatusCode, &str); 4] = [
            (
                Refusal::invalid("age", "Invalid 'age'"),
                StatusCode::BAD_REQUEST,
                "Invalid 'age'",
            ),
            (
                Missing::Booking(id).into(),
                StatusCode::NOT_FOUND,
                "Booking 3 not found",
            ),
            (
                NotAllowed::NotYourJob(id).into(),
                StatusCode::FORBIDDEN,
                "Booking 3 is not held by your ambulance",
            ),
            (
                Conflict::JobGone(id).into(),
                StatusCode::CONFLICT,
                "Booking 3 was given to another ambulance",
            ),
        ];
        for (refusal, status, message) in cases {
            let e = ApiError::from(refusal);
            assert_eq!(e.status(), status, "{e:?}");
            assert_eq!(e.to_string(), message);
        }
        // Logged with its detail, answered as a bare 500 (`IntoResponse`).
        let broken = ApiError::from(Refusal::Broken("a stored latitude of 91".into()));
        assert!(
            matches!(&broken, ApiError::Internal(d) if d == "a stored latitude of 91"),
            "{broken:?}"
        );
        let ApiError::BadRequest { field, .. } = ApiError::from(Refusal::invalid("age", "x"))
        else {
            panic!("an invalid input is a 400")
        };
        assert_eq!(field.as_deref(), Some("age"));
    }
}
