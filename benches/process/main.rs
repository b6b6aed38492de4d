//! Process against process: the mcp-prompts server (`bench-server`, the
//! package `benches/server`, written as the guide shows and built with the
//! features it uses) against the floor (`bench-floor`, a hand-written
//! std + `serde_json` loop writing the same bytes, and on HTTP a bare axum
//! handler), over real pipes and sockets, in one run.
//!
//! For each server it measures, as medians of a few runs (the servers' runs
//! taken in turn, so that the machine's drift falls on each alike):
//! - W = 1 (a client that waits for each answer) and W = 64 (64 requests
//!   in flight): the server process's own CPU time (its rusage, through
//!   GNU `time`), wall time and peak RSS;
//! - every request as one file on stdin: peak RSS;
//! - idle RSS after `initialize` and one `prompts/list`, with `otel`
//!   compiled in and without;
//! - spawn to the first answer, of the server with and without `otel` and
//!   of the showcase (its folders, skills and telemetry set-up);
//! - with `strace` installed: futex calls and writes per request at W = 1;
//! - Streamable HTTP: requests per second from 32 keep-alive connections,
//!   and the server's CPU per request.
//!
//! Every request must get exactly one answer, equal to the one expected.
//!
//! Run with `cargo bench --bench process` (`-- --quick` for a tenth of the
//! requests; Linux; needs `/usr/bin/time`).

use std::collections::HashSet;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use serde_json::{Value, json};

const RUNS: usize = 5;

/// `measure` of each server, in order.
fn each<T>(servers: &[String; 2], measure: impl Fn(&str) -> T) -> [T; 2] {
    [measure(&servers[0]), measure(&servers[1])]
}

/// `RUNS` runs of each of `measures`, taken in turn (the first, the
/// second, ..., then the first again), so that the machine's drift over
/// the runs falls on each alike rather than on whichever ran last: each
/// one's median.
fn in_turn<T: Median, const N: usize>(measures: [&dyn Fn() -> T; N]) -> [T; N] {
    let mut runs: [Vec<T>; N] = std::array::from_fn(|_| Vec::with_capacity(RUNS));
    for _ in 0..RUNS {
        for (measure, runs) in measures.iter().zip(&mut runs) {
            runs.push(measure());
        }
    }
    runs.map(|runs| T::median(&runs))
}

/// A measurement that several runs give a median of, figure by figure.
trait Median: Sized {
    fn median(runs: &[Self]) -> Self;
}

/// The server measured (`bench-server`, with the features it uses and
/// without `otel`) and the floor. `BENCH_SERVER=PATH` measures another
/// build of `bench-server` instead (an earlier commit's, to compare a
/// change before and after against the same floor). `BENCH_FLOOR=PATH`
/// measures another build of `bench-floor` (built with the same profile as
/// the server measured, say).
fn servers() -> [String; 2] {
    let ours = std::env::var("BENCH_SERVER")
        .unwrap_or_else(|_| built("bench-server", &["-p", "mcp-prompts-bench-server"]));
    let floor = std::env::var("BENCH_FLOOR").unwrap_or_else(|_| match profile() {
        // The floor as cargo bench built it, with the same profile.
        None => env!("CARGO_BIN_EXE_bench-floor").to_owned(),
        Some(_) => built(
            "bench-floor",
            &["-p", "mcp-prompts-workspace", "--bin", "bench-floor"],
        ),
    });
    [ours, floor]
}

/// One request at a time and 64 in flight: CPU, wall time and peak RSS;
/// and every request as one file on stdin.
fn stdio_rows(servers: &[String; 2], scale: usize, dir: &Path) -> Vec<Row> {
    let mut rows = Vec::new();
    for (n, w) in [(20_000 / scale, 1), (100_000 / scale, 64)] {
        let label = format!("{n} prompts/get, W={w}");
        let [ours, floor] = in_turn([&|| in_flight(&servers[0], n, w, dir), &|| {
            in_flight(&servers[1], n, w, dir)
        }]);
        rows.push(Row::ratio(
            &format!("{label}: server CPU (s)"),
            ours.cpu,
            floor.cpu,
        ));
        rows.push(Row::ratio(
            &format!("{label}: wall (s)"),
            ours.wall,
            floor.wall,
        ));
        rows.push(Row::ratio(
            &format!("{label}: peak RSS (MiB)"),
            ours.rss,
            floor.rss,
        ));
    }
    let n = 100_000 / scale;
    let [ours, floor] = in_turn([&|| whole_file(&servers[0], n, dir), &|| {
        whole_file(&servers[1], n, dir)
    }]);
    rows.push(Row::ratio(
        &format!("{n} mixed requests as a file on stdin: peak RSS (MiB)"),
        ours.rss,
        floor.rss,
    ));
    rows.push(Row::ratio(
        &format!("{n} mixed requests as a file on stdin: server CPU (s)"),
        ours.cpu,
        floor.cpu,
    ));
    if Path::new("/usr/bin/strace").exists() {
        let n = 2_000;
        let [ours, floor] = each(servers, |exe| syscalls(exe, n, dir));
        rows.push(Row::counts("W=1: futex calls per request", ours.0, floor.0));
        rows.push(Row::counts("W=1: writes per response", ours.1, floor.1));
    }
    rows
}

