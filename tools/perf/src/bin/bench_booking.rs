//! `make bench`: booking latency with 20 concurrent bookers on different ambulances,
//! and races of 100 bookers for one ambulance, in-process against DynamoDB Local
//! (DYNAMODB_ENDPOINT). Prints p50/p95 and how many won each race.

use std::time::Instant;

use futures::future::join_all;
use shared::{
    ApiError,
    domain::{
        ambulance::{AmbulanceStatus, AmbulanceType, NewAmbulance},
        booking::BookingRequest,
        hospital::NewHospital,
    },
    store::open_bookings::OpenLimit,
    types::{Id, LatLng},
};

fn request(hospital: Id, ambulance: Id) -> BookingRequest {
    shared::http::parse_json(
        serde_json::json!({"hospitalId": hospital, "ambulanceId": ambulance, "bookingType": "EMERGENCY",
            "patient": {"name": "Bench", "age": 50, "gender": "Other", "condition": "bench"}})
        .to_string()
        .as_bytes(),
    )
    .unwrap()
}

#[tokio::main]
async fn main() {
    let store = testkit::bench_store("bench-booking").await;
    let hospital = store
        .add_hospital(NewHospital {
            name: "Bench".into(),
            address: "1 Road".into(),
            location: LatLng::new(30.0, 74.0).unwrap(),
            contact_info: None,
        })
        .await
        .unwrap();
    let mut ambulances = vec![];
    for i in 0..300 {
        let a = store
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
    let users = store.bench_users(100).await.unwrap();

    // 20 concurrent bookers, each on its own ambulance, 10 rounds.
    let mut times = vec![];
    let mut next = 0;
    for _ in 0..10 {
        let round = (0..20).map(|i| {
            let (user, amb) = (users[i], ambulances[next + i]);
            let store = &store;
            async move {
                let start = Instant::now();
                store
                    .book(user, request(hospital.id, amb), None, OpenLimit::Exempt)
                    .await
                    .unwrap();
                start.elapsed().as_secs_f64() * 1000.0
            }
        });
        times.extend(join_all(round).await);
        next += 20;
    }
    times.sort_by(f64::total_cmp);
    let pct = |p: f64| times[((times.len() as f64 * p) as usize).min(times.len() - 1)];
    println!(
        "booking, 20 concurrent bookers on different ambulances, {} bookings: p50 {:.1} ms, p95 {:.1} ms",
        times.len(),
        pct(0.5),
        pct(0.95)
    );

    // Races: 100 bookers for one ambulance.
    let mut winners = vec![];
    for race in 0..5 {
        let amb = ambulances[next + race];
        let results = join_all(
            users
                .iter()
                .map(|u| store.book(*u, request(hospital.id, amb), None, OpenLimit::Exempt)),
        )
        .await;
        let won = results.iter().filter(|r| r.is_ok()).count();
        let lost = results
            .iter()
            .filter(|r| matches!(r, Err(ApiError::Conflict(_))))
            .count();
        winners.push(format!(
            "{won} won / {lost} conflict / {} other",
            results.len() - won - lost
        ));
    }
    println!(
        "races of 100 bookers for one ambulance: {}",
        winners.join("; ")
    );
    testkit::drop_table(&store).await;
}
