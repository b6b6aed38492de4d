use crate::descriptor::{ArgDef, Input};
use crate::error::Error;
use crate::request::ArgsBuilder;

/// A set of prompt arguments declared once as a struct, taken by a prompt
/// with `#[arg(flatten)]`. Derive it; do not implement it by hand.
///
/// ```
/// use mcp_prompts::{PromptArgs, prompt};
///
/// #[derive(PromptArgs)]
/// struct Target {
///     /// Repository, as owner/name
///     repo: String,
///     /// Branch to look at
///     #[arg(default = "main")]
///     branch: String,
/// }
///
/// /// Summarize recent changes
/// #[prompt]
/// fn changes(#[arg(flatten)] target: Target, days: Option<u32>) -> String {
///     format!("Summarize {} days of {}@{}", days.unwrap_or(7), target.repo, target.branch)
/// }
///
/// let names: Vec<_> = changes::PROMPT.arguments().map(|a| a.name()).collect();
/// assert_eq!(names, ["repo", "branch", "days"]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be flattened into a prompt's arguments",
    label = "not a `#[derive(PromptArgs)]` struct",
    note = "add `#[derive(mcp_prompts::PromptArgs)]` to `{Self}`, or drop `#[arg(flatten)]` to take it as one argument"
)]
pub trait PromptArgs: Sized {
    /// The arguments, one per field, in declaration order.
    const ARGS: &'static [ArgDef];

    /// The typed builder of these arguments, used by the builders of the
    /// prompts that flatten this struct (feature `builders`; without it,
    /// [`GetPrompt`](crate::GetPrompt)).
    type Builder: ArgsBuilder;

    /// Binds every field from one request.
    fn bind_args(input: &Input<'_>) -> Result<Self, Error>;
}
