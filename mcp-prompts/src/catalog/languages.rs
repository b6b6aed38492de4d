//! What a request wants of a catalog's languages: the order in which its
//! preference picks among them (RFC 4647 lookup, for every prompt at
//! once), kept per preference text; what its listing pages are kept by
//! (`pages.rs`).

use std::collections::{HashMap, VecDeque};
use std::sync::RwLock;

use crate::sync::{read, write};

use crate::protocol::language::{Language, Preference};

/// What a request wants of one catalog's languages: the order in which
/// its preference picks among them, and the server's default language,
/// which `*` names and nothing matched falls back to.
#[derive(Clone, Copy)]
pub(crate) struct Wanted<'a> {
    order: Order,
    default: &'a Language,
}

impl<'a> Wanted<'a> {
    /// The server's default language.
    pub(crate) fn default_language(&self) -> &'a Language {
        self.default
    }

    /// The order in which it picks among the catalog's languages.
    pub(crate) fn order(&self) -> &Order {
        &self.order
    }
}

/// The order in which `preference` picks among a catalog's `languages`
/// (the default aside): places in `languages`, each once, up to the first
/// range that names the default. RFC 4647 lookup gives each prompt the
/// first of these it has, else the default; so two requests with the
/// same order see the same listing.
fn order_of(preference: &Preference, default: &Language, places: &Places) -> Order {
    let mut order = Order::default();
    for tag in preference.candidates() {
        if tag == "*" || default.is(tag) || order.len == ORDER_LEN {
            break;
        }
        if let Some(&at) = places.get(tag) {
            if !order.places().contains(&at) {
                order.places[usize::from(order.len)] = at;
                order.len += 1;
            }
        }
    }
    order
}

/// How many preferences a catalog keeps the order of: a client sends the
/// same one on every request, and each is parsed once.
const KEPT_ORDERS: usize = 64;

/// The orders preferences give in one catalog, by the preference's text
/// (`None`: malformed, treated as absent), kept up to a bound; the oldest
/// goes first.
#[derive(Default)]
pub(crate) struct KeptOrders {
    kept: RwLock<VecDeque<(Box<str>, Option<Order>)>>,
}

impl KeptOrders {
    /// What a request preferring `preference` (as its `_meta` writes it)
    /// wants of `languages`, with `default` the server's; `None` for a
    /// preference that is malformed, which is no preference at all.
    pub(crate) fn wanted<'a>(
        &self,
        preference: &str,
        default: &'a Language,
        places: &Places,
    ) -> Option<Wanted<'a>> {
        let kept = read(&self.kept);
        let found = kept.iter().find(|(text, _)| **text == *preference);
        if let Some((_, order)) = found {
            return order.map(|order| Wanted { order, default });
        }
        drop(kept);
        let order = Preference::parse(preference).map(|p| order_of(&p, default, places));
        if preference.len() <= MAX_KEPT_TEXT {
            let mut kept = write(&self.kept);
            if kept.len() == KEPT_ORDERS {
                kept.pop_front();
            }
            kept.push_back((preference.into(), order));
        }
        order.map(|order| Wanted { order, default })
    }
}

/// The longest preference text kept: longer ones are read every time.
const MAX_KEPT_TEXT: usize = 128;

/// Where each of a catalog's languages is in its table, by its tag in
/// lower case: what a preference's tags are looked up in, at once however
/// many languages the catalog has.
pub(crate) type Places = HashMap<Box<str>, u16>;

/// The most languages an order holds: the first sixteen languages of a
/// preference that the catalog has decide every prompt's.
const ORDER_LEN: u8 = 16;

/// Places in a catalog's languages, in the order a request picks them.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Order {
    places: [u16; ORDER_LEN as usize],
    len: u8,
}

impl PartialEq for Order {
    fn eq(&self, other: &Self) -> bool {
        self.places() == other.places()
    }
}

impl Order {
    /// Places in the catalog's languages, in the order picked.
    pub(crate) fn places(&self) -> &[u16] {
        &self.places[..usize::from(self.len)]
    }

    /// Whether every prompt answers in the default language.
    pub(crate) fn is_default(&self) -> bool {
        self.len == 0
    }

    /// The language at `rank`.
    pub(crate) fn at(&self, rank: usize) -> Option<u16> {
        self.places().get(rank).copied()
    }

