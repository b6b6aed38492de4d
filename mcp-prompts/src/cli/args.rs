//! The command line, declared for clap: `mcp-prompts serve DIR [options]`,
//! `check`, `render`, `catalog`, `list`, `diff` and `completions`, each with
//! its own `--help`.

// The doc comments below are the commands' `--help` text, printed as
// written: backticks around `list_prompts` or a URL's `<>` would show.
#![allow(clippy::doc_markdown)]

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

/// What every kind of folder holds, which `--help` of the program, of
/// `serve` and of `check` says.
const FOLDERS: &str = "\
Each DIR holds prompt files, in subfolders too (git/commit.md is `git.commit`):
  review.md          ours: `+++` TOML front matter, `{name}` placeholders
  fix-issue.md       a Claude Code command: `---` YAML front matter or none,
                     `$ARGUMENTS`, `$1`..`$9`
  tests.prompt.md    a VS Code prompt file: `${input:name}`
  explain.prompt     a dotprompt file: Handlebars, `input.schema` in Picoschema
  _persona.prompt    a dotprompt partial, used as `{{> persona}}`
Each folder holding a `SKILL.md` (DIR itself too) is an Agent Skill, served
with its files as `skill://` resources (MCP's skills extension); none of its
files is a prompt. Hidden folders are skipped. A DIR that is a repository's
root (it holds .git, .claude or .github) serves only its own folders:
DIR/.claude/commands and DIR/.github/prompts as prompt folders, the skills in
DIR/.claude/skills; each only if it is a real folder, not a link. Its other
files (README.md, docs/) are not read: name a folder of it to serve that.
Several folders make one catalog; a name two of them serve is a problem.";

/// The environment `serve` reads.
const ENVIRONMENT: &str = "\
Environment:
  MCP_PROMPTS_REQUEST_STATE_SECRET  the key (32 bytes at least) that signs
                     2026-07-28 question rounds; give replicas the same
  RUST_LOG           what is logged on stderr (default: warn;
                     mcp_prompts=info: a line per request)
  OTEL_EXPORTER_OTLP_ENDPOINT  export traces and metrics over OTLP/HTTP to
                     this collector (with the other OTEL_* variables);
                     nothing is sent without it";

/// Where `--http` without an address listens.
const DEFAULT_ADDR: &str = "127.0.0.1:8080";

/// Serve folders of prompt files over MCP, kept in step with the folders;
/// or check them.
#[derive(Debug, Parser)]
#[command(
    disable_help_subcommand = true,
    after_long_help = FOLDERS,
    after_help = "`--help` says what each kind of file is; `COMMAND --help` what each command takes."
)]
pub(super) struct CommandLine {
    #[command(subcommand)]
    pub(super) command: Option<Command>,
}

/// What the command line asks for.
#[derive(Debug, Subcommand)]
pub(super) enum Command {
    /// Serve the folders' prompts and skills over stdio, or Streamable HTTP
    /// with --http, kept in step with the folders.
    #[command(after_long_help = format!("{FOLDERS}\n\n{ENVIRONMENT}"))]
    Serve(Serve),
    /// Read the folders as serve does and print every problem and warning
    /// as `path:line: message`; exit 1 if there is a problem (or, with
    /// --against, a breaking change).
    #[command(
        long_about = "Read the folders as serve does and print every problem and warning as \
                      `path:line: message`; exit 1 if there is a problem (or, with \
                      --deny-warnings, a warning; with --against, a breaking change to the \
                      catalog). A file or folder name with a control \
                      character (a newline, ESC) prints it escaped (`\\n`).",
        after_long_help = FOLDERS
    )]
    Check(Check),
    /// Print what a prompt gives for the arguments.
    #[command(long_about = "\
Print what prompt NAME gives for the arguments: each message under its role,
or the prompts/get result with --format json. A bad value fails as the server
would. When the prompt asks its user, the question is asked on the terminal,
or answered from --answer FIELD=VALUE. Control characters in a prompt's text
(ESC, a carriage return alone) and bidirectional controls are printed as
escapes (`\\u{1b}`); --raw prints the text as it is.")]
    Render(Render),
    /// Print the whole catalog (every prompt and skill) as one JSON
    /// document, the same bytes for the same catalog: commit it
    /// (prompts.lock.json) and compare with `diff` or `check --against`.
    #[command(after_long_help = FOLDERS)]
    Catalog(Listed),
    /// One line per prompt (its name, title and arguments, `?` after an
    /// optional one) and per skill.
    #[command(after_long_help = FOLDERS)]
    List(Listed),
    /// Compare two catalogs (catalog files, or folders read as `catalog`
    /// reads them) and print each change, breaking ones first; exit 1 if
    /// one breaks (unless --allow-breaking), 2 for unreadable input.
    #[command(
        long_about = "Compare two catalogs, OLD and NEW: each a file `catalog` wrote, or a folder
