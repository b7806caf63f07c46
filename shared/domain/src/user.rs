//! Users: the account as the API shows it, roles, and what a new account or a
//! profile edit carries.

use serde::{Deserialize, Serialize};
use strum::{AsRefStr, VariantArray};

use super::lenient;
use crate::{
    geo::Point,
    refusal::{Conflict, Missing, Refusal},
    types::{Email, Id, LatLng, Latitude, Longitude, Phone, Username},
};

/// Serialized as `USER`, `ADMIN`, `CREW`, `HOSPITAL`; parsed case-insensitively.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, AsRefStr, VariantArray,
)]
#[serde(rename_all = "UPPERCASE", try_from = "String")]
#[strum(serialize_all = "UPPERCASE")]
pub enum Role {
    User,
    Admin,
    /// The driver or paramedic of one ambulance (`domain::crew`): made by admins,
    /// never by register.
    Crew,
    /// A member of one hospital's staff, the receiving end of trips
    /// (`domain::hospital_staff`): made by admins, never by register.
    Hospital,
}

lenient!(Role, "role");

impl Role {
    pub fn is_admin(self) -> bool {
        self == Role::Admin
    }

    pub fn is_crew(self) -> bool {
        self == Role::Crew
    }

    pub fn is_hospital(self) -> bool {
        self == Role::Hospital
    }

    /// Crew and hospital staff: accounts made by admins for one ambulance or one
    /// hospital, kept off the public's and the admins' routes alike.
    pub fn is_staff(self) -> bool {
        matches!(self, Role::Crew | Role::Hospital)
    }
}

/// A user as the API shows it: never the password hash.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct User {
    pub id: Id,
    pub username: String,
    pub email: String,
    pub phone: String,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub role: Role,
    pub created_at: crate::types::Timestamp,
}

/// What every new account is made with, a user's or a crew's: its unique names, its
/// phone and its password's hash (`auth::new_account` hashes it).
pub struct NewAccount {
    pub username: Username,
    pub email: Email,
    pub phone: Phone,
    pub password_hash: String,
}

pub struct NewUser {
    pub account: NewAccount,
    pub location: Option<Point>,
    pub role: Role,
}

pub struct ProfileChange {
    pub email: Email,
    /// `None` keeps the stored location.
    pub location: Option<Point>,
    pub password_hash: Option<String>,
}

/// Latitude and longitude go together: both (a new location), or neither (keep the
/// stored one). Half a pair is a 400 naming the missing half; a pair, in range, is a
/// place.
pub fn location_pair(
    latitude: Option<Latitude>,
    longitude: Option<Longitude>,
) -> Result<Option<Point>, Refusal> {
    match (latitude, longitude) {
        (Some(lat), Some(lng)) => Ok(Some(Point::from(LatLng { lat, lng }))),
        (None, None) => Ok(None),
        (Some(_), None) => Err(Refusal::invalid(
            "longitude",
            "Missing 'longitude': latitude and longitude go together",
        )),
        (None, Some(_)) => Err(Refusal::invalid(
            "latitude",
            "Missing 'latitude': latitude and longitude go together",
        )),
    }
}

pub fn not_found() -> Refusal {
    Missing::User.into()
}

pub fn username_taken() -> Refusal {
    Conflict::UsernameTaken.into()
}

pub fn email_taken() -> Refusal {
    Conflict::EmailTaken.into()
}

/// A profile edit that lost a race with another edit of the same profile.
pub fn changed_meanwhile() -> Refusal {
    Conflict::ProfileChanged.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_location_is_both_halves_or_none() {
        let lat = Latitude::try_from(30.0).ok();
        let lng = Longitude::try_from(74.0).ok();
        assert!(location_pair(lat, lng).unwrap().is_some());
        assert!(location_pair(None, None).unwrap().is_none());
        for (lat, lng, missing) in [(lat, None, "longitude"), (None, lng, "latitude")] {
            let Err(Refusal::Invalid { field, .. }) = location_pair(lat, lng) else {
                panic!("half a pair is a 400");
            };
            assert_eq!(field, missing);
        }
    }
}
