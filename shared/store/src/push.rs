//! Web Push subscriptions (decision 0014) and the stream's images read as domain
//! changes.
//!
//! A subscription is `PUSH#<user>` / `SUB#<digest of its endpoint>`: a Query of the
//! user's partition lists their devices (at most [`MAX_DEVICES`], the oldest dropped
//! by the write that adds one more). An admin's also sit in `gsi1` under
//! [`keys::ADMIN_DEVICES`], so an alert reaches every admin with one Query. Each
//! remembers the session (its tag) that made it: signing that session out deletes it;
//! a new password deletes them all. One not renewed (the app subscribes again on
//! every visit) lapses after as long as an unused session would, so a phone whose
//! session simply ran out stops getting pushes: it is not sent to from then, and
//! DynamoDB's TTL deletes it.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{
    alerts::AlertItem,
    bookings::BookingItem,
    fleet::AmbulanceItem,
    keys::{self, Key},
    schema::GSI1,
    sessions::REFRESH_TTL_SECS,
    table::{Query, Store, readable},
    tx::{Label, Tx, TxError, Write},
    users::UserItem,
};
use crate::error::StoreError;
use domain::{
    privacy::ExportedDevice,
    push::{Change, PushSubscription},
    types::{Id, Timestamp},
};

/// Devices one account may have: a new one beyond drops the oldest.
pub const MAX_DEVICES: usize = 5;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DeviceItem {
    #[serde(flatten)]
    key: Key,
    user_id: Id,
    #[serde(flatten)]
    subscription: PushSubscription,
    /// The tag of the session that subscribed (`sessions::session_tag`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    session: Option<String>,
    /// Epoch milliseconds: the oldest is dropped first.
    created_at: i64,
    /// Epoch seconds after which it is not sent to (and DynamoDB deletes it):
    /// [`REFRESH_TTL_SECS`] after it was last subscribed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ttl: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    gsi1pk: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    gsi1sk: Option<String>,
}

/// One device of one account, as the sender needs it.
#[derive(Debug, Clone)]
pub struct Device {
    pub user_id: Id,
    pub subscription: PushSubscription,
}

impl From<DeviceItem> for Device {
    fn from(i: DeviceItem) -> Self {
        Device {
            user_id: i.user_id,
            subscription: i.subscription,
        }
    }
}

/// The sort key of a subscription: a digest of its endpoint (an endpoint is up to
/// 1 000 characters and a capability URL, so it is not a key).
fn device_key(user: Id, endpoint: &str) -> Key {
    let digest = Sha256::digest(endpoint.as_bytes());
    keys::push_device(user, &hex::encode(&digest[..16]))
}

/// Whose subscription is asked for: the user, and whether they are an admin (whose
/// devices also go in the admins' index).
#[derive(Debug, Clone, Copy)]
pub struct Subscriber {
    pub user: Id,
    pub admin: bool,
}

/// `store.push()`: Web Push: subscriptions, devices, recipients. Every method of the handle
/// is in this file.
#[derive(Clone, Copy)]
pub struct Push<'a> {
    pub(super) store: &'a Store,
}

