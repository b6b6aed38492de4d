//! The rmcp adapter (`mcp_prompts::rmcp`) inside a real rmcp server, driven
//! over rmcp's own stdio-style transport (newline-delimited JSON on a
//! pipe): log messages and progress from a prompt reach the client through
//! rmcp's peer, rmcp's cancellation reaches the prompt, a live catalog's
//! change is announced, a client that can show a form is asked for missing
//! arguments, and a failing prompt's error is redacted.

mod support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use mcp_prompts::rmcp::RmcpPrompts;
use mcp_prompts::{Error, LogLevel, RequestContext, Server, prompt};
use rmcp::model::{ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, ServiceExt};
use serde_json::{Value, json};
use support::{LATEST, initialize_params_with};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};

/// Logs, then reports progress twice
#[prompt]
fn chatty(ctx: RequestContext) -> String {
    ctx.log(LogLevel::Info, "about to answer");
    ctx.log(LogLevel::Debug, "a detail");
    ctx.progress(1.0, Some(2.0), Some("half"));
    ctx.progress(2.0, Some(2.0), None);
    "done".into()
}

static SAW_CANCELLATION: AtomicBool = AtomicBool::new(false);

/// Waits to be cancelled; a task it started says when it sees it (the
/// prompt's own future is dropped where it stands, as in our server)
#[prompt]
async fn waits(ctx: RequestContext) -> String {
    let watcher = ctx.clone();
    tokio::spawn(async move {
        watcher.cancelled().await;
        SAW_CANCELLATION.store(watcher.is_cancelled(), Ordering::SeqCst);
    });
    tokio::time::sleep(Duration::from_secs(30)).await;
    "not cancelled".into()
}

/// Fails with a secret
#[prompt]
fn leaks() -> Result<String, Error> {
    Err(std::io::Error::other("postgres://admin:hunter2@db").into())
}

/// Needs a topic
#[prompt]
fn needs(topic: String) -> String {
    format!("About {topic}")
}

/// Added while serving
#[prompt]
fn later() -> String {
    "later".into()
}

#[derive(Clone)]
struct Handler {
    prompts: RmcpPrompts,
}

impl ServerHandler for Handler {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(self.prompts.capabilities(ServerCapabilities::default()))
    }

    mcp_prompts::rmcp::serve_prompts!(prompts);
}

/// A handler with tools of its own, and so a listen of its own: it says
/// its tools changed on each, then serves the prompts' changes on it.
#[derive(Clone)]
struct OwnListen {
    prompts: RmcpPrompts,
}

impl ServerHandler for OwnListen {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed()
            .build();
        ServerConfig::new(self.prompts.capabilities(capabilities))
    }

    mcp_prompts::rmcp::serve_prompts!(prompts, except listen);

    fn accepted_subscription_filter(
        &self,
        _requested: &rmcp::model::SubscriptionFilter,
    ) -> Option<rmcp::model::SubscriptionFilter> {
        let mut accepted = self.prompts.accepted_subscription_filter();
        accepted.tools_list_changed = Some(true);
        Some(accepted)
    }

    async fn listen(
        &self,
        context: rmcp::service::SubscriptionContext,
    ) -> Result<(), rmcp::ErrorData> {
        let _ = context.sink().notify_tool_list_changed().await;
        self.prompts.listen(context).await
    }
}

/// A handler with a resource of its own, listed beside the catalog's.
#[derive(Clone)]
struct WithResources {
    prompts: RmcpPrompts,
}

impl ServerHandler for WithResources {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(self.prompts.capabilities(ServerCapabilities::default()))
    }

    mcp_prompts::rmcp::serve_prompts!(prompts);

    async fn list_resources(
        &self,
        request: Option<rmcp::model::PaginatedRequestParams>,
        context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::ListResourcesResult, rmcp::ErrorData> {
        let mut page = self.prompts.list_resources(request.as_ref(), &context)?;
        page.resources
            .push(rmcp::model::Resource::new("file:///notes.txt", "notes"));
        Ok(page)
    }
}

