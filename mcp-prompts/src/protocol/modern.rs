//! The 2026-07-28 revision's per-request `_meta`: which requests carry it,
//! what it says, and the errors for one that is malformed or names a
//! revision we do not serve. Also the envelope every modern result gets.

use std::borrow::Cow;
use std::sync::LazyLock;

use memchr::memmem;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::json;
use serde_json::value::RawValue;

use super::{LogLevel, ProtocolVersion, optional_cow_str};
use crate::error::{Error, excerpt};

/// The `_meta` key naming the request's protocol revision.
pub(crate) const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// The `_meta` key holding the client's capabilities.
pub(crate) const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// The `_meta` key of the least severe log level the request wants to hear.
pub(crate) const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
/// The result `_meta` key describing the server.
pub(crate) const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// -32022: the request names a revision this server does not serve.
pub(crate) const UNSUPPORTED_PROTOCOL_VERSION: i32 = -32022;

/// What a modern request says about itself in `_meta`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ModernMeta {
    pub(super) version: ProtocolVersion,
    /// `None`: the request wants no log messages at all.
    pub(super) log_level: Option<LogLevel>,
    /// Whether the client can answer a form `elicitation/create`.
    pub(super) can_elicit: bool,
}

impl ModernMeta {
    /// What a 2026-07-28 request says: its `version`, the `log_level` it
    /// wants (`None`: no log messages) and whether its client `can_elicit`
    /// a form.
    pub(crate) fn new(
        version: ProtocolVersion,
        log_level: Option<LogLevel>,
        can_elicit: bool,
    ) -> Self {
        Self {
            version,
            log_level,
            can_elicit,
        }
    }

    /// The log level it asks for; `None`: no log messages at all.
    pub(crate) fn log_level(self) -> Option<LogLevel> {
        self.log_level
    }

    /// Whether the client can answer a form `elicitation/create`.
    pub(crate) fn can_elicit(self) -> bool {
        self.can_elicit
    }
}

/// How a request's `_meta` reads.
#[derive(Debug)]
pub(crate) enum MetaRead {
    /// No per-request revision: the request belongs to a session.
    Legacy,
    /// A modern request, to be served statelessly.
    Modern(ModernMeta),
    /// A per-request revision with missing or malformed fields (-32602),
    /// or one we do not serve (-32022).
    Invalid(Error),
}

impl MetaRead {
    /// Reads the `_meta` of a request's `params`. Cheap for the requests of
    /// a session: unless the text names the per-request revision key, or
    /// holds a backslash (an escape can spell any key, the key included),
    /// the params are not parsed here.
    pub(crate) fn of(params: Option<&RawValue>) -> Self {
        match params {
            Some(params) if may_name_revision(params.get()) => read_params(params.get()),
            _ => Self::Legacy,
        }
    }
}

/// Whether `params` may hold the per-request revision key: spelt out, or
/// written with escapes. Neither that key nor `_meta` holds a quote, a
/// backslash or a control character, so the only escapes that can spell
/// them are `\/` and `\uXXXX`; text with other escapes only (code with
/// `\n` and `\"`) is not parsed here. An escaped backslash before `u`
/// or `/` is taken for such an escape: a needless parse, never a miss.
fn may_name_revision(params: &str) -> bool {
    static KEY: LazyLock<memmem::Finder<'static>> =
        LazyLock::new(|| memmem::Finder::new(PROTOCOL_VERSION));
    KEY.find(params.as_bytes()).is_some() || has_key_escape(params)
}

/// Whether `params` holds an escape that could spell a `_meta` key (`\/`
/// or `\uXXXX`): a key written so is found only by parsing.
fn has_key_escape(params: &str) -> bool {
    let bytes = params.as_bytes();
    memchr::memchr_iter(b'\\', bytes).any(|at| matches!(bytes.get(at + 1), Some(b'u' | b'/')))
}

