//! The response-time report (docs/decisions/0021-response-time-report.md): how fast
//! help came, per day, week or month, per hospital or for the whole service, as JSON
//! or, with `Accept: text/csv`, as CSV of the same rows.

use axum::{
    Json,
    http::{HeaderMap, HeaderValue, header},
    response::{IntoResponse, Response},
};
use domain::response_times::{self, ReportRequest, Scope, day_text};
use web::http::Routes;
use web::{Admin, ApiError, ApiQuery};

pub fn routes() -> Routes {
    Routes::new().get("/api/admin/reports/response-times", response_times)
}

/// An admin sees every hospital and the whole service ([`Scope::Everything`]); the
/// hospital staff's route, when that role exists, passes its own hospital instead.
async fn response_times(
    Admin(app): Admin,
    headers: HeaderMap,
    ApiQuery(q): ApiQuery<ReportRequest>,
) -> Result<Response, ApiError> {
    let report = app
        .store
        .reports()
        .response_times(q, Scope::Everything)
        .await?;
    if !wants_csv(&headers) {
        return Ok(Json(report).into_response());
    }
    let name = format!(
        "attachment; filename=\"response-times-{}-{}.csv\"",
        day_text(report.from.0),
        day_text(report.to.0)
    );
    let mut response = response_times::csv(&report).into_response();
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/csv; charset=utf-8"),
    );
    if let Ok(value) = HeaderValue::from_str(&name) {
        h.insert(header::CONTENT_DISPOSITION, value);
    }
    Ok(response)
}

/// CSV when the client lists `text/csv` among what it accepts (the web app's
/// download, a spreadsheet's import); JSON otherwise.
fn wants_csv(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|media| {
            let mut parts = media.split(';');
            let kind = parts.next().unwrap_or("").trim();
            let refused = parts.any(|p| {
                matches!(
                    p.trim().replace(' ', "").as_str(),
                    "q=0" | "q=0.0" | "q=0.00" | "q=0.000"
                )
            });
            kind.eq_ignore_ascii_case("text/csv") && !refused
        })
}
