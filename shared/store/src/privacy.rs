//! Personal data, the handle `store.privacy()` (docs/decisions/0022-personal-data.md,
//! docs/data-map.md): an account deleted, a person's export, the retention sweep,
//! and the record of who read a patient's details.
//!
//! # Deleting an account
//!
//! The request does the part that must be at once, in one transaction: the user
//! item (so every token and refresh token of every session is refused from that
//! moment: the signed-in routes and the refresh read it), the username and email
//! guards (both free again), the users counter, a tombstone on the open-bookings
//! guard conditional on no booking being open (a booking racing the deletion is
//! refused by it: `open_bookings::claim`), the open emergency's absence checked,
//! the first [`REQUEST_CHUNK`] bookings erased, and a marker `ERASURE#<user>` in the
//! `due` index ([`keys::ERASE`]). Then it deletes the devices (push subscriptions)
//! the store's way (`push().forget_devices`). A user with more bookings than one
//! transaction holds (DynamoDB's 100 items) leaves the rest to the clock: the
//! marker is swept ([`Privacy::sweep`]), each booking still in the user's `gsi1`
//! partition is erased by one conditional write that also takes it out of that
//! partition, and the marker goes once the partition is empty. So a crash anywhere
//! leaves every booking either erased or still listed, and the next sweep goes on
//! where it stopped; the marker is written even when the request erased
//! everything, so a request that dies before deleting the devices is finished by
//! the clock too.
//!
//! # Retention
//!
//! A booking's final move puts it in the `due` index under [`keys::FORGET`] by when
//! it became final (`bookings::booking_move`). The sweep reads only the entries
//! older than the retention period (`Settings::retention_days`), at most
//! [`SWEEP_BUDGET`] a sweep: keys only, then the bookings by key, so what it reads
//! grows with what it erases, never with the table. Each erasure is conditional on
//! the entry as read and takes the booking out of the index.
//!
//! # Who looked
//!
//! A staff read of a booking's patient details is a record of the admin audit trail
//! (`PATIENT_DETAILS_READ`, written by `store.audit()` before the details are
//! answered: docs/decisions/0023-audit-trail.md). The owner's export reads the
//! booking's partition of the trail (docs/decisions/0022-personal-data.md).

use futures::{StreamExt, TryStreamExt, stream};
use serde::{Deserialize, Serialize, de::IgnoredAny};
use time::{Duration, OffsetDateTime};

use super::{
    bookings::BookingItem,
    counters::{self, Total},
    keys::{self, Key},
    open_bookings,
    schema::{DUE, GSI1, TTL_ATTRIBUTE},
    table::{Query, Store},
    tx::{Label, Tx, TxError, Write},
    users::Account,
};
use crate::error::StoreError;
use domain::{
    audit::Action,
    booking::BookingStatus,
    emergency::share_expiry,
    privacy::{
        self, ErasureReason, Export, ExportedShareLink, PatientRead, Reader, ReaderRole,
        may_delete_own_account,
    },
    refusal::Conflict,
    types::{Email, Id, Timestamp, Username},
    user::User,
};

/// Bookings the deleting request erases in its own transaction (beside the 7 items
/// of the account): most people's all of them, and the request stays one round trip.
pub const REQUEST_CHUNK: usize = 40;
/// Bookings one sweep erases at most, accounts and retention together: the clock's
/// next answer-deadline sweep is never held up for long (the backlog after a first
/// deploy goes in steps).
pub const SWEEP_BUDGET: usize = 200;
/// Erasures written at once.
const AT_ONCE: usize = 8;
/// How long after the deleting request the clock first looks at its marker: the
/// index has caught up by then.
pub const ERASURE_SETTLE: Duration = Duration::seconds(10);
/// How long the open-bookings guard of a deleted account refuses bookings: longer
/// than any request that read the account before it went can take.
pub const TOMBSTONE: Duration = Duration::hours(1);
/// When a deleted account's erasure is held up (a booking still open from before
/// the open-bookings guard), when the clock looks again.
pub const BLOCKED_RETRY: Duration = Duration::hours(1);
/// The partitions the export reads the patient reads of at once.
const READS_AT_ONCE: usize = 8;

