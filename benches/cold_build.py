#!/usr/bin/env python3
"""A newcomer's first build: a one-prompt stdio server, from an empty target
directory, written with mcp-prompts (default features) and with rmcp, the
official Rust SDK (its prompt macros and stdio transport), in one run.

Usage: python3 benches/cold_build.py [RUNS]   (default 2, alternated)

Each run builds both crates (`cargo build`, dev profile) in fresh target
directories and reports the wall time and how many crates were compiled,
the server's own included. Dependencies must already be downloaded (the
registry cache is shared; nothing is fetched while timing).
"""

import os
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 2

OURS = (
    f"""mcp-prompts = {{ path = "{ROOT / "mcp-prompts"}" }}
tokio = {{ version = "1", features = ["macros", "rt-multi-thread"] }}
""",
    """use mcp_prompts::{Server, prompt};

/// Summarize a text
#[prompt]
fn summarize(
    /// The text to summarize
    text: String,
) -> String {
    format!("Summarize:\\n{text}")
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    Server::new("one", "1.0").serve_stdio().await
}
""",
)

RMCP = (
    """rmcp = { version = "3.11", default-features = false, features = ["server", "macros", "transport-io"] }
tokio = { version = "1", features = ["macros", "rt-multi-thread"] }
serde = { version = "1", features = ["derive"] }
schemars = "1"
""",
    """use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{PromptMessage, Role};
use rmcp::{ServerHandler, ServiceExt, prompt, prompt_handler, prompt_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct SummarizeArgs {
    /// The text to summarize
    text: String,
}

#[derive(Clone)]
struct One;

#[prompt_router]
impl One {
    /// Summarize a text
    #[prompt]
    async fn summarize(&self, Parameters(args): Parameters<SummarizeArgs>) -> Vec<PromptMessage> {
        let text = format!("Summarize:\\n{}", args.text);
        vec![PromptMessage::new_text(Role::User, text)]
    }
}

#[prompt_handler]
impl ServerHandler for One {}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    One.serve(rmcp::transport::stdio()).await?.waiting().await?;
    Ok(())
}
""",
)


def crate(base, name, deps, main):
    path = base / name
    (path / "src").mkdir(parents=True)
    (path / "Cargo.toml").write_text(
        f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2024"\n\n'
        f"[dependencies]\n{deps}"
    )
    (path / "src" / "main.rs").write_text(main)
    # Resolve (and fetch, if ever needed) before anything is timed.
    subprocess.run(["cargo", "fetch", "-q"], cwd=path, check=True)
    return path


def cold_build(path, target):
    start = time.perf_counter()
    out = subprocess.run(
        ["cargo", "build", "--offline", "--target-dir", str(target)],
        cwd=path,
        check=True,
        capture_output=True,
        text=True,
        env=dict(os.environ, CARGO_TERM_COLOR="never"),
    )
    elapsed = time.perf_counter() - start
    crates = sum(1 for line in out.stderr.splitlines() if line.strip().startswith("Compiling "))
    return elapsed, crates


with tempfile.TemporaryDirectory() as tmp:
    base = pathlib.Path(tmp)
    crates = {"mcp-prompts": crate(base, "ours", *OURS), "rmcp": crate(base, "theirs", *RMCP)}
    results = {name: [] for name in crates}
    for run in range(RUNS):
        for name, path in crates.items():
            target = base / f"target-{name}-{run}"
            results[name].append(cold_build(path, target))
        print(f"run {run + 1} of {RUNS} done", file=sys.stderr)
    print("| one-prompt stdio server | cold `cargo build` | crates compiled |")
    print("|---|---|---|")
    for name, runs in results.items():
        times = ", ".join(f"{t:.1f} s" for t, _ in runs)
        print(f"| {name} | {times} | {runs[0][1]} |")
