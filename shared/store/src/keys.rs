//! Every key of the table, once (docs/data-model.md shows them as a table). An
//! item's `pk`/`sk` and its index keys are made here and nowhere else.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use serde::{Deserialize, Serialize};

use domain::{
    geo::Point,
    types::{Email, Id, Username},
};

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

/// The sort keys of an ambulance's items (an operator's Scan filters on them).
pub const AMBULANCE_SK: &str = "AMBULANCE";
pub const POSITION_SK: &str = "POSITION";
pub const FREE_POSITION_SK: &str = "FREEPOS";

/// The partition of an ambulance's items.
const AMBULANCE_PREFIX: &str = "AMBULANCE#";

pub fn ambulance(id: Id) -> Key {
    Key::new(format!("{AMBULANCE_PREFIX}{id}"), AMBULANCE_SK)
}

/// The ambulance whose partition `pk` is (`None` for another key).
pub fn ambulance_of(pk: &str) -> Option<Id> {
    pk.strip_prefix(AMBULANCE_PREFIX)?.parse().ok()
}

/// The last reported position of an ambulance (`store::positions`): in no index.
pub fn position(ambulance: Id) -> Key {
    Key::new(format!("{AMBULANCE_PREFIX}{ambulance}"), POSITION_SK)
}

/// The free-ambulance geo entry at its last position: exists only while AVAILABLE.
pub fn free_position(ambulance: Id) -> Key {
    Key::new(format!("{AMBULANCE_PREFIX}{ambulance}"), FREE_POSITION_SK)
}

pub fn ambulance_number_guard(number: &str) -> Key {
    Key::new(format!("AMBNUMBER#{}", number.to_lowercase()), "GUARD")
}

/// The sort key of every booking item.
pub const BOOKING_SK: &str = "BOOKING";

/// The partition prefix of bookings, and of alerts: what the stream's filter passes
/// to `functions/notify` (template.yaml).
pub const BOOKING_PREFIX: &str = "BOOKING#";
pub const ALERT_PREFIX: &str = "ALERT#";
/// The sort key of every alert item.
pub const ALERT_SK: &str = "ALERT";

pub fn booking(id: Id) -> Key {
    Key::new(format!("{BOOKING_PREFIX}{id}"), BOOKING_SK)
}

/// Whether `key` is a booking's item.
pub fn is_booking(key: &Key) -> bool {
    key.sk == BOOKING_SK && key.pk.starts_with(BOOKING_PREFIX)
}

/// An alert for the dispatcher (`alerts`).
pub fn alert(id: Id) -> Key {
    Key::new(format!("{ALERT_PREFIX}{id}"), ALERT_SK)
}

/// Whether `key` is an alert's item.
pub fn is_alert(key: &Key) -> bool {
    key.sk == ALERT_SK && key.pk.starts_with(ALERT_PREFIX)
}

/// A user's last `NO_AMBULANCE` alert, kept a few minutes (`alerts`).
/// The open `NO_AMBULANCE` alert of an area (`domain::alert::no_ambulance_area`):
/// names it, so a refusal there adds to it instead of raising another.
pub fn no_ambulance_area(area: &str) -> Key {
    Key::new(format!("NOAMBULANCE#{area}"), "OPEN")
}

/// `gsi1` partitions of the alerts: open ones by `since`, ended ones by when they
/// ended.
pub const OPEN_ALERTS: &str = "ALERTS#OPEN";
pub const ENDED_ALERTS: &str = "ALERTS#ENDED";

/// An alert's `gsi1sk`: the moment (RFC 3339, so string order is time order), then
/// its id.
pub fn alert_order(at: &str, id: Id) -> String {
    format!("{at}#{}", id.padded())
}

/// The settings admins changed (`store::stored_settings`, decision 0018): one item.
pub fn settings() -> Key {
    Key::new("SETTINGS", "SETTINGS")
}

/// The audit trail (`store::audit`, docs/decisions/0023-audit-trail.md): every record
/// in this partition, and a copy in the partition of each booking, ambulance and admin
/// it concerns ([`audit_of_booking`], [`audit_of_ambulance`], [`audit_by_admin`]): the
/// table's own key serves each filter, newest first, with no index.
pub const AUDIT_LOG: &str = "AUDIT";

