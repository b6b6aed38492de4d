//! The arguments of a prompt defined at run time: what a client sees of
//! each, and the values a call is given once they are checked.

use serde_json::json;

use crate::complete::{CompleteWith, DynCompleter};
use crate::descriptor::ArgType;
use crate::error::Error;
use crate::protocol::Arguments;

/// One argument of a [`DynamicPrompt`](crate::DynamicPrompt): a text the
/// client sends, required unless made [`optional`](Self::optional) or given
/// a [`default`](Self::default).
///
/// ```
/// use mcp_prompts::DynamicArgument;
///
/// let mood = DynamicArgument::new("mood")
///     .description("How you feel")
///     .default("ok")
///     .choices(["great", "ok", "tired"]);
/// ```
#[derive(Clone, Debug)]
pub struct DynamicArgument {
    pub(super) name: String,
    title: Option<String>,
    description: Option<String>,
    default: Option<String>,
    example: Option<String>,
    pub(super) required: bool,
    pub(super) choices: Vec<String>,
    completer: Option<DynCompleter>,
    /// A number's type, for forms' number inputs and schemas; the
    /// definition that sets it checks the values itself.
    value_type: Option<&'static ArgType>,
}

impl DynamicArgument {
    /// A required argument named `name`.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            title: None,
            description: None,
            default: None,
            example: None,
            required: true,
            choices: Vec::new(),
            completer: None,
            value_type: None,
        }
    }

    /// A human-readable title.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// What the argument is for.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// The client may leave the argument out.
    pub fn optional(mut self) -> Self {
        self.required = false;
        self
    }

    /// The value used when the client leaves the argument out (which makes
    /// it optional).
    pub fn default(mut self, value: impl Into<String>) -> Self {
        self.default = Some(value.into());
        self.required = false;
        self
    }

    /// A value to show the argument with:
    /// [`Client::matrix`](crate::testing::Client::matrix) renders with it
    /// where it would otherwise send a placeholder.
    pub fn example(mut self, value: impl Into<String>) -> Self {
        self.example = Some(value.into());
        self
    }

    /// The only values accepted (case aside, as for a `#[derive(PromptArg)]`
    /// enum; a value is passed on in the spelling given here). They are
    /// offered as completions.
    pub fn choices<I>(mut self, choices: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.choices = choices.into_iter().map(Into::into).collect();
        self
    }

    /// Completes the argument with `completer`: a function of a
    /// [`CompletionInput`](crate::CompletionInput), sync or async, as for
    /// `#[arg(complete = ...)]`. It wins over the choices.
    pub fn complete<C, M>(mut self, completer: C) -> Self
    where
        C: CompleteWith<M> + Clone + Send + Sync + 'static,
    {
        self.completer = Some(DynCompleter::new(completer));
        self
    }

    /// Whether the client must send the argument.
    pub fn is_required(&self) -> bool {
        self.required
    }

    // Read back with `get_`: the plain names build (as clap's `Arg` does).

    /// The argument's name.
    pub fn get_name(&self) -> &str {
        &self.name
    }

    /// The title set with [`title`](Self::title).
    pub fn get_title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The description set with [`description`](Self::description).
    pub fn get_description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// The default set with [`default`](Self::default).
    pub fn get_default(&self) -> Option<&str> {
        self.default.as_deref()
    }

    /// The example set with [`example`](Self::example).
    pub fn get_example(&self) -> Option<&str> {
        self.example.as_deref()
    }

    /// The choices set with [`choices`](Self::choices); empty for none.
    pub fn get_choices(&self) -> &[String] {
        &self.choices
    }

    /// The completer set with [`complete`](Self::complete).
    pub(crate) fn completer(&self) -> Option<&DynCompleter> {
        self.completer.as_ref()
    }

    /// Declares the value a number of `ty`'s kind (a dotprompt `integer`
    /// or `number`), so that forms offer a number input; the file's own
    /// rendering checks the values.
    #[cfg(feature = "files")]
    pub(crate) fn value_type(mut self, ty: &'static ArgType) -> Self {
        self.value_type = Some(ty);
        self
    }

    /// The number type set for forms, if any.
    pub(crate) fn get_value_type(&self) -> Option<&'static ArgType> {
        self.value_type
    }

    /// Describes the argument as `description` unless it is described.
    #[cfg(feature = "files")]
    pub(crate) fn describe_if_undescribed(&mut self, description: &str) {
        self.description
            .get_or_insert_with(|| description.to_owned());
    }

    /// The choice `value` stands for, in its listed spelling; `None` if the
    /// argument has choices and `value` is none of them.
    fn accept<'a>(&'a self, value: &'a str) -> Option<&'a str> {
        if self.choices.is_empty() {
            return Some(value);
        }
        let value = value.trim();
        self.choices
            .iter()
            .find(|choice| {
                choice.eq_ignore_ascii_case(value)
                    || (!value.is_ascii() && choice.to_lowercase() == value.to_lowercase())
            })
            .map(String::as_str)
    }

    /// -32602 for a value outside the choices, listing them.
    fn not_a_choice(&self, value: &str) -> Error {
        let name = &self.name;
        let list = self.choices.join(", ");
        let reason = format!("got `{}`", crate::error::excerpt(value.trim()));
        Error::invalid_params(format!(
            "invalid value for argument `{name}`: expected one of: {list} ({reason})"
        ))
        .with_data(json!({
            "argument": name,
            "expected": format!("one of: {list}"),
            "reason": reason,
            "choices": self.choices,
        }))
    }

    /// Checks that a default and an example are among the choices.
    pub(crate) fn problem(&self) -> Option<String> {
        let written = [("default", &self.default), ("example", &self.example)];
        written.into_iter().find_map(|(what, value)| {
            let value = value.as_deref()?;
            self.accept(value).is_none().then(|| {
                format!(
                    "{what} `{value}` of argument `{}` is not one of its choices: {}",
                    self.name,
                    self.choices.join(", ")
                )
            })
        })
    }
}