fn epoch_ms(t: OffsetDateTime) -> i64 {
    (t.unix_timestamp_nanos() / 1_000_000) as i64
}

/// `ERASURE#<user>` / `ERASURE`: a deleted account whose bookings the clock is still
/// erasing.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ErasureItem {
    #[serde(flatten)]
    key: Key,
    user_id: Id,
    deleted_at: Timestamp,
    duepk: String,
    /// When the clock looks next (epoch ms).
    duesk: i64,
}

/// An entry of the `due` index (keys only).
#[derive(Debug, Deserialize)]
struct DueEntry {
    #[serde(flatten)]
    key: Key,
    duesk: i64,
}

/// The write erasing `item`'s personal fields for `reason` at `at`, conditional on
/// the item still being what made it due: in its requester's history (an account's
/// deletion; then it leaves it) or in the retention sweep's entry as read. Either
/// way it leaves the `due` index.
fn erasure(item: &BookingItem, reason: ErasureReason, at: Timestamp) -> Write {
    let e = privacy::erased(item.booking.clone(), reason, at);
    let mut sets =
        vec!["patient = :patient, pickup = :pickup, userPhone = :phone, erased = :erased"];
    let mut removes = vec!["duepk", "duesk"];
    let mut write = Write::update(keys::booking(e.id), "")
        .value(":patient", &e.patient)
        .value(":pickup", &e.pickup)
        .value(":phone", &e.user_phone)
        .value(":erased", e.erased);
    match reason {
        ErasureReason::AccountDeleted => {
            sets.push("username = :username, userEmail = :email");
            removes.extend(["gsi1pk", "gsi1sk"]);
            write = write
                .value(":username", &e.username)
                .value(":email", &e.user_email)
                .when("gsi1pk = :mine AND bookingStatus IN (:completed, :cancelled)")
                .value(":mine", keys::user_bookings(e.user_id))
                .value(":completed", BookingStatus::Completed)
                .value(":cancelled", BookingStatus::Cancelled);
        }
        ErasureReason::Retention => {
            write = write
                .when("duepk = :forget AND duesk = :finished")
                .value(":forget", keys::FORGET)
                .value(":finished", item.duesk);
        }
    }
    write.set_expression(format!(
        "SET {} REMOVE {}",
        sets.join(", "),
        removes.join(", ")
    ))
}

/// What one privacy sweep did (logged and counted by the clock).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ForgetReport {
    /// Deleted accounts whose erasure finished.
    pub accounts_finished: usize,
    /// Bookings of deleted accounts erased.
    pub account_bookings: usize,
    /// Finished bookings past the retention period erased.
    pub retained_bookings: usize,
    /// Erasures another writer got to first (nothing to do).
    pub raced: usize,
    /// Bookings of a deleted account still open (from before the open-bookings
    /// guard): left, and looked at again later.
    pub blocked: usize,
}

/// `store.privacy()`: personal data: an account deleted, the export, the retention
/// sweep, who read a patient's details. Every method of the handle is in this file.
#[derive(Clone, Copy)]
pub struct Privacy<'a> {
    pub(super) store: &'a Store,
}

