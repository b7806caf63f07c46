//! How fast help came (docs/decisions/0021-response-time-report.md): what one
//! finished trip's timeline adds up to ([`TripRecord::of`], computed once, when the
//! clock folds the trip), and what the records of many days add up to per period
//! ([`report`]): how many trips, the p50, p90 and max of each interval, the share
//! within each target, how many were moved, unanswered, cancelled.
//!
//! The intervals of a trip, in whole seconds (a negative one, from two machines'
//! clocks, counts as 0):
//!
//! | interval | from | to |
//! |---|---|---|
//! | `dispatch` | the call (booking time) | the first dispatch: every booking is given its first ambulance when it is made, so its first timeline entry |
//! | `answer` | the first dispatch (moves count against it) | the accept that stuck: the last EN_ROUTE after the last REASSIGNED |
//! | `travel` | that accept | AT_PICKUP |
//! | `onScene` | AT_PICKUP | TO_HOSPITAL |
//! | `transport` | TO_HOSPITAL | AT_HOSPITAL |
//! | `handover` | AT_HOSPITAL | HANDED_OVER (none for a trip completed without a handover) |
//! | `response` | the call | AT_PICKUP (`dispatch + answer + travel`) |
//!
//! An interval whose end the trip never reached (cancelled on the way, ended by an
//! admin) is absent, never a zero: it is left out of that interval's figures. Its
//! wait still counts against a target once it outlasted it (see [`WithinTarget`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use strum::{AsRefStr, VariantArray};
use time::{Date, Duration, OffsetDateTime, UtcOffset, macros::format_description};

use super::{
    booking::{Booking, BookingStatus, BookingType, Milestone, TimelineEntry},
    lenient,
    refusal::Refusal,
    settings::Settings,
};
use crate::types::Id;

/// The longest report: a year, leap day included (a year's report for one hospital
/// reads at most this many day items).
pub const MAX_DAYS: i64 = 366;

/// What one finished trip adds to the report: its intervals and what happened to it,
/// nothing about who or where (no personal data: these outlive every retention).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TripRecord {
    pub dispatch: Option<u32>,
    pub answer: Option<u32>,
    pub travel: Option<u32>,
    pub on_scene: Option<u32>,
    pub transport: Option<u32>,
    pub handover: Option<u32>,
    /// From the call to the trip's end (COMPLETED or CANCELLED): how long a trip that
    /// never reached an interval's end had waited for it when it ended.
    pub ended: u32,
    pub moved: bool,
    pub cancelled: bool,
}

/// The first byte of a stored record: its layout. A new field is a new version, and
/// [`TripRecord::decode`] keeps reading the old ones.
const RECORD_V1: u8 = 1;

/// A finished trip as the report counts it: whose day it belongs to and its record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinishedTrip {
    /// The hospital the trip was booked to (the booking's `hospitalId`).
    pub hospital: Id,
    pub booking_type: BookingType,
    /// When it was called (the booking time): the day a trip belongs to, even when it
    /// ends after midnight.
    pub called: OffsetDateTime,
    pub record: TripRecord,
}

/// Why a booking cannot be folded (a bug or a damaged item: the clock logs it and
/// leaves it for a person).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotFoldable {
    #[error("booking {0} is not finished")]
    Open(Id),
}

impl TripRecord {
    /// The record of a finished booking, from its timeline.
    pub fn of(booking: &Booking) -> Result<FinishedTrip, NotFoldable> {
        if !booking.booking_status.is_final() {
            return Err(NotFoldable::Open(booking.id));
        }
        let timeline = &booking.timeline;
        let called = booking.booking_time.get();
        let at = |entry: Option<&TimelineEntry>| -> Result<Option<OffsetDateTime>, NotFoldable> {
            Ok(entry.map(|e| e.at.get()))
        };
        let first = |stage: Milestone| timeline.iter().find(|e| e.stage == stage);
        let first_dispatch = at(timeline.first())?.unwrap_or(called);
        let last_move = timeline
            .iter()
            .rposition(|e| e.stage == Milestone::Reassigned);
        let accept = at(timeline
            .iter()
            .enumerate()
            .filter(|(i, e)| e.stage == Milestone::EnRoute && last_move.is_none_or(|m| *i > m))
            .map(|(_, e)| e)
            .next_back())?;
        let pickup = at(first(Milestone::AtPickup))?;
        let left = at(first(Milestone::ToHospital))?;
        let arrived = at(first(Milestone::AtHospital))?;
        let handed = at(handed_over(timeline))?;
        let end = at(timeline
            .iter()
            .rfind(|e| matches!(e.stage, Milestone::Completed | Milestone::Cancelled)))?
        .unwrap_or(first_dispatch);
        let record = TripRecord {
            dispatch: Some(seconds(called, first_dispatch)),
            answer: accept.map(|a| seconds(first_dispatch, a)),
            travel: between(accept, pickup),
            on_scene: between(pickup, left),
            transport: between(left, arrived),
            handover: between(arrived, handed),
            ended: seconds(called, end),
            moved: last_move.is_some(),
            cancelled: booking.booking_status == BookingStatus::Cancelled,
        };
        Ok(FinishedTrip {
            hospital: booking.hospital_id,
            booking_type: booking.booking_type,
            called,
            record,
        })
    }

