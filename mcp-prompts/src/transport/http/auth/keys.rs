//! An issuer's signing keys: found through its metadata (RFC 8414, or
//! OIDC discovery) or a JWKS URL given, cached, and fetched again
//! when a token names a key not cached, at most once per interval. A
//! failed fetch keeps the keys already cached.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use arc_swap::ArcSwap;
use jsonwebtoken::jwk::{
    AlgorithmParameters, EllipticCurve, Jwk, JwkSet, KeyAlgorithm, PublicKeyUse,
};
use jsonwebtoken::{Algorithm, DecodingKey};
use serde::Deserialize;

use super::TokenError;

/// The largest metadata or JWKS document read.
const MAX_DOCUMENT_BYTES: usize = 256 * 1024;

/// Where the keys are published.
#[derive(Clone, Debug)]
pub(super) enum KeySource {
    /// Found through the issuer's metadata.
    Discover(String),
    /// At this JWKS URL.
    Url(String),
}

/// One usable key.
struct Key {
    kid: Option<String>,
    /// The algorithms the key may verify: its `alg`, or every one of its
    /// type.
    algorithms: Vec<Algorithm>,
    decoding: DecodingKey,
}

/// The keys as last fetched, and when.
#[derive(Default)]
struct Cached {
    keys: Vec<Arc<Key>>,
    fetched: Option<Instant>,
}

/// How keys are fetched, and what fetching remembers.
struct Fetching {
    /// When a fetch was last tried, whatever came of it.
    last_try: Option<Instant>,
    /// The JWKS URL, once discovery has found it.
    jwks_url: Option<String>,
    /// Why the last fetch failed, if it did.
    failure: Option<String>,
}

pub(super) struct KeySet {
    source: KeySource,
    client: reqwest::Client,
    refetch_interval: Duration,
    timeout: Duration,
    /// Keys older than this are fetched again on the next token.
    max_age: Duration,
    cached: ArcSwap<Cached>,
    fetching: tokio::sync::Mutex<Fetching>,
}

impl fmt::Debug for KeySet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeySet")
            .field("source", &self.source)
            .field("keys", &self.cached.load().keys.len())
            .finish_non_exhaustive()
    }
}

impl KeySet {
    pub(super) fn new(source: KeySource) -> Self {
        Self::with(source, Duration::from_secs(3), Duration::from_secs(5))
    }

    fn with(source: KeySource, refetch_interval: Duration, timeout: Duration) -> Self {
        let jwks_url = match &source {
            KeySource::Url(url) => Some(url.clone()),
            KeySource::Discover(_) => None,
        };
        Self {
            source,
            // Keys are never fetched through a redirect to elsewhere.
            client: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap_or_default(),
            refetch_interval,
            timeout,
            max_age: Duration::from_secs(3600),
            cached: ArcSwap::default(),
            fetching: tokio::sync::Mutex::new(Fetching {
                last_try: None,
                jwks_url,
                failure: None,
            }),
        }
    }

    pub(super) fn with_source(&self, source: KeySource) -> Self {
        Self::with(source, self.refetch_interval, self.timeout)
    }

    pub(super) fn with_refetch_interval(&self, interval: Duration) -> Self {
        Self::with(self.source.clone(), interval, self.timeout)
    }

    pub(super) fn with_timeout(&self, timeout: Duration) -> Self {
        Self::with(self.source.clone(), self.refetch_interval, timeout)
    }

    /// The keys that may have signed a token with key id `kid` and
    /// `algorithm`: the cached ones if any fits and they are fresh, else
    /// those of a new fetch (if one is due).
    ///
    /// Cached keys that fit are used at once, even old ones: those are
    /// fetched again in the background, so an issuer that is down or slow
    /// holds up no request whose key is cached.
    pub(super) async fn find(
        self: &Arc<Self>,
        kid: Option<&str>,
        algorithm: Algorithm,
    ) -> Result<Vec<DecodingKey>, TokenError> {
        let cached = self.cached.load();
        let found = fitting(&cached.keys, kid, algorithm);
        if !found.is_empty() {
            let stale = cached.fetched.is_none_or(|at| at.elapsed() >= self.max_age);
            if stale {
                let keys = Arc::clone(self);
                tokio::spawn(async move { keys.refetch().await });
            }
            return Ok(found);
        }
        drop(cached);
        let failure = self.refetch().await;
        let found = fitting(&self.cached.load().keys, kid, algorithm);
        if !found.is_empty() {
            return Ok(found);
        }
        match failure {
            // Nothing cached to fall back on: the token cannot be checked.
            Some(why) if self.cached.load().keys.is_empty() => Err(TokenError::unavailable(
                format!("the issuer's keys cannot be fetched: {why}"),
            )),
            _ => Err(TokenError::invalid("the token is signed by an unknown key")),
        }
    }

