//! `bench-init [--runs N] BIN_DIR`: each function's binary (BIN_DIR/<name> for every
//! route group of `api_tests::FUNCTIONS` and background function of
//! `api_tests::BACKGROUND`, e.g. target/release)
//! started as Lambda starts it, against a local stand-in for the
//! Lambda Runtime API, N times. Prints per function:
//!
//! - size of the binary;
//! - init: from just before the process is spawned to its first
//!   `GET /2018-06-01/runtime/invocation/next` (where Lambda ends "Init Duration"),
//!   median and max (after one uncounted run that loads the binary into the page
//!   cache);
//! - first and second invocation: one API Gateway v2 event answered (from handing
//!   the event out to the `.../response` POST), the first on a cold DynamoDB
//!   connection, the second warm; median. Not for a background function (the
//!   clock's invocation sweeps for a minute): its init only.
//!
//! The environment is the one Lambda sets (AWS_LAMBDA_*, AWS_REGION, credentials)
//! plus the function's own (TABLE_NAME, JWT_SECRET, APP_ENV=local,
//! DYNAMODB_ENDPOINT, notify's VAPID keys and DELIVERIES_QUEUE_URL): nothing else is
//! inherited. Needs DynamoDB Local at
//! DYNAMODB_ENDPOINT; the table is created, seeded and dropped here.

