//! Least privilege, from what the functions really call. While any test's request is
//! served, `testkit` records its DynamoDB calls and refuses one template.yaml
//! does not grant the serving function (a grant too few fails the test that needs
//! it). Here, a tour of every function's routes, down the paths that need each
//! action (a failed login, an email change, a booking with an idempotency key, a
//! hospital removal...), must use every DynamoDB grant the template gives: a grant
//! too many fails this test. Each function may also read the JWT and origin secrets, nothing else.
//! With the `RestoredTableName` parameter set (docs/operations.md, the restore drill)
//! every grant, and every other use of the table, must move to the restored table.

use domain::geo::Point;
use std::collections::{BTreeMap, BTreeSet};

use http::{Method, StatusCode};
use serde_json::{Value, json};
use testkit::{
    TEST_PASSWORD, TestApp, TestUser,
    iam::{self, Grant, Side},
    push_service::{PushService, vapid},
};

use crate::helpers::crew_steps_to_completion;

/// Requests that together make every call the functions need.
async fn tour(app: &TestApp) {
    let admin = app.admin().await;
    let user = app.user("tourist").await;
    let (admin, user) = (Some(admin.token.as_str()), Some(user.token.as_str()));
    let call = async |method: Method, uri: &str, token: Option<&str>, body: Option<Value>| {
        let res = app.call(method.clone(), uri, token, body).await;
        assert!(
            res.status.is_success(),
            "{method} {uri}: {} {:?}",
            res.status,
            res.body
        );
        res.body
    };
    // Searches before any hospital write: the table has no in-memory index yet, so
    // the H3 `geo` index answers (the first hospital add builds the other); the
    // live map reads its own indexes (`fleet`, `openmap`).
    call(
        Method::GET,
        "/api/hospitals/nearest?lat=30&lng=74",
        None,
        None,
    )
    .await;
    // An emergency then finds no hospital to send to nor to call (the booking
    // function's hospital search on the `geo` index) and no free ambulance.
    let lonely = app.user("lonely").await;
    let res = app
        .post(
            "/api/booking/emergency",
            Some(&lonely.token),
            json!({"pickup": {"latitude": 30.0, "longitude": 74.0}}),
        )
        .await;
    res.assert_status(StatusCode::CONFLICT);
    call(Method::GET, "/api/admin/live?bbox=29,73,31,75", admin, None).await;
    let report = "/api/admin/reports/response-times?from=2026-01-01&to=2026-12-31";
    call(Method::GET, report, admin, None).await;
    let add_hospital = json!({"name": "Tour", "address": "A", "latitude": 30.0, "longitude": 74.0});
    let h = call(
        Method::POST,
        "/api/admin/hospitals/add",
        admin,
        Some(add_hospital.clone()),
    )
    .await;
    let gone = call(
        Method::POST,
        "/api/admin/hospitals/add",
        admin,
        Some(add_hospital),
    )
    .await;
    let mut ambulances = vec![];
    for (i, hospital) in [&h, &h, &h, &gone].iter().enumerate() {
        let body = json!({"number": format!("T-{i}"), "status": "AVAILABLE", "hospital": {"id": hospital["id"]}});
        ambulances.push(
            call(Method::POST, "/api/admin/ambulances/add", admin, Some(body)).await["id"].clone(),
        );
    }
    let (h, gone) = (&h["id"], &gone["id"]);

    // auth: register; a failed login (starts a throttle window); a login (clears it).
    let walker = json!({"username": "walker", "email": "walker@example.com", "password": TEST_PASSWORD,
        "phone": "+15550001111", "latitude": 30.0, "longitude": 74.0});
    call(Method::POST, "/api/auth/register", None, Some(walker)).await;
    let wrong = app
        .login(json!({"username": "walker", "password": "wrong-password"}))
        .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    let login = json!({"username": "walker", "password": TEST_PASSWORD});
    let session = call(Method::POST, "/api/auth/login", None, Some(login.clone())).await;

    // push: the key; a device subscribed, another removed; then the session's
    // sign-out (auth) and a new password (user) end the devices left.
    let push = PushService::start(&vapid().public_key).await;
    let walker_token = session["token"].as_str();
    call(Method::GET, "/api/push/key", None, None).await;
    let (kept, removed) = (push.device(), push.device());
    for d in [&kept, &removed] {
        app.put("/api/push/subscription", walker_token, d.subscription())
            .await
            .assert_status(StatusCode::NO_CONTENT);
    }
    let unsubscribe = json!({"endpoint": removed.endpoint});
    app.call(
        Method::DELETE,
        "/api/push/subscription",
        walker_token,
        Some(unsubscribe),
    )
    .await
    .assert_status(StatusCode::NO_CONTENT);
    let logout = json!({"refreshToken": session["refreshToken"]});
    app.post("/api/auth/logout", None, logout)
        .await
        .assert_status(StatusCode::NO_CONTENT);
    let again = call(Method::POST, "/api/auth/login", None, Some(login)).await;
    app.put(
        "/api/push/subscription",
        again["token"].as_str(),
        kept.subscription(),
    )
    .await
    .assert_status(StatusCode::NO_CONTENT);
    let new_password = json!({"email": "walker@example.com", "password": "walker-new-pass-1",
        "currentPassword": TEST_PASSWORD});
    call(
        Method::PUT,
        "/api/user/profile",
        again["token"].as_str(),
        Some(new_password),
    )
    .await;

    // user: read; edit keeping the email (one UpdateItem); a new email (transaction).
    call(Method::GET, "/api/user/profile", user, None).await;
    for email in ["tourist@example.com", "moved@example.com"] {
        call(
            Method::PUT,
            "/api/user/profile",
            user,
            Some(json!({"email": email})),
        )
        .await;
    }

    // hospitals and ambulances: every read.
    for uri in [
        "/api/hospitals/all".to_owned(),
        format!("/api/hospitals/{h}"),
        "/api/hospitals/nearest?lat=30&lng=74".to_owned(),
        format!("/api/ambulances/available?hospitalId={h}"),
        "/api/ambulances/available/all".to_owned(),
        format!("/api/ambulances/hospital/{h}"),
        "/api/ambulances/counts".to_owned(),
    ] {
        call(Method::GET, &uri, None, None).await;
    }

    // booking: book (with an idempotency key), history, one, cancel.
    let book = |amb: &Value| {
        json!({"hospitalId": h, "ambulanceId": amb,
        "patient": {"name": "P", "age": 40, "gender": "Male", "condition": "c"}})
    };
    let request = http::Request::builder()
        .method(Method::POST)
        .uri("/api/booking/book")
        .header(
            "authorization",
            format!("Bearer {}", user.unwrap_or_default()),
        )
        .header("content-type", "application/json")
        .header("idempotency-key", "tour-1")
        .body(lambda_http::Body::from(book(&ambulances[0]).to_string()))
        .unwrap();
    let booked = app.send(request).await;
    booked.assert_status(StatusCode::CREATED);
    let id = &booked.body["id"];
    call(Method::GET, "/api/booking/history", user, None).await;
    call(Method::GET, &format!("/api/booking/{id}"), user, None).await;
    call(
        Method::PATCH,
        &format!("/api/booking/cancel?bookingId={id}"),
        user,
        None,
    )
    .await;

    // One tap: the nearest free ambulance (ranked at its hospital: the position
    // check), the patient details, a link made, opened and revoked, and cancelled
    // (the user's open-emergency guard deleted).
    // (On a new instance of the booking function: it loads the hospital index.)
    let tap = json!({"pickup": {"latitude": 30.0, "longitude": 74.0}});
    let fresh = app.new_instance(api_tests::system);
    let tapped = fresh.post("/api/booking/emergency", user, tap).await;
    tapped.assert_status(StatusCode::CREATED);
    let tapped = &tapped.body["id"];
    let patient = json!({"name": "P", "age": 40, "gender": "Male", "condition": "c"});
    let patient_uri = format!("/api/booking/{tapped}/patient");
    call(Method::PATCH, &patient_uri, user, Some(patient)).await;
    let share_uri = format!("/api/booking/{tapped}/share");
    let link = call(Method::POST, &share_uri, user, None).await;
    let shared_uri = format!("/api/booking/shared/{}", link["token"].as_str().unwrap());
    call(Method::GET, &shared_uri, None, None).await;
    app.delete(&share_uri, user).await;
    let cancel_tap = format!("/api/booking/cancel?bookingId={tapped}");
    call(Method::PATCH, &cancel_tap, user, None).await;

    // crew: the job, each stage to COMPLETED (frees the ambulance: its free entry is
    // put), a position while free (the free entry moves), out of service and back.
    let crewed_amb = domain::types::Id::try_from(ambulances[1].as_u64().unwrap()).unwrap();
    let crew = app.crew("tourcrew", crewed_amb).await;
    let crew_token = Some(crew.token.as_str());
    let crewed = call(
        Method::POST,
        "/api/booking/book",
        user,
        Some(book(&ambulances[1])),
    )
    .await;
    call(
        Method::GET,
        &format!("/api/booking/{}/track", crewed["id"]),
        user,
        None,
    )
    .await;
    call(Method::GET, "/api/crew/me", crew_token, None).await;
    for stage in crew_steps_to_completion() {
        let body = json!({"bookingId": crewed["id"], "stage": stage});
        call(Method::PATCH, "/api/crew/job/stage", crew_token, Some(body)).await;
    }
    let now = domain::types::now_rfc3339();
    let position = json!({"latitude": 30.01, "longitude": 74.01, "recordedAt": now});
    call(
        Method::PUT,
        "/api/crew/location",
        crew_token,
        Some(position),
    )
    .await;
    for status in ["MAINTENANCE", "AVAILABLE"] {
        let body = json!({"status": status});
        call(Method::PATCH, "/api/crew/status", crew_token, Some(body)).await;
    }
    // The crew app's heartbeat and sign-out; a signed-in caller's fleet lists, whose
    // crewed ambulance's presence is read (decision 0020).
    app.call(Method::PUT, "/api/crew/presence", crew_token, None)
        .await
        .assert_status(StatusCode::NO_CONTENT);
    for uri in [
        format!("/api/ambulances/available?hospitalId={h}"),
        format!("/api/ambulances/hospital/{h}"),
    ] {
        call(Method::GET, &uri, user, None).await;
    }
    app.call(Method::DELETE, "/api/crew/presence", crew_token, None)
        .await
        .assert_status(StatusCode::NO_CONTENT);

    // The receiving hospital (docs/decisions/0026-receiving-hospital.md): a staff
    // account made by the admin signs in; a trip to its hospital goes on diversion
    // before the pickup (the crew is offered another: the `geo` index), keeps its
    // destination, arrives with a position on the way (the board's BatchGetItem),
    // is handed over and completed; the hospital opens again.
    call(
        Method::POST,
        "/api/admin/hospital-staff",
        admin,
        Some(
            json!({"username": "tourstaff", "email": "tourstaff@example.com",
            "password": TEST_PASSWORD, "phoneNumber": "+919800011112", "hospitalId": h}),
        ),
    )
    .await;
    let staff = call(
        Method::POST,
        "/api/auth/login",
        None,
        Some(json!({"username": "tourstaff", "password": TEST_PASSWORD})),
    )
    .await;
    let staff_token = staff["token"].as_str();
    let received = call(
        Method::POST,
        "/api/booking/book",
        user,
        Some(book(&ambulances[1])),
    )
    .await;
    let step = async |stage: &str| {
        let body = json!({"bookingId": received["id"], "stage": stage});
        call(Method::PATCH, "/api/crew/job/stage", crew_token, Some(body)).await;
    };
    step("EN_ROUTE").await;
    let until = time::OffsetDateTime::now_utc() + time::Duration::hours(1);
    let until = json!({"until": domain::types::format_rfc3339(until)});
    call(
        Method::PUT,
        "/api/hospital/diversion",
        staff_token,
        Some(until),
    )
    .await;
    call(Method::GET, "/api/crew/me", crew_token, None).await;
    let keep = json!({"bookingId": received["id"], "hospitalId": h});
    call(
        Method::PATCH,
        "/api/crew/job/destination",
        crew_token,
        Some(keep),
    )
    .await;
    step("AT_PICKUP").await;
    step("TO_HOSPITAL").await;
    let position = json!({"latitude": 30.02, "longitude": 74.02,
        "recordedAt": domain::types::now_rfc3339()});
    app.call(
        Method::PUT,
        "/api/crew/location",
        crew_token,
        Some(position),
    )
    .await;
    call(Method::GET, "/api/hospital/incoming", staff_token, None).await;
    step("AT_HOSPITAL").await;
    let handover = format!("/api/hospital/bookings/{}/handover", received["id"]);
    call(Method::POST, &handover, staff_token, None).await;
    step("COMPLETED").await;
    call(Method::DELETE, "/api/hospital/diversion", staff_token, None).await;

    // admin: the fleet, the bookings, the dashboard, crew accounts, the live map,
    // removals.
    let made = call(
        Method::POST,
        "/api/admin/crew",
        admin,
        Some(json!({"username": "tourcrew2", "email": "tourcrew2@example.com",
            "password": TEST_PASSWORD, "phoneNumber": "+919800011111", "ambulanceId": ambulances[1]})),
    )
    .await;
    call(Method::GET, "/api/admin/crew", admin, None).await;
    call(
        Method::GET,
        &format!("/api/admin/crew?ambulanceId={}", ambulances[1]),
        admin,
        None,
    )
    .await;
    let move_to = json!({"ambulanceId": ambulances[0]});
    call(
        Method::PATCH,
        &format!("/api/admin/crew/{}", made["id"]),
        admin,
        Some(move_to),
    )
    .await;
    call(
        Method::DELETE,
        &format!("/api/admin/crew/{}", made["id"]),
        admin,
        None,
    )
    .await;
    call(
        Method::GET,
        "/api/admin/live?bbox=29.5,73.5,30.5,74.5",
        admin,
        None,
    )
    .await;
    // The reassign's choice: the admin function's Query on `freegeo`.
    let near = call(
        Method::GET,
        "/api/admin/ambulances/free-near?lat=30&lng=74",
        admin,
        None,
    )
    .await;
    assert!(!near.as_array().unwrap().is_empty(), "{near}");
    let pending = call(
        Method::POST,
        "/api/booking/book",
        user,
        Some(book(&ambulances[1])),
    )
    .await;
    for uri in [
        "/api/admin/ambulances/all".to_owned(),
        "/api/admin/bookings/all/paged".to_owned(),
        "/api/admin/stats".to_owned(),
    ] {
        call(Method::GET, &uri, admin, None).await;
    }
    for (method, uri) in [
        (
            Method::PATCH,
            format!(
                "/api/admin/bookings/status?bookingId={}&status=ACTIVE",
                pending["id"]
            ),
        ),
        (
            Method::PATCH,
            format!(
                "/api/admin/ambulance/status?ambulanceId={}&status=MAINTENANCE",
                ambulances[2]
            ),
        ),
        (
            Method::DELETE,
            format!("/api/admin/ambulances/remove?ambulanceId={}", ambulances[2]),
        ),
        (
            Method::DELETE,
            format!("/api/admin/hospitals/remove?hospitalId={gone}"),
        ),
    ] {
        call(method, &uri, admin, None).await;
    }
}

