//! A request the server sends its client (`elicitation/create`): a
//! `CLIENT` span, the child of the request that asks, whose context (with
//! feature `otel`) goes in the request's `_meta`, as the conventions ask
//! of every MCP request.

use serde_json::Value;
use tracing::Span;
use tracing::field::Empty;

use super::line::TARGET;

/// The span of request `method` the server sends; `params` carries its
/// context.
#[cfg_attr(not(feature = "otel"), allow(unused_variables))]
pub(crate) fn outgoing(method: &'static str, params: &mut Value) -> Span {
    let span = tracing::info_span!(
        target: TARGET,
        "mcp.outgoing",
        otel.name = method,
        otel.kind = "client",
        mcp.method.name = method,
        error.type = Empty,
        otel.status_code = Empty,
    );
    #[cfg(feature = "otel")]
    super::otel::inject(&span, params);
    span
}

/// Records on `span` that the request it covers failed with `code` (no
/// answer came, or the client answered with an error).
pub(crate) fn outgoing_failed(span: &Span, code: i32) {
    span.record("error.type", code.to_string().as_str());
    span.record("otel.status_code", "error");
}
