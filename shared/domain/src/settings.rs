//! The settings a control room changes without a deploy (decision 0018):
//! how long a crew has to answer, how often a job moves on by itself, how far an
//! emergency looks, how long each kind of crew takes to answer, the number people
//! call, how long personal data is kept, and the targets the response-time report
//! measures against. Each value is bounded: a setting that would switch a safety rule
//! off (a zero-second answer window, a 0 km search) is refused with a 400 naming it.
//!
//! The deployed defaults are [`Settings::default`], except the answer windows, which
//! a stack may set from its environment (`ANSWER_EMERGENCY_SECS`,
//! `ANSWER_NORMAL_SECS`: a test stack's short deadlines). What an admin stores wins
//! over both.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{deadline::AnswerTimes, presence::CrewPresence, refusal::Refusal};

/// How long a crew of each presence is expected to take to answer a job, in seconds:
/// the second half of an emergency's expected start (ETA + this).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PresenceDelays {
    #[serde(rename = "ONLINE")]
    pub online: u32,
    #[serde(rename = "OFFLINE")]
    pub offline: u32,
    #[serde(rename = "NO_CREW")]
    pub no_crew: u32,
}

impl PresenceDelays {
    pub fn of(&self, presence: CrewPresence) -> Duration {
        Duration::from_secs(u64::from(match presence {
            CrewPresence::Online => self.online,
            CrewPresence::Offline => self.offline,
            CrewPresence::NoCrew => self.no_crew,
        }))
    }
}

/// Every setting, as `GET /api/admin/settings` answers it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    pub emergency_answer_seconds: u32,
    pub normal_answer_seconds: u32,
    /// How many times the clock moves an unanswered emergency on by itself.
    pub automatic_moves: u32,
    /// How far from the pickup an emergency looks for a free ambulance.
    pub sos_radius_km: u32,
    pub presence_delay_seconds: PresenceDelays,
    pub emergency_number: String,
    /// How long a finished booking keeps its patient details and exact pickup.
    pub retention_days: u32,
    /// The response-time report's targets.
    pub answer_target_seconds: u32,
    pub pickup_target_minutes: u32,
}

/// The bounds of each numeric setting, inclusive. Named once: the checks, the error
/// messages and the contract's ranges (docs/openapi.yaml) say the same.
pub mod bounds {
    pub const EMERGENCY_ANSWER_SECONDS: (u32, u32) = (5, 600);
    pub const NORMAL_ANSWER_SECONDS: (u32, u32) = (5, 3600);
    pub const AUTOMATIC_MOVES: (u32, u32) = (0, 10);
    pub const SOS_RADIUS_KM: (u32, u32) = (1, 200);
    pub const PRESENCE_DELAY_SECONDS: (u32, u32) = (0, 3600);
    pub const RETENTION_DAYS: (u32, u32) = (7, 3650);
    pub const ANSWER_TARGET_SECONDS: (u32, u32) = (5, 3600);
    pub const PICKUP_TARGET_MINUTES: (u32, u32) = (1, 240);
}

impl Default for Settings {
    fn default() -> Self {
        Settings::with_answer_times(AnswerTimes::default())
    }
}

impl Settings {
    /// The defaults, with the answer windows a stack's environment gave.
    pub fn with_answer_times(times: AnswerTimes) -> Self {
        let seconds = |d: Duration| u32::try_from(d.as_secs()).unwrap_or(u32::MAX);
        let emergency = seconds(times.emergency);
        // A crew that is not online answers, if at all, after a dispatcher's phone
        // call: the answer window and a minute for the call.
        let call_first = emergency.saturating_add(60);
        Settings {
            emergency_answer_seconds: emergency,
            normal_answer_seconds: seconds(times.normal),
            automatic_moves: 3,
            sos_radius_km: 50,
            presence_delay_seconds: PresenceDelays {
                online: 15,
                offline: call_first,
                no_crew: call_first,
            },
            emergency_number: "911".into(),
            retention_days: 90,
            answer_target_seconds: 60,
            pickup_target_minutes: 15,
        }
    }

