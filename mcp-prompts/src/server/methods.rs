//! The session's own methods: `initialize` and `logging/setLevel`.

use super::Session;
use super::info::InitializeResult;
use crate::error::{Error, excerpt};
use crate::protocol::answer::Empty;
use crate::protocol::params::{InitializeParams, SetLevelParams};
use crate::protocol::{LogLevel, ProtocolVersion};

impl Session {
    /// Negotiates the revision: the client's if we support it, else our latest.
    pub(super) fn initialize(
        &self,
        p: &InitializeParams<'_>,
    ) -> Result<InitializeResult<'_>, Error> {
        // A handshake never negotiates a stateless revision.
        let version = ProtocolVersion::parse(p.protocol_version())
            .filter(|v| !v.is_modern())
            .unwrap_or(ProtocolVersion::LATEST);
        if !self.state.set_version(version) {
            return Err(Error::invalid_request("the session is already initialized"));
        }
        let can_elicit = version >= ProtocolVersion::V2025_06_18 && p.capabilities().offers_forms();
        self.state.outbound.set_can_elicit(can_elicit);
        self.service.listen(&self.state.outbound);
        let info = &self.service.0.info;
        Ok(InitializeResult { info, version })
    }

    pub(super) fn set_log_level(&self, p: &SetLevelParams<'_>) -> Result<Empty, Error> {
        let level = LogLevel::parse(p.level()).ok_or_else(|| {
            Error::invalid_params(format!(
                "invalid log level `{}`: expected debug, info, notice, warning, error, critical, alert or emergency",
                excerpt(p.level())
            ))
        })?;
        self.state.outbound.set_log_level(level);
        Ok(Empty)
    }
}

/// -32602 for a prompt name the catalog does not have; the name is
/// repeated in `data` for clients to match, both times as an excerpt.
pub(super) fn unknown_prompt(name: &str) -> Error {
    let name = excerpt(name);
    Error::invalid_params(format!("Unknown prompt: {name}"))
        .with_data(serde_json::json!({ "name": name }))
}
