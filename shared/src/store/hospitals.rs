//! Hospitals: adding, paging by name, the nearest search on the H3 geo index (for a
//! table whose in-memory index does not exist yet: `hospital_index`, which every
//! add and removal keeps current in the same transaction). (Removing one takes its
//! ambulances: `cross_aggregate`.)

use futures::future::try_join_all;
use serde::{Deserialize, Serialize};

use super::{
    counters::{self, Total},
    hospital_index::IndexBuild,
    hospital_snapshot::IndexChange,
    keys::{self, Key},
    paging::CountedList,
    schema::{GEO, LIST},
    table::{Query, Store},
    tx::{Label, Tx, TxError, Write},
};
use crate::{
    domain::{
        hospital::{Hospital, NewHospital},
        page::Page,
    },
    error::ApiError,
    geo::{self, Located, Point, Range, SearchParams, SearchStats},
    types::{Id, LatLng, now_rfc3339},
};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct HospitalItem {
    #[serde(flatten)]
    key: Key,
    pub(crate) id: Id,
    pub(crate) name: String,
    pub(crate) address: String,
    pub(crate) latitude: f64,
    pub(crate) longitude: f64,
    contact_info: Option<String>,
    /// Kept in the same transactions as ambulance adds and removes, so a removal
    /// can prove it saw every ambulance of the hospital.
    #[serde(default)]
    ambulance_count: u64,
    listpk: String,
    listsk: String,
    geopk: String,
    geosk: u64,
    created_at: String,
}

impl From<HospitalItem> for Hospital {
    fn from(i: HospitalItem) -> Self {
        Hospital {
            id: i.id,
            name: i.name,
            address: i.address,
            latitude: i.latitude,
            longitude: i.longitude,
            contact_info: i.contact_info,
            distance: None,
        }
    }
}

impl Located for HospitalItem {
    fn point(&self) -> Point {
        Point::new(self.latitude, self.longitude)
    }
}

impl HospitalItem {
    pub(crate) fn new(id: Id, new: NewHospital) -> Self {
        let (geopk, geosk) = geo::keys_of(new.location.lat.get(), new.location.lng.get());
        HospitalItem {
            key: keys::hospital(id),
            id,
            listpk: keys::HOSPITALS.into(),
            listsk: keys::by_name(&new.name, id),
            name: new.name,
            address: new.address,
            latitude: new.location.lat.get(),
            longitude: new.location.lng.get(),
            contact_info: new.contact_info,
            ambulance_count: 0,
            geopk,
            geosk,
            created_at: now_rfc3339(),
        }
    }
}

/// Adds `delta` to a hospital's ambulance count, on the condition that it exists:
/// part of every transaction that adds or removes its ambulances.
pub(crate) fn count_ambulances(hospital: Id, delta: i64) -> Write {
    Write::update(keys::hospital(hospital), "ADD ambulanceCount :d")
        .exists()
        .value(":d", delta)
}

impl Store {
    /// Builds the index from every hospital in the table (read through the `list`
    /// index): for a table that has none yet (the first hospital write does this),
    /// or to repair one (`manage build-hospital-index`).
    pub async fn build_hospital_index(&self) -> Result<IndexBuild, ApiError> {
        let hospitals = self.all_hospitals_for_index().await?;
        self.write_hospital_index(hospitals).await
    }

    /// Every hospital in the table, read through the `list` index.
    pub(crate) async fn all_hospitals_for_index(&self) -> Result<Vec<Hospital>, ApiError> {
        let keys: Vec<Key> = self
            .query_all(Query::on(LIST, "listpk = :p").value(":p", keys::HOSPITALS))
            .await?;
        let items: Vec<HospitalItem> = self.batch_get(keys).await?;
        Ok(items.into_iter().map(Hospital::from).collect())
    }

    pub async fn add_hospital(&self, new: NewHospital) -> Result<Hospital, ApiError> {
        let id = self.next_id("hospital").await?;
        let item = HospitalItem::new(id, new);
        let hospital = Hospital::from(item.clone());
        let add = || {
            let mut tx = Tx::new();
            tx.push(Label::Hospital(id), Write::put(&item).absent())
                .push(
                    Label::Counter,
                    counters::add(counters::HOSPITALS, &Total::ONE)?,
                );
            Ok(tx)
        };
        self.commit_with_index(IndexChange::Put(&hospital), add)
            .await
            .map_err(TxError::into_api)?;
        Ok(hospital)
    }

    pub(crate) async fn hospital_item(&self, id: Id) -> Result<Option<HospitalItem>, ApiError> {
        self.get(&keys::hospital(id)).await
    }

    /// [`Store::hospital`] for a page that can be shown without it: an item that
    /// does not read is absent (logged and counted).
    pub(crate) async fn readable_hospital(&self, id: Id) -> Result<Option<Hospital>, ApiError> {
        Ok(self
            .get_readable::<HospitalItem>(&keys::hospital(id))
            .await?
            .map(Hospital::from))
    }

    pub async fn hospital(&self, id: Id) -> Result<Option<Hospital>, ApiError> {
        Ok(self.hospital_item(id).await?.map(Hospital::from))
    }

    pub async fn hospital_count(&self) -> Result<u64, ApiError> {
        self.counted(counters::HOSPITALS).await
    }

    /// One page of hospitals in name order; the total comes from the counter (read
    /// at the same time as the page's keys, see [`Store::counted_page_keys`]).
    pub async fn hospitals_page(&self, page: u32, size: u32) -> Result<Page<Hospital>, ApiError> {
        self.page(CountedList::HOSPITALS, page, size, |h: HospitalItem| {
            Some(h.into())
        })
        .await
    }

    /// The `k` nearest hospitals within `radius_km`, nearest first, with distances,
    /// by Query rounds over the H3 `geo` index: what [`Store::nearest_hospitals`]
    /// does on a table whose in-memory index was never built, and the benchmark's
    /// comparison.
    pub async fn nearest_hospitals_h3(
        &self,
        center: LatLng,
        k: usize,
        radius_km: f64,
    ) -> Result<(Vec<Hospital>, SearchStats), ApiError> {
        let (found, stats) = geo::nearest(
            SearchParams::default(),
            center.lat.get(),
            center.lng.get(),
            k,
            radius_km,
            |ranges: Vec<Range>| async move {
                let pages = try_join_all(ranges.iter().map(|r| self.geo_range(r))).await?;
                Ok::<_, ApiError>(pages.into_iter().flatten().collect::<Vec<HospitalItem>>())
            },
        )
        .await?;
        Ok((
            found
                .into_iter()
                .map(|(item, d)| Hospital {
                    distance: Some((d * 1000.0).round() / 1000.0),
                    ..Hospital::from(item)
                })
                .collect(),
            stats,
        ))
    }

    async fn geo_range(&self, r: &Range) -> Result<Vec<HospitalItem>, ApiError> {
        self.query_all(Query::on(GEO, "geopk = :p AND geosk BETWEEN :lo AND :hi").range(r))
            .await
    }
}