/// A handler serving skills through rmcp's hooks.
#[derive(Clone)]
struct WithSkills {
    prompts: RmcpPrompts,
}

impl ServerHandler for WithSkills {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(self.prompts.capabilities(ServerCapabilities::default()))
    }

    mcp_prompts::rmcp::serve_prompts!(prompts);
    mcp_prompts::rmcp::serve_skills!(prompts);
}

struct Client {
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    writer: WriteHalf<DuplexStream>,
}

impl Client {
    async fn send(&mut self, message: Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.writer.write_all(line.as_bytes()).await.unwrap();
    }

    async fn read(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(10), self.lines.next_line())
            .await
            .expect("a message in time")
            .unwrap()
            .expect("the server is still there");
        serde_json::from_str(&line).unwrap()
    }

    /// Messages until the response to `id`, which comes last.
    async fn until_response(&mut self, id: u64) -> Vec<Value> {
        let mut messages = Vec::new();
        loop {
            let message = self.read().await;
            let done = message["id"] == id;
            messages.push(message);
            if done {
                return messages;
            }
        }
    }
}

async fn connect() -> (Client, mcp_prompts::Prompts) {
    connect_with(json!({})).await
}

async fn connect_with(capabilities: Value) -> (Client, mcp_prompts::Prompts) {
    connect_to(Server::new("rmcp-test", "1.0"), capabilities).await
}

/// A client of `handler`, served by rmcp over a pipe.
fn serve(handler: impl ServerHandler) -> Client {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(theirs);
    tokio::spawn(async move {
        if let Ok(running) = handler.serve((read, write)).await {
            let _ = running.waiting().await;
        }
    });
    let (read, writer) = tokio::io::split(ours);
    Client {
        lines: BufReader::new(read).lines(),
        writer,
    }
}

/// A client of an rmcp server whose prompts come from `server`.
async fn connect_to(server: Server, capabilities: Value) -> (Client, mcp_prompts::Prompts) {
    let (service, prompts) = server
        .prompts([chatty::PROMPT, waits::PROMPT, leaks::PROMPT, needs::PROMPT])
        .build_live()
        .unwrap();
    let handler = Handler {
        prompts: RmcpPrompts::new(&service),
    };
    let mut client = serve(handler);
    client
        .send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": initialize_params_with(LATEST, capabilities)}))
        .await;
    let init = client.read().await;
    assert_eq!(
        init["result"]["capabilities"]["prompts"],
        json!({"listChanged": true}),
        "{init}"
    );
    client
        .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    (client, prompts)
}

#[tokio::test]
async fn logs_and_progress_reach_the_client_through_rmcp() {
    let (mut client, _prompts) = connect().await;
    client
        .send(json!({"jsonrpc": "2.0", "id": 2, "method": "logging/setLevel", "params": {"level": "info"}}))
        .await;
    assert_eq!(client.read().await["result"], json!({}));
    client
        .send(json!({"jsonrpc": "2.0", "id": 3, "method": "prompts/get",
                     "params": {"name": "chatty", "_meta": {"progressToken": "p1"}}}))
        .await;
    // The request's messages come in the order sent, before its response.
    let mut messages = client.until_response(3).await;
    let response = messages.pop().unwrap();
    assert_eq!(response["result"]["messages"][0]["content"]["text"], "done");
    let methods: Vec<&Value> = messages.iter().map(|m| &m["method"]).collect();
    assert_eq!(
        methods,
        [
            "notifications/message",
            "notifications/progress",
            "notifications/progress"
        ]
    );
    let logs: Vec<&Value> = messages
        .iter()
        .filter(|m| m["method"] == "notifications/message")
        .collect();
    assert_eq!(logs.len(), 1, "{messages:?}");
    assert_eq!(logs[0]["params"]["level"], "info");
    assert_eq!(logs[0]["params"]["data"], "about to answer");
    let progress: Vec<&Value> = messages
        .iter()
        .filter(|m| m["method"] == "notifications/progress")
        .map(|m| &m["params"])
        .collect();
    assert_eq!(
        progress,
        [
            &json!({"progressToken": "p1", "progress": 1.0, "total": 2.0, "message": "half"}),
            &json!({"progressToken": "p1", "progress": 2.0, "total": 2.0}),
        ]
    );
}

