//! `#[prompt]`s in other languages: their titles, descriptions and
//! argument texts from Fluent (`.ftl`) files, read from a folder at run
//! time or embedded with `include_str!`, formatted once when the server
//! is built, and checked there against the prompts it serves (feature
//! `fluent`). A prompt's body chooses by
//! [`RequestContext::language`](crate::RequestContext::language).
//!
//! One message per prompt, named as the prompt; its value is the title:
//!
//! ```ftl
//! code_review = Revue de code
//!     .description = Relit un extrait de code
//!     .arg-language = Langage de programmation de l'extrait
//!     .arg-language-title = Langage
//! ```

use std::path::Path;

use fluent_bundle::{FluentBundle, FluentResource};

use std::sync::Arc;

use crate::catalog::{AnyPrompt, GiveTexts, Texts, Words, registered_prompts};
use words::{FileWords, WORDS_MESSAGE, read_words};

mod words;
use crate::error::excerpt;
use crate::protocol::language::Language;

/// The most bytes of Fluent text read, over all files: a `.ftl` file is
/// a few kilobytes.
const MAX_FLUENT_BYTES: usize = 4 * 1024 * 1024;

/// Texts of `#[prompt]`s in other languages, from Fluent files: give them
/// to [`Server::translations`](crate::Server::translations).
///
/// ```
/// use mcp_prompts::Translations;
///
/// let translations = Translations::new()
///     .add("fr", "fr.ftl", "code_review = Revue de code\n    .description = Relit du code\n");
/// # let _ = translations;
/// ```
#[derive(Clone, Debug, Default)]
pub struct Translations {
    /// Each file: its language (as given), where it came from, its text.
    files: Vec<(String, String, String)>,
}

impl Translations {
    /// No translations yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `source`, Fluent text, as language `language`'s (a BCP 47
    /// tag); `origin` names it in messages (a file name). For texts
    /// embedded at compile time:
    /// `.add("fr", "fr.ftl", include_str!("../i18n/fr.ftl"))`.
    #[must_use]
    pub fn add(
        mut self,
        language: impl Into<String>,
        origin: impl Into<String>,
        source: impl Into<String>,
    ) -> Self {
        self.files
            .push((language.into(), origin.into(), source.into()));
        self
    }

    /// Reads a folder's translations: each `LANG.ftl` in it, and each
    /// `.ftl` file in a folder `LANG` in it (`i18n/fr.ftl`,
    /// `i18n/de-CH/prompts.ftl`), in name order. Other files are skipped.
    ///
    /// # Errors
    /// When the folder or one of those files cannot be read, or they hold
    /// more than 4 MiB of text.
    pub fn from_dir(dir: impl AsRef<Path>) -> std::io::Result<Self> {
        let mut files = Vec::new();
        let mut total = 0;
        for (language, path) in ftl_files(dir.as_ref())? {
            let text = read_bounded(&path, &mut total)?;
            files.push((language, path.display().to_string(), text));
        }
        Ok(Self { files })
    }

    /// The languages given, as given.
    pub fn languages(&self) -> impl Iterator<Item = &str> + '_ {
        self.files.iter().map(|(language, _, _)| language.as_str())
    }

    /// These and `more`, as one set.
    pub(crate) fn merged(mut self, more: Self) -> Self {
        self.files.extend(more.files);
        self
    }

    /// What gives each `#[prompt]` its texts in the languages these
    /// translations have, formatted once, here: for the prompts a server is
    /// built with and those added to it later. Every problem (a file that
    /// does not parse, a language that is not one, a key naming no
    /// `#[prompt]` of the program or no argument of it, an attribute we do
    /// not know) goes to `problems`.
    /// With them, the server's own words in each language that gives them
    /// (the message `mcp-prompts`).
    pub(crate) fn compile(
        &self,
        problems: &mut Vec<String>,
    ) -> (GiveTexts, Vec<(Language, Words)>) {
        let prompts: Vec<AnyPrompt> = registered_prompts().map(AnyPrompt::from).collect();
        let (texts, words) = self.texts(&prompts, problems);
        let texts = Arc::new(texts);
        let words = (words.into_iter())
            .map(|(language, given)| {
                let words = Words::with(|key| {
                    (given.iter())
                        .find(|(own, _)| *own == key)
                        .map(|(_, text)| text.clone())
                });
                (language, words)
            })
            .collect();
        (Arc::new(move |prompt| texts.give(prompt)), words)
    }

    /// The texts of `prompts` in each language, by name, and the words
    /// each language gives.
    fn texts(
        &self,
        prompts: &[AnyPrompt],
        problems: &mut Vec<String>,
    ) -> (FluentTexts, Vec<(Language, FileWords)>) {
        let mut by_language: Vec<(Language, Vec<(String, Texts)>)> = Vec::new();
        let mut words_by_language: Vec<(Language, FileWords)> = Vec::new();
        for (tag, origin, source) in &self.files {
            let Some(language) = Language::parse(tag) else {
                problems.push(format!(
                    "{origin}: `{}` is not a well-formed BCP 47 language tag",
                    excerpt(tag)
                ));
                continue;
            };
            let (texts, words) = read_file(&language, origin, source, prompts, problems);
            match words_by_language.iter_mut().find(|(l, _)| *l == language) {
                Some((_, all)) => {
                    for (key, text) in words {
                        if all.iter().any(|(own, _)| *own == key) {
                            problems.push(format!(
                                "{origin}: `{WORDS_MESSAGE}.{key}` is given for `{language}` already, in another file"
                            ));
                        } else {
                            all.push((key, text));
                        }
                    }
                }
                None if words.is_empty() => {}
                None => words_by_language.push((language.clone(), words)),
            }
            match by_language.iter_mut().find(|(l, _)| *l == language) {
                Some((_, all)) => {
                    for (name, texts) in texts {
                        if all.iter().any(|(own, _)| *own == name) {
                            problems.push(format!(
                                "{origin}: message `{name}` is given for `{language}` already, in another file"
                            ));
                        } else {
                            all.push((name, texts));
                        }
                    }
                }
                None => by_language.push((language, texts)),
            }
        }
        (FluentTexts(by_language), words_by_language)
    }
}

