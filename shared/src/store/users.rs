//! Users, their uniqueness guards and the login throttle.

use std::collections::HashMap;

use aws_sdk_dynamodb::{
    error::SdkError,
    operation::update_item::UpdateItemError,
    types::{
        Delete, Put, ReturnValue, ReturnValuesOnConditionCheckFailure, TransactWriteItem, Update,
    },
};
use serde::{Deserialize, Serialize};

use super::{Store, TxError, counters, db_error, from_item, key, n, s, to_item};
use crate::{
    error::ApiError,
    types::{Email, Id, LatLng, Role, Username, epoch_seconds, now_rfc3339},
};

/// A user as the API shows it: never the password hash.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct User {
    pub id: Id,
    pub username: String,
    pub email: String,
    pub phone: String,
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub role: Role,
    pub created_at: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct UserItem {
    pk: String,
    sk: String,
    id: Id,
    username: String,
    email: String,
    phone: String,
    latitude: Option<f64>,
    longitude: Option<f64>,
    role: Role,
    created_at: String,
    password_hash: String,
}

impl From<UserItem> for User {
    fn from(i: UserItem) -> Self {
        User {
            id: i.id,
            username: i.username,
            email: i.email,
            phone: i.phone,
            latitude: i.latitude,
            longitude: i.longitude,
            role: i.role,
            created_at: i.created_at,
        }
    }
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Guard {
    pk: String,
    sk: String,
    user_id: Id,
}

pub struct NewUser {
    pub username: Username,
    pub email: Email,
    pub phone: crate::types::Phone,
    pub location: Option<LatLng>,
    pub role: Role,
    pub password_hash: String,
}

pub struct ProfileChange {
    pub email: Email,
    /// `None` keeps the stored location.
    pub location: Option<LatLng>,
    pub password_hash: Option<String>,
}

fn user_pk(id: Id) -> String {
    format!("USER#{id}")
}

fn username_pk(username: &Username) -> String {
    format!("USERNAME#{}", username.key())
}

fn email_pk(email: &Email) -> String {
    format!("EMAIL#{}", email.key())
}

fn put_new(store: &Store, item: super::Item) -> Result<TransactWriteItem, ApiError> {
    Ok(TransactWriteItem::builder()
        .put(
            Put::builder()
                .table_name(store.table())
                .set_item(Some(item))
                .condition_expression("attribute_not_exists(pk)")
                .build()
                .map_err(ApiError::internal)?,
        )
        .build())
}

fn guard(store: &Store, pk: String, user_id: Id) -> Result<TransactWriteItem, ApiError> {
    put_new(
        store,
        to_item(&Guard {
            pk,
            sk: "GUARD".into(),
            user_id,
        })?,
    )
}

const LOGIN_WINDOW_SECS: i64 = 15 * 60;
const LOGIN_MAX_FAILURES: i64 = 5;

impl Store {
    /// Creates a user and claims the username and email in one transaction, so two
    /// concurrent registrations can never both get the same name.
    pub async fn create_user(&self, new: NewUser) -> Result<User, ApiError> {
        let id = self.next_id("user").await?;
        let item = UserItem {
            pk: user_pk(id),
            sk: "USER".into(),
            id,
            username: new.username.to_string(),
            email: new.email.to_string(),
            phone: new.phone.to_string(),
            latitude: new.location.map(|l| l.lat.get()),
            longitude: new.location.map(|l| l.lng.get()),
            role: new.role,
            created_at: now_rfc3339(),
            password_hash: new.password_hash,
        };
        let tx = vec![
            put_new(self, to_item(&item)?)?,
            guard(self, username_pk(&new.username), id)?,
            guard(self, email_pk(&new.email), id)?,
            counters::add(self, counters::USERS, &[("total", 1)])?,
        ];
        match self.transact(tx).await {
            Ok(()) => Ok(item.into()),
            Err(TxError::Cancelled(c)) if c.failed_at(1) => {
                Err(ApiError::Conflict("Username is already taken".into()))
            }
            Err(TxError::Cancelled(c)) if c.failed_at(2) => {
                Err(ApiError::Conflict("Email is already registered".into()))
            }
            Err(TxError::Cancelled(c)) => Err(ApiError::internal(format!("{c:?}"))),
            Err(TxError::Api(e)) => Err(e),
        }
    }

