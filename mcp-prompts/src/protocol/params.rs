//! What each request's `params` hold, read borrowed from the request's
//! text where they can be. The method table names one of these per method.

use std::borrow::Cow;
use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::modern::ClientCapabilities;
use super::request_meta::RequestMeta;
use super::{Arguments, cow_str, optional_cow_str};

/// `initialize`: the revision the client asks for, and its capabilities.
#[derive(Deserialize)]
pub(crate) struct InitializeParams<'a> {
    #[serde(rename = "protocolVersion", borrow, deserialize_with = "cow_str")]
    protocol_version: Cow<'a, str>,
    /// Read leniently: capabilities we do not use never fail a handshake.
    #[serde(default, deserialize_with = "ClientCapabilities::lenient")]
    capabilities: ClientCapabilities,
}

/// A listing's params: the cursor of the page wanted, if not the first.
#[derive(Deserialize)]
pub(crate) struct ListParams<'a> {
    #[serde(default, borrow, deserialize_with = "optional_cow_str")]
    cursor: Option<Cow<'a, str>>,
    #[serde(rename = "_meta", default, borrow)]
    meta: Option<RequestMeta<'a>>,
}

/// A request naming one resource (or skill) by its URI.
#[derive(Deserialize)]
pub(crate) struct UriParams<'a> {
    #[serde(borrow, deserialize_with = "cow_str")]
    uri: Cow<'a, str>,
}

/// `resources/directory/read`: a directory's URI, and the cursor of the
/// page wanted, if not the first.
#[derive(Deserialize)]
pub(crate) struct DirectoryParams<'a> {
    #[serde(borrow, deserialize_with = "cow_str")]
    uri: Cow<'a, str>,
    #[serde(default, borrow, deserialize_with = "optional_cow_str")]
    cursor: Option<Cow<'a, str>>,
}

/// `logging/setLevel`.
#[derive(Deserialize)]
pub(crate) struct SetLevelParams<'a> {
    #[serde(borrow, deserialize_with = "cow_str")]
    level: Cow<'a, str>,
}

/// `prompts/get`.
#[derive(Deserialize)]
pub(crate) struct GetParams<'a> {
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
    meta: Option<RequestMeta<'a>>,
}

/// `tools/call`: the tool, its arguments as JSON (read by the tool), and
/// what a retry brings. (One struct generic over the arguments would say
/// this once, but serde's code for it costs `prompts/get` about fifty
/// instructions a request.)
#[derive(Deserialize)]
pub(crate) struct CallParams<'a> {
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
    meta: Option<RequestMeta<'a>>,
}

/// `completion/complete`.
#[derive(Deserialize)]
pub(crate) struct CompleteParams<'a> {
    #[serde(rename = "ref", borrow)]
    reference: CompletionRef<'a>,
    #[serde(borrow)]
    argument: CompletionArgument<'a>,
    #[serde(default, borrow)]
    context: Option<CompletionContext<'a>>,
}

/// What is completed: `ref/prompt` with a `name`, `ref/resource` with a
/// `uri`; checked by the handler, which says what is missing.
#[derive(Deserialize)]
pub(crate) struct CompletionRef<'a> {
    #[serde(rename = "type", borrow, deserialize_with = "cow_str")]
    kind: Cow<'a, str>,
    #[serde(default, borrow, deserialize_with = "optional_cow_str")]
    name: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "optional_cow_str")]
    uri: Option<Cow<'a, str>>,
}

/// The argument being completed, and what the user typed of it.
#[derive(Deserialize)]
pub(crate) struct CompletionArgument<'a> {
    #[serde(borrow, deserialize_with = "cow_str")]
    name: Cow<'a, str>,
    #[serde(borrow, deserialize_with = "cow_str")]
    value: Cow<'a, str>,
}

/// The arguments the user filled in already.
#[derive(Deserialize)]
pub(crate) struct CompletionContext<'a> {
    #[serde(default, borrow)]
    arguments: Arguments<'a>,
}

/// `subscriptions/listen`: the notifications wanted.
#[derive(Deserialize)]
pub(crate) struct ListenParams {
    notifications: ListenFilter,
}

