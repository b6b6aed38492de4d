use mcp_prompts::prompt;

#[prompt]
extern "C" fn greet(name: u32) -> String {
    name.to_string()
}

fn main() {}
