//! Dispatch: one message in, one response (or none) out. Knows nothing of
//! the transport that carries the messages.

mod batch;
mod builder;
pub(crate) mod completion;
pub(crate) mod dispatch;
pub(crate) mod get;
mod handler;
pub(crate) mod info;
mod limits;
mod listen;
mod methods;
mod modern;
pub(crate) mod now_or_later;
pub(crate) mod observe;
pub(crate) mod outcome;
mod panics;
mod prompts;
mod request_state;
mod session;
mod skill_prompts;
mod skills;
pub(crate) mod tools;
mod writer;

use std::sync::Arc;

use tokio::sync::mpsc;

use crate::catalog::{CatalogSnapshot, LiveCatalog};
use crate::complete::{DynCompleter, StaticIndexes};
use crate::context::{Sink, UnsentBudget, channel_sink};
use crate::error::Error;
use crate::protocol::language::Language;
use crate::protocol::method::{Capability, Method};
use crate::skills::{LiveSkills, SkillSet};

pub use builder::Server;
pub(crate) use limits::Limits;
pub use limits::{
    DEFAULT_MAX_BATCH_ITEMS, DEFAULT_MAX_BATCH_RESPONSE_BYTES, DEFAULT_MAX_IN_FLIGHT,
    DEFAULT_MAX_LISTENS, DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_MAX_PENDING_OUTPUT_BYTES,
    DEFAULT_MAX_RESULT_BYTES, DEFAULT_MAX_UNSENT_BYTES, DEFAULT_MAX_WAITING,
    DEFAULT_QUESTION_TIMEOUT, DEFAULT_SKILLS_PAGE_SIZE,
};
pub(crate) use listen::Listens;
pub use modern::CacheScope;
pub(crate) use modern::ModernReplies;
pub(crate) use outcome::Response;
pub use session::Session;

pub(crate) use crate::protocol::era::Era;
use info::Info;

/// A validated, ready server; cheap to clone and share between connections.
#[derive(Clone)]
pub struct Service(Arc<Inner>);

pub(crate) struct Inner {
    /// The skills served, with their files' bytes.
    skills: Arc<LiveSkills>,
    /// Keeps the skills in step with their folders until dropped.
    #[cfg(feature = "files")]
    _skill_watch: Option<crate::files::skills::Watching>,
    /// Keeps the registry's versions served until dropped, and serves the
    /// versions a request chooses.
    #[cfg(feature = "registry")]
    registry: Option<crate::registry::ServedRegistry>,
    /// The prompts served, swapped whole when the catalog changes.
    live: Arc<LiveCatalog>,
    /// Whether the catalog can change ([`Server::build_live`]).
    prompts_live: bool,
    /// What the server tells about itself, and the capabilities declared.
    info: Info,
    /// What stateless (2026-07-28) results carry, serialized once.
    modern: ModernReplies,
    /// `None` when the system gave no randomness and no secret was given.
    state_key: Option<request_state::StateKey>,
    ask_for_missing: bool,
    /// The language prompts are in unless translated: what `*` and an
    /// unmatched preference get.
    default_language: Language,
    limits: Limits,
    /// The bytes of answers waiting for their clients to read them.
    unsent: UnsentBudget,
    resources: Option<DynCompleter>,
    static_indexes: StaticIndexes,
}

impl Service {
    /// The skills not served, each as `path:line: what is wrong`, from
    /// the folders given to [`Server::skills_dir`].
    pub fn skill_problems(&self) -> Vec<String> {
        self.0.skills.problems()
    }

    /// The skills served whose prompt
    /// ([`Server::skills_as_prompts`]) is not, because a prompt file's or a
    /// compiled prompt has its name (and wins, whichever came first), each
    /// as `skill://path/SKILL.md: ...` naming that prompt's file.
    pub fn skill_warnings(&self) -> Vec<String> {
        self.0.live.shadowed()
    }

    /// How many skills are served.
    pub fn skill_count(&self) -> usize {
        self.0.skills.load().skills().len()
    }

