//! Integration-test support: every test gets its own freshly created table on the
//! real DynamoDB Local that `make test` starts, so tests run in parallel. Requests go
//! through the function's real router as `lambda_http` requests, and every DynamoDB
//! call they make is checked against the function's grants in template.yaml
//! ([`iam`]).
//!
//! A new function's tests start with `TestApp::new(my_function::router)`, seed what
//! they need with the fixtures (`app.user(..)`, `app.admin()`, `app.seed_hospital(..)`,
//! `app.seed_ambulance(..)`) and call routes with `app.get/post/put/patch/delete`.

pub mod ddb_local;
pub mod hooks;
pub mod iam;
pub mod push_service;

use std::{
    fmt::Display,
    sync::{Arc, Mutex},
};

use axum::Router;
use http::{HeaderMap, Method, StatusCode};
use serde_json::Value;
use tokio::sync::OnceCell;
use tower::ServiceExt;

use domain::{
    ambulance::{Ambulance, AmbulanceStatus, AmbulanceType, NewAmbulance},
    crew::NewCrew,
    hospital::{Hospital, NewHospital},
    types::{Email, Id, LatLng, Phone, Username},
    user::{NewAccount, NewUser, Role},
};
use store::{
    Store,
    config::{AppEnv, Config},
    schema,
};
use web::AppState;

pub const TEST_PASSWORD: &str = "password123";
/// The JWT secret of every test configuration (tests may sign tokens of their own).
pub const TEST_SECRET: &str = "test-secret-test-secret-test-secret-0123";

/// The DynamoDB Local endpoint; the suite refuses to run (never skips) without it.
pub fn endpoint() -> String {
    std::env::var("DYNAMODB_ENDPOINT").unwrap_or_else(|_| {
        panic!(
            "DYNAMODB_ENDPOINT is not set. The integration tests need DynamoDB Local: run them \
             with `make test`, which starts one, or export DYNAMODB_ENDPOINT=http://127.0.0.1:<port>."
        )
    })
}

