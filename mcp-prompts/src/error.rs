//! The error types: the one every fallible part of a prompt returns, and
//! the one that says why a set of prompts cannot be served.

use std::borrow::Cow;
use std::fmt;

use serde::Serialize;
use serde_json::Value;

/// A JSON-RPC error: what a client receives when a request fails.
///
/// Prompt functions may return `Result<T, E>` for any `E` that converts into
/// `Error`. Every [`std::error::Error`] does, as an internal error (-32603)
/// whose message stays on the server: the client reads `Internal error` and
/// an `errorId`, and the message is logged through `tracing` under that id
/// (so is a panic's). Build an `Error` directly to choose the code and the
/// message the client reads:
///
/// ```
/// use mcp_prompts::Error;
///
/// let err = Error::invalid_params("`depth` must be at most 3");
/// assert_eq!(err.code(), Error::INVALID_PARAMS);
/// ```
#[derive(Clone, PartialEq, Serialize)]
pub struct Error {
    code: i32,
    message: Cow<'static, str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<Value>,
    /// What went wrong, for the server's log only: set for errors the
    /// author did not build on purpose (a foreign error, a panic), which
    /// the client sees as a generic -32603 with an error id.
    #[serde(skip)]
    hidden: Option<Box<str>>,
}

impl Error {
    /// The message was not valid JSON.
    pub const PARSE_ERROR: i32 = -32700;
    /// The message was JSON but not a valid JSON-RPC request.
    pub const INVALID_REQUEST: i32 = -32600;
    /// The method does not exist or is not available.
    pub const METHOD_NOT_FOUND: i32 = -32601;
    /// The parameters were wrong: unknown prompt, missing or unparseable argument.
    pub const INVALID_PARAMS: i32 = -32602;
    /// The server failed while handling a valid request.
    pub const INTERNAL_ERROR: i32 = -32603;

    /// An error with any code and message.
    pub fn new(code: i32, message: impl Into<Cow<'static, str>>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
            hidden: None,
        }
    }

    /// An internal error whose `detail` (which may name hosts, paths or
    /// credentials) is logged, never sent: the client gets -32603
    /// `Internal error` and an error id that finds the detail in the log.
    pub(crate) fn hidden(detail: impl Into<Box<str>>) -> Self {
        Self {
            hidden: Some(detail.into()),
            ..Self::internal("Internal error")
        }
    }

    /// Whether the message is for the server's log only.
    pub(crate) fn is_hidden(&self) -> bool {
        self.hidden.is_some()
    }

    /// The error as the client may see it: one with a hidden detail gets
    /// an error id in `data`, and the detail goes to `tracing` (at error
    /// level) under the same id, with what failed and for which request.
    pub(crate) fn redacted(mut self, what: &str, request: &str) -> Self {
        let Some(detail) = self.hidden.take() else {
            return self;
        };
        let error_id = error_id();
        // The request's id is the client's text, up to a whole message.
        let request = excerpt(request);
        tracing::error!(
            error_id,
            request = request.as_str(),
            what,
            detail = &*detail,
            "request failed"
        );
        self.data = Some(serde_json::json!({ "errorId": error_id }));
        self
    }

    /// An invalid-params error (-32602).
    pub fn invalid_params(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(Self::INVALID_PARAMS, message)
    }

    /// An internal error (-32603).
    pub fn internal(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(Self::INTERNAL_ERROR, message)
    }

    /// Attaches structured `data` for the client.
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }

    /// The same error, naming in `data.limit` the bound the request went
    /// past.
    pub(crate) fn with_limit(self, limit: usize) -> Self {
        self.with_detail("limit", limit)
    }

    /// The same error, with `data` holding `value` under `key` (the name
    /// or URI the request gave, cut short, for clients to match).
    pub(crate) fn with_detail(self, key: &str, value: impl Into<Value>) -> Self {
        let mut data = serde_json::Map::new();
        data.insert(key.to_owned(), value.into());
        self.with_data(Value::Object(data))
    }

    /// The JSON-RPC error code.
    pub fn code(&self) -> i32 {
        self.code
    }

    /// The human-readable message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The structured data, if any.
    pub fn data(&self) -> Option<&Value> {
        self.data.as_ref()
    }

    pub(crate) fn invalid_request(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(Self::INVALID_REQUEST, message)
    }

    pub(crate) fn method_not_found(method: &str) -> Self {
        Self::new(
            Self::METHOD_NOT_FOUND,
            format!("method not found: {}", excerpt(method)),
        )
    }

    /// -32602 for a prompt's result larger than `cap` bytes: the arguments
    /// asked for more than the server answers, and less may do.
    pub(crate) fn result_too_large(cap: usize) -> Self {
        Self::invalid_params(format!(
            "the prompt's result is larger than the server's limit of {cap} bytes; ask for less (shorter or fewer argument values)"
        ))
        .with_limit(cap)
    }

    /// -32602 for params that did not deserialize. serde's message can
    /// quote the offending value whole, so only its start is kept.
    pub(crate) fn bad_params(err: &serde_json::Error) -> Self {
        Self::invalid_params(format!("invalid params: {}", brief(&err.to_string())))
    }
}

