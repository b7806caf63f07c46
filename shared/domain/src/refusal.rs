//! Why a rule says no, in the domain's words. Every refusal the domain and the store
//! make is a variant here, with its data and its English message (the API's
//! `message`, word for word what the spec and the web app expect). Which HTTP status
//! and `code` each one answers is decided once, at the edge (`web::error`,
//! `impl From<Refusal> for ApiError`): nothing here knows HTTP, and no caller reads a
//! refusal back from a status or a message.
//!
//! At the bottom of the domain (only `types` below it), so that every entity module
//! can refuse without importing another: the parts of a message that are another
//! module's type (a status, a place in the trip) arrive rendered.

use crate::types::Id;

#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// Input no rule accepts: `field` names it as the request does.
    #[error("{message}")]
    Invalid { field: String, message: String },
    #[error(transparent)]
    NotFound(#[from] Missing),
    #[error(transparent)]
    NotAllowed(#[from] NotAllowed),
    #[error(transparent)]
    Conflict(#[from] Conflict),
    /// A fact the code relies on did not hold (a stored value out of range): a bug,
    /// logged and answered as a 500 without its detail.
    #[error("{0}")]
    Broken(String),
}

impl Refusal {
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        Refusal::Invalid {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// What was asked for is not there (or, for someone else's, looks as if it were not).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum Missing {
    #[error("User not found")]
    User,
    #[error("Booking {0} not found")]
    Booking(Id),
    /// Unknown and someone else's booking look the same in a user's history.
    #[error("Booking {0} is not in this history")]
    BookingInHistory(Id),
    #[error("Ambulance {0} not found")]
    Ambulance(Id),
    #[error("Hospital {0} not found")]
    Hospital(Id),
    #[error("Crew {0} not found")]
    Crew(Id),
    #[error("Alert {0} not found")]
    Alert(Id),
    /// Unknown, expired and revoked links all answer this (one body: a link tells
    /// nothing about whether it ever worked).
    #[error("This tracking link does not work: it is unknown, has expired or was revoked")]
    ShareLink,
}

/// The caller is who they say, and this is still not theirs to do.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NotAllowed {
    /// A crew account whose stored user is gone or no longer a crew.
    #[error("This route is only for ambulance crew accounts")]
    NotACrew,
    /// A hospital route's caller whose stored account is not hospital staff.
    #[error("This route is only for hospital staff accounts")]
    NotHospitalStaff,
    #[error("Booking {0} is not held by your ambulance")]
    NotYourJob(Id),
    /// Patient details and share links are the requester's.
    #[error("Only the person who booked may do this")]
    NotTheRequester,
    /// A hospital's own figures are its staff's; another hospital's are not.
    #[error("You may only see your own hospital's figures")]
    OtherHospital,
    /// Staff accounts (admins, crew, hospital staff) are the service's: an admin removes them
    /// (docs/decisions/0022-personal-data.md).
    #[error("Staff accounts are removed by an administrator, not from the profile")]
    StaffAccount,
}

/// The request clashes with how things stand now: a 409 whose message says why and,
/// where there is one, what to do instead.
#[derive(Debug, thiserror::Error)]
pub enum Conflict {
    // ---- Accounts -------------------------------------------------------------
    #[error("Username is already taken")]
    UsernameTaken,
    #[error("Email is already registered")]
    EmailTaken,
    #[error("The profile was changed at the same time; please retry")]
    ProfileChanged,
    /// `manage admin` on a crew account's name: its ambulance binding would stay.
    #[error(
        "{username} is a crew account: remove it (DELETE /api/admin/crew/{id}) before making the name an admin"
    )]
    NameIsCrew { username: String, id: Id },
    #[error("Crew {0} was changed at the same time; please retry")]
    CrewChanged(Id),

    // ---- Fleet and hospitals ----------------------------------------------------
    #[error("Ambulance number {0} already exists")]
    AmbulanceNumberTaken(String),
    /// What an admin may not do (`what`: "removed", "set to AVAILABLE"...) to an
    /// ambulance an open booking holds.
    #[error(
        "Ambulance {number} is held by open booking #{booking} and cannot be {what} until that booking is completed or cancelled"
    )]
    AmbulanceHeld {
        number: String,
        booking: Id,
        what: String,
    },
    #[error("Ambulance {number} changed {during} (it may just have been booked); please retry")]
    AmbulanceChanged { number: String, during: String },
    #[error("Ambulance {}", still_crewed(.number, *.crew))]
    AmbulanceCrewed { number: String, crew: u64 },
    #[error(
        "Hospital {id} cannot be removed: its ambulance {ambulance} is held by open booking #{booking}; complete or cancel that booking first"
    )]
    HospitalHeld {
        id: Id,
        ambulance: String,
        booking: Id,
    },
    #[error("Hospital {id} cannot be removed: its ambulance {}", still_crewed(.ambulance, *.crew))]
    HospitalCrewed {
        id: Id,
        ambulance: String,
        crew: u64,
    },
    #[error(
        "Hospital {0} changed while it was being removed (an ambulance was just added, booked or edited); please retry"
    )]
    HospitalChanged(Id),
    #[error("Hospitals changed while the index was being built; please retry")]
    HospitalIndexRaced,

    // ---- Booking ----------------------------------------------------------------
    /// Someone else booked the ambulance first.
    #[error("Ambulance is no longer available")]
    AmbulanceTaken,
    #[error("You already have {0} open bookings")]
    TooManyOpenBookings(usize),
    /// An account is deleted only once its bookings have ended: an ambulance on its
    /// way must still be able to find and call its requester.
    #[error("{}", account_in_use(.0))]
    AccountHasOpenBookings(Vec<Id>),
    #[error("A booking with this Idempotency-Key is in progress; retry")]
    BookingKeyInProgress,
    /// A move the trip's state machine refuses (`domain::booking::trip::plan`): from
    /// where to where, and why. The crew speak of the trip; admins and requesters of
    /// the booking's status.
    #[error("{}", trip_move(*.crew, .from, .to, .why))]
    TripMove {
        crew: bool,
        from: String,
        to: String,
        why: String,
    },
    #[error("Booking {0} was changed at the same time; please retry")]
    BookingChanged(Id),
    /// The crew's change of destination after the ambulance reached it.
    #[error("Booking {id} is {at}: its destination can no longer change")]
    DestinationFixed { id: Id, at: String },
    #[error("Booking {0} changed meanwhile; retry")]
    BookingChangedRetry(Id),
    /// Patient details and share links change only while the booking is open
    /// (`status` lower-case, `what` the refused change).
    #[error("Booking {id} is {status}: {what}")]
    BookingFinal {
        id: Id,
        status: String,
        what: String,
    },
    #[error(
        "Booking {id} already has {max} tracking links made in the last 24 hours: send one of those again (a link works for everyone who has it)"
    )]
    TooManyShareLinks { id: Id, max: usize },
    #[error(
        "The patient details of booking {id} have been changed {max} times, the most a booking takes: tell the crew or the dispatcher what changed"
    )]
    TooManyPatientEdits { id: Id, max: u32 },

    // ---- Emergency ----------------------------------------------------------------
    /// No free ambulance within reach: the nearest hospitals to call instead (as the
    /// API shows them).
    #[error("No ambulance is available near you")]
    NoAmbulanceNear { hospitals: serde_json::Value },
    /// A second emergency while one is open.
    #[error(
        "You already have an open emergency booking #{booking_id}: follow it there, or cancel it before asking again"
    )]
    OpenEmergency { booking_id: Id },
    #[error("An emergency request with this Idempotency-Key is in progress; retry")]
    EmergencyKeyInProgress,
    #[error("Another emergency request of yours ended at the same time; retry")]
    EmergencyEnded,

    // ---- Dispatch -----------------------------------------------------------------
    /// The job went to another ambulance (its answer deadline passed, or a dispatcher
    /// moved it): the crew's late tap loses the race (decision 0012).
    #[error("Booking {0} was given to another ambulance")]
    JobGone(Id),
    #[error(
        "Position not taken: it implies {speed_kmh} km/h from the last accepted one (at most {max_kmh}); the dispatcher can see it"
    )]
    ImplausiblePosition { speed_kmh: f64, max_kmh: f64 },
    #[error(
        "Position not used yet: a first position more than {km} km from the ambulance's hospital is kept for the dispatcher to see and used once 3 reports over 20 seconds agree"
    )]
    PositionFarFromHospital { km: f64 },
    #[error(
        "Position not used yet: accuracy worse than {max_m} m; it is kept for the dispatcher to see and used once 3 reports over 20 seconds agree"
    )]
    ImprecisePosition { max_m: f64 },
    #[error(
        "Booking {id} is {progress}: only an open booking whose ambulance has not reached the pickup can be reassigned"
    )]
    NotReassignable { id: Id, progress: String },
    #[error("Booking {id} already has ambulance {number}")]
    SameAmbulance { id: Id, number: String },
    #[error("Ambulance {number} is {status}: only an AVAILABLE ambulance can take a job")]
    AmbulanceNotFree { number: String, status: String },
    #[error("Ambulance {0} was taken meanwhile; choose another")]
    AmbulanceTakenMeanwhile(String),
    #[error("Booking {0} changed meanwhile; look again and retry")]
    ReassignRaced(Id),

    // ---- Settings -----------------------------------------------------------------
    #[error("The settings were changed by someone else at the same time; look again and retry")]
    SettingsChanged,
}

