//! Alerts for the dispatcher (decision 0012): `ALERT#<id>` / `ALERT`, in `gsi1`
//! under [`keys::OPEN_ALERTS`] by `since` while open, then under
//! [`keys::ENDED_ALERTS`] by when they ended (acknowledged or closed), kept 30 days.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::{
    bookings::BookingItem,
    keys::{self, Key},
    limits,
    schema::{GSI1, TTL_ATTRIBUTE},
    table::{Query, Store},
    tx::{Label, Tx, TxError, Write},
};
use crate::error::StoreError;
use domain::{
    alert::{self, Alert, AlertKind, AlertsPage, ListedAlert, StationCall, no_ambulance_area},
    audit::{Action, Note, Target},
    booking::{Booking, Pickup},
    hospital::Hospital,
    presence::CrewPresence,
    types::{Id, Timestamp},
};

/// Alerts one page of the list holds.
pub const PAGE_SIZE: usize = 100;
/// Ended alerts the list ends with (newest first).
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
/// acknowledgement; it moves to the ended ones, without its `pickup`: where a
/// person was is needed to act, not to look back (a booking's stays on the booking,
/// erased with it: docs/decisions/0022-personal-data.md). Refused unless it is open.
fn end(id: Id, at: Timestamp, ack_by: Option<&str>) -> Write {
    let at_text = at.to_string();
    let mut write = Write::update(
        keys::alert(id),
        match ack_by {
            Some(_) => "SET acknowledgedBy = :by, acknowledgedAt = :at, gsi1pk = :ended, gsi1sk = :order, #ttl = :ttl REMOVE pickup",
            None => "SET closedAt = :at, gsi1pk = :ended, gsi1sk = :order, #ttl = :ttl REMOVE pickup",
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

/// The open `NO_AMBULANCE` alert of an area (`keys::no_ambulance_area`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct AreaAlert {
    #[serde(flatten)]
    key: Key,
    alert_id: Id,
}

/// Where a page of the list starts: after an open alert (its urgency, `since`, id)
/// or after an ended one (its `gsi1sk`, newest first).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Cursor {
    Open(u8, String, u64),
    Ended(String),
}

fn open_order(a: &Alert) -> (u8, String, u64) {
    (a.kind.urgency(), a.since.to_string(), a.id.get())
}

fn ended_order(a: &Alert) -> String {
    let at = a.acknowledged_at.or(a.closed_at).unwrap_or(a.since);
    keys::alert_order(&at.to_string(), a.id)
}

fn bad_cursor() -> StoreError {
    StoreError::bad_request(
        "cursor",
        "Invalid query parameter 'cursor': use the cursor of the previous page",
    )
}

/// `store.alerts()`: the dispatcher's alerts. Every method of the handle is in this file.
#[derive(Clone, Copy)]
pub struct Alerts<'a> {
    pub(super) store: &'a Store,
}

