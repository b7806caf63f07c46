//! Ranking by expected start (decision 0020): a job goes to the free ambulance whose
//! help would start moving soonest, not to the nearest one. Its expected start is the
//! drive to the pickup (the ETA estimator's road factor and speed, not rounded to
//! minutes) plus how long a crew of its presence is expected to take to answer
//! (`Settings::presence_delay_seconds`: by default 15 s for an ONLINE crew; for an
//! OFFLINE or crewless one the answer window and a minute, for a dispatcher's phone
//! call). Ties: nearer first.
//!
//! One rule for every choice of an ambulance: the one-tap emergency, the clock's
//! automatic moves and the dispatcher's "Reassign" list.

use std::{cmp::Ordering, time::Duration};

use crate::{
    eta::{ROAD_FACTOR, SPEED_KMH},
    presence::CrewPresence,
    settings::PresenceDelays,
};

/// The drive over `distance_km` of straight line: × the road factor ÷ the speed.
pub fn drive(distance_km: f64) -> Duration {
    let hours = distance_km.max(0.0) * ROAD_FACTOR / SPEED_KMH;
    Duration::try_from_secs_f64(hours * 3600.0).unwrap_or(Duration::MAX)
}

/// When help from an ambulance `distance_km` away whose crew is `presence` is
/// expected to start moving, counted from the moment the job is given.
pub fn expected_start(
    distance_km: f64,
    presence: CrewPresence,
    delays: &PresenceDelays,
) -> Duration {
    drive(distance_km).saturating_add(delays.of(presence))
}

/// The order of two choices, each `(distance_km, presence)`: the sooner expected
/// start first, then the nearer.
pub fn order(a: (f64, CrewPresence), b: (f64, CrewPresence), delays: &PresenceDelays) -> Ordering {
    expected_start(a.0, a.1, delays)
        .cmp(&expected_start(b.0, b.1, delays))
        .then(a.0.total_cmp(&b.0))
}

/// `items` sorted by [`order`] (stable: equal choices keep their order), `choice`
/// giving each one's distance and presence.
pub fn rank<T>(
    items: &mut [T],
    choice: impl Fn(&T) -> (f64, CrewPresence),
    delays: &PresenceDelays,
) {
    items.sort_by(|a, b| order(choice(a), choice(b), delays));
}

/// How far (km) an ambulance may be and still be expected to start no later than
/// `start`: beyond it even the quickest-answering presence starts later. A search
/// that has proven every ambulance within this distance has proven the best one.
pub fn reach(start: Duration, delays: &PresenceDelays) -> f64 {
    let quickest = [
        CrewPresence::Online,
        CrewPresence::Offline,
        CrewPresence::NoCrew,
    ]
    .into_iter()
    .map(|p| delays.of(p))
    .min()
    .unwrap_or_default();
    let hours = start.saturating_sub(quickest).as_secs_f64() / 3600.0;
    hours * SPEED_KMH / ROAD_FACTOR
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;
    use CrewPresence::*;

    /// The rule's cases, with the default delays (ONLINE 15 s, the others 120 s).
    #[test]
    fn who_goes_first() {
        let defaults = Settings::default().presence_delay_seconds;
        // All delays equal: nearest first, as before presence counted.
        let flat = PresenceDelays {
            online: 0,
            offline: 0,
            no_crew: 0,
        };
        #[rustfmt::skip]
        let cases = [
            // first choice,    second choice,   delays,    first wins, why
            ((0.6, Online),    (0.3, NoCrew),   defaults,  true,  "an answering crew 0.6 km away beats a crewless ambulance 0.3 km away"),
            ((0.0, NoCrew),    (40.0, Online),  defaults,  true,  "a crewless ambulance next door beats an answering crew 40 km away"),
            ((0.6, Online),    (0.3, Offline),  defaults,  true,  "OFFLINE waits for a phone call like NO_CREW"),
            ((1.5, NoCrew),    (2.0, Online),   defaults,  false, "1.2 km of extra drive (about 105 s) is worth less than the call"),
            ((0.3, Offline),   (0.4, Offline),  defaults,  true,  "same presence: nearer first"),
            ((0.3, Online),    (0.3, Online),   defaults,  false, "exact tie: the order given is kept"),
            ((0.3, NoCrew),    (0.6, Online),   flat,      true,  "no delays: nearest first (the rule before presence)"),
        ];
        for (a, b, delays, first_wins, why) in cases {
            let mut items = [a, b];
            rank(&mut items, |c| *c, &delays);
            let wins = items[0] == a && items[1] == b && order(a, b, &delays).is_lt();
            assert_eq!(wins, first_wins, "{why}: {items:?}");
        }
    }

    #[test]
    fn equal_expected_starts_go_to_the_nearer() {
        // ONLINE 15 s + the drive over d equals NO_CREW 120 s next door when the
        // drive takes 105 s: then the nearer (the crewless one) first.
        let delays = Settings::default().presence_delay_seconds;
        let d = 105.0 / 3600.0 * SPEED_KMH / ROAD_FACTOR;
        let near = (0.0, NoCrew);
        let far = (d, Online);
        let (a, b) = (
            expected_start(near.0, near.1, &delays).as_secs_f64(),
            expected_start(far.0, far.1, &delays).as_secs_f64(),
        );
        assert!((a - b).abs() < 1e-6, "{a} {b}");
        let mut items = [far, near];
        rank(&mut items, |c| *c, &delays);
        assert_eq!(items, [near, far]);
    }

    #[test]
    fn the_expected_start_and_the_reach() {
        let delays = Settings::default().presence_delay_seconds;
        // 10 km of straight line: 14 km of road at 40 km/h, 1 260 s, + 15 s.
        let start = expected_start(10.0, Online, &delays);
        assert_eq!(start.as_secs(), 1275);
        // Nothing farther than 10 km can start by then, even online.
        assert!((reach(start, &delays) - 10.0).abs() < 1e-9);
        // A crewless ambulance next door (120 s): an online crew up to 105 s of
        // driving away could still beat it.
        let reach_km = reach(Duration::from_secs(120), &delays);
        assert!((reach_km - 105.0 / 3600.0 * SPEED_KMH / ROAD_FACTOR).abs() < 1e-9);
        assert_eq!(reach(Duration::ZERO, &delays), 0.0);
    }
}
