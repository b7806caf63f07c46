//! `bench-warm [--iterations N] [--warm-up N]`: the warm latency of every route of
//! every function, in-process (`api_tests::system(state).oneshot`, what a warm
//! Lambda does with an event, routed as API Gateway routes `/api/<group>`) against
//! DynamoDB Local at DYNAMODB_ENDPOINT, next to two bare DynamoDB calls measured in
//! the same run: a GetItem and a TransactWriteItems (a Put and a conditional Update,
//! the shape of the routes' transactions) before every route call, so all see the
//! same machine noise. Prints p50, p95, p95 as a multiple of the GetItem p95 (the
//! goal's measure) and of the TransactWriteItems p95 (how much of a transaction
//! route is the transaction itself), and the DynamoDB calls each request made
//! (counted by an SDK interceptor). The table is created, seeded and dropped here.
//!
//! Every measured call must get the status its route is meant to give: each
//! iteration registers and signs in a fresh user, who books, cancels and asks an
//! emergency (so no abuse limit, `shared/store/src/limits.rs`, refuses it); the
//! emergency goes to the fixture's crew, who steps through the trip to COMPLETED
//! (its ambulance is free again for the next iteration). The first unexpected
//! status ends the run with a non-zero exit naming the route, the status and the
//! body: a row never times a refusal.

use std::{
    collections::BTreeMap,
    sync::atomic::{AtomicU64, Ordering},
    time::Instant,
};

use aws_sdk_dynamodb::config::{
    ConfigBag, Intercept, interceptors::BeforeSerializationInterceptorContextRef,
};
use axum::{Router, body::Body};
use domain::user::Role;
use http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use perf_tools::{BENCH_PASSWORD, CREW_PLACE, Fixture, bench_config, ms_since, percentile};
use serde_json::{Value, json};
use testkit::hooks;
use tower::ServiceExt;
use web::AppState;

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

/// Every function's router over one state, routing `/api/<group>` as API Gateway
/// does (`api_tests::system`).
struct Api {
    router: Router,
}

struct Answer {
    status: StatusCode,
    body: Value,
    ms: f64,
    calls: u64,
    /// Read and write capacity units the request consumed (DynamoDB Local's figures).
    rcu: f64,
    wcu: f64,
}

impl Api {
    fn new(state: &AppState) -> Api {
        Api {
            router: api_tests::system(state.clone()),
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
        let router = self.router.clone();
        let calls = CALLS.load(Ordering::Relaxed);
        let _ = (hooks::take_reads(), hooks::take_writes());
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
        let ((rcu, _, _), (wcu, _)) = (hooks::take_reads(), hooks::take_writes());
        Answer {
            status,
            // No body: null; not JSON: the text, to show in a failure.
            body: match bytes.is_empty() {
                true => Value::Null,
                false => serde_json::from_slice(&bytes).unwrap_or_else(|_| {
                    Value::String(String::from_utf8_lossy(&bytes).into_owned())
                }),
            },
            ms,
            calls: CALLS.load(Ordering::Relaxed) - calls,
            rcu,
            wcu,
        }
    }
}

#[derive(Default)]
struct Samples {
    ms: Vec<f64>,
    calls: Vec<u64>,
    rcu: Vec<f64>,
    wcu: Vec<f64>,
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
        let key = store::key(format!("USER#{}", self.fixture.user.id), "USER");
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
        use store::key;
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
    /// checks its status: any other than `expect` ends the benchmark (non-zero exit,
    /// naming the route, the status and the body), so no row ever times a refusal.
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
        let line = format!("{method} {uri}");
        let answer = self.api.call(method, uri, token, body).await;
        if answer.status != expect {
            self.fail(label, &line, expect, &answer).await;
        }
        if !self.routes.contains(&label) {
            self.routes.push(label);
        }
        if self.record {
            let s = self.samples.entry(label).or_default();
            s.ms.push(answer.ms);
            s.calls.push(answer.calls);
            s.rcu.push(answer.rcu);
            s.wcu.push(answer.wcu);
        }
        answer.body
    }

    async fn fail(&self, label: &str, line: &str, expect: StatusCode, answer: &Answer) -> ! {
        eprintln!(
            "bench-warm FAILED: {label} ({line}) answered {}, expected {expect}: {}",
            answer.status, answer.body
        );
        if answer.status.is_server_error() {
            eprintln!("  a 5xx is a bug: bad input must get a clear 4xx");
        }
        self.fixture.drop_table().await;
        std::process::exit(1);
    }
}