read as `catalog` reads it. Each change is printed with its kind, breaking
first:
  breaking    prompt-removed, argument-removed, argument-added (required),
              argument-now-required, choice-removed, argument-type-changed
              (it refuses what it took: text to integer, choices gained, a
              narrower range), skill-removed
  compatible  prompt-added, argument-added-optional, argument-now-optional,
              choice-added, argument-type-widened, skill-added
  info        title-changed, description-changed, default-changed,
              tags-changed, skill-changed (a file added, removed or changed),
              language-added, language-removed (a prompt's translations)
A renamed prompt is a removal and an addition. Exit 1 if anything breaks
(unless --allow-breaking), 0 otherwise, 2 if OLD or NEW cannot be read."
    )]
    Diff(Diff),
    /// Check the folders as `check` does and store each new or changed
    /// prompt in a registry as its next version; move the labels given.
    #[cfg(feature = "registry")]
    #[command(
        long_about = "Read and check the folders as `check` does (a problem publishes nothing), then \
                      store each prompt whose file (or a file it reads: a partial, an icon) changed \
                      as its next version, numbered from 1, never changed after; move each --label \
                      to every prompt's version, new or current. Prints NAME@VERSION per prompt, \
                      `(unchanged)` after those not stored again.",
        after_long_help = registry::SOURCES
    )]
    Publish(registry::Publish),
    /// Move a label to a version (a rollback is a move back), or take a
    /// prompt out of a label with --remove.
    #[cfg(feature = "registry")]
    #[command(after_long_help = registry::SOURCES)]
    Label(registry::Move),
    /// List a prompt's versions with their labels, digests, authors and
    /// times.
    #[cfg(feature = "registry")]
    #[command(after_long_help = registry::SOURCES)]
    Versions(registry::Versions),
    /// Print a completion script for SHELL: `source <(mcp-prompts
    /// completions bash)`.
    Completions {
        /// The shell to complete in.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// The options that only HTTP has.
#[derive(Debug, Default, Args)]
pub(super) struct OverHttp {
    /// With --http: no sessions (2026-07-28 and replicas).
    #[arg(long, requires = "http")]
    pub(super) stateless: bool,
    /// With --http: a page at http://ADDR/playground to try every prompt in
    /// a browser (over loopback only).
    #[arg(long, requires = "http")]
    pub(super) playground: bool,
    /// With --http: the metrics at http://ADDR/metrics for a Prometheus
    /// scrape (those OTLP exports; answered without a token, like the
    /// probes).
    #[arg(long, requires = "http")]
    pub(super) metrics: bool,
}

/// `serve DIR...` and its options.
#[derive(Debug, Args)]
pub(super) struct Serve {
    /// The folders of prompt files and skills, in the order given.
    #[arg(value_name = "DIR")]
    pub(super) dirs: Vec<PathBuf>,
    /// Serve Streamable HTTP at http://ADDR/mcp instead of stdio; a PORT
    /// alone listens on 127.0.0.1.
    #[arg(
        long,
        value_name = "ADDR | PORT",
        num_args = 0..=1,
        default_missing_value = DEFAULT_ADDR,
        value_parser = super::http_addr
    )]
    pub(super) http: Option<SocketAddr>,
    #[command(flatten)]
    pub(super) over_http: OverHttp,
    #[cfg(feature = "registry")]
    #[command(flatten)]
    pub(super) registry: registry::ServeRegistry,
    /// With --http: at a shutdown (SIGTERM, Ctrl-C), keep serving this many
    /// seconds with /readyz answering 503, so that a load balancer stops
    /// sending requests first (default 0).
    #[arg(long, value_name = "SECONDS", requires = "http", value_parser = seconds)]
    pub(super) drain_delay: Option<std::time::Duration>,
    /// Also offer the prompts as the tools list_prompts and get_prompt, for
    /// hosts that show no prompts.
    #[arg(long)]
    pub(super) prompts_as_tools: bool,
    /// Also offer each skill as a prompt named by its path (a.b.c), for
    /// hosts that know no skills.
    #[arg(long)]
    pub(super) skills_as_prompts: bool,
    #[command(flatten)]
    pub(super) auth: Auth,
    /// The most bytes of text one prompt's result may hold (default
    /// 4194304, 4 MiB); past it, -32602.
    #[arg(long, value_name = "N", value_parser = bytes)]
    pub(super) max_result_bytes: Option<usize>,
    /// The most bytes of answers (skills and their files) held for clients
    /// that have not read them, all connections together (default
    /// 268435456, 256 MiB); past it, -32603: the server is busy.
    #[arg(long, value_name = "N", value_parser = bytes)]
    pub(super) max_unsent_bytes: Option<usize>,
}

