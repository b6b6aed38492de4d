#!/usr/bin/env python3
"""How much `cargo check` and `cargo build` time #[prompt] adds, against
two baselines, in one run:

- plain: the same functions without the attribute;
- floor: the least any inventory-based design can cost. Each prompt is one
  plain function that takes the arguments map, extracts and parses its own
  arguments by hand (a missing or mistyped one is an error value) and
  returns its messages; next to it, one `inventory::submit!` of a static
  registration (name, description, argument descriptors, the function);
  dispatch iterates the collected registrations;
- prompts: the same functions with `#[prompt]`;
- builders: the same prompts with the runtime's `builders` feature, which
  gives each handle a typed request builder (for tests; off by default).

Each for prompts of one argument (a `String`) and of three (a `String`, a
`u32`, and a choice enum with a default, parsed by hand in the twins).

Usage: python3 benches/check_time.py [N] [RUNS] [--instructions]
(default 200 prompts, 3 runs)

Each crate is built once to warm the cache of its dependencies; then, for
each command, every crate's lib.rs is touched and the whole `cargo`
process timed, crate after crate, five times over (so that a burst of load
on a shared machine falls on every crate alike), with incremental
compilation off (as in CI and release builds); a run reports each crate's
median wall time, and the CPU time of cargo and the compiler. Runs vary by
more than the margins that matter, so the table gives the range over RUNS
runs.

With --instructions (Linux, valgrind), it also counts, once, the
instructions of the compiler process that checks each crate: a figure the
machine's noise cannot move, and where the time goes.
"""

import os
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
N = int(ARGS[0]) if ARGS else 200
RUNS = int(ARGS[1]) if len(ARGS) > 1 else 3
INSTRUCTIONS = "--instructions" in sys.argv
SAMPLES = 5

TONE_PLAIN = """#[derive(Clone, Copy, Debug)]
pub enum Tone { Formal, Casual }
"""

TONE_DERIVED = """#[derive(Clone, Copy, Debug, mcp_prompts::PromptArg)]
pub enum Tone { Formal, Casual }
"""

FLOOR_PRELUDE = """use serde_json::{Map, Value};

/// One argument as a client sees it.
pub struct ArgDesc {
    pub name: &'static str,
    pub description: &'static str,
    pub required: bool,
}

/// One prompt, registered through inventory.
pub struct Registration {
    pub name: &'static str,
    pub description: &'static str,
    pub arguments: &'static [ArgDesc],
    pub call: fn(&Map<String, Value>) -> Result<Vec<String>, String>,
}

inventory::collect!(Registration);

/// Calls the prompt named `name`.
pub fn dispatch(name: &str, arguments: &Map<String, Value>) -> Option<Result<Vec<String>, String>> {
    inventory::iter::<Registration>
        .into_iter()
        .find(|r| r.name == name)
        .map(|r| (r.call)(arguments))
}

fn string_arg(arguments: &Map<String, Value>, name: &str) -> Result<String, String> {
    match arguments.get(name) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(format!("`{name}` must be a string")),
        None => Err(format!("missing `{name}`")),
    }
}
"""


def body(i, arity):
    if arity == 1:
        return f'format!("Summarize: {{text}} ({i})")'
    return f'format!("Summarize in {{max_words}} words, {{tone:?}}: {{text}} ({i})")'


def plain(i, arity):
    params = "    text: String,\n"
    if arity == 3:
        params += "    max_words: u32,\n    tone: Tone,\n"
    return f"""/// Summarize text {i}
pub fn summarize_{i}(
    // The text to summarize
{params}) -> String {{
    {body(i, arity)}
}}
"""


def prompt(i, arity):
    params = "    /// The text to summarize\n    text: String,\n"
    if arity == 3:
        params += (
            "    /// The most words the summary may use\n    max_words: u32,\n"
            '    /// How it should sound\n    #[arg(default = "casual")]\n    tone: Tone,\n'
        )
    return f"""/// Summarize text {i}
#[mcp_prompts::prompt]
pub fn summarize_{i}(
{params}) -> String {{
    {body(i, arity)}
}}
"""


def floor(i, arity):
    parse = '    let text = string_arg(arguments, "text")?;\n'
    descs = '        ArgDesc { name: "text", description: "The text to summarize", required: true },\n'
    if arity == 3:
        parse += """    let max_words: u32 = string_arg(arguments, "max_words")?
        .trim()
        .parse()
        .map_err(|e| format!("`max_words`: {e}"))?;
    let tone = match arguments.get("tone") {
        None => Tone::Casual,
        Some(Value::String(s)) => match s.trim().to_ascii_lowercase().as_str() {
            "formal" => Tone::Formal,
            "casual" => Tone::Casual,
            _ => return Err(format!("`tone`: expected one of formal, casual (got {s})")),
        },
        Some(_) => return Err("`tone` must be a string".to_owned()),
    };
"""
        descs += (
            '        ArgDesc { name: "max_words", description: "The most words the summary may use", required: true },\n'
            '        ArgDesc { name: "tone", description: "How it should sound", required: false },\n'
        )
    return f"""/// Summarize text {i}
pub fn summarize_{i}(arguments: &Map<String, Value>) -> Result<Vec<String>, String> {{
{parse}    Ok(vec![{body(i, arity)}])
}}

inventory::submit! {{
    Registration {{
        name: "summarize_{i}",
        description: "Summarize text {i}",
        arguments: &[
{descs}        ],
        call: summarize_{i},
    }}
}}
"""