pub fn audit_of_booking(id: Id) -> String {
    format!("AUDIT#BOOKING#{id}")
}

pub fn audit_of_ambulance(id: Id) -> String {
    format!("AUDIT#AMBULANCE#{id}")
}

pub fn audit_by_admin(id: Id) -> String {
    format!("AUDIT#ADMIN#{id}")
}

/// The sort key of one record (the same in each of its partitions): when (RFC 3339,
/// so string order is time order), then 64 random bits (two records of one
/// millisecond never collide).
pub fn audit_entry(at: &str, nonce: u64) -> String {
    format!("{at}#{nonce:016x}")
}

/// The one partition of the sparse `due` index: the bookings whose crew has not
/// answered yet, by `answerBy` (epoch milliseconds). One partition: at 10 000 jobs a
/// day, a few dozen wait at once (decision 0012).
pub const DUE: &str = "DUE";

/// The one partition of the sparse `fold` index: the bookings that ended and are not
/// in the response-time report yet, by when they ended (epoch milliseconds). One
/// partition: the clock empties it every few seconds (decision 0021).
pub const FOLD: &str = "FOLD";

/// The response-time report's days of one hospital (`REPORT#<id:016>`), or of the
/// whole service (`REPORT#ALL`): one item per day (decision 0021).
pub fn report_days(hospital: Option<Id>) -> String {
    match hospital {
        Some(id) => format!("REPORT#{}", id.padded()),
        None => "REPORT#ALL".into(),
    }
}

/// A day's sort key in a report partition: `DAY#2026-03-01` (string order is date
/// order).
pub fn report_day_sk(day: time::Date) -> String {
    format!("{DAY_PREFIX}{}", domain::response_times::day_text(day))
}

const DAY_PREFIX: &str = "DAY#";

/// The day's text (`2026-03-01`) of a report day's sort key (`None` for another).
pub fn report_day_text(sk: &str) -> Option<&str> {
    sk.strip_prefix(DAY_PREFIX)
}

pub fn report_day(hospital: Option<Id>, day: time::Date) -> Key {
    Key::new(report_days(hospital), report_day_sk(day))
}

/// The `due` index's partition of finished bookings whose personal fields are still
/// kept, by when they finished (epoch milliseconds): what the retention sweep reads
/// (`store::privacy`, docs/decisions/0022-personal-data.md).
pub const FORGET: &str = "FORGET";

/// The `due` index's partition of deleted accounts whose erasure is still to finish,
/// by when the clock should look (epoch milliseconds; `store::privacy`).
pub const ERASE: &str = "ERASE";

/// A deleted account's erasure still to finish (`store::privacy`): exists from the
/// deleting request's transaction until the clock has erased every booking.
pub fn erasure(user: Id) -> Key {
    Key::new(format!("ERASURE#{user}"), "ERASURE")
}

/// A user's Web Push subscriptions (`store::push`): one partition per user.
pub fn push_devices(user: Id) -> String {
    format!("PUSH#{user}")
}

/// One subscription: `digest` is the hex digest of its endpoint.
pub fn push_device(user: Id, digest: &str) -> Key {
    Key::new(push_devices(user), format!("SUB#{digest}"))
}

/// The `gsi1` partition of the admins' subscriptions (an alert is for every admin).
pub const ADMIN_DEVICES: &str = "PUSH#ADMINS";

pub fn idempotency(user: Id, key: &str) -> Key {
    Key::new(format!("IDEM#{user}#{key}"), "IDEM")
}

/// A user's open one-tap emergency (`store::emergencies`): exists while it is open.
pub fn open_emergency(user: Id) -> Key {
    Key::new(format!("EMERGENCY#{user}"), "OPEN")
}

