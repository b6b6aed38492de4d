//! From the strings MCP delivers to typed Rust values.

mod arguments;
mod flatten;
mod json;
pub(crate) mod param;
mod parse;

pub use arguments::Arguments;
pub use flatten::PromptArgs;
pub use json::Json;
pub use param::{Input, PromptParam};
pub use parse::{IntoArgText, PromptArg};
