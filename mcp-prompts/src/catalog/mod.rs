//! The set of prompts a server serves: gathered, validated, and with its
//! `prompts/list` pages serialized once, up front; and the live catalog,
//! which swaps in a new set on each change.

mod any;
mod completion;
mod languages;
pub(crate) mod listing;
mod live;
mod pages;
mod registry;
mod served_languages;
mod tags;
#[cfg(feature = "fluent")]
mod texts;
mod validate;
mod variants;
mod visibility;
mod words;

use std::sync::Arc;

use crate::caller::Access;
use crate::descriptor::PromptDef;
use crate::error::{BuildError, Error, excerpt};
use crate::protocol::ProtocolVersion;
use crate::protocol::answer::Page;
use serde_json::{Map, Value};

use crate::protocol::cursor;
use crate::protocol::language::Language;
pub use any::AnyPrompt;
pub(crate) use any::{ArgInfo, Kind};
pub(crate) use completion::ArgCompletion;
pub(crate) use languages::Wanted;
use languages::{KeptOrders, Order, Places};
use listing::{Fields, Shown, paginate};
pub(crate) use live::LiveCatalog;
pub use live::Prompts;
use pages::LocalizedPages;
pub use registry::Registration;
pub use registry::registered_prompts;
pub(crate) use served_languages::{GiveTexts, ServedLanguages};
pub(crate) use tags::TagFilter;
#[cfg(feature = "fluent")]
pub(crate) use texts::Texts;
use validate::validate;
pub(crate) use variants::{Choice, LABEL_META, VERSION_META};
#[cfg(feature = "registry")]
pub(crate) use variants::{Chosen, Found, Variants};
pub(crate) use visibility::Visibility;
use words::PlacedWords;
#[cfg(feature = "fluent")]
pub(crate) use words::WORDS;
pub(crate) use words::{Words, WordsTable};

/// An explicit list of prompts, checked at compile time: build it with
/// [`catalog!`](crate::catalog!) and serve it with
/// [`Server::catalog`](crate::Server::catalog).
pub type Catalog = &'static [&'static PromptDef];

pub(crate) struct Entry {
    prompt: AnyPrompt,
    /// Names of the arguments the client must send.
    required: Box<[Box<str>]>,
    /// How each argument the client sees is completed, in order.
    completions: Box<[(Box<str>, ArgCompletion)]>,
    /// Which callers may see it.
    visibility: Visibility,
    /// Whether the prompt tools offer it (resolved once: a `#[prompt]`'s
    /// is registered apart).
    as_tool: bool,
    /// The `_meta` it is listed with (its entries and tags), built once.
    meta: Option<Map<String, Value>>,
    /// The prompt as it is in each other language it has, by the
    /// language's place in the catalog's.
    translations: Box<[(u16, AnyPrompt)]>,
}

impl Entry {
    /// The prompt served.
    pub(crate) fn prompt(&self) -> &AnyPrompt {
        &self.prompt
    }

    /// Names of the arguments the client must send.
    pub(crate) fn required(&self) -> &[Box<str>] {
        &self.required
    }

    /// Whether the prompt tools offer it.
    pub(crate) fn as_tool(&self) -> bool {
        self.as_tool
    }

    /// The prompt as a request that wants `wanted` of the catalog's
    /// `languages` gets it, and the language that is in (`None`: the
    /// default).
    pub(crate) fn in_language<'a>(
        &'a self,
        wanted: &Wanted<'_>,
        languages: &'a [Language],
    ) -> (&'a AnyPrompt, Option<&'a Language>) {
        let (prompt, rank) = self.in_order(wanted.order());
        let language = rank.and_then(|rank| wanted.order().at(rank));
        (prompt, language.map(|at| &languages[usize::from(at)]))
    }

    /// The prompt as it is in the first language of `order` it has, with
    /// that language's rank in the order; the default otherwise.
    fn in_order(&self, order: &Order) -> (&AnyPrompt, Option<usize>) {
        for (rank, at) in order.places().iter().enumerate() {
            if let Some((_, view)) = self.translations.iter().find(|(own, _)| own == at) {
                return (view, Some(rank));
            }
        }
        (&self.prompt, None)
    }
}

