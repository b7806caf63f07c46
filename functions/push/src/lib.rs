//! `/api/push`: what a device needs to ring ("Alerts that reach a locked phone",
//! decision 0014). The VAPID public key, and a device's subscription
//! stored or removed. Sending is not here: `functions/notify` sends, off the request
//! path, from the table's stream.

use axum::{Json, Router, extract::State, http::StatusCode};
use domain::push::{Endpoints, RawSubscription, parse_endpoint};
use serde::{Deserialize, Serialize};
use store::{config::AppEnv, push::Subscriber};
use web::http::Routes;
use web::{ApiError, ApiJson, AppState, MaybeCaller, caller::SignedInDevice};

/// Every route of this function, declared once (the contract test reads the table).
pub fn routes() -> Routes {
    Routes::new()
        .get("/api/push/key", key)
        .put("/api/push/subscription", subscribe)
        .delete("/api/push/subscription", unsubscribe)
}

pub fn router(state: AppState) -> Router {
    web::http::finish(routes().with_state(state))
}

/// Which endpoints this environment sends to: the push services (and the
/// deployment's `PUSH_HOSTS`); a local stack (and the tests) also a push service on
/// this machine.
fn endpoints(app: &AppState) -> Endpoints {
    let extra = store::config::push_hosts();
    match app.config.app_env {
        AppEnv::Local => Endpoints::local(extra),
        AppEnv::Deployed => Endpoints::deployed(extra),
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PushKey {
    public_key: String,
}

/// Public: the key a browser subscribes with.
async fn key(State(app): State<AppState>, _: MaybeCaller) -> Result<Json<PushKey>, ApiError> {
    let public_key = app.config.vapid_public_key.clone().ok_or_else(|| {
        // A deployment error (the template always sets it): logged, and a 500
        // without internals to the caller.
        ApiError::internal("VAPID_PUBLIC_KEY is not set: push alerts are off here")
    })?;
    Ok(Json(PushKey { public_key }))
}

async fn subscribe(
    State(app): State<AppState>,
    device: SignedInDevice,
    ApiJson(raw): ApiJson<RawSubscription>,
) -> Result<StatusCode, ApiError> {
    let subscription = raw.parse(&endpoints(&app))?;
    let who = Subscriber {
        user: device.caller.id,
        admin: device.caller.role.is_admin(),
    };
    app.store
        .push()
        .subscribe(who, subscription, device.session, device.session_version)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Unsubscribe {
    endpoint: String,
}

async fn unsubscribe(
    State(app): State<AppState>,
    device: SignedInDevice,
    ApiJson(req): ApiJson<Unsubscribe>,
) -> Result<StatusCode, ApiError> {
    // Checked as on the way in, so any stored endpoint can be removed and nothing
    // else is looked up.
    let endpoint = parse_endpoint(&req.endpoint, &endpoints(&app))?;
    app.store
        .push()
        .unsubscribe(device.caller.id, &endpoint)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
