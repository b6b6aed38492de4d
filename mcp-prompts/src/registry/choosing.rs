//! A request's own label or version (`_meta`'s `mcp-prompts/label`,
//! `mcp-prompts/version`): which callers may ask for which labels, and the
//! version found for them, as a set of one prompt to serve.
//!
//! Only a prompt the catalog serves from the registry can be asked for in
//! another version: a name a folder or a compiled prompt holds, one the
//! server's tags leave out or one disabled is unknown whatever the
//! request's `_meta`. The served label's versions are held; any other is
//! read when first asked for, and kept within a byte budget.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use arc_swap::ArcSwap;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use super::location::Location;
use crate::caller::Access;
use crate::catalog::{
    AnyPrompt, CatalogSnapshot, Choice, Chosen, Found, LABEL_META, ServedLanguages, TagFilter,
    VERSION_META, Variants,
};
use crate::dynamic::DynamicPrompt;
use crate::sync::lock;

/// The bytes of versions (their files' sizes) kept for requests that
/// choose; past it, what is kept is dropped and read again as asked.
const MAX_KEPT_BYTES: usize = 64 << 20;

/// The versions found missing that are remembered until the registry
/// changes; past it, the list starts again.
const MAX_MISSING: usize = 4_096;

/// The labels that only some callers may ask for, each with the scope a
/// caller must hold (`--label-scope staging=prompts:staging`); `*` for
/// every label not named.
#[derive(Clone, Debug, Default)]
pub(crate) struct LabelScopes {
    named: HashMap<String, String>,
    /// The scope of every label not named (`*`), `latest` included.
    others: Option<String>,
}

impl LabelScopes {
    /// `label` (`*`: every label not named) asked for only by callers
    /// holding `scope`.
    pub(crate) fn limit(&mut self, label: String, scope: String) {
        if label == "*" {
            self.others = Some(scope);
        } else {
            self.named.insert(label, scope);
        }
    }

    /// What is wrong with the labels and scopes given, each a sentence.
    pub(crate) fn problems(&self) -> Vec<String> {
        let labels = self.named.iter().map(|(l, s)| (Some(l), s));
        let others = self.others.iter().map(|s| (None, s));
        labels
            .chain(others)
            .filter_map(|(label, scope)| {
                if let Some(Err(err)) = label.map(|l| super::check_label(l)) {
                    return Some(format!("label scope: {err}"));
                }
                let bad = scope.is_empty() || scope.contains(char::is_whitespace);
                bad.then(|| {
                    format!(
                        "label scope `{}`: a scope is one word, no spaces",
                        scope.escape_debug()
                    )
                })
            })
            .collect()
    }

    /// Whether a request served under `access` may ask for `label`: the
    /// local user always; a remote caller when the label has no scope or
    /// it holds it.
    fn allows(&self, label: &str, access: &Access) -> bool {
        let scope = self.named.get(label).or(self.others.as_ref());
        match (scope, access) {
            (None, _) | (_, Access::Local) => true,
            (Some(_), Access::Remote(None)) => false,
            (Some(scope), Access::Remote(Some(caller))) => caller.has_scope(scope),
        }
    }

    /// Whether `access` holds every scope there is, and so may ask for
    /// any version.
    fn allows_all(&self, access: &Access) -> bool {
        let scopes = self.named.values().chain(&self.others);
        match access {
            Access::Local => true,
            Access::Remote(None) => self.named.is_empty() && self.others.is_none(),
            Access::Remote(Some(caller)) => scopes.into_iter().all(|s| caller.has_scope(s)),
        }
    }
}

/// Where each label points, and what the catalog serves of the registry.
#[derive(Default)]
pub(crate) struct LabelView {
    /// Label, then prompt, to version (`latest` too).
    pointers: HashMap<String, HashMap<String, u32>>,
    /// The served label's prompts, as the catalog has them (stamped): while
    /// the catalog changes, those it had before too, so that a request
    /// finds its prompt here whichever it saw.
    served: HashMap<String, Vec<DynamicPrompt>>,
}

impl LabelView {
    /// Where each label points: `(label, prompt, version)` rows.
    pub(super) fn of(rows: Vec<(String, String, u32)>) -> Self {
        let mut held = Self::default();
        for (label, name, version) in rows {
            held.pointers
                .entry(label)
                .or_default()
                .insert(name, version);
        }
        held
    }

