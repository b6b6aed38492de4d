//! The MCP server as an OAuth 2.1 resource server (feature `auth`): every
//! request's bearer token verified, `401`/`403` challenges that point at
//! the Protected Resource Metadata (RFC 9728), and that document served.

mod challenge;
mod jwt;
mod keys;
mod metadata;
mod owners;

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::HeaderMap;
use axum::middleware::{self, Next};
use axum::response::Response;

pub use jwt::{JwtAlgorithm, JwtVerifier};

use crate::caller::{Caller, principal};
use crate::server::Service;
use challenge::Challenge;
use owners::SessionOwners;

/// Checks bearer tokens: one in, the [`Caller`] it proves (or why not)
/// out. [`JwtVerifier`] checks JWTs against the issuer's published keys;
/// implement this for anything else (token introspection, an API-key
/// store).
///
/// ```
/// use mcp_prompts::{Caller, TokenError, TokenVerifier};
///
/// struct Keys;
///
/// impl TokenVerifier for Keys {
///     async fn verify(&self, token: &str) -> Result<Caller, TokenError> {
///         match token {
///             "k-ann" => Ok(Caller::new("ann").with_scopes(["prompts"])),
///             _ => Err(TokenError::invalid("unknown key")),
///         }
///     }
/// }
/// ```
pub trait TokenVerifier: Send + Sync + 'static {
    /// The caller `token` proves, or why it proves none.
    fn verify(&self, token: &str) -> impl Future<Output = Result<Caller, TokenError>> + Send;
}

/// Why a token proves no caller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenError {
    unavailable: bool,
    reason: String,
}

impl TokenError {
    /// The token is malformed, expired, not for this server, or forged:
    /// answered `401` with `error="invalid_token"`, so the client gets a
    /// new one.
    pub fn invalid(reason: impl Into<String>) -> Self {
        Self {
            unavailable: false,
            reason: reason.into(),
        }
    }

    /// The token cannot be checked now (the issuer's keys cannot be
    /// fetched): answered `503`, since a new token would fare no better.
    pub fn unavailable(reason: impl Into<String>) -> Self {
        Self {
            unavailable: true,
            reason: reason.into(),
        }
    }

    /// What went wrong, as sent in `error_description`.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// Whether the token could not be checked at all.
    pub fn is_unavailable(&self) -> bool {
        self.unavailable
    }
}

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for TokenError {}

/// A [`TokenVerifier`] behind a pointer.
trait DynVerifier: Send + Sync {
    fn verify_boxed<'a>(
        &'a self,
        token: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<Caller, TokenError>> + Send + 'a>>;
}

impl<T: TokenVerifier> DynVerifier for T {
    fn verify_boxed<'a>(
        &'a self,
        token: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<Caller, TokenError>> + Send + 'a>> {
        Box::pin(self.verify(token))
    }
}

/// How an HTTP endpoint authorizes its callers: the token verifier, this
/// resource's canonical URL (what tokens must be issued for), the
/// authorization servers that issue them, and the scopes every request
/// needs. Give it to [`HttpOptions::auth`](crate::HttpOptions::auth); an
/// app serving MCP some other way (rmcp's HTTP transport) puts
/// [`protect`](Self::protect) around its router.
///
/// Every request is verified, a session included; a request without a
/// token, or with a bad one, is answered `401` with
/// `WWW-Authenticate: Bearer resource_metadata="..."`, one without a
/// [required scope](Self::require_scopes) `403` with
/// `error="insufficient_scope"`. Prompts with scopes of their own are
/// hidden from callers without them instead.
///
/// ```
/// use mcp_prompts::{HttpAuth, HttpOptions};
///
/// let auth = HttpAuth::jwt("https://prompts.example.com/mcp", "https://auth.example.com")
///     .require_scopes(["prompts"]);
/// assert_eq!(
///     auth.metadata_url(),
///     "https://prompts.example.com/.well-known/oauth-protected-resource/mcp"
/// );
/// let options = HttpOptions::new().allow_any_host().auth(auth);
/// ```
#[derive(Clone)]
pub struct HttpAuth {
    verifier: Arc<dyn DynVerifier>,
    resource: String,
    authorization_servers: Vec<String>,
    required_scopes: Vec<String>,
    scopes_supported: Vec<String>,
    resource_name: Option<String>,
    /// The service whose prompts' scopes the metadata lists too.
    service: Option<Service>,
}

