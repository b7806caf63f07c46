//! `/api/booking`: book an ambulance, follow and cancel one's bookings; the one-tap
//! emergency and its share links (`emergency`).

mod emergency;

use axum::{
    Json, Router,
    extract::{FromRequestParts, State},
    http::{StatusCode, request::Parts},
};
use domain::{
    audit::{Action, Note, Target},
    booking::{
        self, Booking, BookingRequest, BookingStatus, Goal, Hold, Mover, WithMoves, allowed,
    },
    crew,
    dispatch::Tracking,
    types::Id,
};
use serde::Deserialize;
use store::open_bookings::OpenLimit;
use web::http::Routes;
use web::{
    ApiError, ApiJson, ApiPath, ApiQuery, AppState, Caller, NotCrew, NotCrewNamed, SignedIn,
    edge::ClientAddress, http::ForUser,
};

/// Every route of this function, declared once (the contract test reads the table).
pub fn routes() -> Routes {
    Routes::new()
        .post("/api/booking/book", book)
        .get("/api/booking/history", history)
        .patch("/api/booking/cancel", cancel)
        .get("/api/booking/{id}", one)
        .get("/api/booking/{id}/track", track)
        .post("/api/booking/emergency", emergency::dispatch)
        .patch("/api/booking/{id}/patient", emergency::patient)
        .post("/api/booking/{id}/share", emergency::share)
        .delete("/api/booking/{id}/share", emergency::revoke)
        .get("/api/booking/shared/{token}", emergency::shared)
}

pub fn router(state: AppState) -> Router {
    web::http::finish(routes().with_state(state))
}

/// The optional `Idempotency-Key` header: 1–200 visible ASCII characters.
pub struct IdempotencyKey(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for IdempotencyKey {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let Some(value) = parts.headers.get("idempotency-key") else {
            return Ok(IdempotencyKey(None));
        };
        let bad = || {
            ApiError::bad_request(
                "Idempotency-Key",
                "Invalid 'Idempotency-Key' header: must be 1 to 200 visible ASCII characters",
            )
        };
        let key = value.to_str().map_err(|_| bad())?.trim();
        if key.is_empty() || key.len() > 200 || !key.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(bad());
        }
        Ok(IdempotencyKey(Some(key.to_owned())))
    }
}

