//! The words the server writes itself around the prompts' own texts: the
//! notes after an argument's description ("one of: …; default: …"), the
//! question of the form that asks for missing arguments, and the prompt
//! tools' titles and descriptions. English unless translations give them
//! in another language (Fluent's message `mcp-prompts`).

use std::sync::Arc;

use crate::descriptor::ArgRange;
use crate::protocol::language::{Language, Preference};

/// A text with named values filled in: `{name}` where a value goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pattern(Box<[Piece]>);

#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Text(Box<str>),
    /// The value of the variable at this place in the pattern's names.
    Value(u8),
}

impl Pattern {
    /// `text`, where `{NAME}` for each of `names` is where that value goes;
    /// any other brace is text.
    pub(crate) fn parse(text: &str, names: &[&str]) -> Self {
        let mut pieces = Vec::new();
        let mut rest = text;
        let mut literal = String::new();
        while let Some(open) = rest.find('{') {
            let after = &rest[open + 1..];
            let value = names.iter().enumerate().find_map(|(at, name)| {
                let closes = after.strip_prefix(name)?.starts_with('}');
                closes.then_some((at, name.len()))
            });
            match value {
                Some((at, len)) => {
                    literal.push_str(&rest[..open]);
                    if !literal.is_empty() {
                        pieces.push(Piece::Text(std::mem::take(&mut literal).into()));
                    }
                    pieces.push(Piece::Value(u8::try_from(at).unwrap_or(u8::MAX)));
                    rest = &after[len + 1..];
                }
                None => {
                    literal.push_str(&rest[..=open]);
                    rest = after;
                }
            }
        }
        literal.push_str(rest);
        if !literal.is_empty() {
            pieces.push(Piece::Text(literal.into()));
        }
        Self(pieces.into())
    }

    /// The text with `values` in place, each at its name's place.
    pub(crate) fn fill(&self, values: &[&str]) -> String {
        let mut text = String::new();
        for piece in &self.0 {
            match piece {
                Piece::Text(part) => text.push_str(part),
                Piece::Value(at) => {
                    text.push_str(values.get(usize::from(*at)).copied().unwrap_or(""));
                }
            }
        }
        text
    }
}

/// One language's words. Each names the values it takes.
#[derive(Clone, Debug)]
pub(crate) struct Words {
    /// `{prompt}`, `{names}`: the question of the missing-arguments form.
    needs: Pattern,
    /// `{format}`.
    format: Pattern,
    /// `{min}`, `{max}`.
    from_to: Pattern,
    /// `{min}`.
    at_least: Pattern,
    /// `{max}`.
    at_most: Pattern,
    /// `{choices}`.
    one_of: Pattern,
    /// `{value}`.
    default: Pattern,
    list_prompts_title: Box<str>,
    list_prompts: Box<str>,
    get_prompt_title: Box<str>,
    get_prompt: Box<str>,
    /// Said of a required argument in `list_prompts`' text.
    required: Box<str>,
    /// `list_prompts`' text when no prompt is offered.
    no_prompts: Box<str>,
}

/// Each word's key in Fluent (an attribute of the message `mcp-prompts`),
/// the names of the values it takes, and its English.
pub(crate) const WORDS: [(&str, &[&str], &str); 13] = [
    (
        "needs",
        &["prompt", "names"],
        "The prompt `{prompt}` needs: {names}",
    ),
    ("format", &["format"], "format: {format}"),
    ("from-to", &["min", "max"], "from {min} to {max}"),
    ("at-least", &["min"], "at least {min}"),
    ("at-most", &["max"], "at most {max}"),
    ("one-of", &["choices"], "one of: {choices}"),
    ("default", &["value"], "default: {value}"),
    ("list-prompts-title", &[], "List prompts"),
    (
        "list-prompts",
        &[],
        "List the prompts this server offers: each one's name, description and arguments \
         (which are required, and the values an argument accepts). Call get_prompt to use one.",
    ),
    ("get-prompt-title", &[], "Get a prompt"),
    (
        "get-prompt",
        &[],
        "Get a prompt's messages, filled in with its arguments. list_prompts tells the names \
         and arguments.",
    ),
    ("required", &[], "required"),
    ("no-prompts", &[], "No prompts are available."),
];

