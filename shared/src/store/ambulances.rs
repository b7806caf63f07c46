//! Ambulances: the fleet, its status moves and the counters kept with them.

use aws_sdk_dynamodb::types::{Delete, Put, TransactWriteItem, Update};
use serde::{Deserialize, Serialize};

use super::{
    Item, Store, TxError, counters, db_error, from_item, hospitals::ambulance_count_delta, key, n,
    s, to_item,
};
use crate::{error::ApiError, types::Id};

/// Serialized as `AVAILABLE`, `ON_DUTY`, `MAINTENANCE`; parsed case-insensitively
/// (`on_duty`, `On-Duty` and `on duty` too), as people type query strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum AmbulanceStatus {
    Available,
    OnDuty,
    Maintenance,
}

impl AmbulanceStatus {
    pub const ALL: [AmbulanceStatus; 3] = [
        AmbulanceStatus::Available,
        AmbulanceStatus::OnDuty,
        AmbulanceStatus::Maintenance,
    ];

    /// The field of the fleet counter that counts this status.
    pub fn counter_field(self) -> &'static str {
        match self {
            AmbulanceStatus::Available => "available",
            AmbulanceStatus::OnDuty => "onDuty",
            AmbulanceStatus::Maintenance => "maintenance",
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            AmbulanceStatus::Available => "AVAILABLE",
            AmbulanceStatus::OnDuty => "ON_DUTY",
            AmbulanceStatus::Maintenance => "MAINTENANCE",
        }
    }
}

/// Serialized as `BLS`, `ALS`, `PTA`; parsed case-insensitively.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum AmbulanceType {
    /// Basic life support.
    #[default]
    Bls,
    /// Advanced life support.
    Als,
    /// Patient transport.
    Pta,
}

impl std::str::FromStr for AmbulanceStatus {
    type Err = String;
    fn from_str(v: &str) -> Result<Self, String> {
        let key: String = v
            .trim()
            .chars()
            .map(|c| match c {
                '-' | ' ' => '_',
                c => c.to_ascii_uppercase(),
            })
            .collect();
        AmbulanceStatus::ALL
            .into_iter()
            .find(|s| s.as_str() == key)
            .ok_or_else(|| {
                format!("unknown status '{v}': expected AVAILABLE, ON_DUTY or MAINTENANCE")
            })
    }
}

impl<'de> Deserialize<'de> for AmbulanceStatus {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = String::deserialize(d)?;
        v.parse().map_err(serde::de::Error::custom)
    }
}

impl AmbulanceType {
    pub const ALL: [AmbulanceType; 3] =
        [AmbulanceType::Bls, AmbulanceType::Als, AmbulanceType::Pta];

    pub fn as_str(self) -> &'static str {
        match self {
            AmbulanceType::Bls => "BLS",
            AmbulanceType::Als => "ALS",
            AmbulanceType::Pta => "PTA",
        }
    }
}

impl std::str::FromStr for AmbulanceType {
    type Err = String;
    fn from_str(v: &str) -> Result<Self, String> {
        let key = v.trim().to_ascii_uppercase();
        AmbulanceType::ALL
            .into_iter()
            .find(|t| t.as_str() == key)
            .ok_or_else(|| format!("unknown type '{v}': expected BLS, ALS or PTA"))
    }
}

impl<'de> Deserialize<'de> for AmbulanceType {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = String::deserialize(d)?;
        v.parse().map_err(serde::de::Error::custom)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HospitalRef {
    pub id: Id,
    pub name: String,
    pub address: String,
}

/// An ambulance as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Ambulance {
    pub id: Id,
    pub number: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub driver_info: Option<String>,
    pub status: AmbulanceStatus,
    #[serde(rename = "type")]
    pub ambulance_type: AmbulanceType,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contact_info: Option<String>,
    pub hospital_id: Id,
    pub hospital: HospitalRef,
}

