//! The static description of a prompt: what `#[prompt]` emits, and the
//! contract between the macro crate and the runtime.

use crate::Error;
use crate::args::Input;
use crate::invoke::Invocation;

/// One prompt, as `#[prompt]` describes it at compile time.
///
/// Built by the macro as a `const`; a [`Service`](crate::Service) holds
/// `&'static` references to them. The fields are public so that generated
/// code can build it; read them through the methods.
#[derive(Debug)]
pub struct PromptDef {
    #[doc(hidden)]
    pub name: &'static str,
    #[doc(hidden)]
    pub title: Option<&'static str>,
    #[doc(hidden)]
    pub description: Option<&'static str>,
    #[doc(hidden)]
    pub arguments: &'static [ArgDef],
    #[doc(hidden)]
    pub invoke: InvokeFn,
    #[doc(hidden)]
    pub file: &'static str,
    #[doc(hidden)]
    pub line: u32,
}

/// The glue function `#[prompt]` generates: binds the arguments and calls the
/// user's function.
pub type InvokeFn = fn(&Input<'_>) -> Result<Invocation, Error>;

/// One parameter of a prompt function.
#[derive(Debug)]
pub struct ArgDef {
    #[doc(hidden)]
    pub name: &'static str,
    #[doc(hidden)]
    pub title: Option<&'static str>,
    #[doc(hidden)]
    pub description: Option<&'static str>,
    #[doc(hidden)]
    pub default: Option<DefaultValue>,
    #[doc(hidden)]
    pub kind: ParamKind,
}

/// An argument's default, in the string form a client would send.
#[derive(Debug)]
pub struct DefaultValue {
    #[doc(hidden)]
    pub text: &'static str,
    /// Parses `text` as the parameter's type; run once when the catalog is built.
    #[doc(hidden)]
    pub check: fn(&str) -> Result<(), String>,
}

/// What a parameter is, decided by its type through
/// [`PromptParam::KIND`](crate::PromptParam::KIND).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A prompt argument the client must send.
    Required,
    /// A prompt argument the client may omit.
    Optional,
    /// Supplied by the server (for example the request context); not an argument.
    Injected,
}

impl PromptDef {
    /// The prompt's name, unique within a catalog.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The human-readable title, if any.
    pub fn title(&self) -> Option<&'static str> {
        self.title
    }

    /// The description (from the doc comment or `description = ...`).
    pub fn description(&self) -> Option<&'static str> {
        self.description
    }

    /// The arguments a client sees, in declaration order.
    pub fn arguments(&self) -> impl Iterator<Item = &'static ArgDef> {
        self.arguments
            .iter()
            .filter(|arg| arg.kind != ParamKind::Injected)
    }

    /// Where the prompt is defined, as `file:line`.
    pub fn location(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

impl ArgDef {
    /// The argument's name, as the client sends it.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The human-readable title, if any.
    pub fn title(&self) -> Option<&'static str> {
        self.title
    }

    /// The description (from the doc comment or `description = ...`).
    pub fn description(&self) -> Option<&'static str> {
        self.description
    }

    /// The default used when the client omits the argument.
    pub fn default(&self) -> Option<&'static str> {
        self.default.as_ref().map(|d| d.text)
    }

    /// Whether the client must send this argument.
    pub fn required(&self) -> bool {
        self.kind == ParamKind::Required && self.default.is_none()
    }
}
