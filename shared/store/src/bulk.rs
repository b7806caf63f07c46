//! Bulk loads for benchmarks and big test sets (`make bench`, the live map's and the
//! emergency search's large fleets): BatchWriteItem of the very items the store's own
//! writes build (`HospitalItem::new`, `AmbulanceItem::new`, `PositionItem::new`), with
//! the counters, id sequences and the nearest-hospital index set to match. No route
//! calls them; they live here, not in the test crate, because they build items from
//! the store's private parts.

use crate::error::StoreError;
use crate::{
    Key, Store,
    bookings::BookingItem,
    counters::{self, Total},
    db_error,
    fleet::AmbulanceItem,
    hospital_index::IndexBuild,
    hospitals::HospitalItem,
    keys,
    positions::PositionItem,
    reports::DayItem,
    retry,
    table::{Item, to_item},
    tx::{Label, Tx, Write},
};
use domain::{
    ambulance::{AmbulanceCounts, AmbulanceStatus, NewAmbulance},
    booking::Booking,
    geo::Point,
    hospital::{Hospital, NewHospital},
    position::Fix,
    response_times::TripRecord,
    types::{Email, Id, Phone, Username},
    user::{NewAccount, NewUser, Role},
};

/// `store.bulk()`: bulk loads for benchmarks and big test sets. Every method of the handle
/// is in this file.
#[derive(Clone, Copy)]
pub struct Bulk<'a> {
    pub(super) store: &'a Store,
}

