//! Every key of the table, once (docs/data-model.md shows them as a table). An
//! item's `pk`/`sk` and its index keys are made here and nowhere else.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use serde::{Deserialize, Serialize};

use crate::types::{Email, Id, Username};

/// An item's primary key.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Key {
    pub pk: String,
    pub sk: String,
}

impl Key {
    pub fn new(pk: impl Into<String>, sk: impl Into<String>) -> Key {
        Key {
            pk: pk.into(),
            sk: sk.into(),
        }
    }

    pub fn item(&self) -> HashMap<String, AttributeValue> {
        HashMap::from([
            ("pk".to_owned(), AttributeValue::S(self.pk.clone())),
            ("sk".to_owned(), AttributeValue::S(self.sk.clone())),
        ])
    }
}

/// The item of a key, as the SDK takes it.
pub fn key(pk: impl Into<String>, sk: impl Into<String>) -> HashMap<String, AttributeValue> {
    Key::new(pk, sk).item()
}

pub fn user(id: Id) -> Key {
    Key::new(format!("USER#{id}"), "USER")
}

pub fn username_guard(username: &Username) -> Key {
    Key::new(format!("USERNAME#{}", username.key()), "GUARD")
}

pub fn email_guard(email: &Email) -> Key {
    Key::new(format!("EMAIL#{}", email.key()), "GUARD")
}

/// The ids of a user's open bookings (`open_bookings`), beside the user.
pub fn open_bookings_guard(user: Id) -> Key {
    Key::new(format!("USER#{user}"), "OPEN")
}

/// The login attempts of one username from one client address (`limits`).
pub fn login_streak(username: &Username, address: &str) -> Key {
    Key::new(format!("LOGIN#{}#{address}", username.key()), "STREAK")
}

/// One window of one rate limit (`limits`) for one subject (a user, an address).
pub fn rate_limit(limit: &str, subject: &str, window_start: i64) -> Key {
    Key::new(
        format!("LIMIT#{limit}#{subject}"),
        format!("WINDOW#{window_start}"),
    )
}

/// A session (a refresh-token family, `sessions`).
pub fn session(id: &str) -> Key {
    Key::new(format!("SESSION#{id}"), "SESSION")
}

pub fn hospital(id: Id) -> Key {
    Key::new(format!("HOSPITAL#{id}"), "HOSPITAL")
}

pub fn ambulance(id: Id) -> Key {
    Key::new(format!("AMBULANCE#{id}"), "AMBULANCE")
}

/// The last reported position of an ambulance (`store::positions`): in no index.
pub fn position(ambulance: Id) -> Key {
    Key::new(format!("AMBULANCE#{ambulance}"), "POSITION")
}

/// The free-ambulance geo entry at its last position: exists only while AVAILABLE.
pub fn free_position(ambulance: Id) -> Key {
    Key::new(format!("AMBULANCE#{ambulance}"), "FREEPOS")
}

pub fn ambulance_number_guard(number: &str) -> Key {
    Key::new(format!("AMBNUMBER#{}", number.to_lowercase()), "GUARD")
}

pub fn booking(id: Id) -> Key {
    Key::new(format!("BOOKING#{id}"), "BOOKING")
}

pub fn idempotency(user: Id, key: &str) -> Key {
    Key::new(format!("IDEM#{user}#{key}"), "IDEM")
}

pub fn sequence(entity: &str) -> Key {
    Key::new(format!("SEQ#{entity}"), "SEQ")
}

/// The partition of a counter's shards, and one shard.
pub fn counter(name: &str) -> String {
    format!("COUNTER#{name}")
}

pub fn counter_shard(name: &str, shard: u32) -> Key {
    Key::new(counter(name), format!("SHARD#{shard}"))
}

/// The nearest-hospital index (`hospital_index`): its version and manifest items.
pub fn hospital_index_version() -> Key {
    Key::new(HOSPITAL_INDEX, "VERSION")
}

pub fn hospital_index_manifest() -> Key {
    Key::new(HOSPITAL_INDEX, "MANIFEST")
}

/// The partition of a group of the index's chunks, in one epoch.
pub fn hospital_index_group(epoch: &str, group: u64) -> String {
    format!("{HOSPITAL_INDEX}#{epoch}#{group}")
}

