//! The registry's commands and options (feature `registry`): `publish`,
//! `label`, `versions`, and what `serve` takes to serve a registry.

// The doc comments below are the commands' `--help` text, printed as
// written.
#![allow(clippy::doc_markdown)]

use std::path::PathBuf;

use clap::{Args, ValueEnum};

/// What a registry source is, which the commands' `--help` says.
pub(in crate::cli) const SOURCES: &str = "\
A registry is `sqlite:PATH` (one file, created on first use) or
`postgres://USER@HOST/DATABASE`. Wherever a DIR is read (serve, check, render
--dir, catalog, list, diff), URL#LABEL reads the versions LABEL points at
(`sqlite:prompts.db#staging`; `#production` when no label is given).";

/// `publish DIR... --registry URL [--label LABEL]...`.
#[derive(Debug, Args)]
pub(in crate::cli) struct Publish {
    /// The folders of prompt files, read and checked as `check` reads them.
    #[arg(value_name = "DIR", required = true)]
    pub(in crate::cli) dirs: Vec<PathBuf>,
    /// The registry: sqlite:PATH or postgres://USER@HOST/DATABASE.
    #[arg(long, value_name = "URL")]
    pub(in crate::cli) registry: String,
    /// Move LABEL to each published prompt's version (new, or current when
    /// unchanged); give it again for more.
    #[arg(long = "label", value_name = "LABEL", value_parser = movable_label)]
    pub(in crate::cli) labels: Vec<String>,
    /// Who publishes, recorded with each new version and label move
    /// (default: $USER).
    #[arg(long, value_name = "NAME")]
    pub(in crate::cli) author: Option<String>,
}

/// `label --registry URL NAME@VERSION LABEL`, or `--remove NAME LABEL`.
#[derive(Debug, Args)]
pub(in crate::cli) struct Move {
    /// The registry: sqlite:PATH or postgres://USER@HOST/DATABASE.
    #[arg(long, value_name = "URL")]
    pub(in crate::cli) registry: String,
    /// Take prompt NAME out of LABEL instead (it is no longer served there).
    #[arg(long)]
    pub(in crate::cli) remove: bool,
    /// The version LABEL is to point at, NAME@VERSION (`review@3`); with
    /// --remove, the prompt's NAME.
    #[arg(value_name = "NAME@VERSION")]
    pub(in crate::cli) target: String,
    /// The label to move (any but `latest`, which is always the newest).
    #[arg(value_name = "LABEL", value_parser = movable_label)]
    pub(in crate::cli) label: String,
    /// Who moves it, recorded with the move (default: $USER).
    #[arg(long, value_name = "NAME")]
    pub(in crate::cli) author: Option<String>,
}

/// `versions --registry URL NAME`.
#[derive(Debug, Args)]
pub(in crate::cli) struct Versions {
    /// The registry: sqlite:PATH or postgres://USER@HOST/DATABASE.
    #[arg(long, value_name = "URL")]
    pub(in crate::cli) registry: String,
    /// The prompt's name.
    pub(in crate::cli) name: String,
    /// How the versions are printed.
    #[arg(long, value_enum, default_value_t = VersionsFormat::Text)]
    pub(in crate::cli) format: VersionsFormat,
}

/// `versions --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(in crate::cli) enum VersionsFormat {
    /// A line per version: NAME@VERSION, labels, digest, author, time.
    Text,
    /// One JSON document.
    Json,
}

/// What `serve` takes to serve a registry.
#[derive(Debug, Default, Args)]
pub(in crate::cli) struct ServeRegistry {
    /// Serve the versions --label points at in this registry, kept in step
    /// (sqlite:PATH or postgres://USER@HOST/DATABASE), beside the folders,
    /// whose names win.
    #[arg(long, value_name = "URL")]
    pub(in crate::cli) registry: Option<String>,
    /// The label served (default: production).
    #[arg(long, value_name = "LABEL", requires = "registry", value_parser = label)]
    pub(in crate::cli) label: Option<String>,
    /// Only callers with SCOPE may ask for LABEL's versions (a request's
    /// `_meta` `mcp-prompts/label`); LABEL `*` for every label not named,
    /// `latest` among them. Give it again for more.
    #[arg(long = "label-scope", value_name = "LABEL=SCOPE", value_parser = label_scope)]
    pub(in crate::cli) label_scopes: Vec<(String, String)>,
}

/// A label.
fn label(value: &str) -> Result<String, String> {
    crate::registry::check_label(value)
        .map(|()| value.to_owned())
        .map_err(|err| err.to_string())
}

/// A label that moves: any but `latest`.
fn movable_label(value: &str) -> Result<String, String> {
    crate::registry::check_movable(value)
        .map(|()| value.to_owned())
        .map_err(|err| err.to_string())
}

/// `LABEL=SCOPE`.
fn label_scope(value: &str) -> Result<(String, String), String> {
    let (label, scope) = value
        .split_once('=')
        .ok_or_else(|| format!("`{value}` is no LABEL=SCOPE"))?;
    if label != "*" {
        self::label(label)?;
    }
    if scope.is_empty() || scope.contains(char::is_whitespace) {
        return Err(format!("`{value}`: SCOPE is one scope, no spaces"));
    }
    Ok((label.to_owned(), scope.to_owned()))
}
