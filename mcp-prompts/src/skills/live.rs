//! The skills served while the server runs: one snapshot at a time,
//! swapped whole when the folders change, so a request reads the snapshot
//! it started with. A change that alters what clients see (a skill, a
//! front matter, a file's bytes) is announced with
//! `notifications/resources/list_changed`: to every session, and on each
//! 2026-07-28 `subscriptions/listen` stream that asked for
//! `resourcesListChanged`.

use std::sync::{Arc, Mutex};

use arc_swap::ArcSwap;
use tokio::sync::mpsc;

use super::SkillSet;
use crate::context::{Audience, Outbound};
#[cfg(feature = "files")]
use crate::protocol::to_client::ToClient;
use crate::sync::lock;

/// The skills served now, their problems, and who hears of changes.
pub(crate) struct LiveSkills {
    set: ArcSwap<SkillSet>,
    /// `path:line: message` of each skill not served now.
    problems: Mutex<Vec<String>>,
    /// Who hears of changes.
    audience: Audience,
}

impl LiveSkills {
    pub(crate) fn new(set: SkillSet, problems: Vec<String>) -> Self {
        Self {
            set: ArcSwap::from_pointee(set),
            problems: Mutex::new(problems),
            audience: Audience::default(),
        }
    }

    /// The snapshot served now.
    pub(crate) fn load(&self) -> arc_swap::Guard<Arc<SkillSet>> {
        self.set.load()
    }

    pub(crate) fn problems(&self) -> Vec<String> {
        lock(&self.problems).clone()
    }

    /// Records `problems` as those of the skills served now.
    pub(crate) fn replace_problems(&self, problems: Vec<String>) {
        *lock(&self.problems) = problems;
    }

    /// Serves `set` from now on, and announces it if clients would see a
    /// difference.
    #[cfg(feature = "files")]
    pub(crate) fn replace(&self, set: SkillSet, problems: Vec<String>) {
        let changed = !self.set.load().same_as(&set);
        self.set.store(Arc::new(set));
        *lock(&self.problems) = problems;
        if changed {
            self.audience
                .announce(|| ToClient::ResourcesListChanged { subscription: None });
        }
    }

    /// Tells this session of every change from now on.
    pub(crate) fn listen(&self, outbound: &Outbound) {
        self.audience.listen(outbound);
    }

    /// A `subscriptions/listen` stream: woken once per change.
    pub(crate) fn subscribe(&self) -> mpsc::Receiver<()> {
        self.audience.subscribe()
    }
}
