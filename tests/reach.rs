//! Reach: icons and `_meta` on prompts and the server, tags and the
//! filters that choose by them, and the prompt tools (`list_prompts`,
//! `get_prompt`) for hosts that show no prompts. Driven over stdio, as a
//! client does; the tag filters in process.

mod http_support;
mod support;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Value, json};
use support::{Client, LATEST, MODERN, modern};

const REVISIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

fn listed(client: &mut Client, name: &str) -> Value {
    let list = client.call("prompts/list", json!({}));
    let prompts = list["result"]["prompts"].as_array().expect("prompts");
    prompts.iter().find(|p| p["name"] == name).cloned().unwrap()
}

#[test]
fn icons_and_meta_are_listed_in_the_revisions_that_have_them() {
    let svg = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/showcase/assets/review.svg"
    ))
    .unwrap();
    for version in REVISIONS {
        let mut client = Client::ready(version);
        let review = listed(&mut client, "code_review");
        let summarize = listed(&mut client, "summarize");
        if version >= "2025-11-25" {
            let icon = &review["icons"][0];
            assert_eq!(icon["mimeType"], "image/svg+xml", "{review}");
            let src = icon["src"].as_str().unwrap();
            let data = src.strip_prefix("data:image/svg+xml;base64,").unwrap();
            assert_eq!(
                BASE64.decode(data).unwrap(),
                svg,
                "the data URI is the file"
            );
            assert_eq!(
                summarize["icons"],
                json!([{"src": "https://www.rust-lang.org/static/images/favicon-32x32.png", "sizes": ["32x32"]}])
            );
        } else {
            assert!(review.get("icons").is_none(), "{version}: {review}");
            assert!(summarize.get("icons").is_none(), "{version}: {summarize}");
        }
        if version >= "2025-06-18" {
            assert_eq!(
                review["_meta"],
                json!({"mcp-prompts/tags": ["code", "review"]})
            );
            assert_eq!(
                listed(&mut client, "not_a_tool")["_meta"],
                json!({"com.example/kind": "internal", "com.example/rank": -2,
                       "com.example/weight": 0.5, "com.example/beta": true})
            );
        } else {
            assert!(review.get("_meta").is_none(), "{version}: {review}");
        }
    }
}

#[test]
fn stateless_lists_carry_icons_too() {
    let mut client = Client::start();
    let list = client.call("prompts/list", modern(json!({}), json!({})));
    let prompts = list["result"]["prompts"].as_array().unwrap();
    let review = prompts.iter().find(|p| p["name"] == "code_review").unwrap();
    assert!(
        review["icons"][0]["src"]
            .as_str()
            .unwrap()
            .starts_with("data:")
    );
    assert_eq!(
        review["_meta"]["mcp-prompts/tags"],
        json!(["code", "review"])
    );
}

fn tools_client(version: &str) -> Client {
    let mut client = Client::start_with(&[("FIXTURE_PROMPTS_AS_TOOLS", "1")]);
    let result = client.initialize(version);
    assert_eq!(result["capabilities"]["tools"], json!({}), "{result}");
    client
}

fn call_tool(client: &mut Client, name: &str, arguments: Value) -> Value {
    let mut params = json!({ "name": name });
    params["arguments"] = arguments;
    client.call("tools/call", params)
}

fn text_of(result: &Value) -> String {
    let content = result["content"]
        .as_array()
        .unwrap_or_else(|| panic!("{result}"));
    let texts: Vec<&str> = content.iter().filter_map(|c| c["text"].as_str()).collect();
    texts.join("\n")
}

#[test]
fn tools_are_declared_with_each_revisions_fields() {
    for version in REVISIONS {
        let mut client = tools_client(version);
        let tools = client.call("tools/list", json!({}))["result"]["tools"].clone();
        let names: Vec<&str> = tools
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["list_prompts", "get_prompt"], "{version}");
        let list = &tools[0];
        assert_eq!(list["inputSchema"]["type"], "object");
        assert_eq!(tools[1]["inputSchema"]["required"], json!(["name"]));
        assert_eq!(
            list.get("annotations").is_some(),
            version >= "2025-03-26",
            "{version}"
        );
        assert_eq!(
            list.get("title").is_some(),
            version >= "2025-06-18",
            "{version}"
        );
        assert_eq!(
            list.get("outputSchema").is_some(),
            version >= "2025-06-18",
            "{version}"
        );
    }
    // Without the option, no tools.
    let mut plain = Client::ready(LATEST);
    let refused = plain.call("tools/list", json!({}));
    assert_eq!(refused["error"]["code"], -32601, "{refused}");
}

