//! Prompts as tools ([`Server::prompts_as_tools`](crate::Server::prompts_as_tools)),
//! for hosts that show MCP tools but not prompts: `tools/list` declares
//! `list_prompts` and `get_prompt`, and `tools/call` serves them through
//! the same paths as `prompts/list` and `prompts/get` (visibility, asking
//! for input, errors), each outcome written as a tool result.

mod definitions;
mod listing;
mod outcome;
pub(crate) mod result;

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

pub(crate) use definitions::{GET_PROMPT, LIST_PROMPTS, ToolDefinition, definitions};
pub(crate) use listing::list_result;
pub(crate) use outcome::{ToolOutcome, error_result};

use super::Service;
use super::get::Retry;
use super::handler::{Handled, Handler, Handling};
use super::prompts::get_request;
use crate::caller::Access;
use std::sync::Arc;

use crate::catalog::{AnyPrompt, Words};
use crate::error::{Error, brief, excerpt};
use crate::protocol::answer::{Answer, Cached};
use crate::protocol::language::{Language, Preference};
use crate::protocol::method::{ToolsCall, ToolsList};
use crate::protocol::params::{CallParams, ListParams};
use crate::protocol::request_meta::RequestMeta;
use crate::protocol::{Arguments, ProtocolVersion, cow_str};

/// `get_prompt`'s arguments: the prompt's name and its arguments.
#[derive(Deserialize)]
pub(crate) struct GetPromptArguments<'a> {
    #[serde(borrow, deserialize_with = "cow_str")]
    name: Cow<'a, str>,
    #[serde(default, borrow)]
    arguments: Arguments<'a>,
}

impl<'a> GetPromptArguments<'a> {
    /// The prompt's name, and the arguments for it.
    pub(crate) fn into_parts(self) -> (Cow<'a, str>, Arguments<'a>) {
        (self.name, self.arguments)
    }

    /// Reads them from the call's `arguments`; what is wrong with them is
    /// for the model to correct (an `isError` result), not a protocol error.
    pub(crate) fn read(arguments: Option<&'a str>) -> Result<Self, Error> {
        serde_json::from_str(arguments.unwrap_or("{}"))
            .map_err(|err| invalid_get_prompt(&brief(&err.to_string())))
    }
}

/// The `isError` message for `get_prompt` arguments that cannot be read.
pub(crate) fn invalid_get_prompt(detail: &str) -> Error {
    Error::invalid_params(format!(
        "invalid arguments for get_prompt: {detail}; expected {{\"name\": \"<prompt>\", \"arguments\": {{\"<argument>\": \"<value>\"}}}}"
    ))
}

/// -32602 for a tool this server does not have.
pub(crate) fn unknown_tool(name: &str) -> Error {
    Error::invalid_params(format!("Unknown tool: {}", excerpt(name)))
}

/// A prompt the tools offer, in its language, with the server's words in
/// that language.
pub(crate) type Offered = (AnyPrompt, Arc<Words>);

/// The prompts the tools offer a request served under `access`, each in
/// the language the request's `preference` (as sent) picks for it, the
/// language the list is in, where one was asked for, and the words of
/// that language (or the default's).
pub(crate) fn tool_prompts(
    service: &Service,
    access: &Access,
    preference: Option<&str>,
) -> (Vec<Offered>, Option<Language>, Arc<Words>) {
    let snapshot = service.snapshot();
    let default = service.default_language();
    let wanted = preference.and_then(|text| snapshot.wanted(text, default));
    let (prompts, language) = snapshot.tool_listing(access, wanted);
    let words = Arc::clone(snapshot.words().of(language.as_ref().unwrap_or(default)));
    (prompts, language, words)
}

/// The `tools/list` result: the two prompt tools, as the revision shows
/// them, in `words`; the same for every caller, but for its language,
/// named where the request asked for one.
pub(crate) struct ToolList {
    words: Arc<Words>,
    language: Option<Language>,
}

impl Answer for ToolList {
    fn cached(&self) -> Cached {
        // A localized answer is not everyone's.
        if self.language.is_some() {
            Cached::PerCaller
        } else {
            Cached::Shared
        }
    }

    fn content_language(&self) -> Option<&Language> {
        self.language.as_ref()
    }

    fn body(&self, version: ProtocolVersion) -> impl serde::Serialize + '_ {
        #[derive(serde::Serialize)]
        struct Tools<'w> {
            tools: [ToolDefinition<'w>; 2],
        }
        Tools {
            tools: definitions(version, &self.words),
        }
    }
}

/// `tools/list`: one page, so any cursor is one never handed out. Its
/// words are in the language the request's `preference` (as sent) picks
/// among those the server has words in.
pub(crate) fn list(
    service: &Service,
    cursor: Option<&str>,
    preference: Option<&str>,
) -> Result<ToolList, Error> {
    if let Some(cursor) = cursor {
        return Err(Error::invalid_params(format!(
            "invalid cursor: `{}`",
            excerpt(cursor)
        )));
    }
    let snapshot = service.snapshot();
    let words = snapshot.words();
    // A malformed preference is none.
    let Some(preference) = preference.and_then(Preference::parse) else {
        let words = Arc::clone(words.default_words());
        return Ok(ToolList {
            words,
            language: None,
        });
    };
    let (words, language) = words.for_preference(&preference, service.default_language());
    Ok(ToolList {
        words: Arc::clone(words),
        language: Some(language),
    })
}

impl Handler for ToolsList {
    type Result = ToolList;

    fn handle<'a>(cx: &Handling<'a>, p: ListParams<'a>) -> Handled<ToolList> {
        let preference = p.preference();
        Handled::Now(list(cx.service(), p.cursor(), preference.as_deref()))
    }
}

impl Handler for ToolsCall {
    type Result = ToolOutcome;

    fn handle<'a>(cx: &Handling<'a>, mut p: CallParams<'a>) -> Handled<ToolOutcome> {
        let version = cx.version();
        match p.name() {
            LIST_PROMPTS => {
                let preference = p.meta().and_then(RequestMeta::preference);
                let (prompts, language, words) =
                    tool_prompts(cx.service(), cx.access(), preference.as_deref());
                let listed = list_result(&prompts, version, &words);
                Handled::Now(Ok(ToolOutcome::Complete(listed, language)))
            }
            GET_PROMPT => {
                let arguments = match GetPromptArguments::read(p.arguments().map(RawValue::get)) {
                    Ok(arguments) => arguments,
                    Err(error) => {
                        return Handled::Now(Ok(ToolOutcome::Failed(error_result(&error))));
                    }
                };
                let (input_responses, request_state) = p.take_retry();
                let (name, arguments) = arguments.into_parts();
                let request = match get_request(cx, (&name, arguments), p.meta()) {
                    Ok(request) => request,
                    Err(error) => {
                        return Handled::Now(Ok(ToolOutcome::Failed(error_result(&error))));
                    }
                };
                let request = request
                    .retry(Retry::new(input_responses, request_state))
                    .via_tool(true);
                let got = request.serve(cx.service());
                got.map(move |result| Ok(ToolOutcome::of(result, version)))
                    .into()
            }
            other => Handled::Now(Err(unknown_tool(other))),
        }
    }
}