/// The `id` of a created thing's body (the status was checked: it has one).
fn id_of(body: &Value) -> u64 {
    body["id"]
        .as_u64()
        .unwrap_or_else(|| panic!("no id in {body}"))
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let mut iterations = 200usize;
    let mut warm_up = 5usize;
    let usage = "usage: bench-warm [--iterations N] [--warm-up N]";
    while let Some(arg) = args.next() {
        let mut count = || {
            args.next()
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{usage}"))
        };
        match arg.as_str() {
            "--iterations" => iterations = count(),
            "--warm-up" => warm_up = count(),
            other => panic!("unknown argument {other}; {usage}"),
        }
    }
    assert!(iterations > 0, "{usage}: at least one iteration");
    let plain = store::connect(&bench_config("unused")).await;
    let counted = aws_sdk_dynamodb::Client::from_conf(
        plain
            .config()
            .to_builder()
            .interceptor(CountCalls)
            .interceptor(hooks::read_capacity())
            .interceptor(hooks::write_capacity())
            .build(),
    );
    let fixture = Fixture::create("bench-warm", Some(counted)).await;
    let store = &fixture.state.store;
    let hospital = store
        .hospitals()
        .hospitals_page(0, 1)
        .await
        .expect("hospitals")
        .content[0]
        .clone();
    let available: Vec<u64> = store
        .fleet()
        .available_ambulances(Some(hospital.id), false)
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

    // A booking as the app sends it: its pickup near the hospital.
    let booking_body = |ambulance: u64| {
        json!({"hospitalId": h, "ambulanceId": ambulance, "bookingType": "EMERGENCY",
               "patient": {"name": "Bench Patient", "age": 50, "gender": "Other", "condition": "warm benchmark"},
               "pickup": {"latitude": hospital.latitude + 0.01, "longitude": hospital.longitude, "landmark": "gate 2"}})
    };
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
    // The user's history holds one booking (on an ambulance the cycle does not use).
    let user_token = bench.fixture.user.token.clone();
    let kept = bench
        .route(
            "(setup) POST /api/booking/book",
            StatusCode::CREATED,
            Method::POST,
            "/api/booking/book",
            Some(&user_token),
            Some(booking_body(available[1])),
        )
        .await;
    bench.routes.clear();
    let kept = id_of(&kept);
    let username = bench.fixture.user.username.clone();
    // An emergency asked from 1 km north of the crew's hospital: the crew's
    // ambulance is the only one within 50 km.
    let emergency_body = json!({
        "pickup": {"latitude": CREW_PLACE.lat + 1.0 / 111.2, "longitude": CREW_PLACE.lng, "landmark": "bench gate"},
        "patient": {"age": 64, "condition": "warm benchmark"}
    });
    // Where the crew reports from: its hospital (every report the same place, so the
    // speed rule always holds).
    let crew_report = |at: time::OffsetDateTime| {
        json!({"latitude": CREW_PLACE.lat, "longitude": CREW_PLACE.lng,
               "recordedAt": domain::types::format_rfc3339(at)})
    };
    eprintln!(
        "bench-warm: {warm_up} warm-up + {iterations} measured iterations of every route \
         ({} functions)",
        api_tests::FUNCTIONS.len()
    );
    for i in 0..warm_up + iterations {
        bench.record = i >= warm_up;
        use Method as M;
        use StatusCode as S;
        let b = &mut bench;
        // Access tokens live 5 minutes: fresh ones each iteration (not timed).
        let f = &b.fixture;
        let (user, admin, crew, staff) = (
            f.token(&f.user, Role::User),
            f.token(&f.admin, Role::Admin),
            f.token(&f.crew, Role::Crew),
            f.token(&f.staff, Role::Hospital),
        );
        let (user, admin, crew, staff) = (
            Some(user.as_str()),
            Some(admin.as_str()),
            Some(crew.as_str()),
            Some(staff.as_str()),
        );
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
        // A fresh identity each iteration: registered, then signed in (a username has
        // 100 password checks an hour, an account 20 bookings and 6 emergencies).
        let fresh = format!("warm{i}");
        b.route("POST /api/auth/register", S::CREATED, M::POST, "/api/auth/register", None,
            Some(json!({"username": fresh, "email": format!("{fresh}@example.com"), "password": BENCH_PASSWORD,
                        "phone": "+919800000000", "latitude": 30.67, "longitude": 74.33}))).await;
        let signed_in = b
            .route(
                "POST /api/auth/login",
                S::OK,
                M::POST,
                "/api/auth/login",
                None,
                Some(json!({"username": fresh, "password": BENCH_PASSWORD})),
            )
            .await;
        let fresh_token = signed_in["token"]
            .as_str()
            .unwrap_or_else(|| panic!("no token in {signed_in}"))
            .to_owned();
        let fresh_user = Some(fresh_token.as_str());
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
                fresh_user,
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
            fresh_user,
            None,
        )
        .await;
        // An emergency's life: one tap dispatches the crew's ambulance; the requester
        // tracks it and shares a link the family opens; the crew sees the job,
        // reports its position and steps through the trip to COMPLETED (the
        // ambulance is free again).
        let emergency = b
            .route(
                "POST /api/booking/emergency",
                S::CREATED,
                M::POST,
                "/api/booking/emergency",
                fresh_user,
                Some(emergency_body.clone()),
            )
            .await;
        let eid = id_of(&emergency);
        let amb = emergency["ambulanceId"].as_u64();
        assert_eq!(
            amb,
            Some(b.fixture.crew_ambulance.get()),
            "the emergency went to the crew's ambulance: {emergency}"
        );
        b.route(
            "GET /api/booking/{id}/track",
            S::OK,
            M::GET,
            &format!("/api/booking/{eid}/track"),
            fresh_user,
            None,
        )
        .await;
        let link = b
            .route(
                "POST /api/booking/{id}/share",
                S::CREATED,
                M::POST,
                &format!("/api/booking/{eid}/share"),
                fresh_user,
                Some(json!({})),
            )
            .await;
        let share = link["token"]
            .as_str()
            .unwrap_or_else(|| panic!("no token in {link}"))
            .to_owned();
        b.route(
            "GET /api/booking/shared/{token}",
            S::OK,
            M::GET,
            &format!("/api/booking/shared/{share}"),
            None,
            None,
        )
        .await;
        let me = b
            .route(
                "GET /api/crew/me",
                S::OK,
                M::GET,
                "/api/crew/me",
                crew,
                None,
            )
            .await;
        assert_eq!(
            me["job"]["id"].as_u64(),
            Some(eid),
            "the crew's screen shows the emergency: {me}"
        );
        // One report per ambulance per 4 s by server time: the server's clock moves
        // 5 s on (untimed), so every report is a write, not one ignored.
        b.fixture
            .state
            .store
            .advance_clock(time::Duration::seconds(5));
        let now = b.fixture.state.store.now();
        b.route(
            "PUT /api/crew/location",
            S::NO_CONTENT,
            M::PUT,
            "/api/crew/location",
            crew,
            Some(crew_report(now)),
        )
        .await;
        b.route(
            "PUT /api/crew/presence",
            S::NO_CONTENT,
            M::PUT,
            "/api/crew/presence",
            crew,
            None,
        )
        .await;
        // The domain's stages, never typed out here.
        let path = domain::booking::TripStage::AtHospital.path_to();
        for stage in path.iter().map(|s| s.as_ref()) {
            let moved = b
                .route(
                    "PATCH /api/crew/job/stage (a step)",
                    S::OK,
                    M::PATCH,
                    "/api/crew/job/stage",
                    crew,
                    Some(json!({"bookingId": eid, "stage": stage})),
                )
                .await;
            assert_eq!(moved["tripStage"], stage, "{moved}");
        }
        // The receiving hospital (decision 0026): its board with the trip at the door,
        // the handover, and a diversion set and ended.
        b.route(
            "GET /api/hospital/incoming",
            S::OK,
            M::GET,
            "/api/hospital/incoming",
            staff,
            None,
        )
        .await;
        b.route(
            "POST /api/hospital/bookings/{id}/handover",
            S::OK,
            M::POST,
            &format!("/api/hospital/bookings/{eid}/handover"),
            staff,
            Some(json!({})),
        )
        .await;
        let until = domain::types::format_rfc3339(
            time::OffsetDateTime::now_utc() + time::Duration::hours(1),
        );
        b.route(
            "PUT /api/hospital/diversion",
            S::OK,
            M::PUT,
            "/api/hospital/diversion",
            staff,
            Some(json!({ "until": until })),
        )
        .await;
        b.route(
            "DELETE /api/hospital/diversion",
            S::OK,
            M::DELETE,
            "/api/hospital/diversion",
            staff,
            None,
        )
        .await;
        b.route(
            "PATCH /api/crew/job/stage COMPLETED",
            S::OK,
            M::PATCH,
            "/api/crew/job/stage",
            crew,
            Some(json!({"bookingId": eid, "stage": "COMPLETED"})),
        )
        .await;
        // Its bookings ended, the fresh user takes their data and deletes the account
        // (decision 0022): the password checked, one transaction, the devices.
        b.route(
            "GET /api/user/export",
            S::OK,
            M::GET,
            "/api/user/export",
            fresh_user,
            None,
        )
        .await;
        b.route(
            "DELETE /api/user/account",
            S::NO_CONTENT,
            M::DELETE,
            "/api/user/account",
            fresh_user,
            Some(json!({ "password": BENCH_PASSWORD })),
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
        // The response-time report's default 12 weeks (one Query of its days).
        b.route(
            "GET /api/admin/reports/response-times",
            S::OK,
            M::GET,
            "/api/admin/reports/response-times",
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
        "  {:<38} {:>8} {:>8} {:>11} {:>11} {:>11} {:>9} {:>7} {:>7}  goal: p95 <= 3x GetItem p95",
        "route",
        "p50 ms",
        "p95 ms",
        "p50/GetItem",
        "p95/GetItem",
        "p95/TxWrite",
        "DB calls",
        "RCU",
        "WCU"
    );
    let mut met = 0;
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
        // Mean units a request (DynamoDB Local's ConsumedCapacity).
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
        println!(
            "  {:<38} {:>8.2} {:>8.2} {:>10.1}x {:>10.1}x {:>10.1}x {:>9} {:>7.2} {:>7.2}  {}",
            label,
            p50,
            p95,
            p50 / get_p50,
            ratio,
            p95 / tx_p95,
            calls,
            mean(&s.rcu),
            mean(&s.wcu),
            if ok { "met" } else { "not met" }
        );
    }
    println!("  goal met by {met} of {} routes", bench.routes.len());
    bench.fixture.drop_table().await;
}
