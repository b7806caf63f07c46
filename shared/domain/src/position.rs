//! Where an ambulance is: the position its crew's phone reports, how it is shown
//! (stale after 2 minutes; the hospital standing in for an ambulance that never
//! reported), and the rules a report must meet (docs/decisions/0007-dispatch-data.md).

use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};

use super::ambulance::Ambulance;
use crate::{
    geo::Point,
    refusal::{Conflict, Refusal},
    types::{Latitude, Longitude, Timestamp},
};

/// A position older than this is shown as stale, never as live.
pub const STALE_AFTER: Duration = Duration::minutes(2);
/// A report may lie this far in the future (phone clocks drift); beyond it is a 400.
/// One ahead of the server's clock is stored at the server's time.
pub const MAX_FUTURE: Duration = Duration::seconds(30);
/// A report taken longer ago than this is a 400: a phone that queued its reports
/// offline may send them late, but not a day late (and never from before the service
/// existed, nor from a clock set to year 0).
pub const MAX_AGE: Duration = Duration::days(1);
/// Reports less than this after the last write, by the server's clock, are ignored
/// (204): at most one write per 4 s per ambulance, whatever times a client sends (the
/// write bound of ADR 0007).
pub const MIN_INTERVAL: Duration = Duration::seconds(4);
/// The fastest an ambulance moves between two reports. A report implying more is
/// not taken: the ambulance is flagged for the dispatcher instead of moved.
pub const MAX_SPEED_KMH: f64 = 250.0;
/// What GPS noise may add to a distance on top of both reports' accuracy radii.
pub const JITTER_KM: f64 = 0.2;
/// The most the reports' accuracy radii together widen the speed rule (decision
/// 0020): a phone that claims to be 100 km unsure must not switch the rule off.
pub const MAX_ACCURACY_SLACK_KM: f64 = 1.0;
/// Doubted reports that agree with each other are a new track once there are this
/// many of them over at least [`NEW_TRACK_AFTER`] (by the server's clock): the last
/// accepted position was the wrong one (a bad first fix, a phone moved to another
/// ambulance), or the doubted place is real.
pub const NEW_TRACK_REPORTS: u32 = 3;
pub const NEW_TRACK_AFTER: Duration = Duration::seconds(20);
/// A first position (or the first after this long without a report) farther than
/// [`FAR_FROM_HOSPITAL_KM`] from the ambulance's hospital is doubted: a fake or a
/// wrong fix there would win every emergency near it.
pub const SILENCE: Duration = Duration::minutes(30);
pub const FAR_FROM_HOSPITAL_KM: f64 = 50.0;
/// A fix less precise than this (metres) is doubted: it cannot place an ambulance
/// in a city.
pub const DOUBTED_ACCURACY_M: f64 = 1_000.0;
/// The free-ambulance geo entry follows the position at most this often.
pub const FREE_ENTRY_INTERVAL: Duration = Duration::seconds(30);
/// Largest accuracy radius taken (metres): beyond it a phone does not know where it is.
pub const MAX_ACCURACY_M: f64 = 100_000.0;

/// Where a position comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum PositionSource {
    /// Reported by the crew's phone.
    Gps,
    /// Never reported: the ambulance's hospital stands in.
    Hospital,
}

/// `{latitude, longitude, at, stale, source}` as the API shows an ambulance's
/// position. `at` is when the phone took it (null for the hospital stand-in, which
/// is always `stale`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Position {
    pub latitude: f64,
    pub longitude: f64,
    pub at: Option<Timestamp>,
    pub stale: bool,
    pub source: PositionSource,
}

/// An ambulance with where it is (`GET /api/crew/me`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PositionedAmbulance {
    #[serde(flatten)]
    pub ambulance: Ambulance,
    pub position: Option<Position>,
}

/// A stored report: where and when (RFC 3339 UTC, milliseconds).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Fix {
    pub latitude: f64,
    pub longitude: f64,
    pub recorded_at: Timestamp,
}

