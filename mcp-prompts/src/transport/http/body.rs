//! A JSON body with its status: every answer of the endpoint that is not
//! an event stream, refusals included. A leaf, so that what answers
//! requests before the endpoint does (auth, the playground) needs nothing
//! of the endpoint's own state.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// `body` as `application/json` with `status`; a refusal (4xx, 5xx) is
/// logged here, once.
pub(crate) fn json_response(status: StatusCode, body: String) -> Response {
    if status.is_client_error() || status.is_server_error() {
        crate::telemetry::line::refused_over_http(status.as_u16(), &body);
    }
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}
