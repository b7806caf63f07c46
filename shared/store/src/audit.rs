//! The audit trail (docs/decisions/0023-audit-trail.md): append-only records of what
//! admins did, each written into the transaction of the change it describes.
//!
//! One record is one item in each partition it is found by, with one sort key
//! (`<at>#<64 random bits>`): [`keys::AUDIT_LOG`] (every record), its admin's, its
//! booking's and each of its ambulances'. So every filter of `GET /api/admin/audit`
//! is one Query of the table, newest first, strongly consistent, with no index; a
//! second filter is applied to what the first one's partition holds. Every copy is put
//! on the condition that no item has its key: nothing ever rewrites or deletes one.

use serde::{Deserialize, Serialize};

use super::{
    keys::{self, Key},
    table::{Query, Store},
    tx::{Label, Tx, Write},
};
use crate::error::StoreError;
use domain::{
    audit::{AuditPage, Filter, Note, Record},
    types::{Id, Timestamp},
};

/// Records one page answers at most.
pub const PAGE_SIZE: usize = 50;
/// Items one page reads at most when a second filter leaves some out: past this, the
/// page answers what it found and a cursor to read on from.
pub const READ_LIMIT: usize = 500;

#[derive(Debug, Clone, Serialize, Deserialize)]
struct AuditItem {
    #[serde(flatten)]
    key: Key,
    #[serde(flatten)]
    record: Record,
}

/// The partitions a record is found in.
fn partitions(record: &Record) -> Vec<String> {
    let mut out = vec![
        keys::AUDIT_LOG.to_owned(),
        keys::audit_by_admin(record.by.id),
    ];
    out.extend(record.target.booking_id.map(keys::audit_of_booking));
    out.extend(
        record
            .target
            .ambulance_ids
            .iter()
            .map(|a| keys::audit_of_ambulance(*a)),
    );
    out
}

/// The partition a filter reads: the narrowest it names.
fn partition_of(filter: &Filter) -> String {
    match (filter.booking_id, filter.ambulance_id, filter.admin_id) {
        (Some(b), _, _) => keys::audit_of_booking(b),
        (None, Some(a), _) => keys::audit_of_ambulance(a),
        (None, None, Some(by)) => keys::audit_by_admin(by),
        (None, None, None) => keys::AUDIT_LOG.to_owned(),
    }
}

/// The cursor of a page: where the next one starts, the sort key of the last record
/// read, written `<epoch ms>-<16 hex digits>` (every string of that form is a place to
/// start from, so the contract's pattern says exactly what is accepted).
fn cursor_of(sk: &str) -> Option<String> {
    let (at, nonce) = sk.rsplit_once('#')?;
    let ms = Timestamp::parse(at)?.get().unix_timestamp_nanos() / 1_000_000;
    Some(format!("{ms}-{nonce}"))
}

/// The sort key a cursor names; 400 for anything not of its form.
fn sort_key_of(cursor: &str) -> Result<String, StoreError> {
    let bad = || {
        StoreError::bad_request(
            "cursor",
            "cursor is not one this list gave: ask for the first page without it",
        )
    };
    let (ms, nonce) = cursor.split_once('-').ok_or_else(bad)?;
    let digits =
        |t: &str, max: usize, ok: fn(u8) -> bool| (1..=max).contains(&t.len()) && t.bytes().all(ok);
    if !digits(ms, 14, |b| b.is_ascii_digit())
        || nonce.len() != 16
        || !digits(nonce, 16, |b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    {
        return Err(bad());
    }
    let at = ms
        .parse::<i128>()
        .ok()
        .and_then(|ms| time::OffsetDateTime::from_unix_timestamp_nanos(ms * 1_000_000).ok())
        .and_then(Timestamp::new)
        .ok_or_else(bad)?;
    Ok(keys::audit_entry(
        &at.to_string(),
        u64::from_str_radix(nonce, 16).map_err(|_| bad())?,
    ))
}

/// `store.audit()`: the audit trail. Every method of the handle is in this file.
#[derive(Clone, Copy)]
pub struct Audit<'a> {
    pub(super) store: &'a Store,
}

