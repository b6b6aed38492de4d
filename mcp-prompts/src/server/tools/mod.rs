//! Prompts as tools ([`Server::prompts_as_tools`](crate::Server::prompts_as_tools)),
//! for hosts that show MCP tools but not prompts: `tools/list` declares
//! `list_prompts` and `get_prompt`, and `tools/call` serves them through
//! the same paths as `prompts/list` and `prompts/get` (visibility, asking
//! for input, errors), each outcome written as a tool result.

mod definitions;
mod listing;
mod outcome;

use std::borrow::Cow;
use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;
use serde_json::json;
use serde_json::value::RawValue;

pub(crate) use definitions::{GET_PROMPT, LIST_PROMPTS, definitions};
pub(crate) use listing::list_result;
pub(crate) use outcome::{ToolOutcome, error_result};

use super::get::Retry;
use super::get::wire::{WireGet, input_required};
use super::methods::params;
use super::{Era, Reply, Service, Session};
use crate::caller::Access;
use crate::catalog::AnyPrompt;
use crate::context::Origin;
use crate::error::{Error, brief, excerpt};
use crate::protocol::jsonrpc::{failure, success};
use crate::protocol::{Arguments, cow_str};

#[derive(Deserialize)]
struct CallParams<'a> {
    #[serde(borrow, deserialize_with = "cow_str")]
    name: Cow<'a, str>,
    #[serde(default, borrow)]
    arguments: Option<&'a RawValue>,
    /// 2026-07-28: the answers to the questions of the previous round.
    #[serde(rename = "inputResponses", default)]
    input_responses: Option<HashMap<String, Value>>,
    /// 2026-07-28: the state the previous round handed the client.
    #[serde(rename = "requestState", default)]
    request_state: Option<String>,
    #[serde(rename = "_meta", default, borrow)]
    meta: Option<&'a RawValue>,
}

/// `get_prompt`'s arguments: the prompt's name and its arguments.
#[derive(Deserialize)]
pub(crate) struct GetPromptArguments<'a> {
    #[serde(borrow, deserialize_with = "cow_str")]
    pub(crate) name: Cow<'a, str>,
    #[serde(default, borrow)]
    pub(crate) arguments: Arguments<'a>,
}

impl<'a> GetPromptArguments<'a> {
    /// Reads them from the call's `arguments`; what is wrong with them is
    /// for the model to correct (an `isError` result), not a protocol error.
    pub(crate) fn read(arguments: Option<&'a str>) -> Result<Self, Error> {
        serde_json::from_str(arguments.unwrap_or("{}")).map_err(|err| {
            Error::invalid_params(format!(
                "invalid arguments for get_prompt: {}; expected {{\"name\": \"<prompt>\", \"arguments\": {{\"<argument>\": \"<value>\"}}}}",
                brief(&err.to_string())
            ))
        })
    }
}

/// -32602 for a tool this server does not have.
pub(crate) fn unknown_tool(name: &str) -> Error {
    Error::invalid_params(format!("Unknown tool: {}", excerpt(name)))
}

impl Service {
    /// The prompts the tools offer a request served under `access`.
    pub(crate) fn tool_prompts(&self, access: &Access) -> Vec<AnyPrompt> {
        self.served().tool_prompts(access).cloned().collect()
    }
}

impl Session {
    pub(super) fn list_tools(
        &self,
        id: &RawValue,
        era: Era,
        raw: Option<&RawValue>,
    ) -> Result<String, Error> {
        #[derive(Deserialize)]
        struct ListParams<'a> {
            #[serde(default, borrow)]
            cursor: Option<&'a RawValue>,
        }
        let p: ListParams<'_> = params(raw)?;
        if let Some(cursor) = p.cursor.filter(|c| c.get() != "null") {
            // One page: no cursor was ever handed out.
            return Err(Error::invalid_params(format!(
                "invalid cursor: `{}`",
                excerpt(cursor.get())
            )));
        }
        let tools = json!({ "tools": definitions(era.version()) });
        Ok(match era {
            Era::Session(_) => success(id, &tools),
            // The same two tools for every caller.
            Era::Stateless(_) => self.service.modern_listing(id, &tools, false),
        })
    }

    pub(super) fn call_tool(
        &self,
        id: &RawValue,
        era: Era,
        raw: Option<&RawValue>,
        origin: &Origin,
    ) -> Reply {
        let p: CallParams<'_> = match params(raw) {
            Ok(p) => p,
            Err(error) => return Reply::Now(failure(Some(id), &error)),
        };
        let version = era.version();
        match &*p.name {
            LIST_PROMPTS => {
                let prompts = self.service.tool_prompts(&origin.access);
                let result = list_result(&prompts, version);
                Reply::Now(self.service.result(id, era, &result))
            }
            GET_PROMPT => {
                let arguments = match GetPromptArguments::read(p.arguments.map(RawValue::get)) {
                    Ok(arguments) => arguments,
                    Err(error) => {
                        return Reply::Now(self.service.result(id, era, &error_result(&error)));
                    }
                };
                let get = WireGet {
                    name: &arguments.name,
                    arguments: arguments.arguments,
                    retry: Retry {
                        input_responses: p.input_responses,
                        request_state: p.request_state,
                    },
                    meta: p.meta,
                    via_tool: true,
                };
                let write = move |service: &Service, id: &RawValue, result| {
                    Some(match ToolOutcome::of(result, version) {
                        ToolOutcome::Complete(result) => service.result(id, era, &result),
                        ToolOutcome::InputRequired(asked) => input_required(service, id, &asked),
                    })
                };
                self.run_get(id, era, get, origin, write)
            }
            other => Reply::Now(failure(Some(id), &unknown_tool(other))),
        }
    }
}
