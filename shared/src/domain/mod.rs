//! The entities and their rules, without the database: what an ambulance, a
//! hospital, a booking and a user are, which values they may hold, which moves are
//! allowed and what a refused move tells the caller. Plain types and functions,
//! unit-tested here; `store` persists them and `functions/*` serve them.
//!
//! One file per entity. Nothing in here imports `store`, `auth` or `http`.

pub mod ambulance;
pub mod booking;
pub mod crew;
pub mod dispatch;
pub mod emergency;
pub mod eta;
pub mod hospital;
pub mod page;
pub mod position;
pub mod user;

use strum::VariantArray;

/// `TryFrom<String>` by [`parse_leniently`] (what serde's `try_from = "String"`
/// calls) for an enum: `lenient!(AmbulanceStatus, "status");`. A macro, because no
/// one generic impl can do it (the orphan rule forbids `impl<T> TryFrom<String> for T`).
macro_rules! lenient {
    ($enum:ty, $what:literal) => {
        impl TryFrom<String> for $enum {
            type Error = String;
            fn try_from(v: String) -> Result<Self, String> {
                $crate::domain::parse_leniently(&v, $what)
            }
        }
    };
}
use lenient;

/// Parses an enum the way people type it in a query string: case-insensitive, `-`
/// and spaces as `_`, surrounding blanks ignored. A miss names the accepted values:
/// `unknown status 'x': expected AVAILABLE, ON_DUTY or MAINTENANCE`.
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
        .find(|v| v.as_ref() == wanted)
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
