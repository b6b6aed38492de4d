//! The server's languages: the default one prompts are written in, and
//! with feature `fluent` the `#[prompt]`s' texts in others.

use super::Server;
#[cfg(feature = "fluent")]
use crate::catalog::Words;
use crate::catalog::{GiveTexts, ServedLanguages, WordsTable};
use crate::error::{BuildError, excerpt};
use crate::protocol::language::Language;

/// The default language when none is set.
const DEFAULT_LANGUAGE: &str = "en";

/// What the builder was told of languages.
#[derive(Clone, Default)]
pub(super) struct Languages {
    /// As given; `en` when not.
    default: Option<String>,
    /// Every set of translations given, as one, and what applies them: a
    /// server given none links none of Fluent.
    #[cfg(feature = "fluent")]
    translations: Option<(crate::fluent::Translations, Translate)>,
}

/// What compiles the translations, saying each problem.
#[cfg(feature = "fluent")]
type Translate =
    fn(&crate::fluent::Translations, &mut Vec<String>) -> (GiveTexts, Vec<(Language, Words)>);

impl std::fmt::Debug for Languages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Languages")
            .field("default", &self.default)
            .finish_non_exhaustive()
    }
}

impl Languages {
    /// The default language, checked, and what gives each `#[prompt]`
    /// its texts in the languages the translations have; a problem in
    /// them fails the build.
    pub(super) fn served(&self) -> Result<ServedLanguages, BuildError> {
        let tag = self.default.as_deref().unwrap_or(DEFAULT_LANGUAGE);
        let Some(default) = Language::parse(tag) else {
            return Err(BuildError::new(vec![format!(
                "default language `{}` is not a well-formed BCP 47 tag",
                excerpt(tag)
            )]));
        };
        #[cfg_attr(not(feature = "fluent"), allow(unused_mut))]
        let (mut texts, mut words): (Option<GiveTexts>, _) = (None, Vec::new());
        #[cfg(feature = "fluent")]
        if let Some((translations, translate)) = &self.translations {
            let mut problems = Vec::new();
            let (given, given_words) = translate(translations, &mut problems);
            (texts, words) = (Some(given), given_words);
            if !problems.is_empty() {
                return Err(BuildError::new(problems));
            }
        }
        let words = WordsTable::new(&default, words);
        Ok(ServedLanguages::new(default, texts, words))
    }
}

impl Server {
    /// The language prompts are written in, unless translated (a BCP 47
    /// tag; default `en`): what a request that prefers `*`, or nothing the
    /// prompt has, is answered in. A request's preference
    /// (`_meta["io.modelcontextprotocol/acceptLanguage"]`) picks among it
    /// and each prompt's translations.
    pub fn default_language(mut self, tag: impl Into<String>) -> Self {
        self.languages.default = Some(tag.into());
        self
    }

    /// Gives `#[prompt]`s their titles, descriptions and argument texts in
    /// other languages, from Fluent files; checked by
    /// [`build`](Self::build): a message naming no prompt, or an
    /// attribute naming no argument, is a problem there.
    ///
    /// ```rust,standalone_crate
    /// use mcp_prompts::{Server, Translations, prompt};
    ///
    /// /// Greet someone
    /// #[prompt]
    /// fn greet(name: String) -> String {
    ///     format!("Say hello to {name}.")
    /// }
    ///
    /// let french = "greet = Saluer\n    .description = Saluer quelqu'un\n    .arg-name = Qui saluer\n";
    /// let service = Server::new("greeter", "1.0")
    ///     .translations(Translations::new().add("fr", "fr.ftl", french))
    ///     .build()?;
    /// # let _ = service;
    /// # Ok::<(), mcp_prompts::BuildError>(())
    /// ```
    #[cfg(feature = "fluent")]
    pub fn translations(mut self, translations: crate::fluent::Translations) -> Self {
        let apply: Translate = crate::fluent::Translations::compile;
        self.languages.translations = Some(match self.languages.translations.take() {
            Some((given, _)) => (given.merged(translations), apply),
            None => (translations, apply),
        });
        self
    }
}
