//! A catalog that changes while serving: prompts added, replaced, removed,
//! enabled and disabled through a [`Prompts`] handle. Each change builds a
//! new immutable set (its listing serialized once) and swaps it in; readers
//! never wait for writers. Sessions are told with one
//! `notifications/prompts/list_changed` per burst of changes.
//!
//! A skill's prompt yields: while a prompt that does not yield (a prompt
//! file's, a compiled one) has its name, it is kept but not served, and
//! served again once that name is free, so the winner of a name never
//! depends on which was loaded first.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arc_swap::ArcSwap;
use tokio::sync::mpsc;

use super::ServedLanguages;
use super::{AnyPrompt, CatalogSnapshot, TagFilter};
use crate::context::{Audience, Outbound};
use crate::dynamic::DynamicPrompt;
use crate::error::{BuildError, Escaped};
#[cfg(feature = "files")]
use crate::protocol::language::Language;
use crate::protocol::to_client::ToClient;
use crate::sync::lock;

/// How long a burst of changes may last and still be announced once.
const COALESCE: Duration = Duration::from_millis(50);

/// The served set, and what a change needs.
pub(crate) struct LiveCatalog {
    served: ArcSwap<CatalogSnapshot>,
    /// Every prompt that can be served.
    sources: Mutex<Vec<Source>>,
    page_size: usize,
    /// Which prompts are served, of those added too.
    tags: TagFilter,
    /// Who hears of changes.
    audience: Audience,
    announcing: AtomicBool,
    /// The default language, and the translations a `#[prompt]` added
    /// later is given.
    languages: ServedLanguages,
}

/// A prompt that can be served.
#[derive(Clone)]
struct Source {
    prompt: AnyPrompt,
    /// Not disabled.
    on: bool,
    /// Kept but not served while a prompt that does not yield has its
    /// name: a skill's prompt, which gives way to a prompt file's or a
    /// compiled one.
    yields: bool,
}

impl Source {
    fn new(prompt: AnyPrompt, yields: bool) -> Self {
        Self {
            prompt,
            on: true,
            yields,
        }
    }

    fn same_as(&self, other: &Self) -> bool {
        self.prompt.same_as(&other.prompt) && self.on == other.on && self.yields == other.yields
    }
}

/// Each yielding source that a source which does not yield keeps from
/// being served, with that source: their places in `sources`.
fn shadowed(sources: &[Source]) -> Vec<(usize, usize)> {
    let mut holders = HashMap::new();
    for (at, source) in sources.iter().enumerate().filter(|(_, s)| !s.yields) {
        holders.entry(source.prompt.name()).or_insert(at);
    }
    let yielding = sources.iter().enumerate().filter(|(_, s)| s.yields);
    yielding
        .filter_map(|(at, source)| {
            holders
                .get(source.prompt.name())
                .map(|&holder| (at, holder))
        })
        .collect()
}

/// The warning of a shadowed source: where it is defined, that it is not
/// served, and where the prompt that has its name is defined.
fn shadowed_text(sources: &[Source], (at, holder): (usize, usize)) -> String {
    let prompt = &sources[at].prompt;
    format!(
        "{}: the prompt `{}` is not served: {} has that name",
        prompt.location(),
        prompt.name(),
        sources[holder].prompt.location()
    )
}

impl LiveCatalog {
    pub(crate) fn new(
        served: CatalogSnapshot,
        tags: TagFilter,
        page_size: usize,
        languages: ServedLanguages,
    ) -> Self {
        let sources = served
            .prompts()
            .map(|p| Source::new(p.clone(), false))
            .collect();
        Self {
            served: ArcSwap::from_pointee(served),
            sources: Mutex::new(sources),
            page_size,
            tags,
            audience: Audience::default(),
            announcing: AtomicBool::new(false),
            languages,
        }
    }

    /// The set being served now; a request keeps the one it started with.
    pub(crate) fn snapshot(&self) -> arc_swap::Guard<Arc<CatalogSnapshot>> {
        self.served.load()
    }

    /// Tells this session of every change from now on.
    pub(crate) fn listen(&self, outbound: &Outbound) {
        self.audience.listen(outbound);
    }

    /// A `subscriptions/listen` stream: woken once per announced change.
    pub(crate) fn subscribe(&self) -> mpsc::Receiver<()> {
        self.audience.subscribe()
    }

    /// The warning of each yielding prompt kept from being served now,
    /// naming where it and the prompt that has its name are defined.
    pub(crate) fn shadowed(&self) -> Vec<String> {
        let sources = lock(&self.sources);
        let shadowed = shadowed(&sources);
        shadowed
            .into_iter()
            .map(|pair| shadowed_text(&sources, pair))
            .collect()
    }

