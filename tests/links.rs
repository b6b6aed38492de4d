//! Every link in our Markdown leads somewhere. rustdoc checks the guide's
//! intra-doc links (`-D warnings` in CI); this checks what it cannot:
//!
//! - a relative link in the repository's Markdown (README, CONTRIBUTING,
//!   BENCHMARKS, ARCHITECTURE, CHANGELOG, the examples' READMEs) names a
//!   file or folder that exists, and its `#anchor` a heading of that file;
//! - a link into our docs.rs pages (`https://docs.rs/mcp-prompts/latest/...`)
//!   names the crate's front page or a chapter of the guide that exists, and
//!   its `#anchor` a heading there;
//! - the guide's chapters, read on docs.rs where no repository file can be
//!   reached, link only to items, other chapters and web pages;
//! - README's example is `examples/hello.rs`, which `tests/hello.rs` runs.

use std::fs;
use std::path::{Path, PathBuf};

/// The root of our pages on docs.rs.
const DOCS_RS: &str = "https://docs.rs/mcp-prompts/latest/mcp_prompts/";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The repository's own Markdown: the top-level pages and each example's
/// README (the examples' other `.md` files are prompts, not pages).
fn repository_pages() -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = fs::read_dir(root())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    for entry in fs::read_dir(root().join("examples")).unwrap() {
        let readme = entry.unwrap().path().join("README.md");
        if readme.is_file() {
            pages.push(readme);
        }
    }
    pages.sort();
    pages
}

fn guide_chapters() -> Vec<PathBuf> {
    let mut chapters: Vec<PathBuf> = fs::read_dir(root().join("mcp-prompts/src/guide"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    chapters.sort();
    chapters
}

/// The lines of `text` outside fenced code blocks, with inline code taken
/// out (a link is never inside either), numbered from 1.
fn prose(text: &str) -> Vec<(usize, String)> {
    unfenced(text)
        .into_iter()
        .map(|(number, line)| {
            let kept = line.split('`').step_by(2).collect();
            (number, kept)
        })
        .collect()
}

/// The lines of `text` outside fenced code blocks, numbered from 1.
fn unfenced(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            lines.push((index + 1, line));
        }
    }
    lines
}

/// The targets of the inline links `[text](target)` in `text`, with their lines.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (number, line) in prose(text) {
        let mut rest = line.as_str();
        while let Some(start) = rest.find("](") {
            let after = &rest[start + 2..];
            let end = after.find(')').unwrap_or(after.len());
            found.push((number, after[..end].to_string()));
            rest = &after[end..];
        }
    }
    found
}

/// The anchors a page's headings get, as GitHub and rustdoc write them:
/// lower case, spaces as `-`, other punctuation dropped.
fn anchors(text: &str) -> Vec<String> {
    unfenced(text)
        .into_iter()
        .filter_map(|(_, line)| {
            let title = line.trim_start_matches('#');
            (line.starts_with('#') && title.starts_with(' ')).then(|| slug(title.trim()))
        })
        .collect()
}

