//! `bench-warm [--iterations N]`: the warm latency of every route, in-process
//! (`router(state).oneshot`, what a warm Lambda does with an event) against DynamoDB
//! Local at DYNAMODB_ENDPOINT, next to two bare DynamoDB calls measured in the same
//! run: a GetItem and a TransactWriteItems (a Put and a conditional Update, the shape
//! of the routes' transactions) before every route call, so all see the same machine
//! noise. Prints p50, p95, p95 as a multiple of the GetItem p95 (the goal's measure)
//! and of the TransactWriteItems p95 (how much of a transaction route is the
//! transaction itself), and the DynamoDB calls each request made (counted by an SDK
//! interceptor). The table is created, seeded and dropped here.

use std::{
    collections::BTreeMap,
    sync::atomic::{AtomicU64, Ordering},
    time::Instant,
};

use aws_sdk_dynamodb::config::{
    ConfigBag, Intercept, interceptors::BeforeSerializationInterceptorContextRef,
};
use axum::{Router, body::Body};
use http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use perf_tools::{BENCH_PASSWORD, Fixture, bench_config, ms_since, percentile, router_of};
use serde_json::{Value, json};
use shared::AppState;
use tower::ServiceExt;

/// DynamoDB operations started (retries not counted twice).
static CALLS: AtomicU64 = AtomicU64::new(0);

#[derive(Debug)]
struct CountCalls;

impl Intercept for CountCalls {
    fn name(&self) -> &'static str {
        "CountCalls"
    }
    fn read_before_execution(
        &self,
        _context: &BeforeSerializationInterceptorContextRef<'_>,
        _cfg: &mut ConfigBag,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        CALLS.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
}

struct Api {
    routers: BTreeMap<&'static str, Router>,
}

struct Answer {
    status: StatusCode,
    body: Value,
    ms: f64,
    calls: u64,
}

impl Api {
    fn new(state: &AppState) -> Api {
        Api {
            routers: perf_tools::GROUPS
                .iter()
                .map(|g| (*g, router_of(g).expect("group")(state.clone())))
                .collect(),
        }
    }

    /// One request through its function's router, timed up to the last body byte.
    async fn call(
        &self,
        method: Method,
        uri: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Answer {
        let group = uri
            .trim_start_matches("/api/")
            .split('/')
            .next()
            .unwrap_or("");
        let router = self
            .routers
            .get(group)
            .unwrap_or_else(|| panic!("no function for {uri}"))
            .clone();
        let mut req = Request::builder().method(method).uri(uri);
        if let Some(token) = token {
            req = req.header("authorization", format!("Bearer {token}"));
        }
        let req = match body {
            Some(b) => req
                .header("content-type", "application/json")
                .body(Body::from(b.to_string())),
            None => req.body(Body::empty()),
        }
        .expect("request");
        let calls = CALLS.load(Ordering::Relaxed);
        let start = Instant::now();
        let response = router.oneshot(req).await.expect("infallible");
        let status = response.status();
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes();
        let ms = ms_since(start);
        Answer {
            status,
            body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
            ms,
            calls: CALLS.load(Ordering::Relaxed) - calls,
        }
    }
}

#[derive(Default)]
struct Samples {
    ms: Vec<f64>,
    calls: Vec<u64>,
    unexpected: usize,
    example: Option<String>,
}

struct Bench {
    api: Api,
    fixture: Fixture,
    routes: Vec<&'static str>,
    samples: BTreeMap<&'static str, Samples>,
    get_item: Vec<f64>,
    tx_write: Vec<f64>,
    record: bool,
}

impl Bench {
    /// A bare GetItem of the user's item, as the store's `get` does (consistent read).
    async fn get_item(&mut self) {
        let key = shared::store::key(format!("USER#{}", self.fixture.user.id), "USER");
        let start = Instant::now();
        let out = self
            .fixture
            .state
            .store
            .client()
            .get_item()
            .table_name(&self.fixture.table)
            .set_key(Some(key))
            .consistent_read(true)
            .send()
            .await
            .expect("GetItem");
        assert!(out.item.is_some());
        if self.record {
            self.get_item.push(ms_since(start));
        }
    }

