//! The nearest-hospital search from memory (docs/decisions/0006-nearest-search.md).
//!
//! Each warm instance holds every hospital (the fields a search answers) in a k-d
//! tree ([`domain::geo::points`]), loaded from a snapshot kept in the table, and
//! answers a search with one strongly consistent GetItem of a small version item
//! plus a lookup in memory.
//!
//! # Items (all in the main table)
//!
//! | item | pk | sk | holds |
//! |---|---|---|---|
//! | version | `HOSPITAL_INDEX` | `VERSION` | `epoch`, `generation`, `log`: the last [`LOG_LEN`] changes as `[generation, chunk]` |
//! | manifest | `HOSPITAL_INDEX` | `MANIFEST` | `epoch`, `generation`, `chunks`: `{chunk: generation of its last write}` |
//! | chunk | `HOSPITAL_INDEX#<epoch>#<group>` | `CHUNK#<chunk>` | `generation`, `count`, `data`: the hospitals with `id / 100 = chunk`, deflated |
//!
//! A group is [`CHUNKS_PER_GROUP`] chunks, one partition read by one Query at cold
//! start (a few Queries at once instead of one per chunk, so the read units follow
//! the bytes, not the item count). An epoch is one build of the whole snapshot
//! ([`Index::write_hospital_index`]); within it, chunks are rewritten in place.
//!
//! # Writes
//!
//! Every hospital add or removal goes in one transaction with: its chunk rewritten
//! (the generation `g + 1`), the version item's `generation` moved from `g` to
//! `g + 1` on the condition that it is `g` (and the epoch unchanged) with the change
//! appended to its log, and the manifest's entry for the chunk set to `g + 1`. Two
//! writes that read the same `g` cannot both commit; the loser reads again and
//! retries ([`Index::commit_with_index`]). A failed hospital condition leaves all
//! of it unwritten.
//!
//! # Why a search is never stale
//!
//! A search first reads the version item with a strongly consistent GetItem, which
//! reflects every write acknowledged before the search started. If this instance's
//! copy is at that generation or later, it answers from memory. Otherwise it brings
//! the copy up to the generation read, before answering:
//! - the log holds every generation after the copy's (consecutive numbers): the
//!   chunks it names are read with strongly consistent GetItems;
//! - else (a new instance, another epoch, or more than [`LOG_LEN`] writes since):
//!   the manifest (strongly consistent, written in the same transactions, so at
//!   least as new as the version read) names every chunk and its generation; the
//!   chunks are read with eventually consistent Queries (half the read units), and
//!   any chunk missing or older than its manifest generation is read again strongly
//!   consistently. A chunk newer than the manifest is kept (it is a committed
//!   write); its generation is remembered, so the log will not ask for it again.

use domain::refusal::Conflict;
use std::{
    collections::{BTreeMap, BTreeSet, HashMap},
    sync::Arc,
};

use backon::Retryable;
use futures::{StreamExt, TryStreamExt, future::try_join_all};
use serde::{Deserialize, Serialize};

pub use super::hospital_snapshot::{CHUNK_SIZE, CHUNKS_PER_GROUP};
use super::{
    hospital_snapshot::{
        Chunk, ChunkItem, HospitalIndex, IndexChange, Rows, Snapshot, chunk_key, chunk_of,
    },
    keys::{self, Key},
    retry,
    table::{Query, Store},
    tx::{Label, Tx, TxError, Write},
};
use crate::error::StoreError;
use domain::{geo::Point, hospital::Hospital};

/// Changes the version item remembers. An instance that missed more reloads whole.
pub const LOG_LEN: usize = 32;
/// Retries of a hospital write that lost the version item to another write (every
/// hospital write moves it, so concurrent admins take turns), with the store's
/// retry policy.
const WRITE_RETRIES: usize = 10;
/// Tries of a full load that met a snapshot being rebuilt underneath it.
const LOAD_ATTEMPTS: u32 = 3;
/// Chunk items written at once by a build.
const BUILD_WRITES_AT_ONCE: usize = 16;

