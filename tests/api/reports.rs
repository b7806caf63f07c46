//! The response-time report (docs/decisions/0021-response-time-report.md): trips
//! with known timelines folded by the clock and read back cell by cell against a
//! hand calculation, JSON and CSV; a real trip from booking to the report; a trip
//! counted once whatever the folds do; who may read it; bad queries.

use std::collections::BTreeSet;

use domain::{
    booking::{Booking, BookingStatus, BookingType, Milestone, ReassignReason, TimelineEntry},
    geo::Point,
    types::{Id, Timestamp},
};
use http::{Method, StatusCode};
use serde_json::{Value, json};
use testkit::{TestApp, hooks::Hooks};
use time::{OffsetDateTime, macros::datetime};

use crate::{crew::Fleet, helpers::crew_steps_to_completion};

const HOSPITAL_A: u64 = 101;
const HOSPITAL_B: u64 = 102;

/// A finished booking: called at `called`, to `hospital`, with `entries` (stage,
/// seconds after the call) as its timeline.
fn finished(
    id: u64,
    hospital: u64,
    kind: BookingType,
    status: BookingStatus,
    called: OffsetDateTime,
    entries: &[(Milestone, i64)],
) -> Booking {
    let at = |s: i64| Timestamp::new(called + time::Duration::seconds(s)).unwrap();
    let timeline: Vec<TimelineEntry> = entries
        .iter()
        .map(|(stage, s)| match stage {
            Milestone::Reassigned => {
                TimelineEntry::reassigned("AMB-9", ReassignReason::NoAnswer, at(*s))
            }
            stage => TimelineEntry::new(*stage, at(*s)),
        })
        .collect();
    serde_json::from_value(json!({
        "id": id, "bookingStatus": status, "bookingType": kind,
        "bookingTime": at(0), "userId": 2, "username": "u",
        "userEmail": "u@example.com", "hospitalId": hospital, "hospitalName": "H",
        "hospital": {"id": hospital, "name": "H", "address": "A"}, "ambulanceId": 4,
        "ambulanceNumber": "N", "ambulance": {"id": 4, "number": "N", "type": "BLS", "driverInfo": null},
        "patient": {"name": "P", "age": 40, "gender": "Male", "condition": "c"},
        "userPhone": null, "pickup": null, "tripStage": null, "timeline": timeline,
    }))
    .unwrap()
}