    pub fn answer_times(&self) -> AnswerTimes {
        AnswerTimes {
            emergency: Duration::from_secs(self.emergency_answer_seconds.into()),
            normal: Duration::from_secs(self.normal_answer_seconds.into()),
        }
    }

    pub fn sos_radius_km(&self) -> f64 {
        f64::from(self.sos_radius_km)
    }

    /// These settings with `change` applied, every value in it checked: the first out
    /// of range refuses the whole change, naming its field as the request does.
    pub fn changed(&self, change: SettingsChange) -> Result<Settings, Refusal> {
        use bounds::*;
        let mut next = self.clone();
        let set = |slot: &mut u32, value: Option<u32>, field: &str, (lo, hi): (u32, u32)| {
            if let Some(v) = value {
                if !(lo..=hi).contains(&v) {
                    return Err(Refusal::invalid(
                        field,
                        format!("{field} must be from {lo} to {hi}, got {v}"),
                    ));
                }
                *slot = v;
            }
            Ok(())
        };
        set(
            &mut next.emergency_answer_seconds,
            change.emergency_answer_seconds,
            "emergencyAnswerSeconds",
            EMERGENCY_ANSWER_SECONDS,
        )?;
        set(
            &mut next.normal_answer_seconds,
            change.normal_answer_seconds,
            "normalAnswerSeconds",
            NORMAL_ANSWER_SECONDS,
        )?;
        set(
            &mut next.automatic_moves,
            change.automatic_moves,
            "automaticMoves",
            AUTOMATIC_MOVES,
        )?;
        set(
            &mut next.sos_radius_km,
            change.sos_radius_km,
            "sosRadiusKm",
            SOS_RADIUS_KM,
        )?;
        if let Some(delays) = change.presence_delay_seconds {
            let d = &mut next.presence_delay_seconds;
            let field = "presenceDelaySeconds";
            set(
                &mut d.online,
                delays.online,
                &format!("{field}.ONLINE"),
                PRESENCE_DELAY_SECONDS,
            )?;
            set(
                &mut d.offline,
                delays.offline,
                &format!("{field}.OFFLINE"),
                PRESENCE_DELAY_SECONDS,
            )?;
            set(
                &mut d.no_crew,
                delays.no_crew,
                &format!("{field}.NO_CREW"),
                PRESENCE_DELAY_SECONDS,
            )?;
        }
        if let Some(number) = change.emergency_number {
            next.emergency_number = parse_emergency_number(&number)?;
        }
        set(
            &mut next.retention_days,
            change.retention_days,
            "retentionDays",
            RETENTION_DAYS,
        )?;
        set(
            &mut next.answer_target_seconds,
            change.answer_target_seconds,
            "answerTargetSeconds",
            ANSWER_TARGET_SECONDS,
        )?;
        set(
            &mut next.pickup_target_minutes,
            change.pickup_target_minutes,
            "pickupTargetMinutes",
            PICKUP_TARGET_MINUTES,
        )?;
        Ok(next)
    }
}

/// The number every call button dials: 2 to 6 digits (`911`, `112`, `108`, `999`),
/// the same rule as the web app's build setting `VITE_EMERGENCY_NUMBER`.
fn parse_emergency_number(text: &str) -> Result<String, Refusal> {
    let number = text.trim();
    if (2..=6).contains(&number.len()) && number.bytes().all(|b| b.is_ascii_digit()) {
        Ok(number.to_string())
    } else {
        Err(Refusal::invalid(
            "emergencyNumber",
            "emergencyNumber must be 2 to 6 digits, like 911 or 112",
        ))
    }
}