impl Default for Words {
    /// The English words.
    fn default() -> Self {
        Self::with(|_| None)
    }
}

impl Words {
    /// The words `given` gives by key (as in [`WORDS`], the values written
    /// `{name}`), English where it gives none.
    pub(crate) fn with(mut given: impl FnMut(&str) -> Option<String>) -> Self {
        let mut word = |at: usize| {
            let (key, names, english) = WORDS[at];
            let text = given(key);
            Pattern::parse(text.as_deref().unwrap_or(english), names)
        };
        let [needs, format, from_to, at_least, at_most, one_of, default] =
            [0, 1, 2, 3, 4, 5, 6].map(&mut word);
        let mut text = |at: usize| -> Box<str> {
            let (key, _, english) = WORDS[at];
            given(key).map_or_else(|| english.into(), Into::into)
        };
        Self {
            needs,
            format,
            from_to,
            at_least,
            at_most,
            one_of,
            default,
            list_prompts_title: text(7),
            list_prompts: text(8),
            get_prompt_title: text(9),
            get_prompt: text(10),
            required: text(11),
            no_prompts: text(12),
        }
    }

    /// The question of the form asking for `names` (each quoted already)
    /// of the prompt titled `prompt`.
    pub(crate) fn needs(&self, prompt: &str, names: &str) -> String {
        self.needs.fill(&[prompt, names])
    }

    /// "format: JSON", "from 1 to 10", "one of: formal, casual; default:
    /// casual": what is said after an argument's description; `None` when
    /// there is nothing to say.
    pub(crate) fn notes(
        &self,
        format: Option<&str>,
        range: Option<&ArgRange>,
        choices: &[&str],
        default: Option<&str>,
    ) -> Option<String> {
        let range = range.map(|range| self.range(range));
        let notes: Vec<String> = [
            format.map(|f| self.format.fill(&[f])),
            range,
            (!choices.is_empty()).then(|| self.one_of.fill(&[&choices.join(", ")])),
            default.map(|d| self.default.fill(&[d])),
        ]
        .into_iter()
        .flatten()
        .collect();
        (!notes.is_empty()).then(|| notes.join("; "))
    }

    fn range(&self, range: &ArgRange) -> String {
        match (range.min, range.max) {
            (Some(min), Some(max)) => self.from_to.fill(&[min, max]),
            (Some(min), None) => self.at_least.fill(&[min]),
            (None, Some(max)) => self.at_most.fill(&[max]),
            (None, None) => range.describe(),
        }
    }

    /// The `list_prompts` tool's title and description.
    pub(crate) fn list_prompts(&self) -> (&str, &str) {
        (&self.list_prompts_title, &self.list_prompts)
    }

    /// The `get_prompt` tool's title and description.
    pub(crate) fn get_prompt(&self) -> (&str, &str) {
        (&self.get_prompt_title, &self.get_prompt)
    }

    /// What `list_prompts`' text says of a required argument.
    pub(crate) fn required(&self) -> &str {
        &self.required
    }

    /// `list_prompts`' text when no prompt is offered.
    pub(crate) fn no_prompts(&self) -> &str {
        &self.no_prompts
    }

    /// "one of: a, b", for `list_prompts`' text.
    pub(crate) fn one_of(&self, choices: &[String]) -> String {
        self.one_of.fill(&[&choices.join(", ")])
    }

    /// "default: a", for `list_prompts`' text.
    pub(crate) fn default_is(&self, value: &str) -> String {
        self.default.fill(&[value])
    }
}

/// The words of each language translations give them in, and the
/// default language's (English unless given).
#[derive(Clone, Debug, Default)]
pub(crate) struct WordsTable {
    default: Arc<Words>,
    others: Vec<(Language, Arc<Words>)>,
}

impl WordsTable {
    /// `given`, each language's words; those in `default` are the default
    /// language's.
    pub(crate) fn new(default: &Language, given: Vec<(Language, Words)>) -> Self {
        let mut table = Self::default();
        for (language, words) in given {
            if language == *default {
                table.default = Arc::new(words);
            } else {
                table.others.push((language, Arc::new(words)));
            }
        }
        table
    }