impl Entry {
    fn new(prompt: AnyPrompt) -> Self {
        let arguments = prompt.arguments();
        let required = arguments
            .iter()
            .filter(|a| a.required())
            .map(|a| a.name().into())
            .collect();
        let completions = match &prompt.0 {
            Kind::Macro(def) => def
                .arguments()
                .map(|a| (a.name.into(), ArgCompletion::for_arg(a)))
                .collect(),
            Kind::Dynamic(dynamic) => dynamic
                .arguments()
                .iter()
                .map(|a| (a.get_name().into(), ArgCompletion::for_dynamic(a)))
                .collect(),
        };
        drop(arguments);
        Self {
            visibility: Visibility::of(&prompt),
            as_tool: prompt.as_tool(),
            meta: prompt.meta(),
            prompt,
            required,
            completions,
            translations: Box::default(),
        }
    }

    /// Its translations, each language placed in `languages` (added
    /// there when new, and found by `places`).
    fn translate(&mut self, languages: &mut Vec<Language>, places: &mut Places) {
        self.translations = (self.prompt.translations().into_iter())
            .filter_map(|(language, view)| {
                let key: Box<str> = language.as_str().to_ascii_lowercase().into();
                let at = match places.get(&key) {
                    Some(&at) => at,
                    None => {
                        let at = u16::try_from(languages.len()).ok()?;
                        languages.push(language);
                        places.insert(key, at);
                        at
                    }
                };
                Some((at, view))
            })
            .collect();
    }

    /// How argument `name` is completed; `None` if the prompt has no such
    /// argument.
    pub(crate) fn completion(&self, name: &str) -> Option<&ArgCompletion> {
        self.completions
            .iter()
            .find(|(n, _)| &**n == name)
            .map(|(_, c)| c)
    }
}

/// One page of a listing as one request sees it.
pub(crate) struct ListedPage<'a> {
    shown: Vec<Shown<'a>>,
    next: Option<String>,
    language: Option<Language>,
}

impl<'a> ListedPage<'a> {
    /// The prompts, as the request's revision shows them.
    pub(crate) fn shown(&self) -> &[Shown<'a>] {
        &self.shown
    }

    /// The next page's cursor.
    pub(crate) fn next_cursor(&self) -> Option<&str> {
        self.next.as_deref()
    }

    /// The language it is in, where the request asked for one.
    pub(crate) fn language(&self) -> Option<&Language> {
        self.language.as_ref()
    }
}

pub(crate) struct CatalogSnapshot {
    /// Sorted by name, each name once.
    entries: Vec<Entry>,
    /// `prompts/list` results with each revision's fields, per page.
    pages: [Vec<listing::CachedPage>; 3],
    /// How many prompts a page holds; 0: all on one.
    page_size: usize,
    /// Whether some prompt is hidden from some callers: remote lists are
    /// then made for each request, and cached privately.
    restricted: bool,
    /// Every language some prompt has besides the default.
    languages: Box<[Language]>,
    /// Where each of `languages` is, by its tag in lower case.
    places: Places,
    /// Listings in other languages, serialized when first asked for.
    localized: LocalizedPages,
    /// The words the server writes itself, by language.
    words: WordsTable,
    /// Those of each of `languages`, by place.
    placed_words: PlacedWords,
    /// The orders of the preferences requests sent, each parsed once.
    orders: KeptOrders,
}

