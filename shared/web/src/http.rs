//! Request parsing that turns every kind of bad input into a 4xx `{message, field}`
//! naming the problem, and the layers every function's router shares.

use axum::{
    Router,
    body::Bytes,
    extract::{
        DefaultBodyLimit, FromRequest, FromRequestParts, Request, path::ErrorKind,
        rejection::PathRejection,
    },
    http::{StatusCode, header, request::Parts},
    middleware,
    response::{IntoResponse, Response},
};
use serde::{Deserialize, de::DeserializeOwned};
use tower_http::trace::TraceLayer;

use crate::error::ApiError;
use domain::types::Id;

mod objects;
mod routes;

pub use routes::{Route, Routes};

/// Bodies are small JSON objects; anything larger is refused with 413.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// A JSON body parsed with the field path of the first problem in the error.
pub struct ApiJson<T>(pub T);

impl<T, S> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let is_json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .map(|mime| {
                let mime = mime.trim().to_ascii_lowercase();
                mime == "application/json" || mime.ends_with("+json")
            })
            .unwrap_or(false);
        if !is_json {
            return Err(ApiError::UnsupportedMediaType(
                "Content-Type must be application/json".into(),
            ));
        }
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::PayloadTooLarge
            } else {
                ApiError::invalid("Could not read the request body")
            }
        })?;
        parse_json(&bytes).map(ApiJson)
    }
}

/// Parses JSON, reporting the path of the first bad field (`patient.age`). A body,
/// and every struct in it, must be a JSON object (see `objects`); a refusal says
/// what the contract says ("must be a JSON object", "'endpoint' is required"), never
/// a Rust type's name.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::invalid(
            "Request body is empty; expected a JSON object",
        ));
    }
    let parsed: serde_json::Value = serde_json::from_slice(bytes)
        .map_err(|e| ApiError::invalid(format!("Malformed JSON: {}", strip_position(&e))))?;
    // Every body of the contract is an object: said before any field is read, so
    // `[]` is not "invalid length 0, expected struct RawSubscription".
    if !parsed.is_object() {
        return Err(ApiError::invalid(format!(
            "The request body must be a JSON object, not {}",
            objects::kind(&parsed)
        )));
    }
    // Read from the parsed value with structs only from objects: a wrong type is
    // named by its field (serde_json's streaming read calls some "expected value").
    if let Err(err) = serde_path_to_error::deserialize::<_, T>(objects::Objects(&parsed)) {
        return Err(field_error(
            &err.path().to_string(),
            &err.into_inner().to_string(),
            "",
        ));
    }
    // The streaming read names duplicate fields (a `Value` keeps the last silently).
    // Bodies are at most 64 KiB: reading twice costs microseconds.
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|err| {
        let path = err.path().to_string();
        field_error(&path, &strip_position(&err.into_inner()), "")
    })?;
    de.end()
        .map_err(|e| ApiError::invalid(format!("Malformed JSON: {}", strip_position(&e))))?;
    Ok(value)
}

/// Query parameters parsed with the offending parameter named in the error.
pub struct ApiQuery<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        parse_query(parts.uri.query().unwrap_or("")).map(ApiQuery)
    }
}

pub fn parse_query<T: DeserializeOwned>(query: &str) -> Result<T, ApiError> {
    let de = serde_urlencoded::Deserializer::new(form_urlencoded::parse(query.as_bytes()));
    serde_path_to_error::deserialize(de).map_err(|err| {
        let path = err.path().to_string();
        field_error(&path, &err.into_inner().to_string(), "query parameter ")
    })
}

/// Path parameters (`/api/hospitals/{id}`) with a 400 naming the parameter.
pub struct ApiPath<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(ApiPath(value)),
            Err(PathRejection::FailedToDeserializePathParams(err)) => Err(match err.into_kind() {
                ErrorKind::ParseErrorAtKey { key, value, .. } => ApiError::bad_request(
                    key.clone(),
                    format!("Invalid path parameter '{key}': '{value}' is not a valid id"),
                ),
                ErrorKind::ParseError { value, .. } => ApiError::bad_request(
                    "id",
                    format!("Invalid path parameter 'id': '{value}' is not a valid id"),
                ),
                ErrorKind::Message(msg) => {
                    ApiError::bad_request("id", format!("Invalid path parameter: {msg}"))
                }
                other => ApiError::invalid(format!("Invalid path parameter: {other}")),
            }),
            Err(other) => Err(ApiError::invalid(other.body_text())),
        }
    }
}

