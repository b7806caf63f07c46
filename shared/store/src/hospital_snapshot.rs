//! The nearest-hospital index as one instance holds it in memory, and its chunks'
//! layout and encoding (docs/decisions/0006-nearest-search.md): pure data, no table
//! access, so the [`Store`](super::table::Store) can hold the copy without the
//! module that reads and writes it (`hospital_index`).

use std::{
    collections::BTreeMap,
    io::{Read, Write as _},
    sync::{Arc, PoisonError, RwLock},
};

use serde::{Deserialize, Serialize};

use super::keys::{self, Key};
use crate::error::StoreError;
use domain::{
    geo::{Point, points::PointIndex},
    hospital::Hospital,
    types::Id,
};

/// Hospitals per chunk, by id: chunk `c` holds ids `100c ..= 100c + 99`. At the
/// longest names, addresses and contacts the API accepts (800 characters of up to 4
/// bytes) 100 hospitals still fit in one 400 KB item, uncompressed.
pub const CHUNK_SIZE: u64 = 100;
/// Chunks per partition (one Query each at cold start).
pub const CHUNKS_PER_GROUP: u64 = 64;

/// The first byte of a chunk's `data`: how the rest is encoded. Format 1 has no
/// diversion column ([`RowsV1`]: read as every hospital open); format 2 has it.
const FORMAT_DEFLATED_POSTCARD: u8 = 1;
const FORMAT_DEFLATED_POSTCARD_2: u8 = 2;

pub(super) fn chunk_of(id: Id) -> u64 {
    id.get() / CHUNK_SIZE
}

pub(super) fn chunk_key(epoch: &str, chunk: u64) -> Key {
    keys::hospital_index_chunk(epoch, chunk / CHUNKS_PER_GROUP, chunk)
}

/// One chunk's hospitals, in id order, column by column (a few allocations per
/// chunk instead of three strings per hospital: a cold start decodes 100 000).
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct Rows {
    pub(super) ids: Vec<u64>,
    pub(super) latitude: Vec<f64>,
    pub(super) longitude: Vec<f64>,
    /// Each hospital's name, address and contact (empty when none), one after the
    /// other; `ends[3i..3i + 3]` are where hospital i's three end.
    pub(super) text: String,
    pub(super) ends: Vec<u32>,
    pub(super) has_contact: Vec<bool>,
    /// Until when each is on diversion (epoch milliseconds), 0 when it is not
    /// (docs/decisions/0026-receiving-hospital.md): the nearest search shows it
    /// without a read of its own.
    pub(super) diverted_until: Vec<i64>,
}

/// A chunk of format 1, written before diversions existed.
#[derive(Deserialize)]
struct RowsV1 {
    ids: Vec<u64>,
    latitude: Vec<f64>,
    longitude: Vec<f64>,
    text: String,
    ends: Vec<u32>,
    has_contact: Vec<bool>,
}

impl From<RowsV1> for Rows {
    fn from(v: RowsV1) -> Rows {
        Rows {
            diverted_until: vec![0; v.ids.len()],
            ids: v.ids,
            latitude: v.latitude,
            longitude: v.longitude,
            text: v.text,
            ends: v.ends,
            has_contact: v.has_contact,
        }
    }
}

fn epoch_ms(t: domain::types::Timestamp) -> i64 {
    (t.get().unix_timestamp_nanos() / 1_000_000) as i64
}

fn from_epoch_ms(ms: i64) -> Option<domain::types::Timestamp> {
    if ms <= 0 {
        return None;
    }
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .ok()
        .and_then(domain::types::Timestamp::new)
}

impl Rows {
    pub(super) fn len(&self) -> usize {
        self.ids.len()
    }

    pub(super) fn from_hospitals(hospitals: &[Hospital]) -> Rows {
        let mut rows = Rows::default();
        for h in hospitals {
            rows.ids.push(h.id.get());
            rows.latitude.push(h.latitude);
            rows.longitude.push(h.longitude);
            for part in [&h.name, &h.address, h.contact_info.as_deref().unwrap_or("")] {
                rows.text.push_str(part);
                rows.ends.push(rows.text.len() as u32);
            }
            rows.has_contact.push(h.contact_info.is_some());
            rows.diverted_until
                .push(h.on_diversion_until.map_or(0, epoch_ms));
        }
        rows
    }

