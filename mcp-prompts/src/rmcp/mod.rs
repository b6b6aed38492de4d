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

mod arguments;
mod completion;
mod content;
mod forward;
mod listen;
mod observe;
mod prompts;
mod skills;
mod tools;

pub use skills::serve_skills;

use std::sync::{Arc, OnceLock};

use ::rmcp::model::{InputRequiredResult, ServerCapabilities};
use ::rmcp::service::RequestContext;

use crate::caller::{Access, Caller};
use crate::context::Outbound;
use crate::error::Error;
use crate::protocol::modern::{ModernMeta, offers_forms};
use crate::protocol::to_client::ToClient;
use crate::protocol::{LogLevel, ProtocolVersion};
use crate::server::Era;
use crate::server::get::{InputRequired, Retry};
use crate::server::now_or_later::NowOrLater;
use crate::server::{Listens, Service};
use forward::{Asked, Forwarder};

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
        prompts.list_changed = self.service.is_live().then_some(true);
        capabilities.prompts = Some(prompts);
        if declared.completions() {
            capabilities.completions = Some(serde_json::Map::new());
        }
        if declared.resources() {
            let mut resources = ::rmcp::model::ResourcesCapability::default();
            // Skills from watched folders: their changes are announced.
            resources.list_changed = declared.skills_live().then_some(true);
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
fn input_required(asked: &InputRequired) -> Result<InputRequiredResult, ErrorData> {
    let requests = asked
        .requests()
        .iter()
        .map(|(key, request)| Ok((key.clone(), serde_json::from_value(request.clone())?)))
        .collect::<Result<_, serde_json::Error>>()
        .map_err(internal)?;
    Ok(InputRequiredResult::new(
        Some(requests),
        Some(asked.state().to_owned()),
    ))
}

/// What the core gives now or later, once it is there.
async fn settled<T>(value: NowOrLater<T>) -> T {
    match value {
        NowOrLater::Now(value) => value,
        NowOrLater::Later(future) => future.await,
    }
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
    if version.is_modern() {
        let log_level = context.meta.log_level().map(log_level);
        Era::Stateless(ModernMeta::new(version, log_level, can_elicit))
    } else {
        Era::Handshake(version)
    }
}

/// rmcp's request id (or progress token) as the core keeps ids.
fn raw_id(id: &::rmcp::model::NumberOrString) -> Box<serde_json::value::RawValue> {
    match id {
        // Its JSON text, as the core keeps ids (a string's escaped).
        ::rmcp::model::NumberOrString::Number(n) => {
            serde_json::value::RawValue::from_string(n.to_string()).expect("an integer is JSON")
        }
        ::rmcp::model::NumberOrString::String(s) => {
            serde_json::value::to_raw_value(&**s).expect("a string is JSON")
        }
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
