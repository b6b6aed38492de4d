//! Prompts inside a server built on rmcp, the official Rust SDK: its tools
//! (and transports) stay as they are, and an mcp-prompts catalog answers
//! `prompts/list`, `prompts/get`, `completion/complete` and
//! `logging/setLevel`, converted between rmcp's types and ours directly.
//!
//! ```
//! use mcp_prompts::rmcp::RmcpPrompts;
//! use rmcp::handler::server::router::tool::ToolRouter;
//! use rmcp::model::{ServerCapabilities, ServerConfig};
//! use rmcp::{ServerHandler, tool, tool_handler, tool_router};
//!
//! #[derive(Clone)]
//! struct MyServer {
//!     tool_router: ToolRouter<Self>,
//!     prompts: RmcpPrompts,
//! }
//!
//! #[tool_router]
//! impl MyServer {
//!     /// Tell the time
//!     #[tool]
//!     fn time(&self) -> String {
//!         "noon".into()
//!     }
//! }
//!
//! #[tool_handler(router = self.tool_router)]
//! impl ServerHandler for MyServer {
//!     fn get_info(&self) -> ServerConfig {
//!         let tools = ServerCapabilities::builder().enable_tools().build();
//!         ServerConfig::new(self.prompts.capabilities(tools))
//!     }
//!     mcp_prompts::rmcp::serve_prompts!(prompts);
//! }
//! ```
//!
//! The guide's [rmcp chapter](crate::guide::rmcp) has a whole server.

mod content;
mod forward;
mod observe;
mod skills;
mod tools;

pub use skills::serve_skills;

use std::sync::{Arc, OnceLock};

use ::rmcp::model::SubscriptionFilter;
use ::rmcp::model::{
    CompleteRequestParams, CompleteResult, CompletionInfo, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, InputRequiredResult, ListPromptsResult,
    PaginatedRequestParams, Prompt, PromptArgument, PromptMessage, Reference as RmcpReference,
    ServerCapabilities,
};
use ::rmcp::service::{RequestContext, SubscriptionContext};

use crate::caller::{Access, Caller};
use crate::catalog::Entry;
use crate::catalog::listing::Shown;
use crate::context::{Outbound, Progress, Route, Sender};
use crate::error::Error;
use crate::protocol::answer::Cached;
use crate::protocol::method::Method;
use crate::protocol::modern::offers_forms;
use crate::protocol::to_client::ToClient;
use crate::protocol::{Arguments, LogLevel, ProtocolVersion};
use crate::server::Era;
use crate::server::completion::{Query, Reference};
use crate::server::get::{GetOutcome, GetRequest, InputRequired, Retry};
use crate::server::{Listens, Service};
use forward::{Asked, Forwarder, Outgoing};
use futures_util::StreamExt as _;
use futures_util::stream::FuturesUnordered;
use tokio::sync::mpsc;

/// How many of a running request's messages may wait to be sent.
const ROUTE_CAPACITY: usize = 64;

/// An mcp-prompts catalog serving the prompts of an rmcp `ServerHandler`.
/// Make one per handler, that is per session ([`new`](Self::new) is cheap:
/// the catalog is shared; a clone is a new one), keep it in a field, and
/// answer the prompt methods with
/// [`serve_prompts!`](crate::rmcp::serve_prompts) or by calling
/// [`list`](Self::list), [`get`](Self::get), [`complete`](Self::complete)
/// and [`set_level`](Self::set_level) yourself.
///
/// Log messages and progress from prompts go to the client through rmcp's
/// peer, rmcp's cancellation reaches
/// [`RequestContext::cancelled`](crate::RequestContext::cancelled), and a
/// live catalog's changes are
/// announced with `notifications/prompts/list_changed`. A client that can
/// show a form is asked for missing arguments, and
/// [`elicit`](crate::RequestContext::elicit) asks it, through rmcp's
/// `elicitation/create`. Under 2026-07-28, which has no requests to the
/// client, both end the round with an `InputRequiredResult`, exactly as
/// on mcp-prompts' own transports.
pub struct RmcpPrompts {
    service: Service,
    outbound: Outbound,
    /// Its `subscriptions/listen` requests open.
    listens: Arc<Listens>,
    forwarder: Arc<OnceLock<Forwarder>>,
    /// The questions the client has not answered yet.
    asked: Asked,
}