    pub async fn user(&self, id: Id) -> Result<Option<User>, ApiError> {
        Ok(self
            .get::<UserItem>(&user_pk(id), "USER")
            .await?
            .map(User::from))
    }

    /// The user and their password hash, for login only.
    pub async fn user_for_login(
        &self,
        username: &Username,
    ) -> Result<Option<(User, String)>, ApiError> {
        let Some(guard) = self.get::<Guard>(&username_pk(username), "GUARD").await? else {
            return Ok(None);
        };
        Ok(self
            .get::<UserItem>(&user_pk(guard.user_id), "USER")
            .await?
            .map(|item| {
                let hash = item.password_hash.clone();
                (User::from(item), hash)
            }))
    }

    /// Updates email, location and password of `current`, the user as the caller
    /// has just read it (the write is conditional on its email, so a change made
    /// since then answers 409 instead of being overwritten). A new email is claimed
    /// and the old one released in the same transaction. When the email stays, the
    /// one item changes with a conditional UpdateItem that answers the item as it
    /// stored it (one call); a new email takes the transaction and a read after it.
    pub async fn update_profile(
        &self,
        current: &User,
        change: ProfileChange,
    ) -> Result<User, ApiError> {
        let id = current.id;
        let old_email = Email::try_from(current.email.clone()).map_err(ApiError::internal)?;
        let changed_meanwhile =
            || ApiError::Conflict("The profile was changed at the same time; please retry".into());

        let mut sets = vec!["#email = :email".to_owned()];
        let names = HashMap::from([("#email".to_owned(), "email".to_owned())]);
        let mut values = HashMap::from([
            (":email".to_owned(), s(change.email.as_str())),
            (":old".to_owned(), s(current.email.as_str())),
        ]);
        if let Some(loc) = change.location {
            sets.push("latitude = :lat, longitude = :lng".into());
            values.insert(":lat".into(), n(loc.lat.get()));
            values.insert(":lng".into(), n(loc.lng.get()));
        }
        if let Some(hash) = &change.password_hash {
            sets.push("passwordHash = :hash".into());
            values.insert(":hash".into(), s(hash));
        }
        let expression = format!("SET {}", sets.join(", "));
        let condition = "attribute_exists(pk) AND #email = :old";

        let email_changes = old_email.key() != change.email.key();
        if !email_changes {
            let out = self
                .client()
                .update_item()
                .table_name(self.table())
                .set_key(Some(key(user_pk(id), "USER")))
                .update_expression(expression)
                .condition_expression(condition)
                .set_expression_attribute_names(Some(names))
                .set_expression_attribute_values(Some(values))
                .return_values(ReturnValue::AllNew)
                .send()
                .await;
            return match out {
                Ok(out) => Ok(from_item::<UserItem>(out.attributes.unwrap_or_default())?.into()),
                // The email changed since `current` was read, or an email change of
                // the same user is in flight.
                Err(SdkError::ServiceError(e))
                    if matches!(
                        e.err(),
                        UpdateItemError::ConditionalCheckFailedException(_)
                            | UpdateItemError::TransactionConflictException(_)
                    ) =>
                {
                    Err(changed_meanwhile())
                }
                Err(e) => Err(db_error(e)),
            };
        }

        let update = Update::builder()
            .table_name(self.table())
            .set_key(Some(key(user_pk(id), "USER")))
            .update_expression(expression)
            .condition_expression(condition)
            .set_expression_attribute_names(Some(names))
            .set_expression_attribute_values(Some(values))
            .build()
            .map_err(ApiError::internal)?;
        let tx = vec![
            TransactWriteItem::builder().update(update).build(),
            guard(self, email_pk(&change.email), id)?,
            TransactWriteItem::builder()
                .delete(
                    Delete::builder()
                        .table_name(self.table())
                        .set_key(Some(key(email_pk(&old_email), "GUARD")))
                        .build()
                        .map_err(ApiError::internal)?,
                )
                .build(),
        ];
        match self.transact(tx).await {
            Ok(()) => {}
            Err(TxError::Cancelled(c)) if c.failed_at(1) => {
                return Err(ApiError::Conflict("Email is already registered".into()));
            }
            Err(TxError::Cancelled(_)) => return Err(changed_meanwhile()),
            Err(TxError::Api(e)) => return Err(e),
        }
        self.user(id)
            .await?
            .ok_or_else(|| ApiError::NotFound("User not found".into()))
    }

