//! Local demo data: hospitals around the default city (30.67, 74.33) and three
//! other cities, with a mixed fleet. Generated from a fixed seed through the normal
//! store functions, so indexes and counters are right. Names are combinations of
//! common words and initials (no real people); phone numbers have a subscriber
//! number starting with 0 after the area code, which no real Indian number has.

use rand::{Rng, SeedableRng, rngs::StdRng, seq::SliceRandom};

use crate::Store;
use crate::error::StoreError;
use domain::{
    ambulance::{AmbulanceStatus, AmbulanceType, NewAmbulance},
    crew::NewCrew,
    geo::Point,
    hospital::NewHospital,
    hospital_staff::NewHospitalStaff,
    types::{Email, Phone, Username},
    user::NewAccount,
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
    "Guru Nanak",
    "Apex",
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
    "Hospital Bazaar",
    "Power House Road",
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
    "H. Kaur",
    "T. Bedi",
    "L. Sidhu",
    "G. Bansal",
];

struct City {
    name: &'static str,
    state: &'static str,
    centre: Point,
    hospitals: usize,
    spread_km: f64,
    std_code: &'static str,
    plate: &'static str,
}

const CITIES: &[City] = &[
    City {
        name: "Bathinda",
        state: "Punjab",
        centre: Point::new(30.67, 74.33),
        hospitals: 40,
        spread_km: 60.0,
        std_code: "164",
        plate: "PB-03",
    },
    City {
        name: "Ludhiana",
        state: "Punjab",
        centre: Point::new(30.90, 75.85),
        hospitals: 4,
        spread_km: 12.0,
        std_code: "161",
        plate: "PB-10",
    },
    City {
        name: "Amritsar",
        state: "Punjab",
        centre: Point::new(31.63, 74.87),
        hospitals: 4,
        spread_km: 12.0,
        std_code: "183",
        plate: "PB-02",
    },
    City {
        name: "Chandigarh",
        state: "Chandigarh",
        centre: Point::new(30.73, 76.78),
        hospitals: 4,
        spread_km: 10.0,
        std_code: "172",
        plate: "CH-01",
    },
];

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SeedSummary {
    pub hospitals: usize,
    pub ambulances: usize,
}

/// Not a dialable number: Indian subscriber numbers never start with 0.
fn phone(rng: &mut StdRng, std_code: &str) -> String {
    format!(
        "+91 {std_code} 0{:02} {:04}",
        rng.random_range(0..100),
        rng.random_range(0..10_000)
    )
}

/// Seeds 52 hospitals and about 180 ambulances, only when there are no hospitals
/// yet (so a second run, or a database someone already filled, is left alone).
pub async fn seed_hospitals_and_ambulances(store: &Store) -> Result<SeedSummary, StoreError> {
    let mut summary = SeedSummary::default();
    if store.hospitals().hospital_count().await? > 0 {
        return Ok(summary);
    }
    let mut rng = StdRng::seed_from_u64(2026);
    let mut names: Vec<(&str, &str)> = FIRST
        .iter()
        .flat_map(|f| SECOND.iter().map(move |s| (*f, *s)))
        .collect();
    names.shuffle(&mut rng);
    let mut names = names.into_iter();
    let mut plate = 1000;
    for city in CITIES {
        for _ in 0..city.hospitals {
            // A point within `spread_km` of the city centre, uniform over the disk.
            let r = city.spread_km * rng.random::<f64>().sqrt();
            let angle = rng.random::<f64>() * std::f64::consts::TAU;
            let Point { lat, lng } = city.centre;
            let at = Point::new(
                lat + r * angle.sin() / 111.2,
                lng + r * angle.cos() / (111.2 * lat.to_radians().cos()),
            );
            let (first, second) = names.next().expect("enough name combinations");
            let name = if city.hospitals > 10 {
                format!("{first} {second}")
            } else {
                format!("{first} {second}, {}", city.name)
            };
            let hospital = store
                .hospitals()
                .add_hospital(NewHospital {
                    name,
                    address: format!(
                        "{} {}, {}, {}",
                        rng.random_range(1..300),
                        STREETS[rng.random_range(0..STREETS.len())],
                        city.name,
                        city.state
                    ),
                    location: at,
                    contact_info: Some(phone(&mut rng, city.std_code)),
                })
                .await?;
            summary.hospitals += 1;
            for _ in 0..rng.random_range(3..=4) {
                plate += 1;
                let status = match rng.random_range(0..10) {
                    0..=6 => AmbulanceStatus::Available,
                    7 | 8 => AmbulanceStatus::OnDuty,
                    _ => AmbulanceStatus::Maintenance,
                };
                let letters: String = (0..2)
                    .map(|_| char::from(b'A' + rng.random_range(0..26u8)))
                    .collect();
                let ambulance = store
                    .fleet()
                    .add_ambulance(NewAmbulance {
                        number: format!("{}-{letters}-{plate}", city.plate),
                        driver_info: Some(format!(
                            "{} ({})",
                            DRIVERS[rng.random_range(0..DRIVERS.len())],
                            phone(&mut rng, city.std_code)
                        )),
                        // A new ambulance is AVAILABLE or MAINTENANCE.
                        status: if status == AmbulanceStatus::OnDuty {
                            AmbulanceStatus::Available
                        } else {
                            status
                        },
                        ambulance_type: match rng.random_range(0..10) {
                            0..=4 => AmbulanceType::Bls,
                            5..=7 => AmbulanceType::Als,
                            _ => AmbulanceType::Pta,
                        },
                        contact_info: Some(phone(&mut rng, city.std_code)),
                        hospital_id: hospital.id,
                    })
                    .await?;
                if status == AmbulanceStatus::OnDuty {
                    // Out on a call that was not booked through the app.
                    store
                        .fleet()
                        .set_ambulance_status(ambulance.id, AmbulanceStatus::OnDuty)
                        .await?;
                }
                summary.ambulances += 1;
            }
        }
    }
    Ok(summary)
}

