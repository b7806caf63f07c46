//! The free ambulance to send (decisions 0007, 0018 and 0020): within the SOS
//! search radius (the setting `sosRadiusKm`, 50 km by default) of the pickup, of
//! the type asked for, at its fresh live position, else its hospital's,
//! ranked by expected start ([`super::rank`]: the drive plus its crew's expected
//! answer delay, ties nearer first); a lost race tries the next one.
//!
//! # The entries
//!
//! A free ambulance stands twice in the `freegeo` index: its live entry (`FREEPOS`,
//! at its last reported position, or at its hospital's point before any report) and
//! its hospital entry (the ambulance item, at its hospital's point). Its ranking
//! point is one of the two: the live entry's when that was taken less than 2 minutes
//! ago, else the hospital's. So the ranking points are a subset of the entries' points,
//! and the H3 search of [`crate::geo`] over the entries, with the entries that can
//! never rank (stale live entries, other types, ambulances already refused) left out
//! as they are read, proves the nearest ranking points like any other points:
//! nothing unread lies within the radius it proved.
//!
//! Two things the search cannot see, settled afterwards:
//! - A hospital entry read without the ambulance's live entry may not be its ranking
//!   point: the live entry may be fresh, somewhere unread (farther than the proven
//!   radius). Such a candidate is assigned on the condition that its `POSITION` is
//!   not fresh (`check_position`); if it is, the ambulance is elsewhere ([`Attempt::Elsewhere`]):
//!   its hospital entry is ignored from then on and the next candidate is tried.
//! - An ambulance read as free may have been taken a moment ago (the index follows
//!   the table within a second or so, and racers take ambulances): the assignment is
//!   conditional on AVAILABLE ([`Attempt::Taken`]), and the next candidate is tried.
//!
//! When the candidates of one search are spent, the search runs again without the
//! refused ambulances, until one is assigned, none is left within the radius
//! ([`Dispatch::NoneNear`]), or [`MAX_TRIES`] assignments were tried.
//!
//! # Expected start
//!
//! The geo search proves the nearest entries; their crews' presence is then read
//! (`presence`: one BatchGetItem of the ambulances and their `POSITION`s) and the
//! candidates ranked by expected start. The best of them is expected to start at
//! some time `s`; an ambulance farther than [`super::rank::reach`]`(s)` cannot start
//! sooner even with the quickest-answering presence, so when the search proved less
//! than that radius it reads on to it (one more round: every entry within it), and
//! the ranking is then proven too. With the default delays that is at most about
//! 0.8 km past the nearest ambulance.
//!
//! Ties (ambulances at the same hospital): one whose position is known first, then
//! in an order random per request, so that racers for one point spread over the
//! ambulances standing equally near instead of all trying the same one first.

use std::{
    collections::{HashMap, HashSet, VecDeque},
    future::Future,
    sync::Mutex,
};

use rand::seq::SliceRandom;
use serde::Serialize;
use time::OffsetDateTime;

use super::rank;
use crate::{
    ambulance::AmbulanceType,
    geo::{self, Located, Point, Range, SearchParams},
    position::STALE_AFTER,
    presence::CrewPresence,
    settings::PresenceDelays,
    types::Id,
};

/// How far an emergency looks for a free ambulance.
pub const EMERGENCY_RADIUS_KM: f64 = 50.0;
/// Assignments tried per request at most (each refused ambulance is tried once):
/// past this many lost races the request gives up (503: try again) rather than
/// answer late.
pub const MAX_TRIES: usize = 24;
/// A busy candidate is tried again this many times, after the others.
const BUSY_RETRIES: usize = 1;
/// This many busy attempts in a row end the dispatch (503: try again): the database
/// is overloaded or unreachable, and each attempt has waited seconds already.
const MAX_BUSY_STREAK: usize = 3;
/// The first search round's radius without a better guess (no hospital near in
/// this instance's memory): about a city's ambulance spacing.
pub const DEFAULT_FIRST_TARGET_KM: f64 = 3.0;
/// How much farther the next round looks after one that found nothing. Larger than
/// the hospital search's: an emergency wants few rounds more than few items.
pub const EMPTY_GROWTH: f64 = 10.0;
/// Cells per radius of a round's cover: coarser than the hospital search's 3 (fewer
/// Queries for a few more entries read; chosen with `bench_emergency`,
/// docs/performance.md).
pub const CELLS_PER_RADIUS: f64 = 2.0;
/// When every candidate of a search was refused, the next search's first round
/// reaches this many times as far as the last one proved.
pub const NEXT_SEARCH_GROWTH: f64 = 3.0;

/// Where a `freegeo` entry stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Spot {
    /// The ambulance item itself: at its hospital's point.
    Hospital,
    /// `FREEPOS`: the last reported position and when it was taken; at the
    /// hospital's point, with no time, before any report.
    Live {
        at: Point,
        recorded_at: Option<OffsetDateTime>,
    },
}

