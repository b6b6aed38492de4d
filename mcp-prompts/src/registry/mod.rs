//! A prompt registry (feature `registry`): every published prompt an
//! immutable, numbered version of its prompt file (with the files it
//! reads), labels (`production`, `staging`, a tenant) that point at one
//! version each and move, in SQLite (one file, no server) or PostgreSQL
//! (for replicas). Servers serve the versions a label points at, live:
//! a publish or a label move reaches each within a second or two.
//!
//! [`Registry`] publishes, moves labels and lists versions from code;
//! [`Server::registry`](crate::Server::registry) serves a label; the CLI
//! has `publish`, `label`, `versions` and `serve --registry`. The guide's
//! "Prompt registry" chapter walks the whole pipeline.

mod choosing;
mod location;
mod served;
mod store;

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use crate::catalog::{
    CatalogSnapshot, LiveCatalog, Prompts, ServedLanguages, TagFilter, WordsTable,
};
use crate::files::stored::StoredPrompt;
use crate::files::{FileProblem, PromptDir};
pub(crate) use choosing::LabelScopes;
#[cfg(feature = "cli")]
pub(crate) use location::{DEFAULT_LABEL, name_at_version, split_source, without_password};
pub(crate) use location::{Location, Source, check_label, check_movable};
pub(crate) use served::{ServedRegistry, serve};
use store::Store;

/// Why a registry could not do what was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegistryError {
    /// The URL is not a registry's (`sqlite:PATH`, `postgres://...`).
    Location(String),
    /// The database cannot be reached or failed.
    Database(String),
    /// What was named is not there: a label, a version, a prompt.
    Unknown(String),
    /// What was given cannot be stored: a folder with problems, a label
    /// that is not one.
    Refused(Vec<String>),
}

impl RegistryError {
    pub(crate) fn location(url: &str, why: &str) -> Self {
        let url = location::without_password(url);
        Self::Location(format!("`{}` is not a registry: {why}", url.escape_debug()))
    }

    pub(crate) fn unreachable(location: &Location, err: &dyn fmt::Display) -> Self {
        Self::Database(format!("the registry {location} cannot be reached: {err}"))
    }

    pub(crate) fn database(message: String) -> Self {
        Self::Database(message)
    }

    pub(crate) fn unknown(message: String) -> Self {
        Self::Unknown(message)
    }

    pub(crate) fn refused(message: String) -> Self {
        Self::Refused(vec![message])
    }
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Location(message) | Self::Database(message) | Self::Unknown(message) => {
                f.write_str(message)
            }
            Self::Refused(problems) => f.write_str(&problems.join("\n")),
        }
    }
}

impl std::error::Error for RegistryError {}

/// The longest name recorded as who published or moved a label.
const MAX_AUTHOR: usize = 256;

/// Who publishes or moves a label: at most [`MAX_AUTHOR`] bytes, no
/// control characters.
fn check_author(author: &str) -> Result<(), RegistryError> {
    if author.len() > MAX_AUTHOR || author.chars().any(char::is_control) {
        return Err(RegistryError::refused(format!(
            "the author must be at most {MAX_AUTHOR} bytes, with no control characters"
        )));
    }
    Ok(())
}

/// One version of a prompt, as [`Registry::versions`] lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionInfo {
    name: String,
    version: u32,
    digest: String,
    author: String,
    published_at: String,
    labels: Vec<String>,
}

impl VersionInfo {
    pub(crate) fn new(
        name: String,
        version: i64,
        digest: String,
        author: String,
        published_at: String,
        labels: Vec<String>,
    ) -> Self {
        Self {
            name,
            version: u32::try_from(version).unwrap_or(u32::MAX),
            digest,
            author,
            published_at,
            labels,
        }
    }

    /// The prompt's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its number, from 1.
    pub fn version(&self) -> u32 {
        self.version
    }

    /// `sha256:` and the hex digest of the prompt file and the files it
    /// reads.
    pub fn digest(&self) -> &str {
        &self.digest
    }

    /// Who published it.
    pub fn author(&self) -> &str {
        &self.author
    }

    /// When, in UTC (RFC 3339, `2026-12-06T10:00:00.000Z`), by the
    /// database's clock.
    pub fn published_at(&self) -> &str {
        &self.published_at
    }

    /// The labels that point at it (`latest` first, on the newest).
    pub fn labels(&self) -> &[String] {
        &self.labels
    }
}

/// A prompt as [`Registry::publish_folder`] left it: its version, and
/// whether that version is new.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Published {
    name: String,
    version: u32,
    new: bool,
}

impl Published {
    /// The prompt's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its version now: new, or the one it had when its content had not
    /// changed.
    pub fn version(&self) -> u32 {
        self.version
    }

    /// Whether the publish made that version (its content had changed).
    pub fn is_new(&self) -> bool {
        self.new
    }
}

impl fmt::Display for Published {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}", self.name, self.version)?;
        if !self.new {
            f.write_str(" (unchanged)")?;
        }
        Ok(())
    }
}

/// A registry's database, to publish to, move labels in and list from.
/// Serving is [`Server::registry`](crate::Server::registry)'s.
///
/// ```no_run
/// use mcp_prompts::registry::Registry;
///
/// # async fn run() -> Result<(), mcp_prompts::registry::RegistryError> {
/// let registry = Registry::open("sqlite:prompts.db").await?;
/// for published in registry.publish_folder("prompts", &["staging"], "ci").await? {
///     println!("{published}"); // review@3, or `review@2 (unchanged)`
/// }
/// registry.move_label("review", 3, "production", "ann").await?;
/// for version in registry.versions("review").await? {
///     println!("{}@{} {:?}", version.name(), version.version(), version.labels());
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct Registry {
    store: Store,
    location: Location,
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registry")
            .field("location", &self.location)
            .finish_non_exhaustive()
    }
}

