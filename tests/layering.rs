//! Layers that point one way. Reads `mcp-prompts/src` and fails on a use
//! of a module that does not point down `LAYERS`, on a cycle of modules, on
//! an `http` or `rmcp` feature gate below the transports, and on an import
//! through a re-export of `lib.rs`. A use is a `crate::m` (or `$crate::m`)
//! path, a `super::` path that climbs out of the top-level module, or
//! `crate::Name` for a name `lib.rs` re-exports, placed by `ROOT_NAMES`.
//! Test code is skipped (the item after a `#[cfg(test)]` at the start of a
//! line, to its `}` at the start of a line, and `tests.rs`): a unit test
//! may reach up, to `testing` say; the library may not.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layering of `mcp-prompts/src`, written here and nowhere else
/// (ARCHITECTURE.md draws it): the layers, lowest first, one a line; the
/// modules of a line are peers. A module may use only modules of lower
/// layers, not its peers. `lib.rs`, which declares and re-exports
/// everything, is exempt.
const LAYERS: &str = "
    error sync caller presentation
    protocol
    request content telemetry
    message context
    invoke
    descriptor
    args complete template
    dynamic
    catalog skills
    elicit files fluent
    registry
    server
    contract
    transport rmcp testing private
    cli
";

/// The names `lib.rs` re-exports, by the module that defines them (`-`:
/// another crate), and the `#[macro_export]` macros (marked `!`), which live
/// at the root wherever they are written. A name it misplaces is still
/// caught, as an import through `lib.rs`.
const ROOT_NAMES: &str = "
    -: prompt PromptArgs PromptArg catalog include_skill
    args: IntoArgText Json PromptArg PromptArgs PromptParam prompt_arg_from_str!
    testing: assert_matrix_snapshot!
    caller: Caller
    catalog: AnyPrompt Catalog Prompts registered_prompts
    complete: CompleteWith CompleterOutput IntoCompletions
    content: Annotations Content ResourceLink Role
    context: RequestContext RequestId
    descriptor: ArgDef ArgRange ArgType Completer CompletionCall CompletionInput Input InvokeFn
    descriptor: ParamKind PromptDef PromptExtras Restriction Source
    dynamic: ArgumentValues DynamicArgument DynamicPrompt DynamicPromptBuilder
    skills: DynamicSkill DynamicSkillBuilder SkillContent
    elicit: Elicited
    error: BuildError Error
    fluent: Translations
    files: DEFAULT_MAX_FILE_BYTES DEFAULT_MAX_FILES FileProblem PromptDir PromptDirOptions
    invoke: Invocation PromptFuture
    message: IntoPromptResult Message PromptResult
    presentation: Icon IconTheme MetaValue TAGS_META_KEY
    protocol: Arguments LogLevel ProtocolVersion
    request: ArgsBuilder GetPrompt
    rmcp: __serve_prompts! __serve_skills!
    server: CacheScope Server Service Session
    server: DEFAULT_MAX_BATCH_ITEMS DEFAULT_MAX_BATCH_RESPONSE_BYTES DEFAULT_MAX_IN_FLIGHT
    server: DEFAULT_MAX_LISTENS DEFAULT_MAX_MESSAGE_BYTES DEFAULT_MAX_PENDING_OUTPUT_BYTES
    server: DEFAULT_MAX_WAITING DEFAULT_QUESTION_TIMEOUT
    transport: DEFAULT_PATH HttpEndpoint HttpOptions Reply ResponseFuture shutdown_signal
    transport: HttpAuth JwtAlgorithm JwtVerifier TokenError TokenVerifier
";

/// The modules that may name a route's feature anywhere: below the
/// transports, no module knows how messages are carried. There a feature
/// may only leave out a hook that route alone calls (see `HOOK_GATES`).
const FEATURE_HOMES: &[(&str, &str)] = &[
    ("feature = \"http\"", "lib transport"),
    ("feature = \"rmcp\"", "lib rmcp"),
    ("feature = \"auth\"", "lib transport"),
];

