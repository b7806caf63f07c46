//! Ambulances, the handle `store.fleet()`: the fleet's items and reads, an admin's
//! status change (the ambulance and the fleet counter), and adding and removing an
//! ambulance, each in one transaction with its hospital's `ambulanceCount` and the
//! counters.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::json;
use time::OffsetDateTime;

use super::{
    counters,
    keys::{self, Key},
    positions::FreeSpot,
    schema::{AVAIL, GSI1},
    table::{Query, Store},
    tx::{Label, Tx, TxError, Write},
};
use crate::error::StoreError;
use domain::{
    ambulance::{self, Ambulance, AmbulanceCounts, AmbulanceStatus, AmbulanceType, NewAmbulance},
    audit::{Action, Note, Target},
    crew,
    geo::Point,
    hospital::{self, Hospital, HospitalRef},
    position::{Fix, Position},
    presence::{CrewPresence, Seen},
    types::{Id, Timestamp},
};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AmbulanceItem {
    #[serde(flatten)]
    pub(crate) key: Key,
    pub(crate) id: Id,
    pub(crate) number: String,
    pub(crate) driver_info: Option<String>,
    pub(crate) status: AmbulanceStatus,
    #[serde(rename = "type")]
    pub(crate) ambulance_type: AmbulanceType,
    pub(crate) contact_info: Option<String>,
    pub(crate) hospital_id: Id,
    pub(crate) hospital_name: String,
    pub(crate) hospital_address: String,
    /// The hospital's point, where the ambulance stands in `freegeo` while free and
    /// where it is shown before it ever reported. Absent on ambulances added before
    /// dispatch (then read from the hospital).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) hospital_latitude: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) hospital_longitude: Option<f64>,
    pub(crate) gsi1pk: String,
    pub(crate) gsi1sk: String,
    pub(crate) listpk: String,
    pub(crate) listsk: String,
    /// Present only while AVAILABLE: the sparse `avail` index.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) availpk: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) availsk: Option<String>,
    /// Present only while AVAILABLE, with the `avail` keys: the ambulance's entry in
    /// `freegeo` at its hospital's point (`positions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) freegeopk: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) freegeosk: Option<u64>,
    /// The open booking holding this ambulance, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) held_by: Option<Id>,
    /// Since when it missed a job's answer deadline; removed when it becomes
    /// AVAILABLE again (decision 0012).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) not_responding: Option<Timestamp>,
    /// Its crew accounts (`store::crew`), kept in the crew's transactions: an
    /// ambulance with crew is not removed.
    #[serde(default)]
    pub(crate) crew_count: u64,
    /// The res-4 cell it is shown in (`keys::fleet_cell`), with `status` the keys
    /// of the live map's `fleet` index: its hospital's until it reports, then moved
    /// by a report that crosses into another cell. Absent on ambulances added
    /// before the index (`manage migrate` sets it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) fleetcell: Option<u64>,
    /// When (the server's clock) the report that last moved `fleetcell` was
    /// written: a late report's move never undoes a newer one's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) fleetat: Option<Timestamp>,
}

impl AmbulanceItem {
    /// Where this ambulance stands once free: `hospital` its hospital's point,
    /// `last` its last report.
    pub(crate) fn free_spot(&self, hospital: Point, last: Option<Fix>) -> FreeSpot {
        FreeSpot {
            ambulance: self.id,
            number: self.number.clone(),
            driver_info: self.driver_info.clone(),
            ambulance_type: self.ambulance_type,
            hospital_id: self.hospital_id,
            hospital,
            last,
        }
    }

