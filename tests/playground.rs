//! The playground: driven in headless Chromium against the showcase over
//! HTTP (`tests/clients/playground.mjs`, through playwright-core and
//! Debian's `chromium`), and its doors checked at the router: over
//! loopback only unless opened, its data behind the endpoint's tokens and
//! shown per caller, its policy header on every file.

mod auth_support;
mod http_support;
mod support;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;

use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt as _;
use http_support::{Running, npm_ci_once};
use mcp_prompts::{
    Caller, HttpAuth, HttpOptions, Playground, Server, Service, TokenError, TokenVerifier, prompt,
};
use serde_json::Value;

/// Where the browser test keeps its screenshot: `target/playground/`.
fn screenshot() -> PathBuf {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory holds its tmp");
    let dir = target.join("playground");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("playground.png")
}

/// `node SCRIPT http://ADDR ARGS...` in `tests/clients`, which drives the
/// browser against `server`; what it printed, once it succeeded.
fn browse(server: &Running, script: &str, args: &[&str]) -> String {
    let clients = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients");
    npm_ci_once(&clients);
    let output = Command::new("node")
        .arg(script)
        .arg(format!("http://{}", server.addr))
        .args(args)
        .current_dir(&clients)
        .output()
        .expect("node is needed to drive the browser");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    stdout
}

/// A prompt file whose title, description and argument are HTML.
const HOSTILE: &str = r#"+++
title = "<img src=x onerror=\"window.pwned = 3\">Hostile"
description = "<script>window.pwned = 4</script>"

[[arguments]]
name = "topic"
description = "<b>bold</b>"
+++
About {topic}.
"#;

/// A dotprompt file with an integer: a number input on the page.
const COUNT: &str = "---
description: Count things
input:
  schema:
    things: string
    count: integer, how many
---
List {{count}} {{things}}.
";

#[test]
fn the_playground_in_a_real_browser() {
    let files = std::env::temp_dir().join(format!("playground-{}", std::process::id()));
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(files.join("hostile.md"), HOSTILE).unwrap();
    std::fs::write(files.join("count.prompt"), COUNT).unwrap();
    let server = Running::showcase(&[
        "--playground",
        "--prompts-as-tools",
        "--prompts-dir",
        files.to_str().unwrap(),
    ]);
    let shot = screenshot();
    let _ = std::fs::remove_file(&shot);
    let stdout = browse(&server, "playground.mjs", &[shot.to_str().unwrap()]);
    assert!(!stdout.contains("FAILED"), "{stdout}");
    assert_eq!(stdout.matches("\nok ").count() + 1, 19, "{stdout}");
    let size = std::fs::metadata(&shot).map_or(0, |m| m.len());
    assert!(size > 10_000, "the screenshot is missing: {stdout}");
    let _ = std::fs::remove_dir_all(&files);
}

/// In front of a server that checks tokens, the page asks for one, and
/// shows each token the prompts it may see (`deploy_notes` needs the
/// `deploy` scope).
#[test]
fn the_playground_asks_for_a_token_and_shows_each_its_prompts() {
    let key = auth_support::SigningKey::new("k1");
    let issuer = auth_support::Issuer::start(&[&key]);
    let server = Running::showcase(&["--playground", "--auth-issuer", &issuer.url]);
    let reader = key.sign(&issuer.claims("ann", &server.url(), "prompts"));
    let deployer = key.sign(&issuer.claims("bob", &server.url(), "deploy prompts"));
    let stdout = browse(&server, "playground_tokens.mjs", &[&reader, &deployer]);
    assert!(stdout.contains("ok tokens"), "{stdout}");
}

/// Staff notes
#[prompt(scopes = ["staff"])]
fn staff_notes() -> String {
    "For staff.".into()
}

/// Greets someone
#[prompt]
fn hello(name: String) -> String {
    format!("Hello, {name}!")
}

fn service() -> Service {
    Server::new("playground", "1.0")
        .catalog(mcp_prompts::catalog![staff_notes, hello])
        .build()
        .unwrap()
}

/// `GET path` through a router for `options`, as if from `peer`; the
/// status, headers and body.
async fn get(
    options: HttpOptions,
    path: &str,
    peer: Option<&str>,
    token: Option<&str>,
) -> (StatusCode, axum::http::HeaderMap, String) {
    request(options, path, peer, token, "127.0.0.1:8080").await
}

/// [`get`] for the host `host`, with no token.
async fn get_for(
    options: HttpOptions,
    path: &str,
    peer: Option<&str>,
    host: &str,
) -> (StatusCode, axum::http::HeaderMap, String) {
    request(options, path, peer, None, host).await
}

async fn request(
    options: HttpOptions,
    path: &str,
    peer: Option<&str>,
    token: Option<&str>,
    host: &str,
) -> (StatusCode, axum::http::HeaderMap, String) {
    let router = service().http_router("/mcp", options);
    let mut request = Request::get(path).header(header::HOST, host);
    if let Some(token) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    let mut request = request.body(axum::body::Body::empty()).unwrap();
    if let Some(peer) = peer {
        let addr: SocketAddr = peer.parse().unwrap();
        request.extensions_mut().insert(ConnectInfo(addr));
    }
    let response = tower::ServiceExt::oneshot(router, request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, headers, String::from_utf8_lossy(&body).into_owned())
}

const LOOPBACK: Option<&str> = Some("127.0.0.1:50000");
const ELSEWHERE: Option<&str> = Some("10.1.2.3:50000");

