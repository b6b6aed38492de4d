//! The CLI's `--auth-issuer`: bearer tokens a JWT issuer signs, checked on
//! every request when the binary was built with feature `auth`, and a
//! clear refusal when it was not (the CLI alone leaves `auth` out, because
//! its crypto compiles C).

use super::HttpOptions;

/// `options` verifying every request's bearer token: a JWT `issuer` signs
/// for `resource`, checked against the issuer's keys (at `jwks`, or found
/// from its metadata).
#[cfg(feature = "auth")]
#[allow(clippy::unnecessary_wraps)] // the same signature as without `auth`
pub(crate) fn verify_issuer_tokens(
    options: HttpOptions,
    issuer: &str,
    resource: String,
    jwks: Option<&str>,
) -> Result<HttpOptions, String> {
    let mut verifier = super::JwtVerifier::new(issuer, &resource);
    if let Some(jwks) = jwks {
        verifier = verifier.jwks_url(jwks);
    }
    let auth = super::HttpAuth::new(resource, verifier).authorization_server(issuer);
    Ok(options.auth(auth))
}

/// Refused: this build cannot check tokens.
#[cfg(not(feature = "auth"))]
#[allow(clippy::needless_pass_by_value)]
pub(crate) fn verify_issuer_tokens(
    _options: HttpOptions,
    _issuer: &str,
    _resource: String,
    _jwks: Option<&str>,
) -> Result<HttpOptions, String> {
    Err("--auth-issuer needs a binary built with feature `auth` \
         (cargo install mcp-prompts --features cli,auth)"
        .to_owned())
}
