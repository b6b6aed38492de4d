use mcp_prompts::prompt;

// A scope is sent in `WWW-Authenticate` headers and compared with a
// token's space-separated `scope`: no spaces.
#[prompt(scopes = ["deploy", "read write"])]
fn deploy_notes(service: String) -> String {
    service
}

fn main() {}
