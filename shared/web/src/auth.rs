//! Passwords (argon2id, OWASP parameters) and tokens (HS256 JWT, algorithm pinned),
//! and the [`Caller`] a valid token names. The extractors that check a request's
//! token against the stored user are in `caller`.
//!
//! Access tokens live [`TOKEN_TTL_SECS`] (5 minutes); a session goes on by its
//! refresh token (`store::sessions`).

use std::sync::OnceLock;

use argon2::{
    Algorithm, Argon2, Params, PasswordHash, PasswordHasher, PasswordVerifier, Version,
    password_hash::{SaltString, rand_core::OsRng},
};
use jsonwebtoken::{DecodingKey, EncodingKey, Header, Validation, decode, encode};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use domain::{
    types::{Email, Id, Password, Phone, Timestamp, Username, epoch_seconds},
    user::{NewAccount, Role},
};

pub use domain::session::{LEEWAY_SECS, TOKEN_TTL_SECS};

fn argon2() -> Argon2<'static> {
    // OWASP: argon2id, m = 19 MiB, t = 2, p = 1.
    let params = Params::new(19_456, 2, 1, None).expect("constant parameters are valid");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes on the blocking pool: ~20 ms of CPU must not stall the async runtime.
pub async fn hash_password(password: &Password) -> Result<String, ApiError> {
    let plain = password.expose().to_owned();
    tokio::task::spawn_blocking(move || hash_blocking(&plain))
        .await
        .map_err(ApiError::internal)?
}

fn hash_blocking(plain: &str) -> Result<String, ApiError> {
    let salt = SaltString::generate(&mut OsRng);
    argon2()
        .hash_password(plain.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(ApiError::internal)
}

/// A new account's credentials, the password hashed ([`hash_password`]).
pub async fn new_account(
    username: Username,
    email: Email,
    phone: Phone,
    password: &Password,
) -> Result<NewAccount, ApiError> {
    Ok(NewAccount {
        username,
        email,
        phone,
        password_hash: hash_password(password).await?,
    })
}

/// Verifies `candidate` against `stored`, or against a dummy hash when the user does
/// not exist, so both answers take the same time and reveal nothing.
pub async fn verify_password(stored: Option<String>, candidate: String) -> Result<bool, ApiError> {
    tokio::task::spawn_blocking(move || {
        let exists = stored.is_some();
        let hash = stored.unwrap_or_else(|| dummy_hash().to_owned());
        let parsed = PasswordHash::new(&hash).map_err(ApiError::internal)?;
        let ok = argon2()
            .verify_password(candidate.as_bytes(), &parsed)
            .is_ok();
        Ok(ok && exists)
    })
    .await
    .map_err(ApiError::internal)?
}

fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| {
        hash_blocking("dummy password that no account has").expect("hashing a constant works")
    })
}

/// Warms the dummy hash at cold start so the first unknown-user login is not faster
/// or slower than the rest.
pub fn warm_up() {
    let _ = dummy_hash();
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Claims {
    /// The user id, as a string (RFC 7519 says `sub` is a string).
    pub sub: String,
    pub role: Role,
    pub iat: i64,
    pub nbf: i64,
    pub exp: i64,
    /// The user's session version when the token was issued (absent: 0).
    #[serde(default)]
    pub sv: u64,
    /// The session (refresh-token family) the token was issued in, as its tag
    /// (`store::sessions::session_tag`): signed-in routes refuse it once that session
    /// has ended. Absent on tokens made outside a sign-in (tests, tools).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sid: Option<String>,
}

/// A new access token and when it expires (RFC 3339).
#[derive(Debug, Clone)]
pub struct AccessToken {
    pub token: String,
    pub expires_at: Timestamp,
}

/// What a valid token says, before it is checked against the stored user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenClaims {
    pub id: Id,
    pub role: Role,
    pub session_version: u64,
    /// The tag of the session it was issued in (None: made outside a sign-in).
    pub session: Option<String>,
}

pub struct AuthKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
}

pub(crate) fn invalid_token() -> ApiError {
    ApiError::Unauthorized("Invalid or expired token".into())
}

impl AuthKeys {
    pub fn new(secret: &[u8]) -> Self {
        let mut validation = Validation::new(jsonwebtoken::Algorithm::HS256);
        validation.set_required_spec_claims(&["exp", "sub", "iat"]);
        validation.validate_nbf = true;
        validation.leeway = LEEWAY_SECS;
        AuthKeys {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            validation,
        }
    }

    /// An access token for `user_id` under session version 0, in no session (tests,
    /// tools).
    pub fn issue(&self, user_id: Id, role: Role) -> Result<String, ApiError> {
        self.issue_access(user_id, role, 0, None).map(|t| t.token)
    }