/// Reads the `_meta` of a request's `params` text; malformed params are
/// -32602.
fn read_params(params: &str) -> MetaRead {
    #[derive(Deserialize)]
    struct Params<'a> {
        #[serde(rename = "_meta", borrow)]
        meta: Option<Meta<'a>>,
    }
    match serde_json::from_str::<Params<'_>>(params) {
        // Without the key (it was elsewhere, in an argument value), the
        // request belongs to a session.
        Ok(params) => params.meta.map_or(MetaRead::Legacy, Meta::read),
        Err(err) => MetaRead::Invalid(malformed_params(&err)),
    }
}

/// -32602 for params that are not a JSON object of the expected shape.
pub(crate) fn malformed_params(err: &serde_json::Error) -> Error {
    Error::invalid_params(format!(
        "malformed params: {}",
        crate::error::brief(&err.to_string())
    ))
}

impl Meta<'_> {
    /// The revision it names, as sent.
    pub(crate) fn revision_named(&self) -> Option<&str> {
        self.version.as_deref()
    }

    /// What it says: the request's own revision and capabilities, no
    /// per-request revision, or why it is refused.
    pub(crate) fn read(self) -> MetaRead {
        let Some(requested) = self.revision_named() else {
            return MetaRead::Legacy;
        };
        let version = match ProtocolVersion::parse(requested) {
            Some(version) if version.is_modern() => version,
            // A handshake revision named per request: the session decides.
            Some(_) => return MetaRead::Legacy,
            None => return MetaRead::Invalid(unsupported_version(requested)),
        };
        let Some(capabilities) = self.capabilities else {
            return MetaRead::Invalid(Error::invalid_params(format!(
                "the request's `_meta` lacks `{CLIENT_CAPABILITIES}`, which every request of revision {version} carries"
            )));
        };
        let log_level = match self.log_level.as_deref().map(LogLevel::parse) {
            None => None,
            Some(Some(level)) => Some(level),
            Some(None) => {
                return MetaRead::Invalid(Error::invalid_params(format!(
                    "invalid `{LOG_LEVEL}` `{}`: expected debug, info, notice, warning, error, critical, alert or emergency",
                    excerpt(self.log_level.as_deref().unwrap_or_default())
                )));
            }
        };
        let can_elicit = capabilities.offers_forms();
        MetaRead::Modern(ModernMeta::new(version, log_level, can_elicit))
    }
}

/// A request's `_meta`, as read from its params: what a route that reads
/// the params itself (HTTP, for its headers) hands [`Meta::read`].
#[derive(Deserialize)]
pub(crate) struct Meta<'a> {
    #[serde(
        rename = "io.modelcontextprotocol/protocolVersion",
        default,
        borrow,
        deserialize_with = "optional_cow_str"
    )]
    version: Option<Cow<'a, str>>,
    #[serde(rename = "io.modelcontextprotocol/clientCapabilities", default)]
    capabilities: Option<ClientCapabilities>,
    #[serde(
        rename = "io.modelcontextprotocol/logLevel",
        default,
        borrow,
        deserialize_with = "optional_cow_str"
    )]
    log_level: Option<Cow<'a, str>>,
}

/// What a client's capabilities tell the server: whether it can be shown
/// a form. Capabilities the server does not use are not read.
#[derive(Deserialize, Default)]
pub(crate) struct ClientCapabilities {
    elicitation: Option<Elicitation>,
}

#[derive(Deserialize)]
struct Elicitation {
    form: Option<IgnoredAny>,
    url: Option<IgnoredAny>,
}

/// Whether a client that declared `elicitation` (with its `form` and `url`
/// keys present or not) can be shown a form: `elicitation: {}` means form
/// mode, for clients of 2025-06-18; one that lists only `url` cannot.
pub(crate) fn offers_forms(form: bool, url: bool) -> bool {
    form || !url
}

impl ClientCapabilities {
    /// Whether the client declared form elicitation.
    pub(crate) fn offers_forms(&self) -> bool {
        self.elicitation
            .as_ref()
            .is_some_and(|e| offers_forms(e.form.is_some(), e.url.is_some()))
    }