/// `--auth-issuer URL`, with `--auth-audience URL` and `--auth-jwks URL`:
/// bearer tokens verified on every HTTP request.
#[derive(Debug, Default, Args)]
pub(super) struct Auth {
    /// With --http: verify every request's bearer token, a JWT this issuer
    /// signs for http://ADDR/mcp.
    #[arg(long = "auth-issuer", value_name = "URL", requires = "http")]
    pub(super) issuer: Option<String>,
    /// The resource URL tokens must name, if not http://ADDR/mcp.
    #[arg(long = "auth-audience", value_name = "URL", requires = "issuer")]
    pub(super) audience: Option<String>,
    /// The issuer's keys, if not found from its metadata.
    #[arg(long = "auth-jwks", value_name = "URL", requires = "issuer")]
    pub(super) jwks: Option<String>,
}

/// `check DIR...` and its options.
#[derive(Debug, Args)]
pub(super) struct Check {
    /// The folders, read as `serve` reads them.
    #[arg(value_name = "DIR")]
    pub(super) dirs: Vec<PathBuf>,
    /// A warning fails the check too.
    #[arg(long)]
    pub(super) deny_warnings: bool,
    /// Read the skills as prompts too, as `serve --skills-as-prompts` serves
    /// them: a skill whose prompt name a prompt file or a compiled prompt
    /// has is a warning naming both (that prompt is served, not the
    /// skill's).
    #[arg(long)]
    pub(super) skills_as_prompts: bool,
    /// How the findings are printed.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(super) format: Format,
    /// Also compare the catalog with FILE (a catalog `catalog` wrote) and
    /// fail on a breaking change, as `diff` does.
    #[arg(long, value_name = "FILE")]
    pub(super) against: Option<PathBuf>,
    #[command(flatten)]
    pub(super) contract: ContractOptions,
}

/// `catalog DIR...` and `list DIR...`.
#[derive(Debug, Args)]
pub(super) struct Listed {
    /// The folders, read as `serve` reads them (mcp-prompts alone reads .
    /// when none is named).
    #[arg(value_name = "DIR")]
    pub(super) dirs: Vec<PathBuf>,
    /// Read the skills as prompts too, as `serve --skills-as-prompts`
    /// serves them (and `check --skills-as-prompts --against` compares).
    #[arg(long)]
    pub(super) skills_as_prompts: bool,
}

/// `diff OLD NEW` and its options.
#[derive(Debug, Args)]
pub(super) struct Diff {
    /// The catalog before: a file `catalog` wrote, or a folder.
    pub(super) old: PathBuf,
    /// The catalog after: a file `catalog` wrote, or a folder.
    pub(super) new: PathBuf,
    #[command(flatten)]
    pub(super) contract: ContractOptions,
    /// How the changes are printed.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(super) format: Format,
}

/// How a breaking change is taken.
#[derive(Debug, Default, Args)]
pub(super) struct ContractOptions {
    /// A breaking change does not fail (exit 0): it is intended.
    #[arg(long)]
    pub(super) allow_breaking: bool,
}

/// `render` and its options.
#[derive(Debug, Args)]
pub(super) struct Render {
    /// A folder the prompt is found in (default: .); give it again for
    /// more.
    #[arg(long = "dir", value_name = "DIR")]
    pub(super) dirs: Vec<PathBuf>,
    /// The prompt's name.
    pub(super) name: String,
    /// Its arguments, each ARG=VALUE.
    #[arg(value_name = "ARG=VALUE", value_parser = argument)]
    pub(super) arguments: Vec<(String, String)>,
    /// The answer to a question the prompt asks, FIELD=VALUE; give it again
    /// for more.
    #[arg(long = "answer", value_name = "FIELD=VALUE", value_parser = answer)]
    pub(super) answers: Vec<(String, String)>,
    /// How the result is printed: each message under its role, or the
    /// prompts/get result as JSON.
    #[arg(long, value_enum, default_value_t = RenderFormat::Text)]
    pub(super) format: RenderFormat,
    /// Render every combination of the prompt's arguments (each choice,
    /// each optional argument left out and given) into one document, for
    /// a snapshot.
    #[arg(long)]
    pub(super) matrix: bool,
    /// Print the prompt's text as it is, control characters and all.
    #[arg(long)]
    pub(super) raw: bool,
    /// The language to render it in (`Accept-Language` syntax: `fr`,
    /// `fr-CH, en;q=0.5`): its translation where it has one, else the
    /// default. With --format json the result names the language.
    #[arg(long, value_name = "LANG")]
    pub(super) lang: Option<String>,
}

