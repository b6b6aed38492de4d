//! What a live catalog knows of the server's languages: the default one
//! prompts are written in, and what gives a `#[prompt]` its texts in the
//! others (Fluent's), for prompts added after the server was built as for
//! those it was built with.

use std::sync::Arc;

use super::AnyPrompt;
use super::words::WordsTable;
use crate::error::BuildError;
use crate::protocol::language::Language;

/// Gives a `#[prompt]` its texts in other languages; other prompts pass
/// through unchanged.
pub(crate) type GiveTexts = Arc<dyn Fn(AnyPrompt) -> AnyPrompt + Send + Sync>;

/// The server's default language, and its `#[prompt]`s' translations.
#[derive(Clone)]
pub(crate) struct ServedLanguages {
    default: Language,
    texts: Option<GiveTexts>,
    /// The words the server writes itself, in each language given.
    words: WordsTable,
}

impl ServedLanguages {
    /// For a catalog read apart from any server (a folder published to a
    /// registry): it knows no server's default language, so its default
    /// is `und` (undetermined), which no translation is in.
    #[cfg(any(feature = "registry", test))]
    pub(crate) fn apart() -> Self {
        let undetermined = Language::parse("und").expect("`und` is a language tag");
        Self::new(undetermined, None, WordsTable::default())
    }

    /// `default`, and `texts` and `words` if the server was given
    /// translations.
    pub(crate) fn new(default: Language, texts: Option<GiveTexts>, words: WordsTable) -> Self {
        Self {
            default,
            texts,
            words,
        }
    }

    /// The words the server writes itself, by language.
    pub(crate) fn words(&self) -> &WordsTable {
        &self.words
    }

    /// The language prompts are written in.
    pub(crate) fn default_language(&self) -> &Language {
        &self.default
    }

    /// `prompt` as the catalog serves it: a `#[prompt]` with its texts in
    /// the languages translations give. A translation into the default
    /// language is refused: the prompt's own texts are that language's,
    /// so it would never be served.
    pub(crate) fn admit(&self, prompt: AnyPrompt) -> Result<AnyPrompt, BuildError> {
        let prompt = match &self.texts {
            Some(give) if prompt.static_def().is_some() => give(prompt),
            _ => prompt,
        };
        if prompt.has_translation(&self.default) {
            return Err(BuildError::new(vec![format!(
                "prompt `{}` has a translation into `{}`, the server's default language: \
                 its own texts are that language's, so the translation would never be served",
                prompt.name(),
                self.default
            )]));
        }
        Ok(prompt)
    }
}