    /// From the call to the pickup, when the trip got there.
    pub fn response(&self) -> Option<u32> {
        Some(self.dispatch? + self.answer? + self.travel?)
    }

    /// No crew accepted the trip (or none after its last move) before it ended.
    pub fn unanswered(&self) -> bool {
        self.answer.is_none()
    }

    /// The stored form: a version byte, then the fields (postcard: varints, about 15
    /// bytes a trip).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![RECORD_V1];
        out.extend(postcard::to_allocvec(self).expect("a record always encodes"));
        out
    }

    pub fn decode(bytes: &[u8]) -> Option<TripRecord> {
        match bytes.split_first() {
            Some((&RECORD_V1, rest)) => postcard::from_bytes(rest).ok(),
            _ => None,
        }
    }
}

/// When the receiving hospital (or the crew) recorded the handover: none for a trip
/// completed straight from AT_HOSPITAL.
fn handed_over(timeline: &[TimelineEntry]) -> Option<&TimelineEntry> {
    timeline.iter().find(|e| e.stage == Milestone::HandedOver)
}

/// Whole seconds from `a` to `b`, 0 if `b` is earlier (two machines' clocks).
fn seconds(a: OffsetDateTime, b: OffsetDateTime) -> u32 {
    u32::try_from((b - a).whole_seconds().max(0)).unwrap_or(u32::MAX)
}

fn between(a: Option<OffsetDateTime>, b: Option<OffsetDateTime>) -> Option<u32> {
    Some(seconds(a?, b?))
}

/// The time zone whose days the report counts (decision 0021): one per deployment,
/// `SERVICE_TIME_ZONE` (an IANA name; default [`ServiceZone::DEFAULT`]). A trip
/// belongs to the day, in this zone, of its call.
#[derive(Debug, Clone)]
pub struct ServiceZone {
    name: String,
    zone: jiff::tz::TimeZone,
}

impl ServiceZone {
    pub const DEFAULT: &'static str = "Asia/Kolkata";

    /// The zone of an IANA name (`Asia/Kolkata`, `America/New_York`, `UTC`).
    pub fn named(name: &str) -> Result<ServiceZone, String> {
        jiff::tz::TimeZone::get(name)
            .map(|zone| ServiceZone {
                name: name.to_owned(),
                zone,
            })
            .map_err(|_| format!("'{name}' is not a time zone of the IANA database"))
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The date in this zone at `at`.
    pub fn date_of(&self, at: OffsetDateTime) -> Date {
        let offset = jiff::Timestamp::from_second(at.unix_timestamp())
            .map(|t| self.zone.to_offset(t).seconds())
            .unwrap_or(0);
        let offset = UtcOffset::from_whole_seconds(offset).unwrap_or(UtcOffset::UTC);
        at.to_offset(offset).date()
    }
}

impl Default for ServiceZone {
    fn default() -> Self {
        ServiceZone::named(ServiceZone::DEFAULT).expect("the bundled database has it")
    }
}

impl PartialEq for ServiceZone {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

/// A calendar date in a query: `2026-03-01`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Day(pub Date);

const DAY_FORMAT: &[time::format_description::BorrowedFormatItem<'static>] =
    format_description!("[year]-[month]-[day]");

impl TryFrom<String> for Day {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        Date::parse(text.trim(), DAY_FORMAT)
            .map(Day)
            .map_err(|_| format!("'{text}' is not a date YYYY-MM-DD"))
    }
}

impl From<Day> for String {
    fn from(d: Day) -> String {
        day_text(d.0)
    }
}

/// `2026-03-01`: how a date is written in keys, answers and the CSV.
pub fn day_text(d: Date) -> String {
    d.format(DAY_FORMAT).expect("a date always formats")
}

/// How the rows are cut: `day`, `week` (ISO, Monday first) or `month`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, AsRefStr, VariantArray,
)]
#[serde(rename_all = "lowercase", try_from = "String")]
#[strum(serialize_all = "lowercase")]
pub enum Period {
    Day,
    #[default]
    Week,
    Month,
}

lenient!(Period, "period");

impl Period {
    /// The period's name (`2026-03-01`, `2026-W09`, `2026-03`) and its first day.
    pub fn of(self, d: Date) -> (String, Date) {
        match self {
            Period::Day => (day_text(d), d),
            Period::Week => {
                let (year, week, _) = d.to_iso_week_date();
                let monday = d - Duration::days(i64::from(d.weekday().number_days_from_monday()));
                (format!("{year}-W{week:02}"), monday)
            }
            Period::Month => (
                format!("{}-{:02}", d.year(), u8::from(d.month())),
                d.replace_day(1).expect("every month has a first"),
            ),
        }
    }
}

/// `GET /api/admin/reports/response-times`'s query as asked: without dates, the 12
/// weeks ending today in the service's zone (the screen's first view, in the
/// service's days whatever the browser's zone).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ReportRequest {
    pub from: Option<Day>,
    pub to: Option<Day>,
    #[serde(default)]
    pub by: Period,
    /// Absent: the whole service.
    pub hospital_id: Option<Id>,
    /// Absent: both kinds together.
    #[serde(rename = "type")]
    pub booking_type: Option<BookingType>,
}

