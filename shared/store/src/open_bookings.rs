//! The open-bookings guard: one item per user holding the ids of their open
//! (PENDING or ACTIVE) bookings. A booking adds its id in the same transaction that
//! writes it, on the condition that fewer than [`MAX_OPEN_BOOKINGS`] are there (for
//! callers the limit applies to); every move to a final status removes it in the
//! same transaction. So the limit holds under any concurrency (racers conflict on
//! the one item), and the guard is a list, not a count: removing an id that is not
//! there (a booking made before the guard existed) changes nothing, and a recount is
//! a comparison of two lists.

use domain::refusal::Conflict;
use serde::{Deserialize, Serialize, Serializer};

use super::{
    keys::{self, Key},
    table::Store,
    tx::Write,
};
use crate::error::StoreError;
use domain::types::Id;

/// Open bookings a user may hold at once (admins booking for them are exempt).
pub const MAX_OPEN_BOOKINGS: usize = 3;

/// Whether a booking is held to [`MAX_OPEN_BOOKINGS`]: it is, unless an admin makes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenLimit {
    Applies,
    Exempt,
}

const ATTRIBUTE: &str = "openBookings";

/// Set on the guard by an account's deletion (`store::privacy`), with a TTL.
pub(crate) const ERASED_AT: &str = "erasedAt";

/// Booking ids as a DynamoDB number set (what ADD and DELETE of set elements take).
struct IdSet<'a>(&'a [Id]);

impl Serialize for IdSet<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serde_dynamo::number_set::serialize(&self.0, s)
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Guard {
    #[serde(flatten)]
    _key: Key,
    #[serde(default)]
    open_bookings: Vec<Id>,
}

/// The write adding `booking` to `user`'s open bookings; where the limit applies,
/// only while fewer than [`MAX_OPEN_BOOKINGS`] are open (a refusal is [`too_many`]).
///
/// Never for a deleted account: its deletion leaves `erasedAt` on the guard for a
/// while (`store::privacy`), so a booking racing the deletion is refused too.
pub fn claim(user: Id, booking: Id, limit: OpenLimit) -> Write {
    let write = Write::update(keys::open_bookings_guard(user), "ADD #open :ids")
        .name("#open", ATTRIBUTE)
        .value(":ids", IdSet(&[booking]))
        .when(format!("attribute_not_exists({ERASED_AT})"));
    match limit {
        OpenLimit::Applies => write
            .when("(attribute_not_exists(#open) OR size(#open) < :max)")
            .value(":max", MAX_OPEN_BOOKINGS),
        OpenLimit::Exempt => write,
    }
}

/// The write removing `booking` from `user`'s open bookings (never refused).
pub fn release(user: Id, booking: Id) -> Write {
    Write::update(keys::open_bookings_guard(user), "DELETE #open :ids")
        .name("#open", ATTRIBUTE)
        .value(":ids", IdSet(&[booking]))
}

pub fn too_many() -> Conflict {
    Conflict::TooManyOpenBookings(MAX_OPEN_BOOKINGS)
}

/// The ids the guard holds for `user`, ascending (for recounts and support).
pub(crate) async fn ids(store: &Store, user: Id) -> Result<Vec<Id>, StoreError> {
    let mut ids = store
        .get::<Guard>(&keys::open_bookings_guard(user))
        .await?
        .map(|g| g.open_bookings)
        .unwrap_or_default();
    ids.sort();
    Ok(ids)
}
