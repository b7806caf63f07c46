//! JSON logs, one line per request (tower-http's `TraceLayer`, set up in
//! `http::finish`), and the request id every error body can quote.

use std::time::Duration;

use axum::{
    extract::{MatchedPath, Request},
    http::HeaderValue,
    middleware::Next,
    response::Response,
};
use tracing::Span;

pub mod metrics;

mod context;
use context::REQUEST_ID;
pub use context::current_request_id;

tokio::task_local! {
    /// The route group of the request being served (`booking` of
    /// `/api/booking/{id}`), set with its span, for the 5xx metric.
    static ROUTE_GROUP: std::cell::RefCell<Option<&'static str>>;
}

/// The log format: JSON lines, the request's span (method, route, request id) on
/// each line logged while serving it, no timestamps (CloudWatch stamps every line).
pub fn subscriber<W>(writer: W) -> impl tracing::Subscriber + Send + Sync
where
    W: for<'a> tracing_subscriber::fmt::MakeWriter<'a> + Send + Sync + 'static,
{
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .json()
        .with_env_filter(filter)
        .with_current_span(true)
        .with_span_list(false)
        .with_target(false)
        .without_time()
        .with_writer(writer)
        .finish()
}

/// Installs the JSON log subscriber once (a second call is a no-op, so tests may call it).
pub fn init() {
    let _ = tracing::subscriber::set_global_default(subscriber(std::io::stdout));
}

/// The request's id, for the log span (set by [`request_id`]).
#[derive(Debug, Clone)]
struct RequestId(String);

fn request_id_of(req: &Request) -> String {
    use lambda_http::RequestExt;
    if let Some(ctx) = req.lambda_context_ref() {
        return ctx.request_id.clone();
    }
    req.headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty() && v.len() <= 128)
        .map(str::to_owned)
        .unwrap_or_else(|| format!("{:032x}", rand::random::<u128>()))
}

/// Middleware: the request id (Lambda's, else the caller's `x-request-id`, else a
/// random one) for the handler and the log line, echoed as `x-request-id`. Layered
/// twice (`edge::guard` around a finished router), the inner one keeps the id the
/// outer one chose.
pub async fn request_id(mut req: Request, next: Next) -> Response {
    let id = match req.extensions().get::<RequestId>() {
        Some(RequestId(id)) => id.clone(),
        None => request_id_of(&req),
    };
    req.extensions_mut().insert(RequestId(id.clone()));
    let serve = ROUTE_GROUP.scope(Default::default(), next.run(req));
    let mut response = REQUEST_ID.scope(id.clone(), serve).await;
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert("x-request-id", value);
    }
    response
}

/// The span of a request: method, route (the matched pattern, never the path with
/// its ids), request id, the caller's role (`public` until a token proves another,
/// [`record_role`]) and the booking the path names. Never bodies, tokens or patient
/// data.
pub fn request_span(req: &Request) -> Span {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", MatchedPath::as_str);
    let id = req
        .extensions()
        .get::<RequestId>()
        .map_or("-", |id| id.0.as_str());
    let span = tracing::info_span!(
        "request",
        method = %req.method(),
        route,
        request_id = id,
        role = "public",
        booking_id = tracing::field::Empty,
    );
    if let Some(booking) = booking_in_path(route, req.uri().path()) {
        span.record("booking_id", booking);
    }
    let _ = ROUTE_GROUP.try_with(|g| *g.borrow_mut() = Some(route_group(route)));
    span
}

/// The route groups, as `ServerErrors` names them (tests/api/route_groups.rs
/// compares them with the functions).
pub const ROUTE_GROUPS: [&str; 9] = [
    "auth",
    "user",
    "hospitals",
    "ambulances",
    "booking",
    "admin",
    "crew",
    "hospital",
    "push",
];

/// The group of a route template: `/api/<group>/...` (our own templates only, so a
/// metric dimension has a handful of values).
fn route_group(route: &str) -> &'static str {
    let group = route
        .strip_prefix("/api/")
        .and_then(|r| r.split('/').next());
    ROUTE_GROUPS
        .into_iter()
        .find(|g| Some(*g) == group)
        .unwrap_or("unmatched")
}

/// The booking id a route's path names (`/api/booking/{id}/track`,
/// `/api/admin/bookings/{id}/ambulance`), when it is a number (anything else was
/// never a booking id, and is not logged).
fn booking_in_path<'a>(route: &str, path: &'a str) -> Option<&'a str> {
    let mut template = route.split('/');
    let mut segments = path.split('/');
    let mut previous = "";
    loop {
        let (t, s) = (template.next()?, segments.next()?);
        if t == "{id}" && matches!(previous, "booking" | "bookings") {
            let is_id = !s.is_empty() && s.len() <= 16 && s.bytes().all(|b| b.is_ascii_digit());
            return is_id.then_some(s);
        }
        previous = t;
    }
}

/// The caller's role, once a token proved it (`user`, `crew`, `admin`), on the
/// request's log line.
pub fn record_role(role: &'static str) {
    Span::current().record("role", role);
}

/// A booking the request made or found, on the request's log line.
pub fn record_booking(id: impl std::fmt::Display) {
    Span::current().record("booking_id", tracing::field::display(id));
}

/// The one log line of a request, at its end: status and latency (a 5xx at WARN,
/// and counted as `ServerErrors` by route group for its alarm).
pub fn log_response(response: &Response, latency: Duration, _span: &Span) {
    let status = response.status().as_u16();
    let latency_ms = latency.as_secs_f64() * 1000.0;
    if status >= 500 {
        tracing::warn!(status, latency_ms, "request");
        let group = ROUTE_GROUP
            .try_with(|g| *g.borrow())
            .ok()
            .flatten()
            .unwrap_or("unmatched");
        metrics::Metrics::of(group).count("ServerErrors", 1).emit();
    } else {
        tracing::info!(status, latency_ms, "request");
    }
}

/// An item that does not read as its type (written by older code, by hand, or by a
/// bug): logged with its key and counted (`UnreadableItems` by item kind), so that
/// a search, a list or a page answers with the rest (docs/requirements.md, "Inputs and answers").
pub fn unreadable_item(pk: &str, sk: &str, error: &dyn std::fmt::Display) {
    // The kind is the sort key's stem (`POSITION`, `FREEPOS`, `BOOKING`...), never an id.
    let kind = sk.split('#').next().unwrap_or("?");
    let kind = if kind.is_empty() || kind.len() > 40 {
        "?"
    } else {
        kind
    };
    tracing::error!(pk, sk, kind, %error, "unreadable item skipped");
    metrics::Metrics::of("store")
        .dimension("Kind", kind)
        .count("UnreadableItems", 1)
        .emit();
}
