//! Pages of the KEYS_ONLY `list` index: the keys of one page (the pages before it
//! skipped reading keys only), then BatchGetItem of those keys.

use serde::de::DeserializeOwned;

use super::{
    counters::{self, Total},
    keys::{self, Key},
    schema::LIST,
    table::{LIST_QUERY_LIMIT, Query, Store},
};
use crate::error::StoreError;
use domain::page::Page;

/// A list of the `list` index and the counter that holds its total: the one way a
/// paged route reads.
pub(crate) struct CountedList {
    /// The partition of the `list` index (`keys::HOSPITALS`, ...).
    list: &'static str,
    /// Its counter (`counters::HOSPITALS`, ...).
    counter: &'static str,
    newest_first: bool,
}

impl CountedList {
    /// Hospitals by name.
    pub(crate) const HOSPITALS: CountedList = Self::in_order(keys::HOSPITALS, counters::HOSPITALS);
    /// Crew accounts by username.
    pub(crate) const CREW: CountedList = Self::in_order(keys::CREW, counters::CREW);
    /// Every booking, newest first.
    pub(crate) const BOOKINGS: CountedList = CountedList {
        newest_first: true,
        ..Self::in_order(keys::BOOKINGS, counters::BOOKINGS)
    };

    /// In the order of the `list` index's sort key.
    const fn in_order(list: &'static str, counter: &'static str) -> Self {
        CountedList {
            list,
            counter,
            newest_first: false,
        }
    }
}

impl Store {
    /// The total a counter holds (never below 0).
    pub(crate) async fn counted(&self, counter: &str) -> Result<u64, StoreError> {
        let c: Total = counters::read(self, counter).await?;
        Ok(c.total.max(0) as u64)
    }

    /// Page `page` (zero-based, `size` long) of `of`: its keys with the total
    /// ([`Store::counted_page_keys`]), then the items, each turned into what the page
    /// shows by `show` (None leaves an item out).
    pub(crate) async fn page<I, T>(
        &self,
        of: CountedList,
        page: u32,
        size: u32,
        show: impl FnMut(I) -> Option<T>,
    ) -> Result<Page<T>, StoreError>
    where
        I: DeserializeOwned,
    {
        let (total, keys) = self
            .counted_page_keys(
                self.counted(of.counter),
                of.list,
                page,
                size,
                of.newest_first,
            )
            .await?;
        let items: Vec<I> = self.batch_get(keys).await?;
        let content = items.into_iter().filter_map(show).collect();
        Ok(Page::new(content, total, page, size))
    }

    /// A page of a counted list: the list's total (`total`, from its counter) and the
    /// page's keys ([`Store::list_page_keys`]); no keys for a page past the total.
    /// When the page lies within the first Query of keys (skip + size ≤
    /// [`LIST_QUERY_LIMIT`]) the two are read at once, one round trip instead of
    /// two; a deeper page reads the total first, so that a page past the end does not
    /// walk the whole index.
    pub(crate) async fn counted_page_keys(
        &self,
        total: impl Future<Output = Result<u64, StoreError>>,
        list: &str,
        page: u32,
        size: u32,
        newest_first: bool,
    ) -> Result<(u64, Vec<Key>), StoreError> {
        let skip = u64::from(page) * u64::from(size);
        let (total, keys) = if skip + u64::from(size) <= LIST_QUERY_LIMIT {
            tokio::try_join!(total, self.list_page_keys(list, page, size, newest_first))?
        } else {
            let total = total.await?;
            if skip >= total {
                return Ok((total, vec![]));
            }
            (
                total,
                self.list_page_keys(list, page, size, newest_first).await?,
            )
        };
        Ok((total, if skip >= total { vec![] } else { keys }))
    }

    /// One page of keys from the `list` index (partition `list`), in sort key order.
    pub(crate) async fn list_page_keys(
        &self,
        list: &str,
        page: u32,
        size: u32,
        newest_first: bool,
    ) -> Result<Vec<Key>, StoreError> {
        let skip = u64::from(page) * u64::from(size);
        let wanted = skip + u64::from(size);
        let keys: Vec<Key> = self
            .query_first(
                Query::on(LIST, "listpk = :p")
                    .value(":p", list)
                    .newest_first(newest_first)
                    .page_size(wanted.min(LIST_QUERY_LIMIT)),
                usize::try_from(wanted).map_err(StoreError::internal)?,
            )
            .await?;
        Ok(keys.into_iter().skip(skip as usize).collect())
    }
}
