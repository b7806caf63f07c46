//! Every function on this machine, for `make load` and `make bench`: a fresh
//! seeded table for benchmarks ([`Fixture`]) and percentiles. The route groups and
//! their routers behind one port are the system tests' ([`api_tests::FUNCTIONS`],
//! [`api_tests::system`]): one list of groups for the tests, the benchmarks and the
//! load test. Never deployed: this crate is not in template.yaml and not a route of
//! `cargo lambda watch`.

use std::time::Duration;

use domain::{
    ambulance::{AmbulanceStatus, AmbulanceType, NewAmbulance},
    crew::NewCrew,
    geo::Point,
    hospital::NewHospital,
    hospital_staff::NewHospitalStaff,
    types::{Email, Id, Password, Phone, Username},
    user::{NewAccount, NewUser, Role},
};
use store::{
    Store,
    config::{AppEnv, Config},
    schema,
};
use web::{AppState, auth::hash_password};

/// The value at percentile `p` (0..=1) of sorted samples, nearest rank.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = (p * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Milliseconds since `start`.
pub fn ms_since(start: std::time::Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1000.0
}

/// The JWT secret of the benchmarks (local only, at least 32 bytes).
pub const BENCH_SECRET: &str = "bench-secret-local-only-bench-secret-0123456789";
pub const BENCH_PASSWORD: &str = "bench-password-123";

/// The DynamoDB Local endpoint the script started.
pub fn endpoint() -> String {
    std::env::var("DYNAMODB_ENDPOINT").unwrap_or_else(|_| {
        panic!("DYNAMODB_ENDPOINT is not set: run this through make bench or make load")
    })
}

/// A benchmark's configuration: the production one with patient database timeouts
/// (a busy machine is not what is measured; the timeouts never shorten a call).
pub fn bench_config(table: &str) -> Config {
    Config {
        table_name: table.to_owned(),
        dynamodb_endpoint: Some(endpoint()),
        region: "us-east-1".into(),
        app_env: AppEnv::Local,
        jwt_secret: BENCH_SECRET.as_bytes().to_vec(),
        origin_secrets: None,
        db_attempt_timeout: Duration::from_secs(10),
        db_operation_timeout: Duration::from_secs(30),
        db_max_attempts: 3,
        answer_times: Default::default(),
        time_zone: Default::default(),
        vapid_public_key: Some(testkit::push_service::vapid().public_key.clone()),
    }
}

pub struct Account {
    pub id: Id,
    pub username: String,
    pub token: String,
}

/// Where the crew's hospital stands: far from the demo data (Punjab) and from the
/// hospitals the benchmarks add, so an emergency asked from here (within 50 km) can
/// only go to the crew's ambulance.
pub const CREW_PLACE: Point = Point::new(12.97, 77.59);

/// A fresh table with the demo hospitals and ambulances, two users and one admin,
/// and apart from the demo data ([`CREW_PLACE`]) a hospital with one AVAILABLE
/// ambulance and its crew (all with the password [`BENCH_PASSWORD`]).
pub struct Fixture {
    pub state: AppState,
    pub table: String,
    pub user: Account,
    pub other_user: Account,
    pub admin: Account,
    pub crew: Account,
    /// The crew's ambulance, the only one near [`CREW_PLACE`].
    pub crew_ambulance: Id,
    /// A staff account of the crew's hospital: the destination of the crew's trips
    /// (docs/decisions/0026-receiving-hospital.md).
    pub staff: Account,
}

