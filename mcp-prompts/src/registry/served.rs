//! A registry served: the versions a label points at, in the live catalog
//! beside folders and compiled prompts (whose names win), kept in step by
//! a thread of its own. PostgreSQL tells it of each change (`LISTEN`); an
//! SQLite file's change counter is read every quarter second. While the
//! database cannot be reached, what was read last keeps serving; one
//! warning says so, and the registry is read again once it is back.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::PgListener;
use tokio::sync::{mpsc, oneshot};

use super::RegistryError;
use super::choosing::{Choosing, Fetch, Fetched, LabelScopes, LabelView};
use super::location::Location;
use super::store::{CHANNEL, Store};
use crate::catalog::{Prompts, Variants};
use crate::dynamic::DynamicPrompt;
use crate::error::Escaped;

/// How often an SQLite registry's change counter is read.
const POLL: Duration = Duration::from_millis(250);

/// How long after a failure the registry is tried again.
const RETRY: Duration = Duration::from_secs(1);

/// How long a server waits for the registry's first reading.
const START: Duration = Duration::from_secs(30);

/// Requests for versions not held, waiting for the registry's thread.
const MAX_FETCHES: usize = 64;

/// Versions read for requests at once: the rest wait, and the pool keeps
/// connections for reading the registry again.
const FETCHING: usize = 2;

/// How long a version read for a request may take; past it, the request
/// finds nothing.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// A registry being served: its thread stops when this is dropped.
pub(crate) struct ServedRegistry {
    _stop: oneshot::Sender<()>,
    choosing: Arc<Choosing>,
}

impl ServedRegistry {
    /// What serves the versions requests choose.
    pub(crate) fn variants(&self) -> &dyn Variants {
        &*self.choosing
    }

    /// How many prompts the served label points at now.
    #[cfg(feature = "cli")]
    pub(crate) fn label_size(&self) -> usize {
        let held = self.choosing.view.load();
        held.points(self.choosing.served_label())
            .map_or(0, std::collections::HashMap::len)
    }
}

/// Serves the versions `label` points at in `location` through `prompts`,
/// read once before this returns (an error if that fails), then kept in
/// step, with the versions requests choose.
pub(crate) fn serve(
    (location, label): (Location, String),
    scopes: LabelScopes,
    prompts: Prompts,
) -> Result<ServedRegistry, RegistryError> {
    let (fetch_tx, fetch_rx) = mpsc::channel(MAX_FETCHES);
    let served_as = (prompts.tag_filter(), prompts.languages());
    let choosing = Arc::new(Choosing::new(
        (location.clone(), label),
        (scopes, served_as),
        fetch_tx,
    ));
    let (started_tx, started_rx) = std::sync::mpsc::channel();
    let (stop_tx, stop_rx) = oneshot::channel();
    let keeper = Keeper {
        choosing: Arc::clone(&choosing),
        prompts,
        served: Vec::new(),
        stamped: HashMap::new(),
        unreadable: HashSet::new(),
        location: location.clone(),
    };
    let spawned = std::thread::Builder::new()
        .name("mcp-prompts-registry".to_owned())
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build();
            match runtime {
                Ok(runtime) => runtime.block_on(keeper.run(started_tx, stop_rx, fetch_rx)),
                Err(err) => {
                    let _ = started_tx.send(Err(RegistryError::database(err.to_string())));
                }
            }
        });
    if let Err(err) = spawned {
        return Err(RegistryError::database(err.to_string()));
    }
    match started_rx.recv_timeout(START) {
        Ok(Ok(())) => Ok(ServedRegistry {
            _stop: stop_tx,
            choosing,
        }),
        Ok(Err(err)) => Err(err),
        Err(_) => Err(RegistryError::database(format!(
            "the registry {location} was not read within {} s",
            START.as_secs()
        ))),
    }
}

/// The registry's thread: what it serves, and how it reads it again.
struct Keeper {
    choosing: Arc<Choosing>,
    prompts: Prompts,
    /// The prompts it put in the catalog.
    served: Vec<DynamicPrompt>,
    /// The served versions, stamped, by prompt and version: an unchanged
    /// one stays the same prompt, so the catalog does not change.
    stamped: HashMap<(String, u32), DynamicPrompt>,
    /// Versions that could not be read (each warned of once).
    unreadable: HashSet<(String, u32)>,
    location: Location,
}

impl Keeper {
    async fn run(
        mut self,
        started: std::sync::mpsc::Sender<Result<(), RegistryError>>,
        mut stop: oneshot::Receiver<()>,
        fetches: mpsc::Receiver<Fetch>,
    ) {
        let store = match self.start().await {
            Ok(store) => store,
            Err(err) => {
                let _ = started.send(Err(err));
                return;
            }
        };
        let _ = started.send(Ok(()));
        // Versions asked for by number are read beside, never holding up
        // the watch.
        let fetching = tokio::spawn(serve_fetches(
            store.clone(),
            Arc::clone(&self.choosing),
            self.location.clone(),
            fetches,
        ));
        let mut watch = Watch::new(&store);
        // Failing since this warning: none more until it reads again.
        let mut failing = false;
        let mut stale = false;
        loop {
            tokio::select! {
                _ = &mut stop => break,
                changed = watch.next(&store, stale) => match changed {
                    Ok(true) => match self.reload(&store).await {
                        Ok(()) => {
                            if failing {
                                tracing::info!(registry = %self.location, "the registry can be read again");
                            }
                            (failing, stale) = (false, false);
                        }
                        Err(err) => (failing, stale) = (self.failed(failing, &err), true),
                    },
                    Ok(false) => {}
                    Err(err) => (failing, stale) = (self.failed(failing, &err), true),
                },
            }
        }
        fetching.abort();
        store.close().await;
    }

