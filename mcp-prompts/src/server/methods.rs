use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::{Era, Session};
use crate::caller::Access;
use crate::error::{Error, excerpt};
use crate::protocol::jsonrpc::{success, success_raw};
use crate::protocol::{LogLevel, ProtocolVersion, cow_str, optional_cow_str};

/// Reads `params` into `T`; absent params read as `{}`.
pub(super) fn params<'a, T: Deserialize<'a>>(params: Option<&'a RawValue>) -> Result<T, Error> {
    let text = params.map_or("{}", RawValue::get);
    serde_json::from_str(text).map_err(|err| Error::bad_params(&err))
}

#[derive(Deserialize)]
struct InitializeParams<'a> {
    #[serde(rename = "protocolVersion", borrow, deserialize_with = "cow_str")]
    protocol_version: Cow<'a, str>,
    /// Read leniently: capabilities we do not use never fail a handshake.
    #[serde(default, borrow)]
    capabilities: Option<&'a RawValue>,
}

/// Whether a client's capabilities offer form elicitation (`elicitation:
/// {}` means form mode, for clients of 2025-06-18).
fn offers_forms(capabilities: Option<&RawValue>) -> bool {
    let Some(capabilities) = capabilities else {
        return false;
    };
    let Ok(capabilities) = serde_json::from_str::<serde_json::Value>(capabilities.get()) else {
        return false;
    };
    capabilities
        .get("elicitation")
        .and_then(serde_json::Value::as_object)
        .is_some_and(|e| e.contains_key("form") || !e.contains_key("url"))
}

#[derive(Deserialize)]
struct ListParams<'a> {
    #[serde(default, borrow, deserialize_with = "optional_cow_str")]
    cursor: Option<Cow<'a, str>>,
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
        let can_elicit = version >= ProtocolVersion::V2025_06_18 && offers_forms(p.capabilities);
        self.state.outbound.set_can_elicit(can_elicit);
        self.service.listen(&self.state.outbound);
        Ok(success_raw(id, self.service.initialize_result(version)))
    }

    pub(super) fn list_prompts(
        &self,
        id: &RawValue,
        era: Era,
        raw: Option<&RawValue>,
        access: &Access,
    ) -> Result<String, Error> {
        let p: ListParams<'_> = params(raw)?;
        let served = self.service.served();
        let page = served.page(era.version(), p.cursor.as_deref(), access)?;
        Ok(match era {
            Era::Session(_) => success(id, &page),
            Era::Stateless(_) => self
                .service
                .modern_listing(id, &page, served.varies_for(access)),
        })
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
}

/// -32602 for a prompt name the catalog does not have; the name is
/// repeated in `data` for clients to match, both times as an excerpt.
pub(super) fn unknown_prompt(name: &str) -> Error {
    let name = excerpt(name);
    Error::invalid_params(format!("Unknown prompt: {name}"))
        .with_data(serde_json::json!({ "name": name }))
}
