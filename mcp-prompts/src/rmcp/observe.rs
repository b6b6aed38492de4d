//! rmcp's requests watched as our own transports watch theirs: the same
//! span, line and metrics, from rmcp's typed request and result.

use ::rmcp::model::ErrorData;
use ::rmcp::service::{RequestContext, RoleServer};

use std::future::Future;

use super::{RmcpPrompts, access_of, raw_id, version_of};
use crate::protocol::ProtocolVersion;
#[cfg(feature = "otel")]
use crate::telemetry::asked::Carrier;
use crate::telemetry::{self, Asked, Network, Observation, ParamsRead, Visibility};
use crate::telemetry::{Delivered, Ended};

impl RmcpPrompts {
    /// Starts watching `method`, about `asked`, if anyone watches.
    pub(super) fn watch(
        &self,
        method: &str,
        asked: impl FnOnce() -> Option<Asked>,
        context: &RequestContext<RoleServer>,
    ) -> Observation {
        self.watch_judged(method, asked, context, |service, asked, access| {
            crate::server::observe::visibility(service, asked, access)
        })
    }

    /// Starts watching `method`, about `asked`, whose visibility `judge`
    /// decides, if anyone watches.
    pub(super) fn watch_judged(
        &self,
        method: &str,
        asked: impl FnOnce() -> Option<Asked>,
        context: &RequestContext<RoleServer>,
        judge: impl FnOnce(&crate::server::Service, &Asked, &crate::caller::Access) -> Visibility,
    ) -> Observation {
        if !telemetry::wanted() {
            return Observation::OFF;
        }
        // rmcp owns the transport: HTTP when it hands over the request's
        // parts, else not known here.
        let wire = match context.extensions.get::<http::request::Parts>() {
            Some(parts) => Network::http_request(parts.version, None, &parts.headers),
            None => Network::UNKNOWN,
        };
        let access = access_of(context);
        let subject = access.caller().map(|caller| caller.subject());
        let id = raw_id(&context.id);
        let read = || {
            let read = ParamsRead::new(asked());
            #[cfg(feature = "otel")]
            let read = read.carrying(carrier_of(&context.meta));
            read
        };
        let judged = |asked: &Asked| judge(&self.service, asked, &access);
        Observation::request(method, id.get(), read, judged, (&wire, subject))
    }
}

impl RmcpPrompts {
    /// Runs `handle`, the handler of `method` about `asked`, in its watch.
    pub(super) fn watched<T>(
        &self,
        method: &str,
        asked: impl FnOnce() -> Option<Asked>,
        context: &RequestContext<RoleServer>,
        handle: impl FnOnce() -> Result<T, ErrorData>,
    ) -> Result<T, ErrorData> {
        let watch = self.watch(method, asked, context);
        let result = watch.span().in_scope(handle);
        end_on(watch, &result, false, version_of(context));
        result
    }
}

/// Awaits `handled` in `watch`'s span, then ends the watch on its result
/// (`failed_tool`: whether that is a tool's `isError` result).
pub(super) async fn finished<T>(
    watch: Observation,
    version: ProtocolVersion,
    handled: impl Future<Output = Result<T, ErrorData>>,
    failed_tool: impl FnOnce(&Result<T, ErrorData>) -> bool,
) -> Result<T, ErrorData> {
    let span = watch.span();
    let result = tracing::Instrument::instrument(handled, span).await;
    end_on(watch, &result, failed_tool(&result), version);
    result
}

/// Ends `watch` on rmcp's `result`, which `failed_tool` says is a tool's
/// `isError` result.
fn end_on<T>(
    watch: Observation,
    result: &Result<T, ErrorData>,
    failed_tool: bool,
    version: ProtocolVersion,
) {
    let ended = match result {
        Ok(_) if failed_tool => Ended::ToolError,
        Ok(_) => Ended::Ok,
        Err(error) => Ended::Error {
            code: i64::from(error.code.0),
            message: &error.message,
        },
    };
    watch.end(&ended, Some(version), Delivered::Answer);
}

/// What a `completion/complete` is about: the prompt or resource template
/// its reference names.
pub(super) fn asked_by_reference(reference: &::rmcp::model::Reference) -> Option<Asked> {
    match reference {
        ::rmcp::model::Reference::Prompt(prompt) => Some(Asked::Prompt(prompt.name.clone())),
        ::rmcp::model::Reference::Resource(resource) => Some(Asked::Resource(resource.uri.clone())),
        _ => None,
    }
}

/// Whether a tool call's result reports an error (`isError`).
pub(super) fn is_tool_error(result: &Result<::rmcp::model::CallToolResponse, ErrorData>) -> bool {
    matches!(
        result,
        Ok(::rmcp::model::CallToolResponse::Complete(result)) if result.is_error == Some(true)
    )
}

/// The W3C trace context a request's `_meta` carries, read as from our own
/// params: a key of another type is left out.
#[cfg(feature = "otel")]
fn carrier_of(meta: &::rmcp::model::RequestMetaObject) -> Carrier {
    let keys = ["traceparent", "tracestate", "baggage"];
    let carried: serde_json::Map<String, serde_json::Value> = keys
        .into_iter()
        .filter_map(|key| Some((key.to_owned(), meta.get(key)?.as_str()?.into())))
        .collect();
    serde_json::from_value(carried.into()).unwrap_or_default()
}
