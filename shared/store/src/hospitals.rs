//! Hospitals, the handle `store.hospitals()`: adding, removing one with all its
//! ambulances (in transactions with conditions, so none is orphaned), paging by name,
//! and the nearest search (from the in-memory index, `hospital_index`, which every
//! add and removal keeps current in the same transaction; on the H3 `geo` index for
//! the crew's alternative to a diverted destination, `receiving`).

use futures::future::try_join_all;
use serde::{Deserialize, Serialize};

use super::{
    counters::{self, Total},
    fleet::{AmbulanceItem, count_ambulances},
    hospital_index::{Index, IndexBuild, NearestStats},
    hospital_snapshot::IndexChange,
    keys::{self, Key},
    paging::CountedList,
    schema::{GEO, LIST},
    table::{Query, Store},
    tx::{Label, Refused, Tx, TxError, Write},
};
use crate::error::StoreError;
use domain::{
    ambulance::AmbulanceCounts,
    audit::{Action, Note, Target},
    geo::{self, Located, Point, Range, SearchParams, SearchStats},
    hospital::{self, Hospital, NewHospital},
    page::Page,
    types::{Id, Timestamp},
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
    /// Until when it is on diversion (`PUT /api/hospital/diversion`); absent when
    /// it never was or went back to open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) on_diversion_until: Option<Timestamp>,
    /// Kept in the same transactions as ambulance adds and removes, so a removal
    /// can prove it saw every ambulance of the hospital.
    #[serde(default)]
    ambulance_count: u64,
    listpk: String,
    listsk: String,
    geopk: String,
    geosk: u64,
    created_at: Timestamp,
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
            on_diversion_until: i.on_diversion_until,
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
        let (geopk, geosk) = keys::hospital_geo(new.location);
        HospitalItem {
            key: keys::hospital(id),
            id,
            listpk: keys::HOSPITALS.into(),
            listsk: keys::by_name(&new.name, id),
            name: new.name,
            address: new.address,
            latitude: new.location.lat,
            longitude: new.location.lng,
            contact_info: new.contact_info,
            on_diversion_until: None,
            ambulance_count: 0,
            geopk,
            geosk,
            created_at: Timestamp::now(),
        }
    }
}

/// `store.hospitals()`: hospitals: add, remove (with their ambulances), read, page, the
/// nearest search. Every method of the handle is in this file.
#[derive(Clone, Copy)]
pub struct Hospitals<'a> {
    pub(super) store: &'a Store,
}

impl<'a> Hospitals<'a> {
    /// The `k` nearest hospitals within `radius_km`, nearest first, with distances
    /// (km, rounded to metres): from this instance's copy of the index, after one
    /// strongly consistent read of the version item (`hospital_index.rs`).
    pub async fn nearest_hospitals(
        self,
        center: Point,
        k: usize,
        radius_km: f64,
    ) -> Result<(Vec<Hospital>, NearestStats), StoreError> {
        self.index().nearest_hospitals(center, k, radius_km).await
    }

    /// The `k` nearest hospitals from this instance's copy of the index as it is,
    /// reading nothing: it may miss the latest writes, and is `None` before this
    /// instance's first search loaded it. For guesses only (where the emergency
    /// search for a free ambulance starts), never for an answer.
    pub fn nearest_hospitals_held(
        self,
        center: Point,
        k: usize,
        radius_km: f64,
    ) -> Option<Vec<Hospital>> {
        self.index().nearest_hospitals_held(center, k, radius_km)
    }

    /// The index's current generation (one more per hospital write or build), or
    /// `None` when the table has no index yet.
    pub async fn hospital_index_generation(self) -> Result<Option<u64>, StoreError> {
        self.index().hospital_index_generation().await
    }

