//! Prompts defined while the program runs, without macros: from a
//! database, a configuration file, a directory of prompt files. Built with
//! [`DynamicPrompt::builder`], served next to `#[prompt]` functions and
//! behaving the same on the wire.

mod argument;
mod template;
mod translation;

use std::fmt;
use std::future::Future;
use std::sync::Arc;

pub use argument::{ArgumentValues, DynamicArgument};
use template::RuntimeTemplate;
#[cfg(feature = "files")]
pub(crate) use translation::translation_mismatch;

use crate::caller::Caller;
use crate::context::{RequestContext, RequestParts};
use crate::error::{BuildError, Error};
use crate::invoke::catching::{PanicSite, call_catching};
use crate::invoke::{Invocation, pending, ready};
use crate::message::{IntoPromptResult, Message, PromptResult};
use crate::presentation::Icon;
use crate::protocol::Arguments;
use crate::protocol::language::Language;
use mcp_prompts_template::rules;
use serde_json::{Map, Value};

/// A visibility test of the caller, type-erased.
#[derive(Clone)]
pub(crate) struct Visible(Arc<dyn Fn(&Caller) -> bool + Send + Sync>);

impl fmt::Debug for Visible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Visible(..)")
    }
}

/// A handler closure, type-erased.
type HandlerFn = dyn Fn(ArgumentValues, RequestContext) -> Invocation + Send + Sync;

/// What renders a prompt's messages from its arguments alone: a run-time
/// template, a prompt file's template.
pub(crate) trait Render: Send + Sync {
    /// The messages for `values`, at most `max_bytes` of text: a render
    /// stops as it passes them, answered `-32602`
    /// ([`Error::result_too_large`]).
    fn render(&self, values: &ArgumentValues, max_bytes: usize) -> Result<Vec<Message>, Error>;
}

/// What a call of the prompt runs.
#[derive(Clone)]
pub(crate) enum Handler {
    /// A template, rendered with the arguments: no context is made.
    Template(Arc<dyn Render>),
    /// A closure of the arguments and the request's context.
    Call(Arc<HandlerFn>),
}

/// A prompt defined at run time. Build one with [`DynamicPrompt::builder`]
/// and serve it through [`Server::prompts`](crate::Server::prompts) or a
/// live catalog's [`Prompts::add`](crate::Prompts::add).
///
/// ```
/// use mcp_prompts::{DynamicArgument, DynamicPrompt, Server};
///
/// let standup = DynamicPrompt::builder("standup")
///     .title("Daily standup")
///     .description("Summarize yesterday and plan today")
///     .argument(DynamicArgument::new("yesterday").description("What you did"))
///     .argument(DynamicArgument::new("mood").default("ok").choices(["great", "ok", "tired"]))
///     .template("Yesterday I {yesterday}. Mood: {mood}.\n--- assistant\nWhat is the plan?")
///     .build()?;
/// let service = Server::new("team", "1.0").prompts([standup]).build()?;
/// assert_eq!(service.prompt_count(), 1);
/// # Ok::<(), mcp_prompts::BuildError>(())
/// ```
#[derive(Clone)]
pub struct DynamicPrompt(Arc<Parts>);

/// The parts of a [`DynamicPrompt`], shared by every catalog serving it.
#[derive(Clone)]
pub(crate) struct Parts {
    name: String,
    title: Option<String>,
    description: Option<String>,
    arguments: Vec<DynamicArgument>,
    handler: Handler,
    /// The scopes a remote caller must all hold to see it.
    scopes: Vec<String>,
    /// A further test a remote caller must pass to see it.
    visible: Option<Visible>,
    /// Where it was defined, for messages about it (a file's path, or
    /// "run time").
    origin: String,
    icons: Vec<Icon>,
    /// Its own `_meta` entries, keys checked.
    meta: Map<String, Value>,
    tags: Vec<String>,
    /// Whether the prompt tools offer it.
    as_tool: bool,
    /// The prompt in other languages: its texts and body in each, its
    /// arguments the same.
    translations: Vec<(Language, DynamicPrompt)>,
}

impl DynamicPrompt {
    /// Calls the prompt with `arguments` read into its values: a template
    /// is rendered (it needs no context, so none is made), a handler called
    /// under the panic guard.
    pub(crate) fn invoke(
        &self,
        arguments: &Arguments<'_>,
        request: RequestParts<'_>,
        max_result_bytes: usize,
        culprit: &PanicSite,
    ) -> Result<Invocation, Error> {
        let values = ArgumentValues::read(&self.0.arguments, arguments)?;
        // A translation is served as a prompt of its own (the catalog
        // picks it): this one's own body answers.
        match &self.0.handler {
            Handler::Template(template) => Ok(Invocation::Ready(
                template
                    .render(&values, max_result_bytes)
                    .map(PromptResult::new),
            )),
            Handler::Call(handler) => {
                call_catching(culprit, || Ok(handler(values, request.context())))
            }
        }
    }

