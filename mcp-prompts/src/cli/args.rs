//! The command line: `mcp-prompts serve DIR [options]`.

use std::net::SocketAddr;
use std::path::PathBuf;

/// What `--help` prints.
pub(super) const USAGE: &str = "\
Serve folders of prompt files over MCP, kept in step with the folders; or
check them.

Usage: mcp-prompts serve DIR... [OPTIONS]
       mcp-prompts check DIR... [--deny-warnings] [--format text|json|github]
                         [--skills-as-prompts]
       mcp-prompts render [--dir DIR]... NAME [ARG=VALUE]... [--answer FIELD=VALUE]...
                          [--format text|json] [--matrix] [--raw]

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
Several folders make one catalog; a name two of them serve is a problem.

render prints what prompt NAME gives for the arguments (each message under
its role, or the prompts/get result with --format json), reading the folders
given with --dir (default: .); a bad value fails as the server would. When
the prompt asks its user, the question is asked on the terminal, or answered
from --answer FIELD=VALUE. --matrix renders every combination of the
prompt's arguments (each choice, each optional argument left out and given)
into one document, for a snapshot. Control characters in a prompt's text
(ESC, a carriage return alone) and bidirectional controls are printed as
escapes (`\\u{1b}`); --raw prints the text as it is.

check reads the folders as serve does and prints every problem and warning
as `path:line: message`; it exits 1 if there is a problem (or, with
--deny-warnings, a warning). --format json prints one JSON document;
--format github prints GitHub Actions annotations. A file or folder name
with a control character (a newline, ESC) prints it escaped (`\\n`).
With --skills-as-prompts, as serve with it, a skill whose prompt name a
prompt file or a compiled prompt has is a warning naming both: that prompt
is served, not the skill's.

Options:
  --http [ADDR | PORT]     serve Streamable HTTP at http://ADDR/mcp (default
                           127.0.0.1:8080) instead of stdio
  --stateless              with --http: no sessions (2026-07-28 and replicas)
  --playground             with --http: a page at http://ADDR/playground to try
                           every prompt in a browser (over loopback only)
  --prompts-as-tools       also offer the prompts as the tools list_prompts and
                           get_prompt, for hosts that show no prompts
  --skills-as-prompts      also offer each skill as a prompt named by its path
                           (a.b.c), for hosts that know no skills
  --max-result-bytes N     the most bytes of text one prompt's result may hold
                           (default 4194304, 4 MiB); past it, -32602
  --max-unsent-bytes N     the most bytes of answers (skills and their files)
                           held for clients that have not read them, all
                           connections together (default 268435456, 256 MiB);
                           past it, -32603: the server is busy
  --auth-issuer URL        with --http: verify every request's bearer token,
                           a JWT this issuer signs for http://ADDR/mcp
  --auth-audience URL      the resource URL tokens must name, if another
  --auth-jwks URL          the issuer's keys, if not found from its metadata
  -h, --help               print this help
  -V, --version            print the version

Environment:
  MCP_PROMPTS_REQUEST_STATE_SECRET  the key (32 bytes at least) that signs
                           2026-07-28 question rounds; give replicas the same
  RUST_LOG                 what is logged on stderr (default: warn;
                           mcp_prompts=info: a line per request)
  OTEL_EXPORTER_OTLP_ENDPOINT  export traces and metrics over OTLP/HTTP to
                           this collector (with the other OTEL_* variables);
                           nothing is sent without it";

/// Where `--http` without an address listens.
const DEFAULT_ADDR: &str = "127.0.0.1:8080";

/// What the command line asks for.
#[derive(Debug)]
pub(super) enum Command {
    /// `serve DIR... [OPTIONS]`.
    Serve(Serve),
    /// `check DIR... [OPTIONS]`.
    Check(Check),
    /// `render [--dir DIR]... NAME [ARG=VALUE]...`.
    Render(Render),
    /// `--help`, or nothing.
    Help,
    /// `--version`.
    Version,
}

