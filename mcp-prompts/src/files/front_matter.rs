//! One prompt file: TOML front matter between `+++` lines, then the
//! template body.
//!
//! ```text
//! +++
//! title = "Daily standup"
//! scopes = ["team"]
//! [[arguments]]
//! name = "mood"
//! required = false
//! default = "ok"
//! choices = ["great", "ok", "tired"]
//! +++
//! Mood: {mood}.
//! ```

use serde::Deserialize;
use toml::Spanned;

use crate::dynamic::{DynamicArgument, DynamicPrompt, check_template};
use crate::presentation::Icon;
use crate::protocol::is_valid_name;

/// What is wrong with a file, and on which line (counted from 1).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Broken {
    pub(crate) line: Option<usize>,
    pub(crate) message: String,
}

impl Broken {
    fn at(line: usize, message: impl Into<String>) -> Self {
        Self {
            line: Some(line),
            message: message.into(),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FrontMatter {
    name: Option<Spanned<String>>,
    title: Option<String>,
    description: Option<String>,
    /// The scopes a remote caller must all hold to see the prompt.
    #[serde(default)]
    scopes: Vec<String>,
    /// An icon's `https://` URL (or `data:` URI).
    icon: Option<String>,
    /// `_meta` entries, as a table.
    #[serde(default)]
    meta: serde_json::Map<String, serde_json::Value>,
    #[serde(default)]
    tags: Vec<String>,
    /// Whether the prompt tools offer it.
    as_tool: Option<bool>,
    #[serde(default)]
    arguments: Vec<Spanned<ArgumentSpec>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArgumentSpec {
    name: String,
    title: Option<String>,
    description: Option<String>,
    required: Option<bool>,
    default: Option<String>,
    #[serde(default)]
    choices: Vec<String>,
}

/// Reads a prompt file's text. `stem` names the prompt unless the front
/// matter gives a `name`; `origin` says where it is, for messages.
pub(crate) fn parse_file(text: &str, stem: &str, origin: &str) -> Result<DynamicPrompt, Broken> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    if lines.next().map(str::trim) != Some("+++") {
        return Err(Broken::at(
            1,
            "a prompt file starts with a `+++` line, then TOML front matter, then another `+++` line",
        ));
    }
    // Byte offsets of the front matter and of the body, and the body's first line.
    let front_start = text.find('\n').map_or(text.len(), |i| i + 1);
    let mut offset = front_start;
    let mut closing = None;
    for (index, line) in lines.enumerate() {
        if line.trim() == "+++" {
            closing = Some((offset, offset + line.len(), index + 3));
            break;
        }
        offset += line.len();
    }
    let Some((front_end, body_start, body_line)) = closing else {
        return Err(Broken::at(1, "the front matter has no closing `+++` line"));
    };
    let front = &text[front_start..front_end];
    // The file's line of a byte offset into the front matter.
    let line_of = |offset: usize| 2 + front[..offset.min(front.len())].matches('\n').count();
    let matter: FrontMatter = toml::from_str(front).map_err(|err| {
        let line = err.span().map_or(2, |span| line_of(span.start));
        Broken::at(line, format!("front matter: {}", err.message()))
    })?;
    let body = &text[body_start..];
    let name = match matter.name {
        Some(name) => {
            let line = line_of(name.span().start);
            let name = name.into_inner();
            if !is_valid_name(&name) {
                return Err(Broken::at(line, invalid_name("prompt name", &name)));
            }
            name
        }
        None => stem.to_owned(),
    };
    let mut arguments: Vec<DynamicArgument> = Vec::with_capacity(matter.arguments.len());
    for spec in matter.arguments {
        let line = line_of(spec.span().start);
        let spec = spec.into_inner();
        let at = |message: String| Err(Broken::at(line, message));
        if !is_valid_name(&spec.name) {
            return at(invalid_name("argument name", &spec.name));
        }
        if arguments.iter().any(|a| a.name == spec.name) {
            return at(format!("argument `{}` is declared twice", spec.name));
        }
        if spec.required == Some(true) && spec.default.is_some() {
            return at(format!(
                "argument `{}` is `required = true` and has a default; an argument with a default is optional",
                spec.name
            ));
        }
        let mut arg = DynamicArgument::new(spec.name).choices(spec.choices);
        if spec.required == Some(false) {
            arg = arg.optional();
        }
        if let Some(default) = spec.default {
            arg = arg.default(default);
        }
        if let Some(title) = spec.title {
            arg = arg.title(title);
        }
        if let Some(description) = spec.description {
            arg = arg.description(description);
        }
        if let Some(problem) = arg.problem() {
            return at(problem);
        }
        arguments.push(arg);
    }
    // The template is checked here too, for the line its problem is on.
    check_template(body, &arguments)
        .map_err(|(line, message)| Broken::at(body_line + line - 1, message))?;
    let mut builder = DynamicPrompt::builder(name).origin(origin).template(body);
    if let Some(title) = matter.title {
        builder = builder.title(title);
    }
    if let Some(description) = matter.description {
        builder = builder.description(description);
    }
    for arg in arguments {
        builder = builder.argument(arg);
    }
    builder = builder.scopes(matter.scopes).tags(matter.tags);
    if let Some(icon) = matter.icon {
        builder = builder.icon(Icon::new(icon));
    }
    for (key, value) in matter.meta {
        builder = builder.meta(key, value);
    }
    if let Some(as_tool) = matter.as_tool {
        builder = builder.as_tool(as_tool);
    }
    builder.build().map_err(|err| Broken {
        line: None,
        message: err.problems().join("; "),
    })
}

fn invalid_name(what: &str, name: &str) -> String {
    format!("{what} `{name}` must be 1 to 128 characters of A-Z, a-z, 0-9, `_`, `-` and `.`")
}

#[cfg(test)]
mod tests {
    use super::*;

    const STANDUP: &str = "+++\ntitle = \"Daily standup\"\n\n[[arguments]]\nname = \"yesterday\"\n\n[[arguments]]\nname = \"mood\"\nrequired = false\ndefault = \"ok\"\nchoices = [\"great\", \"ok\", \"tired\"]\n+++\nYesterday I {yesterday}. Mood: {mood}.\n--- assistant\nThanks.\n";

    #[test]
    fn reads_the_front_matter_and_the_body() {
        let prompt = parse_file(STANDUP, "standup", "standup.md").unwrap();
        assert_eq!(prompt.name(), "standup");
        assert_eq!(prompt.title(), Some("Daily standup"));
        let args = prompt.arguments();
        assert!(args[0].is_required());
        assert!(!args[1].is_required());
        let named = STANDUP.replacen("+++\n", "+++\nname = \"daily\"\n", 1);
        assert_eq!(parse_file(&named, "standup", "x").unwrap().name(), "daily");
    }

    #[test]
    fn problems_name_their_line() {
        let missing = parse_file("no front matter", "x", "x").unwrap_err();
        assert_eq!(missing.line, Some(1));
        let unclosed = parse_file("+++\ntitle = \"x\"\nbody", "x", "x").unwrap_err();
        assert!(unclosed.message.contains("closing"), "{}", unclosed.message);
        let bad_toml =
            parse_file("+++\ntitle = \"x\"\ntitle = oops\n+++\nbody", "x", "x").unwrap_err();
        assert_eq!(bad_toml.line, Some(3), "{}", bad_toml.message);
        let unknown = STANDUP.replace("Mood: {mood}", "Mood: {mod}");
        let unknown = parse_file(&unknown, "standup", "x").unwrap_err();
        assert_eq!(unknown.line, Some(13));
        assert!(unknown.message.contains("`{mod}`"), "{}", unknown.message);
        let typo = parse_file("+++\ntitel = \"x\"\n+++\nbody", "x", "x").unwrap_err();
        assert!(typo.message.contains("titel"), "{}", typo.message);
        let bad_default = STANDUP.replace("default = \"ok\"", "default = \"meh\"");
        let bad_default = parse_file(&bad_default, "standup", "x").unwrap_err();
        assert!(
            bad_default.message.contains("`meh`"),
            "{}",
            bad_default.message
        );
        // The second `[[arguments]]` table starts on line 7.
        assert_eq!(bad_default.line, Some(7), "{}", bad_default.message);
        let twice = STANDUP.replace("name = \"mood\"", "name = \"yesterday\"");
        let twice = parse_file(&twice, "standup", "x").unwrap_err();
        assert_eq!(twice.line, Some(7), "{}", twice.message);
        let bad_name = "+++\ntitle = \"x\"\nname = \"a b\"\n+++\nbody";
        let bad_name = parse_file(bad_name, "x", "x").unwrap_err();
        assert_eq!(bad_name.line, Some(3), "{}", bad_name.message);
    }

    #[test]
    fn scopes_restrict_a_prompt() {
        let text = "+++\nscopes = [\"deploy\", \"ops\"]\n+++\nShip it.\n";
        let prompt = parse_file(text, "ship", "ship.md").unwrap();
        assert_eq!(prompt.scopes(), ["deploy", "ops"]);
        let bad = parse_file("+++\nscopes = [\"a b\"]\n+++\nx\n", "x", "x.md").unwrap_err();
        assert!(bad.message.contains("scope `a b`"), "{}", bad.message);
    }

    #[test]
    fn icons_meta_and_tags_are_declared() {
        let text = "+++\nicon = \"https://example.com/ship.png\"\ntags = [\"ops\"]\nas_tool = false\n[meta]\n\"com.example/owner\" = \"team-x\"\n\"com.example/rank\" = 2\n+++\nShip it.\n";
        let prompt = parse_file(text, "ship", "ship.md").unwrap();
        assert_eq!(prompt.icons()[0].src(), "https://example.com/ship.png");
        assert_eq!(prompt.tags(), ["ops"]);
        assert!(!prompt.as_tool());
        assert_eq!(prompt.meta()["com.example/rank"], 2);
        let bad_key = text.replace("com.example/owner", "io.mcp.x/owner");
        let bad_key = parse_file(&bad_key, "ship", "ship.md").unwrap_err();
        assert!(bad_key.message.contains("reserved"), "{}", bad_key.message);
        let bad_icon = text.replace("https://", "file://");
        assert!(parse_file(&bad_icon, "ship", "ship.md").is_err());
    }
}
