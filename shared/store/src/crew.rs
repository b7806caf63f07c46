//! Crew accounts: user items with role CREW, bound to one ambulance (ADR 0007).
//!
//! - listed by name on the KEYS_ONLY `list` index (`listpk = CREW`), counted by the
//!   `crew` counter, paged like hospitals;
//! - found per ambulance on `gsi1` (`gsi1pk = AMBCREW#<ambulance>`);
//! - each ambulance counts its crew (`crewCount`, in the same transactions), so an
//!   ambulance (or its hospital) with crew cannot be removed, even in a race.

use super::{
    counters::{self, Total},
    keys,
    paging::CountedList,
    schema::GSI1,
    table::{Query, Store},
    tx::{Label, Tx, TxError, Write},
    users::{UserItem, account_refused},
};
use crate::error::StoreError;
use domain::{
    ambulance,
    audit::{Action, Note, Target},
    crew::{self, Crew, NewCrew},
    page::Page,
    types::{Email, Id, Timestamp, Username},
    user::Role,
};

impl UserItem {
    /// The crew account this item is, if it is one.
    pub(crate) fn crew(self) -> Option<Crew> {
        let ambulance_id = self.ambulance_id?;
        let u = self.user;
        u.role.is_crew().then_some(Crew {
            id: u.id,
            username: u.username,
            email: u.email,
            phone: u.phone,
            role: u.role,
            ambulance_id,
            created_at: u.created_at,
        })
    }
}

/// Adds `delta` to an ambulance's crew count, on the condition that it exists.
fn count_crew(ambulance: Id, delta: i64) -> Write {
    Write::update(keys::ambulance(ambulance), "ADD crewCount :d")
        .exists()
        .value(":d", delta)
}

/// The stored crew account `id`, on the condition that it is still bound to
/// `ambulance` (so a move or removal never acts on a crew changed meanwhile).
fn still_bound(write: Write, ambulance: Id) -> Write {
    write
        .when("#role = :crew AND ambulanceId = :bound")
        .name("#role", "role")
        .value(":crew", Role::Crew)
        .value(":bound", ambulance)
}

/// `store.crew()`: crew accounts: made, read, moved and removed. Every method of the handle
/// is in this file.
#[derive(Clone, Copy)]
pub struct CrewAccounts<'a> {
    pub(super) store: &'a Store,
}