impl CatalogSnapshot {
    /// Validates the prompts of `prompts` that `tags` admits and serializes
    /// the listing. `page_size` 0 = one page.
    pub(crate) fn build(
        prompts: impl IntoIterator<Item = AnyPrompt>,
        tags: &TagFilter,
        page_size: usize,
        words: &WordsTable,
    ) -> Result<Self, BuildError> {
        let mut prompts: Vec<AnyPrompt> = prompts.into_iter().filter(|p| tags.admits(p)).collect();
        prompts.sort_by(|a, b| a.name().cmp(b.name()).then(a.place().cmp(&b.place())));

        let mut problems = Vec::new();
        let mut entries: Vec<Entry> = Vec::with_capacity(prompts.len());
        for prompt in prompts {
            // Sorted: a name seen before is the last one kept.
            let last = entries.last().filter(|e| e.prompt.name() == prompt.name());
            if let Some(first) = last {
                let first = &first.prompt;
                // The same prompt from two sources (inventory and a catalog).
                if first.same_as(&prompt) {
                    continue;
                }
                problems.push(format!(
                    "duplicate prompt name `{}`: defined at {} and at {}",
                    prompt.name(),
                    first.location(),
                    prompt.location(),
                ));
                continue;
            }
            validate(&prompt, &mut problems);
            entries.push(Entry::new(prompt));
        }
        if !problems.is_empty() {
            return Err(BuildError::new(problems));
        }
        let (mut languages, mut places) = (Vec::new(), Places::new());
        for entry in &mut entries {
            entry.translate(&mut languages, &mut places);
        }
        let default = Order::default();
        let placed_words = PlacedWords::new(words, &languages);
        let pages = Fields::ALL
            .map(|fields| paginate(&entries, fields, page_size, (&default, &placed_words)));
        let mut snapshot = Self {
            entries,
            pages,
            page_size,
            restricted: false,
            languages: languages.into(),
            places,
            localized: LocalizedPages::default(),
            orders: KeptOrders::default(),
            words: words.clone(),
            placed_words,
        };
        // Kept, so that a request asks it once: whether any prompt is
        // hidden from some callers.
        let restricted = snapshot.restricted().next().is_some();
        snapshot.restricted = restricted;
        Ok(snapshot)
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The prompts served, in listing order.
    pub(crate) fn prompts(&self) -> impl Iterator<Item = &AnyPrompt> + '_ {
        self.entries.iter().map(|e| &e.prompt)
    }

    /// Whether any argument of any prompt can be completed.
    pub(crate) fn has_completions(&self) -> bool {
        self.entries
            .iter()
            .any(|e| e.completions.iter().any(|(_, c)| c.is_something()))
    }

    /// The prompt named `name`, if a request served under `access` may
    /// see it: a hidden prompt is as unknown as one that does not exist.
    pub(crate) fn get(&self, name: &str, access: &Access) -> Option<&Entry> {
        // A few comparisons of sorted names cost less than hashing one.
        let found = self.entries.binary_search_by(|e| e.prompt.name().cmp(name));
        found
            .ok()
            .map(|i| &self.entries[i])
            .filter(|e| !self.restricted || e.visibility.allows(access))
    }

    /// Whether what `access` sees may differ from what others see: lists
    /// are then cached privately (2026-07-28 `cacheScope`).
    pub(crate) fn varies_for(&self, access: &Access) -> bool {
        self.restricted && !matches!(access, Access::Local)
    }

    /// The prompts the prompt tools offer a request served under `access`
    /// that wants `wanted`, in order (those it may see, not kept out of the
    /// tools), each in its language with the server's words in it, and the
    /// language the list is in (where one was asked for), as a listing's.
    pub(crate) fn tool_listing(
        &self,
        access: &Access,
        wanted: Option<Wanted<'_>>,
    ) -> (Vec<(AnyPrompt, Arc<Words>)>, Option<Language>) {
        let order = wanted.map(|w| *w.order()).unwrap_or_default();
        let mut best: Option<usize> = None;
        let prompts = (self.entries.iter())
            .filter(|e| e.as_tool && (!self.restricted || e.visibility.allows(access)))
            .map(|e| {
                let (prompt, rank) = e.in_order(&order);
                best = match (best, rank) {
                    (Some(b), Some(r)) => Some(b.min(r)),
                    (b, r) => b.or(r),
                };
                let words = self.placed_words.shared(rank.and_then(|r| order.at(r)));
                (prompt.clone(), Arc::clone(words))
            })
            .collect();
        (prompts, wanted.map(|wanted| self.language_of(wanted, best)))
    }