    /// A new ambulance `id` of `hospital`, held by no booking, with no crew; while
    /// AVAILABLE in the `avail` index and at its hospital's point in `freegeo`.
    pub(crate) fn new(id: Id, new: &NewAmbulance, hospital: &Hospital) -> AmbulanceItem {
        let available = new.status == AmbulanceStatus::Available;
        let free_geo = available.then(|| keys::free_geo(hospital.point()));
        AmbulanceItem {
            key: keys::ambulance(id),
            id,
            gsi1pk: keys::hospital_ambulances(new.hospital_id),
            gsi1sk: keys::ambulance_in_hospital(id),
            listpk: keys::AMBULANCES.into(),
            listsk: keys::by_name(&new.number, id),
            availpk: available.then(|| keys::AVAILABLE.to_owned()),
            availsk: available.then(|| keys::available(new.hospital_id, id)),
            number: new.number.clone(),
            driver_info: new.driver_info.clone(),
            status: new.status,
            ambulance_type: new.ambulance_type,
            contact_info: new.contact_info.clone(),
            hospital_id: new.hospital_id,
            hospital_name: hospital.name.clone(),
            hospital_address: hospital.address.clone(),
            hospital_latitude: Some(hospital.latitude),
            hospital_longitude: Some(hospital.longitude),
            freegeopk: free_geo.as_ref().map(|k| k.0.clone()),
            freegeosk: free_geo.map(|k| k.1),
            held_by: None,
            not_responding: None,
            crew_count: 0,
            fleetcell: Some(keys::fleet_cell(hospital.point())),
            fleetat: None,
        }
    }

    /// The same item shown at `at` in the `fleet` index: an ambulance whose last
    /// report is there (the bulk loaders).
    pub(crate) fn seen_at(self, at: Point) -> AmbulanceItem {
        AmbulanceItem {
            fleetcell: Some(keys::fleet_cell(at)),
            ..self
        }
    }
}

impl From<AmbulanceItem> for Ambulance {
    fn from(i: AmbulanceItem) -> Self {
        Ambulance {
            id: i.id,
            number: i.number,
            driver_info: i.driver_info,
            status: i.status,
            ambulance_type: i.ambulance_type,
            contact_info: i.contact_info,
            hospital_id: i.hospital_id,
            hospital: HospitalRef {
                id: i.hospital_id,
                name: i.hospital_name,
                address: i.hospital_address,
            },
            not_responding: i.not_responding,
            crew_presence: None,
        }
    }
}

/// One conditional move of an ambulance's status.
#[derive(Debug, Clone)]
pub struct StatusMove {
    pub ambulance: Id,
    /// The ambulance's hospital (for the `avail` index key).
    pub hospital_of_ambulance: Id,
    pub from: AmbulanceStatus,
    pub to: AmbulanceStatus,
    /// When given, the move also requires the ambulance to belong to this hospital.
    pub require_hospital: Option<Id>,
    /// The booking expected to hold it now (None: held by none).
    pub expected_holder: Option<Id>,
    /// The booking that holds it afterwards (None: free).
    pub held_by: Option<Id>,
    /// Where it stands once free (`freegeo`): needed when `to` is AVAILABLE.
    pub free_at: Option<FreeSpot>,
}

impl StatusMove {
    /// The update: conditional on the current status, holder (and hospital), and
    /// keeping the sparse `avail` and `freegeo` keys and `heldBy` right.
    fn write(&self, free_at: Option<&FreeSpot>) -> Write {
        let mut sets = vec!["#status = :to"];
        let mut removes = vec![];
        let mut conditions = vec!["#status = :from"];
        let mut write = Write::update(keys::ambulance(self.ambulance), "")
            .name("#status", "status")
            .value(":to", self.to)
            .value(":from", self.from);
        match free_at {
            Some(spot) => {
                sets.push("availpk = :avail, availsk = :availsk");
                sets.push("freegeopk = :freepk, freegeosk = :freesk");
                let (freepk, freesk) = keys::free_geo(spot.hospital);
                write = write
                    .value(":avail", keys::AVAILABLE)
                    .value(
                        ":availsk",
                        keys::available(self.hospital_of_ambulance, self.ambulance),
                    )
                    .value(":freepk", freepk)
                    .value(":freesk", freesk);
            }
            None => removes.extend(["availpk", "availsk", "freegeopk", "freegeosk"]),
        }
        if self.to == AmbulanceStatus::Available {
            // Its crew is back: it answers jobs again.
            removes.push("notResponding");
        }
        match self.held_by {
            Some(booking) => {
                sets.push("heldBy = :held");
                write = write.value(":held", booking);
            }
            None => removes.push("heldBy"),
        }
        match self.expected_holder {
            Some(booking) => {
                conditions.push("heldBy = :expectedHolder");
                write = write.value(":expectedHolder", booking);
            }
            None => conditions.push("attribute_not_exists(heldBy)"),
        }
        if let Some(h) = self.require_hospital {
            conditions.push("hospitalId = :hospital");
            write = write.value(":hospital", h);
        }
        let mut expression = format!("SET {}", sets.join(", "));
        if !removes.is_empty() {
            expression.push_str(&format!(" REMOVE {}", removes.join(", ")));
        }
        write
            .set_expression(expression)
            .when(conditions.join(" AND "))
    }