/// The trips of the hand calculation (seconds after the call; the service's zone is
/// Asia/Kolkata, UTC+05:30).
fn hand_trips() -> Vec<Booking> {
    use BookingStatus as S;
    use BookingType::{Emergency, Normal};
    use Milestone::*;
    let whole = |accept: i64, pickup: i64, left: i64, arrived: i64, done: i64| {
        vec![
            (Active, 0),
            (Dispatched, 0),
            (EnRoute, accept),
            (AtPickup, pickup),
            (ToHospital, left),
            (AtHospital, arrived),
            (Completed, done),
        ]
    };
    vec![
        // T1: 18:20 UTC = 23:50 in Kolkata on 1 March.
        finished(
            1,
            HOSPITAL_A,
            Emergency,
            S::Completed,
            datetime!(2026-03-01 18:20 UTC),
            &whole(30, 630, 1230, 2130, 2400),
        ),
        // T2: 18:40 UTC = 00:10 on 2 March there; missed by the first crew, moved at
        // 61 s, accepted by the second at 80 s.
        finished(
            2,
            HOSPITAL_A,
            Emergency,
            S::Completed,
            datetime!(2026-03-01 18:40 UTC),
            &[
                (Active, 0),
                (Dispatched, 0),
                (Reassigned, 61),
                (EnRoute, 80),
                (AtPickup, 980),
                (ToHospital, 1280),
                (AtHospital, 1880),
                (Completed, 1900),
            ],
        ),
        // T3: across midnight UTC (called 23:50, at the pickup 00:10:45 the next day):
        // 05:20 on 2 March in Kolkata.
        finished(
            3,
            HOSPITAL_A,
            Emergency,
            S::Completed,
            datetime!(2026-03-01 23:50 UTC),
            &whole(45, 1245, 1545, 2445, 2500),
        ),
        // T4: moved twice, never answered, cancelled at 400 s.
        finished(
            4,
            HOSPITAL_A,
            Emergency,
            S::Cancelled,
            datetime!(2026-03-02 04:00 UTC),
            &[
                (Active, 0),
                (Dispatched, 0),
                (Reassigned, 61),
                (Reassigned, 122),
                (Cancelled, 400),
            ],
        ),
        // T5: answered in 20 s, cancelled at 100 s on the way.
        finished(
            5,
            HOSPITAL_A,
            Emergency,
            S::Cancelled,
            datetime!(2026-03-02 05:00 UTC),
            &[
                (Active, 0),
                (Dispatched, 0),
                (EnRoute, 20),
                (Cancelled, 100),
            ],
        ),
        // T6: a normal booking the crew accepted from PENDING at 50 s.
        finished(
            6,
            HOSPITAL_A,
            Normal,
            S::Completed,
            datetime!(2026-03-02 06:00 UTC),
            &[
                (Pending, 0),
                (Active, 50),
                (EnRoute, 50),
                (AtPickup, 650),
                (ToHospital, 950),
                (AtHospital, 1550),
                (Completed, 1600),
            ],
        ),
        // T7: another hospital.
        finished(
            7,
            HOSPITAL_B,
            Emergency,
            S::Completed,
            datetime!(2026-03-02 07:00 UTC),
            &whole(90, 1190, 1490, 2090, 2100),
        ),
        // T8: another hospital, 3 March, ended by an admin at 200 s unanswered.
        finished(
            8,
            HOSPITAL_B,
            Emergency,
            S::Completed,
            datetime!(2026-03-03 06:00 UTC),
            &[(Active, 0), (Dispatched, 0), (Completed, 200)],
        ),
    ]
}

fn stat(count: u32, p50: u32, p90: u32, max: u32) -> Value {
    json!({"count": count, "p50": p50, "p90": p90, "max": max})
}

/// A row of the hand calculation: the intervals in the contract's order.
#[allow(clippy::too_many_arguments)]
fn row(
    period: &str,
    (from, to): (&str, &str),
    hospital: Option<u64>,
    count: u32,
    [dispatch, answer, travel, on_scene, transport, response]: [Value; 6],
    (answer_share, pickup_share): (Value, Value),
    (moved, unanswered, cancelled): (u32, u32, u32),
) -> Value {
    let mut row = json!({
        "period": period, "from": from, "to": to, "count": count,
        "intervals": {"dispatch": dispatch, "answer": answer, "travel": travel, "onScene": on_scene,
            "transport": transport, "handover": null, "response": response},
        "withinTarget": {"answer": answer_share, "pickup": pickup_share},
        "moved": moved, "unanswered": unanswered, "cancelled": cancelled,
    });
    if let Some(h) = hospital {
        row["hospitalId"] = json!(h);
    }
    row
}

const NONE6: [Value; 6] = [
    Value::Null,
    Value::Null,
    Value::Null,
    Value::Null,
    Value::Null,
    Value::Null,
];

/// An app whose table holds the hand calculation's trips, folded by the clock.
async fn folded_app() -> (TestApp, String) {
    let app = TestApp::new(api_tests::system).await;
    let admin = app.admin().await;
    app.state
        .store
        .bulk()
        .bulk_load_finished_bookings(hand_trips())
        .await
        .unwrap();
    let folded = app
        .run_as("clock", clock::fold(&app.state.store))
        .await
        .unwrap();
    assert_eq!(
        (folded.due, folded.folded, folded.failed),
        (8, 8, 0),
        "{folded:?}"
    );
    (app, admin.token)
}