fn slug(title: &str) -> String {
    title
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// What is wrong with a link into our docs.rs pages, if anything.
fn check_docs_rs(path: &str) -> Result<(), String> {
    let (page, anchor) = path.split_once('#').unwrap_or((path, ""));
    let text = if page == "index.html" {
        // The crate's front page: lib.rs's inner doc comments.
        let lib = fs::read_to_string(root().join("mcp-prompts/src/lib.rs")).unwrap();
        lib.lines()
            .filter_map(|line| line.strip_prefix("//!"))
            .map(|line| line.strip_prefix(' ').unwrap_or(line))
            .collect::<Vec<_>>()
            .join("\n")
    } else if page == "guide/index.html" {
        String::new()
    } else if let Some(chapter) = page
        .strip_prefix("guide/")
        .and_then(|rest| rest.strip_suffix("/index.html"))
    {
        let index = fs::read_to_string(root().join("mcp-prompts/src/guide.rs")).unwrap();
        if !index.contains(&format!("pub mod {chapter} {{}}")) {
            return Err(format!("the guide has no chapter `{chapter}`"));
        }
        fs::read_to_string(root().join(format!("mcp-prompts/src/guide/{chapter}.md"))).unwrap()
    } else {
        return Err(format!("not a page this test knows: {page}"));
    };
    if !anchor.is_empty() && !anchors(&text).iter().any(|a| a == anchor) {
        return Err(format!("no heading `#{anchor}` on {page}"));
    }
    Ok(())
}

/// What is wrong with a relative link from `page`, if anything.
fn check_relative(page: &Path, target: &str) -> Result<(), String> {
    let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
    let path = if file.is_empty() {
        page.to_path_buf()
    } else {
        page.parent().unwrap().join(file)
    };
    if !path.exists() {
        return Err(format!("{} does not exist", path.display()));
    }
    if !anchor.is_empty() {
        let text = fs::read_to_string(&path).map_err(|err| format!("{}: {err}", path.display()))?;
        if !anchors(&text).iter().any(|a| a == anchor) {
            return Err(format!("no heading `#{anchor}` in {}", path.display()));
        }
    }
    Ok(())
}

#[test]
fn every_link_of_the_repository_pages_leads_somewhere() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in repository_pages() {
        let text = fs::read_to_string(&page).unwrap();
        for (line, target) in links(&text) {
            let result = if let Some(path) = target.strip_prefix(DOCS_RS) {
                check_docs_rs(path)
            } else if target.starts_with("https://") || target.starts_with("http://") {
                continue;
            } else {
                check_relative(&page, &target)
            };
            checked += 1;
            if let Err(why) = result {
                broken.push(format!("{}:{line}: ({target}) {why}", page.display()));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    // README alone links a dozen pages; finding none means the parser broke.
    assert!(checked > 30, "only {checked} links found");
}

#[test]
fn the_guide_links_only_to_what_docs_rs_can_reach() {
    let mut wrong = Vec::new();
    for chapter in guide_chapters() {
        let text = fs::read_to_string(&chapter).unwrap();
        for (line, target) in links(&text) {
            let reachable = target.starts_with("crate::")
                || target.starts_with("https://")
                || target.starts_with('#');
            if !reachable {
                wrong.push(format!("{}:{line}: {target}", chapter.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "links docs.rs cannot follow:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_chapter_file_is_in_the_guide() {
    let index = fs::read_to_string(root().join("mcp-prompts/src/guide.rs")).unwrap();
    for chapter in guide_chapters() {
        let name = chapter.file_stem().unwrap().to_str().unwrap();
        assert!(
            index.contains(&format!("#[doc = include_str!(\"guide/{name}.md\")]\n"))
                && index.contains(&format!("\npub mod {name} {{}}")),
            "{name}.md is not a module of guide.rs"
        );
        assert!(
            index.contains(&format!("[`{name}`]")),
            "guide.rs's table leaves out {name}"
        );
    }
}

#[test]
fn readmes_example_is_the_hello_example() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let hello = fs::read_to_string(root().join("examples/hello.rs")).unwrap();
    // The example without its header comment, as README shows it.
    let start = hello.find("\nuse ").expect("hello.rs has a use line") + 1;
    let code = &hello[start..];
    assert!(
        readme.contains(&format!("```rust,no_run\n{code}```")),
        "README's example differs from examples/hello.rs:\n{code}"
    );
}

#[test]
fn the_slugs_are_those_github_and_rustdoc_write() {
    assert_eq!(slug("Two protocol eras"), "two-protocol-eras");
    assert_eq!(slug("`DynamicPrompt`"), "dynamicprompt");
    assert_eq!(
        slug("Trying it: the showcase and the Inspector"),
        "trying-it-the-showcase-and-the-inspector"
    );
    assert_eq!(
        links("see [a](x.md#y) and `[b](not)`\n```\n[c](d)\n```\n[e](f)"),
        [(1, "x.md#y".to_string()), (5, "f".to_string())]
    );
}