impl Audit<'_> {
    /// Into `tx`, when this store serves an admin (`Store::acting_as`): `note` as
    /// that admin's record now, one copy per partition it is found in. Nothing
    /// otherwise (the clock, a crew, a requester, the test fixtures).
    pub(crate) fn push(self, tx: &mut Tx, note: Note) {
        let Some(actor) = self.store.actor() else {
            return;
        };
        let at = self.store.timestamp();
        let sk = keys::audit_entry(&at.to_string(), rand::random());
        let record = note.record(at, actor.clone());
        for pk in partitions(&record) {
            let item = AuditItem {
                key: Key::new(pk, sk.clone()),
                record: record.clone(),
            };
            tx.push(Label::Audit, Write::put(&item).absent());
        }
    }

    /// `note` alone, all its copies or none: for what an admin reads, which
    /// changes nothing to go with it. Nothing when no admin is acting.
    pub async fn record(self, note: Note) -> Result<(), StoreError> {
        let mut tx = Tx::new();
        self.push(&mut tx, note);
        if tx.is_empty() {
            return Ok(());
        }
        self.store.commit_or_500(tx).await
    }

    /// Every record of booking `id`, newest first (its partition of the trail): the
    /// owner's export reads who looked at its patient details here.
    pub(crate) async fn of_booking(self, id: Id) -> Result<Vec<Record>, StoreError> {
        let items: Vec<AuditItem> = self
            .store
            .query_all(
                Query::table("pk = :p")
                    .value(":p", keys::audit_of_booking(id))
                    .newest_first(true),
            )
            .await?;
        Ok(items.into_iter().map(|i| i.record).collect())
    }

    /// One page of the records `filter` admits, newest first, from `cursor` (the
    /// last page's; none: the newest). A page may come back short, even empty,
    /// with a cursor when a second filter left out what it read.
    pub async fn page(self, filter: Filter, cursor: Option<&str>) -> Result<AuditPage, StoreError> {
        let partition = partition_of(&filter);
        let mut start = cursor
            .map(sort_key_of)
            .transpose()?
            .map(|sk| Key::new(partition.clone(), sk).item());
        // With one filter (or none) every item read is answered: read no more.
        let given = [
            filter.booking_id.is_some(),
            filter.ambulance_id.is_some(),
            filter.admin_id.is_some(),
        ];
        let second_filter = given.iter().filter(|g| **g).count() > 1;
        let mut items = Vec::with_capacity(PAGE_SIZE);
        let mut read = 0;
        loop {
            let wanted = if second_filter {
                100
            } else {
                PAGE_SIZE - items.len()
            };
            let query = Query::table("pk = :p")
                .value(":p", &partition)
                .newest_first(true)
                .page_size(wanted as u64);
            let (found, next): (Vec<AuditItem>, _) = self.store.query_page(query, start).await?;
            read += found.len();
            let mut last = None;
            for item in found {
                last = Some(item.key.sk.clone());
                if filter.admits(&item.record) {
                    items.push(item.record);
                    if items.len() == PAGE_SIZE {
                        return Ok(AuditPage {
                            items,
                            cursor: cursor_of(&item.key.sk),
                        });
                    }
                }
            }
            match (next, last) {
                (Some(next), _) if read < READ_LIMIT => start = Some(next),
                (Some(_), Some(last)) => {
                    return Ok(AuditPage {
                        items,
                        cursor: cursor_of(&last),
                    });
                }
                _ => {
                    return Ok(AuditPage {
                        items,
                        cursor: None,
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::audit::{Action, Actor, Target};

    fn id(n: u64) -> Id {
        Id::try_from(n).unwrap()
    }

    #[test]
    fn a_record_is_found_by_each_thing_it_concerns() {
        let record = Note::new(
            Action::BookingReassigned,
            Target::booking(id(12), id(3)).and_ambulance(id(7)),
        )
        .record(
            Timestamp::now(),
            Actor {
                id: id(1),
                username: "admin".into(),
            },
        );
        assert_eq!(
            partitions(&record),
            [
                keys::AUDIT_LOG.to_owned(),
                keys::audit_by_admin(id(1)),
                keys::audit_of_booking(id(12)),
                keys::audit_of_ambulance(id(3)),
                keys::audit_of_ambulance(id(7)),
            ]
        );
        let filter = |b: Option<u64>, a: Option<u64>, by: Option<u64>| Filter {
            booking_id: b.map(id),
            ambulance_id: a.map(id),
            admin_id: by.map(id),
        };
        // Each filter reads a partition the record is in.
        for f in [
            filter(None, None, None),
            filter(Some(12), Some(7), Some(1)),
            filter(None, Some(3), Some(1)),
            filter(None, None, Some(1)),
        ] {
            assert!(partitions(&record).contains(&partition_of(&f)), "{f:?}");
        }
    }

    #[test]
    fn a_cursor_reads_back_and_anything_else_is_refused_naming_it() {
        let sk = keys::audit_entry("2026-12-01T10:00:00.123Z", 0xdead_beef);
        let cursor = cursor_of(&sk).unwrap();
        assert_eq!(cursor, "1796119200123-00000000deadbeef");
        assert_eq!(sort_key_of(&cursor).unwrap(), sk);
        // Every cursor of the contract's form is a place to start from.
        assert!(sort_key_of("0-0000000000000000").is_ok());
        assert!(sort_key_of("99999999999999-ffffffffffffffff").is_ok());
        for bad in [
            "",
            "0",
            "not-a-cursor",
            "1796119200123-00000000DEADBEEF",
            "1796119200123-deadbeef",
            "999999999999999-00000000deadbeef",
            "-1-00000000deadbeef",
            "1796119200123_00000000deadbeef",
        ] {
            match sort_key_of(bad) {
                Err(StoreError::Refused(domain::refusal::Refusal::Invalid { field, .. })) => {
                    assert_eq!(field, "cursor", "{bad}")
                }
                other => panic!("{bad}: {other:?}"),
            }
        }
    }
}