/// `PUT /api/admin/settings`: all fields or some; a field not named stays as it is.
/// An unknown field is refused (a misspelt setting must not look saved), and so is
/// `null` (it is not "leave it as it is", nor "back to the default"). Numbers are
/// whole JSON numbers (`45` or `45.0`, as JSON Schema's `integer`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SettingsChange {
    #[serde(
        default,
        deserialize_with = "whole",
        skip_serializing_if = "Option::is_none"
    )]
    pub emergency_answer_seconds: Option<u32>,
    #[serde(
        default,
        deserialize_with = "whole",
        skip_serializing_if = "Option::is_none"
    )]
    pub normal_answer_seconds: Option<u32>,
    #[serde(
        default,
        deserialize_with = "whole",
        skip_serializing_if = "Option::is_none"
    )]
    pub automatic_moves: Option<u32>,
    #[serde(
        default,
        deserialize_with = "whole",
        skip_serializing_if = "Option::is_none"
    )]
    pub sos_radius_km: Option<u32>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub presence_delay_seconds: Option<PresenceDelaysChange>,
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub emergency_number: Option<String>,
    #[serde(
        default,
        deserialize_with = "whole",
        skip_serializing_if = "Option::is_none"
    )]
    pub retention_days: Option<u32>,
    #[serde(
        default,
        deserialize_with = "whole",
        skip_serializing_if = "Option::is_none"
    )]
    pub answer_target_seconds: Option<u32>,
    #[serde(
        default,
        deserialize_with = "whole",
        skip_serializing_if = "Option::is_none"
    )]
    pub pickup_target_minutes: Option<u32>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PresenceDelaysChange {
    #[serde(
        rename = "ONLINE",
        default,
        deserialize_with = "whole",
        skip_serializing_if = "Option::is_none"
    )]
    pub online: Option<u32>,
    #[serde(
        rename = "OFFLINE",
        default,
        deserialize_with = "whole",
        skip_serializing_if = "Option::is_none"
    )]
    pub offline: Option<u32>,
    #[serde(
        rename = "NO_CREW",
        default,
        deserialize_with = "whole",
        skip_serializing_if = "Option::is_none"
    )]
    pub no_crew: Option<u32>,
}

/// A field that may be left out but, when sent, holds a value: `null` is refused.
fn present<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(d).map(Some)
}

/// [`present`] for a number: whole (`45` or `45.0`), at most `u32::MAX` (its range
/// is checked by [`Settings::changed`], naming the field).
fn whole<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    let n = crate::types::WholeNumber::deserialize(d)?.0;
    u32::try_from(n).map(Some).map_err(|_| {
        serde::de::Error::invalid_value(
            serde::de::Unexpected::Unsigned(n),
            &"a whole number up to 4294967295",
        )
    })
}

/// What admins stored (the settings item's `values`): only the fields they set,
/// each as the API names it; the others follow the defaults.
pub type Stored = serde_json::Map<String, serde_json::Value>;

impl SettingsChange {
    /// `stored` with this change written over it (a nested delay over its own).
    pub fn merged_into(&self, mut stored: Stored) -> Stored {
        let serde_json::Value::Object(change) =
            serde_json::to_value(self).expect("a change serializes")
        else {
            unreachable!("a struct serializes as an object")
        };
        for (field, value) in change {
            match (stored.get_mut(&field), value) {
                (Some(serde_json::Value::Object(old)), serde_json::Value::Object(new)) => {
                    old.extend(new);
                }
                (_, value) => {
                    stored.insert(field, value);
                }
            }
        }
        stored
    }
}

