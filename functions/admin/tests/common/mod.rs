//! Helpers shared by this crate's integration tests.

use axum::Router;
use shared::AppState;

/// The function whose router serves `path` (`/api/<group>/...`).
pub fn group_router(path: &str) -> fn(AppState) -> Router {
    match path.split('/').nth(2).unwrap() {
        "auth" => auth::router,
        "user" => user::router,
        "hospitals" => hospitals::router,
        "ambulances" => ambulances::router,
        "booking" => booking::router,
        "admin" => admin::router,
        other => panic!("no function for /api/{other}"),
    }
}