impl Registry {
    /// Connects to the registry at `url` (`sqlite:PATH`, created on first
    /// use; `postgres://USER@HOST/DATABASE`) and creates or migrates its
    /// schema, which needs write access.
    pub async fn open(url: &str) -> Result<Self, RegistryError> {
        let location = Location::parse(url)?;
        let store = Store::connect(&location, true).await?;
        store.migrate().await?;
        Ok(Self { store, location })
    }

    /// Connects to the registry at `url` as it is: no SQLite file made, no
    /// schema change (read access is enough to list; moving labels needs
    /// write access); an error if there is no registry there yet, or one
    /// of an older schema.
    pub async fn open_existing(url: &str) -> Result<Self, RegistryError> {
        let location = Location::parse(url)?;
        let store = Store::connect(&location, false).await?;
        if !store.schema_is_current().await? {
            store.close().await;
            return Err(RegistryError::unknown(format!(
                "the registry {location} holds nothing yet (or an older schema): \
                 `mcp-prompts publish` makes it"
            )));
        }
        Ok(Self { store, location })
    }

    /// Publishes the prompt files of folder `dir` as [`PromptDir`] reads
    /// them: a folder with a problem publishes nothing (the error lists
    /// every problem). Each prompt whose content changed becomes its next
    /// version; `labels` are moved to each prompt's version, new or not;
    /// `author` is recorded with each new version and label move.
    pub async fn publish_folder(
        &self,
        dir: impl AsRef<Path>,
        labels: &[&str],
        author: &str,
    ) -> Result<Vec<Published>, RegistryError> {
        let live = Arc::new(LiveCatalog::new(
            CatalogSnapshot::build([], &TagFilter::default(), 0, &WordsTable::default())
                .map_err(|err| RegistryError::Refused(err.problems().to_vec()))?,
            TagFilter::default(),
            0,
            ServedLanguages::apart(),
        ));
        let dir = dir.as_ref();
        let read = PromptDir::read_once(dir, &Prompts::new(live))
            .map_err(|err| RegistryError::refused(err.to_string()))?;
        let problems = read.problems();
        if !problems.is_empty() {
            return Err(RegistryError::Refused(
                problems.iter().map(FileProblem::to_string).collect(),
            ));
        }
        let labels: Vec<String> = labels.iter().map(|&l| l.to_owned()).collect();
        self.publish(read.stored(), &labels, author).await
    }

    /// Publishes `prompts` (each a prompt's name and its file as stored),
    /// each read again from what is stored first, so that every version
    /// published can be served.
    pub(crate) async fn publish(
        &self,
        prompts: Vec<(String, StoredPrompt)>,
        labels: &[String],
        author: &str,
    ) -> Result<Vec<Published>, RegistryError> {
        for label in labels {
            check_movable(label)?;
        }
        check_author(author)?;
        // What a server would not serve is not stored: past the bounds a
        // server reads within, or not reading back as the prompt it is.
        let problems: Vec<String> = (prompts.iter())
            .filter_map(|(name, prompt)| match prompt.past_bounds() {
                Some(past) => Some(format!("{}: {past}", prompt.path())),
                None => match prompt.read(prompt.path()) {
                    Err(problem) => Some(problem.to_string()),
                    Ok(read) if read.name() != name => {
                        Some(format!("{}: it reads as `{}`", prompt.path(), read.name()))
                    }
                    Ok(_) => None,
                },
            })
            .collect();
        if !problems.is_empty() {
            return Err(RegistryError::Refused(problems));
        }
        let published = self.store.publish(&prompts, labels, author).await?;
        Ok(published
            .into_iter()
            .map(|(name, version, new)| Published { name, version, new })
            .collect())
    }

    /// Moves `label` to version `version` of prompt `name` (a rollback is
    /// a move back); `by` is recorded. Every label but `latest` moves.
    pub async fn move_label(
        &self,
        name: &str,
        version: u32,
        label: &str,
        by: &str,
    ) -> Result<(), RegistryError> {
        check_movable(label)?;
        check_author(by)?;
        self.store.move_label((name, version), label, by).await
    }

    /// Takes prompt `name` out of `label`: servers of that label stop
    /// serving it. An error if it was not in it.
    pub async fn remove_label(&self, name: &str, label: &str) -> Result<(), RegistryError> {
        check_movable(label)?;
        if self.store.remove_label(name, label).await? {
            Ok(())
        } else {
            Err(RegistryError::unknown(format!(
                "`{name}` is not in label `{label}`"
            )))
        }
    }

    /// Every version of prompt `name`, oldest first, with its labels; an
    /// error if there is none.
    pub async fn versions(&self, name: &str) -> Result<Vec<VersionInfo>, RegistryError> {
        let versions = self.store.versions(name).await?;
        if versions.is_empty() {
            return Err(RegistryError::unknown(format!(
                "the registry has no prompt `{}`",
                name.escape_debug()
            )));
        }
        Ok(versions)
    }

    /// Where the registry is, its password left out.
    #[cfg(feature = "cli")]
    pub(crate) fn location(&self) -> &Location {
        &self.location
    }

    /// Closes its connections (every clone's: they share them).
    pub async fn close(&self) {
        self.store.close().await;
    }
}
