//! Where an ambulance is: the position its crew's phone reports, how it is shown
//! (stale after 2 minutes; the hospital standing in for an ambulance that never
//! reported), and the rules a report must meet (DESIGN.md section 8).

use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime, format_description::well_known::Rfc3339};

use super::ambulance::Ambulance;
use crate::{
    error::ApiError,
    types::{Latitude, Longitude, format_rfc3339},
};

/// A position older than this is shown as stale, never as live.
pub const STALE_AFTER: Duration = Duration::minutes(2);
/// A report may lie this far in the future (phone clocks drift); beyond it is a 400.
pub const MAX_FUTURE: Duration = Duration::seconds(30);
/// Reports closer than this to the stored one are ignored (204): at most one write
/// per 4 s per ambulance, whatever a client sends (the write bound of ADR 0007).
pub const MIN_INTERVAL: Duration = Duration::seconds(4);
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
    pub at: Option<String>,
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
    pub recorded_at: String,
}

impl Fix {
    /// Whether it is fresh at `now` (reported less than 2 minutes before).
    pub fn is_fresh(&self, now: OffsetDateTime) -> bool {
        OffsetDateTime::parse(&self.recorded_at, &Rfc3339).is_ok_and(|at| now - at <= STALE_AFTER)
    }
}

impl Position {
    /// The position to show: the last report if any, else the hospital's point.
    pub fn shown(last: Option<&Fix>, hospital: (f64, f64), now: OffsetDateTime) -> Position {
        match last {
            Some(fix) => Position {
                latitude: fix.latitude,
                longitude: fix.longitude,
                at: Some(fix.recorded_at.clone()),
                stale: !fix.is_fresh(now),
                source: PositionSource::Gps,
            },
            None => Position {
                latitude: hospital.0,
                longitude: hospital.1,
                at: None,
                stale: true,
                source: PositionSource::Hospital,
            },
        }
    }

    /// The live position, if fresh: what an ETA may start from.
    pub fn fresh(&self) -> Option<(f64, f64)> {
        (self.source == PositionSource::Gps && !self.stale)
            .then_some((self.latitude, self.longitude))
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

/// A report that meets the rules, its time in the stored form.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedReport {
    pub fix: Fix,
    pub accuracy_m: Option<f64>,
    pub recorded: OffsetDateTime,
}

impl PositionReport {
    /// 400 naming the field for a time that is not RFC 3339 or lies more than 30 s
    /// in the future, or an accuracy that is not a number from 0 to 100 km.
    pub fn check(self, now: OffsetDateTime) -> Result<CheckedReport, ApiError> {
        let recorded = OffsetDateTime::parse(self.recorded_at.trim(), &Rfc3339).map_err(|_| {
            ApiError::bad_request(
                "recordedAt",
                format!(
                    "Invalid 'recordedAt': '{}' is not an RFC 3339 time such as 2026-01-02T03:04:05.006Z",
                    self.recorded_at
                ),
            )
        })?;
        if recorded - now > MAX_FUTURE {
            return Err(ApiError::bad_request(
                "recordedAt",
                "Invalid 'recordedAt': it lies more than 30 seconds in the future; check the phone's clock",
            ));
        }
        if let Some(a) = self.accuracy_m
            && !(a.is_finite() && (0.0..=MAX_ACCURACY_M).contains(&a))
        {
            return Err(ApiError::bad_request(
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
                recorded_at: format_rfc3339(recorded),
            },
            accuracy_m: self.accuracy_m,
            recorded,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::parse_json;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-03-04 05:06:07 UTC);

    fn report(json: serde_json::Value) -> Result<CheckedReport, ApiError> {
        parse_json::<PositionReport>(json.to_string().as_bytes())?.check(NOW)
    }

    fn field(r: Result<CheckedReport, ApiError>) -> String {
        match r {
            Err(ApiError::BadRequest { field, .. }) => field.unwrap_or_default(),
            other => panic!("expected a 400, got {other:?}"),
        }
    }

    #[test]
    fn a_report_is_stored_in_utc_with_milliseconds() {
        let r = report(serde_json::json!({"latitude": 30.2, "longitude": 74.9,
            "accuracyM": 12.5, "recordedAt": "2026-03-04T10:36:07+05:30"}))
        .unwrap();
        assert_eq!(r.fix.recorded_at, "2026-03-04T05:06:07.000Z");
        assert_eq!(r.accuracy_m, Some(12.5));
        // 30 s ahead is a drifting clock; 31 s is refused.
        assert!(report(serde_json::json!({"latitude": 0, "longitude": 0, "recordedAt": "2026-03-04T05:06:37Z"})).is_ok());
        let future = report(
            serde_json::json!({"latitude": 0, "longitude": 0, "recordedAt": "2026-03-04T05:06:38Z"}),
        );
        assert_eq!(field(future), "recordedAt");
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
            recorded_at: at.into(),
        };
        let live = Position::shown(Some(&fix("2026-03-04T05:04:07.000Z")), (9.0, 9.0), NOW);
        assert!(!live.stale && live.source == PositionSource::Gps);
        assert_eq!(live.fresh(), Some((1.0, 2.0)));
        let old = Position::shown(Some(&fix("2026-03-04T05:04:06.999Z")), (9.0, 9.0), NOW);
        assert!(old.stale);
        assert_eq!(old.fresh(), None);
        let never = Position::shown(None, (9.0, 8.0), NOW);
        assert_eq!(
            serde_json::to_value(&never).unwrap(),
            serde_json::json!({"latitude": 9.0, "longitude": 8.0, "at": null, "stale": true, "source": "HOSPITAL"})
        );
        assert_eq!(never.fresh(), None);
    }
}
