//! How long a sign-in's tokens live: the access token's lifetime and the clock skew
//! allowed on its times. `web::auth` issues and checks the tokens; the store's
//! sessions keep an ended session's token refused for as long as it could live.

/// Access tokens live 5 minutes: a signed-out or revoked session ends within that
/// even on the public reads, which do not look the user up.
pub const TOKEN_TTL_SECS: i64 = 5 * 60;

/// Clock skew allowed on `exp`, `nbf` and `iat`.
pub const LEEWAY_SECS: u64 = 5;
