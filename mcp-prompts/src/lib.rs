//! Serve [Model Context Protocol](https://modelcontextprotocol.io) prompts
//! written as plain Rust functions.
//!
//! `#[prompt]` on an ordinary function, sync or `async`, declares its
//! parameters as the prompt's arguments, parses the strings a client sends
//! into their types, takes descriptions from doc comments and registers the
//! prompt; a [`Server`] serves every registered prompt over stdio or
//! Streamable HTTP, in every protocol revision from 2024-11-05 to
//! 2026-07-28.
//!
//! ```no_run
//! use mcp_prompts::{Server, prompt};
//!
//! /// Review a code snippet
//! #[prompt]
//! fn code_review(
//!     /// The code to review
//!     code: String,
//!     /// What the review should focus on
//!     focus: Option<String>,
//! ) -> String {
//!     let focus = focus.as_deref().unwrap_or("general quality");
//!     format!("Review this code with a focus on {focus}:\n\n{code}")
//! }
//!
//! #[tokio::main]
//! async fn main() -> std::io::Result<()> {
//!     Server::new("reviewer", "1.0").serve_stdio().await
//! }
//! ```
//!
//! # Where to start
//!
//! The [`guide`] explains every part, one chapter per topic: start with
//! [prompts and arguments](guide::prompts), then read what your server needs.
//! The items of this crate, by what they are for:
//!
//! | for | items |
//! |---|---|
//! | declaring prompts | [`prompt`], [`PromptArgs`](macro@PromptArgs), [`PromptArg`](macro@PromptArg), [`catalog!`], [`Json`], [`RequestContext`] |
//! | what a prompt returns | [`Message`], [`Content`], [`PromptResult`], [`Error`] |
//! | prompts from data | [`DynamicPrompt`], [`DynamicArgument`], `PromptDir` (feature `files`) |
//! | Agent Skills | `Server::skills_dir` (feature `files`), `include_skill!` (feature `embedded-skills`), [`DynamicSkill`], [`Server::skills_as_prompts`], [`Service::skill_problems`] ([skills](guide::skills)) |
//! | the server | [`Server`], [`Service`], [`Prompts`] (a live catalog), [`Caller`] |
//! | prompts in the user's language | [`RequestContext::language`], [`Server::default_language`], [`DynamicPromptBuilder::translation`], `Translations` (feature `fluent`) ([languages](guide::languages)) |
//! | a prompt registry (feature `registry`) | `Server::registry`, `Server::label_scope`, the `registry` module's `Registry` ([prompt registry](guide::registry)) |
//! | HTTP (feature `http`) | `HttpOptions`, `HttpEndpoint`; with `auth`, `HttpAuth` and `JwtVerifier` |
//! | inside rmcp (feature `rmcp`) | the `rmcp` module: `RmcpPrompts` and `serve_prompts!` |
//! | tests | [`testing::Client`], typed request builders (feature `builders`), argument matrices as snapshots (feature `insta`) |
//!
//! # Features
//!
//! Every feature is off by default and additive; turn on the ones you use.
//!
//! | feature | what it adds | what it pulls in |
//! |---|---|---|
//! | (none) | `#[prompt]`, the derives and `catalog!`; live and run-time prompts; completion; stdio and any async byte stream; both protocol eras; the test client | tokio (`rt`, `sync`, `io-std`, `io-util`, `time`, `signal`), serde, `serde_json`, inventory, arc-swap, tracing, base64, itoa, memchr, hmac, sha2, getrandom |
//! | `http` | Streamable HTTP: `Server::serve_http`, `Service::http_endpoint`, `HttpOptions` ([transports](guide::transports)) | axum (`http1`, `tokio`), http, hyper, hyper-util, tower-service, bytes, futures-util, lru; libc on Unix; tokio's `net`, `time`, `signal`, `macros` |
//! | `auth` | OAuth resource server on HTTP: every request's bearer token verified, JWTs against the issuer's keys, Protected Resource Metadata, `HttpAuth`, `JwtVerifier`, `TokenVerifier` ([authorization](guide::authorization)); implies `http`; needs Rust 1.88 | jsonwebtoken (`aws_lc_rs`), reqwest (`rustls`, for the issuer's keys): aws-lc-rs, which compiles C |
//! | `files` | prompt files with hot reload: `PromptDir` ([prompt files](guide::prompt_files)): ours, Claude Code commands, VS Code prompt files and dotprompt; skill folders, `Server::skills_dir` ([skills](guide::skills)) | notify, toml (parser only), `yaml_serde`, handlebars (dotprompt's renderer), cap-std, cap-fs-ext, `mime_guess`, unicode-normalization, unicode-general-category, unicode-security; libc on Unix |
//! | `embedded-skills` | `include_skill!`: a skill folder embedded in the binary, checked and digested when the crate compiles ([skills](guide::skills)) | in the macros crate: `yaml_serde`, `serde_json`, sha2, `mime_guess`, unicode-normalization, unicode-general-category, unicode-security |
//! | `rmcp` | prompts inside an rmcp server: the `mcp_prompts::rmcp` module ([rmcp](guide::rmcp)); needs Rust 1.88 | rmcp (`server`), futures-util; tokio's `macros` |
//! | `otel` | OpenTelemetry: each request span's parent from its `_meta`, the duration histograms, OTLP/HTTP export from the `OTEL_*` variables, `otel::init`, the metrics for a Prometheus scrape (`/metrics`) ([observability](guide::observability)) | opentelemetry, `opentelemetry_sdk`, opentelemetry-otlp (`http-proto`, blocking reqwest), tracing-opentelemetry, tracing-subscriber, opentelemetry-prometheus, prometheus (no protobuf) |
//! | `cli` | the `mcp-prompts` binary (`serve`, `check`, `render`, `catalog`, `list`, `diff`, `completions`) and the same commands over your own catalog, `cli::run` ([the CLI](guide::cli)); implies `http`, `files`, `otel`, `playground` (not `auth`, which compiles C: add it for `--auth-issuer`); needs Rust 1.88 | clap (`derive`), `clap_complete`, strsim, tracing-subscriber; tokio's `rt-multi-thread` |
//! | `registry` | a prompt registry: every published prompt an immutable version, labels that move between versions, in SQLite or PostgreSQL; `Server::registry` serves a label live, `registry::Registry` publishes, moves labels and lists; with `cli`, `publish`, `label`, `versions` and `URL#LABEL` sources ([prompt registry](guide::registry)); implies `files` | sqlx (`sqlite`, `postgres`, `migrate`, `runtime-tokio`, no TLS): SQLite itself, bundled, compiles C |
//! | `fluent` | `#[prompt]`s' titles, descriptions and argument texts in other languages from Fluent files: `Translations`, `Server::translations` ([languages](guide::languages)) | fluent-bundle, fluent-syntax, unic-langid |
//! | `playground` | a page at `/playground` beside `/mcp` to try every prompt with a form from its typed arguments: `HttpOptions::playground`, `Playground`, the CLI's and showcase's `--playground` ([the playground](guide::playground)); implies `http` | nothing: plain HTML, CSS and a script, embedded |
//! | `builders` | a typed `prompts/get` builder on every handle, `greet::args().name("Ann")` ([catalogs](guide::catalogs)), for tests: turn it on in `[dev-dependencies]` | nothing; each setter is an item the compiler checks, so it is off where nobody calls them |
//! | `chrono`, `jiff`, `time` | each crate's dates, times and instants as argument types (`NaiveDate`, `civil::Date`, `OffsetDateTime`, ...), parsed from ISO 8601 / RFC 3339, with their format in the listing and a date picker's `format` in forms ([arguments](guide::prompts)) | the crate named |
//! | `insta` | `assert_matrix_snapshot!`: each prompt's argument matrix held to an `insta` snapshot ([testing](guide::testing)), for tests: turn it on in `[dev-dependencies]` | insta (no default features) |
//!
//! On docs.rs every feature is documented, and each item that needs one
//! says which.
//!
//! # Minimum supported Rust version
//!
//! Rust 1.85 (edition 2024), with no features, `http` or `files`; the
//! `rmcp`, `auth` and `cli` features need Rust 1.88, because rmcp 3.11 and
//! jsonwebtoken 12 do. Raising it is done in a minor release, never a patch
//! release, and is noted in the changelog.
#![forbid(unsafe_code)]
// docs.rs (nightly, `--cfg docsrs`): each feature-gated item says which feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
// Below the transports nothing names a feature, so the hooks only HTTP or
// rmcp call (listing pages, typed gets, stateless serving) are unused in
// a build without them. The all-features build still lints dead code.