#[test]
fn list_prompts_lists_what_the_tools_offer() {
    for version in ["2025-03-26", LATEST] {
        let mut client = tools_client(version);
        let result = call_tool(&mut client, "list_prompts", json!({}))["result"].clone();
        let text = text_of(&result);
        assert!(
            text.contains("code_review (Review code): Review a code snippet"),
            "{text}"
        );
        assert!(
            text.contains("  - language (required): Programming language of the snippet"),
            "{text}"
        );
        assert!(
            text.contains("max_words: The most words the summary may use; default: 50"),
            "{text}"
        );
        assert!(
            !text.contains("not_a_tool"),
            "kept out of the tools: {text}"
        );
        assert_eq!(result.get("isError"), None);
        if version >= "2025-06-18" {
            let prompts = result["structuredContent"]["prompts"].as_array().unwrap();
            let review = prompts.iter().find(|p| p["name"] == "code_review").unwrap();
            assert_eq!(
                review["arguments"][0],
                json!({
                    "name": "language", "description": "Programming language of the snippet", "required": true
                })
            );
            let greet = prompts.iter().find(|p| p["name"] == "greet").unwrap();
            let tone = greet["arguments"]
                .as_array()
                .unwrap()
                .iter()
                .find(|a| a["name"] == "tone")
                .unwrap();
            assert!(
                tone["choices"].as_array().is_some_and(|c| !c.is_empty()),
                "{tone}"
            );
        } else {
            assert!(result.get("structuredContent").is_none(), "{result}");
        }
    }
}

#[test]
fn get_prompt_renders_messages_and_reports_argument_errors_to_the_model() {
    let mut client = tools_client(LATEST);
    let arguments = json!({"language": "rust", "code": "fn main() {}"});
    let result = call_tool(
        &mut client,
        "get_prompt",
        json!({"name": "code_review", "arguments": arguments}),
    );
    let content = result["result"]["content"].as_array().unwrap().clone();
    assert_eq!(content.len(), 3, "one block per message: {result}");
    assert_eq!(
        content[0],
        json!({"type": "text", "text": "user:\nI am reviewing rust code."})
    );
    assert!(
        content[1]["text"]
            .as_str()
            .unwrap()
            .starts_with("assistant:\n")
    );

    // An argument error: the same text `prompts/get` answers with -32602.
    let bad = json!({"name": "summarize", "arguments": {"text": "x", "max_words": "many"}});
    let tool = call_tool(&mut client, "get_prompt", bad.clone())["result"].clone();
    let direct = client.call("prompts/get", bad);
    assert_eq!(direct["error"]["code"], -32602);
    assert_eq!(tool["isError"], true, "{tool}");
    assert_eq!(text_of(&tool), direct["error"]["message"].as_str().unwrap());

    // Missing arguments, an unknown prompt, a prompt kept out of the tools.
    for (arguments, says) in [
        (json!({"name": "code_review"}), "missing required argument"),
        (json!({"name": "nope"}), "Unknown prompt: nope"),
        (json!({"name": "not_a_tool"}), "Unknown prompt: not_a_tool"),
        (json!({"arguments": {}}), "invalid arguments for get_prompt"),
    ] {
        let result = call_tool(&mut client, "get_prompt", arguments)["result"].clone();
        assert_eq!(result["isError"], true, "{result}");
        assert!(text_of(&result).contains(says), "{result}");
    }
    // A prompt that fails: its error id, not its message.
    let failed =
        call_tool(&mut client, "get_prompt", json!({"name": "fails_io"}))["result"].clone();
    assert_eq!(failed["isError"], true);
    assert!(text_of(&failed).contains("error id"), "{failed}");
    assert!(!text_of(&failed).contains("disk on fire"), "{failed}");

    // An unknown tool is a protocol error.
    let unknown = call_tool(&mut client, "nope", json!({}));
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    assert_eq!(unknown["error"]["message"], "Unknown tool: nope");
    // The server goes on serving.
    assert!(client.call("ping", json!({}))["result"].is_object());
}