/// `?page=&size=` of a paged list.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageQuery {
    pub page: Option<u32>,
    pub size: Option<u32>,
}

impl PageQuery {
    /// The zero-based page and its size (default `default_size`, 1 to `max_size`).
    pub fn parse(&self, default_size: u32, max_size: u32) -> Result<(u32, u32), ApiError> {
        page_params(self.page, self.size, default_size, max_size)
    }
}

/// The query of a list that takes no parameters: any parameter is unknown, a 400
/// naming it, as every other list answers (`/api/admin/ambulances/all` once
/// took `?page=-1`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoQuery {}

/// `?userId=`: the user a request acts for (the caller when absent; only an admin
/// may name someone else, see `Caller::acting_for`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ForUser {
    pub user_id: Option<Id>,
}

/// Zero-based `page` and `size` (default `default_size`, 1 to `max_size`).
pub fn page_params(
    page: Option<u32>,
    size: Option<u32>,
    default_size: u32,
    max_size: u32,
) -> Result<(u32, u32), ApiError> {
    let size = size.unwrap_or(default_size);
    if !(1..=max_size).contains(&size) {
        return Err(ApiError::bad_request(
            "size",
            format!("Invalid query parameter 'size': must be 1 to {max_size}"),
        ));
    }
    Ok((page.unwrap_or(0), size))
}

/// Maps a serde error at `path` to a 400 that names the field.
fn field_error(path: &str, inner: &str, what: &str) -> ApiError {
    let parent = if path == "." { "" } else { path };
    let join = |name: &str| {
        if parent.is_empty() {
            name.to_owned()
        } else {
            format!("{parent}.{name}")
        }
    };
    if let Some(name) = backticked(inner, "missing field `") {
        let field = join(name);
        return ApiError::bad_request(field.clone(), format!("{what}'{field}' is required"));
    }
    for (prefix, problem) in [
        ("unknown field `", "Unknown"),
        ("duplicate field `", "Duplicate"),
    ] {
        if let Some(name) = backticked(inner, prefix) {
            // serde_path_to_error may already have put the key at the end of the path.
            let field = if parent == name || parent.ends_with(&format!(".{name}")) {
                parent.to_owned()
            } else {
                join(name)
            };
            return ApiError::bad_request(field.clone(), format!("{problem} {what}'{field}'"));
        }
    }
    let inner = plain(inner);
    if parent.is_empty() {
        return ApiError::invalid(format!("Invalid request: {inner}"));
    }
    ApiError::bad_request(parent, format!("Invalid {what}'{parent}': {inner}"))
}

/// serde's words for what it expected, in the contract's: a struct is a JSON
/// object, a number type says its range, and no Rust type is named.
fn plain(inner: &str) -> String {
    static NAMED: std::sync::LazyLock<regex_lite::Regex> = std::sync::LazyLock::new(|| {
        regex_lite::Regex::new(
            r"(?:tuple |unit )?struct [A-Za-z_][A-Za-z0-9_]*(?: with \d+ elements?)?|struct variant [A-Za-z_][A-Za-z0-9_:]*",
        )
        .expect("it compiles")
    });
    static ENUM: std::sync::LazyLock<regex_lite::Regex> = std::sync::LazyLock::new(|| {
        regex_lite::Regex::new(r"enum [A-Za-z_][A-Za-z0-9_]*").expect("it compiles")
    });
    let text = NAMED.replace_all(inner, "a JSON object");
    let text = ENUM.replace_all(&text, "one of the allowed values");
    let mut out = text.into_owned();
    for (rust, json) in [
        ("expected u8", "expected a whole number from 0 to 255"),
        ("expected u16", "expected a whole number from 0 to 65535"),
        (
            "expected u32",
            "expected a whole number from 0 to 4294967295",
        ),
        ("expected u64", "expected a whole number of at least 0"),
        ("expected usize", "expected a whole number of at least 0"),
        ("expected i32", "expected a whole number"),
        ("expected i64", "expected a whole number"),
        ("expected f32", "expected a number"),
        ("expected f64", "expected a number"),
    ] {
        if let Some(rest) = out.strip_suffix(rust) {
            out = format!("{rest}{json}");
        }
    }
    out
}

