//! Alerts for the dispatcher (decision 0012): `ALERT#<id>` / `ALERT`, in `gsi1`
//! under [`keys::OPEN_ALERTS`] by `since` while open, then under
//! [`keys::ENDED_ALERTS`] by when they ended (acknowledged or closed), kept 30 days.

use serde::{Deserialize, Serialize};

use super::{
    keys::{self, Key},
    schema::{GSI1, TTL_ATTRIBUTE},
    table::{Query, Store},
    tx::{Label, Tx, TxError, Write},
};
use crate::{
    domain::{
        alert::{self, Alert, AlertKind, StationCall},
        booking::{Booking, Pickup},
        hospital::Hospital,
        settings::CrewPresence,
    },
    error::ApiError,
    types::{Id, Timestamp},
};

/// Open alerts one answer lists at most (oldest first): far more than a control
/// room can work through, and a bound on what one request reads.
pub const OPEN_LIMIT: usize = 500;
/// Ended alerts one answer lists (newest first).
pub const ENDED_LIMIT: usize = 50;
/// How long an ended alert is kept.
pub const KEEP_ENDED_SECS: i64 = 30 * 24 * 60 * 60;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AlertItem {
    #[serde(flatten)]
    key: Key,
    #[serde(flatten)]
    pub(crate) alert: Alert,
    gsi1pk: String,
    gsi1sk: String,
}

impl AlertItem {
    fn new(alert: Alert) -> AlertItem {
        AlertItem {
            key: keys::alert(alert.id),
            gsi1pk: keys::OPEN_ALERTS.into(),
            gsi1sk: keys::alert_order(&alert.since.to_string(), alert.id),
            alert,
        }
    }
}

/// The put that raises `alert` (into a transaction with what caused it).
pub(crate) fn raise(alert: Alert) -> Write {
    Write::put(&AlertItem::new(alert)).absent()
}

/// The put of a `CALL_STATION` alert `id` for `booking` given to its ambulance,
/// whose crew is `presence`, of `hospital` (read by [`Alerts::station_call_parts`]).
pub(crate) fn call_station(
    id: Id,
    since: Timestamp,
    booking: &Booking,
    presence: CrewPresence,
    hospital_id: Id,
    hospital: Option<&Hospital>,
) -> Write {
    raise(Alert::call_station(
        id,
        since,
        StationCall {
            booking_id: booking.id,
            ambulance_id: booking.ambulance_id,
            ambulance_number: booking.ambulance_number.clone(),
            presence,
            hospital_id,
            hospital_name: hospital.map(|h| h.name.clone()),
            phone: hospital.and_then(|h| h.contact_info.clone()),
            pickup: booking.pickup.clone(),
        },
    ))
}

/// The update of an open `UNANSWERED` alert once every automatic move was tried:
/// the moves in all, and the ambulance the job stays with (refused unless it is
/// open).
pub(crate) fn count_moves(id: Id, moves: u32, booking: &Booking) -> Write {
    Write::update(
        keys::alert(id),
        "SET moves = :moves, ambulanceId = :ambulance, ambulanceNumber = :number",
    )
    .value(":moves", moves)
    .value(":ambulance", booking.ambulance_id)
    .value(":number", &booking.ambulance_number)
    .value(":open", keys::OPEN_ALERTS)
    .when("gsi1pk = :open")
}

/// The update that ends an open alert: `closedAt` (its cause is gone) or the
/// acknowledgement; it moves to the ended ones. Refused unless it is open.
fn end(id: Id, at: Timestamp, ack_by: Option<&str>) -> Write {
    let at_text = at.to_string();
    let mut write = Write::update(
        keys::alert(id),
        match ack_by {
            Some(_) => "SET acknowledgedBy = :by, acknowledgedAt = :at, gsi1pk = :ended, gsi1sk = :order, #ttl = :ttl",
            None => "SET closedAt = :at, gsi1pk = :ended, gsi1sk = :order, #ttl = :ttl",
        },
    )
    .name("#ttl", TTL_ATTRIBUTE)
    .value(":at", &at_text)
    .value(":ended", keys::ENDED_ALERTS)
    .value(":order", keys::alert_order(&at_text, id))
    .value(":ttl", at.get().unix_timestamp() + KEEP_ENDED_SECS)
    .value(":open", keys::OPEN_ALERTS)
    .when("gsi1pk = :open");
    if let Some(by) = ack_by {
        write = write.value(":by", by);
    }
    write
}

/// One `NO_AMBULANCE` alert per user in this many seconds: a requester tapping again
/// and again is one alert, not a flood.
pub const NO_AMBULANCE_QUIET_SECS: i64 = 5 * 60;

/// `store.alerts()`: the dispatcher's alerts. Every method of the handle is in this file.
#[derive(Clone, Copy)]
pub struct Alerts<'a> {
    pub(super) store: &'a Store,
}

