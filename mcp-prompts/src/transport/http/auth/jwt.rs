//! JWT access tokens (RFC 9068), checked against the issuer's published
//! keys: the signature with an allowed asymmetric algorithm, then `iss`,
//! `aud`, `exp` and `nbf`; the caller read from `sub`, `scope`/`scp` and
//! `client_id`/`azp`.

use std::sync::Arc;
use std::time::Duration;

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, Validation};
use serde_json::{Map, Value};

use super::keys::{KeySet, KeySource};
use super::{TokenError, TokenVerifier};
use crate::caller::{Caller, is_valid_scope};
use crate::error::Escaped;

/// The signature algorithms a [`JwtVerifier`] may accept: asymmetric ones
/// only, since a resource server holds no shared secret (and a symmetric
/// algorithm keyed with a public key is a classic forgery).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum JwtAlgorithm {
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    RS256,
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    RS384,
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    RS512,
    /// RSASSA-PSS with SHA-256.
    PS256,
    /// RSASSA-PSS with SHA-384.
    PS384,
    /// RSASSA-PSS with SHA-512.
    PS512,
    /// ECDSA on P-256 with SHA-256.
    ES256,
    /// ECDSA on P-384 with SHA-384.
    ES384,
    /// Ed25519.
    EdDSA,
}

impl JwtAlgorithm {
    fn to_jwt(self) -> Algorithm {
        match self {
            Self::RS256 => Algorithm::RS256,
            Self::RS384 => Algorithm::RS384,
            Self::RS512 => Algorithm::RS512,
            Self::PS256 => Algorithm::PS256,
            Self::PS384 => Algorithm::PS384,
            Self::PS512 => Algorithm::PS512,
            Self::ES256 => Algorithm::ES256,
            Self::ES384 => Algorithm::ES384,
            Self::EdDSA => Algorithm::EdDSA,
        }
    }
}

/// Verifies JWT access tokens an issuer signs for this resource.
///
/// Keys come from the issuer's JWKS, found through its RFC 8414 metadata
/// (`/.well-known/oauth-authorization-server`), else its OIDC discovery
/// document, unless [`jwks_url`](Self::jwks_url) names it. They are
/// cached; a token signed by a key not in the cache (a rotation) fetches
/// them again, at most once per [`refetch_interval`](Self::refetch_interval),
/// and a JWKS endpoint that fails leaves the cached keys in use.
///
/// A token must be signed with an [allowed algorithm](Self::algorithms)
/// (RS256 and ES256 by default; never `none`, never a symmetric one), and
/// carry `iss` equal to the issuer, `aud` naming an accepted audience,
/// `exp` in the future and `nbf`, if any, in the past (both with
/// [leeway](Self::leeway)), and `sub`. Issuer and audience compare as exact
/// strings.
///
/// ```
/// use std::time::Duration;
/// use mcp_prompts::{HttpAuth, JwtAlgorithm, JwtVerifier};
///
/// let verifier = JwtVerifier::new("https://auth.example.com", "https://prompts.example.com/mcp")
///     .algorithms([JwtAlgorithm::ES256])
///     .leeway(Duration::from_secs(30));
/// let auth = HttpAuth::new("https://prompts.example.com/mcp", verifier)
///     .authorization_server("https://auth.example.com");
/// ```
#[derive(Clone, Debug)]
pub struct JwtVerifier {
    issuer: String,
    audiences: Vec<String>,
    algorithms: Vec<JwtAlgorithm>,
    leeway: Duration,
    access_token_type: bool,
    keys: Arc<KeySet>,
}

impl JwtVerifier {
    /// Accepts tokens `issuer` signs for `audience` (this resource's
    /// canonical URL).
    pub fn new(issuer: impl Into<String>, audience: impl Into<String>) -> Self {
        let issuer = issuer.into();
        Self {
            keys: Arc::new(KeySet::new(KeySource::Discover(issuer.clone()))),
            issuer,
            audiences: vec![audience.into()],
            algorithms: vec![JwtAlgorithm::RS256, JwtAlgorithm::ES256],
            leeway: Duration::from_secs(60),
            access_token_type: false,
        }
    }

