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

tokio::task_local! {
    static REQUEST_ID: String;
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

/// The id of the request being served, when called inside [`request_id`].
pub fn current_request_id() -> Option<String> {
    REQUEST_ID.try_with(Clone::clone).ok()
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
    let mut response = REQUEST_ID.scope(id.clone(), next.run(req)).await;
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert("x-request-id", value);
    }
    response
}

/// The span of a request: method, route (the matched pattern, never the path with
/// its ids) and request id. Never bodies, tokens or patient data.
pub fn request_span(req: &Request) -> Span {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", MatchedPath::as_str);
    let id = req
        .extensions()
        .get::<RequestId>()
        .map_or("-", |id| id.0.as_str());
    tracing::info_span!("request", method = %req.method(), route, request_id = id)
}

/// The one log line of a request, at its end: status and latency (a 5xx at WARN).
pub fn log_response(response: &Response, latency: Duration, _span: &Span) {
    let status = response.status().as_u16();
    let latency_ms = latency.as_secs_f64() * 1000.0;
    if status >= 500 {
        tracing::warn!(status, latency_ms, "request");
    } else {
        tracing::info!(status, latency_ms, "request");
    }
}

/// Counts of this process's metrics, by name and dimension (tests read them).
static COUNTS: std::sync::Mutex<Vec<(&'static str, String, u64)>> =
    std::sync::Mutex::new(Vec::new());

/// One count of a metric with one dimension, written as a CloudWatch Embedded Metric
/// Format line on stdout (CloudWatch turns it into a metric; no API call, no wait),
/// namespace `AmbulanceService`.
pub fn count(metric: &'static str, dimension: (&'static str, &str)) {
    let (dim_name, dim_value) = dimension;
    let line = serde_json::json!({
        "_aws": {
            "Timestamp": time::OffsetDateTime::now_utc().unix_timestamp() * 1000,
            "CloudWatchMetrics": [{
                "Namespace": "AmbulanceService",
                "Dimensions": [[dim_name]],
                "Metrics": [{"Name": metric, "Unit": "Count"}],
            }],
        },
        dim_name: dim_value,
        metric: 1,
    });
    println!("{line}");
    let mut counts = COUNTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match counts
        .iter_mut()
        .find(|(m, d, _)| *m == metric && d == dim_value)
    {
        Some((_, _, n)) => *n += 1,
        None => counts.push((metric, dim_value.to_owned(), 1)),
    }
}

/// How often this process counted `metric` with this dimension value.
pub fn counted(metric: &str, dim_value: &str) -> u64 {
    COUNTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .iter()
        .find(|(m, d, _)| *m == metric && d == dim_value)
        .map_or(0, |(_, _, n)| *n)
}

/// An item that does not read as its type (written by older code, by hand, or by a
/// bug): logged with its key and counted (`UnreadableItems` by item kind), so that
/// a search, a list or a page answers with the rest (issue 22).
pub fn unreadable_item(pk: &str, sk: &str, error: &dyn std::fmt::Display) {
    // The kind is the sort key's stem (`POSITION`, `FREEPOS`, `BOOKING`...), never an id.
    let kind = sk.split('#').next().unwrap_or("?");
    let kind = if kind.is_empty() || kind.len() > 40 {
        "?"
    } else {
        kind
    };
    tracing::error!(pk, sk, kind, %error, "unreadable item skipped");
    count("UnreadableItems", ("Kind", kind));
}
