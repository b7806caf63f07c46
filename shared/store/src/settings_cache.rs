//! The one copy of the settings an instance holds (decision 0018), shared by every
//! copy of its `Store`: read from the table at most every [`MAX_AGE`], so a change
//! an admin makes on any instance is in force on every other within that; the
//! instance that made it holds it at once.
//!
//! Time is the store's clock (`Store::now`), the one tests move forward: a test
//! lets [`MAX_AGE`] pass without waiting for it, through this very code.
//!
//! - The first read of an instance waits for the table (every caller at once waits
//!   for the same read); with nothing stored, the defaults.
//! - Once something is held, a caller that finds it old refreshes it, and callers
//!   meanwhile get what is held: nobody waits for a refresh but the one making it.
//! - A failed read keeps what is held (the defaults if nothing was yet), is logged,
//!   and is tried again [`RETRY_AFTER`] later, not on every request.

use std::{future::Future, sync::RwLock, time::Duration};

use time::OffsetDateTime;

use crate::error::StoreError;
use domain::settings::Settings;

/// How old the held settings may be before a caller reads them again: a change is in
/// force everywhere this long after it is made at most (the contract says 60 s).
pub const MAX_AGE: Duration = Duration::from_secs(30);
/// After a failed read, how long the held settings serve before the next try.
pub const RETRY_AFTER: Duration = Duration::from_secs(5);
const _: () = assert!(MAX_AGE.as_secs() <= 60 && RETRY_AFTER.as_secs() < MAX_AGE.as_secs());

#[derive(Default)]
pub(crate) struct SettingsCache {
    held: RwLock<Option<Held>>,
    /// Held by the one caller reading the table.
    reading: tokio::sync::Mutex<()>,
}

#[derive(Clone)]
struct Held {
    settings: Settings,
    /// When it was last read (or a read last failed).
    checked_at: OffsetDateTime,
    /// When to read it again.
    due_at: OffsetDateTime,
}

impl Held {
    fn fresh(&self, now: OffsetDateTime) -> bool {
        // A clock set back makes it due at once rather than never.
        self.checked_at <= now && now < self.due_at
    }
}

impl SettingsCache {
    fn held(&self) -> Option<Held> {
        self.held.read().expect("not poisoned").clone()
    }

    fn hold(&self, settings: Settings, now: OffsetDateTime, wait: Duration) {
        *self.held.write().expect("not poisoned") = Some(Held {
            settings,
            checked_at: now,
            due_at: now + wait,
        });
    }

    /// The settings in force at `now`: those held while fresh, else read with `read`
    /// (see the module documentation); `defaults` when the first read fails.
    pub(crate) async fn get<F, Fut>(
        &self,
        now: OffsetDateTime,
        defaults: &Settings,
        read: F,
    ) -> Settings
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Settings, StoreError>>,
    {
        let held = self.held();
        if let Some(h) = held.as_ref().filter(|h| h.fresh(now)) {
            return h.settings.clone();
        }
        let _reading = match held {
            Some(h) => match self.reading.try_lock() {
                Ok(guard) => guard,
                // Someone is reading them: what is held serves meanwhile.
                Err(_) => return h.settings,
            },
            None => self.reading.lock().await,
        };
        // Read by another caller while this one waited.
        if let Some(h) = self.held().filter(|h| h.fresh(now)) {
            return h.settings;
        }
        match read().await {
            Ok(settings) => {
                self.hold(settings.clone(), now, MAX_AGE);
                settings
            }
            Err(e) => {
                let kept = self.held().map(|h| h.settings);
                tracing::error!(
                    error = %e,
                    serving = if kept.is_some() { "the last settings read" } else { "the defaults" },
                    retry_in_secs = RETRY_AFTER.as_secs(),
                    "could not read the settings"
                );
                let settings = kept.unwrap_or_else(|| defaults.clone());
                self.hold(settings.clone(), now, RETRY_AFTER);
                settings
            }
        }
    }

