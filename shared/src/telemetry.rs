//! JSON logs, one line per request, and the request id every error body can quote.

use std::time::Instant;

use axum::{
    extract::{MatchedPath, Request},
    http::HeaderValue,
    middleware::Next,
    response::Response,
};

tokio::task_local! {
    static REQUEST_ID: String;
}

/// Installs the JSON log subscriber once (a second call is a no-op, so tests may call it).
pub fn init() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .json()
        .with_env_filter(filter)
        .with_current_span(false)
        .with_target(false)
        .without_time() // CloudWatch stamps every line already.
        .try_init();
}

/// The id of the request being served, when called inside [`request_context`].
pub fn current_request_id() -> Option<String> {
    REQUEST_ID.try_with(Clone::clone).ok()
}

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

/// Middleware: sets the request id for the handler, echoes it as `x-request-id`, and
/// logs method, route, status and latency (never bodies, tokens or patient data).
pub async fn request_context(req: Request, next: Next) -> Response {
    let id = request_id_of(&req);
    let method = req.method().clone();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_else(|| "unmatched".to_owned());
    let started = Instant::now();
    let mut response = REQUEST_ID.scope(id.clone(), next.run(req)).await;
    let status = response.status().as_u16();
    let latency_ms = started.elapsed().as_secs_f64() * 1000.0;
    if status >= 500 {
        tracing::warn!(request_id = %id, %method, %route, status, latency_ms, "request");
    } else {
        tracing::info!(request_id = %id, %method, %route, status, latency_ms, "request");
    }
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert("x-request-id", value);
    }
    response
}
