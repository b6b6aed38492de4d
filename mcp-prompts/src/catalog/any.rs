//! One servable prompt, whichever way it was defined: a `#[prompt]`
//! function's constant definition or a [`DynamicPrompt`] built at run time.
//! Listing, validation, completion and forms read both through this view.

use std::borrow::Cow;
#[cfg(feature = "fluent")]
use std::sync::Arc;

#[cfg(feature = "fluent")]
use super::texts::Texts;
use crate::context::RequestParts;
use crate::descriptor::{ArgDef, ArgRange, ArgType, Input, ParamKind, PromptDef};
use crate::dynamic::{DynamicArgument, DynamicPrompt};
use crate::error::Error;
use crate::invoke::Invocation;
use crate::invoke::catching::{PanicSite, call_catching};
use crate::presentation::{Icon, listed_meta};
use crate::protocol::Arguments;
use crate::protocol::language::Language;
use serde_json::{Map, Value};

/// A prompt a catalog can serve: a `#[prompt]`'s
/// [`PromptDef`] or a [`DynamicPrompt`]; both convert into it.
#[derive(Clone, Debug)]
pub struct AnyPrompt(pub(super) Kind, Localized);

/// A `#[prompt]`'s texts in other languages (Fluent's), or the one this
/// view shows; nothing without feature `fluent`. (A run-time prompt
/// carries its translations itself.) One pointer: every prompt moves it.
#[derive(Clone, Debug, Default)]
struct Localized(#[cfg(feature = "fluent")] Option<Arc<Localization>>);

#[cfg(feature = "fluent")]
#[derive(Debug)]
enum Localization {
    /// Its texts in each language it has.
    Translations(Vec<(Language, Arc<Texts>)>),
    /// The prompt as it is in one language.
    In(Arc<Texts>),
}

impl Localized {
    /// The texts of the language this view shows, if it shows one.
    #[cfg(feature = "fluent")]
    fn texts(&self) -> Option<&Texts> {
        match self.0.as_deref() {
            Some(Localization::In(texts)) => Some(texts),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) enum Kind {
    Macro(&'static PromptDef),
    Dynamic(DynamicPrompt),
}

impl From<&'static PromptDef> for AnyPrompt {
    fn from(def: &'static PromptDef) -> Self {
        Self(Kind::Macro(def), Localized::default())
    }
}

impl From<DynamicPrompt> for AnyPrompt {
    fn from(prompt: DynamicPrompt) -> Self {
        Self(Kind::Dynamic(prompt), Localized::default())
    }
}

/// What a client sees of one argument, from either kind of definition.
#[derive(Clone)]
pub(crate) struct ArgInfo<'a> {
    name: &'a str,
    title: Option<&'a str>,
    description: Option<&'a str>,
    default: Option<&'a str>,
    /// A value to show the argument with.
    example: Option<&'a str>,
    /// The bounds a number keeps.
    range: Option<ArgRange>,
    choices: Vec<&'a str>,
    /// How a value is written, where its type says.
    format: Option<&'a str>,
    required: bool,
    /// The Rust type's facts, for a `#[prompt]` argument: a form field's
    /// JSON type and bounds come from it. A run-time argument is text,
    /// unless its definition declares a number.
    ty: Option<&'static ArgType>,
}

impl<'a> ArgInfo<'a> {
    pub(crate) fn name(&self) -> &'a str {
        self.name
    }

    pub(crate) fn title(&self) -> Option<&'a str> {
        self.title
    }

    pub(crate) fn description(&self) -> Option<&'a str> {
        self.description
    }

    pub(crate) fn default(&self) -> Option<&'a str> {
        self.default
    }

    /// A value to show the argument with.
    pub(crate) fn example(&self) -> Option<&'a str> {
        self.example
    }

    /// The bounds a number keeps.
    pub(crate) fn range(&self) -> Option<ArgRange> {
        self.range
    }

    pub(crate) fn choices(&self) -> &[&'a str] {
        &self.choices
    }

    /// How a value is written, where its type says.
    pub(crate) fn format(&self) -> Option<&'a str> {
        self.format
    }

    pub(crate) fn required(&self) -> bool {
        self.required
    }

    /// The Rust type's facts, for a `#[prompt]` argument.
    pub(crate) fn ty(&self) -> Option<&'static ArgType> {
        self.ty
    }
}

#[cfg(feature = "fluent")]
impl<'a> ArgInfo<'a> {
    /// The argument with its title and description in `texts`'
    /// language, where they have them.
    fn in_texts(mut self, texts: &'a Texts) -> Self {
        let (title, description) = texts.argument(self.name);
        self.title = title.or(self.title);
        self.description = description.or(self.description);
        self
    }
}