impl Fix {
    /// Whether it is fresh at `now` (reported less than 2 minutes before).
    pub fn is_fresh(&self, now: OffsetDateTime) -> bool {
        now - self.recorded_at.get() <= STALE_AFTER
    }

    pub fn point(&self) -> Point {
        Point::new(self.latitude, self.longitude)
    }
}

impl Position {
    /// The position to show: the last report if any, else the hospital's point.
    pub fn shown(last: Option<&Fix>, hospital: Point, now: OffsetDateTime) -> Position {
        match last {
            Some(fix) => Position {
                latitude: fix.latitude,
                longitude: fix.longitude,
                at: Some(fix.recorded_at),
                stale: !fix.is_fresh(now),
                source: PositionSource::Gps,
            },
            None => Position {
                latitude: hospital.lat,
                longitude: hospital.lng,
                at: None,
                stale: true,
                source: PositionSource::Hospital,
            },
        }
    }

    /// The live position, if fresh: what an ETA may start from.
    pub fn fresh(&self) -> Option<Point> {
        (self.source == PositionSource::Gps && !self.stale)
            .then_some(Point::new(self.latitude, self.longitude))
    }
}

/// The body of `PUT /api/crew/location`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PositionReport {
    pub latitude: Latitude,
    pub longitude: Longitude,
    pub accuracy_m: Option<f64>,
    /// When the phone took the position (RFC 3339, any offset).
    pub recorded_at: String,
}

/// A report that meets the rules: where, how precisely, and when (never after the
/// server's `now`).
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedReport {
    pub fix: Fix,
    pub accuracy_m: Option<f64>,
}

impl PositionReport {
    /// 400 naming the field for a time that is not RFC 3339, lies more than 30 s in
    /// the future or more than a day in the past, or an accuracy that is not a number
    /// from 0 to 100 km. A time ahead of `now` (within the 30 s) becomes `now`: a
    /// phone's fast clock must not push the stored time ahead of the real one.
    pub fn check(self, now: OffsetDateTime) -> Result<CheckedReport, Refusal> {
        let bad_time =
            |why: String| Refusal::invalid("recordedAt", format!("Invalid 'recordedAt': {why}"));
        let recorded = Timestamp::parse(&self.recorded_at).ok_or_else(|| {
            bad_time(format!(
                "'{}' is not an RFC 3339 time such as 2026-01-02T03:04:05.006Z",
                self.recorded_at
            ))
        })?;
        if recorded.get() - now > MAX_FUTURE {
            return Err(bad_time(
                "it lies more than 30 seconds in the future; check the phone's clock".into(),
            ));
        }
        if now - recorded.get() > MAX_AGE {
            return Err(bad_time(
                "it lies more than a day in the past; check the phone's clock".into(),
            ));
        }
        let recorded = recorded.min(
            Timestamp::new(now)
                .ok_or_else(|| Refusal::Broken("the clock is out of range".into()))?,
        );
        if let Some(a) = self.accuracy_m
            && !(a.is_finite() && (0.0..=MAX_ACCURACY_M).contains(&a))
        {
            return Err(Refusal::invalid(
                "accuracyM",
                format!(
                    "Invalid 'accuracyM': must be a number of metres from 0 to {MAX_ACCURACY_M}"
                ),
            ));
        }
        Ok(CheckedReport {
            fix: Fix {
                latitude: self.latitude.get(),
                longitude: self.longitude.get(),
                recorded_at: recorded,
            },
            accuracy_m: self.accuracy_m,
        })
    }
}

/// A report as kept: the fix and its accuracy radius (metres), if the phone gave one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Sighting {
    #[serde(flatten)]
    pub fix: Fix,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accuracy_m: Option<f64>,
}

impl From<CheckedReport> for Sighting {
    fn from(r: CheckedReport) -> Sighting {
        Sighting {
            fix: r.fix,
            accuracy_m: r.accuracy_m,
        }
    }
}

