//! The store's one retry policy, for what DynamoDB asks us to try again: a
//! transaction that lost a race on an item (`TransactionConflict`), the unprocessed
//! keys of a BatchGetItem, a conditional move that raced another one. (The SDK
//! retries throttling and network errors itself: see `table::connect`.)

use std::time::Duration;

use backon::ExponentialBuilder;

/// Up to 6 more attempts, from 10 ms doubling to at most 200 ms, with jitter so that
/// racers do not retry in step.
pub fn policy() -> ExponentialBuilder {
    ExponentialBuilder::default()
        .with_min_delay(Duration::from_millis(10))
        .with_max_delay(Duration::from_millis(200))
        .with_max_times(6)
        .with_jitter()
}

/// For an emergency's assignment, which must not give up while other requests hold
/// the items it needs a moment (the shards of the counters every booking moves, an
/// ambulance many people race for): up to 12 more attempts, at most 400 ms apart,
/// about 3 s in all.
pub fn patient_policy() -> ExponentialBuilder {
    policy()
        .with_max_delay(Duration::from_millis(400))
        .with_max_times(12)
}
