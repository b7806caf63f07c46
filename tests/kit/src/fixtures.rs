//! Fixtures: test accounts, and what a test seeds straight in the store through its
//! `TestApp`. Accounts (users, admins, crew, hospital staff) come with their tokens
//! and share one password hash; hospitals and ambulances go in past the routes.

use tokio::sync::OnceCell;

use domain::{
    ambulance::{Ambulance, AmbulanceStatus, AmbulanceType, NewAmbulance},
    crew::NewCrew,
    geo::Point,
    hospital::{Hospital, NewHospital},
    types::{Email, Id, Phone, Username},
    user::{NewAccount, NewUser, Role},
};

use crate::app::TestApp;

/// The password of every test account.
pub const TEST_PASSWORD: &str = "password123";

/// One argon2 hash of [`TEST_PASSWORD`], shared by all test users (hashing is slow).
pub async fn test_password_hash() -> String {
    static HASH: OnceCell<String> = OnceCell::const_new();
    HASH.get_or_init(|| async {
        let pw = domain::types::Password::try_from(TEST_PASSWORD.to_owned()).unwrap();
        web::auth::hash_password(&pw).await.unwrap()
    })
    .await
    .clone()
}

/// A test account: `<username>@example.com`, `phone`, password [`TEST_PASSWORD`].
pub async fn test_account(username: &str, phone: &str) -> NewAccount {
    NewAccount {
        username: Username::try_from(username.to_owned()).unwrap(),
        email: Email::try_from(format!("{username}@example.com")).unwrap(),
        phone: Phone::try_from(phone.to_owned()).unwrap(),
        password_hash: test_password_hash().await,
    }
}

/// An account a fixture made, with a token for its role.
#[derive(Debug, Clone)]
pub struct TestUser {
    pub id: Id,
    pub username: String,
    pub token: String,
}

/// The fixtures a test seeds straight in the store, past the routes.
impl TestApp {
    /// Whether `password` signs `username` in: the check login makes, against the
    /// stored hash.
    pub async fn password_works(&self, username: &str, password: &str) -> bool {
        let username = Username::try_from(username.to_owned()).unwrap();
        let stored = self
            .state
            .store
            .users()
            .account_by_name(&username)
            .await
            .unwrap();
        web::auth::verify_password(stored.map(|a| a.password_hash), password.to_owned())
            .await
            .unwrap()
    }

    /// A hospital straight in the store.
    pub async fn seed_hospital(&self, name: &str, at: Point) -> Hospital {
        self.state
            .store
            .hospitals()
            .add_hospital(NewHospital {
                name: name.to_owned(),
                address: format!("{name} Road"),
                location: at,
                contact_info: Some("+911234567".into()),
            })
            .await
            .unwrap()
    }

    /// An ALS ambulance of `hospital` straight in the store (driver "Ravi Kumar").
    pub async fn seed_ambulance(
        &self,
        hospital: Id,
        number: &str,
        status: AmbulanceStatus,
    ) -> Ambulance {
        self.state
            .store
            .fleet()
            .add_ambulance(NewAmbulance {
                number: number.to_owned(),
                driver_info: Some("Ravi Kumar".into()),
                status,
                ambulance_type: AmbulanceType::Als,
                contact_info: Some("+919999999".into()),
                hospital_id: hospital,
            })
            .await
            .unwrap()
    }

    /// Creates a user straight in the store and returns a token for them.
    pub async fn create_user(&self, username: &str, role: Role) -> TestUser {
        let user = self
            .state
            .store
            .users()
            .create_user(NewUser {
                account: test_account(username, "+15550001111").await,
                location: match role {
                    Role::User => Some(Point::new(30.67, 74.33)),
                    Role::Admin | Role::Crew | Role::Hospital => None,
                },
                role,
            })
            .await
            .unwrap();
        self.signed_in(user.id, user.username, role)
    }

    /// The account `id` with a token for `role`.
    fn signed_in(&self, id: Id, username: String, role: Role) -> TestUser {
        let token = self.state.auth.issue(id, role).unwrap();
        TestUser {
            id,
            username,
            token,
        }
    }

    pub async fn user(&self, username: &str) -> TestUser {
        self.create_user(username, Role::User).await
    }

    pub async fn admin(&self) -> TestUser {
        self.create_user("admin", Role::Admin).await
    }

    /// A crew account of `ambulance` straight in the store, with a token.
    pub async fn crew(&self, username: &str, ambulance: Id) -> TestUser {
        let crew = self
            .state
            .store
            .crew()
            .create_crew(NewCrew {
                account: test_account(username, "+15550002222").await,
                ambulance_id: ambulance,
            })
            .await
            .unwrap();
        self.signed_in(crew.id, crew.username, Role::Crew)
    }

    /// A hospital staff account of `hospital` straight in the store, with a token.
    pub async fn hospital_staff(&self, username: &str, hospital: Id) -> TestUser {
        let staff = self
            .state
            .store
            .hospital_staff()
            .create_hospital_staff(domain::hospital_staff::NewHospitalStaff {
                account: test_account(username, "+15550003333").await,
                hospital_id: hospital,
            })
            .await
            .unwrap();
        self.signed_in(staff.id, staff.username, Role::Hospital)
    }
}