impl Ambulance {
    /// Signed-out callers see no driver or contact details.
    pub fn public(self, signed_in: bool) -> Self {
        if signed_in {
            self
        } else {
            Ambulance {
                driver_info: None,
                contact_info: None,
                ..self
            }
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AmbulanceItem {
    pk: String,
    sk: String,
    pub(crate) id: Id,
    pub(crate) number: String,
    pub(crate) driver_info: Option<String>,
    pub(crate) status: AmbulanceStatus,
    #[serde(rename = "type")]
    pub(crate) ambulance_type: AmbulanceType,
    contact_info: Option<String>,
    pub(crate) hospital_id: Id,
    hospital_name: String,
    hospital_address: String,
    gsi1pk: String,
    gsi1sk: String,
    listpk: String,
    listsk: String,
    /// Present only while AVAILABLE: the sparse `avail` index.
    #[serde(skip_serializing_if = "Option::is_none")]
    availpk: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    availsk: Option<String>,
    /// The open booking holding this ambulance, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) held_by: Option<Id>,
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
        }
    }
}

pub struct NewAmbulance {
    pub number: String,
    pub driver_info: Option<String>,
    pub status: AmbulanceStatus,
    pub ambulance_type: AmbulanceType,
    pub contact_info: Option<String>,
    pub hospital_id: Id,
}

/// Fleet counts by status.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AmbulanceCounts {
    pub total: i64,
    pub available: i64,
    pub on_duty: i64,
    pub maintenance: i64,
}

impl AmbulanceCounts {
    pub fn of<'a>(statuses: impl IntoIterator<Item = &'a AmbulanceStatus>) -> Self {
        let mut c = AmbulanceCounts::default();
        for s in statuses {
            c.total += 1;
            match s {
                AmbulanceStatus::Available => c.available += 1,
                AmbulanceStatus::OnDuty => c.on_duty += 1,
                AmbulanceStatus::Maintenance => c.maintenance += 1,
            }
        }
        c
    }
}

pub(crate) fn ambulance_pk(id: Id) -> String {
    format!("AMBULANCE#{id}")
}

fn number_guard_pk(number: &str) -> String {
    format!("AMBNUMBER#{}", number.to_lowercase())
}

fn avail_sk(hospital: Id, id: Id) -> String {
    format!("{}#{}", hospital.padded(), id.padded())
}

/// One conditional move of an ambulance's status.
#[derive(Debug, Clone, Copy)]
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
}

/// The transaction item for a [`StatusMove`]: conditional on the current status,
/// holder (and hospital), and keeping the sparse `avail` index and `heldBy` right.
pub fn status_change(store: &Store, m: StatusMove) -> Result<TransactWriteItem, ApiError> {
    let StatusMove {
        ambulance: id,
        hospital_of_ambulance,
        from,
        to,
        require_hospital: hospital,
        expected_holder,
        held_by,
    } = m;
    let mut sets = vec!["#status = :to".to_owned()];
    let mut removes = vec![];
    let mut conditions = vec!["#status = :from".to_owned()];
    let mut update = Update::builder()
        .table_name(store.table())
        .set_key(Some(key(ambulance_pk(id), "AMBULANCE")))
        .expression_attribute_names("#status", "status")
        .expression_attribute_values(":to", s(to.as_str()))
        .expression_attribute_values(":from", s(from.as_str()));
    if to == AmbulanceStatus::Available {
        sets.push("availpk = :avail, availsk = :availsk".into());
        update = update
            .expression_attribute_values(":avail", s("AVAILABLE"))
            .expression_attribute_values(":availsk", s(avail_sk(hospital_of_ambulance, id)));
    } else {
        removes.push("availpk");
        removes.push("availsk");
    }
    match held_by {
        Some(booking) => {
            sets.push("heldBy = :held".into());
            update = update.expression_attribute_values(":held", n(booking));
        }
        None => removes.push("heldBy"),
    }
    match expected_holder {
        Some(booking) => {
            conditions.push("heldBy = :expectedHolder".into());
            update = update.expression_attribute_values(":expectedHolder", n(booking));
        }
        None => conditions.push("attribute_not_exists(heldBy)".into()),
    }
    if let Some(h) = hospital {
        conditions.push("hospitalId = :hospital".into());
        update = update.expression_attribute_values(":hospital", n(h));
    }
    let mut expression = format!("SET {}", sets.join(", "));
    if !removes.is_empty() {
        expression.push_str(&format!(" REMOVE {}", removes.join(", ")));
    }
    Ok(TransactWriteItem::builder()
        .update(
            update
                .update_expression(expression)
                .condition_expression(conditions.join(" AND "))
                .build()
                .map_err(ApiError::internal)?,
        )
        .build())
}

/// The fleet counter change for one move.
pub fn status_counter_delta(
    store: &Store,
    from: AmbulanceStatus,
    to: AmbulanceStatus,
) -> Result<TransactWriteItem, ApiError> {
    counters::add(
        store,
        counters::AMBULANCES,
        &[(from.counter_field(), -1), (to.counter_field(), 1)],
    )
}

