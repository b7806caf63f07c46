//! The six functions on this machine, for `make load` and `make bench`: their
//! routers behind one port ([`api`]), a fresh seeded table for benchmarks
//! ([`Fixture`]) and percentiles. Never deployed: this crate is not in template.yaml
//! and not a route of `cargo lambda watch`.

use std::{sync::Arc, time::Duration};

use axum::{Router, extract::Request, response::IntoResponse};
use shared::{
    ApiError, AppState, Store,
    auth::hash_password,
    config::{AppEnv, Config},
    domain::user::{NewAccount, NewUser, Role},
    store::schema,
    types::{Email, Id, LatLng, Password, Phone, Username},
};
use tower::ServiceExt;

/// The route groups, as API Gateway routes `/api/<group>/...` to one function each.
pub const GROUPS: [&str; 6] = [
    "auth",
    "user",
    "hospitals",
    "ambulances",
    "booking",
    "admin",
];

/// The same function's router for a group name.
pub fn router_of(group: &str) -> Option<fn(AppState) -> Router> {
    Some(match group {
        "auth" => auth::router,
        "user" => user::router,
        "hospitals" => hospitals::router,
        "ambulances" => ambulances::router,
        "booking" => booking::router,
        "admin" => admin::router,
        _ => return None,
    })
}

/// All six routers over one state, each answering its own `/api/<group>` paths as
/// API Gateway would route them: one process instead of six Lambdas. The routers
/// are untouched (each keeps its own 404 fallback and layers), so a request sees
/// exactly what it sees in its function.
pub fn api(state: AppState) -> Router {
    let routers: Arc<Vec<(&'static str, Router)>> = Arc::new(
        GROUPS
            .iter()
            .map(|g| (*g, router_of(g).expect("known group")(state.clone())))
            .collect(),
    );
    Router::new().fallback(move |req: Request| {
        let routers = routers.clone();
        async move {
            let group = req
                .uri()
                .path()
                .strip_prefix("/api/")
                .and_then(|rest| rest.split('/').next())
                .unwrap_or("");
            match routers.iter().find(|(g, _)| *g == group) {
                Some((_, router)) => match router.clone().oneshot(req).await {
                    Ok(response) => response,
                    Err(never) => match never {},
                },
                None => ApiError::NotFound("No such route".into()).into_response(),
            }
        }
    })
}

/// The value at percentile `p` (0..=1) of sorted samples, nearest rank.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = (p * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Milliseconds since `start`.
pub fn ms_since(start: std::time::Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1000.0
}

/// The JWT secret of the benchmarks (local only, at least 32 bytes).
pub const BENCH_SECRET: &str = "bench-secret-local-only-bench-secret-0123456789";
pub const BENCH_PASSWORD: &str = "bench-password-123";

/// The DynamoDB Local endpoint the script started.
pub fn endpoint() -> String {
    std::env::var("DYNAMODB_ENDPOINT").unwrap_or_else(|_| {
        panic!("DYNAMODB_ENDPOINT is not set: run this through make bench or make load")
    })
}

/// A benchmark's configuration: the production one with patient database timeouts
/// (a busy machine is not what is measured; the timeouts never shorten a call).
pub fn bench_config(table: &str) -> Config {
    Config {
        table_name: table.to_owned(),
        dynamodb_endpoint: Some(endpoint()),
        region: "us-east-1".into(),
        app_env: AppEnv::Local,
        jwt_secret: BENCH_SECRET.as_bytes().to_vec(),
        origin_secret: None,
        db_attempt_timeout: Duration::from_secs(10),
        db_operation_timeout: Duration::from_secs(30),
        db_max_attempts: 3,
    }
}

pub struct Account {
    pub id: Id,
    pub username: String,
    pub token: String,
}

/// A fresh table with the demo hospitals and ambulances, two users and one admin
/// (all with the password [`BENCH_PASSWORD`]).
pub struct Fixture {
    pub state: AppState,
    pub table: String,
    pub user: Account,
    pub other_user: Account,
    pub admin: Account,
}

impl Fixture {
    /// Creates the table `prefix-<random>` and seeds it through the normal store code.
    /// `state` may use a client of the caller's (e.g. one that counts calls).
    pub async fn create(prefix: &str, client: Option<aws_sdk_dynamodb::Client>) -> Fixture {
        let table = format!("{prefix}-{:08x}", rand::random::<u32>());
        let mut state = AppState::new(bench_config(&table)).await;
        if let Some(client) = client {
            state.store = Store::new(client, table.clone());
        }
        schema::create_table(state.store.client(), &table)
            .await
            .unwrap_or_else(|e| panic!("could not create table {table} at {}: {e:?}", endpoint()));
        shared::seed::seed_hospitals_and_ambulances(&state.store)
            .await
            .expect("seed hospitals and ambulances");
        let password = Password::try_from(BENCH_PASSWORD.to_owned()).expect("valid password");
        let hash = hash_password(&password).await.expect("hash");
        let make = async |name: &str, role: Role| {
            let user = state
                .store
                .create_user(NewUser {
                    account: NewAccount {
                        username: Username::try_from(name.to_owned()).expect("valid username"),
                        email: Email::try_from(format!("{name}@example.com")).expect("valid email"),
                        phone: Phone::try_from("+919800000000".to_owned()).expect("valid phone"),
                        password_hash: hash.clone(),
                    },
                    location: (role == Role::User)
                        .then(|| LatLng::new(30.67, 74.33).expect("in range")),
                    role,
                })
                .await
                .expect("create user");
            Account {
                id: user.id,
                username: user.username,
                token: state.auth.issue(user.id, role).expect("token"),
            }
        };
        let user = make("benchuser", Role::User).await;
        let other_user = make("benchuser2", Role::User).await;
        let admin = make("benchadmin", Role::Admin).await;
        Fixture {
            state,
            table,
            user,
            other_user,
            admin,
        }
    }

    pub async fn drop_table(&self) {
        let _ = self
            .state
            .store
            .client()
            .delete_table()
            .table_name(&self.table)
            .send()
            .await;
    }
}
