//! Starts a server binary serving Streamable HTTP on a free loopback port,
//! and stops it when dropped. Each test crate uses part of this; a crate
//! that has it has `support` too.
#![allow(dead_code)]

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, PoisonError};

use crate::support::{MODERN, initialize};

pub struct Running {
    /// The server's process; `None` for one serving in the test's own.
    child: Option<Child>,
    pub addr: SocketAddr,
    /// What the process has written to stderr so far.
    stderr: Arc<Mutex<Vec<u8>>>,
}

impl Running {
    /// The fixture server, configured by `FIXTURE_*` variables.
    pub fn fixture(env: &[(&str, &str)]) -> Self {
        let mut command = Command::new(env!("CARGO_BIN_EXE_fixture-server"));
        command
            .env("FIXTURE_HTTP", "127.0.0.1:0")
            .envs(env.iter().copied());
        Self::start(command)
    }

    /// The fixture server, allowed at most `descriptors` open files (through
    /// the shell's `ulimit -n`).
    pub fn fixture_with_fd_limit(env: &[(&str, &str)], descriptors: u32) -> Self {
        let mut command = Command::new("sh");
        command
            .args(["-c", &format!("ulimit -n {descriptors} && exec \"$0\"")])
            .arg(env!("CARGO_BIN_EXE_fixture-server"))
            .env("FIXTURE_HTTP", "127.0.0.1:0")
            .envs(env.iter().copied());
        Self::start(command)
    }

    /// The showcase, with `--http` and `extra` options.
    pub fn showcase(extra: &[&str]) -> Self {
        Self::showcase_with_env(extra, &[])
    }

    /// The showcase, with `--http`, `extra` options and environment `env`.
    pub fn showcase_with_env(extra: &[&str], env: &[(&str, &str)]) -> Self {
        let mut command = Command::new(showcase_binary());
        command
            .args(["--http", "127.0.0.1:0"])
            .args(extra)
            .envs(env.iter().copied());
        Self::start(command)
    }

    /// Another example over HTTP (`--http 127.0.0.1:0`).
    pub fn example(name: &str) -> Self {
        Self::example_with(name, &[])
    }

    /// Another example over HTTP (`--http 127.0.0.1:0`), with `extra`
    /// options.
    pub fn example_with(name: &str, extra: &[&str]) -> Self {
        let mut command = Command::new(example_binary(name));
        command.args(["--http", "127.0.0.1:0"]).args(extra);
        Self::start(command)
    }

    /// Any server program over HTTP, its command line given whole: it
    /// must log the URL it serves at on stderr, as ours do.
    pub fn program(command: Command) -> Self {
        Self::start(command)
    }

    fn start(mut command: Command) -> Self {
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the server starts");
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        let addr = loop {
            line.clear();
            assert!(
                stderr.read_line(&mut line).unwrap() > 0,
                "the server exited before listening"
            );
            if let Some(rest) = line.split("http://").nth(1) {
                break rest.split('/').next().unwrap().parse().unwrap();
            }
        };
        // Keep draining stderr so the server never blocks on it, and keep
        // it for the tests that read the log.
        let kept = Arc::new(Mutex::new(line.into_bytes()));
        let keeping = Arc::clone(&kept);
        std::thread::spawn(move || {
            let mut chunk = [0; 4096];
            while let Ok(n @ 1..) = stderr.read(&mut chunk) {
                keeping.lock().unwrap().extend_from_slice(&chunk[..n]);
            }
        });
        Self {
            child: Some(child),
            addr,
            stderr: kept,
        }
    }

    /// A server the test serves itself, on `addr`.
    pub fn in_process(addr: SocketAddr) -> Self {
        Self {
            child: None,
            addr,
            stderr: Arc::default(),
        }
    }

    /// What the server has written to stderr so far (its log).
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    fn child(&self) -> &Child {
        self.child.as_ref().expect("a server process")
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child().id()
    }

