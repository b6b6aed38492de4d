//! The showcase as an OAuth resource server (`--auth-issuer`), against a
//! local issuer whose keys are made here: the Protected Resource Metadata,
//! `401` challenges for missing and bad tokens, the caller in prompts,
//! prompts hidden from callers without their scope (as unknown ones are),
//! sessions and question rounds bound to their caller, key rotation, and
//! a JWKS endpoint that fails. Both eras.

// Call sites read better passing `json!` values by value.
#![allow(clippy::needless_pass_by_value)]

mod auth_support;
mod http_support;
mod support;

use std::time::{Duration, Instant};

use hyper::{Method, StatusCode};
use mcp_prompts::{
    Caller, HttpAuth, HttpOptions, JwtVerifier, RequestContext, Server, TokenError, TokenVerifier,
    catalog, prompt,
};
use serde_json::{Value, json};

use auth_support::{Issuer, Jwks, SigningKey, at, b64, post, token};
use http_support::{Running, header, post_modern, send, send_to, text};
use support::{LATEST, initialize, modern, texts};

/// The showcase verifying tokens from `issuer`.
fn showcase(issuer: &Issuer) -> Running {
    Running::showcase(&["--auth-issuer", &issuer.url])
}

/// A signing key, a local issuer publishing it, and the showcase
/// verifying that issuer's tokens.
fn start() -> (SigningKey, Issuer, Running) {
    let key = SigningKey::new("k1");
    let issuer = Issuer::start(&[&key]);
    let server = showcase(&issuer);
    (key, issuer, server)
}