impl Store {
    pub async fn add_ambulance(&self, new: NewAmbulance) -> Result<Ambulance, ApiError> {
        // The hospital (for its name and address) and a fresh id at once: independent.
        // An unknown hospital then leaves a gap in the ids, as any refused add does.
        let (hospital, id) = tokio::join!(
            self.hospital_item(new.hospital_id),
            self.next_id("ambulance")
        );
        let hospital = hospital?
            .ok_or_else(|| ApiError::NotFound(format!("Hospital {} not found", new.hospital_id)))?;
        let id = id?;
        let available = new.status == AmbulanceStatus::Available;
        let item = AmbulanceItem {
            pk: ambulance_pk(id),
            sk: "AMBULANCE".into(),
            id,
            gsi1pk: format!("HOSP#{}", new.hospital_id),
            gsi1sk: format!("AMB#{}", id.padded()),
            listpk: "AMBULANCES".into(),
            listsk: format!("{}#{}", new.number.to_lowercase(), id.padded()),
            availpk: available.then(|| "AVAILABLE".to_owned()),
            availsk: available.then(|| avail_sk(new.hospital_id, id)),
            number: new.number.clone(),
            driver_info: new.driver_info,
            status: new.status,
            ambulance_type: new.ambulance_type,
            contact_info: new.contact_info,
            hospital_id: new.hospital_id,
            hospital_name: hospital.name,
            hospital_address: hospital.address,
            held_by: None,
        };
        let put = |item: Item| {
            Put::builder()
                .table_name(self.table())
                .set_item(Some(item))
                .condition_expression("attribute_not_exists(pk)")
                .build()
                .map(|p| TransactWriteItem::builder().put(p).build())
                .map_err(ApiError::internal)
        };
        let guard: Item = [
            ("pk".to_owned(), s(number_guard_pk(&new.number))),
            ("sk".to_owned(), s("GUARD")),
            ("ambulanceId".to_owned(), n(id)),
        ]
        .into_iter()
        .collect();
        let tx = vec![
            put(to_item(&item)?)?,
            put(guard)?,
            ambulance_count_delta(self, new.hospital_id, 1)?,
            counters::add(
                self,
                counters::AMBULANCES,
                &[("total", 1), (new.status.counter_field(), 1)],
            )?,
        ];
        match self.transact(tx).await {
            Ok(()) => Ok(item.into()),
            Err(TxError::Cancelled(c)) if c.failed_at(1) => Err(ApiError::Conflict(format!(
                "Ambulance number {} already exists",
                new.number
            ))),
            Err(TxError::Cancelled(c)) if c.failed_at(2) => Err(ApiError::NotFound(format!(
                "Hospital {} not found",
                new.hospital_id
            ))),
            Err(TxError::Cancelled(c)) => Err(ApiError::internal(format!("{c:?}"))),
            Err(TxError::Api(e)) => Err(e),
        }
    }

    pub(crate) async fn ambulance_item(&self, id: Id) -> Result<Option<AmbulanceItem>, ApiError> {
        self.get(&ambulance_pk(id), "AMBULANCE").await
    }

    pub async fn ambulance(&self, id: Id) -> Result<Option<Ambulance>, ApiError> {
        Ok(self.ambulance_item(id).await?.map(Ambulance::from))
    }

    /// The booking holding an ambulance, if any.
    pub async fn ambulance_holder(&self, id: Id) -> Result<Option<Id>, ApiError> {
        Ok(self.ambulance_item(id).await?.and_then(|a| a.held_by))
    }

    pub(crate) async fn hospital_ambulance_items(
        &self,
        hospital: Id,
    ) -> Result<Vec<AmbulanceItem>, ApiError> {
        self.query_all(
            "gsi1",
            "gsi1pk = :p",
            vec![(":p", s(format!("HOSP#{hospital}")))],
        )
        .await
    }

    pub async fn hospital_ambulances(&self, hospital: Id) -> Result<Vec<Ambulance>, ApiError> {
        Ok(self
            .hospital_ambulance_items(hospital)
            .await?
            .into_iter()
            .map(Ambulance::from)
            .collect())
    }

