//! The facts of an HTTP request its telemetry records, gathered only when
//! someone watches.

use std::net::SocketAddr;

use axum::extract::ConnectInfo;
use axum::http::request::Parts;

use crate::telemetry::{self, Network};

/// The request's wire: HTTP's version, the peer (where the listener, or
/// the app's `into_make_service_with_connect_info`, says), the session it
/// names and its own trace headers.
pub(super) fn network_of(parts: &Parts) -> Network {
    if !telemetry::wanted() {
        return Network::UNKNOWN;
    }
    let client = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0);
    Network::http_request(parts.version, client, &parts.headers)
}
