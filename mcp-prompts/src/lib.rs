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