    /// The prompts only some callers may see, each with the scopes a
    /// remote caller must all hold to see it.
    pub(crate) fn restricted(
        &self,
    ) -> impl Iterator<Item = (&AnyPrompt, impl Iterator<Item = &str> + '_)> + '_ {
        self.entries
            .iter()
            .filter(|e| e.visibility.is_restricted())
            .map(|e| (&e.prompt, e.visibility.scopes()))
    }

    /// The prompts `access` may see, when not all of them.
    fn visible(&self, access: &Access) -> Option<Vec<&Entry>> {
        self.varies_for(access).then(|| {
            self.entries
                .iter()
                .filter(|e| e.visibility.allows(access))
                .collect()
        })
    }

    /// The page of prompts a cursor points at, as `version` shows them to
    /// a request served under `access` that wants `wanted`, the next
    /// page's cursor, and the language the page is in (where a language
    /// was asked for): what our listing writes for a caller some prompt is
    /// hidden from, and a host SDK converts.
    pub(crate) fn page_of(
        &self,
        version: ProtocolVersion,
        cursor: Option<&str>,
        (access, wanted): (&Access, Option<Wanted<'_>>),
    ) -> Result<ListedPage<'_>, Error> {
        let visible = self.visible(access);
        let entries: Vec<&Entry> = visible.unwrap_or_else(|| self.entries.iter().collect());
        let page = self.page_number(cursor, entries.len())?;
        let (range, more) = listing::bounds(entries.len(), self.page_size, page);
        let next = more.then(|| cursor::encode(page + 1));
        let order = wanted.map(|w| *w.order()).unwrap_or_default();
        let in_order = (&order, &self.placed_words);
        let (shown, best) = listing::shown_in(
            entries[range].iter().copied(),
            Fields::of(version),
            in_order,
        );
        let language = wanted.map(|wanted| self.language_of(wanted, best));
        Ok(ListedPage {
            shown,
            next,
            language,
        })
    }

    /// The `prompts/list` result for a cursor, as `version` shows it to a
    /// request served under `access` that wants `wanted`: the pages
    /// serialized up front (once per order of languages asked for),
    /// unless some prompt is hidden from it.
    pub(crate) fn page(
        &self,
        version: ProtocolVersion,
        cursor: Option<&str>,
        (access, wanted): (&Access, Option<Wanted<'_>>),
    ) -> Result<Page, Error> {
        if !self.varies_for(access) {
            let page = self.page_number(cursor, self.entries.len())?;
            let fields = Fields::of(version);
            let Some(wanted) = wanted else {
                return Ok(self.pages[fields as usize][page].page());
            };
            let order = *wanted.order();
            let (served, best) = if order.is_default() {
                let cached = &self.pages[fields as usize][page];
                (cached.page(), cached.best())
            } else {
                let kept = self.localized.get_or_make((order, fields, page), || {
                    let order = (&order, &self.placed_words);
                    listing::paginated(&self.entries, fields, (self.page_size, page), order)
                });
                (kept.page(), kept.best())
            };
            return Ok(served.in_language(self.language_of(wanted, best)));
        }
        let listed = self.page_of(version, cursor, (access, wanted))?;
        let next = listed.next_cursor().map(str::to_owned);
        let page = listing::page_for_caller(listed.shown(), next);
        Ok(match listed.language() {
            Some(language) => page.in_language(language.clone()),
            None => page,
        })
    }

    /// What a request preferring `preference` (its `_meta` value's text)
    /// wants here, with `default` the server's language; `None` for a
    /// malformed preference, which is none. Each text is parsed once.
    pub(crate) fn wanted<'a>(&self, preference: &str, default: &'a Language) -> Option<Wanted<'a>> {
        self.orders.wanted(preference, default, &self.places)
    }

    /// The language a listing is in: that of the first range any listed
    /// prompt matched (`best`, its rank in the order), else the default.
    fn language_of(&self, wanted: Wanted<'_>, best: Option<usize>) -> Language {
        best.and_then(|rank| wanted.order().at(rank)).map_or_else(
            || wanted.default_language().clone(),
            |at| self.languages[usize::from(at)].clone(),
        )
    }

    /// The words the server writes itself, by language.
    pub(crate) fn words(&self) -> &WordsTable {
        &self.words
    }

    /// The languages of the catalog's prompts, the default aside.
    pub(crate) fn languages(&self) -> &[Language] {
        &self.languages
    }

    /// The page a cursor points at among `len` prompts: the first without
    /// one; an error for one we did not hand out.
    fn page_number(&self, cursor: Option<&str>, len: usize) -> Result<usize, Error> {
        let count = listing::page_count(len, self.page_size);
        match cursor {
            None => Ok(0),
            Some(cursor) => cursor::decode(cursor)
                .filter(|&p| p > 0 && p < count)
                .ok_or_else(|| invalid_cursor(cursor)),
        }
    }
}

fn invalid_cursor(cursor: &str) -> Error {
    Error::invalid_params(format!("invalid cursor: `{}`", excerpt(cursor)))
}