impl CrewAccounts<'_> {
    /// Creates a crew account bound to an existing ambulance (404 otherwise), with
    /// its username and email claimed like any user's.
    pub async fn create_crew(self, new: NewCrew) -> Result<Crew, StoreError> {
        let id = self.store.next_id("user").await?;
        let ambulance_id = new.ambulance_id;
        let account = &new.account;
        let item = UserItem {
            ambulance_id: Some(ambulance_id),
            gsi1pk: Some(keys::ambulance_crew(ambulance_id)),
            gsi1sk: Some(keys::crew_in_ambulance(id)),
            listpk: Some(keys::CREW.into()),
            listsk: Some(keys::by_name(account.username.as_str(), id)),
            ..UserItem::new(id, account, Role::Crew, None)
        };
        let mut tx = item.account_tx(&account.username, &account.email);
        tx.push(Label::Ambulance(ambulance_id), count_crew(ambulance_id, 1))
            .push(Label::Counter, counters::add(counters::CREW, &Total::ONE)?);
        self.store.audit().push(
            &mut tx,
            Note::new(
                Action::CrewCreated,
                Target::crew(id, account.username.as_str(), &[ambulance_id]),
            )
            .after(serde_json::json!({ "ambulanceId": ambulance_id })),
        );
        self.store.commit(tx).await.map_err(|e| {
            e.or_refused(|r| {
                account_refused(
                    &r,
                    Some((
                        Label::Ambulance(ambulance_id),
                        ambulance::not_found(ambulance_id).into(),
                    )),
                )
            })
        })?;
        item.crew()
            .ok_or_else(|| StoreError::internal("a new crew item is a crew"))
    }

    /// The crew account `id`; None when there is none (or the user is not a crew).
    pub async fn crew(self, id: Id) -> Result<Option<Crew>, StoreError> {
        Ok(self
            .store
            .get::<UserItem>(&keys::user(id))
            .await?
            .and_then(UserItem::crew))
    }

    /// The account `id` as a crew: None when there is no such account, `Some(None)`
    /// when it is not a crew (one GetItem, for the crew extractor).
    pub async fn account_as_crew(self, id: Id) -> Result<Option<Option<Crew>>, StoreError> {
        Ok(self
            .store
            .get::<UserItem>(&keys::user(id))
            .await?
            .map(UserItem::crew))
    }

    /// The crew accounts of one ambulance, by id.
    pub async fn ambulance_crew(self, ambulance: Id) -> Result<Vec<Crew>, StoreError> {
        let items: Vec<UserItem> = self
            .store
            .query_all(Query::on(GSI1, "gsi1pk = :p").value(":p", keys::ambulance_crew(ambulance)))
            .await?;
        Ok(items.into_iter().filter_map(UserItem::crew).collect())
    }

    pub async fn crew_count(self) -> Result<u64, StoreError> {
        self.store.counted(counters::CREW).await
    }

    /// One page of crew accounts by username; the total from the crew counter.
    pub async fn crew_page(self, page: u32, size: u32) -> Result<Page<Crew>, StoreError> {
        self.store
            .page(CountedList::CREW, page, size, UserItem::crew)
            .await
    }

    /// The old ambulance of a crew account moved or removed: OFFLINE until one of its
    /// other crew's devices reports again (decision 0020), not ONLINE for two more
    /// minutes on the strength of the gone account's last heartbeat.
    fn left(self, ambulance: Id) -> Result<Write, StoreError> {
        let now =
            Timestamp::new(self.store.now()).ok_or_else(|| StoreError::internal("bad clock"))?;
        Ok(Write::update(keys::position(ambulance), "SET leftAt = :now").value(":now", now))
    }

    /// Binds a crew account to another ambulance (404 for an unknown one); both
    /// ambulances' crew counts move in the same transaction.
    pub async fn move_crew(self, id: Id, to: Id) -> Result<Crew, StoreError> {
        let current = self.crew(id).await?.ok_or_else(|| crew::not_found(id))?;
        let from = current.ambulance_id;
        if from == to {
            // Still check the ambulance: a move to an unknown one is a 404 either way.
            return match self.store.fleet().ambulance(to).await? {
                Some(_) => Ok(current),
                None => Err(ambulance::not_found(to).into()),
            };
        }
        let rebind = Write::update(keys::user(id), "SET ambulanceId = :to, gsi1pk = :pk")
            .value(":to", to)
            .value(":pk", keys::ambulance_crew(to));
        let mut tx = Tx::new();
        tx.push(Label::User, still_bound(rebind, from))
            .push(Label::Ambulance(from), count_crew(from, -1))
            .push(Label::Ambulance(to), count_crew(to, 1))
            .push(Label::Position(from), self.left(from)?);
        self.store.audit().push(
            &mut tx,
            Note::new(
                Action::CrewMoved,
                Target::crew(id, &current.username, &[from, to]),
            )
            .before(serde_json::json!({ "ambulanceId": from }))
            .after(serde_json::json!({ "ambulanceId": to })),
        );
        self.store.commit(tx).await.map_err(|e| {
            e.or_refused(|r| {
                if r.by(Label::Ambulance(to)) {
                    ambulance::not_found(to).into()
                } else {
                    crew::changed_meanwhile(id).into()
                }
            })
        })?;
        Ok(Crew {
            ambulance_id: to,
            ..current
        })
    }

    /// Removes a crew account: the user, its name and email guards, its ambulance's
    /// count and the crew counter, together.
    pub async fn remove_crew(self, id: Id) -> Result<(), StoreError> {
        let current = self.crew(id).await?.ok_or_else(|| crew::not_found(id))?;
        let username =
            Username::try_from(current.username.clone()).map_err(StoreError::internal)?;
        let email = Email::try_from(current.email.clone()).map_err(StoreError::internal)?;
        let mut tx = Tx::new();
        tx.push(
            Label::User,
            still_bound(Write::delete(keys::user(id)), current.ambulance_id),
        )
        .push(
            Label::UsernameGuard,
            Write::delete(keys::username_guard(&username)),
        )
        .push(Label::EmailGuard, Write::delete(keys::email_guard(&email)))
        .push(
            Label::Ambulance(current.ambulance_id),
            count_crew(current.ambulance_id, -1),
        )
        .push(
            Label::Counter,
            counters::add(counters::CREW, &Total { total: -1 })?,
        )
        .push(
            Label::Position(current.ambulance_id),
            self.left(current.ambulance_id)?,
        );
        self.store.audit().push(
            &mut tx,
            Note::new(
                Action::CrewRemoved,
                Target::crew(id, &current.username, &[current.ambulance_id]),
            )
            .before(serde_json::json!({ "ambulanceId": current.ambulance_id })),
        );
        self.store.commit(tx).await.map_err(|e| match e {
            TxError::Refused(_) => crew::changed_meanwhile(id).into(),
            TxError::Api(e) => e,
        })
    }
}
