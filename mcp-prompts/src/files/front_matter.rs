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

use super::kind::{fenced, without_bom};
use crate::dynamic::{DynamicArgument, DynamicPrompt, check_template};
use crate::presentation::Icon;
use crate::protocol::is_valid_name;
use mcp_prompts_template::rules;

/// Every declared argument must appear in the template, as the macro
/// requires, unless `unused` lists it: `{{topic}}` written for `{topic}` is
/// the literal text `{topic}`, and the argument would go nowhere.
fn check_used(
    body: &str,
    arguments: &[DynamicArgument],
    declared_on: &[usize],
    (unused, unused_line): (&[String], Option<usize>),
) -> Result<(), Broken> {
    // The template parsed when it was checked.
    let messages = mcp_prompts_template::parse(body).unwrap_or_default();
    let used = mcp_prompts_template::placeholders(&messages);
    let declared = arguments
        .iter()
        .map(DynamicArgument::get_name)
        .zip(declared_on.iter().copied());
    check_all_used(
        declared,
        |name| used.contains(&name),
        (unused, unused_line),
        |name| {
            format!(
                "write `{{{name}}}` where its value goes (`{{{{{name}}}}}` is the literal text `{{{name}}}`), or list it in `unused = [..]`"
            )
        },
    )
}

/// Every `declared` argument (name and line) must be `read` by the
/// template unless `unused` lists it, and `unused` must list declared ones
/// only; `fix` says what to write instead of leaving one unused.
pub(crate) fn check_all_used<'a>(
    declared: impl Iterator<Item = (&'a str, usize)> + Clone,
    read: impl Fn(&str) -> bool,
    (unused, unused_line): (&[String], Option<usize>),
    fix: impl Fn(&str) -> String,
) -> Result<(), Broken> {
    if let Some(stray) = unused
        .iter()
        .find(|n| !declared.clone().any(|(name, _)| name == n.as_str()))
    {
        return Err(Broken {
            line: unused_line,
            message: format!("`unused` names `{stray}`, which is not a declared argument"),
        });
    }
    for (name, line) in declared {
        if !read(name) && !unused.iter().any(|n| n == name) {
            return Err(Broken::at(
                line,
                format!(
                    "argument `{name}` is never used by the template: {}",
                    fix(name)
                ),
            ));
        }
    }
    Ok(())
}

/// The icon a prompt file names: a URI as it is, a file embedded as a
/// `data:` URI from what was read beside the prompt file.
pub(crate) fn read_icon(named: String, read: Option<&IconFile>) -> Result<Icon, String> {
    if is_uri(&named) {
        return Ok(Icon::new(named));
    }
    let mime = rules::icon_mime_type(&named).ok_or_else(|| {
        format!("icon file `{named}` must be an .svg, .png, .jpg, .jpeg or .webp image")
    })?;
    match read.filter(|file| file.path == named) {
        Some(IconFile {
            bytes: Ok(bytes), ..
        }) => Ok(Icon::embedded(mime, bytes)),
        Some(IconFile {
            bytes: Err(why), ..
        }) => Err(format!("cannot read icon file `{named}`: {why}")),
        None => Err(format!(
            "icon `{named}` is a file, which only a prompt directory (`PromptDir`) reads; give an `https://` URL"
        )),
    }
}

/// What is wrong with a file (or worth a warning), and on which line
/// (counted from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Broken {
    pub(super) line: Option<usize>,
    pub(super) message: String,
}

impl Broken {
    pub(crate) fn at(line: usize, message: impl Into<String>) -> Self {
        Self {
            line: Some(line),
            message: message.into(),
        }
    }
}

/// A TOML front matter, as read.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FrontMatter {
    name: Option<Spanned<String>>,
    title: Option<String>,
    description: Option<String>,
    /// The scopes a remote caller must all hold to see the prompt.
    #[serde(default)]
    scopes: Vec<String>,
    /// An icon: an `https://` URL (or `data:` URI), or an image file's
    /// path relative to the prompt file, embedded.
    icon: Option<Spanned<String>>,
    /// `_meta` entries, as a table.
    #[serde(default)]
    meta: serde_json::Map<String, serde_json::Value>,
    #[serde(default)]
    tags: Vec<String>,
    /// Whether the prompt tools offer it.
    as_tool: Option<bool>,
    /// Arguments the template leaves out on purpose.
    unused: Option<Spanned<Vec<String>>>,
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
    /// A value to show the argument with (test renderings).
    example: Option<String>,
    #[serde(default)]
    choices: Vec<String>,
}

/// A file's parts: the front matter, where it starts (bytes), where the
/// body starts (bytes) and the body's first line; or why it has none.
fn split(text: &str) -> Result<(&str, usize, usize), Broken> {
    match fenced(text, "+++") {
        Some(Ok(parts)) => Ok(parts),
        Some(Err(())) => Err(Broken::at(1, "the front matter has no closing `+++` line")),
        None => Err(Broken::at(
            1,
            "a prompt file starts with a `+++` line, then TOML front matter, then another `+++` line",
        )),
    }
}