    /// The move, the fleet counter's change and the free-ambulance entry (put when
    /// it becomes AVAILABLE, deleted otherwise), into `tx`.
    pub fn push_into(self, tx: &mut Tx) -> Result<(), StoreError> {
        tx.push(
            Label::Counter,
            counters::add(
                counters::AMBULANCES,
                &AmbulanceCounts::moved(self.from, self.to),
            )?,
        );
        self.push_uncounted(tx)
    }

    /// [`StatusMove::push_into`] without the counter's change: for the two halves of
    /// a swap (one ambulance freed, another taken) whose changes cancel out, which
    /// could not both write the counter in one transaction.
    pub fn push_uncounted(self, tx: &mut Tx) -> Result<(), StoreError> {
        let free_at = match (self.to, &self.free_at) {
            (AmbulanceStatus::Available, Some(spot)) => Some(spot),
            (AmbulanceStatus::Available, None) => {
                return Err(StoreError::internal(
                    "freeing an ambulance needs its free spot",
                ));
            }
            _ => None,
        };
        tx.push(Label::Ambulance(self.ambulance), self.write(free_at))
            .push(
                Label::FreeEntry(self.ambulance),
                match free_at {
                    Some(spot) => spot.entry(),
                    None => Write::delete(keys::free_position(self.ambulance)),
                },
            );
        Ok(())
    }
}

impl AmbulanceItem {
    /// Deletes the ambulance (on the condition that it is as read, held by no
    /// booking and has no crew) with its position items, and frees its number: 4
    /// items.
    pub(crate) fn push_removal(&self, tx: &mut Tx) {
        tx.push(
            Label::Ambulance(self.id),
            Write::delete(keys::ambulance(self.id))
                .when("#status = :s AND attribute_not_exists(heldBy)")
                .when("(attribute_not_exists(crewCount) OR crewCount = :noCrew)")
                .name("#status", "status")
                .value(":s", self.status)
                .value(":noCrew", 0),
        )
        .push(
            Label::AmbulanceNumberGuard(self.id),
            Write::delete(keys::ambulance_number_guard(&self.number)),
        )
        .push(
            Label::FreeEntry(self.id),
            Write::delete(keys::free_position(self.id)),
        )
        .push(
            Label::Position(self.id),
            Write::delete(keys::position(self.id)),
        );
    }
}

/// `store.fleet()`: ambulances: add, remove, read, page, an admin's status change. Every
/// method of the handle is in this file.
#[derive(Clone, Copy)]
pub struct Fleet<'a> {
    pub(super) store: &'a Store,
}

