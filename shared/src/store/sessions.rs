//! Sessions: what a refresh token renews. One item per session (a token family):
//! the user, the SHA-256 of its one current refresh token, the user's session
//! version when it began, and its expiry (also its TTL). The token itself is never
//! stored.
//!
//! A refresh token is `<session id>.<secret>`, 128 + 256 random bits in hex. Using
//! it rotates it: one conditional UpdateItem swaps the stored hash for the next
//! token's, only if the hash is still the one presented and the session is neither
//! revoked nor expired. A token presented again after its rotation (a copy someone
//! kept) revokes the whole session, so a stolen refresh token works at most until its
//! owner's next refresh, and then neither works. A new password (the user's session
//! version moves on) ends every session at its next refresh.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{
    keys::{self, Key},
    schema::TTL_ATTRIBUTE,
    table::Store,
    tx::Write,
};
use crate::{
    error::ApiError,
    types::{Id, epoch_seconds},
};

/// A refresh token is good this long after it was issued (each refresh renews it)...
pub const REFRESH_TTL_SECS: i64 = 30 * 24 * 60 * 60;
/// ...and a session lasts at most this long after sign-in, refreshed or not.
pub const SESSION_MAX_SECS: i64 = 90 * 24 * 60 * 60;

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SessionItem {
    #[serde(flatten)]
    key: Key,
    user_id: Id,
    current_hash: String,
    session_version: u64,
    started_at: i64,
    expires_at: i64,
    /// The table's TTL attribute: DynamoDB deletes the item some time after expiry.
    ttl: i64,
    #[serde(default)]
    revoked: bool,
}

/// What a valid refresh token (or a new sign-in) gives: whose session, and the
/// refresh token to use next time.
#[derive(Debug)]
pub struct Renewed {
    pub user_id: Id,
    pub session_version: u64,
    pub refresh_token: String,
}

fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::fill(&mut buf[..]);
    hex::encode(buf)
}

fn hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The session id of a well-formed refresh token.
fn session_of(token: &str) -> Option<&str> {
    let (session, secret) = token.split_once('.')?;
    let hex = |s: &str, len: usize| s.len() == len && s.bytes().all(|b| b.is_ascii_hexdigit());
    (hex(session, 32) && hex(secret, 64)).then_some(session)
}

fn invalid() -> ApiError {
    ApiError::Unauthorized("Invalid or expired refresh token".into())
}

impl Store {
    /// Begins a session for `user_id` (at sign-in): its first refresh token.
    pub async fn start_session(
        &self,
        user_id: Id,
        session_version: u64,
    ) -> Result<Renewed, ApiError> {
        let session = random_hex(16);
        let token = format!("{session}.{}", random_hex(32));
        let now = epoch_seconds();
        let item = SessionItem {
            key: keys::session(&session),
            user_id,
            current_hash: hash(&token),
            session_version,
            started_at: now,
            expires_at: now + REFRESH_TTL_SECS,
            ttl: now + REFRESH_TTL_SECS,
            revoked: false,
        };
        self.put_item(&item).await?;
        Ok(Renewed {
            user_id,
            session_version,
            refresh_token: token,
        })
    }

    /// Rotates `token`: the next refresh token of its session, or 401 when the token
    /// is unknown, expired, revoked or already used (which revokes its session).
    pub async fn refresh_session(&self, token: &str) -> Result<Renewed, ApiError> {
        let session = session_of(token).ok_or_else(invalid)?;
        let key = keys::session(session);
        let now = epoch_seconds();
        let stored = self
            .get::<SessionItem>(&key)
            .await?
            .filter(|s| !s.revoked && s.expires_at > now)
            .ok_or_else(invalid)?;
        let presented = hash(token);
        if stored.current_hash != presented {
            // A rotated token used again: someone kept a copy. End the session.
            self.revoke(&key).await?;
            return Err(invalid());
        }
        let next = format!("{session}.{}", random_hex(32));
        // Renewed for REFRESH_TTL_SECS, never past SESSION_MAX_SECS from sign-in.
        let expires = (now + REFRESH_TTL_SECS).min(stored.started_at + SESSION_MAX_SECS);
        let rotate = Write::update(
            key.clone(),
            "SET currentHash = :next, expiresAt = :exp, #ttl = :exp",
        )
        .when("currentHash = :presented AND revoked = :no AND expiresAt > :now")
        .name("#ttl", TTL_ATTRIBUTE)
        .value(":next", hash(&next))
        .value(":exp", expires)
        .value(":presented", presented)
        .value(":no", false)
        .value(":now", now);
        match self.update_returning::<SessionItem>(rotate).await? {
            Some(item) => Ok(Renewed {
                user_id: item.user_id,
                session_version: item.session_version,
                refresh_token: next,
            }),
            // Rotated (or revoked) by a request at the same time: the same token was
            // used twice at once, which is reuse too.
            None => {
                self.revoke(&key).await?;
                Err(invalid())
            }
        }
    }

    /// Ends the session of `token` (sign-out): every refresh token of it stops
    /// working. Unknown or malformed tokens change nothing.
    pub async fn end_session(&self, token: &str) -> Result<(), ApiError> {
        match session_of(token) {
            Some(session) => self.revoke(&keys::session(session)).await,
            None => Ok(()),
        }
    }

    async fn revoke(&self, key: &Key) -> Result<(), ApiError> {
        let revoke = Write::update(key.clone(), "SET revoked = :yes")
            .exists()
            .value(":yes", true);
        self.update_returning::<serde::de::IgnoredAny>(revoke)
            .await
            .map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refresh_tokens_are_a_session_id_and_a_secret_in_hex() {
        let good = format!("{}.{}", "a".repeat(32), "0".repeat(64));
        assert_eq!(session_of(&good), Some("a".repeat(32).as_str()));
        for bad in [
            "",
            "nodot",
            &format!("{}.{}", "a".repeat(31), "0".repeat(64)),
            &format!("{}.{}", "g".repeat(32), "0".repeat(64)),
            &format!("{}.{}.x", "a".repeat(32), "0".repeat(64)),
        ] {
            assert_eq!(session_of(bad), None, "{bad}");
        }
        assert_ne!(random_hex(16), random_hex(16));
        assert_eq!(random_hex(32).len(), 64);
    }
}