    /// Starts a prompt named `name`.
    pub fn builder(name: impl Into<String>) -> DynamicPromptBuilder {
        DynamicPromptBuilder {
            name: name.into(),
            title: None,
            description: None,
            arguments: Vec::new(),
            body: Body::Missing,
            scopes: Vec::new(),
            visible: None,
            origin: None,
            icons: Vec::new(),
            meta: Map::new(),
            tags: Vec::new(),
            as_tool: true,
            translations: Vec::new(),
        }
    }

    /// The prompt's name.
    pub fn name(&self) -> &str {
        &self.0.name
    }

    /// The human-readable title, if any.
    pub fn title(&self) -> Option<&str> {
        self.0.title.as_deref()
    }

    /// The description, if any.
    pub fn description(&self) -> Option<&str> {
        self.0.description.as_deref()
    }

    /// The arguments, in declaration order.
    pub fn arguments(&self) -> &[DynamicArgument] {
        &self.0.arguments
    }

    /// The scopes a remote caller must all hold to see the prompt.
    pub fn scopes(&self) -> &[String] {
        &self.0.scopes
    }

    /// Its icons.
    pub fn icons(&self) -> &[Icon] {
        &self.0.icons
    }

    /// Its own `_meta` entries (its tags are listed beside them).
    pub fn meta(&self) -> &Map<String, Value> {
        &self.0.meta
    }

    /// Its tags.
    pub fn tags(&self) -> &[String] {
        &self.0.tags
    }

    /// Whether the prompt tools offer it.
    pub fn as_tool(&self) -> bool {
        self.0.as_tool
    }

    /// Whether `self` and `other` are the same prompt (clones of one build).
    /// Where it was defined, for messages about it (a file's path, or
    /// "run time").
    pub(crate) fn origin(&self) -> &str {
        &self.0.origin
    }

    /// Whether some remote callers may not see it.
    pub(crate) fn is_restricted(&self) -> bool {
        !self.0.scopes.is_empty() || self.0.visible.is_some()
    }

    /// Whether its own test (beside the scopes) lets `caller` see it.
    pub(crate) fn shown_to(&self, caller: &Caller) -> bool {
        self.0
            .visible
            .as_ref()
            .is_none_or(|visible| (visible.0)(caller))
    }

    pub(crate) fn same_as(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// The same prompt, said to come from `origin` and listed with the
    /// `meta` entries too (a registry's version, stamped with its number
    /// and label): a prompt of its own, never the [`same_as`](Self::same_as)
    /// this one.
    #[cfg(feature = "registry")]
    pub(crate) fn stamped(
        &self,
        origin: String,
        meta: impl IntoIterator<Item = (String, Value)>,
    ) -> Self {
        let mut parts = Parts::clone(&self.0);
        parts.origin = origin;
        parts.meta.extend(meta);
        Self(Arc::new(parts))
    }
}

impl fmt::Debug for DynamicPrompt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynamicPrompt")
            .field("name", &self.0.name)
            .field("arguments", &self.0.arguments)
            .field("origin", &self.0.origin)
            .finish_non_exhaustive()
    }
}

enum Body {
    Missing,
    Template(String),
    #[cfg(feature = "files")]
    Rendered(Arc<dyn Render>),
    Handler(Arc<HandlerFn>),
}

impl fmt::Debug for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Missing => f.write_str("Missing"),
            Self::Template(text) => f.debug_tuple("Template").field(text).finish(),
            #[cfg(feature = "files")]
            Self::Rendered(_) => f.write_str("Rendered"),
            Self::Handler(_) => f.write_str("Handler"),
        }
    }
}

/// Builds a [`DynamicPrompt`]: name, title, description, arguments, and
/// what it answers with (a [`template`](Self::template) or a
/// [`handler`](Self::handler)). Everything is checked by
/// [`build`](Self::build).
#[must_use]
#[derive(Debug)]
pub struct DynamicPromptBuilder {
    name: String,
    title: Option<String>,
    description: Option<String>,
    arguments: Vec<DynamicArgument>,
    body: Body,
    scopes: Vec<String>,
    visible: Option<Visible>,
    origin: Option<String>,
    icons: Vec<Icon>,
    meta: Map<String, Value>,
    tags: Vec<String>,
    as_tool: bool,
    translations: Vec<(String, DynamicPrompt)>,
}