    /// A bare TransactWriteItems of two items on scratch keys no route reads: a Put
    /// and an Update with a condition that holds, as the routes' transactions are
    /// made of. Idempotent: it writes the same values every time.
    async fn tx_write(&mut self) {
        use aws_sdk_dynamodb::types::{AttributeValue, Put, TransactWriteItem, Update};
        use shared::store::key;
        let table = self.fixture.table.clone();
        let mut item = key("BENCH#txwrite", "PUT");
        item.insert("value".into(), AttributeValue::N("1".into()));
        let put = Put::builder()
            .table_name(&table)
            .set_item(Some(item))
            .build()
            .expect("Put");
        let update = Update::builder()
            .table_name(&table)
            .set_key(Some(key("BENCH#txwrite", "UPDATE")))
            .update_expression("SET #v = :v")
            .condition_expression("attribute_not_exists(heldBy)")
            .expression_attribute_names("#v", "value")
            .expression_attribute_values(":v", AttributeValue::S("same".into()))
            .build()
            .expect("Update");
        let start = Instant::now();
        self.fixture
            .state
            .store
            .client()
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().put(put).build())
            .transact_items(TransactWriteItem::builder().update(update).build())
            .send()
            .await
            .expect("TransactWriteItems");
        if self.record {
            self.tx_write.push(ms_since(start));
        }
    }

