//! A `prompts/get` request as data, and the typed builders `#[prompt]` and
//! `#[derive(PromptArgs)]` generate on top of it.

use std::borrow::Cow;

use serde::ser::{Serialize, SerializeMap, Serializer};

/// The name and arguments of a `prompts/get` request.
///
/// Build one by hand, or (with the `builders` feature, which your tests
/// can turn on in `[dev-dependencies]`) through a prompt's typed handle,
/// which checks the argument names and value types at compile time:
///
/// ```
/// use mcp_prompts::{GetPrompt, prompt};
///
/// /// Compose a greeting
/// #[prompt]
/// fn greet(name: String, excitement: Option<u8>) -> String {
///     format!("Hello {name}{}", "!".repeat(excitement.unwrap_or(1).into()))
/// }
///
/// let typed: GetPrompt = greet::args().name("Ann").excitement(3).into();
/// let by_hand = GetPrompt::new("greet").arg("name", "Ann").arg("excitement", "3");
/// assert_eq!(typed, by_hand);
/// assert_eq!(
///     serde_json::to_string(&typed).unwrap(),
///     r#"{"name":"greet","arguments":{"name":"Ann","excitement":"3"}}"#
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GetPrompt {
    name: Cow<'static, str>,
    arguments: Vec<(Cow<'static, str>, String)>,
}

impl GetPrompt {
    /// A request for the prompt `name`, with no arguments yet.
    pub fn new(name: impl Into<Cow<'static, str>>) -> Self {
        Self {
            name: name.into(),
            arguments: Vec::new(),
        }
    }

    /// Sets an argument, replacing an earlier value of the same name.
    pub fn arg(mut self, name: impl Into<Cow<'static, str>>, value: impl Into<String>) -> Self {
        self.set(name, value.into());
        self
    }

    /// Sets an argument in place, replacing an earlier value of the same name.
    pub fn set(&mut self, name: impl Into<Cow<'static, str>>, value: String) {
        let name = name.into();
        match self.arguments.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value,
            None => self.arguments.push((name, value)),
        }
    }

    /// The prompt's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The arguments set so far, in the order they were first set.
    pub fn arguments(&self) -> impl Iterator<Item = (&str, &str)> {
        self.arguments.iter().map(|(n, v)| (n.as_ref(), v.as_str()))
    }
}

/// Serializes as the `params` of `prompts/get`.
impl Serialize for GetPrompt {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Args<'a>(&'a [(Cow<'static, str>, String)]);
        impl Serialize for Args<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut map = s.serialize_map(Some(self.0.len()))?;
                for (name, value) in self.0 {
                    map.serialize_entry(name, value)?;
                }
                map.end()
            }
        }
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("name", &self.name)?;
        map.serialize_entry("arguments", &Args(&self.arguments))?;
        map.end()
    }
}

/// A typed builder of arguments, wrapping the request it fills. Generated
/// for every `#[prompt]` and `#[derive(PromptArgs)]` with the `builders`
/// feature; without it, a struct's builder is the untyped [`GetPrompt`].
pub trait ArgsBuilder: Sized {
    /// Continues filling `request`.
    fn from_request(request: GetPrompt) -> Self;

    /// The request filled so far.
    fn into_request(self) -> GetPrompt;
}

/// The untyped builder: any argument name, any text.
impl ArgsBuilder for GetPrompt {
    fn from_request(request: GetPrompt) -> Self {
        request
    }

    fn into_request(self) -> GetPrompt {
        self
    }
}