mod args;
mod caller;
mod catalog;
mod complete;
mod content;
mod context;
pub mod contract;
mod descriptor;
mod dynamic;
mod elicit;
mod error;
#[cfg(feature = "files")]
mod files;
#[cfg(feature = "fluent")]
mod fluent;
pub mod guide;
mod invoke;
mod message;
mod presentation;
mod protocol;
#[cfg(feature = "registry")]
pub mod registry;
mod request;
#[cfg(feature = "rmcp")]
pub mod rmcp;
mod server;
mod skills;
mod sync;
mod telemetry;
mod template;
pub mod testing;

#[cfg(feature = "cli")]
pub mod cli;

/// OpenTelemetry for a server: [`init`](otel::init) sets up logging and
/// the export of traces and metrics from the standard `OTEL_*` variables
/// in one call (feature `otel`).
#[cfg(feature = "otel")]
pub mod otel {
    pub use crate::telemetry::otel::prometheus::Prometheus;
    pub use crate::telemetry::otel::setup::{Otel, OtelBuilder, OtelError, init, record_metrics};
}
mod transport;

// README's examples are compiled (and run, where they do not serve forever)
// with the crate's doc tests. `cargo package` ships README.md at the package
// root, so this path holds in the repository and in the published package.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

#[doc(hidden)]
#[path = "private/mod.rs"]
pub mod __private;