    /// Times one route (after one bare GetItem and one bare TransactWriteItems) and
    /// checks its status.
    async fn route(
        &mut self,
        label: &'static str,
        expect: StatusCode,
        method: Method,
        uri: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Value {
        self.get_item().await;
        self.tx_write().await;
        let answer = self.api.call(method, uri, token, body).await;
        if !self.routes.contains(&label) {
            self.routes.push(label);
        }
        let s = self.samples.entry(label).or_default();
        if answer.status != expect {
            s.unexpected += 1;
            s.example
                .get_or_insert_with(|| format!("{} {}", answer.status, answer.body));
        }
        if self.record {
            s.ms.push(answer.ms);
            s.calls.push(answer.calls);
        }
        answer.body
    }
}

fn id_of(body: &Value) -> u64 {
    body["id"].as_u64().unwrap_or(0)
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let mut iterations = 200usize;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--iterations" => {
                iterations = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--iterations N")
            }
            other => panic!("unknown argument {other}; usage: bench-warm [--iterations N]"),
        }
    }
    let plain = shared::store::connect(&bench_config("unused")).await;
    let counted = aws_sdk_dynamodb::Client::from_conf(
        plain.config().to_builder().interceptor(CountCalls).build(),
    );
    let fixture = Fixture::create("bench-warm", Some(counted)).await;
    let store = &fixture.state.store;
    let hospital = store.hospitals_page(0, 1).await.expect("hospitals").content[0].clone();
    let available: Vec<u64> = store
        .available_ambulances(Some(hospital.id))
        .await
        .expect("ambulances")
        .iter()
        .map(|a| a.id.get())
        .collect();
    assert!(
        available.len() >= 2,
        "the seeded hospital needs 2 available ambulances"
    );
    let h = hospital.id.get();
    let api = Api::new(&fixture.state);

    // The user's history holds one booking (on an ambulance the cycle does not use).
    let booking_body = |ambulance: u64| {
        json!({"hospitalId": h, "ambulanceId": ambulance, "bookingType": "EMERGENCY",
               "patient": {"name": "Bench Patient", "age": 50, "gender": "Other", "condition": "warm benchmark"}})
    };
    let kept = api
        .call(
            Method::POST,
            "/api/booking/book",
            Some(&fixture.user.token),
            Some(booking_body(available[1])),
        )
        .await;
    assert_eq!(kept.status, StatusCode::CREATED, "{}", kept.body);
    let kept = id_of(&kept.body);
    let cycle_ambulance = available[0];

    let mut bench = Bench {
        api,
        routes: vec![],
        samples: BTreeMap::new(),
        get_item: vec![],
        tx_write: vec![],
        record: false,
        fixture,
    };
    let (user, other, admin) = (
        bench.fixture.user.token.clone(),
        bench.fixture.other_user.token.clone(),
        bench.fixture.admin.token.clone(),
    );
    let (user, other, admin) = (
        Some(user.as_str()),
        Some(other.as_str()),
        Some(admin.as_str()),
    );
    let username = bench.fixture.user.username.clone();
    let warm_up = 5;
    eprintln!("bench-warm: {warm_up} warm-up + {iterations} measured iterations of every route");
    for i in 0..warm_up + iterations {
        bench.record = i >= warm_up;
        use Method as M;
        use StatusCode as S;
        let b = &mut bench;
        b.route(
            "GET /api/hospitals/nearest",
            S::OK,
            M::GET,
            "/api/hospitals/nearest?lat=30.67&lng=74.33",
            None,
            None,
        )
        .await;
        b.route(
            "GET /api/hospitals/all",
            S::OK,
            M::GET,
            "/api/hospitals/all?page=1&size=10",
            None,
            None,
        )
        .await;
        b.route(
            "GET /api/hospitals/{id}",
            S::OK,
            M::GET,
            &format!("/api/hospitals/{h}"),
            None,
            None,
        )
        .await;
        b.route(
            "GET /api/ambulances/available",
            S::OK,
            M::GET,
            &format!("/api/ambulances/available?hospitalId={h}"),
            user,
            None,
        )
        .await;
        b.route(
            "GET /api/ambulances/available/all",
            S::OK,
            M::GET,
            "/api/ambulances/available/all",
            user,
            None,
        )
        .await;
        b.route(
            "GET /api/ambulances/hospital/{id}",
            S::OK,
            M::GET,
            &format!("/api/ambulances/hospital/{h}"),
            user,
            None,
        )
        .await;
        b.route(
            "GET /api/ambulances/counts",
            S::OK,
            M::GET,
            "/api/ambulances/counts",
            None,
            None,
        )
        .await;
        b.route(
            "GET /api/user/profile",
            S::OK,
            M::GET,
            "/api/user/profile",
            user,
            None,
        )
        .await;
        b.route("PUT /api/user/profile", S::OK, M::PUT, "/api/user/profile", user,
            Some(json!({"email": format!("{username}@example.com"), "latitude": 30.67, "longitude": 74.33}))).await;
        b.route(
            "POST /api/auth/login",
            S::OK,
            M::POST,
            "/api/auth/login",
            None,
            Some(json!({"username": username, "password": BENCH_PASSWORD})),
        )
        .await;
        b.route("POST /api/auth/register", S::CREATED, M::POST, "/api/auth/register", None,
            Some(json!({"username": format!("warm{i}"), "email": format!("warm{i}@example.com"), "password": BENCH_PASSWORD,
                        "phone": "+919800000000", "latitude": 30.67, "longitude": 74.33}))).await;
        b.route(
            "GET /api/booking/history",
            S::OK,
            M::GET,
            "/api/booking/history",
            user,
            None,
        )
        .await;
        b.route(
            "GET /api/booking/{id}",
            S::OK,
            M::GET,
            &format!("/api/booking/{kept}"),
            user,
            None,
        )
        .await;
        // A booking's life: booked, accepted by an admin, cancelled (the ambulance is free again).
        let booked = b
            .route(
                "POST /api/booking/book",
                S::CREATED,
                M::POST,
                "/api/booking/book",
                other,
                Some(booking_body(cycle_ambulance)),
            )
            .await;
        let id = id_of(&booked);
        b.route(
            "PATCH /api/admin/bookings/status",
            S::OK,
            M::PATCH,
            &format!("/api/admin/bookings/status?bookingId={id}&status=ACTIVE"),
            admin,
            None,
        )
        .await;
        b.route(
            "PATCH /api/booking/cancel",
            S::OK,
            M::PATCH,
            &format!("/api/booking/cancel?bookingId={id}"),
            other,
            None,
        )
        .await;
        b.route(
            "GET /api/admin/ambulances/all",
            S::OK,
            M::GET,
            "/api/admin/ambulances/all",
            admin,
            None,
        )
        .await;
        b.route(
            "GET /api/admin/bookings/all/paged",
            S::OK,
            M::GET,
            "/api/admin/bookings/all/paged?page=0&size=10",
            admin,
            None,
        )
        .await;
        b.route(
            "GET /api/admin/stats",
            S::OK,
            M::GET,
            "/api/admin/stats",
            admin,
            None,
        )
        .await;
        // A hospital and an ambulance added, changed and removed (far from the searches).
        let added = b.route("POST /api/admin/hospitals/add", S::CREATED, M::POST, "/api/admin/hospitals/add", admin,
            Some(json!({"name": format!("Warm {i}"), "address": "1 Bench Road", "latitude": -45.0, "longitude": 170.0}))).await;
        let hid = id_of(&added);
        let amb = b.route("POST /api/admin/ambulances/add", S::CREATED, M::POST, "/api/admin/ambulances/add", admin,
            Some(json!({"number": format!("WARM-{i}"), "status": "AVAILABLE", "hospital": {"id": hid}}))).await;
        let aid = id_of(&amb);
        b.route(
            "PATCH /api/admin/ambulance/status",
            S::OK,
            M::PATCH,
            &format!("/api/admin/ambulance/status?ambulanceId={aid}&status=MAINTENANCE"),
            admin,
            None,
        )
        .await;
        b.route(
            "DELETE /api/admin/ambulances/remove",
            S::NO_CONTENT,
            M::DELETE,
            &format!("/api/admin/ambulances/remove?ambulanceId={aid}"),
            admin,
            None,
        )
        .await;
        b.route(
            "DELETE /api/admin/hospitals/remove",
            S::NO_CONTENT,
            M::DELETE,
            &format!("/api/admin/hospitals/remove?hospitalId={hid}"),
            admin,
            None,
        )
        .await;
    }

    bench.get_item.sort_by(f64::total_cmp);
    let get_p50 = percentile(&bench.get_item, 0.5);
    let get_p95 = percentile(&bench.get_item, 0.95);
    bench.tx_write.sort_by(f64::total_cmp);
    let tx_p50 = percentile(&bench.tx_write, 0.5);
    let tx_p95 = percentile(&bench.tx_write, 0.95);
    println!(
        "warm latency in-process, {iterations} iterations; bare DynamoDB GetItem (consistent) in the same run: p50 {:.2} ms, p95 {:.2} ms ({} samples)",
        get_p50,
        get_p95,
        bench.get_item.len()
    );
    println!(
        "bare TransactWriteItems (a Put and a conditional Update) in the same run: p50 {:.2} ms, p95 {:.2} ms ({} samples; p95 {:.1}x GetItem p95)",
        tx_p50,
        tx_p95,
        bench.tx_write.len(),
        tx_p95 / get_p95
    );
    println!(
        "  {:<38} {:>8} {:>8} {:>11} {:>11} {:>11} {:>9}  goal: p95 <= 3x GetItem p95",
        "route", "p50 ms", "p95 ms", "p50/GetItem", "p95/GetItem", "p95/TxWrite", "DB calls"
    );
    let (mut met, mut failed) = (0, false);
    for label in &bench.routes {
        let s = bench.samples.get_mut(label).expect("samples");
        s.ms.sort_by(f64::total_cmp);
        let p95 = percentile(&s.ms, 0.95);
        let ratio = p95 / get_p95;
        let (lo, hi) = (
            s.calls.iter().min().copied().unwrap_or(0),
            s.calls.iter().max().copied().unwrap_or(0),
        );
        let calls = if lo == hi {
            format!("{lo}")
        } else {
            format!("{lo}-{hi}")
        };
        let ok = ratio <= 3.0;
        met += usize::from(ok);
        let p50 = percentile(&s.ms, 0.5);
        println!(
            "  {:<38} {:>8.2} {:>8.2} {:>10.1}x {:>10.1}x {:>10.1}x {:>9}  {}",
            label,
            p50,
            p95,
            p50 / get_p50,
            ratio,
            p95 / tx_p95,
            calls,
            if ok { "met" } else { "not met" }
        );
        if s.unexpected > 0 {
            failed = true;
            println!(
                "    !! {} unexpected answers, e.g. {}",
                s.unexpected,
                s.example.as_deref().unwrap_or("")
            );
        }
    }
    println!("  goal met by {met} of {} routes", bench.routes.len());
    bench.fixture.drop_table().await;
    if failed {
        std::process::exit(1);
    }
}
