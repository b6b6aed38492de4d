//! Who sent a request: the verified [`Caller`] an HTTP transport (or an
//! app's own middleware, or rmcp) hands over, and the [`Access`] a request
//! is served under, which decides the prompts it may see.

use std::fmt;
use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// The verified identity behind a request: who the access token was issued
/// to, by whom, and what it grants. A prompt reads it through
/// [`RequestContext::caller`](crate::RequestContext::caller); a prompt's
/// visibility (`#[prompt(scopes = [..])]`, `#[prompt(visible = ..)]`) is
/// decided by it.
///
/// The `auth` feature's verifiers make one from each request's token. An
/// app that checks tokens in its own middleware makes one too, and puts it
/// in the request's extensions, where the HTTP endpoint finds it:
///
/// ```
/// use mcp_prompts::Caller;
///
/// let caller = Caller::new("alice")
///     .with_issuer("https://auth.example.com")
///     .with_scopes(["prompts", "deploy"]);
/// assert!(caller.has_scope("deploy"));
/// assert_eq!(caller.scopes(), ["prompts", "deploy"]);
/// ```
#[derive(Clone, PartialEq)]
pub struct Caller {
    subject: String,
    issuer: Option<String>,
    scopes: Vec<String>,
    client_id: Option<String>,
    claims: Map<String, Value>,
}

impl Caller {
    /// A caller known by `subject` (a token's `sub`), with no scopes.
    pub fn new(subject: impl Into<String>) -> Self {
        Self {
            subject: subject.into(),
            issuer: None,
            scopes: Vec::new(),
            client_id: None,
            claims: Map::new(),
        }
    }

    /// Who vouches for the caller: the token's issuer (`iss`).
    #[must_use]
    pub fn with_issuer(mut self, issuer: impl Into<String>) -> Self {
        self.issuer = Some(issuer.into());
        self
    }

    /// The scopes the caller was granted, in the token's order.
    #[must_use]
    pub fn with_scopes<I: IntoIterator<Item = S>, S: Into<String>>(mut self, scopes: I) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The OAuth client the token was issued through (`client_id` or `azp`).
    #[must_use]
    pub fn with_client_id(mut self, client_id: impl Into<String>) -> Self {
        self.client_id = Some(client_id.into());
        self
    }

    /// Every claim of the token, for what the typed accessors leave out.
    #[must_use]
    pub fn with_claims(mut self, claims: Map<String, Value>) -> Self {
        self.claims = claims;
        self
    }

    /// The subject (`sub`): who the caller is, unique within its issuer.
    pub fn subject(&self) -> &str {
        &self.subject
    }

    /// The issuer (`iss`), when known.
    pub fn issuer(&self) -> Option<&str> {
        self.issuer.as_deref()
    }

    /// The scopes granted, in the token's order.
    pub fn scopes(&self) -> &[String] {
        &self.scopes
    }

    /// Whether `scope` was granted.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|s| s == scope)
    }

    /// The OAuth client id, when the token names one.
    pub fn client_id(&self) -> Option<&str> {
        self.client_id.as_deref()
    }

    /// The token's claims (empty for a caller made by hand).
    pub fn claims(&self) -> &Map<String, Value> {
        &self.claims
    }

    /// Whether `other` is the same principal: the same issuer and subject.
    /// A session, and a question round's state, belong to one principal.
    pub fn same_principal(&self, other: &Self) -> bool {
        self.subject == other.subject && self.issuer == other.issuer
    }
}

impl fmt::Debug for Caller {
    // Claims may hold personal data: the debug form leaves them out.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Caller")
            .field("subject", &self.subject)
            .field("issuer", &self.issuer)
            .field("scopes", &self.scopes)
            .field("client_id", &self.client_id)
            .finish_non_exhaustive()
    }
}

/// Who a request is served for, which decides the prompts it may see.
#[derive(Clone, Debug, Default)]
pub(crate) enum Access {
    /// The local user, who owns the process (stdio, in-process): every
    /// prompt is shown.
    #[default]
    Local,
    /// A remote client (HTTP), with the caller its credentials prove, if
    /// any: a prompt restricted to some callers is hidden from the rest,
    /// and from a request that proves no caller.
    Remote(Option<Arc<Caller>>),
}

impl Access {
    /// The verified caller, if there is one.
    pub(crate) fn caller(&self) -> Option<&Arc<Caller>> {
        match self {
            Self::Local | Self::Remote(None) => None,
            Self::Remote(Some(caller)) => Some(caller),
        }
    }
}

/// Whether `scope` is a scope token (RFC 6749 §3.3); the rule is shared
/// with the macros.
pub(crate) use mcp_prompts_template::rules::is_valid_scope;

/// Who a caller is, as a session or a question round's state records it:
/// a digest of issuer and subject (a state is readable by the client; the
/// digest names nobody), empty for a request that proves no caller.
pub(crate) fn principal(caller: Option<&Caller>) -> String {
    let Some(caller) = caller else {
        return String::new();
    };
    let mut hash = Sha256::new();
    let issuer = caller.issuer().unwrap_or_default();
    hash.update(issuer.len().to_le_bytes());
    hash.update(issuer.as_bytes());
    hash.update(caller.subject().as_bytes());
    URL_SAFE_NO_PAD.encode(hash.finalize())
}
