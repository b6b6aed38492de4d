//! Which caller opened each session of a server that keeps its own
//! sessions (rmcp's Streamable HTTP, behind [`HttpAuth::protect`]): a
//! request naming another caller's session is refused as if the session
//! did not exist. Our own endpoint binds its sessions itself.
//!
//! [`HttpAuth::protect`]: super::HttpAuth::protect

use std::num::NonZeroUsize;
use std::sync::Mutex;

use lru::LruCache;

use crate::sync::lock;

/// The most sessions remembered; the least recently used is forgotten
/// first (a server rarely keeps this many: rmcp's default keeps fewer).
const MAX_SESSIONS: NonZeroUsize = NonZeroUsize::new(100_000).unwrap();

pub(super) struct SessionOwners(Mutex<LruCache<String, String>>);

impl SessionOwners {
    pub(super) fn new() -> Self {
        Self(Mutex::new(LruCache::new(MAX_SESSIONS)))
    }

    /// Records that `principal` opened session `id`.
    pub(super) fn opened(&self, id: &str, principal: &str) {
        lock(&self.0).put(id.to_owned(), principal.to_owned());
    }

    /// Whether `principal` may use session `id`: it opened it, or the
    /// session is not one this guard saw opened (the server decides).
    pub(super) fn allows(&self, id: &str, principal: &str) -> bool {
        lock(&self.0).get(id).is_none_or(|owner| owner == principal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_is_its_openers() {
        let owners = SessionOwners::new();
        owners.opened("s1", "ann");
        assert!(owners.allows("s1", "ann"));
        assert!(!owners.allows("s1", "bob"));
        assert!(owners.allows("unseen", "bob"));
    }
}
