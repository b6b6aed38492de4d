//! The set of prompts a server serves: gathered, validated, and with its
//! `prompts/list` pages serialized once, up front.

mod listing;
mod registry;
mod validate;

use std::collections::HashMap;
use std::fmt;

use crate::complete::ArgCompletion;
use crate::descriptor::PromptDef;
use crate::error::excerpt;
use crate::{Error, ProtocolVersion};

use listing::{Titles, decode_cursor, paginate};
pub use registry::Registration;
pub use registry::registered_prompts;
use validate::validate;

/// An explicit list of prompts, checked at compile time: build it with
/// [`catalog!`](crate::catalog!) and serve it with
/// [`Server::catalog`](crate::Server::catalog).
pub type Catalog = &'static [&'static PromptDef];

/// Why a set of prompts cannot be served.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatalogError {
    problems: Vec<String>,
}

impl CatalogError {
    /// Each problem found, one sentence each.
    pub fn problems(&self) -> &[String] {
        &self.problems
    }
}

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid prompt catalog: {}", self.problems.join("; "))
    }
}

impl std::error::Error for CatalogError {}

pub(crate) struct Entry {
    pub(crate) def: &'static PromptDef,
    /// Names of the arguments the client must send.
    pub(crate) required: Box<[&'static str]>,
    /// How each argument the client sees is completed, in order.
    pub(crate) completions: Box<[(&'static str, ArgCompletion)]>,
}

impl Entry {
    /// How argument `name` is completed; `None` if the prompt has no such
    /// argument.
    pub(crate) fn completion(&self, name: &str) -> Option<&ArgCompletion> {
        self.completions
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, c)| c)
    }
}

pub(crate) struct ServedPrompts {
    entries: Vec<Entry>,
    index: HashMap<&'static str, usize>,
    /// `prompts/list` results, without and with titles, per page.
    pages: [Vec<Box<str>>; 2],
}

impl ServedPrompts {
    /// Validates `defs` and serializes the listing. `page_size` 0 = one page.
    pub(crate) fn build(
        defs: impl IntoIterator<Item = &'static PromptDef>,
        page_size: usize,
    ) -> Result<Self, CatalogError> {
        let mut defs: Vec<&'static PromptDef> = defs.into_iter().collect();
        defs.sort_by(|a, b| {
            a.name
                .cmp(b.name)
                .then(a.file.cmp(b.file))
                .then(a.line.cmp(&b.line))
        });

        let mut problems = Vec::new();
        let mut index = HashMap::with_capacity(defs.len());
        let mut entries: Vec<Entry> = Vec::with_capacity(defs.len());
        for def in defs {
            if let Some(&first) = index.get(def.name) {
                let first: &Entry = &entries[first];
                // The same prompt from two sources (inventory and a catalog).
                if first.def.same_as(def) {
                    continue;
                }
                problems.push(format!(
                    "duplicate prompt name `{}`: defined at {} and at {}",
                    def.name,
                    first.def.location(),
                    def.location()
                ));
                continue;
            }
            validate(def, &mut problems);
            index.insert(def.name, entries.len());
            let required = def
                .arguments()
                .filter(|a| a.required())
                .map(|a| a.name)
                .collect();
            let completions = def
                .arguments()
                .map(|a| (a.name, ArgCompletion::for_arg(a)))
                .collect();
            entries.push(Entry {
                def,
                required,
                completions,
            });
        }
        if !problems.is_empty() {
            return Err(CatalogError { problems });
        }
        let pages =
            [Titles::Omitted, Titles::Shown].map(|titles| paginate(&entries, titles, page_size));
        Ok(Self {
            entries,
            index,
            pages,
        })
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The definitions served, in listing order.
    pub(crate) fn defs(&self) -> impl Iterator<Item = &'static PromptDef> + '_ {
        self.entries.iter().map(|e| e.def)
    }

    /// Whether any argument of any prompt can be completed.
    pub(crate) fn has_completions(&self) -> bool {
        self.entries
            .iter()
            .any(|e| e.completions.iter().any(|(_, c)| c.is_something()))
    }

    pub(crate) fn get(&self, name: &str) -> Option<&Entry> {
        self.index.get(name).map(|&i| &self.entries[i])
    }

    /// The serialized `prompts/list` result for a cursor.
    pub(crate) fn page(
        &self,
        version: ProtocolVersion,
        cursor: Option<&str>,
    ) -> Result<&str, Error> {
        let pages = &self.pages[Titles::of(version) as usize];
        let page = match cursor {
            None => 0,
            Some(cursor) => decode_cursor(cursor)
                .filter(|&p| p > 0 && p < pages.len())
                .ok_or_else(|| {
                    Error::invalid_params(format!("invalid cursor: `{}`", excerpt(cursor)))
                })?,
        };
        Ok(&pages[page])
    }
}
