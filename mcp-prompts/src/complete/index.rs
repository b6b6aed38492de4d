//! Prefix search over a fixed list without scanning it: keys are sorted
//! once, so the matches of a prefix are one contiguous range found by two
//! binary searches.

/// The most values one `completion/complete` result may carry.
pub(crate) const MAX_VALUES: usize = 100;

/// Matching ranges up to this size are ordered by sorting them.
const SORT_LIMIT: usize = 4 * MAX_VALUES;

/// Case folding for matching, a character at a time: lowercasing a whole
/// string writes a final Greek sigma as `ς`, so `ΑΣ` would not be a prefix
/// of `ΑΣΤΡΟ`.
pub(crate) fn fold(text: &str) -> String {
    text.chars().flat_map(char::to_lowercase).collect()
}

/// Whether `item` starts with `folded` (already folded), ignoring case;
/// ASCII text is compared in place, without folding a copy.
pub(crate) fn starts_with_folded(item: &str, folded: &str) -> bool {
    if item.is_ascii() && folded.is_ascii() {
        item.len() >= folded.len()
            && item.as_bytes()[..folded.len()].eq_ignore_ascii_case(folded.as_bytes())
    } else {
        fold(item).starts_with(folded)
    }
}

/// A fixed list of values, indexed for case-insensitive prefix search.
#[derive(Debug)]
pub(crate) struct PrefixIndex {
    items: &'static [&'static str],
    /// Lowercased items with their position in `items`, sorted.
    sorted: Vec<(Box<str>, u32)>,
    /// For each item, its position in `sorted`.
    rank: Vec<u32>,
}

/// Values to send, and how many matched in all.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Matches<T> {
    values: Vec<T>,
    total: usize,
}

impl<T> Matches<T> {
    /// `values` to send, of `total` that matched.
    pub(crate) fn new(values: Vec<T>, total: usize) -> Self {
        Self { values, total }
    }

    /// None at all.
    pub(crate) fn none() -> Self {
        Self::new(Vec::new(), 0)
    }

    pub(crate) fn values(&self) -> &[T] {
        &self.values
    }

    /// How many matched in all.
    pub(crate) fn total(&self) -> usize {
        self.total
    }

    /// The same matches, each value turned by `f`.
    pub(crate) fn map<U>(self, f: impl FnMut(T) -> U) -> Matches<U> {
        Matches::new(self.values.into_iter().map(f).collect(), self.total)
    }
}

impl PrefixIndex {
    pub(crate) fn new(items: &'static [&'static str]) -> Self {
        let mut sorted: Vec<(Box<str>, u32)> = items
            .iter()
            .zip(0u32..)
            .map(|(item, i)| (fold(item).into_boxed_str(), i))
            .collect();
        sorted.sort_unstable();
        let mut rank = vec![0; items.len()];
        for (position, (_, i)) in (0u32..).zip(&sorted) {
            rank[*i as usize] = position;
        }
        Self {
            items,
            sorted,
            rank,
        }
    }

    /// The items starting with `typed`, ignoring case: exact matches first,
    /// then the others, each group in the list's own order; at most
    /// [`MAX_VALUES`].
    pub(crate) fn complete(&self, typed: &str) -> Matches<&'static str> {
        let typed = fold(typed);
        let start = self.sorted.partition_point(|(key, _)| **key < *typed);
        let len = self.sorted[start..].partition_point(|(key, _)| key.starts_with(&*typed));
        let range = &self.sorted[start..start + len];
        // Equal keys sort before longer ones, and ties by position.
        let exact = range.partition_point(|(key, _)| key.len() == typed.len());
        let mut values: Vec<&'static str> = range[..exact.min(MAX_VALUES)]
            .iter()
            .map(|&(_, i)| self.items[i as usize])
            .collect();
        let room = MAX_VALUES - values.len();
        let (lo, hi) = (start + exact, start + len);
        let matching = hi - lo;
        if matching > SORT_LIMIT && matching * 4 >= self.items.len() {
            // Most of the list matches: walking it in its own order fills
            // the result after a few hundred entries.
            let in_range = |&(_, &rank): &(&&str, &u32)| (lo..hi).contains(&(rank as usize));
            values.extend(
                self.items
                    .iter()
                    .zip(&self.rank)
                    .filter(in_range)
                    .map(|(item, _)| *item)
                    .take(room),
            );
        } else {
            // Otherwise only the matches are looked at: the first `room` of
            // them in the list's order are selected, then sorted.
            let mut rest: Vec<u32> = self.sorted[lo..hi].iter().map(|&(_, i)| i).collect();
            if rest.len() > room && room > 0 {
                rest.select_nth_unstable(room - 1);
                rest.truncate(room);
            }
            rest.sort_unstable();
            values.extend(rest.iter().take(room).map(|&i| self.items[i as usize]));
        }
        Matches { values, total: len }
    }
}

