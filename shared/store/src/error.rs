//! The store's own error: what can go wrong reading and writing the table, in the
//! store's words. The HTTP edge (`web::error`) maps each kind to one status; the
//! store never builds an HTTP answer (docs/architecture.md, "Layers").

use domain::refusal::{Conflict, Refusal};

/// A failure's cause, kept for the log line of a 500.
pub type Source = Box<dyn std::error::Error + Send + Sync + 'static>;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A domain rule refused what was asked, as the stored items stand (missing,
    /// not allowed, a conflict, an invalid input found while reading, or a broken
    /// fact).
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// A rate limit or the login throttle: try again after `retry_after_secs`.
    #[error("{message}")]
    TooManyRequests {
        message: String,
        retry_after_secs: u64,
    },
    /// The session or account behind the request is gone (a refresh token that no
    /// longer renews, an account deleted meanwhile): sign in again.
    #[error("{0}")]
    SignedOut(String),
    /// An idempotency key sent again with a different request.
    #[error("{0}")]
    KeyReused(String),
    /// The database did not answer in time, or was throttled; the caller may retry
    /// shortly.
    #[error("the database did not answer in time")]
    Unavailable,
    /// A bug or an unexpected answer of the database; `source` is the cause.
    #[error("{message}")]
    Internal {
        message: String,
        #[source]
        source: Option<Source>,
    },
}

pub type StoreResult<T> = Result<T, StoreError>;

impl StoreError {
    /// A failure with only a message (no underlying error to keep).
    pub fn internal(message: impl std::fmt::Display) -> Self {
        StoreError::Internal {
            message: message.to_string(),
            source: None,
        }
    }

    /// A failure caused by `source`, which is kept.
    pub fn caused_by(
        message: impl std::fmt::Display,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        StoreError::Internal {
            message: message.to_string(),
            source: Some(Box::new(source)),
        }
    }

    /// An input found invalid by the store (a cursor it did not give, an ambulance
    /// of another hospital): the domain's [`Refusal::Invalid`], naming `field`.
    pub fn bad_request(field: impl Into<String>, message: impl Into<String>) -> Self {
        StoreError::Refused(Refusal::invalid(field, message))
    }
}

impl From<Conflict> for StoreError {
    fn from(conflict: Conflict) -> Self {
        StoreError::Refused(Refusal::Conflict(conflict))
    }
}

/// The message and every cause below it, for a log line.
pub fn chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut next = e.source();
    while let Some(cause) = next {
        out.push_str(": ");
        out.push_str(&cause.to_string());
        next = cause.source();
    }
    out
}

impl From<domain::refusal::Missing> for StoreError {
    fn from(missing: domain::refusal::Missing) -> Self {
        StoreError::Refused(Refusal::NotFound(missing))
    }
}

impl From<domain::refusal::NotAllowed> for StoreError {
    fn from(not: domain::refusal::NotAllowed) -> Self {
        StoreError::Refused(Refusal::NotAllowed(not))
    }
}