#[tokio::test]
async fn every_cell_of_the_report_and_its_csv_is_the_hand_calculation() {
    let (app, admin) = folded_app().await;
    let get = async |query: &str| {
        let res = app
            .get(
                &format!("/api/admin/reports/response-times?{query}"),
                Some(&admin),
            )
            .await;
        res.assert_status(StatusCode::OK);
        res.body
    };

    // Hospital A's emergencies by day. 1 March: T1 only (T2, called 00:10 on 2 March
    // in Kolkata, is not). 2 March: T2, T3 (across midnight UTC), T4, T5. Answers
    // 80, 45, 20 → sorted 20 45 80: p50 at rank ⌈1.5⌉ = 2 → 45, p90 at ⌈2.7⌉ = 3 →
    // 80. Answer share: T2 80 > 60 out, T3 in, T4 waited 400 > 60 out, T5 in → 2/4.
    // Pickup share: T2 980 and T3 1245 > 900 out; T4 (ended 400 s) and T5 (100 s)
    // waited less than 15 min: no verdict → 0/2.
    let a = get(&format!(
        "from=2026-03-01&to=2026-03-03&by=day&hospitalId={HOSPITAL_A}&type=EMERGENCY"
    ))
    .await;
    let expected_a = json!([
        row(
            "2026-03-01",
            ("2026-03-01", "2026-03-01"),
            Some(HOSPITAL_A),
            1,
            [
                stat(1, 0, 0, 0),
                stat(1, 30, 30, 30),
                stat(1, 600, 600, 600),
                stat(1, 600, 600, 600),
                stat(1, 900, 900, 900),
                stat(1, 630, 630, 630)
            ],
            (json!(1.0), json!(1.0)),
            (0, 0, 0)
        ),
        row(
            "2026-03-02",
            ("2026-03-02", "2026-03-02"),
            Some(HOSPITAL_A),
            4,
            [
                stat(4, 0, 0, 0),
                stat(3, 45, 80, 80),
                stat(2, 900, 1200, 1200),
                stat(2, 300, 300, 300),
                stat(2, 600, 900, 900),
                stat(2, 980, 1245, 1245)
            ],
            (json!(0.5), json!(0.0)),
            (2, 1, 2)
        ),
        row(
            "2026-03-03",
            ("2026-03-03", "2026-03-03"),
            Some(HOSPITAL_A),
            0,
            NONE6,
            (Value::Null, Value::Null),
            (0, 0, 0)
        ),
    ]);
    assert_eq!(a["rows"], expected_a, "{:#}", a["rows"]);
    assert_eq!(
        (
            &a["from"],
            &a["to"],
            &a["by"],
            &a["hospitalId"],
            &a["type"],
            &a["timeZone"]
        ),
        (
            &json!("2026-03-01"),
            &json!("2026-03-03"),
            &json!("day"),
            &json!(HOSPITAL_A),
            &json!("EMERGENCY"),
            &json!("Asia/Kolkata")
        )
    );
    assert_eq!(
        a["targets"],
        json!({"answerSeconds": 60, "pickupMinutes": 15})
    );

    // Hospital A's normal bookings: T6 alone.
    let normal = get(&format!(
        "from=2026-03-02&to=2026-03-02&by=month&hospitalId={HOSPITAL_A}&type=normal"
    ))
    .await;
    assert_eq!(
        normal["rows"],
        json!([row(
            "2026-03",
            ("2026-03-02", "2026-03-02"),
            Some(HOSPITAL_A),
            1,
            [
                stat(1, 0, 0, 0),
                stat(1, 50, 50, 50),
                stat(1, 600, 600, 600),
                stat(1, 300, 300, 300),
                stat(1, 600, 600, 600),
                stat(1, 650, 650, 650)
            ],
            (json!(1.0), json!(1.0)),
            (0, 0, 0)
        )])
    );

    // The whole service, both kinds, by ISO week: 1 March is the Sunday of W09; W10
    // holds T2..T8. Answers 80 45 20 50 90 → p50 rank 3 → 50, p90 rank ⌈4.5⌉ = 5 →
    // 90. Travel 900 1200 600 1100 → 600 900 1100 1200: p50 rank 2 → 900, p90 rank 4
    // → 1200. Transport 600 900 600 600 → p50 600, p90 900. Response 980 1245 650
    // 1190 → p50 980, p90 1245. Answer share: in T3, T5, T6; out T2, T4, T7 (90),
    // T8 (waited 200) → 3/7. Pickup: in T6; out T2, T3, T7 → 1/4.
    let all = get("from=2026-03-01&to=2026-03-03").await;
    assert_eq!(
        all["rows"],
        json!([
            row(
                "2026-W09",
                ("2026-03-01", "2026-03-01"),
                None,
                1,
                [
                    stat(1, 0, 0, 0),
                    stat(1, 30, 30, 30),
                    stat(1, 600, 600, 600),
                    stat(1, 600, 600, 600),
                    stat(1, 900, 900, 900),
                    stat(1, 630, 630, 630)
                ],
                (json!(1.0), json!(1.0)),
                (0, 0, 0)
            ),
            row(
                "2026-W10",
                ("2026-03-02", "2026-03-03"),
                None,
                7,
                [
                    stat(7, 0, 0, 0),
                    stat(5, 50, 90, 90),
                    stat(4, 900, 1200, 1200),
                    stat(4, 300, 300, 300),
                    stat(4, 600, 900, 900),
                    stat(4, 980, 1245, 1245)
                ],
                (json!(3.0 / 7.0), json!(0.25)),
                (2, 2, 2)
            ),
        ]),
        "{:#}",
        all["rows"]
    );
    assert!(
        all.get("hospitalId").is_none() && all.get("type").is_none(),
        "{all}"
    );
    // The whole range as one row: all eight trips. Answers 30 80 45 20 50 90 →
    // 20 30 45 50 80 90: p50 rank 3 → 45, p90 rank ⌈5.4⌉ = 6 → 90.
    assert_eq!(all["total"]["period"], "2026-03-01/2026-03-03");
    assert_eq!(
        (&all["total"]["count"], &all["total"]["intervals"]["answer"]),
        (&json!(8), &stat(6, 45, 90, 90))
    );
    assert_eq!(
        all["total"]["withinTarget"],
        json!({"answer": 4.0 / 8.0, "pickup": 2.0 / 5.0})
    );
    // Answer times 30 80 45 20 50 90; response times 630 980 1245 650 1190.
    let counts = |name: &str| -> Vec<(u64, Value, u64)> {
        all["histograms"][name]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| b["count"] != 0)
            .map(|b| {
                (
                    b["from"].as_u64().unwrap(),
                    b["to"].clone(),
                    b["count"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(
        counts("answer"),
        [
            (15, json!(30), 1),
            (30, json!(45), 1),
            (45, json!(60), 2),
            (60, json!(90), 1),
            (90, json!(120), 1)
        ]
    );
    assert_eq!(
        counts("response"),
        [
            (600, json!(900), 2),
            (900, json!(1200), 2),
            (1200, json!(1800), 1)
        ]
    );

    // Hospital B on 3 March: T8, unanswered (waited 200 s > 60: out), never picked up
    // and ended before 15 min: no pickup verdict.
    let b = get(&format!(
        "from=2026-03-03&to=2026-03-03&by=day&hospitalId={HOSPITAL_B}"
    ))
    .await;
    assert_eq!(
        b["rows"],
        json!([row(
            "2026-03-03",
            ("2026-03-03", "2026-03-03"),
            Some(HOSPITAL_B),
            1,
            [
                stat(1, 0, 0, 0),
                Value::Null,
                Value::Null,
                Value::Null,
                Value::Null,
                Value::Null
            ],
            (json!(0.0), Value::Null),
            (0, 1, 0)
        )])
    );

    // The CSV of hospital A's emergencies: the same numbers, cell by cell.
    let csv = app
        .send(csv_request(
            &format!("/api/admin/reports/response-times?from=2026-03-01&to=2026-03-03&by=day&hospitalId={HOSPITAL_A}&type=EMERGENCY"),
            &admin,
        ))
        .await;
    csv.assert_status(StatusCode::OK);
    assert_eq!(csv.headers["content-type"], "text/csv; charset=utf-8");
    assert_eq!(
        csv.headers["content-disposition"],
        "attachment; filename=\"response-times-2026-03-01-2026-03-03.csv\""
    );
    let text = csv.body.as_str().unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let intervals = [
        "dispatch",
        "answer",
        "travel",
        "onScene",
        "transport",
        "handover",
        "response",
    ];
    let mut header = "period,from,to,hospitalId,type,count".to_owned();
    for name in intervals {
        header.push_str(&format!(",{name}.count,{name}.p50,{name}.p90,{name}.max"));
    }
    header.push_str(",withinTarget.answer,withinTarget.pickup,moved,unanswered,cancelled");
    assert_eq!(
        lines,
        [
            header.as_str(),
            "2026-03-01,2026-03-01,2026-03-01,101,EMERGENCY,1,1,0,0,0,1,30,30,30,1,600,600,600,1,600,600,600,1,900,900,900,0,,,,1,630,630,630,1.0000,1.0000,0,0,0",
            "2026-03-02,2026-03-02,2026-03-02,101,EMERGENCY,4,4,0,0,0,3,45,80,80,2,900,1200,1200,2,300,300,300,2,600,900,900,0,,,,2,980,1245,1245,0.5000,0.0000,2,1,2",
            "2026-03-03,2026-03-03,2026-03-03,101,EMERGENCY,0,0,,,,0,,,,0,,,,0,,,,0,,,,0,,,,0,,,,,,0,0,0",
            // The whole range: T1..T5. Answers 30 80 45 20 → 20 30 45 80: p50 rank 2
            // → 30, p90 rank 4 → 80. Travel 600 900 1200; on scene 600 300 300 → p50
            // 300; transport 900 600 900 → p50 900; response 630 980 1245. Answer
            // share 3/5, pickup 1/3.
            "2026-03-01/2026-03-03,2026-03-01,2026-03-03,101,EMERGENCY,5,5,0,0,0,4,30,80,80,3,900,1200,1200,3,300,600,600,3,900,900,900,0,,,,3,980,1245,1245,0.6000,0.3333,2,1,2",
        ]
    );
}

fn csv_request(uri: &str, token: &str) -> http::Request<lambda_http::Body> {
    let mut req = testkit::json_request(Method::GET, uri, Some(token), None);
    req.headers_mut().insert(
        http::header::ACCEPT,
        "text/csv, application/json;q=0.5".parse().unwrap(),
    );
    req
}

/// The aggregates hold no personal data: no name, phone, email, pickup or booking
/// id of any trip, only numbers (they outlive every retention).
#[tokio::test]
async fn a_folded_day_holds_no_personal_data() {
    let (app, _) = folded_app().await;
    let out = app
        .state
        .store
        .client()
        .query()
        .table_name(app.state.store.table())
        .key_condition_expression("pk = :p")
        .expression_attribute_values(
            ":p",
            aws_sdk_dynamodb::types::AttributeValue::S("REPORT#ALL".into()),
        )
        .send()
        .await
        .unwrap();
    let items = out.items.unwrap_or_default();
    assert_eq!(items.len(), 3, "{items:?}");
    for item in items {
        let names: BTreeSet<&str> = item.keys().map(String::as_str).collect();
        assert!(
            names.is_subset(&BTreeSet::from(["pk", "sk", "EMERGENCY", "NORMAL"])),
            "{names:?}"
        );
    }
}

#[tokio::test]
async fn a_trip_is_counted_once_whatever_the_folds_do() {
    let app = TestApp::new(api_tests::system).await;
    let admin = app.admin().await;
    let trips: Vec<Booking> = (1..=24)
        .map(|i| {
            finished(
                i,
                HOSPITAL_A,
                BookingType::Emergency,
                BookingStatus::Completed,
                datetime!(2026-05-04 08:00 UTC) + time::Duration::minutes(i as i64),
                &[
                    (Milestone::Active, 0),
                    (Milestone::Dispatched, 0),
                    (Milestone::EnRoute, i as i64),
                    (Milestone::Completed, 100),
                ],
            )
        })
        .collect();
    app.state
        .store
        .bulk()
        .bulk_load_finished_bookings(trips[..4].to_vec())
        .await
        .unwrap();

    // A fold that dies before its transactions reach the table: nothing counted,
    // nothing lost.
    let dead = Hooks::new("dead")
        .on_input(|context| {
            if context
                .input()
                .downcast_ref::<aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsInput>()
                .is_some()
            {
                return Err("the connection dropped".into());
            }
            Ok(())
        })
        .on(&app.state.store);
    let report = clock::fold(&dead).await.unwrap();
    assert_eq!(
        (report.due, report.folded, report.failed),
        (4, 0, 4),
        "{report:?}"
    );
    let count = async || {
        let res = app
            .get(
                "/api/admin/reports/response-times?from=2026-05-04&to=2026-05-04&by=day",
                Some(&admin.token),
            )
            .await;
        res.body["rows"][0]["count"].as_u64().unwrap()
    };
    assert_eq!(count().await, 0);

    // The next fold counts them; one whose answer was lost (its transaction repeated)
    // and a fold of a trip already folded are refused by the condition.
    let report = clock::fold(&app.state.store).await.unwrap();
    assert_eq!((report.folded, report.failed), (4, 0), "{report:?}");
    let key = store::keys::booking(Id::try_from(1).unwrap());
    let again = app.state.store.reports().fold_booking(key).await.unwrap();
    assert_eq!(again, store::reports::Folded::Settled);
    assert_eq!(clock::fold(&app.state.store).await.unwrap().due, 0);
    assert_eq!(count().await, 4);

    // Twenty more, and five folds at once (the clock's invocations overlap).
    app.state
        .store
        .bulk()
        .bulk_load_finished_bookings(trips[4..].to_vec())
        .await
        .unwrap();
    // Side by side they refuse each other now and then (a transaction conflict on the
    // day's items, or the fold keys already gone): what one did not fold, the next does.
    let reports = futures::future::join_all((0..5).map(|_| clock::fold(&app.state.store))).await;
    let mut folded: usize = reports.into_iter().map(|r| r.unwrap().folded).sum();
    loop {
        let next = clock::fold(&app.state.store).await.unwrap();
        if next.due == 0 {
            break;
        }
        folded += next.folded;
    }
    assert_eq!(folded, 20);
    assert_eq!(count().await, 24);
    let res = app
        .get(
            "/api/admin/reports/response-times?from=2026-05-04&to=2026-05-04&by=day",
            Some(&admin.token),
        )
        .await;
    assert_eq!(
        res.body["rows"][0]["intervals"]["answer"],
        stat(24, 12, 22, 24)
    );
}

/// A real trip: booked, driven by its crew to COMPLETED, one cancelled by its
/// requester; the clock folds both (and nothing twice), and the report shows them
/// on today's date in the service's zone with the intervals of their timelines.
#[tokio::test]
async fn trips_reach_the_report_through_their_final_move_and_the_clock() {
    let fleet = Fleet::new(2).await;
    let app = &fleet.app;
    let crew = app
        .crew("reporter", crate::crew::id_of(&fleet.ambulances[0]))
        .await;
    let user = app.user("patient").await;
    let res = fleet
        .book(&user, &fleet.ambulances[0], Some(Point::new(30.7, 74.3)))
        .await;
    res.assert_status(StatusCode::CREATED);
    let done = res.body["id"].as_u64().unwrap();
    let booked_at = res.body["bookingTime"].clone();
    for stage in crew_steps_to_completion() {
        app.crew_step(
            Some(&crew.token),
            json!({"bookingId": done, "stage": stage}),
        )
        .await
        .assert_status(StatusCode::OK);
    }
    let res = fleet
        .book(&user, &fleet.ambulances[1], Some(Point::new(30.7, 74.3)))
        .await;
    let cancelled = res.body["id"].as_u64().unwrap();
    app.cancel_booking(Some(&user.token), cancelled)
        .await
        .assert_status(StatusCode::OK);
    // Not folded by the requests that ended them: the report is empty until the clock.
    let hospital = fleet.hospital["id"].as_u64().unwrap();
    // The day of the first call in the service's zone (not "now": a run at midnight).
    let called = domain::types::Timestamp::parse(booked_at.as_str().unwrap()).unwrap();
    let today = domain::response_times::day_text(app.state.store.time_zone().date_of(called.get()));
    let uri = format!(
        "/api/admin/reports/response-times?from={today}&to={today}&by=day&hospitalId={hospital}"
    );
    let before = app.get(&uri, fleet.admin_token()).await;
    assert_eq!(before.body["rows"][0]["count"], 0, "{}", before.body);

    let folded = app
        .run_as("clock", clock::fold(&app.state.store))
        .await
        .unwrap();
    assert_eq!((folded.folded, folded.failed), (2, 0), "{folded:?}");
    assert_eq!(clock::fold(&app.state.store).await.unwrap().due, 0);

    let row = &app.get(&uri, fleet.admin_token()).await.body["rows"][0];
    assert_eq!(
        (&row["count"], &row["cancelled"], &row["unanswered"]),
        (&json!(2), &json!(1), &json!(1)),
        "{row}"
    );
    // The completed trip's intervals, from its stored timeline by hand.
    let booking = app
        .state
        .store
        .bookings()
        .booking(Id::try_from(done).unwrap())
        .await
        .unwrap()
        .unwrap();
    let at = |stage: Milestone| {
        let e = booking.timeline.iter().find(|e| e.stage == stage).unwrap();
        e.at.get()
    };
    let secs = |a: Milestone, b: Milestone| (at(b) - at(a)).whole_seconds().max(0);
    let first = booking.timeline[0].at.get();
    let answer = (at(Milestone::EnRoute) - first).whole_seconds().max(0);
    assert_eq!(row["intervals"]["answer"]["max"], json!(answer));
    assert_eq!(row["intervals"]["answer"]["count"], 1);
    assert_eq!(
        row["intervals"]["travel"],
        stat(
            1,
            secs(Milestone::EnRoute, Milestone::AtPickup) as u32,
            secs(Milestone::EnRoute, Milestone::AtPickup) as u32,
            secs(Milestone::EnRoute, Milestone::AtPickup) as u32
        )
    );
    assert_eq!(row["intervals"]["transport"]["count"], 1);
    // The crew's steps went through HANDED_OVER (the crew recorded the handover).
    let handover = secs(Milestone::AtHospital, Milestone::HandedOver) as u32;
    assert_eq!(
        row["intervals"]["handover"],
        stat(1, handover, handover, handover)
    );
    // The whole service shows them too.
    let all = app
        .get(
            &format!("/api/admin/reports/response-times?from={today}&to={today}"),
            fleet.admin_token(),
        )
        .await;
    assert_eq!(all.body["rows"][0]["count"], 2);
}

#[tokio::test]
async fn only_admins_read_the_report() {
    let fleet = Fleet::new(1).await;
    let app = &fleet.app;
    let user = app.user("nosy").await;
    let crew = app
        .crew("crewman", crate::crew::id_of(&fleet.ambulances[0]))
        .await;
    let uri = "/api/admin/reports/response-times?from=2026-01-01&to=2026-01-31";
    app.get(uri, None)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
    app.get(uri, Some(&user.token))
        .await
        .assert_status(StatusCode::FORBIDDEN);
    app.get(uri, Some(&crew.token))
        .await
        .assert_status(StatusCode::FORBIDDEN);
    let res = app.get(uri, fleet.admin_token()).await;
    res.assert_status(StatusCode::OK);
    assert_eq!(
        res.body["rows"].as_array().unwrap().len(),
        5,
        "5 ISO weeks touch January 2026"
    );
    // The CSV too.
    app.send(csv_request(uri, &user.token))
        .await
        .assert_status(StatusCode::FORBIDDEN);
    // A hospital's staff (a role still to come) get their own hospital only: the
    // store's scope, which their route will pass.
    use domain::response_times::{ReportRequest, Scope};
    let q: ReportRequest = web::http::parse_query(&format!(
        "from=2026-01-01&to=2026-01-02&hospitalId={HOSPITAL_B}"
    ))
    .unwrap();
    let own = Scope::Hospital(Id::try_from(HOSPITAL_A).unwrap());
    let refused = app
        .state
        .store
        .reports()
        .response_times(q.clone(), own)
        .await;
    assert!(
        matches!(
            refused,
            Err(store::StoreError::Refused(
                domain::refusal::Refusal::NotAllowed(_)
            ))
        ),
        "{refused:?}"
    );
    let q = ReportRequest {
        hospital_id: None,
        ..q
    };
    let mine = app
        .state
        .store
        .reports()
        .response_times(q, own)
        .await
        .unwrap();
    assert_eq!(mine.hospital_id, Some(Id::try_from(HOSPITAL_A).unwrap()));
}

#[tokio::test]
async fn a_bad_query_is_a_400_naming_its_parameter() {
    let app = TestApp::new(api_tests::system).await;
    let admin = app.admin().await;
    for (query, field) in [
        ("from=2100-01-01", "to"),
        ("from=2026-1-1&to=2026-01-31", "from"),
        ("from=2026-02-30&to=2026-03-01", "from"),
        ("from=2026-01-01&to=yesterday", "to"),
        ("from=2026-02-01&to=2026-01-31", "to"),
        ("from=2026-01-01&to=2027-01-02", "to"),
        ("from=2026-01-01&to=2026-01-31&by=year", "by"),
        ("from=2026-01-01&to=2026-01-31&type=urgent", "type"),
        ("from=2026-01-01&to=2026-01-31&hospitalId=0", "hospitalId"),
        ("from=2026-01-01&to=2026-01-31&hospitalId=x", "hospitalId"),
        ("from=2026-01-01&to=2026-01-31&colour=red", "colour"),
    ] {
        let res = app
            .get(
                &format!("/api/admin/reports/response-times?{query}"),
                Some(&admin.token),
            )
            .await;
        res.assert_field(StatusCode::BAD_REQUEST, field);
        // Asked for CSV, a refusal is still the JSON error.
        let csv = app
            .send(csv_request(
                &format!("/api/admin/reports/response-times?{query}"),
                &admin.token,
            ))
            .await;
        csv.assert_field(StatusCode::BAD_REQUEST, field);
    }
    // Without dates: the 12 weeks up to today in the service's zone.
    let res = app
        .get("/api/admin/reports/response-times", Some(&admin.token))
        .await;
    res.assert_status(StatusCode::OK);
    let today = app.state.store.time_zone().date_of(app.state.store.now());
    let day = domain::response_times::day_text;
    assert_eq!(res.body["to"], day(today));
    assert_eq!(res.body["from"], day(today - time::Duration::days(83)));
    assert_eq!(
        (
            &res.body["by"],
            res.body["rows"].as_array().unwrap().len() >= 12
        ),
        (&json!("week"), true)
    );
    // A leap year's 366 days are one report.
    app.get(
        "/api/admin/reports/response-times?from=2028-01-01&to=2028-12-31&by=month",
        Some(&admin.token),
    )
    .await
    .assert_status(StatusCode::OK);
}
