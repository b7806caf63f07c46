//! What a requester changes on an open booking after the tap: the patient details,
//! and the tracking links family open without an account (DESIGN.md section 8).
//!
//! # Share links
//!
//! A link's token is 256 random bits; only its SHA-256 is stored, as the key of a
//! `SHARE#<hash>` item holding the booking id, when it was made, and the booking's
//! share epoch at that moment. Revoking adds one to the booking's `shareEpoch`, so
//! every link made before stops at once, without finding them. A link works while
//! its epoch is the booking's, for at most 24 h after it was made, and until 1 h
//! after the booking became final (`domain::emergency::share_expiry`); the item's
//! TTL removes it after the 24 h. Unknown, expired and revoked links answer the same
//! 404.

use serde::{Deserialize, Serialize};
use time::{OffsetDateTime, format_description::well_known::Rfc3339};

use super::{
    bookings::BookingItem,
    keys::{self, Key},
    table::Store,
    tx::{Label, Tx, TxError, Write},
};
use crate::{
    domain::{
        booking::{self, Booking, BookingStatus, Patient, PatientDetails},
        emergency::{
            self, SHARE_MAX_AGE, ShareLink, SharedTrip, new_share_token, share_expiry,
            share_not_found, share_token_hash,
        },
    },
    error::ApiError,
    types::{Id, format_rfc3339},
};

/// `SHARE#<sha256 of the token>` / `SHARE`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ShareItem {
    #[serde(flatten)]
    key: Key,
    booking_id: Id,
    /// The booking's `shareEpoch` when the link was made.
    epoch: u64,
    created_at: String,
    /// The table's TTL attribute: 24 h after it was made.
    ttl: i64,
}

/// The condition that a booking is still open.
const OPEN: &str = "bookingStatus IN (:pending, :active)";

fn while_open(write: Write) -> Write {
    write
        .when(OPEN)
        .value(":pending", BookingStatus::Pending)
        .value(":active", BookingStatus::Active)
}

impl Store {
    pub(crate) async fn booking_item(&self, id: Id) -> Result<Option<BookingItem>, ApiError> {
        self.get(&keys::booking(id)).await
    }

    /// Booking `id` if `requester` made it: 404 unknown, 403 someone else's.
    async fn requesters_booking(&self, id: Id, requester: Id) -> Result<BookingItem, ApiError> {
        let item = self
            .booking_item(id)
            .await?
            .ok_or_else(|| booking::not_found(id))?;
        if item.booking.user_id != requester {
            return Err(emergency::not_the_requester());
        }
        Ok(item)
    }

    /// [`Store::requesters_booking`], and 409 when it is final (`what` says what can
    /// no longer be done).
    async fn requesters_open_booking(
        &self,
        id: Id,
        requester: Id,
        what: &str,
    ) -> Result<BookingItem, ApiError> {
        let item = self.requesters_booking(id, requester).await?;
        let status = item.booking.booking_status;
        if status.is_final() {
            return Err(emergency::booking_final(id, status, what));
        }
        Ok(item)
    }

    /// The requester's patient details, whole, on their open booking.
    pub async fn update_patient(
        &self,
        id: Id,
        requester: Id,
        patient: Patient,
    ) -> Result<Booking, ApiError> {
        const WHAT: &str = "its patient details can no longer change";
        self.requesters_open_booking(id, requester, WHAT).await?;
        let write = Write::update(keys::booking(id), "SET patient = :patient")
            .value(":patient", PatientDetails::from(patient));
        match self
            .update_returning::<BookingItem>(while_open(write))
            .await?
        {
            Some(item) => Ok(item.into()),
            // It became final meanwhile: say so.
            None => Err(self
                .requesters_open_booking(id, requester, WHAT)
                .await
                .err()
                .unwrap_or_else(|| {
                    ApiError::Conflict(format!("Booking {id} changed meanwhile; retry"))
                })),
        }
    }

    /// A new tracking link for the requester's open booking.
    pub async fn share_booking(&self, id: Id, requester: Id) -> Result<ShareLink, ApiError> {
        const WHAT: &str = "its trip can no longer be shared";
        let item = self.requesters_open_booking(id, requester, WHAT).await?;
        let token = new_share_token();
        let hash = share_token_hash(&token).expect("a token we made is well formed");
        let now = OffsetDateTime::now_utc();
        let share = ShareItem {
            key: keys::share_link(&hash),
            booking_id: id,
            epoch: item.share_epoch,
            created_at: format_rfc3339(now),
            ttl: (now + SHARE_MAX_AGE).unix_timestamp(),
        };
        let mut tx = Tx::new();
        tx.push(Label::ShareLink, Write::put(&share).absent()).push(
            Label::Booking(id),
            // Still open, and not revoked since it was read.
            while_open(Write::check(keys::booking(id)))
                .when("(attribute_not_exists(shareEpoch) OR shareEpoch = :epoch)")
                .value(":epoch", item.share_epoch),
        );
        match self.commit(tx).await {
            Ok(()) => Ok(ShareLink::new(
                token,
                format_rfc3339(share_expiry(now, &item.booking.timeline)),
            )),
            Err(TxError::Refused(r)) if r.by(Label::Booking(id)) => Err(self
                .requesters_open_booking(id, requester, WHAT)
                .await
                .err()
                .unwrap_or_else(|| {
                    ApiError::Conflict(format!("Booking {id} changed meanwhile; retry"))
                })),
            Err(e) => Err(e.into_api()),
        }
    }

    /// Stops every link of the requester's booking (open or final).
    pub async fn revoke_shares(&self, id: Id, requester: Id) -> Result<(), ApiError> {
        self.requesters_booking(id, requester).await?;
        let write = Write::update(keys::booking(id), "ADD shareEpoch :one")
            .exists()
            .value(":one", 1);
        let mut tx = Tx::new();
        tx.push(Label::Booking(id), write);
        self.commit(tx)
            .await
            .map_err(|e| e.or_refused(|_| booking::not_found(id)))
    }

    /// What a tracking link shows, while it works.
    pub async fn shared_trip(&self, token: &str) -> Result<SharedTrip, ApiError> {
        let hash = share_token_hash(token).ok_or_else(share_not_found)?;
        let share = self
            .get::<ShareItem>(&keys::share_link(&hash))
            .await?
            .ok_or_else(share_not_found)?;
        let created = OffsetDateTime::parse(&share.created_at, &Rfc3339).map_err(|_| {
            ApiError::internal(format!(
                "share of booking {}: bad createdAt",
                share.booking_id
            ))
        })?;
        let now = OffsetDateTime::now_utc();
        if now >= created + SHARE_MAX_AGE {
            return Err(share_not_found());
        }
        let item = self
            .booking_item(share.booking_id)
            .await?
            .ok_or_else(share_not_found)?;
        if item.share_epoch != share.epoch {
            return Err(share_not_found());
        }
        let booking = Booking::from(item);
        if now >= share_expiry(created, &booking.timeline) {
            return Err(share_not_found());
        }
        Ok(self.tracking(booking).await?.into())
    }
}