fn backticked<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = text.strip_prefix(prefix)?;
    rest.split('`').next()
}

/// serde_json appends " at line 1 column 7": the client wants the reason, not offsets.
fn strip_position(err: &serde_json::Error) -> String {
    let text = err.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_owned(),
        None => text,
    }
}

/// The layers every function shares: JSON 404/405, `Cache-Control: no-store`, the
/// body limit, the request id and one log line per request (tower-http's `TraceLayer`).
pub fn finish(router: Router) -> Router {
    let trace = TraceLayer::new_for_http()
        .make_span_with(telemetry::request_span)
        .on_request(())
        .on_response(telemetry::log_response)
        .on_failure(());
    let router = router
        .fallback(|| async { ApiError::NotFound("No such route".into()) })
        .layer(middleware::map_response(json_for_bare_errors))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(trace);
    every_answer(router)
}

/// What the contract promises on every answer, whoever answers: the request id
/// (`x-request-id`) and `Cache-Control: no-store`. [`finish`] ends with it, and
/// `edge::guard`, which answers outside a finished router, adds it again (the id
/// stays the one chosen first).
pub fn every_answer(router: Router) -> Router {
    router
        .layer(middleware::map_response(no_store))
        .layer(middleware::from_fn(telemetry::request_id))
}

/// API answers are personal (profiles, bookings) or change by the second (free
/// ambulances): no browser or proxy may keep a copy.
async fn no_store(mut response: Response) -> Response {
    response.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    response
}