/// Turns a function into an MCP prompt, registered for every [`Server`] in
/// the binary.
///
/// Keys of `#[prompt(...)]`, all optional:
///
/// | key | what it sets |
/// |---|---|
/// | `name = "..."` | the name clients know it by; default: the function's name (`r#type` gives `type`) |
/// | `title = "..."` | the display title (sent from revision 2025-06-18 on) |
/// | `description = "..."` | the description; default: the doc comment |
/// | `template = "..."` | the prompt's messages, from its arguments: `{arg}` placeholders, `{{`/`}}` for braces, `--- user`/`--- assistant` lines between messages; the function is then declared without a body |
/// | `template_file = "path"` | the same, read from a file relative to `CARGO_MANIFEST_DIR` (an edit rebuilds) |
/// | `unused = ["arg", ...]` | arguments a template leaves out on purpose (any other unused one is an error) |
/// | `scopes = ["scope", ...]` | over HTTP, shown only to callers granted every one of these scopes; hidden from others as if it did not exist ([`Caller`], the [authorization](guide::authorization) chapter) |
/// | `visible = path` | over HTTP, shown only to callers for whom this `fn(&Caller) -> bool` is true |
/// | `icon = "https://..."` | an icon clients may show beside the prompt (sent from revision 2025-11-25 on); repeatable |
/// | `icon_file = "path"` | an icon read from a file relative to `CARGO_MANIFEST_DIR` (.svg, .png, .jpg, .jpeg, .webp; at most 64 KiB) and embedded as a `data:` URI |
/// | `icon(url = "..." or file = "...", sizes = ["48x48"], theme = "dark")` | an icon with its sizes (`WxH` or `any`) and theme (`light`, `dark`) |
/// | `meta("com.example/key" = <literal>, ...)` | `_meta` entries of the listing (sent from 2025-06-18 on): strings, numbers, booleans; keys checked against MCP's rules |
/// | `tags = ["tag", ...]` | tags, listed in `_meta` under [`TAGS_META_KEY`]; [`Server::only_tags`] and [`Server::without_tags`] choose by them |
/// | `as_tool = false` | kept out of the prompt tools ([`Server::prompts_as_tools`]) |
///
/// Keys of `#[arg(...)]` on a parameter (or a `#[derive(PromptArgs)]` field):
///
/// | key | what it sets |
/// |---|---|
/// | `name = "..."` | the argument's name for clients; default: the parameter's |
/// | `title = "..."` | its display title |
/// | `description = "..."` | its description; default: its doc comment |
/// | `default = <literal>` | the value used when the client omits it (then not required); checked against the type when the crate compiles where the compiler can parse it (numbers with their range, `bool`, `char`, choice enums), else when the server is built |
/// | `complete = path` or `complete = ["a", "b"]` | its completions: a function of a [`CompletionInput`] (sync or async), a `&'static` list, or a list of literals |
/// | `flatten` | takes a `#[derive(PromptArgs)]` struct, whose fields are the arguments |
///
/// The parameter's type decides the rest: `Option<T>` is optional,
/// [`RequestContext`] is supplied by the server, anything else is a
/// required argument parsed by [`PromptArg`](trait@PromptArg).
///
/// Next to the function, `#[prompt] fn greet` makes a handle `greet`
/// (a struct, so it does not clash with the function): `greet::NAME`,
/// `greet::PROMPT` (its [`PromptDef`], for [`Server::prompts`] and
/// [`catalog!`]); with the `builders` feature (meant for
/// `[dev-dependencies]`, since every setter costs compile time) also
/// `greet::args()`, a typed builder of a [`GetPrompt`] whose setters are
/// named after the parameters (a flattened struct's setter takes a closure
/// over that struct's builder, whose setters are named after its fields);
/// each setter's documentation says the argument name clients see. A
/// `#[prompt]` function takes at most 12 parameters (a template prompt,
/// any number); group more in an `#[arg(flatten)]` struct.
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