#[tokio::test]
async fn rmcp_cancellation_reaches_the_prompt_and_changes_are_announced() {
    let (mut client, prompts) = connect().await;
    client
        .send(json!({"jsonrpc": "2.0", "id": 4, "method": "prompts/get", "params": {"name": "waits"}}))
        .await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    client
        .send(
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                     "params": {"requestId": 4, "reason": "no longer needed"}}),
        )
        .await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !SAW_CANCELLATION.load(Ordering::SeqCst) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the prompt never saw it"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    prompts.add(later::PROMPT).unwrap();
    let announced = client.read().await;
    assert_eq!(
        announced,
        json!({"jsonrpc": "2.0", "method": "notifications/prompts/list_changed"})
    );
    client
        .send(json!({"jsonrpc": "2.0", "id": 5, "method": "prompts/get", "params": {"name": "later"}}))
        .await;
    let got = client.until_response(5).await.pop().unwrap();
    assert_eq!(got["result"]["messages"][0]["content"]["text"], "later");
}

#[tokio::test]
async fn errors_keep_their_code_and_data_and_failures_are_redacted() {
    let (mut client, _prompts) = connect().await;
    client
        .send(json!({"jsonrpc": "2.0", "id": 6, "method": "prompts/get", "params": {"name": "leaks"}}))
        .await;
    let failed = client.until_response(6).await.pop().unwrap();
    assert_eq!(failed["error"]["code"], -32603, "{failed}");
    assert_eq!(failed["error"]["message"], "Internal error");
    assert!(failed["error"]["data"]["errorId"].is_string(), "{failed}");
    assert!(!failed.to_string().contains("hunter2"), "{failed}");

    client
        .send(
            json!({"jsonrpc": "2.0", "id": 7, "method": "prompts/get", "params": {"name": "nope"}}),
        )
        .await;
    let unknown = client.until_response(7).await.pop().unwrap();
    assert_eq!(
        unknown["error"],
        json!({"code": -32602, "message": "Unknown prompt: nope", "data": {"name": "nope"}})
    );
}

#[tokio::test]
async fn a_client_that_can_show_a_form_is_asked_for_missing_arguments() {
    let (mut client, _prompts) = connect_with(json!({"elicitation": {}})).await;
    client
        .send(json!({"jsonrpc": "2.0", "id": 8, "method": "prompts/get", "params": {"name": "needs"}}))
        .await;
    let asked = client.read().await;
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    assert_eq!(
        asked["params"]["requestedSchema"]["required"],
        json!(["topic"]),
        "{asked}"
    );
    client
        .send(json!({"jsonrpc": "2.0", "id": asked["id"],
                     "result": {"action": "accept", "content": {"topic": "rust"}}}))
        .await;
    let got = client.until_response(8).await.pop().unwrap();
    assert_eq!(
        got["result"]["messages"][0]["content"]["text"], "About rust",
        "{got}"
    );

    // Declined: the arguments stay missing.
    client
        .send(json!({"jsonrpc": "2.0", "id": 9, "method": "prompts/get", "params": {"name": "needs"}}))
        .await;
    let asked = client.read().await;
    client
        .send(json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"action": "decline"}}))
        .await;
    let refused = client.until_response(9).await.pop().unwrap();
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(refused["error"]["data"]["missing"], json!(["topic"]));
}