/// An emergency nobody answers, far from the tour's hospitals, and the clock's sweep
/// that moves it (the next nearest ambulance ranked at its hospital: the position
/// check) and raises the alert.
async fn clock_tour(app: &TestApp) -> TestUser {
    use domain::ambulance::AmbulanceStatus;
    let h = app.seed_hospital("Clockwork", Point::new(10.0, 10.0)).await;
    for n in ["CLK-1", "CLK-2"] {
        app.seed_ambulance(h.id, n, AmbulanceStatus::Available)
            .await;
    }
    let late = app.user("late").await;
    app.post(
        "/api/booking/emergency",
        Some(&late.token),
        json!({"pickup": {"latitude": 10.001, "longitude": 10.0}}),
    )
    .await
    .assert_status(StatusCode::CREATED);
    app.state.store.advance_clock(time::Duration::seconds(61));
    let report = app
        .run_as("clock", clock::sweep(&app.state.store))
        .await
        .unwrap();
    assert_eq!(report.moved, 1, "{report:?}");
    // The trips the tours ended, folded into the response-time report.
    let folded = app
        .run_as("clock", clock::fold(&app.state.store))
        .await
        .unwrap();
    assert!(folded.folded > 0 && folded.failed == 0, "{folded:?}");
    late
}

/// notify over every record the tours wrote (read from the table's stream), then
/// over the deliveries they enqueued: the clock's move tells two crews, the
/// requester and the admins; the requester's device is gone (410), so notify
/// deletes it.
async fn notify_tour(app: &TestApp, requester: &TestUser) {
    let push = PushService::start(&vapid().public_key).await;
    let device = push.device();
    push.answer(&device, StatusCode::GONE);
    app.put(
        "/api/push/subscription",
        Some(&requester.token),
        device.subscription(),
    )
    .await
    .assert_status(StatusCode::NO_CONTENT);
    let records = notify::poll::LocalStreams::new(&testkit::endpoint())
        .records(&app.state.store)
        .await
        .unwrap();
    let notifier = crate::push::notifier(&app.state.store).await;
    app.run_as("notify", async {
        for record in &records {
            notifier.record(record).await.unwrap();
        }
        for delivery in notifier.queue.take_all().await.unwrap() {
            notifier.deliver(&delivery).await.unwrap();
        }
    })
    .await;
    // DISPATCHED, the minute's "no crew has accepted yet" (the UNANSWERED raised
    // while the move goes on, decision 0020) and REASSIGNED were all enqueued before
    // the first was answered 410.
    assert_eq!(push.attempts(&device), 3);
    assert!(
        app.state
            .store
            .push()
            .devices(requester.id)
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn each_function_is_granted_exactly_the_dynamodb_calls_it_makes() {
    let app = TestApp::with_state(testkit::streamed_state().await, api_tests::system);
    tour(&app).await;
    privacy_tour(&app).await;
    let called = app.dynamodb_calls();
    let template = iam::template();
    let secret: BTreeSet<Grant> = [
        ("secretsmanager:GetSecretValue".into(), "JwtSecret".into()),
        (
            "secretsmanager:GetSecretValue".into(),
            "OriginSecret".into(),
        ),
    ]
    .into();
    let mut problems = vec![];
    for (function, ..) in api_tests::FUNCTIONS {
        let Some(f) = template.functions.get(function) else {
            problems.push(format!(
                "functions/{function}: no function in template.yaml builds it"
            ));
            continue;
        };
        problems.extend(f.problems.iter().map(|p| format!("{}: {p}", f.logical_id)));
        let calls = called.get(function).cloned().unwrap_or_default();
        problems.extend(iam::compare(function, &f.grants, &calls));
        let others: BTreeSet<Grant> = f
            .grants
            .iter()
            .filter(|g| !g.0.starts_with("dynamodb:"))
            .cloned()
            .collect();
        if others != secret {
            problems.push(format!(
                "{}: grants other than DynamoDB must be exactly secretsmanager:GetSecretValue on JwtSecret and OriginSecret, found {others:?}",
                f.logical_id
            ));
        }
    }
    // The clock: no secret, and every DynamoDB grant used by one sweep that moves a
    // job (clock_tour).
    let late = clock_tour(&app).await;
    privacy_clock_tour(&app).await;
    // notify: the DynamoDB calls of every kind of message, and the VAPID key alone.
    notify_tour(&app, &late).await;
    let called = app.dynamodb_calls();
    for function in api_tests::BACKGROUND {
        let f = &template.functions[function];
        problems.extend(f.problems.iter().map(|p| format!("{}: {p}", f.logical_id)));
        let calls = called.get(function).cloned().unwrap_or_default();
        problems.extend(iam::compare(function, &f.grants, &calls));
        let secrets: BTreeSet<&Grant> = f
            .grants
            .iter()
            .filter(|g| !g.0.starts_with("dynamodb:"))
            .collect();
        let grant = |action: &str, on: &str| (action.to_owned(), on.to_owned());
        // notify: its VAPID key, and its own deliveries queue (decision 0019): send,
        // and what the queue's event source mapping polls with as its role.
        let notify: Vec<Grant> = [
            grant("secretsmanager:GetSecretValue", "VapidPrivateKeyArn"),
            grant("sqs:SendMessage", "DeliveriesQueue"),
            grant("sqs:ReceiveMessage", "DeliveriesQueue"),
            grant("sqs:DeleteMessage", "DeliveriesQueue"),
            grant("sqs:GetQueueAttributes", "DeliveriesQueue"),
        ]
        .into();
        let expected: BTreeSet<&Grant> = match function {
            "notify" => notify.iter().collect(),
            _ => BTreeSet::new(),
        };
        if secrets != expected {
            problems.push(format!(
                "{}: a background function reads no secret but notify's VAPID key, and reaches no queue but notify its deliveries queue; found {secrets:?}",
                f.logical_id
            ));
        }
    }
    // Shown with --nocapture: what the functions called.
    for (function, calls) in &called {
        let calls: Vec<String> = calls.iter().map(|(a, r)| format!("{a}@{r}")).collect();
        println!("{function}: {}", calls.join(" "));
    }
    assert!(
        problems.is_empty(),
        "template.yaml's policies differ from the calls:\n{}",
        problems.join("\n")
    );
}

// The recorder's own parts (testkit::iam), tested here: testkit has no test harness.
#[test]
fn a_grant_too_few_or_too_many_is_named() {
    let g = |a: &str, r: &str| (format!("dynamodb:{a}"), r.to_owned());
    let granted = BTreeSet::from([
        g("GetItem", "Table"),
        g("Query", "Table/index/gsi1"),
        ("secretsmanager:GetSecretValue".into(), "JwtSecret".into()),
    ]);
    let called = BTreeSet::from([g("GetItem", "Table"), g("Query", "Table/index/gsi1")]);
    assert!(iam::compare("f", &granted, &called).is_empty());
    let mut more = called.clone();
    more.insert(g("PutItem", "Table"));
    assert_eq!(
        iam::compare("f", &granted, &more),
        ["functions/f: MISSING dynamodb:PutItem on Table (the code calls it)"]
    );
    let fewer = BTreeSet::from([g("GetItem", "Table")]);
    assert_eq!(
        iam::compare("f", &granted, &fewer),
        [
            "functions/f: EXTRA dynamodb:Query on Table/index/gsi1 (granted, but no request called it)"
        ]
    );
}

#[test]
fn the_template_parses_with_its_tags() {
    let t = iam::template();
    let booking = &t.functions["booking"];
    assert!(
        booking
            .grants
            .contains(&("dynamodb:Query".to_owned(), "Table/index/gsi1".to_owned()))
    );
    assert!(booking.paths.contains("/api/booking/{proxy+}"));
    assert!(booking.restored_grants.contains(&(
        "dynamodb:Query".to_owned(),
        "RestoredTable/index/gsi1".to_owned()
    )));
    assert_eq!(t.functions.len(), 11);
}

/// A function's grants with `RestoredTableName` set must be its grants on `Table`,
/// action for action, on the restored table and its indexes: a policy that still
/// names `Table` then (or names the restored table in one statement only) is named.
fn grants_that_do_not_switch(template: &iam::Template) -> Vec<String> {
    let on_restored = |resource: &str| match resource.strip_prefix("Table") {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => format!("RestoredTable{rest}"),
        _ => resource.to_owned(),
    };
    let mut problems = vec![];
    for (function, f) in &template.functions {
        let id = &f.logical_id;
        let expected: BTreeSet<Grant> = f
            .grants
            .iter()
            .map(|(action, resource)| (action.clone(), on_restored(resource)))
            .collect();
        for (action, resource) in expected.difference(&f.restored_grants) {
            problems.push(format!(
                "{id} (functions/{function}): with RestoredTableName set it lacks {action} on {resource} (its grant on the stack's table does not switch)"
            ));
        }
        for (action, resource) in f.restored_grants.difference(&expected) {
            problems.push(format!(
                "{id} (functions/{function}): with RestoredTableName set it has {action} on {resource}, which is not its grant on the stack's table moved over"
            ));
        }
        for (action, resource) in &f.grants {
            if resource.starts_with("RestoredTable") {
                problems.push(format!(
                    "{id} (functions/{function}): with RestoredTableName empty it has {action} on {resource}"
                ));
            }
        }
    }
    problems
}

/// The output that names the stack's own table on purpose, whatever the parameter.
const KEPT_TABLE_OUTPUT: &str = "Outputs.StackTableName.Value";

/// Every place that names `Table` (a policy, `TABLE_NAME`, notify's stream, an
/// alarm's dimension, the dashboard, the `TableName` output) must name the restored
/// table instead when `RestoredTableName` is set, and only then.
fn uses_that_do_not_switch(
    own: &BTreeMap<String, BTreeSet<&str>>,
    restored: &BTreeMap<String, BTreeSet<&str>>,
) -> Vec<String> {
    let mut problems = vec![];
    let naming = |refs: &BTreeMap<String, BTreeSet<&str>>, what: &str| -> BTreeSet<String> {
        refs.iter()
            .filter(|(path, names)| names.contains(what) && *path != KEPT_TABLE_OUTPUT)
            .map(|(path, _)| path.clone())
            .collect()
    };
    for path in naming(own, "RestoredTable") {
        problems.push(format!(
            "{path}: names the restored table with RestoredTableName empty"
        ));
    }
    let still = naming(restored, "Table");
    for path in &still {
        problems.push(format!(
            "{path}: still names the stack's Table with RestoredTableName set"
        ));
    }
    let (on_table, on_restored) = (naming(own, "Table"), naming(restored, "RestoredTable"));
    for path in on_table
        .difference(&on_restored)
        .filter(|p| !still.contains(*p))
    {
        problems.push(format!(
            "{path}: names Table, and no restored table in its place with RestoredTableName set"
        ));
    }
    for path in on_restored.difference(&on_table) {
        problems.push(format!(
            "{path}: names the restored table with RestoredTableName set, but not Table without it"
        ));
    }
    problems
}

#[test]
fn every_table_grant_switches_to_the_restored_table() {
    let problems = grants_that_do_not_switch(iam::template());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_use_of_the_table_switches_to_the_restored_one() {
    let own = iam::table_references(Side::Own);
    let restored = iam::table_references(Side::Restored);
    let problems = uses_that_do_not_switch(&own, &restored);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The check saw what it is for (not an empty walk): the functions' table, notify's
    // stream, an alarm, the dashboard, a policy.
    for path in [
        "Globals.Function.Environment.Variables.TABLE_NAME",
        "Resources.NotifyFunction.Properties.Events.TableStream.Properties.Stream",
        "Resources.TableThrottleAlarm.Properties.Metrics[1].MetricStat.Metric.Dimensions[0].Value",
        "Resources.OnCallDashboard.Properties.DashboardBody[1].ActiveTable",
        "Resources.CrewFunction.Properties.Policies[0].Statement[0].Resource",
        "Outputs.TableName.Value",
    ] {
        assert!(
            restored
                .get(path)
                .is_some_and(|n| n.contains("RestoredTable")),
            "{path}: {:?}",
            restored.get(path)
        );
    }
    assert_eq!(
        restored.get(KEPT_TABLE_OUTPUT),
        Some(&BTreeSet::from(["Table"]))
    );
}

/// The two checks above, on a template with one use that switches and others that
/// do not: each of those is named.
#[test]
fn a_use_of_the_table_that_does_not_switch_is_named() {
    let template: serde_norway::Value = serde_norway::from_str(
        r#"
Globals:
  Function:
    Environment:
      Variables:
        TABLE_NAME: !Ref Table
Resources:
  Table: { Type: AWS::DynamoDB::Table }
  GoodFunction:
    Type: AWS::Serverless::Function
    Metadata: { BuildProperties: { Binary: good } }
    Properties:
      Policies:
        - Statement:
            - Effect: Allow
              Action: [dynamodb:GetItem]
              Resource: !If
                - UseRestoredTable
                - !Sub "arn:${AWS::Partition}:dynamodb:${AWS::Region}:${AWS::AccountId}:table/${RestoredTableName}"
                - !GetAtt Table.Arn
  StuckFunction:
    Type: AWS::Serverless::Function
    Metadata: { BuildProperties: { Binary: stuck } }
    Properties:
      Policies:
        - Statement:
            - Effect: Allow
              Action: dynamodb:Query
              Resource: !Sub "${Table.Arn}/index/gsi1"
      Events:
        Stream:
          Type: DynamoDB
          Properties:
            Stream: !If [UseRestoredTable, !Ref RestoredTableStreamArn, !GetAtt Table.StreamArn]
  Dashboard:
    Type: AWS::CloudWatch::Dashboard
    Properties:
      DashboardBody: !Sub '{"metrics": [["AWS/DynamoDB", "ReadThrottleEvents", "TableName", "${Table}"]]}'
Outputs:
  Gone:
    Value: !If [UseRestoredTable, !Ref AWS::NoValue, !Ref Table]
"#,
    )
    .unwrap();
    assert_eq!(
        grants_that_do_not_switch(&iam::parse_template(&template)),
        [
            "StuckFunction (functions/stuck): with RestoredTableName set it lacks dynamodb:Query on RestoredTable/index/gsi1 (its grant on the stack's table does not switch)",
            "StuckFunction (functions/stuck): with RestoredTableName set it has dynamodb:Query on Table/index/gsi1, which is not its grant on the stack's table moved over",
        ]
    );
    let own = iam::table_references_in(&template, Side::Own);
    let restored = iam::table_references_in(&template, Side::Restored);
    assert_eq!(
        uses_that_do_not_switch(&own, &restored),
        [
            "Globals.Function.Environment.Variables.TABLE_NAME: still names the stack's Table with RestoredTableName set",
            "Resources.Dashboard.Properties.DashboardBody: still names the stack's Table with RestoredTableName set",
            "Resources.StuckFunction.Properties.Policies[0].Statement[0].Resource: still names the stack's Table with RestoredTableName set",
            "Outputs.Gone.Value: names Table, and no restored table in its place with RestoredTableName set",
        ]
    );
}

/// docs/deploy.md's "Who may do what" table says what template.yaml grants each
/// function on the table and its indexes: a grant added or removed in the template
/// without the table fails here, naming the row.
#[test]
fn the_deploy_docs_table_of_grants_is_the_templates() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/deploy.md");
    let doc = std::fs::read_to_string(path).expect("docs/deploy.md");
    let section = doc
        .split("### Who may do what")
        .nth(1)
        .expect("a 'Who may do what' section");
    let mut differ = vec![];
    let mut rows = 0;
    // The section's first table: its rows up to the first line that is not one.
    let table = section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'));
    for line in table {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let [name, on_table, indexes] = cells[..] else {
            continue;
        };
        // The function's crate is the row's first word ("clock (scheduled, ...)").
        let function = name.split_whitespace().next().unwrap_or_default();
        if !iam::template().functions.contains_key(function) {
            continue;
        }
        rows += 1;
        let words = |cell: &str| -> BTreeSet<String> {
            cell.split(',')
                .map(|w| w.trim().trim_matches('`').to_owned())
                .filter(|w| !w.is_empty() && w != "—")
                .collect()
        };
        let grants = iam::template().grants(function);
        let dynamodb = |resource: &dyn Fn(&str) -> bool| -> BTreeSet<String> {
            grants
                .iter()
                .filter(|(action, r)| action.starts_with("dynamodb:") && resource(r))
                .map(|(action, _)| action.trim_start_matches("dynamodb:").to_owned())
                .collect()
        };
        let table = dynamodb(&|r| r == "Table");
        let queried: BTreeSet<String> = grants
            .iter()
            .filter_map(|(action, r)| {
                (action == "dynamodb:Query")
                    .then(|| r.strip_prefix("Table/index/"))
                    .flatten()
                    .map(str::to_owned)
            })
            .collect();
        if words(on_table) != table {
            differ.push(format!(
                "{function} on the table: docs {on_table:?}, template {table:?}"
            ));
        }
        if words(indexes) != queried {
            differ.push(format!(
                "{function} indexes: docs {indexes:?}, template {queried:?}"
            ));
        }
    }
    assert_eq!(rows, iam::template().functions.len(), "a row per function");
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// Personal data (docs/decisions/0022-personal-data.md): an admin opening a booking
/// (its reading recorded), a user's export, and the deletion of an account whose
/// booking has ended; another user's booking ended, for the retention sweep.
async fn privacy_tour(app: &TestApp) {
    use domain::{ambulance::AmbulanceStatus, user::Role};
    let admin = app.create_user("privacy_admin", Role::Admin).await;
    let h = app.seed_hospital("Privacy", Point::new(-10.0, -10.0)).await;
    let amb = app
        .seed_ambulance(h.id, "PRV-1", AmbulanceStatus::Available)
        .await;
    let body = json!({"hospitalId": h.id, "ambulanceId": amb.id, "patient":
        {"name": "P", "age": 30, "gender": "Male", "condition": "c"}});
    for name in ["leaving", "staying"] {
        let user = app.user(name).await;
        let res = app.book(Some(&user.token), body.clone()).await;
        res.assert_status(StatusCode::CREATED);
        let id = &res.body["id"];
        app.get(&format!("/api/booking/{id}"), Some(&admin.token))
            .await
            .assert_status(StatusCode::OK);
        app.cancel_booking(Some(&user.token), id)
            .await
            .assert_status(StatusCode::OK);
        if name == "leaving" {
            app.get("/api/user/export", Some(&user.token))
                .await
                .assert_status(StatusCode::OK);
            app.call(
                Method::DELETE,
                "/api/user/account",
                Some(&user.token),
                Some(json!({ "password": TEST_PASSWORD })),
            )
            .await
            .assert_status(StatusCode::NO_CONTENT);
        }
    }
}

/// The clock's privacy sweep, 91 days on: the deleted account's erasure finished
/// (its devices, its history, its marker), the ended booking past retention erased.
async fn privacy_clock_tour(app: &TestApp) {
    let store = &app.state.store;
    let report = app
        .run_as(
            "clock",
            store
                .privacy()
                .sweep(store.now() + time::Duration::days(91)),
        )
        .await
        .unwrap();
    assert_eq!(report.accounts_finished, 1, "{report:?}");
    assert!(report.retained_bookings >= 1, "{report:?}");
}