/// Derives [`PromptArgs`](trait@PromptArgs) for a struct with named
/// fields: each field is an argument, with the same rules and `#[arg(...)]`
/// keys as a `#[prompt]` parameter. A prompt takes the struct with
/// `#[arg(flatten)]`.
///
/// ```
/// use mcp_prompts::{PromptArgs, prompt};
///
/// #[derive(PromptArgs)]
/// struct Release {
///     /// Project name
///     project: String,
///     /// Version being released
///     version: String,
/// }
///
/// /// Announce a release
/// #[prompt]
/// fn announce(#[arg(flatten)] release: Release, channel: Option<String>) -> String {
///     format!("Announce {} {} on {}", release.project, release.version,
///         channel.as_deref().unwrap_or("the blog"))
/// }
/// ```
///
/// Anything but a non-generic struct with named fields is an error:
///
/// ```compile_fail
/// #[derive(mcp_prompts::PromptArgs)]
/// struct Pair(String, String);
/// ```
pub use mcp_prompts_macros::PromptArgs;

/// Derives [`PromptArg`](trait@PromptArg) for an enum of unit variants: a
/// fixed choice of values.
///
/// Values are the variant names in `snake_case`, matched
/// case-insensitively; `#[prompt_arg(rename_all = "kebab-case")]` on the
/// enum picks another rule (serde's names), and `#[prompt_arg(rename =
/// "...", alias = "...")]` on a variant sets its value or accepts another
/// spelling. The listing shows the choices, completion offers them, a bad
/// value is an error that lists them, and `Display` writes the value
/// (`#[prompt_arg(display = false)]` leaves `Display` to you).
///
/// ```
/// use mcp_prompts::PromptArg;
///
/// #[derive(Debug, PartialEq, PromptArg)]
/// enum Tone {
///     Formal,
///     #[prompt_arg(alias = "relaxed")]
///     Casual,
/// }
///
/// assert_eq!(Tone::parse_arg("Formal"), Ok(Tone::Formal));
/// assert_eq!(Tone::parse_arg("relaxed"), Ok(Tone::Casual));
/// assert_eq!(Tone::CHOICES, ["formal", "casual"]);
/// assert_eq!(Tone::EXPECTED, "one of `formal`, `casual`");
/// assert_eq!(Tone::Casual.to_string(), "casual");
/// assert!(Tone::parse_arg("rude").is_err());
/// ```
pub use mcp_prompts_macros::PromptArg;

/// An explicit, compile-time checked [`Catalog`] of prompts, from the paths
/// of `#[prompt]` functions. A path that is not a `#[prompt]` function, or
/// two entries with the same prompt name, is a compile error.
///
/// ```
/// use mcp_prompts::{Catalog, Server, catalog, prompt};
///
/// mod review {
///     /// Review code
///     #[mcp_prompts::prompt]
///     pub fn code_review(code: String) -> String {
///         format!("Review:\n{code}")
///     }
/// }
///
/// /// Summarize a text
/// #[prompt]
/// fn summarize(text: String) -> String {
///     format!("Summarize:\n{text}")
/// }
///
/// const PROMPTS: Catalog = catalog![review::code_review, summarize];
///
/// assert_eq!(PROMPTS[0].name(), "code_review");
/// let service = Server::new("reviewer", "1.0").catalog(PROMPTS).build().unwrap();
/// assert_eq!(service.prompt_count(), 2);
/// ```
///
/// ```compile_fail
/// /// One
/// #[mcp_prompts::prompt(name = "same")]
/// fn one() -> String { String::new() }
/// /// Two
/// #[mcp_prompts::prompt(name = "same")]
/// fn two() -> String { String::new() }
///
/// const PROMPTS: mcp_prompts::Catalog = mcp_prompts::catalog![one, two];
/// ```
pub use mcp_prompts_macros::catalog;

