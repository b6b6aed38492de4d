//! Revision 2026-07-28 against the fixture server, over stdio and over
//! Streamable HTTP on real sockets: `server/discover`, the modern result
//! envelope and caching hints, every error the revision defines, the
//! per-request log level, prompts that ask for input (in stateless rounds
//! and, on legacy sessions, through `elicitation/create`), and missing
//! arguments asked for.

// Call sites read better passing `json!` values by value.
#![allow(clippy::needless_pass_by_value)]

mod http_support;
mod support;

use hyper::{Method, StatusCode};
use serde_json::{Value, json};

use http_support::{Events, Running, header, post_modern, send, text};
use support::{
    Client, LATEST, MODERN, failed_start, initialize, initialize_params_with, modern, rpc, texts,
};

/// The `_meta` of a modern request from a client with `capabilities`.
fn can_elicit() -> Value {
    json!({ "elicitation": { "form": {} } })
}

#[test]
fn discover_and_every_result_carry_the_modern_envelope() {
    let mut client = Client::start_with(&[("FIXTURE_PAGE_SIZE", "3")]);
    let discover = client.call("server/discover", modern(json!({}), json!({})));
    let result = &discover["result"];
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["supportedVersions"][0], MODERN, "{result}");
    assert!(
        result["supportedVersions"]
            .as_array()
            .unwrap()
            .contains(&json!("2025-11-25"))
    );
    assert!(result["capabilities"]["prompts"].is_object(), "{result}");
    assert!(
        result["capabilities"]["completions"].is_object(),
        "{result}"
    );
    // The fixture's catalog is live: its list may be reused only briefly.
    assert_eq!(result["ttlMs"], 5000);
    assert_eq!(result["cacheScope"], "public");
    let info = &result["_meta"]["io.modelcontextprotocol/serverInfo"];
    assert_eq!(
        (&info["name"], &info["version"]),
        (&json!("fixture"), &json!("1.0.0"))
    );

    // Every page of a list carries the same hints.
    let mut cursor = None;
    let mut pages = 0;
    loop {
        let mut params = json!({});
        if let Some(cursor) = cursor.take() {
            params["cursor"] = cursor;
        }
        let page = client.call("prompts/list", modern(params, json!({})));
        let result = &page["result"];
        assert_eq!(
            (
                &result["resultType"],
                &result["ttlMs"],
                &result["cacheScope"]
            ),
            (&json!("complete"), &json!(5000), &json!("public")),
            "{result}"
        );
        pages += 1;
        match result.get("nextCursor") {
            Some(next) => cursor = Some(next.clone()),
            None => break,
        }
    }
    assert!(pages > 1);

    let got = client.call(
        "prompts/get",
        modern(
            json!({"name": "greet", "arguments": {"name": "Ann"}}),
            json!({}),
        ),
    );
    assert_eq!(got["result"]["resultType"], "complete");
    assert_eq!(texts(&got), ["Compose a short, casual greeting for Ann."]);
    let completed = client.call(
        "completion/complete",
        modern(
            json!({"ref": {"type": "ref/prompt", "name": "greet"},
                   "argument": {"name": "tone", "value": "f"}}),
            json!({}),
        ),
    );
    assert_eq!(completed["result"]["resultType"], "complete");
    assert_eq!(
        completed["result"]["completion"]["values"],
        json!(["formal"])
    );

    // Gone with the handshake.
    for method in ["ping", "logging/setLevel", "initialize", "tools/list"] {
        let answer = client.call(method, modern(json!({"level": "debug"}), json!({})));
        assert_eq!(answer["error"]["code"], -32601, "{method}: {answer}");
    }
    // The session is still uninitialized: a legacy request is refused as before.
    assert_eq!(
        client.call("prompts/list", json!({}))["error"]["code"],
        -32600
    );
}

