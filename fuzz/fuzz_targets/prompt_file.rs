//! Prompt files (`PromptDir`): TOML front matter between `+++` lines and a
//! template body, on any text; what parses is served and called.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_prompts::testing::Client;
use mcp_prompts::{DynamicPrompt, Server};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let prompt = match DynamicPrompt::from_prompt_file("fuzz", text) {
        Ok(prompt) => prompt,
        Err(problem) => {
            // A problem says where it is, within the file.
            if let Some(line) = problem.line {
                assert!(line >= 1 && line <= text.lines().count().max(1) + 1, "{problem}");
            }
            return;
        }
    };
    let name = prompt.name().to_owned();
    // Served, it lists and answers (or refuses with an error), never panics.
    let service = Server::new("fuzz", "1").prompts([prompt]).build().unwrap();
    let client = Client::new(&service);
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    runtime.block_on(async {
        let listed = client.request("prompts/list", &serde_json::json!({})).await.unwrap();
        assert_eq!(listed["prompts"][0]["name"], name.as_str());
        let get = serde_json::json!({"name": name, "arguments": {"who": "x"}});
        let _ = client.request("prompts/get", &get).await;
    });
});
