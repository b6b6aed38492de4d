//! `include_skill!("path")`: an Agent Skill's folder read when the crate
//! compiles, checked by the rules skills from folders are checked by at
//! run time (front matter, names, limits, no link out of the folder), its
//! files' digests worked out, and the skill registered for every server
//! in the binary. Each file is named by `include_bytes!`, so an edit of
//! one rebuilds the crate.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use mcp_prompts_template::rules::{fenced as rules_fenced, is_skill_path_segment, is_valid_scope};
use mcp_prompts_template::skill::{
    self as rules, MAX_BYTES, MAX_COMPATIBILITY_CHARS, MAX_DESCRIPTION_CHARS, MAX_FILES,
    MAX_SKILL_DEPTH, SCOPES_KEY, SKILL_MD,
};
use proc_macro2::TokenStream;
use quote::quote;
use serde_json::{Map, Value as Json};
use sha2::{Digest, Sha256};
use syn::LitStr;

/// A file of the skill: its path within the folder, where it is on disk,
/// and its bytes.
struct Found {
    path: String,
    on_disk: PathBuf,
    bytes: Vec<u8>,
}

/// A skill of the folder (the folder's own, or one nested in it).
struct Entry {
    /// Under the skills root: the folder's name, then the nested path.
    path: String,
    front_matter: Json,
    scopes: Vec<String>,
}

pub fn expand(input: TokenStream) -> TokenStream {
    match syn::parse2::<LitStr>(input).and_then(|path| embed(&path)) {
        Ok(tokens) => tokens,
        Err(error) => error.to_compile_error(),
    }
}

fn embed(literal: &LitStr) -> syn::Result<TokenStream> {
    let fail = |message: String| syn::Error::new(literal.span(), message);
    let relative = literal.value();
    let root = std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default();
    let folder = PathBuf::from(root).join(&relative);
    let real = std::fs::canonicalize(&folder).map_err(|err| {
        fail(format!(
            "cannot read skill folder `{relative}` (relative to the crate's root, where its Cargo.toml is): {err}"
        ))
    })?;
    if !real.is_dir() {
        return Err(fail(format!("`{relative}` is not a folder")));
    }
    let Some(name) = folder
        .file_name()
        .and_then(|n| n.to_str())
        .map(str::to_owned)
    else {
        return Err(fail(format!(
            "`{relative}` does not end in a folder's name (in UTF-8), which the skill's name must be"
        )));
    };
    let mut files = Vec::new();
    let mut bytes = 0u64;
    walk(&real, &real, "", 0, &mut files, &mut bytes)
        .map_err(|message| fail(format!("{relative}: {message}")))?;
    files.sort_by(|a, b| a.path.cmp(&b.path));
    if !files.iter().any(|f| f.path == SKILL_MD) {
        return Err(fail(format!("`{relative}` holds no {SKILL_MD}")));
    }
    let mut entries = Vec::new();
    for file in files
        .iter()
        .filter(|f| f.path.rsplit('/').next() == Some(SKILL_MD))
    {
        let within = file.path.strip_suffix(SKILL_MD).unwrap_or_default();
        let within = within.trim_end_matches('/');
        let folder_name = within.rsplit('/').next().filter(|n| !n.is_empty());
        let text = std::str::from_utf8(&file.bytes)
            .map_err(|_| fail(format!("{relative}/{}: not UTF-8 text", file.path)))?;
        let (front_matter, scopes) = read_front_matter(text, folder_name.unwrap_or(&name))
            .map_err(|message| fail(format!("{relative}/{}: {message}", file.path)))?;
        let path = if within.is_empty() {
            name.clone()
        } else {
            format!("{name}/{within}")
        };
        entries.push(Entry {
            path,
            front_matter,
            scopes,
        });
    }
    Ok(tokens(&name, &entries, &files))
}

