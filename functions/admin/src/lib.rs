//! `/api/admin`: hospital, ambulance (and later booking) management. Every route
//! takes an [`shared::AdminCaller`]: 401 signed out, 403 for a user.

mod ambulances;
mod hospitals;

use axum::Router;
use shared::AppState;

pub fn router(state: AppState) -> Router {
    shared::http::finish(
        Router::new()
            .merge(hospitals::routes())
            .merge(ambulances::routes())
            .with_state(state),
    )
}
