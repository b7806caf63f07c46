//! Web Push ("Alerts that reach a locked phone", decision 0014):
//! what a device gives us ([`PushSubscription`], parsed, so code that holds one never
//! checks again) and the one rule of who is told what when a booking or an alert
//! changes ([`who_is_told`]), a pure function of the item before and after the write
//! (the stream record's old and new images). `functions/notify` encrypts, signs and
//! sends what it answers.

use std::time::Duration;

use base64::Engine as _;
use serde::{Deserialize, Serialize};
use strum::{AsRefStr, Display};

use super::{
    alert::{Alert, AlertKind},
    booking::{Booking, BookingStatus, BookingType, TripStage},
};
use crate::{
    refusal::Refusal,
    types::{Id, Timestamp},
};

/// The longest endpoint we store (the contract's).
pub const MAX_ENDPOINT_CHARS: usize = 1000;
/// An uncompressed P-256 point: `0x04 || x || y`.
pub const P256_POINT_BYTES: usize = 65;
pub const AUTH_BYTES: usize = 16;

/// base64url as browsers write it (no padding), padding tolerated.
pub fn base64url_decode(text: &str) -> Option<Vec<u8>> {
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(text.trim_end_matches('='))
        .ok()
}

pub fn base64url_encode(bytes: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// The browser's `PushSubscription.toJSON()` as it arrives; [`RawSubscription::parse`]
/// turns it into a [`PushSubscription`] or a 400 naming the field.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RawSubscription {
    pub endpoint: String,
    /// Browsers send it (mostly null); we do not use it: a push service that
    /// expired the subscription answers 404/410 and we delete it then.
    #[serde(default)]
    pub expiration_time: Option<serde_json::Value>,
    pub keys: RawKeys,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawKeys {
    pub p256dh: String,
    pub auth: String,
}

/// The push services of the browsers (Chrome's FCM, Firefox's Mozilla service,
/// Safari's Apple service, Edge's WNS): the hosts an endpoint may name. `*.` stands
/// for one or more labels. A deployment adds more (`PushHosts` in template.yaml).
pub const PUSH_SERVICE_HOSTS: [&str; 4] = [
    "fcm.googleapis.com",
    "updates.push.services.mozilla.com",
    "*.push.apple.com",
    "*.notify.windows.com",
];

/// Where pushes may be sent: `https://` on port 443 to a push service's host (the
/// defaults and the deployment's own), never an address; in a local stack (and the
/// tests) also a push service on this machine, `http://127.0.0.1:<port>/…` or
/// `http://localhost:<port>/…`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoints {
    loopback: bool,
    hosts: Vec<String>,
}

impl Endpoints {
    /// A deployed stack's: the push services, and `extra` hosts (`*.` allowed).
    pub fn deployed(extra: &[String]) -> Endpoints {
        Endpoints {
            loopback: false,
            hosts: PUSH_SERVICE_HOSTS
                .iter()
                .map(|h| h.to_string())
                .chain(extra.iter().map(|h| h.trim().to_ascii_lowercase()))
                .filter(|h| !h.is_empty())
                .collect(),
        }
    }

    /// A local stack's: a deployed stack's and the loopback push service.
    pub fn local(extra: &[String]) -> Endpoints {
        Endpoints {
            loopback: true,
            ..Endpoints::deployed(extra)
        }
    }

    /// Whether plain http (to loopback) is allowed.
    pub fn loopback(&self) -> bool {
        self.loopback
    }

    fn allows_host(&self, host: &str) -> bool {
        self.hosts.iter().any(|h| match h.strip_prefix("*.") {
            Some(suffix) => host
                .strip_suffix(suffix)
                .and_then(|labels| labels.strip_suffix('.'))
                .is_some_and(|labels| !labels.is_empty()),
            None => host == h,
        })
    }
}

/// A subscription that can be pushed to: an endpoint of the allowed kind, the
/// device's P-256 key (65 bytes, a point on the curve) and its 16-byte secret, kept
/// in the base64url the browser gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PushSubscription {
    endpoint: String,
    p256dh: String,
    auth: String,
}

fn bad(field: &str, why: &str) -> Refusal {
    Refusal::invalid(field, format!("Invalid '{field}': {why}"))
}

/// The pieces of an https endpoint's pattern: a host name, port 443 or none, a path
/// and a query of URL characters; no user info or fragment.
macro_rules! endpoint_pattern {
    ($host:literal) => {
        concat!(
            "^https://",
            $host,
            "(:443)?(/[A-Za-z0-9._~:@!$&'()*+,;=%/-]*)?(\\?[A-Za-z0-9._~:@!$&'()*+,;=%/?-]*)?$"
        )
    };
}

