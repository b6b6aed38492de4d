//! `resources/list`, the first method added through the method table:
//! off by default (-32601, no `resources` capability), and with
//! `Server::serve_resources` declared and answered on every route of our
//! own, over stdio and HTTP, in a session and statelessly. (The rmcp route
//! is in `rmcp.rs`.)

mod http_support;
mod support;

use hyper::{Method, StatusCode};
use serde_json::{Value, json};

use http_support::{Running, open_session, post_modern, send, text};
use support::{Client, LATEST, modern, rpc};

const RESOURCES: (&str, &str) = ("FIXTURE_RESOURCES", "1");
const ACCEPT_BOTH: (&str, &str) = ("accept", "application/json, text/event-stream");

fn list() -> Value {
    json!({})
}

#[test]
fn over_stdio_resources_are_listed_only_once_the_server_serves_them() {
    let mut client = Client::start();
    let init = client.initialize(LATEST);
    assert!(init["capabilities"]["prompts"].is_object(), "{init}");
    assert!(init["capabilities"].get("resources").is_none(), "{init}");
    let refused = client.call("resources/list", list());
    assert_eq!(refused["error"]["code"], -32601, "{refused}");
    let refused = client.call("resources/list", modern(list(), json!({})));
    assert_eq!(refused["error"]["code"], -32601, "{refused}");
    // Still serving.
    assert!(client.call("prompts/list", list())["result"]["prompts"].is_array());

    let mut client = Client::start_with(&[RESOURCES]);
    let init = client.initialize(LATEST);
    assert_eq!(init["capabilities"]["resources"], json!({}), "{init}");
    let listed = client.call("resources/list", list());
    assert_eq!(listed["result"], json!({"resources": []}), "{listed}");
    let listed = client.call("resources/list", modern(list(), json!({})));
    let result = &listed["result"];
    assert_eq!(result["resultType"], "complete", "{listed}");
    assert_eq!(result["resources"], json!([]), "{listed}");
    assert_eq!(result["cacheScope"], "public", "{listed}");
    assert!(result["ttlMs"].as_u64().is_some(), "{listed}");
    assert!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"].is_string(),
        "{listed}"
    );
    let bad = client.call("resources/list", json!({"cursor": "page:2"}));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    let bad = client.call("resources/list", json!({"cursor": 7}));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
}

#[test]
fn server_discover_declares_resources_when_served() {
    for (env, declared) in [(&[][..], false), (&[RESOURCES][..], true)] {
        let mut client = Client::start_with(env);
        let discovered = client.call("server/discover", modern(json!({}), json!({})));
        let capabilities = &discovered["result"]["capabilities"];
        assert_eq!(
            capabilities.get("resources").is_some(),
            declared,
            "{discovered}"
        );
    }
}

#[tokio::test]
async fn over_http_a_session_lists_resources_once_served() {
    for (env, served) in [(&[][..], false), (&[RESOURCES][..], true)] {
        let server = Running::fixture(env);
        let session = open_session(&server, LATEST);
        let headers = [
            ACCEPT_BOTH,
            ("mcp-session-id", session.as_str()),
            ("mcp-protocol-version", LATEST),
        ];
        let response = send(
            server.addr,
            Method::POST,
            &headers,
            rpc(2, "resources/list", &list()),
        )
        .await;
        assert_eq!(response.status(), StatusCode::OK);
        let answer: Value = serde_json::from_str(&text(response).await).unwrap();
        if served {
            assert_eq!(answer["result"], json!({"resources": []}), "{answer}");
        } else {
            assert_eq!(answer["error"]["code"], -32601, "{answer}");
        }
    }
}

#[tokio::test]
async fn over_stateless_http_resources_are_listed_or_not_found() {
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": "resources/list",
                         "params": modern(list(), json!({}))});
    let server = Running::fixture(&[("FIXTURE_STATELESS", "1")]);
    let (status, answer) = post_modern(&server, &request, &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
    assert_eq!(answer["error"]["code"], -32601, "{answer}");

    let server = Running::fixture(&[("FIXTURE_STATELESS", "1"), RESOURCES]);
    let (status, answer) = post_modern(&server, &request, &[]).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let result = &answer["result"];
    assert_eq!(result["resultType"], "complete", "{answer}");
    assert_eq!(result["resources"], json!([]), "{answer}");
    assert_eq!(result["cacheScope"], "public", "{answer}");
}