KINDS = {
    "plain": (plain, lambda arity: TONE_PLAIN if arity == 3 else "", ""),
    "floor": (
        floor,
        lambda arity: FLOOR_PRELUDE + (TONE_PLAIN if arity == 3 else ""),
        'inventory = "0.3"\nserde_json = "1"\n',
    ),
    "prompts": (
        prompt,
        lambda arity: TONE_DERIVED if arity == 3 else "",
        f'mcp-prompts = {{ path = "{ROOT / "mcp-prompts"}" }}\n',
    ),
    "builders": (
        prompt,
        lambda arity: TONE_DERIVED if arity == 3 else "",
        f'mcp-prompts = {{ path = "{ROOT / "mcp-prompts"}", features = ["builders"] }}\n',
    ),
}


def crate(base, kind, arity):
    make, prelude, deps = KINDS[kind]
    name = f"{kind}{arity}"
    path = base / name
    (path / "src").mkdir(parents=True)
    (path / "Cargo.toml").write_text(
        f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2024"\n\n'
        f"[dependencies]\n{deps}"
    )
    items = [prelude(arity)] + [make(i, arity) for i in range(N)]
    (path / "src" / "lib.rs").write_text("\n".join(items))
    return path


ENV = dict(os.environ, CARGO_INCREMENTAL="0")

# Runs rustc under cachegrind when it compiles the crate named in
# COUNT_CRATE, appending its instruction count to COUNT_LOG.
WRAPPER = """#!/bin/sh
rustc="$1"; shift
for arg in "$@"; do
  if [ "$arg" = "$COUNT_CRATE" ]; then
    exec valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
      --log-file="$COUNT_LOG" "$rustc" "$@"
  fi
done
exec "$rustc" "$@"
"""


def cargo(path, target, command, env=ENV):
    subprocess.run(
        ["cargo", command, "-q", "--target-dir", str(target)],
        cwd=path,
        check=True,
        env=env,
    )


def timed(path, target, command):
    """Wall and CPU seconds (cargo's and the compiler's) of one command."""
    (path / "src" / "lib.rs").touch()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    cargo(path, target, command)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def instructions(base, path, target, name):
    """Instructions of the compiler process checking crate `name`."""
    wrapper = base / "count.sh"
    wrapper.write_text(WRAPPER)
    wrapper.chmod(0o755)
    log = base / f"count-{name}.log"
    (path / "src" / "lib.rs").touch()
    env = dict(ENV, RUSTC_WRAPPER=str(wrapper), COUNT_CRATE=name, COUNT_LOG=str(log))
    cargo(path, target, "check", env)
    for line in log.read_text().splitlines():
        if "I refs:" in line or "I   refs:" in line:
            return int(line.split(":")[-1].strip().replace(",", ""))
    raise RuntimeError(f"no count in {log}")


def span(values, digits=2):
    low, high = min(values), max(values)
    low, high = f"{low:.{digits}f}", f"{high:.{digits}f}"
    return low if low == high else f"{low}–{high}"


with tempfile.TemporaryDirectory() as tmp:
    base = pathlib.Path(tmp)
    target = base / "target"
    crates = {(k, a): crate(base, k, a) for a in (1, 3) for k in KINDS}
    for command in ["check", "build"]:
        for path in crates.values():
            cargo(path, target, command)
    # times[(kind, arity, command)] = one (wall, cpu) median pair per run
    times = {}
    for run in range(RUNS):
        for command in ["check", "build"]:
            samples = {key: [] for key in crates}
            for _ in range(SAMPLES):
                for key, path in crates.items():
                    samples[key].append(timed(path, target, command))
            for (kind, arity), pairs in samples.items():
                wall = statistics.median(w for w, _ in pairs)
                cpu = statistics.median(c for _, c in pairs)
                times.setdefault((kind, arity, command), []).append((wall, cpu))
        print(f"run {run + 1} of {RUNS} done", file=sys.stderr)
    print(f"{N} prompts, {RUNS} runs (range of the medians; ratios computed run by run)\n")
    for measure, index in [("wall", 0), ("CPU", 1)]:
        print(f"{measure} time:\n")
        print("| crate | `cargo check` | vs plain | vs floor | `cargo build` | vs plain | vs floor |")
        print("|---|---|---|---|---|---|---|")
        for arity in (1, 3):
            for kind in KINDS:
                cells = []
                for command in ["check", "build"]:
                    own = [t[index] for t in times[(kind, arity, command)]]

                    def ratio(other):
                        theirs = [t[index] for t in times[(other, arity, command)]]
                        return [o / b for o, b in zip(own, theirs)]

                    cells += [f"{span(own)} s", f"{span(ratio('plain'))}x", f"{span(ratio('floor'))}x"]
                plural = "s" if arity > 1 else ""
                print(f"| {kind}, {arity} argument{plural} | " + " | ".join(cells) + " |")
        print()
    if INSTRUCTIONS:
        print("Instructions of the compiler checking each crate (cachegrind):\n")
        print("| crate | instructions | vs floor |")
        print("|---|---|---|")
        counts = {key: instructions(base, path, target, f"{key[0]}{key[1]}") for key, path in crates.items()}
        for (kind, arity), count in counts.items():
            floor = counts[("floor", arity)]
            plural = "s" if arity > 1 else ""
            print(f"| {kind}, {arity} argument{plural} | {count / 1e9:.3f} G | {count / floor:.2f}x |")