impl RmcpPrompts {
    /// Serves `service`'s catalog (from [`Server::build`](crate::Server::build)
    /// or [`build_live`](crate::Server::build_live)).
    pub fn new(service: &Service) -> Self {
        let forwarder: Arc<OnceLock<Forwarder>> = Arc::default();
        let sink_forwarder = Arc::clone(&forwarder);
        let sink: crate::context::Sink = Box::new(move |message: ToClient| {
            sink_forwarder
                .get()
                .is_some_and(|forwarder| forwarder.send(message))
        });
        Self {
            service: service.clone(),
            outbound: Outbound::new(Some(sink), service.limits().wait_bounds()),
            listens: service.connection_listens(),
            forwarder,
            asked: Asked::default(),
        }
    }

    /// `capabilities` with what the catalog serves added: prompts (with
    /// `listChanged` when the catalog is live), completions and logging.
    pub fn capabilities(&self, capabilities: ServerCapabilities) -> ServerCapabilities {
        let mut capabilities = capabilities;
        let declared = self.service.capabilities();
        let mut prompts = ::rmcp::model::PromptsCapability::default();
        prompts.list_changed = self.service.announces_changes().then_some(true);
        capabilities.prompts = Some(prompts);
        if declared.completions() {
            capabilities.completions = Some(serde_json::Map::new());
        }
        if declared.resources() {
            let mut resources = ::rmcp::model::ResourcesCapability::default();
            // Skills from watched folders: their changes are announced.
            resources.list_changed = declared.skills_watched().then_some(true);
            capabilities.resources = Some(resources);
        }
        if declared.skills() {
            let skills = ::rmcp::model::SkillsCapability::new().with_directory_read();
            let settings = serde_json::to_value(skills)
                .ok()
                .and_then(|v| v.as_object().cloned())
                .unwrap_or_default();
            capabilities
                .extensions
                .get_or_insert_with(Default::default)
                .insert(crate::skills::EXTENSION.to_owned(), settings);
        }
        // `logging/setLevel` is answered (`set_level`), for clients before
        // 2026-07-28, which still have it.
        capabilities.logging = Some(serde_json::Map::new());
        capabilities
    }

    /// Answers `prompts/list`, page by page.
    pub fn list(
        &self,
        request: Option<&PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        self.watched(
            "prompts/list",
            || None,
            context,
            || self.list_unwatched(request, context),
        )
    }

    fn list_unwatched(
        &self,
        request: Option<&PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        self.attach(context);
        let version = version_of(context);
        let served = self.service.snapshot();
        let cursor = request.and_then(|r| r.cursor.as_deref());
        let access = access_of(context);
        let (page, next) = served.page_of(cursor, &access).map_err(|e| to_rmcp(&e))?;
        let mut result = ListPromptsResult::with_all_items(
            page.into_iter()
                .map(|prompt| listed(prompt, version))
                .collect(),
        );
        result.next_cursor = next;
        let cached = if served.varies_for(&access) {
            Cached::PerCaller
        } else {
            Cached::Shared
        };
        (result.ttl_ms, result.cache_scope) = self.hints(version, cached);
        Ok(result)
    }

    /// A listing's 2026-07-28 caching hints, as our own server sends them
    /// (rmcp's default is not to cache); none before that revision.
    fn hints(
        &self,
        version: ProtocolVersion,
        cached: Cached,
    ) -> (Option<u64>, Option<::rmcp::model::CacheScope>) {
        match self.service.hints(cached) {
            Some(hints) if version.is_modern() => {
                let scope = match hints.scope() {
                    crate::server::CacheScope::Private => ::rmcp::model::CacheScope::Private,
                    _ => ::rmcp::model::CacheScope::Public,
                };
                (Some(hints.ttl_ms()), Some(scope))
            }
            _ => (None, None),
        }
    }

