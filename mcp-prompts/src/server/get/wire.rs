//! `prompts/get` on our own transports: the request read from its typed
//! params, and how its outcome is written (a prompt's messages as the
//! revision shows them; 2026-07-28's input-required result for a round
//! that asks).

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::{GetOutcome, GetRequest, InputRequired, Retry};
use crate::context::{Progress, Sender};
use crate::error::Error;
use crate::message::WireResult;
use crate::protocol::answer::Answer;
use crate::protocol::modern::ResultType;
use crate::protocol::params::GetParams;
use crate::protocol::{Arguments, ProtocolVersion};
use crate::server::eventually::Eventually;
use crate::server::{Era, Session};

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
    /// Serves `prompts/get` from its params.
    pub(crate) fn get_prompt(
        &self,
        id: &RawValue,
        era: Era,
        p: GetParams<'_>,
        sender: &Sender,
    ) -> Eventually<Result<GetOutcome, Error>> {
        let (name, arguments, (input_responses, request_state), meta) = p.into_parts();
        let request = self
            .get_request(id, era, (&name, arguments), meta, sender)
            .retry(Retry::new(input_responses, request_state));
        self.service.get(request)
    }

    /// A `prompts/get` of this session's read from a request's JSON
    /// (`prompts/get`'s own, or the `get_prompt` tool's): prompt `name`
    /// with `arguments`, its progress token from `meta`.
    #[inline]
    pub(crate) fn get_request<'a>(
        &'a self,
        id: &'a RawValue,
        era: Era,
        (name, arguments): (&'a str, Arguments<'a>),
        meta: Option<&RawValue>,
        sender: &'a Sender,
    ) -> GetRequest<'a> {
        let progress = progress_token(meta).map(|token| Arc::new(Progress::new(&token)));
        GetRequest::new(id, era, (name, arguments), &self.state.outbound, sender).progress(progress)
    }
}

/// The `InputRequiredResult` body: the questions and the state.
#[derive(Serialize)]
pub(crate) struct InputRequiredBody<'a> {
    #[serde(rename = "inputRequests")]
    requests: &'a Map<String, Value>,
    #[serde(rename = "requestState")]
    state: &'a str,
}

impl InputRequired {
    /// The body of the 2026-07-28 result that asks these questions.
    pub(crate) fn body(&self) -> InputRequiredBody<'_> {
        InputRequiredBody {
            requests: &self.requests,
            state: &self.state,
        }
    }
}

/// A `prompts/get` result's fields: the messages, or the questions.
#[derive(Serialize)]
#[serde(untagged)]
enum GetBody<'a> {
    Prompt(WireResult<'a>),
    Asked(InputRequiredBody<'a>),
}

impl Answer for GetOutcome {
    fn result_type(&self) -> ResultType {
        match self {
            Self::Prompt { .. } => ResultType::Complete,
            // Only a stateless round ends asking; a session's asks and waits.
            Self::InputRequired(_) => ResultType::InputRequired,
        }
    }

    fn body(&self, version: ProtocolVersion) -> impl Serialize + '_ {
        match self {
            Self::Prompt { result, prompt } => {
                GetBody::Prompt(result.wire(prompt.description(), version))
            }
            Self::InputRequired(asked) => GetBody::Asked(asked.body()),
        }
    }
}