#[test]
fn a_prompt_asks_through_the_tool_statelessly() {
    let mut client = Client::start_with(&[("FIXTURE_PROMPTS_AS_TOOLS", "1")]);
    let forms = json!({"elicitation": {"form": {}}});
    let list = client.call("tools/list", modern(json!({}), forms.clone()));
    assert_eq!(list["result"]["resultType"], "complete", "{list}");
    assert!(list["result"]["ttlMs"].is_u64() && list["result"]["cacheScope"].is_string());
    let ask = json!({"name": "get_prompt", "arguments": {"name": "ask_tone"}});
    let first = client.call("tools/call", modern(ask.clone(), forms.clone()))["result"].clone();
    assert_eq!(first["resultType"], "input_required", "{first}");
    let (key, question) = first["inputRequests"]
        .as_object()
        .unwrap()
        .iter()
        .next()
        .unwrap();
    assert_eq!(question["method"], "elicitation/create");
    let mut retry = ask;
    retry["inputResponses"] =
        json!({ key.clone(): {"action": "accept", "content": {"choice": "formal"}} });
    retry["requestState"] = first["requestState"].clone();
    let done = client.call("tools/call", modern(retry, forms))["result"].clone();
    assert_eq!(done["resultType"], "complete", "{done}");
    assert_eq!(text_of(&done), "user:\ntone: formal");
    assert_eq!(
        done["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "fixture"
    );
}

#[test]
fn tools_are_refused_without_the_option_in_2026_07_28() {
    let mut client = Client::start();
    let refused = client.call(
        "tools/call",
        modern(json!({"name": "list_prompts"}), json!({})),
    );
    assert_eq!(refused["error"]["code"], -32601, "{refused}");
    let _ = MODERN;
}

/// The names a `prompts/list` reply lists, in order.
fn names(reply: mcp_prompts::Reply) -> Vec<String> {
    let mcp_prompts::Reply::Now(text) = reply else {
        panic!("a listing is answered at once");
    };
    let value: Value = serde_json::from_str(&text).unwrap();
    let prompts = value["result"]["prompts"].as_array().unwrap();
    prompts
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect()
}

fn tagged(name: &str, tags: &[&str]) -> mcp_prompts::DynamicPrompt {
    let prompt = mcp_prompts::DynamicPrompt::builder(name).tags(tags.iter().copied());
    prompt.template("x").build().unwrap()
}

#[test]
fn tag_filters_choose_what_is_served_now_and_later() {
    use mcp_prompts::Server;
    let prompts = || {
        [
            tagged("review", &["git", "code"]),
            tagged("lunch", &["food"]),
            tagged("plain", &[]),
        ]
    };
    let listing = |server: Server| {
        let (service, live) = server.prompts(prompts()).build_live().unwrap();
        let session = service.session(None);
        session.handle(&support::initialize(LATEST));
        // Added later: the filter holds for it too.
        live.add(tagged("blame", &["git"])).unwrap();
        live.add(tagged("cake", &["food"])).unwrap();
        names(session.handle(&support::rpc(2, "prompts/list", &json!({}))))
    };
    assert_eq!(
        listing(Server::new("t", "1").only_tags(["git"])),
        ["blame", "review"]
    );
    assert_eq!(
        listing(Server::new("t", "1").without_tags(["food"])),
        ["blame", "plain", "review"]
    );
    assert_eq!(
        listing(
            Server::new("t", "1")
                .only_tags(["git", "food"])
                .without_tags(["code"])
        ),
        ["blame", "cake", "lunch"]
    );
    let everything = listing(Server::new("t", "1"));
    assert_eq!(everything, ["blame", "cake", "lunch", "plain", "review"]);
}

#[test]
fn bad_icons_meta_keys_and_tags_are_refused_when_built() {
    use mcp_prompts::{DynamicPrompt, Icon, Server};
    let broken = DynamicPrompt::builder("broken")
        .icon(Icon::new("javascript:alert(1)"))
        .meta("io.modelcontextprotocol/x", 1)
        .tags([" spaced"])
        .template("x")
        .build()
        .unwrap_err();
    let problems = broken.problems().join("\n");
    assert!(problems.contains("javascript:alert(1)"), "{problems}");
    assert!(problems.contains("reserved for MCP"), "{problems}");
    assert!(problems.contains("` spaced`"), "{problems}");
    let embedded = Icon::embedded("image/png", b"\x89PNG");
    let refused = Server::new("t", "1").icon(embedded).build().err().unwrap();
    assert!(
        refused.problems()[0].contains("must be an `https://` URL"),
        "{refused}"
    );
}

#[test]
fn the_server_icon_is_in_initialize_and_discover_only() {
    let showcase = || {
        let command = std::process::Command::new(http_support::showcase_binary());
        Client::start_program(command)
    };
    let icon = json!([{"src": "https://www.rust-lang.org/static/images/rust-logo-blk.svg",
                       "mimeType": "image/svg+xml"}]);
    let mut client = showcase();
    assert_eq!(client.initialize(LATEST)["serverInfo"]["icons"], icon);
    let mut older = showcase();
    let info = older.initialize("2025-06-18")["serverInfo"].clone();
    assert!(info.get("icons").is_none(), "{info}");
    // 2026-07-28: in server/discover, not on every result.
    let mut modern_client = showcase();
    let discover = modern_client.call("server/discover", modern(json!({}), json!({})));
    let meta = &discover["result"]["_meta"]["io.modelcontextprotocol/serverInfo"];
    assert_eq!(meta["icons"], icon, "{discover}");
    let list = modern_client.call("prompts/list", modern(json!({}), json!({})));
    let meta = &list["result"]["_meta"]["io.modelcontextprotocol/serverInfo"];
    assert_eq!(meta["name"], "mcp-prompts-showcase");
    assert!(meta.get("icons").is_none(), "{list}");
}

#[test]
fn a_prompt_asks_through_the_tool_in_a_session() {
    let mut client = Client::start_with(&[("FIXTURE_PROMPTS_AS_TOOLS", "1")]);
    client.initialize_with(LATEST, json!({"elicitation": {"form": {}}}));
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                      "params": {"name": "get_prompt", "arguments": {"name": "ask_tone"}}});
    client.send_line(&call.to_string());
    let question = client.read();
    assert_eq!(question["method"], "elicitation/create", "{question}");
    let answer = json!({"jsonrpc": "2.0", "id": question["id"],
                        "result": {"action": "accept", "content": {"choice": "casual"}}});
    client.send_line(&answer.to_string());
    let done = client.read();
    assert_eq!(done["id"], 7, "{done}");
    assert_eq!(text_of(&done["result"]), "user:\ntone: casual");
}

