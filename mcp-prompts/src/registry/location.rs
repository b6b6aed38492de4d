//! Where a registry is (`sqlite:PATH`, `postgres://...`), which label a
//! source names (`URL#LABEL`), and what a label or `NAME@VERSION` may be.

use std::fmt;

use super::RegistryError;
#[cfg(feature = "cli")]
use crate::protocol::is_valid_name;

/// The label that always points at each prompt's newest version; it
/// cannot be moved or removed.
pub(crate) const LATEST: &str = "latest";

/// The label served when none is named.
#[cfg(feature = "cli")]
pub(crate) const DEFAULT_LABEL: &str = "production";

/// The longest label.
const MAX_LABEL: usize = 64;

/// A registry's database.
#[derive(Clone, PartialEq, Eq)]
pub(crate) enum Location {
    /// An SQLite file, created on first use.
    Sqlite(String),
    /// A PostgreSQL server, as its URL says.
    Postgres(String),
}

impl Location {
    /// Reads `url`: `sqlite:PATH` (`sqlite://PATH` too) or
    /// `postgres://...` (`postgresql://...`).
    pub(crate) fn parse(url: &str) -> Result<Self, RegistryError> {
        if let Some(path) = url.strip_prefix("sqlite:") {
            let path = path.strip_prefix("//").unwrap_or(path);
            if path.is_empty() || path.starts_with('?') {
                return Err(RegistryError::location(url, "the SQLite URL names no file"));
            }
            if path.contains(['#', '?']) {
                return Err(RegistryError::location(
                    url,
                    "a registry's file name holds no `#` or `?` (give a label with `--label`, or as `URL#LABEL` where a folder is read)",
                ));
            }
            if path == ":memory:" {
                return Err(RegistryError::location(
                    url,
                    "an in-memory database is no registry: name a file",
                ));
            }
            return Ok(Self::Sqlite(path.to_owned()));
        }
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok(Self::Postgres(url.to_owned()));
        }
        Err(RegistryError::location(
            url,
            "a registry is `sqlite:PATH` or `postgres://USER@HOST/DATABASE`",
        ))
    }

    /// Whether `text` is meant as a registry (a folder otherwise): an
    /// `sqlite:` URL, or any `SCHEME://` (one not a registry's is refused
    /// by [`parse`](Self::parse), with what a registry's URL is).
    #[cfg(feature = "cli")]
    pub(crate) fn is_url(text: &str) -> bool {
        text.starts_with("sqlite:")
            || text.split_once("://").is_some_and(|(scheme, _)| {
                !scheme.is_empty()
                    && scheme
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'+')
            })
    }
}

/// The URL as it may be shown: a PostgreSQL password left out.
impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Sqlite(path) => write!(f, "sqlite:{path}"),
            Self::Postgres(url) => f.write_str(&without_password(url)),
        }
    }
}

impl fmt::Debug for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// `url` with any password replaced by `***`: the user part's (up to the
/// last `@`, whatever characters the password holds) and a `password=`
/// query parameter's.
pub(crate) fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let mut shown = match rest.rsplit_once('@') {
        Some((user, host)) if user.contains(':') => {
            let name = user.split(':').next().unwrap_or("");
            format!("{scheme}://{name}:***@{host}")
        }
        _ => url.to_owned(),
    };
    // `?password=...` (libpq's parameter), wherever it is in the query.
    let mut from = 0;
    while let Some(at) = shown[from..].find("password=").map(|at| at + from) {
        let starts_parameter = at > 0 && matches!(shown.as_bytes()[at - 1], b'?' | b'&');
        let value = at + "password=".len();
        if starts_parameter {
            let end = shown[value..]
                .find(['&', '#'])
                .map_or(shown.len(), |end| value + end);
            shown.replace_range(value..end, "***");
        }
        from = value;
    }
    shown
}

/// A registry's URL and the label to serve, as given to
/// [`Server::registry`](crate::Server::registry): read when the server is
/// built, and shown without its password.
#[derive(Clone)]
pub(crate) struct Source {
    url: String,
    label: String,
}

impl Source {
    pub(crate) fn new(url: String, label: String) -> Self {
        Self { url, label }
    }

    /// The URL and the label.
    pub(crate) fn into_parts(self) -> (String, String) {
        (self.url, self.label)
    }
}

impl fmt::Debug for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#{}", without_password(&self.url), self.label)
    }
}

