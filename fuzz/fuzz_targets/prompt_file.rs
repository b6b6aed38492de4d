//! Prompt files (`PromptDir`) of every kind, on any text: the first byte
//! picks the file's name (`fuzz.md`: ours or a Claude Code command;
//! `fuzz.prompt.md`: VS Code; `fuzz.prompt`: dotprompt), the rest is the
//! file; what parses is served and called with each argument it lists.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_prompts::testing::Client;
use mcp_prompts::{DynamicPrompt, Server};

const NAMES: [&str; 3] = ["fuzz", "fuzz.prompt.md", "fuzz.prompt"];

fuzz_target!(|data: &[u8]| {
    let Some((&kind, data)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let file = NAMES[usize::from(kind) % NAMES.len()];
    let prompt = match DynamicPrompt::from_prompt_file(file, text) {
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
        // Each listed argument as text, then as a JSON list (what a
        // dotprompt array takes).
        for value in ["x", "[\"x\", 1]"] {
            let mut arguments = serde_json::Map::new();
            for argument in listed["prompts"][0]["arguments"].as_array().into_iter().flatten() {
                arguments.insert(argument["name"].as_str().unwrap().to_owned(), value.into());
            }
            let get = serde_json::json!({"name": name, "arguments": arguments});
            let _ = client.request("prompts/get", &get).await;
        }
    });
});
