//! From the strings MCP delivers to typed Rust values.

mod arguments;
mod json;
pub(crate) mod param;
mod parse;

pub use arguments::Arguments;
pub use json::Json;
pub use param::{Input, PromptParam};
pub use parse::PromptArg;