    /// Connects, checks the schema (making it only if it is not there:
    /// a server may read only), and reads what the label points at.
    async fn start(&mut self) -> Result<Store, RegistryError> {
        // A server never makes a registry: a mistyped path is an error.
        let store = Store::connect(&self.location, false).await?;
        if !store.schema_is_current().await? {
            store.migrate().await.map_err(|err| {
                RegistryError::database(format!(
                    "{err} (the registry {} has no schema yet, or an older one; \
                     `mcp-prompts publish` makes it, with write access)",
                    self.location
                ))
            })?;
        }
        self.reload(&store).await?;
        Ok(store)
    }

    /// One warning when reading starts failing; whether it is failing.
    fn failed(&self, failing: bool, err: &RegistryError) -> bool {
        if !failing {
            tracing::warn!(
                registry = %self.location,
                error = %Escaped::new(&err.to_string()),
                "the registry cannot be read: what was read last keeps serving"
            );
        }
        true
    }

    /// Reads where every label points, and each version the served label
    /// newly points at; serves those.
    async fn reload(&mut self, store: &Store) -> Result<(), RegistryError> {
        let mut held = LabelView::of(store.pointers().await?);
        let label = self.choosing.served_label().to_owned();
        let mut points: Vec<(String, u32)> = held
            .points(&label)
            .map(|p| p.iter().map(|(n, v)| (n.clone(), *v)).collect())
            .unwrap_or_default();
        points.sort();
        let mut wanted = Vec::with_capacity(points.len());
        let mut stamped = HashMap::with_capacity(points.len());
        for key in points {
            // Cloned, not taken: a reading that fails half way changes
            // nothing.
            let prompt = match self.stamped.get(&key) {
                Some(prompt) => prompt.clone(),
                None if self.unreadable.contains(&key) => continue,
                None => match self.read(store, &key).await? {
                    Some(prompt) => self.choosing.sets().stamp(&prompt, Some(&label), key.1),
                    None => continue,
                },
            };
            wanted.push(prompt.clone());
            stamped.insert(key, prompt);
        }
        let points = held.points(&label);
        self.unreadable
            .retain(|key| points.and_then(|p| p.get(&key.0)) == Some(&key.1));
        // While the catalog changes, requests may see it before or after:
        // both sets are the registry's until it has.
        let mut during = held.pointers_only();
        for prompt in self.stamped.values().chain(stamped.values()) {
            during.serve(prompt);
        }
        self.choosing.view.store(Arc::new(during));
        for prompt in stamped.values() {
            held.serve(prompt);
        }
        self.stamped = stamped;
        self.choosing.sets().forget_missing();
        let (served, taken) = self.prompts.sync_yielding_group(&self.served, wanted);
        for (prompt, holder) in taken {
            tracing::warn!(
                "{}: the prompt `{}` is not served: {} has that name",
                Escaped::new(prompt.origin()),
                prompt.name(),
                Escaped::new(&holder)
            );
        }
        self.served = served;
        self.choosing.view.store(Arc::new(held));
        Ok(())
    }

    /// Version `key` read from the store; `None` (warned of once) if it is
    /// not there or cannot be served: a row that does not read as a
    /// version, one past the bounds, or one whose file names another
    /// prompt. Only a database that cannot be read is an error.
    async fn read(
        &mut self,
        store: &Store,
        key: &(String, u32),
    ) -> Result<Option<DynamicPrompt>, RegistryError> {
        let found = fetch_version(store, key, &self.choosing, &self.location).await?;
        if found.is_none() {
            self.unreadable.insert(key.clone());
        }
        Ok(found.map(|(prompt, _)| prompt))
    }
}

/// Version `key` of the registry, read as a prompt with its size; `None`,
/// warned of, if it is not there or cannot be served. Only a database that
/// cannot be read is an error.
async fn fetch_version(
    store: &Store,
    (name, version): &(String, u32),
    choosing: &Choosing,
    location: &Location,
) -> Result<Option<(DynamicPrompt, usize)>, RegistryError> {
    let stored = match store.fetch(name, *version).await {
        Ok(Some(stored)) => stored,
        Ok(None) => return Ok(None),
        Err(RegistryError::Refused(problems)) => {
            let problem = problems.join("; ");
            tracing::warn!(
                registry = %location,
                problem = %Escaped::new(&problem),
                "a version in the registry is not served: {}@{version}",
                Escaped::new(name)
            );
            return Ok(None);
        }
        Err(err) => return Err(err),
    };
    let origin = choosing.sets().origin(None, name, *version);
    let size = stored.size();
    Ok(read_version(&stored, &origin, location, name).map(|prompt| (prompt, size)))
}