#[derive(Debug, Clone, Serialize, Deserialize)]
struct VersionItem {
    #[serde(flatten)]
    key: Key,
    epoch: String,
    generation: u64,
    /// `(generation, chunk)` of the last [`LOG_LEN`] writes, oldest first.
    log: Vec<(u64, u64)>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct ManifestItem {
    #[serde(flatten)]
    key: Key,
    epoch: String,
    generation: u64,
    /// Chunk number (as text: a map key) → the generation of its last write.
    chunks: HashMap<String, u64>,
}

/// What one search cost (for the benchmark and the logs).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct NearestStats {
    /// Sequential DynamoDB rounds (calls made at once count once; a Query's further
    /// pages, which a group of chunks needs only past 1 MB, are not counted).
    pub rounds: usize,
    /// Chunks read to bring this instance's copy up to date (0 when it was).
    pub chunks_read: usize,
}

/// What [`Index::write_hospital_index`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexBuild {
    pub epoch: String,
    pub generation: u64,
    pub hospitals: usize,
    pub chunks: usize,
    /// Bytes of the chunks' `data` (what a cold start reads, give or take the keys).
    pub bytes: usize,
}

/// How a build of the index ended, when it did not fail.
enum IndexWrite {
    Built(IndexBuild),
    /// A hospital write, or another build, moved the version on first: this build's
    /// chunks were deleted, and the other's index stands.
    Raced,
}

/// The index's reads and writes, over the `Store` that holds this instance's copy:
/// crate-private; [`super::hospitals::Hospitals`] is the handle callers use.
#[derive(Clone, Copy)]
pub(crate) struct Index<'a> {
    pub(super) store: &'a Store,
}