    /// Takes the keys from this JWKS URL instead of the issuer's metadata.
    #[must_use]
    pub fn jwks_url(mut self, url: impl Into<String>) -> Self {
        self.keys = Arc::new(self.keys.with_source(KeySource::Url(url.into())));
        self
    }

    /// Also accepts tokens for `audience`.
    #[must_use]
    pub fn audience(mut self, audience: impl Into<String>) -> Self {
        self.audiences.push(audience.into());
        self
    }

    /// The algorithms accepted (default RS256 and ES256).
    #[must_use]
    pub fn algorithms(mut self, algorithms: impl IntoIterator<Item = JwtAlgorithm>) -> Self {
        self.algorithms = algorithms.into_iter().collect();
        self
    }

    /// How far clocks may disagree when `exp` and `nbf` are checked
    /// (default 60 s).
    #[must_use]
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// Accepts only tokens whose header says they are access tokens
    /// (`typ` `at+jwt`, RFC 9068), so that an ID token issued with this
    /// resource as its audience is refused too. Off by default: many
    /// issuers still type their access tokens `JWT`.
    #[must_use]
    pub fn require_access_token_type(mut self) -> Self {
        self.access_token_type = true;
        self
    }

    /// The least time between two fetches of the keys for a token whose
    /// key is not cached (default 3 s): a rotated key is in use within it,
    /// and forged key ids cannot make the server hammer the issuer.
    #[must_use]
    pub fn refetch_interval(mut self, interval: Duration) -> Self {
        self.keys = Arc::new(self.keys.with_refetch_interval(interval));
        self
    }

    /// How long a fetch of the issuer's metadata or keys may take
    /// (default 5 s).
    #[must_use]
    pub fn fetch_timeout(mut self, timeout: Duration) -> Self {
        self.keys = Arc::new(self.keys.with_timeout(timeout));
        self
    }

    fn validation(&self, algorithm: Algorithm) -> Validation {
        let mut validation = Validation::new(algorithm);
        validation.algorithms = vec![algorithm];
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&self.audiences);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.validate_nbf = true;
        validation.leeway = self.leeway.as_secs();
        validation
    }
}

impl TokenVerifier for JwtVerifier {
    async fn verify(&self, token: &str) -> Result<Caller, TokenError> {
        let header = jsonwebtoken::decode_header(token)
            .map_err(|_| TokenError::invalid("the token is not a JWT with a known algorithm"))?;
        let Some(algorithm) = self
            .algorithms
            .iter()
            .map(|a| a.to_jwt())
            .find(|a| *a == header.alg)
        else {
            return Err(TokenError::invalid(format!(
                "tokens signed with {:?} are not accepted",
                header.alg
            )));
        };
        let typed = header.typ.as_deref().is_some_and(|typ| {
            typ.eq_ignore_ascii_case("at+jwt") || typ.eq_ignore_ascii_case("application/at+jwt")
        });
        if self.access_token_type && !typed {
            return Err(TokenError::invalid(
                "the token is not typed as an access token (typ at+jwt)",
            ));
        }
        let keys = self.keys.find(header.kid.as_deref(), algorithm).await?;
        let validation = self.validation(algorithm);
        let mut last = None;
        for key in keys {
            match jsonwebtoken::decode::<Map<String, Value>>(token, &key, &validation) {
                Ok(data) => return caller(data.claims),
                Err(error) if matches!(error.kind(), ErrorKind::InvalidSignature) => {
                    last = Some(error);
                }
                Err(error) => return Err(refusal(error.kind())),
            }
        }
        Err(last.map_or_else(
            || TokenError::invalid("the token is signed by an unknown key"),
            |error| refusal(error.kind()),
        ))
    }
}

