//! Prompt files in other languages: `NAME.LANG.md` beside `NAME.md`
//! (`review.fr.md`, `review.de-CH.md`, `git/commit.fr.md`; VS Code's
//! `review.fr.prompt.md`) is that prompt's translation. `LANG` is in the
//! file's own name (a folder never makes one), and is a registered
//! language of two letters with its script, region or variant: a word
//! such as `short` or `api` in a name stays a name. dotprompt files are
//! left out: their `name.variant.prompt` already names a variant. A file
//! is a translation only when its default stands beside it; alone it
//! stays the prompt it is named for, with a warning.

#[cfg(feature = "registry")]
use std::collections::HashMap;
use std::collections::HashSet;
use std::path::PathBuf;

use super::kind::has_suffix;
use crate::dynamic::DynamicPrompt;
use crate::protocol::language::Language;

/// What is said of one file: its path and the message.
pub(super) type Note = (PathBuf, String);

/// The defaults as served, with the problems (a translation whose
/// arguments differ) and the warnings (one with no default beside it).
pub(super) type Gathered = (Vec<(PathBuf, DynamicPrompt)>, Vec<Note>, Vec<Note>);

/// The prompts translations were attached to, kept between reloads so that
/// an unchanged set gives the very prompt it gave (and nothing is
/// announced).
#[derive(Default)]
pub(super) struct Joined {
    kept: Vec<(Vec<DynamicPrompt>, DynamicPrompt)>,
    /// The files of the translations joined, by the name of their
    /// default: what a registry stores with it.
    #[cfg(feature = "registry")]
    files: HashMap<String, Vec<PathBuf>>,
}

/// A default prompt of the folder, its file, and its translations found so
/// far.
type Default = (PathBuf, DynamicPrompt, Vec<(Language, DynamicPrompt)>);

/// What a file named `path` serving `name` translates, if it looks like a
/// translation: the name it translates and the language. The language is
/// the last dotted part of the file's own name, which the prompt's name
/// ends with (a name its front matter gives is no translation's).
pub(super) fn looks_translated(path: &std::path::Path, name: &str) -> Option<(String, Language)> {
    let file = path.file_name()?.to_str()?;
    let stem = [".prompt.md", ".md"]
        .iter()
        .find(|suffix| has_suffix(file, suffix))
        .map(|suffix| &file[..file.len() - suffix.len()])?;
    let (own, tag) = stem.rsplit_once('.')?;
    let base = name.strip_suffix(tag)?.strip_suffix('.')?;
    let language = Language::in_file_name(tag)?;
    (!own.is_empty() && !base.is_empty()).then(|| (base.to_owned(), language))
}

impl Joined {
    /// The files of the translations joined to the prompt `name`.
    #[cfg(feature = "registry")]
    pub(super) fn translation_files(&self, name: &str) -> &[PathBuf] {
        self.files.get(name).map_or(&[], Vec::as_slice)
    }

    /// Whether `served` is `default` with its translations joined to it.
    #[cfg(feature = "registry")]
    pub(super) fn joins(&self, default: &DynamicPrompt, served: &DynamicPrompt) -> bool {
        (self.kept.iter()).any(|(key, joined)| key[0].same_as(default) && joined.same_as(served))
    }

    /// The folder's `candidates` (path order, each name once) with every
    /// translation attached to its default.
    /// A translation into `default`, the server's default language, is
    /// not attached: the default's own file is that language's.
    pub(super) fn join(
        &mut self,
        candidates: Vec<(PathBuf, DynamicPrompt)>,
        default_language: &Language,
    ) -> Gathered {
        let names: HashSet<String> = candidates
            .iter()
            .map(|(_, p)| p.name().to_owned())
            .collect();
        let mut defaults: Vec<Default> = Vec::new();
        let mut translations = Vec::new();
        let (mut problems, mut warnings) = (Vec::new(), Vec::new());
        for (path, prompt) in candidates {
            match looks_translated(&path, prompt.name()) {
                Some((base, language)) if names.contains(&base) => {
                    translations.push((path, base, language, prompt));
                }
                Some((base, language)) => {
                    warnings.push((
                        path.clone(),
                        format!(
                            "`{}` looks like the `{language}` translation of `{base}`, but no `{base}` is beside it: served as a prompt of its own",
                            prompt.name()
                        ),
                    ));
                    defaults.push((path, prompt, Vec::new()));
                }
                None => defaults.push((path, prompt, Vec::new())),
            }
        }
        #[cfg(feature = "registry")]
        self.files.clear();
        let mut orphans = Vec::new();
        for (path, base, language, prompt) in translations {
            let Some((_, default, joined)) = defaults.iter_mut().find(|(_, p, _)| p.name() == base)
            else {
                // Its default is a translation itself (`a.fr.de.md`).
                warnings.push((
                    path.clone(),
                    format!(
                        "`{}` looks like the `{language}` translation of `{base}`, itself a translation: served as a prompt of its own",
                        prompt.name()
                    ),
                ));
                orphans.push((path, prompt, Vec::new()));
                continue;
            };
            if language == *default_language {
                warnings.push((
                    path,
                    format!(
                        "`{language}` is the server's default language, which `{base}`'s own file is in: this translation is not served"
                    ),
                ));
                continue;
            }
            if joined.iter().any(|(own, _)| *own == language) {
                problems.push((
                    path,
                    format!("a second `{language}` translation of `{base}`: the first in name order is served"),
                ));
                continue;
            }
            let renamed = prompt.renamed(&base);
            match crate::dynamic::translation_mismatch(default, &renamed) {
                None => {
                    #[cfg(feature = "registry")]
                    self.files.entry(base).or_default().push(path);
                    joined.push((language, renamed));
                }
                Some(why) => problems.push((
                    path,
                    format!("the `{language}` translation of `{base}`: {why}"),
                )),
            }
        }
        defaults.extend(orphans);
        let mut kept = Vec::with_capacity(defaults.len());
        let mut served = Vec::with_capacity(defaults.len());
        for (path, default, joined) in defaults {
            if joined.is_empty() {
                served.push((path, default));
                continue;
            }
            let mut key = vec![default.clone()];
            key.extend(joined.iter().map(|(_, p)| p.clone()));
            let same = |(k, _): &&(Vec<DynamicPrompt>, DynamicPrompt)| {
                k.len() == key.len() && k.iter().zip(&key).all(|(a, b)| a.same_as(b))
            };
            let prompt = match self.kept.iter().find(same) {
                Some((_, prompt)) => prompt.clone(),
                None => default.with_translations(joined),
            };
            kept.push((key, prompt.clone()));
            served.push((path, prompt));
        }
        self.kept = kept;
        (served, problems, warnings)
    }
}
