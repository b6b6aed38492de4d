//! Streamable HTTP over real loopback sockets: every status code the
//! transport answers with, sessions, event streams, stateless mode and
//! graceful shutdown, against the fixture server.

mod http_support;
mod support;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};

use http_support::{Running, header, send, send_to, text};
use support::{LATEST, initialize, rpc};

const ACCEPT_BOTH: (&str, &str) = ("accept", "application/json, text/event-stream");

/// A client with a live session on `server`.
struct Client {
    addr: SocketAddr,
    session: String,
}

impl Client {
    async fn connect(server: &Running) -> Self {
        let response = send(
            server.addr,
            Method::POST,
            &[ACCEPT_BOTH],
            initialize(LATEST),
        )
        .await;
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(header(&response, "content-type"), Some("application/json"));
        let session = header(&response, "mcp-session-id")
            .expect("initialize issues a session")
            .to_owned();
        let result: Value = serde_json::from_str(&text(response).await).unwrap();
        assert_eq!(result["result"]["protocolVersion"], LATEST);
        let client = Self {
            addr: server.addr,
            session,
        };
        let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string();
        let accepted = client.post(&note).await;
        assert_eq!(accepted.status(), StatusCode::ACCEPTED);
        assert_eq!(text(accepted).await, "");
        client
    }

    /// POSTs `body` with the session's headers, `replace` overriding any
    /// of them.
    async fn post_with(&self, body: &str, replace: &[(&str, &str)]) -> Response<Incoming> {
        let mut headers = vec![
            ACCEPT_BOTH,
            ("mcp-session-id", self.session.as_str()),
            ("mcp-protocol-version", LATEST),
        ];
        headers.retain(|(name, _)| !replace.iter().any(|(r, _)| r == name));
        headers.extend_from_slice(replace);
        send(self.addr, Method::POST, &headers, body.to_owned()).await
    }

    async fn post(&self, body: &str) -> Response<Incoming> {
        self.post_with(body, &[]).await
    }

    async fn call(&self, id: u64, method: &str, params: Value) -> Value {
        let response = self.post(&rpc(id, method, &params)).await;
        assert_eq!(response.status(), StatusCode::OK);
        serde_json::from_str(&text(response).await).unwrap()
    }
}

#[tokio::test]
async fn sessions_are_issued_required_and_ended() {
    let server = Running::fixture(&[]);
    let client = Client::connect(&server).await;
    assert_eq!(client.session.len(), 64);
    assert!(client.session.bytes().all(|b| (0x21..=0x7e).contains(&b)));
    let other = Client::connect(&server).await;
    assert_ne!(client.session, other.session);

    let pong = client.call(1, "ping", json!({})).await;
    assert_eq!(pong, json!({"jsonrpc": "2.0", "id": 1, "result": {}}));

    let ping_request = rpc(2, "ping", &json!({}));
    let missing = send(
        server.addr,
        Method::POST,
        &[ACCEPT_BOTH],
        ping_request.clone(),
    )
    .await;
    assert_eq!(missing.status(), StatusCode::BAD_REQUEST);
    let body: Value = serde_json::from_str(&text(missing).await).unwrap();
    assert_eq!(body["error"]["code"], -32600);
    assert!(body.get("id").is_none());
    let unknown = send(
        server.addr,
        Method::POST,
        &[ACCEPT_BOTH, ("mcp-session-id", "no-such-session")],
        ping_request.clone(),
    )
    .await;
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND);

    let session = [("mcp-session-id", client.session.as_str())];
    let deleted = send(server.addr, Method::DELETE, &session, "").await;
    assert_eq!(deleted.status(), StatusCode::OK);
    assert_eq!(
        client.post(&ping_request).await.status(),
        StatusCode::NOT_FOUND
    );
    let again = send(server.addr, Method::DELETE, &session, "").await;
    assert_eq!(again.status(), StatusCode::NOT_FOUND);
    let no_header = send(server.addr, Method::DELETE, &[], "").await;
    assert_eq!(no_header.status(), StatusCode::BAD_REQUEST);
    // The other session is untouched.
    assert_eq!(other.call(3, "ping", json!({})).await["result"], json!({}));
}

