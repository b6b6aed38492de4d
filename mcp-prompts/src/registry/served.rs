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
use super::choosing::{Choosing, Fetch, Held, LabelScopes};
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

/// A registry being served: its thread stops when this is dropped.
pub(crate) struct ServedRegistry {
    _stop: oneshot::Sender<()>,
    choosing: Arc<Choosing>,
}

impl ServedRegistry {
    /// How many prompts the served label points at now.
    pub(crate) fn label_size(&self) -> usize {
        let held = self.choosing.held.load();
        held.pointers
            .get(self.choosing.served_label())
            .map_or(0, std::collections::HashMap::len)
    }
}

/// Serves the versions `label` points at in `location` through `prompts`,
/// read once before this returns (an error if that fails), then kept in
/// step; and what serves the versions requests choose.
pub(crate) fn serve(
    (location, label): (Location, String),
    scopes: LabelScopes,
    prompts: Prompts,
) -> Result<(ServedRegistry, Arc<dyn Variants>), RegistryError> {
    let (fetch_tx, fetch_rx) = mpsc::channel(MAX_FETCHES);
    let choosing = Arc::new(Choosing::new((location.clone(), label), scopes, fetch_tx));
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
        Ok(Ok(())) => {
            let served = ServedRegistry {
                _stop: stop_tx,
                choosing: Arc::clone(&choosing),
            };
            Ok((served, choosing))
        }
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
        let store = Store::connect(&self.location, true).await?;
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

    /// Reads where every label points, and each version newly pointed at;
    /// serves what the served label points at.
    async fn reload(&mut self, store: &Store) -> Result<(), RegistryError> {
        let rows = store.pointers().await?;
        let old = self.choosing.held.load_full();
        let mut held = Held::default();
        for (label, name, version) in rows {
            let key = (name.clone(), version);
            if !held.versions.contains_key(&key) {
                let prompt = match old.versions.get(&key) {
                    Some(prompt) => Some(prompt.clone()),
                    None if self.unreadable.contains(&key) => None,
                    None => self.read(store, &key).await?,
                };
                if let Some(prompt) = prompt {
                    held.versions.insert(key, prompt);
                }
            }
            held.pointers
                .entry(label)
                .or_default()
                .insert(name, version);
        }
        let label = self.choosing.served_label().to_owned();
        let mut wanted = Vec::new();
        let mut stamped = HashMap::new();
        if let Some(points) = held.pointers.get(&label) {
            let mut points: Vec<(&String, &u32)> = points.iter().collect();
            points.sort();
            for (name, &version) in points {
                let key = (name.clone(), version);
                let Some(prompt) = held.versions.get(&key) else {
                    continue;
                };
                let prompt = self
                    .stamped
                    .remove(&key)
                    .unwrap_or_else(|| self.choosing.sets().stamp(prompt, Some(&label), version));
                wanted.push(prompt.clone());
                stamped.insert(key, prompt);
            }
        }
        self.stamped = stamped;
        self.choosing.held.store(Arc::new(held));
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
        Ok(())
    }

    /// Version `key` read from the store; `None` (warned of once) if it
    /// no longer reads as a prompt.
    async fn read(
        &mut self,
        store: &Store,
        key: &(String, u32),
    ) -> Result<Option<DynamicPrompt>, RegistryError> {
        let Some(stored) = store.fetch(&key.0, key.1).await? else {
            return Ok(None);
        };
        let origin = self.choosing.sets().origin(None, &key.0, key.1);
        let prompt = read_version(&stored, &origin, &self.location);
        if prompt.is_none() {
            self.unreadable.insert(key.clone());
        }
        Ok(prompt)
    }
}

/// Answers each request for a version no label points at, each on its
/// own task.
async fn serve_fetches(
    store: Store,
    choosing: Arc<Choosing>,
    location: Location,
    mut fetches: mpsc::Receiver<Fetch>,
) {
    while let Some((name, version, reply)) = fetches.recv().await {
        let (store, choosing, location) = (store.clone(), Arc::clone(&choosing), location.clone());
        tokio::spawn(async move {
            let prompt = match store.fetch(&name, version).await {
                Ok(Some(stored)) => {
                    let origin = choosing.sets().origin(None, &name, version);
                    read_version(&stored, &origin, &location)
                }
                Ok(None) => None,
                Err(err) => {
                    tracing::warn!(
                        registry = %location,
                        error = %Escaped::new(&err.to_string()),
                        "a version asked for cannot be read"
                    );
                    None
                }
            };
            let _ = reply.send(prompt);
        });
    }
}

/// A stored version's prompt; `None`, with a warning, if it does not
/// read (published by a newer release, say).
fn read_version(
    stored: &crate::files::stored::StoredPrompt,
    origin: &str,
    location: &Location,
) -> Option<DynamicPrompt> {
    match stored.read(origin) {
        Ok(prompt) => Some(prompt),
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
                        .map_err(|err| store.failed(&err))?;
                    fresh
                        .listen(CHANNEL)
                        .await
                        .map_err(|err| store.failed(&err))?;
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
                        Err(store.failed(&err))
                    }
                }
            }
            // Never made: each store has its own watch.
            (Self::Listen(_), Store::Sqlite(_)) => std::future::pending().await,
        }
    }
}
