//! The Agent Skills rules both sides check: the runtime on skills read
//! from folders and defined in code, `include_skill!` on the folder it
//! embeds. The limits are always here; the checks that need a YAML reader
//! or Unicode tables, with feature `skills`.

#[cfg(feature = "skills")]
use serde_json::{Map, Value as Json};
#[cfg(feature = "skills")]
use unicode_general_category::{GeneralCategory, get_general_category};
#[cfg(feature = "skills")]
use unicode_security::RestrictionLevelDetection as _;
#[cfg(feature = "skills")]
use unicode_security::general_security_profile::IdentifierType;
#[cfg(feature = "skills")]
use unicode_security::{GeneralSecurityProfile as _, MixedScript as _, RestrictionLevel};
#[cfg(feature = "skills")]
use yaml_serde::Value as Yaml;

/// The longest skill name, in characters.
pub const MAX_NAME_CHARS: usize = 64;

/// The longest description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 1024;

/// The longest `compatibility`, in characters.
pub const MAX_COMPATIBILITY_CHARS: usize = 500;

/// The most files one skill may hold, its nested skills' included: what
/// the skills extension says every host must accept.
pub const MAX_FILES: usize = 512;

/// The most bytes one skill's files may hold together: 16 MiB, as the
/// extension says every host must accept.
pub const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// How deep the folders within one skill may go.
pub const MAX_SKILL_DEPTH: usize = 16;

/// The key under `metadata` that limits a skill to callers holding every
/// one of its space-separated scopes (as `scopes` does a prompt).
pub const SCOPES_KEY: &str = "mcp-prompts/scopes";

/// The file every skill has at its root.
pub const SKILL_MD: &str = "SKILL.md";

/// What is wrong with a skill's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameProblem {
    /// Not 1 to 64 lowercase letters, digits and single inner hyphens.
    NotAName,
    /// Not its folder's name, character for character.
    NotTheFolders,
    /// Holds a character that shows nothing or reorders the text around
    /// it (see `invisible`), so it could pass for another name.
    Invisible(char),
    /// Changed by NFKC normalization (full-width or other compatibility
    /// letters): it looks like the name it normalizes to.
    NotNormalized,
    /// Mixes scripts, as a Cyrillic `р` among Latin letters (Unicode
    /// TS #39: neither single-script nor highly restrictive).
    MixedScripts,
}

impl NameProblem {
    /// What is wrong, worded to follow "the name `…`" (`folder`: the
    /// folder's name, as the message should show it), for the runtime and
    /// `include_skill!` to say alike.
    ///
    /// ```
    /// use mcp_prompts_template::skill::NameProblem;
    ///
    /// assert_eq!(NameProblem::NotTheFolders.why("docs"), "differs from its folder's, `docs`");
    /// ```
    #[must_use]
    pub fn why(self, folder: &str) -> String {
        match self {
            Self::NotAName => format!(
                "is not a skill name: 1 to {MAX_NAME_CHARS} lowercase letters, digits and single hyphens, not at either end"
            ),
            Self::NotTheFolders => format!("differs from its folder's, `{folder}`"),
            Self::Invisible(c) => format!(
                "holds U+{:04X}, a character that shows nothing or changes how the text around it shows, so the name could pass for another",
                u32::from(c)
            ),
            Self::NotNormalized => "is not in NFKC form (full-width or other compatibility letters), so it could pass for the name it normalizes to".to_owned(),
            Self::MixedScripts => "mixes scripts (as a Cyrillic `р` among Latin letters), so it could pass for another name".to_owned(),
        }
    }
}

#[cfg(feature = "skills")]
/// The Agent Skills rules on a name: 1 to 64 lowercase letters, digits and
/// single inner hyphens, equal to its folder's name as it is (no
/// normalization first). So that no name passes for another, it must
/// also be in NFKC form, hold no invisible character and not mix scripts
/// (Latin beside Han or kana is allowed, as TS #39's highly restrictive
/// level allows it).
///
/// ```
/// use mcp_prompts_template::skill::{NameProblem, check_name};
///
/// assert_eq!(check_name("pdf-tools", "pdf-tools"), Ok(()));
/// assert_eq!(check_name("PDF", "PDF"), Err(NameProblem::NotAName));
/// assert_eq!(check_name("pdf", "docs"), Err(NameProblem::NotTheFolders));
/// assert_eq!(check_name("pdf", "\u{ff50}\u{ff44}\u{ff46}"), Err(NameProblem::NotTheFolders));
/// assert_eq!(check_name("\u{440}df", "\u{440}df"), Err(NameProblem::MixedScripts));
/// ```
pub fn check_name(name: &str, folder: &str) -> Result<(), NameProblem> {
    if let Some(hidden) = invisible(name) {
        return Err(NameProblem::Invisible(hidden));
    }
    let chars = name.chars().count();
    let valid = (1..=MAX_NAME_CHARS).contains(&chars)
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
        && name.chars().all(|c| {
            c == '-'
                || matches!(
                    get_general_category(c),
                    GeneralCategory::LowercaseLetter
                        | GeneralCategory::ModifierLetter
                        | GeneralCategory::OtherLetter
                        | GeneralCategory::DecimalNumber
                        | GeneralCategory::LetterNumber
                        | GeneralCategory::OtherNumber
                )
        });
    if !valid {
        return Err(NameProblem::NotAName);
    }
    if !unicode_normalization::is_nfkc(name) {
        return Err(NameProblem::NotNormalized);
    }
    if !name.is_single_script()
        && name.detect_restriction_level() > RestrictionLevel::HighlyRestrictive
    {
        return Err(NameProblem::MixedScripts);
    }
    if name != folder {
        return Err(NameProblem::NotTheFolders);
    }
    Ok(())
}