/// `check --format`: how what it found is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum Format {
    /// `path:line: message`, a line each.
    Text,
    /// One JSON document.
    Json,
    /// GitHub Actions annotations (`::error file=..,line=..::..`).
    Github,
}

/// `render --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum RenderFormat {
    /// Each message under its role.
    Text,
    /// The `prompts/get` result.
    Json,
}

/// A number of seconds, whole or not.
fn seconds(value: &str) -> Result<std::time::Duration, String> {
    value
        .parse::<f64>()
        .ok()
        .and_then(|secs| std::time::Duration::try_from_secs_f64(secs).ok())
        .ok_or_else(|| "needs a number of seconds".to_owned())
}

/// A number of bytes, at least 1.
fn bytes(value: &str) -> Result<usize, String> {
    value
        .parse::<usize>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| "needs a number of bytes, at least 1".to_owned())
}

/// `ARG=VALUE`.
fn argument(value: &str) -> Result<(String, String), String> {
    pair(value, "ARG")
}

/// `FIELD=VALUE`.
fn answer(value: &str) -> Result<(String, String), String> {
    pair(value, "FIELD")
}

fn pair(word: &str, what: &str) -> Result<(String, String), String> {
    word.split_once('=')
        .map(|(key, value)| (key.to_owned(), value.to_owned()))
        .ok_or_else(|| format!("`{word}` is no {what}=VALUE"))
}

/// The command line for `program` (the binary's name) of `version`: as
/// declared, with a folder required by every command if `needs_folders`
/// (the catalog has nothing of its own).
pub(super) fn command_line(program: &str, version: &str, needs_folders: bool) -> clap::Command {
    let command = CommandLine::command()
        .name(program.to_owned())
        .bin_name(program.to_owned())
        .version(version.to_owned());
    if !needs_folders {
        return command;
    }
    let required = |command: clap::Command| command.mut_arg("dirs", |dirs| dirs.required(true));
    // A registry is something to serve too.
    #[cfg(feature = "registry")]
    let serve_required = |command: clap::Command| {
        command.mut_arg("dirs", |dirs| dirs.required_unless_present("registry"))
    };
    #[cfg(not(feature = "registry"))]
    let serve_required = required;
    command
        .mut_subcommand("serve", serve_required)
        .mut_subcommand("check", required)
}

/// What `words` (the arguments after the program's name) ask of
/// `program`; `None`: no command. `render`, `catalog` and `list` read `.`
/// when they name no folder and `needs_folders`.
pub(super) fn parse(
    program: &str,
    version: &str,
    words: impl IntoIterator<Item = String>,
    needs_folders: bool,
) -> Result<Option<Command>, clap::Error> {
    let all = std::iter::once(program.to_owned()).chain(self::words(words));
    let matches = command_line(program, version, needs_folders).try_get_matches_from(all)?;
    let mut parsed = CommandLine::from_arg_matches(&matches)?.command;
    let dirs = match &mut parsed {
        Some(Command::Render(render)) => Some(&mut render.dirs),
        Some(Command::Catalog(listed) | Command::List(listed)) => Some(&mut listed.dirs),
        _ => None,
    };
    if let Some(dirs) = dirs {
        if dirs.is_empty() && needs_folders {
            dirs.push(PathBuf::from("."));
        }
    }
    Ok(parsed)
}

/// The words of a command line as clap reads them: `--http` followed by a
/// word that is neither a port nor an address (the folder, say) takes no
/// value, as `serve --http prompts` means.
fn words(words: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut words: Vec<String> = words.into_iter().collect();
    for at in 0..words.len() {
        // A port, an address or the next option: clap reads it right.
        let read_right = words
            .get(at + 1)
            .is_none_or(|next| next.starts_with('-') || super::http_addr(next).is_ok());
        if words[at] == "--http" && !read_right {
            words[at] = format!("--http={DEFAULT_ADDR}");
        }
    }
    words
}

#[cfg(feature = "registry")]
#[path = "args/registry.rs"]
pub(super) mod registry;

#[cfg(test)]
#[path = "args/tests.rs"]
mod tests;
