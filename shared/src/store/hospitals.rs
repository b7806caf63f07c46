//! Hospitals: adding, paging by name, nearest search on the geo index, removal.

use aws_sdk_dynamodb::types::{Delete, Put, TransactWriteItem, Update};
use futures::{StreamExt, TryStreamExt, future::try_join_all};
use serde::{Deserialize, Serialize};

use super::{
    Cancelled, Page, Store, TxError,
    ambulances::{AmbulanceCounts, AmbulanceItem},
    counters, db_error, from_item, key, n, s, to_item,
};
use crate::{
    error::ApiError,
    geo::{self, Located, Range, SearchStats},
    types::{Id, LatLng, now_rfc3339},
};

/// A hospital as the API shows it; `distance` (km) only from the nearest search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Hospital {
    pub id: Id,
    pub name: String,
    pub address: String,
    pub latitude: f64,
    pub longitude: f64,
    pub contact_info: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<f64>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct HospitalItem {
    pk: String,
    sk: String,
    pub(crate) id: Id,
    pub(crate) name: String,
    pub(crate) address: String,
    latitude: f64,
    longitude: f64,
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
    fn latitude(&self) -> f64 {
        self.latitude
    }
    fn longitude(&self) -> f64 {
        self.longitude
    }
}

pub struct NewHospital {
    pub name: String,
    pub address: String,
    pub location: LatLng,
    pub contact_info: Option<String>,
}