/// The options that only HTTP has.
#[derive(Debug, Default)]
pub(super) struct OverHttp {
    /// No sessions.
    pub(super) stateless: bool,
    /// The playground page beside the endpoint.
    pub(super) playground: bool,
}

/// `serve DIR...` and its options.
#[derive(Debug)]
pub(super) struct Serve {
    /// The folders of prompt files, in the order given.
    pub(super) dirs: Vec<PathBuf>,
    /// Where to serve Streamable HTTP; stdio if `None`.
    pub(super) http: Option<SocketAddr>,
    /// How HTTP is served, when it is.
    pub(super) over_http: OverHttp,
    /// The prompt tools too.
    pub(super) prompts_as_tools: bool,
    /// `--skills-as-prompts`: each skill also served as a prompt.
    pub(super) skills_as_prompts: bool,
    /// Bearer tokens verified on every HTTP request.
    pub(super) auth: Option<Auth>,
    /// The limit on one prompt's result, if not the default.
    pub(super) max_result_bytes: Option<usize>,
    /// The limit on answers held for clients that have not read them, if
    /// not the default.
    pub(super) max_unsent_bytes: Option<usize>,
}

/// `check DIR...` and its options.
#[derive(Debug)]
pub(super) struct Check {
    /// The folders, read as `serve` reads them.
    pub(super) dirs: Vec<PathBuf>,
    /// `--deny-warnings`: a warning fails the check too.
    pub(super) deny_warnings: bool,
    /// `--skills-as-prompts`: the skills read as prompts too, as `serve`
    /// with it serves them.
    pub(super) skills_as_prompts: bool,
    /// How the findings are printed.
    pub(super) format: Format,
}

/// `render` and its options.
#[derive(Debug)]
pub(super) struct Render {
    /// The folders the prompt is found in (`.` if none is given).
    pub(super) dirs: Vec<PathBuf>,
    /// The prompt's name.
    pub(super) name: String,
    /// `ARG=VALUE`, in order.
    pub(super) arguments: Vec<(String, String)>,
    /// `--answer FIELD=VALUE`: answers to the prompt's questions.
    pub(super) answers: Vec<(String, String)>,
    /// `--format json`: the `prompts/get` result as JSON.
    pub(super) json: bool,
    /// `--matrix`: every combination of the arguments.
    pub(super) matrix: bool,
    /// `--raw`: the prompt's text printed as it is, control characters
    /// and all.
    pub(super) raw: bool,
}

/// `--format`: how `check` prints what it found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Format {
    /// `path:line: message`, a line each.
    Text,
    /// One JSON document.
    Json,
    /// GitHub Actions workflow commands (`::error file=..,line=..::..`).
    Github,
}

/// `--auth-issuer URL`, with `--auth-audience URL` and `--auth-jwks URL`.
#[derive(Debug)]
pub(super) struct Auth {
    /// Who signs the tokens.
    pub(super) issuer: String,
    /// The resource URL tokens name, if not `http://ADDR/mcp`.
    pub(super) audience: Option<String>,
    /// Where the issuer's keys are, if not found from its metadata.
    pub(super) jwks: Option<String>,
}

