//! Rate limits and the login throttle: atomic counters in DynamoDB with a TTL.
//!
//! - Rate limits: one item per subject (a user, a client address) and fixed window.
//!   A request is counted with one conditional UpdateItem that adds it only while the
//!   window holds fewer than the limit, so the limit is exact under any concurrency
//!   (any number of Lambda instances). A request is known by an id (its
//!   `Idempotency-Key` when it has one): a retry of a counted request is the same
//!   request and passes without counting again.
//! - The login throttle reserves a password check before the password is hashed:
//!   per (username, client address) a streak of attempts with a growing delay
//!   ([`login_delay_secs`]), each attempt taken by a conditional write on the streak
//!   as read; and per username, across addresses, a ceiling per hour. So a guesser
//!   gets a handful of checks, however many requests run at once, and cannot lock
//!   the owner out: the owner's address has a streak of its own.

use serde::{Deserialize, Serialize, Serializer};

use super::{
    keys::{self, Key},
    schema::TTL_ATTRIBUTE,
    table::Store,
    tx::Write,
};
use crate::error::StoreError;
use domain::types::{Id, Username, epoch_seconds};

/// At most `max` requests per `window_secs` per subject.
#[derive(Debug, Clone, Copy)]
pub struct Limit {
    /// Part of the counter's key: which limit.
    pub name: &'static str,
    pub max: usize,
    pub window_secs: i64,
    /// The 429's message.
    pub message: &'static str,
}

impl Limit {
    /// Every limit counts over an hour: long enough to stop a burst, short enough that
    /// a real person who hit it is not held back for the day.
    const fn hourly(name: &'static str, max: usize, message: &'static str) -> Limit {
        Limit {
            name,
            max,
            window_secs: 3600,
            message,
        }
    }
}

/// Bookings a user makes (not an admin booking for them).
pub const BOOKINGS_PER_USER: Limit = Limit::hourly(
    "book-user",
    20,
    "Too many booking requests from your account. Please try again later.",
);

/// Bookings from one client address (many accounts behind one address).
pub const BOOKINGS_PER_ADDRESS: Limit = Limit::hourly(
    "book-addr",
    30,
    "Too many booking requests from your network. Please try again later.",
);

/// One-tap emergencies dispatched for a user (each sends an ambulance at once, and
/// the requester may cancel until it arrives, so a prank account could keep a
/// town's fleet moving). Counted in the dispatch's own transaction: only requests
/// that send an ambulance count, never one refused (an open emergency, none free).
/// Per account only: a phone network's shared address must never keep a real
/// emergency from going out. Well above what a real person needs (a retry under the
/// same Idempotency-Key is not counted again).
pub const EMERGENCIES_PER_USER: Limit = Limit::hourly(
    "emergency-user",
    6,
    "Too many emergency requests from your account. If you need help now, call the emergency number.",
);

/// [`EMERGENCIES_PER_USER`]'s refusal naming the number to call (the setting
/// `emergencyNumber`, decision 0018).
pub fn emergency_limit_message(number: &str) -> String {
    format!("Too many emergency requests from your account. If you need help now, call {number}.")
}

/// Registrations from one client address.
pub const REGISTRATIONS_PER_ADDRESS: Limit = Limit::hourly(
    "register-addr",
    10,
    "Too many registrations from your network. Please try again later.",
);

/// Password checks of one username, across addresses: high enough that an attacker
/// on a few addresses (each slowed by its own streak) cannot reach it in an hour.
pub const LOGINS_PER_USERNAME: Limit = Limit::hourly(
    "login-user",
    100,
    "Too many failed login attempts. Please try again later.",
);

/// Attempts of one (username, address) that need no wait.
pub const FREE_LOGIN_ATTEMPTS: u32 = 5;
/// The longest wait between two attempts.
pub const MAX_LOGIN_DELAY_SECS: i64 = 15 * 60;
/// A streak is forgotten after this long without an attempt (longer than any wait).
pub const LOGIN_STREAK_RESET_SECS: i64 = 60 * 60;
// A streak outlives its longest wait, so waiting it out never starts a fresh streak.
const _: () = assert!(MAX_LOGIN_DELAY_SECS < LOGIN_STREAK_RESET_SECS);

/// The first wait, after the free attempts; each further one doubles.
pub const FIRST_LOGIN_DELAY_SECS: i64 = 15;

/// The wait after the `attempts`-th attempt of a streak before the next one: the
/// first [`FREE_LOGIN_ATTEMPTS`] need none between them, then 15 s, 30 s, 1 min...
/// up to 15 minutes. (Long enough from the start that a burst of requests, however
/// slow the database, gets only the free ones.)
pub fn login_delay_secs(attempts: u32) -> i64 {
    match attempts.checked_sub(FREE_LOGIN_ATTEMPTS) {
        None => 0,
        Some(over) => FIRST_LOGIN_DELAY_SECS
            .checked_shl(over.min(32))
            .unwrap_or(i64::MAX)
            .min(MAX_LOGIN_DELAY_SECS),
    }
}