/// A question the client leaves unanswered past the timeout is withdrawn:
/// the client is sent `notifications/cancelled` with the id rmcp sent the
/// question under, and the prompt sees a decline (here: the missing
/// argument stays missing).
#[tokio::test]
async fn an_unanswered_question_is_withdrawn_under_the_id_rmcp_sent() {
    let server = Server::new("rmcp-test", "1.0").question_timeout(Duration::from_millis(200));
    let (mut client, _prompts) = connect_to(server, json!({"elicitation": {}})).await;
    client
        .send(json!({"jsonrpc": "2.0", "id": 10, "method": "prompts/get", "params": {"name": "needs"}}))
        .await;
    let asked = client.read().await;
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    let (mut withdrawn, mut refused) = (None, None);
    while withdrawn.is_none() || refused.is_none() {
        let message = tokio::time::timeout(Duration::from_secs(5), client.read())
            .await
            .expect("the question is withdrawn and the request answered");
        if message["method"] == "notifications/cancelled" {
            withdrawn = Some(message);
        } else if message["id"] == 10 {
            refused = Some(message);
        }
    }
    let (withdrawn, refused) = (withdrawn.unwrap(), refused.unwrap());
    assert_eq!(withdrawn["params"]["requestId"], asked["id"], "{withdrawn}");
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(refused["error"]["data"]["missing"], json!(["topic"]));
}

/// A question still open when the client cancels its request is
/// withdrawn: the client is told, under the id rmcp sent the question
/// with, so it can close the form nobody waits for.
#[tokio::test]
async fn a_question_open_when_its_request_is_cancelled_is_withdrawn() {
    let server = Server::new("rmcp-test", "1.0").question_timeout(Duration::from_secs(600));
    let (mut client, _prompts) = connect_to(server, json!({"elicitation": {}})).await;
    client
        .send(json!({"jsonrpc": "2.0", "id": 11, "method": "prompts/get", "params": {"name": "needs"}}))
        .await;
    let asked = client.read().await;
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    client
        .send(
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                     "params": {"requestId": 11}}),
        )
        .await;
    let withdrawn = tokio::time::timeout(Duration::from_secs(5), client.read())
        .await
        .expect("the question is withdrawn");
    assert_eq!(
        withdrawn["method"], "notifications/cancelled",
        "{withdrawn}"
    );
    assert_eq!(withdrawn["params"]["requestId"], asked["id"], "{withdrawn}");
}

/// `serve_prompts!(field, except listen)` leaves a handler its own
/// `subscriptions/listen`, from which the prompts' changes are still sent.
#[tokio::test]
async fn a_handler_with_its_own_listen_serves_the_prompts_changes_on_it() {
    let (service, prompts) = Server::new("rmcp-test", "1.0")
        .prompts([needs::PROMPT])
        .build_live()
        .unwrap();
    let handler = OwnListen {
        prompts: RmcpPrompts::new(&service),
    };
    let mut client = serve(handler);
    let wanted = json!({"notifications": {"promptsListChanged": true, "toolsListChanged": true}});
    let listen = support::modern(wanted, json!({}));
    client
        .send(
            json!({"jsonrpc": "2.0", "id": 7, "method": "subscriptions/listen", "params": listen}),
        )
        .await;
    let ack = client.read().await;
    assert_eq!(
        ack["method"], "notifications/subscriptions/acknowledged",
        "{ack}"
    );
    assert_eq!(
        ack["params"]["notifications"],
        json!({"promptsListChanged": true, "toolsListChanged": true}),
        "{ack}"
    );
    let tools = client.read().await;
    assert_eq!(
        tools["method"], "notifications/tools/list_changed",
        "{tools}"
    );
    prompts.add(later::PROMPT).unwrap();
    let change = client.read().await;
    assert_eq!(
        change["method"], "notifications/prompts/list_changed",
        "{change}"
    );
    assert_eq!(
        change["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 7,
        "{change}"
    );
}

#[tokio::test]
async fn resources_are_listed_beside_the_handlers_own_once_the_server_serves_them() {
    for served in [false, true] {
        let server = Server::new("rmcp-test", "1.0").prompts([later::PROMPT]);
        let server = if served {
            server.serve_resources()
        } else {
            server
        };
        let handler = WithResources {
            prompts: RmcpPrompts::new(&server.build().unwrap()),
        };
        let mut client = serve(handler);
        client
            .send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                         "params": initialize_params_with(LATEST, json!({}))}))
            .await;
        let init = client.read().await;
        let capabilities = &init["result"]["capabilities"];
        assert_eq!(capabilities.get("resources").is_some(), served, "{init}");
        client
            .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        client
            .send(json!({"jsonrpc": "2.0", "id": 2, "method": "resources/list"}))
            .await;
        let listed = client.read().await;
        if served {
            let resources = &listed["result"]["resources"];
            assert_eq!(resources.as_array().map(Vec::len), Some(1), "{listed}");
            assert_eq!(resources[0]["uri"], "file:///notes.txt", "{listed}");
        } else {
            assert_eq!(listed["error"]["code"], -32601, "{listed}");
        }
    }
}

