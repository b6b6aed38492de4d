//! `publish`, `label` and `versions`: a registry's versions and labels
//! from the command line (feature `registry`).

use std::fmt::Write as _;
use std::io::{Error, ErrorKind};

use super::args::registry::{Move, Publish, Versions, VersionsFormat};
use super::escape;
use super::folders::Folders;
use crate::files::PromptDir;
use crate::registry::{Registry, RegistryError, name_at_version};
use crate::server::Server;

/// The `author` given, else the user's login name.
fn author(given: Option<&String>) -> String {
    given
        .cloned()
        .or_else(|| std::env::var("USER").ok())
        .or_else(|| std::env::var("USERNAME").ok())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "unknown".to_owned())
}

/// What a registry's error makes of the command: a message and exit 1 for
/// what the user named (a version, a prompt not there), an error (exit 2)
/// for a URL or a database that cannot be used.
fn outcome(program: &str, err: RegistryError) -> std::io::Result<i32> {
    match err {
        RegistryError::Unknown(_) | RegistryError::Refused(_) => {
            for line in err.to_string().lines() {
                eprintln!("{program}: {}", escape::line(line));
            }
            Ok(1)
        }
        err => Err(Error::new(ErrorKind::InvalidInput, err.to_string())),
    }
}

/// Reads and checks the folders as `check` does; with no problem,
/// publishes their prompts and moves the labels. The exit code: 0
/// published, 1 a problem (nothing published).
pub(super) async fn publish(server: Server, publish: &Publish) -> std::io::Result<i32> {
    let program = "publish";
    for dir in &publish.dirs {
        if super::folders::is_registry(dir) || !dir.is_dir() {
            return Err(Error::new(
                ErrorKind::NotFound,
                format!("`{}` is not a folder", dir.display()),
            ));
        }
    }
    let folders = Folders::of(&publish.dirs);
    let (service, dirs) = super::folders::load(server, &folders)?;
    let problems: Vec<String> = (folders.problems().iter())
        .chain(
            dirs.iter()
                .flat_map(PromptDir::problems)
                .collect::<Vec<_>>()
                .iter(),
        )
        .map(ToString::to_string)
        .chain(service.skill_problems())
        .collect();
    if !problems.is_empty() {
        for problem in &problems {
            println!("{}", escape::line(problem));
        }
        eprintln!(
            "{program}: nothing published: {} problem(s) (`check` says the same)",
            problems.len()
        );
        return Ok(1);
    }
    let stored: Vec<_> = dirs.iter().flat_map(PromptDir::stored).collect();
    if stored.is_empty() {
        eprintln!(
            "{program}: nothing published: the folders hold no prompt files ({})",
            escape::line(&folders.describe())
        );
        return Ok(1);
    }
    let registry = match Registry::open(&publish.registry).await {
        Ok(registry) => registry,
        Err(err) => return outcome(program, err),
    };
    let author = author(publish.author.as_ref());
    let published = registry.publish(stored, &publish.labels, &author).await;
    registry.close().await;
    let published = match published {
        Ok(published) => published,
        Err(err) => return outcome(program, err),
    };
    for prompt in &published {
        println!("{prompt}");
    }
    let new = published.iter().filter(|p| p.is_new()).count();
    let mut said = format!(
        "{program}: {} prompt(s), {new} new version(s), to {}",
        published.len(),
        registry.location()
    );
    if !publish.labels.is_empty() {
        let _ = write!(said, "; labels moved: {}", publish.labels.join(", "));
    }
    eprintln!("{said}");
    Ok(0)
}

/// Moves a label, or takes a prompt out of one.
pub(super) async fn label(label: &Move) -> std::io::Result<i32> {
    let program = "label";
    let target = if label.remove {
        None
    } else {
        match name_at_version(&label.target) {
            Ok(target) => Some(target),
            Err(err) => return Err(Error::new(ErrorKind::InvalidInput, err.to_string())),
        }
    };
    let registry = match Registry::open_existing(&label.registry).await {
        Ok(registry) => registry,
        Err(err) => return outcome(program, err),
    };
    let by = author(label.author.as_ref());
    let done = match &target {
        Some((name, version)) => registry
            .move_label(name, *version, &label.label, &by)
            .await
            .map(|()| format!("{}: {name}@{version}", label.label)),
        None => registry
            .remove_label(&label.target, &label.label)
            .await
            .map(|()| format!("{}: {} removed", label.label, label.target)),
    };
    registry.close().await;
    match done {
        Ok(said) => {
            println!("{}", escape::line(&said));
            Ok(0)
        }
        Err(err) => outcome(program, err),
    }
}

/// Lists a prompt's versions.
pub(super) async fn versions(versions: &Versions) -> std::io::Result<i32> {
    let program = "versions";
    let registry = match Registry::open_existing(&versions.registry).await {
        Ok(registry) => registry,
        Err(err) => return outcome(program, err),
    };
    let listed = registry.versions(&versions.name).await;
    registry.close().await;
    let listed = match listed {
        Ok(listed) => listed,
        Err(err) => return outcome(program, err),
    };
    match versions.format {
        VersionsFormat::Text => {
            for version in &listed {
                let labels = version.labels().join(",");
                let labels = if labels.is_empty() {
                    "-".to_owned()
                } else {
                    labels
                };
                println!(
                    "{}",
                    escape::line(&format!(
                        "{}@{}  {labels}  {}  {}  {}",
                        version.name(),
                        version.version(),
                        version.digest(),
                        version.author(),
                        version.published_at()
                    ))
                );
            }
        }
        VersionsFormat::Json => {
            let rows: Vec<serde_json::Value> = (listed.iter())
                .map(|v| {
                    serde_json::json!({
                        "name": v.name(),
                        "version": v.version(),
                        "labels": v.labels(),
                        "digest": v.digest(),
                        "author": v.author(),
                        "publishedAt": v.published_at(),
                    })
                })
                .collect();
            let document = serde_json::json!({ "versions": rows });
            // Control and bidi characters as `\uXXXX`: a name or an
            // author cannot write to the terminal.
            println!("{}", escape::json(&format!("{document:#}")));
        }
    }
    Ok(0)
}
