//! `/api/admin`: hospital, ambulance and booking management, and the dashboard figures. Every route
//! takes an [`shared::AdminCaller`]: 401 signed out, 403 for a user.

mod ambulances;
mod bookings;
mod hospitals;

use axum::Router;
use shared::AppState;

pub fn router(state: AppState) -> Router {
    shared::http::finish(
        Router::new()
            .merge(hospitals::routes())
            .merge(ambulances::routes())
            .merge(bookings::routes())
            .with_state(state),
    )
}