impl<'a> From<&'a ArgDef> for ArgInfo<'a> {
    fn from(arg: &'a ArgDef) -> Self {
        Self {
            name: arg.name,
            title: arg.title(),
            description: arg.description(),
            default: arg.default,
            example: arg.example(),
            range: arg.range,
            choices: arg.ty.choices.to_vec(),
            format: arg.ty.format,
            required: arg.required(),
            ty: Some(arg.ty),
        }
    }
}

impl<'a> From<&'a DynamicArgument> for ArgInfo<'a> {
    fn from(arg: &'a DynamicArgument) -> Self {
        Self {
            name: arg.get_name(),
            title: arg.get_title(),
            description: arg.get_description(),
            default: arg.get_default(),
            example: arg.get_example(),
            range: None,
            choices: arg.get_choices().iter().map(String::as_str).collect(),
            format: None,
            required: arg.is_required(),
            ty: arg.get_value_type(),
        }
    }
}

impl ArgInfo<'_> {
    /// Whether the argument is supplied by the server, not the client.
    pub(crate) fn injected(&self) -> bool {
        self.ty.is_some_and(|ty| ty.kind == ParamKind::Injected)
    }
}

impl AnyPrompt {
    /// Calls the prompt with `arguments`, under the panic guard (which
    /// names it as `culprit`): a `#[prompt]` through its generated glue, a
    /// run-time prompt through its handler or template. An async prompt's
    /// future is given back unpolled, for the caller to guard.
    pub(crate) fn invoke(
        &self,
        arguments: &Arguments<'_>,
        request: RequestParts<'_>,
        max_result_bytes: usize,
        culprit: &PanicSite,
    ) -> Result<Invocation, Error> {
        match &self.0 {
            Kind::Macro(def) => {
                let input = Input::new(def, arguments, request);
                #[cfg(feature = "fluent")]
                if let Some(template) = self.1.texts().and_then(Texts::template) {
                    // The glue binds every argument as the function's
                    // parameters would: its checks, then this language's
                    // template.
                    let bound = call_catching(culprit, || (def.invoke)(&input))?;
                    if let Invocation::Ready(Err(error)) = bound {
                        return Ok(Invocation::Ready(Err(error)));
                    }
                    let rendered = crate::template::render_parsed(template, &input);
                    return Ok(Invocation::Ready(
                        rendered.map(crate::message::PromptResult::new),
                    ));
                }
                call_catching(culprit, || (def.invoke)(&input))
            }
            Kind::Dynamic(prompt) => prompt.invoke(arguments, request, max_result_bytes, culprit),
        }
    }

    /// The prompt as user code that may panic: `kind` says what of it
    /// runs (`prompt`, `completer of prompt`).
    pub(crate) fn culprit(&self, kind: &'static str) -> PanicSite {
        let name = match &self.0 {
            Kind::Macro(def) => Cow::Borrowed(def.name),
            Kind::Dynamic(dynamic) => Cow::Owned(dynamic.name().to_owned()),
        };
        PanicSite::new(kind, name)
    }

