//! A JSON body with its status: every answer of the endpoint that is not
//! an event stream, refusals included; and the bodies that hold their
//! answer's bytes reserved from the unsent budget until hyper lets go of
//! them. A leaf, so that what answers requests before the endpoint does
//! (auth, the playground) needs nothing of the endpoint's own state.

use std::borrow::Cow;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use bytes::Bytes;
use hyper::body::{Frame, SizeHint};

use crate::context::{Kept, Reservation};
use crate::telemetry::line;

/// The line for an HTTP request refused with `status`, from the body that
/// says why: a JSON-RPC error, or OAuth's `error` and `error_description`.
fn log_refusal(status: u16, body: &str) {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Why<'a> {
        JsonRpc {
            #[serde(borrow)]
            error: RpcError<'a>,
        },
        OAuth {
            #[serde(borrow)]
            error: Cow<'a, str>,
            #[serde(borrow, default)]
            error_description: Option<Cow<'a, str>>,
        },
    }
    #[derive(serde::Deserialize)]
    struct RpcError<'a> {
        code: i64,
        #[serde(borrow)]
        message: Cow<'a, str>,
    }
    if !tracing::enabled!(target: line::TARGET, tracing::Level::INFO) {
        return;
    }
    let status = Some(status);
    match serde_json::from_str::<Why<'_>>(body) {
        Ok(Why::JsonRpc { error }) => {
            line::refused_because(status, Some(error.code), &error.message, None);
        }
        Ok(Why::OAuth {
            error,
            error_description,
        }) => {
            let reason = match error_description {
                Some(description) => format!("{error}: {description}"),
                None => error.into_owned(),
            };
            line::refused_because(status, None, &reason, None);
        }
        Err(_) => line::refused_because(status, None, "", None),
    }
}

/// `body` as `application/json` with `status`; a refusal (4xx, 5xx) is
/// logged here, once.
pub(crate) fn json_response(status: StatusCode, body: String) -> Response {
    if status.is_client_error() || status.is_server_error() {
        log_refusal(status.as_u16(), &body);
    }
    json(status, Body::from(body))
}

/// `body` as `application/json` with `status`, made as it is sent: a
/// `String` or `Bytes` made a response by axum is first given a content
/// type of its own, which this one would then replace, a second header
/// insert for every answer.
fn json(status: StatusCode, body: Body) -> Response {
    let mut response = Response::new(body);
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// An answer whose bytes are reserved from the service's unsent budget,
/// as `application/json` with status 200. Its text becomes the body
/// without a copy, and the reservation lives exactly as long as the text:
/// hyper drops the buffer once its last byte is written to the client, or
/// with the connection.
pub(crate) fn unsent_response(body: String, reserved: Reservation) -> Response {
    /// The text, and the reservation that goes with it.
    struct Unsent {
        text: String,
        _reserved: Reservation,
    }

    impl AsRef<[u8]> for Unsent {
        fn as_ref(&self) -> &[u8] {
            self.text.as_bytes()
        }
    }

    let body = Bytes::from_owner(Unsent {
        text: body,
        _reserved: reserved,
    });
    json(StatusCode::OK, Body::from(body))
}

/// `response`, whose body holds `reserved` (if any) and, for an answer
/// made later, the place its reservation is left (`kept`), until hyper
/// drops it: for an event stream, whose events copy their text, once its
/// last event is taken.
pub(crate) fn holding(
    response: Response,
    reserved: Option<Reservation>,
    kept: Option<Kept>,
) -> Response {
    if reserved.is_none() && kept.is_none() {
        return response;
    }
    response.map(|body| {
        Body::new(Holding {
            body,
            _held: (reserved, kept),
        })
    })
}

/// A body, and the reservations that go when it does.
struct Holding {
    body: Body,
    _held: (Option<Reservation>, Option<Kept>),
}

impl hyper::body::Body for Holding {
    type Data = <Body as hyper::body::Body>::Data;
    type Error = <Body as hyper::body::Body>::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
