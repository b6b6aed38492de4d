//! `subscriptions/listen` in an rmcp server (2026-07-28): which changes a
//! listen may ask for, and each change sent on the listens open.

use ::rmcp::model::SubscriptionFilter;
use ::rmcp::service::SubscriptionContext;

use crate::error::Error;

use super::{ErrorData, RmcpPrompts, to_rmcp};

impl RmcpPrompts {
    /// The notifications a 2026-07-28 `subscriptions/listen` may ask for
    /// here: changes to the prompt list. rmcp keeps them only where the
    /// server's capabilities announce them ([`capabilities`](Self::capabilities)
    /// does for a live catalog), so a static catalog's listen is
    /// acknowledged with none, as on mcp-prompts' own transports.
    pub fn accepted_subscription_filter(&self) -> SubscriptionFilter {
        let filter = SubscriptionFilter::builder().prompts_list_changed();
        if self.service.skills_live() {
            filter.resources_list_changed().build()
        } else {
            filter.build()
        }
    }

    /// Serves one `subscriptions/listen` that rmcp has acknowledged: each
    /// change to the catalog is sent on it as
    /// `notifications/prompts/list_changed`, tagged with the subscription,
    /// until the client cancels it or goes. At most
    /// [`Server::max_listens`](crate::Server::max_listens) are open at once
    /// per handler (that is, per session); one past it ends with -32600,
    /// after rmcp's acknowledgment (rmcp acknowledges a listen before it
    /// calls the handler, and can refuse one earlier only as unknown).
    pub async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let _listening = self.listens.open(&self.outbound).map_err(|limit| {
            let error = Error::invalid_request(format!(
                "this connection has {limit} subscriptions open, the most it may: cancel one first"
            ))
            .with_limit(limit);
            to_rmcp(&error)
        })?;
        let accepted = context.accepted();
        let prompts = accepted.prompts_list_changed == Some(true);
        let resources = accepted.resources_list_changed == Some(true) && self.service.skills_live();
        let mut prompt_changes = prompts.then(|| self.service.subscribe());
        let mut skill_changes = resources.then(|| self.service.subscribe_skills());
        loop {
            let prompt_change = async {
                match &mut prompt_changes {
                    Some(changes) => changes.recv().await,
                    None => std::future::pending().await,
                }
            };
            let skill_change = async {
                match &mut skill_changes {
                    Some(changes) => changes.recv().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                () = context.cancelled() => return Ok(()),
                change = prompt_change => match change {
                    // A stream nobody reads any more ends here.
                    Some(()) => {
                        if context.sink().notify_prompt_list_changed().await.is_err() {
                            return Ok(());
                        }
                    }
                    // The catalog let go of this stream: no more changes.
                    None => prompt_changes = None,
                },
                change = skill_change => match change {
                    Some(()) => {
                        if context.sink().notify_resource_list_changed().await.is_err() {
                            return Ok(());
                        }
                    }
                    None => skill_changes = None,
                },
            }
        }
    }
}