    /// Fetches the keys, unless a fetch was tried within the interval;
    /// why the last fetch failed, if it did. One fetch at a time: tokens
    /// waiting for it are checked against its result.
    async fn refetch(&self) -> Option<String> {
        let mut fetching = self.fetching.lock().await;
        // Counted from the end of the last try: tokens that waited for it
        // are checked against its keys, not made to fetch again.
        let due = fetching
            .last_try
            .is_none_or(|at| at.elapsed() >= self.refetch_interval);
        if due {
            // Discovery and the key set together, within one bound.
            let fetched = tokio::time::timeout(self.timeout * 2, self.fetch(&mut fetching))
                .await
                .unwrap_or_else(|_| Err("the issuer's keys did not arrive in time".to_owned()));
            fetching.last_try = Some(Instant::now());
            match fetched {
                Ok(keys) => {
                    tracing::debug!(keys = keys.len(), "fetched the issuer's signing keys");
                    self.cached.store(Arc::new(Cached {
                        keys,
                        fetched: Some(Instant::now()),
                    }));
                    fetching.failure = None;
                }
                Err(why) => {
                    tracing::warn!(why = %crate::error::Escaped::new(&why), "cannot fetch the issuer's signing keys; the cached ones stay in use");
                    fetching.failure = Some(why);
                }
            }
        }
        fetching.failure.clone()
    }

    async fn fetch(&self, fetching: &mut Fetching) -> Result<Vec<Arc<Key>>, String> {
        let url = match (&fetching.jwks_url, &self.source) {
            (None, KeySource::Discover(issuer)) => {
                let url = self.discover(issuer).await?;
                fetching.jwks_url = Some(url.clone());
                url
            }
            (Some(url), _) | (None, KeySource::Url(url)) => url.clone(),
        };
        let set: JwkSet = serde_json::from_slice(&self.get(&url).await?)
            .map_err(|err| format!("{url} is not a JWK set: {err}"))?;
        Ok(set.keys.iter().filter_map(usable).map(Arc::new).collect())
    }

    /// The `jwks_uri` of `issuer`'s metadata: RFC 8414's well-known URL,
    /// then OIDC discovery's, path-inserted and then appended. The
    /// metadata must name the same issuer, exactly.
    async fn discover(&self, issuer: &str) -> Result<String, String> {
        #[derive(Deserialize)]
        struct Metadata {
            issuer: String,
            jwks_uri: Option<String>,
        }
        let (origin, path) = super::metadata::split_url(issuer);
        let candidates = [
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!(
                "{}/.well-known/openid-configuration",
                issuer.trim_end_matches('/')
            ),
        ];
        let mut why = String::new();
        for url in candidates {
            let metadata = match self.get(&url).await {
                Ok(body) => serde_json::from_slice::<Metadata>(&body)
                    .map_err(|err| format!("{url} is not authorization server metadata: {err}")),
                Err(err) => Err(err),
            };
            match metadata {
                Ok(metadata) if metadata.issuer != issuer => {
                    why = format!("{url} names another issuer, `{}`", metadata.issuer);
                }
                Ok(Metadata {
                    jwks_uri: Some(jwks),
                    ..
                }) => return Ok(jwks),
                Ok(_) => why = format!("{url} has no `jwks_uri`"),
                Err(err) => why = err,
            }
        }
        Err(why)
    }

    /// A document's body: over HTTPS (plain HTTP only on loopback), within
    /// the timeout and the size limit.
    async fn get(&self, url: &str) -> Result<Vec<u8>, String> {
        if !(url.starts_with("https://") || is_loopback_http(url)) {
            return Err(format!(
                "{url}: keys are fetched over HTTPS only (plain HTTP on loopback)"
            ));
        }
        let fetch = async {
            let mut response = self
                .client
                .get(url)
                .send()
                .await
                .map_err(|err| format!("{url}: {err}"))?;
            if !response.status().is_success() {
                return Err(format!("{url} answered {}", response.status()));
            }
            let mut body = Vec::new();
            while let Some(chunk) = response
                .chunk()
                .await
                .map_err(|err| format!("{url}: {err}"))?
            {
                if body.len() + chunk.len() > MAX_DOCUMENT_BYTES {
                    return Err(format!("{url} sent over {MAX_DOCUMENT_BYTES} bytes"));
                }
                body.extend_from_slice(&chunk);
            }
            Ok(body)
        };
        tokio::time::timeout(self.timeout, fetch)
            .await
            .map_err(|_| {
                format!(
                    "{url} did not answer within {} ms",
                    self.timeout.as_millis()
                )
            })?
    }
}