    /// Answers `prompts/get`: the arguments checked and bound, the prompt
    /// called, its messages converted. Under 2026-07-28 a prompt that asks
    /// (and missing arguments, where the client can show a form) ends the
    /// round with rmcp's `InputRequiredResult`, carrying our signed
    /// `requestState`; the client's retry brings the answers.
    pub async fn get(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let version = version_of(&context);
        let watch = self.watch(
            "prompts/get",
            || Some(crate::telemetry::Asked::Prompt(request.name.clone())),
            &context,
        );
        observe::finished(watch, version, self.get_unwatched(request, context), |_| {
            false
        })
        .await
    }

    async fn get_unwatched(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        self.attach(&context);
        let version = version_of(&context);
        let arguments = match &request.arguments {
            Some(sent) => Arguments::from_values(sent).map_err(|e| to_rmcp(&e))?,
            None => Arguments::default(),
        };
        let retry = retry(request.input_responses, request.request_state);
        let outcome = self
            .run_get(&request.name, arguments, retry, false, &context)
            .await;
        match outcome.map_err(|e| to_rmcp(&e))? {
            GetOutcome::Prompt { result, prompt } => {
                let messages = result
                    .messages
                    .iter()
                    .map(|m| {
                        let block = content::block(m.content(), version).map_err(internal)?;
                        Ok(PromptMessage::new(content::role_of(m.role()), block))
                    })
                    .collect::<Result<_, ErrorData>>()?;
                let mut answer = GetPromptResult::new(messages);
                answer.description = result
                    .description
                    .or_else(|| prompt.description().map(str::to_owned));
                Ok(answer.into())
            }
            GetOutcome::InputRequired(asked) => Ok(input_required(asked)?.into()),
        }
    }

    /// Runs a `prompts/get` (or the `get_prompt` tool, `via_tool`) for a
    /// request of rmcp's: its messages sent through rmcp's peer while it
    /// runs, its questions asked through it, rmcp's cancellation obeyed.
    async fn run_get(
        &self,
        name: &str,
        arguments: Arguments<'_>,
        retry: Retry,
        via_tool: bool,
        context: &RequestContext<RoleServer>,
    ) -> Result<GetOutcome, Error> {
        let id = raw_id(&context.id);
        let progress = context
            .meta
            .get_progress_token()
            .map(|token| Arc::new(Progress::new(&raw_id(&token.0))));
        // The request's own messages come here while it runs, and are sent
        // from this handler: rmcp then puts them on the request's stream,
        // before its response.
        let (route, mut routed) = mpsc::channel::<ToClient>(ROUTE_CAPACITY);
        // Watched by the handler, which knows what rmcp knows of it.
        let wire = crate::telemetry::Wire::Unknown;
        let sender = Sender::new(Some(Route::Typed(route)), access_of(context), wire);
        let era = era_of(context, version_of(context));
        let get = GetRequest::new(&id, era, (name, arguments), &self.outbound, &sender)
            .retry(retry)
            .progress(progress)
            .via_tool(via_tool);
        let tracked = self.outbound.track(id.get());
        let mut prompt = std::pin::pin!(self.service.get(get).wait());
        let mut questions = FuturesUnordered::new();
        let outcome = loop {
            tokio::select! {
                outcome = &mut prompt => break outcome,
                Some(message) = routed.recv() => match message {
                    ToClient::Cancelled { request, .. } => {
                        self.asked.withdraw(request.get());
                    }
                    message => match forward::convert(message) {
                    Some(Outgoing::Notification(note)) => {
                        let _ = context.peer.send_notification(note).await;
                    }
                    Some(Outgoing::Request(asked, question)) => {
                        let outbound = self.outbound.downgrade();
                        let (peer, open) = (context.peer.clone(), self.asked.open(asked.get()));
                        questions.push(forward::ask(peer, outbound, asked, question, open));
                    }
                    None => {}
                    },
                },
                Some(()) = questions.next(), if !questions.is_empty() => {}
                // Cancelled: the prompt's future is dropped, as in our own
                // server; rmcp sends no response.
                () = context.ct.cancelled() => {
                    tracked.cancel().fire();
                    break Err(Error::new(Error::INVALID_REQUEST, "the request was cancelled"));
                }
            }
        };
        // What the prompt sent last goes before the response; anything its
        // spawned work sends later goes to the session.
        routed.close();
        while let Ok(message) = routed.try_recv() {
            if let Some(Outgoing::Notification(note)) = forward::convert(message) {
                let _ = context.peer.send_notification(note).await;
            }
        }
        drop(tracked);
        outcome
    }