    /// Creates an admin, or promotes an existing user (whose password is then reset
    /// to the one given). Used by the `manage` command and the local seed.
    pub async fn upsert_admin(
        &self,
        username: &Username,
        email: &Email,
        password_hash: String,
    ) -> Result<(User, bool), ApiError> {
        if let Some((user, _)) = self.user_for_login(username).await? {
            self.client()
                .update_item()
                .table_name(self.table())
                .set_key(Some(key(user_pk(user.id), "USER")))
                .update_expression("SET #role = :admin, passwordHash = :hash")
                .expression_attribute_names("#role", "role")
                .expression_attribute_values(":admin", s("ADMIN"))
                .expression_attribute_values(":hash", s(password_hash))
                .send()
                .await
                .map_err(db_error)?;
            let user = self
                .user(user.id)
                .await?
                .ok_or_else(|| ApiError::internal("user vanished"))?;
            return Ok((user, false));
        }
        let user = self
            .create_user(NewUser {
                username: username.clone(),
                email: email.clone(),
                phone: crate::types::Phone::try_from("0000000".to_owned())
                    .map_err(ApiError::internal)?,
                location: None,
                role: Role::Admin,
                password_hash,
            })
            .await?;
        Ok((user, true))
    }

    /// 429 while `username` has had too many failed logins in the window.
    pub async fn check_login_throttle(&self, username: &Username) -> Result<(), ApiError> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Throttle {
            count: i64,
            window_start: i64,
        }
        let now = epoch_seconds();
        if let Some(t) = self
            .get::<Throttle>(&throttle_pk(username), "THROTTLE")
            .await?
            && t.window_start > now - LOGIN_WINDOW_SECS
            && t.count >= LOGIN_MAX_FAILURES
        {
            return Err(ApiError::TooManyRequests {
                message: "Too many failed login attempts. Please try again later.".into(),
                retry_after_secs: (t.window_start + LOGIN_WINDOW_SECS - now).max(1) as u64,
            });
        }
        Ok(())
    }

    /// Counts one failed login in the current 15-minute window (starting a new
    /// window when the old one has passed). Kept in DynamoDB: functions are stateless.
    pub async fn record_login_failure(&self, username: &Username) -> Result<(), ApiError> {
        let now = epoch_seconds();
        let cutoff = now - LOGIN_WINDOW_SECS;
        let bump = self
            .client()
            .update_item()
            .table_name(self.table())
            .set_key(Some(key(throttle_pk(username), "THROTTLE")))
            .update_expression("ADD #c :one")
            .condition_expression("windowStart > :cutoff")
            .expression_attribute_names("#c", "count")
            .expression_attribute_values(":one", n(1))
            .expression_attribute_values(":cutoff", n(cutoff))
            .send()
            .await;
        match bump {
            Ok(_) => Ok(()),
            Err(SdkError::ServiceError(e))
                if matches!(e.err(), UpdateItemError::ConditionalCheckFailedException(_)) =>
            {
                // No window, or an expired one: start a new window at 1.
                self.client()
                    .put_item()
                    .table_name(self.table())
                    .set_item(Some(
                        [
                            ("pk", s(throttle_pk(username))),
                            ("sk", s("THROTTLE")),
                            ("count", n(1)),
                            ("windowStart", n(now)),
                            (super::schema::TTL_ATTRIBUTE, n(now + LOGIN_WINDOW_SECS)),
                        ]
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect(),
                    ))
                    .return_values_on_condition_check_failure(
                        ReturnValuesOnConditionCheckFailure::None,
                    )
                    .send()
                    .await
                    .map_err(db_error)?;
                Ok(())
            }
            Err(e) => Err(db_error(e)),
        }
    }

    pub async fn clear_login_failures(&self, username: &Username) -> Result<(), ApiError> {
        self.client()
            .delete_item()
            .table_name(self.table())
            .set_key(Some(key(throttle_pk(username), "THROTTLE")))
            .send()
            .await
            .map_err(db_error)?;
        Ok(())
    }

    pub async fn user_count(&self) -> Result<i64, ApiError> {
        Ok(counters::read(self, counters::USERS)
            .await?
            .get("total")
            .copied()
            .unwrap_or(0))
    }
}

fn throttle_pk(username: &Username) -> String {
    format!("LOGINFAIL#{}", username.key())
}
