//! A local OAuth issuer for the auth tests: RFC 8414 metadata and a JWKS
//! on a loopback port, signing keys made in the test, and tokens signed
//! with them. Its JWKS can rotate, go down, turn slow or serve garbage.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use aws_lc_rs::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair};
use axum::Router;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};

/// One signing key (ES256, or RS256) and its JWK.
pub struct SigningKey {
    pub kid: String,
    algorithm: Algorithm,
    encoding: EncodingKey,
    pub jwk: Value,
    /// The public key's bytes, for the forgery that uses them as an HMAC
    /// secret.
    pub public: Vec<u8>,
}

impl SigningKey {
    pub fn new(kid: &str) -> Self {
        let pair = EcdsaKeyPair::generate(&ECDSA_P256_SHA256_FIXED_SIGNING).unwrap();
        let der = pair.to_pkcs8v1().unwrap();
        let public = pair.public_key().as_ref().to_vec();
        // An uncompressed point: 0x04, then x and y.
        let (x, y) = public[1..].split_at(32);
        let jwk = json!({
            "kty": "EC", "crv": "P-256", "use": "sig", "alg": "ES256", "kid": kid,
            "x": b64(x), "y": b64(y),
        });
        Self {
            kid: kid.to_owned(),
            algorithm: Algorithm::ES256,
            encoding: EncodingKey::from_ec_der(der.as_ref()),
            jwk,
            public,
        }
    }

    /// An RS256 key (2048 bits).
    pub fn rsa(kid: &str) -> Self {
        use aws_lc_rs::encoding::{AsDer, Pkcs8V1Der};
        let pair = aws_lc_rs::rsa::KeyPair::generate(aws_lc_rs::rsa::KeySize::Rsa2048).unwrap();
        let pkcs8: Pkcs8V1Der<'_> = pair.as_der().unwrap();
        // PKCS#8 wraps the PKCS#1 key jsonwebtoken reads: a 26-byte header
        // (version, the rsaEncryption identifier, an OCTET STRING's tag
        // and two-byte length), then the key.
        let pkcs8 = pkcs8.as_ref();
        assert_eq!(pkcs8[22..24], [0x04, 0x82], "an RSA PKCS#8 header");
        let public = pair.public_key();
        let jwk = json!({
            "kty": "RSA", "use": "sig", "alg": "RS256", "kid": kid,
            "n": b64(public.modulus().big_endian_without_leading_zero()),
            "e": b64(public.exponent().big_endian_without_leading_zero()),
        });
        Self {
            kid: kid.to_owned(),
            algorithm: Algorithm::RS256,
            encoding: EncodingKey::from_rsa_der(&pkcs8[26..]),
            jwk,
            public: Vec::new(),
        }
    }

    /// A JWT with `claims`, signed with this key under its key id.
    pub fn sign(&self, claims: &Value) -> String {
        self.sign_typed(claims, "JWT")
    }

    /// The same, with the header's `typ`.
    pub fn sign_typed(&self, claims: &Value, typ: &str) -> String {
        let mut header = Header::new(self.algorithm);
        header.kid = Some(self.kid.clone());
        header.typ = Some(typ.to_owned());
        jsonwebtoken::encode(&header, claims, &self.encoding).unwrap()
    }
}

/// base64url without padding.
pub fn b64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Seconds since the epoch, now plus `offset`.
pub fn at(offset: i64) -> i64 {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    i64::try_from(now).unwrap() + offset
}

/// What the JWKS endpoint does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Jwks {
    Serving,
    Down,
    Slow,
    Garbage,
}

struct State {
    keys: Vec<Value>,
    mode: Jwks,
    fetches: usize,
}

/// The issuer, serving on a thread of its own for as long as the test
/// process lives.
pub struct Issuer {
    pub url: String,
    state: Arc<Mutex<State>>,
}