    /// Applies `change` to the sources, then serves and announces the
    /// result; a change that leaves an invalid set is undone and refused.
    /// A yielding prompt newly kept from being served is logged, naming
    /// the prompt that has its name.
    fn change<T>(
        self: &Arc<Self>,
        change: impl FnOnce(&mut Vec<Source>) -> T,
    ) -> Result<T, BuildError> {
        let mut sources = lock(&self.sources);
        let mut next = sources.clone();
        let outcome = change(&mut next);
        let same = next.len() == sources.len()
            && next.iter().zip(sources.iter()).all(|(a, b)| a.same_as(b));
        if same {
            return Ok(outcome);
        }
        let shadowed_next = shadowed(&next);
        let set_aside: HashSet<usize> = shadowed_next.iter().map(|&(at, _)| at).collect();
        let enabled = next
            .iter()
            .enumerate()
            .filter(|(at, source)| source.on && !set_aside.contains(at))
            .map(|(_, source)| source.prompt.clone());
        let words = self.languages.words();
        let served = CatalogSnapshot::build(enabled, &self.tags, self.page_size, words)?;
        // A prompt set aside that changed (a skill's, edited) is no news.
        let news = {
            let old = self.served.load();
            old.len() != served.len()
                || !old
                    .prompts()
                    .zip(served.prompts())
                    .all(|(a, b)| a.same_as(b))
        };
        self.served.store(Arc::new(served));
        let before: HashSet<String> = (shadowed(&sources).into_iter())
            .map(|pair| shadowed_text(&sources, pair))
            .collect();
        for pair in shadowed_next {
            let text = shadowed_text(&next, pair);
            if !before.contains(&text) {
                tracing::warn!("{}", Escaped::new(&text));
            }
        }
        *sources = next;
        drop(sources);
        if news {
            self.announce();
        }
        Ok(outcome)
    }

    /// One `list_changed` for every change within [`COALESCE`]. With no
    /// session or subscription yet, nobody has seen the list: nothing is
    /// sent (prompts loaded at startup are not news).
    fn announce(self: &Arc<Self>) {
        let nobody = self.audience.is_empty();
        if nobody || self.announcing.swap(true, Ordering::AcqRel) {
            return;
        }
        let live = Arc::clone(self);
        // A thread, not a task: changes may come from anywhere, runtime or not.
        std::thread::spawn(move || {
            std::thread::sleep(COALESCE);
            live.announcing.store(false, Ordering::Release);
            live.audience
                .announce(|| ToClient::PromptsListChanged { subscription: None });
        });
    }
}

/// The application's handle on a live catalog
/// ([`Server::build_live`](crate::Server::build_live)): cheap to clone,
/// usable from any thread or task. Each change is served to requests that
/// start after it and announced to connected clients.
///
/// ```
/// use mcp_prompts::{Server, prompt};
///
/// /// Say hello
/// #[prompt]
/// fn hello() -> String {
///     "Hello!".into()
/// }
///
/// /// Say goodbye
/// #[prompt]
/// fn goodbye() -> String {
///     "Goodbye!".into()
/// }
///
/// let (service, prompts) = Server::new("greeter", "1.0")
///     .prompts([hello::PROMPT])
///     .build_live()?;
/// prompts.add(goodbye::PROMPT)?;
/// prompts.disable("hello");
/// assert_eq!(service.prompt_count(), 1);
/// # Ok::<(), mcp_prompts::BuildError>(())
/// ```
#[derive(Clone)]
pub struct Prompts(Arc<LiveCatalog>);

impl Prompts {
    /// The handle on `live`, for the server that serves it.
    pub(crate) fn new(live: Arc<LiveCatalog>) -> Self {
        Self(live)
    }

    /// Serves `prompt` too (a `#[prompt]`'s `PROMPT` or a
    /// [`DynamicPrompt`](crate::DynamicPrompt)); an error if its name is
    /// taken (or the prompt is invalid), and nothing changes. A prompt the
    /// server's tags leave out ([`Server::only_tags`](crate::Server::only_tags))
    /// is not served, and nothing changes either.
    pub fn add(&self, prompt: impl Into<AnyPrompt>) -> Result<(), BuildError> {
        let prompt = self.0.languages.admit(prompt.into())?;
        if !self.0.tags.admits(&prompt) {
            return Ok(());
        }
        self.0.change(|sources| {
            // The same prompt again is already there.
            if !sources
                .iter()
                .any(|s| !s.yields && s.prompt.same_as(&prompt))
            {
                sources.push(Source::new(prompt, false));
            }
        })
    }