/// A tracking link, by the SHA-256 (hex) of its token (`store::shares`).
pub fn share_link(token_hash: &str) -> Key {
    Key::new(format!("SHARE#{token_hash}"), "SHARE")
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

/// `destpk` of the trips going to a hospital: the receiving hospital's board
/// (docs/decisions/0026-receiving-hospital.md).
pub fn destination_trips(hospital: Id) -> String {
    format!("DEST#{hospital}")
}

/// `destsk` of an open trip: `OPEN#`, then booking time and id. Every open trip
/// sorts after every ended one ([`destination_ended`]), so one range read from
/// "ended 24 h ago" on holds the open trips and those ended since.
pub fn destination_open(booking_time: &str, id: Id) -> String {
    format!("OPEN#{}", booking_time_key(booking_time, id))
}

/// `destsk` of a trip that ended at `at` (RFC 3339, so string order is time order).
pub fn destination_ended(at: &str, id: Id) -> String {
    format!("ENDED#{at}#{}", id.padded())
}

/// The first `destsk` of the board (exclusive): what ended at `since` or earlier
/// is left out.
pub fn destination_board_from(since: &str) -> String {
    format!("ENDED#{since}")
}

/// Every open trip's `destsk` begins with this ([`destination_open`]).
pub const DESTINATION_OPEN_PREFIX: &str = "OPEN#";

/// Above every ended trip's `destsk` and below every open one's: `$` follows `#`.
pub const DESTINATION_ENDED_LAST: &str = "ENDED$";

fn booking_time_key(time: &str, id: Id) -> String {
    format!("{time}#{}", id.padded())
}

/// `gsi1pk` of an ambulance's crew accounts.
pub fn ambulance_crew(ambulance: Id) -> String {
    format!("AMBCREW#{ambulance}")
}

/// `gsi1pk` of a hospital's staff accounts (their devices hear of trips coming).
pub fn hospital_staff(hospital: Id) -> String {
    format!("HOSPSTAFF#{hospital}")
}

/// `gsi1sk` of a crew account (and of a hospital staff account).
pub fn crew_in_ambulance(id: Id) -> String {
    format!("USER#{}", id.padded())
}

/// The `listpk` partitions of the `list` index.
pub const HOSPITALS: &str = "HOSPITALS";
pub const AMBULANCES: &str = "AMBULANCES";
pub const BOOKINGS: &str = "BOOKINGS";
pub const CREW: &str = "CREW";

/// The res-2 H3 cell (~86 000 km²) of a point: the partitions of `open` and `freegeo`.
fn res2_cell(at: Point) -> h3o::CellIndex {
    at.h3().to_cell(h3o::Resolution::Two)
}

/// `openpk` of an open booking with its pickup at `pickup`: its res-2 cell.
pub fn open_bookings(pickup: Point) -> String {
    open_bookings_in(res2_cell(pickup))
}

/// `openpk` of the open bookings with their pickup in the res-2 cell `cell`.
pub fn open_bookings_in(cell: h3o::CellIndex) -> String {
    format!("OPEN#{cell}")
}

/// Resolution of the `fleet` index's cells (~36 km², ~6 km across): an
/// ambulance's `fleetcell` is the res-6 cell it is shown in (its last accepted
/// position, else its hospital), rewritten only when it crosses into another one
/// (every few km driven, not per report); fine enough that a street-sized box
/// reads the ambulances of a few such cells, not of a whole city.
pub const FLEET_RESOLUTION: h3o::Resolution = h3o::Resolution::Six;

/// `fleetcell` of an ambulance shown at `at`: the cell's number, so that the
/// res-4 cells inside any coarser cell are one `BETWEEN` range.
pub fn fleet_cell(at: Point) -> u64 {
    u64::from(at.h3().to_cell(FLEET_RESOLUTION))
}

/// Shards of each `freegeo` partition (docs/decisions/0007-dispatch-data.md has
/// the write bound): an entry's shard is its res-4 cell's (~1 770 km², hashed onto
/// the shards), so that a search reading a cell of resolution 4 or finer (every
/// cell of a search within 50 km) makes one Query, not one per shard.
pub const FREE_SHARDS: u64 = 8;

/// Bits of the 11 digits (resolutions 5 to 15) below a res-15 cell number's res-4
/// ancestor: two cells share that ancestor exactly when their numbers agree above.
const BELOW_RES4_BITS: u32 = 3 * 11;

/// The shard of the entries of one res-4 cell, `prefix` being a res-15 number
/// shifted past [`BELOW_RES4_BITS`] (a Fibonacci hash: neighbouring cells spread).
fn shard_of_res4(prefix: u64) -> u64 {
    prefix.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - FREE_SHARDS.trailing_zeros())
}