/// An SQS of this machine (moto's server) for notify's deliveries queue (decision
/// 0019): `SQS_ENDPOINT` when set, else one started once for this test process by
/// the project's launcher, `scripts/moto.sh`, which stops it when the process ends.
/// Each test makes queues of its own on it, as it makes tables.
pub fn sqs_endpoint() -> String {
    static STARTED: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    if let Ok(endpoint) = std::env::var("SQS_ENDPOINT") {
        return endpoint;
    }
    STARTED
        .get_or_init(|| {
            let port = ddb_local::free_port();
            let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/moto.sh");
            let log = std::env::temp_dir().join(format!("moto-{port}.log"));
            let out = std::process::Command::new("bash")
                .arg(script)
                .arg(port.to_string())
                .arg(&log)
                .arg("--while")
                .arg(std::process::id().to_string())
                .output()
                .expect("bash runs scripts/moto.sh");
            assert!(
                out.status.success(),
                "scripts/moto.sh failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            format!("http://127.0.0.1:{port}")
        })
        .clone()
}

pub fn test_config(table: &str) -> Config {
    config_at(table, &endpoint())
}

/// A test configuration for a DynamoDB Local at `endpoint` (fault tests run their own).
pub fn config_at(table: &str, endpoint: &str) -> Config {
    Config {
        table_name: table.to_owned(),
        dynamodb_endpoint: Some(endpoint.to_owned()),
        region: "us-east-1".into(),
        app_env: AppEnv::Local,
        jwt_secret: TEST_SECRET.as_bytes().to_vec(),
        origin_secrets: None,
        db_attempt_timeout: store::config::EMULATOR_DB_TIMEOUTS.0,
        db_operation_timeout: store::config::EMULATOR_DB_TIMEOUTS.1,
        db_max_attempts: 3,
        answer_times: Default::default(),
        time_zone: Default::default(),
        vapid_public_key: Some(push_service::vapid().public_key.clone()),
    }
}

/// `state` with the hooks that record and check DynamoDB calls ([`iam`]).
fn recorded(mut state: AppState) -> AppState {
    state.store = iam::record_calls().on(&state.store);
    state
}

/// A state over a brand-new table (without its stream: see [`streamed_state`]).
pub async fn fresh_state() -> AppState {
    let table = format!("test-{}", uuid::Uuid::new_v4().simple());
    state_over_new_table(test_config(&table), false).await
}

/// [`fresh_state`] over a table with its stream, as deployed, for the tests of what
/// the stream feeds (notify); the others go without, as DynamoDB Local writes every
/// change twice for it (`schema::create_table_without_stream`).
pub async fn streamed_state() -> AppState {
    let table = format!("test-{}", uuid::Uuid::new_v4().simple());
    state_over_new_table(test_config(&table), true).await
}

/// [`fresh_state`] with the benchmarks' patient database timeouts (see
/// [`bench_store`]), for tests that load DynamoDB Local far beyond one request at a
/// time (a hundred racers, each making dozens of Queries at once): there a slow
/// answer is the emulator queueing, not a fault.
pub async fn patient_state() -> AppState {
    let table = format!("test-{}", uuid::Uuid::new_v4().simple());
    state_over_new_table(patient(test_config(&table)), false).await
}

fn patient(config: Config) -> Config {
    Config {
        db_attempt_timeout: std::time::Duration::from_secs(10),
        db_operation_timeout: std::time::Duration::from_secs(30),
        ..config
    }
}

async fn state_over_new_table(config: Config, stream: bool) -> AppState {
    let table = config.table_name.clone();
    let state = AppState::new(config).await;
    let client = state.store.client();
    let created = if stream {
        schema::create_table(client, &table).await
    } else {
        schema::create_table_without_stream(client, &table).await
    };
    created.unwrap_or_else(|e| {
        panic!(
            "could not create a table on DynamoDB Local at {}: {e:?}",
            endpoint()
        )
    });
    state
}

/// A store over a brand-new table `<prefix>-<random>` on the DynamoDB Local of
/// `DYNAMODB_ENDPOINT`, with patient timeouts: the benchmarks measure the search and
/// the bookings, not how a busy machine's emulator queues requests.
///
/// Without the table's stream, which no benchmark but the push one reads (and
/// which DynamoDB Local, unlike DynamoDB, makes every write pay for).
pub async fn bench_store(prefix: &str) -> store::Store {
    bench_store_of(prefix, false).await
}

/// [`bench_store`] with the table's stream (the push benchmark reads it).
pub async fn bench_store_with_stream(prefix: &str) -> store::Store {
    bench_store_of(prefix, true).await
}

async fn bench_store_of(prefix: &str, stream: bool) -> store::Store {
    let table = format!("{prefix}-{}", uuid::Uuid::new_v4().simple());
    let config = patient(config_at(&table, &endpoint()));
    let client = store::connect(&config).await;
    let created = if stream {
        schema::create_table(&client, &table).await
    } else {
        schema::create_table_without_stream(&client, &table).await
    };
    created.unwrap_or_else(|e| panic!("could not create a table on DynamoDB Local: {e:?}"));
    store::Store::new(client, table)
}

/// The benchmarks' yardstick: a bare strongly consistent GetItem of hospital 1
/// (which the benchmark loaded), timed (ms).
pub async fn timed_get_item(store: &store::Store) -> f64 {
    let start = std::time::Instant::now();
    let out = store
        .client()
        .get_item()
        .table_name(store.table())
        .set_key(Some(store::key("HOSPITAL#1", "HOSPITAL")))
        .consistent_read(true)
        .send()
        .await
        .unwrap();
    assert!(out.item.is_some(), "hospital 1 is loaded");
    start.elapsed().as_secs_f64() * 1000.0
}

/// An UpdateItem straight to the table, past the store's rules: how a test makes an
/// item look as an older version of the code (or a bug) left it.
pub async fn raw_update(
    store: &Store,
    key: &store::keys::Key,
    expression: &str,
    values: Vec<(&str, aws_sdk_dynamodb::types::AttributeValue)>,
) {
    let values: std::collections::HashMap<String, _> =
        values.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
    store
        .client()
        .update_item()
        .table_name(store.table())
        .set_key(Some(key.item()))
        .update_expression(expression)
        .set_expression_attribute_values((!values.is_empty()).then_some(values))
        .send()
        .await
        .expect("the raw update is written");
}

/// Hospital `i` of a made-up city laid out in bulk ([`bulk_load_hospitals`]).
pub fn numbered_hospital(i: u64, (latitude, longitude): (f64, f64)) -> Hospital {
    Hospital {
        id: Id::try_from(i).expect("hospital numbers start at 1"),
        name: format!("Hospital {i}"),
        address: format!("{i} Bench Road"),
        latitude,
        longitude,
        contact_info: Some("+911234567".into()),
        distance: None,
        on_diversion_until: None,
    }
}

/// Loads `hospitals` (ids and all) in bulk, as the benchmarks and the large-fleet tests
/// lay out a city: `store.bulk().bulk_load_hospitals` of each as a `NewHospital`.
pub async fn bulk_load_hospitals(store: &store::Store, hospitals: &[domain::hospital::Hospital]) {
    let new = hospitals
        .iter()
        .map(|h| {
            let new = domain::hospital::NewHospital {
                name: h.name.clone(),
                address: h.address.clone(),
                location: domain::types::LatLng::new(h.latitude, h.longitude)
                    .expect("a test hospital's coordinates are valid"),
                contact_info: h.contact_info.clone(),
            };
            (h.id, new)
        })
        .collect();
    store
        .bulk()
        .bulk_load_hospitals(new)
        .await
        .expect("hospitals load");
}

/// Drops a [`bench_store`]'s table (best effort: the database is in memory anyway).
pub async fn drop_table(store: &store::Store) {
    let _ = store
        .client()
        .delete_table()
        .table_name(store.table())
        .send()
        .await;
}

/// Waits, when fewer than `margin_secs` are left of the current fixed window of
/// `limit` (the rate limits count per hour from the hour), until the next window
/// starts. A test that fills a window and expects the next request's 429 would
/// otherwise see a 201 whenever it happens to run across the hour: the CI run of
/// 2026-11-27 did. Waits at most `margin_secs`, and only that rarely.
pub async fn clear_of_a_window_edge(limit: &store::limits::Limit, margin_secs: i64) {
    let (_, left) = store::limits::window(domain::types::epoch_seconds(), limit.window_secs);
    if (left as i64) < margin_secs {
        tokio::time::sleep(std::time::Duration::from_secs(left + 1)).await;
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

/// The log lines written while a test runs: a `MakeWriter` for a test subscriber
/// (`tracing::subscriber::set_default`), read back with [`CapturedLogs::text`].
#[derive(Clone, Default)]
pub struct CapturedLogs(Arc<Mutex<Vec<u8>>>);

impl CapturedLogs {
    pub fn text(&self) -> String {
        String::from_utf8(self.0.lock().expect("not poisoned").clone()).expect("UTF-8 logs")
    }
}

impl std::io::Write for CapturedLogs {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("not poisoned").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for CapturedLogs {
    type Writer = CapturedLogs;
    fn make_writer(&'a self) -> CapturedLogs {
        self.clone()
    }
}

/// Every log line this process writes from now on, on any thread (a handler's
/// blocking task too), in the functions' own format. Sets the process's global
/// subscriber: call it once, in a test that owns its process (nextest runs each
/// test in one); panics when a global subscriber is already set.
pub fn capture_process_logs() -> CapturedLogs {
    let logs = CapturedLogs::default();
    tracing::subscriber::set_global_default(telemetry::subscriber(logs.clone()))
        .expect("no global log subscriber set yet");
    logs
}

/// A change of a valid booking request's JSON that makes one field bad.
pub type BadField = Box<dyn Fn(&mut Value)>;

/// Bad booking requests, each with the field its 400 must name: the parser's unit
/// test and the route's test (that also proves nothing is written) share them.
pub fn bad_booking_fields() -> Vec<(BadField, &'static str)> {
    use serde_json::json;
    vec![
        (
            Box::new(|v| v["patient"]["age"] = json!(151)),
            "patient.age",
        ),
        (Box::new(|v| v["patient"]["age"] = json!(-1)), "patient.age"),
        (
            Box::new(|v| v["patient"]["age"] = json!("ten")),
            "patient.age",
        ),
        (
            Box::new(|v| v["patient"]["age"] = json!(3.5)),
            "patient.age",
        ),
        (
            Box::new(|v| v["patient"]["gender"] = json!("x")),
            "patient.gender",
        ),
        (
            Box::new(|v| v["patient"]["name"] = json!("   ")),
            "patient.name",
        ),
        (
            Box::new(|v| v["patient"]["name"] = json!("n".repeat(101))),
            "patient.name",
        ),
        (
            Box::new(|v| v["patient"]["condition"] = json!("")),
            "patient.condition",
        ),
        (
            Box::new(|v| v["patient"]["condition"] = json!("c".repeat(501))),
            "patient.condition",
        ),
        (
            Box::new(|v| v["bookingType"] = json!("URGENT")),
            "bookingType",
        ),
        (
            Box::new(|v| {
                v.as_object_mut().unwrap().remove("patient");
            }),
            "patient",
        ),
        (Box::new(|v| v["hospitalId"] = json!(0)), "hospitalId"),
        (
            Box::new(|v| v["hospitalId"] = json!(1u64 << 60)),
            "hospitalId",
        ),
        (Box::new(|v| v["ambulanceId"] = json!(0)), "ambulanceId"),
        (Box::new(|v| v["ambulanceId"] = json!(-1)), "ambulanceId"),
        (
            Box::new(|v| v["ambulanceId"] = json!(1u64 << 60)),
            "ambulanceId",
        ),
        (
            Box::new(|v| v["patient"]["blood"] = json!("O+")),
            "patient.blood",
        ),
        (
            Box::new(|v| v["pickup"] = json!({"latitude": 91, "longitude": 74.0})),
            "pickup.latitude",
        ),
        (
            Box::new(|v| v["pickup"] = json!({"latitude": 30.0, "longitude": "east"})),
            "pickup.longitude",
        ),
        (
            Box::new(|v| v["pickup"] = json!({"longitude": 74.0})),
            "pickup.latitude",
        ),
        (
            Box::new(|v| {
                v["pickup"] =
                    json!({"latitude": 30.0, "longitude": 74.0, "landmark": "x".repeat(201)});
            }),
            "pickup.landmark",
        ),
        (
            Box::new(|v| v["pickup"] = json!({"latitude": 30.0, "longitude": 74.0, "floor": 3})),
            "pickup.floor",
        ),
    ]
}

/// One argon2 hash of [`TEST_PASSWORD`], shared by all test users (hashing is slow).
pub async fn test_password_hash() -> String {
    static HASH: OnceCell<String> = OnceCell::const_new();
    HASH.get_or_init(|| async {
        let pw = domain::types::Password::try_from(TEST_PASSWORD.to_owned()).unwrap();
        web::auth::hash_password(&pw).await.unwrap()
    })
    .await
    .clone()
}

/// A test account: `<username>@example.com`, `phone`, password [`TEST_PASSWORD`].
pub async fn test_account(username: &str, phone: &str) -> NewAccount {
    NewAccount {
        username: Username::try_from(username.to_owned()).unwrap(),
        email: Email::try_from(format!("{username}@example.com")).unwrap(),
        phone: Phone::try_from(phone.to_owned()).unwrap(),
        password_hash: test_password_hash().await,
    }
}

#[derive(Debug, Clone)]
pub struct TestUser {
    pub id: Id,
    pub username: String,
    pub token: String,
}

#[derive(Debug)]
pub struct TestResponse {
    /// `METHOD uri` of the request answered, for failure messages.
    pub request: String,
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Value,
}

impl TestResponse {
    /// The `message` of an error body (empty when there is none).
    pub fn message(&self) -> &str {
        self.body
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("")
    }
    pub fn field(&self) -> Option<&str> {
        self.body.get("field").and_then(Value::as_str)
    }

    /// Asserts the status; a failure shows the request and the body.
    #[track_caller]
    pub fn assert_status(&self, status: StatusCode) {
        assert_eq!(self.status, status, "{}: {:?}", self.request, self.body);
    }

    /// Asserts the status and the `field` an error names; a failure shows the
    /// request and the body.
    #[track_caller]
    pub fn assert_field(&self, status: StatusCode, field: &str) {
        let got = (self.status, self.field());
        assert_eq!(
            got,
            (status, Some(field)),
            "{}: {:?}",
            self.request,
            self.body
        );
    }

    /// Asserts the status and the error's message; a failure shows the request and
    /// the body.
    #[track_caller]
    pub fn assert_message(&self, status: StatusCode, message: &str) {
        let got = (self.status, self.message());
        assert_eq!(got, (status, message), "{}: {:?}", self.request, self.body);
    }

    /// The `Retry-After` seconds (a 429's, a 503's); panics when there are none.
    pub fn retry_after(&self) -> i64 {
        let header = self.headers.get("retry-after");
        let secs = header.and_then(|v| v.to_str().ok()?.parse().ok());
        secs.unwrap_or_else(|| panic!("no Retry-After seconds: {header:?}, {:?}", self.body))
    }
}

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

    /// Whether `password` signs `username` in: the check login makes, against the
    /// stored hash.
    pub async fn password_works(&self, username: &str, password: &str) -> bool {
        let username = Username::try_from(username.to_owned()).unwrap();
        let stored = self
            .state
            .store
            .users()
            .account_by_name(&username)
            .await
            .unwrap();
        web::auth::verify_password(stored.map(|a| a.password_hash), password.to_owned())
            .await
            .unwrap()
    }

    /// A hospital straight in the store.
    pub async fn seed_hospital(&self, name: &str, lat: f64, lng: f64) -> Hospital {
        self.state
            .store
            .hospitals()
            .add_hospital(NewHospital {
                name: name.to_owned(),
                address: format!("{name} Road"),
                location: LatLng::new(lat, lng).unwrap(),
                contact_info: Some("+911234567".into()),
            })
            .await
            .unwrap()
    }

    /// An ALS ambulance of `hospital` straight in the store (driver "Ravi Kumar").
    pub async fn seed_ambulance(
        &self,
        hospital: Id,
        number: &str,
        status: AmbulanceStatus,
    ) -> Ambulance {
        self.state
            .store
            .fleet()
            .add_ambulance(NewAmbulance {
                number: number.to_owned(),
                driver_info: Some("Ravi Kumar".into()),
                status,
                ambulance_type: AmbulanceType::Als,
                contact_info: Some("+919999999".into()),
                hospital_id: hospital,
            })
            .await
            .unwrap()
    }

    /// Creates a user straight in the store and returns a token for them.
    pub async fn create_user(&self, username: &str, role: Role) -> TestUser {
        let user = self
            .state
            .store
            .users()
            .create_user(NewUser {
                account: test_account(username, "+15550001111").await,
                location: match role {
                    Role::User => Some(LatLng::new(30.67, 74.33).unwrap()),
                    Role::Admin | Role::Crew | Role::Hospital => None,
                },
                role,
            })
            .await
            .unwrap();
        self.signed_in(user.id, user.username, role)
    }

    /// The account `id` with a token for `role`.
    fn signed_in(&self, id: Id, username: String, role: Role) -> TestUser {
        let token = self.state.auth.issue(id, role).unwrap();
        TestUser {
            id,
            username,
            token,
        }
    }

    pub async fn user(&self, username: &str) -> TestUser {
        self.create_user(username, Role::User).await
    }

    pub async fn admin(&self) -> TestUser {
        self.create_user("admin", Role::Admin).await
    }

    /// A crew account of `ambulance` straight in the store, with a token.
    pub async fn crew(&self, username: &str, ambulance: Id) -> TestUser {
        let crew = self
            .state
            .store
            .crew()
            .create_crew(NewCrew {
                account: test_account(username, "+15550002222").await,
                ambulance_id: ambulance,
            })
            .await
            .unwrap();
        self.signed_in(crew.id, crew.username, Role::Crew)
    }

    /// A hospital staff account of `hospital` straight in the store, with a token.
    pub async fn hospital_staff(&self, username: &str, hospital: Id) -> TestUser {
        let staff = self
            .state
            .store
            .hospital_staff()
            .create_hospital_staff(domain::hospital_staff::NewHospitalStaff {
                account: test_account(username, "+15550003333").await,
                hospital_id: hospital,
            })
            .await
            .unwrap();
        self.signed_in(staff.id, staff.username, Role::Hospital)
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

    /// `GET /api/hospitals/nearest` of (`lat`, `lng`), signed out.
    pub async fn nearest(&self, lat: f64, lng: f64, limit: usize, radius_km: f64) -> TestResponse {
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
