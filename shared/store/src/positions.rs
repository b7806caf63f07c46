//! Where ambulances are (ADR 0007): the last reported position in an item of its own
//! (`POSITION`, in no index, so a report rewrites no index entry), and, only while
//! an ambulance is AVAILABLE, its entry in the `freegeo` index (`FREEPOS`), moved by
//! reports at most once per 30 s. The ambulance item itself stands in `freegeo` at
//! its hospital's point while AVAILABLE (keys set with the `avail` keys).
//!
//! `FREEPOS` is put and deleted only by [`super::fleet::StatusMove`], in the
//! transaction that frees or takes the ambulance, so it exists exactly while the
//! ambulance is AVAILABLE.

use std::collections::HashMap;

use futures::future::try_join_all;
use serde::{Deserialize, Serialize, de::IgnoredAny};
use time::OffsetDateTime;

use super::{
    keys::{self, Key},
    schema::FREEGEO,
    table::{Query, Store, readable},
    tx::Write,
};
use crate::error::StoreError;
use domain::{
    ambulance::{AmbulanceStatus, AmbulanceType},
    emergency::{
        nearest::{Dispatcher, FreeEntry, FreeNear, Spot},
        rank,
    },
    geo::{Point, Range},
    position::{
        CheckedReport, Doubt, FREE_ENTRY_INTERVAL, Fix, MAX_AGE, MAX_FUTURE, Sighting, Track,
        Verdict,
    },
    presence::{CrewPresence, Seen},
    types::{Id, Timestamp},
};

/// `AMBULANCE#<id>` / `POSITION`: the last accepted report (none before the first:
/// an item a heartbeat or a doubted first report made), the reports doubted since
/// (a [`Doubt`]), when the server last wrote a report into it, and the crew devices'
/// heartbeats and sign-outs (their presence, decision 0020).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PositionItem {
    #[serde(flatten)]
    key: Key,
    /// The last accepted report (`Sighting`'s fields): all three or none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    latitude: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    longitude: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    recorded_at: Option<Timestamp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    accuracy_m: Option<f64>,
    /// When the last accepted report was received.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    received_at: Option<Timestamp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    doubt: Option<Doubt>,
    /// When the server last wrote a report into it, taken or doubted: the write
    /// bound's clock, and a crew device's last sign of life (absent on items
    /// written before it: `receivedAt`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    written_at: Option<Timestamp>,
    /// Counts the writes of reports: each is conditional on the one it read.
    #[serde(default)]
    rev: u64,
    /// The last heartbeat of a signed-in crew device (the server's clock).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seen_at: Option<Timestamp>,
    /// The last time a crew device said it was signing out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    left_at: Option<Timestamp>,
    /// The table's TTL attribute: [`POSITION_KEPT`] after the last accepted report.
    /// No trail is kept (each report replaces the last), and this is how long the
    /// last one outlives a crew's silence (docs/data-map.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ttl: Option<i64>,
}

/// How long an ambulance's last position is kept after its last accepted report:
/// its crew's whereabouts are personal data, and a position this old helps nobody.
pub const POSITION_KEPT: time::Duration = time::Duration::days(30);

impl PositionItem {
    /// The stored form of a report taken now (also the benchmarks' bulk loader).
    pub(crate) fn new(ambulance: Id, sighting: Sighting, received_at: Timestamp) -> PositionItem {
        PositionItem {
            key: keys::position(ambulance),
            latitude: Some(sighting.fix.latitude),
            longitude: Some(sighting.fix.longitude),
            recorded_at: Some(sighting.fix.recorded_at),
            accuracy_m: sighting.accuracy_m,
            received_at: Some(received_at),
            doubt: None,
            written_at: Some(received_at),
            rev: 0,
            seen_at: None,
            left_at: None,
            ttl: Some((received_at.get() + POSITION_KEPT).unix_timestamp()),
        }
    }