fn request(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// Opens a session as the caller `token` proves; its id.
async fn session(server: &Running, token: &str) -> String {
    let init: Value = serde_json::from_str(&initialize(LATEST)).unwrap();
    let answer = post(server, Some(token), None, init).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    answer.session.expect("a session id")
}

/// The names `prompts/list` shows in a session.
async fn listed(server: &Running, token: &str, session: &str) -> Vec<String> {
    let list = post(
        server,
        Some(token),
        Some(session),
        request(2, "prompts/list", json!({})),
    )
    .await;
    list.body["result"]["prompts"]
        .as_array()
        .unwrap_or_else(|| panic!("no list: {}", list.body))
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn the_metadata_names_the_resource_and_requests_without_a_token_are_challenged() {
    let (_key, issuer, server) = start();
    let metadata_url = format!(
        "http://{}/.well-known/oauth-protected-resource/mcp",
        server.addr
    );
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let response = send_to(server.addr, Method::GET, path, &[], "").await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let document: Value = serde_json::from_str(&text(response).await).unwrap();
        assert_eq!(document["resource"], server.url(), "{document}");
        assert_eq!(document["authorization_servers"], json!([issuer.url]));
        assert_eq!(document["bearer_methods_supported"], json!(["header"]));
        // The scopes the catalog's prompts ask for.
        assert_eq!(document["scopes_supported"], json!(["deploy"]));
    }

    let init: Value = serde_json::from_str(&initialize(LATEST)).unwrap();
    let answer = post(&server, None, None, init.clone()).await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    // No credentials at all: no error code (RFC 6750 §3.1).
    assert_eq!(
        answer.challenge.as_deref(),
        Some(format!("Bearer resource_metadata=\"{metadata_url}\"").as_str())
    );
    for method in [Method::GET, Method::DELETE] {
        let response = send(server.addr, method.clone(), &[("mcp-session-id", "x")], "").await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{method}");
        assert!(header(&response, "www-authenticate").is_some());
    }
    // Another scheme is no bearer token either.
    let response = send(
        server.addr,
        Method::POST,
        &[
            ("authorization", "Basic YTpi"),
            ("content-type", "application/json"),
        ],
        init.to_string(),
    )
    .await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    // The probes are outside authorization: a load balancer has no token.
    for path in ["/healthz", "/readyz"] {
        let response = send_to(server.addr, Method::GET, path, &[], "").await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
    }
}

#[tokio::test]
async fn bad_tokens_get_invalid_token_and_the_server_keeps_serving() {
    let key = SigningKey::new("k1");
    let stranger = SigningKey::new("k1");
    let unknown = SigningKey::new("k9");
    let issuer = Issuer::start(&[&key]);
    let server = showcase(&issuer);
    let audience = server.url();
    let claims = |change: Value| {
        let mut claims = issuer.claims("ann", &audience, "prompts");
        for (name, value) in change.as_object().unwrap() {
            claims[name] = value.clone();
        }
        claims
    };
    let good = claims(json!({}));
    // `alg: none`, and HS256 keyed with the public key (the classic forgery).
    let none = format!(
        "{}.{}.",
        b64(br#"{"alg":"none","typ":"JWT"}"#),
        b64(good.to_string().as_bytes())
    );
    let mut hs256 = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256);
    hs256.kid = Some("k1".to_owned());
    let forged = jsonwebtoken::encode(
        &hs256,
        &good,
        &jsonwebtoken::EncodingKey::from_secret(&key.public).unwrap(),
    )
    .unwrap();
    let cases = [
        ("malformed".to_owned(), "not a JWT"),
        ("a.b.c".to_owned(), "not a JWT"),
        (key.sign(&claims(json!({"exp": at(-3600)}))), "expired"),
        (key.sign(&claims(json!({"nbf": at(3600)}))), "not valid yet"),
        (
            key.sign(&claims(json!({"iss": "https://elsewhere.example"}))),
            "another issuer",
        ),
        (
            key.sign(&claims(json!({"aud": "http://other.example/mcp"}))),
            "not for this resource",
        ),
        // The issuer URL with a trailing slash is another issuer.
        (
            key.sign(&claims(json!({"iss": format!("{}/", issuer.url)}))),
            "another issuer",
        ),
        (stranger.sign(&good), "signature is invalid"),
        (unknown.sign(&good), "unknown key"),
        (none, "not a JWT"),
        (forged, "HS256"),
        ("a".repeat(100_000), "too long"),
    ];
    let init: Value = serde_json::from_str(&initialize(LATEST)).unwrap();
    for (token, why) in cases {
        let answer = post(&server, Some(&token), None, init.clone()).await;
        assert_eq!(
            answer.status,
            StatusCode::UNAUTHORIZED,
            "{why}: {}",
            answer.body
        );
        let challenge = answer.challenge.unwrap_or_default();
        assert!(
            challenge.starts_with("Bearer error=\"invalid_token\""),
            "{why}: {challenge}"
        );
        assert!(challenge.contains("resource_metadata=\""), "{challenge}");
        let description = answer.body["error_description"]
            .as_str()
            .unwrap_or_default();
        assert!(description.contains(why), "{why}: {description}");
        assert!(answer.session.is_none());
    }
    let good = key.sign(&good);
    session(&server, &good).await;
}

#[tokio::test]
async fn rs256_and_es256_are_accepted_by_default() {
    let (ec, rsa) = (SigningKey::new("ec"), SigningKey::rsa("rsa"));
    let issuer = Issuer::start(&[&ec, &rsa]);
    let server = showcase(&issuer);
    for key in [&ec, &rsa] {
        let id = session(&server, &token(&issuer, key, &server, "ann", "prompts")).await;
        assert!(!id.is_empty());
    }
}

#[tokio::test]
async fn prompts_see_their_caller_and_scoped_prompts_are_hidden_like_unknown_ones() {
    let (key, issuer, server) = start();
    let reader = token(&issuer, &key, &server, "ann", "prompts read");
    let deployer = token(&issuer, &key, &server, "bob", "deploy prompts");

    let ann = session(&server, &reader).await;
    let names = listed(&server, &reader, &ann).await;
    assert!(names.contains(&"whoami".to_owned()), "{names:?}");
    assert!(!names.contains(&"deploy_notes".to_owned()), "{names:?}");
    let whoami = post(
        &server,
        Some(&reader),
        Some(&ann),
        request(3, "prompts/get", json!({"name": "whoami"})),
    )
    .await;
    assert_eq!(
        texts(&whoami.body),
        ["You are ann, with scopes: prompts read."]
    );

    // Hidden, it answers exactly as a prompt that does not exist.
    let get = |name: &str| {
        request(
            4,
            "prompts/get",
            json!({"name": name, "arguments": {"service": "api"}}),
        )
    };
    let hidden = post(&server, Some(&reader), Some(&ann), get("deploy_notes")).await;
    let missing = post(&server, Some(&reader), Some(&ann), get("no_such_prompt")).await;
    assert_eq!(hidden.body["error"]["code"], missing.body["error"]["code"]);
    assert_eq!(
        hidden.body["error"]["message"]
            .as_str()
            .unwrap()
            .replace("deploy_notes", "X"),
        missing.body["error"]["message"]
            .as_str()
            .unwrap()
            .replace("no_such_prompt", "X"),
    );
    let complete = |name: &str| {
        request(
            5,
            "completion/complete",
            json!({
                "ref": {"type": "ref/prompt", "name": name},
                "argument": {"name": "service", "value": ""},
            }),
        )
    };
    let hidden = post(&server, Some(&reader), Some(&ann), complete("deploy_notes")).await;
    let missing = post(
        &server,
        Some(&reader),
        Some(&ann),
        complete("no_such_prompt"),
    )
    .await;
    assert_eq!(
        hidden.body["error"]["code"], missing.body["error"]["code"],
        "{}",
        hidden.body
    );

    let bob = session(&server, &deployer).await;
    assert!(
        listed(&server, &deployer, &bob)
            .await
            .contains(&"deploy_notes".to_owned())
    );

    // 2026-07-28: the list varies with the caller, so it is cached privately.
    let bearer = format!("Bearer {reader}");
    let (status, list) = post_modern(
        &server,
        &request(6, "prompts/list", modern(json!({}), json!({}))),
        &[("authorization", &bearer)],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(list["result"]["cacheScope"], "private", "{list}");
    let names: Vec<&str> = list["result"]["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(
        !names.contains(&"deploy_notes") && names.contains(&"whoami"),
        "{names:?}"
    );
    let (status, _) = post_modern(
        &server,
        &request(7, "prompts/list", modern(json!({}), json!({}))),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_session_belongs_to_the_caller_that_opened_it() {
    let (key, issuer, server) = start();
    let ann = token(&issuer, &key, &server, "ann", "prompts");
    let bob = token(&issuer, &key, &server, "bob", "prompts");
    let id = session(&server, &ann).await;
    let ping = request(2, "ping", json!({}));
    assert_eq!(
        post(&server, Some(&ann), Some(&id), ping.clone())
            .await
            .status,
        StatusCode::OK
    );
    // Another valid caller, or none, cannot use it: a session is no credential.
    assert_eq!(
        post(&server, Some(&bob), Some(&id), ping.clone())
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        post(&server, None, Some(&id), ping.clone()).await.status,
        StatusCode::UNAUTHORIZED
    );
    let bearer = format!("Bearer {bob}");
    let delete = send(
        server.addr,
        Method::DELETE,
        &[("authorization", &bearer), ("mcp-session-id", &id)],
        "",
    )
    .await;
    assert_eq!(delete.status(), StatusCode::NOT_FOUND);
    // Ann's own next token (refreshed, other scopes) still reaches it.
    let refreshed = token(&issuer, &key, &server, "ann", "prompts deploy");
    assert_eq!(
        post(&server, Some(&refreshed), Some(&id), ping)
            .await
            .status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_question_rounds_state_is_answered_only_by_its_caller() {
    let (key, issuer, server) = start();
    let ann = format!("Bearer {}", token(&issuer, &key, &server, "ann", "deploy"));
    let bob = format!("Bearer {}", token(&issuer, &key, &server, "bob", "deploy"));
    let params = modern(
        json!({"name": "deploy_notes", "arguments": {"service": "api"}}),
        json!({"elicitation": {"form": {}}}),
    );
    let headers = |bearer: &str| {
        [("mcp-name", "deploy_notes"), ("authorization", bearer)].map(|(n, v)| (n, v.to_owned()))
    };
    let send_as = |bearer: &str, params: Value| {
        let headers = headers(bearer);
        let server = &server;
        async move {
            let headers: Vec<(&str, &str)> =
                headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
            post_modern(server, &request(1, "prompts/get", params), &headers).await
        }
    };
    let (_, first) = send_as(&ann, params.clone()).await;
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let mut retry = params;
    retry["inputResponses"] = json!({"deployment": {"action": "accept", "content": {"environment": "staging", "canary": true}}});
    retry["requestState"] = first["result"]["requestState"].clone();
    let (_, stolen) = send_as(&bob, retry.clone()).await;
    assert_eq!(stolen["error"]["code"], -32602, "{stolen}");
    assert!(
        stolen["error"]["message"]
            .as_str()
            .unwrap()
            .contains("another caller"),
        "{stolen}"
    );
    let (_, done) = send_as(&ann, retry).await;
    assert_eq!(
        texts(&done),
        ["Write deployment notes for api going to staging (canary: true)."]
    );
}

#[tokio::test]
async fn rotated_keys_work_at_once_and_a_failing_jwks_leaves_the_cached_keys_in_use() {
    let old = SigningKey::new("k1");
    let new = SigningKey::new("k2");
    let issuer = Issuer::start(&[&old]);
    let server = showcase(&issuer);
    let ann = token(&issuer, &old, &server, "ann", "prompts");
    session(&server, &ann).await;

    // The issuer rotates: a token signed with the new key works within 5 s.
    issuer.publish(&[&old, &new]);
    let rotated = token(&issuer, &new, &server, "ann", "prompts");
    let init: Value = serde_json::from_str(&initialize(LATEST)).unwrap();
    let start = Instant::now();
    loop {
        let answer = post(&server, Some(&rotated), None, init.clone()).await;
        if answer.status == StatusCode::OK {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the new key is still refused: {}",
            answer.body
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // Tokens with unknown keys do not make it fetch again and again.
    let fetches = issuer.fetches();
    let unknown = SigningKey::new("k7");
    for _ in 0..5 {
        let forged = token(&issuer, &unknown, &server, "ann", "prompts");
        assert_eq!(
            post(&server, Some(&forged), None, init.clone())
                .await
                .status,
            StatusCode::UNAUTHORIZED
        );
    }
    assert!(
        issuer.fetches() <= fetches + 1,
        "{} fetches",
        issuer.fetches() - fetches
    );

    // Down, slow or garbage: the cached keys go on working.
    for mode in [Jwks::Down, Jwks::Garbage, Jwks::Slow] {
        issuer.set_jwks(mode);
        let answer = post(&server, Some(&rotated), None, init.clone()).await;
        assert_eq!(answer.status, StatusCode::OK, "{mode:?}: {}", answer.body);
    }
}

#[tokio::test]
async fn a_jwks_that_never_answered_makes_tokens_unverifiable_not_the_server_unavailable() {
    let key = SigningKey::new("k1");
    let issuer = Issuer::start(&[&key]);
    issuer.set_jwks(Jwks::Down);
    let server = showcase(&issuer);
    let ann = token(&issuer, &key, &server, "ann", "prompts");
    let init: Value = serde_json::from_str(&initialize(LATEST)).unwrap();
    let answer = post(&server, Some(&ann), None, init.clone()).await;
    assert_eq!(
        answer.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        answer.body
    );
    // The body says what the caller needs and no more: not where the keys
    // are fetched from, nor what the issuer answered.
    assert_eq!(
        answer.body,
        json!({
            "error": "temporarily_unavailable",
            "error_description": "the issuer's keys are unavailable"
        })
    );
    // The metadata is still served, and once the keys come back, tokens work.
    let response = send_to(
        server.addr,
        Method::GET,
        "/.well-known/oauth-protected-resource",
        &[],
        "",
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    issuer.set_jwks(Jwks::Serving);
    let start = Instant::now();
    while post(&server, Some(&ann), None, init.clone()).await.status != StatusCode::OK {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "keys are not fetched again"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Tokens this test's own verifier knows: a [`TokenVerifier`] of the app's.
struct KnownTokens;

impl TokenVerifier for KnownTokens {
    async fn verify(&self, token: &str) -> Result<Caller, TokenError> {
        match token {
            "ann" => Ok(Caller::new("ann").with_scopes(["prompts"])),
            "bob" => Ok(Caller::new("bob@example.com").with_scopes(["prompts", "deploy"])),
            "nobody" => Ok(Caller::new("nobody")),
            _ => Err(TokenError::invalid("unknown token")),
        }
    }
}

/// Ships a service
#[prompt(scopes = ["deploy"])]
fn ship(service: String) -> String {
    format!("Ship {service}.")
}

/// Notes for staff only
#[prompt(visible = staff)]
fn staff_notes(ctx: RequestContext) -> String {
    format!(
        "Notes for {}.",
        ctx.caller().map_or("nobody", Caller::subject)
    )
}

fn staff(caller: &Caller) -> bool {
    caller.subject().ends_with("@example.com")
}

fn restricted_service() -> mcp_prompts::Service {
    Server::new("restricted", "1")
        .catalog(catalog![ship, staff_notes])
        .build()
        .unwrap()
}

/// Serves `router` on a loopback port of this test's runtime.
async fn serve(router: axum::Router) -> Running {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    Running::in_process(addr)
}

#[tokio::test]
async fn scopes_the_whole_server_requires_are_answered_403() {
    let service = restricted_service();
    let resource = "http://prompts.example/mcp";
    let auth = HttpAuth::new(resource, KnownTokens)
        .authorization_server("https://auth.example")
        .require_scopes(["prompts"]);
    let options = HttpOptions::new().allow_any_host().auth(auth);
    let server = serve(service.http_router("/mcp", options)).await;
    let init: Value = serde_json::from_str(&initialize(LATEST)).unwrap();
    let answer = post(&server, Some("nobody"), None, init.clone()).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN);
    assert_eq!(
        answer.challenge.as_deref(),
        Some(
            "Bearer error=\"insufficient_scope\", error_description=\"this server needs the scopes: prompts\", \
             scope=\"prompts\", resource_metadata=\"http://prompts.example/.well-known/oauth-protected-resource/mcp\""
        )
    );
    let missing = post(&server, None, None, init.clone()).await;
    assert_eq!(missing.status, StatusCode::UNAUTHORIZED);
    assert!(missing.challenge.unwrap().contains("scope=\"prompts\""));
    let unknown = post(&server, Some("forged"), None, init).await;
    assert_eq!(unknown.status, StatusCode::UNAUTHORIZED);
    assert_eq!(unknown.body["error_description"], "unknown token");

    // Visibility: scopes and the predicate, per caller.
    let ann = session(&server, "ann").await;
    assert!(listed(&server, "ann", &ann).await.is_empty());
    let bob = session(&server, "bob").await;
    assert_eq!(listed(&server, "bob", &bob).await, ["ship", "staff_notes"]);
    let notes = post(
        &server,
        Some("bob"),
        Some(&bob),
        request(3, "prompts/get", json!({"name": "staff_notes"})),
    )
    .await;
    assert_eq!(texts(&notes.body), ["Notes for bob@example.com."]);
    let response = send_to(
        server.addr,
        Method::GET,
        "/.well-known/oauth-protected-resource/mcp",
        &[],
        "",
    )
    .await;
    let document: Value = serde_json::from_str(&text(response).await).unwrap();
    assert_eq!(document["scopes_supported"], json!(["deploy", "prompts"]));
}

#[tokio::test]
async fn without_a_verifier_restricted_prompts_are_hidden_unless_the_app_hands_over_a_caller() {
    let service = restricted_service();
    let open = serve(service.http_router("/mcp", HttpOptions::new().allow_any_host())).await;
    let id = session(&open, "ignored").await;
    assert!(listed(&open, "ignored", &id).await.is_empty());

    // The app's own middleware verified the request and says who it is.
    let app = service
        .http_router("/mcp", HttpOptions::new().allow_any_host())
        .layer(axum::middleware::from_fn(
            |mut request: axum::extract::Request, next: axum::middleware::Next| async move {
                request
                    .extensions_mut()
                    .insert(Caller::new("carol@example.com").with_scopes(["deploy"]));
                next.run(request).await
            },
        ));
    let trusted = serve(app).await;
    let id = session(&trusted, "ignored").await;
    assert_eq!(
        listed(&trusted, "ignored", &id).await,
        ["ship", "staff_notes"]
    );

    // The local user of an in-process (or stdio) client sees every prompt.
    let local = mcp_prompts::testing::Client::new(&service);
    let list = local.request("prompts/list", &json!({})).await.unwrap();
    assert_eq!(list["prompts"].as_array().unwrap().len(), 2, "{list}");
}

#[tokio::test]
async fn access_token_typing_can_be_required() {
    let key = SigningKey::new("k1");
    let issuer = Issuer::start(&[&key]);
    let resource = "http://prompts.example/mcp";
    let verifier = JwtVerifier::new(&issuer.url, resource).require_access_token_type();
    let auth = HttpAuth::new(resource, verifier).authorization_server(&issuer.url);
    let options = HttpOptions::new().allow_any_host().auth(auth);
    let server = serve(restricted_service().http_router("/mcp", options)).await;
    let claims = issuer.claims("ann", resource, "prompts");
    let init: Value = serde_json::from_str(&initialize(LATEST)).unwrap();
    // An ID token for this audience would be typed `JWT`.
    let untyped = post(&server, Some(&key.sign(&claims)), None, init.clone()).await;
    assert_eq!(untyped.status, StatusCode::UNAUTHORIZED);
    assert!(
        untyped.body["error_description"]
            .as_str()
            .unwrap()
            .contains("typ")
    );
    for typ in ["at+jwt", "application/at+JWT"] {
        let typed = post(
            &server,
            Some(&key.sign_typed(&claims, typ)),
            None,
            init.clone(),
        )
        .await;
        assert_eq!(typed.status, StatusCode::OK, "{typ}: {}", typed.body);
    }
}

#[test]
fn a_transport_of_its_own_says_who_its_remote_callers_are() {
    let service = restricted_service();
    let session = service.session(None);
    let init = initialize(LATEST);
    assert!(matches!(session.handle(&init), mcp_prompts::Reply::Now(_)));
    let list = support::rpc(2, "prompts/list", &json!({}));
    let names = |reply: mcp_prompts::Reply| {
        let mcp_prompts::Reply::Now(text) = reply else {
            panic!("a listing is answered at once");
        };
        let value: Value = serde_json::from_str(&text).unwrap();
        value["result"]["prompts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    // The local user sees everything; a remote caller what it may.
    assert_eq!(names(session.handle(&list)), ["ship", "staff_notes"]);
    assert!(names(session.handle_remote(&list, None, None)).is_empty());
    let deployer = Caller::new("dee").with_scopes(["deploy"]);
    assert_eq!(
        names(session.handle_remote(&list, None, Some(deployer))),
        ["ship"]
    );
}

#[tokio::test]
async fn a_session_rmcp_opens_behind_protect_belongs_to_its_caller() {
    let key = SigningKey::new("k1");
    let issuer = Issuer::start(&[&key]);
    let server = Running::example_with("with_rmcp", &["--auth-issuer", &issuer.url]);
    let ann = token(&issuer, &key, &server, "ann", "prompts");
    let bob = token(&issuer, &key, &server, "bob", "prompts");
    let id = session(&server, &ann).await;
    let ping = request(2, "ping", json!({}));
    let theirs = post(&server, Some(&bob), Some(&id), ping.clone()).await;
    assert_eq!(theirs.status, StatusCode::NOT_FOUND, "{}", theirs.body);
    let own = post(&server, Some(&ann), Some(&id), ping).await;
    assert_ne!(own.status, StatusCode::NOT_FOUND, "{}", own.body);
    assert!(own.status.is_success(), "{}", own.body);
}
