//! A `SKILL.md`'s front matter, served as JSON with every field it has,
//! and the rules of the Agent Skills format on its `name` and
//! `description`. What JSON cannot hold (a key that is not text, NaN or
//! an infinity, a YAML tag) and a key given twice are problems on their
//! line: a host compares the front matter field by field with the file,
//! so nothing may be dropped or changed on the way. The fields the Agent
//! Skills format defines must have its types, since hosts refuse an entry
//! that breaks them (one client refuses the whole listing).

use mcp_prompts_template::skill::{self, MAX_COMPATIBILITY_CHARS, MAX_DESCRIPTION_CHARS, to_json};
use serde_json::{Map, Value as Json};

use crate::error::Escaped;
use crate::files::front_matter::Broken;
use crate::files::yaml::{MAX_FRONT_MATTER_BYTES, line_of_key, read_all, split};

pub(crate) use mcp_prompts_template::skill::SCOPES_KEY;

/// A `SKILL.md`'s front matter, read.
pub(crate) struct Matter {
    pub(super) json: Map<String, Json>,
    pub(super) name: String,
    pub(super) description: String,
    /// The scopes a remote caller must all hold to see the skill.
    pub(super) scopes: Vec<String>,
}

/// How much of a `SKILL.md` is read before its front matter is checked:
/// the most a front matter holds, with room for its `---` lines and a
/// byte-order mark.
pub(crate) const START_BYTES: usize = MAX_FRONT_MATTER_BYTES + 4096;

/// [`read`] on the start of a `SKILL.md` (whole lines only; `whole`: the
/// whole file), so that a file is refused without reading the rest: a
/// front matter that does not close within it is larger than the bound.
pub(crate) fn read_start(start: &str, whole: bool, folder: &str) -> Result<Matter, Broken> {
    if !whole && (start.is_empty() || split(start).is_err()) {
        return Err(Broken {
            line: None,
            message: format!(
                "front matter: no closing `---` line in the first {} KiB; a front matter holds at most {} KiB",
                START_BYTES / 1024,
                MAX_FRONT_MATTER_BYTES / 1024
            ),
        });
    }
    read(start, folder)
}

/// Reads the front matter of the `SKILL.md` of the folder named
/// `folder`, or what is wrong with it, on its line.
pub(crate) fn read(text: &str, folder: &str) -> Result<Matter, Broken> {
    let Some(front) = split(text)?.0 else {
        return Err(Broken::at(
            1,
            "a SKILL.md starts with YAML front matter between `---` lines",
        ));
    };
    let mut json = Map::new();
    let (mut name, mut description) = (None, None);
    let mut scopes = Vec::new();
    for (key, value) in read_all(front)? {
        let line = line_of_key(front, &key);
        let value = to_json(value, &key).map_err(|message| Broken::at(line, message))?;
        match (key.as_str(), &value) {
            ("name", Json::String(text)) => name = Some((text.clone(), line)),
            ("description", Json::String(text)) => description = Some((text.clone(), line)),
            ("name" | "description" | "license" | "allowed-tools", value) if !value.is_string() => {
                return Err(Broken::at(
                    line,
                    format!("front matter: `{key}` must be text"),
                ));
            }
            ("compatibility", value) => {
                let chars = value.as_str().map(|text| text.chars().count());
                if !chars.is_some_and(|n| (1..=MAX_COMPATIBILITY_CHARS).contains(&n)) {
                    return Err(Broken::at(
                        line,
                        format!(
                            "front matter: `compatibility` must be text of 1 to {MAX_COMPATIBILITY_CHARS} characters"
                        ),
                    ));
                }
            }
            ("metadata", value) => {
                let texts = value
                    .as_object()
                    .is_some_and(|map| map.values().all(Json::is_string));
                if !texts {
                    return Err(Broken::at(
                        line,
                        "front matter: `metadata` must map keys to text values",
                    ));
                }
                if let Some(Json::String(listed)) = value.get(SCOPES_KEY) {
                    scopes = read_scopes(listed).map_err(|message| Broken::at(line, message))?;
                }
            }
            _ => {}
        }
        json.insert(key, value);
    }
    let Some((name, line)) = name else {
        return Err(Broken::at(1, "front matter: `name` is missing"));
    };
    check_name(&name, folder).map_err(|message| Broken::at(line, message))?;
    let Some((description, line)) = description else {
        return Err(Broken::at(1, "front matter: `description` is missing"));
    };
    let chars = description.chars().count();
    if description.trim().is_empty() || chars > MAX_DESCRIPTION_CHARS {
        return Err(Broken::at(
            line,
            format!(
                "front matter: `description` has {chars} characters; it needs 1 to {MAX_DESCRIPTION_CHARS}"
            ),
        ));
    }
    Ok(Matter {
        json,
        name,
        description,
        scopes,
    })
}