async fn book(
    State(app): State<AppState>,
    NotCrew(caller): NotCrew,
    address: ClientAddress,
    ApiQuery(q): ApiQuery<ForUser>,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson(req): ApiJson<BookingRequest>,
) -> Result<(StatusCode, Json<WithMoves<Booking>>), ApiError> {
    let user = caller.acting_for(q.user_id)?;
    // Admins (dispatchers booking for people) are held to neither the rate limits
    // nor the open-bookings limit.
    let limit = if caller.is_admin() {
        OpenLimit::Exempt
    } else {
        app.store
            .limits()
            .count_booking_request(caller.id, address.key().as_deref(), key.as_deref())
            .await?;
        OpenLimit::Applies
    };
    let booking = app
        .store
        .bookings()
        .book(user, req, key.as_deref(), limit)
        .await?;
    Ok((StatusCode::CREATED, Json(shown(caller, booking))))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct HistoryQuery {
    user_id: Option<Id>,
    /// A booking id: the bookings older than it (the next piece of a long history).
    before: Option<Id>,
}

/// The newest 100 bookings, newest first; `before` = the last one's id for older ones.
async fn history(
    State(app): State<AppState>,
    NotCrew(caller): NotCrew,
    ApiQuery(q): ApiQuery<HistoryQuery>,
) -> Result<Json<Vec<WithMoves<Booking>>>, ApiError> {
    let user = caller.acting_for(q.user_id)?;
    let bookings = app.store.bookings().user_bookings(user, q.before).await?;
    Ok(Json(
        bookings.into_iter().map(|b| shown(caller, b)).collect(),
    ))
}

/// Who moves a booking through these routes: its requester, or an admin acting for
/// them.
fn mover(caller: Caller) -> Mover {
    if caller.is_admin() {
        Mover::Admin
    } else {
        Mover::Requester
    }
}

/// The one move these routes make is cancelling (`PATCH /api/booking/cancel`).
const CANCEL: Goal = Goal::Status(BookingStatus::Cancelled);

/// A booking with the moves `caller` may make on it here: CANCELLED while
/// [`booking::plan`] lets them (the requester until the pickup, an admin while open).
/// An admin sees someone else's patient by name only (`Booking::listed`): the
/// details come from `GET /api/booking/{id}`, on the audit trail.
pub(crate) fn shown(caller: Caller, booking: Booking) -> WithMoves<Booking> {
    let booking = match caller.is_admin() && booking.user_id != caller.id {
        true => booking.listed(),
        false => booking,
    };
    with_moves(caller, booking)
}

/// `booking` as it is, with the moves `caller` may make on it ([`shown`]).
fn with_moves(caller: Caller, booking: Booking) -> WithMoves<Booking> {
    let moves = allowed(booking.progress(), mover(caller))
        .into_iter()
        .filter(|goal| *goal == CANCEL)
        .collect();
    WithMoves::booking(booking, moves)
}

/// A booking its owner or an admin may see; anyone else gets 403 (and an unknown id
/// 404, which tells nothing since ids are sequential anyway).
async fn owned(app: &AppState, caller: Caller, id: Id) -> Result<Booking, ApiError> {
    let booking = app
        .store
        .bookings()
        .booking(id)
        .await?
        .ok_or_else(|| booking::not_found(id))?;
    caller.acting_for(Some(booking.user_id))?;
    Ok(booking)
}

/// A booking, whole. An admin reading someone else's is on the audit trail
/// (`PATIENT_DETAILS_READ`), written before the answer: no record, no details.
async fn one(
    State(app): State<AppState>,
    NotCrewNamed(caller, actor): NotCrewNamed,
    ApiPath(id): ApiPath<Id>,
) -> Result<Json<WithMoves<Booking>>, ApiError> {
    let booking = owned(&app, caller, id).await?;
    if let Some(admin) = actor.filter(|a| a.id != booking.user_id) {
        let target = Target::booking(booking.id, booking.ambulance_id);
        let read = Note::new(Action::PatientDetailsRead, target);
        app.store.acting_as(admin).audit().record(read).await?;
    }
    Ok(Json(with_moves(caller, booking)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct CancelQuery {
    booking_id: Id,
}

async fn cancel(
    State(app): State<AppState>,
    NotCrewNamed(caller, actor): NotCrewNamed,
    ApiQuery(q): ApiQuery<CancelQuery>,
) -> Result<Json<WithMoves<Booking>>, ApiError> {
    // The booking read to check the caller is the one the move starts from. The
    // requester cancels only until the ambulance reaches the pickup; an admin any
    // open booking, on the audit trail.
    let booking = owned(&app, caller, q.booking_id).await?;
    let store = match actor {
        Some(admin) => app.store.acting_as(admin),
        None => app.store.clone(),
    };
    let moved = store
        .bookings()
        .move_read_booking(booking, mover(caller), CANCEL)
        .await?;
    Ok(Json(shown(caller, moved)))
}

/// The requester's live view of a trip: stage, timeline, where the ambulance is and
/// when it arrives. Its owner and admins may see it, and the crew of its ambulance
/// while the ambulance holds it; anyone else gets 403.
async fn track(
    State(app): State<AppState>,
    SignedIn(caller): SignedIn,
    ApiPath(id): ApiPath<Id>,
) -> Result<Json<WithMoves<Tracking>>, ApiError> {
    let (booking, moves) = if caller.role.is_crew() {
        let (booking, account) = tokio::join!(
            app.store.bookings().booking(id),
            app.store.crew().crew(caller.id)
        );
        let booking = booking?.ok_or_else(|| booking::not_found(id))?;
        let account = account?.ok_or_else(crew::not_a_crew)?;
        // Seen only while its ambulance holds it (the same rule as the crew's steps).
        if booking::hold(account.ambulance_id, &booking) != Hold::Holds {
            return Err(crew::not_your_booking(id).into());
        }
        // The crew's moves are the steps of `PATCH /api/crew/job/stage`.
        let moves = allowed(booking.progress(), Mover::Crew);
        (booking, moves)
    } else {
        let shown = shown(caller, owned(&app, caller, id).await?);
        (shown.item, shown.moves)
    };
    let item = app.store.dispatch().tracking(booking).await?;
    Ok(Json(WithMoves::new(item, moves)))
}