use std::{
    collections::VecDeque,
    path::{Path, PathBuf},
    process::Stdio,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use axum::{
    Router,
    body::Bytes,
    extract::State,
    http::{HeaderMap, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use perf_tools::{BENCH_PASSWORD, BENCH_SECRET, Fixture, endpoint, percentile};
use serde_json::{Value, json};
use tokio::sync::mpsc;

/// What the stand-in saw, in order.
enum Seen {
    Next(Instant),
    Response(Instant, Bytes),
    Error(String),
}

struct StandIn {
    events: Mutex<VecDeque<(String, Value)>>,
    seen: mpsc::UnboundedSender<Seen>,
}

/// `GET /runtime/invocation/next`: the next queued event, or (none left) an answer
/// that never comes, as a Lambda with no traffic would leave the runtime waiting.
async fn next(State(s): State<Arc<StandIn>>) -> Response {
    let _ = s.seen.send(Seen::Next(Instant::now()));
    let event = s.events.lock().expect("lock").pop_front();
    let Some((request_id, event)) = event else {
        return std::future::pending().await;
    };
    let deadline = time::OffsetDateTime::now_utc().unix_timestamp() * 1000 + 10_000;
    let mut headers = HeaderMap::new();
    let mut set = |name: &'static str, value: String| {
        headers.insert(name, HeaderValue::from_str(&value).expect("header value"));
    };
    set("lambda-runtime-aws-request-id", request_id);
    set("lambda-runtime-deadline-ms", deadline.to_string());
    set(
        "lambda-runtime-invoked-function-arn",
        "arn:aws:lambda:us-east-1:123456789012:function:bench".into(),
    );
    set(
        "lambda-runtime-trace-id",
        "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=0".into(),
    );
    set("content-type", "application/json".into());
    (headers, event.to_string()).into_response()
}

async fn response(State(s): State<Arc<StandIn>>, body: Bytes) -> StatusCode {
    let _ = s.seen.send(Seen::Response(Instant::now(), body));
    StatusCode::ACCEPTED
}

async fn error(State(s): State<Arc<StandIn>>, body: Bytes) -> StatusCode {
    let _ = s
        .seen
        .send(Seen::Error(String::from_utf8_lossy(&body).into_owned()));
    StatusCode::ACCEPTED
}

/// An API Gateway HTTP API (payload 2.0) event for `method path?query`.
fn event(
    group: &str,
    method: &str,
    path: &str,
    query: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Value {
    let host = "abc123.execute-api.us-east-1.amazonaws.com";
    let mut headers = json!({
        "accept": "application/json",
        "host": host,
        "user-agent": "bench-init",
        "x-forwarded-for": "127.0.0.1",
        "x-forwarded-port": "443",
        "x-forwarded-proto": "https",
    });
    if let Some(token) = token {
        headers["authorization"] = json!(format!("Bearer {token}"));
    }
    if body.is_some() {
        headers["content-type"] = json!("application/json");
    }
    let query_params: serde_json::Map<String, Value> = query
        .split('&')
        .filter(|kv| !kv.is_empty())
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_owned(), json!(v)))
        .collect();
    let route_key = format!("ANY /api/{group}/{{proxy+}}");
    let now = time::OffsetDateTime::now_utc();
    let mut event = json!({
        "version": "2.0",
        "routeKey": route_key,
        "rawPath": path,
        "rawQueryString": query,
        "headers": headers,
        "pathParameters": { "proxy": path.trim_start_matches(&format!("/api/{group}/")) },
        "requestContext": {
            "accountId": "123456789012",
            "apiId": "abc123",
            "domainName": host,
            "domainPrefix": "abc123",
            "http": {
                "method": method,
                "path": path,
                "protocol": "HTTP/1.1",
                "sourceIp": "127.0.0.1",
                "userAgent": "bench-init"
            },
            "requestId": format!("{:016x}", rand::random::<u64>()),
            "routeKey": route_key,
            "stage": "$default",
            "time": now.format(&time::format_description::well_known::Rfc2822).unwrap_or_default(),
            "timeEpoch": now.unix_timestamp() * 1000
        },
        "isBase64Encoded": false
    });
    if !query_params.is_empty() {
        event["queryStringParameters"] = Value::Object(query_params);
    }
    if let Some(body) = body {
        event["body"] = json!(body.to_string());
    }
    event
}

/// The request each function answers in the benchmark: a real read (or sign-in)
/// against the seeded table, expected to answer 200.
fn event_for(group: &str, f: &Fixture, hospital: u64) -> Value {
    let user = Some(f.user.token.as_str());
    let admin = Some(f.admin.token.as_str());
    let crew = Some(f.crew.token.as_str());
    match group {
        "auth" => event(
            group,
            "POST",
            "/api/auth/login",
            "",
            None,
            Some(json!({"username": f.user.username, "password": BENCH_PASSWORD})),
        ),
        "user" => event(group, "GET", "/api/user/profile", "", user, None),
        "hospitals" => event(
            group,
            "GET",
            "/api/hospitals/nearest",
            "lat=30.67&lng=74.33",
            None,
            None,
        ),
        "ambulances" => event(
            group,
            "GET",
            &format!("/api/ambulances/hospital/{hospital}"),
            "",
            user,
            None,
        ),
        "booking" => event(group, "GET", "/api/booking/history", "", user, None),
        "admin" => event(group, "GET", "/api/admin/stats", "", admin, None),
        // The crew's job screen: its ambulance, its position and its job.
        "crew" => event(group, "GET", "/api/crew/me", "", crew, None),
        // The key a browser subscribes with (signed in, as the crew screen asks).
        "push" => event(group, "GET", "/api/push/key", "", crew, None),
        // The receiving hospital's board, as its staff's screen polls it.
        "hospital" => event(
            group,
            "GET",
            "/api/hospital/incoming",
            "",
            Some(f.staff.token.as_str()),
            None,
        ),
        other => panic!("no event for the function {other}: add one to event_for"),
    }
}

/// Lambda's memory settings in template.yaml (auth 1024 MB, user 512, the rest
/// the Globals' 256).
fn memory_of(group: &str) -> &'static str {
    match group {
        "auth" => "1024",
        "user" => "512",
        "clock" => "128",
        _ => "256",
    }
}

struct Run {
    init_ms: f64,
    first_ms: f64,
    second_ms: f64,
    status: i64,
    /// The first answer's body (what to show when its status is not 200).
    body: String,
}