impl Settings {
    /// These settings with what admins stored applied one value at a time: a value
    /// this version does not know (a newer version wrote it) or no longer accepts
    /// is left out and named in the second half, so it never takes the others with
    /// it (a rollback keeps every setting it understands).
    pub fn with_stored(&self, stored: &Stored) -> (Settings, Vec<String>) {
        let mut settings = self.clone();
        let mut skipped = vec![];
        let mut apply = |name: String, one: serde_json::Value| match serde_json::from_value::<
            SettingsChange,
        >(one)
        .ok()
        .and_then(|change| settings.changed(change).ok())
        {
            Some(next) => settings = next,
            None => skipped.push(name),
        };
        for (field, value) in stored {
            match value.as_object() {
                Some(nested) if field == "presenceDelaySeconds" => {
                    for (key, v) in nested {
                        apply(
                            format!("{field}.{key}"),
                            serde_json::json!({ field: { key: v } }),
                        );
                    }
                }
                _ => apply(field.clone(), serde_json::json!({ field: value })),
            }
        }
        (settings, skipped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(json: serde_json::Value) -> SettingsChange {
        serde_json::from_value(json).expect("a well-formed change")
    }

    fn refused_field(json: serde_json::Value) -> String {
        match Settings::default().changed(change(json)) {
            Err(Refusal::Invalid { field, .. }) => field,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn defaults_are_the_documented_numbers() {
        let s = Settings::default();
        assert_eq!(s.emergency_answer_seconds, 60);
        assert_eq!(s.normal_answer_seconds, 300);
        assert_eq!(s.automatic_moves, 3);
        assert_eq!(s.sos_radius_km, 50);
        assert_eq!(
            s.presence_delay_seconds,
            PresenceDelays {
                online: 15,
                offline: 120,
                no_crew: 120
            }
        );
        assert_eq!(s.emergency_number, "911");
        assert_eq!(s.retention_days, 90);
        assert_eq!((s.answer_target_seconds, s.pickup_target_minutes), (60, 15));
    }

    #[test]
    fn a_short_answer_window_from_the_environment_shortens_the_call_delay_too() {
        let s = Settings::with_answer_times(AnswerTimes {
            emergency: Duration::from_secs(8),
            normal: Duration::from_secs(20),
        });
        assert_eq!(
            (s.emergency_answer_seconds, s.normal_answer_seconds),
            (8, 20)
        );
        assert_eq!(s.presence_delay_seconds.offline, 68);
        assert_eq!(s.answer_times().emergency, Duration::from_secs(8));
    }

    #[test]
    fn a_change_keeps_what_it_does_not_name() {
        let s = Settings::default()
            .changed(change(serde_json::json!({
                "emergencyAnswerSeconds": 45,
                "presenceDelaySeconds": {"ONLINE": 20},
                "emergencyNumber": " 112 "
            })))
            .unwrap();
        assert_eq!(s.emergency_answer_seconds, 45);
        assert_eq!(s.presence_delay_seconds.online, 20);
        assert_eq!(s.presence_delay_seconds.offline, 120);
        assert_eq!(s.emergency_number, "112");
        assert_eq!(s.normal_answer_seconds, 300);
    }

    #[test]
    fn every_bound_is_checked_and_names_its_field() {
        for (json, field) in [
            (
                serde_json::json!({"emergencyAnswerSeconds": 4}),
                "emergencyAnswerSeconds",
            ),
            (
                serde_json::json!({"emergencyAnswerSeconds": 601}),
                "emergencyAnswerSeconds",
            ),
            (
                serde_json::json!({"normalAnswerSeconds": 3601}),
                "normalAnswerSeconds",
            ),
            (serde_json::json!({"automaticMoves": 11}), "automaticMoves"),
            (serde_json::json!({"sosRadiusKm": 0}), "sosRadiusKm"),
            (serde_json::json!({"sosRadiusKm": 201}), "sosRadiusKm"),
            (
                serde_json::json!({"presenceDelaySeconds": {"NO_CREW": 3601}}),
                "presenceDelaySeconds.NO_CREW",
            ),
            (
                serde_json::json!({"emergencyNumber": "9-1-1"}),
                "emergencyNumber",
            ),
            (
                serde_json::json!({"emergencyNumber": "1"}),
                "emergencyNumber",
            ),
            (serde_json::json!({"retentionDays": 6}), "retentionDays"),
            (
                serde_json::json!({"answerTargetSeconds": 0}),
                "answerTargetSeconds",
            ),
            (
                serde_json::json!({"pickupTargetMinutes": 241}),
                "pickupTargetMinutes",
            ),
        ] {
            assert_eq!(refused_field(json.clone()), field, "{json}");
        }
    }

    #[test]
    fn a_refused_change_changes_nothing() {
        let before = Settings::default();
        let out = before.changed(change(serde_json::json!({
            "emergencyAnswerSeconds": 30,
            "sosRadiusKm": 0
        })));
        assert!(out.is_err());
        assert_eq!(before, Settings::default());
    }

    #[test]
    fn null_is_refused_and_a_whole_float_is_a_number() {
        assert!(
            serde_json::from_value::<SettingsChange>(serde_json::json!({"automaticMoves": null}))
                .is_err()
        );
        assert!(
            serde_json::from_value::<SettingsChange>(
                serde_json::json!({"presenceDelaySeconds": {"ONLINE": null}})
            )
            .is_err()
        );
        assert!(
            serde_json::from_value::<SettingsChange>(serde_json::json!({"emergencyNumber": null}))
                .is_err()
        );
        let c: SettingsChange =
            serde_json::from_value(serde_json::json!({"emergencyAnswerSeconds": 18.0})).unwrap();
        assert_eq!(c.emergency_answer_seconds, Some(18));
        for bad in [18.5, -1.0, 5e10] {
            assert!(
                serde_json::from_value::<SettingsChange>(serde_json::json!({"sosRadiusKm": bad}))
                    .is_err(),
                "{bad}"
            );
        }
        let empty: SettingsChange = serde_json::from_value(serde_json::json!({})).unwrap();
        assert!(empty.automatic_moves.is_none() && empty.presence_delay_seconds.is_none());
    }

    #[test]
    fn unknown_fields_are_refused() {
        assert!(
            serde_json::from_value::<SettingsChange>(serde_json::json!({"answerSeconds": 30}))
                .is_err()
        );
        assert!(
            serde_json::from_value::<SettingsChange>(
                serde_json::json!({"presenceDelaySeconds": {"AWAY": 3}})
            )
            .is_err()
        );
    }

    #[test]
    fn stored_values_apply_one_by_one_and_a_bad_one_is_named_not_fatal() {
        let stored: Stored = serde_json::from_value(serde_json::json!({
            "emergencyAnswerSeconds": 45,
            "presenceDelaySeconds": {"ONLINE": 20, "AWAY": 5},
            "sosRadiusKm": 0,
            "fromANewerVersion": true
        }))
        .unwrap();
        let (s, mut skipped) = Settings::default().with_stored(&stored);
        assert_eq!(s.emergency_answer_seconds, 45);
        assert_eq!(s.presence_delay_seconds.online, 20);
        assert_eq!(s.sos_radius_km, 50);
        skipped.sort();
        assert_eq!(
            skipped,
            [
                "fromANewerVersion",
                "presenceDelaySeconds.AWAY",
                "sosRadiusKm"
            ]
        );
    }

    #[test]
    fn a_change_merged_into_the_stored_values_reads_back_as_the_change_applied() {
        let first = change(serde_json::json!({
            "automaticMoves": 5,
            "presenceDelaySeconds": {"OFFLINE": 30}
        }));
        let second = change(serde_json::json!({
            "presenceDelaySeconds": {"ONLINE": 10},
            "emergencyNumber": "112"
        }));
        let stored = second.merged_into(first.merged_into(Stored::new()));
        assert_eq!(
            serde_json::Value::Object(stored.clone()),
            serde_json::json!({
                "automaticMoves": 5,
                "presenceDelaySeconds": {"OFFLINE": 30, "ONLINE": 10},
                "emergencyNumber": "112"
            })
        );
        let d = Settings::default();
        let applied = d.changed(first).unwrap().changed(second).unwrap();
        assert_eq!(d.with_stored(&stored), (applied, vec![]));
    }

    #[test]
    fn the_delay_of_each_presence() {
        let d = Settings::default().presence_delay_seconds;
        assert_eq!(d.of(CrewPresence::Online), Duration::from_secs(15));
        assert_eq!(d.of(CrewPresence::NoCrew), Duration::from_secs(120));
        assert_eq!(
            serde_json::to_value(CrewPresence::NoCrew).unwrap(),
            serde_json::json!("NO_CREW")
        );
    }
}