#[test]
fn the_tools_show_a_caller_only_what_it_may_see() {
    use mcp_prompts::{Caller, DynamicPrompt, Server};
    let ship = DynamicPrompt::builder("ship")
        .scopes(["deploy"])
        .template("Ship it.")
        .build();
    let open = DynamicPrompt::builder("open").template("Hello.").build();
    let service = Server::new("t", "1")
        .prompts([ship.unwrap(), open.unwrap()])
        .prompts_as_tools()
        .build()
        .unwrap();
    let session = service.session(None);
    session.handle(&support::initialize(LATEST));
    let result = |reply: mcp_prompts::Reply| {
        let mcp_prompts::Reply::Now(text) = reply else {
            panic!("answered at once");
        };
        serde_json::from_str::<Value>(&text).unwrap()["result"].clone()
    };
    let list = support::rpc(2, "tools/call", &json!({"name": "list_prompts"}));
    let get = support::rpc(
        3,
        "tools/call",
        &json!({"name": "get_prompt", "arguments": {"name": "ship"}}),
    );
    let reader = Caller::new("ann").with_scopes(["prompts"]);
    let deployer = Caller::new("bob").with_scopes(["deploy"]);
    let listed = |caller: &Caller| {
        let reply = session.handle_remote(&list, None, Some(caller.clone()));
        result(reply)["structuredContent"]["prompts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(listed(&reader), ["open"]);
    assert_eq!(listed(&deployer), ["open", "ship"]);
    let hidden = result(session.handle_remote(&get, None, Some(reader)));
    assert_eq!(hidden["isError"], true);
    assert_eq!(text_of(&hidden), "Unknown prompt: ship");
    let shown = result(session.handle_remote(&get, None, Some(deployer)));
    assert_eq!(text_of(&shown), "user:\nShip it.");
}
