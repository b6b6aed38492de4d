//! A catalog that changes while serving: prompts added, replaced, removed,
//! enabled and disabled through a [`Prompts`] handle. Each change builds a
//! new immutable set (its listing serialized once) and swaps it in; readers
//! never wait for writers. Sessions are told with one
//! `notifications/prompts/list_changed` per burst of changes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arc_swap::ArcSwap;
use tokio::sync::mpsc;

use super::{AnyPrompt, CatalogSnapshot, TagFilter};
use crate::context::{Audience, Outbound};
use crate::dynamic::DynamicPrompt;
use crate::error::{BuildError, Escaped};
use crate::protocol::to_client::ToClient;
use crate::sync::lock;

/// How long a burst of changes may last and still be announced once.
const COALESCE: Duration = Duration::from_millis(50);

/// The served set, and what a change needs.
pub(crate) struct LiveCatalog {
    served: ArcSwap<CatalogSnapshot>,
    /// Every prompt that can be served, and whether it is now.
    sources: Mutex<Vec<(AnyPrompt, bool)>>,
    page_size: usize,
    /// Which prompts are served, of those added too.
    tags: TagFilter,
    /// Who hears of changes.
    audience: Audience,
    announcing: AtomicBool,
}

impl LiveCatalog {
    pub(crate) fn new(served: CatalogSnapshot, tags: TagFilter, page_size: usize) -> Self {
        let sources = served.prompts().map(|p| (p.clone(), true)).collect();
        Self {
            served: ArcSwap::from_pointee(served),
            sources: Mutex::new(sources),
            page_size,
            tags,
            audience: Audience::default(),
            announcing: AtomicBool::new(false),
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

    /// Applies `change` to the sources, then serves and announces the
    /// result; a change that leaves an invalid set is undone and refused.
    fn change<T>(
        self: &Arc<Self>,
        change: impl FnOnce(&mut Vec<(AnyPrompt, bool)>) -> T,
    ) -> Result<T, BuildError> {
        let mut sources = lock(&self.sources);
        let mut next = sources.clone();
        let outcome = change(&mut next);
        let same = next.len() == sources.len()
            && next
                .iter()
                .zip(sources.iter())
                .all(|((a, on_a), (b, on_b))| a.same_as(b) && on_a == on_b);
        if same {
            return Ok(outcome);
        }
        let enabled = next
            .iter()
            .filter(|(_, on)| *on)
            .map(|(prompt, _)| prompt.clone());
        let served = CatalogSnapshot::build(enabled, &self.tags, self.page_size)?;
        self.served.store(Arc::new(served));
        *sources = next;
        drop(sources);
        self.announce();
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
        let prompt = prompt.into();
        if !self.0.tags.admits(&prompt) {
            return Ok(());
        }
        self.0.change(|sources| {
            // The same prompt again is already there.
            if !sources.iter().any(|(p, _)| p.same_as(&prompt)) {
                sources.push((prompt, true));
            }
        })
    }

    /// Serves `prompt` in place of the prompt of the same name (or adds
    /// it), enabled; one the server's tags leave out changes nothing.
    pub fn replace(&self, prompt: impl Into<AnyPrompt>) -> Result<(), BuildError> {
        let prompt = prompt.into();
        if !self.0.tags.admits(&prompt) {
            return Ok(());
        }
        self.0.change(|sources| {
            sources.retain(|(served, _)| served.name() != prompt.name());
            sources.push((prompt, true));
        })
    }

    /// Stops serving the prompt `name` and forgets it; whether there was one.
    pub fn remove(&self, name: &str) -> bool {
        self.0
            .change(|sources| {
                let before = sources.len();
                sources.retain(|(prompt, _)| prompt.name() != name);
                sources.len() != before
            })
            .unwrap_or(false)
    }

    /// Stops serving the prompt `name` but keeps it, to
    /// [`enable`](Self::enable) again; whether there is one.
    pub fn disable(&self, name: &str) -> bool {
        self.set_enabled(name, false)
    }

    /// Serves a disabled prompt again; whether there is one.
    pub fn enable(&self, name: &str) -> bool {
        self.set_enabled(name, true)
    }

    /// The names of the prompts served now, in listing order.
    pub fn served(&self) -> Vec<String> {
        self.0
            .snapshot()
            .prompts()
            .map(|prompt| prompt.name().to_owned())
            .collect()
    }

    /// Replaces the prompts of one group (a directory's files, the
    /// skills' prompts) with `wanted`, in one change: what is served of
    /// the group now, and the prompts left out because another prompt has
    /// their name, each with where that other prompt is defined. Those the
    /// server's tags leave out are neither.
    pub(crate) fn sync_group(
        &self,
        before: &[DynamicPrompt],
        wanted: Vec<DynamicPrompt>,
    ) -> (Vec<DynamicPrompt>, Vec<(DynamicPrompt, String)>) {
        let outcome = self.0.change(|sources| {
            let is = |prompt: &AnyPrompt, d: &DynamicPrompt| match &prompt.0 {
                super::Kind::Dynamic(p) => p.same_as(d),
                super::Kind::Macro(_) => false,
            };
            // Prompts still wanted keep their place and whether they are
            // enabled; the others of the group go.
            sources.retain(|(prompt, _)| {
                !before.iter().any(|b| is(prompt, b)) || wanted.iter().any(|w| is(prompt, w))
            });
            let (mut served, mut taken) = (Vec::new(), Vec::new());
            let admitted = wanted
                .into_iter()
                .filter(|p| self.0.tags.admits(&p.clone().into()));
            for prompt in admitted {
                if sources.iter().any(|(p, _)| is(p, &prompt)) {
                    served.push(prompt);
                } else if let Some((holder, _)) =
                    sources.iter().find(|(p, _)| p.name() == prompt.name())
                {
                    taken.push((prompt, holder.location()));
                } else {
                    sources.push((prompt.clone().into(), true));
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
                let found = sources.iter_mut().find(|(prompt, _)| prompt.name() == name);
                found.map(|(_, on)| *on = enabled).is_some()
            })
            .unwrap_or(false)
    }
}

impl std::fmt::Debug for Prompts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Prompts").field(&self.served()).finish()
    }
}