    /// Answers `completion/complete` for the catalog's prompts and, with
    /// [`Server::complete_resources`](crate::Server::complete_resources),
    /// resource templates.
    pub async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let version = version_of(&context);
        let watch = self.watch(
            "completion/complete",
            || observe::asked_by_reference(&request.r#ref),
            &context,
        );
        observe::finished(
            watch,
            version,
            self.complete_unwatched(request, context),
            |_| false,
        )
        .await
    }

    async fn complete_unwatched(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.attach(&context);
        self.service
            .declared(Method::CompletionComplete)
            .map_err(|e| to_rmcp(&e))?;
        let reference = match &request.r#ref {
            RmcpReference::Prompt(prompt) => Reference::Prompt(&prompt.name),
            RmcpReference::Resource(resource) => Reference::Resource(&resource.uri),
            _ => {
                return Err(ErrorData::invalid_params(
                    "unknown reference type: expected `ref/prompt` or `ref/resource`",
                    None,
                ));
            }
        };
        let filled = request
            .context
            .as_ref()
            .and_then(|c| c.arguments.as_ref())
            .map(|arguments| {
                arguments
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let access = access_of(&context);
        let typed = (&*request.argument.name, &*request.argument.value);
        let query = Query::new(reference, typed, filled, &access);
        let found = self.service.complete(&query).wait().await;
        let found = found.map_err(|e| to_rmcp(&e))?;
        // The values the core sends, with the same `total` and `hasMore`.
        let (values, has_more, total) = found.shown();
        let total = u32::try_from(total).unwrap_or(u32::MAX);
        let info = CompletionInfo::with_pagination(
            values.iter().map(|v| v.clone().into_owned()).collect(),
            Some(total),
            has_more,
        )
        .map_err(internal)?;
        Ok(CompleteResult::new(info))
    }

    /// Answers `logging/setLevel`: prompts' log messages below `level` are
    /// not sent.
    #[allow(deprecated)] // Logging leaves MCP after 2026-07-28; clients before use it.
    pub fn set_level(
        &self,
        request: &::rmcp::model::SetLevelRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.attach(context);
        self.outbound.set_log_level(log_level(request.level));
        Ok(())
    }

    /// Takes the client's peer for messages sent outside a response, the
    /// first time one is seen, and starts hearing of catalog changes.
    fn attach(&self, context: &RequestContext<RoleServer>) {
        if self.forwarder.get().is_some() {
            return;
        }
        let forms = context
            .peer
            .peer_info()
            .and_then(|info| info.capabilities.elicitation.clone())
            .is_some_and(|can| offers_forms(can.form.is_some(), can.url.is_some()));
        self.outbound.set_can_elicit(forms);
        let forwarder = Forwarder::start(
            context.peer.clone(),
            self.outbound.downgrade(),
            self.asked.clone(),
        );
        // Under 2026-07-28 a session hears of changes only on the
        // `subscriptions/listen` it opened ([`listen`](Self::listen)).
        if self.forwarder.set(forwarder).is_ok() && !version_of(context).is_modern() {
            self.service.listen(&self.outbound);
        }
    }

    /// The notifications a 2026-07-28 `subscriptions/listen` may ask for
    /// here: changes to the prompt list. rmcp keeps them only where the
    /// server's capabilities announce them ([`capabilities`](Self::capabilities)
    /// does for a live catalog), so a static catalog's listen is
    /// acknowledged with none, as on mcp-prompts' own transports.
    pub fn accepted_subscription_filter(&self) -> SubscriptionFilter {
        let filter = SubscriptionFilter::builder().prompts_list_changed();
        if self.service.skills_change() {
            filter.resources_list_changed().build()
        } else {
            filter.build()
        }
    }

    /// Serves one `subscriptions/listen` that rmcp has acknowledged: each
    /// change to the catalog is sent on it as
    /// `notifications/prompts/list_changed`, tagged with the subscription,
    /// until the client cancels it or goes. At most
    /// [`Server::max_listens`](crate::Server::max_listens) are open at once
    /// per handler (that is, per session); one past it ends with -32600,
    /// after rmcp's acknowledgment (rmcp acknowledges a listen before it
    /// calls the handler, and can refuse one earlier only as unknown).
    pub async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let _listening = self.listens.open(&self.outbound).map_err(|limit| {
            let error = Error::invalid_request(format!(
                "this connection has {limit} subscriptions open, the most it may: cancel one first"
            ))
            .with_limit(limit);
            to_rmcp(&error)
        })?;
        let accepted = context.accepted();
        let prompts = accepted.prompts_list_changed == Some(true);
        let resources =
            accepted.resources_list_changed == Some(true) && self.service.skills_change();
        let mut prompt_changes = prompts.then(|| self.service.subscribe());
        let mut skill_changes = resources.then(|| self.service.subscribe_skills());
        loop {
            let prompt_change = async {
                match &mut prompt_changes {
                    Some(changes) => changes.recv().await,
                    None => std::future::pending().await,
                }
            };
            let skill_change = async {
                match &mut skill_changes {
                    Some(changes) => changes.recv().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                () = context.cancelled() => return Ok(()),
                change = prompt_change => match change {
                    // A stream nobody reads any more ends here.
                    Some(()) => {
                        if context.sink().notify_prompt_list_changed().await.is_err() {
                            return Ok(());
                        }
                    }
                    // The catalog let go of this stream: no more changes.
                    None => prompt_changes = None,
                },
                change = skill_change => match change {
                    Some(()) => {
                        if context.sink().notify_resource_list_changed().await.is_err() {
                            return Ok(());
                        }
                    }
                    None => skill_changes = None,
                },
            }
        }
    }
}

/// A clone serves another session: it shares the catalog, not the
/// session (its client, log level, requests in flight), so a handler
/// cloned for each rmcp session by a factory keeps each client apart.
impl Clone for RmcpPrompts {
    fn clone(&self) -> Self {
        Self::new(&self.service)
    }
}

impl std::fmt::Debug for RmcpPrompts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RmcpPrompts")
            .field("prompts", &self.service.prompt_count())
            .finish_non_exhaustive()
    }
}