    /// Whether the skills served can change (and changes are announced):
    /// skills from folders, which are watched.
    pub(crate) fn skills_live(&self) -> bool {
        self.capabilities().skills_live()
    }

    /// A `subscriptions/listen` stream's wake-ups, one per change of the
    /// skills.
    pub(crate) fn subscribe_skills(&self) -> tokio::sync::mpsc::Receiver<()> {
        self.0.skills.subscribe()
    }

    /// The skills served now.
    pub(crate) fn skills(&self) -> arc_swap::Guard<Arc<SkillSet>> {
        self.0.skills.load()
    }

    /// How many prompts are served.
    pub fn prompt_count(&self) -> usize {
        self.0.live.snapshot().len()
    }

    /// The largest incoming message accepted, in bytes.
    pub fn max_message_bytes(&self) -> usize {
        self.0.limits.message_bytes
    }

    pub(crate) fn default_language(&self) -> &Language {
        &self.0.default_language
    }

    /// The server's limits.
    pub(crate) fn limits(&self) -> &Limits {
        &self.0.limits
    }

    /// A new connection's session. Notifications the server sends on its own
    /// (log messages) go to `outbound`.
    pub fn session(&self, outbound: Option<mpsc::Sender<String>>) -> Session {
        Session::new(self.clone(), outbound.map(channel_sink), None)
    }

    /// A new connection's session whose server-sent messages go to `sink`.
    pub(crate) fn session_with_sink(&self, sink: Sink) -> Session {
        Session::new(self.clone(), Some(sink), None)
    }

    /// What serves the versions a request chooses, if anything does (a
    /// registry).
    #[cfg(feature = "registry")]
    pub(crate) fn variants(&self) -> Option<&dyn crate::catalog::Variants> {
        self.0
            .registry
            .as_ref()
            .map(crate::registry::ServedRegistry::variants)
    }

    /// Whether a request may choose another version of a prompt (a
    /// registry is served): only then is its choice read.
    #[cfg_attr(not(feature = "registry"), allow(clippy::unused_self))]
    pub(crate) fn chooses_versions(&self) -> bool {
        #[cfg(feature = "registry")]
        return self.0.registry.is_some();
        #[cfg(not(feature = "registry"))]
        false
    }

    /// How many prompts the registry's label served points at now; `None`
    /// without a registry.
    #[cfg(all(feature = "registry", feature = "cli"))]
    pub(crate) fn registry_label_size(&self) -> Option<usize> {
        self.0
            .registry
            .as_ref()
            .map(crate::registry::ServedRegistry::label_size)
    }

    /// The prompts served now; a request keeps the set it started with.
    pub(crate) fn snapshot(&self) -> arc_swap::Guard<Arc<CatalogSnapshot>> {
        self.0.live.snapshot()
    }

    /// Whether the catalog can change, and changes are announced.
    pub(crate) fn is_live(&self) -> bool {
        self.0.prompts_live
    }

    /// The listens of a new connection: none open, at the server's limit.
    pub(crate) fn connection_listens(&self) -> Arc<Listens> {
        Listens::new(self.limits().listens)
    }

    /// A `subscriptions/listen` stream's wake-ups, one per change.
    pub(crate) fn subscribe(&self) -> tokio::sync::mpsc::Receiver<()> {
        self.0.live.subscribe()
    }

    /// Tells the session behind `outbound` of catalog changes, if the
    /// catalog can change.
    pub(crate) fn listen(&self, outbound: &crate::context::Outbound) {
        if self.0.prompts_live {
            self.0.live.listen(outbound);
        }
        if self.skills_live() {
            self.0.skills.listen(outbound);
        }
    }

    /// The capabilities this server declares, beside `prompts` and
    /// `logging`.
    pub(crate) fn capabilities(&self) -> info::Declared {
        self.0.info.declared
    }
}

