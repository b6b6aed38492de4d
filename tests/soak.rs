//! Load and soak runs, ignored by default (they take a while and want the
//! machine to themselves): `cargo test --release --test soak -- --ignored
//! --nocapture`. The guide's security chapter has their figures.

mod http_support;
mod support;

use std::io::{BufRead, BufReader, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use serde_json::{Value, json};

use http_support::Running;
use support::{LATEST, initialize, peak_rss_mib, spawn_fixture};

/// The resident memory of process `pid` now, in MiB (Linux).
fn rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    kib / 1024.0
}

fn get(id: usize) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "prompts/get",
           "params": {"name": "summarize", "arguments": {"text": format!("text {id}")}}})
    .to_string()
}

fn check(answer: &str, id: usize) {
    let answer: Value = serde_json::from_str(answer).unwrap();
    assert_eq!(answer["id"], id, "{answer}");
    let text = answer["result"]["messages"][0]["content"]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.ends_with(&format!("text {id}")), "{answer}");
}

#[test]
#[ignore = "load run: 100,000 requests from 1,000 connections"]
fn a_thousand_http_clients_each_sending_a_hundred_requests() {
    const CLIENTS: usize = 1_000;
    const EACH: usize = 100;
    let server = Running::fixture(&[("FIXTURE_STATELESS", "1")]);
    let addr = server.addr;
    let answered = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let clients: Vec<_> = (0..CLIENTS)
            .map(|client| {
                let answered = Arc::clone(&answered);
                tokio::spawn(async move {
                    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
                    let io = hyper_util::rt::TokioIo::new(stream);
                    let (mut sender, connection) =
                        hyper::client::conn::http1::handshake(io).await.unwrap();
                    tokio::spawn(connection);
                    for k in 0..EACH {
                        let id = client * EACH + k;
                        let request = hyper::Request::post("/mcp")
                            .header("host", addr.to_string())
                            .header("content-type", "application/json")
                            .header("accept", "application/json, text/event-stream")
                            .header("mcp-protocol-version", "2025-11-25")
                            .body(Full::new(Bytes::from(get(id))))
                            .unwrap();
                        let response = sender.send_request(request).await.unwrap();
                        assert!(response.status().is_success());
                        let body = response.into_body().collect().await.unwrap().to_bytes();
                        check(std::str::from_utf8(&body).unwrap(), id);
                        answered.fetch_add(1, Ordering::Relaxed);
                    }
                })
            })
            .collect();
        for client in clients {
            client.await.unwrap();
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    let answered = answered.load(Ordering::Relaxed);
    let peak = peak_rss_mib(server.pid());
    eprintln!(
        "{answered} answers in {seconds:.1} s ({:.0}/s); server peak RSS {peak:.1} MiB",
        f64::from(u32::try_from(answered).unwrap()) / seconds
    );
    assert_eq!(answered, CLIENTS * EACH, "responses lost");
    assert!(peak < 256.0, "peak RSS {peak:.1} MiB");
}

#[test]
#[ignore = "soak run: one million pipelined requests"]
fn a_million_pipelined_stdio_requests_in_flat_memory() {
    const REQUESTS: usize = 1_000_000;
    let mut child = spawn_fixture();
    let pid = child.id();
    let mut stdin = std::io::BufWriter::new(child.stdin.take().unwrap());
    let writer = std::thread::spawn(move || {
        writeln!(stdin, "{}", initialize(LATEST)).unwrap();
        for id in 0..REQUESTS {
            writeln!(stdin, "{}", get(id)).unwrap();
        }
        stdin.flush().unwrap();
        // Kept open until every answer is read and measured.
        stdin
    });
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    assert!(lines.next().unwrap().unwrap().contains("\"init\""));
    let mut samples = Vec::new();
    for id in 0..REQUESTS {
        check(&lines.next().expect("an answer").unwrap(), id);
        if (id + 1) % 100_000 == 0 {
            samples.push(rss_mib(pid));
        }
    }
    drop(writer.join().unwrap());
    assert!(lines.next().is_none(), "an extra answer");
    assert!(child.wait().unwrap().success());
    eprintln!("RSS every 100,000 answers (MiB): {samples:.1?}");
    let (first, last) = (samples[0], *samples.last().unwrap());
    assert!(
        last < first + 4.0,
        "RSS grew from {first:.1} to {last:.1} MiB"
    );
}
