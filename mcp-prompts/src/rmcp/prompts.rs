//! `prompts/list` and `prompts/get` in an rmcp server: the catalog's
//! listing and the one `prompts/get` path, converted to rmcp's types.

use std::sync::Arc;

use ::rmcp::model::{
    GetPromptRequestParams, GetPromptResponse, GetPromptResult, ListPromptsResult,
    PaginatedRequestParams, Prompt, PromptArgument, PromptMessage,
};
use ::rmcp::service::RequestContext;

use super::arguments::arguments_of;
use super::forward::Outgoing;
use super::settled;
use crate::catalog::listing::Shown;
use crate::catalog::{Choice, LABEL_META, VERSION_META};
use crate::context::{Backchannel, Progress, Sender};
use crate::error::Error;
use crate::protocol::answer::Cached;
use crate::protocol::language::{ACCEPT_LANGUAGE, CONTENT_LANGUAGE, Language};
use crate::protocol::to_client::ToClient;
use crate::protocol::{Arguments, ProtocolVersion};
use crate::server::get::{GetOutcome, GetRequest, Retry};
use futures_util::StreamExt as _;
use futures_util::stream::FuturesUnordered;
use std::borrow::Cow;
use tokio::sync::mpsc;

use super::{
    ErrorData, ROUTE_CAPACITY, RmcpPrompts, RoleServer, access_of, content, era_of, forward,
    input_required, internal, observe, raw_id, retry, to_rmcp, version_of,
};

impl RmcpPrompts {
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
        let preference = preference_of(context);
        let default = self.service.default_language();
        let wanted = preference.and_then(|text| served.wanted(&text, default));
        let page = served
            .page_of(version, cursor, (&access, wanted))
            .map_err(|e| to_rmcp(&e))?;
        let mut result =
            ListPromptsResult::with_all_items(page.shown().iter().map(listed).collect());
        result.next_cursor = page.next_cursor().map(str::to_owned);
        result.meta = page.language().map(language_meta);
        let cached = if served.varies_for(&access) || page.language().is_some() {
            Cached::PerCaller
        } else {
            Cached::Shared
        };
        (result.ttl_ms, result.cache_scope) = self.hints(version, cached);
        Ok(result)
    }

    /// A listing's 2026-07-28 caching hints, as our own server sends them
    /// (rmcp's default is not to cache); none before that revision.
    pub(super) fn hints(
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
            Some(sent) => arguments_of(sent).map_err(|e| to_rmcp(&e))?,
            None => Arguments::default(),
        };
        let retry = retry(request.input_responses, request.request_state);
        let outcome = self
            .run_get(&request.name, arguments, retry, false, &context)
            .await;
        match outcome.map_err(|e| to_rmcp(&e))? {
            GetOutcome::Prompt {
                result,
                prompt,
                language,
            } => {
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
                answer.meta = language.as_ref().map(language_meta);
                Ok(answer.into())
            }
            GetOutcome::InputRequired(asked) => Ok(input_required(&asked)?.into()),
        }
    }

    /// Runs a `prompts/get` (or the `get_prompt` tool, `via_tool`) for a
    /// request of rmcp's: its messages sent through rmcp's peer while it
    /// runs, its questions asked through it, rmcp's cancellation obeyed.
    pub(super) async fn run_get(
        &self,
        name: &str,
        arguments: Arguments<'_>,
        retry: Retry,
        via_tool: bool,
        context: &RequestContext<RoleServer>,
    ) -> Result<GetOutcome, Error> {
        let id = raw_id(&context.id);
        let value = |key| context.meta.get(key).map(ToString::to_string);
        // Only a server that serves other versions reads a choice of one.
        let choice = if self.service.chooses_versions() {
            Choice::read(value(LABEL_META).as_deref(), value(VERSION_META).as_deref())?
        } else {
            None
        };
        let progress = context
            .meta
            .get_progress_token()
            .map(|token| Arc::new(Progress::new(&raw_id(&token.0))));
        // The request's own messages come here while it runs, and are sent
        // from this handler: rmcp then puts them on the request's stream,
        // before its response.
        let (route, mut routed) = mpsc::channel::<ToClient>(ROUTE_CAPACITY);
        // Watched by the handler, which knows what rmcp knows of it.
        let wire = crate::telemetry::Network::UNKNOWN;
        let sender = Sender::new(Some(Backchannel::Typed(route)), access_of(context), wire);
        let era = era_of(context, version_of(context));
        let get = GetRequest::new(&id, era, (name, arguments), &self.outbound, &sender)
            .retry(retry)
            .progress(progress)
            .choice(choice)
            .preferring(preference_of(context).map(Cow::Owned))
            .via_tool(via_tool);
        let tracked = self.outbound.track(id.get());
        let mut prompt = std::pin::pin!(settled(get.serve(&self.service)));
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
}

/// A prompt as rmcp lists it: the fields the revision has, as the core
/// decides them for our own listing.
pub(super) fn listed(shown: &Shown<'_>) -> Prompt {
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

/// The language preference a request of rmcp's carries in `_meta`, as
/// sent.
pub(super) fn preference_of(context: &RequestContext<RoleServer>) -> Option<String> {
    let text = context.meta.get(ACCEPT_LANGUAGE)?.as_str()?;
    Some(text.to_owned())
}

/// A result's `_meta` naming the language it is in.
pub(super) fn language_meta(language: &Language) -> ::rmcp::model::MetaObject {
    let mut meta = ::rmcp::model::JsonObject::new();
    meta.insert(CONTENT_LANGUAGE.to_owned(), language.as_str().into());
    ::rmcp::model::MetaObject(meta)
}
