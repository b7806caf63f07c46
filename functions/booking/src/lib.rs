//! `/api/booking`: book an ambulance, follow and cancel one's bookings.

use axum::{
    Json, Router,
    extract::{FromRequestParts, State},
    http::{StatusCode, request::Parts},
    routing::{get, patch, post},
};
use serde::Deserialize;
use shared::{
    ApiError, ApiJson, ApiPath, ApiQuery, AppState, Caller, UserCaller,
    domain::booking::{self, Booking, BookingRequest, BookingStatus},
    edge::ClientAddress,
    http::ForUser,
    store::open_bookings::OpenLimit,
    types::Id,
};

pub fn router(state: AppState) -> Router {
    shared::http::finish(
        Router::new()
            .route("/api/booking/book", post(book))
            .route("/api/booking/history", get(history))
            .route("/api/booking/cancel", patch(cancel))
            .route("/api/booking/{id}", get(one))
            .with_state(state),
    )
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
    UserCaller(caller): UserCaller,
    address: ClientAddress,
    ApiQuery(q): ApiQuery<ForUser>,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson(req): ApiJson<BookingRequest>,
) -> Result<(StatusCode, Json<Booking>), ApiError> {
    let user = caller.acting_for(q.user_id)?;
    // Admins (dispatchers booking for people) are held to neither the rate limits
    // nor the open-bookings limit.
    let limit = if caller.is_admin() {
        OpenLimit::Exempt
    } else {
        app.store
            .count_booking_request(caller.id, address.key().as_deref(), key.as_deref())
            .await?;
        OpenLimit::Applies
    };
    let booking = app.store.book(user, req, key.as_deref(), limit).await?;
    Ok((StatusCode::CREATED, Json(booking)))
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
    UserCaller(caller): UserCaller,
    ApiQuery(q): ApiQuery<HistoryQuery>,
) -> Result<Json<Vec<Booking>>, ApiError> {
    let user = caller.acting_for(q.user_id)?;
    Ok(Json(app.store.user_bookings(user, q.before).await?))
}

/// A booking its owner or an admin may see; anyone else gets 403 (and an unknown id
/// 404, which tells nothing since ids are sequential anyway).
async fn owned(app: &AppState, caller: Caller, id: Id) -> Result<Booking, ApiError> {
    let booking = app
        .store
        .booking(id)
        .await?
        .ok_or_else(|| booking::not_found(id))?;
    caller.acting_for(Some(booking.user_id))?;
    Ok(booking)
}

async fn one(
    State(app): State<AppState>,
    UserCaller(caller): UserCaller,
    ApiPath(id): ApiPath<Id>,
) -> Result<Json<Booking>, ApiError> {
    Ok(Json(owned(&app, caller, id).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct CancelQuery {
    booking_id: Id,
}

async fn cancel(
    State(app): State<AppState>,
    UserCaller(caller): UserCaller,
    ApiQuery(q): ApiQuery<CancelQuery>,
) -> Result<Json<Booking>, ApiError> {
    // The booking read to check the caller is the one the move starts from.
    let booking = owned(&app, caller, q.booking_id).await?;
    Ok(Json(
        app.store
            .set_read_booking_status(booking, BookingStatus::Cancelled)
            .await?,
    ))
}
