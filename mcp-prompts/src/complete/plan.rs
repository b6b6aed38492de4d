//! The `&'static` lists completers return, each indexed once.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use super::index::{Matches, PrefixIndex, rank};
use crate::descriptor::Source;

/// Indexes of the `&'static` lists completers return, built on first use
/// and kept: such lists are fixed, so each is indexed once.
#[derive(Default)]
pub(crate) struct StaticIndexes(RwLock<HashMap<(usize, usize), Arc<PrefixIndex>>>);

impl StaticIndexes {
    /// Filters or ranks what a completer produced.
    pub(crate) fn matches(&self, source: Source, typed: &str) -> Matches<String> {
        match source {
            Source::Values(values) => rank(values, typed),
            Source::Static(list) => self.index(list).complete(typed).map(str::to_owned),
        }
    }

    fn index(&self, list: &'static [&'static str]) -> Arc<PrefixIndex> {
        let key = (list.as_ptr() as usize, list.len());
        let known = crate::sync::read(&self.0).get(&key).cloned();
        known.unwrap_or_else(|| {
            let index = Arc::new(PrefixIndex::new(list));
            crate::sync::write(&self.0).insert(key, Arc::clone(&index));
            index
        })
    }
}