/// Orders values a completer returned: exact matches of `typed`, then
/// values that start with it, then the rest, ignoring case and keeping the
/// completer's order within each group; at most [`MAX_VALUES`].
pub(crate) fn rank(values: Vec<String>, typed: &str) -> Matches<String> {
    let typed = fold(typed);
    let total = values.len();
    let mut groups: [Vec<String>; 3] = Default::default();
    for value in values {
        let exact = || {
            if value.is_ascii() && typed.is_ascii() {
                value.len() == typed.len()
            } else {
                fold(&value) == typed
            }
        };
        // 0: exact, 1: prefix, 2: the rest.
        let group = if starts_with_folded(&value, &typed) {
            usize::from(!exact())
        } else {
            2
        };
        groups[group].push(value);
    }
    let values = groups.into_iter().flatten().take(MAX_VALUES).collect();
    Matches { values, total }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LANGUAGES: &[&str] = &[
        "c",
        "cpp",
        "csharp",
        "go",
        "java",
        "javascript",
        "python",
        "zig",
    ];

    #[test]
    fn prefixes_match_ignoring_case_exact_first() {
        let index = PrefixIndex::new(LANGUAGES);
        assert_eq!(index.complete("py").values, ["python"]);
        assert_eq!(index.complete("c").values, ["c", "cpp", "csharp"]);
        assert_eq!(index.complete("J").values, ["java", "javascript"]);
        assert_eq!(index.complete("").values, LANGUAGES);
        assert_eq!(index.complete("").total, 8);
        assert_eq!(
            index.complete("zz"),
            Matches {
                values: vec![],
                total: 0
            }
        );
    }

    #[test]
    fn keeps_the_lists_order_and_caps_at_one_hundred() {
        const ORDERED: &[&str] = &["b2", "B", "b1", "a"];
        assert_eq!(
            PrefixIndex::new(ORDERED).complete("b").values,
            ["B", "b2", "b1"]
        );
        let many: Vec<&'static str> = (0..1000)
            .map(|i| &*Box::leak(format!("item{:04}", 999 - i).into_boxed_str()))
            .collect();
        let index = PrefixIndex::new(Box::leak(many.clone().into_boxed_slice()));
        let all = index.complete("item");
        assert_eq!(all.total, 1000);
        assert_eq!(all.values, many[..100]);
        let some = index.complete("item09");
        assert_eq!(some.total, 100);
        assert_eq!(some.values, many[..100]);
        assert_eq!(index.complete("item0999").values, ["item0999"]);
    }

    #[test]
    fn greek_final_sigma_still_matches() {
        const WORDS: &[&str] = &["ΑΣΤΡΟ", "ΑΛΦΑ"];
        assert_eq!(PrefixIndex::new(WORDS).complete("ΑΣ").values, ["ΑΣΤΡΟ"]);
        assert_eq!(PrefixIndex::new(WORDS).complete("ασ").values, ["ΑΣΤΡΟ"]);
    }

    #[test]
    fn sparse_matches_in_a_large_list_are_found_in_order() {
        // 500 matches spread through 5,000 entries: selected, not scanned.
        let items: Vec<&'static str> = (0..5000)
            .map(|i| {
                let word = if i % 10 == 0 {
                    format!("m{:04}", 9999 - i)
                } else {
                    format!("x{i}")
                };
                &*Box::leak(word.into_boxed_str())
            })
            .collect();
        let index = PrefixIndex::new(Box::leak(items.clone().into_boxed_slice()));
        let found = index.complete("m");
        assert_eq!(found.total, 500);
        let expected: Vec<&str> = items
            .iter()
            .copied()
            .filter(|w| w.starts_with('m'))
            .take(100)
            .collect();
        assert_eq!(found.values, expected);
    }

    #[test]
    fn ranks_completer_values() {
        let values = ["lifetimes", "error handling", "Err", "err"]
            .map(String::from)
            .to_vec();
        let ranked = rank(values, "err");
        assert_eq!(ranked.values, ["Err", "err", "error handling", "lifetimes"]);
        assert_eq!(ranked.total, 4);
    }
}
