//! The H3 search over items held in memory, as DynamoDB would hold them: the
//! property tests' index and the `geo_tune` tool's (`tools/perf/src/bin/geo_tune.rs`).

use std::{collections::BTreeMap, convert::Infallible};

use super::{
    Point,
    cells::Range,
    search::{Located, SearchParams, SearchStats, nearest},
};

/// The index in memory, as DynamoDB holds it (partition → geosk → items): the same
/// search without a database, for the property tests and the `geo_tune` tool.
pub struct MemoryIndex<T> {
    partitions: BTreeMap<String, BTreeMap<u64, Vec<T>>>,
}

impl<T: Located + Clone> MemoryIndex<T> {
    pub fn new(items: impl IntoIterator<Item = T>) -> Self {
        let mut partitions: BTreeMap<String, BTreeMap<u64, Vec<T>>> = BTreeMap::new();
        for item in items {
            let (pk, sk) = item.geo_keys();
            partitions
                .entry(pk)
                .or_default()
                .entry(sk)
                .or_default()
                .push(item);
        }
        MemoryIndex { partitions }
    }

    /// [`nearest`] over this index.
    pub fn nearest(
        &self,
        params: SearchParams,
        at: Point,
        k: usize,
        radius_km: f64,
    ) -> (Vec<(T, f64)>, SearchStats) {
        let fetch =
            |ranges: Vec<Range>| std::future::ready(Ok::<_, Infallible>(self.read(&ranges)));
        match futures::executor::block_on(nearest(params, at, k, radius_km, fetch)) {
            Ok(found) => found,
            Err(never) => match never {},
        }
    }

    /// The items of some ranges, as the Queries of a search's round read them.
    pub fn read(&self, ranges: &[Range]) -> Vec<T> {
        let mut out = vec![];
        for r in ranges {
            if let Some(part) = self.partitions.get(&r.partition) {
                for items in part.range(r.lo..=r.hi).map(|(_, v)| v) {
                    out.extend(items.iter().cloned());
                }
            }
        }
        out
    }
}