impl Fleet<'_> {
    /// The position shown for an ambulance read as `item`, with `last` its last report.
    pub(crate) async fn shown_position(
        self,
        item: &AmbulanceItem,
        last: Option<&Fix>,
    ) -> Result<Position, StoreError> {
        let hospital = self.hospital_point(item).await?;
        Ok(Position::shown(last, hospital, OffsetDateTime::now_utc()))
    }

    /// An ambulance's hospital's point: kept on the ambulance item
    /// since dispatch; read from the hospital for ambulances added before.
    pub(crate) async fn hospital_point(self, item: &AmbulanceItem) -> Result<Point, StoreError> {
        if let (Some(lat), Some(lng)) = (item.hospital_latitude, item.hospital_longitude) {
            return Ok(Point::new(lat, lng));
        }
        let hospital = self
            .store
            .hospitals()
            .hospital(item.hospital_id)
            .await?
            .ok_or_else(|| {
                StoreError::internal(format!("ambulance {} has no hospital", item.id))
            })?;
        Ok(Point::new(hospital.latitude, hospital.longitude))
    }

    /// What freeing the ambulance read as `item` puts in `freegeo`: its hospital and
    /// its last position, read at once.
    pub(crate) async fn free_spot_of(self, item: &AmbulanceItem) -> Result<FreeSpot, StoreError> {
        let (hospital, last) = tokio::try_join!(
            self.hospital_point(item),
            self.store.positions().last_position(item.id)
        )?;
        Ok(item.free_spot(hospital, last))
    }

    /// [`Fleet::free_spot_of`] an ambulance by id (None: no such ambulance).
    pub async fn free_spot(self, ambulance: Id) -> Result<Option<FreeSpot>, StoreError> {
        match self.ambulance_item(ambulance).await? {
            Some(item) => self.free_spot_of(&item).await.map(Some),
            None => Ok(None),
        }
    }

    pub(crate) async fn ambulance_item(self, id: Id) -> Result<Option<AmbulanceItem>, StoreError> {
        self.store.get(&keys::ambulance(id)).await
    }

    pub async fn ambulance(self, id: Id) -> Result<Option<Ambulance>, StoreError> {
        Ok(self.ambulance_item(id).await?.map(Ambulance::from))
    }

    /// The booking holding an ambulance, if any.
    pub async fn ambulance_holder(self, id: Id) -> Result<Option<Id>, StoreError> {
        Ok(self.ambulance_item(id).await?.and_then(|a| a.held_by))
    }

    pub(crate) async fn hospital_ambulance_items(
        self,
        hospital: Id,
    ) -> Result<Vec<AmbulanceItem>, StoreError> {
        self.store
            .query_all(
                Query::on(GSI1, "gsi1pk = :p").value(":p", keys::hospital_ambulances(hospital)),
            )
            .await
    }

    /// The ambulances of a hospital; `with_presence`: with their crews' presence.
    pub async fn hospital_ambulances(
        self,
        hospital: Id,
        with_presence: bool,
    ) -> Result<Vec<Ambulance>, StoreError> {
        let items = self.hospital_ambulance_items(hospital).await?;
        self.shown(items, with_presence).await
    }

    /// Available ambulances, of one hospital or of all (the sparse `avail` index);
    /// `with_presence`: with their crews' presence.
    pub async fn available_ambulances(
        self,
        hospital: Option<Id>,
        with_presence: bool,
    ) -> Result<Vec<Ambulance>, StoreError> {
        let query = match hospital {
            Some(h) => Query::on(AVAIL, "availpk = :p AND begins_with(availsk, :h)")
                .value(":h", keys::available_in(h)),
            None => Query::on(AVAIL, "availpk = :p"),
        };
        let items: Vec<AmbulanceItem> = self
            .store
            .query_all(query.value(":p", keys::AVAILABLE))
            .await?;
        self.shown(items, with_presence).await
    }

    /// Every ambulance, by number (keys from the `list` index, then BatchGetItem),
    /// with its crew's presence.
    pub async fn all_ambulances(self) -> Result<Vec<Ambulance>, StoreError> {
        let keys = self
            .store
            .list_page_keys(keys::AMBULANCES, 0, 100_000, false)
            .await?;
        let items: Vec<AmbulanceItem> = self.store.batch_get(keys).await?;
        self.shown(items, true).await
    }

    /// One ambulance's crew presence: NO_CREW without a read, else from its
    /// `POSITION` (one GetItem).
    async fn presence_of(self, item: &AmbulanceItem) -> Result<CrewPresence, StoreError> {
        if item.crew_count == 0 {
            return Ok(CrewPresence::NoCrew);
        }
        let kept = self.store.positions().kept_position(item.id).await?;
        Ok(Seen {
            crew_count: item.crew_count,
            ..kept.map(|k| k.seen).unwrap_or_default()
        }
        .presence(self.store.now()))
    }

    /// The ambulances as the API shows them; `with_presence`: with their crews'
    /// presence (decision 0020), which reads the `POSITION`s of those with crew
    /// (BatchGetItem; one without crew is NO_CREW without a read).
    async fn shown(
        self,
        items: Vec<AmbulanceItem>,
        with_presence: bool,
    ) -> Result<Vec<Ambulance>, StoreError> {
        if !with_presence {
            return Ok(items.into_iter().map(Ambulance::from).collect());
        }
        let crewed: Vec<Id> = items
            .iter()
            .filter(|a| a.crew_count > 0)
            .map(|a| a.id)
            .collect();
        let kept = self.store.positions().last_positions(&crewed).await?;
        let seen: HashMap<Id, Seen> = crewed
            .into_iter()
            .zip(kept)
            .filter_map(|(id, k)| Some((id, k?.seen)))
            .collect();
        let now = self.store.now();
        Ok(items
            .into_iter()
            .map(|item| {
                let presence = Seen {
                    crew_count: item.crew_count,
                    ..seen.get(&item.id).copied().unwrap_or_default()
                }
                .presence(now);
                Ambulance {
                    crew_presence: Some(presence),
                    ..Ambulance::from(item)
                }
            })
            .collect())
    }

    /// Fleet counts from the counters kept in every status-changing transaction.
    pub async fn fleet_counts(self) -> Result<AmbulanceCounts, StoreError> {
        counters::read(self.store, counters::AMBULANCES).await
    }

    pub async fn hospital_counts(self, hospital: Id) -> Result<AmbulanceCounts, StoreError> {
        let items = self.hospital_ambulance_items(hospital).await?;
        Ok(AmbulanceCounts::of(items.iter().map(|a| &a.status)))
    }

    /// An admin's status change. An ambulance held by an open booking stays ON_DUTY
    /// until its booking ends (409 naming the booking).
    pub async fn set_ambulance_status(
        self,
        id: Id,
        to: AmbulanceStatus,
    ) -> Result<Ambulance, StoreError> {
        let a = self
            .ambulance_item(id)
            .await?
            .ok_or_else(|| ambulance::not_found(id))?;
        if to == a.status {
            return Ok(a.into());
        }
        if let Some(booking) = a.held_by {
            return Err(
                ambulance::held_conflict(&a.number, booking, &format!("set to {to}")).into(),
            );
        }
        let free_at = match to {
            AmbulanceStatus::Available => Some(self.free_spot_of(&a).await?),
            _ => None,
        };
        let mut tx = Tx::new();
        StatusMove {
            ambulance: id,
            hospital_of_ambulance: a.hospital_id,
            from: a.status,
            to,
            require_hospital: None,
            expected_holder: None,
            held_by: None,
            free_at,
        }
        .push_into(&mut tx)?;
        self.store.audit().push(
            &mut tx,
            Note::new(
                Action::AmbulanceStatusChanged,
                Target::ambulance(id, &a.number),
            )
            .before(json!({ "status": a.status }))
            .after(json!({ "status": to })),
        );
        self.store.commit(tx).await.map_err(|e| {
            e.or_refused(|_| ambulance::changed_meanwhile(&a.number, "at the same time").into())
        })?;
        // The move changed only the status (and the `avail` keys and `heldBy`, which
        // the API does not show), on the condition that the status was the one read
        // and no booking held it; nothing else of an ambulance is ever rewritten. So
        // the ambulance as read, with the new status, is what is stored: no second
        // read of it, only of its crew's presence, as the lists show it.
        let presence = self.presence_of(&a).await?;
        Ok(Ambulance {
            status: to,
            not_responding: None,
            crew_presence: Some(presence),
            ..a.into()
        })
    }
}