/// The values a prompt defined at run time is called with: each argument
/// the client sent, or its default, choices in their listed spelling.
#[derive(Clone, Debug, Default)]
pub struct ArgumentValues {
    values: Vec<(String, String)>,
}

impl ArgumentValues {
    /// The value of argument `name`; `None` for an optional argument that
    /// was not sent and has no default.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Every argument that has a value, in declaration order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.values.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// Reads the client's arguments against the declarations: defaults
    /// filled in, choices checked. Missing required arguments were
    /// refused before.
    pub(crate) fn read(declared: &[DynamicArgument], sent: &Arguments<'_>) -> Result<Self, Error> {
        let mut values = Vec::with_capacity(declared.len());
        for arg in declared {
            let Some(value) = sent.get(&arg.name).or(arg.default.as_deref()) else {
                continue;
            };
            let value = arg.accept(value).ok_or_else(|| arg.not_a_choice(value))?;
            values.push((arg.name.clone(), value.to_owned()));
        }
        Ok(Self { values })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_fill_in_and_choices_take_their_spelling() {
        let declared = [
            DynamicArgument::new("topic"),
            DynamicArgument::new("mood")
                .default("ok")
                .choices(["Great", "ok", "Élan"]),
            DynamicArgument::new("extra").optional(),
        ];
        let mut sent = Arguments::default();
        sent.insert("topic", "rust");
        let values = ArgumentValues::read(&declared, &sent).unwrap();
        assert_eq!(values.get("mood"), Some("ok"));
        assert_eq!(values.get("extra"), None);
        sent.insert("mood", "GREAT");
        let values = ArgumentValues::read(&declared, &sent).unwrap();
        assert_eq!(values.get("mood"), Some("Great"));
        sent.insert("mood", "élan");
        let values = ArgumentValues::read(&declared, &sent).unwrap();
        assert_eq!(values.get("mood"), Some("Élan"));
        sent.insert("mood", "sad");
        let error = ArgumentValues::read(&declared, &sent).unwrap_err();
        assert_eq!(error.code(), Error::INVALID_PARAMS);
        assert_eq!(
            error.data().unwrap()["choices"],
            json!(["Great", "ok", "Élan"])
        );
        assert_eq!(error.data().unwrap()["reason"], "got `sad`");
    }

    #[test]
    fn a_default_outside_the_choices_is_a_problem() {
        let arg = DynamicArgument::new("mood").default("meh").choices(["ok"]);
        assert!(arg.problem().unwrap().contains("`meh`"));
        assert!(
            DynamicArgument::new("mood")
                .default("meh")
                .problem()
                .is_none()
        );
    }
}