impl Sighting {
    /// The speed (km/h) it takes to get from `self` to `later`, once GPS noise (both
    /// accuracy radii, together at most [`MAX_ACCURACY_SLACK_KM`], and
    /// [`JITTER_KM`]) is allowed for; infinite for a move in no time.
    pub fn speed_to(&self, later: &Sighting) -> f64 {
        let (a, b) = (self.fix.point(), later.fix.point());
        let radii = (self.accuracy_m.unwrap_or(0.0) + later.accuracy_m.unwrap_or(0.0)) / 1000.0;
        let slack = JITTER_KM + radii.min(MAX_ACCURACY_SLACK_KM);
        let km = (a.km_to(b) - slack).max(0.0);
        let hours =
            (later.fix.recorded_at.get() - self.fix.recorded_at.get()).as_seconds_f64() / 3600.0;
        if km == 0.0 {
            0.0
        } else if hours <= 0.0 {
            f64::INFINITY
        } else {
            km / hours
        }
    }
}

/// Why a report is doubted rather than taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum DoubtReason {
    /// It implies more than [`MAX_SPEED_KMH`] from the last accepted position.
    #[default]
    Speed,
    /// A first position (or the first after [`SILENCE`]) over
    /// [`FAR_FROM_HOSPITAL_KM`] from the ambulance's hospital.
    FarFromHospital,
    /// Its accuracy radius is over [`DOUBTED_ACCURACY_M`].
    Imprecise,
}

/// Reports not taken because they are doubted: the latest of them, since when (by
/// the server's clock) and how many of them agree with each other, why the latest
/// was doubted, and the speed it implied from the last accepted position (0 with
/// none). Kept, shown on the dispatcher's map, never used to rank, until
/// [`NEW_TRACK_REPORTS`] agreeing reports over [`NEW_TRACK_AFTER`] make it the
/// position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Doubt {
    #[serde(flatten)]
    pub latest: Sighting,
    pub since: Timestamp,
    pub speed_kmh: f64,
    /// Absent on doubts kept before there were other reasons: the speed.
    #[serde(default)]
    pub reason: DoubtReason,
    /// Absent on doubts kept before they were counted: one.
    #[serde(default = "one")]
    pub reports: u32,
}

fn one() -> u32 {
    1
}

/// What is kept of an ambulance's reports: the last accepted one, a doubt (if any),
/// and when the server last wrote either.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Track {
    pub last: Option<Sighting>,
    pub doubt: Option<Doubt>,
    pub written_at: Option<Timestamp>,
}

/// What becomes of a report.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The new position (any doubt ends).
    Take,
    /// Not older than the last one, but less than 4 s after the last write (by the
    /// server's clock), or not newer than the last accepted report: nothing written.
    Ignore,
    /// Doubted: kept as the doubt, the position stays (none, for a first fix).
    Refuse(Doubt),
}