    /// The nearest-hospital index's reads and writes (`hospital_index.rs`).
    pub(crate) fn index(self) -> Index<'a> {
        Index { store: self.store }
    }

    /// Builds the index from every hospital in the table (read through the `list`
    /// index): for a table that has none yet (the first hospital write does this),
    /// or to repair one (`manage build-hospital-index`).
    pub async fn build_hospital_index(self) -> Result<IndexBuild, StoreError> {
        let hospitals = self.all_hospitals_for_index().await?;
        self.store
            .hospitals()
            .index()
            .write_hospital_index(hospitals)
            .await
    }

    /// Every hospital in the table, read through the `list` index.
    pub(crate) async fn all_hospitals_for_index(self) -> Result<Vec<Hospital>, StoreError> {
        let keys: Vec<Key> = self
            .store
            .query_all(Query::on(LIST, "listpk = :p").value(":p", keys::HOSPITALS))
            .await?;
        let items: Vec<HospitalItem> = self.store.batch_get(keys).await?;
        Ok(items.into_iter().map(Hospital::from).collect())
    }

    pub async fn add_hospital(self, new: NewHospital) -> Result<Hospital, StoreError> {
        let id = self.store.next_id("hospital").await?;
        let item = HospitalItem::new(id, new);
        let hospital = Hospital::from(item.clone());
        let add = || {
            let mut tx = Tx::new();
            tx.push(Label::Hospital(id), Write::put(&item).absent())
                .push(
                    Label::Counter,
                    counters::add(counters::HOSPITALS, &Total::ONE)?,
                );
            self.store.audit().push(
                &mut tx,
                Note::new(Action::HospitalAdded, Target::hospital(id, &hospital.name)).after(
                    serde_json::json!({
                        "name": hospital.name,
                        "address": hospital.address,
                        "latitude": hospital.latitude,
                        "longitude": hospital.longitude,
                    }),
                ),
            );
            Ok(tx)
        };
        self.store
            .hospitals()
            .index()
            .commit_with_index(IndexChange::Put(&hospital), add)
            .await
            .map_err(TxError::into_api)?;
        Ok(hospital)
    }

    /// Puts hospital `id` on diversion until `until`, or (None) opens it again: the
    /// item and the nearest-search index together (docs/decisions/0026-receiving-hospital.md).
    /// 404 for an unknown hospital, also one removed meanwhile.
    pub async fn set_diversion(
        self,
        id: Id,
        until: Option<Timestamp>,
    ) -> Result<Hospital, StoreError> {
        let current = self
            .hospital(id)
            .await?
            .ok_or_else(|| hospital::not_found(id))?;
        let hospital = Hospital {
            on_diversion_until: until,
            ..current
        };
        let write = || {
            let update = match until {
                Some(until) => Write::update(keys::hospital(id), "SET onDiversionUntil = :u")
                    .value(":u", until),
                None => Write::update(keys::hospital(id), "REMOVE onDiversionUntil"),
            };
            let mut tx = Tx::new();
            tx.push(Label::Hospital(id), update.exists());
            Ok(tx)
        };
        self.index()
            .commit_with_index(IndexChange::Put(&hospital), write)
            .await
            .map_err(|e| e.or_refused(|_| hospital::not_found(id).into()))?;
        Ok(hospital)
    }

    pub(crate) async fn hospital_item(self, id: Id) -> Result<Option<HospitalItem>, StoreError> {
        self.store.get(&keys::hospital(id)).await
    }

    /// [`Hospitals::hospital`] for a page that can be shown without it: an item that
    /// does not read is absent (logged and counted).
    pub(crate) async fn readable_hospital(self, id: Id) -> Result<Option<Hospital>, StoreError> {
        Ok(self
            .store
            .get_readable::<HospitalItem>(&keys::hospital(id))
            .await?
            .map(Hospital::from))
    }

    pub async fn hospital(self, id: Id) -> Result<Option<Hospital>, StoreError> {
        Ok(self.hospital_item(id).await?.map(Hospital::from))
    }

    pub async fn hospital_count(self) -> Result<u64, StoreError> {
        self.store.counted(counters::HOSPITALS).await
    }

    /// One page of hospitals in name order; the total comes from the counter (read
    /// at the same time as the page's keys, see [`Store::counted_page_keys`]).
    pub async fn hospitals_page(self, page: u32, size: u32) -> Result<Page<Hospital>, StoreError> {
        self.store
            .page(CountedList::HOSPITALS, page, size, |h: HospitalItem| {
                Some(h.into())
            })
            .await
    }

    /// The `k` nearest hospitals within `radius_km`, nearest first, with distances,
    /// by Query rounds over the H3 `geo` index: the crew's alternative to a diverted
    /// destination (no copy of the in-memory index in the crew's function), and the
    /// benchmark's comparison.
    pub async fn nearest_hospitals_h3(
        self,
        center: Point,
        k: usize,
        radius_km: f64,
    ) -> Result<(Vec<Hospital>, SearchStats), StoreError> {
        let (found, stats) = geo::nearest(
            SearchParams::default(),
            center,
            k,
            radius_km,
            |ranges: Vec<Range>| async move {
                let pages = try_join_all(ranges.iter().map(|r| self.geo_range(r))).await?;
                Ok::<_, StoreError>(pages.into_iter().flatten().collect::<Vec<HospitalItem>>())
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

    async fn geo_range(self, r: &Range) -> Result<Vec<HospitalItem>, StoreError> {
        let stored = Range {
            partition: keys::hospital_geo_partition(&r.partition),
            ..r.clone()
        };
        self.store
            .query_all(Query::on(GEO, "geopk = :p AND geosk BETWEEN :lo AND :hi").range(&stored))
            .await
    }
}

/// Ambulances removed per transaction: 4 items each (the ambulance, its number guard
/// and its two position items) plus up to 3 (the hospital or its count, and two
/// counters) plus the audit record's 2 copies (the log's, the admin's) plus, in the
/// last one, the 3 of the nearest-hospital index stay within DynamoDB's 100 items
/// (4 × 22 + 3 + 2 + 3 = 96).
pub const AMBULANCES_PER_REMOVAL: usize = 22;

impl Hospitals<'_> {
    /// Removes a hospital with its idle ambulances. Refused (409 naming the booking)
    /// while any of its ambulances is held by an open booking.
    ///
    /// Up to [`AMBULANCES_PER_REMOVAL`] ambulances, everything goes in one
    /// transaction: each ambulance deleted on the condition that its status is the
    /// one read and no booking holds it, its number guard, the hospital on the
    /// condition that its `ambulanceCount` is the number of ambulances deleted (so an
    /// ambulance the index did not show yet, or one added meanwhile, makes the whole
    /// removal fail instead of being orphaned), and the counters.
    ///
    /// A bigger fleet does not fit in one transaction (100 items): its surplus goes
    /// first in transactions of [`AMBULANCES_PER_REMOVAL`] ambulances, each keeping
    /// the counters and the hospital's `ambulanceCount` exact, and the last one
    /// takes the hospital. If something changes in between (an ambulance booked),
    /// the removal stops with a 409 and what was removed stays removed; the hospital
    /// and its remaining ambulances are intact and consistent, and a retry finishes.
    pub async fn remove_hospital(self, id: Id) -> Result<(), StoreError> {
        // Two independent reads at once; the hospital's 404 still comes first. (The
        // final transaction's condition on `ambulanceCount`, not this read, is what
        // proves the list of ambulances complete.)
        let (hospital, ambulances) = tokio::join!(
            self.hospital_item(id),
            self.store.fleet().hospital_ambulance_items(id)
        );
        let Some(hospital) = hospital? else {
            return Err(hospital::not_found(id).into());
        };
        let ambulances = ambulances?;
        if let Some((held, booking)) = ambulances
            .iter()
            .find_map(|a| a.held_by.map(|booking| (a, booking)))
        {
            return Err(hospital::held_conflict(id, &held.number, booking).into());
        }
        if let Some(crewed) = ambulances.iter().find(|a| a.crew_count > 0) {
            return Err(hospital::crew_conflict(id, &crewed.number, crewed.crew_count).into());
        }
        let (first, last) = ambulances.split_at(ambulances.len() % AMBULANCES_PER_REMOVAL);
        let mut chunks: Vec<&[AmbulanceItem]> = last.chunks(AMBULANCES_PER_REMOVAL).collect();
        if !first.is_empty() || chunks.is_empty() {
            chunks.insert(0, first);
        }
        let final_chunk = chunks.len() - 1;
        for (i, chunk) in chunks.into_iter().enumerate() {
            let is_final = i == final_chunk;
            let removal = || {
                let mut tx = Tx::new();
                for a in chunk {
                    a.push_removal(&mut tx);
                }
                let numbers: Vec<&str> = chunk.iter().map(|a| a.number.as_str()).collect();
                let target = Target::hospital(id, &hospital.name);
                self.store.audit().push(
                    &mut tx,
                    match is_final {
                        true => {
                            Note::new(Action::HospitalRemoved, target).before(serde_json::json!({
                                "name": hospital.name,
                                "address": hospital.address,
                                "ambulances": numbers,
                            }))
                        }
                        false => Note::new(Action::HospitalAmbulancesRemoved, target)
                            .before(serde_json::json!({ "ambulances": numbers })),
                    },
                );
                let gone = AmbulanceCounts::of(chunk.iter().map(|a| &a.status));
                if gone.total != 0 {
                    tx.push(
                        Label::Counter,
                        counters::add(counters::AMBULANCES, &gone.removed())?,
                    );
                }
                if is_final {
                    tx.push(
                        Label::Hospital(id),
                        Write::delete(keys::hospital(id))
                            .exists()
                            .when("ambulanceCount = :n")
                            .value(":n", chunk.len()),
                    )
                    .push(
                        Label::Counter,
                        counters::add(counters::HOSPITALS, &Total { total: -1 })?,
                    );
                } else {
                    tx.push(
                        Label::Hospital(id),
                        count_ambulances(id, -(chunk.len() as i64)),
                    );
                }
                Ok(tx)
            };
            let committed = if is_final {
                // The hospital leaves the nearest-search index in the same transaction.
                self.store
                    .hospitals()
                    .index()
                    .commit_with_index(IndexChange::Remove(id), removal)
                    .await
            } else {
                self.store.commit(removal()?).await
            };
            if let Err(e) = committed {
                return Err(match e {
                    TxError::Api(e) => e,
                    TxError::Refused(r) => self.removal_conflict(id, &r).await,
                });
            }
        }
        Ok(())
    }

    /// Why a removal transaction was refused, as clearly as we can tell.
    async fn removal_conflict(self, id: Id, refused: &Refused) -> StoreError {
        for label in refused.labels() {
            if let Label::Ambulance(ambulance) = label
                && let Ok(Some(now)) = self.store.fleet().ambulance_item(*ambulance).await
            {
                if let Some(booking) = now.held_by {
                    return hospital::held_conflict(id, &now.number, booking).into();
                }
                if now.crew_count > 0 {
                    return hospital::crew_conflict(id, &now.number, now.crew_count).into();
                }
            }
        }
        hospital::changed_during_removal(id).into()
    }
}
