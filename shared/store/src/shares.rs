//! What a requester changes on an open booking after the tap: the patient details,
//! and the tracking links family open without an account (docs/decisions/0007-dispatch-data.md).
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
//!
//! # Caps (docs/requirements.md, "Tracking and family link")
//!
//! A booking makes at most [`MAX_SHARE_LINKS`] links in any 24 hours: the booking
//! item lists when its recent links were made, and the transaction that puts a
//! link rewrites that list on the condition that it is still the one read (a
//! version number), so racing requests cannot pass the cap. Revoking stops links
//! but gives none back: their items are kept until their TTL all the same. The
//! patient details take at most [`MAX_PATIENT_EDITS`] rewrites, counted by the
//! rewrite's own conditional update.

use domain::refusal::Conflict;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use super::{
    bookings::BookingItem,
    keys::{self, Key},
    table::Store,
    tx::{Label, Tx, TxError, Write},
};
use crate::error::StoreError;
use domain::{
    booking::{self, Booking, BookingStatus, Patient, PatientDetails},
    emergency::{
        self, SHARE_MAX_AGE, ShareLink, SharedTrip, new_share_token, share_expiry, share_not_found,
        share_token_hash,
    },
    types::{Id, Timestamp},
};

/// Tracking links a booking may have made in any 24 hours (a link lives at most
/// that long), revoked ones included: family needs one or two, and one link works
/// for everyone who has it.
pub const MAX_SHARE_LINKS: usize = 5;

/// Times a requester may rewrite a booking's patient details.
pub const MAX_PATIENT_EDITS: u32 = 20;

fn too_many_links(id: Id) -> Conflict {
    Conflict::TooManyShareLinks {
        id,
        max: MAX_SHARE_LINKS,
    }
}

fn too_many_patient_edits(id: Id) -> Conflict {
    Conflict::TooManyPatientEdits {
        id,
        max: MAX_PATIENT_EDITS,
    }
}

/// `SHARE#<sha256 of the token>` / `SHARE`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ShareItem {
    #[serde(flatten)]
    key: Key,
    booking_id: Id,
    /// The booking's `shareEpoch` when the link was made.
    epoch: u64,
    created_at: Timestamp,
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

/// `store.shares()`: what a requester changes after the tap: patient details, tracking
/// links. Every method of the handle is in this file.
#[derive(Clone, Copy)]
pub struct Shares<'a> {
    pub(super) store: &'a Store,
}

