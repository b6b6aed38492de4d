//! The session's own methods: `initialize`, `ping`, `logging/setLevel`
//! and `server/discover`.

use serde::de::IgnoredAny;
use serde_json::value::RawValue;

use super::handler::{Handled, Handler, Handling};
use super::info::{DiscoverResult, InitializeResult};
use super::outcome::{Held, Response};
use crate::error::{Error, excerpt};
use crate::protocol::answer::Empty;
use crate::protocol::era::Era;
use crate::protocol::method::{Initialize, LoggingSetLevel, Ping, Request};
use crate::protocol::params::SetLevelParams;
use crate::protocol::{LogLevel, ProtocolVersion};

/// `initialize`: negotiates the revision (the client's if we serve it,
/// else our latest) and opens the session. Its result borrows the
/// server's info, so it is answered here rather than through a
/// [`Handler`], whose results outlive the request.
pub(super) fn initialize<'a>(cx: Handling<'a>, params: Option<&'a RawValue>) -> Response<'a> {
    let p = match Initialize::params(params) {
        Ok(p) => p,
        Err(error) => return cx.refuse(error),
    };
    let version = ProtocolVersion::negotiate(p.protocol_version());
    let connection = cx.connection();
    if !connection.set_version(version) {
        return cx.refuse(Error::invalid_request("the session is already initialized"));
    }
    let can_elicit = version >= ProtocolVersion::V2025_06_18 && p.capabilities().offers_forms();
    connection.outbound.set_can_elicit(can_elicit);
    let service = cx.service();
    service.listen(&connection.outbound);
    #[cfg(feature = "otel")]
    connection.clock.open(version, cx.sender().network());
    let result = InitializeResult {
        info: &service.0.info,
        version,
    };
    cx.in_era(Era::Handshake(version))
        .now(Ok(result), Held::IfLarge)
}

/// `server/discover` (2026-07-28): the server's info, borrowed from it.
pub(super) fn discover(cx: Handling<'_>) -> Response<'_> {
    let info = &cx.service().0.info;
    cx.now(Ok(DiscoverResult { info }), Held::IfLarge)
}

impl Handler for Ping {
    type Result = Empty;

    fn handle(_: &Handling<'_>, _: IgnoredAny) -> Handled<Empty> {
        Handled::Now(Ok(Empty))
    }
}

impl Handler for LoggingSetLevel {
    type Result = Empty;

    fn handle<'a>(cx: &Handling<'a>, p: SetLevelParams<'a>) -> Handled<Empty> {
        Handled::Now(set_log_level(cx, &p))
    }
}

fn set_log_level(cx: &Handling<'_>, p: &SetLevelParams<'_>) -> Result<Empty, Error> {
    let level = LogLevel::parse(p.level()).ok_or_else(|| {
        Error::invalid_params(format!(
            "invalid log level `{}`: expected debug, info, notice, warning, error, critical, alert or emergency",
            excerpt(p.level())
        ))
    })?;
    cx.connection().outbound.set_log_level(level);
    Ok(Empty)
}

/// -32602 for a prompt name the catalog does not have; the name is
/// repeated in `data` for clients to match, both times as an excerpt.
pub(super) fn unknown_prompt(name: &str) -> Error {
    let name = excerpt(name);
    Error::invalid_params(format!("Unknown prompt: {name}")).with_detail("name", name)
}