    /// Row `i` (checked by [`Rows::decode`]).
    pub(super) fn hospital(&self, i: usize) -> Hospital {
        let start = if i == 0 {
            0
        } else {
            self.ends[3 * i - 1] as usize
        };
        let [a, b, c] = [0, 1, 2].map(|j| self.ends[3 * i + j] as usize);
        Hospital {
            id: Id::try_from(self.ids[i]).expect("checked by decode"),
            name: self.text[start..a].to_owned(),
            address: self.text[a..b].to_owned(),
            latitude: self.latitude[i],
            longitude: self.longitude[i],
            contact_info: self.has_contact[i].then(|| self.text[b..c].to_owned()),
            distance: None,
            on_diversion_until: from_epoch_ms(self.diverted_until[i]),
        }
    }

    pub(super) fn hospitals(&self) -> Vec<Hospital> {
        (0..self.len()).map(|i| self.hospital(i)).collect()
    }

    pub(super) fn encode(&self) -> Result<Vec<u8>, StoreError> {
        let raw = postcard::to_allocvec(self).map_err(StoreError::internal)?;
        let mut out = flate2::write::DeflateEncoder::new(
            vec![FORMAT_DEFLATED_POSTCARD_2],
            flate2::Compression::default(),
        );
        out.write_all(&raw).map_err(StoreError::internal)?;
        out.finish().map_err(StoreError::internal)
    }

    /// Decodes and checks a chunk: columns of one length, ids valid and increasing,
    /// text offsets increasing and on character boundaries.
    pub(super) fn decode(data: &[u8]) -> Result<Rows, StoreError> {
        let (format, deflated) = match data.split_first() {
            Some((&f, rest))
                if f == FORMAT_DEFLATED_POSTCARD || f == FORMAT_DEFLATED_POSTCARD_2 =>
            {
                (f, rest)
            }
            _ => return Err(StoreError::internal("hospital index chunk: unknown format")),
        };
        let mut raw = Vec::with_capacity(deflated.len() * 3);
        flate2::read::DeflateDecoder::new(deflated)
            .read_to_end(&mut raw)
            .map_err(StoreError::internal)?;
        let rows: Rows = if format == FORMAT_DEFLATED_POSTCARD {
            postcard::from_bytes::<RowsV1>(&raw)
                .map_err(StoreError::internal)?
                .into()
        } else {
            postcard::from_bytes(&raw).map_err(StoreError::internal)?
        };
        let n = rows.ids.len();
        let columns_agree = rows.latitude.len() == n
            && rows.longitude.len() == n
            && rows.has_contact.len() == n
            && rows.diverted_until.len() == n
            && rows.ends.len() == 3 * n;
        let ids_ok = rows.ids.windows(2).all(|w| w[0] < w[1])
            && rows.ids.iter().all(|id| Id::try_from(*id).is_ok());
        let mut last = 0;
        let text_ok = rows.ends.iter().all(|end| {
            let end = *end as usize;
            let ok = end >= last && rows.text.is_char_boundary(end);
            last = end;
            ok
        });
        if columns_agree && ids_ok && text_ok {
            Ok(rows)
        } else {
            Err(StoreError::internal(
                "hospital index chunk: inconsistent columns",
            ))
        }
    }
}

/// A chunk as stored.
#[derive(Serialize, Deserialize)]
pub(super) struct ChunkItem {
    #[serde(flatten)]
    pub(super) key: Key,
    pub(super) chunk: u64,
    pub(super) generation: u64,
    pub(super) count: usize,
    #[serde(with = "serde_bytes")]
    pub(super) data: Vec<u8>,
}

/// A chunk as held in memory.
#[derive(Debug)]
pub(super) struct Chunk {
    pub(super) number: u64,
    pub(super) generation: u64,
    pub(super) rows: Rows,
}

