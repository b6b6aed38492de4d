//! The prompts' requests: `prompts/list`, and `prompts/get` read into the
//! [`GetRequest`] every route serves (`get/`).

use std::sync::Arc;

use serde_json::value::RawValue;

use super::get::{GetOutcome, GetRequest, Retry};
use super::handler::{Handled, Handler, Handling};
use super::outcome::TypedResult;
use crate::catalog::{Choice, LABEL_META, VERSION_META};
use crate::context::Progress;
use crate::error::Error;
use crate::protocol::Arguments;
use std::borrow::Cow;

use crate::protocol::answer::Page;
use crate::protocol::method::{PromptsGet, PromptsList};
use crate::protocol::params::{GetParams, ListParams};
use crate::protocol::request_meta::RequestMeta;

impl Handler for PromptsList {
    type Result = Page;

    #[inline]
    fn typed(result: Page) -> TypedResult<'static> {
        TypedResult::Page(result)
    }

    fn handle<'a>(cx: &Handling<'a>, p: ListParams<'a>) -> Handled<Page> {
        let snapshot = cx.service().snapshot();
        let default = cx.service().default_language();
        let wanted = p
            .preference()
            .and_then(|text| snapshot.wanted(&text, default));
        Handled::Now(snapshot.page(cx.version(), p.cursor(), (cx.access(), wanted)))
    }
}

impl Handler for PromptsGet {
    type Result = GetOutcome;

    #[inline]
    fn typed(result: GetOutcome) -> TypedResult<'static> {
        TypedResult::Prompt(result)
    }

    fn handle<'a>(cx: &Handling<'a>, p: GetParams<'a>) -> Handled<GetOutcome> {
        let (name, arguments, (input_responses, request_state), meta) = p.into_parts();
        let request = match get_request(cx, (&name, arguments), meta.as_ref()) {
            Ok(request) => request,
            Err(error) => return Handled::Now(Err(error)),
        };
        let request = request.retry(Retry::new(input_responses, request_state));
        request.serve(cx.service()).into()
    }
}

/// A `prompts/get` read from a request (`prompts/get`'s own, or the
/// `get_prompt` tool's): prompt `name` with `arguments`, its progress
/// token and the version it chooses from `meta`; -32602 for a choice
/// that is not one.
#[inline]
pub(super) fn get_request<'a>(
    cx: &Handling<'a>,
    (name, arguments): (&'a str, Arguments<'a>),
    meta: Option<&RequestMeta<'a>>,
) -> Result<GetRequest<'a>, Error> {
    // Only a server that serves other versions reads a choice of one.
    let choosing = cx.service().chooses_versions();
    let (progress, choice, preference) = match meta {
        Some(meta) => read_meta(meta, choosing)?,
        None => (None, None, None),
    };
    let progress = progress.map(|token| Arc::new(Progress::new(&token)));
    let outbound = &cx.connection().outbound;
    let request = GetRequest::new(cx.id(), cx.era(), (name, arguments), outbound, cx.sender());
    Ok(request
        .progress(progress)
        .choice(choice)
        .preferring(preference))
}

/// The request's `progressToken`, if it sent a valid one (a string or an
/// integer); a `_meta` of another shape is not an error. And the version
/// it chooses (`mcp-prompts/label`, a label; `mcp-prompts/version`, a
/// number from 1), which must be one.
fn read_meta<'a>(meta: &RequestMeta<'a>, choosing: bool) -> Result<MetaRead<'a>, Error> {
    if choosing && meta.names_choice_unread() {
        // Which version it meant is unknown (a key twice).
        return Err(Error::invalid_params(format!(
            "`_meta` does not read as an object naming `{LABEL_META}` or `{VERSION_META}` once"
        )));
    }
    let progress = meta.progress_token().and_then(|token| {
        let text = token.get();
        (text.starts_with('"') || text.parse::<i64>().is_ok()).then(|| token.to_owned())
    });
    let (label, version) = meta.choice();
    let choice = Choice::read(label, version)?;
    Ok((progress, choice, meta.preference()))
}

/// What a `prompts/get`'s `_meta` says: its progress token, the version
/// it chooses, the languages it prefers (as sent).
type MetaRead<'a> = (Option<Box<RawValue>>, Option<Choice>, Option<Cow<'a, str>>);