    /// The prompts `label` points at, each with its version.
    pub(super) fn points(&self, label: &str) -> Option<&HashMap<String, u32>> {
        self.pointers.get(label)
    }

    /// The same pointers, serving nothing yet.
    pub(super) fn pointers_only(&self) -> Self {
        Self {
            pointers: self.pointers.clone(),
            served: HashMap::new(),
        }
    }

    /// `prompt` is what the catalog serves (or may, while it changes) as
    /// its name.
    pub(super) fn serve(&mut self, prompt: &DynamicPrompt) {
        let name = prompt.name().to_owned();
        self.served.entry(name).or_default().push(prompt.clone());
    }
}

/// What the registry's thread found of a version asked for.
pub(crate) enum Fetched {
    /// Its prompt (as its file reads, not stamped), and its size.
    Found(DynamicPrompt, usize),
    /// There is no such version, or it is not one a server serves.
    Missing,
    /// It could not be read now (the database away, too slow, too many
    /// asked at once): asked again next time.
    Failed,
}

/// A version asked for by a request, asked of the registry's thread, with
/// when it was asked.
pub(crate) type Fetch = (String, u32, std::time::Instant, oneshot::Sender<Fetched>);

/// The requests' view of a served registry.
pub(crate) struct Choosing {
    pub(super) view: ArcSwap<LabelView>,
    scopes: LabelScopes,
    /// The label the catalog serves.
    served: String,
    fetch: mpsc::Sender<Fetch>,
    sets: Arc<Sets>,
}

/// The one-prompt sets made for requests that choose, and how versions
/// are stamped.
pub(super) struct Sets {
    location: Location,
    /// The server's tags: a version they leave out is not served.
    tags: TagFilter,
    /// The server's default language, and its own words by language.
    languages: ServedLanguages,
    kept: Mutex<ChosenSets>,
}

/// A set's key: the label (none for a version asked for by number), the
/// prompt and the version.
type SetKey = (Option<String>, String, u32);

#[derive(Default)]
struct ChosenSets {
    /// By label, prompt and version (a version never changes), each with
    /// its size.
    sets: HashMap<SetKey, (Arc<CatalogSnapshot>, usize)>,
    bytes: usize,
    /// Versions asked for that are not there (or not served).
    missing: HashSet<(String, u32)>,
}

