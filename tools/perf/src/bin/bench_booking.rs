//! `make bench`: booking latency with 20 concurrent bookers on different ambulances,
//! and races of 100 bookers for one ambulance, in-process against DynamoDB Local
//! (DYNAMODB_ENDPOINT). Prints p50/p95 and how many won each race; exits non-zero
//! when a booking on a free ambulance fails, or a race has other than one winner
//! and conflicts.
//!
//! `BENCH_ROUNDS` (default 10) rounds of the 20 concurrent bookers; `BENCH_RACES`
//! (default 5) races of `BENCH_RACERS` (default 100, at least 20) bookers.

use std::time::Instant;

use domain::refusal::Refusal;
use domain::{
    ambulance::{AmbulanceStatus, AmbulanceType, NewAmbulance},
    booking::BookingRequest,
    geo::Point,
    hospital::NewHospital,
    refusal::Conflict,
    types::Id,
};
use futures::future::join_all;
use store::StoreError;
use store::open_bookings::OpenLimit;

/// Concurrent bookers per round.
const BOOKERS: usize = 20;

/// A booking as the app sends it, with a pickup near the hospital (the bench users
/// have no stored location to use instead).
fn request(hospital: Id, ambulance: Id) -> BookingRequest {
    web::http::parse_json(
        serde_json::json!({"hospitalId": hospital, "ambulanceId": ambulance, "bookingType": "EMERGENCY",
            "patient": {"name": "Bench", "age": 50, "gender": "Other", "condition": "bench"},
            "pickup": {"latitude": 30.02, "longitude": 74.01, "landmark": "bench gate"}})
        .to_string()
        .as_bytes(),
    )
    .expect("a valid booking request")
}

fn env_count(name: &str, default: usize) -> usize {
    std::env::var(name).map_or(default, |v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name}: a number, not {v:?}"))
    })
}

#[tokio::main]
async fn main() {
    let rounds = env_count("BENCH_ROUNDS", 10);
    let races = env_count("BENCH_RACES", 5);
    let racers = env_count("BENCH_RACERS", 100);
    assert!(racers >= BOOKERS, "BENCH_RACERS: at least {BOOKERS}");
    let store = testkit::bench_store("bench-booking").await;
    let hospital = store
        .hospitals()
        .add_hospital(NewHospital {
            name: "Bench".into(),
            address: "1 Road".into(),
            location: Point::new(30.0, 74.0),
            contact_info: None,
        })
        .await
        .unwrap();
    let mut ambulances = vec![];
    for i in 0..rounds * BOOKERS + races {
        let a = store
            .fleet()
            .add_ambulance(NewAmbulance {
                number: format!("B-{i}"),
                driver_info: None,
                status: AmbulanceStatus::Available,
                ambulance_type: AmbulanceType::Bls,
                contact_info: None,
                hospital_id: hospital.id,
            })
            .await
            .unwrap();
        ambulances.push(a.id);
    }
    let users = store.bulk().bench_users(racers).await.unwrap();

    // 20 concurrent bookers, each on its own ambulance, `rounds` rounds.
    let mut times = vec![];
    let mut next = 0;
    for _ in 0..rounds {
        let round = (0..BOOKERS).map(|i| {
            let (user, amb) = (users[i], ambulances[next + i]);
            let store = &store;
            async move {
                let start = Instant::now();
                let booked = store
                    .bookings()
                    .book(user, request(hospital.id, amb), None, OpenLimit::Exempt)
                    .await;
                let ms = start.elapsed().as_secs_f64() * 1000.0;
                if let Err(e) = booked {
                    panic!(
                        "booking ambulance {amb} (free, no one else asked for it) failed: {e:?}"
                    );
                }
                ms
            }
        });
        times.extend(join_all(round).await);
        next += BOOKERS;
    }
    times.sort_by(f64::total_cmp);
    let pct = |p: f64| times[((times.len() as f64 * p) as usize).min(times.len() - 1)];
    println!(
        "booking, {BOOKERS} concurrent bookers on different ambulances, {} bookings: p50 {:.1} ms, p95 {:.1} ms",
        times.len(),
        pct(0.5),
        pct(0.95)
    );

    // Races: `racers` bookers for one ambulance: one wins, the others get 409.
    let mut winners = vec![];
    let mut wrong = vec![];
    for race in 0..races {
        let amb = ambulances[next + race];
        let results = join_all(users.iter().map(|u| {
            store
                .bookings()
                .book(*u, request(hospital.id, amb), None, OpenLimit::Exempt)
        }))
        .await;
        let won = results.iter().filter(|r| r.is_ok()).count();
        let lost = results
            .iter()
            .filter(|r| {
                matches!(
                    r,
                    Err(StoreError::Refused(Refusal::Conflict(
                        Conflict::AmbulanceTaken
                    )))
                )
            })
            .count();
        winners.push(format!(
            "{won} won / {lost} conflict / {} other",
            results.len() - won - lost
        ));
        if won != 1 || lost != results.len() - 1 {
            let other = results.iter().find(|r| {
                !matches!(
                    r,
                    Ok(_)
                        | Err(StoreError::Refused(Refusal::Conflict(
                            Conflict::AmbulanceTaken
                        )))
                )
            });
            wrong.push(format!(
                "race {race}: {won} won, {lost} conflict; e.g. {other:?}"
            ));
        }
    }
    println!(
        "races of {racers} bookers for one ambulance: {}",
        winners.join("; ")
    );
    testkit::drop_table(&store).await;
    if !wrong.is_empty() {
        eprintln!("bench-booking: a race did not end with one winner and the rest 409:");
        for line in wrong {
            eprintln!("  {line}");
        }
        std::process::exit(1);
    }
}
