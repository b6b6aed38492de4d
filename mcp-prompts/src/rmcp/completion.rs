//! `completion/complete` in an rmcp server: the catalog's completers,
//! and the resource templates' with `Server::complete_resources`.

use ::rmcp::model::{
    CompleteRequestParams, CompleteResult, CompletionInfo, Reference as RmcpReference,
};
use ::rmcp::service::RequestContext;

use super::settled;
use crate::protocol::method::Method;
use crate::server::completion::{Query, Reference};

use super::{
    ErrorData, RmcpPrompts, RoleServer, access_of, internal, observe, to_rmcp, version_of,
};

impl RmcpPrompts {
    /// Answers `completion/complete` for the catalog's prompts and, with
    /// [`Server::complete_resources`](crate::Server::complete_resources),
    /// resource templates.
    pub async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let version = version_of(&context);
        let watch = self.watch(
            "completion/complete",
            || observe::asked_by_reference(&request.r#ref),
            &context,
        );
        observe::finished(
            watch,
            version,
            self.complete_unwatched(request, context),
            |_| false,
        )
        .await
    }

    async fn complete_unwatched(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.attach(&context);
        self.service
            .declared(Method::CompletionComplete)
            .map_err(|e| to_rmcp(&e))?;
        let reference = match &request.r#ref {
            RmcpReference::Prompt(prompt) => Reference::Prompt(&prompt.name),
            RmcpReference::Resource(resource) => Reference::Resource(&resource.uri),
            _ => {
                return Err(ErrorData::invalid_params(
                    "unknown reference type: expected `ref/prompt` or `ref/resource`",
                    None,
                ));
            }
        };
        let filled = request
            .context
            .as_ref()
            .and_then(|c| c.arguments.as_ref())
            .map(|arguments| {
                arguments
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            })
            .unwrap_or_default();
        let access = access_of(&context);
        let typed = (&*request.argument.name, &*request.argument.value);
        let query = Query::new(reference, typed, filled, &access);
        let found = settled(query.complete(&self.service)).await;
        let found = found.map_err(|e| to_rmcp(&e))?;
        // The values the core sends, with the same `total` and `hasMore`.
        let (values, has_more, total) = found.shown();
        let total = u32::try_from(total).unwrap_or(u32::MAX);
        let info = CompletionInfo::with_pagination(
            values.iter().map(|v| v.clone().into_owned()).collect(),
            Some(total),
            has_more,
        )
        .map_err(internal)?;
        Ok(CompleteResult::new(info))
    }
}