impl Push<'_> {
    /// Stores `subscription` for `who` (the same endpoint again replaces it), made
    /// by `session` under `session_version`; beyond [`MAX_DEVICES`] the oldest are
    /// deleted in the same transaction. The write is conditional on the session not
    /// having ended (signed out, or every session ended by a new password): a
    /// sign-out racing the subscribe either comes first (401 here, nothing written)
    /// or after (its deletion of the session's devices sees this one).
    pub async fn subscribe(
        self,
        who: Subscriber,
        subscription: PushSubscription,
        session: Option<String>,
        session_version: u64,
    ) -> Result<(), StoreError> {
        let key = device_key(who.user, subscription.endpoint());
        let mut devices = self.device_items(who.user).await?;
        devices.retain(|d| d.key != key);
        devices.sort_by_key(|d| d.created_at);
        let now = (self.store.now().unix_timestamp_nanos() / 1_000_000) as i64;
        let item = DeviceItem {
            gsi1pk: who.admin.then(|| keys::ADMIN_DEVICES.to_owned()),
            gsi1sk: who
                .admin
                .then(|| format!("{}#{}", who.user.padded(), key.sk)),
            key,
            user_id: who.user,
            subscription,
            session: session.clone(),
            created_at: now,
            ttl: Some(now / 1000 + REFRESH_TTL_SECS),
        };
        let mut tx = Tx::new();
        let mut alive = Write::check(keys::user(who.user))
            .value(":version", session_version)
            .value(":zero", 0);
        let version = "(sessionVersion = :version OR (attribute_not_exists(sessionVersion) AND :version = :zero))";
        alive = match &session {
            Some(tag) => alive.name("#tag", tag).when(format!(
                "attribute_exists(pk) AND {version} AND attribute_not_exists(endedSessions.#tag)"
            )),
            None => alive.when(format!("attribute_exists(pk) AND {version}")),
        };
        tx.push(Label::User, alive);
        tx.push(Label::Device, Write::put(&item));
        let excess = (devices.len() + 1).saturating_sub(MAX_DEVICES);
        for old in devices.into_iter().take(excess) {
            tx.push(Label::OldDevice, Write::delete(old.key));
        }
        match self.store.commit(tx).await {
            Err(TxError::Refused(r)) if r.by(Label::User) => Err(StoreError::SignedOut(
                "This session has ended; please sign in again".into(),
            )),
            other => other.map_err(TxError::into_api),
        }
    }

    /// Deletes `user`'s subscription with `endpoint`, if there is one.
    pub async fn unsubscribe(self, user: Id, endpoint: &str) -> Result<(), StoreError> {
        self.store.delete_item(&device_key(user, endpoint)).await
    }

    async fn device_items(self, user: Id) -> Result<Vec<DeviceItem>, StoreError> {
        self.store
            .query_all(Query::table("pk = :p").value(":p", keys::push_devices(user)))
            .await
    }

    /// The devices of `user` (those not lapsed).
    pub async fn devices(self, user: Id) -> Result<Vec<Device>, StoreError> {
        Ok(self.not_lapsed(self.device_items(user).await?))
    }

    /// The devices whose subscription has not lapsed (DynamoDB's TTL deletes late).
    fn not_lapsed(self, items: Vec<DeviceItem>) -> Vec<Device> {
        let now = self.store.now().unix_timestamp();
        items
            .into_iter()
            .filter(|i| i.ttl.is_none_or(|t| t > now))
            .map(Device::from)
            .collect()
    }

    /// The devices of every admin (one Query of `gsi1`).
    pub async fn admin_devices(self) -> Result<Vec<Device>, StoreError> {
        let items: Vec<DeviceItem> = self
            .store
            .query_all(Query::on(GSI1, "gsi1pk = :p").value(":p", keys::ADMIN_DEVICES))
            .await?;
        Ok(self.not_lapsed(items))
    }

    /// The devices of every crew account of `ambulance`.
    pub async fn crew_devices(self, ambulance: Id) -> Result<Vec<Device>, StoreError> {
        let crew: Vec<UserItem> = self
            .store
            .query_all(Query::on(GSI1, "gsi1pk = :p").value(":p", keys::ambulance_crew(ambulance)))
            .await?;
        let mut out = vec![];
        for member in crew {
            out.extend(self.devices(member.user.id).await?);
        }
        Ok(out)
    }

    /// The devices of every staff account of `hospital` (decision 0026).
    pub async fn staff_devices(self, hospital: Id) -> Result<Vec<Device>, StoreError> {
        let staff: Vec<UserItem> = self
            .store
            .query_all(Query::on(GSI1, "gsi1pk = :p").value(":p", keys::hospital_staff(hospital)))
            .await?;
        let mut out = vec![];
        for member in staff {
            out.extend(self.devices(member.user.id).await?);
        }
        Ok(out)
    }

    /// The requester of booking `id`, if it exists.
    pub async fn requester_of(self, id: Id) -> Result<Option<Id>, StoreError> {
        Ok(self
            .store
            .get::<BookingItem>(&keys::booking(id))
            .await?
            .map(|b| b.booking.user_id))
    }

    /// Where ambulance `id` is, as well as we know: its last reported position, else
    /// its hospital (a JOB's `distanceKm`).
    pub async fn ambulance_point(self, id: Id) -> Result<Option<domain::geo::Point>, StoreError> {
        if let Some(fix) = self.store.positions().last_position(id).await? {
            return Ok(Some(fix.point()));
        }
        match self
            .store
            .get::<AmbulanceItem>(&keys::ambulance(id))
            .await?
        {
            Some(item) => self.store.fleet().hospital_point(&item).await.map(Some),
            None => Ok(None),
        }
    }

    /// Whether `user` still has the device with `endpoint` (not signed out, not
    /// lapsed): a retried push goes only to a device that is still there.
    pub async fn is_subscribed(self, user: Id, endpoint: &str) -> Result<bool, StoreError> {
        let item = self
            .store
            .get::<DeviceItem>(&device_key(user, endpoint))
            .await?;
        Ok(!self.not_lapsed(item.into_iter().collect()).is_empty())
    }

    /// Deletes the device a push service said is gone (404/410).
    pub async fn forget_device(self, user: Id, endpoint: &str) -> Result<(), StoreError> {
        self.unsubscribe(user, endpoint).await
    }

    /// `user`'s devices as their export shows them: the push service's host, when
    /// subscribed and until when (the endpoint and keys are credentials: left out).
    pub async fn device_records(self, user: Id) -> Result<Vec<ExportedDevice>, StoreError> {
        let ms = |ms: i64| {
            time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
                .ok()
                .and_then(Timestamp::new)
        };
        Ok(self
            .device_items(user)
            .await?
            .into_iter()
            .filter_map(|i| {
                Some(ExportedDevice {
                    push_service: i
                        .subscription
                        .endpoint()
                        .parse::<http::Uri>()
                        .ok()?
                        .host()?
                        .to_owned(),
                    created_at: ms(i.created_at)?,
                    lapses_at: i.ttl.and_then(|t| ms(t.saturating_mul(1000))),
                })
            })
            .collect())
    }

    /// Deletes `user`'s devices: all of them (a new password), or those of one
    /// session (its sign-out).
    pub async fn forget_devices(self, user: Id, session: Option<&str>) -> Result<(), StoreError> {
        for item in self.device_items(user).await? {
            if session.is_none() || item.session.as_deref() == session {
                self.store.delete_item(&item.key).await?;
            }
        }
        Ok(())
    }
}

/// The change a stream record reports, read as the domain's types: a booking's or
/// an alert's images (what else changed is nobody's news). An image that does not
/// read is logged and skipped like any unreadable item.
pub fn change_of(
    old: Option<serde_dynamo::Item>,
    new: Option<serde_dynamo::Item>,
) -> Option<Change> {
    let key = |image: &Option<serde_dynamo::Item>| {
        image
            .clone()
            .and_then(|i| serde_dynamo::from_item::<_, Key>(i).ok())
    };
    let k = key(&new).or_else(|| key(&old))?;
    let read = |image: Option<serde_dynamo::Item>| image.map(super::Item::from);
    if keys::is_booking(&k) {
        Some(Change::Booking {
            old: read(old)
                .and_then(readable::<BookingItem>)
                .map(domain::booking::Booking::from),
            new: read(new)
                .and_then(readable::<BookingItem>)
                .map(domain::booking::Booking::from),
        })
    } else if keys::is_alert(&k) {
        Some(Change::Alert {
            old: read(old).and_then(readable::<AlertItem>).map(|a| a.alert),
            new: read(new).and_then(readable::<AlertItem>).map(|a| a.alert),
        })
    } else {
        None
    }
}