/// Days the report covers when no `from` is asked: 12 weeks up to `to`.
pub const DEFAULT_DAYS: i64 = 84;

impl ReportRequest {
    /// The query with its dates, `today` being the service's: checked (400 naming `to`).
    pub fn query(self, today: Date) -> Result<ReportQuery, Refusal> {
        let to = self.to.unwrap_or(Day(today));
        let from = self.from.unwrap_or_else(|| {
            Day(to
                .0
                .checked_sub(Duration::days(DEFAULT_DAYS - 1))
                .unwrap_or(to.0))
        });
        ReportQuery {
            from,
            to,
            by: self.by,
            hospital_id: self.hospital_id,
            booking_type: self.booking_type,
        }
        .checked()
    }
}

/// A report's query, its dates known.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportQuery {
    pub from: Day,
    pub to: Day,
    pub by: Period,
    pub hospital_id: Option<Id>,
    pub booking_type: Option<BookingType>,
}

impl ReportQuery {
    /// `to` on or after `from`, at most [`MAX_DAYS`] days in all (400 naming `to`).
    pub fn checked(self) -> Result<ReportQuery, Refusal> {
        if self.to < self.from {
            return Err(Refusal::invalid(
                "to",
                format!(
                    "'to' ({}) is before 'from' ({})",
                    day_text(self.to.0),
                    day_text(self.from.0)
                ),
            ));
        }
        if self.days() > MAX_DAYS {
            return Err(Refusal::invalid(
                "to",
                format!(
                    "A report covers at most {MAX_DAYS} days; {} to {} is {}",
                    day_text(self.from.0),
                    day_text(self.to.0),
                    self.days()
                ),
            ));
        }
        Ok(self)
    }

    /// Days from `from` to `to`, both included.
    pub fn days(&self) -> i64 {
        (self.to.0 - self.from.0).whole_days() + 1
    }
}

/// Who may see which hospitals' figures. An admin sees every hospital and the whole
/// service; a hospital's own staff (a role still to come) only its hospital: the
/// route of that role passes [`Scope::Hospital`] and the same store method does the
/// rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Everything,
    Hospital(Id),
}

impl Scope {
    /// The hospital `asked` for (None: the whole service) as this scope allows it.
    pub fn allows(self, asked: Option<Id>) -> Result<Option<Id>, Refusal> {
        match (self, asked) {
            (Scope::Everything, asked) => Ok(asked),
            (Scope::Hospital(own), None) => Ok(Some(own)),
            (Scope::Hospital(own), Some(asked)) if asked == own => Ok(Some(own)),
            (Scope::Hospital(_), Some(_)) => Err(super::refusal::NotAllowed::OtherHospital.into()),
        }
    }
}

/// The targets the shares are measured against (settings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Targets {
    pub answer_seconds: u32,
    pub pickup_minutes: u32,
}

impl From<&Settings> for Targets {
    fn from(s: &Settings) -> Self {
        Targets {
            answer_seconds: s.answer_target_seconds,
            pickup_minutes: s.pickup_target_minutes,
        }
    }
}

/// One interval's figures over a period: how many trips reached its end, and the
/// nearest-rank percentiles of their seconds (p = the value at rank ⌈p/100 × n⌉ of
/// the n sorted values: always a value some trip had, checkable by hand).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Stat {
    pub count: u32,
    pub p50: u32,
    pub p90: u32,
    pub max: u32,
}

impl Stat {
    fn of(mut values: Vec<u32>) -> Option<Stat> {
        values.sort_unstable();
        let n = values.len();
        let rank = |p: usize| values[(p * n).div_ceil(100).max(1) - 1];
        (n > 0).then(|| Stat {
            count: u32::try_from(n).unwrap_or(u32::MAX),
            p50: rank(50),
            p90: rank(90),
            max: values[n - 1],
        })
    }
}

/// The figures of each interval (null: no trip of the period reached its end).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Intervals {
    pub dispatch: Option<Stat>,
    pub answer: Option<Stat>,
    pub travel: Option<Stat>,
    pub on_scene: Option<Stat>,
    pub transport: Option<Stat>,
    pub handover: Option<Stat>,
    pub response: Option<Stat>,
}

/// The names of the intervals, in the order of the columns.
pub const INTERVALS: [&str; 7] = [
    "dispatch",
    "answer",
    "travel",
    "onScene",
    "transport",
    "handover",
    "response",
];

impl Intervals {
    fn of(records: &[TripRecord]) -> Intervals {
        let stat =
            |f: fn(&TripRecord) -> Option<u32>| Stat::of(records.iter().filter_map(f).collect());
        Intervals {
            dispatch: stat(|r| r.dispatch),
            answer: stat(|r| r.answer),
            travel: stat(|r| r.travel),
            on_scene: stat(|r| r.on_scene),
            transport: stat(|r| r.transport),
            handover: stat(|r| r.handover),
            response: stat(TripRecord::response),
        }
    }

    /// In the order of [`INTERVALS`].
    pub fn all(&self) -> [Option<Stat>; 7] {
        [
            self.dispatch,
            self.answer,
            self.travel,
            self.on_scene,
            self.transport,
            self.handover,
            self.response,
        ]
    }
}

