#!/usr/bin/env python3
"""How much `cargo check` and `cargo build` time #[prompt] adds: 200
prompts against the same 200 functions without it, in two generated crates,
in one run.

Usage: python3 benches/check_time.py [N]   (N prompts, default 200)

Each crate is built once to warm the cache of its dependencies; then, for
each command, its lib.rs is touched and the whole `cargo` process timed
five times, with incremental compilation off (as in CI and release builds);
the median is reported.
"""

import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
N = int(sys.argv[1]) if len(sys.argv) > 1 else 200


def prompt(i, with_macro):
    doc = "    /// " if with_macro else "    // "
    attr = "#[mcp_prompts::prompt]\n" if with_macro else ""
    return f"""/// Summarize text {i}
{attr}pub fn summarize_{i}(
{doc}The text to summarize
    text: String,
{doc}The most words the summary may use
    max_words: u32,
{doc}What to focus on
    focus: Option<String>,
) -> String {{
    format!("Summarize in {{max_words}} words, focusing on {{focus:?}}: {{text}} ({i})")
}}
"""


def crate(base, name, with_macro, target):
    path = base / name
    (path / "src").mkdir(parents=True)
    (path / "Cargo.toml").write_text(
        f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2024"\n\n'
        f'[dependencies]\nmcp-prompts = {{ path = "{ROOT / "mcp-prompts"}" }}\n'
    )
    (path / "src" / "lib.rs").write_text("\n".join(prompt(i, with_macro) for i in range(N)))
    return path


ENV = dict(os.environ, CARGO_INCREMENTAL="0")


def command_time(path, target, command):
    def run():
        subprocess.run(
            ["cargo", command, "-q", "--target-dir", str(target)],
            cwd=path,
            check=True,
            env=ENV,
        )

    run()
    times = []
    for _ in range(5):
        (path / "src" / "lib.rs").touch()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


with tempfile.TemporaryDirectory() as tmp:
    base = pathlib.Path(tmp)
    target = base / "target"
    plain_crate = crate(base, "plain", False, target)
    macro_crate = crate(base, "prompts", True, target)
    print(f"| crate | `cargo check` | `cargo build` |")
    print(f"|---|---|---|")
    results = {}
    for command in ["check", "build"]:
        results[command] = (
            command_time(plain_crate, target, command),
            command_time(macro_crate, target, command),
        )
    (check_plain, check_macro), (build_plain, build_macro) = results["check"], results["build"]
    print(f"| {N} plain functions | {check_plain:.2f} s | {build_plain:.2f} s |")
    print(
        f"| {N} `#[prompt]` functions | {check_macro:.2f} s ({check_macro / check_plain:.1f}x) "
        f"| {build_macro:.2f} s ({build_macro / build_plain:.1f}x) |"
    )
