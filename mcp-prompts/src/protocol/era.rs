//! Which rules a request is served under, decided here and nowhere else:
//! a request whose `_meta` names revision 2026-07-28 is served statelessly
//! with what that `_meta` carries; any other belongs to its session, and
//! is served under the revision the session negotiated.

use serde_json::value::RawValue;

use super::ProtocolVersion;
use super::method::{Method, Request, ServerDiscover};
use super::modern::{CLIENT_CAPABILITIES, PROTOCOL_VERSION};
use super::modern::{MetaRead, ModernMeta};
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
#[derive(Clone, Copy, Debug)]
pub(crate) enum EraClaim {
    /// A 2026-07-28 request, served statelessly whatever the session.
    Stateless(ModernMeta),
    /// A request of the session: served under the revision it negotiated,
    /// or not at all before it has.
    Handshake,
}

impl EraClaim {
    /// The claim a request's `_meta`, as `read`, makes; an error for a
    /// malformed one (-32602) or one naming a revision not served
    /// (-32022).
    pub(crate) fn of(read: MetaRead) -> Result<Self, Error> {
        match read {
            MetaRead::Legacy => Ok(Self::Handshake),
            MetaRead::Modern(meta) => Ok(Self::Stateless(meta)),
            MetaRead::Invalid(error) => Err(error),
        }
    }
}

impl Era {
    /// The era request `name` is served in, from its `params` (or the
    /// `claim` its route read from them already) and the revision its
    /// session negotiated (`session`): a 2026-07-28 one's own, else its
    /// session's; `None` before the session's `initialize`, when only the
    /// handshake is served. An error for a malformed `_meta` (see
    /// [`decide`](Self::decide)), and for `server/discover` without one: it
    /// exists only in 2026-07-28.
    #[inline]
    pub(crate) fn of_request(
        name: &str,
        (params, claim): (Option<&RawValue>, Option<EraClaim>),
        session: Option<ProtocolVersion>,
    ) -> Result<Option<Self>, Error> {
        let claim = match claim {
            Some(claim) => claim,
            None => Self::decide(params)?,
        };
        match claim {
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
        EraClaim::of(MetaRead::of(params))
    }

    pub(crate) fn version(self) -> ProtocolVersion {
        match self {
            Self::Handshake(version) => version,
            Self::Stateless(meta) => meta.version,
        }
    }
}