    /// Reads a handshake's capabilities leniently: capabilities of a shape
    /// the server does not expect offer nothing, and never fail it.
    pub(crate) fn lenient<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(d)?;
        Ok(Self::deserialize(value).unwrap_or_default())
    }
}

/// -32022 naming the revisions we serve, newest first.
pub(crate) fn unsupported_version(requested: &str) -> Error {
    Error::new(UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version").with_data(json!({
        "supported": supported_versions(),
        "requested": excerpt(requested),
    }))
}

/// Every revision served, newest first.
pub(crate) fn supported_versions() -> Vec<&'static str> {
    ProtocolVersion::ALL
        .iter()
        .rev()
        .map(|v| v.as_str())
        .collect()
}

/// What a 2026-07-28 result is: the final one, or a request for input.
#[derive(Clone, Copy, Debug, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ResultType {
    Complete,
    InputRequired,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(params: &str) -> MetaRead {
        let raw = RawValue::from_string(params.to_owned()).unwrap();
        MetaRead::of(Some(&raw))
    }

    #[test]
    fn reads_a_modern_request() {
        let MetaRead::Modern(meta) = read(
            r#"{"name":"x","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"io.modelcontextprotocol/logLevel":"debug"}}"#,
        ) else {
            panic!("not modern");
        };
        assert_eq!(meta.version, ProtocolVersion::V2026_07_28);
        assert_eq!(meta.log_level, Some(LogLevel::Debug));
        assert!(meta.can_elicit);
    }

    #[test]
    fn keys_written_with_escapes_are_read_as_keys() {
        let caps = r#""io.modelcontextprotocol/clientCapabilities":{}"#;
        for meta in [
            r#""_meta":{"io.modelcontextprotocol\/protocolVersion":"2026-07-28","#,
            r#""_meta":{"io.modelcontextprotocol\u002fprotocolVersion":"2026-07-28","#,
            r#""\u005fmeta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","#,
        ] {
            let params = format!(r#"{{"name":"x",{meta}{caps}}}}}"#);
            assert!(matches!(read(&params), MetaRead::Modern(_)), "{params}");
        }
        // Other escapes leave a session request as it is, unparsed.
        assert!(!may_name_revision(
            r#"{"name":"x","arguments":{"code":"a\nb \"q\""}}"#
        ));
        assert!(matches!(
            read(r#"{"name":"x","arguments":{"code":"a\u0041\/"}}"#),
            MetaRead::Legacy
        ));
    }

    #[test]
    fn url_only_elicitation_cannot_show_a_form() {
        let MetaRead::Modern(meta) = read(
            r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"url":{}}}}}"#,
        ) else {
            panic!("not modern");
        };
        assert!(!meta.can_elicit);
        assert_eq!(meta.log_level, None);
    }

    #[test]
    fn session_requests_are_legacy() {
        assert!(matches!(read(r#"{"name":"x"}"#), MetaRead::Legacy));
        assert!(matches!(
            read(r#"{"arguments":{"a":"io.modelcontextprotocol/protocolVersion"}}"#),
            MetaRead::Legacy
        ));
        assert!(matches!(
            read(r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}"#),
            MetaRead::Legacy
        ));
        assert!(matches!(MetaRead::of(None), MetaRead::Legacy));
    }

    #[test]
    fn rejects_missing_capabilities_and_unknown_versions() {
        let MetaRead::Invalid(error) =
            read(r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}"#)
        else {
            panic!("accepted");
        };
        assert_eq!(error.code(), Error::INVALID_PARAMS);
        let MetaRead::Invalid(error) = read(
            r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01","io.modelcontextprotocol/clientCapabilities":{}}}"#,
        ) else {
            panic!("accepted");
        };
        assert_eq!(error.code(), UNSUPPORTED_PROTOCOL_VERSION);
        assert_eq!(error.data().unwrap()["supported"][0], "2026-07-28");
        assert_eq!(error.data().unwrap()["requested"], "1900-01-01");
    }
}