    /// A `#[prompt]`'s definition, which its completers are given; `None`
    /// for a run-time prompt.
    pub(crate) fn static_def(&self) -> Option<&'static PromptDef> {
        match self.0 {
            Kind::Macro(def) => Some(def),
            Kind::Dynamic(_) => None,
        }
    }

    /// The prompt's name.
    pub fn name(&self) -> &str {
        match &self.0 {
            Kind::Macro(def) => def.name,
            Kind::Dynamic(prompt) => prompt.name(),
        }
    }

    pub(crate) fn title(&self) -> Option<&str> {
        match &self.0 {
            Kind::Macro(def) => {
                #[cfg(feature = "fluent")]
                if let Some(texts) = self.1.texts() {
                    return texts.title().or(def.title);
                }
                def.title
            }
            Kind::Dynamic(prompt) => prompt.title(),
        }
    }

    pub(crate) fn description(&self) -> Option<&str> {
        match &self.0 {
            Kind::Macro(def) => {
                #[cfg(feature = "fluent")]
                if let Some(texts) = self.1.texts() {
                    return texts.description().or(def.description);
                }
                def.description
            }
            Kind::Dynamic(prompt) => prompt.description(),
        }
    }

    /// A `#[prompt]` with its texts in other `languages` (Fluent's).
    #[cfg(feature = "fluent")]
    pub(crate) fn with_texts(self, languages: Vec<(Language, Texts)>) -> Self {
        if languages.is_empty() {
            return self;
        }
        let languages = languages
            .into_iter()
            .map(|(language, texts)| (language, Arc::new(texts)))
            .collect();
        Self(
            self.0,
            Localized(Some(Arc::new(Localization::Translations(languages)))),
        )
    }

    /// Whether it has a translation into `language`.
    pub(crate) fn has_translation(&self, language: &Language) -> bool {
        match (&self.0, &self.1) {
            (Kind::Dynamic(prompt), _) => prompt.translations().iter().any(|(l, _)| l == language),
            #[cfg(feature = "fluent")]
            (Kind::Macro(_), Localized(Some(localized))) => match &**localized {
                Localization::Translations(languages) => {
                    languages.iter().any(|(l, _)| l == language)
                }
                Localization::In(_) => false,
            },
            (Kind::Macro(_), _) => false,
        }
    }

    /// The languages it has besides the default, each with the prompt as
    /// it is in that language.
    pub(crate) fn translations(&self) -> Vec<(Language, AnyPrompt)> {
        match (&self.0, &self.1) {
            (Kind::Dynamic(prompt), _) => prompt
                .translations()
                .iter()
                .map(|(language, prompt)| (language.clone(), prompt.clone().into()))
                .collect(),
            #[cfg(feature = "fluent")]
            (Kind::Macro(def), Localized(Some(localized))) => match &**localized {
                Localization::Translations(languages) => languages
                    .iter()
                    .map(|(language, texts)| {
                        let view = Localization::In(Arc::clone(texts));
                        let view = Localized(Some(Arc::new(view)));
                        (language.clone(), Self(Kind::Macro(def), view))
                    })
                    .collect(),
                Localization::In(_) => Vec::new(),
            },
            (Kind::Macro(_), _) => Vec::new(),
        }
    }

    /// Its icons.
    pub(crate) fn icons(&self) -> &[Icon] {
        match &self.0 {
            Kind::Macro(def) => def.extras().map_or(&[], |extras| extras.icons),
            Kind::Dynamic(prompt) => prompt.icons(),
        }
    }

    /// Its tags.
    pub(crate) fn tags(&self) -> Vec<&str> {
        match &self.0 {
            Kind::Macro(def) => def.extras().map_or(Vec::new(), |e| e.tags.to_vec()),
            Kind::Dynamic(prompt) => prompt.tags().iter().map(String::as_str).collect(),
        }
    }

    /// The `_meta` it is listed with: its entries and its tags.
    pub(crate) fn meta(&self) -> Option<Map<String, Value>> {
        match &self.0 {
            Kind::Macro(def) => def.extras().and_then(|extras| {
                let entries = extras.meta.iter().map(|&(k, v)| (k.to_owned(), v.into()));
                listed_meta(entries, extras.tags)
            }),
            Kind::Dynamic(prompt) => {
                let entries = prompt.meta().iter().map(|(k, v)| (k.clone(), v.clone()));
                listed_meta(entries, &self.tags())
            }
        }
    }

    /// Whether the prompt tools offer it.
    pub(crate) fn as_tool(&self) -> bool {
        match &self.0 {
            Kind::Macro(def) => def.extras().is_none_or(|extras| extras.as_tool),
            Kind::Dynamic(prompt) => prompt.as_tool(),
        }
    }

    /// Where it is defined: `file:line`, or what the run-time definition says.
    pub(crate) fn location(&self) -> String {
        match &self.0 {
            Kind::Macro(def) => def.location(),
            Kind::Dynamic(prompt) => prompt.origin().to_owned(),
        }
    }

    /// Where it is defined, as (file or origin, line): what orders prompts
    /// of the same name, so that messages about them are stable.
    pub(crate) fn place(&self) -> (&str, u32) {
        match &self.0 {
            Kind::Macro(def) => (def.file, def.line),
            Kind::Dynamic(prompt) => (prompt.origin(), 0),
        }
    }

    /// The arguments a client sees, in order.
    pub(crate) fn arguments(&self) -> Vec<ArgInfo<'_>> {
        match &self.0 {
            #[cfg(feature = "fluent")]
            Kind::Macro(def) => match self.1.texts() {
                Some(texts) => def
                    .arguments()
                    .map(|a| ArgInfo::from(a).in_texts(texts))
                    .collect(),
                None => def.arguments().map(ArgInfo::from).collect(),
            },
            #[cfg(not(feature = "fluent"))]
            Kind::Macro(def) => def.arguments().map(ArgInfo::from).collect(),
            Kind::Dynamic(prompt) => prompt.arguments().iter().map(ArgInfo::from).collect(),
        }
    }

    /// Whether it is `prompt` itself (or a clone of it), not merely an
    /// equal.
    #[cfg(feature = "registry")]
    pub(crate) fn is_same_dynamic(&self, prompt: &DynamicPrompt) -> bool {
        matches!(&self.0, Kind::Dynamic(own) if own.same_as(prompt))
    }

    /// Whether both are the same definition (one `#[prompt]`, or clones of
    /// one built prompt), served once when given twice.
    pub(crate) fn same_as(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Kind::Macro(a), Kind::Macro(b)) => a.same_as(b),
            (Kind::Dynamic(a), Kind::Dynamic(b)) => a.same_as(b),
            _ => false,
        }
    }
}
