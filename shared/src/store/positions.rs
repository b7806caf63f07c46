//! Where ambulances are (ADR 0007): the last reported position in an item of its own
//! (`POSITION`, in no index, so a report rewrites no index entry), and, only while
//! an ambulance is AVAILABLE, its entry in the `freegeo` index (`FREEPOS`), moved by
//! reports at most once per 30 s. The ambulance item itself stands in `freegeo` at
//! its hospital's point while AVAILABLE (keys set with the `avail` keys).
//!
//! `FREEPOS` is put and deleted only by [`super::ambulances::StatusMove`], in the
//! transaction that frees or takes the ambulance, so it exists exactly while the
//! ambulance is AVAILABLE.

use futures::future::try_join_all;
use serde::{Deserialize, Serialize, de::IgnoredAny};
use time::{OffsetDateTime, format_description::well_known::Rfc3339};

use super::{
    keys::{self, Key},
    schema::FREEGEO,
    table::{Query, Store},
    tx::Write,
};
use crate::{
    domain::{
        ambulance::{AmbulanceStatus, AmbulanceType},
        emergency::nearest::{FreeEntry, Spot},
        position::{CheckedReport, FREE_ENTRY_INTERVAL, Fix, MIN_INTERVAL},
    },
    error::ApiError,
    geo::Range,
    types::{Id, format_rfc3339, now_rfc3339},
};

/// `AMBULANCE#<id>` / `POSITION`: the last accepted report.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PositionItem {
    #[serde(flatten)]
    key: Key,
    #[serde(flatten)]
    fix: Fix,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    accuracy_m: Option<f64>,
    received_at: String,
}

#[cfg(feature = "test-support")]
impl PositionItem {
    /// The stored form of a report taken now (the benchmarks' bulk loader).
    pub(crate) fn new(ambulance: Id, fix: Fix) -> PositionItem {
        PositionItem {
            key: keys::position(ambulance),
            fix,
            accuracy_m: None,
            received_at: now_rfc3339(),
        }
    }
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
    recorded_at: Option<String>,
    /// When a report last moved the entry (absent: not since it was put).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    moved_at: Option<String>,
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
    /// The hospital's (latitude, longitude).
    pub hospital: (f64, f64),
    /// The last reported position, if any.
    pub last: Option<Fix>,
}

impl FreeSpot {
    /// The `FREEPOS` put: at the last position, else at the hospital.
    pub(crate) fn entry(&self) -> Write {
        Write::put(&self.item())
    }

    pub(crate) fn item(&self) -> FreePositionItem {
        let (latitude, longitude, recorded_at) = match &self.last {
            Some(fix) => (fix.latitude, fix.longitude, Some(fix.recorded_at.clone())),
            None => (self.hospital.0, self.hospital.1, None),
        };
        let (freegeopk, freegeosk) = keys::free_geo(latitude, longitude);
        FreePositionItem {
            key: keys::free_position(self.ambulance),
            id: self.ambulance,
            ambulance_type: self.ambulance_type,
            hospital_id: self.hospital_id,
            hospital_latitude: self.hospital.0,
            hospital_longitude: self.hospital.1,
            latitude,
            longitude,
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
    pub recorded_at: Option<String>,
    /// Absent on entries written before they were projected.
    pub number: Option<String>,
    pub driver_info: Option<String>,
}

impl FreeGeoEntry {
    /// As the nearest-free search sees it.
    fn into_search_entry(self) -> Result<FreeEntry, ApiError> {
        let bad = |what: &str| {
            ApiError::internal(format!("freegeo entry {} {}: {what}", self.pk, self.sk))
        };
        let spot = if self.sk == keys::free_position(self.id).sk {
            let (Some(latitude), Some(longitude)) = (self.latitude, self.longitude) else {
                return Err(bad("no position"));
            };
            let recorded_at = match &self.recorded_at {
                Some(at) => {
                    Some(OffsetDateTime::parse(at, &Rfc3339).map_err(|_| bad("bad recordedAt"))?)
                }
                None => None,
            };
            Spot::Live {
                latitude,
                longitude,
                recorded_at,
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
            hospital: (self.hospital_latitude, self.hospital_longitude),
            spot,
            keys: (partition, self.freegeosk),
            number: self.number,
            driver_info: self.driver_info,
        })
    }
}

/// What became of a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reported {
    Stored,
    /// Older than the stored one, or less than 4 s after it: nothing written.
    Ignored,
}

impl Store {
    /// The last reported position of an ambulance.
    pub async fn last_position(&self, ambulance: Id) -> Result<Option<Fix>, ApiError> {
        Ok(self
            .get::<PositionItem>(&keys::position(ambulance))
            .await?
            .map(|p| p.fix))
    }

    /// The last reported positions of many ambulances (BatchGetItem), in order,
    /// None where an ambulance never reported.
    pub(crate) async fn last_positions(
        &self,
        ambulances: &[Id],
    ) -> Result<Vec<Option<Fix>>, ApiError> {
        let items: Vec<PositionItem> = self
            .batch_get(ambulances.iter().map(|id| keys::position(*id)).collect())
            .await?;
        let mut by_key: std::collections::HashMap<Key, Fix> =
            items.into_iter().map(|p| (p.key, p.fix)).collect();
        Ok(ambulances
            .iter()
            .map(|id| by_key.remove(&keys::position(*id)))
            .collect())
    }

