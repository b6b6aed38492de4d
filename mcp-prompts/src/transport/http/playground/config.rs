//! How the playground is served: [`Playground`], which the endpoint's
//! options hold. A leaf, so that the options need nothing of the page.

/// Turns the playground on: [`HttpOptions::playground`](crate::HttpOptions::playground).
///
/// ```
/// use mcp_prompts::{HttpOptions, Playground};
///
/// let options = HttpOptions::new()
///     .playground(Playground::new().render_command("my-prompts render"));
/// ```
#[derive(Clone, Debug)]
pub struct Playground {
    pub(super) beyond_loopback: bool,
    pub(super) command: Option<String>,
}

impl Default for Playground {
    fn default() -> Self {
        Self::new()
    }
}

impl Playground {
    /// The page, for requests over loopback only, with no "copy as
    /// command" (a binary of your own renders only if it has a command for
    /// it: name it with [`render_command`](Self::render_command)).
    pub fn new() -> Self {
        Self {
            beyond_loopback: false,
            command: None,
        }
    }

    /// Serves the page to requests from other machines too. The page
    /// itself holds nothing; what it shows comes from the endpoint, behind
    /// its [`auth`](crate::HttpOptions::auth) when tokens are checked. A
    /// browser on another machine sends its page's origin, which must be
    /// listed with [`allow_origins`](crate::HttpOptions::allow_origins).
    pub fn beyond_loopback(mut self) -> Self {
        self.beyond_loopback = true;
        self
    }

    /// Offers "copy as command", whose line starts with `command` before
    /// the prompt's name and arguments: the binary that serves the page,
    /// say `my-prompts render --dir prompts` (the `mcp-prompts` CLI and
    /// [`cli::run`](crate::cli::run) name themselves). Without it the page
    /// offers no command: none is known to render these prompts.
    pub fn render_command(mut self, command: impl Into<String>) -> Self {
        self.command = Some(command.into());
        self
    }
}
