//! `/api/admin`: hospital, ambulance, crew and booking management, the dashboard
//! figures, the settings, the audit trail and the response-time report. Every route
//! takes [`web::Admin`] (the app, for an admin only): 401 signed out, 403 for a
//! user, a crew or hospital staff.

mod alerts;
mod ambulances;
mod audit;
mod bookings;
mod crew;
mod hospital_staff;
mod hospitals;
mod live;
mod reports;
mod settings;

use axum::Router;
use web::AppState;
use web::http::Routes;

/// Every route of this function, declared once (the contract test reads the table).
pub fn routes() -> Routes {
    Routes::new()
        .merge(hospitals::routes())
        .merge(ambulances::routes())
        .merge(bookings::routes())
        .merge(crew::routes())
        .merge(hospital_staff::routes())
        .merge(live::routes())
        .merge(alerts::routes())
        .merge(settings::routes())
        .merge(audit::routes())
        .merge(reports::routes())
}

pub fn router(state: AppState) -> Router {
    web::http::finish(routes().with_state(state))
}

/// A body that names an ambulance: where a booking is reassigned, where a crew moves.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct AmbulanceChoice {
    ambulance_id: domain::types::Id,
}