impl Choosing {
    pub(super) fn new(
        (location, served): (Location, String),
        (scopes, (tags, languages)): (LabelScopes, (TagFilter, ServedLanguages)),
        fetch: mpsc::Sender<Fetch>,
    ) -> Self {
        Self {
            view: ArcSwap::default(),
            scopes,
            served,
            fetch,
            sets: Arc::new(Sets {
                location,
                tags,
                languages,
                kept: Mutex::new(ChosenSets::default()),
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
    fn may_have(&self, held: &LabelView, (name, version): (&str, u32), access: &Access) -> bool {
        self.scopes.allows_all(access)
            || held.pointers.iter().any(|(label, points)| {
                points.get(name) == Some(&version) && self.may_ask_for(label, access)
            })
    }

    /// Whether `access` may ask for `label`: the served one always.
    fn may_ask_for(&self, label: &str, access: &Access) -> bool {
        label == self.served || self.scopes.allows(label, access)
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
    /// with its version and label in `_meta`, without a translation into
    /// the server's default language (whose text is the prompt's own).
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
        let prompt = prompt.without_translation(self.languages.default_language());
        prompt.stamped(self.origin(label, prompt.name(), version), meta)
    }

    /// The set made for `key`, if kept.
    fn kept(&self, key: &SetKey) -> Option<Arc<CatalogSnapshot>> {
        lock(&self.kept)
            .sets
            .get(key)
            .map(|(set, _)| Arc::clone(set))
    }

    /// Whether version `key` was found missing since the registry last
    /// changed.
    fn is_missing(&self, key: &(String, u32)) -> bool {
        lock(&self.kept).missing.contains(key)
    }

    /// Forgets the versions found missing: the registry changed.
    pub(super) fn forget_missing(&self) {
        lock(&self.kept).missing.clear();
    }

    /// The one-prompt set serving what was fetched (version `key.2`) under
    /// `key.0`, kept; `None` if there is none, or the server's tags leave
    /// it out (remembered as missing), or it could not be read now.
    fn set_of(&self, key: SetKey, fetched: Fetched) -> Chosen {
        let found = match fetched {
            Fetched::Found(prompt, size) => Some((prompt, size)),
            Fetched::Missing => None,
            Fetched::Failed => return None,
        };
        let made = found.and_then(|(prompt, size)| {
            let stamped = self.stamp(&prompt, key.0.as_deref(), key.2);
            let set =
                CatalogSnapshot::build([stamped.into()], &self.tags, 0, self.languages.words())
                    .ok()?;
            (set.len() == 1).then(|| (Arc::new(set), size))
        });
        let mut kept = lock(&self.kept);
        let Some((set, size)) = made else {
            if kept.missing.len() >= MAX_MISSING {
                kept.missing.clear();
            }
            kept.missing.insert((key.1, key.2));
            return None;
        };
        if kept.bytes.saturating_add(size) > MAX_KEPT_BYTES {
            kept.sets.clear();
            kept.bytes = 0;
        }
        kept.bytes += size;
        kept.sets.insert(key, (Arc::clone(&set), size));
        Some(set)
    }
}

impl Variants for Choosing {
    fn find(&self, served: &AnyPrompt, choice: &Choice, access: &Access) -> Found {
        let held = self.view.load();
        let name = served.name();
        // Only what the catalog serves from the registry, as served now.
        let ours = held.served.get(name).into_iter().flatten();
        if !ours.into_iter().any(|ours| served.is_same_dynamic(ours)) {
            return Found::Now(None);
        }
        let served_version = held.pointers.get(&self.served).and_then(|p| p.get(name));
        let (label, version) = match choice {
            Choice::Label(label) if *label == self.served => return Found::Catalog,
            Choice::Label(label) => {
                if !self.may_ask_for(label, access) {
                    return Found::Now(None);
                }
                let version = held.pointers.get(label).and_then(|p| p.get(name));
                let Some(&version) = version else {
                    return Found::Now(None);
                };
                (Some(label.clone()), version)
            }
            Choice::Version(version) if Some(version) == served_version => return Found::Catalog,
            Choice::Version(version) => {
                if !self.may_have(&held, (name, *version), access) {
                    return Found::Now(None);
                }
                (None, *version)
            }
        };
        let key = (label, name.to_owned(), version);
        if let Some(set) = self.sets.kept(&key) {
            return Found::Now(Some(set));
        }
        if self.sets.is_missing(&(key.1.clone(), version)) {
            return Found::Now(None);
        }
        // Asked of the registry's thread if it has room, never waited for:
        // a flood of such requests finds nothing rather than piling up.
        let (tx, rx) = oneshot::channel();
        let asked = (key.1.clone(), version, std::time::Instant::now(), tx);
        if self.fetch.try_send(asked).is_err() {
            return Found::Now(None);
        }
        let sets = Arc::clone(&self.sets);
        Found::Later(Box::pin(async move {
            let fetched = rx.await.unwrap_or(Fetched::Failed);
            sets.set_of(key, fetched)
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caller::Caller;

    fn remote(scopes: &[&str]) -> Access {
        let caller = Caller::new("c").with_scopes(scopes.iter().copied());
        Access::Remote(Some(Arc::new(caller)))
    }

    #[test]
    fn a_label_is_open_unless_scoped_and_star_scopes_every_other() {
        let mut scopes = LabelScopes::default();
        assert!(scopes.allows("staging", &Access::Remote(None)));
        assert!(scopes.allows_all(&Access::Remote(None)));
        scopes.limit("staging".into(), "s".into());
        assert!(!scopes.allows("staging", &remote(&[])));
        assert!(scopes.allows("staging", &remote(&["s"])));
        assert!(scopes.allows("latest", &remote(&[])));
        assert!(!scopes.allows_all(&remote(&[])));
        scopes.limit("*".into(), "all".into());
        assert!(!scopes.allows("latest", &remote(&["s"])));
        assert!(scopes.allows("latest", &remote(&["all"])));
        assert!(!scopes.allows_all(&remote(&["all"])));
        assert!(scopes.allows_all(&remote(&["all", "s"])));
        assert!(scopes.allows_all(&Access::Local));
    }
}