/// One entry of `freegeo`, with what an assignment needs.
#[derive(Debug, Clone, PartialEq)]
pub struct FreeEntry {
    pub ambulance: Id,
    pub ambulance_type: AmbulanceType,
    pub hospital_id: Id,
    /// The ambulance's hospital's point.
    pub hospital: Point,
    pub spot: Spot,
    /// The entry's index keys in the search's terms (`geo::keys_of`): `(res-2 cell,
    /// res-15 cell)`.
    pub keys: (String, u64),
    /// The ambulance's number and driver (projected, so that the booking needs no
    /// further read).
    pub number: String,
    pub driver_info: Option<String>,
}

impl FreeEntry {
    pub fn point(&self) -> Point {
        match &self.spot {
            Spot::Hospital => self.hospital,
            Spot::Live { at, .. } => *at,
        }
    }

    /// A live entry taken less than 2 minutes before `now`.
    pub fn is_fresh(&self, now: OffsetDateTime) -> bool {
        matches!(
            self.spot,
            Spot::Live { recorded_at: Some(at), .. } if now - at <= STALE_AFTER
        )
    }
}

impl Located for FreeEntry {
    fn point(&self) -> Point {
        FreeEntry::point(self)
    }
    fn geo_keys(&self) -> (String, u64) {
        self.keys.clone()
    }
}

/// How many free ambulances the dispatcher's reassign list shows.
pub const FREE_NEAR_MAX: usize = 10;

/// A free ambulance near a point, for the dispatcher's reassign, in the order an
/// emergency would choose them: `{id, number, type, hospitalId, distanceKm,
/// crewPresence, etaMinutes, expectedStartSeconds}` (km rounded to metres).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FreeNear {
    pub id: Id,
    pub number: String,
    #[serde(rename = "type")]
    pub ambulance_type: AmbulanceType,
    pub hospital_id: Id,
    pub distance_km: f64,
    pub crew_presence: CrewPresence,
    /// The drive to the point (the ETA estimator's, whole minutes rounded up).
    pub eta_minutes: u32,
    /// The drive plus the crew's expected answer delay: what the list is ranked by.
    pub expected_start_seconds: u64,
}

/// An ambulance to try, at its ranking point.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// The entry it ranks by: its fresh live entry, or its hospital entry.
    pub entry: FreeEntry,
    pub distance_km: f64,
    /// Ranked at its hospital: assign it only if its `POSITION` is not fresh.
    pub check_position: bool,
    /// Its crew's presence as read for this search (`NoCrew` until read).
    pub presence: CrewPresence,
}

impl Candidate {
    /// When its help is expected to start, counted from the moment it is given the job.
    pub fn expected_start(&self, delays: &PresenceDelays) -> std::time::Duration {
        rank::expected_start(self.distance_km, self.presence, delays)
    }
}

/// What one assignment attempt found.
#[derive(Debug, Clone, PartialEq)]
pub enum Attempt<R> {
    Assigned(R),
    /// No longer AVAILABLE (taken by a racer, or the index was behind).
    Taken,
    /// Its position is fresh: it stands elsewhere than its hospital.
    Elsewhere,
    /// Other transactions held its items the whole time the assignment retried (a
    /// crowd of racers), or the database did not answer: nothing was written, and
    /// whether it is free is not known.
    Busy,
}

/// How a dispatch ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Dispatch<R> {
    Assigned {
        result: R,
        candidate: Candidate,
    },
    /// No free ambulance (of the type) within the radius.
    NoneNear,
    /// [`MAX_TRIES`] assignments were refused.
    GaveUp,
}

/// What a dispatch cost (the benchmark's figures).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct DispatchStats {
    pub searches: usize,
    /// Sequential rounds of Queries, all searches together.
    pub search_rounds: usize,
    pub queries: usize,
    pub items_read: usize,
    /// Assignments tried.
    pub tries: usize,
    /// Reads of the candidates' presence (one BatchGetItem each).
    pub presence_reads: usize,
}

/// What the searches of one dispatch learnt.
#[derive(Default)]
struct Known {
    /// Refused as taken: none of its entries counts.
    taken: HashSet<Id>,
    /// Its live entry is fresh (read), or its position was found fresh: its hospital
    /// entry is not where it is.
    live: HashSet<Id>,
    /// Its live entry was read and is stale (or at the hospital): it ranks there.
    at_hospital: HashSet<Id>,
    /// Its crew's presence, read once per dispatch.
    presence: HashMap<Id, CrewPresence>,
}

impl Known {
    /// Whether an entry may be a ranking point, learning from the live ones.
    fn keep(&mut self, e: &FreeEntry, want: Option<AmbulanceType>, now: OffsetDateTime) -> bool {
        if self.taken.contains(&e.ambulance) || want.is_some_and(|t| t != e.ambulance_type) {
            return false;
        }
        match e.spot {
            Spot::Live { .. } if e.is_fresh(now) => {
                self.live.insert(e.ambulance);
                true
            }
            Spot::Live { .. } => {
                self.at_hospital.insert(e.ambulance);
                false
            }
            Spot::Hospital => !self.live.contains(&e.ambulance),
        }
    }
}