#[cfg(feature = "skills")]
/// The first character of `text` that shows nothing or changes how the
/// text around it is shown, so that two different names or paths could
/// look the same: a default-ignorable code point (Unicode's
/// `Default_Ignorable_Code_Point`, as TS #39 types it: zero-width
/// characters, bidirectional controls, U+FEFF, the soft hyphen, the
/// Hangul fillers, variation selectors, tags), a deprecated format
/// character, a code point not assigned a character, or a line or
/// paragraph separator. Private-use characters show as themselves.
///
/// ```
/// use mcp_prompts_template::skill::invisible;
///
/// assert_eq!(invisible("notes.txt"), None);
/// assert_eq!(invisible("gpj.\u{202e}txt"), Some('\u{202e}'));
/// assert_eq!(invisible("pdf\u{3164}"), Some('\u{3164}'));
/// ```
pub fn invisible(text: &str) -> Option<char> {
    text.chars().find(|&c| {
        match c.identifier_type() {
            Some(IdentifierType::Default_Ignorable | IdentifierType::Deprecated) => true,
            // Unassigned code points (some reserved as default-ignorable)
            // and noncharacters; private use shows as itself.
            None => get_general_category(c) != GeneralCategory::PrivateUse,
            Some(_) => matches!(
                get_general_category(c),
                GeneralCategory::LineSeparator | GeneralCategory::ParagraphSeparator
            ),
        }
    })
}

/// What `text` may be mistaken for, by Unicode TS #39's confusables: its
/// skeleton, where look-alikes meet (`ɡit` and `git`, Cyrillic `сосо` and
/// Latin `coco`). Two texts of ASCII alone with one skeleton (`burn` and
/// `bum`) are told apart as they are written; the caller decides that.
///
/// ```
/// use mcp_prompts_template::skill::look_alike_key;
///
/// assert_eq!(look_alike_key("\u{261}it"), look_alike_key("git"));
/// assert_eq!(look_alike_key("\u{261}ame"), look_alike_key("game"));
/// assert_eq!(
///     look_alike_key("\u{441}\u{43e}\u{441}\u{43e}"),
///     look_alike_key("coco"),
/// );
/// ```
#[cfg(feature = "skills")]
pub fn look_alike_key(text: &str) -> String {
    unicode_security::skeleton(text).collect()
}

#[cfg(feature = "skills")]
/// `value` as JSON, or why it has no JSON form (a key that is not text,
/// NaN or an infinity, a YAML tag); `at` names where it is.
pub fn to_json(value: Yaml, at: &str) -> Result<Json, String> {
    Ok(match value {
        Yaml::Null => Json::Null,
        Yaml::Bool(b) => Json::Bool(b),
        Yaml::Number(number) => {
            if let Some(n) = number.as_u64() {
                n.into()
            } else if let Some(n) = number.as_i64() {
                n.into()
            } else {
                let float = number.as_f64().unwrap_or(f64::NAN);
                serde_json::Number::from_f64(float)
                    .map(Json::Number)
                    .ok_or_else(|| {
                        format!("front matter: `{at}` is {float}, which JSON cannot hold")
                    })?
            }
        }
        Yaml::String(text) => Json::String(text),
        Yaml::Sequence(items) => Json::Array(
            items
                .into_iter()
                .enumerate()
                .map(|(i, item)| to_json(item, &format!("{at}[{i}]")))
                .collect::<Result<_, _>>()?,
        ),
        Yaml::Mapping(entries) => {
            let mut map = Map::new();
            for (key, value) in entries {
                let Yaml::String(key) = key else {
                    return Err(format!(
                        "front matter: `{at}` has a key that is not text, which JSON cannot hold"
                    ));
                };
                let value = to_json(value, &format!("{at}.{key}"))?;
                map.insert(key, value);
            }
            Json::Object(map)
        }
        Yaml::Tagged(tagged) => {
            return Err(format!(
                "front matter: `{at}` has the YAML tag `{}`, which JSON cannot hold",
                tagged.tag
            ));
        }
    })
}

#[cfg(feature = "skills")]
/// The MIME type of a skill's file at `path`: by its extension (so
/// `SKILL.md` is Markdown), else text or bytes by what it holds.
///
/// ```
/// use mcp_prompts_template::skill::mime_of;
///
/// assert_eq!(mime_of("a/SKILL.md", b"# Hi"), "text/markdown");
/// assert_eq!(mime_of("a/LICENSE", b"MIT"), "text/plain");
/// assert_eq!(mime_of("a/blob", &[0xff]), "application/octet-stream");
/// ```
pub fn mime_of(path: &str, bytes: &[u8]) -> &'static str {
    match mime_guess::from_path(path).first_raw() {
        Some(mime) => mime,
        None if std::str::from_utf8(bytes).is_ok() => "text/plain",
        None => "application/octet-stream",
    }
}
