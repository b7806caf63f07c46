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
//!
//! Ending a session (sign-out, a reused refresh token) also ends its access tokens
//! at once: each carries its session's tag ([`session_tag`]), and the transaction
//! that revokes the session writes the tag into the user item's `endedSessions`,
//! which signed-in routes read anyway (`caller`: the same one GetItem). An entry is
//! needed only while an access token of that session can still be valid, so each
//! write drops those older than [`ENDED_SESSION_KEPT_SECS`]; the map holds only the
//! sessions ended in the last few minutes (bounded by sign-ins: 100 checks an hour
//! per username, `limits::LOGINS_PER_USERNAME`).

use std::collections::BTreeMap;

use backon::Retryable;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{
    keys::{self, Key},
    retry,
    schema::TTL_ATTRIBUTE,
    table::Store,
    tx::{Label, Tx, TxError, Write},
    users::UserItem,
};
use crate::error::StoreError;
use domain::session::{LEEWAY_SECS, TOKEN_TTL_SECS};
use domain::types::{Id, epoch_seconds};

/// A refresh token is good this long after it was issued (each refresh renews it)...
pub const REFRESH_TTL_SECS: i64 = 30 * 24 * 60 * 60;
/// ...and a session lasts at most this long after sign-in, refreshed or not.
pub const SESSION_MAX_SECS: i64 = 90 * 24 * 60 * 60;

/// How long an ended session stays in its user's `endedSessions`: as long as an
/// access token issued before the end can be valid (its lifetime, the clock leeway,
/// and a minute for clocks of different instances), after which it is refused as
/// expired anyway.
pub const ENDED_SESSION_KEPT_SECS: i64 = TOKEN_TTL_SECS + LEEWAY_SECS as i64 + 60;

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

/// What a valid refresh token (or a new sign-in) gives: whose session, the
/// refresh token to use next time, and the session's tag for its access tokens.
#[derive(Debug)]
pub struct Renewed {
    pub user_id: Id,
    pub session_version: u64,
    pub refresh_token: String,
    /// [`session_tag`] of the session: the `sid` of its access tokens.
    pub session: String,
}

/// The tag an access token carries for its session: a digest of the session id,
/// not the id itself. An access token's claims are readable by whoever holds it,
/// and the session id is half of the refresh token (and all that sign-out needs).
pub fn session_tag(session: &str) -> String {
    let digest = Sha256::digest(format!("access-token-session:{session}").as_bytes());
    hex::encode(&digest[..16])
}

/// `ended` (session tag to when it ended, epoch seconds) without the entries no
/// access token can need any more, with `tag` added as ended `now`.
fn with_ended(mut ended: BTreeMap<String, i64>, tag: String, now: i64) -> BTreeMap<String, i64> {
    ended.retain(|_, at| *at > now - ENDED_SESSION_KEPT_SECS);
    ended.insert(tag, now);
    ended
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

fn invalid() -> StoreError {
    StoreError::SignedOut("Invalid or expired refresh token".into())
}

/// `store.sessions()`: sessions: what a refresh token renews. Every method of the handle is
/// in this file.
#[derive(Clone, Copy)]
pub struct Sessions<'a> {
    pub(super) store: &'a Store,
}

