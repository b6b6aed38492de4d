//! The prompts' requests: `prompts/list`, and `prompts/get` read into the
//! [`GetRequest`] every route serves (`get/`).

use std::sync::Arc;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::get::{GetOutcome, GetRequest, Retry};
use super::handler::{Handled, Handler, Handling};
use super::outcome::TypedResult;
use crate::context::Progress;
use crate::protocol::Arguments;
use crate::protocol::answer::Page;
use crate::protocol::method::{PromptsGet, PromptsList};
use crate::protocol::params::{GetParams, ListParams};

impl Handler for PromptsList {
    type Result = Page;

    #[inline]
    fn typed(result: Page) -> TypedResult<'static> {
        TypedResult::Page(result)
    }

    fn handle<'a>(cx: &Handling<'a>, p: ListParams<'a>) -> Handled<Page> {
        let snapshot = cx.service().snapshot();
        Handled::Now(snapshot.page(cx.version(), p.cursor(), cx.access()))
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
        let request = get_request(cx, (&name, arguments), meta)
            .retry(Retry::new(input_responses, request_state));
        request.serve(cx.service()).into()
    }
}

/// A `prompts/get` read from a request (`prompts/get`'s own, or the
/// `get_prompt` tool's): prompt `name` with `arguments`, its progress
/// token from `meta`.
#[inline]
pub(super) fn get_request<'a>(
    cx: &Handling<'a>,
    (name, arguments): (&'a str, Arguments<'a>),
    meta: Option<&RawValue>,
) -> GetRequest<'a> {
    let progress = progress_token(meta).map(|token| Arc::new(Progress::new(&token)));
    let outbound = &cx.connection().outbound;
    GetRequest::new(cx.id(), cx.era(), (name, arguments), outbound, cx.sender()).progress(progress)
}

/// The request's `progressToken`, if it sent a valid one (a string or an
/// integer); a `_meta` of another shape is not an error.
fn progress_token(meta: Option<&RawValue>) -> Option<Box<RawValue>> {
    #[derive(Deserialize)]
    struct Meta<'a> {
        #[serde(rename = "progressToken", borrow)]
        progress_token: Option<&'a RawValue>,
    }
    let meta: Meta<'_> = serde_json::from_str(meta?.get()).ok()?;
    let token = meta.progress_token?;
    let text = token.get();
    (text.starts_with('"') || text.parse::<i64>().is_ok()).then(|| token.to_owned())
}