    /// An access token for `user_id` under the user's current `session_version`, in
    /// the session tagged `session`.
    pub fn issue_access(
        &self,
        user_id: Id,
        role: Role,
        session_version: u64,
        session: Option<&str>,
    ) -> Result<AccessToken, ApiError> {
        let now = epoch_seconds();
        let claims = Claims {
            sub: user_id.to_string(),
            role,
            iat: now,
            nbf: now,
            exp: now + TOKEN_TTL_SECS,
            sv: session_version,
            sid: session.map(str::to_owned),
        };
        let token = encode(
            &Header::new(jsonwebtoken::Algorithm::HS256),
            &claims,
            &self.encoding,
        )
        .map_err(ApiError::internal)?;
        let expires_at = time::OffsetDateTime::from_unix_timestamp(claims.exp)
            .ok()
            .and_then(Timestamp::new)
            .ok_or_else(|| ApiError::internal("a token's expiry beyond year 9999"))?;
        Ok(AccessToken { token, expires_at })
    }

    /// Any failure (bad signature, `alg: none`, expired, not yet valid, issued in the
    /// future, living longer than the tokens we issue, malformed) is the same 401.
    pub fn verify_claims(&self, token: &str) -> Result<TokenClaims, ApiError> {
        let claims = decode::<Claims>(token, &self.decoding, &self.validation)
            .map_err(|_| invalid_token())?
            .claims;
        if claims.iat > epoch_seconds() + LEEWAY_SECS as i64 {
            return Err(invalid_token());
        }
        // We issue nothing longer: a token that claims more was not made by sign-in
        // (a leaked secret, a tool's mistake) and would outlive every session check
        // bounded by the 5 minutes (the ended sessions kept on the account).
        if claims.exp.saturating_sub(claims.iat) > TOKEN_TTL_SECS {
            return Err(invalid_token());
        }
        Ok(TokenClaims {
            id: claims.sub.parse::<Id>().map_err(|_| invalid_token())?,
            role: claims.role,
            session_version: claims.sv,
            session: claims.sid,
        })
    }

    /// The caller a token names, by the token alone (no database read).
    pub fn verify(&self, token: &str) -> Result<Caller, ApiError> {
        self.verify_claims(token).map(|c| Caller {
            id: c.id,
            role: c.role,
        })
    }
}

/// A signed-in caller. Extracting it answers 401 unless a valid bearer token came.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caller {
    pub id: Id,
    pub role: Role,
}

impl Caller {
    pub fn is_admin(&self) -> bool {
        self.role.is_admin()
    }