impl Fixture {
    /// Creates the table `prefix-<random>` and seeds it through the normal store code.
    /// `state` may use a client of the caller's (e.g. one that counts calls).
    pub async fn create(prefix: &str, client: Option<aws_sdk_dynamodb::Client>) -> Fixture {
        let table = format!("{prefix}-{:08x}", rand::random::<u32>());
        let mut state = AppState::new(bench_config(&table)).await;
        if let Some(client) = client {
            state.store = Store::new(client, table.clone());
        }
        schema::create_table(state.store.client(), &table)
            .await
            .unwrap_or_else(|e| panic!("could not create table {table} at {}: {e:?}", endpoint()));
        store::seed::seed_hospitals_and_ambulances(&state.store)
            .await
            .expect("seed hospitals and ambulances");
        let password = Password::try_from(BENCH_PASSWORD.to_owned()).expect("valid password");
        let hash = hash_password(&password).await.expect("hash");
        let make = async |name: &str, role: Role| {
            let user = state
                .store
                .users()
                .create_user(NewUser {
                    account: NewAccount {
                        username: Username::try_from(name.to_owned()).expect("valid username"),
                        email: Email::try_from(format!("{name}@example.com")).expect("valid email"),
                        phone: Phone::try_from("+919800000000".to_owned()).expect("valid phone"),
                        password_hash: hash.clone(),
                    },
                    location: (role == Role::User).then_some(Point::new(30.67, 74.33)),
                    role,
                })
                .await
                .expect("create user");
            Account {
                id: user.id,
                username: user.username,
                token: state.auth.issue(user.id, role).expect("token"),
            }
        };
        let user = make("benchuser", Role::User).await;
        let other_user = make("benchuser2", Role::User).await;
        let admin = make("benchadmin", Role::Admin).await;
        let crew_hospital = state
            .store
            .hospitals()
            .add_hospital(NewHospital {
                name: "Bench Crew Hospital".into(),
                address: "1 Crew Road".into(),
                location: CREW_PLACE,
                contact_info: Some("+911234567".into()),
            })
            .await
            .expect("add the crew's hospital");
        let crew_ambulance = state
            .store
            .fleet()
            .add_ambulance(NewAmbulance {
                number: "BENCH-CREW-1".into(),
                driver_info: Some("Bench Driver".into()),
                status: AmbulanceStatus::Available,
                ambulance_type: AmbulanceType::Als,
                contact_info: Some("+919999999".into()),
                hospital_id: crew_hospital.id,
            })
            .await
            .expect("add the crew's ambulance")
            .id;
        let crew = state
            .store
            .crew()
            .create_crew(NewCrew {
                account: NewAccount {
                    username: Username::try_from("benchcrew".to_owned()).expect("valid username"),
                    email: Email::try_from("benchcrew@example.com".to_owned())
                        .expect("valid email"),
                    phone: Phone::try_from("+919800000001".to_owned()).expect("valid phone"),
                    password_hash: hash.clone(),
                },
                ambulance_id: crew_ambulance,
            })
            .await
            .expect("create the crew");
        let crew = Account {
            id: crew.id,
            token: state.auth.issue(crew.id, Role::Crew).expect("token"),
            username: crew.username,
        };
        let staff = state
            .store
            .hospital_staff()
            .create_hospital_staff(NewHospitalStaff {
                account: NewAccount {
                    username: Username::try_from("benchstaff".to_owned()).expect("valid username"),
                    email: Email::try_from("benchstaff@example.com".to_owned())
                        .expect("valid email"),
                    phone: Phone::try_from("+919800000002".to_owned()).expect("valid phone"),
                    password_hash: hash.clone(),
                },
                hospital_id: crew_hospital.id,
            })
            .await
            .expect("create the hospital's staff");
        let staff = Account {
            id: staff.id,
            token: state.auth.issue(staff.id, Role::Hospital).expect("token"),
            username: staff.username,
        };
        Fixture {
            state,
            table,
            user,
            other_user,
            admin,
            crew,
            crew_ambulance,
            staff,
        }
    }

    /// A new access token for `account` (tokens live 5 minutes; a long benchmark
    /// takes a fresh one now and then).
    pub fn token(&self, account: &Account, role: Role) -> String {
        self.state.auth.issue(account.id, role).expect("token")
    }

    pub async fn drop_table(&self) {
        let _ = self
            .state
            .store
            .client()
            .delete_table()
            .table_name(&self.table)
            .send()
            .await;
    }
}

/// A point uniform within `km` of `center` (the benchmarks' cities).
pub fn near(rng: &mut impl rand::Rng, center: Point, km: f64) -> Point {
    let r = km / 111.2 * rng.random::<f64>().sqrt();
    let a = rng.random::<f64>() * std::f64::consts::TAU;
    let lng = center.lng + r * a.cos() / center.lat.to_radians().cos();
    Point::new(center.lat + r * a.sin(), lng)
}