/// What an endpoint must look like with the default push services: the contract's
/// `PushEndpoint` pattern, character for character (tests/api/openapi.rs checks,
/// and that the server takes exactly what it takes).
pub const ENDPOINT_PATTERN: &str = endpoint_pattern!(
    "(fcm\\.googleapis\\.com|updates\\.push\\.services\\.mozilla\\.com|([A-Za-z0-9-]+\\.)+push\\.apple\\.com|([A-Za-z0-9-]+\\.)+notify\\.windows\\.com)"
);

/// The same shape for any host name; the host is then checked against the list.
static SHAPE: std::sync::LazyLock<regex_lite::Regex> = std::sync::LazyLock::new(|| {
    regex_lite::Regex::new(endpoint_pattern!("[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*"))
        .expect("it compiles")
});

/// `endpoint` checked as [`Endpoints`] allows, or why not.
pub fn parse_endpoint(endpoint: &str, allowed: &Endpoints) -> Result<String, Refusal> {
    let why = |w: &str| bad("endpoint", w);
    if endpoint.chars().count() > MAX_ENDPOINT_CHARS {
        return Err(why("must be at most 1000 characters"));
    }
    let uri: http::Uri = endpoint
        .parse()
        .map_err(|_| why("must be a URL (the browser's PushSubscription.endpoint)"))?;
    let host = uri.host().unwrap_or_default();
    // An address would let anyone make notify call a machine of their choosing.
    if host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<std::net::IpAddr>()
        .is_ok()
        && !(allowed.loopback && uri.scheme_str() == Some("http"))
    {
        return Err(why("must name a push service's host, not an IP address"));
    }
    let ok = match uri.scheme_str() {
        Some("https") => {
            if !SHAPE.is_match(endpoint) {
                return Err(why(
                    "must be an https:// URL on port 443, without user info or fragment",
                ));
            }
            if !allowed.allows_host(host) {
                return Err(why(
                    "must be at a browser's push service (FCM, Mozilla, Apple, Windows)",
                ));
            }
            true
        }
        Some("http") => {
            allowed.loopback
                && matches!(host, "127.0.0.1" | "localhost")
                && uri.port_u16().is_some_and(|p| p > 0)
        }
        _ => false,
    };
    // Userinfo (`https://a@b/`) would make the origin we sign for ambiguous.
    let userinfo = uri.authority().is_some_and(|a| a.as_str().contains('@'));
    if !ok || userinfo {
        return Err(why(if allowed.loopback {
            "must be an https:// URL (or http://127.0.0.1:<port>/ or http://localhost:<port>/ locally)"
        } else {
            "must be an https:// URL"
        }));
    }
    Ok(endpoint.to_owned())
}

impl RawSubscription {
    pub fn parse(self, allowed: &Endpoints) -> Result<PushSubscription, Refusal> {
        let endpoint = parse_endpoint(&self.endpoint, allowed)?;
        let point = base64url_decode(&self.keys.p256dh)
            .ok_or_else(|| bad("keys.p256dh", "must be base64url"))?;
        if point.len() != P256_POINT_BYTES || point[0] != 0x04 {
            return Err(bad(
                "keys.p256dh",
                "must be a 65-byte uncompressed P-256 point",
            ));
        }
        if p256::PublicKey::from_sec1_bytes(&point).is_err() {
            return Err(bad("keys.p256dh", "is not a point on the P-256 curve"));
        }
        let auth = base64url_decode(&self.keys.auth)
            .ok_or_else(|| bad("keys.auth", "must be base64url"))?;
        if auth.len() != AUTH_BYTES {
            return Err(bad("keys.auth", "must be 16 bytes"));
        }
        Ok(PushSubscription {
            endpoint,
            p256dh: base64url_encode(&point),
            auth: base64url_encode(&auth),
        })
    }
}

impl PushSubscription {
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// The device's public key, a valid uncompressed P-256 point (checked at parse).
    pub fn p256dh(&self) -> Vec<u8> {
        base64url_decode(&self.p256dh).unwrap_or_default()
    }

    /// The device's 16-byte auth secret (checked at parse).
    pub fn auth(&self) -> Vec<u8> {
        base64url_decode(&self.auth).unwrap_or_default()
    }
}

/// Who a message is for. A crew is found by its ambulance, a requester by the
/// booking when the change does not carry the user (an alert names only its booking).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Recipient {
    CrewOf(Id),
    User(Id),
    RequesterOf(Id),
    Admins,
    /// The staff of a hospital: a trip's destination (decision 0026).
    StaffOf(Id),
}