    /// Serves `prompt` in place of the prompt of the same name (or adds
    /// it), enabled; one the server's tags leave out changes nothing.
    pub fn replace(&self, prompt: impl Into<AnyPrompt>) -> Result<(), BuildError> {
        let prompt = self.0.languages.admit(prompt.into())?;
        if !self.0.tags.admits(&prompt) {
            return Ok(());
        }
        self.0.change(|sources| {
            // A skill's prompt of that name stays, set aside.
            sources.retain(|s| s.yields || s.prompt.name() != prompt.name());
            sources.push(Source::new(prompt, false));
        })
    }

    /// Stops serving the prompt `name` and forgets it; whether there was
    /// one. (A skill's prompt of that name it kept from being served is
    /// served from now on.)
    pub fn remove(&self, name: &str) -> bool {
        self.0
            .change(|sources| {
                let before = sources.len();
                // The prompts that hold the name: those that do not yield,
                // if any.
                let yielding = !sources.iter().any(|s| !s.yields && s.prompt.name() == name);
                sources.retain(|s| s.prompt.name() != name || s.yields != yielding);
                sources.len() != before
            })
            .unwrap_or(false)
    }

    /// Stops serving the prompt `name` but keeps it, to
    /// [`enable`](Self::enable) again; whether there is one. It keeps its
    /// name too: a skill's prompt of that name stays set aside.
    pub fn disable(&self, name: &str) -> bool {
        self.set_enabled(name, false)
    }

    /// Serves a disabled prompt again; whether there is one.
    pub fn enable(&self, name: &str) -> bool {
        self.set_enabled(name, true)
    }

    /// The tags the server serves (`Server::only_tags`, `without_tags`).
    #[cfg(feature = "registry")]
    pub(crate) fn tag_filter(&self) -> TagFilter {
        self.0.tags.clone()
    }

    /// The server's default language, and its words by language.
    #[cfg(feature = "registry")]
    pub(crate) fn languages(&self) -> ServedLanguages {
        self.0.languages.clone()
    }

    /// The server's default language: a translation into it is never
    /// served.
    #[cfg(feature = "files")]
    pub(crate) fn default_language(&self) -> &Language {
        self.0.languages.default_language()
    }

    /// The names of the prompts served now, in listing order.
    pub fn served(&self) -> Vec<String> {
        self.0
            .snapshot()
            .prompts()
            .map(|prompt| prompt.name().to_owned())
            .collect()
    }

    /// Replaces the prompts of one group (a directory's files) with
    /// `wanted`, in one change: what is served of the group now, and the
    /// prompts left out because another prompt has their name, each with
    /// where that other prompt is defined. Those the server's tags leave
    /// out are neither. A skill's prompt of the same name is no such
    /// prompt: it gives way.
    #[cfg(feature = "files")]
    pub(crate) fn sync_group(
        &self,
        before: &[DynamicPrompt],
        wanted: Vec<DynamicPrompt>,
    ) -> (Vec<DynamicPrompt>, Vec<(DynamicPrompt, String)>) {
        self.sync(before, wanted, false)
    }

    /// `sync_group` for the skills' prompts, which
    /// yield: one whose name a prompt that does not yield has is kept, not
    /// served (and logged, naming both) until that name is free; it is
    /// left out only when another skill's prompt has its name.
    pub(crate) fn sync_yielding_group(
        &self,
        before: &[DynamicPrompt],
        wanted: Vec<DynamicPrompt>,
    ) -> (Vec<DynamicPrompt>, Vec<(DynamicPrompt, String)>) {
        self.sync(before, wanted, true)
    }

