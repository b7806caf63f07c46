//! The rate limits' fixed windows as a test meets them: a test that fills a window
//! keeps clear of its edge.

/// Waits, when fewer than `margin_secs` are left of the current fixed window of
/// `limit` (the rate limits count per hour from the hour), until the next window
/// starts. A test that fills a window and expects the next request's 429 would
/// otherwise see a 201 whenever it happens to run across the hour: the CI run of
/// 2026-11-27 did. Waits at most `margin_secs`, and only that rarely.
pub async fn clear_of_a_window_edge(limit: &store::limits::Limit, margin_secs: i64) {
    let (_, left) = store::limits::window(domain::types::epoch_seconds(), limit.window_secs);
    if (left as i64) < margin_secs {
        tokio::time::sleep(std::time::Duration::from_secs(left + 1)).await;
    }
}