impl Issuer {
    /// An issuer on a free loopback port publishing `keys`.
    pub fn start(keys: &[&SigningKey]) -> Self {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr: SocketAddr = listener.local_addr().unwrap();
        let url = format!("http://{addr}");
        let state = Arc::new(Mutex::new(State {
            keys: keys.iter().map(|k| k.jwk.clone()).collect(),
            mode: Jwks::Serving,
            fetches: 0,
        }));
        let metadata = json!({
            "issuer": url,
            "jwks_uri": format!("{url}/jwks"),
            "authorization_endpoint": format!("{url}/authorize"),
            "token_endpoint": format!("{url}/token"),
            "response_types_supported": ["code"],
        });
        let jwks_state = Arc::clone(&state);
        let app = Router::new()
            .route(
                "/.well-known/oauth-authorization-server",
                get(move || {
                    let metadata = metadata.clone();
                    async move { metadata.to_string() }
                }),
            )
            .route(
                "/jwks",
                get(move || {
                    let state = Arc::clone(&jwks_state);
                    async move { jwks(&state).await }
                }),
            );
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                axum::serve(listener, app).await
            })
        });
        Self { url, state }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Publishes `keys` instead (a rotation).
    pub fn publish(&self, keys: &[&SigningKey]) {
        self.state().keys = keys.iter().map(|k| k.jwk.clone()).collect();
    }

    pub fn set_jwks(&self, mode: Jwks) {
        self.state().mode = mode;
    }

    /// How many times the JWKS was asked for.
    pub fn fetches(&self) -> usize {
        self.state().fetches
    }

    /// Claims for a token this issuer gives `subject` for `audience`, valid
    /// for an hour, with `scope`.
    pub fn claims(&self, subject: &str, audience: &str, scope: &str) -> Value {
        json!({
            "iss": self.url, "sub": subject, "aud": audience, "scope": scope,
            "iat": at(0), "exp": at(3600), "client_id": "test-client",
        })
    }
}

async fn jwks(state: &Mutex<State>) -> axum::response::Response {
    let (mode, keys) = {
        let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
        state.fetches += 1;
        (state.mode, state.keys.clone())
    };
    match mode {
        Jwks::Serving => json!({ "keys": keys }).to_string().into_response(),
        Jwks::Down => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
        Jwks::Slow => {
            tokio::time::sleep(Duration::from_secs(30)).await;
            json!({ "keys": keys }).to_string().into_response()
        }
        Jwks::Garbage => "<html>not a key set</html>".into_response(),
    }
}

/// A token `issuer` signs with `key` for the server at `server`.
pub fn token(
    issuer: &Issuer,
    key: &SigningKey,
    server: &crate::http_support::Running,
    subject: &str,
    scope: &str,
) -> String {
    key.sign(&issuer.claims(subject, &server.url(), scope))
}

/// What an HTTP response says: status, `WWW-Authenticate`, session id,
/// and its (last) JSON message.
pub struct Answer {
    pub status: hyper::StatusCode,
    pub challenge: Option<String>,
    pub session: Option<String>,
    pub body: Value,
}

/// Posts `body` to a session-era endpoint with `token` (if any) and the
/// session `session` (if any).
pub async fn post(
    server: &crate::http_support::Running,
    token: Option<&str>,
    session: Option<&str>,
    body: Value,
) -> Answer {
    let bearer = token.map(|t| format!("Bearer {t}"));
    let mut headers = vec![
        ("accept", "application/json, text/event-stream"),
        ("content-type", "application/json"),
        ("mcp-protocol-version", crate::support::LATEST),
    ];
    if let Some(bearer) = &bearer {
        headers.push(("authorization", bearer));
    }
    if let Some(session) = session {
        headers.push(("mcp-session-id", session));
    }
    let response =
        crate::http_support::send(server.addr, hyper::Method::POST, &headers, body.to_string())
            .await;
    let status = response.status();
    let challenge = crate::http_support::header(&response, "www-authenticate").map(str::to_owned);
    let session = crate::http_support::header(&response, "mcp-session-id").map(str::to_owned);
    Answer {
        status,
        challenge,
        session,
        body: crate::http_support::last_message(&crate::http_support::text(response).await),
    }
}
