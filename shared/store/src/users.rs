//! Users and their uniqueness guards. A user item also holds the password hash and
//! the session version: a password change adds one to it, which ends every session
//! and access token issued before (see `sessions` and `auth`).

use domain::refusal::Conflict;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::{
    counters::{self, Total},
    keys::{self, Key},
    table::Store,
    tx::{Label, Refused, Tx, Write},
};
use crate::error::StoreError;
use domain::{
    crew::Crew,
    geo::Point,
    hospital_staff::HospitalStaffRef,
    types::{Email, Id, Phone, Timestamp, Username},
    user::{self, NewAccount, NewUser, ProfileChange, Role, User},
};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct UserItem {
    #[serde(flatten)]
    pub(crate) key: Key,
    #[serde(flatten)]
    pub(crate) user: User,
    pub(crate) password_hash: String,
    /// Tokens and sessions carry the version they were issued under; a password
    /// change adds one, which ends them all. Absent on items older than sessions: 0.
    #[serde(default)]
    pub(crate) session_version: u64,
    /// The user's sessions ended in the last few minutes (session tag to when, epoch
    /// seconds), written by the transaction that ends one (`sessions`): their access
    /// tokens are refused at once by the read that confirms every token.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) ended_sessions: BTreeMap<String, i64>,
    /// One more with each write of `ended_sessions`, which is conditional on it.
    #[serde(default)]
    pub(crate) ended_sessions_version: u64,
    /// A crew account's ambulance, and its index keys (`store::crew`): the crew of
    /// one ambulance on `gsi1`, every crew by name on `list`. None for other roles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) ambulance_id: Option<Id>,
    /// A hospital staff account's hospital (`store::hospital_staff`); None for
    /// other roles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) hospital_id: Option<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) gsi1pk: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) gsi1sk: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) listpk: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) listsk: Option<String>,
}

/// A user as sign-in and the token checks need them.
#[derive(Debug, Clone)]
pub struct Account {
    pub user: User,
    pub password_hash: String,
    pub session_version: u64,
    /// The tags of the user's sessions ended in the last few minutes (`sessions`).
    pub ended_sessions: BTreeSet<String>,
    /// The crew account this is, with its ambulance (None for other roles).
    pub crew: Option<Crew>,
    /// The hospital staff account this is, with its hospital (None for other roles).
    pub hospital_staff: Option<HospitalStaffRef>,
}

impl Account {
    /// Whether an access token of the session tagged `session` (None: a token made
    /// outside a sign-in) is refused because that session has ended.
    pub fn session_ended(&self, session: Option<&str>) -> bool {
        session.is_some_and(|tag| self.ended_sessions.contains(tag))
    }
}

impl From<UserItem> for Account {
    fn from(item: UserItem) -> Self {
        Account {
            user: item.user.clone(),
            password_hash: item.password_hash.clone(),
            session_version: item.session_version,
            ended_sessions: item.ended_sessions.keys().cloned().collect(),
            hospital_staff: item.hospital_staff(),
            crew: item.crew(),
        }
    }
}

/// Claims a username or an email for a user.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Guard {
    #[serde(flatten)]
    key: Key,
    user_id: Id,
}

pub(crate) fn guard(key: Key, user_id: Id) -> Write {
    Write::put(&Guard { key, user_id }).absent()
}

impl UserItem {
    /// A new account's item: session version 0, no crew fields.
    pub(crate) fn new(id: Id, account: &NewAccount, role: Role, at: Option<Point>) -> UserItem {
        UserItem {
            key: keys::user(id),
            user: User {
                id,
                username: account.username.to_string(),
                email: account.email.to_string(),
                phone: account.phone.to_string(),
                latitude: at.map(|p| p.lat),
                longitude: at.map(|p| p.lng),
                role,
                created_at: Timestamp::now(),
            },
            password_hash: account.password_hash.clone(),
            session_version: 0,
            ended_sessions: BTreeMap::new(),
            ended_sessions_version: 0,
            ambulance_id: None,
            hospital_id: None,
            gsi1pk: None,
            gsi1sk: None,
            listpk: None,
            listsk: None,
        }
    }

    /// The account and its username and email guards, all conditional on being new.
    pub(crate) fn account_tx(&self, username: &Username, email: &Email) -> Tx {
        let id = self.user.id;
        let mut tx = Tx::new();
        tx.push(Label::User, Write::put(self).absent())
            .push(
                Label::UsernameGuard,
                guard(keys::username_guard(username), id),
            )
            .push(Label::EmailGuard, guard(keys::email_guard(email), id));
        tx
    }
}

/// Why a new account's transaction was refused: its username or email is taken, or
/// (`other`, when given) another of its conditions.
pub(crate) fn account_refused(r: &Refused, other: Option<(Label, StoreError)>) -> StoreError {
    if r.by(Label::UsernameGuard) {
        user::username_taken().into()
    } else if r.by(Label::EmailGuard) {
        user::email_taken().into()
    } else {
        match other {
            Some((label, error)) if r.by(label) => error,
            _ => StoreError::internal(format!("a new account refused: {r:?}")),
        }
    }
}

/// `store.users()`: users and their uniqueness guards. Every method of the handle is in
/// this file.
#[derive(Clone, Copy)]
pub struct Users<'a> {
    pub(super) store: &'a Store,
}