impl Command {
    /// Reads `words` (the arguments after the program's name); without
    /// `needs_folders` (a binary with prompts of its own), a command may
    /// name no folder.
    pub(super) fn parse(
        words: impl IntoIterator<Item = String>,
        needs_folders: bool,
    ) -> Result<Self, String> {
        let mut words = words.into_iter().peekable();
        match words.next().as_deref() {
            Some("-h" | "--help") | None => return Ok(Self::Help),
            Some("-V" | "--version") => return Ok(Self::Version),
            Some("serve") => {}
            Some("check") => return Self::parse_check(words, needs_folders),
            Some("render") => return Self::parse_render(words, needs_folders),
            Some(other) => {
                return Err(format!(
                    "unknown command `{other}`; try `serve DIR` or `check DIR`"
                ));
            }
        }
        let mut dirs = Vec::new();
        let mut serve = Serve {
            dirs: Vec::new(),
            http: None,
            over_http: OverHttp::default(),
            prompts_as_tools: false,
            skills_as_prompts: false,
            auth: None,
            max_result_bytes: None,
            max_unsent_bytes: None,
        };
        let (mut issuer, mut audience, mut jwks) = (None, None, None);
        while let Some(word) = words.next() {
            match word.as_str() {
                "-h" | "--help" => return Ok(Self::Help),
                "-V" | "--version" => return Ok(Self::Version),
                "--http" => {
                    // `--http`, `--http 9000`, `--http 0.0.0.0:9000`; a word
                    // that is neither (the folder, say) is not its value.
                    let value = words.next_if(|next| {
                        next.parse::<u16>().is_ok() || next.parse::<SocketAddr>().is_ok()
                    });
                    let addr = match value {
                        None => DEFAULT_ADDR.to_owned(),
                        Some(port) if port.parse::<u16>().is_ok() => format!("127.0.0.1:{port}"),
                        Some(addr) => addr,
                    };
                    let addr = addr
                        .parse()
                        .map_err(|err| format!("--http {addr}: {err}"))?;
                    serve.http = Some(addr);
                }
                "--stateless" => serve.over_http.stateless = true,
                "--playground" => serve.over_http.playground = true,
                "--prompts-as-tools" => serve.prompts_as_tools = true,
                "--skills-as-prompts" => serve.skills_as_prompts = true,
                "--max-result-bytes" => {
                    let value = words.next_if(|next| !next.starts_with('-'));
                    let bytes = value.and_then(|v| v.parse::<usize>().ok().filter(|n| *n > 0));
                    let bytes = bytes.ok_or("--max-result-bytes needs a number of bytes")?;
                    serve.max_result_bytes = Some(bytes);
                }
                "--max-unsent-bytes" => {
                    let value = words.next_if(|next| !next.starts_with('-'));
                    let bytes = value.and_then(|v| v.parse::<usize>().ok().filter(|n| *n > 0));
                    let bytes = bytes.ok_or("--max-unsent-bytes needs a number of bytes")?;
                    serve.max_unsent_bytes = Some(bytes);
                }
                "--auth-issuer" | "--auth-audience" | "--auth-jwks" => {
                    let url = words.next_if(|next| !next.starts_with('-'));
                    let url = url.ok_or_else(|| format!("{word} needs a URL"))?;
                    *match word.as_str() {
                        "--auth-issuer" => &mut issuer,
                        "--auth-audience" => &mut audience,
                        _ => &mut jwks,
                    } = Some(url);
                }
                flag if flag.starts_with('-') => return Err(format!("unknown option `{flag}`")),
                path => dirs.push(PathBuf::from(path)),
            }
        }
        if dirs.is_empty() && needs_folders {
            return Err("serve needs a folder: `mcp-prompts serve DIR`".into());
        }
        serve.dirs = dirs;
        serve.auth = match (issuer, serve.http) {
            (Some(_), None) => {
                return Err("--auth-issuer verifies HTTP requests: add --http".into());
            }
            (Some(issuer), Some(_)) => Some(Auth {
                issuer,
                audience,
                jwks,
            }),
            (None, _) if audience.is_some() || jwks.is_some() => {
                return Err("--auth-audience and --auth-jwks need --auth-issuer".into());
            }
            (None, _) => None,
        };
        if serve.over_http.stateless && serve.http.is_none() {
            return Err("--stateless is a way to serve HTTP: add --http".into());
        }
        if serve.over_http.playground && serve.http.is_none() {
            return Err("--playground is a page beside the HTTP endpoint: add --http".into());
        }
        Ok(Self::Serve(serve))
    }