/// What a failed check says, naming the claim at fault.
fn refusal(kind: &ErrorKind) -> TokenError {
    TokenError::invalid(match kind {
        ErrorKind::ExpiredSignature => "the token has expired",
        ErrorKind::ImmatureSignature => "the token is not valid yet (nbf)",
        ErrorKind::InvalidIssuer => "the token is from another issuer",
        ErrorKind::InvalidAudience => "the token is not for this resource (aud)",
        ErrorKind::InvalidSignature => "the token's signature is invalid",
        ErrorKind::MissingRequiredClaim(_) => {
            "the token lacks a required claim (exp, iss, aud, sub)"
        }
        ErrorKind::InvalidAlgorithm => "the token's algorithm does not fit its key",
        _ => "the token is malformed",
    })
}

/// The caller a token's verified claims describe.
fn caller(claims: Map<String, Value>) -> Result<Caller, TokenError> {
    let text = |name: &str| claims.get(name).and_then(Value::as_str).map(str::to_owned);
    let subject =
        text("sub").ok_or_else(|| TokenError::invalid("the token's `sub` is not a string"))?;
    let scopes: Vec<String> = match (claims.get("scope"), claims.get("scp")) {
        (Some(Value::String(scope)), _) | (None, Some(Value::String(scope))) => {
            scopes_of_claim(scope).collect()
        }
        (None, Some(Value::Array(scopes))) => scopes
            .iter()
            .filter_map(Value::as_str)
            .filter_map(granted_scope)
            .collect(),
        _ => Vec::new(),
    };
    let mut caller = Caller::new(subject).with_scopes(scopes);
    if let Some(issuer) = text("iss") {
        caller = caller.with_issuer(issuer);
    }
    if let Some(client) = text("client_id").or_else(|| text("azp")) {
        caller = caller.with_client_id(client);
    }
    Ok(caller.with_claims(claims))
}

/// The scopes a token's `scope` claim grants. RFC 6749 (section 3.3)
/// separates them with spaces (U+0020) alone, so no other whitespace
/// splits one, and repeated spaces make no empty scope.
fn scopes_of_claim(claim: &str) -> impl Iterator<Item = String> + '_ {
    claim
        .split(' ')
        .filter(|s| !s.is_empty())
        .filter_map(granted_scope)
}

/// `scope` as a granted scope, if it is a scope token (printable ASCII
/// but `"` and `\\`). One with any other character grants nothing: it is
/// logged, and the token it came in stays valid (refusing the token
/// would only send the client round to authorize again).
fn granted_scope(scope: &str) -> Option<String> {
    if is_valid_scope(scope) {
        return Some(scope.to_owned());
    }
    tracing::info!(
        scope = %Escaped::new(scope),
        "a scope that is not an RFC 6749 scope token grants nothing"
    );
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn claims(value: &Value) -> Map<String, Value> {
        value.as_object().unwrap().clone()
    }

    #[test]
    fn scopes_come_from_scope_or_scp() {
        let spaced = caller(claims(&json!({"sub": "a", "scope": "x  y"}))).unwrap();
        assert_eq!(spaced.scopes(), ["x", "y"]);
        let listed = caller(claims(&json!({"sub": "a", "scp": ["y", "x"]}))).unwrap();
        assert_eq!(listed.scopes(), ["y", "x"]);
        let none = caller(claims(&json!({"sub": "a", "azp": "app"}))).unwrap();
        assert!(none.scopes().is_empty());
        assert_eq!(none.client_id(), Some("app"));
        assert!(caller(claims(&json!({"sub": 7}))).is_err());
    }

    #[test]
    fn scopes_split_on_spaces_alone_and_other_characters_grant_nothing() {
        for separator in [
            '\u{a0}', '\u{2003}', '\u{3000}', '\u{85}', '\u{2028}', '\u{b}', '\t', '\n',
        ] {
            let scope = format!("read deploy{separator}requests");
            let granted = caller(claims(&json!({"sub": "a", "scope": scope}))).unwrap();
            assert_eq!(granted.scopes(), ["read"], "{separator:?}");
            let listed = json!({"sub": "a", "scp": ["read", format!("deploy{separator}requests")]});
            assert_eq!(caller(claims(&listed)).unwrap().scopes(), ["read"]);
        }
        let quoted = caller(claims(&json!({"sub": "a", "scope": " a\"b  c\\d e "}))).unwrap();
        assert_eq!(quoted.scopes(), ["e"]);
    }
}
