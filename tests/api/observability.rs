//! What an on-call engineer reads (docs/operations.md): every request's log line
//! names its request id, route, method, status, latency, caller role and booking,
//! and no line ever holds a password, a token, a phone, an email, a push endpoint or
//! key, or a patient's details; one emergency dispatch writes its CloudWatch
//! Embedded Metric Format line.

use std::collections::BTreeMap;

use http::{Method, StatusCode};
use serde_json::{Value, json};
use telemetry::metrics;
use testkit::{
    TestResponse,
    push_service::{PushService, vapid},
};

use crate::emergency::{PICKUP, World, pickup_body};

/// The log line of the request `res` answered (by its `x-request-id`).
fn line_of<'a>(lines: &'a [Value], res: &TestResponse) -> &'a Value {
    let id = res.headers["x-request-id"].to_str().unwrap();
    let of_request: Vec<&Value> = lines
        .iter()
        .filter(|l| l["fields"]["message"] == "request" && l["span"]["request_id"] == id)
        .collect();
    assert_eq!(
        of_request.len(),
        1,
        "{}: one request line, got {of_request:?}",
        res.request
    );
    of_request[0]
}

/// Every string and number anywhere in a JSON value.
fn leaves(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => m.values().for_each(|v| leaves(v, out)),
        Value::Array(a) => a.iter().for_each(|v| leaves(v, out)),
        Value::String(s) => out.push(s.clone()),
        Value::Number(n) => out.push(n.to_string()),
        _ => {}
    }
}

