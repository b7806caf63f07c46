//! `manage migrate`: items written by older versions brought up to what the code
//! reads, so that no read carries a branch for old data. The operator's Scan lives
//! here too, and only here: no request scans (no function is granted Scan). Run it before deploying a
//! version whose notes say it needs it (docs/deploy.md, "Migrations"); it is safe
//! to run again, and beside a serving stack (every write is conditional on what was
//! read and on the field still being absent).

use aws_sdk_dynamodb::types::AttributeValue;
use serde::de::IgnoredAny;

use super::{
    Item, Store,
    bookings::{BookingItem, destination_sk, due_key, still_at},
    db_error, keys,
    table::readable,
    tx::Write,
};
use crate::error::StoreError;
use domain::{booking::Booking, deadline, privacy::finished_at, types::Id};

/// What one run changed.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Migrated {
    /// Bookings made before trip stages: given their stage (null while PENDING) and
    /// timeline.
    pub bookings: usize,
    /// Jobs waiting for their crew's answer, given before answer deadlines: given one
    /// from now, on the clock's agenda (docs/decisions/0012-background-work.md).
    pub answer_deadlines: usize,
    /// Whether the nearest-hospital index was built (a table from before it had
    /// none; docs/decisions/0006-nearest-search.md).
    pub hospital_index: bool,
    /// Free-ambulance entries (`FREEPOS`) written before the number was projected.
    pub free_entries: usize,
    /// Ambulances added before the live map's `fleet` index: given their cell.
    pub fleet_cells: usize,
    /// Bookings that ended before the retention sweep: put in its partition of the
    /// `due` index by when they ended (docs/decisions/0022-personal-data.md).
    pub retention_entries: usize,
    /// Bookings made before destinations: the ambulance's hospital as destination,
    /// on that hospital's board (docs/decisions/0026-receiving-hospital.md).
    pub destinations: usize,
}

/// `store.migrations()`: `manage migrate`: old items brought up to date. Every method of
/// the handle is in this file.
#[derive(Clone, Copy)]
pub struct Migrations<'a> {
    pub(super) store: &'a Store,
}