    /// An item with no accepted report yet (the first report doubted).
    fn without_position(ambulance: Id) -> PositionItem {
        PositionItem {
            key: keys::position(ambulance),
            latitude: None,
            longitude: None,
            recorded_at: None,
            accuracy_m: None,
            received_at: None,
            doubt: None,
            written_at: None,
            rev: 0,
            seen_at: None,
            left_at: None,
            ttl: None,
        }
    }

    /// The last accepted report, if there is one.
    fn sighting(&self) -> Option<Sighting> {
        Some(Sighting {
            fix: Fix {
                latitude: self.latitude?,
                longitude: self.longitude?,
                recorded_at: self.recorded_at?,
            },
            accuracy_m: self.accuracy_m,
        })
    }

    fn written_at(&self) -> Option<Timestamp> {
        self.written_at.or(self.received_at)
    }

    fn kept(&self) -> KeptPosition {
        KeptPosition {
            fix: self.sighting().map(|s| s.fix),
            doubt: self.doubt.clone(),
            seen: self.seen(0),
        }
    }

    fn track(&self) -> Track {
        Track {
            last: self.sighting(),
            doubt: self.doubt.clone(),
            written_at: self.written_at(),
        }
    }

    /// What it says of the crew's devices; `crew_count` from the ambulance.
    fn seen(&self, crew_count: u64) -> Seen {
        Seen {
            crew_count,
            report: self.written_at(),
            heartbeat: self.seen_at,
            left: self.left_at,
        }
    }
}

/// The last accepted position of an ambulance (none yet: `fix` is `None`), the
/// reports doubted since, and its crew devices' signs of life.
#[derive(Debug, Clone, PartialEq)]
pub struct KeptPosition {
    pub fix: Option<Fix>,
    pub doubt: Option<Doubt>,
    /// [`Seen`] with no crew count (the ambulance's is added by the caller).
    pub seen: Seen,
}

/// Heartbeats closer together than this write nothing (the crew app sends one at
/// least every 60 s; presence lasts 2 minutes).
pub const HEARTBEAT_WRITE_INTERVAL: time::Duration = time::Duration::seconds(20);

/// The `POSITION` item as read: none, one that does not read (replaced by the next
/// report at once), or the item.
enum Stored {
    None,
    Unreadable,
    Item(Box<PositionItem>),
}

/// `AMBULANCE#<id>` / `FREEPOS`: a free ambulance's entry in `freegeo`, at its last
/// reported position (its hospital's when it never reported), with what a search
/// ranks by.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FreePositionItem {
    #[serde(flatten)]
    key: Key,
    id: Id,
    #[serde(rename = "type")]
    ambulance_type: AmbulanceType,
    hospital_id: Id,
    hospital_latitude: f64,
    hospital_longitude: f64,
    latitude: f64,
    longitude: f64,
    /// The ambulance's number and driver, for the booking that takes it.
    number: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    driver_info: Option<String>,
    /// When the position was taken; absent for the hospital stand-in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    recorded_at: Option<Timestamp>,
    /// When a report last moved the entry (absent: not since it was put).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    moved_at: Option<Timestamp>,
    freegeopk: String,
    freegeosk: u64,
}

/// What the free-ambulance entries of an ambulance need when it becomes AVAILABLE.
#[derive(Debug, Clone, PartialEq)]
pub struct FreeSpot {
    pub ambulance: Id,
    pub number: String,
    pub driver_info: Option<String>,
    pub ambulance_type: AmbulanceType,
    pub hospital_id: Id,
    /// The hospital's point.
    pub hospital: Point,
    /// The last reported position, if any.
    pub last: Option<Fix>,
}

impl FreeSpot {
    /// The `FREEPOS` put: at the last position, else at the hospital.
    pub(crate) fn entry(&self) -> Write {
        Write::put(&self.item())
    }

