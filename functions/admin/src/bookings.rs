//! Every booking as admins see and move it: the paged list, the status dropdown, and the dashboard figures.

use axum::Json;
use domain::{
    ambulance::AmbulanceCounts,
    booking::{Booking, BookingCounts, BookingStatus, Goal, Mover, WithMoves, allowed},
    page::Page,
    types::Id,
};
use serde::{Deserialize, Serialize};
use web::http::Routes;
use web::{Admin, ApiError, ApiQuery, http::PageQuery};

pub fn routes() -> Routes {
    Routes::new()
        .get("/api/admin/bookings/all/paged", paged)
        .patch("/api/admin/bookings/status", set_status)
        .get("/api/admin/stats", stats)
}

async fn paged(
    Admin(app): Admin,
    ApiQuery(q): ApiQuery<PageQuery>,
) -> Result<Json<Page<WithMoves<Booking>>>, ApiError> {
    let (page, size) = q.parse(10, 100)?;
    let found = app.store.bookings().bookings_page(page, size).await?;
    let content = found.content.into_iter().map(shown).collect();
    Ok(Json(Page {
        content,
        total_pages: found.total_pages,
        total_elements: found.total_elements,
        page: found.page,
        size: found.size,
    }))
}

/// A booking with the statuses the admin's dropdown may move it to now
/// (`PATCH /api/admin/bookings/status`), and of its patient the name only: the
/// details are read one booking at a time, on the audit trail (`GET /api/booking/{id}`).
pub(crate) fn shown(booking: Booking) -> WithMoves<Booking> {
    let moves = allowed(booking.progress(), Mover::Admin);
    WithMoves::booking(booking.listed(), moves)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct StatusQuery {
    booking_id: Id,
    status: BookingStatus,
}

async fn set_status(
    Admin(app): Admin,
    ApiQuery(q): ApiQuery<StatusQuery>,
) -> Result<Json<WithMoves<Booking>>, ApiError> {
    // The spec's dropdown: ACTIVE dispatches a PENDING booking; COMPLETED and
    // CANCELLED end any open one (domain::booking::plan has the table).
    let moved = app
        .store
        .bookings()
        .move_booking(q.booking_id, Mover::Admin, Goal::Status(q.status))
        .await?;
    Ok(Json(shown(moved)))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Stats {
    users: i64,
    hospitals: u64,
    bookings: BookingCounts,
    today_bookings: i64,
    ambulances: AmbulanceCounts,
}

/// The dashboard's figures, all from counters kept in the writing transactions.
async fn stats(Admin(app): Admin) -> Result<Json<Stats>, ApiError> {
    let s = &app.store;
    let (users, hospitals, bookings, today, ambulances) = tokio::try_join!(
        s.users().user_count(),
        s.hospitals().hospital_count(),
        s.bookings().booking_counts(),
        s.bookings().bookings_today(),
        s.fleet().fleet_counts()
    )?;
    Ok(Json(Stats {
        users,
        hospitals,
        bookings,
        today_bookings: today,
        ambulances,
    }))
}