/// One start of `binary`; with `event`, two invocations of it answered, else (a
/// background function, whose invocation is its own long job) init only.
async fn one_run(
    group: &str,
    binary: &Path,
    table: &str,
    event: Option<&Value>,
    log: &Path,
) -> Result<Run, String> {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let events = event.map_or_else(VecDeque::new, |event| {
        VecDeque::from([
            ("req-1".to_owned(), event.clone()),
            ("req-2".to_owned(), event.clone()),
        ])
    });
    let stand_in = Arc::new(StandIn {
        events: Mutex::new(events),
        seen: tx,
    });
    let app = Router::new()
        .route("/2018-06-01/runtime/invocation/next", get(next))
        .route(
            "/2018-06-01/runtime/invocation/{id}/response",
            post(response),
        )
        .route("/2018-06-01/runtime/invocation/{id}/error", post(error))
        .route("/2018-06-01/runtime/init/error", post(error))
        .with_state(stand_in);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let api = listener.local_addr().map_err(|e| e.to_string())?;
    let server = tokio::spawn(async move { axum::serve(listener, app).await });

    let log_file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log)
        .map_err(|e| e.to_string())?;
    let mut command = tokio::process::Command::new(binary);
    command
        .env_clear()
        .envs([
            ("AWS_LAMBDA_RUNTIME_API", api.to_string().as_str()),
            ("AWS_LAMBDA_FUNCTION_NAME", &format!("ambulance-{group}")),
            ("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST"),
            ("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", memory_of(group)),
            (
                "AWS_LAMBDA_LOG_STREAM_NAME",
                "2026/11/23/[$LATEST]0123456789abcdef0123456789abcdef",
            ),
            (
                "AWS_LAMBDA_LOG_GROUP_NAME",
                &format!("/aws/lambda/ambulance-{group}"),
            ),
            ("AWS_LAMBDA_INITIALIZATION_TYPE", "on-demand"),
            ("AWS_REGION", "us-east-1"),
            ("AWS_DEFAULT_REGION", "us-east-1"),
            ("AWS_ACCESS_KEY_ID", "local"),
            ("AWS_SECRET_ACCESS_KEY", "local"),
            ("AWS_SESSION_TOKEN", "local"),
            ("LAMBDA_TASK_ROOT", "/var/task"),
            ("LAMBDA_RUNTIME_DIR", "/var/runtime"),
            ("_HANDLER", "bootstrap"),
            ("TZ", ":UTC"),
            ("LANG", "en_US.UTF-8"),
            ("RUST_LOG", "info"),
            ("TABLE_NAME", table),
            ("JWT_SECRET", BENCH_SECRET),
            ("APP_ENV", "local"),
            ("DYNAMODB_ENDPOINT", &endpoint()),
            // What PushFunction and NotifyFunction get (notify's private key is the
            // secret's ARN in AWS, read at cold start: given directly here).
            (
                "VAPID_PUBLIC_KEY",
                &testkit::push_service::vapid().public_key,
            ),
            (
                "VAPID_PRIVATE_KEY",
                &testkit::push_service::vapid().private_key,
            ),
            ("VAPID_SUBJECT", "mailto:bench@example.com"),
            // notify's deliveries queue (decision 0019): its URL, as template.yaml
            // gives it; init makes a client, it sends nothing.
            (
                "DELIVERIES_QUEUE_URL",
                "https://sqs.us-east-1.amazonaws.com/000000000000/deliveries-bench",
            ),
        ])
        .stdin(Stdio::null())
        .stdout(log_file.try_clone().map_err(|e| e.to_string())?)
        .stderr(log_file)
        .kill_on_drop(true);

    let started = Instant::now();
    let mut child = command
        .spawn()
        .map_err(|e| format!("could not start {}: {e}", binary.display()))?;
    let outcome = async {
        let mut nexts = vec![];
        let mut answers = vec![];
        let wanted = if event.is_some() { 3 } else { 1 };
        while nexts.len() < wanted {
            let seen = tokio::time::timeout(Duration::from_secs(30), rx.recv())
                .await
                .map_err(|_| "no request to the Runtime API within 30 s".to_owned())?
                .ok_or("the stand-in stopped")?;
            match seen {
                Seen::Next(at) => nexts.push(at),
                Seen::Response(at, body) => answers.push((at, body)),
                Seen::Error(body) => return Err(format!("the function reported an error: {body}")),
            }
        }
        if event.is_none() {
            return Ok(Run {
                init_ms: (nexts[0] - started).as_secs_f64() * 1000.0,
                first_ms: f64::NAN,
                second_ms: f64::NAN,
                status: 200,
                body: String::new(),
            });
        }
        // The first /next ends init and gets event 1; the second, sent after event 1
        // was answered, gets event 2; the third waits.
        let (init, second_next) = (nexts[0], nexts[1]);
        // Both answers' statuses: the first that is not 200 (else 200), with its body.
        let (status, body) = answers
            .iter()
            .map(|(_, bytes)| {
                let answer = serde_json::from_slice::<Value>(bytes).ok();
                let status = answer
                    .as_ref()
                    .and_then(|v| v["statusCode"].as_i64())
                    .unwrap_or(-1);
                let body = answer
                    .as_ref()
                    .and_then(|v| v["body"].as_str().map(str::to_owned))
                    .unwrap_or_else(|| String::from_utf8_lossy(bytes).into_owned());
                (status, body)
            })
            .find(|(status, _)| *status != 200)
            .unwrap_or((200, String::new()));
        Ok(Run {
            init_ms: (init - started).as_secs_f64() * 1000.0,
            first_ms: (answers[0].0 - init).as_secs_f64() * 1000.0,
            second_ms: (answers[1].0 - second_next).as_secs_f64() * 1000.0,
            status,
            body,
        })
    }
    .await;
    let _ = child.kill().await;
    server.abort();
    outcome
}