    pub(crate) fn item(&self) -> FreePositionItem {
        let (at, recorded_at) = match &self.last {
            Some(fix) => (fix.point(), Some(fix.recorded_at)),
            None => (self.hospital, None),
        };
        let (freegeopk, freegeosk) = keys::free_geo(at);
        FreePositionItem {
            key: keys::free_position(self.ambulance),
            id: self.ambulance,
            ambulance_type: self.ambulance_type,
            hospital_id: self.hospital_id,
            hospital_latitude: self.hospital.lat,
            hospital_longitude: self.hospital.lng,
            latitude: at.lat,
            longitude: at.lng,
            number: self.number.clone(),
            driver_info: self.driver_info.clone(),
            recorded_at,
            moved_at: None,
            freegeopk,
            freegeosk,
        }
    }
}

/// One entry of `freegeo`: a free ambulance's live entry (`FREEPOS`) or the
/// ambulance item at its hospital.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FreeGeoEntry {
    pub pk: String,
    pub sk: String,
    pub freegeopk: String,
    pub freegeosk: u64,
    pub id: Id,
    #[serde(rename = "type")]
    pub ambulance_type: AmbulanceType,
    pub hospital_id: Id,
    pub hospital_latitude: f64,
    pub hospital_longitude: f64,
    /// The entry's point: the last report (FREEPOS) or absent (the ambulance item,
    /// which stands at its hospital's point).
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub recorded_at: Option<Timestamp>,
    pub number: String,
    pub driver_info: Option<String>,
}

impl FreeGeoEntry {
    /// As the nearest-free search sees it; `None` (logged and counted) for an entry
    /// that cannot be one: the search answers with the others.
    fn into_search_entry(self) -> Option<FreeEntry> {
        let (pk, sk) = (self.pk.clone(), self.sk.clone());
        self.search_entry()
            .inspect_err(|what| telemetry::unreadable_item(&pk, &sk, what))
            .ok()
    }

    fn search_entry(self) -> Result<FreeEntry, &'static str> {
        let bad = |what: &'static str| what;
        let spot = if self.sk == keys::free_position(self.id).sk {
            let (Some(latitude), Some(longitude)) = (self.latitude, self.longitude) else {
                return Err(bad("no position"));
            };
            Spot::Live {
                at: Point::new(latitude, longitude),
                recorded_at: self.recorded_at.map(Timestamp::get),
            }
        } else {
            Spot::Hospital
        };
        let partition =
            keys::free_geo_search_partition(&self.freegeopk).ok_or_else(|| bad("bad freegeopk"))?;
        Ok(FreeEntry {
            ambulance: self.id,
            ambulance_type: self.ambulance_type,
            hospital_id: self.hospital_id,
            hospital: Point::new(self.hospital_latitude, self.hospital_longitude),
            spot,
            keys: (partition, self.freegeosk),
            number: self.number,
            driver_info: self.driver_info,
        })
    }
}

/// What became of a report.
#[derive(Debug, Clone, PartialEq)]
pub enum Reported {
    Stored,
    /// Not newer than the stored one, or less than 4 s after the last write: nothing
    /// written.
    Ignored,
    /// An impossible speed: kept as the doubt, the position stays.
    Refused(Doubt),
}

/// `store.positions()`: where ambulances are: reports, the free entries, the nearest free
/// search. Every method of the handle is in this file.
#[derive(Clone, Copy)]
pub struct Positions<'a> {
    pub(super) store: &'a Store,
}

