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

    fn parse_arg(value: &str) -> Result<Self, String> {
        serde_json::from_str(value)
            .map(Json)
            .map_err(|err| err.to_string())
    }
}