    /// The order of one language, for tests of what is kept by orders.
    #[cfg(test)]
    pub(crate) fn of_one(at: u16) -> Self {
        let mut order = Self::default();
        order.places[0] = at;
        order.len = 1;
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wanted_order(preference: &str, languages: &[&str]) -> Order {
        let preference = Preference::parse(preference).unwrap();
        let default = Language::parse("en").unwrap();
        order_of(&preference, &default, &places_of(languages))
    }

    fn places_of(languages: &[&str]) -> Places {
        (languages.iter().enumerate())
            .map(|(at, tag)| (tag.to_ascii_lowercase().into(), u16::try_from(at).unwrap()))
            .collect()
    }

    #[test]
    fn an_order_stops_at_the_default() {
        let have = ["fr", "de", "it"];
        assert_eq!(wanted_order("fr-CH, de;q=0.5", &have).places(), [0, 1]);
        // `en` is the default: what comes after it is never reached.
        assert_eq!(wanted_order("de, en;q=0.9, fr;q=0.8", &have).places(), [1]);
        assert!(wanted_order("*, fr;q=0.5", &have).is_default());
        assert!(wanted_order("ja", &have).is_default());
        assert_eq!(wanted_order("it, it-CH, fr;q=0", &have).places(), [2]);
    }

    /// The language an order gives a prompt that has `have` is the one
    /// RFC 4647 lookup picks among them, for every preference here.
    #[test]
    fn an_order_picks_as_lookup_does() {
        use crate::protocol::language::Found;
        let catalog = ["fr", "de", "de-CH", "zh-Hant", "it"];
        let languages: Vec<Language> = catalog
            .iter()
            .map(|l| Language::parse(l).unwrap())
            .collect();
        let default = Language::parse("en").unwrap();
        let prompts: [&[&str]; 5] = [&["fr"], &["de", "it"], &["de-CH"], &["zh-Hant", "fr"], &[]];
        for text in [
            "fr-CH, en;q=0.5",
            "de-AT",
            "ja",
            "*",
            "fr;q=0, de",
            "de-CH-x-a, fr;q=0.2",
            "zh-Hant-TW, it;q=0.9",
            "en, fr",
            "it;q=0.1, de;q=0.2, *;q=0.3",
            "de, de-CH",
        ] {
            let preference = Preference::parse(text).unwrap();
            let order = order_of(&preference, &default, &places_of(&catalog));
            for have in prompts {
                let looked_up = preference.lookup(|tag| {
                    if default.is(tag) {
                        return Some(None);
                    }
                    have.iter().find(|h| h.eq_ignore_ascii_case(tag)).map(Some)
                });
                let expected = match looked_up {
                    Found::Matched(found) => found.copied(),
                    Found::Default => None,
                };
                let has = |at: u16| have.iter().any(|h| languages[usize::from(at)].is(h));
                let ordered = (order.places().iter())
                    .find(|at| has(**at))
                    .map(|at| catalog[usize::from(*at)]);
                assert_eq!(ordered, expected, "{text} with {have:?}");
            }
        }
    }

    #[test]
    fn orders_are_kept_by_their_text_up_to_a_bound() {
        let orders = KeptOrders::default();
        let default = Language::parse("en").unwrap();
        let languages = places_of(&["fr"]);
        let wanted = orders.wanted("fr-CH", &default, &languages).unwrap();
        assert_eq!(wanted.order().places(), [0]);
        assert!(orders.wanted("fr;q=7", &default, &languages).is_none());
        for n in 0..100 {
            let text = format!("de;q=0.{n:03}");
            assert!(
                orders
                    .wanted(&text, &default, &languages)
                    .unwrap()
                    .order()
                    .is_default()
            );
        }
        assert_eq!(read(&orders.kept).len(), KEPT_ORDERS);
        // Too long to keep: read, not kept.
        let long = format!("fr;q=0.9, {}", "de ;  q=0.5, ".repeat(12));
        assert!(long.len() > MAX_KEPT_TEXT);
        let wanted = orders.wanted(&long, &default, &languages).unwrap();
        assert_eq!(wanted.order().places(), [0]);
        assert!(!read(&orders.kept).iter().any(|(text, _)| **text == *long));
    }
}