/// Reads the TOML front matter of `text` (a file starting with `+++`).
pub(crate) fn read_matter(text: &str) -> Result<FrontMatter, Broken> {
    let text = without_bom(text);
    let (front, _, _) = split(text)?;
    toml::from_str(front).map_err(|err| {
        let line = err.span().map_or(2, |span| line_of(front, span.start));
        Broken::at(line, format!("front matter: {}", err.message()))
    })
}

/// The file's line of a byte offset into its front matter (which starts
/// on line 2).
fn line_of(front: &str, offset: usize) -> usize {
    2 + front[..offset.min(front.len())].matches('\n').count()
}

impl FrontMatter {
    /// The icon it names, if any.
    pub(crate) fn icon(&self) -> Option<&str> {
        self.icon.as_ref().map(|icon| icon.get_ref().as_str())
    }
}

/// Whether an icon is a URI (`https:`, `data:`, or a scheme refused
/// later) rather than a file's path.
pub(crate) fn is_uri(icon: &str) -> bool {
    icon.split_once(':').is_some_and(|(scheme, _)| {
        scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    })
}

/// An icon file named by a prompt file, as read beside it: its path
/// relative to the directory, and its bytes or why there are none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct IconFile {
    pub(super) path: String,
    pub(super) bytes: Result<Vec<u8>, String>,
}

