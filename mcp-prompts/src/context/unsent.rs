//! The bytes of answers made and not yet taken by their clients: one
//! budget for a whole service, across its connections and transports. The
//! server reserves an answer's bytes before it writes the answer, and
//! refuses the answer when they do not fit; the transport keeps the
//! reservation with the answer's text until that is written to the client
//! or dropped (the connection gone), which gives the bytes back. Clients
//! that never read so hold at most the budget, and a request past it gets
//! a refusal, never a wait: a wait is what such clients would turn into a
//! stall.

use crate::protocol::language::Language;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::sync::lock;

/// The budget: how many bytes answers may hold until their clients take
/// them, and how many they hold now. Cheap to clone; clones share it.
#[derive(Clone, Debug)]
pub(crate) struct UnsentBudget(Arc<Budget>);

#[derive(Debug)]
struct Budget {
    max: usize,
    held: AtomicUsize,
}

impl UnsentBudget {
    /// A budget of `max` bytes, none of them held.
    pub(crate) fn new(max: usize) -> Self {
        Self(Arc::new(Budget {
            max,
            held: AtomicUsize::new(0),
        }))
    }

    /// The budget's size in bytes.
    pub(crate) fn max(&self) -> usize {
        self.0.max
    }

    /// Reserves `bytes` if they fit beside what is held now; `None` if not.
    /// Never waits.
    pub(crate) fn try_reserve(&self, bytes: usize) -> Option<Reservation> {
        let max = self.0.max;
        self.0
            .held
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |held| {
                held.checked_add(bytes).filter(|&total| total <= max)
            })
            .ok()?;
        Some(Reservation {
            budget: Arc::clone(&self.0),
            bytes,
        })
    }
}

/// Bytes reserved from an [`UnsentBudget`], given back when dropped.
#[derive(Debug)]
pub(crate) struct Reservation {
    budget: Arc<Budget>,
    bytes: usize,
}

impl Reservation {
    /// Gives back what is reserved beyond `bytes`: an answer reserved at an
    /// upper bound keeps what it turned out to take.
    pub(crate) fn shrink_to(&mut self, bytes: usize) {
        if bytes < self.bytes {
            self.budget
                .held
                .fetch_sub(self.bytes - bytes, Ordering::AcqRel);
            self.bytes = bytes;
        }
    }

    /// Takes over `other`'s bytes, to give both back at once. A sender
    /// serves one service, so both are of one budget; were they not,
    /// `other` would give its bytes back now.
    fn absorb(&mut self, mut other: Self) {
        if Arc::ptr_eq(&self.budget, &other.budget) {
            self.bytes += std::mem::take(&mut other.bytes);
        }
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        if self.bytes > 0 {
            self.budget.held.fetch_sub(self.bytes, Ordering::AcqRel);
        }
    }
}

/// Where the server leaves the reservations of the answers to one sender's
/// requests, for the transport to take and keep with the answers' text.
/// Clones share the place.
#[derive(Clone, Debug, Default)]
pub(crate) struct Kept(Arc<Place>);

/// The languages answers were in.
#[derive(Debug, Default)]
enum Answered {
    #[default]
    Nothing,
    In(Language),
    /// Answers in two languages or more (a batch's).
    Mixed,
}

#[derive(Debug, Default)]
struct Place {
    /// Whether something is kept: most answers reserve nothing, and a
    /// transport asks after every one, so asking costs a load.
    any: AtomicBool,
    reserved: Mutex<Option<Reservation>>,
    /// Whether the language of the answers is noted, for a transport that
    /// names it (HTTP, in `Content-Language`).
    notes_language: bool,
    /// The language the answers are in, where their requests asked for
    /// one. A batch whose answers are in different languages has none.
    language: Mutex<Answered>,
}

impl Kept {
    /// An empty place, which notes the language of the answers too if
    /// `notes_language` (for a transport that names it).
    pub(crate) fn new(notes_language: bool) -> Self {
        Self(Arc::new(Place {
            notes_language,
            ..Place::default()
        }))
    }

    /// Leaves `reserved` here, beside what is kept already.
    pub(crate) fn keep(&self, reserved: Reservation) {
        let mut kept = lock(&self.0.reserved);
        match kept.as_mut() {
            Some(held) => held.absorb(reserved),
            None => *kept = Some(reserved),
        }
        self.0.any.store(true, Ordering::Release);
    }

    /// Notes the language an answer is in, where it is noted.
    #[inline]
    pub(crate) fn keep_language(&self, language: &Language) {
        if !self.0.notes_language {
            return;
        }
        let mut answered = lock(&self.0.language);
        *answered = match &*answered {
            Answered::Nothing => Answered::In(language.clone()),
            Answered::In(own) if own == language => return,
            _ => Answered::Mixed,
        };
    }

    /// The language the answers are in, where their requests asked for
    /// one and they agree.
    #[cfg(feature = "http")]
    pub(crate) fn language(&self) -> Option<Language> {
        match &*lock(&self.0.language) {
            Answered::In(language) => Some(language.clone()),
            Answered::Nothing | Answered::Mixed => None,
        }
    }

    /// What is kept here, taken away. Asked after every answer: inlined,
    /// it is a load.
    #[inline]
    pub(crate) fn take(&self) -> Option<Reservation> {
        if !self.0.any.load(Ordering::Acquire) {
            return None;
        }
        let mut kept = lock(&self.0.reserved);
        self.0.any.store(false, Ordering::Release);
        kept.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(budget: &UnsentBudget) -> usize {
        budget.0.held.load(Ordering::Acquire)
    }

    #[test]
    fn reservations_fit_the_budget_and_give_their_bytes_back() {
        let budget = UnsentBudget::new(100);
        let first = budget.try_reserve(60).unwrap();
        assert!(budget.try_reserve(41).is_none(), "past the budget");
        let mut second = budget.try_reserve(40).unwrap();
        assert_eq!(held(&budget), 100);
        second.shrink_to(10);
        assert_eq!(held(&budget), 70);
        drop(first);
        assert_eq!(held(&budget), 10);
        assert!(budget.try_reserve(usize::MAX).is_none(), "no overflow");
        let kept = Kept::default();
        kept.keep(second);
        kept.keep(budget.try_reserve(5).unwrap());
        assert_eq!(held(&budget), 15);
        let taken = kept.take().unwrap();
        assert!(kept.take().is_none());
        drop(taken);
        assert_eq!(held(&budget), 0);
    }
}
