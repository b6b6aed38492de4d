//! The playground (feature `playground`): a page beside the MCP endpoint
//! where a person picks a prompt, fills a form built from its typed
//! arguments and sees the messages as a host shows them. The page is plain
//! HTML, CSS and a script, embedded in the crate; it talks to the endpoint
//! as any client does, over the same origin, and fetches nothing else.
//!
//! Prompt text is untrusted: the script only ever sets it as text, and the
//! `Content-Security-Policy` allows no script or style but the page's own
//! and no images but `data:` ones, so a prompt cannot run code or make the
//! browser call another origin. A request that did not come over loopback
//! or that names no loopback host (a proxy's public name, a rebinding name)
//! is refused unless [`Playground::beyond_loopback`] says otherwise; the
//! page's data (the argument forms, and `/mcp` itself) then needs the same
//! bearer token as `/mcp`.

pub(super) mod config;
mod forms;
mod page;

pub use config::Playground;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::guard::{check_origin, names_loopback};
use super::options::{HostPolicy, HttpOptions};
use super::respond::Endpoint;
use crate::caller::Caller;

/// On a listener any host may reach (`0.0.0.0`), `/mcp` takes only listed
/// origins; the page opened on this machine is one, at the listener's port.
pub(super) fn with_own_origins(mut options: HttpOptions, addr: Option<SocketAddr>) -> HttpOptions {
    let any_host = options.hosts == HostPolicy::Any;
    if let (Some(_), Some(addr), true) = (&options.playground, addr, any_host) {
        let port = addr.port();
        for host in ["127.0.0.1", "localhost", "[::1]"] {
            options.origins.push(format!("http://{host}:{port}"));
        }
    }
    options
}

/// The page's routes, beside the endpoint at `mcp_path`: the page at
/// `/playground` in the same folder, its script, style and the forms.
pub(super) fn routes(endpoint: &Arc<Endpoint>, mcp_path: &str) -> Option<Router> {
    let playground = endpoint.options.playground.as_ref()?;
    let base = match mcp_path.rsplit_once('/') {
        Some((folder, _)) => format!("{folder}/playground"),
        None => "/playground".to_owned(),
    };
    // The endpoint as the page finds it, beside itself: right also when an
    // app nests the router under a prefix.
    let beside = mcp_path.rsplit('/').next().unwrap_or(mcp_path);
    let page = page::Page::new(
        beside,
        playground.command.as_deref(),
        endpoint.options.verifies_tokens(),
    );
    let page = Arc::new(page);
    let forms = get(forms_json);
    #[cfg(feature = "auth")]
    let forms = match &endpoint.options.auth {
        Some(auth) => {
            let guard = Arc::new(super::auth::Guard::for_endpoint(
                auth.for_service(&endpoint.service),
            ));
            forms.route_layer(axum::middleware::from_fn_with_state(
                guard,
                super::auth::require_bearer,
            ))
        }
        None => forms,
    };
    let assets = Router::new()
        .route(&base, get(page::html))
        .route(&format!("{base}/playground.js"), get(page::script))
        .route(&format!("{base}/playground.css"), get(page::style))
        .with_state(page);
    let forms = Router::new()
        .route(&format!("{base}/forms.json"), forms)
        .with_state(Arc::clone(endpoint));
    let guarded = axum::middleware::from_fn_with_state(Arc::clone(endpoint), admit);
    Some(assets.merge(forms).layer(guarded))
}

/// Lets a request reach the page only over loopback (unless the page is
/// served beyond it) and with an allowed `Host` and `Origin`, as `/mcp`
/// checks them.
async fn admit(
    State(endpoint): State<Arc<Endpoint>>,
    request: Request,
    next: axum::middleware::Next,
) -> Response {
    let beyond = endpoint
        .options
        .playground
        .as_ref()
        .is_some_and(|p| p.beyond_loopback);
    // An IPv4 peer of a `[::]` listener arrives as `::ffff:127.0.0.1`.
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip().to_canonical());
    let authority = request.uri().authority().map(|a| a.as_str().to_owned());
    let local = peer.is_some_and(|ip| ip.is_loopback())
        && names_loopback(request.headers(), authority.as_deref());
    if !beyond && !local {
        return refused(
            StatusCode::FORBIDDEN,
            "the playground is served over loopback only: open it on this machine at \
             127.0.0.1 or localhost, or serve it with Playground::beyond_loopback()",
        );
    }
    if check_origin(request.headers(), authority.as_deref(), &endpoint.options).is_err() {
        return refused(
            StatusCode::FORBIDDEN,
            "this host or origin may not open the playground",
        );
    }
    next.run(request).await
}

fn refused(status: StatusCode, message: &'static str) -> Response {
    (
        status,
        [("content-type", "text/plain; charset=utf-8")],
        message,
    )
        .into_response()
}

/// The forms of the prompts the caller may see.
async fn forms_json(
    State(endpoint): State<Arc<Endpoint>>,
    caller: Option<axum::Extension<Caller>>,
    uri: axum::http::Uri,
) -> Response {
    let access = super::handlers::remote_access(caller.as_ref().map(|c| &c.0));
    // `?lang=fr`: the forms in the language the page's picker chose.
    let preference = uri.query().and_then(|query| {
        url::form_urlencoded::parse(query.as_bytes())
            .find_map(|(key, value)| (key == "lang").then_some(value))
    });
    let body = forms::forms(&endpoint.service, &access, preference.as_deref()).to_string();
    (
        [
            ("content-type", "application/json"),
            ("cache-control", "no-store"),
        ],
        body,
    )
        .into_response()
}
