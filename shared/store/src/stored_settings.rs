//! The settings admins changed (decision 0018): one item, `SETTINGS` / `SETTINGS`,
//! holding only the values they set (`values`, as the API names them) and a
//! `version`, one more with each change. Every function reads them through
//! `Store::settings`, which holds them a while; the defaults fill in the rest.

use serde::{Deserialize, Serialize};

use super::{
    keys::{self, Key},
    table::Store,
    tx::{Label, Tx, TxError, Write},
};
use crate::error::StoreError;
use domain::{
    audit::{self, Action, Note, Target},
    refusal::Conflict,
    settings::{Settings, SettingsChange, Stored},
};

/// A change that loses a race with another this many times in a row is refused (409).
const CHANGE_TRIES: usize = 3;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct SettingsItem {
    #[serde(flatten)]
    key: Option<Key>,
    #[serde(default)]
    version: u64,
    #[serde(default)]
    values: Stored,
}

/// `store.stored_settings()`: the settings item. Every method of the handle is in this
/// file.
#[derive(Clone, Copy)]
pub struct StoredSettings<'a> {
    pub(super) store: &'a Store,
}

impl StoredSettings<'_> {
    async fn item(self) -> Result<SettingsItem, StoreError> {
        Ok(self
            .store
            .get::<SettingsItem>(&keys::settings())
            .await?
            .unwrap_or_default())
    }

    /// The defaults with what `item` holds; a value this version cannot apply is
    /// left out and logged.
    fn applied(self, item: &SettingsItem) -> Settings {
        let (settings, skipped) = self.store.defaults().with_stored(&item.values);
        if !skipped.is_empty() {
            tracing::error!(
                ?skipped,
                version = item.version,
                "stored settings this version cannot apply: their defaults serve"
            );
        }
        settings
    }

    /// The settings as stored now (one strongly consistent GetItem): what
    /// `Store::settings` holds.
    pub async fn read(self) -> Result<Settings, StoreError> {
        let item = self.item().await?;
        Ok(self.applied(&item))
    }

    /// The settings as stored now, held by this instance from now on (an admin's
    /// screen shows what is stored, not what this instance read a while ago).
    pub async fn current(self) -> Result<Settings, StoreError> {
        let settings = self.read().await?;
        self.store.hold_settings(settings.clone());
        Ok(settings)
    }

    /// An admin's change: every value checked (400 naming the first out of range,
    /// nothing written), then written on the condition that nobody changed the
    /// settings since they were read, with its audit record (the values that
    /// changed, before and after) in the same transaction. In force on this instance
    /// at once, on every other within `settings_cache::MAX_AGE`. A change that
    /// changes nothing writes nothing.
    pub async fn change(self, change: SettingsChange) -> Result<Settings, StoreError> {
        for _ in 0..CHANGE_TRIES {
            let item = self.item().await?;
            let before = self.applied(&item);
            // The checks, and their 400s, on the values in force.
            before.changed(change.clone())?;
            let values = change.merged_into(item.values.clone());
            let after = self.applied(&SettingsItem {
                values: values.clone(),
                ..item.clone()
            });
            if after == before {
                self.store.hold_settings(after.clone());
                return Ok(after);
            }
            let (was, now) = audit::changed_fields(
                &serde_json::to_value(&before).map_err(StoreError::internal)?,
                &serde_json::to_value(&after).map_err(StoreError::internal)?,
            );
            let write = Write::put(&SettingsItem {
                key: Some(keys::settings()),
                version: item.version + 1,
                values,
            });
            let mut tx = Tx::new();
            tx.push(
                Label::Settings,
                match item.key {
                    Some(_) => write.when("version = :read").value(":read", item.version),
                    None => write.absent(),
                },
            );
            self.store.audit().push(
                &mut tx,
                Note::new(Action::SettingsChanged, Target::settings())
                    .before(was)
                    .after(now),
            );
            match self.store.commit(tx).await {
                Ok(()) => {
                    self.store.hold_settings(after.clone());
                    return Ok(after);
                }
                // Changed meanwhile: this change over the new values.
                Err(TxError::Refused(r)) if r.by(Label::Settings) => continue,
                Err(e) => return Err(e.into_api()),
            }
        }
        Err(Conflict::SettingsChanged.into())
    }
}