/// The one form a route's feature takes below the transports: a whole
/// line before an item (or a match arm, or a field) that exists for that
/// route, so that a build without the route has no dead code and no crate
/// -wide allow. `not(..)`, `cfg!` and `cfg_attr` would make code behave
/// differently per route, and are refused.
const HOOK_GATES: &[&str] = &[
    "#[cfg(feature = \"http\")]",
    "#[cfg(feature = \"rmcp\")]",
    "#[cfg(any(feature = \"http\", feature = \"rmcp\"))]",
];

/// Each entry of a `module: names` table, as (name, module); `-` is "".
fn table(text: &str) -> impl Iterator<Item = (&str, &str)> {
    let rows = text.lines().filter_map(|row| row.split_once(':'));
    let rows = rows.map(|(m, ns)| (m.trim().trim_start_matches('-'), ns));
    rows.flat_map(|(m, ns)| ns.split_whitespace().map(move |n| (n, m)))
}

/// What the sources break, each with its `file:line`.
#[derive(Debug, Default)]
struct Report {
    problems: Vec<String>,
    cycles: Vec<String>,
}

/// Module `.0` uses module `.1` at `.2` (`file:line`), through the name `.3`
/// of `lib.rs` if it went that way.
struct Use(String, String, String, Option<String>);

/// The top-level module of a path under `src/`: `server/get.rs` is `server`.
fn module_of(rel: &str) -> String {
    let first = rel.split('/').next().unwrap_or(rel);
    first.trim_end_matches(".rs").to_owned()
}

/// How deep a file's module is: `lib.rs` 0, `a.rs` and `a/mod.rs` 1, `a/b.rs` 2.
fn depth_of(rel: &str) -> usize {
    let parts = rel.split('/').count();
    parts - usize::from(rel == "lib.rs" || rel.ends_with("/mod.rs"))
}

/// The library code of a file, line by line: test items blanked (so that
/// lines keep their numbers), and each line cut at `//` (a `//` inside a
/// string cuts it short too: no use hides there).
fn code_of(rel: &str, text: &str) -> Vec<String> {
    if rel == "tests.rs" || rel.ends_with("/tests.rs") {
        return Vec::new();
    }
    // rustfmt puts a top-level item's closing `}` at the start of a line.
    let (mut in_test, mut in_block) = (false, false);
    let mut code = Vec::new();
    for line in text.lines() {
        if in_block {
            in_block = line != "}";
        } else if in_test {
            let ends = line.starts_with("#[") || line.ends_with(';') || line.ends_with('}');
            (in_test, in_block) = (line.starts_with("#["), !ends);
        } else if line.starts_with("#[cfg(test)]") {
            in_test = true;
        } else {
            code.push(line.split("//").next().unwrap_or_default().to_owned());
            continue;
        }
        code.push(String::new());
    }
    code
}

/// The identifier `s` starts with, after blanks.
fn ident(s: &str) -> String {
    let word = |c: &char| c.is_alphanumeric() || *c == '_';
    s.trim_start().chars().take_while(word).collect()
}

/// The first segment of each path that `rest` starts: `a::b` gives `a`,
/// `{a::b, c::{d, e}}` gives `a` and `c`.
fn heads(rest: &str) -> Vec<String> {
    let Some(group) = rest.strip_prefix('{') else {
        return vec![ident(rest)];
    };
    // The group's own level only: inner groups left out.
    let (mut flat, mut depth) = (String::new(), 0);
    for c in group.chars() {
        depth += i32::from(c == '{') - i32::from(c == '}');
        match depth {
            -1 => break,
            0 if c != '}' => flat.push(c),
            _ => {}
        }
    }
    let items = flat.split(',').map(ident);
    items.filter(|h| !h.is_empty()).collect()
}

