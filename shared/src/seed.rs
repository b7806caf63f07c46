//! Local demo data: hospitals around the default city (30.67, 74.33) and three
//! other cities, with a mixed fleet. Generated from a fixed seed (no real people),
//! through the normal store functions so indexes and counters are right.

use rand::{Rng, SeedableRng, rngs::StdRng};

use crate::{
    error::ApiError,
    store::{
        Store,
        ambulances::{AmbulanceStatus, AmbulanceType, NewAmbulance},
        hospitals::NewHospital,
    },
    types::LatLng,
};

const FIRST: &[&str] = &[
    "City",
    "Civil",
    "Sunrise",
    "Lotus",
    "Green Valley",
    "Riverside",
    "Unity",
    "Hope",
    "Lifeline",
    "Shanti",
    "Sevak",
    "Harmony",
    "Care Point",
    "Silver Oak",
    "Mercy",
    "Metro",
];
const SECOND: &[&str] = &[
    "Hospital",
    "Medical Centre",
    "Multispeciality Hospital",
    "Health Clinic",
    "Trauma Centre",
];
const STREETS: &[&str] = &[
    "Mall Road",
    "GT Road",
    "Station Road",
    "Model Town",
    "Civil Lines",
    "Canal Road",
    "Bus Stand Road",
    "Ring Road",
];
const DRIVERS: &[&str] = &[
    "A. Singh",
    "R. Kumar",
    "M. Sharma",
    "P. Gill",
    "S. Verma",
    "K. Sandhu",
    "D. Arora",
    "J. Brar",
    "N. Dhillon",
    "V. Mehta",
];

const CITIES: &[(&str, f64, f64, usize, f64)] = &[
    // name, lat, lng, hospitals, spread (km)
    ("Bathinda", 30.67, 74.33, 40, 60.0),
    ("Ludhiana", 30.90, 75.85, 4, 12.0),
    ("Amritsar", 31.63, 74.87, 4, 12.0),
    ("Chandigarh", 30.73, 76.78, 4, 12.0),
];

#[derive(Debug, Default)]
pub struct SeedSummary {
    pub hospitals: usize,
    pub ambulances: usize,
}

/// Seeds hospitals and ambulances, only when there are no hospitals yet.
pub async fn seed_hospitals_and_ambulances(store: &Store) -> Result<SeedSummary, ApiError> {
    let mut summary = SeedSummary::default();
    if store.hospital_count().await? > 0 {
        return Ok(summary);
    }
    let mut rng = StdRng::seed_from_u64(2026);
    let mut plate = 1000;
    for (city, lat, lng, count, spread_km) in CITIES {
        for i in 0..*count {
            // A point within `spread_km` of the city centre.
            let r = spread_km * rng.random::<f64>().sqrt();
            let angle = rng.random::<f64>() * std::f64::consts::TAU;
            let hlat = lat + r * angle.sin() / 111.0;
            let hlng = lng + r * angle.cos() / (111.0 * lat.to_radians().cos());
            let name = format!(
                "{} {}{}",
                FIRST[rng.random_range(0..FIRST.len())],
                SECOND[rng.random_range(0..SECOND.len())],
                if *count > 10 {
                    format!(" {}", i + 1)
                } else {
                    format!(", {city}")
                }
            );
            let hospital = store
                .add_hospital(NewHospital {
                    name,
                    address: format!(
                        "{} {}, {city}, Punjab",
                        rng.random_range(1..300),
                        STREETS[rng.random_range(0..STREETS.len())]
                    ),
                    location: LatLng::new(hlat, hlng).map_err(ApiError::internal)?,
                    contact_info: Some(format!(
                        "+91 {}",
                        rng.random_range(7_000_000_000u64..9_999_999_999)
                    )),
                })
                .await?;
            summary.hospitals += 1;
            for _ in 0..rng.random_range(2..=4) {
                plate += 1;
                let status = match rng.random_range(0..10) {
                    0..=6 => AmbulanceStatus::Available,
                    7 | 8 => AmbulanceStatus::OnDuty,
                    _ => AmbulanceStatus::Maintenance,
                };
                let ambulance = store
                    .add_ambulance(NewAmbulance {
                        number: format!("PB-{:02}-{}", rng.random_range(1..40), plate),
                        driver_info: Some(format!(
                            "{} ({})",
                            DRIVERS[rng.random_range(0..DRIVERS.len())],
                            rng.random_range(9_000_000_000u64..9_999_999_999)
                        )),
                        status: if status == AmbulanceStatus::OnDuty {
                            AmbulanceStatus::Available
                        } else {
                            status
                        },
                        ambulance_type: [
                            AmbulanceType::Bls,
                            AmbulanceType::Als,
                            AmbulanceType::Pta,
                        ][rng.random_range(0..3)],
                        contact_info: Some(format!(
                            "+91 {}",
                            rng.random_range(7_000_000_000u64..9_999_999_999)
                        )),
                        hospital_id: hospital.id,
                    })
                    .await?;
                if status == AmbulanceStatus::OnDuty {
                    // Out on a call that was not booked through the app.
                    store
                        .set_ambulance_status(ambulance.id, AmbulanceStatus::OnDuty)
                        .await?;
                }
                summary.ambulances += 1;
            }
        }
    }
    Ok(summary)
}