/// A chunk of the index (`group` is the chunk's group).
pub fn hospital_index_chunk(epoch: &str, group: u64, chunk: u64) -> Key {
    Key::new(
        hospital_index_group(epoch, group),
        format!("CHUNK#{chunk:014}"),
    )
}

const HOSPITAL_INDEX: &str = "HOSPITAL_INDEX";

// ---- index keys

/// `gsi1pk` of a hospital's ambulances.
pub fn hospital_ambulances(hospital: Id) -> String {
    format!("HOSP#{hospital}")
}

/// `gsi1sk` of an ambulance.
pub fn ambulance_in_hospital(id: Id) -> String {
    format!("AMB#{}", id.padded())
}

/// `gsi1pk` of a user's bookings.
pub fn user_bookings(user: Id) -> String {
    format!("USER#{user}")
}

/// `gsi1sk` and `listsk` of a booking: time order, ties by id.
pub fn booking_time(time: &str, id: Id) -> String {
    format!("{time}#{}", id.padded())
}

/// `listsk` of hospitals and ambulances: by lowercase name, ties by id.
pub fn by_name(name: &str, id: Id) -> String {
    format!("{}#{}", name.to_lowercase(), id.padded())
}

/// `gsi1pk` of an ambulance's crew accounts.
pub fn ambulance_crew(ambulance: Id) -> String {
    format!("AMBCREW#{ambulance}")
}

/// `gsi1sk` of a crew account.
pub fn crew_in_ambulance(id: Id) -> String {
    format!("USER#{}", id.padded())
}

/// The `listpk` partitions of the `list` index.
pub const HOSPITALS: &str = "HOSPITALS";
pub const AMBULANCES: &str = "AMBULANCES";
pub const BOOKINGS: &str = "BOOKINGS";
pub const CREW: &str = "CREW";

/// The res-2 H3 cell (~86 000 km²) of a point: the partitions of `open` and `freegeo`.
fn res2_cell(lat: f64, lng: f64) -> h3o::CellIndex {
    point(lat, lng).to_cell(h3o::Resolution::Two)
}

fn point(lat: f64, lng: f64) -> h3o::LatLng {
    h3o::LatLng::new(lat, lng).expect("coordinates are validated before they are stored")
}

/// `openpk` of an open booking with its pickup at (lat, lng): its res-2 cell.
pub fn open_bookings(lat: f64, lng: f64) -> String {
    open_bookings_in(res2_cell(lat, lng))
}

/// `openpk` of the open bookings with their pickup in the res-2 cell `cell`.
pub fn open_bookings_in(cell: h3o::CellIndex) -> String {
    format!("OPEN#{cell}")
}

/// Shards of each `freegeo` partition: a free ambulance's entries go to shard
/// `id mod FREE_SHARDS`, so at most 1/8 of a cell's writes hit one partition key
/// (docs/decisions/0007-dispatch-data.md has the bound).
pub const FREE_SHARDS: u64 = 8;

/// `(freegeopk, freegeosk)` of a free ambulance's entry at (lat, lng): like the
/// hospitals' `geo` keys (the res-15 cell as a number, so one Query reads any cell of
/// resolution ≥ 2), with the partition split into [`FREE_SHARDS`].
pub fn free_geo(lat: f64, lng: f64, ambulance: Id) -> (String, u64) {
    let cell = point(lat, lng).to_cell(h3o::Resolution::Fifteen);
    (
        free_geo_partition(res2_cell(lat, lng), ambulance.get() % FREE_SHARDS),
        u64::from(cell),
    )
}

/// One shard of the `freegeo` partition of a res-2 cell.
pub fn free_geo_partition(cell: h3o::CellIndex, shard: u64) -> String {
    format!("F2#{cell}#{shard}")
}

/// `availpk` of every available ambulance (the sparse `avail` index).
pub const AVAILABLE: &str = "AVAILABLE";

/// `availsk` of an available ambulance: by hospital, so one hospital's are a prefix.
pub fn available(hospital: Id, id: Id) -> String {
    format!("{}{}", available_in(hospital), id.padded())
}

/// The `availsk` prefix of one hospital's available ambulances.
pub fn available_in(hospital: Id) -> String {
    format!("{}#", hospital.padded())
}
