//! `catalog`, `list` and `diff`: the catalog as a document to commit, as
//! lines for people, and the changes between two, classified; and what
//! `check --against` adds to `check`.

use std::fmt::Write as _;
use std::io::{Error, ErrorKind};
use std::path::Path;

use super::args::{Diff, Format, Listed};
use super::escape;
use super::folders::Folders;
use crate::contract::{ChangeClass, Changes, Contract};
use crate::server::Server;

/// `catalog`: the document on stdout.
pub(super) fn catalog(server: Server, listed: &Listed) -> std::io::Result<i32> {
    // Names in the document are written as JSON escapes where they would
    // move the terminal (C1 controls, bidirectional controls): the same
    // document, read back.
    print!("{}", escape::json(&read_folders(server, listed)?.to_json()));
    Ok(0)
}

/// `list`: a line per prompt and per skill.
pub(super) fn list(server: Server, listed: &Listed) -> std::io::Result<i32> {
    let contract = read_folders(server, listed)?;
    let mut out = String::new();
    for prompt in contract.prompts() {
        let mut line = prompt.name().to_owned();
        if let Some(title) = prompt.title() {
            let _ = write!(line, "  {title}");
        }
        for arg in prompt.arguments() {
            let optional = if arg.required() { "" } else { "?" };
            let _ = write!(line, "  {}{optional}", arg.name());
        }
        let _ = writeln!(out, "{}", escape::line(&line));
    }
    for skill in contract.skills() {
        let about = skill.description().lines().next().unwrap_or_default();
        let _ = writeln!(
            out,
            "{}",
            escape::line(&format!("{}  {about}", skill.uri()))
        );
    }
    print!("{out}");
    Ok(0)
}

/// `diff OLD NEW`: each change; 1 if one breaks and that is not allowed.
pub(super) fn diff(server: &Server, diff: &Diff) -> std::io::Result<i32> {
    let old = read_catalog(server, &diff.old)?;
    let new = read_catalog(server, &diff.new)?;
    let changes = Changes::between(&old, &new);
    print!("{}", report(&changes, diff.format));
    Ok(outcome(&changes, diff.contract.allow_breaking))
}

/// The exit code for `changes`: 1 if one breaks and that is not allowed.
pub(super) fn outcome(changes: &Changes, allow_breaking: bool) -> i32 {
    i32::from(changes.is_breaking() && !allow_breaking)
}

/// The largest catalog file read: a catalog of 10,000 prompts with long
/// descriptions takes a few megabytes, and holding a document takes
/// about 25 times its size.
const MAX_CATALOG_BYTES: u64 = 16 << 20;

/// The catalog in the file `path`.
pub(super) fn read_file(path: &Path) -> std::io::Result<Contract> {
    let failed =
        |err: std::io::Error| Error::new(err.kind(), format!("`{}`: {err}", path.display()));
    let file = std::fs::File::open(path).map_err(failed)?;
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut std::io::Read::take(file, MAX_CATALOG_BYTES + 1),
        &mut text,
    )
    .map_err(failed)?;
    if text.len() as u64 > MAX_CATALOG_BYTES {
        return Err(Error::new(
            ErrorKind::InvalidData,
            format!(
                "`{}` is over {} MiB: no catalog file is",
                path.display(),
                MAX_CATALOG_BYTES >> 20
            ),
        ));
    }
    Contract::from_json(&text).map_err(|err| {
        Error::new(
            ErrorKind::InvalidData,
            format!("`{}`: {err}", path.display()),
        )
    })
}

/// The catalog at `path`: a folder (or a registry's `URL#LABEL`) read as
/// `catalog` reads it, or a file.
fn read_catalog(server: &Server, path: &Path) -> std::io::Result<Contract> {
    if path.is_dir() || super::folders::is_registry(path) {
        let listed = Listed {
            dirs: vec![path.to_path_buf()],
            skills_as_prompts: false,
        };
        read_folders(server.clone(), &listed)
    } else {
        read_file(path)
    }
}

/// The catalog with the folders' prompts and skills, as a document.
fn read_folders(mut server: Server, listed: &Listed) -> std::io::Result<Contract> {
    if listed.skills_as_prompts {
        server = server.skills_as_prompts();
    }
    let dirs = &listed.dirs;
    super::folders::check_dirs(dirs)?;
    // The folders' prompts are served while their `PromptDir`s live.
    let (service, prompt_dirs) = super::folders::load(server, &Folders::of(dirs))?;
    // A file that cannot be served is not in the catalog: say why.
    for problem in prompt_dirs
        .iter()
        .flat_map(crate::files::PromptDir::problems)
    {
        let place = match problem.line {
            Some(line) => format!("{}:{line}", problem.path.display()),
            None => problem.path.display().to_string(),
        };
        eprintln!(
            "{}",
            escape::line(&format!("not in the catalog: {place}: {}", problem.message))
        );
    }
    Ok(Contract::of(&service))
}

/// `changes` in `format`.
pub(super) fn report(changes: &Changes, format: Format) -> String {
    match format {
        Format::Text => {
            let mut out = String::new();
            for line in changes.to_string().lines() {
                let _ = writeln!(out, "{}", escape::line(line));
            }
            out
        }
        Format::Json => {
            let json = serde_json::to_string_pretty(changes).unwrap_or_default();
            format!("{}\n", escape::json(&json))
        }
        Format::Github => github(changes),
    }
}

/// Workflow commands: `::error` for a breaking change, `::notice` for the
/// others, at the new definition where it is known.
fn github(changes: &Changes) -> String {
    let mut out = String::new();
    for change in changes.iter() {
        let level = match change.kind().class() {
            ChangeClass::Breaking => "error",
            _ => "notice",
        };
        let mut properties = format!(
            "title={}",
            escape::workflow_property(change.kind().as_str())
        );
        if let Some(place) = change.place() {
            let (file, line) = match place.rsplit_once(':') {
                Some((file, line)) if line.parse::<u32>().is_ok() => (file, Some(line)),
                _ => (place, None),
            };
            let _ = write!(properties, ",file={}", escape::workflow_property(file));
            if let Some(line) = line {
                let _ = write!(properties, ",line={line}");
            }
        }
        let message = escape::workflow_data(change.message());
        let _ = writeln!(out, "::{level} {properties}::{message}");
    }
    out
}