/// `(freegeopk, freegeosk)` of a free ambulance's entry at `at`: like the
/// hospitals' `geo` keys (the res-15 cell as a number, so one Query reads any cell of
/// resolution ≥ 2), the partition split into [`FREE_SHARDS`] by res-4 cell.
///
/// The partition is the res-2 *ancestor* of the res-15 cell, as in `geo::keys_of`:
/// H3 cells are not exactly nested, so near a res-2 outline the point's own res-2
/// cell may be another one, and a search reading the res-15 range of a cell would
/// look for the entry in the wrong partition.
pub fn free_geo(at: Point) -> (String, u64) {
    let cell = at.h3().to_cell(h3o::Resolution::Fifteen);
    let partition = cell
        .parent(h3o::Resolution::Two)
        .expect("a res-15 cell has a res-2 parent");
    let number = u64::from(cell);
    let shard = shard_of_res4(number >> BELOW_RES4_BITS);
    (free_geo_partition(partition, shard), number)
}

/// The shards that may hold entries numbered `lo..=hi` (one range of a search):
/// those of the res-4 cells the range spans; every shard for a range wider than
/// 64 of them (a coarse cell).
pub fn free_geo_shards(lo: u64, hi: u64) -> Vec<u64> {
    let (first, last) = (lo >> BELOW_RES4_BITS, hi >> BELOW_RES4_BITS);
    if last - first >= 64 {
        return (0..FREE_SHARDS).collect();
    }
    let mut shards: Vec<u64> = (first..=last).map(shard_of_res4).collect();
    shards.sort_unstable();
    shards.dedup();
    shards
}

/// One shard of the `freegeo` partition of a res-2 cell.
pub fn free_geo_partition(cell: h3o::CellIndex, shard: u64) -> String {
    free_geo_partition_named(&cell.to_string(), shard)
}

/// [`free_geo_partition`] of a cell given as text.
pub fn free_geo_partition_named(cell: &str, shard: u64) -> String {
    format!("F2#{cell}#{shard}")
}

/// The `geo::Range` partition (the res-2 cell) of a `freegeopk`: what a search over
/// the free-ambulance entries reads them as (`None` for another key).
pub fn free_geo_search_partition(freegeopk: &str) -> Option<String> {
    let (cell, _shard) = freegeopk.strip_prefix("F2#")?.rsplit_once('#')?;
    Some(cell.to_owned())
}

/// `(geopk, geosk)` of a hospital at `at`: its res-2 partition and res-15
/// cell number (`geo::keys_of`), the `geo` index's keys.
pub fn hospital_geo(at: Point) -> (String, u64) {
    let (cell, number) = domain::geo::keys_of(at);
    (hospital_geo_partition(&cell), number)
}