/// Every use of a top-level module in `files` (paths under `src/`, and
/// texts), by another or itself; `names` places what `lib.rs` re-exports.
/// Feature gates out of place, and names it cannot place, go to `report`.
fn uses_of(files: &[(String, String)], names: &str, report: &mut Report) -> Vec<Use> {
    let mut placed = BTreeMap::new();
    for (name, module) in table(names) {
        placed.insert(name.trim_end_matches('!'), (module, name.ends_with('!')));
    }
    let modules: BTreeSet<String> = files.iter().map(|(rel, _)| module_of(rel)).collect();
    let mut uses = Vec::new();
    for (rel, text) in files.iter().filter(|(rel, _)| rel != "lib.rs") {
        let (from, lines) = (module_of(rel), code_of(rel, text));
        for (n, line) in lines.iter().enumerate() {
            for (gate, homes) in FEATURE_HOMES {
                let hook = HOOK_GATES.contains(&line.trim());
                if line.contains(gate) && !hook && !homes.split(' ').any(|h| h == from) {
                    let problem = format!("{rel}:{}: `{gate}` below the transports", n + 1);
                    report.problems.push(problem);
                }
            }
        }
        // Joined, so that a `use crate::{..}` group may span lines.
        let code = lines.join("\n");
        let supers = code.match_indices("super::");
        for (i, _) in code.match_indices("crate::").chain(supers) {
            let before = code[..i].chars().next_back().unwrap_or(' ');
            if before.is_alphanumeric() || before == '_' || before == ':' {
                continue; // `my_crate::`, or the second `super::` of a chain
            }
            let (mut rest, mut climbs) = (&code[i..], 0);
            while let Some(r) = rest.strip_prefix("super::") {
                (rest, climbs) = (r, climbs + 1);
            }
            if climbs == 0 {
                rest = &rest["crate::".len()..];
            } else if climbs < depth_of(rel) {
                continue; // still inside the top-level module
            }
            let at = format!("{rel}:{}", code[..i].matches('\n').count() + 1);
            for head in heads(rest) {
                let head = head.replace("__private", "private");
                let (to, root) = if modules.contains(&head) {
                    (head, None)
                } else if let Some(&(module, is_macro)) = placed.get(head.as_str()) {
                    // A macro's `$crate::Name` must spell the public path.
                    let through = before != '$' && !is_macro;
                    (module.to_owned(), through.then_some(head))
                } else {
                    let problem = format!("{at}: `{head}` is no module, nor in ROOT_NAMES");
                    report.problems.push(problem);
                    continue;
                };
                if !to.is_empty() {
                    uses.push(Use(from.clone(), to, at.clone(), root));
                }
            }
        }
    }
    uses
}

/// How far up a visibility reaches, in modules climbed from the file's own
/// (`usize::MAX`: the whole crate); `None` for no visibility or `pub`.
fn reach(vis: &str, rel: &str) -> Option<usize> {
    let inner = vis.strip_prefix("pub(")?.strip_suffix(')')?;
    let path = inner.strip_prefix("in ").unwrap_or(inner);
    if path == "crate" || path == "self" {
        return Some(if path == "crate" { usize::MAX } else { 0 });
    }
    if let Some(inside) = path.strip_prefix("crate::") {
        // `pub(in crate::m::..)` reaches the named module: from a file of
        // depth d, that is d minus the segments named.
        return Some(depth_of(rel).saturating_sub(inside.split("::").count()));
    }
    Some(path.split("::").filter(|s| *s == "super").count())
}

/// Fields whose visibility reaches past their top-level module: another
/// module reading them sees into this one's state. A `pub` field is public
/// API, which the API review decides; a field of a `lib.rs` type belongs to
/// the whole crate.
fn open_fields(files: &[(String, String)], report: &mut Report) {
    for (rel, text) in files.iter().filter(|(rel, _)| rel != "lib.rs") {
        for (n, line) in code_of(rel, text).iter().enumerate() {
            let mut rest = line.as_str();
            while let Some(at) = rest.find("pub(") {
                let (before, from) = (&rest[..at], &rest[at..]);
                let vis_end = from.find(')').map_or(from.len(), |e| e + 1);
                let (vis, after) = from.split_at(vis_end);
                rest = after;
                // A named field (`vis name: T`), or a tuple field (`(vis T`
                // or `, vis T`).
                let name = ident(after);
                let named = after.trim_start()[name.len()..].starts_with(':')
                    && !name.is_empty()
                    && ![
                        "const", "static", "fn", "type", "struct", "enum", "mod", "use",
                    ]
                    .contains(&name.as_str());
                let tuple = matches!(before.trim_end().chars().last(), Some('(' | ','));
                if !(named || tuple) {
                    continue;
                }
                // Climbing to depth 0 leaves the top-level module.
                if reach(vis, rel).is_some_and(|up| up >= depth_of(rel)) {
                    let field = if named {
                        name
                    } else {
                        "a tuple field".to_owned()
                    };
                    let problem = format!(
                        "{rel}:{}: `{vis}` field `{field}` reaches past `{}`",
                        n + 1,
                        module_of(rel)
                    );
                    report.problems.push(problem);
                }
            }
        }
    }
}