    /// Reads `render`'s words.
    fn parse_render(
        words: impl Iterator<Item = String>,
        needs_folders: bool,
    ) -> Result<Self, String> {
        let mut words = words.peekable();
        let mut render = Render {
            dirs: Vec::new(),
            name: String::new(),
            arguments: Vec::new(),
            answers: Vec::new(),
            json: false,
            matrix: false,
            raw: false,
        };
        let pair = |word: &str, what: &str| {
            word.split_once('=')
                .map(|(key, value)| (key.to_owned(), value.to_owned()))
                .ok_or_else(|| format!("`{word}` is no {what}=VALUE"))
        };
        while let Some(word) = words.next() {
            match word.as_str() {
                "-h" | "--help" => return Ok(Self::Help),
                "--dir" => {
                    let dir = words.next().ok_or("--dir needs a folder")?;
                    render.dirs.push(PathBuf::from(dir));
                }
                "--matrix" => render.matrix = true,
                "--raw" => render.raw = true,
                "--answer" => {
                    let answer = words.next().ok_or("--answer needs FIELD=VALUE")?;
                    render.answers.push(pair(&answer, "FIELD")?);
                }
                "--format" => {
                    render.json = match words.next().as_deref() {
                        Some("text") => false,
                        Some("json") => true,
                        _ => return Err("render's --format takes text or json".into()),
                    };
                }
                flag if flag.starts_with('-') => return Err(format!("unknown option `{flag}`")),
                name if render.name.is_empty() => name.clone_into(&mut render.name),
                argument => render.arguments.push(pair(argument, "ARG")?),
            }
        }
        if render.name.is_empty() {
            return Err("render needs a prompt's name: `mcp-prompts render NAME`".into());
        }
        if render.dirs.is_empty() && needs_folders {
            render.dirs.push(PathBuf::from("."));
        }
        Ok(Self::Render(render))
    }