/// The share of trips within each target, from 0 to 1 (null: no trip to judge).
///
/// A trip that reached the interval's end counts in or out by its time. One that
/// never did (no crew accepted; never at the pickup) counts out once it had waited
/// longer than the target when it ended, and is left out otherwise: a trip
/// cancelled 20 s after the call says nothing about a 60 s target.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct WithinTarget {
    pub answer: Option<f64>,
    pub pickup: Option<f64>,
}

impl WithinTarget {
    fn of(records: &[TripRecord], targets: Targets) -> WithinTarget {
        let pickup_target = targets.pickup_minutes.saturating_mul(60);
        let share = |verdicts: Vec<bool>| {
            (!verdicts.is_empty())
                .then(|| verdicts.iter().filter(|v| **v).count() as f64 / verdicts.len() as f64)
        };
        let answer = records.iter().filter_map(|r| match r.answer {
            Some(a) => Some(a <= targets.answer_seconds),
            None => {
                let waited = r.ended.saturating_sub(r.dispatch.unwrap_or(0));
                (waited > targets.answer_seconds).then_some(false)
            }
        });
        let pickup = records.iter().filter_map(|r| match r.response() {
            Some(p) => Some(p <= pickup_target),
            None => (r.ended > pickup_target).then_some(false),
        });
        WithinTarget {
            answer: share(answer.collect()),
            pickup: share(pickup.collect()),
        }
    }
}

/// One row of the report: a period (of one hospital, or of the whole service).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    /// `2026-03-01`, `2026-W09` or `2026-03`.
    pub period: String,
    /// The period's first and last day inside the report's range.
    pub from: Day,
    pub to: Day,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hospital_id: Option<Id>,
    pub count: u32,
    pub intervals: Intervals,
    pub within_target: WithinTarget,
    pub moved: u32,
    pub unanswered: u32,
    pub cancelled: u32,
}

/// One bar of a histogram: trips with `from <= seconds < to` (`to` null: no end).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Bin {
    pub from: u32,
    pub to: Option<u32>,
    pub count: u32,
}

/// How the answer and the response times of the whole range spread.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Histograms {
    pub answer: Vec<Bin>,
    pub response: Vec<Bin>,
}

/// The bins' edges in seconds: answer times up to 10 minutes, response times up to
/// an hour, each with an open last bin.
const ANSWER_EDGES: [u32; 9] = [15, 30, 45, 60, 90, 120, 180, 300, 600];
const RESPONSE_EDGES: [u32; 8] = [300, 600, 900, 1200, 1800, 2700, 3600, 5400];

fn histogram(edges: &[u32], values: impl Iterator<Item = u32>) -> Vec<Bin> {
    let mut bins: Vec<Bin> = std::iter::once(0)
        .chain(edges.iter().copied())
        .zip(edges.iter().map(|e| Some(*e)).chain([None]))
        .map(|(from, to)| Bin { from, to, count: 0 })
        .collect();
    for v in values {
        let i = edges.partition_point(|e| *e <= v);
        bins[i].count += 1;
    }
    bins
}

/// The report as `GET /api/admin/reports/response-times` answers it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub from: Day,
    pub to: Day,
    pub by: Period,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hospital_id: Option<Id>,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub booking_type: Option<BookingType>,
    /// The zone whose days the periods are (decision 0021).
    pub time_zone: String,
    pub targets: Targets,
    /// Every period of the range, oldest first, empty ones too (count 0).
    pub rows: Vec<Row>,
    /// The whole range as one row (period `<from>/<to>`): the figures a report states
    /// (a quarter's p90), which no sum of the rows can give.
    pub total: Row,
    pub histograms: Histograms,
}

/// The report of `query` for `hospital` (None: the whole service) from the records
/// of each day (days absent had no trips).
pub fn report(
    query: &ReportQuery,
    hospital: Option<Id>,
    days: &BTreeMap<Date, Vec<TripRecord>>,
    targets: Targets,
    zone: &ServiceZone,
) -> Report {
    let (from, to) = (query.from.0, query.to.0);
    let mut periods: Vec<(String, Date, Date, Vec<TripRecord>)> = vec![];
    let mut day = from;
    loop {
        let (name, _) = query.by.of(day);
        let records = days.get(&day).map(Vec::as_slice).unwrap_or_default();
        match periods.last_mut() {
            Some(last) if last.0 == name => {
                last.2 = day;
                last.3.extend_from_slice(records);
            }
            _ => periods.push((name, day, day, records.to_vec())),
        }
        if day >= to {
            break;
        }
        day = day.next_day().expect("dates of a checked query");
    }
    let count = |records: &[TripRecord], f: fn(&TripRecord) -> bool| {
        u32::try_from(records.iter().filter(|r| f(r)).count()).unwrap_or(u32::MAX)
    };
    let row = |period: String, first: Date, last: Date, records: &[TripRecord]| Row {
        period,
        from: Day(first),
        to: Day(last),
        hospital_id: hospital,
        count: u32::try_from(records.len()).unwrap_or(u32::MAX),
        intervals: Intervals::of(records),
        within_target: WithinTarget::of(records, targets),
        moved: count(records, |r| r.moved),
        unanswered: count(records, TripRecord::unanswered),
        cancelled: count(records, |r| r.cancelled),
    };
    let all = || {
        days.range(from..=to)
            .flat_map(|(_, records)| records.iter())
    };
    let everything: Vec<TripRecord> = all().copied().collect();
    let total = row(
        format!("{}/{}", day_text(from), day_text(to)),
        from,
        to,
        &everything,
    );
    let rows = periods
        .into_iter()
        .map(|(period, first, last, records)| row(period, first, last, &records))
        .collect();
    Report {
        from: query.from,
        to: query.to,
        by: query.by,
        hospital_id: hospital,
        booking_type: query.booking_type,
        time_zone: zone.name().to_owned(),
        targets,
        rows,
        total,
        histograms: Histograms {
            answer: histogram(&ANSWER_EDGES, all().filter_map(|r| r.answer)),
            response: histogram(&RESPONSE_EDGES, all().filter_map(TripRecord::response)),
        },
    }
}

