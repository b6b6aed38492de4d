//! Every example's prompts over every combination of their arguments, one
//! snapshot each, as `mcp-prompts render --matrix` prints them: the team
//! server's Rust prompts, its repository folders, and each folder of
//! prompt files (TOML, Claude Code commands, VS Code prompt files,
//! dotprompt). A change to what any of them says shows in review. (The
//! showcase's own are in `tests/showcase.rs`.)

#[path = "../examples/team_server/prompts.rs"]
mod team;

use std::path::Path;

use mcp_prompts::testing::{Answers, Client};
use mcp_prompts::{PromptDir, Server};
use serde_json::json;

/// The folders of prompt files the examples hold, by the name their
/// snapshots carry.
const FOLDERS: [(&str, &str); 6] = [
    ("files", "examples/prompt-files"),
    ("commands", "examples/claude-commands"),
    ("vscode", "examples/vscode-prompts"),
    ("dotprompt", "examples/dotprompt"),
    ("team_commands", "examples/team_server/.claude/commands"),
    ("team_prompts", "examples/team_server/.github/prompts"),
];

/// A client that answers the team's incident question.
fn answering(client: Client) -> Client {
    client.answering(Answers::fields([
        ("severity", json!("major")),
        ("customers_affected", json!(true)),
    ]))
}

#[tokio::test]
async fn the_team_servers_rust_prompts() {
    // The team server serves every `#[prompt]` in its binary, as here.
    let service = Server::new("team", "1.0").build().unwrap();
    let client = answering(Client::new(&service));
    let mut names = client.prompt_names().await;
    names.sort_unstable();
    assert_eq!(names, ["incident_report", "release_plan", "review"]);
    // `matrix_NAME` for each.
    mcp_prompts::assert_matrix_snapshot!(client);
}

#[tokio::test]
async fn every_prompt_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (label, folder) in FOLDERS {
        let (service, prompts) = Server::new("examples", "1.0").build_live().unwrap();
        let dir = PromptDir::watch(root.join(folder), &prompts).unwrap();
        assert_eq!(dir.problems(), [], "{folder}");
        let served = dir.served();
        assert!(!served.is_empty(), "{folder} serves nothing");
        let client = Client::new(&service);
        for name in served {
            let document = client.matrix(&name).await.unwrap();
            let file_safe = name.replace([':', '/'], "_");
            insta::assert_snapshot!(format!("{label}_{file_safe}"), document);
        }
    }
}