impl HospitalItem {
    fn new(id: Id, new: NewHospital) -> Self {
        let (geopk, geosk) = geo::keys_of(new.location.lat.get(), new.location.lng.get());
        HospitalItem {
            pk: hospital_pk(id),
            sk: "HOSPITAL".into(),
            id,
            listpk: "HOSPITALS".into(),
            listsk: format!("{}#{}", new.name.to_lowercase(), id.padded()),
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

pub(crate) fn hospital_pk(id: Id) -> String {
    format!("HOSPITAL#{id}")
}

/// The condition-checked +1/-1 of a hospital's ambulance count, for the ambulance
/// transactions.
pub(crate) fn ambulance_count_delta(
    store: &Store,
    hospital: Id,
    delta: i64,
) -> Result<TransactWriteItem, ApiError> {
    Ok(TransactWriteItem::builder()
        .update(
            Update::builder()
                .table_name(store.table())
                .set_key(Some(key(hospital_pk(hospital), "HOSPITAL")))
                .update_expression("ADD ambulanceCount :d")
                .condition_expression("attribute_exists(pk)")
                .expression_attribute_values(":d", n(delta))
                .build()
                .map_err(ApiError::internal)?,
        )
        .build())
}

impl Store {
    pub async fn add_hospital(&self, new: NewHospital) -> Result<Hospital, ApiError> {
        let id = self.next_id("hospital").await?;
        let item = HospitalItem::new(id, new);
        let put = Put::builder()
            .table_name(self.table())
            .set_item(Some(to_item(&item)?))
            .condition_expression("attribute_not_exists(pk)")
            .build()
            .map_err(ApiError::internal)?;
        self.transact(vec![
            TransactWriteItem::builder().put(put).build(),
            counters::add(self, counters::HOSPITALS, &[("total", 1)])?,
        ])
        .await
        .map_err(|e| match e {
            TxError::Api(e) => e,
            TxError::Cancelled(c) => ApiError::internal(format!("{c:?}")),
        })?;
        Ok(item.into())
    }

    /// Loads many hospitals fast with BatchWriteItem, for benchmarks only: ids are
    /// given, and the hospitals counter is set to the number loaded.
    pub async fn bulk_load_hospitals(
        &self,
        hospitals: Vec<(Id, NewHospital)>,
    ) -> Result<(), ApiError> {
        use aws_sdk_dynamodb::types::{PutRequest, WriteRequest};
        let total = hospitals.len() as i64;
        let mut requests = vec![];
        for (id, new) in hospitals {
            let item = HospitalItem::new(id, new);
            requests.push(
                WriteRequest::builder()
                    .put_request(
                        PutRequest::builder()
                            .set_item(Some(to_item(&item)?))
                            .build()
                            .map_err(ApiError::internal)?,
                    )
                    .build(),
            );
        }
        let batches: Vec<Vec<WriteRequest>> =
            requests.chunks(25).map(<[WriteRequest]>::to_vec).collect();
        futures::stream::iter(batches)
            .map(|batch| async move {
                let mut pending = batch;
                while !pending.is_empty() {
                    let out = self
                        .client()
                        .batch_write_item()
                        .request_items(self.table(), pending)
                        .send()
                        .await
                        .map_err(db_error)?;
                    pending = out
                        .unprocessed_items
                        .and_then(|mut u| u.remove(self.table()))
                        .unwrap_or_default();
                }
                Ok::<_, ApiError>(())
            })
            .buffer_unordered(16)
            .try_collect::<Vec<_>>()
            .await?;
        self.transact(vec![counters::add(
            self,
            counters::HOSPITALS,
            &[("total", total)],
        )?])
        .await
        .map_err(|e| match e {
            TxError::Api(e) => e,
            TxError::Cancelled(c) => ApiError::internal(format!("{c:?}")),
        })
    }

    pub(crate) async fn hospital_item(&self, id: Id) -> Result<Option<HospitalItem>, ApiError> {
        self.get(&hospital_pk(id), "HOSPITAL").await
    }

    pub async fn hospital(&self, id: Id) -> Result<Option<Hospital>, ApiError> {
        Ok(self.hospital_item(id).await?.map(Hospital::from))
    }

    pub async fn hospital_count(&self) -> Result<u64, ApiError> {
        let total = counters::read(self, counters::HOSPITALS)
            .await?
            .get("total")
            .copied()
            .unwrap_or(0);
        Ok(total.max(0) as u64)
    }

    /// One page of hospitals in name order; the total comes from the counter (read
    /// at the same time as the page's keys, see [`Store::counted_page_keys`]).
    pub async fn hospitals_page(&self, page: u32, size: u32) -> Result<Page<Hospital>, ApiError> {
        let (total, keys) = self
            .counted_page_keys(self.hospital_count(), "HOSPITALS", page, size, false)
            .await?;
        let items: Vec<HospitalItem> = self.batch_get(keys).await?;
        Ok(Page::new(
            items.into_iter().map(Hospital::from).collect(),
            total,
            page,
            size,
        ))
    }

    /// The `k` nearest hospitals within `radius_km`, nearest first, with distances.
    pub async fn nearest_hospitals(
        &self,
        center: LatLng,
        k: usize,
        radius_km: f64,
    ) -> Result<(Vec<Hospital>, SearchStats), ApiError> {
        let (found, stats) = geo::nearest(
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
        let mut items = vec![];
        let mut start = None;
        loop {
            let out = self
                .client()
                .query()
                .table_name(self.table())
                .index_name("geo")
                .key_condition_expression("geopk = :p AND geosk BETWEEN :lo AND :hi")
                .expression_attribute_values(":p", s(&r.partition))
                .expression_attribute_values(":lo", n(r.lo))
                .expression_attribute_values(":hi", n(r.hi))
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(db_error)?;
            for item in out.items.unwrap_or_default() {
                items.push(from_item(item)?);
            }
            start = out.last_evaluated_key;
            if start.is_none() {
                return Ok(items);
            }
        }
    }

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
    pub async fn remove_hospital(&self, id: Id) -> Result<(), ApiError> {
        // Two independent reads at once; the hospital's 404 still comes first. (The
        // final transaction's condition on `ambulanceCount`, not this read, is what
        // proves the list of ambulances complete.)
        let (hospital, ambulances) =
            tokio::join!(self.hospital_item(id), self.hospital_ambulance_items(id));
        if hospital?.is_none() {
            return Err(ApiError::NotFound(format!("Hospital {id} not found")));
        }
        let ambulances = ambulances?;
        if let Some(held) = ambulances.iter().find(|a| a.held_by.is_some()) {
            return Err(hospital_held_conflict(id, held));
        }
        let (first, last) = ambulances.split_at(ambulances.len() % AMBULANCES_PER_REMOVAL);
        let mut chunks: Vec<&[AmbulanceItem]> = last.chunks(AMBULANCES_PER_REMOVAL).collect();
        if !first.is_empty() || chunks.is_empty() {
            chunks.insert(0, first);
        }
        let final_chunk = chunks.len() - 1;
        for (i, chunk) in chunks.into_iter().enumerate() {
            let mut tx = vec![];
            for a in chunk {
                tx.extend(self.delete_ambulance_items(a)?);
            }
            let gone = AmbulanceCounts::of(chunk.iter().map(|a| &a.status));
            if gone.total != 0 {
                tx.push(counters::add(
                    self,
                    counters::AMBULANCES,
                    &[
                        ("total", -gone.total),
                        ("available", -gone.available),
                        ("onDuty", -gone.on_duty),
                        ("maintenance", -gone.maintenance),
                    ],
                )?);
            }
            if i == final_chunk {
                let delete = Delete::builder()
                    .table_name(self.table())
                    .set_key(Some(key(hospital_pk(id), "HOSPITAL")))
                    .condition_expression("attribute_exists(pk) AND ambulanceCount = :n")
                    .expression_attribute_values(":n", n(chunk.len()))
                    .build()
                    .map_err(ApiError::internal)?;
                tx.push(TransactWriteItem::builder().delete(delete).build());
                tx.push(counters::add(self, counters::HOSPITALS, &[("total", -1)])?);
            } else {
                tx.push(ambulance_count_delta(self, id, -(chunk.len() as i64))?);
            }
            match self.transact(tx).await {
                Ok(()) => {}
                Err(TxError::Api(e)) => return Err(e),
                Err(TxError::Cancelled(c)) => {
                    return Err(self.removal_conflict(id, chunk, &c).await);
                }
            }
        }
        Ok(())
    }

    /// Why a removal transaction was refused, as clearly as we can tell.
    async fn removal_conflict(&self, id: Id, chunk: &[AmbulanceItem], c: &Cancelled) -> ApiError {
        // Ambulance i of the chunk is transaction items 2i (itself) and 2i + 1 (guard).
        for (i, a) in chunk.iter().enumerate() {
            if c.failed_at(2 * i)
                && let Ok(Some(now)) = self.ambulance_item(a.id).await
                && now.held_by.is_some()
            {
                return hospital_held_conflict(id, &now);
            }
        }
        ApiError::Conflict(format!(
            "Hospital {id} changed while it was being removed (an ambulance was just added, booked or edited); please retry"
        ))
    }
}

/// Ambulances removed per transaction: 2 items each (the ambulance and its number
/// guard) plus up to 3 (the hospital or its count, and two counters) stay within
/// DynamoDB's 100 items.
pub const AMBULANCES_PER_REMOVAL: usize = 48;

fn hospital_held_conflict(id: Id, held: &AmbulanceItem) -> ApiError {
    ApiError::Conflict(format!(
        "Hospital {id} cannot be removed: its ambulance {} is held by open booking #{}; complete or cancel that booking first",
        held.number,
        held.held_by.map(|b| b.to_string()).unwrap_or_default()
    ))
}