    /// The default language's words.
    pub(crate) fn default_words(&self) -> &Arc<Words> {
        &self.default
    }

    /// The words in `language`: its own, else the default's.
    pub(crate) fn of(&self, language: &Language) -> &Arc<Words> {
        (self.others.iter())
            .find(|(own, _)| own == language)
            .map_or(&self.default, |(_, words)| words)
    }

    /// The words a request preferring `preference` gets, as RFC 4647
    /// lookup picks among the languages that have words (the default for
    /// `*`, the default's range, or none), with their language.
    pub(crate) fn for_preference(
        &self,
        preference: &Preference,
        default: &Language,
    ) -> (&Arc<Words>, Language) {
        for candidate in preference.candidates() {
            if candidate == "*" || default.is(candidate) {
                break;
            }
            let found = (self.others.iter())
                .find(|(language, _)| language.as_str().eq_ignore_ascii_case(candidate));
            if let Some((language, words)) = found {
                return (words, language.clone());
            }
        }
        (&self.default, default.clone())
    }
}

/// The words of each of a catalog's languages, by its place there, and
/// the default language's: what a listing writes each prompt's notes in.
#[derive(Clone, Debug, Default)]
pub(crate) struct PlacedWords {
    default: Arc<Words>,
    at: Box<[Arc<Words>]>,
}

impl PlacedWords {
    /// `table`'s words for each of `languages`, in their order.
    pub(crate) fn new(table: &WordsTable, languages: &[Language]) -> Self {
        Self {
            default: Arc::clone(table.default_words()),
            at: languages.iter().map(|l| Arc::clone(table.of(l))).collect(),
        }
    }

    /// The words of the language at `place`; the default's for `None`.
    pub(crate) fn at(&self, place: Option<u16>) -> &Words {
        self.shared(place)
    }

    /// The same, shared.
    pub(crate) fn shared(&self, place: Option<u16>) -> &Arc<Words> {
        place
            .and_then(|place| self.at.get(usize::from(place)))
            .unwrap_or(&self.default)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pattern_fills_its_names_and_keeps_other_braces() {
        let pattern = Pattern::parse("{max} ≥ {x} ≥ {min} {", &["min", "max"]);
        assert_eq!(pattern.fill(&["1", "9"]), "9 ≥ {x} ≥ 1 {");
    }

    #[test]
    fn notes_read_in_the_words_given() {
        let english = Words::default();
        let range = ArgRange {
            min: Some("1"),
            max: Some("10"),
        };
        assert_eq!(
            english.notes(None, Some(&range), &["a", "b"], Some("a")),
            Some("from 1 to 10; one of: a, b; default: a".to_owned())
        );
        let french = Words::with(|key| match key {
            "one-of" => Some("un parmi : {choices}".to_owned()),
            "default" => Some("par défaut : {value}".to_owned()),
            _ => None,
        });
        assert_eq!(
            french.notes(Some("JSON"), None, &["a", "b"], Some("a")),
            Some("format: JSON; un parmi : a, b; par défaut : a".to_owned())
        );
        assert_eq!(english.notes(None, None, &[], None), None);
    }

    #[test]
    fn a_preference_picks_the_words_lookup_would() {
        let default = Language::parse("en").unwrap();
        let fr = Language::parse("fr").unwrap();
        let french = Words::with(|key| (key == "list-prompts-title").then(|| "Lister".to_owned()));
        let table = WordsTable::new(&default, vec![(fr.clone(), french)]);
        let pick = |text: &str| {
            let preference = Preference::parse(text).unwrap();
            let (words, language) = table.for_preference(&preference, &default);
            (words.list_prompts().0.to_owned(), language.to_string())
        };
        assert_eq!(
            pick("fr-CH, en;q=0.5"),
            ("Lister".to_owned(), "fr".to_owned())
        );
        assert_eq!(pick("en, fr"), ("List prompts".to_owned(), "en".to_owned()));
        assert_eq!(pick("ja"), ("List prompts".to_owned(), "en".to_owned()));
        assert_eq!(pick("*, fr"), ("List prompts".to_owned(), "en".to_owned()));
    }
}