/// Modules that all reach one another, with the uses that tie them.
fn cycles(graph: &BTreeMap<&str, BTreeMap<&str, &str>>) -> Vec<String> {
    let reach = |start: &str| {
        let (mut seen, mut todo) = (BTreeSet::new(), vec![start]);
        while let Some(m) = todo.pop() {
            for &next in graph.get(m).into_iter().flat_map(BTreeMap::keys) {
                if seen.insert(next) {
                    todo.push(next);
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&str, BTreeSet<&str>> = graph.keys().map(|&m| (m, reach(m))).collect();
    let mut out = Vec::new();
    for (m, seen) in &reached {
        let back = |n: &&str| reached.get(n).is_some_and(|s| s.contains(m));
        let ring: BTreeSet<&str> = seen.iter().copied().filter(back).collect();
        // Told once, by its first module.
        if ring.len() < 2 || ring.first() != Some(m) {
            continue;
        }
        let mut ties = Vec::new();
        for a in &ring {
            for (b, at) in graph[a].iter().filter(|(b, _)| ring.contains(*b)) {
                ties.push(format!("{a} -> {b} ({at})"));
            }
        }
        out.push(format!("{ring:?}: {}", ties.join(", ")));
    }
    out
}

/// Checks `files` against `layers`, with `names` for what `lib.rs` re-exports.
fn check(files: &[(String, String)], layers: &str, names: &str) -> Report {
    let mut report = Report::default();
    let mut layer = BTreeMap::new();
    for (i, row) in layers.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        layer.extend(row.split_whitespace().map(|m| (m, i)));
    }
    let modules: BTreeSet<String> = files.iter().map(|(rel, _)| module_of(rel)).collect();
    // `lib.rs` declares everything; `guide` is documentation, with no code
    // to use anything.
    for m in modules.iter().filter(|m| *m != "lib" && *m != "guide") {
        if !layer.contains_key(m.as_str()) {
            report.problems.push(format!("module `{m}` is in no layer"));
        }
    }
    open_fields(files, &mut report);
    let uses = uses_of(files, names, &mut report);
    // Module -> the modules it uses -> where each use was first seen.
    let mut graph: BTreeMap<&str, BTreeMap<&str, &str>> = BTreeMap::new();
    for Use(from, to, at, root) in &uses {
        if let Some(name) = root {
            let problem = format!("{at}: `crate::{name}` goes through lib.rs: use `crate::{to}`");
            report.problems.push(problem);
        }
        if from == to {
            continue;
        }
        graph.entry(from).or_default().entry(to).or_insert(at);
        let (Some(f), Some(t)) = (layer.get(from.as_str()), layer.get(to.as_str())) else {
            continue;
        };
        if t >= f {
            let how = if t == f { "a peer" } else { "a higher layer" };
            let problem = format!("{at}: `{from}` uses `{to}`, {how}");
            report.problems.push(problem);
        }
    }
    // Found apart from the layers, so that a wrong LAYERS cannot hide one.
    report.cycles = cycles(&graph);
    // By file, then line.
    report.problems.sort_by_cached_key(|p| {
        let mut parts = p.splitn(3, ':');
        let file = parts.next().unwrap_or_default().to_owned();
        (file, parts.next().and_then(|n| n.parse::<usize>().ok()))
    });
    report
}

/// Every `.rs` file under `dir`, as (path from `root`, text).
fn read_tree(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("a readable source tree") {
        let path = entry.expect("a readable entry").path();
        if path.is_dir() {
            read_tree(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).expect("under root");
            let text = std::fs::read_to_string(&path).expect("UTF-8 source");
            out.push((rel.to_string_lossy().replace('\\', "/"), text));
        }
    }
}

#[test]
fn layers_point_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp-prompts/src");
    let mut files = Vec::new();
    read_tree(&src, &src, &mut files);
    // `src/bin` holds the binaries, crates of their own that use the
    // library as any user does, through its public API.
    files.retain(|(rel, _)| !rel.starts_with("bin/"));
    files.sort();
    let report = check(&files, LAYERS, ROOT_NAMES);
    for line in report.cycles.iter().chain(&report.problems) {
        eprintln!("{line}");
    }
    let failures = report.cycles.len() + report.problems.len();
    assert_eq!(failures, 0, "cycles and problems, listed above");
}

/// The checker itself, on a small made-up crate: it fails when it should.
#[test]
fn the_checker_fails_when_it_should() {
    let tree = |a: &str, c: &str| {
        let b = "mod c;\n// use crate::a::Server; a comment is no use\n";
        let lib = "mod a;\nmod b;\npub use a::Server;\n";
        let files = [("lib.rs", lib), ("a.rs", a), ("b/mod.rs", b), ("b/c.rs", c)];
        files.map(|(r, t)| (r.to_owned(), t.to_owned()))
    };
    let test_only = "#[cfg(test)]\nmod tests {\n    use crate::nowhere;\n}\n";
    // `a`, the lower layer, uses `b`; and `b/c.rs`, after its tests, uses
    // `a` through lib.rs (two `super::` from depth 2 reach the root): a cycle.
    let gated =
        "use crate::b::helper;\nconst RMCP: bool = cfg!(feature = \"rmcp\");\npub struct Server;\n";
    let bad = tree(gated, &format!("{test_only}use super::super::Server;\n"));
    let report = check(&bad, "a\nb", "a: Server");
    let cycle = r#"{"a", "b"}: a -> b (a.rs:1), b -> a (b/c.rs:5)"#;
    assert_eq!(report.cycles, [cycle]);
    let expected = [
        "a.rs:1: `a` uses `b`, a higher layer",
        "a.rs:2: `feature = \"rmcp\"` below the transports",
        "b/c.rs:5: `crate::Server` goes through lib.rs: use `crate::a`",
    ];
    assert_eq!(report.problems, expected);
    // Peers may not use each other either.
    let peers = [
        ("lib.rs", "mod a;\nmod b;\n"),
        ("a.rs", "use crate::b::f;\n"),
        ("b.rs", ""),
    ];
    let report = check(&peers.map(|(r, t)| (r.to_owned(), t.to_owned())), "a b", "");
    assert_eq!(report.problems, ["a.rs:1: `a` uses `b`, a peer"]);
    // Fields stay in their top-level module: `pub(super)` from `b/c.rs`
    // reaches `b`, but from `a.rs` the whole crate.
    let fields = [
        ("lib.rs", "mod a;\nmod b;\n"),
        (
            "a.rs",
            "struct A {\n    pub(super) x: u8,\n    pub y: u8,\n}\n",
        ),
        ("b/mod.rs", "mod c;\n"),
        (
            "b/c.rs",
            "struct C(pub(super) u8, pub(crate) u8);\nstruct D {\n    pub(in crate::b) z: u8,\n}\n",
        ),
    ];
    let report = check(
        &fields.map(|(r, t)| (r.to_owned(), t.to_owned())),
        "a\nb",
        "",
    );
    let expected = [
        "a.rs:2: `pub(super)` field `x` reaches past `a`",
        "b/c.rs:1: `pub(crate)` field `a tuple field` reaches past `b`",
    ];
    assert_eq!(report.problems, expected);
    // The same crate, its one use pointing down and naming `a`, passes.
    let good = format!("use crate::a::Server;\n{test_only}");
    // A hook its route alone calls may be left out without the route.
    let hook = "pub struct Server;\n#[cfg(feature = \"rmcp\")]\npub fn hook() {}\n";
    let report = check(&tree(hook, &good), "a\nb", "a: Server");
    let failures = report.cycles.len() + report.problems.len();
    assert_eq!(failures, 0, "{report:?}");
}
