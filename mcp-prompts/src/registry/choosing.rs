//! A request's own label or version (`_meta`'s `mcp-prompts/label`,
//! `mcp-prompts/version`): which callers may ask for which labels, and the
//! version found for them, as a set of one prompt to serve.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use arc_swap::ArcSwap;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use super::location::Location;
use crate::caller::Access;
use crate::catalog::{
    CatalogSnapshot, Choice, Chosen, Found, LABEL_META, TagFilter, VERSION_META, Variants,
};
use crate::dynamic::DynamicPrompt;
use crate::sync::lock;

/// The most one-prompt sets kept for requests that choose: past it, they
/// are made again as asked.
const MAX_KEPT: usize = 1024;

/// The labels that only some callers may ask for, each with the scope a
/// caller must hold (`--label-scope staging=prompts:staging`).
#[derive(Clone, Debug, Default)]
pub(crate) struct LabelScopes(HashMap<String, String>);

impl LabelScopes {
    /// `label` asked for only by callers holding `scope`.
    pub(crate) fn limit(&mut self, label: String, scope: String) {
        self.0.insert(label, scope);
    }

    /// Whether a request served under `access` may ask for `label`: the
    /// local user always; a remote caller when the label has no scope or
    /// it holds it.
    pub(crate) fn allows(&self, label: &str, access: &Access) -> bool {
        match (self.0.get(label), access) {
            (None, _) | (_, Access::Local) => true,
            (Some(_), Access::Remote(None)) => false,
            (Some(scope), Access::Remote(Some(caller))) => caller.has_scope(scope),
        }
    }

    /// Whether `access` may ask for every label, and so for any version.
    fn allows_all(&self, access: &Access) -> bool {
        self.0.keys().all(|label| self.allows(label, access))
    }
}

/// Where each label points, and every version a label points at, read.
#[derive(Default)]
pub(crate) struct Held {
    /// Label, then prompt, to version (`latest` too).
    pub(super) pointers: HashMap<String, HashMap<String, u32>>,
    /// Each version a label points at, as its file reads (not stamped).
    pub(super) versions: HashMap<(String, u32), DynamicPrompt>,
}

/// A version not held, asked of the registry's thread: its prompt, if
/// there is one.
pub(crate) type Fetch = (String, u32, oneshot::Sender<Option<DynamicPrompt>>);

/// The requests' view of a served registry.
pub(crate) struct Choosing {
    pub(super) held: ArcSwap<Held>,
    scopes: LabelScopes,
    /// The label the catalog serves.
    served: String,
    fetch: mpsc::Sender<Fetch>,
    sets: Arc<Sets>,
}

/// The one-prompt sets made for requests that choose.
pub(super) struct Sets {
    location: Location,
    /// By label (none for a version asked for by number), prompt and
    /// version: a version never changes.
    kept: Mutex<HashMap<(Option<String>, String, u32), Arc<CatalogSnapshot>>>,
}

impl Choosing {
    pub(super) fn new(
        (location, served): (Location, String),
        scopes: LabelScopes,
        fetch: mpsc::Sender<Fetch>,
    ) -> Self {
        Self {
            held: ArcSwap::default(),
            scopes,
            served,
            fetch,
            sets: Arc::new(Sets {
                location,
                kept: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// The label the catalog serves.
    pub(super) fn served_label(&self) -> &str {
        &self.served
    }

    /// The sets made, and how versions are stamped.
    pub(super) fn sets(&self) -> &Sets {
        &self.sets
    }

    /// Whether a request served under `access` may ask for version
    /// `version` of `name` by number: when it may ask for every label, or
    /// when a label it may ask for points at that version.
    fn may_have(&self, held: &Held, (name, version): (&str, u32), access: &Access) -> bool {
        self.scopes.allows_all(access)
            || held.pointers.iter().any(|(label, points)| {
                points.get(name) == Some(&version) && self.scopes.allows(label, access)
            })
    }
}

impl Sets {
    /// Where a version came from, for messages about it.
    pub(super) fn origin(&self, label: Option<&str>, name: &str, version: u32) -> String {
        match label {
            Some(label) => format!("{}#{label}: {name}@{version}", self.location),
            None => format!("{}: {name}@{version}", self.location),
        }
    }

    /// Version `version` of a prompt as served under `label`: listed
    /// with its version and label in `_meta`.
    pub(super) fn stamp(
        &self,
        prompt: &DynamicPrompt,
        label: Option<&str>,
        version: u32,
    ) -> DynamicPrompt {
        let mut meta = vec![(VERSION_META.to_owned(), Value::from(version))];
        if let Some(label) = label {
            meta.push((LABEL_META.to_owned(), Value::from(label)));
        }
        prompt.stamped(self.origin(label, prompt.name(), version), meta)
    }

    /// The one-prompt set serving `prompt` (version `version`) under
    /// `label`, made once.
    fn set_of(&self, prompt: &DynamicPrompt, label: Option<&str>, version: u32) -> Chosen {
        let key = (label.map(str::to_owned), prompt.name().to_owned(), version);
        if let Some(set) = lock(&self.kept).get(&key) {
            return Some(Arc::clone(set));
        }
        let stamped = self.stamp(prompt, label, version);
        let set = CatalogSnapshot::build([stamped.into()], &TagFilter::default(), 0).ok()?;
        let set = Arc::new(set);
        let mut kept = lock(&self.kept);
        if kept.len() >= MAX_KEPT {
            kept.clear();
        }
        kept.insert(key, Arc::clone(&set));
        Some(set)
    }
}

impl Variants for Choosing {
    fn find(&self, name: &str, choice: &Choice, access: &Access) -> Found {
        let held = self.held.load();
        match choice {
            Choice::Label(label) => {
                if !self.scopes.allows(label, access) {
                    return Found::Now(None);
                }
                let version = held.pointers.get(label).and_then(|p| p.get(name));
                let prompt =
                    version.and_then(|&v| Some((held.versions.get(&(name.to_owned(), v))?, v)));
                Found::Now(prompt.and_then(|(prompt, v)| self.sets.set_of(prompt, Some(label), v)))
            }
            Choice::Version(version) => {
                let version = *version;
                if !self.may_have(&held, (name, version), access) {
                    return Found::Now(None);
                }
                // Held, whichever label points at it: served by number.
                if let Some(prompt) = held.versions.get(&(name.to_owned(), version)) {
                    return Found::Now(self.sets.set_of(prompt, None, version));
                }
                let key = (None, name.to_owned(), version);
                if let Some(set) = lock(&self.sets.kept).get(&key) {
                    return Found::Now(Some(Arc::clone(set)));
                }
                let (fetch, name) = (self.fetch.clone(), name.to_owned());
                let sets = Arc::clone(&self.sets);
                Found::Later(Box::pin(async move {
                    let (tx, rx) = oneshot::channel();
                    fetch.send((name, version, tx)).await.ok()?;
                    let prompt = rx.await.ok()??;
                    sets.set_of(&prompt, None, version)
                }))
            }
        }
    }
}
