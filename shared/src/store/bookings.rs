//! Bookings. A booking and its ambulance change in one transaction: the booking is
//! written and the ambulance moves AVAILABLE → ON_DUTY (held by the booking) only
//! together, and a final status frees the ambulance in the same transaction. So two
//! people can never book one ambulance, and a crash can never leave it stuck.

use aws_sdk_dynamodb::types::{Put, TransactWriteItem, Update};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{
    Page, Store, TxError,
    ambulances::{AmbulanceStatus, AmbulanceType, StatusMove, status_change, status_counter_delta},
    counters, db_error, from_item, key, n, s,
    schema::TTL_ATTRIBUTE,
    to_item,
};
use crate::{
    booking::{BookingRequest, BookingStatus, BookingType, Patient, check_transition},
    error::ApiError,
    types::{Id, epoch_seconds, now_rfc3339},
};

/// Idempotency keys are remembered for 24 hours.
pub const IDEMPOTENCY_TTL_SECS: i64 = 24 * 60 * 60;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BookingHospital {
    pub id: Id,
    pub name: String,
    pub address: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BookingAmbulance {
    pub id: Id,
    pub number: String,
    #[serde(rename = "type")]
    pub ambulance_type: AmbulanceType,
    pub driver_info: Option<String>,
}

/// A booking as the API shows it (DESIGN.md section 5). Names are those stored at
/// booking time, so history survives removed hospitals and ambulances.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Booking {
    pub id: Id,
    pub booking_status: BookingStatus,
    pub booking_type: BookingType,
    pub booking_time: String,
    pub user_id: Id,
    pub username: String,
    pub user_email: String,
    pub hospital_id: Id,
    pub hospital_name: String,
    pub hospital: BookingHospital,
    pub ambulance_id: Id,
    pub ambulance_number: String,
    pub ambulance: BookingAmbulance,
    pub patient: Patient,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct BookingItem {
    pk: String,
    sk: String,
    #[serde(flatten)]
    booking: Booking,
    gsi1pk: String,
    gsi1sk: String,
    listpk: String,
    listsk: String,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct IdempotencyItem {
    pk: String,
    sk: String,
    booking_id: Id,
    request_hash: String,
    ttl: i64,
}

/// Figures for the admin dashboard, all from maintained counters.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BookingCounts {
    pub total: i64,
    pub pending: i64,
    pub active: i64,
    pub completed: i64,
    pub cancelled: i64,
}

fn booking_pk(id: Id) -> String {
    format!("BOOKING#{id}")
}

fn idempotency_pk(user: Id, key: &str) -> String {
    format!("IDEM#{user}#{key}")
}

fn day_counter(time: &str) -> String {
    format!("bookings-day-{}", &time[..10.min(time.len())])
}

fn request_hash(user: Id, req: &BookingRequest) -> Result<String, ApiError> {
    let canonical = serde_json::to_string(&(user, req)).map_err(ApiError::internal)?;
    Ok(hex::encode(Sha256::digest(canonical.as_bytes())))
}

fn not_available() -> ApiError {
    ApiError::Conflict("Ambulance is no longer available".into())
}

impl Store {
    /// Books an ambulance for `user`. With an idempotency key, a retry of the same
    /// request returns the first booking, and a different request under the same key
    /// is refused (422); at most one booking is ever made per key.
    pub async fn book(
        &self,
        user: Id,
        req: BookingRequest,
        idempotency_key: Option<&str>,
    ) -> Result<Booking, ApiError> {
        let hash = request_hash(user, &req)?;
        match self.try_book(user, req, idempotency_key, &hash).await {
            // The ambulance may be taken by a retry of this very request that got
            // there first (DynamoDB reports only the first failed condition): then
            // the answer is that booking, not a conflict.
            Err(ApiError::Conflict(msg)) if idempotency_key.is_some() => {
                match self
                    .replay(user, idempotency_key.unwrap_or_default(), &hash)
                    .await?
                {
                    Some(first) => Ok(first),
                    None => Err(ApiError::Conflict(msg)),
                }
            }
            other => other,
        }
    }

    async fn try_book(
        &self,
        user: Id,
        req: BookingRequest,
        idempotency_key: Option<&str>,
        hash: &str,
    ) -> Result<Booking, ApiError> {
        // Everything the transaction needs that does not depend on anything else, at
        // once (one round trip, not three): an earlier booking under the idempotency
        // key, the user, the hospital, the ambulance and a fresh booking id. Their
        // errors are still reported in this order, the id's last. A refused request
        // leaves a gap in the booking ids (as a lost race always did).
        let earlier = async {
            match idempotency_key {
                Some(key) => self.replay(user, key, hash).await,
                None => Ok(None),
            }
        };
        let (earlier, account, hospital, ambulance, id) = tokio::join!(
            earlier,
            self.user(user),
            self.hospital(req.hospital_id),
            self.ambulance(req.ambulance_id),
            self.next_id("booking")
        );
        if let Some(existing) = earlier? {
            return Ok(existing);
        }
        let account =
            account?.ok_or_else(|| ApiError::NotFound(format!("User {user} not found")))?;
        let hospital = hospital?
            .ok_or_else(|| ApiError::NotFound(format!("Hospital {} not found", req.hospital_id)))?;
        let ambulance = ambulance?.ok_or_else(|| {
            ApiError::NotFound(format!("Ambulance {} not found", req.ambulance_id))
        })?;
        if ambulance.hospital_id != hospital.id {
            return Err(ApiError::bad_request(
                "ambulanceId",
                format!(
                    "Ambulance {} does not belong to hospital {}",
                    ambulance.number, hospital.name
                ),
            ));
        }
        if ambulance.status != AmbulanceStatus::Available {
            return Err(not_available());
        }

        let id = id?;
        let time = now_rfc3339();
        let booking = Booking {
            id,
            booking_status: BookingStatus::Pending,
            booking_type: req.booking_type,
            booking_time: time.clone(),
            user_id: user,
            username: account.username,
            user_email: account.email,
            hospital_id: hospital.id,
            hospital_name: hospital.name.clone(),
            hospital: BookingHospital {
                id: hospital.id,
                name: hospital.name,
                address: hospital.address,
            },
            ambulance_id: ambulance.id,
            ambulance_number: ambulance.number.clone(),
            ambulance: BookingAmbulance {
                id: ambulance.id,
                number: ambulance.number,
                ambulance_type: ambulance.ambulance_type,
                driver_info: ambulance.driver_info,
            },
            patient: req.patient.clone(),
        };
        let item = BookingItem {
            pk: booking_pk(id),
            sk: "BOOKING".into(),
            gsi1pk: format!("USER#{user}"),
            gsi1sk: format!("{time}#{}", id.padded()),
            listpk: "BOOKINGS".into(),
            listsk: format!("{time}#{}", id.padded()),
            booking: booking.clone(),
        };
        let mut tx = vec![
            TransactWriteItem::builder()
                .put(
                    Put::builder()
                        .table_name(self.table())
                        .set_item(Some(to_item(&item)?))
                        .condition_expression("attribute_not_exists(pk)")
                        .build()
                        .map_err(ApiError::internal)?,
                )
                .build(),
            status_change(
                self,
                StatusMove {
                    ambulance: req.ambulance_id,
                    hospital_of_ambulance: req.hospital_id,
                    from: AmbulanceStatus::Available,
                    to: AmbulanceStatus::OnDuty,
                    require_hospital: Some(req.hospital_id),
                    expected_holder: None,
                    held_by: Some(id),
                },
            )?,
            status_counter_delta(self, AmbulanceStatus::Available, AmbulanceStatus::OnDuty)?,
            counters::add(self, counters::BOOKINGS, &[("total", 1), ("pending", 1)])?,
            counters::add(self, &day_counter(&time), &[("total", 1)])?,
        ];
        if let Some(key) = idempotency_key {
            let now = epoch_seconds();
            let idem = IdempotencyItem {
                pk: idempotency_pk(user, key),
                sk: "IDEM".into(),
                booking_id: id,
                request_hash: hash.to_owned(),
                ttl: now + IDEMPOTENCY_TTL_SECS,
            };
            tx.push(
                TransactWriteItem::builder()
                    .put(
                        Put::builder()
                            .table_name(self.table())
                            .set_item(Some(to_item(&idem)?))
                            // An expired key (TTL deletes lazily) may be reused.
                            .condition_expression("attribute_not_exists(pk) OR #ttl < :now")
                            .expression_attribute_names("#ttl", TTL_ATTRIBUTE)
                            .expression_attribute_values(":now", n(now))
                            .build()
                            .map_err(ApiError::internal)?,
                    )
                    .build(),
            );
        }
        match self.transact(tx).await {
            Ok(()) => Ok(booking),
            Err(TxError::Cancelled(c)) if idempotency_key.is_some() && c.failed_at(5) => {
                // A retry with the same key won the race: answer with its booking.
                let key = idempotency_key.unwrap_or_default();
                self.replay(user, key, hash).await?.ok_or_else(|| {
                    ApiError::Conflict(
                        "A booking with this Idempotency-Key is in progress; retry".into(),
                    )
                })
            }
            Err(TxError::Cancelled(c)) if c.failed_at(1) => Err(not_available()),
            Err(TxError::Cancelled(c)) => Err(ApiError::internal(format!("{c:?}"))),
            Err(TxError::Api(e)) => Err(e),
        }
    }

    /// The booking an earlier request with this key made, if any (422 when the key
    /// was used for a different request).
    async fn replay(&self, user: Id, key: &str, hash: &str) -> Result<Option<Booking>, ApiError> {
        let Some(idem) = self
            .get::<IdempotencyItem>(&idempotency_pk(user, key), "IDEM")
            .await?
        else {
            return Ok(None);
        };
        if idem.ttl < epoch_seconds() {
            return Ok(None);
        }
        if idem.request_hash != hash {
            return Err(ApiError::Unprocessable(
                "This Idempotency-Key was already used for a different booking request".into(),
            ));
        }
        self.booking(idem.booking_id).await
    }

    pub async fn booking(&self, id: Id) -> Result<Option<Booking>, ApiError> {
        Ok(self
            .get::<BookingItem>(&booking_pk(id), "BOOKING")
            .await?
            .map(|i| i.booking))
    }

    /// A user's bookings, newest first (Query on the user's partition of `gsi1`).
    pub async fn user_bookings(&self, user: Id) -> Result<Vec<Booking>, ApiError> {
        let mut out = vec![];
        let mut start = None;
        loop {
            let page = self
                .client()
                .query()
                .table_name(self.table())
                .index_name("gsi1")
                .key_condition_expression("gsi1pk = :p")
                .expression_attribute_values(":p", s(format!("USER#{user}")))
                .scan_index_forward(false)
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(db_error)?;
            for item in page.items.unwrap_or_default() {
                out.push(from_item::<BookingItem>(item)?.booking);
            }
            start = page.last_evaluated_key;
            if start.is_none() {
                return Ok(out);
            }
        }
    }

    /// All bookings, newest first; the pages before `page` are skipped reading keys only.
    /// The total comes from the counter, read at the same time as the page's keys
    /// (see [`Store::counted_page_keys`]).
    pub async fn bookings_page(&self, page: u32, size: u32) -> Result<Page<Booking>, ApiError> {
        let total = async { Ok(self.booking_counts().await?.total.max(0) as u64) };
        let (total, keys) = self
            .counted_page_keys(total, "BOOKINGS", page, size, true)
            .await?;
        let items: Vec<BookingItem> = self.batch_get(keys).await?;
        Ok(Page::new(
            items.into_iter().map(|i| i.booking).collect(),
            total,
            page,
            size,
        ))
    }

    /// Moves a booking along the state machine; a final status frees its ambulance in
    /// the same transaction. A refused move is a 409 saying which.
    pub async fn set_booking_status(&self, id: Id, to: BookingStatus) -> Result<Booking, ApiError> {
        self.move_booking(id, to, None).await
    }

    /// [`Store::set_booking_status`] of a booking the caller has just read (to check
    /// who may move it): the first attempt starts from it instead of reading it again.
    /// The move is still conditional on the status read, and a refused attempt reads
    /// the booking afresh.
    pub async fn set_read_booking_status(
        &self,
        booking: Booking,
        to: BookingStatus,
    ) -> Result<Booking, ApiError> {
        self.move_booking(booking.id, to, Some(booking)).await
    }

    async fn move_booking(
        &self,
        id: Id,
        to: BookingStatus,
        mut read: Option<Booking>,
    ) -> Result<Booking, ApiError> {
        for _ in 0..3 {
            let booking = match read.take() {
                Some(booking) => booking,
                None => self
                    .booking(id)
                    .await?
                    .ok_or_else(|| ApiError::NotFound(format!("Booking {id} not found")))?,
            };
            let from = booking.booking_status;
            check_transition(from, to)?;
            let mut tx = vec![
                TransactWriteItem::builder()
                    .update(
                        Update::builder()
                            .table_name(self.table())
                            .set_key(Some(key(booking_pk(id), "BOOKING")))
                            .update_expression("SET bookingStatus = :to")
                            .condition_expression("bookingStatus = :from")
                            .expression_attribute_values(":to", s(to.as_str()))
                            .expression_attribute_values(":from", s(from.as_str()))
                            .build()
                            .map_err(ApiError::internal)?,
                    )
                    .build(),
                counters::add(
                    self,
                    counters::BOOKINGS,
                    &[(from.counter_field(), -1), (to.counter_field(), 1)],
                )?,
            ];
            if to.is_final() {
                // The ambulance is held by this booking (admins cannot change a held
                // ambulance); free it. If it is no longer held by it, leave it be.
                if let Some(amb) = self.ambulance_item(booking.ambulance_id).await?
                    && amb.held_by == Some(id)
                {
                    tx.push(status_change(
                        self,
                        StatusMove {
                            ambulance: amb.id,
                            hospital_of_ambulance: amb.hospital_id,
                            from: amb.status,
                            to: AmbulanceStatus::Available,
                            require_hospital: None,
                            expected_holder: Some(id),
                            held_by: None,
                        },
                    )?);
                    tx.push(status_counter_delta(
                        self,
                        amb.status,
                        AmbulanceStatus::Available,
                    )?);
                }
            }
            match self.transact(tx).await {
                // The update changed only the status, on the condition that it was
                // `from`: the booking as read, with the new status, is what is stored.
                Ok(()) => {
                    return Ok(Booking {
                        booking_status: to,
                        ..booking
                    });
                }
                // Someone moved it at the same time: look again and re-check the move.
                Err(TxError::Cancelled(_)) => continue,
                Err(TxError::Api(e)) => return Err(e),
            }
        }
        Err(ApiError::Conflict(format!(
            "Booking {id} was changed at the same time; please retry"
        )))
    }

    pub async fn booking_counts(&self) -> Result<BookingCounts, ApiError> {
        let c = counters::read(self, counters::BOOKINGS).await?;
        let get = |f: &str| c.get(f).copied().unwrap_or(0);
        Ok(BookingCounts {
            total: get("total"),
            pending: get("pending"),
            active: get("active"),
            completed: get("completed"),
            cancelled: get("cancelled"),
        })
    }

    /// Bookings made on the UTC day of `now`.
    pub async fn bookings_today(&self) -> Result<i64, ApiError> {
        let c = counters::read(self, &day_counter(&now_rfc3339())).await?;
        Ok(c.get("total").copied().unwrap_or(0))
    }
}