impl DynamicPromptBuilder {
    /// A human-readable title.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// What the prompt is for.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Declares an argument, after those declared before.
    pub fn argument(mut self, argument: DynamicArgument) -> Self {
        self.arguments.push(argument);
        self
    }

    /// Answers with `template`, in the syntax of `#[prompt(template = ...)]`:
    /// `{argument}` placeholders, `{{` and `}}` for braces, and lines
    /// `--- user` / `--- assistant` starting messages. A placeholder that
    /// names no argument makes [`build`](Self::build) fail.
    pub fn template(mut self, template: impl Into<String>) -> Self {
        self.body = Body::Template(template.into());
        self
    }

    /// Answers with what `handler` returns for the checked arguments: a
    /// `String`, a `Message`, a `Vec<Message>`, a `PromptResult`, or a
    /// `Result` of one.
    ///
    /// ```
    /// use mcp_prompts::{DynamicArgument, DynamicPrompt};
    ///
    /// let shout = DynamicPrompt::builder("shout")
    ///     .argument(DynamicArgument::new("text"))
    ///     .handler(|args, _ctx| args.get("text").unwrap_or_default().to_uppercase())
    ///     .build()?;
    /// # Ok::<(), mcp_prompts::BuildError>(())
    /// ```
    pub fn handler<F, R>(mut self, handler: F) -> Self
    where
        F: Fn(&ArgumentValues, RequestContext) -> R + Send + Sync + 'static,
        R: IntoPromptResult,
    {
        self.body = Body::Handler(Arc::new(move |args, ctx| ready(handler(&args, ctx))));
        self
    }

    /// Answers with what `render` renders: a template of the crate's own
    /// (a prompt file's), which needs no request context.
    #[cfg(feature = "files")]
    pub(crate) fn rendered(mut self, render: Arc<dyn Render>) -> Self {
        self.body = Body::Rendered(render);
        self
    }