#[tokio::test]
async fn foreign_hosts_and_origins_are_forbidden() {
    let server = Running::fixture(&[]);
    let init = initialize(LATEST);
    for headers in [
        vec![("host", "evil.example.com")],
        vec![("origin", "http://evil.example.com")],
        vec![
            ("host", "evil.example.com"),
            ("origin", "http://evil.example.com"),
        ],
    ] {
        let mut headers = headers;
        headers.push(ACCEPT_BOTH);
        let response = send(server.addr, Method::POST, &headers, init.clone()).await;
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{headers:?}");
        assert!(header(&response, "mcp-session-id").is_none());
    }
    let port = server.addr.port().to_string();
    for (host, origin) in [
        (
            format!("localhost:{port}"),
            format!("http://localhost:{port}"),
        ),
        (
            format!("127.0.0.1:{port}"),
            "http://localhost:5173".to_owned(),
        ),
    ] {
        let headers = [
            ACCEPT_BOTH,
            ("host", host.as_str()),
            ("origin", origin.as_str()),
        ];
        let response = send(server.addr, Method::POST, &headers, init.clone()).await;
        assert_eq!(response.status(), StatusCode::OK, "{host} {origin}");
    }
}

/// An `Origin` (or `Host`) is read by a URL parser: one that a hand split
/// would take for loopback but a browser would not (text after an IPv6
/// address, two ports, user info) is `403`, and so is `null`.
#[tokio::test]
async fn malformed_origins_and_hosts_are_forbidden() {
    let server = Running::fixture(&[]);
    let init = initialize(LATEST);
    let port = server.addr.port().to_string();
    let host = format!("localhost:{port}");
    for origin in [
        "http://[::1]evil.example",
        "http://localhost:80:80",
        "http://127.0.0.1@evil.example",
        "http://evil.example@localhost",
        "http://localhost:5173/page",
        "null",
    ] {
        let headers = [ACCEPT_BOTH, ("host", host.as_str()), ("origin", origin)];
        let response = send(server.addr, Method::POST, &headers, init.clone()).await;
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{origin}");
        assert!(header(&response, "mcp-session-id").is_none(), "{origin}");
    }
    for host in [
        "[::1]evil.example",
        "localhost:80:80",
        "evil.example@localhost",
    ] {
        let headers = [ACCEPT_BOTH, ("host", host)];
        let response = send(server.addr, Method::POST, &headers, init.clone()).await;
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{host}");
    }
    // Loopback spelled as browsers send it still passes.
    let headers = [
        ACCEPT_BOTH,
        ("host", host.as_str()),
        ("origin", "http://[::1]:5173"),
    ];
    let response = send(server.addr, Method::POST, &headers, init.clone()).await;
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn bodies_versions_and_malformed_messages() {
    let server = Running::fixture(&[("FIXTURE_MAX_MESSAGE_BYTES", "2048")]);
    let client = Client::connect(&server).await;
    let big = rpc(
        1,
        "prompts/get",
        &json!({"name": "summarize", "arguments": {"text": "x".repeat(4096)}}),
    );
    assert_eq!(
        client.post(&big).await.status(),
        StatusCode::PAYLOAD_TOO_LARGE
    );

    // Any supported revision is accepted in the header, even one other than
    // the negotiated one; an unknown one is 400.
    let ping = rpc(2, "ping", &json!({}));
    let older = client
        .post_with(&ping, &[("mcp-protocol-version", "2025-03-26")])
        .await;
    assert_eq!(older.status(), StatusCode::OK);
    let bogus = client
        .post_with(&ping, &[("mcp-protocol-version", "1999-01-01")])
        .await;
    assert_eq!(bogus.status(), StatusCode::BAD_REQUEST);

    let garbage = client.post("{not json").await;
    assert_eq!(garbage.status(), StatusCode::BAD_REQUEST);
    let body: Value = serde_json::from_str(&text(garbage).await).unwrap();
    assert_eq!(body["error"]["code"], -32700);

    let unknown = client.call(3, "tools/list", json!({})).await;
    assert_eq!(unknown["error"]["code"], -32601);
    let missing = client
        .call(4, "prompts/get", json!({"name": "summarize"}))
        .await;
    assert_eq!(missing["error"]["code"], -32602);
    let put = send(server.addr, Method::PUT, &[], "").await;
    assert_eq!(put.status(), StatusCode::METHOD_NOT_ALLOWED);
    // After all that, the session still serves.
    assert_eq!(client.call(5, "ping", json!({})).await["result"], json!({}));
}

#[tokio::test]
async fn concurrent_requests_on_one_session_run_in_parallel() {
    let server = Running::fixture(&[]);
    let client = Client::connect(&server).await;
    let started = Instant::now();
    let calls = (0..8u64).map(|i| {
        let client = &client;
        async move {
            let response = client
                .call(
                    100 + i,
                    "prompts/get",
                    json!({"name": "slow", "arguments": {"ms": "300"}}),
                )
                .await;
            assert_eq!(response["id"], 100 + i);
            assert_eq!(
                response["result"]["messages"][0]["content"]["text"],
                "slept 300ms"
            );
        }
    });
    futures_util::future::join_all(calls).await;
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_millis(8 * 300), "{elapsed:?}");
}