#[tokio::test]
async fn the_page_is_served_over_loopback_only_unless_opened() {
    let on = || HttpOptions::new().playground(Playground::new());
    for path in [
        "/playground",
        "/playground/playground.js",
        "/playground/playground.css",
    ] {
        let (status, headers, _) = get(on(), path, LOOPBACK, None).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        let policy = headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
        assert!(
            policy.starts_with("default-src 'none'; script-src 'self'"),
            "{policy}"
        );
        assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    }
    // An IPv4 peer of a `[::]` listener, and IPv6's own loopback.
    for peer in ["[::ffff:127.0.0.1]:50000", "[::1]:50000"] {
        let (status, _, _) = get(on(), "/playground", Some(peer), None).await;
        assert_eq!(status, StatusCode::OK, "{peer}");
    }
    // From another machine, or when the server cannot tell: refused; the
    // forms too.
    for peer in [ELSEWHERE, None] {
        for path in ["/playground", "/playground/forms.json"] {
            let (status, _, body) = get(on(), path, peer, None).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{peer:?} {path}");
            assert!(body.contains("loopback only"), "{body}");
        }
    }
    // Over loopback but for a name that is not (a proxy's, a rebinding
    // one): refused.
    let (status, _, _) = get_for(on(), "/playground", LOOPBACK, "prompts.example.com").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Opened on purpose, it is served to anyone the host check lets in.
    let open = || {
        HttpOptions::new()
            .allow_any_host()
            .playground(Playground::new().beyond_loopback())
    };
    let (status, _, _) = get(open(), "/playground", ELSEWHERE, None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _, _) = get_for(open(), "/playground", ELSEWHERE, "prompts.example.com").await;
    assert_eq!(status, StatusCode::OK);
    // Not turned on: not there.
    let (status, _, _) = get(HttpOptions::new(), "/playground", LOOPBACK, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_page_says_where_the_endpoint_is_and_what_a_command_starts_with() {
    let options = HttpOptions::new().playground(Playground::new().render_command("team render"));
    let router_path = "/playground";
    let (_, _, html) = get(options, router_path, LOOPBACK, None).await;
    assert!(
        html.contains(
            "<body data-endpoint=\"mcp\" data-command=\"team render\" data-auth=\"false\">"
        ),
        "{html}"
    );
}

/// Tokens this test knows.
struct Tokens;

impl TokenVerifier for Tokens {
    async fn verify(&self, token: &str) -> Result<Caller, TokenError> {
        match token {
            "staff" => Ok(Caller::new("sam").with_scopes(["staff"])),
            "guest" => Ok(Caller::new("gus")),
            _ => Err(TokenError::invalid("unknown token")),
        }
    }
}

#[tokio::test]
async fn the_forms_need_a_token_and_show_each_caller_their_prompts() {
    let options = || {
        let auth = HttpAuth::new("http://127.0.0.1:8080/mcp", Tokens);
        HttpOptions::new().auth(auth).playground(Playground::new())
    };
    // The page holds nothing and says tokens are checked.
    let (status, _, html) = get(options(), "/playground", LOOPBACK, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("data-auth=\"true\""), "{html}");
    // Its data needs a token, as `/mcp` does.
    let (status, headers, _) = get(options(), "/playground/forms.json", LOOPBACK, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(headers.contains_key(header::WWW_AUTHENTICATE));
    let names = |body: &str| {
        let forms: Value = serde_json::from_str(body).unwrap();
        let mut names: Vec<String> = forms["prompts"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        names.sort();
        names
    };
    let (status, _, guest) =
        get(options(), "/playground/forms.json", LOOPBACK, Some("guest")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(names(&guest), ["hello"]);
    let (_, _, staff) = get(options(), "/playground/forms.json", LOOPBACK, Some("staff")).await;
    assert_eq!(names(&staff), ["hello", "staff_notes"]);
    // Each field in declared order, typed, required where it must be.
    let forms: Value = serde_json::from_str(&staff).unwrap();
    assert_eq!(
        forms["prompts"]["hello"]["order"],
        serde_json::json!(["name"])
    );
    assert_eq!(
        forms["prompts"]["hello"]["schema"]["required"],
        serde_json::json!(["name"])
    );
}

/// The CLI's `serve --http --playground`: the page over real TCP, its
/// "copy as command" rendering through the same binary and folders; and
/// `--playground` without `--http` explained.
#[test]
fn the_cli_serves_the_playground_beside_its_folders() {
    use std::io::{Read as _, Write as _};
    let dir = std::env::temp_dir().join(format!("playground-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("hostile.md"), HOSTILE).unwrap();
    let cli = http_support::cli_binary();
    let mut serve = Command::new(&cli);
    serve.args([
        "serve",
        dir.to_str().unwrap(),
        "--http",
        "127.0.0.1:0",
        "--playground",
    ]);
    let server = Running::program(serve);
    let mut stream = std::net::TcpStream::connect(server.addr).unwrap();
    write!(
        stream,
        "GET /playground HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut page = String::new();
    stream.read_to_string(&mut page).unwrap();
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    let command = format!("render --dir {}\"", dir.display());
    assert!(page.contains(&command), "{page}");
    let refused = Command::new(&cli)
        .args(["serve", dir.to_str().unwrap(), "--playground"])
        .output()
        .unwrap();
    // The page is beside the HTTP endpoint: without --http, a mistake.
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("required arguments were not provided") && stderr.contains("--http"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