impl HttpAuth {
    /// Verifies tokens with `verifier`, for the resource at `resource`
    /// (its canonical URL, such as `https://prompts.example.com/mcp`: the
    /// same for every replica, never taken from a request's `Host`). Name
    /// the issuers with [`authorization_server`](Self::authorization_server).
    pub fn new(resource: impl Into<String>, verifier: impl TokenVerifier) -> Self {
        Self {
            verifier: Arc::new(verifier),
            resource: resource.into(),
            authorization_servers: Vec::new(),
            required_scopes: Vec::new(),
            scopes_supported: Vec::new(),
            resource_name: None,
            service: None,
        }
    }

    /// Verifies JWTs that `issuer` signs for `resource` (their `aud`), with
    /// the keys its metadata publishes: a [`JwtVerifier`] with its
    /// defaults, and `issuer` as the authorization server.
    pub fn jwt(resource: impl Into<String>, issuer: impl Into<String>) -> Self {
        let (resource, issuer) = (resource.into(), issuer.into());
        let verifier = JwtVerifier::new(issuer.clone(), resource.clone());
        Self::new(resource, verifier).authorization_server(issuer)
    }

    /// Lists an authorization server (its issuer URL) in the metadata.
    pub fn authorization_server(mut self, issuer: impl Into<String>) -> Self {
        self.authorization_servers.push(issuer.into());
        self
    }

    /// Scopes every request must carry; a token without them is answered
    /// `403` with `error="insufficient_scope"`.
    pub fn require_scopes<I: IntoIterator<Item = S>, S: Into<String>>(mut self, scopes: I) -> Self {
        self.required_scopes
            .extend(scopes.into_iter().map(Into::into));
        self
    }

    /// Scopes to list in the metadata's `scopes_supported`, besides the
    /// required ones and those the served prompts ask for.
    pub fn scopes_supported<I: IntoIterator<Item = S>, S: Into<String>>(
        mut self,
        scopes: I,
    ) -> Self {
        self.scopes_supported
            .extend(scopes.into_iter().map(Into::into));
        self
    }

    /// A human-readable name for the metadata's `resource_name`.
    pub fn resource_name(mut self, name: impl Into<String>) -> Self {
        self.resource_name = Some(name.into());
        self
    }

    /// Lists the scopes `service`'s prompts ask for in the metadata, as
    /// they change: what an [`HttpEndpoint`](crate::HttpEndpoint) does for
    /// its own service; for an app that [protects](Self::protect) another
    /// router serving it.
    pub fn advertise_scopes_of(mut self, service: &Service) -> Self {
        self.service = Some(service.clone());
        self
    }

    /// This resource's canonical URL, as configured.
    pub fn resource(&self) -> &str {
        &self.resource
    }

    /// Where the Protected Resource Metadata is: the resource's origin,
    /// `/.well-known/oauth-protected-resource`, then the resource's path.
    pub fn metadata_url(&self) -> String {
        let (origin, path) = metadata::split_url(&self.resource);
        format!("{origin}{}", metadata::well_known_path(path))
    }

    /// A router serving the Protected Resource Metadata at its well-known
    /// paths (the path-suffixed one and the root one), to merge at the
    /// origin's root: for an app that mounts the MCP endpoint under a
    /// prefix, where the endpoint's own router cannot reach the root.
    pub fn metadata_router(&self) -> Router {
        metadata::router(Arc::new(self.clone()))
    }