impl Privacy<'_> {
    /// Deletes `account` (its owner asked, having given their password again): 409
    /// naming the bookings still open, 403 for a staff account; otherwise the account
    /// and its names are gone at once and its bookings erased, the first
    /// [`REQUEST_CHUNK`] here and the rest by the clock (see the module doc).
    pub async fn delete_account(self, account: &Account) -> Result<(), StoreError> {
        let user = &account.user;
        may_delete_own_account(user.role)?;
        let (open, first) = tokio::join!(
            open_bookings::ids(self.store, user.id),
            self.history_chunk(user.id, REQUEST_CHUNK)
        );
        let (open, first) = (open?, first?);
        if !open.is_empty() {
            return Err(privacy::open_bookings(open).into());
        }
        let now = self.store.now();
        let at = Timestamp::new_or_now(now);
        let username = Username::try_from(user.username.clone()).map_err(StoreError::internal)?;
        let email = Email::try_from(user.email.clone()).map_err(StoreError::internal)?;
        let mine = |w: Write| {
            w.when("attribute_not_exists(pk) OR userId = :me")
                .value(":me", user.id)
        };
        let mut tx = Tx::new();
        tx.push(
            Label::User,
            Write::delete(keys::user(user.id))
                .exists()
                .when("#role = :role")
                .name("#role", "role")
                .value(":role", user.role),
        )
        .push(
            Label::UsernameGuard,
            mine(Write::delete(keys::username_guard(&username))),
        )
        .push(
            Label::EmailGuard,
            mine(Write::delete(keys::email_guard(&email))),
        )
        .push(
            Label::OpenBookings,
            Write::update(
                keys::open_bookings_guard(user.id),
                format!("SET {} = :at, #ttl = :ttl", open_bookings::ERASED_AT),
            )
            .when("attribute_not_exists(openBookings)")
            .name("#ttl", TTL_ATTRIBUTE)
            .value(":at", at)
            .value(":ttl", (now + TOMBSTONE).unix_timestamp()),
        )
        .push(
            Label::EmergencyGuard,
            Write::check(keys::open_emergency(user.id)).when("attribute_not_exists(pk)"),
        )
        .push(
            Label::Counter,
            counters::add(counters::USERS, &Total { total: -1 })?,
        )
        .push(
            Label::Erasure,
            Write::put(&ErasureItem {
                key: keys::erasure(user.id),
                user_id: user.id,
                deleted_at: at,
                duepk: keys::ERASE.to_owned(),
                duesk: epoch_ms(now + ERASURE_SETTLE),
            }),
        );
        for item in first.iter().take(REQUEST_CHUNK) {
            tx.push(
                Label::Booking(item.booking.id),
                erasure(item, ErasureReason::AccountDeleted, at),
            );
        }
        match self.store.commit(tx).await {
            Ok(()) => {}
            Err(TxError::Refused(r))
                if r.by(Label::OpenBookings) || r.by(Label::EmergencyGuard) =>
            {
                let open = open_bookings::ids(self.store, user.id).await?;
                return Err(privacy::open_bookings(open).into());
            }
            Err(TxError::Refused(r)) => {
                // A booking of the first chunk still open (made before the
                // open-bookings guard existed), or the account changed meanwhile.
                let open: Vec<Id> = first
                    .iter()
                    .filter(|i| !i.booking.booking_status.is_final())
                    .map(|i| i.booking.id)
                    .collect();
                if !open.is_empty() {
                    return Err(privacy::open_bookings(open).into());
                }
                tracing::warn!(refused = ?r.labels(), "account deletion raced");
                return Err(Conflict::ProfileChanged.into());
            }
            Err(TxError::Api(e)) => return Err(e),
        }
        tracing::info!(user = %user.id, bookings = first.len().min(REQUEST_CHUNK), "account deleted");
        // Every device stops ringing now; a failure is the clock's to finish (the
        // marker is there).
        if let Err(e) = self.store.push().forget_devices(user.id, None).await {
            tracing::warn!(error = %e, "devices of a deleted account not deleted yet");
        }
        Ok(())
    }

    /// Up to `n` of `user`'s bookings still in their history (`gsi1`), newest first.
    async fn history_chunk(self, user: Id, n: usize) -> Result<Vec<BookingItem>, StoreError> {
        self.store
            .query_first(
                Query::on(GSI1, "gsi1pk = :p")
                    .value(":p", keys::user_bookings(user))
                    .newest_first(true)
                    .page_size(n as u64),
                n,
            )
            .await
    }

    /// One privacy sweep at `now`: the deleted accounts' erasures that are due
    /// carried on, then the finished bookings past the retention period erased, at
    /// most [`SWEEP_BUDGET`] bookings in all.
    pub async fn sweep(self, now: OffsetDateTime) -> Result<ForgetReport, StoreError> {
        let mut report = ForgetReport::default();
        self.finish_erasures(now, SWEEP_BUDGET, &mut report).await?;
        let budget = SWEEP_BUDGET.saturating_sub(report.account_bookings);
        if budget > 0 {
            let retention = self.store.settings().await.retention_days;
            self.forget_finished(now, retention, budget, &mut report)
                .await?;
        }
        Ok(report)
    }

    /// The deleted accounts due (their marker's time passed), each erased as far as
    /// `budget` bookings go.
    pub async fn finish_erasures(
        self,
        now: OffsetDateTime,
        budget: usize,
        report: &mut ForgetReport,
    ) -> Result<(), StoreError> {
        let due: Vec<DueEntry> = self
            .store
            .query_first(
                Query::on(DUE, "duepk = :p AND duesk <= :now")
                    .value(":p", keys::ERASE)
                    .value(":now", epoch_ms(now)),
                10,
            )
            .await?;
        for entry in due {
            let left = budget.saturating_sub(report.account_bookings);
            if left == 0 {
                break;
            }
            let Some(marker) = self.store.get::<ErasureItem>(&entry.key).await? else {
                continue;
            };
            self.finish_erasure(&marker, now, left, report).await?;
        }
        Ok(())
    }

    /// Carries on erasing the account of `marker`: its devices deleted, then its
    /// bookings still in its history, at most `budget`; the marker deleted once none
    /// is left. Safe to run again at any point, and beside another run.
    async fn finish_erasure(
        self,
        marker: &ErasureItem,
        now: OffsetDateTime,
        budget: usize,
        report: &mut ForgetReport,
    ) -> Result<(), StoreError> {
        let user = marker.user_id;
        self.store.push().forget_devices(user, None).await?;
        let at = Timestamp::new_or_now(now);
        let mut done = 0;
        loop {
            let chunk = self.history_chunk(user, (budget - done).min(100)).await?;
            if chunk.is_empty() {
                // Nothing left under the account: done.
                let gone = Write::delete(marker.key.clone()).exists();
                self.store.delete_if(gone).await?;
                report.accounts_finished += 1;
                tracing::info!(user = %user, "account erasure finished");
                return Ok(());
            }
            let (open, finished): (Vec<_>, Vec<_>) = chunk
                .into_iter()
                .partition(|i| !i.booking.booking_status.is_final());
            if !open.is_empty() {
                report.blocked += open.len();
                tracing::error!(user = %user, bookings = ?open.iter().map(|i| i.booking.id).collect::<Vec<_>>(),
                    "a deleted account's booking is still open: its erasure waits");
            }
            let (erased, raced) = self
                .write_all(
                    finished
                        .iter()
                        .map(|i| erasure(i, ErasureReason::AccountDeleted, at))
                        .collect(),
                )
                .await?;
            report.account_bookings += erased;
            report.raced += raced;
            done += erased + raced;
            if erased == 0 || done >= budget {
                // The index behind the writes, an open booking, or the budget spent:
                // the next sweep goes on (later, when held up by an open booking).
                if !open.is_empty() && erased == 0 {
                    let later = Write::update(marker.key.clone(), "SET duesk = :next")
                        .exists()
                        .value(":next", epoch_ms(now + BLOCKED_RETRY));
                    self.store.update_returning::<IgnoredAny>(later).await?;
                }
                return Ok(());
            }
        }
    }

    /// Applies `writes` (each alone, [`AT_ONCE`] at a time): how many were written,
    /// and how many found their condition gone (another writer got there first).
    async fn write_all(self, writes: Vec<Write>) -> Result<(usize, usize), StoreError> {
        let results: Vec<bool> = stream::iter(writes)
            .map(|w| async move {
                Ok::<_, StoreError>(
                    self.store
                        .update_returning::<IgnoredAny>(w)
                        .await?
                        .is_some(),
                )
            })
            .buffer_unordered(AT_ONCE)
            .try_collect()
            .await?;
        let written = results.iter().filter(|w| **w).count();
        Ok((written, results.len() - written))
    }

    /// The bookings finished more than `retention_days` before `now`, at most
    /// `budget`, erased (patient details, exact pickup, phone).
    pub async fn forget_finished(
        self,
        now: OffsetDateTime,
        retention_days: u32,
        budget: usize,
        report: &mut ForgetReport,
    ) -> Result<(), StoreError> {
        let cutoff = now - Duration::days(i64::from(retention_days));
        let due: Vec<DueEntry> = self
            .store
            .query_first(
                Query::on(DUE, "duepk = :p AND duesk <= :cutoff")
                    .value(":p", keys::FORGET)
                    .value(":cutoff", epoch_ms(cutoff))
                    .page_size(budget as u64),
                budget,
            )
            .await?;
        if due.is_empty() {
            return Ok(());
        }
        let items: Vec<BookingItem> = self
            .store
            .batch_get(due.iter().map(|d| d.key.clone()).collect())
            .await?;
        let at = Timestamp::new_or_now(now);
        // As read from the table: an entry the index still showed after its
        // erasure is no longer due.
        let still_due = items
            .iter()
            .filter(|i| i.duepk.as_deref() == Some(keys::FORGET))
            .filter(|i| {
                due.iter()
                    .any(|d| d.key == i.key && Some(d.duesk) == i.duesk)
            });
        let (erased, raced) = self
            .write_all(
                still_due
                    .map(|i| erasure(i, ErasureReason::Retention, at))
                    .collect(),
            )
            .await?;
        report.retained_bookings += erased;
        report.raced += raced + due.len().saturating_sub(erased + raced);
        Ok(())
    }

    /// Every recorded staff read of booking `id`'s patient details, newest first.
    pub async fn patient_reads(self, id: Id) -> Result<Vec<PatientRead>, StoreError> {
        let records = self.store.audit().of_booking(id).await?;
        Ok(records
            .into_iter()
            .filter(|r| r.action == Action::PatientDetailsRead)
            .map(|r| PatientRead {
                booking_id: r.target.booking_id.unwrap_or(id),
                at: r.at,
                by: Reader {
                    id: r.by.id,
                    username: r.by.username,
                    role: ReaderRole::Admin,
                },
            })
            .collect())
    }

    /// Everything held about `user`: their profile, every booking of theirs with
    /// its timeline, their devices, their bookings' tracking links that may still
    /// work, and every staff read of their bookings' patient details.
    pub async fn export(self, user: User) -> Result<Export, StoreError> {
        let (items, devices) = tokio::join!(
            self.store.query_all::<BookingItem>(
                Query::on(GSI1, "gsi1pk = :p")
                    .value(":p", keys::user_bookings(user.id))
                    .newest_first(true),
            ),
            self.store.push().device_records(user.id)
        );
        let (items, devices) = (items?, devices?);
        let ids: Vec<Id> = items.iter().map(|i| i.booking.id).collect();
        let mut reads: Vec<PatientRead> = stream::iter(ids)
            .map(|id| self.patient_reads(id))
            .buffered(READS_AT_ONCE)
            .try_collect::<Vec<_>>()
            .await?
            .into_iter()
            .flatten()
            .collect();
        reads.sort_by_key(|r| std::cmp::Reverse(r.at));
        let share_links = items
            .iter()
            .flat_map(|i| {
                i.share_links_made.iter().filter_map(|made| {
                    let created = OffsetDateTime::from_unix_timestamp(*made).ok()?;
                    Some(ExportedShareLink {
                        booking_id: i.booking.id,
                        created_at: Timestamp::new(created)?,
                        expires_at: Timestamp::new(share_expiry(created, &i.booking.timeline))?,
                    })
                })
            })
            .collect();
        Ok(Export {
            exported_at: self.store.timestamp(),
            profile: user,
            bookings: items
                .into_iter()
                .map(|i| privacy::as_requester_sees_it(i.booking))
                .collect(),
            devices,
            share_links,
            patient_reads: reads,
        })
    }

    /// Whether `user`'s erasure is still to finish (its marker is there).
    pub async fn erasure_pending(self, user: Id) -> Result<bool, StoreError> {
        Ok(self
            .store
            .get::<ErasureItem>(&keys::erasure(user))
            .await?
            .is_some())
    }
}