#[test]
fn malformed_meta_and_unknown_revisions_are_refused() {
    let mut client = Client::start();
    let no_capabilities = client.call(
        "prompts/list",
        json!({"_meta": {"io.modelcontextprotocol/protocolVersion": MODERN}}),
    );
    assert_eq!(
        no_capabilities["error"]["code"], -32602,
        "{no_capabilities}"
    );
    let future = client.call(
        "prompts/list",
        json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2099-01-01",
                         "io.modelcontextprotocol/clientCapabilities": {}}}),
    );
    assert_eq!(future["error"]["code"], -32022, "{future}");
    assert_eq!(future["error"]["data"]["requested"], "2099-01-01");
    assert_eq!(future["error"]["data"]["supported"][0], MODERN);
    let mut bad_level = modern(json!({}), json!({}));
    bad_level["_meta"]["io.modelcontextprotocol/logLevel"] = json!("loud");
    assert_eq!(
        client.call("prompts/list", bad_level)["error"]["code"],
        -32602
    );
    let bare = client.call("server/discover", json!({}));
    assert_eq!(bare["error"]["code"], -32602, "{bare}");
}

#[test]
fn log_messages_go_only_to_requests_that_ask_for_them() {
    let mut client = Client::start();
    let silent = client.call(
        "prompts/get",
        modern(json!({"name": "whoami", "arguments": {}}), json!({})),
    );
    assert_eq!(
        texts(&silent)[0],
        format!("nobody asks request {} over {MODERN}", silent["id"])
    );
    let mut params = modern(json!({"name": "whoami", "arguments": {}}), json!({}));
    params["_meta"]["io.modelcontextprotocol/logLevel"] = json!("info");
    client.send_line(&rpc(7, "prompts/get", &params));
    let note = client.read();
    assert_eq!(note["method"], "notifications/message", "{note}");
    assert_eq!(note["params"]["data"], "whoami was called");
    assert_eq!(client.read()["id"], 7);
    params["_meta"]["io.modelcontextprotocol/logLevel"] = json!("error");
    client.send_line(&rpc(8, "prompts/get", &params));
    assert_eq!(client.read()["id"], 8, "a message under the level was sent");
}

/// One stateless round of `deploy_notes` for `service` (or none), with
/// `extra` params (answers, state).
fn deploy_round(client: &mut Client, arguments: Value, extra: Value, capabilities: Value) -> Value {
    let mut params = json!({"name": "deploy_notes", "arguments": arguments});
    for (key, value) in extra.as_object().unwrap() {
        params[key] = value.clone();
    }
    client.call("prompts/get", modern(params, capabilities))
}

#[test]
fn a_stateless_prompt_asks_in_rounds() {
    let mut client = Client::start();
    let service = json!({"service": "api"});
    let first = deploy_round(&mut client, service.clone(), json!({}), can_elicit());
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required", "{first}");
    let question = &result["inputRequests"]["deployment"];
    assert_eq!(question["method"], "elicitation/create");
    assert_eq!(
        question["params"]["message"],
        "Where is api being deployed?"
    );
    assert_eq!(
        question["params"]["requestedSchema"],
        json!({
            "type": "object",
            "properties": {
                "environment": {"type": "string", "enum": ["staging", "production"],
                                "description": "Target environment"},
                "canary": {"type": "boolean", "default": false,
                           "description": "Deploy as a canary first"},
            },
            "required": ["environment"],
        })
    );
    let state = result["requestState"].as_str().unwrap().to_owned();

    let accept = json!({"deployment": {"action": "accept",
                                       "content": {"environment": "production", "canary": true}}});
    let done = deploy_round(
        &mut client,
        service.clone(),
        json!({"inputResponses": accept, "requestState": state}),
        can_elicit(),
    );
    assert_eq!(done["result"]["resultType"], "complete");
    assert_eq!(
        texts(&done),
        ["Write deployment notes for api going to production (canary: true)."]
    );
    // The default fills in a field left out.
    let defaulted =
        json!({"deployment": {"action": "accept", "content": {"environment": "staging"}}});
    let done = deploy_round(
        &mut client,
        service.clone(),
        json!({"inputResponses": defaulted, "requestState": state}),
        can_elicit(),
    );
    assert_eq!(
        texts(&done),
        ["Write deployment notes for api going to staging (canary: false)."]
    );
    for action in ["decline", "cancel"] {
        let answer = json!({"deployment": {"action": action}});
        let done = deploy_round(
            &mut client,
            service.clone(),
            json!({"inputResponses": answer, "requestState": state}),
            can_elicit(),
        );
        assert_eq!(
            texts(&done),
            ["Write generic deployment notes for api."],
            "{action}"
        );
    }
    // An answer that does not fit the form is the usual -32602.
    let wrong = json!({"deployment": {"action": "accept", "content": {"environment": "moon"}}});
    let refused = deploy_round(
        &mut client,
        service.clone(),
        json!({"inputResponses": wrong, "requestState": state}),
        can_elicit(),
    );
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    // A client that cannot show forms is never asked.
    let unable = deploy_round(&mut client, service.clone(), json!({}), json!({}));
    assert_eq!(texts(&unable), ["Write generic deployment notes for api."]);

    // The state is the server's: altered, or for other arguments, it is refused.
    let mut tampered = state.clone().into_bytes();
    tampered[5] ^= 1;
    let tampered = String::from_utf8(tampered).unwrap();
    for (arguments, state) in [
        (service.clone(), tampered),
        (json!({"service": "web"}), state.clone()),
        (service.clone(), "not-a-state".to_owned()),
    ] {
        let refused = deploy_round(
            &mut client,
            arguments,
            json!({"inputResponses": accept, "requestState": state}),
            can_elicit(),
        );
        assert_eq!(refused["error"]["code"], -32602, "{refused}");
        assert!(
            refused["error"]["message"]
                .as_str()
                .unwrap()
                .contains("requestState"),
            "{refused}"
        );
    }
}

