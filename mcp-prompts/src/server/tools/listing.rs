//! What `list_prompts` returns: the prompts a caller may see and the tools
//! offer, as text for the model and, from 2025-06-18, as structured
//! content matching the tool's output schema.

use std::fmt::Write as _;

use serde::Serialize;

use super::Offered;
use super::result::{ToolContent, ToolResult};
use crate::catalog::{AnyPrompt, ArgInfo, Words};
use crate::protocol::ProtocolVersion;

/// The prompts listed, as the output schema has them.
#[derive(Serialize)]
pub(crate) struct ListedPrompts {
    prompts: Vec<Listed>,
}

/// One prompt, as the output schema has it.
#[derive(Serialize)]
struct Listed {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    arguments: Vec<ListedArgument>,
}

/// One argument of a prompt, as the output schema has it.
#[derive(Serialize)]
struct ListedArgument {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    required: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    default: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    choices: Vec<String>,
}

/// The `CallToolResult` of `list_prompts` over `offered`, each prompt's
/// text in its words; `none` says there is no prompt.
pub(crate) fn list_result(
    offered: &[Offered],
    version: ProtocolVersion,
    none: &Words,
) -> ToolResult {
    let prompts: Vec<Listed> = offered
        .iter()
        .map(|(prompt, _)| described(prompt))
        .collect();
    let text = if prompts.is_empty() {
        none.no_prompts().to_owned()
    } else {
        as_text(
            prompts
                .iter()
                .zip(offered.iter().map(|(_, words)| &**words)),
        )
    };
    let result = ToolResult::of(vec![ToolContent::Text(text)]);
    if version.has_titles() {
        result.structured(ListedPrompts { prompts })
    } else {
        result
    }
}

fn described(prompt: &AnyPrompt) -> Listed {
    Listed {
        name: prompt.name().to_owned(),
        title: prompt.title().map(str::to_owned),
        description: prompt.description().map(str::to_owned),
        arguments: prompt.arguments().iter().map(argument).collect(),
    }
}

fn argument(arg: &ArgInfo<'_>) -> ListedArgument {
    ListedArgument {
        name: arg.name().to_owned(),
        title: arg.title().map(str::to_owned),
        description: arg.description().map(str::to_owned),
        required: arg.required(),
        default: arg.default().map(str::to_owned),
        choices: arg.choices().iter().map(|&c| c.to_owned()).collect(),
    }
}

/// The same as text, a prompt a paragraph:
///
/// ```text
/// code_review (Code review): Review a change
///   - code (required): The code to review
///   - style: one of: formal, casual; default: casual
/// ```
fn as_text<'a>(prompts: impl Iterator<Item = (&'a Listed, &'a Words)>) -> String {
    let mut text = String::new();
    for (prompt, words) in prompts {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&prompt.name);
        if let Some(title) = &prompt.title {
            let _ = write!(text, " ({title})");
        }
        if let Some(description) = &prompt.description {
            let _ = write!(text, ": {description}");
        }
        text.push('\n');
        for arg in &prompt.arguments {
            let _ = write!(text, "  - {}", arg.name);
            if arg.required {
                let _ = write!(text, " ({})", words.required());
            }
            let mut notes = Vec::new();
            notes.extend(arg.description.clone());
            if !arg.choices.is_empty() {
                notes.push(words.one_of(&arg.choices));
            }
            if let Some(default) = &arg.default {
                notes.push(words.default_is(default));
            }
            if !notes.is_empty() {
                let _ = write!(text, ": {}", notes.join("; "));
            }
            text.push('\n');
        }
    }
    text
}
