//! Other versions of a prompt than the one served, chosen per request: a
//! `prompts/get` whose `_meta` names a registry's label or version
//! (`mcp-prompts/label`, `mcp-prompts/version`) is served from a set of
//! its own, checked for the caller as the served set is.

#[cfg(feature = "registry")]
use std::future::Future;
#[cfg(feature = "registry")]
use std::pin::Pin;
#[cfg(feature = "registry")]
use std::sync::Arc;

#[cfg(feature = "registry")]
use super::{AnyPrompt, CatalogSnapshot};
#[cfg(feature = "registry")]
use crate::caller::Access;
use crate::error::Error;

pub(crate) use crate::protocol::request_meta::{LABEL_META, VERSION_META};

/// What a request asks for in place of the version served.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Choice {
    /// The version a label points at.
    Label(String),
    /// A version by its number.
    Version(u32),
}

impl Choice {
    /// What a request's `_meta` chooses: `label`, the JSON of its
    /// `mcp-prompts/label` (a string), or `version`, of its
    /// `mcp-prompts/version` (a number from 1); -32602 for anything else,
    /// or both.
    pub(crate) fn read(label: Option<&str>, version: Option<&str>) -> Result<Option<Self>, Error> {
        match (label, version) {
            (None, None) => Ok(None),
            (Some(_), Some(_)) => Err(Error::invalid_params(format!(
                "`_meta` names both `{LABEL_META}` and `{VERSION_META}`: name one"
            ))),
            (Some(label), None) => match serde_json::from_str::<String>(label) {
                Ok(label) => Ok(Some(Self::Label(label))),
                Err(_) => Err(Error::invalid_params(format!(
                    "`_meta` `{LABEL_META}` must be a label (a string)"
                ))),
            },
            (None, Some(version)) => match serde_json::from_str::<u32>(version) {
                Ok(version) if version > 0 => Ok(Some(Self::Version(version))),
                _ => Err(Error::invalid_params(format!(
                    "`_meta` `{VERSION_META}` must be a version number from 1"
                ))),
            },
        }
    }
}

/// A one-prompt set serving the version chosen, if the caller may have it.
#[cfg(feature = "registry")]
pub(crate) type Chosen = Option<Arc<CatalogSnapshot>>;

/// Where the version chosen is.
#[cfg(feature = "registry")]
pub(crate) enum Found {
    /// It is the one the catalog serves.
    Catalog,
    /// Held now (or known not to be there, or not for this caller).
    Now(Chosen),
    /// Being read from where versions are kept.
    Later(Pin<Box<dyn Future<Output = Chosen> + Send>>),
}

/// What serves versions other than the one in the catalog: a registry
/// (feature `registry`).
#[cfg(feature = "registry")]
pub(crate) trait Variants: Send + Sync {
    /// The prompt the catalog serves as `served` (found for the caller),
    /// in the version `choice` says, for a request served under `access`:
    /// `None` when there is no such version, when `served` is not one of
    /// these versions (a folder's prompt of that name), or when the caller
    /// may not use the choice (exactly as for an unknown prompt).
    fn find(&self, served: &AnyPrompt, choice: &Choice, access: &Access) -> Found;
}

#[cfg(test)]
mod tests {
    use super::Choice;

    #[test]
    fn a_choice_is_a_label_or_a_version_number_never_both() {
        assert_eq!(Choice::read(None, None).unwrap(), None);
        assert_eq!(
            Choice::read(Some("\"staging\""), None).unwrap(),
            Some(Choice::Label("staging".into()))
        );
        assert_eq!(
            Choice::read(None, Some("3")).unwrap(),
            Some(Choice::Version(3))
        );
        for (label, version) in [
            (Some("3"), None),
            (None, Some("0")),
            (None, Some("\"3\"")),
            (None, Some("-1")),
            (None, Some("1.5")),
            (Some("\"a\""), Some("1")),
        ] {
            let error = Choice::read(label, version).unwrap_err();
            assert_eq!(error.code(), -32602, "{label:?} {version:?}");
        }
    }
}