/// The trip news the requester is told of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, AsRefStr, Display)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[strum(serialize_all = "SCREAMING_SNAKE_CASE")]
pub enum TripNews {
    /// Given to an ambulance: waiting for its crew to accept (`answerBy`).
    Dispatched,
    /// Moved to another ambulance: waiting for its crew to accept (`answerBy`).
    Reassigned,
    /// The crew accepted: on its way (decision 0020: only now).
    Accepted,
    AtPickup,
    /// Nobody took the job (an UNANSWERED alert on it).
    NoAmbulance,
}

/// What a device is sent, exactly the contract's fields: nothing else personal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "SCREAMING_SNAKE_CASE",
    rename_all_fields = "camelCase"
)]
pub enum Payload {
    Job {
        booking_id: Id,
        booking_type: BookingType,
        answer_by: Option<Timestamp>,
        /// From the ambulance to the pickup, filled in by the sender (it reads the
        /// ambulance's position); null when either place is unknown.
        distance_km: Option<f64>,
    },
    JobGone {
        booking_id: Id,
    },
    Trip {
        booking_id: Id,
        trip_stage: TripNews,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ambulance_number: Option<String>,
        /// While the crew has yet to accept: when they must have (the page counts
        /// down to it).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        answer_by: Option<Timestamp>,
    },
    Alert {
        alert_id: Id,
        alert_kind: AlertKind,
        booking_id: Option<Id>,
    },
    /// To the destination hospital's staff (docs/decisions/0026-receiving-hospital.md):
    /// an ambulance set off for it (TO_HOSPITAL) or arrived (AT_HOSPITAL).
    Incoming {
        booking_id: Id,
        booking_type: BookingType,
        trip_stage: TripStage,
        ambulance_number: String,
        /// TO_HOSPITAL only: from the ambulance's last position (else its own
        /// hospital) to the destination, filled in by the sender; null when unknown.
        eta_minutes: Option<u32>,
    },
}

/// RFC 8030 `Urgency`. Every message of the contract is `high`: each one is why the
/// phone should ring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, AsRefStr)]
#[strum(serialize_all = "lowercase")]
pub enum Urgency {
    High,
}

/// One message for one recipient (each of their devices gets it).
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub to: Recipient,
    pub payload: Payload,
    /// RFC 8030 `TTL`: no longer than the message stays true.
    pub ttl: Duration,
    pub urgency: Urgency,
}

/// How long the messages that have no deadline of their own stay worth delivering.
pub const TRIP_TTL: Duration = Duration::from_secs(30 * 60);
pub const JOB_GONE_TTL: Duration = Duration::from_secs(10 * 60);
pub const ALERT_TTL: Duration = Duration::from_secs(60 * 60);

/// A write the stream reports, as the domain reads its images. One lives per record
/// for a moment, so its size does not matter (boxing would only add allocations).
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum Change {
    Booking {
        old: Option<Booking>,
        new: Option<Booking>,
    },
    Alert {
        old: Option<Alert>,
        new: Option<Alert>,
    },
}

fn message(to: Recipient, payload: Payload, ttl: Duration) -> Message {
    Message {
        to,
        payload,
        ttl,
        urgency: Urgency::High,
    }
}

/// The ambulance holding an open booking.
fn held_by(b: Option<&Booking>) -> Option<Id> {
    b.filter(|b| !b.booking_status.is_final())
        .map(|b| b.ambulance_id)
}

/// Who is told what (the contract's table) when a booking or an alert changed from
/// `old` to `new`, at `now`:
/// - a job given to an ambulance (new, or moved to it) and waiting for its crew:
///   JOB to that crew, TTL until its `answerBy` (nothing once it has passed);
/// - a job taken from an ambulance (moved away, or cancelled): JOB_GONE to its crew;
/// - the requester: TRIP on DISPATCHED and REASSIGNED (moved while open), both
///   waiting for the crew to accept, ACCEPTED (EN_ROUTE: on its way) and AT_PICKUP,
///   and NO_AMBULANCE when an UNANSWERED alert is raised on the booking;
/// - the destination hospital's staff: INCOMING when the trip reaches TO_HOSPITAL
///   and AT_HOSPITAL (decision 0026);
/// - a new open alert: ALERT to every admin.
pub fn who_is_told(change: &Change, now: Timestamp) -> Vec<Message> {
    match change {
        Change::Booking { old, new } => booking_news(old.as_ref(), new.as_ref(), now),
        Change::Alert { old, new } => alert_news(old.as_ref(), new.as_ref()),
    }
}

