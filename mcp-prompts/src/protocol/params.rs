//! What each request's `params` hold, read borrowed from the request's
//! text where they can be. The method table names one of these per method.

use std::borrow::Cow;
use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::modern::ClientCapabilities;
use super::{Arguments, cow_str, optional_cow_str};

/// `initialize`: the revision the client asks for, and its capabilities.
#[derive(Deserialize)]
pub(crate) struct InitializeParams<'a> {
    #[serde(rename = "protocolVersion", borrow, deserialize_with = "cow_str")]
    pub(crate) protocol_version: Cow<'a, str>,
    /// Read leniently: capabilities we do not use never fail a handshake.
    #[serde(default, deserialize_with = "ClientCapabilities::lenient")]
    pub(crate) capabilities: ClientCapabilities,
}

/// A listing's params: the cursor of the page wanted, if not the first.
#[derive(Deserialize)]
pub(crate) struct ListParams<'a> {
    #[serde(default, borrow, deserialize_with = "optional_cow_str")]
    pub(crate) cursor: Option<Cow<'a, str>>,
}

/// A request naming one resource (or skill) by its URI.
#[derive(Deserialize)]
pub(crate) struct UriParams<'a> {
    #[serde(borrow, deserialize_with = "cow_str")]
    pub(crate) uri: Cow<'a, str>,
}

/// `resources/directory/read`: a directory's URI, and the cursor of the
/// page wanted, if not the first.
#[derive(Deserialize)]
pub(crate) struct DirectoryParams<'a> {
    #[serde(borrow, deserialize_with = "cow_str")]
    pub(crate) uri: Cow<'a, str>,
    #[serde(default, borrow, deserialize_with = "optional_cow_str")]
    pub(crate) cursor: Option<Cow<'a, str>>,
}

/// `logging/setLevel`.
#[derive(Deserialize)]
pub(crate) struct SetLevelParams<'a> {
    #[serde(borrow, deserialize_with = "cow_str")]
    pub(crate) level: Cow<'a, str>,
}

/// `prompts/get`.
#[derive(Deserialize)]
pub(crate) struct GetParams<'a> {
    #[serde(borrow, deserialize_with = "cow_str")]
    pub(crate) name: Cow<'a, str>,
    #[serde(default, borrow)]
    pub(crate) arguments: Arguments<'a>,
    /// 2026-07-28: the answers to the questions of the previous round.
    #[serde(rename = "inputResponses", default)]
    pub(crate) input_responses: Option<HashMap<String, Value>>,
    /// 2026-07-28: the state the previous round handed the client.
    #[serde(rename = "requestState", default)]
    pub(crate) request_state: Option<String>,
    #[serde(rename = "_meta", default, borrow)]
    pub(crate) meta: Option<&'a RawValue>,
}

/// `tools/call`: the tool, its arguments as JSON (read by the tool), and
/// what a retry brings. (One struct generic over the arguments would say
/// this once, but serde's code for it costs `prompts/get` about fifty
/// instructions a request.)
#[derive(Deserialize)]
pub(crate) struct CallParams<'a> {
    #[serde(borrow, deserialize_with = "cow_str")]
    pub(crate) name: Cow<'a, str>,
    #[serde(default, borrow)]
    pub(crate) arguments: Option<&'a RawValue>,
    /// 2026-07-28: the answers to the questions of the previous round.
    #[serde(rename = "inputResponses", default)]
    pub(crate) input_responses: Option<HashMap<String, Value>>,
    /// 2026-07-28: the state the previous round handed the client.
    #[serde(rename = "requestState", default)]
    pub(crate) request_state: Option<String>,
    #[serde(rename = "_meta", default, borrow)]
    pub(crate) meta: Option<&'a RawValue>,
}

/// `completion/complete`.
#[derive(Deserialize)]
pub(crate) struct CompleteParams<'a> {
    #[serde(rename = "ref", borrow)]
    pub(crate) reference: CompletionRef<'a>,
    #[serde(borrow)]
    pub(crate) argument: CompletionArgument<'a>,
    #[serde(default, borrow)]
    pub(crate) context: Option<CompletionContext<'a>>,
}

/// What is completed: `ref/prompt` with a `name`, `ref/resource` with a
/// `uri`; checked by the handler, which says what is missing.
#[derive(Deserialize)]
pub(crate) struct CompletionRef<'a> {
    #[serde(rename = "type", borrow, deserialize_with = "cow_str")]
    pub(crate) kind: Cow<'a, str>,
    #[serde(default, borrow, deserialize_with = "optional_cow_str")]
    pub(crate) name: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "optional_cow_str")]
    pub(crate) uri: Option<Cow<'a, str>>,
}

/// The argument being completed, and what the user typed of it.
#[derive(Deserialize)]
pub(crate) struct CompletionArgument<'a> {
    #[serde(borrow, deserialize_with = "cow_str")]
    pub(crate) name: Cow<'a, str>,
    #[serde(borrow, deserialize_with = "cow_str")]
    pub(crate) value: Cow<'a, str>,
}

/// The arguments the user filled in already.
#[derive(Deserialize)]
pub(crate) struct CompletionContext<'a> {
    #[serde(default, borrow)]
    pub(crate) arguments: Arguments<'a>,
}

/// `subscriptions/listen`: the notifications wanted.
#[derive(Deserialize)]
pub(crate) struct ListenParams {
    pub(crate) notifications: ListenFilter,
}

/// The notification types a client asks for; prompts' and resources'
/// (the skills') are served.
#[derive(Deserialize)]
pub(crate) struct ListenFilter {
    #[serde(rename = "promptsListChanged", default)]
    pub(crate) prompts_list_changed: bool,
    #[serde(rename = "resourcesListChanged", default)]
    pub(crate) resources_list_changed: bool,
}