/// A resource as rmcp's type. No kind of resource is served yet.
/// rmcp's log level as ours: the same eight levels of the specification.
#[allow(deprecated)] // Logging leaves MCP after 2026-07-28; clients before use it.
fn log_level(level: ::rmcp::model::LoggingLevel) -> LogLevel {
    use ::rmcp::model::LoggingLevel as Level;
    match level {
        Level::Debug => LogLevel::Debug,
        Level::Info => LogLevel::Info,
        Level::Notice => LogLevel::Notice,
        Level::Warning => LogLevel::Warning,
        Level::Error => LogLevel::Error,
        Level::Critical => LogLevel::Critical,
        Level::Alert => LogLevel::Alert,
        Level::Emergency => LogLevel::Emergency,
    }
}

/// The prompt methods of an rmcp `ServerHandler`, answered by the
/// [`RmcpPrompts`] in the field named: `list_prompts`, `get_prompt`,
/// `complete`, `set_level`, and 2026-07-28's `subscriptions/listen`
/// (`accepted_subscription_filter` and `listen`). Write it inside the
/// `impl ServerHandler` block; rmcp's `#[tool_handler]` keeps it.
///
/// A handler that serves other notifications on its listens writes
/// `serve_prompts!(field, except listen)`, which leaves those two methods
/// out, and calls [`RmcpPrompts::listen`] from its own `listen` (and
/// adds [`RmcpPrompts::accepted_subscription_filter`] to its own filter).
///
/// ```
/// # #[derive(Clone)]
/// # struct MyServer { prompts: mcp_prompts::rmcp::RmcpPrompts }
/// impl rmcp::ServerHandler for MyServer {
///     mcp_prompts::rmcp::serve_prompts!(prompts);
/// }
/// ```
#[macro_export]
#[doc(hidden)]
macro_rules! __serve_prompts {
    ($field:ident) => {
        $crate::rmcp::serve_prompts!($field, except listen);

        fn accepted_subscription_filter(
            &self,
            _requested: &$crate::rmcp::model::SubscriptionFilter,
        ) -> ::std::option::Option<$crate::rmcp::model::SubscriptionFilter> {
            ::std::option::Option::Some(self.$field.accepted_subscription_filter())
        }

        async fn listen(
            &self,
            context: $crate::rmcp::service::SubscriptionContext,
        ) -> ::std::result::Result<(), $crate::rmcp::ErrorData> {
            self.$field.listen(context).await
        }
    };
    ($field:ident, except listen) => {
        async fn list_prompts(
            &self,
            request: ::std::option::Option<$crate::rmcp::model::PaginatedRequestParams>,
            context: $crate::rmcp::service::RequestContext<$crate::rmcp::RoleServer>,
        ) -> ::std::result::Result<$crate::rmcp::model::ListPromptsResult, $crate::rmcp::ErrorData>
        {
            self.$field.list(request.as_ref(), &context)
        }

        async fn get_prompt(
            &self,
            request: $crate::rmcp::model::GetPromptRequestParams,
            context: $crate::rmcp::service::RequestContext<$crate::rmcp::RoleServer>,
        ) -> ::std::result::Result<$crate::rmcp::model::GetPromptResponse, $crate::rmcp::ErrorData>
        {
            self.$field
                .get(request, context)
                .await
                .map(::std::convert::Into::into)
        }

        async fn complete(
            &self,
            request: $crate::rmcp::model::CompleteRequestParams,
            context: $crate::rmcp::service::RequestContext<$crate::rmcp::RoleServer>,
        ) -> ::std::result::Result<$crate::rmcp::model::CompleteResult, $crate::rmcp::ErrorData> {
            self.$field.complete(request, context).await
        }

        #[allow(deprecated)]
        async fn set_level(
            &self,
            request: $crate::rmcp::model::SetLevelRequestParams,
            context: $crate::rmcp::service::RequestContext<$crate::rmcp::RoleServer>,
        ) -> ::std::result::Result<(), $crate::rmcp::ErrorData> {
            self.$field.set_level(&request, &context)
        }
    };
}