/// Embeds an Agent Skill's folder in the binary (feature
/// `embedded-skills`), served by every [`Server`] in it as the skills
/// extension of MCP defines it, beside any skills from folders or code.
///
/// The path is relative to the crate's root (where its `Cargo.toml` is);
/// the folder's name is the skill's, and a folder in it holding a
/// `SKILL.md` is a skill nested in it. Every file is read when the crate
/// compiles and checked as [`Server::skills_dir`] checks a folder's at run
/// time: the front matter, the name rules, 512 files and 16 MiB, no link
/// leading out of the folder. A problem is a compile error on the path.
/// Digests are worked out then too: nothing ships beside the binary.
///
/// ```ignore
/// mcp_prompts::include_skill!("skills/release-notes");
/// ```
///
/// An edit of an embedded file rebuilds the crate, but on stable Rust a
/// file added to or removed from the folder does not. A build script
/// makes Cargo watch the folder:
///
/// ```no_run
/// // In build.rs's `fn main`:
/// println!("cargo:rerun-if-changed=skills/release-notes");
/// ```
///
/// The [skills](guide::skills) chapter has more.
#[cfg(feature = "embedded-skills")]
pub use mcp_prompts_macros::include_skill;

pub use args::{IntoArgText, Json, PromptArg, PromptArgs, PromptParam};
pub use caller::Caller;
pub use catalog::{AnyPrompt, Catalog, Prompts, registered_prompts};
pub use complete::{CompleteWith, CompleterOutput, IntoCompletions};
pub use content::{Annotations, Content, ResourceLink, Role};
pub use context::{RequestContext, RequestId};
pub use descriptor::{
    ArgDef, ArgRange, ArgType, Completer, CompletionCall, CompletionInput, Input, InvokeFn,
    ParamKind, PromptDef, PromptExtras, Restriction, Source,
};
pub use dynamic::{ArgumentValues, DynamicArgument, DynamicPrompt, DynamicPromptBuilder};
pub use elicit::Elicited;
pub use error::{BuildError, Error};
#[cfg(feature = "files")]
pub use files::{
    DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_FILES, FileProblem, PromptDir, PromptDirOptions,
};
#[cfg(feature = "fluent")]
pub use fluent::Translations;
pub use invoke::{Invocation, PromptFuture};
pub use message::{IntoPromptResult, Message, PromptResult};
pub use presentation::{Icon, IconTheme, MetaValue, TAGS_META_KEY};
pub use protocol::{Arguments, LogLevel, ProtocolVersion};
pub use request::{ArgsBuilder, GetPrompt};
pub use server::{
    CacheScope, DEFAULT_MAX_BATCH_ITEMS, DEFAULT_MAX_BATCH_RESPONSE_BYTES, DEFAULT_MAX_IN_FLIGHT,
    DEFAULT_MAX_LISTENS, DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_MAX_PENDING_OUTPUT_BYTES,
    DEFAULT_MAX_RESULT_BYTES, DEFAULT_MAX_UNSENT_BYTES, DEFAULT_MAX_WAITING,
    DEFAULT_QUESTION_TIMEOUT, DEFAULT_SKILLS_PAGE_SIZE, Server, Service, Session,
};
pub use skills::{DynamicSkill, DynamicSkillBuilder, SkillContent};
#[cfg(feature = "playground")]
pub use transport::http::Playground;
#[cfg(feature = "http")]
pub use transport::http::{DEFAULT_PATH, HttpEndpoint, HttpOptions};
#[cfg(feature = "auth")]
pub use transport::http::{HttpAuth, JwtAlgorithm, JwtVerifier, TokenError, TokenVerifier};
pub use transport::{Reply, ResponseFuture, shutdown_signal};