/// Reads every file below `dir` (at `prefix` within the skill) into
/// `files`: hidden names (`.git`) left out, links followed only within
/// the skill's folder (`root`), and the limits kept.
fn walk(
    root: &Path,
    dir: &Path,
    prefix: &str,
    depth: usize,
    files: &mut Vec<Found>,
    bytes: &mut u64,
) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|err| format!("cannot read `{prefix}`: {err}"))?;
    for entry in entries {
        let entry = entry.map_err(|err| format!("cannot read `{prefix}`: {err}"))?;
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            return Err(format!(
                "`{prefix}{}` has a name that is not UTF-8",
                entry.file_name().to_string_lossy()
            ));
        };
        if name.starts_with('.') {
            continue;
        }
        let path = format!("{prefix}{name}");
        if !is_skill_path_segment(&name) {
            return Err(format!(
                "`{path}` has a `%`, `?`, `#`, `\\` or control character, which its skill:// URI cannot hold as it is"
            ));
        }
        if let Some(hidden) = rules::invisible(&name) {
            return Err(format!(
                "`{}` holds U+{:04X}, a character that shows nothing or changes how the text around it shows; a skill's file names are shown as they are",
                path.escape_debug(),
                u32::from(hidden)
            ));
        }
        let link = entry
            .file_type()
            .map_err(|err| format!("cannot read `{path}`: {err}"))?
            .is_symlink();
        let on_disk = std::fs::canonicalize(entry.path())
            .map_err(|err| format!("cannot read `{path}`: {err}"))?;
        if !on_disk.starts_with(root) {
            return Err(format!(
                "`{path}` links out of the skill's folder; a skill serves only what is in it"
            ));
        }
        let kind =
            std::fs::metadata(&on_disk).map_err(|err| format!("cannot read `{path}`: {err}"))?;
        if link && !kind.is_file() {
            // As from folders at run time: a link may stand for a file only.
            return Err(format!(
                "`{path}` is a link to a folder; a skill's links may lead to its files only"
            ));
        }
        if kind.is_dir() {
            if depth == MAX_SKILL_DEPTH {
                return Err(format!(
                    "`{path}` lies more than {MAX_SKILL_DEPTH} folders deep in the skill"
                ));
            }
            walk(root, &on_disk, &format!("{path}/"), depth + 1, files, bytes)?;
        } else if kind.is_file() {
            // Counted before it is read: a huge file is refused unread.
            *bytes += kind.len();
            if files.len() >= MAX_FILES || *bytes > MAX_BYTES {
                return Err(format!(
                    "the skill holds more than {MAX_FILES} files or 16 MiB; that is the most a host must accept"
                ));
            }
            let read =
                std::fs::read(&on_disk).map_err(|err| format!("cannot read `{path}`: {err}"))?;
            files.push(Found {
                path,
                on_disk,
                bytes: read,
            });
        } else {
            return Err(format!("`{path}` is neither a file nor a folder"));
        }
    }
    Ok(())
}

