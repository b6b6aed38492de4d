//! The server's own words in a language, from the Fluent message
//! `mcp-prompts`: one attribute per word, its values written as Fluent
//! variables.
//!
//! ```ftl
//! mcp-prompts =
//!     .one-of = un parmi : { $choices }
//!     .default = par défaut : { $value }
//!     .needs = Le prompt « { $prompt } » a besoin de : { $names }
//! ```

use fluent_bundle::{FluentArgs, FluentBundle, FluentResource};

use crate::catalog::WORDS;

/// The message that holds the server's words.
pub(super) const WORDS_MESSAGE: &str = "mcp-prompts";

/// One file's words: each key (a [`WORDS`] key) with its text, the
/// values written `{name}`.
pub(super) type FileWords = Vec<(&'static str, String)>;

/// The words `message` gives in `bundle`; an attribute that is no word,
/// or that names a value the word does not take, goes to `problems`.
pub(super) fn read_words(
    bundle: &FluentBundle<FluentResource>,
    message: &fluent_bundle::FluentMessage<'_>,
    origin: &str,
    problems: &mut Vec<String>,
) -> FileWords {
    let mut words = Vec::new();
    if message.value().is_some() {
        problems.push(format!(
            "{origin}: `{WORDS_MESSAGE}` takes attributes only, one per word"
        ));
    }
    for attribute in message.attributes() {
        let key = attribute.id();
        let Some(&(key, names, _)) = WORDS.iter().find(|(own, _, _)| *own == key) else {
            let known: Vec<&str> = WORDS.iter().map(|(key, _, _)| *key).collect();
            problems.push(format!(
                "{origin}: `{WORDS_MESSAGE}.{key}` is no word of the server's (they are: {})",
                known.join(", ")
            ));
            continue;
        };
        let mut values = FluentArgs::new();
        for name in names {
            values.set(*name, format!("{{{name}}}"));
        }
        let mut errors = Vec::new();
        let text = bundle.format_pattern(attribute.value(), Some(&values), &mut errors);
        for error in errors {
            problems.push(format!("{origin}: `{WORDS_MESSAGE}.{key}`: {error}"));
        }
        words.push((key, text.into_owned()));
    }
    words
}
