//! The registry's database: one pool of SQLite or PostgreSQL connections,
//! the schema its migrations make, and every query, written once for both
//! (the SQL they share; what differs, the clock and the locking, beside).

use std::borrow::Cow;
use std::time::Duration;

use sqlx::ConnectOptions;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use sqlx::pool::PoolOptions;
use sqlx::postgres::{PgConnectOptions, PgPool};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool};

use super::location::{LATEST, Location};
use super::{RegistryError, VersionInfo};
use crate::files::stored::{MAX_FILE_BYTES, MAX_FILES, MAX_FILES_BYTES, StoredPrompt};

/// The channel PostgreSQL servers hear changes on.
pub(crate) const CHANNEL: &str = "mcp_prompts_registry";

/// How long a connection is waited for before the registry counts as
/// unreachable (and how long a server away from it may take to notice it
/// is back, beside the retry's second).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);

/// How long an SQLite writer waits for another process's write to end.
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// The connections a process holds at most.
const MAX_CONNECTIONS: u32 = 5;

/// How long a publish or a label move may wait for another's lock.
const WRITE_TIMEOUT: &str = "60s";

/// Runs `$body` with `$pool` bound to whichever pool the store has: the
/// same code, typed for each database.
macro_rules! on_pool {
    ($store:expr, $pool:ident => $body:expr) => {
        match $store {
            Store::Sqlite($pool) => async { $body }.await,
            Store::Postgres($pool) => async { $body }.await,
        }
    };
}

/// Takes the registry's write lock in transaction `$tx` on PostgreSQL
/// (SQLite's is taken by `BEGIN IMMEDIATE`): one writer at a time, so that
/// two never both read the same newest version, waiting up to
/// [`WRITE_TIMEOUT`] for the other.
macro_rules! write_lock {
    ($store:expr, $tx:ident) => {
        if let Store::Postgres(_) = $store {
            sqlx::query(&format!("SET LOCAL statement_timeout = '{WRITE_TIMEOUT}'"))
                .execute(&mut *$tx)
                .await?;
            sqlx::query("SELECT pg_advisory_xact_lock($1)")
                .bind(WRITE_LOCK)
                .execute(&mut *$tx)
                .await?;
        }
    };
}

/// The advisory lock every PostgreSQL writer takes (a number of its own:
/// the bytes of `mcp-prom`).
const WRITE_LOCK: i64 = 0x6d63_702d_7072_6f6d;

/// Marks a change in transaction `$tx`: the counter moves, and PostgreSQL
/// servers are told when it commits.
macro_rules! changed {
    ($store:expr, $tx:ident) => {
        sqlx::query("UPDATE registry_changes SET counter = counter + 1 WHERE id = 1")
            .execute(&mut *$tx)
            .await?;
        if let Store::Postgres(_) = $store {
            sqlx::query(NOTIFY).execute(&mut *$tx).await?;
        }
    };
}

/// A pool of connections to the registry's database.
#[derive(Clone)]
pub(crate) enum Store {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// The schema, one migration per version, per database.
#[derive(Debug)]
struct Migrations(&'static [(i64, &'static str, &'static str)]);

const SQLITE_MIGRATIONS: Migrations = Migrations(&[(
    1,
    "versions",
    include_str!("migrations/sqlite_1_versions.sql"),
)]);
const POSTGRES_MIGRATIONS: Migrations = Migrations(&[(
    1,
    "versions",
    include_str!("migrations/postgres_1_versions.sql"),
)]);

impl MigrationSource<'static> for Migrations {
    fn resolve(self) -> BoxFuture<'static, Result<Vec<Migration>, sqlx::error::BoxDynError>> {
        Box::pin(async move {
            Ok(self
                .0
                .iter()
                .map(|&(version, description, sql)| {
                    Migration::new(
                        version,
                        Cow::Borrowed(description),
                        MigrationType::Simple,
                        Cow::Borrowed(sql),
                        false,
                    )
                })
                .collect())
        })
    }
}

/// The boxed future sqlx's `MigrationSource` returns.
type BoxFuture<'a, T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'a>>;