#[test]
fn a_prompt_can_ask_for_one_choice() {
    let mut client = Client::start();
    let ask = |extra: Value| {
        let mut params = json!({"name": "ask_tone"});
        for (key, value) in extra.as_object().unwrap() {
            params[key] = value.clone();
        }
        modern(params, can_elicit())
    };
    let first = client.call("prompts/get", ask(json!({})));
    assert_eq!(
        first["result"]["inputRequests"]["tone"]["params"],
        json!({"message": "Which tone?", "requestedSchema": {
            "type": "object",
            "properties": {"choice": {"type": "string", "enum": ["formal", "casual"]}},
            "required": ["choice"],
        }}),
        "{first}"
    );
    let state = first["result"]["requestState"].clone();
    let answer = |choice: &str| json!({"inputResponses": {"tone": {"action": "accept", "content": {"choice": choice}}}, "requestState": state});
    let done = client.call("prompts/get", ask(answer("Formal")));
    assert_eq!(texts(&done), ["tone: formal"]);
    let refused = client.call("prompts/get", ask(answer("rude")));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(
        refused["error"]["data"]["choices"],
        json!(["formal", "casual"])
    );
    let cancelled = client.call(
        "prompts/get",
        ask(json!({"inputResponses": {"tone": {"action": "cancel"}}, "requestState": state})),
    );
    assert_eq!(texts(&cancelled), ["no tone: Cancelled"]);
}

#[test]
fn missing_arguments_are_asked_for_where_the_client_can_answer() {
    let mut client = Client::start();
    let first = deploy_round(&mut client, json!({}), json!({}), can_elicit());
    let question = &first["result"]["inputRequests"]["mcp-prompts/missing-arguments"];
    assert_eq!(
        question["params"]["requestedSchema"],
        json!({"type": "object",
               "properties": {"service": {"type": "string", "description": "The service being deployed"}},
               "required": ["service"]}),
        "{first}"
    );
    let state = first["result"]["requestState"].clone();
    // Round two: the missing argument answered, the prompt asks its own question.
    let answer = json!({"mcp-prompts/missing-arguments": {"action": "accept", "content": {"service": "db"}}});
    let second = deploy_round(
        &mut client,
        json!({}),
        json!({"inputResponses": answer, "requestState": state}),
        can_elicit(),
    );
    assert_eq!(
        second["result"]["inputRequests"]["deployment"]["params"]["message"],
        "Where is db being deployed?",
        "{second}"
    );
    // Round three: only the newest answer is sent; the state holds the first.
    let answer = json!({"deployment": {"action": "accept", "content": {"environment": "staging"}}});
    let third = deploy_round(
        &mut client,
        json!({}),
        json!({"inputResponses": answer, "requestState": second["result"]["requestState"]}),
        can_elicit(),
    );
    assert_eq!(
        texts(&third),
        ["Write deployment notes for db going to staging (canary: false)."]
    );

    let declined = json!({"mcp-prompts/missing-arguments": {"action": "decline"}});
    let refused = deploy_round(
        &mut client,
        json!({}),
        json!({"inputResponses": declined, "requestState": state}),
        can_elicit(),
    );
    assert_eq!(refused["error"]["code"], -32602);
    assert_eq!(refused["error"]["data"]["missing"], json!(["service"]));
    let unable = deploy_round(&mut client, json!({}), json!({}), json!({}));
    assert_eq!(unable["error"]["code"], -32602);

    // Turned off, nobody is asked.
    let mut client = Client::start_with(&[("FIXTURE_NO_ASK_MISSING", "1")]);
    let refused = deploy_round(&mut client, json!({}), json!({}), can_elicit());
    assert_eq!(
        refused["error"]["data"]["missing"],
        json!(["service"]),
        "{refused}"
    );
}