/// The notification types a client asks for; prompts' and resources'
/// (the skills') are served.
#[derive(Deserialize)]
pub(crate) struct ListenFilter {
    #[serde(rename = "promptsListChanged", default)]
    prompts_list_changed: bool,
    #[serde(rename = "resourcesListChanged", default)]
    resources_list_changed: bool,
}

/// The answers and state a 2026-07-28 retry brings: `inputResponses` and
/// `requestState`, taken out of the request that carried them.
pub(crate) type RetryParts = (Option<HashMap<String, Value>>, Option<String>);

impl InitializeParams<'_> {
    /// The revision the client asks for, as it spelled it.
    pub(crate) fn protocol_version(&self) -> &str {
        &self.protocol_version
    }

    pub(crate) fn capabilities(&self) -> &ClientCapabilities {
        &self.capabilities
    }
}

impl<'a> ListParams<'a> {
    /// The cursor of the page wanted; `None` for the first.
    pub(crate) fn cursor(&self) -> Option<&str> {
        self.cursor.as_deref()
    }

    /// The languages the request prefers, as its `_meta` says them.
    pub(crate) fn preference(&self) -> Option<Cow<'a, str>> {
        self.meta.as_ref()?.preference()
    }
}

impl UriParams<'_> {
    pub(crate) fn uri(&self) -> &str {
        &self.uri
    }
}

impl DirectoryParams<'_> {
    pub(crate) fn uri(&self) -> &str {
        &self.uri
    }

    /// The cursor of the page wanted; `None` for the first.
    pub(crate) fn cursor(&self) -> Option<&str> {
        self.cursor.as_deref()
    }
}

impl SetLevelParams<'_> {
    /// The level asked for, as the client spelled it.
    pub(crate) fn level(&self) -> &str {
        &self.level
    }
}

impl<'a> GetParams<'a> {
    /// The prompt's name, its arguments, what a retry brings, and the
    /// request's `_meta`: taken apart whole, as `prompts/get` uses them all
    /// (no field is left behind to be dropped).
    #[inline]
    pub(crate) fn into_parts(
        self,
    ) -> (
        Cow<'a, str>,
        Arguments<'a>,
        RetryParts,
        Option<RequestMeta<'a>>,
    ) {
        let retry = (self.input_responses, self.request_state);
        (self.name, self.arguments, retry, self.meta)
    }
}

impl<'a> CallParams<'a> {
    /// The tool's name.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// The tool's arguments as JSON text, read by the tool.
    pub(crate) fn arguments(&self) -> Option<&'a RawValue> {
        self.arguments
    }

    pub(crate) fn meta(&self) -> Option<&RequestMeta<'a>> {
        self.meta.as_ref()
    }

    /// What a retry brings, left empty here.
    pub(crate) fn take_retry(&mut self) -> RetryParts {
        (self.input_responses.take(), self.request_state.take())
    }
}

impl CompleteParams<'_> {
    /// The reference's `type`, as sent.
    pub(crate) fn reference_kind(&self) -> &str {
        &self.reference.kind
    }

    /// The reference's `name` (a prompt's), if it has one.
    pub(crate) fn reference_name(&self) -> Option<&str> {
        self.reference.name.as_deref()
    }

    /// The reference's `uri` (a resource's), if it has one.
    pub(crate) fn reference_uri(&self) -> Option<&str> {
        self.reference.uri.as_deref()
    }

    /// The argument being completed.
    pub(crate) fn argument_name(&self) -> &str {
        &self.argument.name
    }

    /// What the user typed of it so far.
    pub(crate) fn argument_value(&self) -> &str {
        &self.argument.value
    }

    /// The arguments filled in already, if the client said.
    pub(crate) fn filled(&self) -> Option<&Arguments<'_>> {
        self.context.as_ref().map(|c| &c.arguments)
    }
}

impl ListenParams {
    /// Whether `notifications/prompts/list_changed` is wanted.
    pub(crate) fn prompts_list_changed(&self) -> bool {
        self.notifications.prompts_list_changed
    }

    /// Whether `notifications/resources/list_changed` is wanted.
    pub(crate) fn resources_list_changed(&self) -> bool {
        self.notifications.resources_list_changed
    }
}
