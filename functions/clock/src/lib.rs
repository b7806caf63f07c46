//! The clock (docs/decisions/0012-background-work.md): runs the answer-deadline rule
//! on time, and, while it waits between two sweeps, forgets what is no longer needed
//! ([`forget`]: docs/decisions/0022-personal-data.md). In AWS a schedule invokes it once a minute and each invocation sweeps
//! every [`EVERY`] for [`WINDOW`]; locally (`make dev`, the test stacks) the same
//! binary sweeps every few seconds until stopped (`clock --every-secs N`). Either way
//! each sweep is `store.deadlines().sweep` at the store's clock: one code path, and tests
//! drive it with the store's clock moved forward instead of waiting.

use std::time::Duration;

use store::{Store, deadlines::SweepReport, privacy::ForgetReport, reports::FoldReport};
use telemetry::metrics::{Metrics, Unit};
use web::ApiError;

/// Between two sweeps: a job is moved or alerted at most this long after its
/// deadline, plus one sweep's work.
pub const EVERY: Duration = Duration::from_secs(5);
/// How long one invocation sweeps: the schedule invokes once a minute, so the
/// invocations overlap by a few seconds rather than leave a gap (the writes are
/// conditional: two sweeps at once do each thing once).
pub const WINDOW: Duration = Duration::from_secs(62);

/// One sweep now (the store's clock).
pub async fn sweep(store: &Store) -> Result<SweepReport, ApiError> {
    let report = store.deadlines().sweep(store.now()).await?;
    // Every sweep, so the oldest open alert's age is a metric with no gaps.
    Metrics::of("clock")
        .count("DeadlineMoves", report.moved)
        .count("DeadlineAlerts", report.alerted)
        .count("DeadlineFailures", report.failed)
        .value(
            "OldestUnansweredAlertAge",
            report.oldest_unanswered_secs as f64,
            Unit::Seconds,
        )
        .emit();
    let quiet = SweepReport {
        oldest_unanswered_secs: report.oldest_unanswered_secs,
        ..SweepReport::default()
    };
    if report != quiet {
        tracing::info!(
            due = report.due,
            moved = report.moved,
            alerted = report.alerted,
            settled = report.settled,
            not_due = report.not_due,
            raced = report.raced,
            failed = report.failed,
            alerts_closed = report.alerts_closed,
            oldest_unanswered_secs = report.oldest_unanswered_secs,
            "sweep"
        );
    }
    Ok(report)
}

/// One fold now: the trips that ended since the last one added to the response-time
/// report (docs/decisions/0021-response-time-report.md). Beside each sweep, never
/// in its way: a failure is logged and the trips wait for the next one.
pub async fn fold(store: &Store) -> Result<FoldReport, ApiError> {
    let report = store
        .reports()
        .fold()
        .await
        .inspect_err(|e| tracing::error!(error = %e, "fold failed"))?;
    Metrics::of("clock")
        .count("TripsFolded", report.folded)
        .count("FoldFailures", report.failed)
        .emit();
    if report != FoldReport::default() {
        tracing::info!(
            due = report.due,
            folded = report.folded,
            settled = report.settled,
            failed = report.failed,
            "fold"
        );
    }
    Ok(report)
}

/// The privacy sweep now (the store's clock): deleted accounts' erasures carried
/// on, finished bookings past the retention period erased (`store.privacy().sweep`).
pub async fn forget(store: &Store) -> Result<ForgetReport, ApiError> {
    let report = store.privacy().sweep(store.now()).await?;
    if report != ForgetReport::default() {
        Metrics::of("clock")
            .count("AccountsErased", report.accounts_finished)
            .count(
                "BookingsErased",
                report.account_bookings + report.retained_bookings,
            )
            .emit();
        tracing::info!(
            accounts_finished = report.accounts_finished,
            account_bookings = report.account_bookings,
            retained_bookings = report.retained_bookings,
            raced = report.raced,
            blocked = report.blocked,
            "forgotten"
        );
    }
    Ok(report)
}

/// Sweeps every `every` until `window` has passed (one invocation). A failed sweep
/// is logged and the next one tries again; the invocation fails (for its alarm) if
/// the last sweep failed.
pub async fn sweep_for(store: &Store, window: Duration, every: Duration) -> Result<u32, ApiError> {
    let started = tokio::time::Instant::now();
    // On a fixed beat, not `every` after each sweep's end: a sweep's own work must not
    // stretch the gap past `every` (an emergency's minute alert is due on the minute).
    let mut beat = tokio::time::interval(every);
    beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut sweeps = 0;
    loop {
        let beat_at = beat.tick().await;
        let (result, _) = tokio::join!(sweep(store), fold(store));
        sweeps += 1;
        if let Err(e) = &result {
            tracing::error!(error = %e, "sweep failed");
        }
        if started.elapsed() + every > window {
            return result.map(|_| sweeps);
        }
        // Between this beat's sweep and the next, never in its way: cut short at the
        // next beat (each erasure is conditional and the sweep resumable), its failure
        // its own (logged), never the deadlines'.
        match tokio::time::timeout_at(beat_at + every, forget(store)).await {
            Ok(Err(e)) => tracing::error!(error = %e, "privacy sweep failed"),
            Err(_) => tracing::warn!("privacy sweep cut short by the next beat"),
            Ok(Ok(_)) => {}
        }
    }
}