impl Shares<'_> {
    pub(crate) async fn booking_item(self, id: Id) -> Result<Option<BookingItem>, StoreError> {
        self.store.get(&keys::booking(id)).await
    }

    /// Booking `id` if `requester` made it: 404 unknown, 403 someone else's.
    async fn requesters_booking(self, id: Id, requester: Id) -> Result<BookingItem, StoreError> {
        let item = self
            .booking_item(id)
            .await?
            .ok_or_else(|| booking::not_found(id))?;
        if item.booking.user_id != requester {
            return Err(emergency::not_the_requester().into());
        }
        Ok(item)
    }

    /// [`Shares::requesters_booking`], and 409 when it is final (`what` says what can
    /// no longer be done).
    async fn requesters_open_booking(
        self,
        id: Id,
        requester: Id,
        what: &str,
    ) -> Result<BookingItem, StoreError> {
        let item = self.requesters_booking(id, requester).await?;
        let status = item.booking.booking_status;
        if status.is_final() {
            return Err(emergency::booking_final(id, status, what).into());
        }
        Ok(item)
    }

    /// The requester's patient details, whole, on their open booking.
    pub async fn update_patient(
        self,
        id: Id,
        requester: Id,
        patient: Patient,
    ) -> Result<Booking, StoreError> {
        const WHAT: &str = "its patient details can no longer change";
        let item = self.requesters_open_booking(id, requester, WHAT).await?;
        if item.patient_edits >= MAX_PATIENT_EDITS {
            return Err(too_many_patient_edits(id).into());
        }
        // Counted by the rewrite itself, so racing rewrites cannot pass the cap.
        let write = Write::update(
            keys::booking(id),
            "SET patient = :patient ADD patientEdits :one",
        )
        .when("(attribute_not_exists(patientEdits) OR patientEdits < :max)")
        .value(":patient", PatientDetails::from(patient))
        .value(":one", 1)
        .value(":max", MAX_PATIENT_EDITS);
        match self
            .store
            .update_returning::<BookingItem>(while_open(write))
            .await?
        {
            Some(item) => Ok(item.into()),
            // It became final, or reached the cap, meanwhile: say which.
            None => {
                let now = self.requesters_open_booking(id, requester, WHAT).await?;
                Err(if now.patient_edits >= MAX_PATIENT_EDITS {
                    too_many_patient_edits(id)
                } else {
                    Conflict::BookingChangedRetry(id)
                }
                .into())
            }
        }
    }

    /// A new tracking link for the requester's open booking, within
    /// [`MAX_SHARE_LINKS`] a day (409 beyond).
    pub async fn share_booking(self, id: Id, requester: Id) -> Result<ShareLink, StoreError> {
        const WHAT: &str = "its trip can no longer be shared";
        // A lost race is a link another request made (or a revocation): after at
        // most MAX_SHARE_LINKS of them the cap answers, so this many reads suffice.
        for _ in 0..=MAX_SHARE_LINKS {
            let item = self.requesters_open_booking(id, requester, WHAT).await?;
            let now = OffsetDateTime::now_utc();
            let day_ago = (now - SHARE_MAX_AGE).unix_timestamp();
            let mut made: Vec<i64> = item
                .share_links_made
                .iter()
                .copied()
                .filter(|at| *at > day_ago)
                .collect();
            if made.len() >= MAX_SHARE_LINKS {
                return Err(too_many_links(id).into());
            }
            made.push(now.unix_timestamp());
            let token = new_share_token();
            let hash = share_token_hash(&token).expect("a token we made is well formed");
            let share = ShareItem {
                key: keys::share_link(&hash),
                booking_id: id,
                epoch: item.share_epoch,
                created_at: Timestamp::new(now).expect("the clock is within years 0000 to 9999"),
                ttl: (now + SHARE_MAX_AGE).unix_timestamp(),
            };
            let booking = Write::update(
                keys::booking(id),
                "SET shareLinksMade = :made ADD shareLinksVersion :one",
            )
            .value(":made", made)
            .value(":one", 1)
            // Still open, not revoked and no other link made since it was read.
            .when("(attribute_not_exists(shareEpoch) OR shareEpoch = :epoch)")
            .value(":epoch", item.share_epoch)
            .when("(attribute_not_exists(shareLinksVersion) OR shareLinksVersion = :seen)")
            .value(":seen", item.share_links_version);
            let mut tx = Tx::new();
            tx.push(Label::ShareLink, Write::put(&share).absent())
                .push(Label::Booking(id), while_open(booking));
            match self.store.commit(tx).await {
                Ok(()) => {
                    let expires_at = Timestamp::new(share_expiry(now, &item.booking.timeline))
                        .ok_or_else(|| StoreError::internal("a link's expiry beyond year 9999"))?;
                    return Ok(ShareLink::new(token, expires_at));
                }
                // Read again: final now (409), at the cap (409), or another try.
                Err(TxError::Refused(r)) if r.by(Label::Booking(id)) => continue,
                Err(e) => return Err(e.into_api()),
            }
        }
        Err(Conflict::BookingChangedRetry(id).into())
    }

    /// Stops every link of the requester's booking (open or final).
    pub async fn revoke_shares(self, id: Id, requester: Id) -> Result<(), StoreError> {
        self.requesters_booking(id, requester).await?;
        let write = Write::update(keys::booking(id), "ADD shareEpoch :one")
            .exists()
            .value(":one", 1);
        let mut tx = Tx::new();
        tx.push(Label::Booking(id), write);
        self.store
            .commit(tx)
            .await
            .map_err(|e| e.or_refused(|_| booking::not_found(id).into()))
    }

    /// What a tracking link shows, while it works.
    pub async fn shared_trip(self, token: &str) -> Result<SharedTrip, StoreError> {
        let hash = share_token_hash(token).ok_or_else(share_not_found)?;
        let share = self
            .store
            .get::<ShareItem>(&keys::share_link(&hash))
            .await?
            .ok_or_else(share_not_found)?;
        let created = share.created_at.get();
        let now = OffsetDateTime::now_utc();
        if now >= created + SHARE_MAX_AGE {
            return Err(share_not_found().into());
        }
        let item = self
            .booking_item(share.booking_id)
            .await?
            .ok_or_else(share_not_found)?;
        if item.share_epoch != share.epoch {
            return Err(share_not_found().into());
        }
        let booking = Booking::from(item);
        if now >= share_expiry(created, &booking.timeline) {
            return Err(share_not_found().into());
        }
        Ok(self.store.dispatch().tracking(booking).await?.into())
    }
}