    /// `router` with every request verified (the [`Caller`] put in its
    /// extensions, where [`RequestContext::caller`](crate::RequestContext::caller)
    /// and the rmcp adapter find it), and the metadata routes merged in.
    ///
    /// ```no_run
    /// # fn rmcp_router() -> axum::Router { axum::Router::new() }
    /// use mcp_prompts::HttpAuth;
    ///
    /// let auth = HttpAuth::jwt("https://prompts.example.com/mcp", "https://auth.example.com");
    /// // rmcp's StreamableHttpService, nested at /mcp:
    /// let app = auth.protect(rmcp_router());
    /// ```
    ///
    /// A session the router's server opens (its `Mcp-Session-Id`) belongs
    /// to the caller that opened it: another caller naming it gets `404`.
    pub fn protect(&self, router: Router) -> Router {
        let guard = Arc::new(Guard {
            auth: self.clone(),
            sessions: Some(SessionOwners::new()),
        });
        router
            .layer(middleware::from_fn_with_state(guard, require_bearer))
            .merge(self.metadata_router())
    }

    /// The same auth, listing `service`'s scopes unless it lists another's.
    pub(crate) fn for_service(&self, service: &Service) -> Self {
        let mut auth = self.clone();
        auth.service.get_or_insert_with(|| service.clone());
        auth
    }

    /// The caller a request's `Authorization` header proves, or the
    /// challenge to answer it with.
    async fn authenticate(&self, headers: &HeaderMap) -> Result<Caller, Challenge> {
        let token = challenge::bearer_token(headers)?;
        let caller = self
            .verifier
            .verify_boxed(token)
            .await
            .map_err(Challenge::Token)?;
        let missing: Vec<&str> = self
            .required_scopes
            .iter()
            .map(String::as_str)
            .filter(|scope| !caller.has_scope(scope))
            .collect();
        if !missing.is_empty() {
            return Err(Challenge::InsufficientScope);
        }
        Ok(caller)
    }
}

impl fmt::Debug for HttpAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpAuth")
            .field("resource", &self.resource)
            .field("authorization_servers", &self.authorization_servers)
            .field("required_scopes", &self.required_scopes)
            .finish_non_exhaustive()
    }
}

/// What the middleware checks requests with.
pub(super) struct Guard {
    auth: HttpAuth,
    /// Who opened each session, where the server behind keeps its own
    /// sessions; `None` for our endpoint, which binds them itself.
    sessions: Option<SessionOwners>,
}

impl Guard {
    /// The guard of our own endpoint, whose handlers bind sessions.
    pub(super) fn for_endpoint(auth: HttpAuth) -> Self {
        Self {
            auth,
            sessions: None,
        }
    }
}

/// The header naming a request's session.
const SESSION_HEADER: &str = "mcp-session-id";

/// The middleware every protected request passes: verified, it goes on
/// with its [`Caller`] in its extensions; otherwise it is answered here.
pub(super) async fn require_bearer(
    State(guard): State<Arc<Guard>>,
    mut request: Request,
    next: Next,
) -> Response {
    let caller = match guard.auth.authenticate(request.headers()).await {
        Ok(caller) => caller,
        Err(challenge) => return challenge.response(&guard.auth),
    };
    let Some(sessions) = &guard.sessions else {
        request.extensions_mut().insert(caller);
        return next.run(request).await;
    };
    let principal = principal(Some(&caller));
    let session = request
        .headers()
        .get(SESSION_HEADER)
        .and_then(|id| id.to_str().ok())
        .map(str::to_owned);
    if let Some(id) = &session {
        if !sessions.allows(id, &principal) {
            return challenge::unknown_session();
        }
    }
    request.extensions_mut().insert(caller);
    let response = next.run(request).await;
    if session.is_none() {
        let opened = response.headers().get(SESSION_HEADER);
        if let Some(id) = opened.and_then(|id| id.to_str().ok()) {
            sessions.opened(id, &principal);
        }
    }
    response
}
