//! A plain HTTP/1.1 client for Streamable HTTP, enough for the tests: a
//! POST answered with JSON (or one SSE event), and a GET stream whose
//! events are read on a thread.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::Value;

/// A response: its status, headers (names lowercase) and body.
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        let found = self.headers.iter().find(|(n, _)| n == name);
        found.map(|(_, v)| v.as_str())
    }

    /// The JSON-RPC message: the body, or its one SSE event's data.
    pub fn message(&self) -> Value {
        let text = if self.body.trim_start().starts_with('{') {
            self.body.clone()
        } else {
            let data = self.body.lines().filter_map(|l| l.strip_prefix("data:"));
            data.map(str::trim).collect::<Vec<_>>().join("")
        };
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {}", self.body))
    }
}

/// POSTs `body` to `http://127.0.0.1:port/mcp` with `headers`.
pub fn post(port: u16, body: &Value, headers: &[(&str, &str)]) -> Response {
    let body = body.to_string();
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nConnection: close\r\n\
         Content-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        let _ = write!(request, "{name}: {value}\r\n");
    }
    request.push_str("\r\n");
    request.push_str(&body);
    stream.write_all(request.as_bytes()).unwrap();
    let mut reader = BufReader::new(stream);
    let (status, headers) = head(&mut reader);
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        let mut body = Vec::new();
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).unwrap();
            let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if size == 0 {
                break;
            }
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk).unwrap();
            body.extend_from_slice(&chunk[..size]);
        }
        String::from_utf8(body).unwrap()
    } else {
        let mut body = String::new();
        reader.read_to_string(&mut body).unwrap();
        body
    };
    Response {
        status,
        headers,
        body,
    }
}

fn head(reader: &mut impl BufRead) -> (u16, Vec<(String, String)>) {
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    let status = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
    }
    (status, headers)
}

/// A session's GET stream: each event's data, as it comes.
pub fn listen(port: u16, headers: &[(&str, &str)]) -> Receiver<String> {
    let mut request =
        format!("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n");
    for (name, value) in headers {
        let _ = write!(request, "{name}: {value}\r\n");
    }
    request.push_str("\r\n");
    events(port, &request)
}

/// A POST answered with an event stream (2026-07-28
/// `subscriptions/listen`): each event's data, as it comes.
pub fn post_stream(port: u16, body: &Value, headers: &[(&str, &str)]) -> Receiver<String> {
    let body = body.to_string();
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        let _ = write!(request, "{name}: {value}\r\n");
    }
    request.push_str("\r\n");
    request.push_str(&body);
    events(port, &request)
}

/// Sends `request` and reads its answer's events on a thread.
fn events(port: u16, request: &str) -> Receiver<String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stream);
        let (status, _) = head(&mut reader);
        assert_eq!(status, 200, "the event stream opens");
        let mut line = String::new();
        while reader.read_line(&mut line).unwrap_or(0) > 0 {
            let data = line.trim_end().strip_prefix("data:");
            if data.is_some_and(|data| tx.send(data.trim().to_owned()).is_err()) {
                break;
            }
            line.clear();
        }
    });
    rx
}