    /// The user a request acts for: `user_id` when given, else the caller. Only an
    /// admin may act for someone else (403 otherwise).
    pub fn acting_for(&self, user_id: Option<Id>) -> Result<Id, ApiError> {
        match user_id {
            None => Ok(self.id),
            Some(id) if id == self.id || self.is_admin() => Ok(id),
            Some(_) => Err(ApiError::Forbidden(
                "You may only access your own data".into(),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;

    fn keys() -> AuthKeys {
        AuthKeys::new(b"0123456789abcdef0123456789abcdef")
    }

    #[test]
    fn a_token_round_trips() {
        let k = keys();
        let id = Id::try_from(7).unwrap();
        let caller = k.verify(&k.issue(id, Role::Admin).unwrap()).unwrap();
        assert_eq!(
            caller,
            Caller {
                id,
                role: Role::Admin
            }
        );
    }

    #[test]
    fn forged_tokens_are_refused() {
        let k = keys();
        let token = k.issue(Id::try_from(7).unwrap(), Role::User).unwrap();
        let other = AuthKeys::new(b"another-secret-another-secret-xx");
        assert!(other.verify(&token).is_err(), "wrong secret");

        let parts: Vec<&str> = token.split('.').collect();
        let b64 = |s: &str| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(s);
        let none_header = b64(r#"{"alg":"none","typ":"JWT"}"#);
        assert!(
            k.verify(&format!("{none_header}.{}.", parts[1])).is_err(),
            "alg none"
        );

        let now = domain::types::epoch_seconds();
        let admin_payload = b64(&format!(
            r#"{{"sub":"7","role":"ADMIN","iat":{now},"exp":{}}}"#,
            now + 3600
        ));
        assert!(
            k.verify(&format!("{}.{admin_payload}.{}", parts[0], parts[2]))
                .is_err(),
            "role changed in payload"
        );
        assert!(k.verify("not-a-token").is_err());
    }

    #[test]
    fn expired_tokens_are_refused() {
        let k = keys();
        let now = domain::types::epoch_seconds();
        let claims = Claims {
            sub: "7".into(),
            role: Role::User,
            iat: now - 100_000,
            nbf: now - 100_000,
            exp: now - 60,
            sv: 0,
            sid: None,
        };
        let token = encode(
            &Header::default(),
            &claims,
            &EncodingKey::from_secret(b"0123456789abcdef0123456789abcdef"),
        )
        .unwrap();
        assert!(k.verify(&token).is_err());
    }

    /// A user's token with these times, signed with the test secret.
    fn signed(iat: i64, nbf: i64, exp: i64) -> String {
        let claims = Claims {
            sub: "7".into(),
            role: Role::User,
            iat,
            nbf,
            exp,
            sv: 0,
            sid: None,
        };
        encode(
            &Header::default(),
            &claims,
            &EncodingKey::from_secret(b"0123456789abcdef0123456789abcdef"),
        )
        .unwrap()
    }

    #[test]
    fn tokens_from_the_future_are_refused() {
        let k = keys();
        let now = domain::types::epoch_seconds();
        let sign = |iat: i64, nbf: i64| signed(iat, nbf, iat + TOKEN_TTL_SECS);
        assert!(
            k.verify(&sign(now + 3600, now)).is_err(),
            "iat in the future"
        );
        assert!(
            k.verify(&sign(now, now + 3600)).is_err(),
            "nbf in the future"
        );
        assert!(
            k.verify(&sign(now + 60, now + 60)).is_err(),
            "beyond the leeway"
        );
        assert!(
            k.verify(&sign(now + 2, now + 2)).is_ok(),
            "within the leeway"
        );
        assert!(k.verify(&sign(now, now)).is_ok());
    }

    /// A token signed with the right secret but made to live longer than
    /// the ones we issue (a leaked secret, a tool's mistake) is refused.
    #[test]
    fn tokens_that_live_longer_than_issued_are_refused() {
        let k = keys();
        let now = domain::types::epoch_seconds();
        let sign = |iat: i64, exp: i64| signed(iat, iat, exp);
        let refused = |token: &str| matches!(k.verify(token), Err(ApiError::Unauthorized(_)));
        assert!(refused(&sign(now, now + 12 * 3600)), "12 hours");
        assert!(
            refused(&sign(now, now + TOKEN_TTL_SECS + 1)),
            "a second more"
        );
        assert!(refused(&sign(now - 3600, now + 60)), "issued an hour ago");
        assert!(k.verify(&sign(now, now + TOKEN_TTL_SECS)).is_ok());
        assert!(
            k.verify(&sign(now - 60, now + 60)).is_ok(),
            "shorter is fine"
        );
    }

    #[test]
    fn access_tokens_live_five_minutes_and_say_when_they_expire() {
        let k = keys();
        let id = Id::try_from(7).unwrap();
        let access = k.issue_access(id, Role::User, 3, Some("tag")).unwrap();
        let claims = k.verify_claims(&access.token).unwrap();
        assert_eq!(claims.session_version, 3);
        assert_eq!(claims.session.as_deref(), Some("tag"));
        let expires = access.expires_at.get();
        let left = expires.unix_timestamp() - domain::types::epoch_seconds();
        assert!(
            (TOKEN_TTL_SECS - 2..=TOKEN_TTL_SECS).contains(&left),
            "{left}"
        );
    }

    #[test]
    fn acting_for_someone_else_needs_admin() {
        let me = Id::try_from(1).unwrap();
        let other = Id::try_from(2).unwrap();
        let user = Caller {
            id: me,
            role: Role::User,
        };
        assert_eq!(user.acting_for(None).unwrap(), me);
        assert_eq!(user.acting_for(Some(me)).unwrap(), me);
        assert!(matches!(
            user.acting_for(Some(other)),
            Err(ApiError::Forbidden(_))
        ));
        let admin = Caller {
            id: me,
            role: Role::Admin,
        };
        assert_eq!(admin.acting_for(Some(other)).unwrap(), other);
    }

    #[tokio::test]
    async fn passwords_hash_and_verify() {
        let pw = Password::try_from("correct horse".to_owned()).unwrap();
        let hash = hash_password(&pw).await.unwrap();
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        assert!(
            verify_password(Some(hash.clone()), "correct horse".into())
                .await
                .unwrap()
        );
        assert!(
            !verify_password(Some(hash), "wrong horse".into())
                .await
                .unwrap()
        );
        assert!(
            !verify_password(None, "dummy password that no account has".into())
                .await
                .unwrap()
        );
    }
}