impl Alerts<'_> {
    /// An emergency of `user` (under `idempotency_key`) at `pickup` found no free
    /// ambulance: counted against the user's emergency limit (429 beyond it: a
    /// refusal is no cheaper for the dispatcher than a dispatch), and told to the
    /// dispatcher as the area's one open `NO_AMBULANCE` alert, raised or, when
    /// one is open, counted in it with this pickup as its latest; all in one
    /// transaction. The alert names `nearest`, the hospital nearest the latest pickup,
    /// with its phone: someone the dispatcher can call there (decision 0024).
    pub async fn raise_no_ambulance(
        self,
        user: Id,
        idempotency_key: Option<&str>,
        pickup: &Pickup,
        nearest: Option<&Hospital>,
        emergency_number: &str,
    ) -> Result<(), StoreError> {
        let area = keys::no_ambulance_area(&no_ambulance_area(pickup.point()));
        // Two refusals in one area at once: the loser finds the winner's alert.
        for _ in 0..5 {
            let (counted, limited) =
                limits::count_emergency(user, idempotency_key, emergency_number);
            let mut tx = Tx::new();
            tx.push(Label::RateLimit, counted);
            let open = self.store.get::<AreaAlert>(&area).await?;
            match &open {
                Some(open) => {
                    let update = match nearest {
                        Some(_) => {
                            "ADD #count :one SET pickup = :pickup, hospitalId = :hospital, hospitalName = :name, phone = :phone"
                        }
                        None => {
                            "ADD #count :one SET pickup = :pickup REMOVE hospitalId, hospitalName, phone"
                        }
                    };
                    let mut write = Write::update(keys::alert(open.alert_id), update)
                        .name("#count", "count")
                        .value(":one", 1)
                        .value(":pickup", pickup)
                        .value(":open", keys::OPEN_ALERTS)
                        .when("gsi1pk = :open");
                    if let Some(h) = nearest {
                        write = write
                            .value(":hospital", h.id)
                            .value(":name", &h.name)
                            .value(":phone", &h.contact_info);
                    }
                    tx.push(Label::Alert, write);
                }
                None => {
                    let id = self.store.next_id("alert").await?;
                    let mut alert = Alert::new(id, AlertKind::NoAmbulance, Timestamp::now());
                    alert.pickup = Some(pickup.clone());
                    alert.count = Some(1);
                    alert.hospital_id = nearest.map(|h| h.id);
                    alert.hospital_name = nearest.map(|h| h.name.clone());
                    alert.phone = nearest.and_then(|h| h.contact_info.clone());
                    tx.push(Label::Alert, raise(alert));
                    tx.push(
                        Label::AreaAlert,
                        Write::put(&AreaAlert {
                            key: area.clone(),
                            alert_id: id,
                        })
                        .absent(),
                    );
                }
            }
            match self.store.commit(tx).await {
                Ok(()) => return Ok(()),
                Err(TxError::Refused(r)) if r.by(Label::RateLimit) => return Err(limited),
                // The area's alert ended: a new one replaces it.
                Err(TxError::Refused(r)) if r.by(Label::Alert) && open.is_some() => {
                    self.store
                        .delete_if(
                            Write::delete(area.clone())
                                .value(":id", open.as_ref().map(|o| o.alert_id))
                                .when("alertId = :id"),
                        )
                        .await?;
                }
                // Another refusal raised the area's alert first.
                Err(TxError::Refused(_)) => {}
                Err(e) => return Err(e.into_api()),
            }
        }
        Err(StoreError::Unavailable)
    }

    /// One page of the list (see [`AlertsPage`]), after `cursor`. Every open alert
    /// is read for the order (a Query of `gsi1`, in pages): nothing open is ever
    /// pushed off the list, however many there are.
    pub async fn page(self, cursor: Option<&str>) -> Result<AlertsPage, StoreError> {
        let after = match cursor {
            None => None,
            Some(text) => Some(
                domain::push::base64url_decode(text)
                    .and_then(|b| serde_json::from_slice::<Cursor>(&b).ok())
                    .ok_or_else(bad_cursor)?,
            ),
        };
        let (mut open, ended) = tokio::try_join!(self.open_alerts(), self.ended_alerts())?;
        open.sort_by_key(open_order);
        let mut items: Vec<(Cursor, Alert)> = open
            .into_iter()
            .map(|a| {
                (
                    Cursor::Open(a.kind.urgency(), a.since.to_string(), a.id.get()),
                    a,
                )
            })
            .chain(
                ended
                    .into_iter()
                    .map(|a| (Cursor::Ended(ended_order(&a)), a)),
            )
            .collect();
        if let Some(after) = after {
            let later = |c: &Cursor| match (c, &after) {
                (Cursor::Open(u, s, i), Cursor::Open(au, as_, ai)) => (u, s, i) > (au, as_, ai),
                (Cursor::Ended(_), Cursor::Open(..)) => true,
                (Cursor::Open(..), Cursor::Ended(_)) => false,
                (Cursor::Ended(o), Cursor::Ended(ao)) => o < ao,
            };
            items.retain(|(c, _)| later(c));
        }
        let more = items.len() > PAGE_SIZE;
        items.truncate(PAGE_SIZE);
        let cursor = match (more, items.last()) {
            (true, Some((c, _))) => Some(domain::push::base64url_encode(
                &serde_json::to_vec(c).map_err(StoreError::internal)?,
            )),
            _ => None,
        };
        Ok(AlertsPage {
            items: self
                .listed(items.into_iter().map(|(_, a)| a).collect())
                .await?,
            cursor,
        })
    }

    /// The page's alerts as the list shows them ([`ListedAlert`]): the open ones'
    /// bookings in one BatchGetItem (a page holds at most 100, one request's worth)
    /// beside their ambulances' presence, whatever the number of alerts: never a read
    /// per alert. Ended alerts are shown as stored: nobody acts on them, and no
    /// phone number is handed out for them.
    async fn listed(self, alerts: Vec<Alert>) -> Result<Vec<ListedAlert>, StoreError> {
        let open = || alerts.iter().filter(|a| a.is_open());
        let mut bookings: Vec<Id> = open().filter_map(|a| a.booking_id).collect();
        bookings.sort_unstable();
        bookings.dedup();
        let mut ambulances: Vec<Id> = open().filter_map(|a| a.ambulance_id).collect();
        ambulances.sort_unstable();
        ambulances.dedup();
        let read_bookings = async {
            if bookings.is_empty() {
                return Ok(vec![]);
            }
            self.store
                .batch_get::<BookingItem>(bookings.iter().map(|id| keys::booking(*id)).collect())
                .await
        };
        let presence = async {
            if ambulances.is_empty() {
                return Ok(HashMap::new());
            }
            self.store.positions().presence(ambulances.clone()).await
        };
        let (found, presence) = tokio::try_join!(read_bookings, presence)?;
        let found: HashMap<Id, Booking> = found
            .into_iter()
            .map(|i| (i.booking.id, Booking::from(i)))
            .collect();
        Ok(alerts
            .into_iter()
            .map(|alert| {
                if !alert.is_open() {
                    return ListedAlert::from(alert);
                }
                let booking = alert.booking_id.and_then(|id| found.get(&id));
                let ambulance_presence =
                    alert.ambulance_id.and_then(|id| presence.get(&id).copied());
                let mut alert = alert;
                // An UNANSWERED or CALL_STATION alert of a booking made before pickups
                // were copied into alerts: the booking's pickup, for the map.
                if alert.pickup.is_none() {
                    alert.pickup = booking.and_then(|b| b.pickup.clone());
                }
                ListedAlert {
                    requester_phone: booking.and_then(|b| b.user_phone.clone()),
                    booking_type: booking.map(|b| b.booking_type),
                    destination_name: booking
                        .map(|b| b.hospital_name.clone())
                        .filter(|n| !n.is_empty()),
                    ambulance_presence,
                    alert,
                }
            })
            .collect())
    }

    /// Every open alert, oldest first (the clock closes those whose cause is gone).
    pub async fn open_alerts(self) -> Result<Vec<Alert>, StoreError> {
        Ok(self
            .store
            .query_all::<AlertItem>(Query::on(GSI1, "gsi1pk = :p").value(":p", keys::OPEN_ALERTS))
            .await?
            .into_iter()
            .map(|i| i.alert)
            .collect())
    }

    /// At most [`ENDED_LIMIT`] recently ended alerts, newest first.
    async fn ended_alerts(self) -> Result<Vec<Alert>, StoreError> {
        Ok(self
            .store
            .query_first::<AlertItem>(
                Query::on(GSI1, "gsi1pk = :p")
                    .value(":p", keys::ENDED_ALERTS)
                    .newest_first(true)
                    .page_size(ENDED_LIMIT as u64),
                ENDED_LIMIT,
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
    ) -> Result<(Id, Option<Hospital>), StoreError> {
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
            let since = self.store.timestamp();
            let write = call_station(id, since, booking, presence, hospital_id, hospital.as_ref());
            self.store.put_if(write).await.map(|_| ())
        };
        if let Err(e) = raise.await {
            tracing::error!(error = %e, booking = %booking.id, "could not raise a CALL_STATION alert");
        }
    }

    pub async fn alert(self, id: Id) -> Result<Option<Alert>, StoreError> {
        Ok(self
            .store
            .get::<AlertItem>(&keys::alert(id))
            .await?
            .map(|i| i.alert))
    }

    /// An admin acknowledges alert `id` (404 if unknown). Acknowledging one that
    /// has already ended (acknowledged by another admin, or closed) changes
    /// nothing and answers it as it is.
    /// The acknowledgement is on the audit trail, in its own transaction.
    pub async fn acknowledge_alert(self, id: Id, by: &str) -> Result<Alert, StoreError> {
        let now = Timestamp::now();
        let read = self.alert(id).await?.ok_or_else(|| alert::not_found(id))?;
        if !read.is_open() {
            return Ok(read);
        }
        let mut tx = Tx::new();
        tx.push(Label::Alert, end(id, now, Some(by)));
        let target = Target::alert(id, read.kind.as_ref(), read.booking_id, read.ambulance_id);
        let note = Note::new(Action::AlertAcknowledged, target);
        self.store.audit().push(&mut tx, note);
        match self.store.commit(tx).await {
            Ok(()) => Ok(Alert {
                acknowledged_by: Some(by.to_owned()),
                acknowledged_at: Some(now),
                pickup: None,
                ..read
            }),
            // Ended meanwhile: as it is now.
            Err(TxError::Refused(r)) if r.by(Label::Alert) => self
                .alert(id)
                .await?
                .ok_or_else(|| alert::not_found(id).into()),
            Err(e) => Err(e.into_api()),
        }
    }

    /// Closes alert `id` (its cause is gone); false if it was no longer open.
    pub async fn close_alert(self, id: Id, at: Timestamp) -> Result<bool, StoreError> {
        Ok(self
            .store
            .update_returning::<serde::de::IgnoredAny>(end(id, at, None))
            .await?
            .is_some())
    }
}