/// The table's gates: a method is served in a request's era only if that
/// era's revisions have it and the server declares the capability it
/// needs; anything else is -32601, as for a method nobody knows.
impl Service {
    /// The method the request names, if the request's revision has it
    /// (`method` is `None` if not) and the server declares the capability
    /// it needs; else -32601.
    #[inline]
    pub(crate) fn serves(&self, name: &str, method: Option<Method>) -> Result<Method, Error> {
        match method {
            Some(method) => self.declared(method),
            None => Err(Error::method_not_found(name)),
        }
    }

    /// The method `name`, if `era`'s revisions have it and the server
    /// declares what it needs; else -32601.
    #[inline]
    pub(crate) fn serves_in(&self, era: Era, name: &str) -> Result<Method, Error> {
        self.serves(
            name,
            Method::from_name(name).filter(|&method| era.has(method)),
        )
    }

    /// `method`, if the server declares the capability it needs; else
    /// -32601.
    // Inlined into the dispatch, with the refusal out of line: every
    // request passes the gate.
    #[inline]
    pub(crate) fn declared(&self, method: Method) -> Result<Method, Error> {
        match method.capability() {
            Some(capability) if !self.declares(capability) => Err(undeclared(method, capability)),
            _ => Ok(method),
        }
    }

    /// Whether the server declares `capability`.
    #[inline]
    pub(crate) fn declares(&self, capability: Capability) -> bool {
        let declared = &self.0.info.declared;
        match capability {
            Capability::Prompts | Capability::Logging => true,
            Capability::Completions => declared.completions(),
            Capability::Tools => declared.tools,
            Capability::Resources => declared.resources(),
            Capability::Skills => declared.skills(),
        }
    }
}

/// -32601 for `method`, behind a `capability` the server does not declare.
#[cold]
fn undeclared(method: Method, capability: Capability) -> Error {
    Error::new(
        Error::METHOD_NOT_FOUND,
        format!(
            "{} is not supported: this server declares no {}",
            method.name(),
            capability.name()
        ),
    )
}

impl std::fmt::Debug for Service {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Service")
            .field("prompts", &self.prompt_count())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod gate_tests {
    use crate::protocol::ProtocolVersion;
    use crate::protocol::era::Era;
    use crate::protocol::modern::ModernMeta;
    use crate::server::Server;

    #[test]
    fn a_method_behind_an_undeclared_capability_is_not_found() {
        use crate::protocol::method::Method;
        let nothing = std::iter::empty::<crate::catalog::AnyPrompt>();
        let service = Server::new("t", "1").prompts(nothing).build().unwrap();
        let complete = Some(Method::CompletionComplete);
        let error = service.serves("completion/complete", complete).unwrap_err();
        assert_eq!(error.code(), crate::error::Error::METHOD_NOT_FOUND);
        assert!(
            error.message().contains("declares no completions"),
            "{error:?}"
        );
        let error = service.serves("tools/list", None).unwrap_err();
        assert_eq!(error.code(), crate::error::Error::METHOD_NOT_FOUND);
        let list = Some(Method::PromptsList);
        assert_eq!(service.serves("prompts/list", list).ok(), list);
        // What the stateless HTTP endpoint answers 404: a method the
        // revision lacks, or one behind an undeclared capability.
        let stateless = Era::Stateless(ModernMeta::new(ProtocolVersion::MODERN, None, false));
        assert_eq!(service.serves_in(stateless, "prompts/list").ok(), list);
        for name in ["ping", "logging/setLevel", "completion/complete"] {
            let error = service.serves_in(stateless, name).unwrap_err();
            assert_eq!(
                error.code(),
                crate::error::Error::METHOD_NOT_FOUND,
                "{name}"
            );
        }
        let nothing = std::iter::empty::<crate::catalog::AnyPrompt>();
        let service = Server::new("t", "1")
            .prompts(nothing)
            .completions()
            .build()
            .unwrap();
        assert_eq!(
            service.serves("completion/complete", complete).ok(),
            complete
        );
    }
}