/// The state binds what the earlier rounds were answered: an answer it
/// carries cannot be replaced, a question never asked cannot be answered,
/// and arguments whose meaning depends on which duplicate wins are refused.
#[test]
fn request_state_seals_its_answers_and_its_questions() {
    let mut client = Client::start();
    let service_answer = |service: &str| json!({"mcp-prompts/missing-arguments": {"action": "accept", "content": {"service": service}}});
    let first = deploy_round(&mut client, json!({}), json!({}), can_elicit());
    let second = deploy_round(
        &mut client,
        json!({}),
        json!({"inputResponses": service_answer("api"),
               "requestState": first["result"]["requestState"]}),
        can_elicit(),
    );
    let state = second["result"]["requestState"].clone();
    assert!(state.is_string(), "{second}");
    // The client tries to swap the sealed `api` for `prod-db`.
    let mut responses = service_answer("prod-db");
    responses["deployment"] = json!({"action": "accept", "content": {"environment": "production"}});
    let third = deploy_round(
        &mut client,
        json!({}),
        json!({"inputResponses": responses, "requestState": state}),
        can_elicit(),
    );
    assert_eq!(
        texts(&third),
        ["Write deployment notes for api going to production (canary: false)."]
    );

    // An answer to a question no round asked is ignored: the prompt asks.
    let unasked =
        json!({"deployment": {"action": "accept", "content": {"environment": "production"}}});
    let first = deploy_round(
        &mut client,
        json!({"service": "api"}),
        json!({"inputResponses": unasked}),
        can_elicit(),
    );
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");

    // A name given twice is ambiguous, so the state cannot bind it: -32602,
    // in either era.
    let mut session = legacy_session(true);
    let stateless = r#","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}}"#;
    for (client, meta) in [(&mut client, stateless), (&mut session, "")] {
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":9,"method":"prompts/get","params":{{"name":"deploy_notes","arguments":{{"service":"api","service":"prod-db"}}{meta}}}}}"#
        );
        let refused = client.send_raw(&line);
        assert_eq!(refused["error"]["code"], -32602, "{refused}");
        let message = refused["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("`service` is given more than once"),
            "{message}"
        );
    }
}

/// Starts a legacy session over stdio whose client can (or cannot) elicit.
fn legacy_session(elicits: bool) -> Client {
    legacy_session_with(elicits, &[])
}

fn legacy_session_with(elicits: bool, env: &[(&str, &str)]) -> Client {
    let mut client = Client::start_with(env);
    let capabilities = if elicits {
        json!({"elicitation": {}})
    } else {
        json!({})
    };
    client.initialize_with(LATEST, capabilities);
    client
}

/// Reads the server's `elicitation/create` request and answers it.
fn answer_elicitation(client: &mut Client, answer: Value) -> Value {
    let request = client.read();
    assert_eq!(request["method"], "elicitation/create", "{request}");
    let reply = json!({"jsonrpc": "2.0", "id": request["id"], "result": answer});
    client.send_line(&reply.to_string());
    request
}

