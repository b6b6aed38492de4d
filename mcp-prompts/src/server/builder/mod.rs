//! [`Server`]: what a server is built from, set step by step, and the
//! build that checks it and makes the [`Service`] that serves it.

mod build;
mod languages;

use super::info::{Declared, Resources};
use super::limits::{DEFAULT_SKILLS_PAGE_SIZE, Limits};
use super::modern::{CacheHints, CacheScope};
use super::request_state;
use crate::catalog::{AnyPrompt, TagFilter};
use crate::complete::{CompleteWith, DynCompleter};
use crate::presentation::Icon;
use crate::skills::DynamicSkill;

/// An MCP prompts server, configured and ready to serve.
///
/// By default it serves every `#[prompt]` in the binary:
///
/// ```no_run
/// #[tokio::main]
/// async fn main() -> std::io::Result<()> {
///     mcp_prompts::Server::new("my-prompts", env!("CARGO_PKG_VERSION"))
///         .instructions("Prompts for reviewing code.")
///         .serve_stdio()
///         .await
/// }
/// ```
#[derive(Clone, Debug)]
pub struct Server {
    name: String,
    version: String,
    title: Option<String>,
    instructions: Option<String>,
    page_size: usize,
    /// Entries per page of `skills/list` and the resource listings.
    skills_page_size: usize,
    limits: Limits,
    /// Prompts added explicitly, through `catalog` or `prompts`.
    explicit: Vec<AnyPrompt>,
    /// Whether every `#[prompt]` in the binary is served too; by default
    /// only when nothing was added explicitly.
    registered: Option<bool>,
    /// What to declare whatever is served: `completions` even with
    /// nothing to complete, the prompt tools, the resource methods.
    declare: Declared,
    /// The completer of `ref/resource` (URI template) requests.
    resources: Option<DynCompleter>,
    cache: CacheHints,
    /// The key from the application's secret; `Err` with the secret's
    /// length if it is too short, reported by `build`.
    state_key: Option<Result<request_state::StateKey, usize>>,
    ask_for_missing: bool,
    /// The default language, and the `#[prompt]`s' texts in others.
    languages: languages::Languages,
    icons: Vec<Icon>,
    tags: TagFilter,
    /// Skills defined in code.
    skills: Vec<DynamicSkill>,
    /// Whether the skills `include_skill!` embedded are served.
    embedded_skills: bool,
    /// The folders skills are read from.
    #[cfg(feature = "files")]
    skill_roots: Vec<crate::files::skills::SkillRoot>,
    /// Whether each skill is served as a prompt too.
    skills_as_prompts: bool,
    /// The registry served: its URL and label, and the labels only some
    /// callers may ask for.
    #[cfg(feature = "registry")]
    registry: Option<crate::registry::Source>,
    #[cfg(feature = "registry")]
    label_scopes: crate::registry::LabelScopes,
}

impl Server {
    /// The version the server gives in `serverInfo`.
    #[cfg(feature = "cli")]
    pub(crate) fn version(&self) -> &str {
        &self.version
    }
}

