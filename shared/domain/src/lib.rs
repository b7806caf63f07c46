//! The entities and their rules, without the database: what an ambulance, a
//! hospital, a booking and a user are, which values they may hold, which moves are
//! allowed and what a refused move tells the caller. Plain types and functions,
//! unit-tested here; the `store` crate persists them and `functions/*` serve them.
//!
//! The lowest layer (docs/architecture.md): this crate depends on no other crate of
//! the workspace, so the compiler keeps the database and HTTP out of it. One file per
//! entity; `types` holds the newtypes that parse input, `geo` points, distances and
//! the nearest search.

pub mod alert;
pub mod ambulance;
pub mod audit;
pub mod booking;
pub mod crew;
pub mod deadline;
pub mod dispatch;
pub mod emergency;
pub mod eta;
pub mod hospital;
pub mod hospital_staff;
pub mod page;
pub mod position;
pub mod presence;
pub mod privacy;
pub mod push;
pub mod receiving;
pub mod refusal;
pub mod response_times;
pub mod session;
pub mod settings;
pub mod user;

pub mod geo;
pub mod types;

#[cfg(test)]
mod test_input;

use strum::VariantArray;

/// `TryFrom<String>` by [`parse_leniently`] (what serde's `try_from = "String"`
/// calls) for an enum: `lenient!(AmbulanceStatus, "status");`. A macro, because no
/// one generic impl can do it (the orphan rule forbids `impl<T> TryFrom<String> for T`).
///
/// Every enum the API reads takes it (before it, `gender` was case-sensitive while
/// `stage` and `type` were not): one rule, case-insensitive in, one spelling out
/// (the contract's: upper-case codes, and the spec's `Male`, `Female`, `Other`).
macro_rules! lenient {
    ($enum:ty, $what:literal) => {
        impl TryFrom<String> for $enum {
            type Error = String;
            fn try_from(v: String) -> Result<Self, String> {
                $crate::parse_leniently(&v, $what)
            }
        }
    };
}
use lenient;

/// Parses an enum the way people type it in a query string: case-insensitive, `-`
/// and spaces as `_`, surrounding blanks ignored. A miss names the accepted values,
/// spelt as answered: `unknown status 'x': expected AVAILABLE, ON_DUTY or MAINTENANCE`.
fn parse_leniently<T>(text: &str, what: &str) -> Result<T, String>
where
    T: VariantArray + AsRef<str> + Copy,
{
    let wanted: String = text
        .trim()
        .chars()
        .map(|c| match c {
            '-' | ' ' => '_',
            c => c.to_ascii_uppercase(),
        })
        .collect();
    T::VARIANTS
        .iter()
        .find(|v| v.as_ref().eq_ignore_ascii_case(&wanted))
        .copied()
        .ok_or_else(|| {
            let names: Vec<&str> = T::VARIANTS.iter().map(AsRef::as_ref).collect();
            let (last, rest) = names.split_last().expect("an enum has variants");
            format!(
                "unknown {what} '{text}': expected {} or {last}",
                rest.join(", ")
            )
        })
}

#[cfg(test)]
mod tests {
    use super::{
        ambulance::{AmbulanceStatus, AmbulanceType},
        booking::{BookingStatus, BookingType, CrewStep, Gender},
        user::Role,
    };

    /// One rule for every enum read from a request: any case in, one spelling out.
    #[test]
    fn every_enum_is_read_in_any_case_and_written_in_one() {
        fn read<T: serde::de::DeserializeOwned>(text: &str) -> T {
            serde_json::from_value(serde_json::json!(text)).unwrap()
        }
        fn written<T: serde::Serialize>(value: T) -> String {
            serde_json::to_value(value)
                .unwrap()
                .as_str()
                .unwrap()
                .to_owned()
        }
        assert_eq!(written(read::<Gender>("fEMALE")), "Female");
        assert_eq!(written(read::<Gender>(" other ")), "Other");
        assert_eq!(written(read::<BookingType>("emergency")), "EMERGENCY");
        assert_eq!(written(read::<BookingStatus>("Cancelled")), "CANCELLED");
        assert_eq!(written(read::<AmbulanceStatus>("on-duty")), "ON_DUTY");
        assert_eq!(written(read::<AmbulanceType>("als")), "ALS");
        assert_eq!(written(read::<CrewStep>("at pickup")), "AT_PICKUP");
        assert_eq!(written(read::<Role>("admin")), "ADMIN");
        let err = serde_json::from_value::<Gender>(serde_json::json!("m")).unwrap_err();
        assert!(
            err.to_string()
                .contains("unknown gender 'm': expected Male, Female or Other"),
            "{err}"
        );
    }
}