#[test]
fn a_session_prompt_asks_through_elicitation_create() {
    let mut client = legacy_session(true);
    client.send_line(&rpc(
        1,
        "prompts/get",
        &json!({"name": "deploy_notes", "arguments": {"service": "api"}}),
    ));
    let request = answer_elicitation(
        &mut client,
        json!({"action": "accept", "content": {"environment": "production"}}),
    );
    assert_eq!(request["params"]["message"], "Where is api being deployed?");
    assert_eq!(
        request["params"]["requestedSchema"]["required"],
        json!(["environment"])
    );
    let done = client.read();
    assert_eq!(done["id"], 1);
    assert_eq!(
        texts(&done),
        ["Write deployment notes for api going to production (canary: false)."]
    );

    client.send_line(&rpc(
        2,
        "prompts/get",
        &json!({"name": "deploy_notes", "arguments": {"service": "api"}}),
    ));
    answer_elicitation(&mut client, json!({"action": "decline"}));
    assert_eq!(
        texts(&client.read()),
        ["Write generic deployment notes for api."]
    );

    // Missing arguments first, then the prompt's own question.
    client.send_line(&rpc(3, "prompts/get", &json!({"name": "deploy_notes"})));
    let asked = answer_elicitation(
        &mut client,
        json!({"action": "accept", "content": {"service": "db"}}),
    );
    assert_eq!(
        asked["params"]["requestedSchema"]["required"],
        json!(["service"])
    );
    answer_elicitation(&mut client, json!({"action": "cancel"}));
    assert_eq!(
        texts(&client.read()),
        ["Write generic deployment notes for db."]
    );

    // A client that cannot elicit is not asked.
    let mut client = legacy_session(false);
    let unable = client.get("deploy_notes", json!({"service": "api"}));
    assert_eq!(texts(&unable), ["Write generic deployment notes for api."]);
    assert_eq!(
        client.get("deploy_notes", json!({}))["error"]["code"],
        -32602
    );
}

/// A request waiting for the client's answer gives its place among the
/// requests in flight back: with one place, a second request still runs
/// and the answer is still read.
#[test]
fn requests_waiting_for_the_client_do_not_fill_the_in_flight_places() {
    let mut client = legacy_session_with(true, &[("FIXTURE_MAX_IN_FLIGHT", "1")]);
    client.send_line(&rpc(
        1,
        "prompts/get",
        &json!({"name": "deploy_notes", "arguments": {"service": "api"}}),
    ));
    let question = client.read();
    assert_eq!(question["method"], "elicitation/create");
    client.send_line(&rpc(
        2,
        "prompts/get",
        &json!({"name": "slow", "arguments": {"ms": "20"}}),
    ));
    let answer = json!({"jsonrpc": "2.0", "id": question["id"], "result": {"action": "decline"}});
    client.send_line(&answer.to_string());
    let mut ids: Vec<i64> = (0..2)
        .map(|_| client.read()["id"].as_i64().unwrap())
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, [1, 2]);
}

/// A question the client never answers does not hold the server at the
/// end of input: the request fails, is answered, and the server exits.
#[test]
fn a_question_left_unanswered_at_the_end_of_input_ends_its_request() {
    let mut client = legacy_session(true);
    client.send_line(&rpc(
        9,
        "prompts/get",
        &json!({"name": "deploy_notes", "arguments": {"service": "api"}}),
    ));
    assert_eq!(client.read()["method"], "elicitation/create");
    let (responses, status) = client.finish();
    assert!(status.success(), "{status}");
    assert_eq!(responses.len(), 1, "{responses:?}");
    assert_eq!(responses[0]["id"], 9);
    assert_eq!(responses[0]["error"]["code"], -32603, "{responses:?}");
}

