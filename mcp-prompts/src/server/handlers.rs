use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;
use tokio::sync::mpsc;

use super::guard::{CatchPanic, Culprit, call_catching};
use super::{Era, Reply, Session};
use crate::args::{Arguments, Input, param::missing_arguments};
use crate::context::RequestParts;
use crate::error::excerpt;
use crate::invoke::Invocation;
use crate::message::PromptResult;
use crate::protocol::jsonrpc::{failure, success, success_raw};
use crate::protocol::{cow_str, optional_cow_str};
use crate::{Error, LogLevel, ProtocolVersion};

/// Reads `params` into `T`; absent params read as `{}`.
fn params<'a, T: Deserialize<'a>>(params: Option<&'a RawValue>) -> Result<T, Error> {
    let text = params.map_or("{}", RawValue::get);
    serde_json::from_str(text).map_err(|err| Error::bad_params(&err))
}

#[derive(Deserialize)]
struct InitializeParams<'a> {
    #[serde(rename = "protocolVersion", borrow, deserialize_with = "cow_str")]
    protocol_version: Cow<'a, str>,
}

#[derive(Deserialize)]
struct ListParams<'a> {
    #[serde(default, borrow, deserialize_with = "optional_cow_str")]
    cursor: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct GetParams<'a> {
    #[serde(borrow, deserialize_with = "cow_str")]
    name: Cow<'a, str>,
    #[serde(default, borrow)]
    arguments: Arguments<'a>,
}

#[derive(Deserialize)]
struct SetLevelParams<'a> {
    #[serde(borrow, deserialize_with = "cow_str")]
    level: Cow<'a, str>,
}

impl Session {
    /// Negotiates the revision: the client's if we support it, else our latest.
    pub(super) fn initialize(
        &self,
        id: &RawValue,
        raw: Option<&RawValue>,
    ) -> Result<String, Error> {
        let p: InitializeParams<'_> = params(raw)?;
        // A handshake never negotiates a stateless revision.
        let version = ProtocolVersion::parse(&p.protocol_version)
            .filter(|v| !v.is_modern())
            .unwrap_or(ProtocolVersion::LATEST);
        if !self.state.set_version(version) {
            return Err(Error::invalid_request("the session is already initialized"));
        }
        Ok(success_raw(id, self.service.initialize_result(version)))
    }

    pub(super) fn list_prompts(
        &self,
        id: &RawValue,
        version: ProtocolVersion,
        raw: Option<&RawValue>,
    ) -> Result<String, Error> {
        let p: ListParams<'_> = params(raw)?;
        let page = self.service.served().page(version, p.cursor.as_deref())?;
        Ok(success_raw(id, page))
    }

    pub(super) fn set_log_level(
        &self,
        id: &RawValue,
        raw: Option<&RawValue>,
    ) -> Result<String, Error> {
        let p: SetLevelParams<'_> = params(raw)?;
        let level = LogLevel::parse(&p.level).ok_or_else(|| {
            Error::invalid_params(format!(
                "invalid log level `{}`: expected debug, info, notice, warning, error, critical, alert or emergency",
                excerpt(&p.level)
            ))
        })?;
        self.state.outbound.set_log_level(level);
        Ok(success_raw(id, "{}"))
    }

    /// Checks the arguments, binds them and calls the prompt. A sync prompt
    /// is answered inline; an async one becomes a future for the transport.
    pub(super) fn get_prompt(
        &self,
        id: &RawValue,
        era: Era,
        raw: Option<&RawValue>,
        route: Option<&mpsc::Sender<String>>,
    ) -> Reply {
        let version = era.version();
        let fail = |error: Error| Reply::Now(failure(Some(id), &error));
        let p: GetParams<'_> = match params(raw) {
            Ok(p) => p,
            Err(error) => return fail(error),
        };
        let Some(entry) = self.service.served().get(&p.name) else {
            return fail(unknown_prompt(&p.name));
        };
        let missing: Vec<&str> = entry
            .required
            .iter()
            .copied()
            .filter(|name| p.arguments.get(name).is_none())
            .collect();
        if !missing.is_empty() {
            return fail(missing_arguments(entry.def.name, &missing));
        }
        let def = entry.def;
        let input = Input {
            def,
            arguments: &p.arguments,
            request: RequestParts {
                id,
                version,
                log: era.log(),
                outbound: &self.state.outbound,
                route,
            },
        };
        match call_catching(Culprit::prompt(def.name), || (def.invoke)(&input)) {
            Err(error) => fail(error),
            Ok(Invocation::Ready(result)) => {
                Reply::Now(respond(id, def.description, version, result))
            }
            Ok(Invocation::Pending(future)) => {
                let id = id.to_owned();
                let future = CatchPanic {
                    culprit: Culprit::prompt(def.name),
                    future,
                };
                Reply::Later(Box::pin(async move {
                    Some(respond(&id, def.description, version, future.await))
                }))
            }
        }
    }
}

/// -32602 for a prompt name the catalog does not have; the name is
/// repeated in `data` for clients to match, both times as an excerpt.
pub(super) fn unknown_prompt(name: &str) -> Error {
    let name = excerpt(name);
    Error::invalid_params(format!("Unknown prompt: {name}"))
        .with_data(serde_json::json!({ "name": name }))
}

fn respond(
    id: &RawValue,
    description: Option<&str>,
    version: ProtocolVersion,
    result: Result<PromptResult, Error>,
) -> String {
    match result.and_then(|r| r.check_version(version).map(|()| r)) {
        Ok(result) => success(id, &result.wire(description, version)),
        Err(error) => failure(Some(id), &error),
    }
}
