//! How a `prompts/get` outcome is written: a prompt's messages as the
//! revision shows them; 2026-07-28's input-required result for a round
//! that asks.

use serde::Serialize;
use serde_json::{Map, Value};

use super::{GetOutcome, InputRequired};
use crate::message::VersionedResult;
use crate::protocol::ProtocolVersion;
use crate::protocol::answer::Answer;
use crate::protocol::language::Language;
use crate::protocol::modern::ResultType;

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
            requests: self.requests(),
            state: self.state(),
        }
    }
}

/// A `prompts/get` result's fields: the messages, or the questions.
#[derive(Serialize)]
#[serde(untagged)]
enum GetBody<'a> {
    Prompt(VersionedResult<'a>),
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

    fn content_language(&self) -> Option<&Language> {
        match self {
            Self::Prompt { language, .. } => language.as_ref(),
            Self::InputRequired(asked) => asked.language(),
        }
    }

    fn body(&self, version: ProtocolVersion) -> impl Serialize + '_ {
        match self {
            Self::Prompt { result, prompt, .. } => {
                GetBody::Prompt(result.versioned(prompt.description(), version))
            }
            Self::InputRequired(asked) => GetBody::Asked(asked.body()),
        }
    }
}