    fn sync(
        &self,
        before: &[DynamicPrompt],
        wanted: Vec<DynamicPrompt>,
        yields: bool,
    ) -> (Vec<DynamicPrompt>, Vec<(DynamicPrompt, String)>) {
        let outcome = self.0.change(|sources| {
            let is = |source: &Source, d: &DynamicPrompt| match &source.prompt.0 {
                super::Kind::Dynamic(p) => source.yields == yields && p.same_as(d),
                super::Kind::Macro(_) => false,
            };
            // Prompts still wanted keep their place and whether they are
            // enabled; the others of the group go.
            sources.retain(|source| {
                !before.iter().any(|b| is(source, b)) || wanted.iter().any(|w| is(source, w))
            });
            let (mut served, mut taken) = (Vec::new(), Vec::new());
            let admitted = wanted
                .into_iter()
                .filter(|p| self.0.tags.admits(&p.clone().into()));
            for prompt in admitted {
                if sources.iter().any(|s| is(s, &prompt)) {
                    served.push(prompt);
                } else if let Some(holder) = sources
                    .iter()
                    .find(|s| s.yields == yields && s.prompt.name() == prompt.name())
                {
                    // Only a prompt of the same rank takes a name: one that
                    // yields to this prompt, or that this prompt yields to,
                    // is sorted out when the set is served.
                    taken.push((prompt, holder.prompt.location()));
                } else {
                    sources.push(Source::new(prompt.clone().into(), yields));
                    served.push(prompt);
                }
            }
            (served, taken)
        });
        outcome.unwrap_or_else(|error| {
            let error = Escaped::new(&error.to_string()).to_string();
            tracing::error!(%error, "prompt files could not be served");
            (before.to_vec(), Vec::new())
        })
    }

    fn set_enabled(&self, name: &str, enabled: bool) -> bool {
        self.0
            .change(|sources| {
                // The prompt that holds the name: one that does not yield,
                // if any.
                let found = (sources.iter_mut())
                    .filter(|s| s.prompt.name() == name)
                    .min_by_key(|s| s.yields);
                found.map(|s| s.on = enabled).is_some()
            })
            .unwrap_or(false)
    }
}

impl std::fmt::Debug for Prompts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Prompts").field(&self.served()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prompt(name: &str, origin: &str) -> DynamicPrompt {
        let builder = DynamicPrompt::builder(name).origin(origin).template("x");
        builder.build().unwrap()
    }

    fn origins(prompts: &Prompts) -> Vec<String> {
        let snapshot = prompts.0.snapshot();
        snapshot.prompts().map(AnyPrompt::location).collect()
    }

    /// A prompt file's prompt (`sync(.., false)`, what `sync_group`
    /// does) against a skill's.
    #[test]
    fn a_yielding_prompt_gives_its_name_away_whatever_came_first() {
        for skill_first in [true, false] {
            let empty = CatalogSnapshot::build(
                [],
                &TagFilter::default(),
                0,
                &crate::catalog::WordsTable::default(),
            )
            .unwrap();
            let live = Arc::new(LiveCatalog::new(
                empty,
                TagFilter::default(),
                0,
                ServedLanguages::apart(),
            ));
            let prompts = Prompts::new(live);
            let skill = vec![prompt("git.commit", "skill://git/commit/SKILL.md")];
            let file = vec![prompt("git.commit", "git/commit.md")];
            let (skills, files) = if skill_first {
                let (skills, taken) = prompts.sync_yielding_group(&[], skill);
                assert!(taken.is_empty());
                let (files, taken) = prompts.sync(&[], file, false);
                assert!(taken.is_empty());
                (skills, files)
            } else {
                let (files, _) = prompts.sync(&[], file, false);
                let (skills, taken) = prompts.sync_yielding_group(&[], skill);
                assert!(taken.is_empty());
                (skills, files)
            };
            assert_eq!(origins(&prompts), ["git/commit.md"], "{skill_first}");
            assert_eq!(
                prompts.0.shadowed(),
                [
                    "skill://git/commit/SKILL.md: the prompt `git.commit` is not served: \
                  git/commit.md has that name"
                ]
            );
            // The skill's prompt reloaded: still set aside.
            let again = vec![prompt("git.commit", "skill://git/commit/SKILL.md")];
            prompts.sync_yielding_group(&skills, again);
            assert_eq!(origins(&prompts), ["git/commit.md"]);
            // A second skill's prompt of that name is a problem of its own.
            let twin = vec![prompt("git.commit", "skill://git.commit/SKILL.md")];
            let (_, taken) = prompts.sync_yielding_group(&[], twin);
            assert_eq!(taken.len(), 1);
            // The name free again: the skill's prompt is served.
            prompts.sync(&files, Vec::new(), false);
            assert_eq!(origins(&prompts), ["skill://git/commit/SKILL.md"]);
            assert!(prompts.0.shadowed().is_empty());
            // A compiled or run-time prompt added later wins too, and
            // `remove` takes it, not the skill's.
            prompts.add(prompt("git.commit", "run time")).unwrap();
            assert_eq!(origins(&prompts), ["run time"]);
            assert!(prompts.remove("git.commit"));
            assert_eq!(origins(&prompts), ["skill://git/commit/SKILL.md"]);
        }
    }
}