#[doc(inline)]
pub use crate::__serve_prompts as serve_prompts;

/// rmcp's items the macro names, so that the user's crate needs no path
/// of its own to them.
#[doc(hidden)]
pub use ::rmcp::{ErrorData, RoleServer, model, service};

/// What a stateless retry brings back, from rmcp's request.
fn retry(answers: Option<::rmcp::model::InputResponses>, state: Option<String>) -> Retry {
    Retry::new(answers.map(|r| r.into_iter().collect()), state)
}

/// A stateless round's questions and state as rmcp's result.
fn input_required(asked: InputRequired) -> Result<InputRequiredResult, ErrorData> {
    let (requests, state) = asked.into_parts();
    let requests = requests
        .into_iter()
        .map(|(key, request)| Ok((key, serde_json::from_value(request)?)))
        .collect::<Result<_, serde_json::Error>>()
        .map_err(internal)?;
    Ok(InputRequiredResult::new(Some(requests), Some(state)))
}

/// The revision a request is served under: the one its `_meta` names or
/// the session negotiated; the latest handshake revision if rmcp knows
/// neither.
fn version_of(context: &RequestContext<RoleServer>) -> ProtocolVersion {
    context
        .protocol_version()
        .and_then(|v| ProtocolVersion::parse(v.as_str()))
        .unwrap_or(ProtocolVersion::LATEST)
}