/// One request's dispatch: its searches and what they learnt. [`Dispatcher::search`]
/// runs one search (so that the first can run beside other reads), [`Dispatcher::run`]
/// tries candidates and searches again until one is assigned.
pub struct Dispatcher {
    pickup: Point,
    want: Option<AmbulanceType>,
    now: OffsetDateTime,
    delays: PresenceDelays,
    first_target_km: f64,
    next_target_km: f64,
    /// How many entries a search proves (1 for a dispatch).
    k: usize,
    /// How many ambulances the answer needs (1 for a dispatch): the ranking is proven
    /// down to this one.
    wanted: usize,
    known: Mutex<Known>,
    /// How far it looks ([`Dispatcher::within`]).
    radius_km: f64,
    /// The last search proved that nothing it did not answer lies within the radius.
    searched_all: bool,
    /// The radius (km) within which the last search read every entry.
    proven_km: f64,
    /// Busy attempts in a row.
    busy_streak: usize,
    pub stats: DispatchStats,
}

impl Dispatcher {
    /// `first_target_km` is the first search round's radius: a guess of where the
    /// nearest lies (the answer does not depend on it, only the rounds and items
    /// read); `delays` the settings' expected answer delay per presence.
    pub fn new(
        pickup: Point,
        want: Option<AmbulanceType>,
        now: OffsetDateTime,
        first_target_km: f64,
        delays: PresenceDelays,
    ) -> Dispatcher {
        Dispatcher {
            pickup,
            want,
            now,
            delays,
            first_target_km,
            next_target_km: first_target_km,
            k: 1,
            wanted: 1,
            radius_km: EMERGENCY_RADIUS_KM,
            known: Mutex::new(Known::default()),
            searched_all: false,
            proven_km: 0.0,
            busy_streak: 0,
            stats: DispatchStats::default(),
        }
    }

    /// A search that proves the `k` nearest ambulances instead of one (the
    /// dispatcher's list to choose from by hand): 2k entries, since one ambulance
    /// may stand in two of them.
    pub fn listing(mut self, k: usize) -> Dispatcher {
        self.wanted = k.max(1);
        self.k = self.wanted * 2;
        self
    }

    /// A dispatch that looks `radius_km` far (the setting `sosRadiusKm`) instead of
    /// [`EMERGENCY_RADIUS_KM`]: the search proves its answer within any radius.
    pub fn within(mut self, radius_km: f64) -> Dispatcher {
        self.radius_km = radius_km.max(0.05);
        self
    }

    pub fn delays(&self) -> &PresenceDelays {
        &self.delays
    }

    /// One search with `fetch` (the entries of a batch of ranges, one Query per range
    /// and shard) and `presence` (the crews' presence of some ambulances): the
    /// ambulances not refused yet within the radius it proved, at their ranking
    /// points, by expected start (see the module documentation).
    pub async fn search<E, F, Fut, P, PFut>(
        &mut self,
        fetch: &mut F,
        presence: &mut P,
    ) -> Result<Vec<Candidate>, E>
    where
        F: FnMut(Vec<Range>) -> Fut,
        Fut: Future<Output = Result<Vec<FreeEntry>, E>>,
        P: FnMut(Vec<Id>) -> PFut,
        PFut: Future<Output = Result<HashMap<Id, CrewPresence>, E>>,
    {
        let first = self.next_target_km;
        let proven = self.prove(fetch, first, self.k, self.radius_km).await?;
        let mut radius = proven.radius_km;
        let mut found = self.ranked(proven.items, presence).await?;
        // The ranking is proven once every ambulance that could start sooner than
        // the `wanted`-th best is read: one more round to that reach if need be.
        if let Some(bound) = found.get(self.wanted - 1) {
            let reach =
                rank::reach(bound.expected_start(&self.delays), &self.delays).min(self.radius_km);
            if reach > radius {
                let wider = self.prove(fetch, reach, usize::MAX, reach).await?;
                radius = wider.radius_km;
                found = self.ranked(wider.items, presence).await?;
            }
        }
        self.searched_all = radius >= self.radius_km;
        self.proven_km = radius;
        // Nothing not yet refused lies nearer than this proved: a next search (when
        // these are all refused) looks farther at once.
        self.next_target_km = (radius * NEXT_SEARCH_GROWTH).max(self.first_target_km);
        Ok(found)
    }

