//! The audit trail (docs/decisions/0023-audit-trail.md): what admins did, newest first.

use axum::Json;
use domain::{
    audit::{AuditPage, Filter},
    types::Id,
};
use serde::Deserialize;
use web::http::Routes;
use web::{Admin, ApiError, ApiQuery};

pub fn routes() -> Routes {
    Routes::new().get("/api/admin/audit", page)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct AuditQuery {
    booking_id: Option<Id>,
    ambulance_id: Option<Id>,
    admin_id: Option<Id>,
    /// The last page's `cursor`: the page after it.
    cursor: Option<String>,
}

/// One page of records, newest first, of those matching every filter given;
/// `cursor` when more may follow.
async fn page(
    Admin(app): Admin,
    ApiQuery(q): ApiQuery<AuditQuery>,
) -> Result<Json<AuditPage>, ApiError> {
    let filter = Filter {
        booking_id: q.booking_id,
        ambulance_id: q.ambulance_id,
        admin_id: q.admin_id,
    };
    Ok(Json(
        app.store.audit().page(filter, q.cursor.as_deref()).await?,
    ))
}