/// Skills inside rmcp, through its own hooks: listed and read from the
/// same snapshot as on our transports, and a change on disk reaches the
/// rmcp session as `notifications/resources/list_changed`, after which
/// the new bytes are served.
#[tokio::test]
async fn skills_inside_rmcp_are_listed_read_and_kept_in_step() {
    let dir = std::env::temp_dir().join(format!("mcp-prompts-rmcp-skills-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("notes")).unwrap();
    std::fs::write(
        dir.join("notes/SKILL.md"),
        "---\nname: notes\ndescription: Take notes\n---\nWrite them down.\n",
    )
    .unwrap();
    std::fs::write(dir.join("notes/style.md"), "Short lines.\n").unwrap();
    let service = Server::new("rmcp-skills", "1.0")
        .skills_dir(&dir)
        .build()
        .unwrap();
    let mut client = serve(WithSkills {
        prompts: RmcpPrompts::new(&service),
    });
    client
        .send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": initialize_params_with(LATEST, json!({}))}))
        .await;
    let init = client.read().await;
    assert_eq!(
        init["result"]["capabilities"]["resources"],
        json!({"listChanged": true}),
        "{init}"
    );
    client
        .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;

    client
        .send(json!({"jsonrpc": "2.0", "id": 2, "method": "skills/list", "params": {}}))
        .await;
    let listed = client.until_response(2).await.pop().unwrap();
    assert_eq!(
        listed["result"]["skills"][0]["uri"], "skill://notes/SKILL.md",
        "{listed}"
    );
    assert_eq!(
        listed["result"]["skills"][0]["frontmatter"]["description"], "Take notes",
        "{listed}"
    );
    client
        .send(
            json!({"jsonrpc": "2.0", "id": 3, "method": "resources/read",
                   "params": {"uri": "skill://notes/style.md"}}),
        )
        .await;
    let read = client.until_response(3).await.pop().unwrap();
    assert_eq!(
        read["result"]["contents"][0]["text"], "Short lines.\n",
        "{read}"
    );
    client
        .send(
            json!({"jsonrpc": "2.0", "id": 4, "method": "resources/directory/read",
                   "params": {"uri": "skill://notes"}}),
        )
        .await;
    let children = client.until_response(4).await.pop().unwrap();
    assert_eq!(
        children["result"]["resources"].as_array().unwrap().len(),
        2,
        "{children}"
    );

    std::fs::write(dir.join("notes/style.md"), "Longer lines, now.\n").unwrap();
    let announced = client.read().await;
    assert_eq!(
        announced,
        json!({"jsonrpc": "2.0", "method": "notifications/resources/list_changed"})
    );
    client
        .send(
            json!({"jsonrpc": "2.0", "id": 5, "method": "resources/read",
                   "params": {"uri": "skill://notes/style.md"}}),
        )
        .await;
    let read = client.until_response(5).await.pop().unwrap();
    assert_eq!(
        read["result"]["contents"][0]["text"], "Longer lines, now.\n",
        "{read}"
    );
    client
        .send(
            json!({"jsonrpc": "2.0", "id": 6, "method": "resources/read",
                   "params": {"uri": "skill://notes/../notes/style.md"}}),
        )
        .await;
    let refused = client.until_response(6).await.pop().unwrap();
    assert_eq!(refused["error"]["code"], -32002, "{refused}");
    let _ = std::fs::remove_dir_all(&dir);
}
