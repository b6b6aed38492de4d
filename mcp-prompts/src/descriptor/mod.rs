//! The static description of a prompt: what `#[prompt]` emits, and the
//! contract between the macro crate and the runtime.

mod completer;
#[cfg(test)]
mod tests;

use std::any::TypeId;

use crate::caller::Caller;
use crate::context::{RequestContext, RequestParts};
use crate::error::Error;
use crate::invoke::Invocation;
use crate::presentation::{Icon, MetaValue};
use crate::protocol::{Arguments, ProtocolVersion};

pub use completer::{Completer, CompletionCall, CompletionInput, Source};

/// One prompt, as `#[prompt]` describes it at compile time.
///
/// Built by the macro as a constant; a [`Service`](crate::Service) holds
/// `&'static` references to them. Its fields are hidden, for generated
/// code only; read it through the methods.
#[derive(Debug)]
pub struct PromptDef {
    #[doc(hidden)]
    pub name: &'static str,
    #[doc(hidden)]
    pub title: Option<&'static str>,
    #[doc(hidden)]
    pub description: Option<&'static str>,
    /// Every parameter, flattened structs spliced in, injected ones
    /// included ([`arguments`](Self::arguments) leaves those out).
    #[doc(hidden)]
    pub params: &'static [ArgDef],
    #[doc(hidden)]
    pub invoke: InvokeFn,
    #[doc(hidden)]
    pub file: &'static str,
    #[doc(hidden)]
    pub line: u32,
    /// The `TypeId` of the prompt's handle (`TypeId::of::<Self>` in its
    /// impl): one type per `#[prompt]`, the same in every copy of its
    /// constant, so it tells definitions apart where addresses cannot. A
    /// definition no `#[prompt]` wrote gives `TypeId::of::<PromptDef>`,
    /// and is known by its address alone.
    #[doc(hidden)]
    pub handle: fn() -> TypeId,
}

/// Which callers may see a prompt (`#[prompt(scopes = [..])]`,
/// `#[prompt(visible = ..)]`): a caller must hold every scope and pass the
/// predicate. Over HTTP a prompt with a restriction is hidden from every
/// other caller, and from requests that prove no caller; over stdio the
/// local user sees it.
#[derive(Debug)]
pub struct Restriction {
    /// The scopes a caller must all hold.
    pub scopes: &'static [&'static str],
    /// A further test of the caller.
    pub visible: Option<fn(&Caller) -> bool>,
}

/// A prompt's [`Restriction`], registered apart from its definition by
/// the prompts that have one: a field every definition carried would cost
/// every prompt compile time, restricted or not.
#[doc(hidden)]
pub struct Restricted(pub &'static PromptDef, pub &'static Restriction);

inventory::collect!(Restricted);

/// What a `#[prompt(template = ...)]` submits to inventory in place of a
/// `Registration`: the same, marked, as its translations may give a
/// template per language.
#[doc(hidden)]
pub struct Templated(pub &'static PromptDef);

inventory::collect!(Templated);

/// What a prompt declares besides its arguments and who may see it: icons,
/// `_meta` entries, tags, and whether it is offered through the prompt
/// tools (`#[prompt(icon = .., meta(..), tags = [..], as_tool = ..)]`).
#[derive(Debug)]
pub struct PromptExtras {
    /// Icons clients may show beside it.
    pub icons: &'static [Icon],
    /// Its own `_meta` entries.
    pub meta: &'static [(&'static str, MetaValue)],
    /// Its tags, listed in `_meta` under [`TAGS_META_KEY`](crate::TAGS_META_KEY).
    pub tags: &'static [&'static str],
    /// Whether the prompt tools offer it.
    pub as_tool: bool,
}

/// A prompt's [`PromptExtras`], registered apart from its definition (as
/// a [`Restricted`] is) by the prompts that declare any.
#[doc(hidden)]
pub struct Extended(pub &'static PromptDef, pub &'static PromptExtras);

inventory::collect!(Extended);

/// The glue function `#[prompt]` generates: binds the arguments and calls the
/// user's function.
pub type InvokeFn = fn(&Input<'_>) -> Result<Invocation, Error>;

/// What a prompt function's parameter is bound from: the request's arguments
/// and what its context is made of.
pub struct Input<'a> {
    def: &'a PromptDef,
    arguments: &'a Arguments<'a>,
    request: RequestParts<'a>,
}

impl<'a> Input<'a> {
    /// What `def` is called with: `arguments`, and the request's `parts`.
    pub(crate) fn new(
        def: &'a PromptDef,
        arguments: &'a Arguments<'a>,
        request: RequestParts<'a>,
    ) -> Self {
        Self {
            def,
            arguments,
            request,
        }
    }

