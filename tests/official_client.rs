//! The official MCP TypeScript SDK client drives the real showcase binary
//! over stdio (tests/clients/showcase.mjs). Needs Node.js and npm.

use std::path::{Path, PathBuf};
use std::process::Command;

fn showcase_binary() -> PathBuf {
    // target/debug/deps/official_client-HASH -> target/debug/examples/showcase
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(Path::parent).unwrap();
    let binary = profile_dir.join("examples").join("showcase");
    assert!(
        binary.exists(),
        "{} is missing: `cargo test` builds it; with a test filter, run `cargo build --example showcase` first",
        binary.display()
    );
    binary
}

#[test]
fn typescript_sdk_client_gets_every_showcase_prompt() {
    let clients = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients");
    if !clients
        .join("node_modules/@modelcontextprotocol/sdk")
        .exists()
    {
        let status = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&clients)
            .status()
            .expect("npm is needed to install the official MCP client");
        assert!(status.success(), "npm ci failed");
    }
    let output = Command::new("node")
        .arg("showcase.mjs")
        .arg(showcase_binary())
        .current_dir(&clients)
        .output()
        .expect("node is needed to run the official MCP client");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the official client failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
}