impl Users<'_> {
    /// Creates a user and claims the username and email in one transaction, so two
    /// concurrent registrations can never both get the same name.
    pub async fn create_user(self, new: NewUser) -> Result<User, StoreError> {
        let id = self.store.next_id("user").await?;
        let item = UserItem::new(id, &new.account, new.role, new.location);
        let user = item.user.clone();
        let mut tx = item.account_tx(&new.account.username, &new.account.email);
        tx.push(Label::Counter, counters::add(counters::USERS, &Total::ONE)?);
        self.store
            .commit(tx)
            .await
            .map_err(|e| e.or_refused(|r| account_refused(&r, None)))?;
        Ok(user)
    }

    pub async fn user(self, id: Id) -> Result<Option<User>, StoreError> {
        Ok(self
            .store
            .get::<UserItem>(&keys::user(id))
            .await?
            .map(|i| i.user))
    }

    /// The account of user `id` (one GetItem): the token checks and password checks.
    pub async fn account(self, id: Id) -> Result<Option<Account>, StoreError> {
        Ok(self
            .store
            .get::<UserItem>(&keys::user(id))
            .await?
            .map(Account::from))
    }

    /// The account of `username`, for sign-in.
    pub async fn account_by_name(self, username: &Username) -> Result<Option<Account>, StoreError> {
        let Some(guard) = self
            .store
            .get::<Guard>(&keys::username_guard(username))
            .await?
        else {
            return Ok(None);
        };
        self.account(guard.user_id).await
    }

    /// Updates email, location and password of `current`, the user as the caller
    /// has just read it (the write is conditional on its email, so a change made
    /// since then answers 409 instead of being overwritten). A new email is claimed
    /// and the old one released in the same transaction. When the email stays, the
    /// one item changes with a conditional UpdateItem that answers the item as it
    /// stored it (one call); a new email takes the transaction and a read after it.
    pub async fn update_profile(
        self,
        current: &User,
        change: ProfileChange,
    ) -> Result<User, StoreError> {
        let new_password = change.password_hash.is_some();
        let user = self.write_profile(current, change).await?;
        // A new password ends every session: every device stops ringing too
        // (decision 0014). Logged, not failed: the password is changed.
        if new_password && let Err(e) = self.store.push().forget_devices(user.id, None).await {
            tracing::warn!(error = %e, "push subscriptions not deleted after a password change");
        }
        Ok(user)
    }

    async fn write_profile(
        self,
        current: &User,
        change: ProfileChange,
    ) -> Result<User, StoreError> {
        let id = current.id;
        let old_email = Email::try_from(current.email.clone()).map_err(StoreError::internal)?;
        let mut sets = vec!["#email = :email"];
        if change.location.is_some() {
            sets.push("latitude = :lat, longitude = :lng");
        }
        // A new password ends every earlier session and token.
        let new_sessions = if change.password_hash.is_some() {
            sets.push("passwordHash = :hash");
            " ADD sessionVersion :one"
        } else {
            ""
        };
        let mut update = Write::update(
            keys::user(id),
            format!("SET {}{new_sessions}", sets.join(", ")),
        )
        .exists()
        .when("#email = :old")
        .name("#email", "email")
        .value(":email", change.email.as_str())
        .value(":old", current.email.as_str());
        if let Some(loc) = change.location {
            update = update.value(":lat", loc.lat).value(":lng", loc.lng);
        }
        if let Some(hash) = &change.password_hash {
            update = update.value(":hash", hash).value(":one", 1);
        }

        if old_email.key() == change.email.key() {
            // The email changed since `current` was read, or an email change of the
            // same user is in flight: None.
            return match self.store.update_returning::<UserItem>(update).await? {
                Some(item) => Ok(item.user),
                None => Err(user::changed_meanwhile().into()),
            };
        }
        let mut tx = Tx::new();
        tx.push(Label::User, update)
            .push(
                Label::EmailGuard,
                guard(keys::email_guard(&change.email), id),
            )
            .push(
                Label::OldEmailGuard,
                Write::delete(keys::email_guard(&old_email)),
            );
        self.store.commit(tx).await.map_err(|e| {
            e.or_refused(|r| {
                if r.by(Label::EmailGuard) {
                    user::email_taken().into()
                } else {
                    user::changed_meanwhile().into()
                }
            })
        })?;
        Ok(self.user(id).await?.ok_or_else(user::not_found)?)
    }

    /// Creates an admin, or promotes an existing user (whose password is then reset
    /// to the one given). Used by the `manage` command and the local seed.
    pub async fn upsert_admin(
        self,
        username: &Username,
        email: &Email,
        password_hash: String,
    ) -> Result<(User, bool), StoreError> {
        if let Some(account) = self.account_by_name(username).await? {
            let user = account.user;
            if user.role.is_staff() {
                // Its ambulance (or hospital) binding and index keys would stay behind.
                return Err(Conflict::NameIsCrew {
                    username: username.to_string(),
                    id: user.id,
                }
                .into());
            }
            // A new password: the user's earlier sessions end.
            let promote = Write::update(
                keys::user(user.id),
                "SET #role = :admin, passwordHash = :hash ADD sessionVersion :one",
            )
            .name("#role", "role")
            .value(":admin", Role::Admin)
            .value(":hash", password_hash)
            .value(":one", 1);
            let item = self
                .store
                .update_returning::<UserItem>(promote)
                .await?
                .ok_or_else(|| StoreError::internal("the user changed while being promoted"))?;
            return Ok((item.user, false));
        }
        let user = self
            .create_user(NewUser {
                account: NewAccount {
                    username: username.clone(),
                    email: email.clone(),
                    phone: Phone::try_from("0000000".to_owned()).map_err(StoreError::internal)?,
                    password_hash,
                },
                location: None,
                role: Role::Admin,
            })
            .await?;
        Ok((user, true))
    }

    pub async fn user_count(self) -> Result<i64, StoreError> {
        Ok(counters::read::<Total>(self.store, counters::USERS)
            .await?
            .total)
    }
}
