//! The official MCP TypeScript and Python SDK clients drive the real
//! showcase binary over stdio (tests/clients/showcase.mjs and
//! tests/clients/python/showcase.py). Needs Node.js with npm, and Python 3
//! with pip; each client is installed on first use at the pinned version.

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
    assert_all_passed(&output);
}

#[test]
fn python_sdk_client_gets_every_showcase_prompt_and_completion() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients/python");
    let python = dir.join(".venv/bin/python");
    if !python.exists() {
        let status = Command::new("python3")
            .args(["-m", "venv", ".venv"])
            .current_dir(&dir)
            .status()
            .expect("python3 is needed to install the official MCP Python client");
        assert!(status.success(), "python3 -m venv failed");
        let status = Command::new(dir.join(".venv/bin/pip"))
            .args(["install", "--quiet", "-r", "requirements.txt"])
            .current_dir(&dir)
            .status()
            .expect("pip is needed to install the official MCP Python client");
        assert!(status.success(), "pip install failed");
    }
    let output = Command::new(&python)
        .arg("showcase.py")
        .arg(showcase_binary())
        .current_dir(&dir)
        .output()
        .expect("the Python client's virtual environment is broken");
    assert_all_passed(&output);
}

fn assert_all_passed(output: &std::process::Output) {
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the official client failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
}
