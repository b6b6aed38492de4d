//! A run-time prompt in other languages: each translation a prompt of its
//! own (title, description, argument texts, body) with the same name and
//! arguments, served in place of the default where a request prefers its
//! language.

use std::fmt::Write as _;

use super::{DynamicArgument, DynamicPrompt, DynamicPromptBuilder};
use crate::protocol::language::Language;

impl DynamicPromptBuilder {
    /// Adds `prompt` as this prompt in `language` (a BCP 47 tag: `fr`,
    /// `de-CH`): a request that prefers it is answered with its title,
    /// description, argument texts and body. It must have the same name
    /// and the same arguments, in the same order, required alike;
    /// [`build`](Self::build) checks.
    ///
    /// ```
    /// use mcp_prompts::{DynamicArgument, DynamicPrompt};
    ///
    /// let greet = |text: &str| {
    ///     DynamicPrompt::builder("greet")
    ///         .argument(DynamicArgument::new("name"))
    ///         .template(text)
    /// };
    /// let prompt = greet("Hello, {name}.")
    ///     .translation("fr", greet("Bonjour, {name}.").build()?)
    ///     .build()?;
    /// assert_eq!(prompt.languages().collect::<Vec<_>>(), ["fr"]);
    /// # Ok::<(), mcp_prompts::BuildError>(())
    /// ```
    pub fn translation(mut self, language: impl Into<String>, prompt: DynamicPrompt) -> Self {
        self.translations.push((language.into(), prompt));
        self
    }
}

impl DynamicPrompt {
    /// The languages it has translations in (its default language aside).
    pub fn languages(&self) -> impl Iterator<Item = &str> + '_ {
        self.0
            .translations
            .iter()
            .map(|(language, _)| language.as_str())
    }

    /// Its translations, each with its language.
    pub(crate) fn translations(&self) -> &[(Language, DynamicPrompt)] {
        &self.0.translations
    }
}

impl DynamicPrompt {
    /// The same prompt without its translation into `language`, if it has
    /// one.
    #[cfg(feature = "registry")]
    pub(crate) fn without_translation(&self, language: &Language) -> Self {
        if !self.0.translations.iter().any(|(own, _)| own == language) {
            return self.clone();
        }
        let mut parts = super::Parts::clone(&self.0);
        parts.translations.retain(|(own, _)| own != language);
        Self(std::sync::Arc::new(parts))
    }

    #[cfg(feature = "files")]
    /// The same prompt named `name` (a translation file's prompt, named
    /// for its file, takes its default's name).
    pub(crate) fn renamed(&self, name: &str) -> Self {
        let mut parts = super::Parts::clone(&self.0);
        name.clone_into(&mut parts.name);
        Self(std::sync::Arc::new(parts))
    }

    /// The same prompt with `translations` (checked already): a prompt of
    /// its own.
    #[cfg(feature = "files")]
    pub(crate) fn with_translations(&self, translations: Vec<(Language, DynamicPrompt)>) -> Self {
        let mut parts = super::Parts::clone(&self.0);
        parts.translations = translations;
        Self(std::sync::Arc::new(parts))
    }
}

/// How `translation` differs from `default` where a translation must not
/// (its name, its arguments), if it does.
#[cfg(feature = "files")]
pub(crate) fn translation_mismatch(
    default: &DynamicPrompt,
    translation: &DynamicPrompt,
) -> Option<String> {
    mismatch(default.name(), default.arguments(), translation)
}

/// The translations of prompt `name`, whose arguments are `arguments`,
/// each checked: a well-formed tag, given once, the same name and the
/// same arguments, no translations of its own. Each problem goes to
/// `problems`.
pub(super) fn checked(
    name: &str,
    arguments: &[DynamicArgument],
    translations: Vec<(String, DynamicPrompt)>,
    problems: &mut Vec<String>,
) -> Vec<(Language, DynamicPrompt)> {
    let mut kept: Vec<(Language, DynamicPrompt)> = Vec::with_capacity(translations.len());
    for (tag, prompt) in translations {
        let Some(language) = Language::parse(&tag) else {
            problems.push(format!(
                "prompt `{name}`: translation language `{}` is not a well-formed BCP 47 tag",
                crate::error::excerpt(&tag)
            ));
            continue;
        };
        if kept.iter().any(|(own, _)| *own == language) {
            problems.push(format!(
                "prompt `{name}`: two translations into `{language}`"
            ));
            continue;
        }
        if let Some(problem) = mismatch(name, arguments, &prompt) {
            problems.push(format!(
                "prompt `{name}`, translation `{language}`: {problem}"
            ));
            continue;
        }
        kept.push((language, prompt));
    }
    kept
}