    /// What the request's context is made from.
    pub(crate) fn request(&self) -> &RequestParts<'a> {
        &self.request
    }

    /// The prompt being called (or, for the answer to a form, the form).
    pub fn prompt(&self) -> &PromptDef {
        self.def
    }

    /// The arguments the client sent.
    pub fn arguments(&self) -> &Arguments<'_> {
        self.arguments
    }

    /// The protocol revision the request is served under.
    pub fn protocol_version(&self) -> ProtocolVersion {
        self.request.version()
    }

    /// A context for the request, made on each call: only the parameters
    /// that ask for one pay for it.
    pub fn context(&self) -> RequestContext {
        self.request.context()
    }
}

/// One parameter of a prompt function (or one field of a flattened
/// [`PromptArgs`](crate::PromptArgs) struct).
#[derive(Clone, Copy, Debug)]
pub struct ArgDef {
    #[doc(hidden)]
    pub name: &'static str,
    // Title, description and example are `""` when absent, not `None`:
    // every argument of every prompt spells these fields, and `""` is one
    // token where `None` is a path of nine (BENCHMARKS.md, compile time).
    #[doc(hidden)]
    pub title: &'static str,
    #[doc(hidden)]
    pub description: &'static str,
    /// The default, in the string form a client would send.
    #[doc(hidden)]
    pub default: Option<&'static str>,
    /// A value to show the argument with (`#[arg(example = ...)]`).
    #[doc(hidden)]
    pub example: &'static str,
    /// The bounds a number keeps (`#[arg(range = ...)]`).
    #[doc(hidden)]
    pub range: Option<ArgRange>,
    #[doc(hidden)]
    pub ty: &'static ArgType,
    /// The explicit completer (`#[arg(complete = ...)]`), if any.
    #[doc(hidden)]
    pub complete: Option<Completer>,
}

/// The bounds `#[arg(range = 1..=10)]` puts on a number, each as written:
/// a value outside them is refused as one of the wrong type is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArgRange {
    /// The least value allowed, if any.
    pub min: Option<&'static str>,
    /// The greatest value allowed, if any.
    pub max: Option<&'static str>,
}

impl ArgRange {
    /// Whether `value` (a number's text) lies within the bounds: compared
    /// as integers when all are, else as floating-point numbers.
    pub fn holds(&self, value: &str) -> bool {
        let value = value.trim();
        let within = |bound: Option<&str>, keeps: fn(std::cmp::Ordering) -> bool| {
            bound.is_none_or(|bound| {
                let order = match (value.parse::<i128>(), bound.parse::<i128>()) {
                    (Ok(v), Ok(b)) => Some(v.cmp(&b)),
                    _ => match (value.parse::<f64>(), bound.parse::<f64>()) {
                        (Ok(v), Ok(b)) => v.partial_cmp(&b),
                        _ => None,
                    },
                };
                order.is_some_and(keeps)
            })
        };
        within(self.min, std::cmp::Ordering::is_ge) && within(self.max, std::cmp::Ordering::is_le)
    }

    /// "from 1 to 10", "at least 1", "at most 10".
    pub fn describe(&self) -> String {
        match (self.min, self.max) {
            (Some(min), Some(max)) => format!("from {min} to {max}"),
            (Some(min), None) => format!("at least {min}"),
            (None, Some(max)) => format!("at most {max}"),
            (None, None) => "any".to_owned(),
        }
    }
}

/// What a parameter's type contributes to its definition; one per type,
/// shared by every argument of that type
/// ([`PromptParam::TYPE`](crate::PromptParam::TYPE)).
#[derive(Debug)]
pub struct ArgType {
    /// Required, optional or injected.
    pub kind: ParamKind,
    /// What a valid value looks like, for error messages.
    pub expected: &'static str,
    /// The values a client may send, when the type accepts only a fixed set.
    pub choices: &'static [&'static str],
    /// Parses a value without keeping it: how defaults are checked.
    pub check: fn(&str) -> Result<(), String>,
    /// The canonical spelling of a value, where the type has one.
    pub canonical: fn(&str) -> Option<&'static str>,
    /// How a default is checked when the crate compiles.
    pub default_check: DefaultCheck,
    /// How a value is written, shown in the listing
    /// ([`PromptArg::FORMAT`](crate::PromptArg::FORMAT)).
    pub format: Option<&'static str>,
    /// A form field's JSON Schema `format`
    /// ([`PromptArg::SCHEMA_FORMAT`](crate::PromptArg::SCHEMA_FORMAT)).
    pub schema_format: Option<&'static str>,
}

/// What a default value of a type must look like, so that
/// `#[arg(default = ...)]` is checked when the crate compiles
/// ([`PromptArg::DEFAULT_CHECK`](crate::PromptArg::DEFAULT_CHECK)). A type
/// the compiler cannot parse has its defaults checked when the server is
/// built instead.
#[derive(Clone, Copy, Debug)]
pub enum DefaultCheck {
    /// Checked when the server is built, by parsing it.
    AtStartup,
    /// Any text is a value (`String`).
    Anything,
    /// The parameter takes no default (the server supplies it).
    NoDefault,
    /// An integer of `bits` bits, signed or not, in its range.
    Integer {
        /// Whether negative values exist.
        signed: bool,
        /// The width: 8 to 128.
        bits: u32,
    },
    /// A floating-point number, as Rust parses one.
    Number,
    /// Exactly one character.
    Character,
    /// One of these spellings (and the index of the value each one means),
    /// ASCII case-insensitively: a choice enum's values and aliases.
    OneOf(&'static [(&'static str, usize)]),
}