/// Whether `url` is plain HTTP to this machine (a local issuer in
/// development and tests), read by the URL parser the client uses.
fn is_loopback_http(url: &str) -> bool {
    let Ok(url) = reqwest::Url::parse(url) else {
        return false;
    };
    let host = url.host_str().unwrap_or_default();
    let host = host.trim_start_matches('[').trim_end_matches(']');
    url.scheme() == "http"
        && (host == "localhost"
            || host
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback()))
}

/// The most keys a token without a key id is tried against: each try is
/// a signature check, which a stranger must not multiply.
const MAX_KEYS_WITHOUT_KID: usize = 4;

/// The keys of `keys` that may verify a token with `kid` and `algorithm`.
fn fitting(keys: &[Arc<Key>], kid: Option<&str>, algorithm: Algorithm) -> Vec<DecodingKey> {
    keys.iter()
        .filter(|key| key.algorithms.contains(&algorithm))
        .filter(|key| kid.is_none() || key.kid.as_deref() == kid)
        .take(if kid.is_none() {
            MAX_KEYS_WITHOUT_KID
        } else {
            usize::MAX
        })
        .map(|key| key.decoding.clone())
        .collect()
}

/// A JWK as a key for signatures, if it is one: public, asymmetric, for
/// signing, and well formed.
fn usable(jwk: &Jwk) -> Option<Key> {
    if jwk
        .common
        .public_key_use
        .as_ref()
        .is_some_and(|u| *u != PublicKeyUse::Signature)
    {
        return None;
    }
    let of_type: &[Algorithm] = match &jwk.algorithm {
        AlgorithmParameters::RSA(_) => &[
            Algorithm::RS256,
            Algorithm::RS384,
            Algorithm::RS512,
            Algorithm::PS256,
            Algorithm::PS384,
            Algorithm::PS512,
        ],
        AlgorithmParameters::EllipticCurve(ec) => match ec.curve {
            EllipticCurve::P256 => &[Algorithm::ES256],
            EllipticCurve::P384 => &[Algorithm::ES384],
            _ => return None,
        },
        AlgorithmParameters::OctetKeyPair(_) => &[Algorithm::EdDSA],
        // A shared secret has no place in a public key set.
        _ => return None,
    };
    let algorithms = match jwk.common.key_algorithm {
        Some(named) => {
            let named = key_algorithm(named)?;
            if !of_type.contains(&named) {
                return None;
            }
            vec![named]
        }
        None => of_type.to_vec(),
    };
    Some(Key {
        kid: jwk.common.key_id.clone(),
        algorithms,
        decoding: DecodingKey::from_jwk(jwk).ok()?,
    })
}

/// A JWK's `alg` as a signature algorithm; `None` for anything else.
fn key_algorithm(alg: KeyAlgorithm) -> Option<Algorithm> {
    Some(match alg {
        KeyAlgorithm::RS256 => Algorithm::RS256,
        KeyAlgorithm::RS384 => Algorithm::RS384,
        KeyAlgorithm::RS512 => Algorithm::RS512,
        KeyAlgorithm::PS256 => Algorithm::PS256,
        KeyAlgorithm::PS384 => Algorithm::PS384,
        KeyAlgorithm::PS512 => Algorithm::PS512,
        KeyAlgorithm::ES256 => Algorithm::ES256,
        KeyAlgorithm::ES384 => Algorithm::ES384,
        KeyAlgorithm::EdDSA => Algorithm::EdDSA,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_http_only_on_loopback() {
        for url in [
            "http://127.0.0.1:9000/jwks",
            "http://localhost/x",
            "http://[::1]:80/",
        ] {
            assert!(is_loopback_http(url), "{url}");
        }
        for url in [
            "http://auth.example.com/jwks",
            "http://127.0.0.1.evil.example/",
            "http://localhost.example/",
            "https://127.0.0.1/",
            "http://evil.example\\@127.0.0.1/jwks",
        ] {
            assert!(!is_loopback_http(url), "{url}");
        }
    }

    #[test]
    fn shared_secrets_are_not_keys() {
        let jwk: Jwk =
            serde_json::from_value(serde_json::json!({"kty": "oct", "k": "c2VjcmV0"})).unwrap();
        assert!(usable(&jwk).is_none());
    }
}