impl Fleet<'_> {
    /// The operator's backfill (part of `manage migrate`, also run by `manage seed`): a
    /// Scan for the ambulances added before the live map's `fleet` index, each given
    /// its `fleetcell` (where it is shown: its last position, else its hospital),
    /// only where still absent. Returns how many were given one.
    pub async fn backfill_fleet_cells(self) -> Result<usize, StoreError> {
        let items = self
            .store
            .migrations()
            .scan_sort_keys(
                &[keys::AMBULANCE_SK],
                Some("attribute_not_exists(fleetcell)"),
            )
            .await?;
        let mut given = 0;
        for item in items {
            let Some(a) = super::table::readable::<AmbulanceItem>(item) else {
                continue;
            };
            let (hospital, last) = tokio::try_join!(
                self.hospital_point(&a),
                self.store.positions().last_position(a.id)
            )?;
            let at = last.map_or(hospital, |f| f.point());
            let write = Write::update(keys::ambulance(a.id), "SET fleetcell = :cell")
                .exists()
                .when("attribute_not_exists(fleetcell)")
                .value(":cell", keys::fleet_cell(at));
            if self
                .store
                .update_returning::<serde::de::IgnoredAny>(write)
                .await?
                .is_some()
            {
                given += 1;
            }
        }
        Ok(given)
    }
}

/// Claims an ambulance number.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct NumberGuard {
    #[serde(flatten)]
    key: Key,
    ambulance_id: Id,
}

/// Adds `delta` to a hospital's ambulance count, on the condition that it exists:
/// part of every transaction that adds or removes its ambulances.
pub(crate) fn count_ambulances(hospital: Id, delta: i64) -> Write {
    Write::update(keys::hospital(hospital), "ADD ambulanceCount :d")
        .exists()
        .value(":d", delta)
}