/// POSTs a modern request with `headers` (Mcp-Method from the body unless
/// given); the status and the JSON-RPC message.
fn request(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

#[tokio::test]
async fn stateless_http_checks_headers_against_the_body() {
    let server = Running::fixture(&[]);
    let get = |name: &str| {
        request(
            1,
            "prompts/get",
            modern(
                json!({"name": name, "arguments": {"name": "Ann"}}),
                json!({}),
            ),
        )
    };
    let (status, ok) = post_modern(&server, &get("greet"), &[("mcp-name", "greet")]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(texts(&ok), ["Compose a short, casual greeting for Ann."]);
    assert_eq!(ok["result"]["resultType"], "complete");

    for (headers, what) in [
        (vec![("mcp-name", "other")], "Mcp-Name differs"),
        (vec![("mcp-name", "")], "Mcp-Name missing"),
        (
            vec![("mcp-name", "greet"), ("mcp-method", "prompts/list")],
            "Mcp-Method differs",
        ),
        (
            vec![("mcp-name", "greet"), ("mcp-method", "")],
            "Mcp-Method missing",
        ),
    ] {
        let (status, error) = post_modern(&server, &get("greet"), &headers).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{what}");
        assert_eq!(error["error"]["code"], -32020, "{what}: {error}");
        assert_eq!(error["id"], 1, "{what}");
    }
    // A name that is not plain ASCII travels base64-encoded.
    let (status, error) = post_modern(
        &server,
        &get("grüß"),
        &[("mcp-name", "=?base64?Z3LDvMOf?=")],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{error}");
    assert_eq!(
        error["error"]["code"], -32602,
        "the header matched; the prompt is unknown: {error}"
    );

    let mut other_revision = get("greet");
    other_revision["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] =
        json!("2099-01-01");
    let (status, error) = post_modern(&server, &other_revision, &[("mcp-name", "greet")]).await;
    assert_eq!(
        (status, &error["error"]["code"]),
        (StatusCode::BAD_REQUEST, &json!(-32020))
    );

    let (status, error) = post_modern(
        &server,
        &other_revision,
        &[
            ("mcp-name", "greet"),
            ("mcp-protocol-version", "2099-01-01"),
        ],
    )
    .await;
    assert_eq!(
        (status, &error["error"]["code"]),
        (StatusCode::BAD_REQUEST, &json!(-32022)),
        "{error}"
    );
    assert_eq!(error["id"], 1);
    assert_eq!(error["error"]["data"]["requested"], "2099-01-01");

    let no_meta = request(2, "prompts/list", json!({}));
    let (status, error) = post_modern(&server, &no_meta, &[]).await;
    assert_eq!(
        (status, &error["error"]["code"]),
        (StatusCode::BAD_REQUEST, &json!(-32602))
    );
    let mut no_capabilities = request(3, "prompts/list", modern(json!({}), json!({})));
    no_capabilities["params"]["_meta"]
        .as_object_mut()
        .unwrap()
        .remove("io.modelcontextprotocol/clientCapabilities");
    let (status, error) = post_modern(&server, &no_capabilities, &[]).await;
    assert_eq!(
        (status, &error["error"]["code"]),
        (StatusCode::BAD_REQUEST, &json!(-32602))
    );

    for method in ["ping", "initialize", "tools/list"] {
        let (status, error) = post_modern(
            &server,
            &request(4, method, modern(json!({}), json!({}))),
            &[],
        )
        .await;
        assert_eq!(
            (status, &error["error"]["code"]),
            (StatusCode::NOT_FOUND, &json!(-32601)),
            "{method}"
        );
    }
    for method in [Method::GET, Method::DELETE] {
        let response = send(server.addr, method, &[("mcp-protocol-version", MODERN)], "").await;
        assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
    }
}

#[tokio::test]
async fn stateless_http_rounds_and_discover() {
    let server = Running::fixture(&[]);
    let (status, discover) = post_modern(
        &server,
        &request(1, "server/discover", modern(json!({}), json!({}))),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(discover["result"]["supportedVersions"][0], MODERN);
    let params = modern(
        json!({"name": "deploy_notes", "arguments": {"service": "api"}}),
        can_elicit(),
    );
    let (_, first) = post_modern(
        &server,
        &request(2, "prompts/get", params.clone()),
        &[("mcp-name", "deploy_notes")],
    )
    .await;
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let mut retry = params;
    retry["inputResponses"] = json!({"deployment": {"action": "accept", "content": {"environment": "staging", "canary": true}}});
    retry["requestState"] = first["result"]["requestState"].clone();
    let (_, done) = post_modern(
        &server,
        &request(3, "prompts/get", retry),
        &[("mcp-name", "deploy_notes")],
    )
    .await;
    assert_eq!(
        texts(&done),
        ["Write deployment notes for api going to staging (canary: true)."]
    );
}

/// A 2025-11-25 HTTP session whose client can show forms; its id.
async fn eliciting_http_session(server: &Running) -> String {
    let capabilities = json!({"elicitation": {"form": {}}});
    let init = rpc(
        0,
        "initialize",
        &initialize_params_with(LATEST, capabilities),
    );
    let accept = ("accept", "application/json, text/event-stream");
    let response = send(server.addr, Method::POST, &[accept], init).await;
    header(&response, "mcp-session-id").unwrap().to_owned()
}

/// A session whose request waits for the client's answer is in use: a new
/// session cannot evict it, however long the question has waited.
#[tokio::test]
async fn a_session_waiting_for_an_answer_is_not_evicted() {
    let server = Running::fixture(&[
        ("FIXTURE_MAX_SESSIONS", "1"),
        ("FIXTURE_EVICTION_GRACE_MS", "0"),
    ]);
    let session = eliciting_http_session(&server).await;
    let accept = ("accept", "application/json, text/event-stream");
    let headers = [
        accept,
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let get = rpc(
        5,
        "prompts/get",
        &json!({"name": "deploy_notes", "arguments": {"service": "api"}}),
    );
    let mut events = Events::new(send(server.addr, Method::POST, &headers, get).await);
    let question = events.next().await;
    assert_eq!(question["method"], "elicitation/create");

    let other = initialize(LATEST);
    let refused = send(server.addr, Method::POST, &[accept], other.clone()).await;
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);

    let answer = json!({"jsonrpc": "2.0", "id": question["id"], "result": {"action": "decline"}});
    send(server.addr, Method::POST, &headers, answer.to_string()).await;
    assert!(events.rest().await.contains("generic deployment notes"));
    // Answered, the session is idle again, and may give way.
    let accepted = send(server.addr, Method::POST, &[accept], other).await;
    assert_eq!(accepted.status(), StatusCode::OK);
}

/// A session POST that takes no event stream cannot carry a question: the
/// prompt hears the client cannot be asked; a 2026-07-28 body under a
/// handshake revision's header is a mismatch.
#[tokio::test]
async fn session_http_without_a_stream_is_not_asked() {
    let server = Running::fixture(&[]);
    let session = eliciting_http_session(&server).await;
    let headers = [
        ("accept", "application/json"),
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let get = rpc(
        5,
        "prompts/get",
        &json!({"name": "deploy_notes", "arguments": {"service": "api"}}),
    );
    let response = send(server.addr, Method::POST, &headers, get).await;
    assert_eq!(header(&response, "content-type"), Some("application/json"));
    let done: Value = serde_json::from_str(&text(response).await).unwrap();
    assert_eq!(texts(&done), ["Write generic deployment notes for api."]);
    let missing = rpc(6, "prompts/get", &json!({"name": "deploy_notes"}));
    let response = send(server.addr, Method::POST, &headers, missing).await;
    let refused: Value = serde_json::from_str(&text(response).await).unwrap();
    assert_eq!(refused["error"]["code"], -32602, "{refused}");

    let modern_body = rpc(7, "prompts/list", &modern(json!({}), json!({})));
    let response = send(server.addr, Method::POST, &headers, modern_body).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let mismatch: Value = serde_json::from_str(&text(response).await).unwrap();
    assert_eq!(
        (&mismatch["error"]["code"], &mismatch["id"]),
        (&json!(-32020), &json!(7))
    );
    // A `_meta` that names the stateless revision but is malformed is
    // neither a mismatch nor the session's: -32602, as over stdio.
    let malformed = rpc(
        8,
        "prompts/list",
        &json!({"_meta": {"io.modelcontextprotocol/protocolVersion": MODERN}}),
    );
    let response = send(server.addr, Method::POST, &headers, malformed).await;
    let refused: Value = serde_json::from_str(&text(response).await).unwrap();
    assert_eq!(
        (&refused["error"]["code"], &refused["id"]),
        (&json!(-32602), &json!(8)),
        "{refused}"
    );
    // The session still serves its own requests after both.
    let list = rpc(9, "prompts/list", &json!({}));
    let response = send(server.addr, Method::POST, &headers, list).await;
    let listed: Value = serde_json::from_str(&text(response).await).unwrap();
    assert!(listed["result"]["prompts"].is_array(), "{listed}");
}

/// A legacy HTTP session whose client can elicit: the `elicitation/create`
/// request arrives on the event stream of the `prompts/get` `POST`, the answer is
/// sent in a `POST` of its own, and the result ends the stream.
#[tokio::test]
async fn session_http_prompts_ask_on_the_posts_stream() {
    let server = Running::fixture(&[]);
    let session = eliciting_http_session(&server).await;
    let accept = ("accept", "application/json, text/event-stream");
    let headers = [
        accept,
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let get = rpc(
        5,
        "prompts/get",
        &json!({"name": "deploy_notes", "arguments": {"service": "api"}}),
    );
    let response = send(server.addr, Method::POST, &headers, get).await;
    assert_eq!(header(&response, "content-type"), Some("text/event-stream"));
    let mut stream = Events::new(response);
    let question = stream.next().await;
    assert_eq!(question["method"], "elicitation/create");
    let answer = json!({"jsonrpc": "2.0", "id": question["id"],
                        "result": {"action": "accept", "content": {"environment": "production"}}});
    let posted = send(server.addr, Method::POST, &headers, answer.to_string()).await;
    assert_eq!(posted.status(), StatusCode::ACCEPTED);
    let events = [question, stream.next().await];
    assert_eq!(events[0]["method"], "elicitation/create");
    assert_eq!(events[1]["id"], 5);
    assert_eq!(
        texts(&events[1]),
        ["Write deployment notes for api going to production (canary: false)."]
    );
}

/// Replicas behind a load balancer: a question round started on one
/// showcase replica is finished on another when both sign with the secret
/// in `MCP_PROMPTS_REQUEST_STATE_SECRET`, and refused when each signs with
/// a random key of its own.
#[tokio::test]
async fn replicas_sharing_the_request_state_secret_finish_each_others_rounds() {
    let shared = [(
        "MCP_PROMPTS_REQUEST_STATE_SECRET",
        "replicas behind one balancer share this key",
    )];
    let name = [("mcp-name", "deploy_notes")];
    let get = |params: Value| request(1, "prompts/get", modern(params, can_elicit()));
    let first = json!({"name": "deploy_notes", "arguments": {"service": "api"}});
    let answer = json!({"deployment": {"action": "accept", "content": {"environment": "staging"}}});
    for (env, shares) in [(&shared[..], true), (&[][..], false)] {
        let one = Running::showcase_with_env(&["--stateless"], env);
        let other = Running::showcase_with_env(&["--stateless"], env);
        let (status, asked) = post_modern(&one, &get(first.clone()), &name).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(asked["result"]["resultType"], "input_required", "{asked}");
        let mut retry = first.clone();
        retry["inputResponses"] = answer.clone();
        retry["requestState"] = asked["result"]["requestState"].clone();
        let (_, done) = post_modern(&other, &get(retry), &name).await;
        if shares {
            assert_eq!(done["result"]["resultType"], "complete", "{done}");
            assert_eq!(
                texts(&done),
                ["Write deployment notes for api going to staging (canary: false)."]
            );
        } else {
            assert_eq!(done["error"]["code"], -32602, "{done}");
        }
    }
}

/// A shared secret too short to sign with stops the showcase at start.
#[test]
fn a_short_request_state_secret_stops_the_showcase() {
    let mut showcase = std::process::Command::new(http_support::showcase_binary());
    showcase
        .args(["--http", "127.0.0.1:0", "--stateless"])
        .env("MCP_PROMPTS_REQUEST_STATE_SECRET", "too short");
    let stderr = failed_start(showcase);
    assert!(
        stderr.contains("request state secret has 9 bytes"),
        "{stderr}"
    );
}
