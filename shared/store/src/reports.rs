//! The response-time report (docs/decisions/0021-response-time-report.md), the handle
//! `store.reports()`: finished trips folded into days, and the report read from them.
//!
//! A booking that ends (COMPLETED or CANCELLED) gains `foldpk = FOLD`, `foldsk =
//! <when it ended, epoch ms>` in the very transaction of its final move: the sparse
//! keys-only index `fold` holds exactly the trips not yet in the report. The clock
//! ([`Reports::fold`]) takes them from there, oldest first: for each, a strongly
//! consistent read of the booking, its [`TripRecord`] from the timeline, and one
//! transaction that appends the record to its hospital's day and to the whole
//! service's day and removes the booking's fold keys, conditional on the `foldsk`
//! read. So a crash before the commit leaves the trip to the next sweep, and a second
//! sweep (or a retry) folding the same trip is refused by the condition: a trip is
//! counted once, never twice, never lost.
//!
//! A day is one item per hospital (`REPORT#<id:016>` / `DAY#<date>`) and one for the
//! whole service (`REPORT#ALL` / `DAY#<date>`), each holding the day's records as
//! two lists of binaries, `EMERGENCY` and `NORMAL` (about 15 bytes a trip): a year's
//! report of one hospital, or of the service, is one Query of at most 366 items. The
//! date is the call's, in the service's time zone ([`Store::time_zone`]).

use std::collections::BTreeMap;

use futures::{StreamExt, stream};
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;
use time::Date;

use super::{
    bookings::BookingItem,
    keys::{self, Key},
    schema::FOLD,
    table::{Query, Store},
    tx::{Label, Tx, TxError, Write},
};
use crate::error::StoreError;
use domain::{
    booking::BookingType,
    response_times::{self, Report, ReportRequest, Scope, Targets, TripRecord},
    types::Id,
};

/// Finished trips one sweep folds at most (oldest first); the next sweep, seconds
/// later, takes the rest.
pub const FOLD_LIMIT: usize = 200;
/// Trips folded at once: one. Every trip of a day appends to the same two items (its
/// hospital's day, the service's day), so folds side by side would only refuse each
/// other (TransactionConflict); one after the other a sweep folds its 200 trips in a
/// few seconds, far more than a service ends in 5 s.
const AT_ONCE: usize = 1;

/// A day of the report: the records of the trips called that day (one hospital's, or
/// the whole service's), by kind. No personal data: no booking, person or place.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct DayItem {
    #[serde(flatten)]
    pub(crate) key: Key,
    #[serde(rename = "EMERGENCY", default)]
    pub(crate) emergency: Vec<ByteBuf>,
    #[serde(rename = "NORMAL", default)]
    pub(crate) normal: Vec<ByteBuf>,
}

impl DayItem {
    pub(crate) fn new(
        hospital: Option<Id>,
        day: Date,
        emergency: &[TripRecord],
        normal: &[TripRecord],
    ) -> DayItem {
        let encode =
            |records: &[TripRecord]| records.iter().map(|r| ByteBuf::from(r.encode())).collect();
        DayItem {
            key: keys::report_day(hospital, day),
            emergency: encode(emergency),
            normal: encode(normal),
        }
    }

    /// The day's records of `kind` (None: both), undecodable ones left out (logged).
    fn records(&self, kind: Option<BookingType>) -> Vec<TripRecord> {
        let lists: Vec<&Vec<ByteBuf>> = match kind {
            Some(BookingType::Emergency) => vec![&self.emergency],
            Some(BookingType::Normal) => vec![&self.normal],
            None => vec![&self.emergency, &self.normal],
        };
        lists
            .into_iter()
            .flatten()
            .filter_map(|bytes| {
                let record = TripRecord::decode(bytes);
                if record.is_none() {
                    tracing::error!(day = %self.key.sk, report = %self.key.pk, "a trip record does not read");
                }
                record
            })
            .collect()
    }

    fn date(&self) -> Option<Date> {
        let text = keys::report_day_text(&self.key.sk)?;
        response_times::Day::try_from(text.to_owned())
            .ok()
            .map(|d| d.0)
    }
}

/// The name of a kind's list in a day item.
fn list_of(kind: BookingType) -> &'static str {
    match kind {
        BookingType::Emergency => "EMERGENCY",
        BookingType::Normal => "NORMAL",
    }
}

/// What one fold did (logged by the clock, printed by the benchmark).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct FoldReport {
    /// Bookings read from the `fold` index.
    pub due: usize,
    pub folded: usize,
    /// Folded by another sweep meanwhile (or the index was behind): nothing to do.
    pub settled: usize,
    /// Failed (logged); the next sweep tries them again. A booking that cannot be
    /// folded at all (a damaged item) stays in the index, counted here each sweep.
    pub failed: usize,
}