/// Reads a prompt file's text, whose front matter was read as `matter`
/// ([`read_matter`]). `stem` names the prompt unless the front matter
/// gives a `name`; `origin` says where it is, for messages; `icon` is the
/// icon file it names, read beside it.
pub(crate) fn parse_file(
    text: &str,
    matter: Result<FrontMatter, Broken>,
    stem: &str,
    origin: &str,
    icon: Option<&IconFile>,
) -> Result<DynamicPrompt, Broken> {
    let text = without_bom(text);
    let (front, body_start, body_line) = split(text)?;
    let line_of = |offset: usize| line_of(front, offset);
    let matter = matter?;
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
    // Where each argument is declared, for the one the template leaves out.
    let mut declared_on = Vec::with_capacity(matter.arguments.len());
    for spec in matter.arguments {
        let line = line_of(spec.span().start);
        declared_on.push(line);
        let spec = spec.into_inner();
        let at = |message: String| Err(Broken::at(line, message));
        if !is_valid_name(&spec.name) {
            return at(invalid_name("argument name", &spec.name));
        }
        if arguments.iter().any(|a| a.get_name() == spec.name) {
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
        if let Some(example) = spec.example {
            arg = arg.example(example);
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
    let unused_line = matter.unused.as_ref().map(|u| line_of(u.span().start));
    let unused = matter.unused.map(Spanned::into_inner).unwrap_or_default();
    check_used(body, &arguments, &declared_on, (&unused, unused_line))?;
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
    if let Some(named) = matter.icon {
        let line = line_of(named.span().start);
        builder =
            builder.icon(read_icon(named.into_inner(), icon).map_err(|m| Broken::at(line, m))?);
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

pub(crate) fn invalid_name(what: &str, name: &str) -> String {
    format!("{what} `{name}` must be 1 to 128 characters of A-Z, a-z, 0-9, `_`, `-` and `.`")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str, stem: &str, origin: &str) -> Result<DynamicPrompt, Broken> {
        parse_file(text, read_matter(text), stem, origin, None)
    }

    const STANDUP: &str = "+++\ntitle = \"Daily standup\"\n\n[[arguments]]\nname = \"yesterday\"\n\n[[arguments]]\nname = \"mood\"\nrequired = false\ndefault = \"ok\"\nchoices = [\"great\", \"ok\", \"tired\"]\n+++\nYesterday I {yesterday}. Mood: {mood}.\n--- assistant\nThanks.\n";

    #[test]
    fn reads_the_front_matter_and_the_body() {
        let prompt = parse(STANDUP, "standup", "standup.md").unwrap();
        assert_eq!(prompt.name(), "standup");
        assert_eq!(prompt.title(), Some("Daily standup"));
        let args = prompt.arguments();
        assert!(args[0].is_required());
        assert!(!args[1].is_required());
        let named = STANDUP.replacen("+++\n", "+++\nname = \"daily\"\n", 1);
        assert_eq!(parse(&named, "standup", "x").unwrap().name(), "daily");
    }

    #[test]
    fn problems_name_their_line() {
        let missing = parse("no front matter", "x", "x").unwrap_err();
        assert_eq!(missing.line, Some(1));
        let unclosed = parse("+++\ntitle = \"x\"\nbody", "x", "x").unwrap_err();
        assert!(unclosed.message.contains("closing"), "{}", unclosed.message);
        let bad_toml = parse("+++\ntitle = \"x\"\ntitle = oops\n+++\nbody", "x", "x").unwrap_err();
        assert_eq!(bad_toml.line, Some(3), "{}", bad_toml.message);
        let unknown = STANDUP.replace("Mood: {mood}", "Mood: {mod}");
        let unknown = parse(&unknown, "standup", "x").unwrap_err();
        assert_eq!(unknown.line, Some(13));
        assert!(unknown.message.contains("`{mod}`"), "{}", unknown.message);
        let typo = parse("+++\ntitel = \"x\"\n+++\nbody", "x", "x").unwrap_err();
        assert!(typo.message.contains("titel"), "{}", typo.message);
        let bad_default = STANDUP.replace("default = \"ok\"", "default = \"meh\"");
        let bad_default = parse(&bad_default, "standup", "x").unwrap_err();
        assert!(
            bad_default.message.contains("`meh`"),
            "{}",
            bad_default.message
        );
        // The second `[[arguments]]` table starts on line 7.
        assert_eq!(bad_default.line, Some(7), "{}", bad_default.message);
        let twice = STANDUP.replace("name = \"mood\"", "name = \"yesterday\"");
        let twice = parse(&twice, "standup", "x").unwrap_err();
        assert_eq!(twice.line, Some(7), "{}", twice.message);
        let bad_name = "+++\ntitle = \"x\"\nname = \"a b\"\n+++\nbody";
        let bad_name = parse(bad_name, "x", "x").unwrap_err();
        assert_eq!(bad_name.line, Some(3), "{}", bad_name.message);
    }

    #[test]
    fn scopes_restrict_a_prompt() {
        let text = "+++\nscopes = [\"deploy\", \"ops\"]\n+++\nShip it.\n";
        let prompt = parse(text, "ship", "ship.md").unwrap();
        assert_eq!(prompt.scopes(), ["deploy", "ops"]);
        let bad = parse("+++\nscopes = [\"a b\"]\n+++\nx\n", "x", "x.md").unwrap_err();
        assert!(bad.message.contains("scope `a b`"), "{}", bad.message);
    }

    #[test]
    fn icons_meta_and_tags_are_declared() {
        let text = "+++\nicon = \"https://example.com/ship.png\"\ntags = [\"ops\"]\nas_tool = false\n[meta]\n\"com.example/owner\" = \"team-x\"\n\"com.example/rank\" = 2\n+++\nShip it.\n";
        let prompt = parse(text, "ship", "ship.md").unwrap();
        assert_eq!(prompt.icons()[0].src(), "https://example.com/ship.png");
        assert_eq!(prompt.tags(), ["ops"]);
        assert!(!prompt.as_tool());
        assert_eq!(prompt.meta()["com.example/rank"], 2);
        let bad_key = text.replace("com.example/owner", "io.mcp.x/owner");
        let bad_key = parse(&bad_key, "ship", "ship.md").unwrap_err();
        assert!(bad_key.message.contains("reserved"), "{}", bad_key.message);
        let bad_icon = text.replace("https://", "file://");
        assert!(parse(&bad_icon, "ship", "ship.md").is_err());
    }

    #[test]
    fn an_icon_file_is_embedded_from_what_was_read_beside_it() {
        let text = "+++\ntitle = \"Ship\"\nicon = \"assets/ship.svg\"\n+++\nShip it.\n";
        assert_eq!(read_matter(text).unwrap().icon(), Some("assets/ship.svg"));
        let read = IconFile {
            path: "assets/ship.svg".into(),
            bytes: Ok(b"<svg/>".to_vec()),
        };
        let prompt = parse_file(text, read_matter(text), "ship", "ship.md", Some(&read)).unwrap();
        assert_eq!(
            prompt.icons()[0],
            Icon::embedded("image/svg+xml", b"<svg/>")
        );
        let unreadable = IconFile {
            bytes: Err("not found".into()),
            ..read
        };
        let broken = parse_file(
            text,
            read_matter(text),
            "ship",
            "ship.md",
            Some(&unreadable),
        )
        .unwrap_err();
        assert_eq!(broken.line, Some(3), "{}", broken.message);
        assert!(
            broken.message.contains("cannot read icon file"),
            "{}",
            broken.message
        );
        // Without its directory, a file cannot be read.
        let alone = parse(text, "ship", "ship.md").unwrap_err();
        assert!(
            alone.message.contains("only a prompt directory"),
            "{}",
            alone.message
        );
        let gif = parse("+++\nicon = \"a.gif\"\n+++\nx", "x", "x.md").unwrap_err();
        assert!(gif.message.contains(".svg, .png"), "{}", gif.message);
    }

    #[test]
    fn an_argument_the_template_never_uses_is_a_problem() {
        let text = "+++\n[[arguments]]\nname = \"topic\"\n+++\nNotes on {{topic}}.\n";
        let broken = parse(text, "notes", "notes.md").unwrap_err();
        assert_eq!(broken.line, Some(2), "{}", broken.message);
        let literal = "`{{topic}}` is the literal text `{topic}`";
        assert!(broken.message.contains(literal), "{}", broken.message);
        let opted_out = text.replacen("+++\n", "+++\nunused = [\"topic\"]\n", 1);
        assert!(parse(&opted_out, "notes", "notes.md").is_ok());
        let stray = text
            .replacen("+++\n", "+++\nunused = [\"nope\"]\n", 1)
            .replace("{{topic}}", "{topic}");
        let stray = parse(&stray, "notes", "notes.md").unwrap_err();
        assert_eq!(stray.line, Some(2), "{}", stray.message);
    }
}
