use serde::de::DeserializeOwned;

use super::PromptArg;

/// A prompt argument whose string value is JSON, parsed into `T`.
///
/// ```
/// use mcp_prompts::{Json, PromptArg};
///
/// let Json(list) = Json::<Vec<u32>>::parse_arg("[1, 2, 3]").unwrap();
/// assert_eq!(list, [1, 2, 3]);
/// assert!(Json::<Vec<u32>>::parse_arg("[1,").is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Json<T>(pub T);

impl<T: DeserializeOwned> PromptArg for Json<T> {
    const EXPECTED: &'static str = "a JSON value";
    const FORMAT: Option<&'static str> = Some("JSON");

    fn parse_arg(value: &str) -> Result<Self, String> {
        serde_json::from_str(value)
            .map(Json)
            .map_err(|err| err.to_string())
    }
}

/// The value as compact JSON, the text a client would send.
impl<T: serde::Serialize> std::fmt::Display for Json<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = serde_json::to_string(&self.0).map_err(|_| std::fmt::Error)?;
        f.write_str(&text)
    }
}