    /// Answers with what the future `handler` returns resolves to; the
    /// future owns the arguments and the context.
    pub fn async_handler<F, Fut, R>(mut self, handler: F) -> Self
    where
        F: Fn(ArgumentValues, RequestContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = R> + Send + 'static,
        R: IntoPromptResult,
    {
        self.body = Body::Handler(Arc::new(move |args, ctx| pending(handler(args, ctx))));
        self
    }

    /// Shows the prompt only to remote callers granted every one of
    /// `scopes` (as `#[prompt(scopes = [..])]` does); the local user of a
    /// stdio server sees it regardless.
    pub fn scopes<I: IntoIterator<Item = S>, S: Into<String>>(mut self, scopes: I) -> Self {
        self.scopes.extend(scopes.into_iter().map(Into::into));
        self
    }

    /// Shows the prompt only to remote callers for whom `visible` is true
    /// (as `#[prompt(visible = ..)]` does).
    ///
    /// ```
    /// use mcp_prompts::DynamicPrompt;
    ///
    /// let staff = DynamicPrompt::builder("staff_only")
    ///     .visible(|caller| caller.subject().ends_with("@example.com"))
    ///     .template("Hello, colleague.")
    ///     .build()?;
    /// # Ok::<(), mcp_prompts::BuildError>(())
    /// ```
    pub fn visible(mut self, visible: impl Fn(&Caller) -> bool + Send + Sync + 'static) -> Self {
        self.visible = Some(Visible(Arc::new(visible)));
        self
    }

    /// Adds an icon clients may show beside the prompt (sent from revision
    /// 2025-11-25 on).
    pub fn icon(mut self, icon: Icon) -> Self {
        self.icons.push(icon);
        self
    }

    /// Adds a `_meta` entry to the prompt's listing (sent from revision
    /// 2025-06-18 on); [`build`](Self::build) checks the key against MCP's
    /// rules (`com.example/owner`).
    ///
    /// ```
    /// use mcp_prompts::DynamicPrompt;
    ///
    /// let review = DynamicPrompt::builder("review")
    ///     .meta("com.example/owner", "team-x")
    ///     .tags(["code", "review"])
    ///     .template("Review this.")
    ///     .build()?;
    /// assert_eq!(review.tags(), ["code", "review"]);
    /// # Ok::<(), mcp_prompts::BuildError>(())
    /// ```
    pub fn meta(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.meta.insert(key.into(), value.into());
        self
    }

    /// Tags the prompt: listed in its `_meta` under
    /// [`TAGS_META_KEY`](crate::TAGS_META_KEY), and what
    /// [`Server::only_tags`](crate::Server::only_tags) and
    /// [`Server::without_tags`](crate::Server::without_tags) choose by.
    pub fn tags<I: IntoIterator<Item = S>, S: Into<String>>(mut self, tags: I) -> Self {
        self.tags.extend(tags.into_iter().map(Into::into));
        self
    }

    /// Whether the prompt tools
    /// ([`Server::prompts_as_tools`](crate::Server::prompts_as_tools))
    /// offer the prompt; they do unless told `false`.
    pub fn as_tool(mut self, as_tool: bool) -> Self {
        self.as_tool = as_tool;
        self
    }

    /// Says where the prompt comes from (a file's path, a table's row), for
    /// messages about it.
    pub fn origin(mut self, origin: impl Into<String>) -> Self {
        self.origin = Some(origin.into());
        self
    }

    /// The prompt, once its name, arguments, defaults and template are
    /// checked; every problem found otherwise.
    pub fn build(self) -> Result<DynamicPrompt, BuildError> {
        let origin = self.origin.unwrap_or_else(|| "run time".to_owned());
        let mut problems = Vec::new();
        if !crate::protocol::is_valid_name(&self.name) {
            problems.push(format!(
                "prompt name `{}` at {origin} must be 1 to 128 characters of A-Z, a-z, 0-9, `_`, `-` and `.`",
                self.name
            ));
        }
        for (i, arg) in self.arguments.iter().enumerate() {
            if self.arguments[..i].iter().any(|a| a.name == arg.name) {
                problems.push(format!(
                    "prompt `{}` declares argument `{}` twice",
                    self.name, arg.name
                ));
            }
            if !crate::protocol::is_valid_name(&arg.name) {
                problems.push(format!(
                    "prompt `{}`: argument name `{}` must be 1 to 128 characters of A-Z, a-z, 0-9, `_`, `-` and `.`",
                    self.name, arg.name
                ));
            }
            if let Some(problem) = arg.problem() {
                problems.push(format!("prompt `{}`: {problem}", self.name));
            }
        }
        for scope in &self.scopes {
            if !crate::caller::is_valid_scope(scope) {
                problems.push(format!(
                    "prompt `{}`: scope `{scope}` must be 1 or more printable ASCII characters, without spaces, `\"` or `\\`",
                    self.name
                ));
            }
        }
        for problem in presentation_problems(&self.icons, &self.meta, &self.tags) {
            problems.push(format!("prompt `{}`: {problem}", self.name));
        }
        let translations = translation::checked(
            &self.name,
            &self.arguments,
            self.translations,
            &mut problems,
        );
        let handler = match self.body {
            Body::Missing => {
                problems.push(format!(
                    "prompt `{}` has neither a template nor a handler",
                    self.name
                ));
                None
            }
            Body::Template(text) => match RuntimeTemplate::parse(&text, &self.arguments) {
                Ok(template) => Some(Handler::Template(Arc::new(template))),
                Err(error) => {
                    problems.push(format!(
                        "prompt `{}`: template, line {}: {}",
                        self.name, error.line, error.message
                    ));
                    None
                }
            },
            #[cfg(feature = "files")]
            Body::Rendered(render) => Some(Handler::Template(render)),
            Body::Handler(call) => Some(Handler::Call(call)),
        };
        match handler {
            Some(handler) if problems.is_empty() => Ok(DynamicPrompt(Arc::new(Parts {
                name: self.name,
                title: self.title,
                description: self.description,
                arguments: self.arguments,
                handler,
                scopes: self.scopes,
                visible: self.visible,
                origin,
                icons: self.icons,
                meta: self.meta,
                tags: self.tags,
                as_tool: self.as_tool,
                translations,
            }))),
            _ => Err(BuildError::new(problems)),
        }
    }
}

/// What is wrong with a prompt's icons, `_meta` keys and tags.
fn presentation_problems(
    icons: &[Icon],
    meta: &Map<String, Value>,
    tags: &[String],
) -> Vec<String> {
    let icons = icons.iter().filter_map(Icon::problem);
    let keys = meta
        .keys()
        .filter_map(|key| rules::check_meta_key(key).err());
    let tags = tags.iter().filter_map(|tag| rules::check_tag(tag).err());
    icons.chain(keys).chain(tags).collect()
}

#[cfg(feature = "files")]
/// Checks a template against arguments: the line of the first problem
/// (counted from 1 within the template) and what it is.
pub(crate) fn check_template(
    text: &str,
    arguments: &[DynamicArgument],
) -> Result<(), (usize, String)> {
    RuntimeTemplate::parse(text, arguments)
        .map(drop)
        .map_err(|error| (error.line, error.message))
}
