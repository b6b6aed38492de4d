//! `prompts/get` on our own transports: the request read from its JSON
//! params, and the outcome written once, in the request's era (a
//! 2026-07-28 result in its envelope).

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::{GetOutcome, GetRequest, GetResult, Got, InputRequired, Retry, WriteOutcome};
use crate::context::{Origin, Progress};
use crate::protocol::jsonrpc::{failure, success};
use crate::protocol::modern::ResultType;
use crate::protocol::{Arguments, cow_str};
use crate::server::methods::params;
use crate::server::{Era, Reply, Service, Session};

#[derive(Deserialize)]
struct GetParams<'a> {
    #[serde(borrow, deserialize_with = "cow_str")]
    name: Cow<'a, str>,
    #[serde(default, borrow)]
    arguments: Arguments<'a>,
    /// 2026-07-28: the answers to the questions of the previous round.
    #[serde(rename = "inputResponses", default)]
    input_responses: Option<HashMap<String, Value>>,
    /// 2026-07-28: the state the previous round handed the client.
    #[serde(rename = "requestState", default)]
    request_state: Option<String>,
    #[serde(rename = "_meta", default, borrow)]
    meta: Option<&'a RawValue>,
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

impl Session {
    /// Serves `prompts/get` from its JSON params.
    pub(crate) fn get_prompt(
        &self,
        id: &RawValue,
        era: Era,
        raw: Option<&RawValue>,
        origin: &Origin,
    ) -> Reply {
        let p: GetParams<'_> = match params(raw) {
            Ok(p) => p,
            Err(error) => return Reply::Now(failure(Some(id), &error)),
        };
        let get = WireGet {
            name: &p.name,
            arguments: p.arguments,
            retry: Retry {
                input_responses: p.input_responses,
                request_state: p.request_state,
            },
            meta: p.meta,
            via_tool: false,
        };
        let write =
            move |service: &Service, id: &RawValue, result| Some(respond(service, id, era, result));
        self.run_get(id, era, get, origin, write)
    }

    /// Runs a `prompts/get` read from a request's JSON (`prompts/get`'s own,
    /// or the `get_prompt` tool's), its outcome written by `write`.
    pub(crate) fn run_get<W>(
        &self,
        id: &RawValue,
        era: Era,
        get: WireGet<'_>,
        origin: &Origin,
        write: W,
    ) -> Reply
    where
        W: WriteOutcome<Option<String>>,
    {
        let request = GetRequest {
            id,
            era,
            name: get.name,
            arguments: get.arguments,
            retry: get.retry,
            progress: progress_token(get.meta).map(|token| Arc::new(Progress::new(&token))),
            outbound: &self.state.outbound,
            origin,
            via_tool: get.via_tool,
        };
        match self.service.get(request, write) {
            Got::Now(message) => message.map_or(Reply::None, Reply::Now),
            Got::Later(future) => Reply::Later(future),
        }
    }
}

/// What a `prompts/get` run reads from a request's JSON.
pub(crate) struct WireGet<'a> {
    pub(crate) name: &'a str,
    pub(crate) arguments: Arguments<'a>,
    pub(crate) retry: Retry,
    /// The request's `_meta`, for its progress token.
    pub(crate) meta: Option<&'a RawValue>,
    /// Whether through the `get_prompt` tool.
    pub(crate) via_tool: bool,
}

/// The `InputRequiredResult` body: the questions and the state.
#[derive(Serialize)]
struct InputRequiredBody<'a> {
    #[serde(rename = "inputRequests")]
    requests: &'a Map<String, Value>,
    #[serde(rename = "requestState")]
    state: &'a str,
}

/// The 2026-07-28 input-required response of a run that asked questions.
pub(crate) fn input_required(service: &Service, id: &RawValue, asked: &InputRequired) -> String {
    let body = InputRequiredBody {
        requests: &asked.requests,
        state: &asked.state,
    };
    let modern = &service.inner().modern;
    success(id, &modern.envelope(ResultType::InputRequired, &body))
}

/// The response to `prompts/get`, in the request's era.
fn respond(service: &Service, id: &RawValue, era: Era, result: GetResult) -> String {
    let modern = &service.inner().modern;
    match (result, era) {
        (Ok(GetOutcome::Prompt { result, prompt }), Era::Session(version)) => {
            success(id, &result.wire(prompt.description(), version))
        }
        (Ok(GetOutcome::Prompt { result, prompt }), Era::Stateless(meta)) => {
            let wire = result.wire(prompt.description(), meta.version);
            success(id, &modern.envelope(ResultType::Complete, &wire))
        }
        (Ok(GetOutcome::InputRequired(asked)), _) => {
            debug_assert!(
                matches!(era, Era::Stateless(_)),
                "a session asks, it never ends"
            );
            input_required(service, id, &asked)
        }
        (Err(error), _) => failure(Some(id), &error),
    }
}
