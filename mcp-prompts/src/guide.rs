//! The user guide: one chapter per topic, from a first prompt to serving a
//! team over HTTP.
//!
//! The guide lives in the crate, as documentation-only modules, so it is
//! versioned with the code it describes and every example in it is compiled
//! (and, where it does not serve forever, run) by `cargo test`.
//!
//! # Writing prompts
//!
//! | chapter | what it covers |
//! |---|---|
//! | [`prompts`] | `#[prompt]` on a function: arguments from parameters, descriptions from doc comments, return types, the request context |
//! | [`arguments`] | `#[derive(PromptArgs)]` structs shared by prompts, and choice enums with `#[derive(PromptArg)]` |
//! | [`templates`] | prompts written as templates: placeholders, sections, roles, template files |
//! | [`completion`] | completing argument values as the user types |
//! | [`asking`] | asking the user for input while a prompt runs, and for missing arguments |
//! | [`icons_and_tags`] | icons, `_meta` and tags beside a prompt |
//!
//! # Building the catalog
//!
//! | chapter | what it covers |
//! |---|---|
//! | [`catalogs`] | handles, explicit catalogs, and a catalog that changes while serving |
//! | [`runtime_prompts`] | prompts defined at run time, from data |
//! | [`prompt_files`] | folders of prompt files, each format: ours, Claude Code commands, VS Code prompt files, dotprompt |
//! | [`cli`] | the `mcp-prompts serve DIR` binary, no Rust to write |
//! | [`skills`] | Agent Skills from folders, served as MCP's skills extension |
//! | [`registry`] | a prompt registry: immutable versions and moving labels in SQLite or PostgreSQL, served live by every replica |
//! | [`languages`] | prompts in the user's language: the per-request preference (SEP-2792), translated prompt files, Fluent texts for Rust prompts |
//!
//! # Serving
//!
//! | chapter | what it covers |
//! |---|---|
//! | [`transports`] | stdio and Streamable HTTP, mounting in your axum app, scaling out behind a load balancer |
//! | [`eras`] | the handshake revisions and stateless 2026-07-28, side by side |
//! | [`authorization`] | OAuth bearer tokens, the caller in prompts, prompts shown per caller |
//! | [`prompts_as_tools`] | the prompts as two tools, for hosts that show only tools |
//! | [`rmcp`] | prompts inside a server of rmcp, the official Rust SDK, next to its tools |
//!
//! # Checking and operating
//!
//! | chapter | what it covers |
//! |---|---|
//! | [`authors_loop`] | checking folders in CI, rendering a prompt, snapshots of every argument combination, the commands for Rust prompts |
//! | [`playground`] | a page to try every prompt in a browser, with forms from the typed arguments |
//! | [`testing`] | the in-process test client, typed request builders, answering prompts that ask, argument matrices |
//! | [`errors`] | JSON-RPC error codes, what a client reads |
//! | [`observability`] | a log line per request; OpenTelemetry spans, metrics and trace context in the MCP conventions |
//! | [`security`] | every bound the server keeps, and its default |
//! | [`how_it_works`] | what the macro writes, and how a request is served |

#[doc = include_str!("guide/prompts.md")]
pub mod prompts {}

#[doc = include_str!("guide/arguments.md")]
pub mod arguments {}

#[doc = include_str!("guide/templates.md")]
pub mod templates {}

#[doc = include_str!("guide/completion.md")]
pub mod completion {}

#[doc = include_str!("guide/asking.md")]
pub mod asking {}

#[doc = include_str!("guide/icons_and_tags.md")]
pub mod icons_and_tags {}

#[doc = include_str!("guide/catalogs.md")]
pub mod catalogs {}

#[doc = include_str!("guide/runtime_prompts.md")]
pub mod runtime_prompts {}

#[doc = include_str!("guide/prompt_files.md")]
pub mod prompt_files {}

#[doc = include_str!("guide/cli.md")]
pub mod cli {}

#[doc = include_str!("guide/skills.md")]
pub mod skills {}

#[doc = include_str!("guide/registry.md")]
// Its links name the registry's items, which only a build with feature
// `registry` has (docs.rs builds every feature, and CI checks them so).
#[cfg_attr(not(feature = "registry"), allow(rustdoc::broken_intra_doc_links))]
pub mod registry {}

#[doc = include_str!("guide/languages.md")]
pub mod languages {}

#[doc = include_str!("guide/transports.md")]
pub mod transports {}

#[doc = include_str!("guide/eras.md")]
pub mod eras {}

#[doc = include_str!("guide/authorization.md")]
pub mod authorization {}

#[doc = include_str!("guide/prompts_as_tools.md")]
pub mod prompts_as_tools {}

#[doc = include_str!("guide/rmcp.md")]
pub mod rmcp {}

#[doc = include_str!("guide/authors_loop.md")]
pub mod authors_loop {}

#[doc = include_str!("guide/playground.md")]
// The screenshot, after the text and inline: the crate has no web home to
// link it from.
#[doc = concat!(
    "\n\n![The playground rendering a code review](data:image/jpeg;base64,",
    include_str!("guide/playground.jpg.base64"),
    ")"
)]
pub mod playground {}

#[doc = include_str!("guide/testing.md")]
pub mod testing {}

#[doc = include_str!("guide/errors.md")]
pub mod errors {}

#[doc = include_str!("guide/observability.md")]
pub mod observability {}

#[doc = include_str!("guide/security.md")]
pub mod security {}

#[doc = include_str!("guide/how_it_works.md")]
pub mod how_it_works {}