    /// Reads `check`'s words.
    fn parse_check(
        words: impl Iterator<Item = String>,
        needs_folders: bool,
    ) -> Result<Self, String> {
        let mut words = words.peekable();
        let mut check = Check {
            dirs: Vec::new(),
            deny_warnings: false,
            skills_as_prompts: false,
            format: Format::Text,
        };
        while let Some(word) = words.next() {
            match word.as_str() {
                "-h" | "--help" => return Ok(Self::Help),
                "-V" | "--version" => return Ok(Self::Version),
                "--deny-warnings" => check.deny_warnings = true,
                "--skills-as-prompts" => check.skills_as_prompts = true,
                "--format" => {
                    check.format = match words.next().as_deref() {
                        Some("text") => Format::Text,
                        Some("json") => Format::Json,
                        Some("github") => Format::Github,
                        _ => return Err("--format takes text, json or github".into()),
                    };
                }
                flag if flag.starts_with('-') => return Err(format!("unknown option `{flag}`")),
                path => check.dirs.push(PathBuf::from(path)),
            }
        }
        if check.dirs.is_empty() && needs_folders {
            return Err("check needs a folder: `mcp-prompts check DIR`".into());
        }
        Ok(Self::Check(check))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Command, String> {
        Command::parse(line.split_whitespace().map(str::to_owned), true)
    }

    #[test]
    fn options_are_read_and_mistakes_named() {
        let Ok(Command::Serve(serve)) = parse("serve prompts --http 9000 --prompts-as-tools")
        else {
            panic!("not a serve command");
        };
        assert_eq!(serve.dirs, [PathBuf::from("prompts")]);
        assert_eq!(serve.http, Some("127.0.0.1:9000".parse().unwrap()));
        assert!(serve.prompts_as_tools && !serve.over_http.stateless);
        assert!(matches!(parse("--help"), Ok(Command::Help)));
        assert!(matches!(parse(""), Ok(Command::Help)));
        assert!(parse("serve").unwrap_err().contains("needs a folder"));
        let Ok(Command::Serve(two)) = parse("serve a b --prompts-as-tools") else {
            panic!("two folders");
        };
        assert_eq!(two.dirs, [PathBuf::from("a"), PathBuf::from("b")]);
        assert!(parse("serve a --nope").unwrap_err().contains("`--nope`"));
        assert!(
            parse("serve a --auth-issuer https://x")
                .unwrap_err()
                .contains("--http")
        );
        assert!(parse("serve a --stateless").unwrap_err().contains("--http"));
        assert!(parse("run a").unwrap_err().contains("`run`"));
        // `--http` takes a port or an address, not the folder after it.
        let Ok(Command::Serve(serve)) = parse("serve --http prompts") else {
            panic!("not a serve command");
        };
        assert_eq!(serve.dirs, [PathBuf::from("prompts")]);
        assert_eq!(serve.http, Some(DEFAULT_ADDR.parse().unwrap()));
        let Ok(Command::Serve(capped)) = parse("serve a --max-result-bytes 1024") else {
            panic!("--max-result-bytes");
        };
        assert_eq!(capped.max_result_bytes, Some(1024));
        let Ok(Command::Serve(held)) = parse("serve a --max-unsent-bytes 65536") else {
            panic!("--max-unsent-bytes");
        };
        assert_eq!(
            (held.max_unsent_bytes, capped.max_unsent_bytes),
            (Some(65536), None)
        );
        let no_number = parse("serve a --max-unsent-bytes 0").unwrap_err();
        assert!(no_number.contains("number of bytes"), "{no_number}");
        let no_number = parse("serve a --max-result-bytes lots").unwrap_err();
        assert!(no_number.contains("number of bytes"), "{no_number}");
        let no_url = parse("serve a --http --auth-issuer --stateless").unwrap_err();
        assert!(no_url.contains("needs a URL"), "{no_url}");
        assert!(matches!(parse("serve a -V"), Ok(Command::Version)));
    }

    #[test]
    fn render_takes_a_name_arguments_answers_and_folders() {
        let line = "render --dir a review language=rust code=x=1 --answer env=prod --format json";
        let Ok(Command::Render(render)) = parse(line) else {
            panic!("not a render command");
        };
        assert_eq!(render.dirs, [PathBuf::from("a")]);
        assert_eq!(render.name, "review");
        let pairs = |list: &[(String, String)]| {
            list.iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
        };
        assert_eq!(pairs(&render.arguments), ["language=rust", "code=x=1"]);
        assert_eq!(pairs(&render.answers), ["env=prod"]);
        assert!(render.json && !render.raw);
        let Ok(Command::Render(here)) = parse("render greet --raw") else {
            panic!("render greet");
        };
        assert_eq!(here.dirs, [PathBuf::from(".")]);
        assert!(here.raw);
        assert!(parse("render").unwrap_err().contains("needs a prompt"));
        assert!(
            parse("render greet name")
                .unwrap_err()
                .contains("ARG=VALUE")
        );
        assert!(
            parse("render greet --answer x")
                .unwrap_err()
                .contains("FIELD=VALUE")
        );
    }

    #[test]
    fn check_takes_folders_a_format_and_deny_warnings() {
        let Ok(Command::Check(check)) = parse("check a b --format github --deny-warnings") else {
            panic!("not a check command");
        };
        assert_eq!(check.dirs, [PathBuf::from("a"), PathBuf::from("b")]);
        assert_eq!(check.format, Format::Github);
        assert!(check.deny_warnings && !check.skills_as_prompts);
        let Ok(Command::Check(bridged)) = parse("check a --skills-as-prompts") else {
            panic!("check --skills-as-prompts");
        };
        assert!(bridged.skills_as_prompts);
        let Ok(Command::Check(plain)) = parse("check a") else {
            panic!("check a");
        };
        assert_eq!(plain.format, Format::Text);
        assert!(!plain.deny_warnings);
        assert!(parse("check").unwrap_err().contains("needs a folder"));
        assert!(
            parse("check a --format yaml")
                .unwrap_err()
                .contains("text, json or github")
        );
        assert!(parse("check a --http").unwrap_err().contains("`--http`"));
    }
}