    /// Available ambulances, of one hospital or of all (the sparse `avail` index).
    pub async fn available_ambulances(
        &self,
        hospital: Option<Id>,
    ) -> Result<Vec<Ambulance>, ApiError> {
        let items: Vec<AmbulanceItem> = match hospital {
            Some(h) => {
                self.query_all(
                    "avail",
                    "availpk = :p AND begins_with(availsk, :h)",
                    vec![
                        (":p", s("AVAILABLE")),
                        (":h", s(format!("{}#", h.padded()))),
                    ],
                )
                .await?
            }
            None => {
                self.query_all("avail", "availpk = :p", vec![(":p", s("AVAILABLE"))])
                    .await?
            }
        };
        Ok(items.into_iter().map(Ambulance::from).collect())
    }

    /// Every ambulance, by number (keys from the `list` index, then BatchGetItem).
    pub async fn all_ambulances(&self) -> Result<Vec<Ambulance>, ApiError> {
        let keys = self.list_page_keys("AMBULANCES", 0, 100_000, false).await?;
        let items: Vec<AmbulanceItem> = self.batch_get(keys).await?;
        Ok(items.into_iter().map(Ambulance::from).collect())
    }

    /// Fleet counts from the counters kept in every status-changing transaction.
    pub async fn fleet_counts(&self) -> Result<AmbulanceCounts, ApiError> {
        let c = counters::read(self, counters::AMBULANCES).await?;
        let get = |f: &str| c.get(f).copied().unwrap_or(0);
        Ok(AmbulanceCounts {
            total: get("total"),
            available: get("available"),
            on_duty: get("onDuty"),
            maintenance: get("maintenance"),
        })
    }

    pub async fn hospital_counts(&self, hospital: Id) -> Result<AmbulanceCounts, ApiError> {
        let items = self.hospital_ambulance_items(hospital).await?;
        Ok(AmbulanceCounts::of(items.iter().map(|a| &a.status)))
    }

    pub(crate) fn delete_ambulance_items(
        &self,
        a: &AmbulanceItem,
    ) -> Result<Vec<TransactWriteItem>, ApiError> {
        let delete = Delete::builder()
            .table_name(self.table())
            .set_key(Some(key(ambulance_pk(a.id), "AMBULANCE")))
            .condition_expression("#status = :s AND attribute_not_exists(heldBy)")
            .expression_attribute_names("#status", "status")
            .expression_attribute_values(":s", s(a.status.as_str()))
            .build()
            .map_err(ApiError::internal)?;
        let guard = Delete::builder()
            .table_name(self.table())
            .set_key(Some(key(number_guard_pk(&a.number), "GUARD")))
            .build()
            .map_err(ApiError::internal)?;
        Ok(vec![
            TransactWriteItem::builder().delete(delete).build(),
            TransactWriteItem::builder().delete(guard).build(),
        ])
    }

    /// Removes an idle ambulance; one held by an open booking is refused (409).
    pub async fn remove_ambulance(&self, id: Id) -> Result<(), ApiError> {
        let a = self
            .ambulance_item(id)
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("Ambulance {id} not found")))?;
        if let Some(booking) = a.held_by {
            return Err(held_conflict(&a.number, booking, "removed"));
        }
        let mut tx = self.delete_ambulance_items(&a)?;
        tx.push(ambulance_count_delta(self, a.hospital_id, -1)?);
        tx.push(counters::add(
            self,
            counters::AMBULANCES,
            &[("total", -1), (a.status.counter_field(), -1)],
        )?);
        self.transact(tx).await.map_err(|e| match e {
            TxError::Api(e) => e,
            TxError::Cancelled(_) => ApiError::Conflict(format!(
                "Ambulance {} changed while it was being removed (it may just have been booked); please retry",
                a.number
            )),
        })
    }

    /// An admin's status change. An ambulance held by an open booking stays ON_DUTY
    /// until its booking ends (409 naming the booking).
    pub async fn set_ambulance_status(
        &self,
        id: Id,
        to: AmbulanceStatus,
    ) -> Result<Ambulance, ApiError> {
        let a = self
            .ambulance_item(id)
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("Ambulance {id} not found")))?;
        if let Some(booking) = a.held_by {
            if to == a.status {
                return Ok(a.into());
            }
            return Err(held_conflict(
                &a.number,
                booking,
                &format!("set to {}", to.as_str()),
            ));
        }
        if to == a.status {
            return Ok(a.into());
        }
        let tx = vec![
            status_change(
                self,
                StatusMove {
                    ambulance: id,
                    hospital_of_ambulance: a.hospital_id,
                    from: a.status,
                    to,
                    require_hospital: None,
                    expected_holder: None,
                    held_by: None,
                },
            )?,
            status_counter_delta(self, a.status, to)?,
        ];
        self.transact(tx).await.map_err(|e| match e {
            TxError::Api(e) => e,
            TxError::Cancelled(_) => ApiError::Conflict(format!(
                "Ambulance {} changed at the same time (it may just have been booked); please retry",
                a.number
            )),
        })?;
        // The move changed only the status (and the `avail` keys and `heldBy`, which
        // the API does not show), on the condition that the status was the one read
        // and no booking held it; nothing else of an ambulance is ever rewritten. So
        // the ambulance as read, with the new status, is what is stored: no second read.
        Ok(Ambulance {
            status: to,
            ..a.into()
        })
    }

    /// Every item of a Query, following pages.
    pub(crate) async fn query_all<T: serde::de::DeserializeOwned>(
        &self,
        index: &str,
        condition: &str,
        values: Vec<(&str, aws_sdk_dynamodb::types::AttributeValue)>,
    ) -> Result<Vec<T>, ApiError> {
        let mut out = vec![];
        let mut start = None;
        loop {
            let mut q = self
                .client()
                .query()
                .table_name(self.table())
                .index_name(index)
                .key_condition_expression(condition)
                .set_exclusive_start_key(start);
            for (k, v) in &values {
                q = q.expression_attribute_values(*k, v.clone());
            }
            let page = q.send().await.map_err(db_error)?;
            for item in page.items.unwrap_or_default() {
                out.push(from_item(item)?);
            }
            start = page.last_evaluated_key;
            if start.is_none() {
                return Ok(out);
            }
        }
    }
}