    /// Whether the ambulance has a `FREEPOS` entry (tests check it against its status).
    pub async fn has_free_entry(&self, ambulance: Id) -> Result<bool, ApiError> {
        Ok(self
            .get::<IgnoredAny>(&keys::free_position(ambulance))
            .await?
            .is_some())
    }

    /// The `freegeo` entries of one Query range (one shard of a res-2 partition, or a
    /// finer cell of it): what the nearest-free-ambulance search reads.
    pub async fn free_geo_range(&self, r: &Range) -> Result<Vec<FreeGeoEntry>, ApiError> {
        let cells = Query::on(FREEGEO, "freegeopk = :p AND freegeosk BETWEEN :lo AND :hi");
        self.query_all(cells.range(r)).await
    }

    /// The free-ambulance entries of a search round's ranges (`G2#<cell>` partitions
    /// of the geo search): one Query per range and shard that may hold some (one
    /// for a range within a res-4 cell), all at once.
    pub async fn free_entries(&self, ranges: Vec<Range>) -> Result<Vec<FreeEntry>, ApiError> {
        let shard_ranges: Vec<Range> = ranges
            .iter()
            .flat_map(|r| {
                let cell = r.partition.strip_prefix("G2#").unwrap_or(&r.partition);
                keys::free_geo_shards(r.lo, r.hi)
                    .into_iter()
                    .map(move |shard| Range {
                        partition: keys::free_geo_partition_named(cell, shard),
                        lo: r.lo,
                        hi: r.hi,
                    })
            })
            .collect();
        let pages = try_join_all(shard_ranges.iter().map(|r| self.free_geo_range(r))).await?;
        pages
            .into_iter()
            .flatten()
            .map(FreeGeoEntry::into_search_entry)
            .collect()
    }

    /// Stores a crew's report for its ambulance, unless it is older than the stored
    /// one or less than 4 s after it (then nothing is written). While the ambulance
    /// is AVAILABLE, its `freegeo` entry follows, at most once per 30 s.
    pub async fn report_position(
        &self,
        ambulance: Id,
        report: CheckedReport,
    ) -> Result<Reported, ApiError> {
        let not_after = format_rfc3339(report.recorded - MIN_INTERVAL);
        let mut sets =
            vec!["latitude = :lat, longitude = :lng, recordedAt = :at, receivedAt = :now"];
        let mut write = Write::update(keys::position(ambulance), "")
            .when("attribute_not_exists(recordedAt) OR recordedAt <= :notAfter")
            .value(":lat", report.fix.latitude)
            .value(":lng", report.fix.longitude)
            .value(":at", &report.fix.recorded_at)
            .value(":now", now_rfc3339())
            .value(":notAfter", not_after);
        let expression = match report.accuracy_m {
            Some(a) => {
                sets.push("accuracyM = :acc");
                write = write.value(":acc", a);
                format!("SET {}", sets.join(", "))
            }
            None => format!("SET {} REMOVE accuracyM", sets.join(", ")),
        };
        let write = write.set_expression(expression);
        let (stored, item) = tokio::join!(
            self.update_returning::<IgnoredAny>(write),
            self.ambulance_item(ambulance)
        );
        if stored?.is_none() {
            return Ok(Reported::Ignored);
        }
        if item?.is_some_and(|a| a.status == AmbulanceStatus::Available) {
            self.move_free_entry(ambulance, &report.fix).await?;
        }
        Ok(Reported::Stored)
    }

    /// Moves a free ambulance's `freegeo` entry to `fix`, if it exists (the ambulance
    /// is AVAILABLE), was not moved in the last 30 s, and holds an older position.
    async fn move_free_entry(&self, ambulance: Id, fix: &Fix) -> Result<(), ApiError> {
        let now = OffsetDateTime::now_utc();
        let (pk, sk) = keys::free_geo(fix.latitude, fix.longitude);
        let write = Write::update(
            keys::free_position(ambulance),
            "SET latitude = :lat, longitude = :lng, recordedAt = :at, movedAt = :now, \
             freegeopk = :pk, freegeosk = :sk",
        )
        .exists()
        .when("(attribute_not_exists(movedAt) OR movedAt <= :cutoff)")
        .when("(attribute_not_exists(recordedAt) OR recordedAt < :at)")
        .value(":lat", fix.latitude)
        .value(":lng", fix.longitude)
        .value(":at", &fix.recorded_at)
        .value(":now", format_rfc3339(now))
        .value(":cutoff", format_rfc3339(now - FREE_ENTRY_INTERVAL))
        .value(":pk", pk)
        .value(":sk", sk);
        // Refused (not free any more, moved recently, or a newer report got there
        // first) is fine: nothing to do.
        self.update_returning::<IgnoredAny>(write).await.map(|_| ())
    }
}