/// Axum answers some errors itself (405 and friends) with a text body; the contract
/// promises JSON everywhere.
async fn json_for_bare_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let message = status.canonical_reason().unwrap_or("Request failed");
    let error = match status {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::PayloadTooLarge,
        StatusCode::NOT_FOUND => ApiError::NotFound(message.into()),
        StatusCode::METHOD_NOT_ALLOWED => {
            let mut r = ApiError::MethodNotAllowed.into_response();
            if let Some(allow) = response.headers().get(header::ALLOW) {
                r.headers_mut().insert(header::ALLOW, allow.clone());
            }
            return r;
        }
        s if s.is_server_error() => ApiError::Internal(format!("bare {s} response")),
        // Any other status axum may answer by itself keeps that status.
        _ => {
            let mut r = ApiError::invalid(message).into_response();
            *r.status_mut() = status;
            return r;
        }
    };
    error.into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Patient {
        name: String,
        age: u8,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Body {
        patient: Patient,
    }

    fn err_of(json: &str) -> (String, Option<String>) {
        match parse_json::<Body>(json.as_bytes()).unwrap_err() {
            ApiError::BadRequest { message, field } => (message, field),
            other => panic!("expected 400, got {other:?}"),
        }
    }

    #[test]
    fn wrong_type_names_the_nested_field() {
        let (msg, field) = err_of(r#"{"patient":{"name":"A","age":"ten"}}"#);
        assert_eq!(field.as_deref(), Some("patient.age"));
        assert!(msg.contains("patient.age"), "{msg}");
        assert!(!msg.contains("line 1"), "{msg}");
    }

    #[test]
    fn missing_and_unknown_fields_are_named() {
        let (_, field) = err_of(r#"{"patient":{"name":"A"}}"#);
        assert_eq!(field.as_deref(), Some("patient.age"));
        let (msg, field) = err_of(r#"{"patient":{"name":"A","age":3},"x":1}"#);
        assert_eq!(field.as_deref(), Some("x"));
        assert!(msg.starts_with("Unknown"), "{msg}");
        let (_, field) = err_of(r#"{}"#);
        assert_eq!(field.as_deref(), Some("patient"));
    }

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "UPPERCASE")]
    #[allow(dead_code)]
    enum Kind {
        Normal,
        Emergency,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct WithEnum {
        kind: Kind,
        other: Option<Kind>,
    }

    /// serde_json calls a wrong type where an enum goes "expected value", a syntax
    /// error: the 400 still names the field (found by probing: `gender: null`).
    #[test]
    fn wrong_types_of_enum_fields_name_the_field() {
        for (json, field) in [
            (r#"{"kind": null}"#, "kind"),
            (r#"{"kind": 1}"#, "kind"),
            (r#"{"kind": true}"#, "kind"),
            (r#"{"kind": []}"#, "kind"),
            (r#"{"kind": "NORMAL", "other": 2.5}"#, "other"),
            (r#"{"kind": "NORMAL", "kind": "NORMAL"}"#, "kind"),
        ] {
            let Err(ApiError::BadRequest {
                field: got,
                message,
            }) = parse_json::<WithEnum>(json.as_bytes())
            else {
                panic!("{json}: expected a 400");
            };
            assert_eq!(got.as_deref(), Some(field), "{json}: {message}");
            assert!(!message.starts_with("Malformed"), "{json}: {message}");
        }
        let Err(ApiError::BadRequest { message, .. }) = parse_json::<WithEnum>(br#"{"kind": nul"#)
        else {
            panic!()
        };
        assert!(message.starts_with("Malformed JSON"), "{message}");
    }

    /// Serde reads a struct from an array by position; a body is an
    /// object, and so is every struct in it.
    #[test]
    fn bodies_and_their_structs_are_objects_not_arrays() {
        let (msg, field) = err_of(r#"[{"name":"A","age":3}]"#);
        assert_eq!(field, None);
        assert!(msg.contains("must be a JSON object"), "{msg}");
        let (msg, field) = err_of(r#"{"patient":["A",3]}"#);
        assert_eq!(field.as_deref(), Some("patient"));
        assert!(msg.contains("expected a JSON object"), "{msg}");
        assert_eq!(
            parse_json::<Body>(br#"{"patient":{"name":"A","age":3}}"#)
                .unwrap()
                .patient
                .age,
            3
        );
    }

    #[test]
    fn malformed_and_empty_json_are_400_without_field() {
        let (msg, field) = err_of(r#"{"patient":"#);
        assert!(msg.starts_with("Malformed JSON"), "{msg}");
        assert_eq!(field, None);
        let (msg, _) = err_of("  ");
        assert!(msg.contains("empty"), "{msg}");
        let (msg, _) = err_of(r#"{"patient":{"name":"A","age":3}} trailing"#);
        assert!(msg.starts_with("Malformed JSON"), "{msg}");
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Q {
        lat: f64,
        page: Option<u32>,
    }

    #[tokio::test]
    async fn one_json_line_per_request_with_method_route_status_latency_and_id() {
        use tower::ServiceExt;
        let logs = testkit::CapturedLogs::default();
        let _guard = tracing::subscriber::set_default(telemetry::subscriber(logs.clone()));
        let app = finish(Router::new().route(
            "/api/x/{id}",
            axum::routing::get(|| async {
                ApiError::from(domain::refusal::Conflict::EmergencyEnded)
            }),
        ));
        let request = axum::http::Request::get("/api/x/42")
            .header("x-request-id", "req-1")
            .body(axum::body::Body::empty())
            .unwrap();
        let response = app.oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::CONFLICT);
        assert_eq!(response.headers()["x-request-id"], "req-1");
        let text = logs.text();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 1, "{text}");
        let line = &lines[0];
        assert_eq!(line["fields"]["message"], "request");
        assert_eq!(line["fields"]["status"], 409);
        assert!(line["fields"]["latency_ms"].as_f64().unwrap() >= 0.0);
        assert_eq!(line["span"]["method"], "GET");
        assert_eq!(line["span"]["route"], "/api/x/{id}");
        assert_eq!(line["span"]["request_id"], "req-1");
    }

    #[test]
    fn query_errors_name_the_parameter() {
        let ApiError::BadRequest { field, message } = parse_query::<Q>("lat=abc").unwrap_err()
        else {
            panic!()
        };
        assert_eq!(field.as_deref(), Some("lat"));
        assert!(message.contains("'lat'"), "{message}");
        let ApiError::BadRequest { field, .. } = parse_query::<Q>("page=1").unwrap_err() else {
            panic!()
        };
        assert_eq!(field.as_deref(), Some("lat"));
        let ApiError::BadRequest { field, .. } = parse_query::<Q>("lat=1&page=-1").unwrap_err()
        else {
            panic!()
        };
        assert_eq!(field.as_deref(), Some("page"));
        assert_eq!(parse_query::<Q>("lat=1.5").unwrap().lat, 1.5);
    }
}
