//! A minimal MCP client over a child process's stdin and stdout.

// Each test binary uses a different part of the helpers; call sites read
// better passing `json!` values by value.
#![allow(dead_code, clippy::needless_pass_by_value)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

mod messages;

// Each test crate uses some of these.
#[allow(unused_imports)]
pub use messages::{
    LATEST, MODERN, initialize, initialize_params, initialize_params_with, listed_prompt, meta,
    modern, rpc, texts,
};
const TIMEOUT: Duration = Duration::from_secs(20);

pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    next_id: i64,
    /// What the server wrote on stderr, when captured.
    log: Option<Arc<Mutex<String>>>,
}

impl Client {
    /// The next message is the catalog's change announcement (within the
    /// read timeout; it comes within a fraction of a second).
    pub fn assert_list_changed(&mut self) {
        assert_eq!(
            self.read(),
            json!({"jsonrpc": "2.0", "method": "notifications/prompts/list_changed"})
        );
    }

    /// The next message is the announcement that the skills changed.
    pub fn assert_resources_changed(&mut self) {
        assert_eq!(
            self.read(),
            json!({"jsonrpc": "2.0", "method": "notifications/resources/list_changed"})
        );
    }

    pub fn start() -> Self {
        Self::start_with(&[])
    }

    /// Starts the fixture server with extra environment variables.
    pub fn start_with(env: &[(&str, &str)]) -> Self {
        Self::spawn(env, false)
    }

    /// Starts the fixture server keeping what it logs on stderr (read it
    /// with [`log`](Self::log)).
    pub fn start_logging() -> Self {
        Self::spawn(&[], true)
    }

    /// What the server has logged so far.
    pub fn log(&self) -> String {
        let log = self.log.as_ref().expect("started with start_logging");
        log.lock().unwrap().clone()
    }

    /// The first logged line containing `needle`, waiting up to 10 s for
    /// it: stderr is read on its own thread, so a line written before a
    /// response may be seen after it.
    pub fn log_line(&self, needle: &str) -> String {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        loop {
            let log = self.log();
            if let Some(line) = log.lines().find(|l| l.contains(needle)) {
                return line.to_owned();
            }
            assert!(
                std::time::Instant::now() < deadline,
                "`{needle}` is not in the log:\n{log}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn spawn(env: &[(&str, &str)], capture: bool) -> Self {
        let mut command = Command::new(env!("CARGO_BIN_EXE_fixture-server"));
        command.envs(env.iter().copied());
        Self::spawn_command(command, capture)
    }

    /// Starts another server program (the showcase, say), keeping what it
    /// logs on stderr.
    pub fn start_program(mut command: Command) -> Self {
        if !command.get_envs().any(|(name, _)| name == "RUST_LOG") {
            command.env("RUST_LOG", "warn");
        }
        Self::spawn_command(command, true)
    }

    fn spawn_command(mut command: Command, capture: bool) -> Self {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if capture {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .spawn()
            .expect("start the server");
        let log = child.stderr.take().map(|stderr| {
            let log = Arc::new(Mutex::new(String::new()));
            let sink = Arc::clone(&log);
            std::thread::spawn(move || {
                for line in BufReader::new(stderr).lines() {
                    let Ok(line) = line else { break };
                    let mut log = sink.lock().unwrap();
                    log.push_str(&line);
                    log.push('\n');
                }
            });
            log
        });
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Self {
            child,
            stdin,
            lines,
            next_id: 1000,
            log,
        }
    }

    /// Starts and initializes with `version`.
    pub fn ready(version: &str) -> Self {
        let mut client = Self::start();
        client.initialize(version);
        client
    }

    /// Initializes with `version` and no capabilities; the result.
    pub fn initialize(&mut self, version: &str) -> Value {
        self.initialize_with(version, json!({}))
    }

    /// Initializes with `version` and the client's `capabilities`; the result.
    pub fn initialize_with(&mut self, version: &str, capabilities: Value) -> Value {
        let params = messages::initialize_params_with(version, capabilities);
        let response = self.call("initialize", params);
        self.notify("notifications/initialized", json!({}));
        response["result"].clone()
    }

    pub fn send_line(&mut self, line: &str) {
        self.send_bytes(line.as_bytes());
    }

    /// Sends `bytes` and a newline, whatever they are (even not UTF-8).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The server's stdin, for a test that writes on its own thread.
    pub fn take_stdin(&mut self) -> ChildStdin {
        self.stdin.take().expect("stdin is open")
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The next message the server writes; every line must be JSON.
    pub fn read(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(TIMEOUT)
            .expect("a response in time");
        serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line}"))
    }

    pub fn send_raw(&mut self, line: &str) -> Value {
        self.send_line(line);
        self.read()
    }

    /// Sends a request (params omitted when null) and reads its response.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let mut request = json!({"jsonrpc": "2.0", "id": self.next_id, "method": method});
        if !params.is_null() {
            request["params"] = params;
        }
        let response = self.send_raw(&request.to_string());
        assert_eq!(
            response["id"], self.next_id,
            "response to the wrong request: {response}"
        );
        response
    }

    pub fn get(&mut self, name: &str, arguments: Value) -> Value {
        self.call("prompts/get", json!({"name": name, "arguments": arguments}))
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        let message = json!({"jsonrpc": "2.0", "method": method, "params": params});
        self.send_line(&message.to_string());
    }

    /// Closes stdin and collects every remaining response and the exit status.
    pub fn finish(mut self) -> (Vec<Value>, ExitStatus) {
        drop(self.stdin.take());
        let mut responses = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(TIMEOUT) {
            responses.push(serde_json::from_str(&line).expect("JSON line"));
        }
        let status = self.child.wait().unwrap();
        (responses, status)
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The fixture server on bare pipes, for a test that drives stdin and
/// stdout itself (one that writes without reading, say).
/// Runs a server that must refuse to start (stdin closed); what it said on
/// stderr.
pub fn failed_start(mut command: Command) -> String {
    let output = command.stdin(Stdio::null()).output().unwrap();
    assert!(!output.status.success(), "the server started");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

pub fn spawn_fixture() -> Child {
    Command::new(env!("CARGO_BIN_EXE_fixture-server"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the fixture server")
}

/// The peak resident memory of process `pid` so far, in MiB (Linux).
pub fn peak_rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("a live process");
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/PID/status");
    kib / 1024.0
}