    /// The entries within `radius_km` proven by one geo search (at least the `k`
    /// nearest), those that can never rank left out as they are read.
    async fn prove<E, F, Fut>(
        &mut self,
        fetch: &mut F,
        first_target_km: f64,
        k: usize,
        radius_km: f64,
    ) -> Result<geo::Proven<FreeEntry>, E>
    where
        F: FnMut(Vec<Range>) -> Fut,
        Fut: Future<Output = Result<Vec<FreeEntry>, E>>,
    {
        let params = SearchParams {
            first_target_km: first_target_km.clamp(0.05, self.radius_km),
            empty_growth: EMPTY_GROWTH,
            cells_per_radius: CELLS_PER_RADIUS,
            ..SearchParams::default()
        };
        let (want, now, known) = (self.want, self.now, &self.known);
        let (proven, search) = geo::nearest_proven(params, self.pickup, k, radius_km, |ranges| {
            let read = fetch(ranges);
            async move {
                let mut entries = read.await?;
                // Live entries first, so a batch's fresh ones rule out their
                // ambulances' hospital entries in the same batch.
                entries.sort_by_key(|e| matches!(e.spot, Spot::Hospital));
                let mut known = known.lock().expect("not poisoned");
                entries.retain(|e| known.keep(e, want, now));
                Ok(entries)
            }
        })
        .await?;
        self.stats.searches += 1;
        self.stats.search_rounds += search.rounds;
        self.stats.queries += search.queries;
        self.stats.items_read += search.items_read;
        Ok(proven)
    }

    /// The proven entries as candidates, their presence read where not known yet,
    /// by expected start.
    async fn ranked<E, P, PFut>(
        &mut self,
        entries: Vec<(FreeEntry, f64)>,
        presence: &mut P,
    ) -> Result<Vec<Candidate>, E>
    where
        P: FnMut(Vec<Id>) -> PFut,
        PFut: Future<Output = Result<HashMap<Id, CrewPresence>, E>>,
    {
        let mut found = {
            let known = self.known.lock().expect("not poisoned");
            candidates(entries, &known, &mut rand::rng())
        };
        let unread: Vec<Id> = {
            let known = self.known.lock().expect("not poisoned");
            found
                .iter()
                .map(|c| c.entry.ambulance)
                .filter(|id| !known.presence.contains_key(id))
                .collect()
        };
        if !unread.is_empty() {
            self.stats.presence_reads += 1;
            let read = presence(unread.clone()).await?;
            let mut known = self.known.lock().expect("not poisoned");
            for id in unread {
                // An ambulance whose item is gone answers as nobody would; taking it
                // will be refused anyway.
                let p = read.get(&id).copied().unwrap_or(CrewPresence::NoCrew);
                known.presence.insert(id, p);
            }
        }
        let known = self.known.lock().expect("not poisoned");
        for c in &mut found {
            c.presence = known.presence[&c.entry.ambulance];
        }
        // `candidates` shuffled and put known positions first among equals; the
        // ranking is stable, so that order stands for ties.
        rank::rank(&mut found, |c| (c.distance_km, c.presence), &self.delays);
        Ok(found)
    }

    /// Tries `candidates` (from [`Dispatcher::search`]) with `take` (the conditional
    /// assignment), in their order, searching again with `fetch` and `presence` when
    /// they are spent, until one is assigned, none is left within the radius, or
    /// [`MAX_TRIES`] were refused.
    pub async fn run<R, E, F, FFut, P, PFut, T, TFut>(
        mut self,
        mut candidates: Vec<Candidate>,
        mut fetch: F,
        mut presence: P,
        mut take: T,
    ) -> Result<(Dispatch<R>, DispatchStats), E>
    where
        F: FnMut(Vec<Range>) -> FFut,
        FFut: Future<Output = Result<Vec<FreeEntry>, E>>,
        P: FnMut(Vec<Id>) -> PFut,
        PFut: Future<Output = Result<HashMap<Id, CrewPresence>, E>>,
        T: FnMut(Candidate) -> TFut,
        TFut: Future<Output = Result<Attempt<R>, E>>,
    {
        loop {
            if candidates.is_empty() && self.searched_all {
                return Ok((Dispatch::NoneNear, self.stats));
            }
            let mut queue: VecDeque<(Candidate, usize)> =
                candidates.into_iter().map(|c| (c, 0)).collect();
            while let Some((candidate, busy)) = queue.pop_front() {
                if self.stats.tries == MAX_TRIES || self.busy_streak == MAX_BUSY_STREAK {
                    return Ok((Dispatch::GaveUp, self.stats));
                }
                // The search proved the best of its candidates; once those before
                // this one were refused, one farther than it read could start sooner
                // than this one: search again (the refused left out).
                let reach = rank::reach(candidate.expected_start(&self.delays), &self.delays);
                if !self.searched_all && reach > self.proven_km {
                    break;
                }
                self.stats.tries += 1;
                let id = candidate.entry.ambulance;
                let attempt = take(candidate.clone()).await?;
                self.busy_streak = match attempt {
                    Attempt::Busy => self.busy_streak + 1,
                    _ => 0,
                };
                match attempt {
                    Attempt::Assigned(result) => {
                        return Ok((Dispatch::Assigned { result, candidate }, self.stats));
                    }
                    Attempt::Taken => {
                        self.known.lock().expect("not poisoned").taken.insert(id);
                    }
                    Attempt::Elsewhere => {
                        self.known.lock().expect("not poisoned").live.insert(id);
                    }
                    // Again after the others; past that, a next search may offer it.
                    Attempt::Busy if busy < BUSY_RETRIES => queue.push_back((candidate, busy + 1)),
                    Attempt::Busy => {}
                }
            }
            candidates = self.search(&mut fetch, &mut presence).await?;
        }
    }
}