/// What a parameter is, decided by its type through
/// [`PromptParam::TYPE`](crate::PromptParam::TYPE).
#[non_exhaustive]
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

    /// The arguments a client sees, in declaration order, flattened structs
    /// spliced in where they were declared.
    pub fn arguments(&self) -> impl Iterator<Item = &'static ArgDef> {
        self.params
            .iter()
            .filter(|arg| arg.ty.kind != ParamKind::Injected)
    }

    /// The argument a client knows by `name`.
    pub fn argument(&self, name: &str) -> Option<&'static ArgDef> {
        self.arguments().find(|arg| arg.name == name)
    }

    /// Who may see the prompt, when not everyone may: what
    /// `#[prompt(scopes = .., visible = ..)]` registered for it.
    pub fn restriction(&self) -> Option<&'static Restriction> {
        inventory::iter::<Restricted>
            .into_iter()
            .find(|restricted| restricted.0.same_as(self))
            .map(|restricted| restricted.1)
    }

    /// Whether it is a `#[prompt(template = ...)]`: what may take a
    /// template per language (feature `fluent`).
    #[cfg(feature = "fluent")]
    pub(crate) fn is_template(&self) -> bool {
        inventory::iter::<Templated>
            .into_iter()
            .any(|templated| templated.0.same_as(self))
    }

    /// What the prompt declares besides its arguments and restriction:
    /// icons, `_meta`, tags, whether the prompt tools offer it.
    pub fn extras(&self) -> Option<&'static PromptExtras> {
        inventory::iter::<Extended>
            .into_iter()
            .find(|extended| extended.0.same_as(self))
            .map(|extended| extended.1)
    }

    /// Where the prompt is defined, as `file:line`.
    pub fn location(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }

    /// The definition a form's answer is bound against: the form's fields
    /// as its arguments; never served.
    pub(crate) const fn form(fields: &'static [ArgDef]) -> Self {
        Self {
            name: "form",
            title: None,
            description: None,
            params: fields,
            invoke: |_| Err(Error::internal("a form is not a prompt")),
            file: "",
            line: 0,
            handle: TypeId::of::<PromptDef>,
        }
    }

    /// Whether `self` and `other` are the same definition. A `#[prompt]`'s
    /// definition is a constant, which the compiler may copy (into another
    /// crate, or another codegen unit), so its address alone cannot tell:
    /// it is known by its handle's type. (Not by its name and place:
    /// prompts one `macro_rules!` call writes share the line of the call
    /// and may share a name, and `module_path!()` leaves out the functions
    /// a prompt may be written in.)
    pub(crate) fn same_as(&self, other: &Self) -> bool {
        if std::ptr::eq(self, other) {
            return true;
        }
        let handle = (self.handle)();
        handle != TypeId::of::<PromptDef>() && handle == (other.handle)()
    }
}

impl ArgDef {
    /// The argument's name, as the client sends it.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The human-readable title, if any.
    pub fn title(&self) -> Option<&'static str> {
        present(self.title)
    }

    /// The description (from the doc comment or `description = ...`).
    pub fn description(&self) -> Option<&'static str> {
        present(self.description)
    }

    /// The default used when the client omits the argument.
    pub fn default(&self) -> Option<&'static str> {
        self.default
    }

    /// The bounds a number keeps, from `#[arg(range = ...)]`.
    pub fn range(&self) -> Option<ArgRange> {
        self.range
    }

    /// A value to show the argument with, from `#[arg(example = ...)]`:
    /// [`Client::matrix`](crate::testing::Client::matrix) renders with it.
    pub fn example(&self) -> Option<&'static str> {
        present(self.example)
    }

    /// The values a client may send, when the type allows only a fixed set
    /// (a `#[derive(PromptArg)]` enum, `bool`); empty otherwise.
    pub fn choices(&self) -> &'static [&'static str] {
        self.ty.choices
    }

    /// What a valid value looks like, as error messages say it.
    pub fn expected(&self) -> &'static str {
        self.ty.expected
    }

    /// Whether the client must send this argument.
    pub fn required(&self) -> bool {
        self.ty.kind == ParamKind::Required && self.default.is_none()
    }

    /// The text a template shows for `value`: its canonical spelling where
    /// the type has one (`Formal` -> `formal`), else the value as sent.
    pub fn canonical<'a>(&self, value: &'a str) -> &'a str {
        (self.ty.canonical)(value).unwrap_or(value)
    }
}

/// A text field of an `ArgDef`, where `""` stands for none.
const fn present(text: &'static str) -> Option<&'static str> {
    if text.is_empty() { None } else { Some(text) }
}