/// Answers each request for a version not held, a few at a time, each
/// within [`FETCH_TIMEOUT`] of being asked (waiting its turn included).
async fn serve_fetches(
    store: Store,
    choosing: Arc<Choosing>,
    location: Location,
    mut fetches: mpsc::Receiver<Fetch>,
) {
    let fetching = Arc::new(tokio::sync::Semaphore::new(FETCHING));
    while let Some((name, version, asked, reply)) = fetches.recv().await {
        let Ok(permit) = Arc::clone(&fetching).acquire_owned().await else {
            break;
        };
        let Some(left) = FETCH_TIMEOUT.checked_sub(asked.elapsed()) else {
            let _ = reply.send(Fetched::Failed);
            continue;
        };
        let (store, choosing, location) = (store.clone(), Arc::clone(&choosing), location.clone());
        tokio::spawn(async move {
            let key = (name, version);
            let read = fetch_version(&store, &key, &choosing, &location);
            let answer = match tokio::time::timeout(left, read).await {
                Ok(Ok(Some((prompt, size)))) => Fetched::Found(prompt, size),
                Ok(Ok(None)) => Fetched::Missing,
                Ok(Err(err)) => {
                    tracing::warn!(
                        registry = %location,
                        error = %Escaped::new(&err.to_string()),
                        "a version asked for cannot be read"
                    );
                    Fetched::Failed
                }
                Err(_) => Fetched::Failed,
            };
            let _ = reply.send(answer);
            drop(permit);
        });
    }
}

/// A stored version's prompt; `None`, with a warning, if it does not
/// read (published by a newer release, say) or names another prompt than
/// `name`, the one it was published as.
fn read_version(
    stored: &crate::files::stored::StoredPrompt,
    origin: &str,
    location: &Location,
    name: &str,
) -> Option<DynamicPrompt> {
    match stored.read(origin) {
        Ok(prompt) if prompt.name() == name => Some(prompt),
        Ok(prompt) => {
            tracing::warn!(
                registry = %location,
                "a version in the registry is not served: {} names the prompt `{}`",
                Escaped::new(origin),
                Escaped::new(prompt.name())
            );
            None
        }
        Err(problem) => {
            tracing::warn!(
                registry = %location,
                problem = %Escaped::new(&problem.to_string()),
                "a version in the registry is not served"
            );
            None
        }
    }
}

/// How a server hears of changes.
enum Watch {
    /// An SQLite file: its counter, read every [`POLL`].
    Counter(Option<i64>),
    /// PostgreSQL: `LISTEN`, connected again after it is lost.
    Listen(Option<PgListener>),
}

impl Watch {
    fn new(store: &Store) -> Self {
        match store {
            Store::Sqlite(_) => Self::Counter(None),
            Store::Postgres(_) => Self::Listen(None),
        }
    }

    /// Waits for a change (`true`) or a failure; `stale` when the last
    /// reading failed, which is tried again after [`RETRY`].
    async fn next(&mut self, store: &Store, stale: bool) -> Result<bool, RegistryError> {
        match (self, store) {
            (Self::Counter(last), _) => {
                tokio::time::sleep(if stale { RETRY } else { POLL }).await;
                let counter = store.counter().await?;
                // The first reading follows the first load: a change in
                // between is read.
                let changed = stale || last.is_none_or(|last| last != counter);
                *last = Some(counter);
                Ok(changed)
            }
            (Self::Listen(listener), Store::Postgres(pool)) => {
                let Some(heard) = listener else {
                    // Lost (or never heard): listen again, then read
                    // whatever changed meanwhile.
                    if stale {
                        tokio::time::sleep(RETRY).await;
                    }
                    let mut fresh = PgListener::connect_with(pool)
                        .await
                        .map_err(|err| Store::failed(&err))?;
                    // A lost connection is said at once (and connected
                    // again here), never waited on inside the listener.
                    fresh.eager_reconnect(false);
                    fresh
                        .listen(CHANNEL)
                        .await
                        .map_err(|err| Store::failed(&err))?;
                    *listener = Some(fresh);
                    return Ok(true);
                };
                if stale {
                    tokio::time::sleep(RETRY).await;
                    return Ok(true);
                }
                match heard.try_recv().await {
                    Ok(Some(_)) => {
                        // A burst of changes is read once.
                        while heard.next_buffered().is_some() {}
                        Ok(true)
                    }
                    Ok(None) => {
                        *listener = None;
                        Err(RegistryError::database(
                            "the registry's connection was lost".to_owned(),
                        ))
                    }
                    Err(err) => {
                        *listener = None;
                        Err(Store::failed(&err))
                    }
                }
            }
            // Never made: each store has its own watch.
            (Self::Listen(_), Store::Sqlite(_)) => std::future::pending().await,
        }
    }
}
