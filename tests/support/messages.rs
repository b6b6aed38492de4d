//! What every test crate writes and reads of MCP messages, whatever the
//! transport: the revisions, a 2026-07-28 request's `_meta`, and the texts
//! of a `prompts/get` result.

use serde_json::{Value, json};

/// The newest handshake revision.
pub const LATEST: &str = "2025-11-25";

/// The stateless revision.
pub const MODERN: &str = "2026-07-28";

/// The `_meta` every 2026-07-28 request carries, with the client's
/// `capabilities`.
pub fn meta(capabilities: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    })
}

/// `params` with a 2026-07-28 `_meta` added.
pub fn modern(mut params: Value, capabilities: Value) -> Value {
    params["_meta"] = meta(capabilities);
    params
}

/// The text of each message of a `prompts/get` response.
pub fn texts(response: &Value) -> Vec<&str> {
    response["result"]["messages"]
        .as_array()
        .unwrap_or_else(|| panic!("no messages: {response}"))
        .iter()
        .map(|m| m["content"]["text"].as_str().unwrap())
        .collect()
}

/// A JSON-RPC request, as text.
pub fn rpc(id: u64, method: &str, params: &Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

/// `initialize` params for `version`, with no capabilities.
pub fn initialize_params(version: &str) -> Value {
    initialize_params_with(version, json!({}))
}

/// `initialize` params for `version` with the client's `capabilities`.
pub fn initialize_params_with(version: &str, capabilities: Value) -> Value {
    json!({"protocolVersion": version, "capabilities": capabilities,
           "clientInfo": {"name": "mcp-prompts-tests", "version": "1"}})
}

/// An `initialize` request for `version`, as text. Its id is `"init"`,
/// never one of the numbers a test gives its other requests.
pub fn initialize(version: &str) -> String {
    json!({"jsonrpc": "2.0", "id": "init", "method": "initialize",
           "params": initialize_params(version)})
    .to_string()
}

/// The prompt named `name` in a `prompts/list` response.
pub fn listed_prompt(listed: &Value, name: &str) -> Value {
    listed["result"]["prompts"]
        .as_array()
        .and_then(|prompts| prompts.iter().find(|p| p["name"] == name))
        .unwrap_or_else(|| panic!("`{name}` is not listed: {listed}"))
        .clone()
}
