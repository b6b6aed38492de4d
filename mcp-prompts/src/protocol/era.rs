//! Which rules a request is served under, decided here and nowhere else:
//! a request whose `_meta` names revision 2026-07-28 is served statelessly
//! with what that `_meta` carries; any other belongs to its session, and
//! is served under the revision the session negotiated.

use serde_json::value::RawValue;

use super::ProtocolVersion;
use super::method::{Method, Request, ServerDiscover};
use super::modern::{CLIENT_CAPABILITIES, PROTOCOL_VERSION};
use super::modern::{MetaRead, ModernMeta};
#[cfg(feature = "http")]
use super::modern::{NamedInParams, read_head};
use crate::error::Error;

/// -32602 for `server/discover` sent as a session request: it exists only
/// in 2026-07-28, whose requests name their revision in `_meta`.
fn discover_without_meta() -> Error {
    Error::invalid_params(format!(
        "server/discover is a 2026-07-28 request: its `_meta` must carry `{PROTOCOL_VERSION}` and `{CLIENT_CAPABILITIES}`"
    ))
}

/// The rules a request is served under: its session's negotiated revision,
/// or the revision and capabilities a stateless request carries.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Era {
    Handshake(ProtocolVersion),
    Stateless(ModernMeta),
}

/// How a request's era reads, before its session is asked.
pub(crate) enum EraClaim {
    /// A 2026-07-28 request, served statelessly whatever the session.
    Stateless(ModernMeta),
    /// A request of the session: served under the revision it negotiated,
    /// or not at all before it has.
    Handshake,
}

/// A request's era, with what its headers are compared with.
#[cfg(feature = "http")]
pub(crate) struct HeaderFacts {
    /// The `name` (of a prompt, or a tool) and `uri` (of a resource) in
    /// its params.
    named: NamedInParams,
    /// The revision its `_meta` names, as sent.
    requested: Option<String>,
    decided: Result<EraClaim, Error>,
}

#[cfg(feature = "http")]
impl HeaderFacts {
    /// What its params name, the revision its `_meta` names (as sent),
    /// and its era or why it has none.
    pub(crate) fn into_parts(self) -> (NamedInParams, Option<String>, Result<EraClaim, Error>) {
        (self.named, self.requested, self.decided)
    }
}

impl Era {
    /// The era request `name` is served in, from its `params` and the
    /// revision its session negotiated (`session`): a 2026-07-28 one's
    /// own, else its session's; `None` before the session's `initialize`,
    /// when only the handshake is served. An error for a malformed `_meta`
    /// (see [`decide`](Self::decide)), and for `server/discover` without
    /// one: it exists only in 2026-07-28.
    #[inline]
    pub(crate) fn of_request(
        name: &str,
        params: Option<&RawValue>,
        session: Option<ProtocolVersion>,
    ) -> Result<Option<Self>, Error> {
        match Self::decide(params)? {
            EraClaim::Stateless(meta) => Ok(Some(Self::Stateless(meta))),
            EraClaim::Handshake if name == ServerDiscover::NAME => Err(discover_without_meta()),
            EraClaim::Handshake => Ok(session.map(Self::Handshake)),
        }
    }

    /// Whether its revisions have `method`.
    pub(crate) fn has(self, method: Method) -> bool {
        match self {
            Self::Handshake(_) => method.in_handshake(),
            Self::Stateless(_) => method.in_stateless(),
        }
    }

    /// Decides a request's era from its `params`; an error for a `_meta`
    /// that names the stateless revision but is malformed (-32602), or
    /// names a revision not served (-32022).
    pub(crate) fn decide(params: Option<&RawValue>) -> Result<EraClaim, Error> {
        match MetaRead::of(params) {
            MetaRead::Legacy => Ok(EraClaim::Handshake),
            MetaRead::Modern(meta) => Ok(EraClaim::Stateless(meta)),
            MetaRead::Invalid(error) => Err(error),
        }
    }

    /// Decides the era of a request whose headers must agree with it (a
    /// stateless HTTP `POST`), reading in the same pass what they are
    /// compared with: the name it gets, and the revision `_meta` names, as
    /// sent.
    #[cfg(feature = "http")]
    pub(crate) fn decide_with_head(params: &str) -> HeaderFacts {
        let (named, requested, read) = read_head(params);
        let decided = match read {
            MetaRead::Legacy => Ok(EraClaim::Handshake),
            MetaRead::Modern(meta) => Ok(EraClaim::Stateless(meta)),
            MetaRead::Invalid(error) => Err(error),
        };
        HeaderFacts {
            named,
            requested,
            decided,
        }
    }

    /// Whether a request's `params` make it a stateless one (a valid
    /// 2026-07-28 `_meta`).
    #[cfg(feature = "http")]
    pub(crate) fn is_stateless_request(params: Option<&RawValue>) -> bool {
        matches!(Self::decide(params), Ok(EraClaim::Stateless(_)))
    }

    /// The era of a request that another SDK has read already (rmcp): the
    /// revision it is served under and, for 2026-07-28, what its `_meta`
    /// says.
    #[cfg(feature = "rmcp")]
    pub(crate) fn of_version(
        version: ProtocolVersion,
        log_level: Option<super::LogLevel>,
        can_elicit: bool,
    ) -> Self {
        if version.is_modern() {
            Self::Stateless(ModernMeta {
                version,
                log_level,
                can_elicit,
            })
        } else {
            Self::Handshake(version)
        }
    }

    pub(crate) fn version(self) -> ProtocolVersion {
        match self {
            Self::Handshake(version) => version,
            Self::Stateless(meta) => meta.version,
        }
    }
}