/// What the fold did with one booking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Folded {
    Folded,
    Settled,
}

#[derive(Deserialize)]
struct FoldKey {
    #[serde(flatten)]
    key: Key,
}

/// `store.reports()`: the response-time report. Every method of the handle is in
/// this file.
#[derive(Clone, Copy)]
pub struct Reports<'a> {
    pub(super) store: &'a Store,
}

impl Reports<'_> {
    /// One fold: every finished trip not yet in the report (at most [`FOLD_LIMIT`],
    /// the longest ended first) added to its days, one after the other.
    pub async fn fold(self) -> Result<FoldReport, StoreError> {
        let due: Vec<FoldKey> = self
            .store
            .query_first(
                Query::on(FOLD, "foldpk = :p").value(":p", keys::FOLD),
                FOLD_LIMIT,
            )
            .await?;
        let mut report = FoldReport {
            due: due.len(),
            ..FoldReport::default()
        };
        let outcomes: Vec<Result<Folded, StoreError>> = stream::iter(due)
            .map(|d| async move {
                let pk = d.key.pk.clone();
                self.fold_booking(d.key).await.inspect_err(
                    |e| tracing::error!(error = %e, booking = %pk, "could not fold a trip"),
                )
            })
            .buffer_unordered(AT_ONCE)
            .collect()
            .await;
        for outcome in outcomes {
            match outcome {
                Ok(Folded::Folded) => report.folded += 1,
                Ok(Folded::Settled) => report.settled += 1,
                Err(_) => report.failed += 1,
            }
        }
        Ok(report)
    }

    /// Folds the finished booking `key` into its days, once.
    pub async fn fold_booking(self, key: Key) -> Result<Folded, StoreError> {
        let Some(item) = self.store.get::<BookingItem>(&key).await? else {
            return Ok(Folded::Settled);
        };
        let Some(ended) = item.foldsk else {
            return Ok(Folded::Settled);
        };
        let trip = TripRecord::of(&item.booking).map_err(StoreError::internal)?;
        let day = self.store.time_zone().date_of(trip.called);
        let list = list_of(trip.booking_type);
        let append = |hospital: Option<Id>| {
            Write::update(
                keys::report_day(hospital, day),
                "SET #list = list_append(if_not_exists(#list, :none), :trip)",
            )
            .name("#list", list)
            .value(":none", Vec::<ByteBuf>::new())
            .value(":trip", [ByteBuf::from(trip.record.encode())])
        };
        let mut tx = Tx::new();
        tx.push(Label::ReportDay, append(Some(trip.hospital)))
            .push(Label::ReportDay, append(None))
            .push(
                Label::Booking(item.booking.id),
                Write::update(key, "REMOVE foldpk, foldsk")
                    .when("foldsk = :ended")
                    .value(":ended", ended),
            );
        match self.store.commit(tx).await {
            Ok(()) => Ok(Folded::Folded),
            Err(TxError::Refused(_)) => Ok(Folded::Settled),
            Err(TxError::Api(e)) => Err(e),
        }
    }

    /// The report `asked` for (no dates: the 12 weeks up to today, in the service's
    /// zone), as `scope` allows (an admin: any hospital or the
    /// whole service; a hospital's staff: its own only, 403 for another). One Query
    /// of the days' items (eventually consistent: a report may lag a trip by a
    /// second), then the figures in memory; the targets are the settings in force.
    pub async fn response_times(
        self,
        asked: ReportRequest,
        scope: Scope,
    ) -> Result<Report, StoreError> {
        let today = self.store.time_zone().date_of(self.store.now());
        let query = asked.query(today)?;
        let hospital = scope.allows(query.hospital_id)?;
        let items: Vec<DayItem> = self
            .store
            .query_all(
                Query::table("pk = :p AND sk BETWEEN :from AND :to")
                    .value(":p", keys::report_days(hospital))
                    .value(":from", keys::report_day_sk(query.from.0))
                    .value(":to", keys::report_day_sk(query.to.0))
                    .eventually_consistent(),
            )
            .await?;
        let days: BTreeMap<Date, Vec<TripRecord>> = items
            .iter()
            .filter_map(|item| Some((item.date()?, item.records(query.booking_type))))
            .collect();
        let targets = Targets::from(&self.store.settings().await);
        Ok(response_times::report(
            &query,
            hospital,
            &days,
            targets,
            self.store.time_zone(),
        ))
    }
}
