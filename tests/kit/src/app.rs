//! `TestApp`: a function's real router over a test's state, the request builders,
//! and the requests many tests make. Requests go in as API Gateway hands them to
//! Lambda, and every DynamoDB call they make is checked against the function's
//! grants ([`iam`]).

use std::{
    fmt::Display,
    sync::{Arc, Mutex},
};

use axum::Router;
use http::Method;
use serde_json::Value;
use tower::ServiceExt;

use domain::geo::Point;
use store::Store;
use web::AppState;

use crate::{
    iam,
    response::TestResponse,
    state::{fresh_state, recorded, test_config},
};

/// A function's router over a test's state ([`TestApp::new`]: a brand-new table),
/// recording the DynamoDB calls of its requests by function.
pub struct TestApp {
    pub state: AppState,
    router: Router,
    /// The DynamoDB calls of this app's requests, by function.
    calls: Arc<Mutex<iam::Calls>>,
}

impl TestApp {
    pub async fn new(router: fn(AppState) -> Router) -> Self {
        Self::with_state(fresh_state().await, router)
    }

    /// A function's router over an existing state.
    pub fn with_state(state: AppState, router: fn(AppState) -> Router) -> TestApp {
        let state = recorded(state);
        TestApp {
            router: router(state.clone()),
            state,
            calls: Arc::default(),
        }
    }

    /// Another function's router over the same table (e.g. auth + user together).
    pub fn with_router(&self, router: fn(AppState) -> Router) -> TestApp {
        TestApp {
            router: router(self.state.clone()),
            state: self.state.clone(),
            calls: self.calls.clone(),
        }
    }

    /// `router` over the same table as a new Lambda instance sees it: a fresh
    /// `Store` (nothing in memory yet, such as the nearest-hospital index), its
    /// DynamoDB calls recorded with this app's.
    pub fn new_instance(&self, router: fn(AppState) -> Router) -> TestApp {
        let mut state = self.state.clone();
        state.store = Store::new(
            self.state.store.client().clone(),
            self.state.store.table().to_owned(),
        )
        .with_settings(self.state.store.defaults().clone())
        .with_time_zone(self.state.store.time_zone().clone());
        TestApp {
            router: router(state.clone()),
            state,
            calls: self.calls.clone(),
        }
    }

    /// `n` instances of `router` over this app's table, each with a DynamoDB client
    /// of its own, as `n` Lambda instances of a function run under load.
    pub async fn instances(&self, n: usize, router: fn(AppState) -> Router) -> Vec<TestApp> {
        let mut apps = Vec::with_capacity(n);
        for _ in 0..n {
            let state = AppState::new(test_config(self.state.store.table())).await;
            apps.push(TestApp::with_state(state, router));
        }
        apps
    }

    /// Runs `work` as background function `function` (the clock) would, over this
    /// app's store: its DynamoDB calls are recorded and checked against that
    /// function's grants, as a request's are against its route group's.
    pub async fn run_as<F: Future>(&self, function: &str, work: F) -> F::Output {
        iam::serving(function, self.calls.clone(), work).await
    }

    /// The DynamoDB calls this app's requests made so far, by function (the route
    /// group of the request's path), as IAM actions and resources.
    pub fn dynamodb_calls(
        &self,
    ) -> std::collections::BTreeMap<String, std::collections::BTreeSet<iam::Grant>> {
        self.calls.lock().expect("not poisoned").made.clone()
    }