impl Positions<'_> {
    /// The last accepted position of an ambulance (none when it never reported, or
    /// its item does not read: logged and counted).
    pub async fn last_position(self, ambulance: Id) -> Result<Option<Fix>, StoreError> {
        Ok(self
            .store
            .get_readable::<PositionItem>(&keys::position(ambulance))
            .await?
            .and_then(|p| p.sighting())
            .map(|s| s.fix))
    }

    /// [`Positions::last_position`] and the signs of life of its crew's devices
    /// (`Seen` without the crew count).
    pub(crate) async fn kept_position(
        self,
        ambulance: Id,
    ) -> Result<Option<KeptPosition>, StoreError> {
        Ok(self
            .store
            .get_readable::<PositionItem>(&keys::position(ambulance))
            .await?
            .map(|p| p.kept()))
    }

    /// The last positions of many ambulances (BatchGetItem), in order, None where an
    /// ambulance never reported (or its item does not read).
    pub(crate) async fn last_positions(
        self,
        ambulances: &[Id],
    ) -> Result<Vec<Option<KeptPosition>>, StoreError> {
        let items: Vec<PositionItem> = self
            .store
            .batch_get(ambulances.iter().map(|id| keys::position(*id)).collect())
            .await?;
        let mut by_key: std::collections::HashMap<Key, KeptPosition> = items
            .into_iter()
            .map(|p| (p.key.clone(), p.kept()))
            .collect();
        Ok(ambulances
            .iter()
            .map(|id| by_key.remove(&keys::position(*id)))
            .collect())
    }

    async fn stored_position(self, ambulance: Id) -> Result<Stored, StoreError> {
        Ok(
            match self.store.get_item(&keys::position(ambulance)).await? {
                None => Stored::None,
                Some(item) => {
                    readable(item).map_or(Stored::Unreadable, |i| Stored::Item(Box::new(i)))
                }
            },
        )
    }

    /// Whether the ambulance has a `FREEPOS` entry (tests check it against its status).
    pub async fn has_free_entry(self, ambulance: Id) -> Result<bool, StoreError> {
        Ok(self
            .store
            .get::<IgnoredAny>(&keys::free_position(ambulance))
            .await?
            .is_some())
    }

    /// The `freegeo` entries of one Query range (one shard of a res-2 partition, or a
    /// finer cell of it): what the nearest-free-ambulance search reads.
    pub async fn free_geo_range(self, r: &Range) -> Result<Vec<FreeGeoEntry>, StoreError> {
        let cells = Query::on(FREEGEO, "freegeopk = :p AND freegeosk BETWEEN :lo AND :hi");
        self.store.query_all(cells.range(r)).await
    }

    /// The free-ambulance entries of a search round's ranges (res-2 cell partitions
    /// of the geo search): one Query per range and shard that may hold some (one
    /// for a range within a res-4 cell), all at once.
    pub async fn free_entries(self, ranges: Vec<Range>) -> Result<Vec<FreeEntry>, StoreError> {
        let shard_ranges: Vec<Range> = ranges
            .iter()
            .flat_map(|r| {
                keys::free_geo_shards(r.lo, r.hi)
                    .into_iter()
                    .map(move |shard| Range {
                        partition: keys::free_geo_partition_named(&r.partition, shard),
                        lo: r.lo,
                        hi: r.hi,
                    })
            })
            .collect();
        let pages = try_join_all(shard_ranges.iter().map(|r| self.free_geo_range(r))).await?;
        Ok(pages
            .into_iter()
            .flatten()
            .filter_map(FreeGeoEntry::into_search_entry)
            .collect())
    }

    /// At most `k` free ambulances (any type) within the SOS search radius of `pickup`
    /// (the setting), each at its ranking point and ranked as an emergency ranks
    /// them (by expected start): the dispatcher's choice for a reassign. The
    /// emergency's search over `freegeo` proves them; one ranked at its hospital
    /// whose `POSITION` is fresh elsewhere is ranked by that position instead (one
    /// BatchGetItem), or left out past the radius.
    pub async fn free_near(self, pickup: Point, k: usize) -> Result<Vec<FreeNear>, StoreError> {
        let now = self.store.now();
        let settings = self.store.settings().await;
        let (radius_km, delays) = (settings.sos_radius_km(), settings.presence_delay_seconds);
        let mut dispatcher = Dispatcher::new(
            pickup,
            None,
            now,
            self.store.emergencies().first_target_km(pickup, radius_km),
            delays,
        )
        .within(radius_km)
        .listing(k);
        let mut fetch = |ranges| self.free_entries(ranges);
        let mut presence = |ids: Vec<Id>| self.presence(ids);
        let mut found = dispatcher.search(&mut fetch, &mut presence).await?;
        let unsure: Vec<Id> = found
            .iter()
            .filter(|c| c.check_position)
            .map(|c| c.entry.ambulance)
            .collect();
        if !unsure.is_empty() {
            let positions = self.last_positions(&unsure).await?;
            let fresh: std::collections::HashMap<Id, Point> = unsure
                .into_iter()
                .zip(positions)
                .filter_map(|(id, p)| Some((id, p?.fix?)))
                .filter(|(_, fix)| fix.is_fresh(now))
                .map(|(id, fix)| (id, fix.point()))
                .collect();
            for c in &mut found {
                if let Some(p) = fresh.get(&c.entry.ambulance) {
                    c.distance_km = pickup.km_to(*p);
                }
            }
            found.retain(|c| c.distance_km <= radius_km);
            rank::rank(&mut found, |c| (c.distance_km, c.presence), &delays);
        }
        found.truncate(k);
        Ok(found
            .into_iter()
            .map(|c| FreeNear {
                expected_start_seconds: c.expected_start(&delays).as_secs(),
                id: c.entry.ambulance,
                number: c.entry.number,
                ambulance_type: c.entry.ambulance_type,
                hospital_id: c.entry.hospital_id,
                distance_km: (c.distance_km * 1000.0).round() / 1000.0,
                crew_presence: c.presence,
                eta_minutes: (rank::drive(c.distance_km).as_secs_f64() / 60.0).ceil() as u32,
            })
            .collect())
    }

    /// What the server knows of the crew devices of some ambulances, crew count
    /// included: their items and `POSITION`s, read at once (two BatchGetItem). An
    /// ambulance that is gone is left out.
    pub async fn seen(self, ambulances: &[Id]) -> Result<HashMap<Id, Seen>, StoreError> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Crewed {
            id: Id,
            #[serde(default)]
            crew_count: u64,
        }
        let keys = ambulances.iter().map(|id| keys::ambulance(*id)).collect();
        let (crewed, kept) = tokio::try_join!(
            self.store.batch_get::<Crewed>(keys),
            self.last_positions(ambulances)
        )?;
        let kept: HashMap<Id, Seen> = ambulances
            .iter()
            .zip(kept)
            .filter_map(|(id, k)| Some((*id, k?.seen)))
            .collect();
        Ok(crewed
            .into_iter()
            .map(|a| {
                let seen = Seen {
                    crew_count: a.crew_count,
                    ..kept.get(&a.id).copied().unwrap_or_default()
                };
                (a.id, seen)
            })
            .collect())
    }

    /// The crews' presence of some ambulances now (decision 0020): what ranking reads.
    pub async fn presence(
        self,
        ambulances: Vec<Id>,
    ) -> Result<HashMap<Id, CrewPresence>, StoreError> {
        let now = self.store.now();
        Ok(self
            .seen(&ambulances)
            .await?
            .into_iter()
            .map(|(id, seen)| (id, seen.presence(now)))
            .collect())
    }

    /// A signed-in crew device of `ambulance` says it is there (`PUT
    /// /api/crew/presence`, at least every 60 s): `seenAt` on its `POSITION` (made if
    /// absent), any sign-out before it undone. At most one write per 20 s per
    /// ambulance, however many devices or taps: a heartbeat within that changes
    /// nothing.
    pub async fn heartbeat(self, ambulance: Id) -> Result<(), StoreError> {
        let now = self.store.now();
        let at =
            |t: OffsetDateTime| Timestamp::new(t).ok_or_else(|| StoreError::internal("bad clock"));
        let write = Write::update(keys::position(ambulance), "SET seenAt = :now REMOVE leftAt")
            .when("attribute_not_exists(seenAt) OR seenAt < :recent OR attribute_exists(leftAt)")
            .value(":now", at(now)?)
            .value(":recent", at(now - HEARTBEAT_WRITE_INTERVAL)?);
        self.store
            .update_returning::<IgnoredAny>(write)
            .await
            .map(|_| ())
    }

    /// A crew device of `ambulance` signs out (`DELETE /api/crew/presence`): the
    /// ambulance is OFFLINE until a device reports again (another signed-in crew
    /// member's next heartbeat, within a minute).
    pub async fn leave(self, ambulance: Id) -> Result<(), StoreError> {
        let now =
            Timestamp::new(self.store.now()).ok_or_else(|| StoreError::internal("bad clock"))?;
        let write = Write::update(keys::position(ambulance), "SET leftAt = :now REMOVE seenAt")
            .value(":now", now);
        self.store
            .update_returning::<IgnoredAny>(write)
            .await
            .map(|_| ())
    }

    /// Judges a crew's report for its ambulance against what is kept
    /// ([`Track::judge`]) and writes the outcome, conditional on the item as read (a
    /// racing report makes this one ignored). A taken report moves the ambulance's
    /// `freegeo` entry while it is AVAILABLE; a refused one is kept as the doubt the
    /// dispatcher sees. An item that does not read is replaced at once.
    pub async fn report_position(
        self,
        ambulance: Id,
        report: CheckedReport,
    ) -> Result<Reported, StoreError> {
        let now = self.store.now();
        let report = Sighting::from(report);
        let (stored, item) = tokio::join!(
            self.stored_position(ambulance),
            self.store.fleet().ambulance_item(ambulance)
        );
        let (stored, item) = (stored?, item?);
        let a = item
            .as_ref()
            .ok_or_else(|| domain::ambulance::not_found(ambulance))?;
        let hospital = self.store.fleet().hospital_point(a).await?;
        let written_at = Timestamp::new(now).ok_or_else(|| StoreError::internal("bad clock"))?;
        let verdict = match &stored {
            Stored::Item(kept) => kept.track().judge(&report, written_at, hospital),
            // Nothing to judge against: never reported, or an item that does not
            // read (replaced: it cannot be judged).
            Stored::None | Stored::Unreadable => {
                Track::default().judge(&report, written_at, hospital)
            }
        };
        let (rev, kept) = match &stored {
            Stored::Item(kept) => (kept.rev + 1, (**kept).clone()),
            Stored::None | Stored::Unreadable => (1, PositionItem::without_position(ambulance)),
        };
        let next = match &verdict {
            Verdict::Ignore => return Ok(Reported::Ignored),
            Verdict::Take => PositionItem {
                rev,
                seen_at: kept.seen_at,
                left_at: kept.left_at,
                ..PositionItem::new(ambulance, report.clone(), written_at)
            },
            Verdict::Refuse(doubt) => PositionItem {
                doubt: Some(doubt.clone()),
                written_at: Some(written_at),
                rev,
                ..kept
            },
        };
        let write = match &stored {
            Stored::None => Write::put(&next).absent(),
            // Replaced whatever it holds: it cannot be judged.
            Stored::Unreadable => Write::put(&next),
            Stored::Item(kept) => Write::put(&next)
                .when("(attribute_not_exists(rev) OR rev = :rev)")
                .value(":rev", kept.rev),
        };
        // Taken after a doubt (a new track: the phone really was far away): the free
        // entry follows at once, whatever the 30 s, or for up to a parked phone's
        // report interval an emergency near where the ambulance is would not find it,
        // and one near where it was would.
        let after_doubt = matches!(&stored, Stored::Item(kept) if kept.doubt.is_some());
        if !self.store.put_if(write).await? {
            return Ok(Reported::Ignored);
        }
        match verdict {
            Verdict::Refuse(doubt) => Ok(Reported::Refused(doubt)),
            _ => {
                let free = async {
                    match &item {
                        Some(a) if a.status == AmbulanceStatus::Available => {
                            if !self
                                .move_free_entry(ambulance, &report.fix, after_doubt)
                                .await?
                            {
                                return Ok(());
                            }
                            // The entry does not read: written anew where the report is.
                            let hospital = self.store.fleet().hospital_point(a).await?;
                            self.rebuild_free_entry(a.free_spot(hospital, Some(report.fix.clone())))
                                .await
                        }
                        _ => Ok(()),
                    }
                };
                let fleet = async {
                    match &item {
                        Some(a) => {
                            self.move_fleet_cell(a.id, a.fleetcell, &report.fix, written_at)
                                .await
                        }
                        None => Ok(()),
                    }
                };
                tokio::try_join!(free, fleet)?;
                Ok(Reported::Stored)
            }
        }
    }

    /// Moves the ambulance's entry in the live map's `fleet` index to the res-4 cell
    /// of `fix` when the report crossed into another one (rarely: the cells are ~45
    /// km across, so no index write per report); a late report never undoes a
    /// newer one's move (`fleetat`, the server's time of the write).
    async fn move_fleet_cell(
        self,
        ambulance: Id,
        fleetcell: Option<u64>,
        fix: &Fix,
        written_at: Timestamp,
    ) -> Result<(), StoreError> {
        let cell = keys::fleet_cell(fix.point());
        if fleetcell == Some(cell) {
            return Ok(());
        }
        let write = Write::update(
            keys::ambulance(ambulance),
            "SET fleetcell = :cell, fleetat = :at",
        )
        .exists()
        .when("(attribute_not_exists(fleetat) OR fleetat < :at)")
        .value(":cell", cell)
        .value(":at", written_at);
        // Refused: a newer report moved it first, or the ambulance is gone.
        self.store
            .update_returning::<IgnoredAny>(write)
            .await
            .map(|_| ())
    }

    /// Moves a free ambulance's `freegeo` entry to `fix`, if it exists (the ambulance
    /// is AVAILABLE), was not moved in the last 30 s, and holds an older position;
    /// at once, whatever the 30 s, when its time cannot be a real one (older than any
    /// report taken, or ahead of the server's clock: an entry from before the rules),
    /// or when `at_once` (a new track: the entry is somewhere the ambulance is not).
    /// `true` when the entry does not read as the searches need (planted, or written
    /// before a rule): the caller writes it anew. A refused update answers the entry
    /// as it is, so knowing costs no read.
    async fn move_free_entry(
        self,
        ambulance: Id,
        fix: &Fix,
        at_once: bool,
    ) -> Result<bool, StoreError> {
        let now = self.store.now();
        let at =
            |t: OffsetDateTime| Timestamp::new(t).ok_or_else(|| StoreError::internal("bad clock"));
        let (pk, sk) = keys::free_geo(fix.point());
        // Holds an older position, and was not moved in the last 30 s unless
        // `at_once`; `:cutoff` only where it is used (DynamoDB refuses an unused value,
        // and also parentheses it deems redundant, such as `((a OR b))`).
        let newer = "attribute_not_exists(recordedAt) OR recordedAt < :at";
        let (may_move, cutoff) = if at_once {
            (newer.to_owned(), None)
        } else {
            (
                format!("((attribute_not_exists(movedAt) OR movedAt <= :cutoff) AND ({newer}))"),
                Some(at(now - FREE_ENTRY_INTERVAL)?),
            )
        };
        let mut write = Write::update(
            keys::free_position(ambulance),
            "SET latitude = :lat, longitude = :lng, recordedAt = :at, movedAt = :now, \
             freegeopk = :pk, freegeosk = :sk",
        )
        .exists()
        .when(format!(
            "(recordedAt < :floor OR recordedAt > :ceiling OR {may_move})"
        ));
        if let Some(cutoff) = cutoff {
            write = write.value(":cutoff", cutoff);
        }
        let write = write
            .value(":lat", fix.latitude)
            .value(":lng", fix.longitude)
            .value(":at", fix.recorded_at)
            .value(":now", at(now)?)
            .value(":floor", at(now - MAX_AGE - MAX_AGE)?)
            .value(":ceiling", at(now + MAX_FUTURE)?)
            .value(":pk", pk)
            .value(":sk", sk);
        // Refused (not free any more, moved recently, or a newer report got there
        // first) is fine: nothing to do, unless the entry does not read.
        let Err(Some(old)) = self.store.update_or_old(write).await? else {
            return Ok(false);
        };
        Ok(readable::<FreeGeoEntry>(old)
            .and_then(FreeGeoEntry::into_search_entry)
            .is_none())
    }

    /// Writes a free ambulance's `freegeo` entry anew (one that did not read), on the
    /// condition that it is still there: it exists exactly while the ambulance is
    /// AVAILABLE (only the status moves put and delete it, see the module), so one
    /// that a status move deleted meanwhile is not brought back.
    async fn rebuild_free_entry(self, spot: FreeSpot) -> Result<(), StoreError> {
        self.store.put_if(spot.entry().exists()).await.map(|_| ())
    }
}

