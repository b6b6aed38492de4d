//! What a stateless request's headers repeat from its body, read from the
//! params in one pass with the `_meta` that decides its era: a prompt's or
//! a tool's `name` (`Mcp-Name`), a resource's `uri`, and the revision its
//! `_meta` names, as sent (`MCP-Protocol-Version`).

use std::borrow::Cow;

use serde::Deserialize;

use crate::error::Error;
use serde_json::value::RawValue;

use crate::protocol::era::EraClaim;
use crate::protocol::modern::{Meta, malformed_params};
use crate::protocol::optional_cow_str;
use crate::protocol::request_meta::RequestMeta;

/// A stateless request's params as its headers are compared with them.
pub(super) struct HeaderFacts {
    name: Option<String>,
    uri: Option<String>,
    requested: Option<String>,
    claim: Result<EraClaim, Error>,
    /// The language preference `_meta` carries, as sent.
    preference: Option<String>,
}

/// The preference `meta` carries, as sent; none where it does not read.
fn preference_in(meta: &RawValue) -> Option<Cow<'_, str>> {
    serde_json::from_str::<RequestMeta<'_>>(meta.get())
        .ok()?
        .preference()
}

impl HeaderFacts {
    /// Reads `params` (the text of a request's params, `{}` if it has
    /// none) once.
    pub(super) fn read(params: &str) -> Self {
        #[derive(Deserialize)]
        struct Params<'a> {
            #[serde(default, borrow, deserialize_with = "optional_cow_str")]
            name: Option<Cow<'a, str>>,
            #[serde(default, borrow, deserialize_with = "optional_cow_str")]
            uri: Option<Cow<'a, str>>,
            #[serde(rename = "_meta", borrow)]
            meta: Option<&'a RawValue>,
        }
        let read = serde_json::from_str::<Params<'_>>(params).and_then(|params| {
            // `_meta` read twice: for the era, and for the language.
            let meta = params
                .meta
                .map(|raw| serde_json::from_str::<Meta<'_>>(raw.get()));
            let preference = params.meta.and_then(preference_in).map(Cow::into_owned);
            Ok((params.name, params.uri, meta.transpose()?, preference))
        });
        match read {
            Ok((name, uri, meta, preference)) => Self {
                name: name.map(Cow::into_owned),
                uri: uri.map(Cow::into_owned),
                preference,
                requested: meta
                    .as_ref()
                    .and_then(Meta::revision_named)
                    .map(str::to_owned),
                // Without `_meta`, the request would belong to a session.
                claim: meta.map_or(Ok(EraClaim::Handshake), |meta| EraClaim::of(meta.read())),
            },
            Err(err) => Self {
                name: None,
                uri: None,
                requested: None,
                claim: Err(malformed_params(&err)),
                preference: None,
            },
        }
    }

    /// A prompt's or a tool's `name`, if the params have one.
    pub(super) fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// A resource's `uri`, if the params have one.
    pub(super) fn uri(&self) -> Option<&str> {
        self.uri.as_deref()
    }

    /// The revision `_meta` names, as sent.
    pub(super) fn requested(&self) -> Option<&str> {
        self.requested.as_deref()
    }

    /// The language preference its `_meta` carries, as sent.
    pub(super) fn preference(&self) -> Option<&str> {
        self.preference.as_deref()
    }

    /// The era its `_meta` claims, or why it has none.
    pub(super) fn claim(&self) -> Result<EraClaim, Error> {
        self.claim.clone()
    }
}
