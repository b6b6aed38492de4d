//! The languages a catalog answers in: a `#[prompt]`'s texts in other
//! languages (from Fluent), each prompt's translated views, and the
//! order in which a request's preference picks among the catalog's
//! languages, which is what its listing pages are cached by.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use super::listing::{CachedPage, Fields};
use crate::protocol::language::{Language, Preference};
use crate::sync::lock;

/// A `#[prompt]`'s texts in one language: what replaces its title, its
/// description and its arguments' titles and descriptions. A text left
/// out stays the default's.
#[cfg(feature = "fluent")]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Texts {
    title: Option<String>,
    description: Option<String>,
    /// By argument name.
    arguments: Vec<(String, ArgTexts)>,
}

/// One argument's texts in one language.
#[cfg(feature = "fluent")]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ArgTexts {
    title: Option<String>,
    description: Option<String>,
}

#[cfg(feature = "fluent")]
impl Texts {
    /// Sets the title.
    pub(crate) fn set_title(&mut self, title: String) {
        self.title = Some(title);
    }

    /// Sets the description.
    pub(crate) fn set_description(&mut self, description: String) {
        self.description = Some(description);
    }

    /// Sets argument `name`'s title or, when not `title`, description.
    pub(crate) fn set_argument(&mut self, name: &str, title: bool, text: String) {
        let at = match self.arguments.iter().position(|(n, _)| n == name) {
            Some(at) => at,
            None => {
                self.arguments.push((name.to_owned(), ArgTexts::default()));
                self.arguments.len() - 1
            }
        };
        let texts = &mut self.arguments[at].1;
        if title {
            texts.title = Some(text);
        } else {
            texts.description = Some(text);
        }
    }

    pub(crate) fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    pub(crate) fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// Argument `name`'s title and description, each if translated.
    pub(crate) fn argument(&self, name: &str) -> (Option<&str>, Option<&str>) {
        self.arguments
            .iter()
            .find(|(n, _)| n == name)
            .map_or((None, None), |(_, t)| {
                (t.title.as_deref(), t.description.as_deref())
            })
    }
}

/// What a request wants: its preference, and the server's default
/// language, which `*` names and nothing matched falls back to.
#[derive(Clone, Copy)]
pub(crate) struct Wanted<'a> {
    preference: &'a Preference,
    default: &'a Language,
}

impl<'a> Wanted<'a> {
    pub(crate) fn new(preference: &'a Preference, default: &'a Language) -> Self {
        Self {
            preference,
            default,
        }
    }

    /// The server's default language.
    pub(crate) fn default_language(&self) -> &'a Language {
        self.default
    }

    /// The place in `have` of the language this request gets among them
    /// (RFC 4647 lookup); `None`: the default.
    pub(crate) fn pick(&self, have: &[&Language]) -> Option<usize> {
        let found = self.preference.lookup(|tag| {
            if self.default.is(tag) {
                return Some(None);
            }
            have.iter().position(|l| l.is(tag)).map(Some)
        });
        match found {
            crate::protocol::language::Found::Matched(at) => at,
            crate::protocol::language::Found::Default => None,
        }
    }

    /// The order in which it picks among a catalog's `languages` (the
    /// default aside): places in `languages`, each once, up to the first
    /// range that names the default. Every prompt gets the first of these
    /// it has, else the default; so two requests with the same order see
    /// the same listing.
    pub(crate) fn order(&self, languages: &[Language]) -> Order {
        let mut order = Vec::new();
        for tag in self.preference.candidates() {
            if tag == "*" || self.default.is(tag) {
                break;
            }
            let found = languages.iter().position(|l| l.is(tag));
            if let Some(at) = found.and_then(|at| u16::try_from(at).ok()) {
                if !order.contains(&at) {
                    order.push(at);
                }
            }
        }
        Order(order.into())
    }
}

/// Places in a catalog's languages, in the order a request picks them.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(crate) struct Order(Box<[u16]>);

impl Order {
    /// Whether every prompt answers in the default language.
    pub(crate) fn is_default(&self) -> bool {
        self.0.is_empty()
    }

    /// The first of `have` (places in the catalog's languages) in this
    /// order, with its rank.
    pub(crate) fn first_of(&self, have: impl Fn(u16) -> bool) -> Option<(usize, u16)> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, at)| have(**at))
            .map(|(rank, at)| (rank, *at))
    }

    /// The language at `rank`.
    pub(crate) fn at(&self, rank: usize) -> Option<u16> {
        self.0.get(rank).copied()
    }
}

/// How many localized listings a catalog keeps: each is every page, as
/// one revision shows them in one order of languages. The oldest goes
/// first.
const KEPT_LISTINGS: usize = 16;

/// Every page of one listing, and what it is kept by: the order of
/// languages and the revision's fields.
type KeptListing = ((Order, Fields), Arc<[CachedPage]>);

/// Listing pages serialized per order of languages, kept up to a bound.
#[derive(Default)]
pub(crate) struct LocalizedPages {
    kept: Mutex<VecDeque<KeptListing>>,
}

impl LocalizedPages {
    /// The pages for `key`, made by `make` if not kept.
    pub(crate) fn get_or_make(
        &self,
        key: (Order, Fields),
        make: impl FnOnce() -> Vec<CachedPage>,
    ) -> Arc<[CachedPage]> {
        if let Some((_, pages)) = lock(&self.kept).iter().find(|(k, _)| *k == key) {
            return Arc::clone(pages);
        }
        // Made outside the lock: a large listing blocks no other.
        let pages: Arc<[CachedPage]> = make().into();
        let mut kept = lock(&self.kept);
        if !kept.iter().any(|(k, _)| *k == key) {
            if kept.len() == KEPT_LISTINGS {
                kept.pop_front();
            }
            kept.push_back((key, Arc::clone(&pages)));
        }
        pages
    }

    /// How many are kept.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        lock(&self.kept).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wanted_order(preference: &str, languages: &[&str]) -> Order {
        let languages: Vec<Language> = languages
            .iter()
            .map(|l| Language::parse(l).unwrap())
            .collect();
        let preference = Preference::parse(preference).unwrap();
        let default = Language::parse("en").unwrap();
        Wanted::new(&preference, &default).order(&languages)
    }

    #[test]
    fn an_order_stops_at_the_default() {
        let have = ["fr", "de", "it"];
        assert_eq!(wanted_order("fr-CH, de;q=0.5", &have).0.as_ref(), [0, 1]);
        // `en` is the default: what comes after it is never reached.
        assert_eq!(
            wanted_order("de, en;q=0.9, fr;q=0.8", &have).0.as_ref(),
            [1]
        );
        assert!(wanted_order("*, fr;q=0.5", &have).is_default());
        assert!(wanted_order("ja", &have).is_default());
        assert_eq!(wanted_order("it, it-CH, fr;q=0", &have).0.as_ref(), [2]);
    }

    #[test]
    fn localized_listings_are_kept_up_to_a_bound() {
        let pages = LocalizedPages::default();
        let mut made = 0;
        for round in 0..2 {
            for at in 0..u16::try_from(KEPT_LISTINGS + 4).unwrap() {
                let key = (Order(vec![at].into()), Fields::Basic);
                pages.get_or_make(key, || {
                    made += 1;
                    Vec::new()
                });
                assert!(pages.len() <= KEPT_LISTINGS);
            }
            // Each pass makes every one again: the oldest went first.
            assert_eq!(made, (round + 1) * (KEPT_LISTINGS + 4));
        }
        let key = (Order(vec![19].into()), Fields::Basic);
        pages.get_or_make(key, || unreachable!("kept"));
    }
}