/// The texts Fluent gives `#[prompt]`s: each language's, by prompt name.
struct FluentTexts(Vec<(Language, Vec<(String, Texts)>)>);

impl FluentTexts {
    /// `prompt` with its texts in each language that has them.
    fn give(&self, prompt: AnyPrompt) -> AnyPrompt {
        if prompt.static_def().is_none() {
            return prompt;
        }
        let languages = (self.0.iter())
            .filter_map(|(language, texts)| {
                let found = texts.iter().find(|(name, _)| name == prompt.name());
                found.map(|(_, texts)| (language.clone(), texts.clone()))
            })
            .collect();
        prompt.with_texts(languages)
    }
}

/// The texts one file gives, by prompt name; its problems go to
/// `problems`.
fn read_file(
    language: &Language,
    origin: &str,
    source: &str,
    prompts: &[AnyPrompt],
    problems: &mut Vec<String>,
) -> (Vec<(String, Texts)>, FileWords) {
    let resource = match FluentResource::try_new(source.to_owned()) {
        Ok(resource) => resource,
        Err((_, errors)) => {
            for error in errors {
                let start = error.pos.start.min(source.len());
                let line = memchr::memchr_iter(b'\n', &source.as_bytes()[..start]).count() + 1;
                problems.push(format!("{origin}:{line}: {}", error.kind));
            }
            return (Vec::new(), Vec::new());
        }
    };
    let ids: Vec<String> = resource
        .entries()
        .filter_map(|entry| match entry {
            fluent_syntax::ast::Entry::Message(message) => Some(message.id.name.to_owned()),
            _ => None,
        })
        .collect();
    let locale = language
        .as_str()
        .parse::<unic_langid::LanguageIdentifier>()
        .unwrap_or_default();
    let mut bundle = FluentBundle::new(vec![locale]);
    // Titles go to clients as text: no bidi isolation marks around
    // placeables.
    bundle.set_use_isolating(false);
    if let Err(errors) = bundle.add_resource(resource) {
        for error in errors {
            problems.push(format!("{origin}: {error}"));
        }
    }
    let (mut found, mut words) = (Vec::new(), Vec::new());
    for id in ids {
        if id == WORDS_MESSAGE {
            if let Some(message) = bundle.get_message(&id) {
                words = read_words(&bundle, &message, origin, problems);
            }
            continue;
        }
        let prompt = prompts
            .iter()
            .find(|p| p.static_def().is_some() && p.name() == id);
        let Some(prompt) = prompt else {
            problems.push(format!(
                "{origin}: message `{id}` names no #[prompt] of the program"
            ));
            continue;
        };
        let Some(message) = bundle.get_message(&id) else {
            continue;
        };
        let texts = prompt_texts(&bundle, &message, prompt, (origin, &id), problems);
        found.push((id, texts));
    }
    (found, words)
}

