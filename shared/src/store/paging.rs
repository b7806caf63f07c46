//! Pages of the KEYS_ONLY `list` index: the keys of one page (the pages before it
//! skipped reading keys only), then BatchGetItem of those keys.

use super::{
    keys::Key,
    schema::LIST,
    table::{LIST_QUERY_LIMIT, Query, Store},
};
use crate::error::ApiError;

impl Store {
    /// A page of a counted list: the list's total (`total`, from its counter) and the
    /// page's keys ([`Store::list_page_keys`]); no keys for a page past the total.
    /// When the page lies within the first Query of keys (skip + size ≤
    /// [`LIST_QUERY_LIMIT`]) the two are read at once, one round trip instead of
    /// two; a deeper page reads the total first, so that a page past the end does not
    /// walk the whole index.
    pub async fn counted_page_keys(
        &self,
        total: impl Future<Output = Result<u64, ApiError>>,
        list: &str,
        page: u32,
        size: u32,
        newest_first: bool,
    ) -> Result<(u64, Vec<Key>), ApiError> {
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
    pub async fn list_page_keys(
        &self,
        list: &str,
        page: u32,
        size: u32,
        newest_first: bool,
    ) -> Result<Vec<Key>, ApiError> {
        let skip = u64::from(page) * u64::from(size);
        let wanted = skip + u64::from(size);
        let keys: Vec<Key> = self
            .query_first(
                Query::on(LIST, "listpk = :p")
                    .value(":p", list)
                    .newest_first(newest_first)
                    .page_size(wanted.min(LIST_QUERY_LIMIT)),
                usize::try_from(wanted).map_err(ApiError::internal)?,
            )
            .await?;
        Ok(keys.into_iter().skip(skip as usize).collect())
    }
}