impl Track {
    /// The rules of a report received at `now` (the server's clock) for an
    /// ambulance of the hospital at `hospital`, in order: the write bound, the time
    /// order, then what makes a report doubtful (an accuracy over 1 km; a first fix,
    /// or the first after 30 minutes of silence, over 50 km from the hospital; an
    /// impossible speed from the last accepted position). A doubted report that
    /// agrees with the doubt kept becomes the position once [`NEW_TRACK_REPORTS`]
    /// of them span [`NEW_TRACK_AFTER`].
    pub fn judge(&self, report: &Sighting, now: Timestamp, hospital: Point) -> Verdict {
        if self
            .written_at
            .is_some_and(|w| now.get() - w.get() < MIN_INTERVAL)
        {
            return Verdict::Ignore;
        }
        if let Some(last) = &self.last
            && report.fix.recorded_at <= last.fix.recorded_at
        {
            return Verdict::Ignore;
        }
        let silent = self
            .written_at
            .is_none_or(|w| now.get() - w.get() >= SILENCE);
        let speed_kmh = self.last.as_ref().map_or(0.0, |last| last.speed_to(report));
        let reason = if report.accuracy_m.is_some_and(|a| a > DOUBTED_ACCURACY_M) {
            DoubtReason::Imprecise
        } else if (self.last.is_none() || silent)
            && report.fix.point().km_to(hospital) > FAR_FROM_HOSPITAL_KM
        {
            DoubtReason::FarFromHospital
        } else if speed_kmh > MAX_SPEED_KMH {
            DoubtReason::Speed
        } else {
            return Verdict::Take;
        };
        // Agrees with the reports doubted before it (a phone that has not moved
        // sends the same fix again): the same doubtful track, timed by the server's
        // clock, since a still phone's fixes keep their time.
        let (since, reports) = match &self.doubt {
            Some(d)
                if d.latest.fix.recorded_at <= report.fix.recorded_at
                    && d.latest.speed_to(report) <= MAX_SPEED_KMH =>
            {
                let reports = d.reports.saturating_add(1);
                if reports >= NEW_TRACK_REPORTS && now.get() - d.since.get() >= NEW_TRACK_AFTER {
                    return Verdict::Take;
                }
                (d.since, reports)
            }
            _ => (now, 1),
        };
        Verdict::Refuse(Doubt {
            latest: report.clone(),
            since,
            speed_kmh: speed_kmh.min(1e6).round(),
            reason,
            reports,
        })
    }
}