/// `BENCH_PROFILE=NAME`: the cargo profile every binary measured is built
/// with, the floor's included (`small`, say); `None`: release.
fn profile() -> Option<String> {
    std::env::var("BENCH_PROFILE")
        .ok()
        .filter(|name| name != "release")
}

/// Builds (release, or `BENCH_PROFILE`'s) and finds `binary` with cargo's
/// `args`, in a target directory of its own: a package built alone gets
/// only the features it asks for, as a user's server does, not those the
/// workspace's tests turn on; and `cargo bench` holds the workspace's
/// target directory.
fn built(binary: &str, args: &[&str]) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let name: String = args
        .concat()
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect();
    let target = root.join("target").join("bench-servers").join(name);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    eprintln!("building {binary} ({})", args.join(" "));
    let profile = profile().unwrap_or_else(|| "release".to_owned());
    let status = Command::new(cargo)
        .current_dir(root)
        .args(["build", "--profile", &profile, "--quiet", "--target-dir"])
        .arg(&target)
        .args(args)
        .status()
        .expect("cargo runs");
    assert!(status.success(), "cargo build {args:?} failed");
    let examples = if args.contains(&"--example") {
        "examples/"
    } else {
        ""
    };
    let path = target.join(&profile).join(format!("{examples}{binary}"));
    path.to_string_lossy().into_owned()
}

