//! `make bench`: Web Push (decision 0014) on DynamoDB Local (DYNAMODB_ENDPOINT), as
//! the local stack runs it: notify's poller reading the table's stream every
//! `BENCH_POLL_MS` (default 200, the stack's NOTIFY_EVERY_MS), pushing to a
//! push-service stand-in on loopback that decrypts and verifies each push.
//!
//! 1. From the dispatch's commit (the emergency request answered 201) to the crew's
//!    JOB push arriving at the stand-in: `BENCH_PUSHES` (default 40) emergencies one
//!    at a time, each to a crew with one subscribed device; p50, p95, max.
//! 2. notify's CPU time per push: the stream's records of those dispatches handled
//!    again (`BENCH_REPLAYS` times, default 5) by `Notifier::handle` alone on a
//!    thread of its own, its CPU time (utime + stime of /proc/thread-self/stat, at
//!    the kernel's 100 Hz) over the pushes delivered: reading the recipients,
//!    encrypting, signing and sending, with DynamoDB Local's and the stand-in's own
//!    work on other threads.

use std::time::{Duration, Instant};

use api_tests::system;
use http::StatusCode;
use notify::{Notifier, Sender, StreamEvent, Vapid, poll};
use serde_json::json;
use shared::{AppState, domain::ambulance::AmbulanceStatus};
use testkit::{
    TestApp,
    push_service::{PushService, vapid},
};

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().map_or(default, |v| {
        v.parse().unwrap_or_else(|_| panic!("{name}: a number"))
    })
}

/// This thread's CPU time so far (user + system), in seconds.
fn thread_cpu_secs() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").expect("/proc/thread-self/stat");
    // The fields after the command's closing parenthesis: utime and stime are the
    // 14th and 15th of the whole line, the 12th and 13th after it.
    let after = &stat[stat.rfind(')').expect("a stat line") + 2..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    ticks as f64 / 100.0
}

fn notifier(store: shared::Store) -> Notifier {
    let vapid = Vapid::new(&vapid().private_key, "mailto:bench@example.com").expect("a key");
    Notifier::new(
        store,
        Sender::new(vapid, shared::domain::push::Endpoints::AlsoLoopback),
    )
}

#[tokio::main]
async fn main() {
    let pushes = env_or("BENCH_PUSHES", 40) as usize;
    let every = Duration::from_millis(env_or("BENCH_POLL_MS", 200));
    let replays = env_or("BENCH_REPLAYS", 5) as usize;

    let store = testkit::bench_store_with_stream("bench-push").await;
    let state = AppState::new(perf_tools::bench_config(store.table())).await;
    let app = TestApp::with_state(state, system);
    let service = PushService::start(&vapid().public_key).await;

    // One hospital near the pickup, an ambulance per dispatch, each with a crew whose
    // phone is subscribed; a requester per dispatch (one open emergency each).
    let h = app.seed_hospital("Bench", 30.70, 74.35).await;
    for i in 0..pushes {
        let amb = app
            .seed_ambulance(h.id, &format!("P-{i}"), AmbulanceStatus::Available)
            .await;
        let crew = app.crew(&format!("crew{i}"), amb.id).await;
        let res = app
            .put(
                "/api/push/subscription",
                Some(&crew.token),
                service.device().subscription(),
            )
            .await;
        assert_eq!(res.status, StatusCode::NO_CONTENT, "{:?}", res.body);
    }
    let mut users = vec![];
    for i in 0..pushes {
        users.push(app.user(&format!("caller{i}")).await);
    }

    let poller = {
        let notifier = notifier(app.state.store.clone());
        let streams = poll::LocalStreams::new(&testkit::endpoint());
        tokio::spawn(async move {
            poll::poll(&notifier, &streams, every, poll::Start::Now)
                .await
                .expect("the poller");
        })
    };
    // Let the poller take its place at the stream's end.
    tokio::time::sleep(Duration::from_secs(1)).await;

    let mut delays = vec![];
    for user in &users {
        let res = app
            .post(
                "/api/booking/emergency",
                Some(&user.token),
                json!({"pickup": {"latitude": 30.70, "longitude": 74.351}}),
            )
            .await;
        let committed = Instant::now();
        assert_eq!(res.status, StatusCode::CREATED, "{:?}", res.body);
        let booking = res.body["id"].clone();
        let arrived = loop {
            let got = service
                .received()
                .into_iter()
                .find(|r| r.payload["kind"] == "JOB" && r.payload["bookingId"] == booking);
            if let Some(r) = got {
                break r.at;
            }
            assert!(
                committed.elapsed() < Duration::from_secs(30),
                "no JOB push for {booking}"
            );
            tokio::time::sleep(Duration::from_millis(2)).await;
        };
        delays.push(arrived.saturating_duration_since(committed).as_secs_f64());
    }
    poller.abort();
    assert_eq!(service.rejected(), Vec::<String>::new());
    delays.sort_by(f64::total_cmp);
    println!(
        "web push: from the dispatch's commit to the JOB push at the push service ({pushes} dispatches, notify polling every {} ms): p50 {:.2} s, p95 {:.2} s, max {:.2} s",
        every.as_millis(),
        perf_tools::percentile(&delays, 0.5),
        perf_tools::percentile(&delays, 0.95),
        delays[delays.len() - 1],
    );

    // notify's CPU per push: the dispatches' records handled again, alone on a thread.
    let records: Vec<_> = poll::LocalStreams::new(&testkit::endpoint())
        .records(&app.state.store)
        .await
        .expect("the stream");
    let before = service.received().len();
    let notifier = notifier(app.state.store.clone());
    let cpu = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let start = thread_cpu_secs();
        let wall = Instant::now();
        rt.block_on(async {
            for _ in 0..replays {
                for batch in records.chunks(25) {
                    let answer = notifier
                        .handle(StreamEvent {
                            records: batch.to_vec(),
                        })
                        .await;
                    assert!(answer.batch_item_failures.is_empty());
                }
            }
        });
        (thread_cpu_secs() - start, wall.elapsed().as_secs_f64())
    })
    .join()
    .expect("the handler thread");
    let delivered = service.received().len() - before;
    println!(
        "notify's CPU per push: {:.2} ms ({delivered} pushes in {:.1} s of wall time, {:.2} s of CPU on the handler's thread)",
        cpu.0 * 1000.0 / delivered.max(1) as f64,
        cpu.1,
        cpu.0,
    );
    testkit::drop_table(&app.state.store).await;
}