/// A source named `URL#LABEL`: the URL and the label (`production` when
/// there is no `#`).
#[cfg(feature = "cli")]
pub(crate) fn split_source(source: &str) -> Result<(Location, String), RegistryError> {
    let (url, label) = match source.rsplit_once('#') {
        Some((url, label)) => (url, label),
        None => (source, DEFAULT_LABEL),
    };
    let location = Location::parse(url)?;
    // What follows the `#` may be the rest of a password holding one: it
    // is checked, never repeated.
    if check_label(label).is_err() {
        return Err(RegistryError::refused(format!(
            "{}: the label after `#` must be 1 to {MAX_LABEL} characters of A-Z, a-z, 0-9, `_`, `-` and `.`",
            without_password(source)
        )));
    }
    Ok((location, label.to_owned()))
}

/// A label: 1 to 64 characters of `A-Z a-z 0-9 _ - .`.
pub(crate) fn check_label(label: &str) -> Result<(), RegistryError> {
    let fits = (1..=MAX_LABEL).contains(&label.len())
        && label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'));
    if fits {
        Ok(())
    } else {
        Err(RegistryError::refused(format!(
            "label `{}` must be 1 to {MAX_LABEL} characters of A-Z, a-z, 0-9, `_`, `-` and `.`",
            label.escape_debug()
        )))
    }
}

/// A label that may be moved: any but `latest`.
pub(crate) fn check_movable(label: &str) -> Result<(), RegistryError> {
    check_label(label)?;
    if label == LATEST {
        return Err(RegistryError::refused(
            "`latest` always points at each prompt's newest version: it is not moved".to_owned(),
        ));
    }
    Ok(())
}

/// Reads `NAME@VERSION` (`review@3`).
#[cfg(feature = "cli")]
pub(crate) fn name_at_version(text: &str) -> Result<(String, u32), RegistryError> {
    let malformed = || {
        RegistryError::refused(format!(
            "`{}` is not NAME@VERSION (a prompt's name, `@`, and a version from 1: `review@3`)",
            text.escape_debug()
        ))
    };
    let (name, version) = text.rsplit_once('@').ok_or_else(malformed)?;
    let version: u32 = version.parse().map_err(|_| malformed())?;
    if version == 0 || !is_valid_name(name) {
        return Err(malformed());
    }
    Ok((name.to_owned(), version))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_sqlite_files_or_postgres_servers() {
        assert_eq!(
            Location::parse("sqlite:reg.db").unwrap(),
            Location::Sqlite("reg.db".into())
        );
        assert_eq!(
            Location::parse("sqlite:///tmp/reg.db").unwrap(),
            Location::Sqlite("/tmp/reg.db".into())
        );
        assert!(matches!(
            Location::parse("postgresql://u@h/db"),
            Ok(Location::Postgres(_))
        ));
        for bad in [
            "mysql://h/db",
            "reg.db",
            "sqlite:",
            "sqlite::memory:",
            "http://x",
        ] {
            let error = Location::parse(bad).unwrap_err().to_string();
            assert!(error.contains(bad), "{error}");
        }
    }

    #[test]
    fn a_password_is_never_shown() {
        let location = Location::parse("postgres://app:s3cret@db:5432/prompts?x=1").unwrap();
        let shown = location.to_string();
        assert_eq!(shown, "postgres://app:***@db:5432/prompts?x=1");
        assert_eq!(
            without_password("postgres://app@db/p"),
            "postgres://app@db/p"
        );
    }

    #[test]
    fn sources_labels_and_versions_are_read_or_refused() {
        let (location, label) = split_source("sqlite:r.db#staging").unwrap();
        assert_eq!(
            (location, label.as_str()),
            (Location::Sqlite("r.db".into()), "staging")
        );
        assert_eq!(split_source("sqlite:r.db").unwrap().1, "production");
        assert!(split_source("sqlite:r.db#").is_err());
        assert!(split_source("sqlite:r.db#a b").is_err());
        assert_eq!(
            name_at_version("git.commit@12").unwrap(),
            ("git.commit".into(), 12)
        );
        for bad in [
            "review",
            "review@",
            "@3",
            "review@0",
            "review@-1",
            "review@x",
            "a b@1",
        ] {
            assert!(name_at_version(bad).is_err(), "{bad}");
        }
        assert!(check_movable("latest").is_err());
        assert!(check_movable("tenant-7.eu").is_ok());
    }
}
