//! `/api/crew`: the ambulance crew's side of a trip (docs/decisions/0007-dispatch-data.md). Every
//! route takes a [`CrewCaller`]: the app and the crew account as stored now (one
//! GetItem), so a crew moved to another ambulance or removed by an admin acts on its
//! new ambulance or not at all, at once. A crew sees and changes only its own
//! ambulance and the booking that ambulance holds.

use axum::{Json, Router, http::StatusCode};
use domain::{
    ambulance::{Ambulance, AmbulanceStatus},
    booking::{self, Booking, CrewStep, Mover, WithMoves, allowed},
    crew::{self, CrewRef},
    geo::Point,
    hospital::Hospital,
    position::{self, PositionReport, PositionedAmbulance},
    receiving::CrewDestination,
    types::Id,
};
use serde::{Deserialize, Serialize};
use store::positions::Reported;
use web::http::Routes;
use web::{ApiError, ApiJson, AppState, CrewCaller};

/// Every route of this function, declared once (the contract test reads the table).
pub fn routes() -> Routes {
    Routes::new()
        .get("/api/crew/me", me)
        .patch("/api/crew/job/stage", stage)
        .patch("/api/crew/job/destination", destination)
        .put("/api/crew/location", location)
        .put("/api/crew/presence", heartbeat)
        .delete("/api/crew/presence", sign_out)
        .patch("/api/crew/status", status)
}

pub fn router(state: AppState) -> Router {
    web::http::finish(routes().with_state(state))
}

#[derive(Serialize)]
struct Me {
    crew: CrewRef,
    ambulance: PositionedAmbulance,
    /// The booking the ambulance holds (PENDING: to accept; ACTIVE: under way), with
    /// the crew's next step.
    job: Option<WithMoves<Booking>>,
    /// The job's destination as it is now; null without a job.
    destination: Option<CrewDestination>,
    /// The nearest open hospital while the destination is on diversion and the
    /// patient is not on board yet (docs/decisions/0026-receiving-hospital.md).
    alternative: Option<Hospital>,
}

/// What the crew screen polls: who is signed in, its ambulance with its position,
/// and the job, if any.
async fn me(CrewCaller(app, crew): CrewCaller) -> Result<Json<Me>, ApiError> {
    let (ambulance, job) = app
        .store
        .dispatch()
        .ambulance_and_job(crew.ambulance_id)
        .await?;
    let (destination, alternative) = match &job {
        Some(job) => {
            let from = ambulance
                .position
                .as_ref()
                .map(|p| Point::new(p.latitude, p.longitude));
            app.store.receiving().crew_destination(job, from).await?
        }
        None => (None, None),
    };
    Ok(Json(Me {
        crew: CrewRef::from(&crew),
        ambulance,
        job: job.map(shown),
        destination,
        alternative,
    }))
}

/// A job with the step the crew may take now (`PATCH /api/crew/job/stage`): none
/// once it is final.
fn shown(job: Booking) -> WithMoves<Booking> {
    let moves = allowed(job.progress(), Mover::Crew);
    WithMoves::booking(job, moves)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct StageRequest {
    booking_id: Id,
    /// The next stage, or COMPLETED after AT_HOSPITAL or HANDED_OVER.
    stage: CrewStep,
}

/// One step of the trip. Conditional on the stage read: a stale or repeated tap is a
/// 409 that writes nothing; COMPLETED frees the ambulance in the same transaction.
async fn stage(
    CrewCaller(app, crew): CrewCaller,
    ApiJson(req): ApiJson<StageRequest>,
) -> Result<Json<WithMoves<Booking>>, ApiError> {
    let id = req.booking_id;
    let job = app
        .store
        .bookings()
        .booking(id)
        .await?
        .ok_or_else(|| booking::not_found(id))?;
    crew::may_act_on(crew.ambulance_id, &job)?;
    let moved = app
        .store
        .bookings()
        .move_read_booking(job, Mover::Crew, req.stage.into())
        .await?;
    Ok(Json(shown(moved)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct DestinationRequest {
    booking_id: Id,
    hospital_id: Id,
}

/// The crew drives the patient to another hospital, until AT_HOSPITAL (409 after);
/// a hospital on diversion may be chosen (the crew knows the patient).
async fn destination(
    CrewCaller(app, crew): CrewCaller,
    ApiJson(req): ApiJson<DestinationRequest>,
) -> Result<Json<WithMoves<Booking>>, ApiError> {
    let moved = app
        .store
        .receiving()
        .change_destination(&crew, req.booking_id, req.hospital_id)
        .await?;
    Ok(Json(shown(moved)))
}

/// The phone's position. 204 whether stored or ignored (not newer than the stored
/// one, or less than 4 s after the last write); 400 naming the field when out of
/// range, more than 30 s in the future or more than a day old; 409 when it is
/// doubted (an impossible speed from the last accepted one; a first position over
/// 50 km from the hospital; an accuracy worse than 1 km): kept for the dispatcher
/// to see, not used to rank until 3 agreeing reports over 20 s confirm it.
async fn location(
    CrewCaller(app, crew): CrewCaller,
    ApiJson(report): ApiJson<PositionReport>,
) -> Result<StatusCode, ApiError> {
    let report = report.check(app.store.now())?;
    match app
        .store
        .positions()
        .report_position(crew.ambulance_id, report)
        .await?
    {
        Reported::Refused(doubt) => {
            tracing::warn!(ambulance = %crew.ambulance_id, reason = ?doubt.reason, speed_kmh = doubt.speed_kmh, reports = doubt.reports, "position doubted");
            Err(position::refused(&doubt).into())
        }
        outcome => {
            tracing::debug!(?outcome, "position report");
            Ok(StatusCode::NO_CONTENT)
        }
    }
}

/// The crew app's heartbeat (decision 0020), at least every 60 s while signed in
/// and on duty: its ambulance's crew is ONLINE for 2 minutes after it. No body; 204.
async fn heartbeat(CrewCaller(app, crew): CrewCaller) -> Result<StatusCode, ApiError> {
    app.store.positions().heartbeat(crew.ambulance_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The crew app signs out: its ambulance is OFFLINE until a crew device reports
/// again. No body; 204.
async fn sign_out(CrewCaller(app, crew): CrewCaller) -> Result<StatusCode, ApiError> {
    app.store.positions().leave(crew.ambulance_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StatusRequest {
    status: AmbulanceStatus,
}

/// The crew takes its ambulance out of service (MAINTENANCE) or back (AVAILABLE);
/// 409 while it holds a booking.
async fn status(
    CrewCaller(app, crew): CrewCaller,
    ApiJson(req): ApiJson<StatusRequest>,
) -> Result<Json<Ambulance>, ApiError> {
    if req.status == AmbulanceStatus::OnDuty {
        return Err(ApiError::bad_request(
            "status",
            "Invalid 'status': a crew sets AVAILABLE or MAINTENANCE (ON_DUTY comes with a booking)",
        ));
    }
    Ok(Json(
        app.store
            .fleet()
            .set_ambulance_status(crew.ambulance_id, req.status)
            .await?,
    ))
}