    /// Sends a JSON request (`body` None = no body) with an optional bearer token.
    pub async fn call(
        &self,
        method: Method,
        uri: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> TestResponse {
        self.send(json_request(method, uri, token, body)).await
    }

    /// [`TestApp::call`] from client address `ip` (as API Gateway reports it).
    pub async fn call_from(
        &self,
        ip: &str,
        method: Method,
        uri: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> TestResponse {
        self.send(from_address(json_request(method, uri, token, body), ip))
            .await
    }

    /// Sends any request, e.g. a malformed body or odd headers. Fails the test when
    /// the function made a DynamoDB call its template.yaml policy does not grant.
    pub async fn send(&self, request: http::Request<lambda_http::Body>) -> TestResponse {
        let line = format!("{} {}", request.method(), request.uri());
        // API Gateway routes /api/<group>/... to the function of that group.
        let function = request
            .uri()
            .path()
            .strip_prefix("/api/")
            .and_then(|rest| rest.split('/').next())
            .unwrap_or("(no function)")
            .to_owned();
        let response = iam::serving(
            &function,
            self.calls.clone(),
            self.router.clone().oneshot(request),
        )
        .await
        .unwrap();
        let refused = std::mem::take(&mut self.calls.lock().expect("not poisoned").refused);
        assert!(refused.is_empty(), "{}", refused.join("\n"));
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = http_body_util::BodyExt::collect(response.into_body())
            .await
            .unwrap()
            .to_bytes();
        let text_body = headers
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/"));
        let body = if bytes.is_empty() {
            Value::Null
        } else if text_body {
            // A CSV download (the response-time report): its text, as a JSON string.
            Value::String(String::from_utf8_lossy(&bytes).into_owned())
        } else {
            serde_json::from_slice(&bytes).unwrap_or_else(|_| {
                panic!(
                    "response body is not JSON: {}",
                    String::from_utf8_lossy(&bytes)
                )
            })
        };
        TestResponse {
            request: line,
            status,
            headers,
            body,
        }
    }

    pub async fn get(&self, uri: &str, token: Option<&str>) -> TestResponse {
        self.call(Method::GET, uri, token, None).await
    }

    pub async fn post(&self, uri: &str, token: Option<&str>, body: Value) -> TestResponse {
        self.call(Method::POST, uri, token, Some(body)).await
    }

    pub async fn put(&self, uri: &str, token: Option<&str>, body: Value) -> TestResponse {
        self.call(Method::PUT, uri, token, Some(body)).await
    }

    /// A JSON POST with a bearer token and, when given, an `Idempotency-Key`.
    pub async fn post_keyed(
        &self,
        uri: &str,
        token: &str,
        body: &Value,
        idempotency_key: Option<&str>,
    ) -> TestResponse {
        let mut req = http::Request::builder()
            .method(Method::POST)
            .uri(uri)
            .header("authorization", format!("Bearer {token}"))
            .header("content-type", "application/json");
        if let Some(key) = idempotency_key {
            req = req.header("idempotency-key", key);
        }
        let body = lambda_http::Body::from(body.to_string());
        self.send(req.body(body).expect("a valid request")).await
    }

    pub async fn patch(&self, uri: &str, token: Option<&str>) -> TestResponse {
        self.call(Method::PATCH, uri, token, None).await
    }

    pub async fn delete(&self, uri: &str, token: Option<&str>) -> TestResponse {
        self.call(Method::DELETE, uri, token, None).await
    }

    // The requests many tests make, once (the whole system's router serves them).

    /// `POST /api/admin/hospitals/add`.
    pub async fn add_hospital(&self, token: Option<&str>, body: Value) -> TestResponse {
        self.post("/api/admin/hospitals/add", token, body).await
    }

    /// `POST /api/admin/ambulances/add`.
    pub async fn add_ambulance(&self, token: Option<&str>, body: Value) -> TestResponse {
        self.post("/api/admin/ambulances/add", token, body).await
    }

    /// `DELETE /api/admin/hospitals/remove?hospitalId={id}`.
    pub async fn remove_hospital(&self, token: Option<&str>, id: impl Display) -> TestResponse {
        let uri = format!("/api/admin/hospitals/remove?hospitalId={id}");
        self.delete(&uri, token).await
    }

    /// `GET /api/hospitals/nearest` of `at`, signed out.
    pub async fn nearest(&self, at: Point, limit: usize, radius_km: f64) -> TestResponse {
        let Point { lat, lng } = at;
        let query = format!("lat={lat}&lng={lng}&limit={limit}&radiusKm={radius_km}");
        self.get(&format!("/api/hospitals/nearest?{query}"), None)
            .await
    }

    /// `POST /api/booking/book`.
    pub async fn book(&self, token: Option<&str>, body: Value) -> TestResponse {
        self.post("/api/booking/book", token, body).await
    }

    /// `PUT /api/user/profile` (for the caller).
    pub async fn edit_profile(&self, token: Option<&str>, body: Value) -> TestResponse {
        self.put("/api/user/profile", token, body).await
    }

    /// `POST /api/auth/login`.
    pub async fn login(&self, body: Value) -> TestResponse {
        self.post("/api/auth/login", None, body).await
    }

    /// `PATCH /api/crew/job/stage` with `body` (`{bookingId, stage}`).
    pub async fn crew_step(&self, token: Option<&str>, body: Value) -> TestResponse {
        self.call(Method::PATCH, "/api/crew/job/stage", token, Some(body))
            .await
    }

    /// `PATCH /api/booking/cancel?bookingId={id}`.
    pub async fn cancel_booking(&self, token: Option<&str>, id: impl Display) -> TestResponse {
        self.patch(&format!("/api/booking/cancel?bookingId={id}"), token)
            .await
    }
}

/// `request` as API Gateway hands it to a function when the client's address is `ip`
/// (`requestContext.http.sourceIp`, what `edge::ClientAddress` reads).
pub fn from_address(
    request: http::Request<lambda_http::Body>,
    ip: &str,
) -> http::Request<lambda_http::Body> {
    use lambda_http::{
        RequestExt, aws_lambda_events::apigw::ApiGatewayV2httpRequestContext,
        request::RequestContext,
    };
    let mut context = ApiGatewayV2httpRequestContext::default();
    context.http.source_ip = Some(ip.to_owned());
    request.with_request_context(RequestContext::ApiGatewayV2(context))
}

/// A JSON request (`body` None = no body) with an optional bearer token, to `send`.
pub fn json_request(
    method: Method,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> http::Request<lambda_http::Body> {
    let mut builder = http::Request::builder().method(method).uri(uri);
    if let Some(token) = token {
        builder = builder.header("authorization", format!("Bearer {token}"));
    }
    let body = match body {
        Some(json) => {
            builder = builder.header("content-type", "application/json");
            lambda_http::Body::from(json.to_string())
        }
        None => lambda_http::Body::Empty,
    };
    builder.body(body).expect("a valid request")
}