/// The `geopk` of the hospitals in a res-2 cell (a `geo::Range` partition).
pub fn hospital_geo_partition(cell: &str) -> String {
    format!("G2#{cell}")
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

#[cfg(test)]
mod tests {
    use super::*;

    /// On and near the outlines of res-2 cells, where a point's own res-2 cell and
    /// its res-15 cell's ancestor can differ, the free entry's partition is the one
    /// the search reads its res-15 number in, and its shard one the search reads
    /// for any range holding that number.
    #[test]
    fn free_entries_are_where_the_search_reads_them() {
        let mut differing = 0;
        let center = Point::new(30.0, 74.0).h3().to_cell(h3o::Resolution::Two);
        for cell in center.grid_disk::<Vec<_>>(1) {
            for v in cell.boundary().iter() {
                for (dlat, dlng) in [(0.0, 0.0), (1e-4, 0.0), (0.0, -1e-4), (-3e-5, 2e-5)] {
                    let at = Point::new(v.lat() + dlat, v.lng() + dlng);
                    let (pk, sk) = free_geo(at);
                    let (search_pk, search_sk) = domain::geo::keys_of(at);
                    assert_eq!(free_geo_search_partition(&pk), Some(search_pk));
                    assert_eq!(sk, search_sk);
                    let leaf = h3o::CellIndex::try_from(sk).unwrap();
                    for res in [2u8, 4, 5, 9, 15] {
                        let range = domain::geo::cell_range(
                            leaf.parent(h3o::Resolution::try_from(res).unwrap())
                                .unwrap(),
                        );
                        let shards = free_geo_shards(range.lo, range.hi);
                        let shard: u64 = pk.rsplit_once('#').unwrap().1.parse().unwrap();
                        assert!(shards.contains(&shard), "res {res}: {pk} not in {shards:?}");
                        if res >= 4 {
                            assert_eq!(shards.len(), 1, "a res-{res} cell is one Query");
                        }
                    }
                    let own = format!("F2#{}#", res2_cell(at));
                    differing += usize::from(!pk.starts_with(&own));
                }
            }
        }
        assert!(
            differing > 0,
            "no point whose own res-2 cell differs was tried"
        );
        assert_eq!(free_geo_search_partition("G2#x"), None);
        let at = Point::new(30.0, 74.0);
        let (geopk, geosk) = hospital_geo(at);
        assert_eq!(geopk, format!("G2#{}", res2_cell(at)));
        assert_eq!(geosk, domain::geo::keys_of(at).1);
    }

    /// The stored forms of a few keys, written out: the table's items keep them.
    #[test]
    fn keys_are_written_as_stored() {
        let id = |n: u64| Id::try_from(n).unwrap();
        assert_eq!(audit_by_admin(id(1)), "AUDIT#ADMIN#1");
        assert_eq!(audit_of_booking(id(12)), "AUDIT#BOOKING#12");
        assert_eq!(audit_of_ambulance(id(3)), "AUDIT#AMBULANCE#3");
        assert_eq!(ambulance(id(7)).pk, "AMBULANCE#7");
        assert_eq!(ambulance_of("AMBULANCE#7"), Some(id(7)));
        assert_eq!(ambulance_of("BOOKING#7"), None);
        assert!(is_booking(&booking(id(5))) && !is_booking(&alert(id(5))));
        assert!(is_alert(&alert(id(5))) && !is_alert(&booking(id(5))));
        let day = time::Date::from_calendar_date(2026, time::Month::March, 1).unwrap();
        assert_eq!(report_day_sk(day), "DAY#2026-03-01");
        assert_eq!(report_day_text(&report_day_sk(day)), Some("2026-03-01"));
    }

    /// Entries spread over the shards: the res-4 cells of a res-2 cell use them all,
    /// about evenly.
    #[test]
    fn res4_cells_spread_over_the_shards() {
        let parent = Point::new(30.0, 74.0).h3().to_cell(h3o::Resolution::Two);
        let mut counts = [0usize; FREE_SHARDS as usize];
        for child in parent.children(h3o::Resolution::Four) {
            let leaf = child.center_child(h3o::Resolution::Fifteen).unwrap();
            counts[shard_of_res4(u64::from(leaf) >> BELOW_RES4_BITS) as usize] += 1;
        }
        assert!(counts.iter().all(|c| (2..=12).contains(c)), "{counts:?}");
        let range = domain::geo::cell_range(parent);
        assert_eq!(
            free_geo_shards(range.lo, range.hi).len(),
            FREE_SHARDS as usize
        );
    }

    /// The board's two ranges (decision 0026): every ended trip's key lies between
    /// "ended a day ago" and [`DESTINATION_ENDED_LAST`], and every open one's after
    /// it, beginning with [`DESTINATION_OPEN_PREFIX`].
    #[test]
    fn the_board_s_two_ranges_part_ended_from_open_trips() {
        let id = Id::try_from(u64::MAX >> 12).unwrap();
        let since = "2026-03-01T10:00:00.000Z";
        let ended = destination_ended("2026-03-01T10:00:00.001Z", id);
        let open = destination_open("2020-01-01T00:00:00.000Z", id);
        assert!(destination_board_from(since) < ended);
        assert!(ended.as_str() < DESTINATION_ENDED_LAST);
        assert!(DESTINATION_ENDED_LAST < open.as_str());
        assert!(open.starts_with(DESTINATION_OPEN_PREFIX));
        assert!(
            destination_ended("9999-12-31T23:59:59.999Z", id).as_str() < DESTINATION_ENDED_LAST
        );
    }
}
