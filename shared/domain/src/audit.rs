//! The audit trail (docs/decisions/0023-audit-trail.md): what each admin changed, and
//! when an admin read a booking's patient details, as append-only records
//! `{at, by, action, target, before?, after?}`. A record is written in the same
//! transaction as the change it describes, so a change that fails leaves none and one
//! that succeeds always leaves one; a change that changes nothing (a status set to
//! the one it has) is no change and leaves none.
//!
//! A new kind of action is one line: a variant of [`Action`] (its name in the API is
//! the variant's, in SCREAMING_SNAKE_CASE), then a [`Note`] where the change is written.

use serde::{Deserialize, Serialize};

use crate::types::{Id, Timestamp};

/// Who acted: the admin's id and username as they were then.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Actor {
    pub id: Id,
    pub username: String,
}

/// What was done.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::AsRefStr,
    strum::Display,
    strum::VariantArray,
)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[strum(serialize_all = "SCREAMING_SNAKE_CASE")]
pub enum Action {
    BookingReassigned,
    BookingStatusChanged,
    AmbulanceStatusChanged,
    AlertAcknowledged,
    SettingsChanged,
    CrewCreated,
    CrewMoved,
    CrewRemoved,
    /// A hospital staff account made (docs/decisions/0026-receiving-hospital.md).
    HospitalStaffCreated,
    HospitalAdded,
    HospitalRemoved,
    /// Some of a hospital's ambulances removed on the way to removing it (a fleet
    /// too big for one transaction; the hospital goes in the last one).
    HospitalAmbulancesRemoved,
    AmbulanceAdded,
    AmbulanceRemoved,
    /// An admin opened a booking of someone else with its patient's age, gender
    /// and condition.
    PatientDetailsRead,
}

/// The kind of thing an action was done to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum TargetKind {
    Booking,
    Ambulance,
    Alert,
    Settings,
    Crew,
    Hospital,
}

/// What an action was done to, and the booking and ambulances it concerns (what the
/// trail is filtered by).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Target {
    pub kind: TargetKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<Id>,
    /// What people call it: an ambulance's number, a hospital's name, a crew's
    /// username, an alert's kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub booking_id: Option<Id>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ambulance_ids: Vec<Id>,
}

impl Target {
    fn of(kind: TargetKind, id: Option<Id>, name: Option<String>) -> Target {
        Target {
            kind,
            id,
            name,
            booking_id: None,
            ambulance_ids: vec![],
        }
    }

    /// Booking `id`, held by ambulance `ambulance`.
    pub fn booking(id: Id, ambulance: Id) -> Target {
        Target {
            booking_id: Some(id),
            ambulance_ids: vec![ambulance],
            ..Target::of(TargetKind::Booking, Some(id), None)
        }
    }

    pub fn ambulance(id: Id, number: &str) -> Target {
        Target {
            ambulance_ids: vec![id],
            ..Target::of(TargetKind::Ambulance, Some(id), Some(number.into()))
        }
    }

    pub fn hospital(id: Id, name: &str) -> Target {
        Target::of(TargetKind::Hospital, Some(id), Some(name.into()))
    }

    /// Crew account `id` (`username`), bound to the `ambulances` it concerns.
    pub fn crew(id: Id, username: &str, ambulances: &[Id]) -> Target {
        Target {
            ambulance_ids: ambulances.to_vec(),
            ..Target::of(TargetKind::Crew, Some(id), Some(username.into()))
        }
    }

    /// Alert `id` of `kind`, about a booking and an ambulance if it names them.
    pub fn alert(id: Id, kind: &str, booking: Option<Id>, ambulance: Option<Id>) -> Target {
        Target {
            booking_id: booking,
            ambulance_ids: ambulance.into_iter().collect(),
            ..Target::of(TargetKind::Alert, Some(id), Some(kind.into()))
        }
    }

    pub fn settings() -> Target {
        Target::of(TargetKind::Settings, None, None)
    }

    /// This target, also concerning ambulance `id` (a reassign's new one).
    pub fn and_ambulance(mut self, id: Id) -> Target {
        if !self.ambulance_ids.contains(&id) {
            self.ambulance_ids.push(id);
        }
        self
    }
}

/// A change as the code that makes it describes it: the store adds who and when.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    pub action: Action,
    pub target: Target,
    pub before: Option<serde_json::Value>,
    pub after: Option<serde_json::Value>,
}

impl Note {
    pub fn new(action: Action, target: Target) -> Note {
        Note {
            action,
            target,
            before: None,
            after: None,
        }
    }

    /// What it was (any `Serialize`: a `json!` object, a struct).
    pub fn before(mut self, value: impl Serialize) -> Note {
        self.before = serde_json::to_value(value).ok();
        self
    }

    /// What it became.
    pub fn after(mut self, value: impl Serialize) -> Note {
        self.after = serde_json::to_value(value).ok();
        self
    }

    pub fn record(self, at: Timestamp, by: Actor) -> Record {
        Record {
            at,
            by,
            action: self.action,
            target: self.target,
            before: self.before,
            after: self.after,
        }
    }
}

