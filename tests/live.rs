//! A catalog that changes while serving, over stdio and HTTP: a prompt disabled,
//! enabled again, and a burst of changes, each served to the requests that
//! come after it and announced with one `notifications/prompts/list_changed`
//! per burst. The fixture server is built live; its `toggle` and `churn`
//! prompts change its catalog.

mod http_support;
mod support;

use hyper::Method;
use serde_json::{Value, json};

use http_support::{Events, Running, header, send};
use support::{Client, LATEST, initialize, modern, rpc};

fn names(client: &mut Client) -> Vec<String> {
    let listed = client.call("prompts/list", json!({}));
    listed["result"]["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect()
}

fn text(response: &Value) -> &str {
    response["result"]["messages"][0]["content"]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text: {response}"))
}

#[test]
fn changes_are_served_and_announced_once_per_burst() {
    let mut client = Client::start();
    let init = client.initialize(LATEST);
    assert_eq!(
        init["capabilities"]["prompts"],
        json!({"listChanged": true})
    );
    assert!(names(&mut client).contains(&"greet".to_owned()));

    let off = client.get("toggle", json!({"name": "greet"}));
    assert_eq!(text(&off), "disabled greet: true");
    client.assert_list_changed();
    assert!(!names(&mut client).contains(&"greet".to_owned()));
    let gone = client.get("greet", json!({"name": "Ann"}));
    assert_eq!(gone["error"]["code"], -32602, "{gone}");

    let on = client.get("toggle", json!({"name": "greet"}));
    assert_eq!(text(&on), "enabled greet: true");
    client.assert_list_changed();
    let back = client.get("greet", json!({"name": "Ann"}));
    assert_eq!(text(&back), "Compose a short, casual greeting for Ann.");

    // Six changes in a row: one announcement.
    assert_eq!(text(&client.get("churn", json!({}))), "churned");
    client.assert_list_changed();
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(client.call("ping", json!({}))["result"], json!({}));

    // A prompt that is not there cannot be enabled; nothing is announced.
    let none = client.get("toggle", json!({"name": "no_such_prompt"}));
    assert_eq!(text(&none), "enabled no_such_prompt: false");
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(client.call("ping", json!({}))["result"], json!({}));
}

/// 2026-07-28: a stateless client hears of changes on its
/// `subscriptions/listen` request, acknowledged first, every notification
/// tagged with the request's id; at the end of input the request ends with
/// its result.
#[test]
fn a_listen_request_hears_of_changes_until_the_connection_ends() {
    let mut client = Client::start();
    let discover = client.call("server/discover", modern(json!({}), json!({})));
    assert_eq!(
        discover["result"]["capabilities"]["prompts"],
        json!({"listChanged": true})
    );
    let listen = modern(
        json!({"notifications": {"promptsListChanged": true, "toolsListChanged": true}}),
        json!({}),
    );
    client.send_line(
        &json!({"jsonrpc": "2.0", "id": 50, "method": "subscriptions/listen", "params": listen})
            .to_string(),
    );
    let ack = client.read();
    assert_eq!(
        ack,
        json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
               "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": 50},
                          "notifications": {"promptsListChanged": true}}})
    );
    let toggle = modern(
        json!({"name": "toggle", "arguments": {"name": "greet"}}),
        json!({}),
    );
    client.send_line(
        &json!({"jsonrpc": "2.0", "id": 51, "method": "prompts/get", "params": toggle}).to_string(),
    );
    let mut seen = [client.read(), client.read()];
    seen.sort_by_key(|m| m.get("id").is_some());
    assert_eq!(
        seen[0],
        json!({"jsonrpc": "2.0", "method": "notifications/prompts/list_changed",
               "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": 50}}})
    );
    assert_eq!(seen[1]["id"], 51);
    let (rest, status) = client.finish();
    assert!(status.success());
    assert_eq!(rest.len(), 1, "{rest:?}");
    assert_eq!(rest[0]["id"], 50);
    assert_eq!(rest[0]["result"]["resultType"], "complete");
    assert_eq!(
        rest[0]["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        50
    );
    // And the server's info, as every 2026-07-28 result carries it.
    assert!(
        rest[0]["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"].is_string(),
        "{}",
        rest[0]
    );
}

/// Over HTTP, the announcement goes on the session's own event stream.
#[tokio::test]
async fn http_sessions_hear_of_changes_on_their_stream() {
    let server = Running::fixture(&[]);
    let accept = ("accept", "application/json, text/event-stream");
    let response = send(server.addr, Method::POST, &[accept], initialize(LATEST)).await;
    let session = header(&response, "mcp-session-id").unwrap().to_owned();
    let headers = [
        accept,
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", LATEST),
    ];
    let stream = send(server.addr, Method::GET, &headers, "").await;
    assert_eq!(header(&stream, "content-type"), Some("text/event-stream"));
    let toggle = rpc(
        1,
        "prompts/get",
        &json!({"name": "toggle", "arguments": {"name": "greet"}}),
    );
    send(server.addr, Method::POST, &headers, toggle).await;
    let message = Events::new(stream).next().await;
    assert_eq!(message["method"], "notifications/prompts/list_changed");
}

/// Over stateless HTTP, a `subscriptions/listen` `POST` is an event stream
/// that carries the acknowledgement, then each change.
#[tokio::test]
async fn a_listen_stream_over_http() {
    let server = Running::fixture(&[]);
    let headers = |method: &'static str, name: &'static str| {
        let mut headers = vec![
            ("accept", "application/json, text/event-stream"),
            ("content-type", "application/json"),
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", method),
        ];
        if !name.is_empty() {
            headers.push(("mcp-name", name));
        }
        headers
    };
    let listen = rpc(
        7,
        "subscriptions/listen",
        &modern(
            json!({"notifications": {"promptsListChanged": true}}),
            json!({}),
        ),
    );
    let stream = send(
        server.addr,
        Method::POST,
        &headers("subscriptions/listen", ""),
        listen,
    )
    .await;
    assert_eq!(header(&stream, "content-type"), Some("text/event-stream"));
    let mut events = Events::new(stream);
    let ack = events.next().await;
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(
        ack["params"]["notifications"],
        json!({"promptsListChanged": true})
    );
    let toggle = rpc(
        8,
        "prompts/get",
        &modern(
            json!({"name": "toggle", "arguments": {"name": "greet"}}),
            json!({}),
        ),
    );
    send(
        server.addr,
        Method::POST,
        &headers("prompts/get", "toggle"),
        toggle,
    )
    .await;
    let change = events.next().await;
    assert_eq!(
        change,
        json!({"jsonrpc": "2.0", "method": "notifications/prompts/list_changed",
               "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": 7}}})
    );
}
