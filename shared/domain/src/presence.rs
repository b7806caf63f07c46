//! Crew presence (decision 0020): whether an ambulance's crew can answer a job now.
//! `ONLINE` when a signed-in crew device of the ambulance reported a position or a
//! heartbeat in the last 2 minutes, `OFFLINE` when it has crew accounts but none is
//! online, `NO_CREW` when nobody has a crew account for it.
//!
//! What it is judged from costs no write of its own per position report: the
//! ambulance's crew count (kept by the crew accounts' transactions), and on its
//! `POSITION` item the time the server last wrote a report (`writtenAt`, which a
//! report writes anyway), the last heartbeat (`seenAt`) and the last sign-out
//! (`leftAt`).

use time::{Duration, OffsetDateTime};

use serde::{Deserialize, Serialize};

use crate::types::Timestamp;

/// Whether an ambulance's crew can answer now (decision 0020).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::AsRefStr,
    strum::VariantArray,
    strum::Display,
)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[strum(serialize_all = "SCREAMING_SNAKE_CASE")]
pub enum CrewPresence {
    /// A signed-in crew device of this ambulance reported in the last 2 minutes.
    Online,
    /// The ambulance has crew accounts, none of them online.
    Offline,
    /// Nobody has a crew account for this ambulance.
    NoCrew,
}

/// A device that reported within this long is online: two heartbeats' worth (the
/// crew app sends one at least every 60 s), the same 2 minutes after which a
/// position is shown as stale.
pub const ONLINE_WITHIN: Duration = Duration::minutes(2);

/// What the server knows of an ambulance's crew devices (times by its own clock).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Seen {
    /// Crew accounts bound to the ambulance.
    pub crew_count: u64,
    /// The last position report written (taken or doubted).
    pub report: Option<Timestamp>,
    /// The last heartbeat.
    pub heartbeat: Option<Timestamp>,
    /// The last time a crew device said it was signing out.
    pub left: Option<Timestamp>,
}

impl Seen {
    /// The last time a device of this ambulance said it was there.
    pub fn last(&self) -> Option<Timestamp> {
        self.report.max(self.heartbeat)
    }

    /// The presence at `now`. A sign-out ends it until a device reports again (if
    /// another crew member is still signed in, their next heartbeat, within a
    /// minute, brings it back: OFFLINE meanwhile is the safe side, since a person
    /// phones).
    pub fn presence(&self, now: OffsetDateTime) -> CrewPresence {
        if self.crew_count == 0 {
            return CrewPresence::NoCrew;
        }
        match self.last() {
            Some(last)
                if now - last.get() <= ONLINE_WITHIN && self.left.is_none_or(|l| last > l) =>
            {
                CrewPresence::Online
            }
            _ => CrewPresence::Offline,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-03-04 05:06:07 UTC);

    fn ago(secs: i64) -> Option<Timestamp> {
        Timestamp::new(NOW - Duration::seconds(secs))
    }

    #[test]
    fn every_case_of_presence() {
        use CrewPresence::*;
        #[rustfmt::skip]
        let cases = [
            // crew, report,  heartbeat, left,     presence
            (0,      ago(1),  ago(1),    None,     NoCrew,  "no crew account, whatever reports"),
            (1,      None,    None,      None,     Offline, "a crew that never opened the app"),
            (1,      ago(30), None,      None,     Online,  "a position report 30 s ago"),
            (2,      None,    ago(119),  None,     Online,  "a heartbeat just under 2 minutes ago"),
            (1,      None,    ago(121),  None,     Offline, "the last heartbeat over 2 minutes ago"),
            (1,      ago(200),ago(10),   None,     Online,  "the newer of report and heartbeat counts"),
            (1,      None,    ago(30),   ago(20),  Offline, "signed out after the last heartbeat"),
            (1,      ago(5),  ago(30),   ago(20),  Online,  "a report after the sign-out: back"),
        ];
        for (crew_count, report, heartbeat, left, want, what) in cases {
            let seen = Seen {
                crew_count,
                report,
                heartbeat,
                left,
            };
            assert_eq!(seen.presence(NOW), want, "{what}");
        }
    }
}
