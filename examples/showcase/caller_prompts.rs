//! The showcase's prompts that need to know who is asking: served when it
//! verifies tokens (`--auth-issuer`). A file of their own, since the
//! fixture server registers everything in `prompts.rs`.

use mcp_prompts::{Catalog, Error, RequestContext, catalog, prompt};

use crate::prompts;

/// Draft deployment notes: served in place of `deploy_notes` when the
/// showcase verifies tokens, to callers granted the `deploy` scope only.
#[prompt(name = "deploy_notes", title = "Deployment notes", scopes = ["deploy"])]
pub async fn deploy_notes_for_deployers(
    ctx: RequestContext,
    /// The service being deployed
    service: String,
) -> Result<String, Error> {
    prompts::deploy_notes(ctx, service).await
}

/// Say who is asking: the verified caller's subject and scopes
#[prompt(title = "Who am I")]
pub fn whoami(ctx: RequestContext) -> String {
    match ctx.caller() {
        Some(caller) => format!(
            "You are {}, with scopes: {}.",
            caller.subject(),
            caller.scopes().join(" ")
        ),
        None => "You are the local user, with no token.".to_owned(),
    }
}

/// The showcase's prompts when it verifies tokens: `deploy_notes` needs
/// the `deploy` scope, and `whoami` says who is asking.
pub const CATALOG_WITH_AUTH: Catalog = catalog![
    prompts::test_simple_prompt,
    prompts::test_prompt_with_arguments,
    prompts::test_prompt_with_embedded_resource,
    prompts::test_prompt_with_image,
    prompts::code_review,
    prompts::summarize,
    prompts::greet,
    prompts::status_update,
    prompts::release_notes,
    deploy_notes_for_deployers,
    prompts::test_input_required_result_prompt,
    whoami,
];
