//! A page of a list, as every paged route answers it.

use serde::{Deserialize, Serialize};

/// `{content, totalPages, totalElements, page, size}` of the contract (docs/openapi.yaml, the `*Page` schemas).
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Page<T> {
    pub content: Vec<T>,
    pub total_pages: u64,
    pub total_elements: u64,
    pub page: u32,
    pub size: u32,
}

impl<T> Page<T> {
    pub fn new(content: Vec<T>, total_elements: u64, page: u32, size: u32) -> Self {
        Page {
            content,
            total_pages: total_elements.div_ceil(u64::from(size.max(1))),
            total_elements,
            page,
            size,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn total_pages_round_up() {
        let page = Page::new(vec![1, 2, 3], 23, 0, 10);
        assert_eq!((page.total_pages, page.total_elements), (3, 23));
        assert_eq!(Page::<u8>::new(vec![], 0, 0, 10).total_pages, 0);
    }
}
