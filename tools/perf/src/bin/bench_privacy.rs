//! `make bench`: forgetting personal data (docs/decisions/0022-personal-data.md) in
//! DynamoDB Local (DYNAMODB_ENDPOINT).
//!
//! 1. The retention sweep (`store.privacy().forget_finished`) with 1 000, 10 000 and
//!    100 000 ended bookings kept (ended 3 days ago) and 10 due (ended 100 days ago):
//!    DynamoDB calls, read units by DynamoDB's rules (`testkit::hooks::read_capacity`),
//!    items read, bookings erased, write units, time; then the sweep again with
//!    nothing due. What it reads must not grow with the bookings kept.
//! 2. An account's deletion with 5, 40 and 500 ended bookings: the request's part
//!    (`delete_account`: one transaction of 7 items and at most 40 bookings, then the
//!    devices) and the clock's rest (sweeps until the erasure marker goes): time of
//!    each, and the clock's write units (DynamoDB Local reports no per-item units for
//!    a transaction).
//!
//! `BENCH_SIZES` (default `1000,10000,100000`), `BENCH_HISTORIES` (default `5,40,500`).

use std::time::Instant;

use domain::{
    booking::Booking,
    types::{Id, format_rfc3339},
};
use serde_json::json;
use store::{
    Store,
    privacy::{ForgetReport, REQUEST_CHUNK},
};
use time::{Duration, OffsetDateTime};

fn sizes(var: &str, default: &str) -> Vec<u64> {
    std::env::var(var)
        .unwrap_or_else(|_| default.into())
        .split(',')
        .map(|s| {
            s.trim()
                .parse()
                .unwrap_or_else(|_| panic!("{var}: numbers"))
        })
        .collect()
}

/// A booking of `user`'s, ended `days_ago` days ago, with every personal field.
fn ended(id: u64, user: Id, days_ago: i64) -> Booking {
    let made = OffsetDateTime::now_utc() - Duration::days(days_ago) + Duration::seconds(id as i64);
    let (at, done) = (
        format_rfc3339(made),
        format_rfc3339(made + Duration::hours(1)),
    );
    serde_json::from_value(json!({
        "id": id, "bookingStatus": "COMPLETED", "bookingType": "NORMAL", "bookingTime": at,
        "userId": user.get(), "username": "bench", "userEmail": "bench@example.com",
        "hospitalId": 1, "hospitalName": "H", "hospital": {"id": 1, "name": "H", "address": "A"},
        "ambulanceId": 1, "ambulanceNumber": "B-1",
        "ambulance": {"id": 1, "number": "B-1", "type": "BLS", "driverInfo": null},
        "patient": {"name": "P", "age": 40, "gender": "Male", "condition": "c"},
        "userPhone": "+919800000000",
        "pickup": {"latitude": 30.71234, "longitude": 74.34567, "landmark": "the blue gate"},
        "tripStage": "AT_HOSPITAL",
        "timeline": [{"stage": "PENDING", "at": at}, {"stage": "COMPLETED", "at": done}],
    }))
    .expect("a booking")
}

/// One retention sweep, metered: (calls, RCU, items read, erased, WCU, ms).
async fn metered_sweep(store: &Store) -> (usize, f64, usize, usize, f64, f64) {
    testkit::hooks::take_reads();
    testkit::hooks::take_writes();
    let started = Instant::now();
    let mut report = ForgetReport::default();
    store
        .privacy()
        .forget_finished(store.now(), 90, 200, &mut report)
        .await
        .expect("a sweep");
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let (rcu, items, calls) = testkit::hooks::take_reads();
    let (wcu, writes) = testkit::hooks::take_writes();
    // The read meter counts every call; the writes are not reads.
    (
        calls - writes,
        rcu,
        items,
        report.retained_bookings,
        wcu,
        ms,
    )
}

#[tokio::main]
async fn main() {
    println!("the retention sweep (10 due: ended 100 days ago; the rest kept: ended 3 days ago)");
    println!(
        "{:>8} {:>4} {:>6} {:>7} {:>7} {:>7} {:>7} {:>8}",
        "kept", "due", "reads", "RCU", "items", "erased", "WCU", "time ms"
    );
    for n in sizes("BENCH_SIZES", "1000,10000,100000") {
        let plain = testkit::bench_store("privacy").await;
        let store =
            testkit::hooks::write_capacity().on(&testkit::hooks::read_capacity().on(&plain));
        let user = Id::try_from(1).expect("an id");
        let mut all: Vec<Booking> = (1..=n).map(|id| ended(id, user, 3)).collect();
        all.extend((n + 1..=n + 10).map(|id| ended(id, user, 100)));
        plain.bulk().bulk_load_bookings(all).await.expect("loaded");
        let (reads, rcu, items, erased, wcu, ms) = metered_sweep(&store).await;
        assert_eq!(erased, 10, "the 10 due are erased");
        println!(
            "{n:>8} {:>4} {reads:>6} {rcu:>7.1} {items:>7} {erased:>7} {wcu:>7.1} {ms:>8.1}",
            10
        );
        let (reads, rcu, items, erased, wcu, ms) = metered_sweep(&store).await;
        assert_eq!(erased, 0);
        println!(
            "{n:>8} {:>4} {reads:>6} {rcu:>7.1} {items:>7} {erased:>7} {wcu:>7.1} {ms:>8.1}",
            0
        );
        testkit::drop_table(&plain).await;
    }

    println!("\nan account deleted: the request's one transaction, then the clock's rest");
    println!(
        "{:>9} {:>11} {:>13} {:>7} {:>10} {:>9}",
        "bookings", "request ms", "request items", "sweeps", "clock ms", "clock WCU"
    );
    for n in sizes("BENCH_HISTORIES", "5,40,500") {
        let plain = testkit::bench_store("privacy-account").await;
        let store = testkit::hooks::write_capacity().on(&plain);
        let user = plain.bulk().bench_users(1).await.expect("a user")[0];
        let bookings = (1..=n).map(|id| ended(id, user, 3)).collect();
        plain
            .bulk()
            .bulk_load_bookings(bookings)
            .await
            .expect("loaded");
        let account = plain
            .users()
            .account(user)
            .await
            .expect("read")
            .expect("there");
        testkit::hooks::take_writes();
        let started = Instant::now();
        store
            .privacy()
            .delete_account(&account)
            .await
            .expect("deleted");
        let request_ms = started.elapsed().as_secs_f64() * 1000.0;
        testkit::hooks::take_writes();
        let request_items = 7 + n.min(REQUEST_CHUNK as u64);
        let started = Instant::now();
        let mut sweeps = 0;
        while store.privacy().erasure_pending(user).await.expect("read") {
            store
                .privacy()
                .sweep(store.now() + Duration::seconds(11))
                .await
                .expect("a sweep");
            sweeps += 1;
            assert!(sweeps < 100, "the erasure finishes");
        }
        let clock_ms = started.elapsed().as_secs_f64() * 1000.0;
        let (clock_wcu, _) = testkit::hooks::take_writes();
        println!(
            "{n:>9} {request_ms:>11.1} {request_items:>13} {sweeps:>7} {clock_ms:>10.1} {clock_wcu:>9.1}"
        );
        testkit::drop_table(&plain).await;
    }
}