impl Migrations<'_> {
    /// Every item whose sort key is one of `sort_keys` (and that meets `and`, a filter
    /// on its attributes), by a Scan of the whole table: only for the operator's
    /// repairs and backfills (`manage`), never a request.
    pub(crate) async fn scan_sort_keys(
        self,
        sort_keys: &[&str],
        and: Option<&str>,
    ) -> Result<Vec<Item>, StoreError> {
        let names: Vec<String> = (0..sort_keys.len()).map(|i| format!(":sk{i}")).collect();
        let values = names
            .iter()
            .zip(sort_keys)
            .map(|(n, sk)| (n.clone(), AttributeValue::S((*sk).to_owned())))
            .collect();
        self.store
            .client()
            .scan()
            .table_name(self.store.table())
            .filter_expression(match and {
                Some(and) => format!("sk IN ({}) AND {and}", names.join(", ")),
                None => format!("sk IN ({})", names.join(", ")),
            })
            .set_expression_attribute_values(Some(values))
            .into_paginator()
            .items()
            .send()
            .try_collect()
            .await
            .map_err(db_error)
    }

    pub async fn migrate(self) -> Result<Migrated, StoreError> {
        Ok(Migrated {
            bookings: self.migrate_bookings().await?,
            // After the stages: whether a job waits for an answer depends on them.
            answer_deadlines: self.migrate_answer_deadlines().await?,
            hospital_index: self.migrate_hospital_index().await?,
            free_entries: self.migrate_free_entries().await?,
            fleet_cells: self.store.fleet().backfill_fleet_cells().await?,
            retention_entries: self.migrate_retention_entries().await?,
            destinations: self.migrate_destinations().await?,
        })
    }

    /// Each booking without a destination: its ambulance's hospital (as booked), with
    /// the board's `dest` keys (open, or ended when it ended).
    async fn migrate_destinations(self) -> Result<usize, StoreError> {
        self.rewrite_bookings("attribute_not_exists(destinationHospitalId)", |b| {
            Some(
                Write::update(
                    keys::booking(b.id),
                    "SET destinationHospitalId = :h, destinationHospitalName = :n, \
                     destpk = :pk, destsk = :sk",
                )
                .exists()
                .when("attribute_not_exists(destinationHospitalId)")
                .value(":h", b.hospital_id)
                .value(":n", &b.hospital_name)
                .value(":pk", keys::destination_trips(b.hospital_id))
                .value(":sk", destination_sk(&b)),
            )
        })
        .await
    }

    /// Each final booking whose personal fields are kept and that is in no `due`
    /// partition: in the retention sweep's, by when it ended (its final timeline
    /// entry; its booking time when it has none).
    async fn migrate_retention_entries(self) -> Result<usize, StoreError> {
        self.rewrite_bookings("attribute_not_exists(duepk)", |b| {
            if !b.booking_status.is_final() || b.erased.is_some() {
                return None;
            }
            let ended = finished_at(&b).unwrap_or(b.booking_time);
            Some(
                Write::update(keys::booking(b.id), "SET duepk = :p, duesk = :at")
                    .exists()
                    .when("attribute_not_exists(duepk) AND attribute_not_exists(erased.reason)")
                    .value(":p", keys::FORGET)
                    .value(
                        ":at",
                        (ended.get().unix_timestamp_nanos() / 1_000_000) as i64,
                    ),
            )
        })
        .await
    }

    /// `Booking::brought_up_to_date`'s stage and timeline written where the item
    /// lacks them (each only where absent), the stage null while PENDING: every
    /// booking then has `tripStage`, which the moves' conditions read.
    async fn migrate_bookings(self) -> Result<usize, StoreError> {
        const LACKING: &str = "(attribute_not_exists(timeline) OR attribute_not_exists(tripStage))";
        self.rewrite_bookings(LACKING, |was| {
            let now = was.clone().brought_up_to_date();
            Some(
                Write::update(
                    keys::booking(was.id),
                    "SET timeline = if_not_exists(timeline, :timeline), \
                     tripStage = if_not_exists(tripStage, :stage)",
                )
                .exists()
                .when("bookingStatus = :status")
                .when(LACKING)
                .value(":status", was.booking_status)
                .value(":timeline", &now.timeline)
                .value(":stage", now.trip_stage),
            )
        })
        .await
    }

    /// Each job waiting for its crew's answer without an `answerBy`: one from now
    /// (the answer times in force), and its entry in the clock's `due` partition.
    async fn migrate_answer_deadlines(self) -> Result<usize, StoreError> {
        let answer_times = self.store.settings().await.answer_times();
        let now = self.store.now();
        self.rewrite_bookings("attribute_not_exists(answerBy)", |b| {
            let progress = b.progress();
            if !progress.awaits_answer() {
                return None;
            }
            let answer_by = answer_times.answer_by(b.booking_type, now);
            let due = deadline::next_due(&b, answer_by, false);
            let write = Write::update(
                keys::booking(b.id),
                "SET answerBy = :by, duepk = :due, duesk = :at",
            )
            .exists()
            .when("attribute_not_exists(answerBy)")
            .value(":by", answer_by)
            .value(":due", keys::DUE)
            .value(":at", due_key(due));
            Some(still_at(write, progress))
        })
        .await
    }

    /// The nearest-hospital index built from every hospital, when the table has
    /// none: the search reads nothing else.
    async fn migrate_hospital_index(self) -> Result<bool, StoreError> {
        let hospitals = self.store.hospitals();
        if hospitals.hospital_index_generation().await?.is_some() {
            return Ok(false);
        }
        hospitals.build_hospital_index().await?;
        Ok(true)
    }

    /// Each readable booking the scan's `filter` keeps, rewritten by the write
    /// `write_of` gives it (none: left as it is), one after another; how many of
    /// those writes changed their item.
    async fn rewrite_bookings(
        self,
        filter: &str,
        write_of: impl Fn(Booking) -> Option<Write>,
    ) -> Result<usize, StoreError> {
        let items = self
            .scan_sort_keys(&[keys::BOOKING_SK], Some(filter))
            .await?;
        let writes = items
            .into_iter()
            .filter_map(readable::<BookingItem>)
            .filter_map(|read| write_of(read.booking));
        let mut changed = 0;
        for write in writes {
            changed += usize::from(self.applied(write).await?);
        }
        Ok(changed)
    }

    /// Whether `write` changed its item (false: its condition found it up to date).
    async fn applied(self, write: Write) -> Result<bool, StoreError> {
        Ok(self
            .store
            .update_returning::<IgnoredAny>(write)
            .await?
            .is_some())
    }

    /// Each `FREEPOS` entry without `number` given its ambulance's.
    async fn migrate_free_entries(self) -> Result<usize, StoreError> {
        // `number` is a reserved word, which a Scan's filter would need a name for:
        // the few entries are filtered here instead.
        let items = self.scan_sort_keys(&[keys::FREE_POSITION_SK], None).await?;
        let mut changed = 0;
        for item in items.into_iter().filter(|i| !i.contains_key("number")) {
            let Some(id) = item
                .get("id")
                .and_then(|v| v.as_n().ok())
                .and_then(|n| n.parse::<u64>().ok())
                .and_then(|n| Id::try_from(n).ok())
            else {
                continue;
            };
            let Some(ambulance) = self.store.fleet().ambulance_item(id).await? else {
                continue;
            };
            let write = Write::update(keys::free_position(id), "SET #n = :number")
                .exists()
                .name("#n", "number")
                .when("attribute_not_exists(#n)")
                .value(":number", &ambulance.number);
            changed += usize::from(self.applied(write).await?);
        }
        Ok(changed)
    }
}