#[tokio::test]
async fn log_lines_name_the_request_and_never_what_it_carried() {
    let logs = testkit::capture_process_logs();
    let (w, _) = World::with_one_ambulance("OBS-1").await;
    let app = &w.app;
    let service = PushService::start(&vapid().public_key).await;
    let device = service.device();

    let password = "Quartz-Lantern-8842";
    let wrong_password = "Wrong-Lantern-5513";
    let new_password = "Copper-Meadow-3907";
    let phone = "+15557319264";
    let email = "zorya.obs@example.org";
    let new_email = "zorya.obs2@example.org";
    let bad_phone = "+1555-NOT-A-PHONE-6604";
    let (patient_name, patient_age, notes) =
        ("Ottoline Vashti", 97, "Pacemaker; allergic to latex");

    let mut answers: Vec<(TestResponse, &str, &str, Option<String>)> = Vec::new();
    let register = |phone: &str| {
        json!({"username": "zorya", "email": email, "password": password, "phone": phone,
               "latitude": PICKUP.lat, "longitude": PICKUP.lng})
    };
    // Bad input is a 400 and logs the field's name at most, never its value.
    let res = app
        .post("/api/auth/register", None, register(bad_phone))
        .await;
    res.assert_field(StatusCode::BAD_REQUEST, "phone");
    answers.push((res, "/api/auth/register", "public", None));
    let res = app.post("/api/auth/register", None, register(phone)).await;
    res.assert_status(StatusCode::CREATED);
    answers.push((res, "/api/auth/register", "public", None));

    let res = app
        .login(json!({"username": "zorya", "password": wrong_password}))
        .await;
    res.assert_status(StatusCode::UNAUTHORIZED);
    answers.push((res, "/api/auth/login", "public", None));
    let res = app
        .login(json!({"username": "zorya", "password": password}))
        .await;
    res.assert_status(StatusCode::OK);
    let first = res.body.clone();
    answers.push((res, "/api/auth/login", "public", None));
    let res = app
        .post(
            "/api/auth/refresh",
            None,
            json!({"refreshToken": first["refreshToken"]}),
        )
        .await;
    res.assert_status(StatusCode::OK);
    let session = res.body.clone();
    answers.push((res, "/api/auth/refresh", "public", None));
    let token = session["token"].as_str().unwrap();

    let res = app
        .put("/api/push/subscription", Some(token), device.subscription())
        .await;
    res.assert_status(StatusCode::NO_CONTENT);
    answers.push((res, "/api/push/subscription", "user", None));

    let res = app
        .post("/api/booking/emergency", Some(token), pickup_body())
        .await;
    res.assert_status(StatusCode::CREATED);
    let booking = res.body["id"].to_string();
    answers.push((res, "/api/booking/emergency", "user", Some(booking.clone())));
    let res = app
        .call(
            Method::PATCH,
            &format!("/api/booking/{booking}/patient"),
            Some(token),
            Some(
                json!({"name": patient_name, "age": patient_age, "gender": "Female",
                        "condition": notes}),
            ),
        )
        .await;
    res.assert_status(StatusCode::OK);
    answers.push((
        res,
        "/api/booking/{id}/patient",
        "user",
        Some(booking.clone()),
    ));
    let res = app
        .get(&format!("/api/booking/{booking}/track"), Some(token))
        .await;
    res.assert_status(StatusCode::OK);
    answers.push((
        res,
        "/api/booking/{id}/track",
        "user",
        Some(booking.clone()),
    ));
    // An id that is not a number is no booking id: not logged as one.
    let res = app.get(&format!("/api/booking/{email}"), Some(token)).await;
    res.assert_status(StatusCode::BAD_REQUEST);
    answers.push((res, "/api/booking/{id}", "user", None));

    let res = app.get("/api/admin/alerts", Some(&w.admin.token)).await;
    res.assert_status(StatusCode::OK);
    answers.push((res, "/api/admin/alerts", "admin", None));
    let res = app.get("/api/hospitals/all?page=0&size=5", None).await;
    res.assert_status(StatusCode::OK);
    answers.push((res, "/api/hospitals/all", "public", None));

    let res = app
        .put(
            "/api/user/profile",
            Some(token),
            json!({"email": new_email, "password": new_password, "currentPassword": password}),
        )
        .await;
    res.assert_status(StatusCode::OK);
    answers.push((res, "/api/user/profile", "user", None));

    let text = logs.text();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();

    // What the on-call engineer filters by, on every request's line.
    for (res, route, role, booking) in &answers {
        let line = line_of(&lines, res);
        let span = &line["span"];
        assert_eq!(span["route"], *route, "{}: {line}", res.request);
        assert_eq!(
            span["method"],
            res.request.split(' ').next().unwrap(),
            "{line}"
        );
        assert_eq!(line["fields"]["status"], res.status.as_u16(), "{line}");
        let latency = line["fields"]["latency_ms"].as_f64();
        assert!(latency.is_some_and(|ms| ms >= 0.0), "{line}");
        assert_eq!(span["role"], *role, "{}: {line}", res.request);
        assert_eq!(
            span.get("booking_id").and_then(Value::as_str),
            booking.as_deref(),
            "{}: {line}",
            res.request
        );
    }

    // What no line may hold, anywhere.
    let mut secrets: BTreeMap<&str, String> = BTreeMap::new();
    for (what, value) in [
        ("password", password),
        ("wrong password", wrong_password),
        ("new password", new_password),
        ("phone", phone),
        ("phone digits", "5557319264"),
        ("bad phone", bad_phone),
        ("email", email),
        ("new email", new_email),
        ("push endpoint", &device.endpoint),
        ("push p256dh", &device.p256dh),
        ("push auth", &device.auth),
        ("patient name", patient_name),
        ("patient notes", notes),
    ] {
        secrets.insert(what, value.to_owned());
    }
    for (what, session) in [("first", &first), ("renewed", &session)] {
        for key in ["token", "refreshToken"] {
            let value = session[key].as_str().unwrap().to_owned();
            // A JWT's signature alone is as good as the token to a thief.
            if let Some((_, signature)) = value.rsplit_once('.') {
                secrets.insert(
                    leak(format!("{what} {key} signature")),
                    signature.to_owned(),
                );
            }
            secrets.insert(leak(format!("{what} {key}")), value);
        }
    }
    assert!(lines.len() >= answers.len(), "{text}");
    for (what, value) in &secrets {
        assert!(
            !text.contains(value.as_str()),
            "the logs hold the {what}:\n{text}"
        );
    }
    // The age is a number: no value of any line may be it.
    for line in &lines {
        let mut values = Vec::new();
        leaves(line, &mut values);
        assert!(
            !values.contains(&patient_age.to_string()),
            "a log line holds the patient's age: {line}"
        );
    }
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// The EMF line of a request: parsed, with its metric named `metric`.
fn emf_of<'a>(lines: &'a [Value], metric: &str) -> &'a Value {
    let found: Vec<&Value> = lines.iter().filter(|l| l.get(metric).is_some()).collect();
    assert_eq!(found.len(), 1, "one {metric} line: {lines:?}");
    found[0]
}

