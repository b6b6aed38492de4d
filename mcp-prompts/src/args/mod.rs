//! From the strings MCP delivers to typed Rust values.

mod dates;
mod flatten;
mod json;
pub(crate) mod param;
mod parse;

pub use flatten::PromptArgs;
pub use json::Json;
pub use param::PromptParam;
pub use parse::{IntoArgText, PromptArg};