#[tokio::test]
async fn a_requests_notifications_come_first_on_its_event_stream() {
    let server = Running::fixture(&[]);
    let client = Client::connect(&server).await;
    let whoami = rpc(
        7,
        "prompts/get",
        &json!({"name": "whoami", "arguments": {"who": "ann"}}),
    );
    let response = client.post(&whoami).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(header(&response, "content-type"), Some("text/event-stream"));
    let body = text(response).await;
    let data: Vec<Value> = body
        .lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .map(|data| serde_json::from_str(data).unwrap())
        .collect();
    assert_eq!(data.len(), 2, "{body}");
    assert_eq!(data[0]["method"], "notifications/message");
    assert_eq!(data[1]["id"], 7);
    assert!(data[1]["result"]["messages"].is_array());

    // A client that takes only JSON gets the response alone.
    let json_only = client
        .post_with(&whoami, &[("accept", "application/json")])
        .await;
    assert_eq!(header(&json_only, "content-type"), Some("application/json"));
}

#[tokio::test]
async fn get_opens_one_event_stream_per_session_until_it_ends() {
    let server = Running::fixture(&[]);
    let client = Client::connect(&server).await;
    let headers = [
        ("accept", "text/event-stream"),
        ("mcp-session-id", client.session.as_str()),
        ("mcp-protocol-version", LATEST),
    ];
    let stream = send(server.addr, Method::GET, &headers, "").await;
    assert_eq!(stream.status(), StatusCode::OK);
    assert_eq!(header(&stream, "content-type"), Some("text/event-stream"));
    let second = send(server.addr, Method::GET, &headers, "").await;
    assert_eq!(second.status(), StatusCode::CONFLICT);
    let no_session = send(
        server.addr,
        Method::GET,
        &[("accept", "text/event-stream")],
        "",
    )
    .await;
    assert_eq!(no_session.status(), StatusCode::BAD_REQUEST);
    let not_sse = send(
        server.addr,
        Method::GET,
        &[
            ("accept", "application/json"),
            ("mcp-session-id", client.session.as_str()),
        ],
        "",
    )
    .await;
    assert_eq!(not_sse.status(), StatusCode::NOT_ACCEPTABLE);

    // Ending the session ends its stream.
    let session = [("mcp-session-id", client.session.as_str())];
    let deleted = send(server.addr, Method::DELETE, &session, "").await;
    assert_eq!(deleted.status(), StatusCode::OK);
    let ended = tokio::time::timeout(Duration::from_secs(5), text(stream)).await;
    assert!(ended.is_ok(), "the stream did not end with its session");
}