/// The attempts of one username from one address since the streak began.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct LoginStreak {
    #[serde(flatten)]
    key: Key,
    attempts: u32,
    /// No attempt before this time (epoch seconds).
    next_at: i64,
    last_at: i64,
}

/// A reserved password check: [`Limits::login_succeeded`] ends its streak.
#[derive(Debug)]
pub struct LoginAttempt {
    key: Key,
    attempts: u32,
}

fn login_throttled(retry_after_secs: u64) -> StoreError {
    StoreError::TooManyRequests {
        message: LOGINS_PER_USERNAME.message.into(),
        retry_after_secs: retry_after_secs.max(1),
    }
}

/// Request ids as a DynamoDB string set.
struct StringSet<'a>(&'a [&'a str]);

impl Serialize for StringSet<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serde_dynamo::string_set::serialize(&self.0, s)
    }
}

/// The window `now` falls in: its start and the seconds left in it (at least 1).
pub fn window(now: i64, window_secs: i64) -> (i64, u64) {
    let start = now - now.rem_euclid(window_secs);
    (start, (start + window_secs - now).max(1) as u64)
}

/// An id for a request that has no `Idempotency-Key`: counted once, never again.
fn fresh_request_id() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// What a rate limit counts `user`'s request as: a retry under the same
/// `Idempotency-Key` is the same request.
fn request_id(user: Id, idempotency_key: Option<&str>) -> String {
    match idempotency_key {
        Some(key) => format!("{user}:{key}"),
        None => fresh_request_id(),
    }
}

/// `store.limits()`: rate limits and the login throttle. Every method of the handle is in
/// this file.
#[derive(Clone, Copy)]
pub struct Limits<'a> {
    pub(super) store: &'a Store,
}

impl Limits<'_> {
    /// Counts a booking request of `user` from `address` (a [`ClientAddress`] key;
    /// `None` when unknown: then only the user's limit applies). A retry under the
    /// same `Idempotency-Key` is the same request.
    ///
    /// [`ClientAddress`]: web::edge::ClientAddress
    pub async fn count_booking_request(
        self,
        user: Id,
        address: Option<&str>,
        idempotency_key: Option<&str>,
    ) -> Result<(), StoreError> {
        let request = request_id(user, idempotency_key);
        let per_address = async {
            match address {
                Some(address) => {
                    self.count_request(&BOOKINGS_PER_ADDRESS, address, &request)
                        .await
                }
                None => Ok(()),
            }
        };
        let user = user.to_string();
        tokio::try_join!(
            self.count_request(&BOOKINGS_PER_USER, &user, &request),
            per_address
        )?;
        Ok(())
    }

    /// Counts a registration from `address` (nothing to count when it is unknown).
    pub async fn count_registration(self, address: Option<&str>) -> Result<(), StoreError> {
        match address {
            Some(address) => {
                self.count_request(&REGISTRATIONS_PER_ADDRESS, address, &fresh_request_id())
                    .await
            }
            None => Ok(()),
        }
    }

    /// Reserves one password check of `username` from `address` (a `ClientAddress`
    /// key; `None`, unknown, counts as one address), before anything is hashed:
    /// 429 with `Retry-After` while the streak's delay runs or the username's ceiling
    /// is reached.
    pub async fn reserve_login_attempt(
        self,
        username: &Username,
        address: Option<&str>,
    ) -> Result<LoginAttempt, StoreError> {
        self.reserve_login_attempt_at(username, address, epoch_seconds())
            .await
    }

    /// [`Limits::reserve_login_attempt`] at time `now` (epoch seconds).
    pub async fn reserve_login_attempt_at(
        self,
        username: &Username,
        address: Option<&str>,
        now: i64,
    ) -> Result<LoginAttempt, StoreError> {
        let key = keys::login_streak(username, address.unwrap_or("unknown"));
        // Racers read the same streak and write on the condition that it is still
        // what they read: one wins each round, the others read again.
        for _ in 0..4 {
            let seen = self.store.get::<LoginStreak>(&key).await?;
            let current = seen
                .as_ref()
                .filter(|s| s.last_at > now - LOGIN_STREAK_RESET_SECS);
            if let Some(s) = current
                && s.next_at > now
            {
                return Err(login_throttled((s.next_at - now) as u64));
            }
            let attempts = current.map_or(0, |s| s.attempts) + 1;
            let mut write = Write::update(
                key.clone(),
                "SET attempts = :n, nextAt = :next, lastAt = :now, #ttl = :ttl",
            )
            .name("#ttl", TTL_ATTRIBUTE)
            .value(":n", attempts)
            .value(":next", now + login_delay_secs(attempts))
            .value(":now", now)
            .value(":ttl", now + LOGIN_STREAK_RESET_SECS);
            write = match &seen {
                None => write.when("attribute_not_exists(pk)"),
                Some(s) => write
                    .when("attempts = :seen AND lastAt = :seenAt")
                    .value(":seen", s.attempts)
                    .value(":seenAt", s.last_at),
            };
            if self
                .store
                .update_returning::<serde::de::IgnoredAny>(write)
                .await?
                .is_some()
            {
                let request = fresh_request_id();
                self.count_request_at(&LOGINS_PER_USERNAME, &username.key(), &request, now)
                    .await?;
                return Ok(LoginAttempt { key, attempts });
            }
        }
        // Lost every round to concurrent attempts: they took the free ones.
        Err(login_throttled(1))
    }

    /// The right password: the streak ends, unless attempts made since this one
    /// (running at the same time) have moved it on, so a success never opens fresh
    /// attempts for requests already in flight.
    pub async fn login_succeeded(self, attempt: LoginAttempt) -> Result<(), StoreError> {
        self.store
            .delete_if(
                Write::delete(attempt.key)
                    .when("attempts = :mine")
                    .value(":mine", attempt.attempts),
            )
            .await
            .map(|_| ())
    }

    /// Counts request `request` of `subject` against `limit`: 429 with `Retry-After`
    /// (the rest of the window) once the window holds `limit.max` other requests.
    pub async fn count_request(
        self,
        limit: &Limit,
        subject: &str,
        request: &str,
    ) -> Result<(), StoreError> {
        self.count_request_at(limit, subject, request, epoch_seconds())
            .await
    }

    /// [`Limits::count_request`] at time `now` (epoch seconds).
    pub async fn count_request_at(
        self,
        limit: &Limit,
        subject: &str,
        request: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let (count, refused) = count_write(limit, subject, request, now);
        match self
            .store
            .update_returning::<serde::de::IgnoredAny>(count)
            .await?
        {
            Some(_) => Ok(()),
            None => Err(refused),
        }
    }
}