/// How many characters of client input an error message repeats.
const ECHO_CHARS: usize = 64;

/// How many characters of a parser's message (which may quote input) an
/// error keeps.
const BRIEF_CHARS: usize = 160;

/// Client input as an error message may repeat it: at most a short prefix,
/// control characters escaped, so that an error never amplifies a request
/// and never breaks a log line.
pub(crate) fn excerpt(input: &str) -> String {
    truncate(input, ECHO_CHARS)
}

/// [`excerpt`], borrowing `input` when it is already short and needs no
/// escape: for what a request names on every request (its id, its
/// session), where what clients send is short.
pub(crate) fn excerpt_cow(input: &str) -> std::borrow::Cow<'_, str> {
    // Printable ASCII, what ids are, never needs an escape: checked a
    // byte at a time before the character test, without stopping early, so
    // that the check runs on many bytes at once (a 64-byte session id, on
    // every request watched, took some 400 instructions a byte at a time).
    let printable = |text: &str| {
        text.bytes()
            .fold(true, |printable, b| printable & matches!(b, b' '..=b'~'))
    };
    if input.len() <= ECHO_CHARS && (printable(input) || !input.chars().any(must_escape)) {
        std::borrow::Cow::Borrowed(input)
    } else {
        std::borrow::Cow::Owned(excerpt(input))
    }
}

/// A message from a parser or a type's `FromStr`, which may quote the
/// input it failed on: kept to its start, like [`excerpt`].
pub(crate) fn brief(message: &str) -> String {
    truncate(message, BRIEF_CHARS)
}

/// Text written to the log as it is given, with every character that
/// could forge or hide a line escaped: control characters (newlines,
/// ANSI escapes), line and paragraph separators, and the invisible format
/// characters (bidirectional controls). For paths, names and whatever else
/// a file or a client chose.
pub(crate) struct Escaped<'a>(&'a str);

impl<'a> Escaped<'a> {
    /// `text`, to be written escaped.
    pub(crate) fn new(text: &'a str) -> Self {
        Self(text)
    }
}

impl std::fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use std::fmt::Write as _;
        for c in self.0.chars() {
            if must_escape(c) {
                for e in c.escape_default() {
                    f.write_char(e)?;
                }
            } else {
                f.write_char(c)?;
            }
        }
        Ok(())
    }
}

impl std::fmt::Debug for Escaped<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "\"{self}\"")
    }
}

/// Whether `c` is escaped where client or file text is echoed: in the
/// log, and in what the command line prints.
pub(crate) fn must_escape(c: char) -> bool {
    c.is_control() || is_format(c) || matches!(c, '\u{2028}' | '\u{2029}')
}