fn booking_news(old: Option<&Booking>, new: Option<&Booking>, now: Timestamp) -> Vec<Message> {
    let mut out = vec![];
    let (was, is) = (held_by(old), held_by(new));
    if let Some(new) = new
        && let Some(amb) = is
        && was != Some(amb)
        && new.progress().awaits_answer()
    {
        // Every waiting job has its `answerBy` (`manage migrate` gave older ones theirs).
        let left = new
            .answer_by
            .map(|by| (by.get() - now.get()).whole_seconds());
        if let Some(left) = left.filter(|left| *left > 0) {
            let ttl = Duration::from_secs(left as u64);
            out.push(message(
                Recipient::CrewOf(amb),
                Payload::Job {
                    booking_id: new.id,
                    booking_type: new.booking_type,
                    answer_by: new.answer_by,
                    distance_km: None,
                },
                ttl,
            ));
        }
    }
    if let Some(old) = old
        && let Some(from) = was
    {
        let cancelled = new.is_some_and(|n| n.booking_status == BookingStatus::Cancelled);
        let moved = is.is_some_and(|to| to != from);
        if cancelled || moved {
            out.push(message(
                Recipient::CrewOf(from),
                Payload::JobGone { booking_id: old.id },
                JOB_GONE_TTL,
            ));
        }
    }
    let Some(new) = new else { return out };
    let stage =
        |b: Option<&Booking>| b.and_then(|b| b.trip_stage.filter(|_| !b.booking_status.is_final()));
    let news = if was.is_some() && is.is_some() && was != is {
        Some(TripNews::Reassigned)
    } else if stage(Some(new)) != stage(old) {
        match stage(Some(new)) {
            Some(TripStage::Dispatched) => Some(TripNews::Dispatched),
            Some(TripStage::EnRoute) => Some(TripNews::Accepted),
            Some(TripStage::AtPickup) => Some(TripNews::AtPickup),
            // From the pickup on the requester is with the crew: nothing to tell.
            Some(TripStage::ToHospital | TripStage::AtHospital | TripStage::HandedOver) | None => {
                None
            }
        }
    } else {
        None
    };
    // The receiving hospital hears of the trip when it sets off and when it arrives.
    if let Some(reached) = stage(Some(new))
        && tells_hospital(reached)
        && stage(old) != Some(reached)
    {
        out.push(message(
            Recipient::StaffOf(new.destination()),
            Payload::Incoming {
                booking_id: new.id,
                booking_type: new.booking_type,
                trip_stage: reached,
                ambulance_number: new.ambulance_number.clone(),
                eta_minutes: None,
            },
            TRIP_TTL,
        ));
    }
    if let Some(news) = news {
        out.push(message(
            Recipient::User(new.user_id),
            Payload::Trip {
                booking_id: new.id,
                trip_stage: news,
                ambulance_number: Some(new.ambulance_number.clone()),
                answer_by: new.answer_by.filter(|_| new.progress().awaits_answer()),
            },
            TRIP_TTL,
        ));
    }
    out
}

/// Whether reaching `stage` is news for the receiving hospital: the ambulance set off
/// for it, or arrived. (Its staff record the handover themselves.)
fn tells_hospital(stage: TripStage) -> bool {
    match stage {
        TripStage::ToHospital | TripStage::AtHospital => true,
        TripStage::Dispatched
        | TripStage::EnRoute
        | TripStage::AtPickup
        | TripStage::HandedOver => false,
    }
}