/// The demo hospital staff login's password (local only, printed by `make dev`).
pub const HOSPITAL_STAFF_PASSWORD: &str = "hospital12345";

/// The demo hospital staff login: its username and hospital.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HospitalStaffLogin {
    pub username: String,
    pub hospital_name: String,
}

/// One hospital staff account, `hospital1`, at the first hospital (the one the
/// demo crews drive for, which has ambulances: its board fills as they work), with
/// the password [`HOSPITAL_STAFF_PASSWORD`] (hashed by the caller). Left alone when
/// it exists; the login is answered either way (None without a seeded hospital).
pub async fn seed_hospital_staff(
    store: &Store,
    password_hash: &str,
) -> Result<Option<HospitalStaffLogin>, StoreError> {
    let centre = CITIES[0].centre;
    let (nearest, _) = store
        .hospitals()
        .nearest_hospitals(centre, 1, 100.0)
        .await?;
    let Some(first) = nearest.into_iter().next() else {
        return Ok(None);
    };
    let name = "hospital1";
    let username = Username::try_from(name.to_owned()).map_err(StoreError::internal)?;
    if store.users().account_by_name(&username).await?.is_none() {
        store
            .hospital_staff()
            .create_hospital_staff(NewHospitalStaff {
                account: NewAccount {
                    username,
                    email: Email::try_from(format!("{name}@example.com"))
                        .map_err(StoreError::internal)?,
                    // Not dialable: no Indian subscriber number starts with 0.
                    phone: Phone::try_from("+91 164 0100 0100".to_owned())
                        .map_err(StoreError::internal)?,
                    password_hash: password_hash.to_owned(),
                },
                hospital_id: first.id,
            })
            .await?;
    }
    Ok(Some(HospitalStaffLogin {
        username: name.to_owned(),
        hospital_name: first.name,
    }))
}

/// The demo crew accounts' password (local only, printed by `make dev`).
pub const CREW_PASSWORD: &str = "crew12345";

/// A demo crew login: `crew1` drives ambulance `PB-03-..`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrewLogin {
    pub username: String,
    pub ambulance_number: String,
}

/// One crew account per ambulance of the first hospital (the one nearest the
/// default city's centre, which the demo user sees first): `crew1`, `crew2`... with
/// the password [`CREW_PASSWORD`] (hashed by the caller). Accounts that exist are
/// left alone; the logins are answered either way.
pub async fn seed_crew(store: &Store, password_hash: &str) -> Result<Vec<CrewLogin>, StoreError> {
    let centre = CITIES[0].centre;
    let (nearest, _) = store
        .hospitals()
        .nearest_hospitals(centre, 1, 100.0)
        .await?;
    let Some(first) = nearest.first() else {
        return Ok(vec![]);
    };
    let mut fleet = store.fleet().hospital_ambulances(first.id, false).await?;
    fleet.sort_by_key(|a| a.id);
    let mut logins = vec![];
    for (i, ambulance) in fleet.into_iter().enumerate() {
        let name = format!("crew{}", i + 1);
        let username = Username::try_from(name.clone()).map_err(StoreError::internal)?;
        if store.users().account_by_name(&username).await?.is_none() {
            store
                .crew()
                .create_crew(NewCrew {
                    account: NewAccount {
                        username,
                        email: Email::try_from(format!("{name}@example.com"))
                            .map_err(StoreError::internal)?,
                        // Not dialable: no Indian subscriber number starts with 0.
                        phone: Phone::try_from(format!("+91 164 0{:02} 00{:02}", i + 1, i + 1))
                            .map_err(StoreError::internal)?,
                        password_hash: password_hash.to_owned(),
                    },
                    ambulance_id: ambulance.id,
                })
                .await?;
        }
        logins.push(CrewLogin {
            username: name,
            ambulance_number: ambulance.number,
        });
    }
    Ok(logins)
}