    /// Settings this instance just read or wrote itself: held at once.
    pub(crate) fn put(&self, settings: Settings, now: OffsetDateTime) {
        self.hold(settings, now, MAX_AGE);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use time::macros::datetime;

    const T0: OffsetDateTime = datetime!(2026-12-01 10:00:00 UTC);

    fn with_window(secs: u32) -> Settings {
        Settings {
            emergency_answer_seconds: secs,
            ..Settings::default()
        }
    }

    /// `cache.get` at `now` whose read answers `answer`, counting the reads.
    async fn get(
        cache: &SettingsCache,
        now: OffsetDateTime,
        reads: &AtomicUsize,
        answer: Result<Settings, StoreError>,
    ) -> u32 {
        cache
            .get(now, &Settings::default(), || async {
                reads.fetch_add(1, Ordering::SeqCst);
                answer
            })
            .await
            .emergency_answer_seconds
    }

    fn secs(n: u64) -> time::Duration {
        time::Duration::seconds(n as i64)
    }

    #[tokio::test]
    async fn read_once_then_held_until_it_is_max_age_old() {
        let cache = SettingsCache::default();
        let reads = AtomicUsize::new(0);
        assert_eq!(get(&cache, T0, &reads, Ok(with_window(45))).await, 45);
        let later = T0 + secs(MAX_AGE.as_secs() - 1);
        assert_eq!(get(&cache, later, &reads, Ok(with_window(30))).await, 45);
        assert_eq!(reads.load(Ordering::SeqCst), 1);
        let due = T0 + secs(MAX_AGE.as_secs());
        assert_eq!(get(&cache, due, &reads, Ok(with_window(30))).await, 30);
        assert_eq!(reads.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_failed_refresh_keeps_the_last_settings_and_tries_again_later() {
        let cache = SettingsCache::default();
        let reads = AtomicUsize::new(0);
        get(&cache, T0, &reads, Ok(with_window(45))).await;
        let due = T0 + secs(MAX_AGE.as_secs());
        let down = || Err(StoreError::Unavailable);
        assert_eq!(get(&cache, due, &reads, down()).await, 45);
        // Not again on the next request...
        assert_eq!(get(&cache, due + secs(1), &reads, down()).await, 45);
        assert_eq!(reads.load(Ordering::SeqCst), 2);
        // ...but once RETRY_AFTER has passed.
        let retry = due + secs(RETRY_AFTER.as_secs());
        assert_eq!(get(&cache, retry, &reads, Ok(with_window(20))).await, 20);
        assert_eq!(reads.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn a_failed_first_read_serves_the_defaults() {
        let cache = SettingsCache::default();
        let reads = AtomicUsize::new(0);
        assert_eq!(
            get(&cache, T0, &reads, Err(StoreError::Unavailable)).await,
            Settings::default().emergency_answer_seconds
        );
        let retry = T0 + secs(RETRY_AFTER.as_secs());
        assert_eq!(get(&cache, retry, &reads, Ok(with_window(45))).await, 45);
    }

    #[tokio::test]
    async fn what_this_instance_wrote_is_held_at_once_and_a_clock_set_back_reads_again() {
        let cache = SettingsCache::default();
        let reads = AtomicUsize::new(0);
        get(&cache, T0, &reads, Ok(with_window(45))).await;
        cache.put(with_window(50), T0 + secs(1));
        assert_eq!(
            get(&cache, T0 + secs(2), &reads, Ok(with_window(9))).await,
            50
        );
        assert_eq!(reads.load(Ordering::SeqCst), 1);
        assert_eq!(
            get(&cache, T0 - secs(60), &reads, Ok(with_window(9))).await,
            9
        );
    }

    #[tokio::test]
    async fn callers_at_once_share_one_read() {
        let cache = SettingsCache::default();
        let reads = AtomicUsize::new(0);
        let (gate, wait) = tokio::sync::oneshot::channel::<()>();
        let defaults = Settings::default();
        let slow = cache.get(T0, &defaults, || async {
            reads.fetch_add(1, Ordering::SeqCst);
            wait.await.ok();
            Ok(with_window(45))
        });
        let others =
            futures::future::join_all((0..5).map(|_| get(&cache, T0, &reads, Ok(with_window(9)))));
        let opened = async {
            tokio::task::yield_now().await;
            gate.send(()).ok();
        };
        let (first, rest, ()) = tokio::join!(slow, others, opened);
        assert_eq!(first.emergency_answer_seconds, 45);
        assert_eq!(rest, vec![45; 5]);
        assert_eq!(reads.load(Ordering::SeqCst), 1);
    }
}