/// How `translation` differs from the prompt it translates, named `name`
/// with `arguments`, if it does where it must not.
fn mismatch(
    name: &str,
    arguments: &[DynamicArgument],
    translation: &DynamicPrompt,
) -> Option<String> {
    if translation.name() != name {
        return Some(format!("it is named `{}`", translation.name()));
    }
    if !translation.0.translations.is_empty() {
        return Some("it has translations of its own".to_owned());
    }
    // What a client may send is the same in every language: names, which
    // are required, the choices, the default, the value's type.
    let describe = |args: &[DynamicArgument]| {
        args.iter()
            .map(|a| {
                let required = if a.is_required() { "" } else { "?" };
                let mut text = format!("{}{required}", a.get_name());
                if !a.get_choices().is_empty() {
                    let _ = write!(text, " one of [{}]", a.get_choices().join("|"));
                }
                if let Some(default) = a.get_default() {
                    let _ = write!(text, " = {default}");
                }
                if let Some(ty) = a.get_value_type() {
                    let _ = write!(text, " as {}", ty.expected);
                }
                text
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (own, theirs) = (describe(arguments), describe(translation.arguments()));
    (own != theirs).then(|| {
        format!("its arguments ({theirs}) differ from the prompt's ({own}); a translation keeps the same arguments, required alike, with the same choices, default and type")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prompt(name: &str, arguments: &[(&str, bool)]) -> DynamicPromptBuilder {
        let mut builder = DynamicPrompt::builder(name).template("x");
        for &(argument, required) in arguments {
            let argument = DynamicArgument::new(argument);
            builder = builder.argument(if required {
                argument
            } else {
                argument.optional()
            });
        }
        builder
    }

    fn problems(translations: Vec<(&str, DynamicPrompt)>) -> Vec<String> {
        let mut builder = prompt("review", &[("code", true)]);
        for (language, translation) in translations {
            builder = builder.translation(language, translation);
        }
        builder.build().unwrap_err().problems().to_vec()
    }

    #[cfg(feature = "registry")]
    #[test]
    fn a_translation_can_be_left_out() {
        let good = || prompt("review", &[("code", true)]).build().unwrap();
        let built = prompt("review", &[("code", true)])
            .translation("en", good())
            .translation("fr", good())
            .build()
            .unwrap();
        let en = Language::parse("en").unwrap();
        let without = built.without_translation(&en);
        assert_eq!(without.languages().collect::<Vec<_>>(), ["fr"]);
        let de = Language::parse("de").unwrap();
        assert!(built.without_translation(&de).same_as(&built));
    }

    #[test]
    fn translations_keep_the_name_and_the_arguments() {
        let good = || prompt("review", &[("code", true)]).build().unwrap();
        let built = prompt("review", &[("code", true)])
            .translation("de-ch", good())
            .translation("fr", good())
            .build()
            .unwrap();
        assert_eq!(built.languages().collect::<Vec<_>>(), ["de-CH", "fr"]);
        let problems = problems(vec![
            ("fr_FR", good()),
            ("de", good()),
            ("de", good()),
            ("es", prompt("revue", &[("code", true)]).build().unwrap()),
            ("it", prompt("review", &[("code", false)]).build().unwrap()),
            ("pt", prompt("review", &[("codigo", true)]).build().unwrap()),
        ]);
        assert_eq!(problems.len(), 5, "{problems:?}");
        assert!(problems[0].contains("`fr_FR` is not a well-formed BCP 47 tag"));
        assert!(problems[1].contains("two translations into `de`"));
        assert!(problems[2].contains("it is named `revue`"));
        assert!(
            problems[3].contains("its arguments (code?) differ"),
            "{}",
            problems[3]
        );
        assert!(
            problems[4].contains("its arguments (codigo) differ"),
            "{}",
            problems[4]
        );
    }
}