/// How every pool is made: a few connections, waited for a short while.
fn pool_options<DB: sqlx::Database>() -> PoolOptions<DB> {
    PoolOptions::new()
        .max_connections(MAX_CONNECTIONS)
        .acquire_timeout(CONNECT_TIMEOUT)
}

/// A row of `prompt_versions` as listed.
type VersionRow = (String, i64, String, String, String);

/// A prompt's versions, and its labels with the version of each.
type Listed = (Vec<VersionRow>, Vec<(String, i64)>);

/// A version's path, its text unless past the bound, and its size.
type BodyRow = (String, Option<String>, i64);

/// A file's path, its bytes unless past the bound, and its size.
type FileRow = (String, Option<Vec<u8>>, i64);

impl Store {
    /// Connects to `location`, creating an SQLite file that is not there
    /// if `create`.
    pub(crate) async fn connect(location: &Location, create: bool) -> Result<Self, RegistryError> {
        let unreachable = |err: sqlx::Error| RegistryError::unreachable(location, &err);
        match location {
            Location::Sqlite(path) => {
                // WAL: readers never wait for the one writer, and several
                // processes share the file.
                let options = SqliteConnectOptions::new()
                    .filename(path)
                    .create_if_missing(create)
                    .journal_mode(SqliteJournalMode::Wal)
                    .busy_timeout(BUSY_TIMEOUT)
                    .foreign_keys(true)
                    .disable_statement_logging();
                let pool = pool_options().connect_with(options).await;
                Ok(Self::Sqlite(pool.map_err(unreachable)?))
            }
            Location::Postgres(url) => {
                let options: PgConnectOptions = url.parse().map_err(|err: sqlx::Error| {
                    RegistryError::location(&location.to_string(), &err.to_string())
                })?;
                // No statement may hold a connection for long: a locked
                // table must not hang requests or the watch.
                let options = options
                    .application_name("mcp-prompts")
                    .options([("statement_timeout", "10s")])
                    .disable_statement_logging();
                let pool = pool_options().connect_with(options).await;
                Ok(Self::Postgres(pool.map_err(unreachable)?))
            }
        }
    }

    /// Creates or updates the schema (which needs write access). Two
    /// processes may both try at once: PostgreSQL's migrations take a
    /// lock; SQLite's do not, and the one that loses finds the schema the
    /// other made.
    pub(crate) async fn migrate(&self) -> Result<(), RegistryError> {
        match self.run_migrations().await {
            Err(err) if self.schema_is_current().await == Ok(true) => {
                tracing::debug!(%err, "the registry's schema was made by another process");
                Ok(())
            }
            done => done,
        }
    }

    async fn run_migrations(&self) -> Result<(), RegistryError> {
        let failed = |err: sqlx::migrate::MigrateError| {
            RegistryError::database(format!("the registry's schema cannot be made: {err}"))
        };
        match self {
            Self::Sqlite(pool) => {
                let migrator = Migrator::new(SQLITE_MIGRATIONS).await.map_err(failed)?;
                migrator.run(pool).await.map_err(failed)
            }
            Self::Postgres(pool) => {
                let migrator = Migrator::new(POSTGRES_MIGRATIONS).await.map_err(failed)?;
                migrator.run(pool).await.map_err(failed)
            }
        }
    }

    /// Whether the schema is there and as new as ours, read without
    /// writing (a server may have read access only).
    pub(crate) async fn schema_is_current(&self) -> Result<bool, RegistryError> {
        let newest = match self {
            Self::Sqlite(_) => SQLITE_MIGRATIONS.0.len(),
            Self::Postgres(_) => POSTGRES_MIGRATIONS.0.len(),
        };
        let newest = i64::try_from(newest).unwrap_or(i64::MAX);
        let sql = "SELECT COALESCE(MAX(version), 0) FROM _sqlx_migrations WHERE success";
        let applied: Result<i64, sqlx::Error> =
            on_pool!(self, pool => sqlx::query_scalar(sql).fetch_one(pool).await);
        match applied {
            Ok(applied) => Ok(applied >= newest),
            // No migrations table: an empty database. (Any other error, a
            // role that may not read it say, is said as it is.)
            Err(sqlx::Error::Database(err))
                if err.code().as_deref() == Some("42P01")
                    || err.message().contains("no such table") =>
            {
                Ok(false)
            }
            Err(err) => Err(Self::failed(&err)),
        }
    }