/// The texts `message` gives `prompt` in `bundle`; what is wrong with
/// them goes to `problems`, naming `origin` and the message's `id`.
fn prompt_texts(
    bundle: &FluentBundle<FluentResource>,
    message: &fluent_bundle::FluentMessage<'_>,
    prompt: &AnyPrompt,
    (origin, id): (&str, &str),
    problems: &mut Vec<String>,
) -> Texts {
    let arguments = prompt.arguments();
    // A template names an argument as a Fluent variable (`{ $diff }`),
    // which formats as the template syntax's placeholder (`{diff}`).
    let mut placeholders = fluent_bundle::FluentArgs::new();
    for argument in arguments.iter().filter(|a| !a.injected()) {
        placeholders.set(argument.name(), format!("{{{}}}", argument.name()));
    }
    let mut errors = Vec::new();
    let mut format = |pattern, args| {
        bundle
            .format_pattern(pattern, args, &mut errors)
            .into_owned()
    };
    let mut texts = Texts::default();
    if let Some(value) = message.value() {
        texts.set_title(format(value, None));
    }
    for attribute in message.attributes() {
        let key = attribute.id();
        let args = (key == "template").then_some(&placeholders);
        let text = format(attribute.value(), args);
        if key == "description" {
            texts.set_description(text);
            continue;
        }
        if key == "template" {
            match template_of(prompt, &text) {
                Ok(template) => texts.set_template(template),
                Err(problem) => problems.push(format!("{origin}: `{id}.template`: {problem}")),
            }
            continue;
        }
        let argument = key
            .strip_prefix("arg-")
            .map(|rest| match rest.strip_suffix("-title") {
                Some(name) => (name, true),
                None => (rest, false),
            });
        match argument {
            Some((name, title)) if arguments.iter().any(|a| a.name() == name) => {
                texts.set_argument(name, title, text);
            }
            Some((name, _)) => problems.push(format!(
                "{origin}: `{id}.{key}` names no argument of prompt `{id}` (`{name}`)"
            )),
            None => problems.push(format!(
                "{origin}: `{id}.{key}` is not `.description`, `.template`, `.arg-NAME` or `.arg-NAME-title`"
            )),
        }
    }
    for error in errors {
        problems.push(format!("{origin}: `{id}`: {error}"));
    }
    texts
}

/// A template prompt's template in another language, parsed against its
/// arguments; why not, for a prompt that is not a template prompt or a
/// template that does not parse.
fn template_of(
    prompt: &AnyPrompt,
    text: &str,
) -> Result<Vec<mcp_prompts_template::Message>, String> {
    struct Arguments<'a>(Vec<crate::catalog::ArgInfo<'a>>);
    impl mcp_prompts_template::Names for Arguments<'_> {
        fn knows(&self, name: &str) -> bool {
            self.0.iter().any(|a| a.name() == name && !a.injected())
        }
        fn may_be_unset(&self, name: &str) -> bool {
            self.0.iter().any(|a| a.name() == name && !a.required())
        }
    }
    if !prompt
        .static_def()
        .is_some_and(crate::descriptor::PromptDef::is_template)
    {
        return Err("only a #[prompt(template = ...)] takes a template per language; a function chooses its body by RequestContext::language".to_owned());
    }
    let arguments = Arguments(prompt.arguments());
    mcp_prompts_template::parse_checked(text, &arguments)
        .map_err(|error| format!("line {}: {}", error.line, error.message))
}

/// The `.ftl` files of `dir` with their languages: `LANG.ftl`, and
/// `LANG/*.ftl`, in name order.
fn ftl_files(dir: &Path) -> std::io::Result<Vec<(String, std::path::PathBuf)>> {
    let mut files = Vec::new();
    for entry in sorted(dir)? {
        let path = entry.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let kind = entry.file_type()?;
        if kind.is_dir() {
            for inner in sorted(&path)? {
                let inner = inner.path();
                if inner.extension().is_some_and(|e| e == "ftl") && inner.is_file() {
                    files.push((name.to_owned(), inner));
                }
            }
        } else if let Some(language) = name.strip_suffix(".ftl") {
            if kind.is_file() {
                files.push((language.to_owned(), path.clone()));
            }
        }
    }
    Ok(files)
}

/// `dir`'s entries, in name order.
fn sorted(dir: &Path) -> std::io::Result<Vec<std::fs::DirEntry>> {
    let mut entries = std::fs::read_dir(dir)?.collect::<Result<Vec<_>, _>>()?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    Ok(entries)
}

/// `path`'s text, counted into `total`, which may not pass
/// [`MAX_FLUENT_BYTES`].
fn read_bounded(path: &Path, total: &mut usize) -> std::io::Result<String> {
    use std::io::Read as _;
    let left = MAX_FLUENT_BYTES.saturating_sub(*total);
    let mut text = String::new();
    std::fs::File::open(path)?
        .take(left as u64 + 1)
        .read_to_string(&mut text)?;
    if text.len() > left {
        return Err(std::io::Error::other(format!(
            "{}: the Fluent files hold more than {MAX_FLUENT_BYTES} bytes",
            path.display()
        )));
    }
    *total += text.len();
    Ok(text)
}

#[cfg(test)]
mod tests;