fn alert_news(old: Option<&Alert>, new: Option<&Alert>) -> Vec<Message> {
    let Some(new) = new.filter(|a| a.is_open()) else {
        return vec![];
    };
    // Raised now: an alert is never reopened, so only its first write is news.
    if old.is_some() {
        return vec![];
    }
    let mut out = vec![message(
        Recipient::Admins,
        Payload::Alert {
            alert_id: new.id,
            alert_kind: new.kind,
            booking_id: new.booking_id,
        },
        ALERT_TTL,
    )];
    if new.kind == AlertKind::Unanswered
        && let Some(booking) = new.booking_id
    {
        out.push(message(
            Recipient::RequesterOf(booking),
            Payload::Trip {
                booking_id: booking,
                trip_stage: TripNews::NoAmbulance,
                ambulance_number: None,
                answer_by: None,
            },
            TRIP_TTL,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: &str = "2026-11-27T10:00:20Z";

    fn now() -> Timestamp {
        Timestamp::parse(NOW).unwrap()
    }

    /// Booking 7 of user 1, held by ambulance `amb` (number `AMB-<amb>`), at
    /// `status`/`stage`, answer by 10:01:00 while it waits for its crew.
    fn booking(amb: u64, status: BookingStatus, stage: Option<TripStage>) -> Booking {
        let waits = status == BookingStatus::Pending || stage == Some(TripStage::Dispatched);
        serde_json::from_value(serde_json::json!({
            "id": 7, "bookingStatus": status, "bookingType": "EMERGENCY",
            "bookingTime": "2026-11-27T10:00:00.000Z", "userId": 1, "username": "u",
            "userEmail": "u@example.com", "hospitalId": 2, "hospitalName": "H",
            "hospital": {"id": 2, "name": "H", "address": "A"}, "ambulanceId": amb,
            "ambulanceNumber": format!("AMB-{amb}"),
            "ambulance": {"id": amb, "number": format!("AMB-{amb}"), "type": "BLS", "driverInfo": null},
            "patient": {"name": null, "age": null, "gender": null, "condition": null},
            "userPhone": null, "pickup": {"latitude": 30.0, "longitude": 75.0},
            "tripStage": stage, "timeline": [],
            "answerBy": waits.then_some("2026-11-27T10:01:00Z"),
        }))
        .unwrap()
    }

    fn alert(kind: AlertKind, booking: Option<u64>, open: bool) -> Alert {
        let mut a = Alert::new(Id::try_from(9u64).unwrap(), kind, now());
        a.booking_id = booking.map(|b| Id::try_from(b).unwrap());
        if !open {
            a.closed_at = Some(now());
        }
        a
    }

    fn id(n: u64) -> Id {
        Id::try_from(n).unwrap()
    }

    fn job(ttl: u64) -> (Recipient, Payload, u64) {
        (
            Recipient::CrewOf(id(5)),
            Payload::Job {
                booking_id: id(7),
                booking_type: BookingType::Emergency,
                answer_by: Timestamp::parse("2026-11-27T10:01:00Z"),
                distance_km: None,
            },
            ttl,
        )
    }

    fn gone(amb: u64) -> (Recipient, Payload, u64) {
        (
            Recipient::CrewOf(id(amb)),
            Payload::JobGone { booking_id: id(7) },
            JOB_GONE_TTL.as_secs(),
        )
    }

    fn trip(news: TripNews, amb: u64) -> (Recipient, Payload, u64) {
        let waits = matches!(news, TripNews::Dispatched | TripNews::Reassigned);
        (
            Recipient::User(id(1)),
            Payload::Trip {
                booking_id: id(7),
                trip_stage: news,
                ambulance_number: Some(format!("AMB-{amb}")),
                answer_by: waits
                    .then(|| Timestamp::parse("2026-11-27T10:01:00Z"))
                    .flatten(),
            },
            TRIP_TTL.as_secs(),
        )
    }

    /// INCOMING to the staff of the destination (hospital 2, the booking's own).
    fn incoming(stage: TripStage) -> (Recipient, Payload, u64) {
        (
            Recipient::StaffOf(id(2)),
            Payload::Incoming {
                booking_id: id(7),
                booking_type: BookingType::Emergency,
                trip_stage: stage,
                ambulance_number: "AMB-5".into(),
                eta_minutes: None,
            },
            TRIP_TTL.as_secs(),
        )
    }

    fn told(change: Change) -> Vec<(Recipient, Payload, u64)> {
        who_is_told(&change, now())
            .into_iter()
            .inspect(|m| assert_eq!(m.urgency, Urgency::High))
            .map(|m| (m.to, m.payload, m.ttl.as_secs()))
            .collect()
    }

    /// Every move of a booking, and who hears of it: the contract's table, row by row.
    #[test]
    fn who_is_told_of_each_booking_move() {
        use BookingStatus::*;
        use TripStage::*;
        let b = booking;
        let cases: Vec<(&str, Option<Booking>, Option<Booking>, Vec<_>)> = vec![
            // A new job waits for its crew: 40 s left until answerBy.
            (
                "booked (PENDING)",
                None,
                Some(b(5, Pending, None)),
                vec![job(40)],
            ),
            (
                "a one-tap emergency, dispatched at once",
                None,
                Some(b(5, Active, Some(Dispatched))),
                vec![job(40), trip(TripNews::Dispatched, 5)],
            ),
            (
                "the dispatcher's ACTIVE on the same ambulance",
                Some(b(5, Pending, None)),
                Some(b(5, Active, Some(Dispatched))),
                vec![trip(TripNews::Dispatched, 5)],
            ),
            (
                "moved from ambulance 4 to 5 (no answer, or by hand)",
                Some(b(4, Active, Some(Dispatched))),
                Some(b(5, Active, Some(Dispatched))),
                vec![job(40), gone(4), trip(TripNews::Reassigned, 5)],
            ),
            (
                "a PENDING job moved",
                Some(b(4, Pending, None)),
                Some(b(5, Pending, None)),
                vec![job(40), gone(4), trip(TripNews::Reassigned, 5)],
            ),
            (
                "the crew accepts: now, and only now, on its way",
                Some(b(5, Pending, None)),
                Some(b(5, Active, Some(EnRoute))),
                vec![trip(TripNews::Accepted, 5)],
            ),
            (
                "the crew accepts a dispatch",
                Some(b(5, Active, Some(Dispatched))),
                Some(b(5, Active, Some(EnRoute))),
                vec![trip(TripNews::Accepted, 5)],
            ),
            (
                "the crew arrives",
                Some(b(5, Active, Some(EnRoute))),
                Some(b(5, Active, Some(AtPickup))),
                vec![trip(TripNews::AtPickup, 5)],
            ),
            (
                "to hospital: the destination's staff hear it",
                Some(b(5, Active, Some(AtPickup))),
                Some(b(5, Active, Some(ToHospital))),
                vec![incoming(ToHospital)],
            ),
            (
                "at hospital: the destination's staff hear it",
                Some(b(5, Active, Some(ToHospital))),
                Some(b(5, Active, Some(AtHospital))),
                vec![incoming(AtHospital)],
            ),
            (
                "an unrelated write at the hospital tells nobody again",
                Some(b(5, Active, Some(AtHospital))),
                Some(b(5, Active, Some(AtHospital))),
                vec![],
            ),
            (
                "handed over",
                Some(b(5, Active, Some(AtHospital))),
                Some(b(5, Active, Some(HandedOver))),
                vec![],
            ),
            (
                "completed by the crew",
                Some(b(5, Active, Some(AtHospital))),
                Some(b(5, Completed, Some(AtHospital))),
                vec![],
            ),
            (
                "cancelled while pending",
                Some(b(5, Pending, None)),
                Some(b(5, Cancelled, None)),
                vec![gone(5)],
            ),
            (
                "cancelled en route",
                Some(b(5, Active, Some(EnRoute))),
                Some(b(5, Cancelled, Some(EnRoute))),
                vec![gone(5)],
            ),
            (
                "an unrelated write (a patient edit)",
                Some(b(5, Active, Some(EnRoute))),
                Some(b(5, Active, Some(EnRoute))),
                vec![],
            ),
            (
                "a final booking written again",
                Some(b(5, Cancelled, None)),
                Some(b(5, Cancelled, None)),
                vec![],
            ),
            (
                "removed (TTL)",
                Some(b(5, Completed, Some(AtHospital))),
                None,
                vec![],
            ),
        ];
        for (what, old, new, expected) in cases {
            assert_eq!(told(Change::Booking { old, new }), expected, "{what}");
        }
    }

    #[test]
    fn a_job_is_sent_only_while_it_can_be_answered() {
        let mut late = booking(5, BookingStatus::Pending, None);
        late.answer_by = Timestamp::parse("2026-11-27T10:00:20Z");
        assert_eq!(
            told(Change::Booking {
                old: None,
                new: Some(late)
            }),
            vec![]
        );
    }

    #[test]
    fn who_is_told_of_each_alert() {
        use AlertKind::*;
        let admins = |kind, booking: Option<u64>| {
            (
                Recipient::Admins,
                Payload::Alert {
                    alert_id: id(9),
                    alert_kind: kind,
                    booking_id: booking.map(id),
                },
                ALERT_TTL.as_secs(),
            )
        };
        let nobody = (
            Recipient::RequesterOf(id(7)),
            Payload::Trip {
                booking_id: id(7),
                trip_stage: TripNews::NoAmbulance,
                ambulance_number: None,
                answer_by: None,
            },
            TRIP_TTL.as_secs(),
        );
        let cases = vec![
            (
                "unanswered",
                None,
                Some(alert(Unanswered, Some(7), true)),
                vec![admins(Unanswered, Some(7)), nobody],
            ),
            (
                "no ambulance (no booking)",
                None,
                Some(alert(NoAmbulance, None, true)),
                vec![admins(NoAmbulance, None)],
            ),
            (
                "not responding",
                None,
                Some(alert(NotResponding, Some(7), true)),
                vec![admins(NotResponding, Some(7))],
            ),
            (
                "acknowledged or closed",
                Some(alert(Unanswered, Some(7), true)),
                Some(alert(Unanswered, Some(7), false)),
                vec![],
            ),
            (
                "expired",
                Some(alert(Unanswered, Some(7), false)),
                None,
                vec![],
            ),
        ];
        for (what, old, new, expected) in cases {
            assert_eq!(told(Change::Alert { old, new }), expected, "{what}");
        }
    }

    #[test]
    fn payloads_are_the_contracts_json() {
        let job = Payload::Job {
            booking_id: id(7),
            booking_type: BookingType::Emergency,
            answer_by: Timestamp::parse("2026-11-27T10:01:00Z"),
            distance_km: Some(2.5),
        };
        let json = serde_json::to_value(&job).unwrap();
        assert_eq!(json["kind"], "JOB");
        assert_eq!(json["bookingId"], 7);
        assert_eq!(json["bookingType"], "EMERGENCY");
        assert_eq!(json["distanceKm"], 2.5);
        assert!(
            json["answerBy"]
                .as_str()
                .unwrap()
                .starts_with("2026-11-27T10:01:00")
        );
        assert_eq!(
            serde_json::to_value(Payload::JobGone { booking_id: id(7) }).unwrap(),
            serde_json::json!({"kind": "JOB_GONE", "bookingId": 7})
        );
        assert_eq!(
            serde_json::to_value(Payload::Trip {
                booking_id: id(7),
                trip_stage: TripNews::AtPickup,
                ambulance_number: Some("AMB-5".into()),
                answer_by: None,
            })
            .unwrap(),
            serde_json::json!({"kind": "TRIP", "bookingId": 7, "tripStage": "AT_PICKUP", "ambulanceNumber": "AMB-5"})
        );
        assert_eq!(
            serde_json::to_value(Payload::Incoming {
                booking_id: id(7),
                booking_type: BookingType::Normal,
                trip_stage: TripStage::ToHospital,
                ambulance_number: "AMB-5".into(),
                eta_minutes: Some(9),
            })
            .unwrap(),
            serde_json::json!({"kind": "INCOMING", "bookingId": 7, "bookingType": "NORMAL",
                               "tripStage": "TO_HOSPITAL", "ambulanceNumber": "AMB-5", "etaMinutes": 9})
        );
        assert_eq!(
            serde_json::to_value(Payload::Trip {
                booking_id: id(7),
                trip_stage: TripNews::Dispatched,
                ambulance_number: Some("AMB-5".into()),
                answer_by: Timestamp::parse("2026-11-27T10:01:00Z"),
            })
            .unwrap(),
            serde_json::json!({"kind": "TRIP", "bookingId": 7, "tripStage": "DISPATCHED",
                "ambulanceNumber": "AMB-5", "answerBy": "2026-11-27T10:01:00.000Z"})
        );
        assert_eq!(
            serde_json::to_value(Payload::Alert {
                alert_id: id(9),
                alert_kind: AlertKind::Unanswered,
                booking_id: None
            })
            .unwrap(),
            serde_json::json!({"kind": "ALERT", "alertId": 9, "alertKind": "UNANSWERED", "bookingId": null})
        );
    }

    fn field_of(parsed: Result<PushSubscription, Refusal>) -> Option<String> {
        match parsed {
            Err(Refusal::Invalid { field, .. }) => Some(field),
            other => panic!("expected a 400, got {other:?}"),
        }
    }

    fn raw(endpoint: &str, p256dh: &str, auth: &str) -> RawSubscription {
        serde_json::from_value(serde_json::json!({
            "endpoint": endpoint, "expirationTime": null,
            "keys": {"p256dh": p256dh, "auth": auth}
        }))
        .unwrap()
    }

    /// A real browser's key (web-push-native's example) and a 16-byte secret.
    const P256DH: &str =
        "BLn9b-VR0ca83knDNZ32dCHGyjJp-1riX9ZTN40MqV8K_LpQmLqxC_DoHvqvFXO_nGdAB4W9dogZb_sM-uV4JbY";
    const AUTH: &str = "_ordMnz7uTCmrpBTeUV4Bw";

    #[test]
    fn a_subscription_parses_or_names_its_bad_field() {
        #[allow(non_snake_case)]
        let (HttpsOnly, AlsoLoopback) = (&Endpoints::deployed(&[]), &Endpoints::local(&[]));
        let fcm = "https://fcm.googleapis.com/fcm/send/abc:def";
        let s = raw(fcm, P256DH, AUTH).parse(HttpsOnly).unwrap();
        assert_eq!(s.endpoint(), fcm);
        assert_eq!(s.p256dh().len(), 65);
        assert_eq!(s.auth().len(), 16);
        // Padding is tolerated and not kept.
        let padded = raw(fcm, P256DH, &format!("{AUTH}=="))
            .parse(HttpsOnly)
            .unwrap();
        assert_eq!(padded, s);
        for loopback in ["http://127.0.0.1:8081/push/1", "http://localhost:9/x"] {
            assert!(
                raw(loopback, P256DH, AUTH).parse(AlsoLoopback).is_ok(),
                "{loopback}"
            );
            assert_eq!(
                field_of(raw(loopback, P256DH, AUTH).parse(HttpsOnly)),
                Some("endpoint".into())
            );
        }
        let long = format!("https://push.example/{}", "a".repeat(980));
        let mut point = base64url_decode(P256DH).unwrap();
        point[64] ^= 1; // off the curve
        let compressed = base64url_encode(&[&[0x02u8][..], &point[1..33]].concat());
        let bad = [
            (raw("http://push.example/x", P256DH, AUTH), "endpoint"),
            (raw("http://127.0.0.1/x", P256DH, AUTH), "endpoint"),
            (raw("http://10.0.0.1:80/x", P256DH, AUTH), "endpoint"),
            (raw("ftp://push.example/x", P256DH, AUTH), "endpoint"),
            (raw("https://user@push.example/x", P256DH, AUTH), "endpoint"),
            (raw("https://push.example/x", P256DH, AUTH), "endpoint"),
            (raw("https://10.0.0.5:8443/x", P256DH, AUTH), "endpoint"),
            (raw("https://10.0.0.5/x", P256DH, AUTH), "endpoint"),
            (raw("https://[fd00::1]/x", P256DH, AUTH), "endpoint"),
            (raw("https://127.0.0.1:9/x", P256DH, AUTH), "endpoint"),
            (
                raw("https://fcm.googleapis.com:8443/x", P256DH, AUTH),
                "endpoint",
            ),
            (raw("not a url", P256DH, AUTH), "endpoint"),
            (raw("", P256DH, AUTH), "endpoint"),
            (raw(&long, P256DH, AUTH), "endpoint"),
            (raw(fcm, "!!", AUTH), "keys.p256dh"),
            (raw(fcm, &base64url_encode(&point), AUTH), "keys.p256dh"),
            (raw(fcm, &compressed, AUTH), "keys.p256dh"),
            (raw(fcm, "", AUTH), "keys.p256dh"),
            (raw(fcm, P256DH, "AAAA"), "keys.auth"),
            (raw(fcm, P256DH, "*"), "keys.auth"),
        ];
        for (sub, field) in bad {
            let endpoint = sub.endpoint.clone();
            assert_eq!(
                field_of(sub.parse(AlsoLoopback)),
                Some(field.into()),
                "{endpoint}"
            );
        }
    }

    /// Push services only, by name: the browsers' by default, a deployment's own
    /// added (`*.` one or more labels), never an address, never another port.
    #[test]
    fn endpoints_are_the_push_services_hosts() {
        let allowed = |e: &str, endpoints: &Endpoints| parse_endpoint(e, endpoints).is_ok();
        let default = Endpoints::deployed(&[]);
        for e in [
            "https://fcm.googleapis.com/fcm/send/x",
            "https://fcm.googleapis.com:443/fcm/send/x",
            "https://updates.push.services.mozilla.com/wpush/v2/x",
            "https://web.push.apple.com/x",
            "https://api.sandbox.push.apple.com/x",
            "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB",
        ] {
            assert!(allowed(e, &default), "{e}");
        }
        for e in [
            "https://push.apple.com/x",
            "https://web.push.apple.com.evil.example/x",
            "https://evil-fcm.googleapis.com/x",
            "https://fcm.googleapis.com:8443/x",
            "https://push.example.org/x",
            "https://10.0.0.5/x",
            "https://[::1]/x",
        ] {
            assert!(!allowed(e, &default), "{e}");
        }
        let ip = parse_endpoint("https://10.0.0.5:8443/x", &default).unwrap_err();
        assert!(ip.to_string().contains("not an IP address"), "{ip}");
        let own = Endpoints::deployed(&["Push.Example.org".into(), "*.push.example.net".into()]);
        assert!(allowed("https://push.example.org/x", &own));
        assert!(allowed("https://a.b.push.example.net/x", &own));
        assert!(!allowed("https://push.example.net/x", &own));
        assert!(allowed("https://fcm.googleapis.com/x", &own));
    }
}
