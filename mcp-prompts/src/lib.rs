#![doc = include_str!("../../README.md")]
#![forbid(unsafe_code)]

mod args;
mod catalog;
mod content;
mod context;
mod descriptor;
mod error;
mod invoke;
mod message;
mod protocol;
mod server;
mod transport;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

/// Turns a function into an MCP prompt, registered for every [`Server`] in
/// the binary.
///
/// Keys: `name` (default: the function's name), `title`, `description`
/// (default: the doc comment). On parameters, `#[arg(name, title,
/// description, default)]`; a parameter's doc comment is its description.
///
/// ```
/// use mcp_prompts::prompt;
///
/// /// Compose a greeting
/// #[prompt(title = "Greeting")]
/// fn greet(
///     /// Who to greet
///     name: String,
///     /// How many exclamation marks
///     #[arg(default = 1)]
///     excitement: u8,
/// ) -> String {
///     format!("Say hello to {name}{}", "!".repeat(excitement.into()))
/// }
///
/// assert_eq!(greet("Ann".into(), 2), "Say hello to Ann!!");
/// ```
///
/// A misspelt key is a compile error on the key:
///
/// ```compile_fail
/// #[mcp_prompts::prompt(titel = "Greeting")]
/// fn greet() -> String {
///     String::new()
/// }
/// ```
pub use mcp_prompts_macros::prompt;

pub use args::{Arguments, Input, Json, PromptArg, PromptParam};
pub use catalog::{CatalogError, registered_prompts};
pub use content::{Annotations, Content, ResourceLink};
pub use context::{LogLevel, RequestContext, RequestId};
pub use descriptor::{ArgDef, InvokeFn, ParamKind, PromptDef};
pub use error::Error;
pub use invoke::{Invocation, PromptFuture};
pub use message::{IntoPromptResult, Message, PromptResult, Role};
pub use protocol::ProtocolVersion;
pub use server::{DEFAULT_MAX_MESSAGE_BYTES, Reply, Server, Service, Session};