    /// `http://127.0.0.1:PORT/mcp`.
    pub fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    /// Sends SIGINT, as Ctrl-C does.
    pub fn interrupt(&self) {
        let status = Command::new("kill")
            .args(["-INT", &self.pid().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    pub fn wait(mut self) -> ExitStatus {
        self.child.take().expect("a server process").wait().unwrap()
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Runs `install` unless `marker` exists, then creates `marker`. Tests of
/// one binary run on several threads: the first to come installs while
/// the others wait, and the marker is written only once the install
/// finished, so an interrupted one is redone on the next run.
pub fn install_once(marker: &Path, install: impl FnOnce()) {
    static INSTALLING: Mutex<()> = Mutex::new(());
    let _guard = INSTALLING.lock().unwrap_or_else(PoisonError::into_inner);
    if marker.exists() {
        return;
    }
    install();
    std::fs::write(marker, "").expect("write the install marker");
}

/// Runs `npm ci` in `dir` once: the official clients and the conformance
/// suite install on first use.
pub fn npm_ci_once(dir: &Path) {
    install_once(&dir.join("node_modules/.installed-by-tests"), || {
        let status = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(dir)
            .status()
            .expect("npm is needed to install the official MCP tools");
        assert!(status.success(), "npm ci failed in {}", dir.display());
    });
}

/// `python SCRIPT ARGS...` in `tests/clients/FOLDER`, with the clients
/// its `requirements.txt` pins installed in a virtual environment of its
/// own on first use.
pub fn python_script(folder: &str, script: &str, args: &[&str]) -> std::process::Output {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/clients")
        .join(folder);
    install_once(&dir.join(".venv/.installed-by-tests"), || {
        // `--clear` redoes a virtual environment an earlier run left half made.
        let status = Command::new("python3")
            .args(["-m", "venv", "--clear", ".venv"])
            .current_dir(&dir)
            .status()
            .expect("python3 is needed to install the MCP Python clients");
        assert!(status.success(), "python3 -m venv failed");
        let status = Command::new(dir.join(".venv/bin/pip"))
            .args(["install", "--quiet", "-r", "requirements.txt"])
            .current_dir(&dir)
            .status()
            .expect("pip is needed to install the MCP Python clients");
        assert!(status.success(), "pip install failed");
    });
    Command::new(dir.join(".venv/bin/python"))
        .arg(script)
        .args(args)
        .current_dir(&dir)
        .output()
        .expect("the clients' virtual environment is broken")
}

pub fn showcase_binary() -> PathBuf {
    example_binary("showcase")
}

/// An example's binary, which `cargo test` builds.
pub fn example_binary(name: &str) -> PathBuf {
    // target/debug/deps/TEST-HASH -> target/debug/examples/NAME
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(Path::parent).unwrap();
    let binary = profile_dir.join("examples").join(name);
    assert!(
        binary.exists(),
        "{} is missing: `cargo test` builds it; with a test filter, run `cargo build --example {name}` first",
        binary.display()
    );
    binary
}

/// The `mcp-prompts` binary (feature `cli`), which `cargo test
/// --workspace` builds beside the tests.
pub fn cli_binary() -> PathBuf {
    // target/debug/deps/TEST-HASH -> target/debug/mcp-prompts
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(Path::parent).unwrap();
    let binary = profile_dir.join(format!("mcp-prompts{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.exists(),
        "{} is missing: `cargo test --workspace` builds it; with a test filter, run `cargo build -p mcp-prompts --features cli` first",
        binary.display()
    );
    binary
}

/// Sends one request to `/mcp` on a new connection; `Host` is the
/// server's address unless `headers` sets it.
pub async fn send(
    addr: SocketAddr,
    method: Method,
    headers: &[(&str, &str)],
    body: impl Into<Bytes>,
) -> Response<Incoming> {
    send_to(addr, method, "/mcp", headers, body).await
}

/// Sends one request to `path` on a new connection, as [`send`] does.
pub async fn send_to(
    addr: SocketAddr,
    method: Method,
    path: &str,
    headers: &[(&str, &str)],
    body: impl Into<Bytes>,
) -> Response<Incoming> {
    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(connection);
    let mut request = Request::builder().method(method).uri(path);
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        request = request.header("host", addr.to_string());
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request.body(Full::new(body.into())).unwrap();
    sender.send_request(request).await.unwrap()
}

pub async fn text(response: Response<Incoming>) -> String {
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    String::from_utf8(bytes.to_vec()).unwrap()
}

pub fn header<'a>(response: &'a Response<Incoming>, name: &str) -> Option<&'a str> {
    response.headers().get(name).map(|v| v.to_str().unwrap())
}

/// The messages of an event-stream response, one at a time.
pub struct Events {
    body: Incoming,
    seen: String,
}

impl Events {
    pub fn new(response: Response<Incoming>) -> Self {
        Self {
            body: response.into_body(),
            seen: String::new(),
        }
    }

    /// The next event's message; fails if none comes within 5 seconds.
    pub async fn next(&mut self) -> Value {
        loop {
            if let Some(end) = self.seen.find("\n\n") {
                let event: String = self.seen.drain(..end + 2).collect();
                if let Some(data) = event.lines().find_map(|l| l.strip_prefix("data:")) {
                    return serde_json::from_str(data.trim()).unwrap();
                }
                continue;
            }
            let frame = tokio::time::timeout(std::time::Duration::from_secs(5), self.body.frame())
                .await
                .expect("the stream goes on in time")
                .expect("the stream goes on")
                .unwrap();
            if let Ok(data) = frame.into_data() {
                self.seen.push_str(std::str::from_utf8(&data).unwrap());
            }
        }
    }

    /// Everything the stream still sends, until it ends.
    pub async fn rest(self) -> String {
        let rest = self.body.collect().await.unwrap().to_bytes();
        self.seen + &String::from_utf8_lossy(&rest)
    }
}

/// Sends a 2026-07-28 request with the headers its body calls for
/// (`MCP-Protocol-Version`, `Mcp-Method`), `headers` added or replacing
/// them (an empty value removes one); its status and final message.
pub async fn post_modern(
    server: &Running,
    body: &Value,
    headers: &[(&str, &str)],
) -> (StatusCode, Value) {
    let method = body["method"].as_str().unwrap_or_default().to_owned();
    let mut all = vec![
        ("accept", "application/json, text/event-stream"),
        ("content-type", "application/json"),
        ("mcp-protocol-version", MODERN),
        ("mcp-method", method.as_str()),
    ];
    all.retain(|(name, _)| !headers.iter().any(|(n, _)| n == name));
    all.extend_from_slice(headers);
    all.retain(|(_, value)| !value.is_empty());
    let response = send(server.addr, Method::POST, &all, body.to_string()).await;
    let status = response.status();
    assert!(
        header(&response, "mcp-session-id").is_none(),
        "a stateless request got a session"
    );
    (status, last_message(&text(response).await))
}

/// A response body's message: the body itself (JSON), or an event
/// stream's last `data:` line; `Null` if it is not JSON.
pub fn last_message(body: &str) -> Value {
    let message = body
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .next_back()
        .map_or(body, str::trim);
    serde_json::from_str(message).unwrap_or(Value::Null)
}

/// Opens a session under `version` with a raw `initialize`; its id.
pub fn open_session(server: &Running, version: &str) -> String {
    let (head, body) = read_response(post_raw(server, &[], initialize(version).as_bytes()));
    header_value(&head, "mcp-session-id")
        .unwrap_or_else(|| panic!("no session: {head}{body}"))
        .to_owned()
}

/// Sends a raw HTTP/1.1 POST on a new connection, and returns it unread.
pub fn post_raw(server: &Running, headers: &[(&str, &str)], body: &[u8]) -> TcpStream {
    let mut stream = TcpStream::connect(server.addr).unwrap();
    let mut head = format!(
        "POST /mcp HTTP/1.1\r\nhost: {}\r\ncontent-type: application/json\r\n\
         accept: application/json, text/event-stream\r\ncontent-length: {}\r\n",
        server.addr,
        body.len()
    );
    for (name, value) in headers {
        let _ = write!(head, "{name}: {value}\r\n");
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    stream
}

/// The head (status line and headers, lowercased) and body of the
/// response on `stream`.
pub fn read_response(mut stream: TcpStream) -> (String, String) {
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut bytes = Vec::new();
    let mut buf = [0; 4096];
    loop {
        let n = stream.read(&mut buf).unwrap();
        assert!(
            n > 0,
            "connection closed: {}",
            String::from_utf8_lossy(&bytes)
        );
        bytes.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&bytes);
        let Some((head, body)) = text.split_once("\r\n\r\n") else {
            continue;
        };
        let head = head.to_ascii_lowercase();
        let length = header_value(&head, "content-length").and_then(|n| n.parse::<usize>().ok());
        if length.is_some_and(|n| body.len() >= n) {
            return (head, body.to_owned());
        }
    }
}

pub fn header_value<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        (key == name).then(|| value.trim())
    })
}