/// The rules a request is served under: a 2026-07-28 request carries its
/// own client capabilities and log level; an earlier revision's request
/// belongs to its session.
fn era_of(context: &RequestContext<RoleServer>, version: ProtocolVersion) -> Era {
    let can_elicit = context
        .client_capabilities()
        .and_then(|capabilities| capabilities.elicitation)
        .is_some_and(|can| offers_forms(can.form.is_some(), can.url.is_some()));
    Era::of_version(version, context.meta.log_level().map(log_level), can_elicit)
}

/// A prompt as rmcp lists it: the fields the revision has, as the core
/// decides them for our own listing.
fn listed(entry: &Entry, version: ProtocolVersion) -> Prompt {
    let shown = Shown::as_listed(entry, version);
    let arguments: Vec<PromptArgument> = shown
        .arguments()
        .iter()
        .map(|arg| {
            let mut argument = PromptArgument::new(arg.name()).with_required(arg.required());
            argument.description = arg.description().map(str::to_owned);
            argument.title = arg.title().map(str::to_owned);
            argument
        })
        .collect();
    let mut listed = Prompt::new(
        shown.name(),
        shown.description(),
        (!arguments.is_empty()).then_some(arguments),
    );
    listed.title = shown.title().map(str::to_owned);
    if !shown.icons().is_empty() {
        listed.icons = Some(shown.icons().iter().map(icon).collect());
    }
    listed.meta = shown.meta().cloned().map(rmcp::model::MetaObject);
    listed
}

/// Our icon as rmcp's: the same fields.
fn icon(ours: &crate::presentation::Icon) -> ::rmcp::model::Icon {
    let (mime_type, sizes, theme) = ours.details();
    let mut icon = ::rmcp::model::Icon::new(ours.src());
    icon.mime_type = mime_type.map(str::to_owned);
    icon.sizes = (!sizes.is_empty()).then(|| sizes.iter().map(ToString::to_string).collect());
    icon.theme = theme.map(|theme| match theme {
        crate::presentation::IconTheme::Light => ::rmcp::model::IconTheme::Light,
        crate::presentation::IconTheme::Dark => ::rmcp::model::IconTheme::Dark,
    });
    icon
}

/// rmcp's request id (or progress token) as the core keeps ids.
fn raw_id(id: &::rmcp::model::NumberOrString) -> Box<serde_json::value::RawValue> {
    match id {
        ::rmcp::model::NumberOrString::Number(n) => crate::protocol::jsonrpc::number_id(*n),
        ::rmcp::model::NumberOrString::String(s) => crate::protocol::jsonrpc::string_id(s),
    }
}

/// Our error as rmcp's: the same code, message and data, copied (an error
/// is the rare path).
fn to_rmcp(error: &Error) -> ErrorData {
    let (code, data) = (
        ::rmcp::model::ErrorCode(error.code()),
        error.data().cloned(),
    );
    ErrorData::new(code, error.message().to_owned(), data)
}

fn internal(error: impl std::fmt::Display) -> ErrorData {
    ErrorData::internal_error(error.to_string(), None)
}

#[cfg(test)]
mod tests;

/// Who a request comes from. rmcp's HTTP transport hands over the HTTP
/// request's parts: the request is then remote, and its caller is the
/// [`Caller`] the app's middleware (or `auth`'s layer) put in the request's
/// extensions. Without parts (stdio) the local user is asking.
fn access_of(context: &RequestContext<RoleServer>) -> Access {
    match context.extensions.get::<http::request::Parts>() {
        Some(parts) => Access::Remote(parts.extensions.get::<Caller>().cloned().map(Arc::new)),
        None => Access::Local,
    }
}
