use mcp_prompts::{PromptArgs, prompt};

#[derive(PromptArgs)]
struct Release {
    project: String,
    version: String,
}

/// Draft release notes
#[prompt(template = "Release notes for {project}{#version} {version}{/version}.")]
fn release_notes(#[arg(flatten)] release: Release);

fn main() {}