/// The write that counts request `request` of `subject` against `limit` at `now`
/// (epoch seconds), refused once the window holds `limit.max` other requests; and
/// the 429 (`Retry-After`: the rest of the window) that answers a refusal. A
/// transaction may carry it, to count only what it writes.
pub(crate) fn count_write(
    limit: &Limit,
    subject: &str,
    request: &str,
    now: i64,
) -> (Write, StoreError) {
    let (start, left) = window(now, limit.window_secs);
    let count = Write::update(
        keys::rate_limit(limit.name, subject, start),
        "ADD #r :ids SET #ttl = :ttl",
    )
    .when("attribute_not_exists(#r) OR size(#r) < :max OR contains(#r, :id)")
    .name("#r", "requests")
    .name("#ttl", TTL_ATTRIBUTE)
    .value(":ids", StringSet(&[request]))
    .value(":id", request)
    .value(":max", limit.max)
    // Kept a window longer than needed: TTL deletes late anyway, and the key
    // names its window, so an old item is never read as the current one.
    .value(":ttl", start + 2 * limit.window_secs);
    let refused = StoreError::TooManyRequests {
        message: limit.message.into(),
        retry_after_secs: left,
    };
    (count, refused)
}

/// The [`count_write`] of `user`'s one-tap emergency ([`EMERGENCIES_PER_USER`]),
/// whose refusal says to call `number`.
pub(crate) fn count_emergency(
    user: Id,
    idempotency_key: Option<&str>,
    number: &str,
) -> (Write, StoreError) {
    let request = request_id(user, idempotency_key);
    let (count, refused) = count_write(
        &EMERGENCIES_PER_USER,
        &user.to_string(),
        &request,
        epoch_seconds(),
    );
    let refused = match refused {
        StoreError::TooManyRequests {
            retry_after_secs, ..
        } => StoreError::TooManyRequests {
            message: emergency_limit_message(number),
            retry_after_secs,
        },
        other => other,
    };
    (count, refused)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_login_wait_doubles_from_fifteen_seconds_to_fifteen_minutes() {
        let delays: Vec<i64> = (1..=16).map(login_delay_secs).collect();
        assert_eq!(
            delays,
            [
                0, 0, 0, 0, 15, 30, 60, 120, 240, 480, 900, 900, 900, 900, 900, 900
            ]
        );
        assert_eq!(login_delay_secs(u32::MAX), MAX_LOGIN_DELAY_SECS);
    }

    #[test]
    fn windows_are_fixed_and_retry_after_is_what_is_left() {
        assert_eq!(window(7200, 3600), (7200, 3600));
        assert_eq!(window(7201, 3600), (7200, 3599));
        assert_eq!(window(10_799, 3600), (7200, 1));
    }
}