fn median(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    percentile(samples, 0.5)
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let mut runs = 10usize;
    let mut dir = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => runs = args.next().and_then(|n| n.parse().ok()).expect("--runs N"),
            other => dir = Some(PathBuf::from(other)),
        }
    }
    let dir = dir.expect("usage: bench-init [--runs N] BIN_DIR");
    let log_dir = PathBuf::from(std::env::var("BENCH_LOG_DIR").unwrap_or_else(|_| ".".into()));

    let fixture = Fixture::create("bench-init", None).await;
    let hospital = fixture
        .state
        .store
        .hospitals()
        .hospitals_page(0, 1)
        .await
        .expect("hospitals page")
        .content[0]
        .id;
    println!(
        "Lambda init (process start -> first GET /runtime/invocation/next), {runs} runs each, binaries in {}:",
        dir.display()
    );
    println!(
        "  {:<11} {:>9} {:>11} {:>8} {:>13} {:>14}  event",
        "function", "size MiB", "init median", "max", "1st invoke", "2nd invoke"
    );
    let mut failed = false;
    let mut worst_init: f64 = 0.0;
    // The route groups, each invoked twice; then the background functions (fed by
    // AWS events, each invocation a long job of its own): init only.
    let groups = api_tests::FUNCTIONS
        .iter()
        .map(|(group, ..)| (*group, true))
        .chain(api_tests::BACKGROUND.iter().map(|group| (*group, false)));
    for (group, invoked) in groups {
        let binary = dir.join(group);
        let size = std::fs::metadata(&binary)
            .map(|m| m.len() as f64 / 1048576.0)
            .unwrap_or_else(|e| panic!("{}: {e}", binary.display()));
        let event = invoked.then(|| event_for(group, &fixture, hospital.get()));
        let log = log_dir.join(format!("init-{group}.log"));
        let _ = std::fs::remove_file(&log);
        let (mut init, mut first, mut second, mut statuses) = (vec![], vec![], vec![], vec![]);
        let mut unexpected = None;
        // One run first, not counted: it brings the binary into the page cache (a fresh
        // build is not what Lambda starts).
        for run in 0..=runs {
            match one_run(group, &binary, &fixture.table, event.as_ref(), &log).await {
                Ok(_) if run == 0 => {}
                Ok(r) => {
                    if r.status != 200 {
                        unexpected.get_or_insert((r.status, r.body));
                    }
                    init.push(r.init_ms);
                    first.push(r.first_ms);
                    second.push(r.second_ms);
                    statuses.push(r.status);
                }
                Err(e) => {
                    eprintln!("  {group}: {e} (log: {})", log.display());
                    failed = true;
                    break;
                }
            }
        }
        if init.is_empty() {
            continue;
        }
        let max = init.iter().cloned().fold(0.0, f64::max);
        worst_init = worst_init.max(median(&mut init.clone()));
        let ok = statuses.iter().all(|s| *s == 200);
        failed |= !ok;
        let Some(event) = &event else {
            println!(
                "  {:<11} {:>9.2} {:>8.1} ms {:>5.1} ms {:>13} {:>14}  (background: init only)",
                group,
                size,
                median(&mut init),
                max,
                "-",
                "-",
            );
            continue;
        };
        println!(
            "  {:<11} {:>9.2} {:>8.1} ms {:>5.1} ms {:>10.1} ms {:>11.1} ms  {} {} -> {}",
            group,
            size,
            median(&mut init),
            max,
            median(&mut first),
            median(&mut second),
            event["requestContext"]["http"]["method"]
                .as_str()
                .unwrap_or(""),
            event["rawPath"].as_str().unwrap_or(""),
            if ok {
                "200".to_owned()
            } else {
                format!("{statuses:?}")
            }
        );
        if let Some((status, body)) = unexpected {
            println!("    !! {group}: expected 200, got {status}: {body}");
        }
    }
    println!(
        "  goal: init <= 20 ms (median): {}",
        if worst_init <= 20.0 { "met" } else { "NOT met" }
    );
    fixture.drop_table().await;
    if failed {
        std::process::exit(1);
    }
}
