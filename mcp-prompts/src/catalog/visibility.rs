//! Which callers may see a prompt: every one, or those that meet its
//! restriction (`#[prompt(scopes = .., visible = ..)]`, registered apart
//! from its definition; a run-time prompt's `scopes` and `visible`).
//! Resolved once, when a catalog is built.

use super::{AnyPrompt, Kind};
use crate::caller::{Access, Caller};
use crate::descriptor::Restriction;
use crate::dynamic::DynamicPrompt;

pub(crate) enum Visibility {
    Everyone,
    Macro(&'static Restriction),
    Dynamic(DynamicPrompt),
}

impl Visibility {
    pub(super) fn of(prompt: &AnyPrompt) -> Self {
        match &prompt.0 {
            Kind::Macro(def) => def.restriction().map_or(Self::Everyone, Self::Macro),
            Kind::Dynamic(prompt) => {
                if prompt.is_restricted() {
                    Self::Dynamic(prompt.clone())
                } else {
                    Self::Everyone
                }
            }
        }
    }

    /// Whether some callers may not see the prompt.
    pub(crate) fn is_restricted(&self) -> bool {
        !matches!(self, Self::Everyone)
    }

    /// The scopes a remote caller must all hold.
    pub(crate) fn scopes(&self) -> impl Iterator<Item = &str> + '_ {
        let (fixed, owned): (&[&str], &[String]) = match self {
            Self::Everyone => (&[], &[]),
            Self::Macro(restriction) => (restriction.scopes, &[]),
            Self::Dynamic(prompt) => (&[], prompt.scopes()),
        };
        fixed
            .iter()
            .copied()
            .chain(owned.iter().map(String::as_str))
    }

    /// Whether a request served under `access` may see the prompt: the
    /// local user sees every prompt; a remote caller, one whose restriction
    /// it meets; a remote request that proves no caller, only unrestricted
    /// ones.
    pub(crate) fn allows(&self, access: &Access) -> bool {
        match (self, access) {
            (Self::Everyone, _) | (_, Access::Local) => true,
            (_, Access::Remote(None)) => false,
            (restricted, Access::Remote(Some(caller))) => restricted.admits(caller),
        }
    }

    fn admits(&self, caller: &Caller) -> bool {
        self.scopes().all(|s| caller.has_scope(s))
            && match self {
                Self::Everyone => true,
                Self::Macro(restriction) => restriction.visible.is_none_or(|v| v(caller)),
                Self::Dynamic(prompt) => prompt.shown_to(caller),
            }
    }
}
