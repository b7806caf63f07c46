//! The id of the request being served, for every line written while serving it
//! (logs, error bodies, metrics). Apart from `telemetry` so `metrics` can read it
//! without importing the module that imports `metrics`.

tokio::task_local! {
    pub(super) static REQUEST_ID: String;
}

/// The id of the request being served, when called inside `telemetry::request_id`.
pub fn current_request_id() -> Option<String> {
    REQUEST_ID.try_with(Clone::clone).ok()
}