impl Sessions<'_> {
    /// Begins a session for `user_id` (at sign-in): its first refresh token.
    pub async fn start_session(
        self,
        user_id: Id,
        session_version: u64,
    ) -> Result<Renewed, StoreError> {
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
        self.store.put_item(&item).await?;
        Ok(Renewed {
            user_id,
            session_version,
            refresh_token: token,
            session: session_tag(&session),
        })
    }

    /// Rotates `token`: the next refresh token of its session, or 401 when the token
    /// is unknown, expired, revoked or already used (which revokes its session).
    pub async fn refresh_session(self, token: &str) -> Result<Renewed, StoreError> {
        let session = session_of(token).ok_or_else(invalid)?;
        let key = keys::session(session);
        let now = epoch_seconds();
        let stored = self
            .store
            .get::<SessionItem>(&key)
            .await?
            .filter(|s| !s.revoked && s.expires_at > now)
            .ok_or_else(invalid)?;
        let presented = hash(token);
        if stored.current_hash != presented {
            // A rotated token used again: someone kept a copy. End the session.
            self.revoke(session, stored.user_id).await?;
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
        match self.store.update_returning::<SessionItem>(rotate).await? {
            Some(item) => Ok(Renewed {
                user_id: item.user_id,
                session_version: item.session_version,
                refresh_token: next,
                session: session_tag(session),
            }),
            // Rotated (or revoked) by a request at the same time: the same token was
            // used twice at once, which is reuse too.
            None => {
                self.revoke(session, stored.user_id).await?;
                Err(invalid())
            }
        }
    }

    /// Ends the session of `token` (sign-out): every refresh token of it stops
    /// working, and its access tokens at once. Unknown or malformed tokens, and
    /// sessions already ended, change nothing.
    pub async fn end_session(self, token: &str) -> Result<(), StoreError> {
        let Some(session) = session_of(token) else {
            return Ok(());
        };
        match self
            .store
            .get::<SessionItem>(&keys::session(session))
            .await?
        {
            Some(item) if !item.revoked => self.revoke(session, item.user_id).await,
            _ => Ok(()),
        }
    }

    /// Revokes `session` of `user` and, in the same transaction, adds its tag to the
    /// user's ended sessions (pruned), so its access tokens are refused from now
    /// on. The user item is written on the condition that its ended sessions are
    /// still the ones read (`endedSessionsVersion`): a revocation of another of the
    /// user's sessions at the same moment is never overwritten; the loser reads
    /// again (each lost race is another revocation done, so the store's patient
    /// retry policy outlasts any realistic number of devices signing out at once).
    async fn revoke(self, session: &str, user: Id) -> Result<(), StoreError> {
        let attempt = || async {
            // An ended session is no longer needed for anything (a revoked and a
            // missing one refuse a refresh alike): DynamoDB's TTL deletes it now
            // rather than at its expiry (docs/data-map.md).
            let revoke = Write::update(keys::session(session), "SET revoked = :yes, #ttl = :now")
                .exists()
                .name("#ttl", TTL_ATTRIBUTE)
                .value(":yes", true)
                .value(":now", epoch_seconds());
            let mut tx = Tx::new();
            tx.push(Label::Session, revoke);
            // A removed user has no access tokens left to end (`caller` refuses them).
            let account = self.store.get::<UserItem>(&keys::user(user)).await;
            if let Some(account) = account.map_err(Some)? {
                let ended = with_ended(
                    account.ended_sessions,
                    session_tag(session),
                    epoch_seconds(),
                );
                let write = Write::update(
                    keys::user(user),
                    "SET endedSessions = :ended ADD endedSessionsVersion :one",
                )
                .exists()
                // Absent on items older than this: read as 0.
                .when(
                    "(attribute_not_exists(endedSessionsVersion) OR endedSessionsVersion = :seen)",
                )
                .value(":ended", ended)
                .value(":one", 1)
                .value(":seen", account.ended_sessions_version);
                tx.push(Label::User, write);
            }
            match self.store.commit(tx).await {
                Ok(()) => Ok(()),
                // The session item is gone (its TTL): nothing to end.
                Err(TxError::Refused(r)) if r.by(Label::Session) => Ok(()),
                // Another revocation of this user's sessions went first: again.
                Err(TxError::Refused(_)) => Err(None),
                Err(e) => Err(Some(e.into_api())),
            }
        };
        attempt
            .retry(retry::patient_policy())
            .when(Option::is_none)
            .await
            .map_err(|e| e.unwrap_or(StoreError::Unavailable))?;
        // The device signed out stops ringing (decision 0014). After the revocation,
        // so a failure here never leaves a session alive; logged, not failed: the
        // sign-out itself is done.
        if let Err(e) = self
            .store
            .push()
            .forget_devices(user, Some(&session_tag(session)))
            .await
        {
            tracing::warn!(error = %e, "push subscriptions of an ended session not deleted");
        }
        Ok(())
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

    #[test]
    fn a_session_tag_is_not_its_id() {
        let session = "a".repeat(32);
        let tag = session_tag(&session);
        assert_eq!(tag.len(), 32);
        assert_ne!(tag, session);
        assert_eq!(tag, session_tag(&session));
        assert_ne!(tag, session_tag(&"b".repeat(32)));
    }

    #[test]
    fn ended_sessions_are_kept_while_their_access_tokens_can_live() {
        let now = 1_000_000;
        let ended = BTreeMap::from([
            ("old".to_owned(), now - ENDED_SESSION_KEPT_SECS),
            ("recent".to_owned(), now - TOKEN_TTL_SECS),
        ]);
        let kept = with_ended(ended, "new".into(), now);
        assert_eq!(
            kept,
            BTreeMap::from([
                ("recent".to_owned(), now - TOKEN_TTL_SECS),
                ("new".to_owned(), now)
            ])
        );
    }
}
