//! A prompt file as a registry keeps it: its path in its folder, its text,
//! and the files it reads (the icon file it names, the partials it
//! includes). It is read again anywhere, with no folder, exactly as the
//! folder's loader read it.

use std::fmt::Write as _;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::dotprompt::Partials;
use super::front_matter::{IconFile, is_uri};
use super::kind::FileKind;
use super::kind::has_suffix;
use super::matter::Matter;
use super::translations::looks_translated;
use super::{FileProblem, problem, read_prompt};
use crate::dynamic::{DynamicPrompt, translation_mismatch};
use crate::protocol::language::Language;
use mcp_prompts_template::rules;

/// The most bytes of a stored prompt's text, and of each file it reads:
/// what a prompt folder serves of one file.
pub(crate) const MAX_FILE_BYTES: u64 = super::DEFAULT_MAX_FILE_BYTES;

/// The most files one stored prompt reads (partials and an icon).
pub(crate) const MAX_FILES: usize = 64;

/// The most bytes of one stored prompt's files together.
pub(crate) const MAX_FILES_BYTES: usize = 4 << 20;

/// A prompt file and the files it reads, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StoredPrompt {
    /// Relative to its folder, `/`-separated: its kind and default name
    /// follow from it (`git/commit.md`).
    path: String,
    text: String,
    /// Each file it reads, by its path in the folder, in path order.
    files: Vec<(String, Vec<u8>)>,
}

impl StoredPrompt {
    /// The prompt file at `path` holding `text`, which reads `files`.
    pub(crate) fn new(path: String, text: String, mut files: Vec<(String, Vec<u8>)>) -> Self {
        files.sort_by(|a, b| a.0.cmp(&b.0));
        files.dedup_by(|a, b| a.0 == b.0);
        Self { path, text, files }
    }

    /// Its path in its folder.
    pub(crate) fn path(&self) -> &str {
        &self.path
    }

    /// The file's text.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    /// The files it reads, by path.
    pub(crate) fn files(&self) -> &[(String, Vec<u8>)] {
        &self.files
    }

    /// What makes it more than a registry keeps of one version, if
    /// anything: a text or file past [`MAX_FILE_BYTES`], more than
    /// [`MAX_FILES`] files, or more than [`MAX_FILES_BYTES`] of them.
    pub(crate) fn past_bounds(&self) -> Option<String> {
        let limit = usize::try_from(MAX_FILE_BYTES).unwrap_or(usize::MAX);
        if self.text.len() > limit {
            return Some(format!("its text has more than {limit} bytes"));
        }
        if self.files.len() > MAX_FILES {
            return Some(format!("it reads more than {MAX_FILES} files"));
        }
        if let Some((path, _)) = self.files.iter().find(|(_, bytes)| bytes.len() > limit) {
            return Some(format!(
                "its file `{}` has more than {limit} bytes",
                path.escape_debug()
            ));
        }
        let total: usize = self.files.iter().map(|(_, bytes)| bytes.len()).sum();
        (total > MAX_FILES_BYTES)
            .then(|| format!("its files have more than {MAX_FILES_BYTES} bytes together"))
    }

    /// The bytes of its text and files.
    pub(crate) fn size(&self) -> usize {
        let files = self
            .files
            .iter()
            .map(|(path, bytes)| path.len() + bytes.len());
        self.path.len() + self.text.len() + files.sum::<usize>()
    }

    /// `sha256:` and the hex digest of everything it is: path, text and
    /// files, each length-prefixed, so that no two contents share one.
    pub(crate) fn digest(&self) -> String {
        let mut hash = Sha256::new();
        let mut part = |bytes: &[u8]| {
            hash.update((bytes.len() as u64).to_be_bytes());
            hash.update(bytes);
        };
        part(self.path.as_bytes());
        part(self.text.as_bytes());
        for (path, bytes) in &self.files {
            part(path.as_bytes());
            part(bytes);
        }
        let digest = hash.finalize();
        let mut text = String::from("sha256:");
        for byte in digest {
            let _ = write!(text, "{byte:02x}");
        }
        text
    }

    /// Its prompt, read as its folder's loader reads it, with the
    /// translations stored beside it (`review.fr.md` beside `review.md`)
    /// joined to it; `origin` names it in messages
    /// (`registry#production: review@3`).
    pub(crate) fn read(&self, origin: &str) -> Result<DynamicPrompt, FileProblem> {
        let prompt = self.read_default(origin)?;
        let at = Path::new(origin);
        // The files it reads besides its translations (an icon), which a
        // translation may name too.
        let read: Vec<(String, Vec<u8>)> = (self.files.iter())
            .filter(|(path, _)| !has_suffix(path, ".md"))
            .cloned()
            .collect();
        let mut joined: Vec<(Language, DynamicPrompt)> = Vec::new();
        for (path, bytes) in self
            .files
            .iter()
            .filter(|(path, _)| has_suffix(path, ".md"))
        {
            let text = std::str::from_utf8(bytes)
                .map_err(|_| problem(at, None, format!("`{path}` is not UTF-8 text")))?;
            let translation = StoredPrompt::new(path.clone(), text.to_owned(), read.clone())
                .read_default(&format!("{origin} ({path})"))?;
            let translates = looks_translated(Path::new(path), translation.name());
            let Some((_, language)) = translates.filter(|(base, _)| base == prompt.name()) else {
                let message = format!("`{path}` is stored with it but is no translation of it");
                return Err(problem(at, None, message));
            };
            let translation = translation.renamed(prompt.name());
            if joined.iter().any(|(own, _)| *own == language) {
                let message = format!("a second `{language}` translation: `{path}`");
                return Err(problem(at, None, message));
            }
            if let Some(why) = translation_mismatch(&prompt, &translation) {
                let message = format!("the `{language}` translation `{path}`: {why}");
                return Err(problem(at, None, message));
            }
            joined.push((language, translation));
        }
        Ok(if joined.is_empty() {
            prompt
        } else {
            prompt.with_translations(joined)
        })
    }

    /// Its own prompt, its translations aside.
    fn read_default(&self, origin: &str) -> Result<DynamicPrompt, FileProblem> {
        let at = Path::new(origin);
        let kind = FileKind::of(&self.path, &self.text);
        let matter = Matter::read(kind, &self.text, origin);
        let icon = matter.icon().filter(|icon| !is_uri(icon)).map(|icon| {
            let stored = self.files.iter().find(|(path, _)| path == icon);
            let bytes = match stored {
                None => Err(format!("`{icon}` is not stored with the prompt")),
                // As a folder's icon file past the bound is refused.
                Some((_, bytes)) if bytes.len() as u64 > rules::MAX_ICON_BYTES as u64 => Err(
                    format!("`{icon}` is larger than {} bytes", rules::MAX_ICON_BYTES),
                ),
                Some((_, bytes)) => Ok(bytes.clone()),
            };
            IconFile {
                path: icon.to_owned(),
                bytes,
            }
        });
        let texts: Vec<(&str, &str)> = (self.files.iter())
            .filter_map(|(path, bytes)| Some((path.as_str(), std::str::from_utf8(bytes).ok()?)))
            .collect();
        let partials = Partials::read(texts);
        let loaded = read_prompt(
            at,
            &self.path,
            (&self.text, matter),
            icon.as_ref(),
            &partials,
        )
        .map_err(|broken| problem(at, broken.line, broken.message))?;
        loaded
            .prompt
            .ok_or_else(|| problem(at, None, "a partial is not a prompt".to_owned()))
    }
}