/// The scopes of `metadata`'s [`SCOPES_KEY`]: separated by spaces (U+0020
/// only, as OAuth's `scope`), each a scope token.
fn read_scopes(listed: &str) -> Result<Vec<String>, String> {
    let scopes: Vec<String> = listed
        .split(' ')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    match scopes.iter().find(|s| !crate::caller::is_valid_scope(s)) {
        Some(bad) => Err(format!(
            "front matter: `metadata.{SCOPES_KEY}`: `{}` is not a scope (printable ASCII, no `\"` or `\\`)",
            crate::error::excerpt(bad)
        )),
        None if scopes.is_empty() => Err(format!(
            "front matter: `metadata.{SCOPES_KEY}` names no scope"
        )),
        None => Ok(scopes),
    }
}

/// The Agent Skills rules on a name (letters, digits, single hyphens, its
/// folder's exactly), and no look-alike of another (see
/// [`skill::check_name`]), worded with the name.
fn check_name(name: &str, folder: &str) -> Result<(), String> {
    skill::check_name(name, folder).map_err(|problem| {
        let folder = Escaped::new(&crate::error::excerpt(folder)).to_string();
        format!(
            "front matter: the name `{}` {}",
            Escaped::new(&crate::error::excerpt(name)),
            problem.why(&folder)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(text: &str, folder: &str) -> (Option<usize>, String) {
        let broken = read(text, folder).err().expect("a problem");
        (broken.line, broken.message)
    }

    #[test]
    fn every_field_is_served_as_json() {
        let text = "---\nname: pdf\ndescription: Fill PDFs\nlicense: MIT\nmetadata:\n  version: '2'\nallowed-tools: Read Write\nx-rank: 2\nx-ratio: 0.5\nx-list: [a, {b: true}]\n---\nBody\n";
        let matter = read(text, "pdf").unwrap();
        let json = Json::Object(matter.json.clone());
        assert_eq!(
            json,
            serde_json::json!({"name": "pdf", "description": "Fill PDFs", "license": "MIT",
                               "metadata": {"version": "2"}, "allowed-tools": "Read Write",
                               "x-rank": 2, "x-ratio": 0.5, "x-list": ["a", {"b": true}]})
        );
        assert_eq!(
            (matter.name.as_str(), matter.description.as_str()),
            ("pdf", "Fill PDFs")
        );
    }

    #[test]
    fn what_json_cannot_hold_is_a_problem_on_its_line() {
        let head = "---\nname: pdf\ndescription: Fill PDFs\n";
        let (line, message) = problem(&format!("{head}ratio: .nan\n---\n"), "pdf");
        assert_eq!(line, Some(4));
        assert!(message.contains("`ratio` is NaN"), "{message}");
        let (line, message) = problem(&format!("{head}meta:\n  1: one\n---\n"), "pdf");
        assert_eq!(line, Some(4));
        assert!(message.contains("not text"), "{message}");
        let (_, message) = problem(&format!("{head}when: !date 2026-01-01\n---\n"), "pdf");
        assert!(message.contains("tag"), "{message}");
        let (line, message) = problem(&format!("{head}name: again\n---\n"), "pdf");
        assert!(message.contains("twice"), "{message}");
        assert_eq!(line, Some(4));
    }

    #[test]
    fn names_follow_the_agent_skills_rules() {
        let skill = |name: &str, folder: &str| {
            read(&format!("---\nname: {name}\ndescription: d\n---\n"), folder)
        };
        assert!(skill("pdf-tools", "pdf-tools").is_ok());
        assert!(skill("données", "données").is_ok());
        assert!(skill("中文-pdf", "中文-pdf").is_ok());
        for bad in [
            "PDF",
            "-pdf",
            "pdf-",
            "pdf--x",
            "pdf_x",
            "pdf x",
            &"a".repeat(65),
        ] {
            assert!(skill(bad, bad).is_err(), "{bad}");
        }
        let (line, message) = problem("---\nname: pdf\ndescription: d\n---\n", "docs");
        assert_eq!(line, Some(2));
        assert!(message.contains("differs from its folder"), "{message}");
        // No name passes for another: compared as it is, in NFKC form, no
        // invisible character, one script.
        for (name, folder, expected) in [
            ("pdf", "\u{ff50}\u{ff44}\u{ff46}", "differs from its folder"),
            ("\u{ff50}\u{ff44}\u{ff46}", "pdf", "not in NFKC form"),
            (
                "\u{ff50}\u{ff44}\u{ff46}",
                "\u{ff50}\u{ff44}\u{ff46}",
                "not in NFKC form",
            ),
            ("pdf\u{3164}", "pdf\u{3164}", "holds U+3164"),
            ("\u{3164}", "\u{3164}", "holds U+3164"),
            ("pd\u{200b}f", "pd\u{200b}f", "holds U+200B"),
            ("pdf\u{202e}", "pdf\u{202e}", "holds U+202E"),
            ("\u{440}df", "\u{440}df", "mixes scripts"),
        ] {
            let (line, message) =
                problem(&format!("---\nname: {name}\ndescription: d\n---\n"), folder);
            assert_eq!(line, Some(2), "{name:?}");
            assert!(message.contains(expected), "{name:?}: {message}");
        }
        let missing = problem("---\nname: pdf\n---\n", "pdf").1;
        assert!(missing.contains("`description` is missing"), "{missing}");
        for blank in ["''", "'  '"] {
            let text = format!("---\nname: pdf\ndescription: {blank}\n---\n");
            assert!(problem(&text, "pdf").1.contains("1 to 1024"), "{blank}");
        }
        assert!(
            problem("No front matter", "pdf")
                .1
                .contains("starts with YAML")
        );
    }

    #[test]
    fn the_agent_skills_fields_have_their_types() {
        let head = "---\nname: pdf\ndescription: d\n";
        for (field, expected) in [
            ("license: [MIT]", "`license` must be text"),
            ("allowed-tools: [Read]", "`allowed-tools` must be text"),
            (
                "compatibility: ''",
                "`compatibility` must be text of 1 to 500",
            ),
            (
                "metadata: {rank: 2}",
                "`metadata` must map keys to text values",
            ),
            ("metadata: [a]", "`metadata` must map keys to text values"),
        ] {
            let (line, message) = problem(&format!("{head}{field}\n---\n"), "pdf");
            assert_eq!(line, Some(4), "{field}");
            assert!(message.contains(expected), "{field}: {message}");
        }
    }

    #[test]
    fn a_skill_may_be_limited_to_scopes() {
        let text = "---\nname: pdf\ndescription: d\nmetadata:\n  mcp-prompts/scopes: finance  admin\n---\n";
        assert_eq!(read(text, "pdf").unwrap().scopes, ["finance", "admin"]);
        let (line, message) = problem(
            "---\nname: pdf\ndescription: d\nmetadata:\n  mcp-prompts/scopes: 'a\tb'\n---\n",
            "pdf",
        );
        assert_eq!(line, Some(4));
        assert!(message.contains("is not a scope"), "{message}");
        let (_, message) = problem(
            "---\nname: pdf\ndescription: d\nmetadata:\n  mcp-prompts/scopes: ' '\n---\n",
            "pdf",
        );
        assert!(message.contains("names no scope"), "{message}");
    }

    #[test]
    fn front_matter_is_read_as_any_yaml_reader_reads_it() {
        let text = "---\nname: pdf\ndescription: d\nargument-hint: [file]\n---\n";
        let matter = read(text, "pdf").unwrap();
        assert_eq!(matter.json["argument-hint"], serde_json::json!(["file"]));
    }
}
