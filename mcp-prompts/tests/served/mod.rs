//! A running `mcp-prompts serve DIR` for the tests that drive one as a
//! client would, over stdio.
// Each test binary uses some of these.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A running `mcp-prompts serve DIR`, its stdout read line by line and its
/// stderr kept.
pub struct Served {
    pub child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
    next_id: u64,
    /// Messages read while waiting for a response: notifications.
    notes: Vec<Value>,
}

impl Served {
    /// Serves `dir` with `args`, as `command` runs it, once it says it
    /// serves; initialized under 2025-11-25.
    pub fn start(mut command: Command, dir: &Path, args: &[&str]) -> Self {
        let mut child = command
            .args(["serve", dir.to_str().unwrap()])
            .args(args)
            .env("RUST_LOG", "mcp_prompts=debug")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let stderr = Arc::new(Mutex::new(String::new()));
        let kept = Arc::clone(&stderr);
        let mut err = BufReader::new(child.stderr.take().unwrap());
        std::thread::spawn(move || {
            let mut line = String::new();
            while err.read_line(&mut line).unwrap_or(0) > 0 {
                kept.lock().unwrap().push_str(&line);
                line.clear();
            }
        });
        let (tx, lines) = channel();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        std::thread::spawn(move || {
            let mut line = String::new();
            while out.read_line(&mut line).unwrap_or(0) > 0 {
                if tx.send(std::mem::take(&mut line)).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take().unwrap();
        let mut served = Self {
            child,
            stdin,
            lines,
            stderr,
            next_id: 0,
            notes: Vec::new(),
        };
        served.wait_for("serving", Duration::from_secs(60));
        let init = json!({"protocolVersion": "2025-11-25", "capabilities": {},
                          "clientInfo": {"name": "hostile-files", "version": "1"}});
        let ready = served.call("initialize", init);
        assert_eq!(ready["result"]["serverInfo"]["name"], "mcp-prompts");
        writeln!(
            served.stdin,
            r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
        )
        .unwrap();
        served
    }

    pub fn serve(dir: &Path, args: &[&str]) -> Self {
        Self::start(Command::new(env!("CARGO_BIN_EXE_mcp-prompts")), dir, args)
    }

    /// What the server wrote on stderr so far.
    pub fn said(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Waits until stderr holds `words`.
    pub fn wait_for(&mut self, words: &str, within: Duration) {
        let start = Instant::now();
        while !self.said().contains(words) {
            assert!(
                self.child.try_wait().unwrap().is_none(),
                "the server ended: {}",
                self.said()
            );
            assert!(
                start.elapsed() < within,
                "no `{words}` within {within:?}: {}",
                self.said()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The response to one request (notifications before it skipped).
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(self.stdin, "{request}").unwrap();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("no answer to {method}: {}", self.said()));
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == id {
                return message;
            }
            self.notes.push(message);
        }
    }

    /// Waits for a notification of `method` (one read already counts),
    /// and forgets those read; whether one came within `within`.
    pub fn notified(&mut self, method: &str, within: Duration) -> bool {
        let start = Instant::now();
        loop {
            if std::mem::take(&mut self.notes)
                .iter()
                .any(|note| note["method"] == method)
            {
                return true;
            }
            let left = within.saturating_sub(start.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(line) => self.notes.push(serde_json::from_str(&line).unwrap()),
                Err(_) => return false,
            }
        }
    }

    pub fn names(&mut self) -> Vec<String> {
        let list = self.call("prompts/list", json!({}));
        list["result"]["prompts"]
            .as_array()
            .unwrap_or_else(|| panic!("{list}"))
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_owned())
            .collect()
    }

    pub fn get(&mut self, name: &str, arguments: Value) -> Value {
        self.call("prompts/get", json!({"name": name, "arguments": arguments}))
    }

    /// Asserts the server still runs and answers.
    pub fn answers(&mut self) {
        assert!(
            self.child.try_wait().unwrap().is_none(),
            "the server ended: {}",
            self.said()
        );
        assert!(self.names().contains(&"ok".to_owned()), "{}", self.said());
        let ok = self.get("ok", json!({}));
        assert_eq!(
            ok["result"]["messages"][0]["content"]["text"],
            "Still here."
        );
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A fresh folder holding `ok.md`, which answers "Still here.".
pub fn folder(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("mcp-prompts-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("ok.md"), "Still here.").unwrap();
    dir
}