/// The rows as CSV (`Accept: text/csv`): one line a row, then the total's, the same
/// numbers as the JSON (a missing figure is an empty cell; a share has 4 decimals).
pub fn csv(report: &Report) -> String {
    let mut header = vec!["period".to_owned(), "from".into(), "to".into()];
    header.extend(["hospitalId", "type", "count"].map(String::from));
    for name in INTERVALS {
        for stat in ["count", "p50", "p90", "max"] {
            header.push(format!("{name}.{stat}"));
        }
    }
    header.extend(
        [
            "withinTarget.answer",
            "withinTarget.pickup",
            "moved",
            "unanswered",
            "cancelled",
        ]
        .map(String::from),
    );
    let mut out = csv::Writer::from_writer(vec![]);
    out.write_record(&header).expect("writing to memory");
    let hospital = report
        .hospital_id
        .map(|h| h.to_string())
        .unwrap_or_default();
    let kind = report
        .booking_type
        .map(|t| t.as_ref().to_owned())
        .unwrap_or_default();
    let share = |s: Option<f64>| s.map(|v| format!("{v:.4}")).unwrap_or_default();
    for row in report.rows.iter().chain([&report.total]) {
        let mut cells = vec![
            row.period.clone(),
            day_text(row.from.0),
            day_text(row.to.0),
            hospital.clone(),
            kind.clone(),
            row.count.to_string(),
        ];
        for stat in row.intervals.all() {
            match stat {
                Some(s) => cells.extend([s.count, s.p50, s.p90, s.max].map(|v| v.to_string())),
                None => cells.extend(["0".to_owned(), String::new(), String::new(), String::new()]),
            }
        }
        cells.extend([
            share(row.within_target.answer),
            share(row.within_target.pickup),
            row.moved.to_string(),
            row.unanswered.to_string(),
            row.cancelled.to_string(),
        ]);
        out.write_record(&cells).expect("writing to memory");
    }
    String::from_utf8(out.into_inner().expect("writing to memory")).expect("the cells are UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::booking::{ReassignReason, TimelineEntry as E};
    use time::macros::{date, datetime};

    fn id(n: u64) -> Id {
        Id::try_from(n).unwrap()
    }

    /// A finished booking made at `called` with `entries` (stage, seconds after the
    /// call) as its timeline.
    fn trip(
        status: BookingStatus,
        kind: BookingType,
        called: OffsetDateTime,
        entries: &[(Milestone, i64)],
    ) -> Booking {
        let at = |s: i64| crate::types::Timestamp::new(called + Duration::seconds(s)).unwrap();
        let timeline = entries
            .iter()
            .map(|(stage, s)| match stage {
                Milestone::Reassigned => E::reassigned("AMB-1", ReassignReason::NoAnswer, at(*s)),
                stage => E::new(*stage, at(*s)),
            })
            .collect();
        let mut v = serde_json::json!({
            "id": 9, "bookingStatus": status, "bookingType": kind,
            "bookingTime": at(0), "userId": 2, "username": "u",
            "userEmail": "u@example.com", "hospitalId": 3, "hospitalName": "H",
            "hospital": {"id": 3, "name": "H", "address": "A"}, "ambulanceId": 4,
            "ambulanceNumber": "N", "ambulance": {"id": 4, "number": "N", "type": "BLS", "driverInfo": null},
            "patient": {"name": null, "age": null, "gender": null, "condition": null},
            "userPhone": null, "pickup": null, "tripStage": null,
        });
        v["timeline"] = serde_json::to_value::<Vec<E>>(timeline).unwrap();
        serde_json::from_value(v).unwrap()
    }

    use Milestone::*;

    const T0: OffsetDateTime = datetime!(2026-03-01 10:00 UTC);

    #[test]
    fn a_whole_trip_gives_every_interval() {
        let b = trip(
            BookingStatus::Completed,
            BookingType::Emergency,
            T0,
            &[
                (Active, 0),
                (Dispatched, 0),
                (EnRoute, 40),
                (AtPickup, 640),
                (ToHospital, 1240),
                (AtHospital, 2140),
                (Completed, 2500),
            ],
        );
        let t = TripRecord::of(&b).unwrap();
        assert_eq!(
            (t.hospital, t.booking_type, t.called),
            (id(3), BookingType::Emergency, T0)
        );
        let r = t.record;
        assert_eq!(
            r,
            TripRecord {
                dispatch: Some(0),
                answer: Some(40),
                travel: Some(600),
                on_scene: Some(600),
                transport: Some(900),
                handover: None,
                ended: 2500,
                moved: false,
                cancelled: false,
            }
        );
        assert_eq!(r.response(), Some(640));
        assert!(!r.unanswered());
        assert_eq!(TripRecord::decode(&r.encode()), Some(r));
        assert!(r.encode().len() <= 20, "{} bytes", r.encode().len());
        assert_eq!(TripRecord::decode(&[9, 1, 2]), None);
        assert_eq!(TripRecord::decode(&[]), None);
    }

    #[test]
    fn a_move_counts_against_the_answer_and_the_accept_that_stuck_is_the_one_after_it() {
        // Missed by the first crew (moved at 61 s), accepted by the second at 75 s.
        let missed = trip(
            BookingStatus::Completed,
            BookingType::Emergency,
            T0,
            &[
                (Active, 0),
                (Dispatched, 0),
                (Reassigned, 61),
                (EnRoute, 75),
                (AtPickup, 475),
                (Completed, 500),
            ],
        );
        let r = TripRecord::of(&missed).unwrap().record;
        assert_eq!((r.answer, r.travel, r.moved), (Some(75), Some(400), true));
        assert_eq!((r.on_scene, r.transport), (None, None));
        // Accepted at 20 s, then broke down and was moved at 100 s; the second crew
        // accepted at 130 s: the answer is 130 s, the travel from then.
        let broke = trip(
            BookingStatus::Completed,
            BookingType::Normal,
            T0,
            &[
                (Pending, 0),
                (Active, 20),
                (EnRoute, 20),
                (Reassigned, 100),
                (EnRoute, 130),
                (AtPickup, 430),
                (Completed, 440),
            ],
        );
        let r = TripRecord::of(&broke).unwrap().record;
        assert_eq!(
            (r.answer, r.travel, r.response()),
            (Some(130), Some(300), Some(430))
        );
        // Moved after its accept and never accepted again: unanswered.
        let dropped = trip(
            BookingStatus::Cancelled,
            BookingType::Normal,
            T0,
            &[
                (Pending, 0),
                (Active, 20),
                (EnRoute, 20),
                (Reassigned, 100),
                (Cancelled, 200),
            ],
        );
        let r = TripRecord::of(&dropped).unwrap().record;
        assert!(r.unanswered() && r.cancelled && r.moved);
        assert_eq!((r.travel, r.ended), (None, 200));
    }

    #[test]
    fn a_cancelled_trip_keeps_what_it_reached_and_only_that() {
        let b = trip(
            BookingStatus::Cancelled,
            BookingType::Normal,
            T0,
            &[
                (Pending, 0),
                (Active, 30),
                (Dispatched, 30),
                (EnRoute, 90),
                (Cancelled, 300),
            ],
        );
        let r = TripRecord::of(&b).unwrap().record;
        assert_eq!(
            (
                r.dispatch,
                r.answer,
                r.travel,
                r.response(),
                r.ended,
                r.cancelled
            ),
            (Some(0), Some(90), None, None, 300, true)
        );
        let open = trip(
            BookingStatus::Active,
            BookingType::Normal,
            T0,
            &[(Pending, 0)],
        );
        assert_eq!(TripRecord::of(&open), Err(NotFoldable::Open(id(9))));
        // Clocks of two machines a little apart: never a negative interval.
        let skewed = trip(
            BookingStatus::Completed,
            BookingType::Normal,
            T0,
            &[(Pending, 0), (EnRoute, -1), (Completed, 5)],
        );
        assert_eq!(TripRecord::of(&skewed).unwrap().record.answer, Some(0));
    }

    #[test]
    fn a_trip_belongs_to_the_day_of_its_call_in_the_service_zone() {
        let kolkata = ServiceZone::default();
        assert_eq!(kolkata.name(), "Asia/Kolkata");
        // 18:20 UTC is 23:50 in Kolkata; 18:40 UTC is 00:10 the next day there.
        assert_eq!(
            kolkata.date_of(datetime!(2026-03-01 18:20 UTC)),
            date!(2026 - 03 - 01)
        );
        assert_eq!(
            kolkata.date_of(datetime!(2026-03-01 18:40 UTC)),
            date!(2026 - 03 - 02)
        );
        // A zone with summer time: New York is UTC-5 in winter, UTC-4 in summer.
        let ny = ServiceZone::named("America/New_York").unwrap();
        assert_eq!(
            ny.date_of(datetime!(2026-01-10 04:30 UTC)),
            date!(2026 - 01 - 09)
        );
        assert_eq!(
            ny.date_of(datetime!(2026-07-10 04:30 UTC)),
            date!(2026 - 07 - 10)
        );
        assert!(ServiceZone::named("Mars/Olympus").is_err());
    }

    #[test]
    fn periods_are_days_iso_weeks_and_months() {
        let d = date!(2026 - 01 - 01); // a Thursday, in ISO week 1 of 2026
        assert_eq!(Period::Day.of(d), ("2026-01-01".into(), d));
        assert_eq!(
            Period::Week.of(d),
            ("2026-W01".into(), date!(2025 - 12 - 29))
        );
        assert_eq!(
            Period::Month.of(date!(2026 - 02 - 28)),
            ("2026-02".into(), date!(2026 - 02 - 01))
        );
        assert_eq!(Period::Week.of(date!(2027 - 01 - 01)).0, "2026-W53");
        assert_eq!(
            serde_json::from_value::<Period>("WEEK".into()).unwrap(),
            Period::Week
        );
    }

    fn query(from: Date, to: Date, by: Period) -> ReportQuery {
        ReportQuery {
            from: Day(from),
            to: Day(to),
            by,
            hospital_id: None,
            booking_type: None,
        }
    }

    #[test]
    fn a_query_is_at_most_a_year_and_never_backwards() {
        let today = date!(2026 - 06 - 30);
        let asked: ReportRequest = crate::test_input::query(
            "from=2026-01-01&to=2026-12-31&by=month&type=emergency&hospitalId=4",
        )
        .unwrap();
        let q = asked.query(today).unwrap();
        assert_eq!(q.days(), 365);
        assert_eq!(
            (q.by, q.booking_type, q.hospital_id),
            (Period::Month, Some(BookingType::Emergency), Some(id(4)))
        );
        let leap = query(date!(2028 - 01 - 01), date!(2028 - 12 - 31), Period::Day);
        assert_eq!(leap.checked().unwrap().days(), 366);
        let field = |q: ReportQuery| match q.checked() {
            Err(Refusal::Invalid { field, .. }) => field,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            field(query(
                date!(2026 - 01 - 01),
                date!(2027 - 01 - 02),
                Period::Day
            )),
            "to"
        );
        assert_eq!(
            field(query(
                date!(2026 - 01 - 02),
                date!(2026 - 01 - 01),
                Period::Day
            )),
            "to"
        );
        // Without dates: the 12 weeks up to the service's today; a `from` after it is
        // refused naming `to`.
        let plain: ReportRequest = crate::test_input::query("").unwrap();
        let q = plain.clone().query(today).unwrap();
        assert_eq!(
            (q.from, q.to, q.days()),
            (Day(date!(2026 - 04 - 08)), Day(today), 84)
        );
        assert_eq!(
            (q.by, q.hospital_id, q.booking_type),
            (Period::Week, None, None)
        );
        let later: ReportRequest = crate::test_input::query("from=2026-07-01").unwrap();
        assert!(matches!(later.query(today), Err(Refusal::Invalid { field, .. }) if field == "to"));
        let ending: ReportRequest = crate::test_input::query("to=2026-01-02").unwrap();
        assert_eq!(
            ending.query(today).unwrap().from,
            Day(date!(2025 - 10 - 11))
        );
        for (text, bad) in [
            ("from=2026-1-1&to=2026-01-02", "from"),
            ("from=2026-01-01&to=tomorrow", "to"),
            ("from=2026-01-01&to=2026-01-02&by=year", "by"),
            ("from=2026-01-01&to=2026-01-02&type=urgent", "type"),
            ("from=2026-01-01&to=2026-01-02&hospitalId=0", "hospitalId"),
            ("from=2026-01-01&to=2026-01-02&colour=red", "colour"),
        ] {
            match crate::test_input::query::<ReportRequest>(text) {
                Err(Refusal::Invalid { field, .. }) => {
                    assert_eq!(field, bad, "{text}")
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_hospital_sees_only_itself() {
        assert_eq!(Scope::Everything.allows(None).ok(), Some(None));
        assert_eq!(
            Scope::Everything.allows(Some(id(2))).ok(),
            Some(Some(id(2)))
        );
        assert_eq!(Scope::Hospital(id(2)).allows(None).ok(), Some(Some(id(2))));
        assert_eq!(
            Scope::Hospital(id(2)).allows(Some(id(2))).ok(),
            Some(Some(id(2)))
        );
        assert!(matches!(
            Scope::Hospital(id(2)).allows(Some(id(3))),
            Err(Refusal::NotAllowed(_))
        ));
    }

    fn record(answer: Option<u32>, travel: Option<u32>, ended: u32) -> TripRecord {
        TripRecord {
            dispatch: Some(0),
            answer,
            travel,
            ended,
            ..TripRecord::default()
        }
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let stat = |v: &[u32]| Stat::of(v.to_vec()).unwrap();
        assert_eq!(
            stat(&[7]),
            Stat {
                count: 1,
                p50: 7,
                p90: 7,
                max: 7
            }
        );
        // n = 4: p50 at rank 2, p90 at rank ⌈3.6⌉ = 4.
        assert_eq!(
            stat(&[40, 10, 30, 20]),
            Stat {
                count: 4,
                p50: 20,
                p90: 40,
                max: 40
            }
        );
        // n = 10: p50 at rank 5, p90 at rank 9.
        let ten: Vec<u32> = (1..=10).rev().collect();
        assert_eq!(
            stat(&ten),
            Stat {
                count: 10,
                p50: 5,
                p90: 9,
                max: 10
            }
        );
        assert_eq!(Stat::of(vec![]), None);
    }

    #[test]
    fn shares_judge_a_trip_that_never_got_there_only_once_it_waited_past_the_target() {
        let targets = Targets {
            answer_seconds: 60,
            pickup_minutes: 10,
        };
        let records = [
            record(Some(30), Some(300), 900), // answered in, picked up at 330 s: in, in
            record(Some(90), Some(600), 900), // out, 690 s: out
            record(None, None, 45),           // cancelled unanswered at 45 s: no verdict
            record(None, None, 700),          // waited 700 s: out, out
            record(Some(20), None, 200),      // answered in; cancelled at 200 s: no pickup verdict
        ];
        let s = WithinTarget::of(&records, targets);
        assert_eq!(s.answer, Some(2.0 / 4.0));
        assert_eq!(s.pickup, Some(1.0 / 3.0));
        assert_eq!(
            WithinTarget::of(&records[2..3], targets),
            WithinTarget {
                answer: None,
                pickup: None
            }
        );
    }

    #[test]
    fn the_report_has_every_period_of_the_range_and_the_csv_the_same_numbers() {
        let zone = ServiceZone::default();
        let targets = Targets {
            answer_seconds: 60,
            pickup_minutes: 10,
        };
        let mut days = BTreeMap::new();
        days.insert(
            date!(2026 - 03 - 02),
            vec![record(Some(30), Some(300), 900)],
        );
        days.insert(
            date!(2026 - 03 - 09),
            vec![
                record(Some(90), Some(600), 900),
                TripRecord {
                    moved: true,
                    cancelled: true,
                    ..record(None, None, 700)
                },
            ],
        );
        days.insert(date!(2026 - 04 - 01), vec![record(Some(1), Some(1), 2)]); // outside the range
        let q = ReportQuery {
            hospital_id: Some(id(3)),
            booking_type: Some(BookingType::Emergency),
            ..query(date!(2026 - 03 - 01), date!(2026 - 03 - 10), Period::Week)
        };
        let r = report(&q, Some(id(3)), &days, targets, &zone);
        let periods: Vec<(&str, String, String, u32)> = r
            .rows
            .iter()
            .map(|row| {
                (
                    row.period.as_str(),
                    day_text(row.from.0),
                    day_text(row.to.0),
                    row.count,
                )
            })
            .collect();
        assert_eq!(
            periods,
            [
                ("2026-W09", "2026-03-01".into(), "2026-03-01".into(), 0),
                ("2026-W10", "2026-03-02".into(), "2026-03-08".into(), 1),
                ("2026-W11", "2026-03-09".into(), "2026-03-10".into(), 2),
            ]
        );
        let w11 = &r.rows[2];
        assert_eq!(
            w11.intervals.answer,
            Some(Stat {
                count: 1,
                p50: 90,
                p90: 90,
                max: 90
            })
        );
        assert_eq!(
            w11.intervals.response,
            Some(Stat {
                count: 1,
                p50: 690,
                p90: 690,
                max: 690
            })
        );
        assert_eq!(w11.intervals.dispatch.unwrap().count, 2);
        assert_eq!((w11.moved, w11.unanswered, w11.cancelled), (1, 1, 1));
        assert_eq!(
            (w11.within_target.answer, w11.within_target.pickup),
            (Some(0.0), Some(0.0))
        );
        assert_eq!(r.rows[0].intervals.answer, None);
        assert_eq!(r.histograms.answer.iter().map(|b| b.count).sum::<u32>(), 2);
        assert_eq!(
            r.histograms.answer[1],
            Bin {
                from: 15,
                to: Some(30),
                count: 0
            }
        );
        assert_eq!(
            r.histograms.answer[2],
            Bin {
                from: 30,
                to: Some(45),
                count: 1
            }
        );
        assert_eq!(
            r.histograms.response[1],
            Bin {
                from: 300,
                to: Some(600),
                count: 1
            }
        );
        assert_eq!(r.histograms.response.last().unwrap().to, None);
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(
            json["rows"][1]["intervals"]["onScene"],
            serde_json::Value::Null
        );
        assert_eq!(json["rows"][1]["withinTarget"]["answer"], 1.0);
        assert_eq!(json["rows"][1]["hospitalId"], 3);
        assert_eq!(json["timeZone"], "Asia/Kolkata");
        assert_eq!(json["type"], "EMERGENCY");
        let text = csv(&r);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5);
        assert!(
            lines[4].starts_with("2026-03-01/2026-03-10,2026-03-01,2026-03-10,3,EMERGENCY,3,"),
            "{}",
            lines[4]
        );
        assert_eq!(r.total.count, 3);
        assert_eq!(
            r.total.intervals.answer,
            Some(Stat {
                count: 2,
                p50: 30,
                p90: 90,
                max: 90
            })
        );
        assert!(
            lines[0]
                .starts_with("period,from,to,hospitalId,type,count,dispatch.count,dispatch.p50")
        );
        assert_eq!(
            lines[3],
            "2026-W11,2026-03-09,2026-03-10,3,EMERGENCY,2,2,0,0,0,1,90,90,90,1,600,600,600,0,,,,0,,,,0,,,,1,690,690,690,0.0000,0.0000,1,1,1"
        );
    }
}
