//! Locks that outlive a panic.

use std::sync::{Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// Locks `mutex` even if a thread panicked while holding it. Every lock in
/// this crate guards data a panic cannot leave half-changed (a map, a
/// timestamp, a buffer of whole messages), so a poisoned lock only means a
/// request or a prompt panicked elsewhere: the server goes on.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Reads `lock` even if a thread panicked while holding it (as [`lock`]).
pub(crate) fn read<T>(lock: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(PoisonError::into_inner)
}

/// Writes `lock` even if a thread panicked while holding it (as [`lock`]).
pub(crate) fn write<T>(lock: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(PoisonError::into_inner)
}