impl Fleet<'_> {
    pub async fn add_ambulance(self, new: NewAmbulance) -> Result<Ambulance, StoreError> {
        // The hospital (for its name and address) and a fresh id at once: independent.
        // An unknown hospital then leaves a gap in the ids, as any refused add does.
        let (hospital, id) = tokio::join!(
            self.store.hospitals().hospital_item(new.hospital_id),
            self.store.next_id("ambulance")
        );
        let hospital = hospital?.ok_or_else(|| hospital::not_found(new.hospital_id))?;
        let id = id?;
        let hospital = Hospital::from(hospital);
        let item = AmbulanceItem::new(id, &new, &hospital);
        let guard = NumberGuard {
            key: keys::ambulance_number_guard(&new.number),
            ambulance_id: id,
        };
        let mut tx = Tx::new();
        tx.push(Label::Ambulance(id), Write::put(&item).absent())
            .push(Label::AmbulanceNumberGuard(id), Write::put(&guard).absent())
            .push(
                Label::Hospital(new.hospital_id),
                count_ambulances(new.hospital_id, 1),
            )
            .push(
                Label::Counter,
                counters::add(counters::AMBULANCES, &AmbulanceCounts::of(&[new.status]))?,
            );
        self.store.audit().push(
            &mut tx,
            Note::new(Action::AmbulanceAdded, Target::ambulance(id, &new.number)).after(json!({
                "number": new.number,
                "status": new.status,
                "type": new.ambulance_type,
                "hospitalId": hospital.id,
                "hospitalName": hospital.name,
            })),
        );
        if new.status == AmbulanceStatus::Available {
            // A new ambulance never reported: its free entry stands at the hospital.
            tx.push(
                Label::FreeEntry(id),
                item.free_spot(
                    domain::geo::Point::new(hospital.latitude, hospital.longitude),
                    None,
                )
                .entry(),
            );
        }
        self.store.commit(tx).await.map_err(|e| {
            e.or_refused(|r| {
                if r.by(Label::AmbulanceNumberGuard(id)) {
                    ambulance::number_taken(&new.number).into()
                } else if r.by(Label::Hospital(new.hospital_id)) {
                    hospital::not_found(new.hospital_id).into()
                } else {
                    StoreError::internal(format!("adding an ambulance refused: {r:?}"))
                }
            })
        })?;
        // New: nobody has a crew account for it yet.
        Ok(Ambulance {
            crew_presence: Some(CrewPresence::NoCrew),
            ..item.into()
        })
    }

    /// Removes an idle ambulance; one held by an open booking is refused (409).
    pub async fn remove_ambulance(self, id: Id) -> Result<(), StoreError> {
        let a = self
            .ambulance_item(id)
            .await?
            .ok_or_else(|| ambulance::not_found(id))?;
        if let Some(booking) = a.held_by {
            return Err(ambulance::held_conflict(&a.number, booking, "removed").into());
        }
        if a.crew_count > 0 {
            return Err(crew::has_crew(&a.number, a.crew_count).into());
        }
        let mut tx = Tx::new();
        a.push_removal(&mut tx);
        self.store.audit().push(
            &mut tx,
            Note::new(Action::AmbulanceRemoved, Target::ambulance(id, &a.number)).before(json!({
                "number": a.number,
                "status": a.status,
                "type": a.ambulance_type,
                "hospitalId": a.hospital_id,
                "hospitalName": a.hospital_name,
            })),
        );
        tx.push(
            Label::Hospital(a.hospital_id),
            count_ambulances(a.hospital_id, -1),
        )
        .push(
            Label::Counter,
            counters::add(
                counters::AMBULANCES,
                &AmbulanceCounts::of(&[a.status]).removed(),
            )?,
        );
        match self.store.commit(tx).await {
            Ok(()) => Ok(()),
            Err(TxError::Refused(_)) => Err(match self.ambulance_item(id).await {
                // A crew account was just bound to it.
                Ok(Some(now)) if now.crew_count > 0 => {
                    crew::has_crew(&now.number, now.crew_count).into()
                }
                _ => ambulance::changed_meanwhile(&a.number, "while it was being removed").into(),
            }),
            Err(TxError::Api(e)) => Err(e),
        }
    }
}