/// `<number> still has <crew> crew account(s); ...`: why an ambulance (or its
/// hospital) is not removed.
fn still_crewed(number: &str, crew: u64) -> String {
    let accounts = if crew == 1 { "account" } else { "accounts" };
    format!(
        "{number} still has {crew} crew {accounts}; move them to another ambulance or remove them first"
    )
}

fn account_in_use(ids: &[Id]) -> String {
    let list: Vec<String> = ids.iter().map(|id| format!("#{id}")).collect();
    let (one, them) = if ids.len() == 1 {
        ("booking", "it has")
    } else {
        ("bookings", "they have")
    };
    format!(
        "You have an open {one} ({}): your account can be deleted once {them} ended",
        list.join(", ")
    )
}

fn trip_move(crew: bool, from: &str, to: &str, why: &str) -> String {
    if crew {
        format!("Cannot move the trip from {from} to {to}: {why}")
    } else {
        format!("Cannot change booking status from {from} to {to}: {why}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crew_count_is_worded_for_one_and_for_many() {
        let one = Conflict::AmbulanceCrewed {
            number: "PB-1".into(),
            crew: 1,
        };
        assert_eq!(
            one.to_string(),
            "Ambulance PB-1 still has 1 crew account; move them to another ambulance or remove them first"
        );
        let id = Id::try_from(7).unwrap();
        let two = Conflict::HospitalCrewed {
            id,
            ambulance: "PB-2".into(),
            crew: 2,
        };
        assert_eq!(
            two.to_string(),
            "Hospital 7 cannot be removed: its ambulance PB-2 still has 2 crew accounts; move them to another ambulance or remove them first"
        );
    }
}