fn held_conflict(number: &str, booking: Id, what: &str) -> ApiError {
    ApiError::Conflict(format!(
        "Ambulance {number} is held by open booking #{booking} and cannot be {what} until that booking is completed or cancelled"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_parse_case_insensitively_and_serialize_in_capitals() {
        for (text, status) in [
            ("AVAILABLE", AmbulanceStatus::Available),
            ("available", AmbulanceStatus::Available),
            (" On_Duty ", AmbulanceStatus::OnDuty),
            ("on-duty", AmbulanceStatus::OnDuty),
            ("maintenance", AmbulanceStatus::Maintenance),
        ] {
            assert_eq!(text.parse::<AmbulanceStatus>(), Ok(status), "{text}");
        }
        assert!("BROKEN".parse::<AmbulanceStatus>().is_err());
        assert!("ONDUTY".parse::<AmbulanceStatus>().is_err());
        assert_eq!(
            serde_json::to_value(AmbulanceStatus::OnDuty).unwrap(),
            "ON_DUTY"
        );
        let t: AmbulanceType = serde_json::from_str("\"als\"").unwrap();
        assert_eq!(t, AmbulanceType::Als);
        assert_eq!(serde_json::to_value(t).unwrap(), "ALS");
        assert!(serde_json::from_str::<AmbulanceType>("\"JET\"").is_err());
        assert_eq!(AmbulanceType::default(), AmbulanceType::Bls);
    }

    #[test]
    fn signed_out_callers_see_no_driver_or_contact() {
        let a = Ambulance {
            id: Id::try_from(1).unwrap(),
            number: "PB-1".into(),
            driver_info: Some("R. Kumar".into()),
            status: AmbulanceStatus::Available,
            ambulance_type: AmbulanceType::Als,
            contact_info: Some("+911234567".into()),
            hospital_id: Id::try_from(2).unwrap(),
            hospital: HospitalRef {
                id: Id::try_from(2).unwrap(),
                name: "City".into(),
                address: "Road".into(),
            },
        };
        let public = serde_json::to_value(a.clone().public(false)).unwrap();
        assert!(public.get("driverInfo").is_none() && public.get("contactInfo").is_none());
        assert_eq!(public["hospital"]["name"], "City");
        assert_eq!(public["type"], "ALS");
        let full = serde_json::to_value(a.public(true)).unwrap();
        assert_eq!(full["driverInfo"], "R. Kumar");
        assert_eq!(full["hospitalId"], 2);
    }

    #[test]
    fn counter_deltas_and_counts() {
        let c = AmbulanceCounts::of(&[
            AmbulanceStatus::Available,
            AmbulanceStatus::OnDuty,
            AmbulanceStatus::Available,
        ]);
        assert_eq!(
            c,
            AmbulanceCounts {
                total: 3,
                available: 2,
                on_duty: 1,
                maintenance: 0
            }
        );
    }
}