/// What [`Positions::repair_positions`] found and did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Repair {
    /// `POSITION` and `FREEPOS` items read.
    pub checked: usize,
    /// Unreadable `POSITION` items deleted (the ambulance shows at its hospital until
    /// its next report).
    pub positions_removed: usize,
    /// Unreadable `FREEPOS` entries of AVAILABLE ambulances written anew.
    pub free_rebuilt: usize,
    /// Unreadable `FREEPOS` entries of ambulances that are not AVAILABLE (or gone)
    /// deleted.
    pub free_removed: usize,
}

impl Positions<'_> {
    /// The operator's repair (`manage repair-positions`): a Scan for every `POSITION`
    /// and `FREEPOS` item; each one that does not read as what the searches expect is
    /// deleted, or, for the free entry of an AVAILABLE ambulance, written anew from
    /// the ambulance (in a transaction that checks it is still AVAILABLE).
    pub async fn repair_positions(self) -> Result<Repair, StoreError> {
        let items = self
            .store
            .migrations()
            .scan_sort_keys(&[keys::POSITION_SK, keys::FREE_POSITION_SK], None)
            .await?;
        let mut repair = Repair {
            checked: items.len(),
            ..Repair::default()
        };
        for item in items {
            let Ok(key) = serde_dynamo::from_item::<_, Key>(item.clone()) else {
                continue;
            };
            let Some(ambulance) = keys::ambulance_of(&key.pk) else {
                continue;
            };
            if key.sk == keys::position(ambulance).sk {
                if readable::<PositionItem>(item).is_none() {
                    self.store.delete_item(&key).await?;
                    repair.positions_removed += 1;
                }
                continue;
            }
            let usable = readable::<FreeGeoEntry>(item)
                .and_then(FreeGeoEntry::into_search_entry)
                .is_some();
            if usable {
                continue;
            }
            // The entry, written or deleted on the condition that the ambulance is
            // (`=`) or is not (`<>`) AVAILABLE, in one transaction.
            let if_available = |entry: Write, is: &str| {
                let mut tx = super::Tx::new();
                tx.push(super::Label::FreeEntry(ambulance), entry);
                tx.push(
                    super::Label::Ambulance(ambulance),
                    Write::check(keys::ambulance(ambulance))
                        .name("#st", "status")
                        .when(format!("#st {is} :avail"))
                        .value(":avail", AmbulanceStatus::Available),
                );
                tx
            };
            match self.store.fleet().free_spot(ambulance).await? {
                Some(spot) => {
                    if self
                        .store
                        .commit(if_available(spot.entry(), "="))
                        .await
                        .is_ok()
                    {
                        repair.free_rebuilt += 1;
                        continue;
                    }
                    // Not AVAILABLE (any more): the entry must not exist.
                    self.store
                        .commit(if_available(Write::delete(key), "<>"))
                        .await
                        .map_err(super::TxError::into_api)?;
                }
                None => self.store.delete_item(&key).await?,
            }
            repair.free_removed += 1;
        }
        Ok(repair)
    }
}