    /// How a transaction that writes starts: on SQLite with the write lock
    /// taken at once (a transaction that read first could not take it
    /// later while another writes, and would fail rather than wait).
    fn begin_write(&self) -> &'static str {
        match self {
            Self::Sqlite(_) => "BEGIN IMMEDIATE",
            Self::Postgres(_) => "BEGIN",
        }
    }

    /// The clock both databases stamp times with: UTC, RFC 3339, to the
    /// millisecond.
    fn now(&self) -> &'static str {
        match self {
            Self::Sqlite(_) => "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
            Self::Postgres(_) => {
                "to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
            }
        }
    }

    /// An error of this store's database, as said to a user.
    pub(crate) fn failed(err: &sqlx::Error) -> RegistryError {
        match err {
            sqlx::Error::PoolTimedOut | sqlx::Error::Io(_) | sqlx::Error::PoolClosed => {
                RegistryError::database(format!("the registry cannot be reached: {err}"))
            }
            _ => RegistryError::database(format!("the registry failed: {err}")),
        }
    }

    /// Stores each prompt whose content is new as its next version, and
    /// moves `labels` to each prompt's version (new or current), in one
    /// transaction: all or nothing. Each prompt's version, and whether it
    /// was new.
    pub(crate) async fn publish(
        &self,
        prompts: &[(String, StoredPrompt)],
        labels: &[String],
        author: &str,
    ) -> Result<Vec<(String, u32, bool)>, RegistryError> {
        let result: Result<_, sqlx::Error> = on_pool!(self, pool => {
            let mut tx = pool.begin_with(self.begin_write()).await?;
            write_lock!(self, tx);
            let mut published = Vec::with_capacity(prompts.len());
            let mut ordered: Vec<&(String, StoredPrompt)> = prompts.iter().collect();
            ordered.sort_by(|a, b| a.0.cmp(&b.0));
            for (name, prompt) in ordered {
                let digest = prompt.digest();
                let newest: Option<(i64, String)> = sqlx::query_as(
                    "SELECT version, digest FROM prompt_versions WHERE name = $1 \
                     ORDER BY version DESC LIMIT 1",
                )
                .bind(name)
                .fetch_optional(&mut *tx)
                .await?;
                let (version, new) = match newest {
                    Some((version, newest)) if newest == digest => (version, false),
                    newest => {
                        let version = newest.map_or(1, |(v, _)| v + 1);
                        let insert = format!(
                            "INSERT INTO prompt_versions \
                             (name, version, path, body, digest, author, published_at) \
                             VALUES ($1, $2, $3, $4, $5, $6, {})",
                            self.now()
                        );
                        sqlx::query(&insert)
                            .bind(name)
                            .bind(version)
                            .bind(prompt.path())
                            .bind(prompt.text())
                            .bind(&digest)
                            .bind(author)
                            .execute(&mut *tx)
                            .await?;
                        for (path, bytes) in prompt.files() {
                            sqlx::query(
                                "INSERT INTO prompt_files (name, version, path, bytes) \
                                 VALUES ($1, $2, $3, $4)",
                            )
                            .bind(name)
                            .bind(version)
                            .bind(path)
                            .bind(bytes)
                            .execute(&mut *tx)
                            .await?;
                        }
                        (version, true)
                    }
                };
                for label in labels {
                    sqlx::query(&self.move_sql())
                        .bind(label)
                        .bind(name)
                        .bind(version)
                        .bind(author)
                        .execute(&mut *tx)
                        .await?;
                }
                published.push((name.clone(), u32::try_from(version).unwrap_or(u32::MAX), new));
            }
            if published.iter().any(|(_, _, new)| *new) || !labels.is_empty() {
                changed!(self, tx);
            }
            tx.commit().await?;
            Ok(published)
        });
        result.map_err(|err| Self::failed(&err))
    }

    /// `label` (not `latest`) moved to `name@version`, by `by`.
    fn move_sql(&self) -> String {
        format!(
            "INSERT INTO prompt_labels (label, name, version, moved_by, moved_at) \
             VALUES ($1, $2, $3, $4, {now}) \
             ON CONFLICT (label, name) DO UPDATE SET version = excluded.version, \
             moved_by = excluded.moved_by, moved_at = excluded.moved_at",
            now = self.now()
        )
    }

    /// Moves `label` to `name@version`; an error if there is no such
    /// version.
    pub(crate) async fn move_label(
        &self,
        (name, version): (&str, u32),
        label: &str,
        by: &str,
    ) -> Result<(), RegistryError> {
        let result: Result<bool, sqlx::Error> = on_pool!(self, pool => {
            let mut tx = pool.begin_with(self.begin_write()).await?;
            write_lock!(self, tx);
            let exists: Option<i64> = sqlx::query_scalar(
                "SELECT version FROM prompt_versions WHERE name = $1 AND version = $2",
            )
            .bind(name)
            .bind(i64::from(version))
            .fetch_optional(&mut *tx)
            .await?;
            if exists.is_none() {
                return Ok(false);
            }
            sqlx::query(&self.move_sql())
                .bind(label)
                .bind(name)
                .bind(i64::from(version))
                .bind(by)
                .execute(&mut *tx)
                .await?;
            changed!(self, tx);
            tx.commit().await?;
            Ok(true)
        });
        match result {
            Ok(true) => Ok(()),
            Ok(false) => Err(RegistryError::unknown(format!(
                "there is no version `{name}@{version}`"
            ))),
            Err(err) => Err(Self::failed(&err)),
        }
    }

    /// Takes `name` out of `label`; whether it was in it.
    pub(crate) async fn remove_label(
        &self,
        name: &str,
        label: &str,
    ) -> Result<bool, RegistryError> {
        let result: Result<bool, sqlx::Error> = on_pool!(self, pool => {
            let mut tx = pool.begin_with(self.begin_write()).await?;
            write_lock!(self, tx);
            let removed = sqlx::query("DELETE FROM prompt_labels WHERE label = $1 AND name = $2")
                .bind(label)
                .bind(name)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                > 0;
            if removed {
                changed!(self, tx);
            }
            tx.commit().await?;
            Ok(removed)
        });
        result.map_err(|err| Self::failed(&err))
    }

    /// Every version of `name`, oldest first, with the labels on each.
    pub(crate) async fn versions(&self, name: &str) -> Result<Vec<VersionInfo>, RegistryError> {
        let result: Result<Listed, sqlx::Error> = on_pool!(self, pool => {
            let versions: Vec<VersionRow> = sqlx::query_as(
                "SELECT name, version, digest, author, published_at FROM prompt_versions \
                 WHERE name = $1 ORDER BY version",
            )
            .bind(name)
            .fetch_all(pool)
            .await?;
            let labels: Vec<(String, i64)> = sqlx::query_as(
                "SELECT label, version FROM prompt_labels WHERE name = $1 ORDER BY label",
            )
            .bind(name)
            .fetch_all(pool)
            .await?;
            Ok((versions, labels))
        });
        let (versions, labels) = result.map_err(|err| Self::failed(&err))?;
        let newest = versions.last().map(|row| row.1);
        Ok(versions
            .into_iter()
            .map(|(name, version, digest, author, published_at)| {
                let mut on: Vec<String> = (labels.iter())
                    .filter(|(_, v)| *v == version)
                    .map(|(label, _)| label.clone())
                    .collect();
                if Some(version) == newest {
                    on.insert(0, LATEST.to_owned());
                }
                VersionInfo::new(name, version, digest, author, published_at, on)
            })
            .collect())
    }

    /// Where every label points: `(label, name, version)`, `latest`'s
    /// rows included.
    pub(crate) async fn pointers(&self) -> Result<Vec<(String, String, u32)>, RegistryError> {
        let sql = "SELECT label, name, version FROM prompt_labels \
                   UNION ALL \
                   SELECT 'latest', name, MAX(version) FROM prompt_versions GROUP BY name";
        let rows: Result<Vec<(String, String, i64)>, sqlx::Error> =
            on_pool!(self, pool => sqlx::query_as(sql).fetch_all(pool).await);
        let rows = rows.map_err(|err| Self::failed(&err))?;
        Ok(rows
            .into_iter()
            .filter_map(|(label, name, version)| Some((label, name, u32::try_from(version).ok()?)))
            .collect())
    }

    /// Version `version` of `name`, as published; `None` if there is none.
    /// A row past what a prompt folder may hold (a text or file past
    /// [`MAX_FILE_BYTES`], more than [`MAX_FILES`] files or
    /// [`MAX_FILES_BYTES`] of them), or one that does not read as a
    /// version, is refused without more of it read.
    pub(crate) async fn fetch(
        &self,
        name: &str,
        version: u32,
    ) -> Result<Option<StoredPrompt>, RegistryError> {
        let version = i64::from(version);
        // Sizes first, in the same statement: a text or file past the
        // bound is never sent.
        let body = format!(
            "SELECT path, CASE WHEN octet_length(body) <= {MAX_FILE_BYTES} THEN body END, \
             CAST(octet_length(body) AS BIGINT) FROM prompt_versions WHERE name = $1 AND version = $2"
        );
        let files = format!(
            "SELECT path, CASE WHEN octet_length(bytes) <= {MAX_FILE_BYTES} THEN bytes END, \
             CAST(octet_length(bytes) AS BIGINT) FROM prompt_files WHERE name = $1 AND version = $2 \
             ORDER BY path LIMIT {}",
            MAX_FILES + 1
        );
        let result: Result<Option<(BodyRow, Vec<FileRow>)>, sqlx::Error> = on_pool!(self, pool => {
            let mut conn = pool.acquire().await?;
            let row: Option<BodyRow> = sqlx::query_as(&body)
                .bind(name)
                .bind(version)
                .fetch_optional(&mut *conn)
                .await?;
            match row {
                None => Ok(None),
                Some(row) => {
                    let files: Vec<FileRow> = sqlx::query_as(&files)
                        .bind(name)
                        .bind(version)
                        .fetch_all(&mut *conn)
                        .await?;
                    Ok(Some((row, files)))
                }
            }
        });
        let found = match result {
            Ok(found) => found,
            // The row is there, but not as a version reads.
            Err(err @ (sqlx::Error::ColumnDecode { .. } | sqlx::Error::Decode(_))) => {
                return Err(RegistryError::refused(format!("it does not read: {err}")));
            }
            Err(err) => return Err(Self::failed(&err)),
        };
        let Some(((path, body, body_bytes), files)) = found else {
            return Ok(None);
        };
        let past = |what: &str| {
            RegistryError::refused(format!("{what}, past what a prompt folder may hold"))
        };
        let Some(body) = body else {
            return Err(past(&format!("its text has {body_bytes} bytes")));
        };
        if files.len() > MAX_FILES {
            return Err(past(&format!("it has more than {MAX_FILES} files")));
        }
        let mut total = 0usize;
        let mut read = Vec::with_capacity(files.len());
        for (path, bytes, size) in files {
            let Some(bytes) = bytes else {
                return Err(past(&format!(
                    "its file `{}` has {size} bytes",
                    path.escape_debug()
                )));
            };
            total += bytes.len();
            if total > MAX_FILES_BYTES {
                return Err(past(&format!(
                    "its files have more than {MAX_FILES_BYTES} bytes"
                )));
            }
            read.push((path, bytes));
        }
        Ok(Some(StoredPrompt::new(path, body, read)))
    }

    /// The change counter: it moves on every publish and label move.
    pub(crate) async fn counter(&self) -> Result<i64, RegistryError> {
        let sql = "SELECT counter FROM registry_changes WHERE id = 1";
        let counter: Result<i64, sqlx::Error> =
            on_pool!(self, pool => sqlx::query_scalar(sql).fetch_one(pool).await);
        counter.map_err(|err| Self::failed(&err))
    }

    /// Stops the pool's connections.
    pub(crate) async fn close(&self) {
        on_pool!(self, pool => pool.close().await);
    }
}

/// `NOTIFY` on [`CHANNEL`]: delivered when the transaction commits.
const NOTIFY: &str = "NOTIFY mcp_prompts_registry";

#[cfg(test)]
mod tests {
    #[test]
    fn changes_are_announced_on_the_channel_servers_hear() {
        assert_eq!(super::NOTIFY, format!("NOTIFY {}", super::CHANNEL));
    }
}