/// The 409 of a doubted report: the crew's app shows it, the dispatcher sees the doubt.
pub fn refused(doubt: &Doubt) -> Refusal {
    match doubt.reason {
        DoubtReason::Speed => Conflict::ImplausiblePosition {
            speed_kmh: doubt.speed_kmh,
            max_kmh: MAX_SPEED_KMH,
        },
        DoubtReason::FarFromHospital => Conflict::PositionFarFromHospital {
            km: FAR_FROM_HOSPITAL_KM,
        },
        DoubtReason::Imprecise => Conflict::ImprecisePosition {
            max_m: DOUBTED_ACCURACY_M,
        },
    }
    .into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refusal::Refusal;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-03-04 05:06:07 UTC);

    fn report(json: serde_json::Value) -> Result<CheckedReport, Refusal> {
        crate::test_input::json::<PositionReport>(json.to_string().as_bytes())?.check(NOW)
    }

    fn field(r: Result<CheckedReport, Refusal>) -> String {
        match r {
            Err(Refusal::Invalid { field, .. }) => field,
            other => panic!("expected a 400, got {other:?}"),
        }
    }

    #[test]
    fn a_report_is_stored_in_utc_with_milliseconds() {
        let r = report(serde_json::json!({"latitude": 30.2, "longitude": 74.9,
            "accuracyM": 12.5, "recordedAt": "2026-03-04T10:36:06+05:30"}))
        .unwrap();
        assert_eq!(r.fix.recorded_at.to_string(), "2026-03-04T05:06:06.000Z");
        assert_eq!(r.accuracy_m, Some(12.5));
        // 30 s ahead is a drifting clock, stored at the server's time; 31 s is refused.
        let ahead = report(
            serde_json::json!({"latitude": 0, "longitude": 0, "recordedAt": "2026-03-04T05:06:37Z"}),
        );
        assert_eq!(ahead.unwrap().fix.recorded_at.get(), NOW);
        let future = report(
            serde_json::json!({"latitude": 0, "longitude": 0, "recordedAt": "2026-03-04T05:06:38Z"}),
        );
        assert_eq!(field(future), "recordedAt");
        // A day late is a queue sent late; a second more is a wrong clock.
        assert!(report(serde_json::json!({"latitude": 0, "longitude": 0, "recordedAt": "2026-03-03T05:06:07Z"})).is_ok());
        for wrong_clock in [
            "2026-03-03T05:06:06.999Z",
            "2020-01-01T00:00:00Z",
            // Year -1 in UTC: once stored, every emergency nearby was a 500 (docs/reliability.md).
            "0000-01-01T00:00:00+00:01",
            "0000-01-01T00:00:00Z",
            "9999-12-31T23:59:59-23:59",
        ] {
            let r = report(
                serde_json::json!({"latitude": 0, "longitude": 0, "recordedAt": wrong_clock}),
            );
            assert_eq!(field(r), "recordedAt", "{wrong_clock}");
        }
    }

    fn sighting(at: Point, secs: i64, accuracy_m: Option<f64>) -> Sighting {
        Sighting {
            fix: Fix {
                latitude: at.lat,
                longitude: at.lng,
                recorded_at: Timestamp::new(NOW + Duration::seconds(secs)).unwrap(),
            },
            accuracy_m,
        }
    }

    #[test]
    fn speeds_allow_for_gps_noise() {
        let a = sighting(Point::new(30.0, 75.0), 0, None);
        // About 1.11 km in 60 s: 55 km/h after the 200 m of noise.
        let speed = a.speed_to(&sighting(Point::new(30.01, 75.0), 60, None));
        assert!((50.0..60.0).contains(&speed), "{speed}");
        // Within both accuracy radii: no movement at all.
        assert_eq!(
            sighting(Point::new(30.0, 75.0), 0, Some(600.0)).speed_to(&sighting(
                Point::new(30.01, 75.0),
                1,
                Some(500.0)
            )),
            0.0
        );
        // A jump in no time is infinitely fast.
        assert_eq!(
            a.speed_to(&sighting(Point::new(31.0, 75.0), 0, None)),
            f64::INFINITY
        );
    }

    #[test]
    fn every_verdict_of_a_report() {
        let at = |secs: i64| Timestamp::new(NOW + Duration::seconds(secs)).unwrap();
        let track = |last: Option<Sighting>, doubt: Option<Doubt>, written: i64| Track {
            last,
            doubt,
            written_at: Some(at(written)),
        };
        // The ambulance's hospital is where it last was.
        let hospital = Point::new(30.0, 75.0);
        let home = sighting(Point::new(30.0, 75.0), 0, Some(10.0));
        // 111 km away one minute later: 6 660 km/h.
        let far = sighting(Point::new(31.0, 75.0), 60, Some(10.0));
        // Doubts of `reports` agreeing reports begun `secs` before now (the server's
        // clock).
        let far_doubt = |secs: i64, reports: u32| Doubt {
            latest: far.clone(),
            since: at(600 - secs),
            speed_kmh: 6000.0,
            reason: DoubtReason::Speed,
            reports,
        };
        let doubt = |latest: Sighting, since: i64, speed_kmh: f64, reason, reports| {
            Verdict::Refuse(Doubt {
                latest,
                since: at(since),
                speed_kmh,
                reason,
                reports,
            })
        };
        use DoubtReason::*;
        let cases: Vec<(&str, Track, Sighting, Verdict)> = vec![
            (
                "never reported, near the hospital",
                Track::default(),
                sighting(Point::new(30.1, 75.0), 60, Some(10.0)),
                Verdict::Take,
            ),
            (
                "never reported, 111 km from the hospital: doubted",
                Track::default(),
                far.clone(),
                doubt(far.clone(), 600, 0.0, FarFromHospital, 1),
            ),
            (
                "a plausible move",
                track(Some(home.clone()), None, 0),
                sighting(Point::new(30.01, 75.0), 60, None),
                Verdict::Take,
            ),
            (
                "4 s after the last write, by the server's clock",
                track(Some(home.clone()), None, 597),
                sighting(Point::new(30.0, 75.0), 60, None),
                Verdict::Ignore,
            ),
            (
                "older than the last accepted",
                track(Some(sighting(Point::new(30.0, 75.0), 90, None)), None, 0),
                sighting(Point::new(30.0, 75.0), 60, None),
                Verdict::Ignore,
            ),
            (
                "as old as the last accepted",
                track(Some(home.clone()), None, 0),
                sighting(Point::new(30.0, 75.0), 0, None),
                Verdict::Ignore,
            ),
            (
                "an impossible jump starts a doubt",
                track(Some(home.clone()), None, 0),
                far.clone(),
                doubt(far.clone(), 600, 6659.0, Speed, 1),
            ),
            (
                "a doubt that agrees for less than 20 s stays a doubt, since its start",
                track(Some(home.clone()), Some(far_doubt(19, 2)), 0),
                sighting(Point::new(31.0, 75.0), 79, None),
                doubt(
                    sighting(Point::new(31.0, 75.0), 79, None),
                    581,
                    5058.0,
                    Speed,
                    3,
                ),
            ),
            (
                "20 s but the second report only: still a doubt",
                track(Some(home.clone()), Some(far_doubt(20, 1)), 0),
                sighting(Point::new(31.0, 75.0), 80, None),
                doubt(
                    sighting(Point::new(31.0, 75.0), 80, None),
                    580,
                    4994.0,
                    Speed,
                    2,
                ),
            ),
            (
                "a third agreeing report 20 s on is a new track",
                track(Some(home.clone()), Some(far_doubt(20, 2)), 0),
                sighting(Point::new(31.0, 75.0), 80, None),
                Verdict::Take,
            ),
            (
                "the same fix sent again for 20 s (a phone that has not moved) too",
                track(Some(home.clone()), Some(far_doubt(20, 2)), 0),
                far.clone(),
                Verdict::Take,
            ),
            (
                "a jump elsewhere starts a new doubt",
                track(Some(home.clone()), Some(far_doubt(30, 2)), 0),
                sighting(Point::new(29.0, 75.0), 90, None),
                doubt(
                    sighting(Point::new(29.0, 75.0), 90, None),
                    600,
                    4439.0,
                    Speed,
                    1,
                ),
            ),
            (
                "back on the accepted track ends the doubt",
                track(Some(home.clone()), Some(far_doubt(60, 2)), 0),
                sighting(Point::new(30.001, 75.0), 90, None),
                Verdict::Take,
            ),
            (
                "accuracy worse than 1 km: doubted, even where it could be",
                track(Some(home.clone()), None, 0),
                sighting(Point::new(30.001, 75.0), 90, Some(1500.0)),
                doubt(
                    sighting(Point::new(30.001, 75.0), 90, Some(1500.0)),
                    600,
                    0.0,
                    Imprecise,
                    1,
                ),
            ),
            (
                "after 30 minutes of silence, over 50 km from the hospital: doubted",
                track(
                    Some(sighting(Point::new(31.0, 75.0), -1800, None)),
                    None,
                    -1200,
                ),
                sighting(Point::new(31.0, 75.0), 60, None),
                doubt(
                    sighting(Point::new(31.0, 75.0), 60, None),
                    600,
                    0.0,
                    FarFromHospital,
                    1,
                ),
            ),
            (
                "after 29 minutes, the same place is the same track",
                track(
                    Some(sighting(Point::new(31.0, 75.0), -1800, None)),
                    None,
                    -1140,
                ),
                sighting(Point::new(31.0, 75.0), 60, None),
                Verdict::Take,
            ),
        ];
        for (what, track, report, want) in cases {
            assert_eq!(track.judge(&report, at(600), hospital), want, "{what}");
        }
    }

    /// The attacks that were let through: a first report 2 954 km from the
    /// hospital taken at once, and `accuracyM: 100000` switching the speed rule off.
    #[test]
    fn a_far_first_report_and_a_claimed_huge_accuracy_are_doubted() {
        let at = |secs: i64| Timestamp::new(NOW + Duration::seconds(secs)).unwrap();
        // A hospital in Ludhiana; a first report from Chennai, some 2 000 km away.
        let hospital = Point::new(30.9, 75.85);
        let chennai = |secs: i64| sighting(Point::new(13.08, 80.27), secs, Some(10.0));
        let mut track = Track::default();
        let mut verdicts = vec![];
        for secs in [0, 5, 10, 15, 20, 25] {
            let v = track.judge(&chennai(secs), at(secs), hospital);
            if let Verdict::Refuse(d) = &v {
                assert_eq!(d.reason, DoubtReason::FarFromHospital);
                track.doubt = Some(d.clone());
                track.written_at = Some(at(secs));
            }
            verdicts.push(matches!(v, Verdict::Take));
        }
        // Doubted at 0, 5, 10 and 15 s (three reports by 10 s, but not over 20 s
        // yet), taken at 20 s.
        assert_eq!(verdicts, [false, false, false, false, true, true]);

        // 566 km in 13 s with both reports claiming 100 km of accuracy: refused (the
        // radii widen the rule by 1 km at most), never taken.
        let home = sighting(Point::new(30.9, 75.85), 0, Some(100_000.0));
        let track = Track {
            last: Some(sighting(Point::new(30.9, 75.85), 0, Some(10.0))),
            doubt: None,
            written_at: Some(at(0)),
        };
        let jump = sighting(Point::new(35.99, 75.85), 13, Some(100_000.0));
        assert!(home.speed_to(&jump) > MAX_SPEED_KMH);
        match track.judge(&jump, at(13), hospital) {
            Verdict::Refuse(d) => assert!(d.speed_kmh > 100_000.0, "{d:?}"),
            other => panic!("{other:?}"),
        }
        // The same with an honest accuracy: the speed rule alone refuses it.
        let honest = sighting(Point::new(35.99, 75.85), 13, Some(10.0));
        match track.judge(&honest, at(13), hospital) {
            Verdict::Refuse(d) => assert_eq!(d.reason, DoubtReason::Speed),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_bad_field_is_named() {
        for (json, want) in [
            (
                serde_json::json!({"latitude": 91, "longitude": 0, "recordedAt": "2026-03-04T05:06:07Z"}),
                "latitude",
            ),
            (
                serde_json::json!({"latitude": 0, "longitude": -180.5, "recordedAt": "2026-03-04T05:06:07Z"}),
                "longitude",
            ),
            (
                serde_json::json!({"latitude": 0, "longitude": 0, "recordedAt": "yesterday"}),
                "recordedAt",
            ),
            (
                serde_json::json!({"latitude": 0, "longitude": 0}),
                "recordedAt",
            ),
            (
                serde_json::json!({"latitude": 0, "longitude": 0, "recordedAt": "2026-03-04T05:06:07Z", "accuracyM": -1}),
                "accuracyM",
            ),
            (
                serde_json::json!({"latitude": 0, "longitude": 0, "recordedAt": "2026-03-04T05:06:07Z", "accuracyM": 1e9}),
                "accuracyM",
            ),
            (
                serde_json::json!({"latitude": 0, "longitude": 0, "recordedAt": "2026-03-04T05:06:07Z", "speed": 3}),
                "speed",
            ),
        ] {
            assert_eq!(field(report(json.clone())), want, "{json}");
        }
    }

    #[test]
    fn a_position_is_stale_after_two_minutes_and_the_hospital_stands_in() {
        let fix = |at: &str| Fix {
            latitude: 1.0,
            longitude: 2.0,
            recorded_at: Timestamp::parse(at).unwrap(),
        };
        let live = Position::shown(
            Some(&fix("2026-03-04T05:04:07.000Z")),
            Point::new(9.0, 9.0),
            NOW,
        );
        assert!(!live.stale && live.source == PositionSource::Gps);
        assert_eq!(live.fresh(), Some(Point::new(1.0, 2.0)));
        let old = Position::shown(
            Some(&fix("2026-03-04T05:04:06.999Z")),
            Point::new(9.0, 9.0),
            NOW,
        );
        assert!(old.stale);
        assert_eq!(old.fresh(), None);
        let never = Position::shown(None, Point::new(9.0, 8.0), NOW);
        assert_eq!(
            serde_json::to_value(&never).unwrap(),
            serde_json::json!({"latitude": 9.0, "longitude": 8.0, "at": null, "stale": true, "source": "HOSPITAL"})
        );
        assert_eq!(never.fresh(), None);
    }
}
