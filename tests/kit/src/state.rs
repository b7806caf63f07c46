//! The emulators' endpoints, the test configuration, and an `AppState` over a
//! brand-new table. The table comes plain, with its stream, or with patient
//! timeouts; [`TestApp`](crate::TestApp) records the state's DynamoDB calls for the
//! IAM check.

use store::{
    config::{AppEnv, Config},
    schema,
};
use web::AppState;

use crate::{ddb_local, iam, push_service};

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
pub(crate) fn recorded(mut state: AppState) -> AppState {
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
/// [`bench_store`](crate::bench_store)), for tests that load DynamoDB Local far beyond one request at a
/// time (a hundred racers, each making dozens of Queries at once): there a slow
/// answer is the emulator queueing, not a fault.
pub async fn patient_state() -> AppState {
    let table = format!("test-{}", uuid::Uuid::new_v4().simple());
    state_over_new_table(patient(test_config(&table)), false).await
}

/// The benchmarks' patient database timeouts, for [`patient_state`] and
/// [`bench_store`](crate::bench_store).
pub(crate) fn patient(config: Config) -> Config {
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