#[tokio::test]
async fn streams_can_be_turned_off() {
    let server = Running::fixture(&[("FIXTURE_NO_STREAMS", "1")]);
    let client = Client::connect(&server).await;
    let headers = [
        ("accept", "text/event-stream"),
        ("mcp-session-id", client.session.as_str()),
    ];
    let response = send(server.addr, Method::GET, &headers, "").await;
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn idle_sessions_expire() {
    let server = Running::fixture(&[("FIXTURE_IDLE_MS", "1000")]);
    let client = Client::connect(&server).await;
    assert_eq!(client.call(1, "ping", json!({})).await["result"], json!({}));
    tokio::time::sleep(Duration::from_millis(1600)).await;
    let expired = client.post(&rpc(2, "ping", &json!({}))).await;
    assert_eq!(expired.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn stateless_mode_needs_no_session() {
    let server = Running::fixture(&[("FIXTURE_STATELESS", "1")]);
    let init = send(
        server.addr,
        Method::POST,
        &[ACCEPT_BOTH],
        initialize(LATEST),
    )
    .await;
    assert_eq!(init.status(), StatusCode::OK);
    assert!(header(&init, "mcp-session-id").is_none());
    let get = rpc(
        1,
        "prompts/get",
        &json!({"name": "summarize", "arguments": {"text": "t"}}),
    );
    let headers = [ACCEPT_BOTH, ("mcp-protocol-version", "2025-06-18")];
    let response = send(server.addr, Method::POST, &headers, get.clone()).await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = serde_json::from_str(&text(response).await).unwrap();
    assert!(body["result"]["messages"].is_array(), "{body}");
    // No header: the specification's default revision, 2025-03-26.
    let bare = send(server.addr, Method::POST, &[ACCEPT_BOTH], get).await;
    assert_eq!(bare.status(), StatusCode::OK);
    for method in [Method::GET, Method::DELETE] {
        let response = send(
            server.addr,
            method.clone(),
            &[("accept", "text/event-stream")],
            "",
        )
        .await;
        assert_eq!(
            response.status(),
            StatusCode::METHOD_NOT_ALLOWED,
            "{method}"
        );
    }
}

#[tokio::test]
async fn shutdown_answers_requests_in_flight_then_closes() {
    let server = Running::fixture(&[]);
    let client = Client::connect(&server).await;
    let slow = rpc(
        1,
        "prompts/get",
        &json!({"name": "slow", "arguments": {"ms": "1500"}}),
    );
    let in_flight = tokio::spawn(async move { text(client.post(&slow).await).await });
    // Long enough for the request to arrive, well before it is answered.
    tokio::time::sleep(Duration::from_millis(400)).await;
    server.interrupt();
    let answer: Value = serde_json::from_str(&in_flight.await.unwrap()).unwrap();
    assert_eq!(
        answer["result"]["messages"][0]["content"]["text"],
        "slept 1500ms"
    );
    let addr = server.addr;
    let status = tokio::task::spawn_blocking(move || server.wait())
        .await
        .unwrap();
    assert!(status.success(), "{status}");
    assert!(tokio::net::TcpStream::connect(addr).await.is_err());
}

/// At SIGTERM the server first says it is not ready (`/readyz` 503) and
/// serves on for its drain delay, new sessions included; then it stops
/// accepting, answers the request still in flight, and exits 0. The
/// probes are served outside MCP, and are logged as no request.
#[tokio::test]
async fn sigterm_fails_readiness_first_then_drains_what_is_in_flight() {
    let server = Running::fixture(&[
        ("FIXTURE_DRAIN_MS", "1500"),
        ("RUST_LOG", "mcp_prompts=info"),
    ]);
    let addr = server.addr;
    let probe = |path: &'static str| async move {
        let response = send_to(addr, Method::GET, path, &[], "").await;
        let status = response.status();
        (status, text(response).await)
    };
    assert_eq!(probe("/healthz").await, (StatusCode::OK, "ok\n".to_owned()));
    assert_eq!(
        probe("/readyz").await,
        (StatusCode::OK, "ready\n".to_owned())
    );
    // Metrics are served only when asked for.
    assert_eq!(probe("/metrics").await.0, StatusCode::NOT_FOUND);
    let client = Client::connect(&server).await;
    // Answered well after the drain delay has passed.
    let slow = rpc(
        1,
        "prompts/get",
        &json!({"name": "slow", "arguments": {"ms": "3500"}}),
    );
    let in_flight = tokio::spawn(async move { text(client.post(&slow).await).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let pid = server.pid().to_string();
    let sent = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap();
    assert!(sent.success());
    tokio::time::sleep(Duration::from_millis(300)).await;
    // Draining: not ready, alive, and still serving what is sent.
    assert_eq!(
        probe("/readyz").await,
        (StatusCode::SERVICE_UNAVAILABLE, "draining\n".to_owned())
    );
    assert_eq!(probe("/healthz").await.0, StatusCode::OK);
    let late = Client::connect(&server).await;
    let listed = late.post(&rpc(2, "prompts/list", &json!({}))).await;
    assert_eq!(listed.status(), StatusCode::OK);
    // The request in flight is answered after the listener has closed.
    let answer: Value = serde_json::from_str(&in_flight.await.unwrap()).unwrap();
    assert_eq!(
        answer["result"]["messages"][0]["content"]["text"],
        "slept 3500ms"
    );
    // The listener closed when the delay ended, before the answer came.
    assert!(tokio::net::TcpStream::connect(addr).await.is_err());
    let said = server.stderr();
    let status = tokio::task::spawn_blocking(move || server.wait())
        .await
        .unwrap();
    assert!(status.success(), "{status}");
    assert!(said.contains("prompts/list"), "requests are logged: {said}");
    assert!(
        !said.contains("healthz") && !said.contains("readyz"),
        "probes are no requests: {said}"
    );
}

/// `serve --http --metrics`: the scrape answers in Prometheus' text format
/// with the request just served, though no OTLP endpoint is set; `/readyz`
/// fails while a folder cannot be read, without saying which to the
/// prober (the log does), and passes again once it can.
#[tokio::test]
async fn the_cli_serves_metrics_and_is_ready_while_its_folders_are() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("prompts");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("hi.md"), "Say hi.").unwrap();
    let mut command = std::process::Command::new(http_support::cli_binary());
    command
        .args([
            "serve",
            dir.to_str().unwrap(),
            "--http",
            "127.0.0.1:0",
            "--metrics",
        ])
        .env("RUST_LOG", "mcp_prompts=info")
        .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
        .env_remove("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT");
    let server = Running::program(command);
    let addr = server.addr;
    let client = Client::connect(&server).await;
    let got = client
        .post(&rpc(1, "prompts/get", &json!({"name": "hi"})))
        .await;
    assert_eq!(got.status(), StatusCode::OK);
    let scrape = send_to(addr, Method::GET, "/metrics", &[], "").await;
    assert_eq!(scrape.status(), StatusCode::OK);
    let kind = header(&scrape, "content-type").unwrap();
    assert!(kind.starts_with("text/plain; version=0.0.4"), "{kind}");
    let metrics = text(scrape).await;
    // A page that rebinds another name to this address reads nothing.
    let rebound = send_to(
        addr,
        Method::GET,
        "/metrics",
        &[("host", "evil.example")],
        "",
    )
    .await;
    assert_eq!(rebound.status(), StatusCode::FORBIDDEN);
    let prompt_series = metrics.lines().find(|line| {
        line.starts_with("mcp_server_operation_duration_seconds_count{")
            && line.contains("mcp_method_name=\"prompts/get\"")
            && line.contains("gen_ai_prompt_name=\"hi\"")
    });
    assert!(
        prompt_series.is_some_and(|line| line.ends_with(" 1")),
        "{metrics}"
    );

    let probe = || async move {
        let response = send_to(addr, Method::GET, "/readyz", &[], "").await;
        (response.status(), text(response).await)
    };
    assert_eq!(probe().await, (StatusCode::OK, "ready\n".to_owned()));
    // An answer stands for a second: the probe comes round to the change.
    let until = |want: StatusCode| async move {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let (status, said) = probe().await;
            if status == want || Instant::now() > deadline {
                return (status, said);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    };
    let away = root.path().join("elsewhere");
    std::fs::rename(&dir, &away).unwrap();
    assert_eq!(
        until(StatusCode::SERVICE_UNAVAILABLE).await,
        (StatusCode::SERVICE_UNAVAILABLE, "not ready\n".to_owned())
    );
    std::fs::rename(&away, &dir).unwrap();
    assert_eq!(
        until(StatusCode::OK).await,
        (StatusCode::OK, "ready\n".to_owned())
    );
    // Logged once each way, with why; the probes are no request lines.
    let deadline = Instant::now() + Duration::from_secs(5);
    while !server.stderr().contains("ready again") && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let said = server.stderr();
    let not_ready = said.matches("not ready: /readyz answers 503").count();
    assert_eq!(not_ready, 1, "{said}");
    assert!(said.contains("No such file or directory"), "{said}");
    assert_eq!(said.matches("ready again").count(), 1, "{said}");
    assert!(!said.contains("/readyz\""), "{said}");
}

/// The showcase's `--metrics`: the listing it just served, scraped.
#[tokio::test]
async fn the_showcase_serves_its_metrics_when_asked() {
    let server = Running::showcase(&["--metrics"]);
    let client = Client::connect(&server).await;
    let listed = client.post(&rpc(1, "prompts/list", &json!({}))).await;
    assert_eq!(listed.status(), StatusCode::OK);
    let scrape = send_to(server.addr, Method::GET, "/metrics", &[], "").await;
    assert_eq!(scrape.status(), StatusCode::OK);
    let metrics = text(scrape).await;
    assert!(
        metrics.lines().any(|line| line
            .starts_with("mcp_server_operation_duration_seconds_count{")
            && line.contains("mcp_method_name=\"prompts/list\"")),
        "{metrics}"
    );
}

/// A service with one prompt, `hello`, for a test to mount.
fn one_prompt_service(name: &str) -> mcp_prompts::Service {
    mcp_prompts::Server::new(name, "1.0")
        .prompts([mcp_prompts::DynamicPrompt::builder("hello")
            .template("Hi")
            .build()
            .unwrap()])
        .build()
        .unwrap()
}

/// A readiness check that hangs (a network mount gone quiet) never holds
/// the server: the probe says not ready within its time limit, liveness
/// and MCP answer meanwhile, and probes in a flood share one check.
#[tokio::test]
async fn a_hung_readiness_check_answers_503_and_holds_nothing() {
    let service = one_prompt_service("hung");
    let checks = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = std::sync::Arc::clone(&checks);
    let options = mcp_prompts::HttpOptions::new().ready_when(move || {
        counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        std::thread::sleep(Duration::from_secs(5));
        Ok(())
    });
    let endpoint = service.http_endpoint(options);
    let app = endpoint.router("/mcp").merge(endpoint.probes());
    // One worker: a check on it would stall everything.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    let started = Instant::now();
    let probes: Vec<_> = (0..8)
        .map(|_| {
            tokio::spawn(async move {
                send_to(addr, Method::GET, "/readyz", &[], "")
                    .await
                    .status()
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let alive = send_to(addr, Method::GET, "/healthz", &[], "").await;
    assert_eq!(alive.status(), StatusCode::OK);
    let served = send(addr, Method::POST, &[ACCEPT_BOTH], initialize(LATEST)).await;
    assert_eq!(served.status(), StatusCode::OK);
    for probe in probes {
        assert_eq!(probe.await.unwrap(), StatusCode::SERVICE_UNAVAILABLE);
    }
    // Past the answer's second, the check still stuck: not ready, and no
    // second check beside it.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let again = send_to(addr, Method::GET, "/readyz", &[], "").await;
    assert_eq!(again.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(checks.load(std::sync::atomic::Ordering::Relaxed), 1);
}

/// An app that mounts the endpoint itself gets the same probes, and drives
/// the drain: `drain` fails readiness and serves on, `shut_down` answers
/// new MCP requests 503 with a JSON-RPC error; liveness stays.
#[tokio::test]
async fn a_mounted_endpoint_drains_and_then_refuses_with_503() {
    let service = one_prompt_service("mounted");
    let endpoint = service.http_endpoint(mcp_prompts::HttpOptions::new());
    let app = endpoint.router("/mcp").merge(endpoint.probes());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    let server = Running::in_process(addr);
    let ready = || async move {
        let response = send_to(addr, Method::GET, "/readyz", &[], "").await;
        response.status()
    };
    assert_eq!(ready().await, StatusCode::OK);
    endpoint.drain();
    assert_eq!(ready().await, StatusCode::SERVICE_UNAVAILABLE);
    let while_draining = send(addr, Method::POST, &[ACCEPT_BOTH], initialize(LATEST)).await;
    assert_eq!(
        while_draining.status(),
        StatusCode::OK,
        "draining still serves"
    );
    endpoint.shut_down();
    let refused = send(addr, Method::POST, &[ACCEPT_BOTH], initialize(LATEST)).await;
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
    let error: Value = serde_json::from_str(&text(refused).await).unwrap();
    assert_eq!(error["error"]["code"], -32603, "{error}");
    let alive = send_to(server.addr, Method::GET, "/healthz", &[], "").await;
    assert_eq!(alive.status(), StatusCode::OK);
}

#[tokio::test]
async fn notifications_and_odd_bodies_follow_the_same_rules() {
    let server = Running::fixture(&[]);
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string();
    let no_session = send(server.addr, Method::POST, &[ACCEPT_BOTH], note.clone()).await;
    assert_eq!(no_session.status(), StatusCode::BAD_REQUEST);
    let unknown = send(
        server.addr,
        Method::POST,
        &[ACCEPT_BOTH, ("mcp-session-id", "no-such-session")],
        note,
    )
    .await;
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND);

    let client = Client::connect(&server).await;
    let binary = send(
        server.addr,
        Method::POST,
        &[ACCEPT_BOTH, ("mcp-session-id", client.session.as_str())],
        vec![0xff, 0xfe, b'{'],
    )
    .await;
    assert_eq!(binary.status(), StatusCode::BAD_REQUEST);
    for method in [Method::GET, Method::DELETE] {
        let headers = [
            ("accept", "text/event-stream"),
            ("mcp-session-id", client.session.as_str()),
            ("mcp-protocol-version", "nope"),
        ];
        let response = send(server.addr, method.clone(), &headers, "").await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{method}");
    }
    // Neither refusal touched the session.
    assert_eq!(client.call(1, "ping", json!({})).await["result"], json!({}));
}

#[tokio::test]
async fn a_host_that_is_not_text_is_forbidden() {
    let server = Running::fixture(&[]);
    let stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(connection);
    let request = Request::builder()
        .method(Method::POST)
        .uri("/mcp")
        .header(
            "host",
            hyper::header::HeaderValue::from_bytes(b"local\xffhost").unwrap(),
        )
        .body(Full::new(Bytes::from(initialize(LATEST))))
        .unwrap();
    let response = sender.send_request(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn batches_over_http_under_2025_03_26() {
    let server = Running::fixture(&[]);
    let init = send(
        server.addr,
        Method::POST,
        &[ACCEPT_BOTH],
        initialize("2025-03-26"),
    )
    .await;
    let session = header(&init, "mcp-session-id").unwrap().to_owned();
    let headers = [ACCEPT_BOTH, ("mcp-session-id", session.as_str())];
    let batch = json!([
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "prompts/get", "params": {"name": "summarize", "arguments": {"text": "t"}}},
    ]);
    let response = send(server.addr, Method::POST, &headers, batch.to_string()).await;
    assert_eq!(response.status(), StatusCode::OK);
    let answers: Value = serde_json::from_str(&text(response).await).unwrap();
    let ids: Vec<_> = answers
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].clone())
        .collect();
    assert_eq!(ids, [json!(1), json!(2)]);
    let notes = json!([{"jsonrpc": "2.0", "method": "notifications/initialized"}]);
    let accepted = send(server.addr, Method::POST, &headers, notes.to_string()).await;
    assert_eq!(accepted.status(), StatusCode::ACCEPTED);
}

#[tokio::test]
async fn only_successful_initializes_make_sessions_and_the_longest_idle_goes_first() {
    // No grace: a session idle for any time may make room.
    let server = Running::fixture(&[
        ("FIXTURE_MAX_SESSIONS", "1"),
        ("FIXTURE_EVICTION_GRACE_MS", "0"),
    ]);
    let kept = Client::connect(&server).await;
    // None of these makes a session, so none can push `kept` out.
    for body in [
        json!({"jsonrpc": "2.0", "method": "initialize"}).to_string(),
        json!(["initialize"]).to_string(),
        rpc(9, "initialize", &json!({"protocolVersion": 7})),
    ] {
        let response = send(server.addr, Method::POST, &[ACCEPT_BOTH], body.clone()).await;
        assert!(header(&response, "mcp-session-id").is_none(), "{body}");
    }
    assert_eq!(kept.call(1, "ping", json!({})).await["result"], json!({}));
    // A second real session is over the bound of one: the older one ends.
    let newer = Client::connect(&server).await;
    assert_eq!(
        kept.post(&rpc(2, "ping", &json!({}))).await.status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(newer.call(3, "ping", json!({})).await["result"], json!({}));
}

#[tokio::test]
async fn the_session_stream_carries_messages_sent_after_a_request_was_answered() {
    let server = Running::fixture(&[]);
    let client = Client::connect(&server).await;
    let headers = [
        ("accept", "text/event-stream"),
        ("mcp-session-id", client.session.as_str()),
    ];
    let mut stream = send(server.addr, Method::GET, &headers, "")
        .await
        .into_body();
    let answer = client
        .call(1, "prompts/get", json!({"name": "notify_later"}))
        .await;
    assert_eq!(
        answer["result"]["messages"][0]["content"]["text"],
        "scheduled"
    );
    let mut received = String::new();
    let deadline = Instant::now() + Duration::from_secs(5);
    while !received.contains("done later") && Instant::now() < deadline {
        let frame = tokio::time::timeout(Duration::from_secs(5), stream.frame())
            .await
            .expect("an event in time")
            .expect("the stream is open")
            .unwrap();
        if let Ok(data) = frame.into_data() {
            received.push_str(&String::from_utf8_lossy(&data));
        }
    }
    assert!(received.contains("notifications/message"), "{received}");
    assert!(received.contains("done later"), "{received}");
}

#[tokio::test]
async fn shutdown_ends_open_event_streams() {
    let server = Running::fixture(&[]);
    let client = Client::connect(&server).await;
    let headers = [
        ("accept", "text/event-stream"),
        ("mcp-session-id", client.session.as_str()),
    ];
    let stream = send(server.addr, Method::GET, &headers, "").await;
    assert_eq!(stream.status(), StatusCode::OK);
    server.interrupt();
    let ended = tokio::time::timeout(Duration::from_secs(5), text(stream)).await;
    assert!(ended.is_ok(), "the event stream kept shutdown waiting");
    let status = tokio::task::spawn_blocking(move || server.wait())
        .await
        .unwrap();
    assert!(status.success(), "{status}");
}