impl Bulk<'_> {
    /// Loads many hospitals fast with BatchWriteItem, for benchmarks and big test
    /// sets only: ids are given (the id sequence is moved past them), the hospitals
    /// counter is set to the number loaded, and the nearest-hospital index is built
    /// anew from exactly these hospitals. Unprocessed items are sent again with the
    /// store's retry policy.
    pub async fn bulk_load_hospitals(
        self,
        hospitals: Vec<(Id, NewHospital)>,
    ) -> Result<IndexBuild, StoreError> {
        let total = hospitals.len() as i64;
        let last_id = hospitals.iter().map(|(id, _)| id.get()).max().unwrap_or(0);
        let mut items = vec![];
        let mut loaded = vec![];
        for (id, new) in hospitals {
            let item = HospitalItem::new(id, new);
            loaded.push(Hospital::from(item.clone()));
            items.push(to_item(&item)?);
        }
        self.batch_put(items).await?;
        let mut tx = Tx::new();
        tx.push(
            Label::Counter,
            counters::add(counters::HOSPITALS, &Total { total })?,
        );
        self.store.commit_or_500(tx).await?;
        self.sequence_past("hospital", last_id).await?;
        self.store
            .hospitals()
            .index()
            .write_hospital_index(loaded)
            .await
    }

    /// Loads a fleet fast with BatchWriteItem, for benchmarks only: each ambulance
    /// (id given; the id sequence is moved past them) with its `POSITION` item when
    /// it reported and, while AVAILABLE, its `FREEPOS` entry, and the fleet counter.
    /// A report's time is `age` before the moment its chunk is written. Hospitals'
    /// `ambulanceCount`s are not kept (no removal follows a benchmark).
    pub async fn bulk_load_fleet(self, fleet: Vec<BulkAmbulance>) -> Result<(), StoreError> {
        let last_id = fleet.iter().map(|a| a.id.get()).max().unwrap_or(0);
        let statuses: Vec<_> = fleet.iter().map(|a| a.new.status).collect();
        for chunk in fleet.chunks(5000) {
            let now = time::OffsetDateTime::now_utc();
            let mut items = vec![];
            for a in chunk {
                let mut item = AmbulanceItem::new(a.id, &a.new, &a.hospital);
                let last = a.last.map(|(at, age)| Fix {
                    latitude: at.lat,
                    longitude: at.lng,
                    recorded_at: domain::types::Timestamp::new(now - age).expect("a recent time"),
                });
                if let Some(fix) = &last {
                    item = item.seen_at(fix.point());
                    let sighting = domain::position::Sighting {
                        fix: fix.clone(),
                        accuracy_m: None,
                    };
                    let received = domain::types::Timestamp::now();
                    items.push(to_item(&PositionItem::new(a.id, sighting, received))?);
                }
                if a.new.status == AmbulanceStatus::Available {
                    items.push(to_item(&item.free_spot(a.hospital.point(), last).item())?);
                }
                items.push(to_item(&item)?);
            }
            self.batch_put(items).await?;
        }
        let mut tx = Tx::new();
        tx.push(
            Label::Counter,
            counters::add(counters::AMBULANCES, &AmbulanceCounts::of(statuses.iter()))?,
        );
        self.store.commit_or_500(tx).await?;
        self.sequence_past("ambulance", last_id).await
    }

    /// Loads bookings as the store writes them (`BookingItem::new`: a waiting one in
    /// the `due` index), for the clock's benchmark only: no counters, guards or
    /// ambulances are touched.
    pub async fn bulk_load_bookings(self, bookings: Vec<Booking>) -> Result<(), StoreError> {
        let mut items = Vec::with_capacity(bookings.len());
        for b in bookings {
            items.push(to_item(&BookingItem::new(b))?);
        }
        self.batch_put(items).await
    }

    /// Loads finished bookings as their final move leaves them: each in the `fold`
    /// index (ended at its last timeline entry) for the clock to fold into the
    /// response-time report (decision 0021). For the report's tests and benchmark: no
    /// counters, guards or ambulances are touched.
    pub async fn bulk_load_finished_bookings(
        self,
        bookings: Vec<Booking>,
    ) -> Result<(), StoreError> {
        let mut items = Vec::with_capacity(bookings.len());
        for b in bookings {
            let ended = b
                .timeline
                .last()
                .map(|e| e.at)
                .map_or(0, crate::bookings::due_key);
            let mut item = BookingItem::new(b);
            item.duepk = None;
            item.duesk = None;
            item.foldpk = Some(keys::FOLD.to_owned());
            item.foldsk = Some(ended);
            items.push(to_item(&item)?);
        }
        self.batch_put(items).await
    }

    /// Loads days of the response-time report as the fold leaves them (one item per
    /// hospital and day, `None` the whole service's): the benchmark's years of trips
    /// in minutes instead of a fold per trip.
    pub async fn bulk_load_report_days(self, days: Vec<ReportDay>) -> Result<(), StoreError> {
        let mut items = Vec::with_capacity(days.len());
        for d in days {
            items.push(to_item(&DayItem::new(
                d.hospital,
                d.day,
                &d.emergency,
                &d.normal,
            ))?);
        }
        self.batch_put(items).await
    }

    /// `n` users `bench0`, `bench1`... without a location or a usable password, for
    /// the benchmarks.
    pub async fn bench_users(self, n: usize) -> Result<Vec<Id>, StoreError> {
        let mut users = Vec::with_capacity(n);
        for i in 0..n {
            let user = self
                .store
                .users()
                .create_user(NewUser {
                    account: NewAccount {
                        username: Username::try_from(format!("bench{i}"))
                            .map_err(StoreError::internal)?,
                        email: Email::try_from(format!("bench{i}@example.com"))
                            .map_err(StoreError::internal)?,
                        phone: Phone::try_from("1234567".to_owned())
                            .map_err(StoreError::internal)?,
                        password_hash: "unused".into(),
                    },
                    location: None,
                    role: Role::User,
                })
                .await?;
            users.push(user.id);
        }
        Ok(users)
    }

    /// Moves the id sequence of `entity` to `last` unless it is past it already.
    async fn sequence_past(self, entity: &str, last: u64) -> Result<(), StoreError> {
        // `None`: the sequence was already past it.
        let _: Option<Key> = self
            .store
            .update_returning(
                Write::update(keys::sequence(entity), "SET #v = :last")
                    .when("attribute_not_exists(#v) OR #v < :last")
                    .name("#v", "value")
                    .value(":last", last),
            )
            .await?;
        Ok(())
    }

    /// Puts items with BatchWriteItem, 25 a request, 16 requests at once; unprocessed
    /// items are sent again with the store's retry policy.
    async fn batch_put(self, items: Vec<Item>) -> Result<(), StoreError> {
        use aws_sdk_dynamodb::types::{PutRequest, WriteRequest};
        use backon::Retryable;
        use futures::{StreamExt, TryStreamExt};

        let mut requests = vec![];
        for item in items {
            let put = PutRequest::builder()
                .set_item(Some(item))
                .build()
                .map_err(StoreError::internal)?;
            requests.push(WriteRequest::builder().put_request(put).build());
        }
        futures::stream::iter(requests.chunks(25))
            .map(|batch| async move {
                let pending = std::sync::Mutex::new(batch.to_vec());
                let round = || async {
                    let batch = std::mem::take(&mut *pending.lock().expect("not poisoned"));
                    let out = self
                        .store
                        .client()
                        .batch_write_item()
                        .request_items(self.store.table(), batch)
                        .send()
                        .await
                        .map_err(|e| Some(db_error(e)))?;
                    let left = out
                        .unprocessed_items
                        .and_then(|mut u| u.remove(self.store.table()))
                        .unwrap_or_default();
                    if left.is_empty() {
                        return Ok(());
                    }
                    *pending.lock().expect("not poisoned") = left;
                    Err(None)
                };
                round
                    .retry(retry::policy().with_max_times(20))
                    .when(Option::is_none)
                    .await
                    .map_err(|e| e.unwrap_or(StoreError::Unavailable))
            })
            .buffer_unordered(16)
            .try_collect::<Vec<()>>()
            .await?;
        Ok(())
    }
}

/// One ambulance of [`Bulk::bulk_load_fleet`].
pub struct BulkAmbulance {
    pub id: Id,
    pub new: NewAmbulance,
    /// Its hospital (the ambulance item keeps its name, address and point).
    pub hospital: Hospital,
    /// Its last report: where, and how long before it is written.
    pub last: Option<(Point, time::Duration)>,
}

/// One day of [`Bulk::bulk_load_report_days`]: a hospital's (`None`: the whole
/// service's) records of one day, by kind.
pub struct ReportDay {
    pub hospital: Option<Id>,
    pub day: time::Date,
    pub emergency: Vec<TripRecord>,
    pub normal: Vec<TripRecord>,
}