impl Alerts<'_> {
    /// An emergency of `user` at `pickup` found no free ambulance: a
    /// `NO_AMBULANCE` alert, unless one was raised for this user in the last
    /// [`NO_AMBULANCE_QUIET_SECS`]. Never fails the request that found nothing: a
    /// failure is logged.
    pub async fn raise_no_ambulance(self, user: Id, pickup: &Pickup) {
        let raise = async {
            let id = self.store.next_id("alert").await?;
            let now = Timestamp::now();
            let mut alert = Alert::new(id, AlertKind::NoAmbulance, now);
            alert.pickup = Some(pickup.clone());
            let until = now.get().unix_timestamp() + NO_AMBULANCE_QUIET_SECS;
            let mut tx = Tx::new();
            tx.push(
                Label::Alert,
                Write::update(keys::no_ambulance_quiet(user), "SET #ttl = :until")
                    .name("#ttl", TTL_ATTRIBUTE)
                    .value(":until", until)
                    .value(":now", now.get().unix_timestamp())
                    .when("attribute_not_exists(pk) OR #ttl < :now"),
            )
            .push(Label::Alert, raise(alert));
            match self.store.commit(tx).await {
                Ok(()) | Err(TxError::Refused(_)) => Ok(()),
                Err(TxError::Api(e)) => Err(e),
            }
        };
        if let Err(e) = raise.await {
            tracing::error!(error = %e, %user, "could not raise a NO_AMBULANCE alert");
        }
    }

    /// The open alerts oldest first (at most [`OPEN_LIMIT`]), then at most
    /// [`ENDED_LIMIT`] recently ended ones, newest first.
    pub async fn alerts(self) -> Result<Vec<Alert>, ApiError> {
        let (open, ended) = tokio::try_join!(self.open_alerts(), async {
            self.store
                .query_first::<AlertItem>(
                    Query::on(GSI1, "gsi1pk = :p")
                        .value(":p", keys::ENDED_ALERTS)
                        .newest_first(true)
                        .page_size(ENDED_LIMIT as u64),
                    ENDED_LIMIT,
                )
                .await
        })?;
        Ok(open
            .into_iter()
            .chain(ended.into_iter().map(|i| i.alert))
            .collect())
    }

    /// The open alerts, oldest first (at most [`OPEN_LIMIT`]).
    pub async fn open_alerts(self) -> Result<Vec<Alert>, ApiError> {
        Ok(self
            .store
            .query_first::<AlertItem>(
                Query::on(GSI1, "gsi1pk = :p").value(":p", keys::OPEN_ALERTS),
                OPEN_LIMIT,
            )
            .await?
            .into_iter()
            .map(|i| i.alert)
            .collect())
    }

    /// What raising a `CALL_STATION` alert for a job of an ambulance of hospital
    /// `hospital_id` needs: an alert id and the hospital (its name and phone), read
    /// at once; `known` when the caller has read the hospital already.
    pub(crate) async fn station_call_parts(
        self,
        hospital_id: Id,
        known: Option<&Hospital>,
    ) -> Result<(Id, Option<Hospital>), ApiError> {
        let hospital = async {
            match known {
                Some(h) if h.id == hospital_id => Ok(Some(h.clone())),
                _ => self.store.hospitals().hospital(hospital_id).await,
            }
        };
        tokio::try_join!(self.store.next_id("alert"), hospital)
    }

    /// A job given to `booking`'s ambulance, of hospital `hospital_id` (`known` when
    /// the caller has read it), whose crew is `presence` (not online): a
    /// `CALL_STATION` alert, raised right after the job was committed by the route
    /// that gave it (decision 0020). Not in the job's own transaction: racers for one
    /// ambulance would all take an alert id first, and only one of them wins it.
    /// Never fails the request that made the job: a failure is logged, and the
    /// emergency's `UNANSWERED` a minute later still tells a person.
    pub async fn raise_call_station(
        self,
        booking: &Booking,
        presence: CrewPresence,
        hospital_id: Id,
        known: Option<&Hospital>,
    ) {
        let raise = async {
            let (id, hospital) = self.station_call_parts(hospital_id, known).await?;
            let since = Timestamp::new(self.store.now()).unwrap_or_else(Timestamp::now);
            let write = call_station(id, since, booking, presence, hospital_id, hospital.as_ref());
            self.store.put_if(write).await.map(|_| ())
        };
        if let Err(e) = raise.await {
            tracing::error!(error = %e, booking = %booking.id, "could not raise a CALL_STATION alert");
        }
    }

    pub async fn alert(self, id: Id) -> Result<Option<Alert>, ApiError> {
        Ok(self
            .store
            .get::<AlertItem>(&keys::alert(id))
            .await?
            .map(|i| i.alert))
    }

    /// An admin acknowledges alert `id` (404 if unknown). Acknowledging one that
    /// has already ended (acknowledged by another admin, or closed) changes
    /// nothing and answers it as it is.
    pub async fn acknowledge_alert(self, id: Id, by: &str) -> Result<Alert, ApiError> {
        let now = Timestamp::now();
        match self
            .store
            .update_returning::<AlertItem>(end(id, now, Some(by)))
            .await?
        {
            Some(item) => Ok(item.alert),
            None => self
                .alert(id)
                .await?
                .ok_or_else(|| alert::not_found(id).into()),
        }
    }

    /// Closes alert `id` (its cause is gone); false if it was no longer open.
    pub async fn close_alert(self, id: Id, at: Timestamp) -> Result<bool, ApiError> {
        Ok(self
            .store
            .update_returning::<serde::de::IgnoredAny>(end(id, at, None))
            .await?
            .is_some())
    }
}