impl Index<'_> {
    /// The `k` nearest hospitals within `radius_km`, nearest first, with distances
    /// (km, rounded to metres): from this instance's copy of the index, after one
    /// strongly consistent read of the version item. A table without the version
    /// item has no hospital: the first hospital write builds the index, and
    /// `manage migrate` builds it for data from before it existed.
    pub(crate) async fn nearest_hospitals(
        self,
        center: Point,
        k: usize,
        radius_km: f64,
    ) -> Result<(Vec<Hospital>, NearestStats), StoreError> {
        let mut stats = NearestStats {
            rounds: 1,
            ..NearestStats::default()
        };
        let Some(version) = self.read_version().await? else {
            return Ok((vec![], stats));
        };
        let snapshot = self.current_snapshot(&version, &mut stats).await?;
        let found = snapshot.nearest(center, k, radius_km);
        Ok((found, stats))
    }

    /// The `k` nearest hospitals from this instance's copy of the index as it is,
    /// reading nothing: it may miss the latest writes, and is `None` before this
    /// instance's first search loaded it. For guesses only (where the emergency
    /// search for a free ambulance starts), never for an answer.
    pub(crate) fn nearest_hospitals_held(
        self,
        center: Point,
        k: usize,
        radius_km: f64,
    ) -> Option<Vec<Hospital>> {
        let snapshot = self.store.hospital_index().held()?;
        Some(snapshot.nearest(center, k, radius_km))
    }

    /// This instance's copy, brought up to at least `version` first if it is older.
    async fn current_snapshot(
        self,
        version: &VersionItem,
        stats: &mut NearestStats,
    ) -> Result<Arc<Snapshot>, StoreError> {
        let index: &HospitalIndex = self.store.hospital_index();
        let fresh = |s: &Option<Arc<Snapshot>>| {
            s.as_ref()
                .filter(|s| s.generation >= version.generation)
                .cloned()
        };
        if let Some(s) = fresh(&index.held()) {
            return Ok(s);
        }
        let _one_at_a_time = index.refresh.lock().await;
        let held = index.held();
        if let Some(s) = fresh(&held) {
            return Ok(s);
        }
        let caught_up = match &held {
            Some(held) => self.catch_up(held, version, stats).await?,
            None => None,
        };
        let next = Arc::new(match caught_up {
            Some(s) => s,
            None => self.load_snapshot(stats).await?,
        });
        index.hold(next.clone());
        Ok(next)
    }

    async fn read_version(self) -> Result<Option<VersionItem>, StoreError> {
        self.store.get(&keys::hospital_index_version()).await
    }

    /// The index's current generation (one more per hospital write or build), or
    /// `None` when the table has no index yet.
    pub(crate) async fn hospital_index_generation(self) -> Result<Option<u64>, StoreError> {
        Ok(self.read_version().await?.map(|v| v.generation))
    }

    /// `held` brought up to `version` by the chunks its log names; `None` when the
    /// log does not reach back to `held` (or another epoch began): load whole.
    async fn catch_up(
        self,
        held: &Snapshot,
        version: &VersionItem,
        stats: &mut NearestStats,
    ) -> Result<Option<Snapshot>, StoreError> {
        let next = held.generation + 1;
        if held.epoch != version.epoch || !version.log.iter().any(|(g, _)| *g == next) {
            return Ok(None);
        }
        let mut wanted: BTreeMap<u64, u64> = BTreeMap::new();
        for (generation, chunk) in &version.log {
            if *generation >= next && *generation > held.chunk_generation(*chunk) {
                let g = wanted.entry(*chunk).or_default();
                *g = (*g).max(*generation);
            }
        }
        let read = self
            .chunks_consistent(&held.epoch, wanted.keys(), stats)
            .await?;
        let mut chunks = held.chunks.clone();
        for (number, generation) in wanted {
            match read.get(&number) {
                Some(chunk) if chunk.generation >= generation => {
                    chunks.insert(number, chunk.clone());
                }
                // Gone or older under a strongly consistent read: the snapshot was
                // rebuilt meanwhile. Load whole.
                _ => return Ok(None),
            }
        }
        Ok(Some(Snapshot::new(
            held.epoch.clone(),
            version.generation,
            chunks,
        )))
    }

    /// Chunks by number, strongly consistent, all at once.
    async fn chunks_consistent(
        self,
        epoch: &str,
        numbers: impl Iterator<Item = &u64>,
        stats: &mut NearestStats,
    ) -> Result<BTreeMap<u64, Arc<Chunk>>, StoreError> {
        let numbers: Vec<u64> = numbers.copied().collect();
        if numbers.is_empty() {
            return Ok(BTreeMap::new());
        }
        let items = try_join_all(numbers.iter().map(|c| async move {
            self.store
                .get::<ChunkItem>(&chunk_key(epoch, *c))
                .await?
                .map(Chunk::parse)
                .transpose()
        }))
        .await?;
        stats.rounds += 1;
        stats.chunks_read += numbers.len();
        Ok(items
            .into_iter()
            .flatten()
            .map(|c| (c.number, Arc::new(c)))
            .collect())
    }

    /// The whole index: the manifest, then every group's chunks at once.
    async fn load_snapshot(self, stats: &mut NearestStats) -> Result<Snapshot, StoreError> {
        for _ in 0..LOAD_ATTEMPTS {
            let manifest: ManifestItem = self
                .store
                .get(&keys::hospital_index_manifest())
                .await?
                .ok_or_else(|| StoreError::internal("hospital index: version without manifest"))?;
            stats.rounds += 1;
            let mut expected = BTreeMap::new();
            for (chunk, generation) in &manifest.chunks {
                let chunk: u64 = chunk.parse().map_err(StoreError::internal)?;
                expected.insert(chunk, *generation);
            }
            let groups: BTreeSet<u64> = expected.keys().map(|c| c / CHUNKS_PER_GROUP).collect();
            let epoch = &manifest.epoch;
            let read = try_join_all(groups.iter().map(|g| self.chunk_group(epoch, *g))).await?;
            if !groups.is_empty() {
                stats.rounds += 1;
            }
            let mut chunks = BTreeMap::new();
            for items in read {
                for chunk in items {
                    stats.chunks_read += 1;
                    chunks.insert(chunk.number, Arc::new(chunk));
                }
            }
            let behind: Vec<u64> = expected
                .iter()
                .filter(|(c, g)| chunks.get(*c).is_none_or(|chunk| chunk.generation < **g))
                .map(|(c, _)| *c)
                .collect();
            let again = self.chunks_consistent(epoch, behind.iter(), stats).await?;
            if behind.iter().any(|c| {
                again
                    .get(c)
                    .is_none_or(|chunk| chunk.generation < expected[c])
            }) {
                // Deleted under us: a rebuild moved to another epoch. Start over.
                continue;
            }
            chunks.extend(again);
            return Ok(Snapshot::new(manifest.epoch, manifest.generation, chunks));
        }
        Err(StoreError::Unavailable)
    }

    /// One group's chunks, eventually consistent (half the read units; the caller
    /// checks each chunk's generation).
    async fn chunk_group(self, epoch: &str, group: u64) -> Result<Vec<Chunk>, StoreError> {
        let items: Vec<ChunkItem> = self
            .store
            .query_all(
                Query::table("pk = :p")
                    .value(":p", keys::hospital_index_group(epoch, group))
                    .eventually_consistent(),
            )
            .await?;
        items.into_iter().map(Chunk::parse).collect()
    }

    /// Commits the transaction `base` builds together with the index update for
    /// `change`. When only the index's version item refused (another hospital write
    /// committed since it was read), reads it again and retries with the store's
    /// policy; any other refusal is the caller's, with its labels.
    pub(crate) async fn commit_with_index(
        self,
        change: IndexChange<'_>,
        base: impl Fn() -> Result<Tx, StoreError>,
    ) -> Result<(), TxError> {
        let attempt = || async {
            let mut tx = base()?;
            for write in self.index_update(&change).await? {
                tx.push(Label::HospitalIndex, write);
            }
            self.store.commit(tx).await
        };
        let lost_the_version = |e: &TxError| matches!(e, TxError::Refused(r) if r.labels().iter().all(|l| *l == Label::HospitalIndex));
        match attempt
            .retry(retry::policy().with_max_times(WRITE_RETRIES))
            .when(lost_the_version)
            .await
        {
            Err(e) if lost_the_version(&e) => {
                tracing::warn!("hospital index: version item still contended after retries");
                Err(TxError::Api(StoreError::Unavailable))
            }
            other => other,
        }
    }

    /// The chunk rewritten, the version item moved on (on the condition that it did
    /// not move since it was read) and the manifest entry set, for one hospital
    /// write. Builds the index first if the table has none.
    async fn index_update(self, change: &IndexChange<'_>) -> Result<Vec<Write>, StoreError> {
        let version = match self.read_version().await? {
            Some(v) => v,
            None => {
                // Built, or built by another write at the same moment: either way
                // there is a version to read now.
                let hospitals = self.store.hospitals().all_hospitals_for_index().await?;
                self.try_write_hospital_index(hospitals).await?;
                self.read_version()
                    .await?
                    .ok_or_else(|| StoreError::internal("hospital index: built but not found"))?
            }
        };
        let number = chunk_of(change.id());
        let rows = match self
            .store
            .get::<ChunkItem>(&chunk_key(&version.epoch, number))
            .await?
        {
            Some(item) => Chunk::parse(item)?.rows,
            None => Rows::default(),
        };
        let generation = version.generation + 1;
        let chunk = Chunk {
            number,
            generation,
            rows: change.apply(&rows),
        };
        let mut log = version.log.clone();
        log.push((generation, number));
        let drop = log.len().saturating_sub(LOG_LEN);
        log.drain(..drop);
        Ok(vec![
            Write::put(&chunk.item(&version.epoch)?),
            Write::update(keys::hospital_index_version(), "SET #g = :new, #l = :log")
                .when("#g = :old AND #e = :epoch")
                .name("#g", "generation")
                .name("#l", "log")
                .name("#e", "epoch")
                .value(":new", generation)
                .value(":old", version.generation)
                .value(":log", log)
                .value(":epoch", &version.epoch),
            Write::update(
                keys::hospital_index_manifest(),
                "SET #g = :new, #m.#c = :new",
            )
            .name("#g", "generation")
            .name("#m", "chunks")
            .name("#c", &number.to_string())
            .value(":new", generation),
        ])
    }

    /// Writes a new epoch of the index holding exactly `hospitals`, then makes it
    /// current in one transaction, on the condition that no hospital write committed
    /// since the version item was read (else 409 and the new epoch is deleted). The
    /// old epoch's chunks are deleted afterwards (an instance loading them meanwhile
    /// finds them gone and starts over from the new manifest).
    pub(crate) async fn write_hospital_index(
        self,
        hospitals: Vec<Hospital>,
    ) -> Result<IndexBuild, StoreError> {
        match self.try_write_hospital_index(hospitals).await? {
            IndexWrite::Built(build) => Ok(build),
            IndexWrite::Raced => Err(Conflict::HospitalIndexRaced.into()),
        }
    }

    /// [`Index::write_hospital_index`], saying in its type whether another write won
    /// the race (then nothing of this build stays).
    async fn try_write_hospital_index(
        self,
        mut hospitals: Vec<Hospital>,
    ) -> Result<IndexWrite, StoreError> {
        let manifest_key = keys::hospital_index_manifest();
        let (old, old_manifest) = tokio::try_join!(
            self.read_version(),
            self.store.get::<ManifestItem>(&manifest_key)
        )?;
        let generation = old.as_ref().map_or(1, |v| v.generation + 1);
        let epoch = format!("{:016x}", rand::random::<u64>());
        hospitals.sort_by_key(|h| h.id);
        let mut chunks: Vec<Chunk> = vec![];
        for group in hospitals.chunk_by(|a, b| chunk_of(a.id) == chunk_of(b.id)) {
            chunks.push(Chunk {
                number: chunk_of(group[0].id),
                generation,
                rows: Rows::from_hospitals(group),
            });
        }
        let items: Vec<ChunkItem> = chunks
            .iter()
            .map(|c| c.item(&epoch))
            .collect::<Result<_, _>>()?;
        let bytes = items.iter().map(|i| i.data.len()).sum();
        let keys: Vec<Key> = items.iter().map(|i| i.key.clone()).collect();
        self.put_all(items).await?;

        let version = VersionItem {
            key: keys::hospital_index_version(),
            epoch: epoch.clone(),
            generation,
            log: vec![],
        };
        let manifest = ManifestItem {
            key: keys::hospital_index_manifest(),
            epoch: epoch.clone(),
            generation,
            chunks: chunks
                .iter()
                .map(|c| (c.number.to_string(), generation))
                .collect(),
        };
        let put_version = match &old {
            None => Write::put(&version).absent(),
            Some(old) => Write::put(&version)
                .when("#g = :old")
                .name("#g", "generation")
                .value(":old", old.generation),
        };
        let mut flip = Tx::new();
        flip.push(Label::HospitalIndex, put_version)
            .push(Label::HospitalIndex, Write::put(&manifest));
        if let Err(e) = self.store.commit(flip).await {
            self.delete_all(keys).await;
            return match e {
                TxError::Refused(_) => Ok(IndexWrite::Raced),
                other => Err(other.into_api()),
            };
        }
        if let Some(old) = old_manifest {
            let old_keys = old
                .chunks
                .keys()
                .filter_map(|c| c.parse::<u64>().ok())
                .map(|c| chunk_key(&old.epoch, c))
                .collect();
            self.delete_all(old_keys).await;
        }
        Ok(IndexWrite::Built(IndexBuild {
            epoch,
            generation,
            hospitals: hospitals.len(),
            chunks: chunks.len(),
            bytes,
        }))
    }

    /// PutItems, [`BUILD_WRITES_AT_ONCE`] at a time (the admin function may
    /// PutItem but not BatchWriteItem).
    async fn put_all(self, items: Vec<ChunkItem>) -> Result<(), StoreError> {
        futures::stream::iter(items)
            .map(|item| async move { self.store.put_item(&item).await })
            .buffer_unordered(BUILD_WRITES_AT_ONCE)
            .try_collect::<Vec<()>>()
            .await?;
        Ok(())
    }

    /// Best-effort deletes of chunks no version names (left over, harmless if kept).
    async fn delete_all(self, keys: Vec<Key>) {
        let results: Vec<Result<(), StoreError>> = futures::stream::iter(keys)
            .map(|k| async move { self.store.delete_item(&k).await })
            .buffer_unordered(BUILD_WRITES_AT_ONCE)
            .collect()
            .await;
        let failed = results.iter().filter(|r| r.is_err()).count();
        if failed > 0 {
            tracing::warn!(failed, "hospital index: could not delete unused chunks");
        }
    }
}