#[tokio::test]
async fn an_emergency_dispatch_writes_its_metrics_in_embedded_metric_format() {
    let (w, _) = World::with_one_ambulance("EMF-1").await;
    let first = w.app.user("emf1").await;
    let second = w.app.user("emf2").await;
    let before = time::OffsetDateTime::now_utc().unix_timestamp() * 1000;

    let (res, lines) = metrics::capture(w.app.post(
        "/api/booking/emergency",
        Some(&first.token),
        pickup_body(),
    ))
    .await;
    res.assert_status(StatusCode::CREATED);
    let lines: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let line = emf_of(&lines, "EmergencyDispatches");
    let spec = &line["_aws"]["CloudWatchMetrics"][0];
    assert_eq!(spec["Namespace"], "Ambulance", "{line}");
    assert_eq!(
        spec["Dimensions"],
        json!([["Function", "Outcome"]]),
        "{line}"
    );
    assert_eq!(
        spec["Metrics"],
        json!([
            {"Name": "EmergencyDispatches", "Unit": "Count"},
            {"Name": "EmergencyDispatchLatency", "Unit": "Milliseconds"}
        ]),
        "{line}"
    );
    // Every dimension and metric the spec names is a member of the line itself.
    assert_eq!(line["Function"], "booking");
    assert_eq!(line["Outcome"], "dispatched");
    assert_eq!(line["EmergencyDispatches"], 1.0);
    let ms = line["EmergencyDispatchLatency"].as_f64().unwrap();
    assert!(ms > 0.0 && ms < 30_000.0, "{line}");
    let stamp = line["_aws"]["Timestamp"].as_i64().unwrap();
    assert!(stamp >= before && stamp <= before + 60_000, "{line}");
    assert_eq!(
        line["requestId"],
        res.headers["x-request-id"].to_str().unwrap(),
        "{line}"
    );

    // The one ambulance is taken: the next emergency is refused, and counted so.
    let (res, lines) = metrics::capture(w.app.post(
        "/api/booking/emergency",
        Some(&second.token),
        pickup_body(),
    ))
    .await;
    res.assert_status(StatusCode::CONFLICT);
    let lines: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let line = emf_of(&lines, "EmergencyDispatches");
    assert_eq!(line["Outcome"], "noAmbulance", "{line}");
    assert_eq!(line["EmergencyDispatches"], 1.0);
}

#[tokio::test]
async fn each_sweep_of_the_clock_writes_the_age_of_the_oldest_unanswered_alert() {
    let w = World::new().await;
    let hospital = w.hospital("Near", crate::emergency::north(1.0)).await;
    let ambulance = w.ambulance(&hospital, "CLK-1", "BLS").await;
    let user = w.app.user("clk").await;
    w.app
        .book(
            Some(&user.token),
            json!({"hospitalId": hospital["id"], "ambulanceId": ambulance["id"],
                   "patient": {"name": "P", "age": 40, "gender": "Male", "condition": "checkup"}}),
        )
        .await
        .assert_status(StatusCode::CREATED);
    let sweep = async || {
        let (report, lines) = metrics::capture(w.sweep()).await;
        assert_eq!(lines.len(), 1, "one line a sweep: {lines:?}");
        let line: Value = serde_json::from_str(&lines[0]).unwrap();
        (report, line)
    };
    // Nothing open yet: the age is 0, written all the same (no gaps for the alarm).
    let (_, line) = sweep().await;
    assert_eq!(line["OldestUnansweredAlertAge"], 0.0, "{line}");
    // Past the normal booking's five minutes: alerted.
    w.later(time::Duration::seconds(301));
    let (report, line) = sweep().await;
    assert_eq!(report.alerted, 1, "{report:?}");
    let spec = &line["_aws"]["CloudWatchMetrics"][0];
    assert_eq!(spec["Dimensions"], json!([["Function"]]), "{line}");
    assert_eq!(
        spec["Metrics"],
        json!([
            {"Name": "DeadlineMoves", "Unit": "Count"},
            {"Name": "DeadlineAlerts", "Unit": "Count"},
            {"Name": "DeadlineFailures", "Unit": "Count"},
            {"Name": "OldestUnansweredAlertAge", "Unit": "Seconds"}
        ]),
        "{line}"
    );
    assert_eq!(line["Function"], "clock");
    assert_eq!(line["DeadlineAlerts"], 1.0, "{line}");
    assert_eq!(line["DeadlineMoves"], 0.0, "{line}");
    // Two and a half minutes later nobody has acknowledged it: its age is the alarm's.
    w.later(time::Duration::seconds(150));
    let (_, line) = sweep().await;
    let age = line["OldestUnansweredAlertAge"].as_f64().unwrap();
    assert!((150.0..170.0).contains(&age), "{line}");
    assert_eq!(line["DeadlineAlerts"], 0.0, "{line}");
}
