//! The prompt tools (`list_prompts`, `get_prompt`) in an rmcp server, for
//! hosts that show tools but not prompts: routes to merge into the
//! handler's own tool router, served by the same paths as on our own
//! transports and written as rmcp's types.

use std::future::Future;

use ::rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use ::rmcp::handler::server::tool::ToolCallContext;
use ::rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult, ResultType, Tool};
use ::rmcp::service::RequestContext;
use futures_util::FutureExt as _;

use super::arguments::get_prompt_arguments;
use super::{
    ErrorData, RmcpPrompts, RoleServer, access_of, input_required, internal, observe, retry,
    to_rmcp, version_of,
};
use crate::protocol::ProtocolVersion;
use crate::protocol::language::Language;
use crate::server::tools::result::ToolResult;
use crate::server::tools::{
    GET_PROMPT, LIST_PROMPTS, ToolOutcome, definitions, error_result, list_result, tool_prompts,
    unknown_tool,
};
use crate::telemetry::{Asked, Visibility};

impl RmcpPrompts {
    /// The prompt tools as routes of a handler `S` whose `RmcpPrompts`
    /// `prompts_of` finds: add them to its own tool router, and `tools/list`
    /// declares them beside its tools. They serve exactly what
    /// [`Server::prompts_as_tools`](crate::Server::prompts_as_tools) serves.
    ///
    /// ```
    /// # use mcp_prompts::rmcp::RmcpPrompts;
    /// # use rmcp::handler::server::router::tool::ToolRouter;
    /// # use rmcp::{tool, tool_router};
    /// # struct MyServer { prompts: RmcpPrompts }
    /// # #[tool_router]
    /// # impl MyServer { #[tool] fn time(&self) -> String { "noon".into() } }
    /// # impl MyServer { fn router() -> ToolRouter<Self> {
    /// let router = Self::tool_router() + RmcpPrompts::tool_router(|server: &Self| &server.prompts);
    /// # router } }
    /// ```
    pub fn tool_router<S: Send + Sync + 'static>(prompts_of: fn(&S) -> &Self) -> ToolRouter<S> {
        let mut router = ToolRouter::new();
        for tool in Self::tools() {
            router.add_route(ToolRoute::new_dyn(
                tool,
                move |call: ToolCallContext<'_, S>| {
                    let prompts = prompts_of(call.service);
                    let mut request = CallToolRequestParams::new(call.name);
                    request.arguments = call.arguments;
                    request.input_responses = call.input_responses;
                    request.request_state = call.request_state;
                    prompts.call_tool(request, call.request_context).boxed()
                },
            ));
        }
        router
    }

    /// The prompt tools' definitions, with every field the newest
    /// handshake revision has (2025-11-25): rmcp's router lists the same
    /// definitions to every client, where our own transports leave out
    /// the fields a client's revision lacks.
    ///
    /// # Panics
    ///
    /// Never in practice: the definitions are fixed, and a test converts them.
    pub fn tools() -> Vec<Tool> {
        // rmcp's router lists one set to every client: in English.
        let english = crate::catalog::Words::default();
        let tools = definitions(ProtocolVersion::LATEST, &english);
        // Our definitions, in the schema's own spelling, are rmcp's input.
        let tools = serde_json::to_value(tools).expect("the prompt tools serialize");
        serde_json::from_value(tools).expect("the prompt tools convert")
    }

    /// Answers a `tools/call` of `list_prompts` or `get_prompt`; any other
    /// name is -32602, as an unknown tool is.
    pub async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // Through `serve_tool_call`, the call is watched already.
        if context.extensions.get::<Watched>().is_some() {
            return self.call_tool_unwatched(request, context).await;
        }
        let name = request.name.to_string();
        self.watch_tool_call(name, context, None, |context| {
            self.call_tool_unwatched(request, context)
        })
        .await
    }

    /// Calls a tool of `router` (the handler's own, with or without the
    /// prompt tools) as `#[tool_handler]` does, watched as this crate's
    /// requests are: a span `tools/call NAME` in the MCP conventions
    /// (`gen_ai.tool.name`, `gen_ai.operation.name = execute_tool`, the
    /// parent from `_meta`), the request's log line and its duration
    /// metric. Write it as the handler's `call_tool`; `#[tool_handler]`
    /// keeps a `call_tool` it finds and adds the rest.
    ///
    /// ```
    /// # use mcp_prompts::rmcp::RmcpPrompts;
    /// # use rmcp::handler::server::router::tool::ToolRouter;
    /// # use rmcp::model::{CallToolRequestParams, CallToolResponse, ErrorData};
    /// # use rmcp::service::{RequestContext, RoleServer};
    /// # use rmcp::{ServerHandler, tool, tool_handler, tool_router};
    /// # #[derive(Clone)]
    /// # struct MyServer { prompts: RmcpPrompts, tool_router: ToolRouter<Self> }
    /// # #[tool_router]
    /// # impl MyServer { #[tool] fn time(&self) -> String { "noon".into() } }
    /// #[tool_handler(router = self.tool_router)]
    /// impl ServerHandler for MyServer {
    ///     async fn call_tool(
    ///         &self,
    ///         request: CallToolRequestParams,
    ///         context: RequestContext<RoleServer>,
    ///     ) -> Result<CallToolResponse, ErrorData> {
    ///         self.prompts.serve_tool_call(self, &self.tool_router, request, context).await
    ///     }
    /// }
    /// ```
    pub async fn serve_tool_call<S: Send + Sync + 'static>(
        &self,
        server: &S,
        router: &ToolRouter<S>,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // A tool the router serves is one of the server's own: its name
        // names the span and the metric (a bounded set).
        let known = router.has_route(&request.name);
        let name = request.name.to_string();
        self.watch_tool_call(name, context, Some(known), |mut context| {
            context.extensions.insert(Watched);
            router.call(ToolCallContext::new(server, request, context))
        })
        .await
    }

    /// Runs `call` in a `tools/call` watch of tool `name`: served by the
    /// handler's router as `routed` says, or, without a router, if it is
    /// one of the prompt tools the server declares.
    async fn watch_tool_call<F, Fut>(
        &self,
        name: String,
        context: RequestContext<RoleServer>,
        routed: Option<bool>,
        call: F,
    ) -> Result<CallToolResponse, ErrorData>
    where
        F: FnOnce(RequestContext<RoleServer>) -> Fut,
        Fut: Future<Output = Result<CallToolResponse, ErrorData>>,
    {
        let version = version_of(&context);
        let asked = || Some(Asked::Tool(name));
        let watch =
            self.watch_judged(
                "tools/call",
                asked,
                &context,
                |service, asked, access| match routed {
                    Some(true) => Visibility::Visible,
                    Some(false) => Visibility::Unknown,
                    None => crate::server::observe::visibility(service, asked, access),
                },
            );
        observe::finished(watch, version, call(context), observe::is_tool_error).await
    }

    async fn call_tool_unwatched(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.attach(&context);
        let version = version_of(&context);
        match &*request.name {
            LIST_PROMPTS => {
                let preference = super::prompts::preference_of(&context);
                let access = access_of(&context);
                let (prompts, language, words) =
                    tool_prompts(&self.service, &access, preference.as_deref());
                complete(list_result(&prompts, version, &words), language.as_ref())
            }
            GET_PROMPT => {
                let (name, arguments) = match get_prompt_arguments(request.arguments.as_ref()) {
                    Ok(read) => read,
                    Err(error) => return complete(error_result(&error), None),
                };
                let retry = retry(request.input_responses, request.request_state);
                let outcome = self.run_get(&name, arguments, retry, true, &context).await;
                match ToolOutcome::of(outcome, version) {
                    ToolOutcome::Complete(result, language) => complete(result, language.as_ref()),
                    ToolOutcome::Failed(result) => complete(result, None),
                    ToolOutcome::InputRequired(asked) => Ok(input_required(&asked)?.into()),
                }
            }
            other => Err(to_rmcp(&unknown_tool(other))),
        }
    }
}

/// Marks a tool call that [`RmcpPrompts::serve_tool_call`] watches, so
/// that the prompt tools inside its router do not watch it again.
#[derive(Clone, Copy)]
struct Watched;

/// A tool result of ours as rmcp's.
fn complete(
    result: ToolResult,
    language: Option<&Language>,
) -> Result<CallToolResponse, ErrorData> {
    // Ours in the schema's own spelling, which rmcp's type reads.
    let result = serde_json::to_value(result).map_err(internal)?;
    let mut result: CallToolResult = serde_json::from_value(result).map_err(internal)?;
    // rmcp clears it for revisions without it.
    result.result_type = Some(ResultType::COMPLETE);
    result.meta = language.map(super::prompts::language_meta);
    Ok(result.into())
}