impl Chunk {
    pub(super) fn item(&self, epoch: &str) -> Result<ChunkItem, StoreError> {
        Ok(ChunkItem {
            key: chunk_key(epoch, self.number),
            chunk: self.number,
            generation: self.generation,
            count: self.rows.len(),
            data: self.rows.encode()?,
        })
    }

    pub(super) fn parse(item: ChunkItem) -> Result<Chunk, StoreError> {
        Ok(Chunk {
            number: item.chunk,
            generation: item.generation,
            rows: Rows::decode(&item.data)?,
        })
    }
}

/// One instance's copy of the index at one generation: immutable, replaced whole.
pub(super) struct Snapshot {
    pub(super) epoch: String,
    /// Every write up to this generation is in the copy (some chunks may be newer).
    pub(super) generation: u64,
    pub(super) chunks: BTreeMap<u64, Arc<Chunk>>,
    /// Point `i` of `points` is row `entries[i].1` of chunk `entries[i].0`; in id
    /// order, so equal distances come in id order.
    pub(super) entries: Vec<(Arc<Chunk>, usize)>,
    pub(super) points: PointIndex,
}

impl Snapshot {
    pub(super) fn new(
        epoch: String,
        generation: u64,
        chunks: BTreeMap<u64, Arc<Chunk>>,
    ) -> Snapshot {
        let mut entries = Vec::new();
        let mut points = Vec::new();
        for chunk in chunks.values() {
            for row in 0..chunk.rows.len() {
                entries.push((chunk.clone(), row));
                points.push(Point::new(
                    chunk.rows.latitude[row],
                    chunk.rows.longitude[row],
                ));
            }
        }
        Snapshot {
            epoch,
            generation,
            chunks,
            entries,
            points: PointIndex::new(points),
        }
    }

    pub(super) fn chunk_generation(&self, chunk: u64) -> u64 {
        self.chunks.get(&chunk).map_or(0, |c| c.generation)
    }

    pub(super) fn nearest(&self, at: Point, k: usize, radius_km: f64) -> Vec<Hospital> {
        self.points
            .nearest(at, k, radius_km)
            .into_iter()
            .map(|(i, d)| {
                let (chunk, row) = &self.entries[i];
                Hospital {
                    distance: Some((d * 1000.0).round() / 1000.0),
                    ..chunk.rows.hospital(*row)
                }
            })
            .collect()
    }
}

/// What a hospital write does to the index.
pub(crate) enum IndexChange<'a> {
    Put(&'a Hospital),
    Remove(Id),
}

impl IndexChange<'_> {
    pub(super) fn id(&self) -> Id {
        match self {
            IndexChange::Put(h) => h.id,
            IndexChange::Remove(id) => *id,
        }
    }

    pub(super) fn apply(&self, rows: &Rows) -> Rows {
        let id = self.id();
        let mut hospitals: Vec<Hospital> = rows
            .hospitals()
            .into_iter()
            .filter(|h| h.id != id)
            .collect();
        if let IndexChange::Put(h) = self {
            let at = hospitals.partition_point(|x| x.id < id);
            hospitals.insert(
                at,
                Hospital {
                    distance: None,
                    ..(*h).clone()
                },
            );
        }
        Rows::from_hospitals(&hospitals)
    }
}

/// This instance's copy of the index (one per [`Store`](super::table::Store), i.e.
/// per warm Lambda instance); empty until the first search. What brings it up to
/// date is `store.hospitals().nearest_hospitals` (`hospital_index`): this only holds it.
#[derive(Default)]
pub struct HospitalIndex {
    held: RwLock<Option<Arc<Snapshot>>>,
    /// One refresh at a time; searches that need the same one wait for it.
    pub(super) refresh: tokio::sync::Mutex<()>,
}

impl HospitalIndex {
    pub(super) fn held(&self) -> Option<Arc<Snapshot>> {
        self.held
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    pub(super) fn hold(&self, snapshot: Arc<Snapshot>) {
        *self.held.write().unwrap_or_else(PoisonError::into_inner) = Some(snapshot);
    }
}