fn main() {
    assert!(
        Path::new("/usr/bin/time").exists(),
        "the benchmark reads the server's rusage through GNU time: apt-get install time"
    );
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    // `--only stdio,memory,startup,http,exported`: those groups of rows
    // alone (to profile one workload, say).
    let only: Option<Vec<String>> = (args.iter())
        .skip_while(|a| *a != "--only")
        .nth(1)
        .map(|groups| groups.split(',').map(str::to_owned).collect());
    let wants = |group: &str| {
        only.as_ref()
            .is_none_or(|only| only.iter().any(|g| g == group))
    };
    let servers = servers();
    let scale = if quick { 10 } else { 1 };
    let dir = std::env::temp_dir().join(format!("mcp-prompts-stdio-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // `BENCH_SERVER_OTEL=PATH`: another build of it with `otel`.
    let with_otel = std::sync::LazyLock::new(|| {
        std::env::var("BENCH_SERVER_OTEL").unwrap_or_else(|_| {
            built(
                "bench-server",
                &["-p", "mcp-prompts-bench-server", "--features", "otel"],
            )
        })
    });

    let mut rows = Vec::new();
    if wants("stdio") {
        rows.extend(stdio_rows(&servers, scale, &dir));
    }
    if wants("memory") {
        rows.extend(idle_rows(&servers, &with_otel));
    }
    if wants("startup") {
        // `BENCH_SHOWCASE=PATH`: another build of the showcase.
        let showcase = std::env::var("BENCH_SHOWCASE")
            .unwrap_or_else(|_| built("showcase", &["--example", "showcase"]));
        let rounds = if quick { 10 } else { 60 };
        rows.extend(startup_rows(&servers, &with_otel, &showcase, rounds));
    }
    let n = 40_000 / scale;
    if wants("http") {
        rows.extend(http_rows(&servers, n));
    }
    if wants("exported") {
        rows.extend(exported_rows(&[with_otel.clone(), servers[1].clone()], n));
    }
    let _ = std::fs::remove_dir_all(&dir);

    println!("| workload | mcp-prompts | floor | ratio |");
    println!("|---|---|---|---|");
    for row in rows {
        println!("{row}");
    }
}

/// Idle resident memory after one `prompts/list`, with `otel` compiled in
/// and without; and of it, the anonymous memory (heap, stacks): what the
/// process holds of its own, where the rest is the pages of its binary
/// and libraries it has mapped, shared with the page cache.
fn idle_rows(servers: &[String; 2], with_otel: &str) -> Vec<Row> {
    let [ours, floor, otel] = in_turn([
        &|| idle_memory(&servers[0]),
        &|| idle_memory(&servers[1]),
        &|| idle_memory(with_otel),
    ]);
    vec![
        Row::ratio(
            "idle after one prompts/list: RSS (MiB)",
            ours.rss,
            floor.rss,
        ),
        Row::ratio(
            "idle after one prompts/list, otel compiled in (not exporting): RSS (MiB)",
            otel.rss,
            floor.rss,
        ),
        Row::ratio(
            "idle after one prompts/list: of it, anonymous (MiB)",
            ours.anonymous,
            floor.anonymous,
        ),
        Row::ratio(
            "idle after one prompts/list, otel compiled in: of it, anonymous (MiB)",
            otel.anonymous,
            floor.anonymous,
        ),
    ]
}

/// Streamable HTTP, in a session and stateless: requests per second and the
/// server's CPU per request.
fn http_rows(servers: &[String; 2], n: usize) -> Vec<Row> {
    let workloads = [
        (
            Workload::Session,
            32,
            format!("HTTP, {n} prompts/get on 32 connections"),
            "HTTP",
        ),
        // Where mcp-prompts trails the floor most: one prompt with a code
        // argument of 203 bytes, unique ids, 16 connections, no session.
        (
            Workload::StatelessReview,
            16,
            format!(
                "HTTP stateless, {n} prompts/get code_review (203-byte code) on 16 connections"
            ),
            "HTTP stateless",
        ),
    ];
    let mut rows = Vec::new();
    for (workload, connections, name, short) in workloads {
        let run = |exe: &str| http_with(exe, n, connections, workload, &[]);
        let [ours, floor] = in_turn([&|| run(&servers[0]), &|| run(&servers[1])]);
        rows.push(Row::ratio(
            &format!("{name}: requests/s"),
            ours.per_second,
            floor.per_second,
        ));
        rows.push(Row::ratio(
            &format!("{short}: server CPU per request (µs)"),
            ours.cpu_micros,
            floor.cpu_micros,
        ));
    }
    rows
}

/// Spawn to the first answer (`initialize`) of each server, as a desktop
/// host that starts a stdio server on every launch waits for it: `runs`
/// rounds, each starting every server once in turn, so that the machine's
/// drift falls on all alike; the median of each against the floor's.
fn startup_rows(servers: &[String; 2], with_otel: &str, showcase: &str, runs: usize) -> Vec<Row> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let measured = [
        servers[1].as_str(),
        servers[0].as_str(),
        with_otel,
        showcase,
    ];
    let mut times = vec![Vec::with_capacity(runs); measured.len()];
    for _ in 0..runs {
        for (exe, times) in measured.iter().zip(&mut times) {
            times.push(first_answer(exe, root));
        }
    }
    let [floor, ours, otel, showcase] = [0, 1, 2, 3].map(|at| median(&times[at]));
    vec![
        Row::ratio("spawn to the first answer: bench-server (ms)", ours, floor),
        Row::ratio(
            "spawn to the first answer: bench-server, otel compiled in (ms)",
            otel,
            floor,
        ),
        Row::ratio(
            "spawn to the first answer: the showcase (folders, skills, telemetry) (ms)",
            showcase,
            floor,
        ),
    ]
}

/// Milliseconds from spawning `exe` (in `dir`) to reading its answer to
/// `initialize`.
fn first_answer(exe: &str, dir: &Path) -> f64 {
    let started = Instant::now();
    let mut child = Command::new(exe)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{INITIALIZE}").unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let elapsed = started.elapsed().as_secs_f64() * 1000.0;
    assert!(line.contains("\"result\""), "{exe}: {line}");
    drop(stdin);
    let _ = child.kill();
    child.wait().unwrap();
    elapsed
}

/// The HTTP session workload with OpenTelemetry on: every request a span
/// and a histogram sample, exported over OTLP/HTTP to a receiver that
/// takes everything, against the floor and the same server exporting
/// nothing.
fn exported_rows(servers: &[String; 2], n: usize) -> Vec<Row> {
    let mut rows = Vec::new();
    let sink = otlp_sink();
    let endpoint = format!("http://{sink}");
    let exporting = [
        ("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str()),
        ("OTEL_BSP_SCHEDULE_DELAY", "200"),
        ("OTEL_METRIC_EXPORT_INTERVAL", "1000"),
    ];
    let session = |exe: &str, env: &[(&str, &str)]| http_with(exe, n, 32, Workload::Session, env);
    let [exported, silent, floor] = in_turn([
        &|| session(&servers[0], &exporting),
        &|| session(&servers[0], &[]),
        &|| session(&servers[1], &[]),
    ]);
    rows.push(Row::ratio(
        &format!(
            "HTTP, {n} prompts/get on 32 connections, traces and metrics exported: requests/s"
        ),
        exported.per_second,
        floor.per_second,
    ));
    rows.push(Row::ratio(
        "HTTP exported: requests/s against the same server exporting nothing (in the floor column)",
        exported.per_second,
        silent.per_second,
    ));
    rows.push(Row::ratio(
        "HTTP exported: server CPU per request (µs) against exporting nothing (in the floor column)",
        exported.cpu_micros,
        silent.cpu_micros,
    ));
    rows
}

struct Row(String);

impl Row {
    fn ratio(label: &str, ours: f64, floor: f64) -> Self {
        Self(format!(
            "| {label} | {ours:.3} | {floor:.3} | {:.2}x |",
            ours / floor
        ))
    }

    fn counts(label: &str, ours: f64, floor: f64) -> Self {
        Self(format!("| {label} | {ours:.2} | {floor:.2} | |"))
    }
}

impl std::fmt::Display for Row {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[derive(Clone, Copy, Default)]
struct Measure {
    cpu: f64,
    wall: f64,
    rss: f64,
}

impl Median for Measure {
    fn median(runs: &[Self]) -> Self {
        Self {
            cpu: median_by(runs, |m| m.cpu),
            wall: median_by(runs, |m| m.wall),
            rss: median_by(runs, |m| m.rss),
        }
    }
}

/// The median of one figure of `runs`.
fn median_by<T>(runs: &[T], figure: impl Fn(&T) -> f64) -> f64 {
    median(&runs.iter().map(figure).collect::<Vec<_>>())
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[sorted.len() / 2]
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}"#;

/// Request `i` (a `prompts/get`, or with `mixed` any method) and the
/// result it must get.
fn request(i: usize, mixed: bool) -> (String, Value) {
    let kind = if mixed { i % 5 } else { i % 2 };
    let (method, params, result) = match kind {
        0 => {
            let (language, code) = (format!("lang{:05}", i % 10_000), format!("fn f{i}() {{}}"));
            let focus = i.is_multiple_of(4).then(|| format!("focus {i}"));
            let mut arguments = json!({"language": language, "code": code});
            if let Some(focus) = &focus {
                arguments["focus"] = json!(focus);
            }
            let focus = focus.as_deref().unwrap_or("general quality");
            let text = |role: &str, text: String| json!({"role": role, "content": {"type": "text", "text": text}});
            (
                "prompts/get",
                json!({"name": "code_review", "arguments": arguments}),
                json!({"description": "Review a code snippet", "messages": [
                    text("user", format!("I am reviewing {language} code.")),
                    text("assistant", "I will look at correctness first, then style.".into()),
                    text("user", format!("Review this code with a focus on {focus}:\n\n{code}")),
                ]}),
            )
        }
        1 => {
            let words = if i.is_multiple_of(3) {
                None
            } else {
                Some(i % 200)
            };
            let mut arguments = json!({"text": format!("text number {i}")});
            if let Some(words) = words {
                arguments["max_words"] = json!(words.to_string());
            }
            (
                "prompts/get",
                json!({"name": "summarize", "arguments": arguments}),
                json!({"description": "Summarize a text", "messages": [{"role": "user", "content": {"type": "text",
                    "text": format!("Summarize the following text in at most {} words:\n\ntext number {i}", words.unwrap_or(50))}}]}),
            )
        }
        2 => {
            let prefix = format!("lang0{:03}", i % 1000);
            let values: Vec<String> = (0..10).map(|d| format!("{prefix}{d}")).collect();
            (
                "completion/complete",
                json!({"ref": {"type": "ref/prompt", "name": "code_review"},
                       "argument": {"name": "language", "value": prefix}}),
                json!({"completion": {"values": values, "total": 10, "hasMore": false}}),
            )
        }
        3 => ("prompts/list", Value::Null, Value::Null),
        _ => ("ping", Value::Null, json!({})),
    };
    let mut line = json!({"jsonrpc": "2.0", "id": i, "method": method});
    if !params.is_null() {
        line["params"] = params;
    }
    (line.to_string(), result)
}

/// Checks one response line; returns its numeric id.
fn check(line: &str, mixed: bool) -> usize {
    let response: Value = serde_json::from_str(line).expect("a JSON response");
    let id = usize::try_from(response["id"].as_u64().expect("a numeric id")).unwrap();
    let (_, expected) = request(id, mixed);
    let result = &response["result"];
    if expected.is_null() {
        assert!(
            result["prompts"].as_array().is_some_and(|p| p.len() == 2),
            "{line}"
        );
    } else {
        assert_eq!(*result, expected, "wrong answer to request {id}");
    }
    id
}

/// Spawns `exe` under GNU time, which writes its user and system CPU
/// seconds and peak RSS (KiB) to `report`.
fn spawn_timed(exe: &str, report: &Path, stdin: Stdio) -> Child {
    Command::new("/usr/bin/time")
        .args(["-f", "%U %S %M", "-o"])
        .arg(report)
        .arg(exe)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the server")
}

/// CPU seconds and peak RSS in MiB, from GNU time's report.
fn read_report(report: &Path) -> (f64, f64) {
    let text = std::fs::read_to_string(report).unwrap();
    let numbers: Vec<f64> = text
        .lines()
        .last()
        .unwrap()
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    (numbers[0] + numbers[1], numbers[2] / 1024.0)
}

fn report_path(dir: &Path, exe: &str) -> PathBuf {
    let name = Path::new(exe).file_name().unwrap().to_string_lossy();
    dir.join(format!("{name}.time"))
}

/// `n` requests with at most `w` in flight, each one answered before the
/// client goes on when `w` is 1.
fn in_flight(exe: &str, n: usize, w: usize, dir: &Path) -> Measure {
    let report = report_path(dir, exe);
    let mut child = spawn_timed(exe, &report, Stdio::piped());
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    writeln!(stdin, "{INITIALIZE}").unwrap();
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert!(line.contains("\"id\":\"init\""), "{line}");

    // Requests sent and not yet answered, bounded by `w`.
    let window = Arc::new((Mutex::new(0usize), Condvar::new()));
    let start = Instant::now();
    let writer = {
        let window = Arc::clone(&window);
        std::thread::spawn(move || {
            for i in 0..n {
                let (line, _) = request(i, false);
                {
                    let (count, freed) = &*window;
                    let mut count = count.lock().unwrap();
                    while *count >= w {
                        count = freed.wait(count).unwrap();
                    }
                    *count += 1;
                }
                writeln!(stdin, "{line}").unwrap();
                stdin.flush().unwrap();
            }
            stdin
        })
    };
    let mut seen = HashSet::with_capacity(n);
    for _ in 0..n {
        line.clear();
        assert!(
            stdout.read_line(&mut line).unwrap() > 0,
            "the server stopped answering"
        );
        assert!(seen.insert(check(&line, false)), "a second answer: {line}");
        let (count, freed) = &*window;
        *count.lock().unwrap() -= 1;
        freed.notify_one();
    }
    let wall = start.elapsed().as_secs_f64();
    drop(writer.join().unwrap());
    line.clear();
    assert_eq!(
        stdout.read_line(&mut line).unwrap(),
        0,
        "an extra answer: {line}"
    );
    assert!(child.wait().unwrap().success());
    let (cpu, rss) = read_report(&report);
    Measure { cpu, wall, rss }
}

/// Every request as one file on stdin; answers read as fast as they come.
fn whole_file(exe: &str, n: usize, dir: &Path) -> Measure {
    let input = dir.join("requests.jsonl");
    if !input.exists() {
        let mut file = BufWriter::new(std::fs::File::create(&input).unwrap());
        writeln!(file, "{INITIALIZE}").unwrap();
        for i in 0..n {
            writeln!(file, "{}", request(i, true).0).unwrap();
        }
        file.flush().unwrap();
    }
    let report = report_path(dir, exe);
    let start = Instant::now();
    let mut child = spawn_timed(
        exe,
        &report,
        Stdio::from(std::fs::File::open(&input).unwrap()),
    );
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let mut seen = HashSet::with_capacity(n);
    for line in stdout.lines().skip(1) {
        assert!(seen.insert(check(&line.unwrap(), true)), "a second answer");
    }
    assert_eq!(seen.len(), n, "unanswered requests");
    let wall = start.elapsed().as_secs_f64();
    assert!(child.wait().unwrap().success());
    let (cpu, rss) = read_report(&report);
    Measure { cpu, wall, rss }
}

/// Resident memory, in MiB.
struct Idle {
    rss: f64,
    anonymous: f64,
}

impl Median for Idle {
    fn median(runs: &[Self]) -> Self {
        Self {
            rss: median_by(runs, |m| m.rss),
            anonymous: median_by(runs, |m| m.anonymous),
        }
    }
}

/// Resident memory once the server has answered `initialize` and one
/// `prompts/list`.
fn idle_memory(exe: &str) -> Idle {
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    writeln!(stdin, "{INITIALIZE}").unwrap();
    writeln!(stdin, "{}", request(3, true).0).unwrap();
    let mut line = String::new();
    for _ in 0..2 {
        line.clear();
        stdout.read_line(&mut line).unwrap();
    }
    std::thread::sleep(Duration::from_millis(200));
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let mib = |key: &str| -> f64 {
        let kib: f64 = status
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap();
        kib / 1024.0
    };
    let idle = Idle {
        rss: mib("VmRSS:"),
        anonymous: mib("RssAnon:"),
    };
    drop(stdin);
    child.wait().unwrap();
    idle
}

/// Futex calls per request and writes per response at W = 1, counted by
/// `strace -f -c` (which slows the server, so only counts are kept).
fn syscalls(exe: &str, n: u32, dir: &Path) -> (f64, f64) {
    let summary = dir.join("strace.txt");
    let mut child = Command::new("/usr/bin/strace")
        .args(["-f", "-c", "-e", "trace=futex,write,writev", "-o"])
        .arg(&summary)
        .arg(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    writeln!(stdin, "{INITIALIZE}").unwrap();
    stdout.read_line(&mut line).unwrap();
    for i in 0..n as usize {
        writeln!(stdin, "{}", request(i, false).0).unwrap();
        stdin.flush().unwrap();
        line.clear();
        stdout.read_line(&mut line).unwrap();
        check(&line, false);
    }
    drop(stdin);
    child.wait().unwrap();
    let text = std::fs::read_to_string(&summary).unwrap();
    let calls = |name: &str| -> f64 {
        text.lines()
            .find(|l| l.split_whitespace().last() == Some(name))
            .and_then(|l| {
                let fields: Vec<&str> = l.split_whitespace().collect();
                // % time, seconds, usecs/call, calls, [errors], syscall
                fields.get(3).and_then(|c| c.parse().ok())
            })
            .unwrap_or(0.0)
    };
    let per = |count: f64| count / f64::from(n);
    (per(calls("futex")), per(calls("write") + calls("writev")))
}

struct Http {
    per_second: f64,
    cpu_micros: f64,
}

impl Median for Http {
    fn median(runs: &[Self]) -> Self {
        Self {
            per_second: median_by(runs, |r| r.per_second),
            cpu_micros: median_by(runs, |r| r.cpu_micros),
        }
    }
}

/// The process's CPU time so far, in seconds (Linux counts it in ticks of
/// 1/100 s for user programs).
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // Fields after the command, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .unwrap()
        .1
        .split_whitespace()
        .collect();
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    ticks / 100.0
}

type Sender = hyper::client::conn::http1::SendRequest<Full<Bytes>>;

async fn connect(addr: std::net::SocketAddr) -> Sender {
    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.set_nodelay(true).unwrap();
    let io = hyper_util::rt::TokioIo::new(stream);
    let (sender, connection) = hyper::client::conn::http1::handshake(io).await.unwrap();
    tokio::spawn(connection);
    sender
}

async fn post(
    sender: &mut Sender,
    addr: std::net::SocketAddr,
    session: Option<&str>,
    body: String,
) -> (Option<String>, String) {
    let mut request = hyper::Request::post("/mcp")
        .header("host", addr.to_string())
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18");
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    let response = sender
        .send_request(request.body(Full::new(Bytes::from(body))).unwrap())
        .await
        .unwrap();
    assert!(response.status().is_success(), "{}", response.status());
    let session = response
        .headers()
        .get("mcp-session-id")
        .map(|v| v.to_str().unwrap().to_owned());
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (session, String::from_utf8(body.to_vec()).unwrap())
}

/// What an HTTP run sends.
#[derive(Clone, Copy)]
enum Workload {
    /// `prompts/get` of both prompts, after one `initialize` (whose session,
    /// where the server issues one, every request carries).
    Session,
    /// `code_review` with a 203-byte code argument, each request on its
    /// own, to a server started with `--stateless`.
    StatelessReview,
}

/// `review_request(i)`: request `i` of the stateless workload and the
/// result it must get.
fn review_request(i: usize) -> (String, Value) {
    let code = format!("fn f{i:08}() {{ let v: Vec<u32> = (0..10).map(|x| x * 2).collect(); ");
    let code = format!("{code}{}}}", "/".repeat(203 - code.len() - 1));
    debug_assert_eq!(code.len(), 203);
    let text =
        |role: &str, text: String| json!({"role": role, "content": {"type": "text", "text": text}});
    let line = json!({"jsonrpc": "2.0", "id": i, "method": "prompts/get",
        "params": {"name": "code_review", "arguments": {"language": "rust", "code": code}}});
    let result = json!({"description": "Review a code snippet", "messages": [
        text("user", "I am reviewing rust code.".into()),
        text("assistant", "I will look at correctness first, then style.".into()),
        text("user", format!("Review this code with a focus on general quality:\n\n{code}")),
    ]});
    (line.to_string(), result)
}

/// `n` requests of `workload` over Streamable HTTP from `connections`
/// keep-alive connections at once.
fn http_with(
    exe: &str,
    n: usize,
    connections: usize,
    workload: Workload,
    env: &[(&str, &str)],
) -> Http {
    let stateless = matches!(workload, Workload::StatelessReview);
    let mut child = Command::new(exe)
        .args(["--http", "127.0.0.1:0"])
        .args(stateless.then_some("--stateless"))
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    let addr: std::net::SocketAddr = loop {
        line.clear();
        assert!(
            stderr.read_line(&mut line).unwrap() > 0,
            "the server did not listen"
        );
        if let Some(rest) = line.split("http://").nth(1) {
            break rest.split('/').next().unwrap().parse().unwrap();
        }
    };
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let pid = child.id();
    let (wall, cpu) = runtime.block_on(async move {
        let session: Option<Arc<str>> = if stateless {
            None
        } else {
            let mut first = connect(addr).await;
            let (session, _) = post(&mut first, addr, None, INITIALIZE.to_owned()).await;
            session.map(Into::into)
        };
        let (start, cpu_start) = (Instant::now(), cpu_seconds(pid));
        let per = n / connections;
        let clients: Vec<_> = (0..connections)
            .map(|c| {
                let session = session.clone();
                tokio::spawn(async move {
                    let mut sender = connect(addr).await;
                    for i in c * per..(c + 1) * per {
                        if stateless {
                            let (line, expected) = review_request(i);
                            let (_, body) = post(&mut sender, addr, None, line).await;
                            let response: Value = serde_json::from_str(&body).unwrap();
                            assert_eq!(response["id"], i, "{body}");
                            assert_eq!(response["result"], expected, "{body}");
                        } else {
                            let (line, _) = request(i, false);
                            let (_, body) = post(&mut sender, addr, session.as_deref(), line).await;
                            assert_eq!(check(&body, false), i);
                        }
                    }
                })
            })
            .collect();
        for client in clients {
            client.await.unwrap();
        }
        (start.elapsed().as_secs_f64(), cpu_seconds(pid) - cpu_start)
    });
    let _ = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status();
    child.wait().unwrap();
    let done = f64::from(u32::try_from(n / connections * connections).unwrap());
    Http {
        per_second: done / wall,
        cpu_micros: cpu / done * 1e6,
    }
}

/// An OTLP/HTTP receiver that answers every export `200` and keeps
/// nothing, on its own thread; its address.
fn otlp_sink() -> std::net::SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            let app = axum::Router::new().fallback(|| async { axum::http::StatusCode::OK });
            axum::serve(listener, app).await.unwrap();
        });
    });
    addr
}
