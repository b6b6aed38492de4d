#!/usr/bin/env python3
"""How much `cargo check` time #[prompt] adds: 200 prompts against the same
200 functions without it, in two generated crates, in one run.

Usage: python3 benches/check_time.py [N]   (N prompts, default 200)

Each crate is checked once to warm the build cache, then its lib.rs is
touched and checked again five times; the median is reported.
"""

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


def check_time(path, target):
    def check():
        subprocess.run(
            ["cargo", "check", "-q", "--target-dir", str(target)],
            cwd=path,
            check=True,
        )

    check()
    times = []
    for _ in range(5):
        (path / "src" / "lib.rs").touch()
        start = time.perf_counter()
        check()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


with tempfile.TemporaryDirectory() as tmp:
    base = pathlib.Path(tmp)
    target = base / "target"
    plain = check_time(crate(base, "plain", False, target), target)
    with_macro = check_time(crate(base, "prompts", True, target), target)
    print(f"{N} plain functions: {plain:.2f} s")
    print(f"{N} #[prompt] functions: {with_macro:.2f} s ({with_macro / plain:.1f}x)")