/// The proven entries as ambulances at their ranking points, nearest first: a
/// hospital entry of an ambulance known to be live elsewhere is dropped (its live
/// entry, if it is within the proven radius, is among the entries). Ties: a known
/// position first, then shuffled.
fn candidates(
    entries: Vec<(FreeEntry, f64)>,
    known: &Known,
    rng: &mut impl rand::Rng,
) -> Vec<Candidate> {
    let mut by_id: HashMap<Id, Candidate> = HashMap::new();
    for (entry, distance_km) in entries {
        let id = entry.ambulance;
        let live = matches!(entry.spot, Spot::Live { .. });
        if !live && known.live.contains(&id) {
            continue;
        }
        let candidate = Candidate {
            check_position: !live,
            entry,
            distance_km,
            presence: CrewPresence::NoCrew,
        };
        by_id
            .entry(id)
            .and_modify(|c| {
                if distance_km < c.distance_km {
                    *c = candidate.clone();
                }
            })
            .or_insert(candidate);
    }
    let mut out: Vec<Candidate> = by_id.into_values().collect();
    out.shuffle(rng);
    let unsure =
        |c: &Candidate| c.check_position && !known.at_hospital.contains(&c.entry.ambulance);
    out.sort_by(|a, b| {
        a.distance_km
            .total_cmp(&b.distance_km)
            .then(unsure(a).cmp(&unsure(b)))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geo::Point;
    use crate::geo::{haversine_km, keys_of, wrap_longitude};
    use proptest::prelude::*;
    use std::convert::Infallible;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-03-04 05:06:07 UTC);

    fn delays() -> PresenceDelays {
        crate::settings::Settings::default().presence_delay_seconds
    }

    /// One [`Dispatcher`] from the first search to the end, over memory, the crews'
    /// presence from `presence` (absent: no crew).
    fn dispatch<T>(
        index: &geo::MemoryIndex<FreeEntry>,
        pickup: Point,
        want: Option<AmbulanceType>,
        (first_target_km, radius_km): (f64, f64),
        presence: &HashMap<u64, CrewPresence>,
        take: T,
    ) -> (Dispatch<u64>, DispatchStats)
    where
        T: FnMut(Candidate) -> std::future::Ready<Result<Attempt<u64>, Infallible>>,
    {
        let mut fetch = |ranges: Vec<Range>| std::future::ready(Ok(index.read(&ranges)));
        let mut read = |ids: Vec<Id>| {
            std::future::ready(Ok(ids
                .into_iter()
                .filter_map(|id| Some((id, *presence.get(&id.get())?)))
                .collect()))
        };
        let run = async {
            let mut dispatcher =
                Dispatcher::new(pickup, want, NOW, first_target_km, delays()).within(radius_km);
            let first = dispatcher.search(&mut fetch, &mut read).await?;
            dispatcher.run(first, fetch, read, take).await
        };
        match futures::executor::block_on(run) {
            Ok(done) => done,
            Err(never) => match never {},
        }
    }

    /// An ambulance as it truly is.
    #[derive(Debug, Clone)]
    struct Truth {
        id: u64,
        ambulance_type: AmbulanceType,
        hospital: Point,
        /// Its last report: where, and how many seconds before NOW.
        last: Option<(Point, i64)>,
        /// Taken although the index still shows it (a racer got it, or the index
        /// is behind).
        taken: bool,
        presence: CrewPresence,
    }

    impl Truth {
        fn fresh(&self) -> bool {
            self.last.is_some_and(|(_, age)| age <= 120)
        }
        fn ranking_point(&self) -> Point {
            match self.last {
                Some((p, _)) if self.fresh() => p,
                _ => self.hospital,
            }
        }
        fn entry(&self, spot: Spot) -> FreeEntry {
            let mut e = FreeEntry {
                ambulance: Id::try_from(self.id).unwrap(),
                ambulance_type: self.ambulance_type,
                hospital_id: Id::try_from(1).unwrap(),
                hospital: self.hospital,
                spot,
                keys: (String::new(), 0),
                number: format!("N-{}", self.id),
                driver_info: None,
            };
            e.keys = keys_of(e.point());
            e
        }
        /// Its two entries, as the store writes them.
        fn entries(&self) -> [FreeEntry; 2] {
            let live = match self.last {
                Some((at, age)) => Spot::Live {
                    at,
                    recorded_at: Some(NOW - time::Duration::seconds(age)),
                },
                None => Spot::Live {
                    at: self.hospital,
                    recorded_at: None,
                },
            };
            [self.entry(Spot::Hospital), self.entry(live)]
        }
    }

    /// The dispatch over an in-memory index of the fleet's entries, `take` judging
    /// by the truth as the store's transaction does.
    fn run(
        fleet: &[Truth],
        pickup: Point,
        want: Option<AmbulanceType>,
        first_target_km: f64,
    ) -> (Dispatch<u64>, DispatchStats) {
        run_within(fleet, pickup, want, first_target_km, EMERGENCY_RADIUS_KM)
    }

    /// [`run`] looking `radius_km` far (the setting `sosRadiusKm`).
    fn run_within(
        fleet: &[Truth],
        pickup: Point,
        want: Option<AmbulanceType>,
        first_target_km: f64,
        radius_km: f64,
    ) -> (Dispatch<u64>, DispatchStats) {
        let index = geo::MemoryIndex::new(fleet.iter().flat_map(Truth::entries));
        let by_id: HashMap<u64, &Truth> = fleet.iter().map(|t| (t.id, t)).collect();
        let presence = fleet.iter().map(|t| (t.id, t.presence)).collect();
        let take = |c: Candidate| {
            let truth = by_id[&c.entry.ambulance.get()];
            std::future::ready(Ok(if truth.taken {
                Attempt::Taken
            } else if c.check_position && truth.fresh() {
                Attempt::Elsewhere
            } else {
                Attempt::Assigned(truth.id)
            }))
        };
        dispatch(
            &index,
            pickup,
            want,
            (first_target_km, radius_km),
            &presence,
            take,
        )
    }

    /// The free ambulances of the type within 50 km at their ranking points, with
    /// their presence, by expected start (then nearer first).
    fn brute(
        fleet: &[Truth],
        pickup: Point,
        want: Option<AmbulanceType>,
    ) -> Vec<(f64, CrewPresence, u64)> {
        let mut all: Vec<(f64, CrewPresence, u64)> = fleet
            .iter()
            .filter(|t| !t.taken && want.is_none_or(|w| w == t.ambulance_type))
            .map(|t| (haversine_km(pickup, t.ranking_point()), t.presence, t.id))
            .filter(|(d, _, _)| *d <= EMERGENCY_RADIUS_KM)
            .collect();
        rank::rank(&mut all, |c| (c.0, c.1), &delays());
        all
    }

    fn check(fleet: &[Truth], pickup: Point, want: Option<AmbulanceType>, first: f64) {
        let (got, stats) = run(fleet, pickup, want, first);
        let want_list = brute(fleet, pickup, want);
        match (got, want_list.first()) {
            (Dispatch::Assigned { result, candidate }, Some((d, p, _))) => {
                // The same expected start and distance as the best (an exact tie
                // may be another ambulance, of another presence with the same delay).
                let best = rank::expected_start(*d, *p, &delays());
                assert_eq!(
                    (candidate.distance_km, candidate.expected_start(&delays())),
                    (*d, best),
                    "{result} is not the best"
                );
                let truth = fleet.iter().find(|t| t.id == result).unwrap();
                assert_eq!(haversine_km(pickup, truth.ranking_point()), *d);
                assert_eq!(candidate.presence, truth.presence);
            }
            (Dispatch::NoneNear, None) => {}
            (got, want) => panic!("got {got:?}, want {want:?} ({stats:?})"),
        }
    }

    const TYPES: [AmbulanceType; 3] = [AmbulanceType::Bls, AmbulanceType::Als, AmbulanceType::Pta];
    const PRESENCES: [CrewPresence; 3] = [
        CrewPresence::Online,
        CrewPresence::Offline,
        CrewPresence::NoCrew,
    ];

    fn fleet_strategy() -> impl Strategy<Value = (f64, f64, f64, Vec<Truth>)> {
        (
            (-80.0f64..80.0, -180.0f64..180.0),
            prop_oneof![0.005f64..0.05, 0.05f64..0.8],
            prop::collection::vec(
                (
                    (-1.0f64..1.0, -1.0f64..1.0),
                    (0usize..3, 0usize..3),
                    prop::option::of(((-1.0f64..1.0, -1.0f64..1.0), 0i64..400)),
                    prop::bool::weighted(0.2),
                ),
                0..60,
            ),
        )
            .prop_map(|((lat, lng), spread, raw)| {
                let at = |(a, b): (f64, f64)| {
                    Point::new(
                        (lat + a * spread).clamp(-89.9, 89.9),
                        wrap_longitude(lng + b * spread),
                    )
                };
                let fleet = raw
                    .into_iter()
                    .enumerate()
                    .map(|(i, (h, (t, p), last, taken))| Truth {
                        id: i as u64 + 1,
                        ambulance_type: TYPES[t],
                        presence: PRESENCES[p],
                        // Hospitals on a coarse grid, so several ambulances share one.
                        hospital: at(((h.0 * 4.0).round() / 4.0, (h.1 * 4.0).round() / 4.0)),
                        last: last.map(|(p, age)| (at(p), age)),
                        taken,
                    })
                    .collect();
                (lat, lng, spread, fleet)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Random fleets (fresh, stale and no positions; three types; three
        /// presences; some taken behind the index's back): the ambulance assigned is
        /// the free one with the soonest expected start by its ranking point (ties
        /// nearer first), whatever the first round's guess.
        #[test]
        fn assigns_the_soonest_starting_free_ambulance_like_brute_force(
            (lat, lng, spread, fleet) in fleet_strategy(),
            (qa, qb) in (-1.0f64..1.0, -1.0f64..1.0),
            want in prop::option::of(0usize..3),
            first in prop_oneof![0.05f64..1.0, 1.0f64..60.0],
        ) {
            let pickup = Point::new((lat + qa * spread).clamp(-89.9, 89.9), wrap_longitude(lng + qb * spread));
            check(&fleet, pickup, want.map(|t| TYPES[t]), first);
        }
    }

    fn ambulance(id: u64, hospital: Point, last: Option<(Point, i64)>) -> Truth {
        Truth {
            id,
            ambulance_type: AmbulanceType::Bls,
            hospital,
            last,
            taken: false,
            presence: CrewPresence::Online,
        }
    }

    #[test]
    fn a_fresh_position_ranks_and_a_stale_one_falls_back_to_the_hospital() {
        let pickup = Point::new(30.0, 74.0);
        // 1: hospital 2 km away, but fresh 10 km away. 2: hospital 5 km away, stale
        // position 1 km away. 3: hospital 8 km away, never reported.
        let fleet = [
            ambulance(
                1,
                Point::new(30.018, 74.0),
                Some((Point::new(30.09, 74.0), 30)),
            ),
            ambulance(
                2,
                Point::new(30.045, 74.0),
                Some((Point::new(30.009, 74.0), 600)),
            ),
            ambulance(3, Point::new(30.072, 74.0), None),
        ];
        let (got, _) = run(&fleet, pickup, None, 0.5);
        let Dispatch::Assigned { result, candidate } = got else {
            panic!("{got:?}")
        };
        assert_eq!(result, 2);
        assert!(candidate.check_position);
        assert!((candidate.distance_km - 5.0).abs() < 0.1);
        // Once 2 is taken, 3 at its hospital beats 1's live position.
        let mut fleet = fleet.to_vec();
        fleet[1].taken = true;
        let (got, stats) = run(&fleet, pickup, None, 0.5);
        assert!(
            matches!(got, Dispatch::Assigned { result: 3, .. }),
            "{got:?}"
        );
        assert!(stats.tries >= 2, "{stats:?}");
        // And with 3 gone as well, 1 by its live position, which needs no check.
        fleet[2].taken = true;
        let (got, _) = run(&fleet, pickup, None, 0.5);
        let Dispatch::Assigned { result, candidate } = got else {
            panic!("{got:?}")
        };
        assert_eq!(result, 1);
        assert!(!candidate.check_position);
    }

    #[test]
    fn an_answering_crew_a_little_farther_beats_a_crewless_ambulance_next_door() {
        let pickup = Point::new(30.0, 74.0);
        let km_north = |km: f64| Point::new(30.0 + km / 111.195, 74.0);
        let crewless = Truth {
            presence: CrewPresence::NoCrew,
            ..ambulance(1, km_north(0.3), None)
        };
        let online = ambulance(2, km_north(0.6), None);
        // The first round proves the crewless one nearest; the search reads on to
        // where an online crew could still start sooner, and finds the crew.
        for first in [0.05, 0.35, 3.0] {
            let (got, stats) = run(&[crewless.clone(), online.clone()], pickup, None, first);
            let Dispatch::Assigned { result, candidate } = got else {
                panic!("{got:?}")
            };
            assert_eq!((result, candidate.presence), (2, CrewPresence::Online));
            assert_eq!(stats.tries, 1, "{stats:?}");
        }
        // 40 km away, the crew loses to the crewless ambulance next door.
        let far = ambulance(2, km_north(40.0), None);
        let (got, _) = run(&[crewless.clone(), far], pickup, None, 0.5);
        assert!(
            matches!(got, Dispatch::Assigned { result: 1, .. }),
            "{got:?}"
        );
        // The crewless one taken by a racer: the next by expected start.
        let taken = Truth {
            taken: true,
            ..online.clone()
        };
        let offline = Truth {
            presence: CrewPresence::Offline,
            ..ambulance(3, km_north(0.2), None)
        };
        let (got, _) = run(&[crewless, taken, offline], pickup, None, 0.5);
        assert!(
            matches!(got, Dispatch::Assigned { result: 3, .. }),
            "{got:?}"
        );
    }

    #[test]
    fn the_type_filter_and_the_radius() {
        let pickup = Point::new(-33.9, 151.2);
        let mut near_als = ambulance(1, Point::new(-33.91, 151.2), None);
        near_als.ambulance_type = AmbulanceType::Als;
        let far_bls = ambulance(2, Point::new(-33.9, 151.75), None); // about 51 km east
        let fleet = [near_als, far_bls];
        let (got, _) = run(&fleet, pickup, Some(AmbulanceType::Als), 3.0);
        assert!(matches!(got, Dispatch::Assigned { result: 1, .. }));
        let (got, stats) = run(&fleet, pickup, Some(AmbulanceType::Bls), 3.0);
        assert_eq!(got, Dispatch::NoneNear);
        // Proving that nothing lies within 50 km took few rounds.
        assert!(stats.search_rounds <= 3, "{stats:?}");
        // A wider radius (the setting) reaches it; a narrower one loses the ALS.
        let (got, _) = run_within(&fleet, pickup, Some(AmbulanceType::Bls), 3.0, 60.0);
        assert!(
            matches!(got, Dispatch::Assigned { result: 2, .. }),
            "{got:?}"
        );
        let (got, _) = run_within(&fleet, pickup, Some(AmbulanceType::Als), 3.0, 1.0);
        assert_eq!(got, Dispatch::NoneNear);
        let (got, _) = run(&[], pickup, None, 3.0);
        assert_eq!(got, Dispatch::NoneNear);
    }

    #[test]
    fn many_taken_ambulances_are_tried_once_each_then_it_gives_up() {
        let pickup = Point::new(12.97, 77.59);
        let fleet: Vec<Truth> = (1..=40)
            .map(|i| Truth {
                taken: true,
                ..ambulance(i, Point::new(12.97 + i as f64 * 0.001, 77.59), None)
            })
            .collect();
        let (got, stats) = run(&fleet, pickup, None, 1.0);
        assert_eq!(got, Dispatch::GaveUp);
        assert_eq!(stats.tries, MAX_TRIES);
        let few = &fleet[..5];
        let (got, stats) = run(few, pickup, None, 1.0);
        assert_eq!(got, Dispatch::NoneNear);
        assert_eq!(stats.tries, 5);
    }

    /// The dispatch over the fleet's entries with `take` answering by ambulance id.
    fn run_taking(
        fleet: &[Truth],
        mut take: impl FnMut(u64) -> Attempt<u64>,
    ) -> (Dispatch<u64>, DispatchStats) {
        let index = geo::MemoryIndex::new(fleet.iter().flat_map(Truth::entries));
        let take = |c: Candidate| std::future::ready(Ok(take(c.entry.ambulance.get())));
        dispatch(
            &index,
            Point::new(1.0, 1.0),
            None,
            (3.0, EMERGENCY_RADIUS_KM),
            &HashMap::new(),
            take,
        )
    }

    #[test]
    fn a_busy_ambulance_is_tried_again_after_the_others_and_a_busy_database_gives_up() {
        let fleet = [
            ambulance(1, Point::new(1.001, 1.0), None),
            ambulance(2, Point::new(1.002, 1.0), None),
        ];
        let mut tried = vec![];
        let (got, stats) = run_taking(&fleet, |id| {
            tried.push(id);
            match (id, tried.len()) {
                (1, 1) => Attempt::Busy,
                (1, _) => Attempt::Assigned(1),
                _ => Attempt::Taken,
            }
        });
        assert!(
            matches!(got, Dispatch::Assigned { result: 1, .. }),
            "{got:?}"
        );
        assert_eq!((tried, stats.tries), (vec![1, 2, 1], 3));
        // Busy every time: three in a row, and it stops.
        let (got, stats) = run_taking(&fleet, |_| Attempt::Busy);
        assert_eq!((got, stats.tries), (Dispatch::GaveUp, MAX_BUSY_STREAK));
    }

    #[test]
    fn a_listing_search_proves_the_k_nearest_ambulances() {
        // 15 ambulances 1..=15 km north, 4 of them with a fresh position beside
        // their hospital (two entries each, one ambulance).
        let fleet: Vec<Truth> = (1..=15)
            .map(|i| {
                let hospital = Point::new(12.0 + i as f64 / 111.2, 77.0);
                let last = (i % 4 == 0).then_some((Point::new(hospital.lat + 0.0001, 77.0), 10));
                ambulance(i, hospital, last)
            })
            .collect();
        let index = geo::MemoryIndex::new(fleet.iter().flat_map(Truth::entries));
        let mut fetch = |ranges: Vec<Range>| std::future::ready(Ok(index.read(&ranges)));
        let mut online = |ids: Vec<Id>| {
            std::future::ready(Ok(ids
                .into_iter()
                .map(|id| (id, CrewPresence::Online))
                .collect()))
        };
        let mut dispatcher =
            Dispatcher::new(Point::new(12.0, 77.0), None, NOW, 0.5, delays()).listing(10);
        let found: Result<Vec<Candidate>, Infallible> =
            futures::executor::block_on(dispatcher.search(&mut fetch, &mut online));
        let ids: Vec<u64> = found.unwrap()[..10]
            .iter()
            .map(|c| c.entry.ambulance.get())
            .collect();
        assert_eq!(ids, (1..=10).collect::<Vec<u64>>());
    }

    #[test]
    fn ambulances_at_one_hospital_are_tried_in_a_random_order() {
        let fleet: Vec<Truth> = (1..=10)
            .map(|i| ambulance(i, Point::new(48.85, 2.35), None))
            .collect();
        let firsts: HashSet<u64> = (0..40)
            .map(
                |_| match run(&fleet, Point::new(48.86, 2.35), None, 3.0).0 {
                    Dispatch::Assigned { result, .. } => result,
                    other => panic!("{other:?}"),
                },
            )
            .collect();
        assert!(firsts.len() > 3, "{firsts:?}");
    }
}