impl Server {
    /// A server with this `serverInfo` name and version.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            version: version.into(),
            title: None,
            instructions: None,
            page_size: 0,
            skills_page_size: DEFAULT_SKILLS_PAGE_SIZE,
            limits: Limits::default(),
            explicit: Vec::new(),
            registered: None,
            declare: Declared::default(),
            resources: None,
            cache: CacheHints::default(),
            state_key: None,
            ask_for_missing: true,
            languages: languages::Languages::default(),
            icons: Vec::new(),
            tags: TagFilter::default(),
            skills: Vec::new(),
            embedded_skills: true,
            #[cfg(feature = "files")]
            skill_roots: Vec::new(),
            skills_as_prompts: false,
            #[cfg(feature = "registry")]
            registry: None,
            #[cfg(feature = "registry")]
            label_scopes: crate::registry::LabelScopes::default(),
        }
    }

    /// Serves `skill`, defined in code, as the skills extension of MCP
    /// defines it, beside any skills from folders
    /// ([`skills_dir`](Self::skills_dir)); a folder's skill at its path
    /// is a problem. See [`DynamicSkill`].
    pub fn skill(mut self, skill: DynamicSkill) -> Self {
        self.skills.push(skill);
        self.declare.resources = Resources::Skills;
        self
    }

    /// Whether the skills embedded in the binary with `include_skill!`
    /// are served (default: yes, by every server of the binary).
    pub fn embedded_skills(mut self, serve: bool) -> Self {
        self.embedded_skills = serve;
        self
    }

    /// Serves each skill (from folders, code or `include_skill!`) as a
    /// prompt too, for hosts that know prompts but no skills: named by its
    /// skill path with `/` as `.` (`acme.billing.refunds`), described by
    /// the skill's description, with one optional argument, `request`. Its
    /// messages are the `SKILL.md` as an embedded resource with its
    /// `skill://` URI, then (from revision 2025-06-18) a resource link to
    /// each of the skill's own files, then the request. A skill path that
    /// makes no prompt name, or a name another prompt has, is a problem
    /// ([`Service::skill_problems`](super::Service::skill_problems)): the prompt is left out, the skill is
    /// served. Its prompt follows the skill's changes (with skills from
    /// folders the catalog is live, `listChanged`), and is shown to whom
    /// the skill is.
    pub fn skills_as_prompts(mut self) -> Self {
        self.skills_as_prompts = true;
        self
    }

    /// Serves the Agent Skills under `dir` (feature `files`), as the
    /// skills extension of MCP defines it: `skills/list` and `skills/get`,
    /// each skill's files as `skill://` resources (`resources/read`,
    /// `resources/list`, `resources/directory/read`). Every folder holding
    /// a `SKILL.md`, down to six folders below `dir`, is a skill named by
    /// its path under `dir`. Call it again for more folders; two giving
    /// one skill path is a problem. A skill that cannot be served is left
    /// out whole and logged as a warning with its file and line
    /// ([`Service::skill_problems`](super::Service::skill_problems)); a folder that cannot be read fails
    /// [`build`](Self::build).
    ///
    /// ```no_run
    /// # fn main() -> Result<(), mcp_prompts::BuildError> {
    /// let service = mcp_prompts::Server::new("team", "1.0")
    ///     .skills_dir(".claude/skills")
    ///     .build()?;
    /// for problem in service.skill_problems() {
    ///     eprintln!("not served: {problem}");
    /// }
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "files")]
    pub fn skills_dir(mut self, dir: impl Into<std::path::PathBuf>) -> Self {
        self.skill_roots.push(dir.into().into());
        self.declare.resources = Resources::Skills;
        self
    }

    /// [`skills_dir`](Self::skills_dir), with the last `names` names of
    /// its path opened one at a time, none of them a link, at every reload:
    /// for a repository's `.claude/skills` the CLI found real (2), which
    /// must not lead elsewhere once it becomes a link.
    #[cfg(feature = "cli")]
    pub(crate) fn skills_dir_pinned(mut self, dir: std::path::PathBuf, names: u8) -> Self {
        self.skill_roots
            .push(crate::files::skills::SkillRoot::new(dir, names));
        self.declare.resources = Resources::Skills;
        self
    }

    /// Serves the versions `label` points at in the registry at `url`
    /// (`sqlite:PATH`, `postgres://USER@HOST/DATABASE`; feature
    /// `registry`), beside the other prompts, whose names win (a warning
    /// names both). The catalog is live: a publish or a label move is
    /// served and announced within two seconds. Each listed prompt's
    /// `_meta` carries its `mcp-prompts/version` and `mcp-prompts/label`; a
    /// `prompts/get` whose `_meta` names `mcp-prompts/label` or
    /// `mcp-prompts/version` gets that version
    /// ([`label_scope`](Self::label_scope) limits who may). The build
    /// fails if the registry cannot be read (the build waits for its first
    /// reading: from async code, build in `spawn_blocking`); later, while
    /// it cannot be reached, what was read last keeps serving. A server
    /// never makes a registry: [`Registry::open`](crate::registry::Registry::open)
    /// and `mcp-prompts publish` do.
    ///
    /// ```no_run
    /// use mcp_prompts::Server;
    ///
    /// # fn run() -> std::io::Result<()> {
    /// let (service, _prompts) = Server::new("team-prompts", "1.0")
    ///     .registry("postgres://reader@db/prompts", "production")
    ///     .label_scope("staging", "prompts:staging")
    ///     .build_live()
    ///     .map_err(std::io::Error::other)?;
    /// let runtime = tokio::runtime::Runtime::new()?;
    /// runtime.block_on(service.serve_stdio())
    /// # }
    /// ```
    #[cfg(feature = "registry")]
    pub fn registry(mut self, url: impl Into<String>, label: impl Into<String>) -> Self {
        self.registry = Some(crate::registry::Source::new(url.into(), label.into()));
        self
    }

    /// Only callers holding `scope` may ask for `label`'s versions
    /// (`mcp-prompts/label` in a request's `_meta`); to others the
    /// prompt asked for is unknown. `label` `*` stands for every label not
    /// named (`latest` among them), so that labels made later are closed
    /// too. A version asked for by number is served to a caller that may
    /// ask for every label, or for a label that points at it. The local
    /// user (stdio) may ask for any; the served label is everyone's. A
    /// label or scope that is not one fails the build.
    #[cfg(feature = "registry")]
    pub fn label_scope(mut self, label: impl Into<String>, scope: impl Into<String>) -> Self {
        self.label_scopes.limit(label.into(), scope.into());
        self
    }

    /// Serves the resource methods: declares the `resources` capability
    /// and answers `resources/list` and `resources/read` with the
    /// resources the server offers: the files of the skills it serves
    /// ([`skills_dir`](Self::skills_dir), which turns this on too), none
    /// without. Off by default, when they are -32601 as for any method
    /// not served.
    pub fn serve_resources(mut self) -> Self {
        if self.declare.resources == Resources::Off {
            self.declare.resources = Resources::Served;
        }
        self
    }

    /// Whether a `prompts/get` that lacks required arguments asks the user
    /// for them, with a form built from their types, when the client can
    /// show one (default: yes). If not, or if the user declines, the
    /// request fails with -32602 as it does for clients that cannot.
    pub fn ask_for_missing_arguments(mut self, ask: bool) -> Self {
        self.ask_for_missing = ask;
        self
    }

    /// The secret that signs the `requestState` a stateless prompt hands
    /// its client between rounds of questions. By default each process
    /// makes a random one, so a client must come back to the same process;
    /// give every replica behind a load balancer the same secret, of at
    /// least 32 random bytes: a shorter one makes
    /// [`build`](Self::build) fail.
    pub fn request_state_secret(mut self, secret: impl AsRef<[u8]>) -> Self {
        let secret = secret.as_ref();
        self.state_key = Some(request_state::StateKey::from_secret(secret).ok_or(secret.len()));
        self
    }

    /// How long a 2026-07-28 client may reuse a `prompts/list` or
    /// `server/discover` result before asking again (its `ttlMs`; default
    /// 60 s, or 5 s for a live catalog, whose list can change at any
    /// moment). Zero: do not reuse it.
    pub fn cache_ttl(mut self, ttl: std::time::Duration) -> Self {
        self.cache.ttl = Some(ttl);
        self
    }

    /// Whether those results may be shared between users (`cacheScope`;
    /// default [`CacheScope::Public`], as the list is the same for all).
    pub fn cache_scope(mut self, scope: CacheScope) -> Self {
        self.cache.scope = scope;
        self
    }

    /// A display title for `serverInfo` (sent from revision 2025-06-18 on).
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// An icon for `serverInfo`, sent from revision 2025-11-25 on in
    /// `initialize` and `server/discover` (not in the server info every
    /// 2026-07-28 result carries): an `https://` URL, as every client gets
    /// it. [`build`](Self::build) checks it.
    pub fn icon(mut self, icon: Icon) -> Self {
        self.icons.push(icon);
        self
    }

    /// Serves only the prompts tagged with one of `tags`
    /// (`#[prompt(tags = [..])]`), of those added later too.
    ///
    /// ```
    /// use mcp_prompts::{DynamicPrompt, Server};
    ///
    /// let tagged = |name: &str, tag: &str| {
    ///     DynamicPrompt::builder(name).tags([tag]).template("x").build().unwrap()
    /// };
    /// let service = Server::new("git", "1.0")
    ///     .prompts([tagged("review", "git"), tagged("lunch", "food")])
    ///     .only_tags(["git"])
    ///     .build()?;
    /// assert_eq!(service.prompt_count(), 1);
    /// # Ok::<(), mcp_prompts::BuildError>(())
    /// ```
    pub fn only_tags<I: IntoIterator<Item = S>, S: Into<String>>(mut self, tags: I) -> Self {
        self.tags.only(tags.into_iter().map(Into::into));
        self
    }

    /// Serves none of the prompts tagged with any of `tags`, of those added
    /// later too.
    pub fn without_tags<I: IntoIterator<Item = S>, S: Into<String>>(mut self, tags: I) -> Self {
        self.tags.without(tags.into_iter().map(Into::into));
        self
    }

    /// Also offers the prompts as two tools, for hosts that show MCP tools
    /// but not prompts: declares `tools` and serves `list_prompts` (the
    /// prompts a caller may see, with their arguments) and `get_prompt`
    /// (`name` and `arguments`; the messages as text, one block per message
    /// whose first line names its role). An argument problem is an
    /// `isError` result with `prompts/get`'s message, which the model can
    /// correct; a prompt that asks for input asks through the tool too.
    /// `#[prompt(as_tool = false)]` keeps a prompt out of both.
    pub fn prompts_as_tools(mut self) -> Self {
        self.declare.tools = true;
        self
    }

    /// Instructions the client may add to the model's system prompt.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// How many prompts one `prompts/list` page holds; 0 (the default) puts
    /// them all on one page. Skills and their files are listed in pages of
    /// their own size ([`skills_page_size`](Self::skills_page_size)).
    pub fn page_size(mut self, page_size: usize) -> Self {
        self.page_size = page_size;
        self
    }

    /// How many entries one `skills/list`, `resources/list` or
    /// `resources/directory/read` page holds (default
    /// [`DEFAULT_SKILLS_PAGE_SIZE`], 50; at least 1). These list every
    /// skill and every file, each skill with a line for each of its files:
    /// on one page, a large folder would make one answer of tens of
    /// megabytes.
    pub fn skills_page_size(mut self, page_size: usize) -> Self {
        self.skills_page_size = page_size.max(1);
        self
    }

    /// The largest incoming message accepted, in bytes (default 4 MiB).
    /// A larger one is answered with an error and discarded.
    pub fn max_message_bytes(mut self, limit: usize) -> Self {
        self.limits.message_bytes = limit.max(1);
        self
    }

    /// The most messages one JSON-RPC batch may hold (default 100; batches
    /// exist only under revision 2025-03-26). A larger batch is refused
    /// whole with -32600.
    pub fn max_batch_items(mut self, limit: usize) -> Self {
        self.limits.batch_items = limit.max(1);
        self
    }

    /// The most bytes the responses to one batch may take together
    /// (default 4 MiB). Requests whose responses would go past it are not
    /// run; each gets a short -32603 error saying to send it on its own.
    pub fn max_batch_response_bytes(mut self, limit: usize) -> Self {
        self.limits.batch_response_bytes = limit.max(1);
        self
    }

    /// How many requests of one stdio (or [`serve_io`](super::Service::serve_io))
    /// connection may be worked on at once (default 64). At the bound,
    /// reading pauses until one finishes.
    pub fn max_in_flight(mut self, limit: usize) -> Self {
        self.limits.in_flight = limit.max(1);
        self
    }

    /// How many bytes of responses on a stdio (or
    /// [`serve_io`](super::Service::serve_io)) connection may wait for the client
    /// to read them (default 4 MiB). At the bound, reading pauses: a client
    /// that stops reading gets back-pressure, not a growing server.
    pub fn max_pending_output_bytes(mut self, limit: usize) -> Self {
        self.limits.pending_output_bytes = limit.max(1);
        self
    }

    /// How many requests of one connection (a stdio connection, an HTTP
    /// session, an rmcp session) may wait at once for the client to answer
    /// a question: [`RequestContext::elicit`](crate::RequestContext::elicit),
    /// [`choose`](crate::RequestContext::choose) or the form for missing
    /// arguments (default 16). Past it, asking does not wait: the answer
    /// is [`Elicited::Unsupported`](crate::Elicited::Unsupported), and
    /// missing arguments are -32602. Reading never pauses for waiting
    /// requests, so the client's answers, cancellations and end of input
    /// are always read.
    pub fn max_waiting_questions(mut self, limit: usize) -> Self {
        self.limits.waiting = limit;
        self
    }

    /// How long a question to the client waits for its answer (default
    /// 10 minutes). Then the prompt sees a decline, and the client is sent
    /// `notifications/cancelled` for its `elicitation/create`.
    pub fn question_timeout(mut self, timeout: std::time::Duration) -> Self {
        self.limits.question_timeout = timeout;
        self
    }

    /// How many `subscriptions/listen` requests one connection may keep
    /// open at once (default 16). A listen does not take one of the
    /// [`max_in_flight`](Self::max_in_flight) places; one past this bound
    /// is refused with -32600.
    pub fn max_listens(mut self, limit: usize) -> Self {
        self.limits.listens = limit;
        self
    }

    /// The most bytes a prompt's result may take, about as sent (default
    /// 4 MiB): its description, its messages' text, data, names and URIs,
    /// and 96 bytes of JSON a message. Past it the request is answered
    /// -32602 naming the limit (the arguments asked for too much), and a
    /// prompt tool's call an `isError` result. A template or prompt file
    /// stops rendering as it passes the limit, before the memory is spent;
    /// a prompt function's result is measured once it returns. The
    /// answers of skills and their files are not bound by it (a skill's
    /// file may take 16 MiB): [`max_unsent_bytes`](Self::max_unsent_bytes)
    /// bounds what they make the server hold.
    ///
    /// ```
    /// let server = mcp_prompts::Server::new("docs", "1.0").max_result_bytes(1 << 20);
    /// # drop(server);
    /// ```
    pub fn max_result_bytes(mut self, limit: usize) -> Self {
        self.limits.result_bytes = limit.max(1);
        self
    }

    /// The most bytes of answers the server holds, across all its
    /// connections, until their clients read them (default 256 MiB): the
    /// answers of `resources/read`, `skills/list`, `skills/get`,
    /// `resources/list` and `resources/directory/read`, whose size is known
    /// before they are written. An answer's bytes are counted from before
    /// it is written until the transport has handed it to the client (or
    /// the client went away), so clients that never read hold at most
    /// this much; a request whose answer does not fit beside those waiting
    /// gets -32603 at once, saying the server is busy, and never waits.
    /// Only the transports of this crate keep the count while an answer
    /// waits; a session driven through [`Session::handle`](super::Session::handle) counts it only
    /// while the answer is made.
    ///
    /// The skills extension has hosts accept skills of 16 MiB, and a file
    /// of control characters takes six times its size as JSON text: keep
    /// the budget above what one read of your largest file takes.
    pub fn max_unsent_bytes(mut self, limit: usize) -> Self {
        self.limits.unsent_bytes = limit.max(1);
        self
    }

    /// Serves the prompts of a [`catalog!`](crate::catalog!) instead of
    /// every registered one; call it again to add more, and call
    /// [`include_registered`](Self::include_registered) to serve both.
    ///
    /// ```
    /// use mcp_prompts::{Server, catalog, prompt};
    ///
    /// /// Say hello
    /// #[prompt]
    /// fn hello() -> String {
    ///     "Hello!".into()
    /// }
    ///
    /// const PROMPTS: mcp_prompts::Catalog = catalog![hello];
    ///
    /// let service = Server::new("hello", "1.0").catalog(PROMPTS).build()?;
    /// assert_eq!(service.prompt_count(), 1);
    /// # Ok::<(), mcp_prompts::BuildError>(())
    /// ```
    pub fn catalog(self, catalog: crate::catalog::Catalog) -> Self {
        self.prompts(catalog.iter().copied())
    }

    /// Serves these prompts instead of every registered one; like
    /// [`catalog`](Self::catalog), for a list built at run time. Each is a
    /// `#[prompt]`'s `PROMPT` or a [`DynamicPrompt`](crate::DynamicPrompt).
    pub fn prompts<P: Into<AnyPrompt>>(mut self, prompts: impl IntoIterator<Item = P>) -> Self {
        self.explicit.extend(prompts.into_iter().map(Into::into));
        self
    }

    /// Serves every `#[prompt]` in the binary as well as the prompts added
    /// with [`catalog`](Self::catalog) or [`prompts`](Self::prompts). A
    /// prompt in both is served once.
    pub fn include_registered(mut self) -> Self {
        self.registered = Some(true);
        self
    }

    /// Declares the `completions` capability even when no argument has a
    /// completer (it is declared by itself as soon as one has): every
    /// `completion/complete` is then answered, with no values where there
    /// is nothing to offer.
    pub fn completions(mut self) -> Self {
        self.declare.completions = true;
        self
    }

    /// Completes `ref/resource` requests (the variables of URI templates)
    /// with `completer`: a function of a [`CompletionInput`](crate::CompletionInput) (whose `uri()`
    /// is the template), sync or async, like a prompt argument's completer.
    ///
    /// ```
    /// use mcp_prompts::{CompletionInput, Server};
    ///
    /// fn files(input: &CompletionInput) -> Vec<String> {
    ///     input.matching(["README.md", "Cargo.toml"]).map(String::from).collect()
    /// }
    ///
    /// let server = Server::new("files", "1.0").complete_resources(files);
    /// ```
    pub fn complete_resources<C, M>(mut self, completer: C) -> Self
    where
        C: CompleteWith<M> + Clone + Send + Sync + 'static,
    {
        self.resources = Some(DynCompleter::new(completer));
        self
    }
}