fn truncate(input: &str, max_chars: usize) -> String {
    let mut out = String::with_capacity(input.len().min(max_chars + 16));
    for (count, c) in input.chars().enumerate() {
        if count == max_chars {
            use std::fmt::Write as _;
            let _ = write!(out, "…({} bytes)", input.len());
            break;
        }
        if must_escape(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Unicode's invisible format characters (category Cf) that change how
/// text around them shows: the bidirectional controls (which can make an
/// echoed value read differently from what was sent), zero-width ones,
/// the soft hyphen and the language tags.
fn is_format(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{0600}'..='\u{0605}'
            | '\u{061C}'
            | '\u{06DD}'
            | '\u{070F}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{110BD}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0001}'
            | '\u{E0020}'..='\u{E007F}'
    )
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("Error");
        s.field("code", &self.code).field("message", &self.message);
        if let Some(data) = &self.data {
            s.field("data", data);
        }
        // The hidden detail is for the log, not for every `{:?}`.
        s.finish_non_exhaustive()
    }
}

/// Any standard error becomes an internal error whose message is not
/// sent: the client gets -32603 `Internal error` with an error id in `data`,
/// and the message is logged through `tracing` under that id. Build an
/// `Error` yourself (`Error::invalid_params`, `Error::new`) for a message
/// the client should read.
///
/// `Error` itself deliberately does not implement [`std::error::Error`], so
/// that this blanket conversion can exist (the same choice `anyhow` makes).
impl<E: std::error::Error + Send + Sync + 'static> From<E> for Error {
    fn from(err: E) -> Self {
        Self::hidden(err.to_string())
    }
}

/// A short random id that ties a client's error to the server's log.
fn error_id() -> String {
    let mut bytes = [0; 8];
    // Without randomness the time is still unique enough to search a log for.
    if getrandom::fill(&mut bytes).is_err() {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        bytes[..4].copy_from_slice(&nanos.to_le_bytes());
    }
    let mut id = String::with_capacity(16);
    for byte in bytes {
        use std::fmt::Write as _;
        let _ = write!(id, "{byte:02x}");
    }
    id
}

/// Why something cannot be built: a server (its prompts, skills, icons or
/// settings), a run-time prompt or skill, or a change to a live catalog.
/// Each problem found is one sentence ([`problems`](Self::problems)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildError {
    problems: Vec<String>,
}

impl BuildError {
    /// An error made of `problems`, one sentence each.
    pub(crate) fn new(problems: Vec<String>) -> Self {
        Self { problems }
    }

    /// Each problem found, one sentence each.
    pub fn problems(&self) -> &[String] {
        &self.problems
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the server cannot be built: {}",
            self.problems.join("; ")
        )
    }
}

impl std::error::Error for BuildError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_excerpt_borrows_only_what_it_would_copy_unchanged() {
        use std::borrow::Cow;
        assert!(matches!(excerpt_cow("7"), Cow::Borrowed("7")));
        for sent in ["x".repeat(65), "a\nb".to_owned(), "\u{202e}".to_owned()] {
            let cut = excerpt_cow(&sent);
            assert!(matches!(cut, Cow::Owned(_)), "{sent:?}");
            assert_eq!(cut, excerpt(&sent));
        }
    }

    #[test]
    fn logged_text_cannot_forge_or_hide_a_line() {
        let name = "a\nline FAKE ERROR\u{202e}txt.md\u{1b}[31m\u{2028}";
        let logged = Escaped(name).to_string();
        assert_eq!(
            logged,
            "a\\nline FAKE ERROR\\u{202e}txt.md\\u{1b}[31m\\u{2028}"
        );
        assert!(!logged.chars().any(must_escape));
        assert_eq!(Escaped("plain/ü.md").to_string(), "plain/ü.md");
    }

    #[test]
    fn excerpts_are_short_and_escaped() {
        assert_eq!(excerpt("prompts/get"), "prompts/get");
        assert_eq!(excerpt("a\nb\u{1b}"), "a\\nb\\u{1b}");
        // A right-to-left override would make the echo read otherwise.
        assert_eq!(excerpt("x\u{202E}gpj.exe"), "x\\u{202e}gpj.exe");
        assert_eq!(excerpt("a\u{200B}b\u{2067}"), "a\\u{200b}b\\u{2067}");
        assert_eq!(excerpt("Straße ǅ"), "Straße ǅ");
        let long = "é".repeat(100_000);
        let short = excerpt(&long);
        assert!(short.starts_with(&"é".repeat(ECHO_CHARS)), "{short}");
        assert!(short.ends_with("…(200000 bytes)"), "{short}");
        assert!(short.len() < 200);
    }
}
