//! Listing pages in other languages, serialized when first asked for
//! and kept up to a bound, the least used going first.

use std::sync::{Arc, Mutex};

use super::languages::Order;
use super::listing::{CachedPage, Fields};
use crate::sync::lock;

/// How many localized pages a catalog keeps, and how many bytes of them:
/// each is one page of the listing, as one revision shows it in one order
/// of languages. The one used longest ago goes first.
const KEPT_PAGES: usize = 64;
const KEPT_BYTES: usize = 8 * 1024 * 1024;

/// What a localized page is kept by: the order of languages, the
/// revision's fields, and the page's number.
type PageKey = (Order, Fields, usize);

/// Listing pages serialized per order of languages, kept up to a bound:
/// a client that cycles through orders costs one page's serialization a
/// request, and never evicts the pages others use often.
#[derive(Default)]
pub(crate) struct LocalizedPages {
    kept: Mutex<KeptPages>,
}

#[derive(Default)]
struct KeptPages {
    /// Each page, and when it was last used.
    pages: Vec<(PageKey, Arc<CachedPage>, u64)>,
    bytes: usize,
    clock: u64,
}

impl LocalizedPages {
    /// The page for `key`, made by `make` if not kept.
    pub(crate) fn get_or_make(
        &self,
        key: PageKey,
        make: impl FnOnce() -> CachedPage,
    ) -> Arc<CachedPage> {
        {
            let mut kept = lock(&self.kept);
            kept.clock += 1;
            let now = kept.clock;
            if let Some((_, page, used)) = kept.pages.iter_mut().find(|(k, _, _)| *k == key) {
                *used = now;
                return Arc::clone(page);
            }
        }
        // Made outside the lock: a large page blocks no other.
        let page = Arc::new(make());
        let size = page.size();
        if size > KEPT_BYTES {
            return page;
        }
        let mut kept = lock(&self.kept);
        if kept.pages.iter().any(|(k, _, _)| *k == key) {
            return page;
        }
        while kept.pages.len() == KEPT_PAGES || kept.bytes + size > KEPT_BYTES {
            let Some(oldest) = (kept.pages.iter().enumerate())
                .min_by_key(|(_, (_, _, used))| *used)
                .map(|(at, _)| at)
            else {
                break;
            };
            let (_, gone, _) = kept.pages.swap_remove(oldest);
            kept.bytes -= gone.size();
        }
        let now = kept.clock;
        kept.bytes += size;
        kept.pages.push((key, Arc::clone(&page), now));
        page
    }

    /// How many pages are kept, and their bytes.
    #[cfg(test)]
    pub(crate) fn held(&self) -> (usize, usize) {
        let kept = lock(&self.kept);
        (kept.pages.len(), kept.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn localized_pages_are_kept_up_to_a_bound_the_least_used_going_first() {
        let pages = LocalizedPages::default();
        let page = |text: &str| CachedPage::for_test(text);
        let key = |at: u16| (Order::of_one(at), Fields::Basic, 0);
        // The page used all along stays while others come and go.
        let mut made = 0;
        for at in 1..=(u16::try_from(KEPT_PAGES).unwrap() * 2) {
            pages.get_or_make(key(0), || {
                made += 1;
                page("[]")
            });
            pages.get_or_make(key(at), || page("[]"));
            assert!(pages.held().0 <= KEPT_PAGES);
        }
        assert_eq!(made, 1);
        // Bytes are bounded too; a page past the bound is made, not kept.
        let big = "x".repeat(KEPT_BYTES / 4);
        for at in 0..8 {
            pages.get_or_make(key(1000 + at), || page(&format!("[\"{big}\"]")));
            assert!(pages.held().1 <= KEPT_BYTES);
        }
        let huge = "x".repeat(KEPT_BYTES + 1);
        pages.get_or_make(key(2000), || page(&format!("[\"{huge}\"]")));
        assert!(pages.held().1 <= KEPT_BYTES);
    }
}