/// A `SKILL.md`'s front matter as JSON, checked as the runtime checks a
/// folder's, with the scopes its `metadata` names.
fn read_front_matter(text: &str, folder: &str) -> Result<(Json, Vec<String>), String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let front = match rules_fenced(text, "---") {
        Some(Ok((front, _, _))) => front,
        Some(Err(())) => return Err("the front matter has no closing `---` line".into()),
        None => return Err("a SKILL.md starts with YAML front matter between `---` lines".into()),
    };
    let yaml: yaml_serde::Value =
        yaml_serde::from_str(front).map_err(|err| format!("front matter: {err}"))?;
    let entries = match yaml {
        yaml_serde::Value::Null => yaml_serde::Mapping::new(),
        yaml_serde::Value::Mapping(entries) => entries,
        _ => return Err("front matter: not a mapping of fields".into()),
    };
    let mut fields = Map::new();
    for (key, value) in entries {
        let yaml_serde::Value::String(key) = key else {
            return Err("front matter: a key is not text, which JSON cannot hold".into());
        };
        let value = rules::to_json(value, &key)?;
        fields.insert(key, value);
    }
    let json = Json::Object(fields);
    let text_field = |key: &'static str| json.get(key).map(|v| v.as_str().ok_or(key));
    for key in ["license", "allowed-tools"] {
        if let Some(Err(key)) = text_field(key) {
            return Err(format!("front matter: `{key}` must be text"));
        }
    }
    let name = match text_field("name") {
        None => return Err("front matter: `name` is missing".into()),
        Some(Err(_)) => return Err("front matter: `name` must be text".into()),
        Some(Ok(name)) => name,
    };
    if let Err(problem) = rules::check_name(name, folder) {
        return Err(format!(
            "front matter: the name `{}` {}",
            name.escape_debug(),
            problem.why(&folder.escape_debug().to_string())
        ));
    }
    let description = match text_field("description") {
        None => return Err("front matter: `description` is missing".into()),
        Some(Err(_)) => return Err("front matter: `description` must be text".into()),
        Some(Ok(description)) => description,
    };
    let chars = description.chars().count();
    if description.trim().is_empty() || chars > MAX_DESCRIPTION_CHARS {
        return Err(format!(
            "front matter: `description` has {chars} characters; it needs 1 to {MAX_DESCRIPTION_CHARS}"
        ));
    }
    if let Some(compatibility) = json.get("compatibility") {
        let chars = compatibility.as_str().map(|text| text.chars().count());
        if !chars.is_some_and(|n| (1..=MAX_COMPATIBILITY_CHARS).contains(&n)) {
            return Err(format!(
                "front matter: `compatibility` must be text of 1 to {MAX_COMPATIBILITY_CHARS} characters"
            ));
        }
    }
    let mut scopes = Vec::new();
    if let Some(metadata) = json.get("metadata") {
        let Some(map) = metadata
            .as_object()
            .filter(|m| m.values().all(Json::is_string))
        else {
            return Err("front matter: `metadata` must map keys to text values".into());
        };
        if let Some(listed) = map.get(SCOPES_KEY).and_then(Json::as_str) {
            scopes = listed
                .split(' ')
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect();
            if scopes.is_empty() || !scopes.iter().all(|s| is_valid_scope(s)) {
                return Err(format!(
                    "front matter: `metadata.{SCOPES_KEY}` must name scopes (printable ASCII, no `\"` or `\\`), separated by spaces"
                ));
            }
        }
    }
    Ok((json, scopes))
}

/// `sha256:` and the 64 lowercase hex digits of `bytes`' digest.
fn digest(bytes: &[u8]) -> String {
    let mut digest = String::with_capacity(7 + 64);
    digest.push_str("sha256:");
    for byte in Sha256::digest(bytes) {
        let _ = write!(digest, "{byte:02x}");
    }
    digest
}

/// The registration: every skill with its front matter as JSON text, every
/// file through `include_bytes!` (which makes an edit rebuild), with the
/// digest, MIME type and kind worked out now.
fn tokens(name: &str, entries: &[Entry], files: &[Found]) -> TokenStream {
    let private = crate::paths::private();
    let skills = entries.iter().map(|entry| {
        let path = &entry.path;
        let front_matter = entry.front_matter.to_string();
        let scopes = &entry.scopes;
        quote!(#private::EmbeddedEntry {
            path: #path,
            front_matter: #front_matter,
            scopes: &[#(#scopes),*],
        })
    });
    let files = files.iter().map(|file| {
        let path = format!("{name}/{}", file.path);
        let on_disk = file.on_disk.to_string_lossy();
        let digest = digest(&file.bytes);
        let mime = rules::mime_of(&file.path, &file.bytes);
        let text = std::str::from_utf8(&file.bytes).is_ok();
        quote!(#private::EmbeddedFile {
            path: #path,
            bytes: ::core::include_bytes!(#on_disk),
            digest: #digest,
            mime: #mime,
            text: #text,
        })
    });
    quote! {
        #private::inventory::submit! {
            #private::EmbeddedSkill {
                skills: &[#(#skills),*],
                files: &[#(#files),*],
            }
        }
    }
}
