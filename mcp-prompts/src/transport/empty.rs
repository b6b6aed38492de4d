//! The warning a server that serves nothing gives as it starts serving:
//! the likely cause is a library crate of `#[prompt]` functions that the
//! binary never names, and that nothing else would say.

use crate::server::Service;

/// Warns, once a transport starts serving `service`, if it serves no
/// prompt and no skill (and so no prompt tool either): a client would
/// find nothing and hear no reason.
pub(super) fn warn_if_empty(service: &Service) {
    if service.prompt_count() == 0 && service.skill_count() == 0 {
        tracing::warn!(
            "serving no prompts, no skills and no tools: a client finds nothing. If this \
             binary's #[prompt] functions are in a library crate, name that crate in the \
             binary (`use my_prompts as _;`, or call anything in it): a crate the binary \
             never names is not linked, and the prompts it registers through inventory \
             are dropped with it"
        );
    }
}
