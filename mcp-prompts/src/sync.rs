//! Locks that outlive a panic.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Locks `mutex` even if a thread panicked while holding it. Every lock in
/// this crate guards data a panic cannot leave half-changed (a map, a
/// timestamp, a buffer of whole messages), so a poisoned lock only means a
/// request or a prompt panicked elsewhere: the server goes on.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