/// One entry of the trail, as `GET /api/admin/audit` lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    pub at: Timestamp,
    pub by: Actor,
    pub action: Action,
    pub target: Target,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<serde_json::Value>,
}

/// `?bookingId=&ambulanceId=&adminId=`: the records that match every filter given.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Filter {
    pub booking_id: Option<Id>,
    pub ambulance_id: Option<Id>,
    pub admin_id: Option<Id>,
}

impl Filter {
    pub fn admits(&self, r: &Record) -> bool {
        self.booking_id
            .is_none_or(|b| r.target.booking_id == Some(b))
            && self
                .ambulance_id
                .is_none_or(|a| r.target.ambulance_ids.contains(&a))
            && self.admin_id.is_none_or(|a| r.by.id == a)
    }
}

/// One page of the trail, newest first; `cursor` asks for the next (absent: none).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditPage {
    pub items: Vec<Record>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

/// Only the fields of `after` that differ from `before` (both JSON objects), each
/// side: what a settings change records.
pub fn changed_fields(
    before: &serde_json::Value,
    after: &serde_json::Value,
) -> (serde_json::Value, serde_json::Value) {
    use serde_json::{Map, Value};
    let (Some(b), Some(a)) = (before.as_object(), after.as_object()) else {
        return (before.clone(), after.clone());
    };
    let mut was = Map::new();
    let mut now = Map::new();
    for (key, new) in a {
        let old = b.get(key).unwrap_or(&Value::Null);
        if old == new {
            continue;
        }
        if let (Some(_), Some(_)) = (old.as_object(), new.as_object()) {
            let (o, n) = changed_fields(old, new);
            was.insert(key.clone(), o);
            now.insert(key.clone(), n);
        } else {
            was.insert(key.clone(), old.clone());
            now.insert(key.clone(), new.clone());
        }
    }
    (Value::Object(was), Value::Object(now))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn id(n: u64) -> Id {
        Id::try_from(n).unwrap()
    }

    fn record(target: Target, by: u64) -> Record {
        Note::new(Action::BookingReassigned, target)
            .before(json!({"ambulanceId": 3}))
            .record(
                Timestamp::parse("2026-12-01T10:00:00.000Z").unwrap(),
                Actor {
                    id: id(by),
                    username: "admin".into(),
                },
            )
    }

    #[test]
    fn a_record_reads_as_the_contract_writes_it() {
        let r = record(Target::booking(id(12), id(3)).and_ambulance(id(7)), 1);
        assert_eq!(
            serde_json::to_value(&r).unwrap(),
            json!({
                "at": "2026-12-01T10:00:00.000Z",
                "by": {"id": 1, "username": "admin"},
                "action": "BOOKING_REASSIGNED",
                "target": {"kind": "BOOKING", "id": 12, "bookingId": 12, "ambulanceIds": [3, 7]},
                "before": {"ambulanceId": 3}
            })
        );
        let back: Record = serde_json::from_value(serde_json::to_value(&r).unwrap()).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn a_filter_admits_what_matches_every_part_given() {
        let r = record(Target::booking(id(12), id(3)).and_ambulance(id(7)), 1);
        let f = |b: Option<u64>, a: Option<u64>, by: Option<u64>| Filter {
            booking_id: b.map(id),
            ambulance_id: a.map(id),
            admin_id: by.map(id),
        };
        assert!(f(None, None, None).admits(&r));
        assert!(f(Some(12), Some(7), Some(1)).admits(&r));
        assert!(f(None, Some(3), None).admits(&r));
        assert!(!f(Some(13), None, None).admits(&r));
        assert!(!f(None, Some(4), None).admits(&r));
        assert!(!f(Some(12), None, Some(2)).admits(&r));
        let settings = record(Target::settings(), 1);
        assert!(!f(Some(12), None, None).admits(&settings));
    }

    #[test]
    fn changed_fields_keep_only_what_changed_nested_too() {
        let (was, now) = changed_fields(
            &json!({"a": 1, "b": 2, "d": {"x": 1, "y": 2}, "e": "911"}),
            &json!({"a": 1, "b": 3, "d": {"x": 1, "y": 5}, "e": "112"}),
        );
        assert_eq!(was, json!({"b": 2, "d": {"y": 2}, "e": "911"}));
        assert_eq!(now, json!({"b": 3, "d": {"y": 5}, "e": "112"}));
        let (was, now) = changed_fields(&json!({"a": 1}), &json!({"a": 1}));
        assert_eq!((was, now), (json!({}), json!({})));
    }

    #[test]
    fn every_action_has_a_distinct_name() {
        use strum::VariantArray;
        let names: std::collections::HashSet<String> = Action::VARIANTS
            .iter()
            .map(|a| {
                serde_json::to_value(a)
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        assert_eq!(names.len(), Action::VARIANTS.len());
        assert!(names.contains("PATIENT_DETAILS_READ"));
    }
}
