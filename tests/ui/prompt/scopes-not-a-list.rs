use mcp_prompts::prompt;

#[prompt(scopes = "deploy")]
fn deploy_notes(service: String) -> String {
    service
}

fn main() {}
