//! Argument structs, choices, templates, handles and catalogs in the
//! combinations users write; must compile without warnings.
#![deny(warnings)]

use mcp_prompts::{Catalog, GetPrompt, PromptArg, PromptArgs, RequestContext, catalog, prompt};

#[derive(Clone, Copy, Debug, PartialEq, PromptArg)]
#[prompt_arg(rename_all = "kebab-case")]
enum Depth {
    Quick,
    #[prompt_arg(alias = "deep")]
    VeryThorough,
    #[prompt_arg(rename = "max")]
    Maximum,
}

/// A choice with its own `Display`, so the derive leaves it out.
#[derive(Debug, PromptArg)]
#[prompt_arg(display = false)]
enum Size {
    Small,
    Large,
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Small => "S",
            Self::Large => "L",
        })
    }
}

/// Pick a size
#[prompt]
fn pick(size: Size) -> String {
    size.to_string()
}

#[derive(PromptArgs)]
struct Repo {
    /// Repository, as owner/name
    #[arg(name = "repository")]
    repo: String,
    /// Branch to look at
    #[arg(default = "main")]
    branch: String,
}

/// Arguments that contain another argument struct.
#[derive(PromptArgs)]
pub struct Review {
    #[arg(flatten)]
    repo: Repo,
    /// How deep to go
    #[arg(default = "quick")]
    depth: Depth,
    /// Pull request number
    pr: Option<u32>,
}

/// Review a pull request
#[prompt(title = "Review")]
fn review(#[arg(flatten)] review: Review, ctx: RequestContext, strict: bool) -> String {
    let _ = ctx;
    format!(
        "{}@{} {} {:?} {strict}",
        review.repo.repo, review.repo.branch, review.depth, review.pr
    )
}

/// Summarize a repository; the same struct serves a second prompt.
#[prompt(
    template = "Summarize {repository} at {branch}.\n--- assistant\nHow deep?\n--- user\n{{depth}}: {depth}",
    unused = ["focus"]
)]
fn summarize_repo(#[arg(flatten)] repo: Repo, depth: Depth, focus: Option<String>);

/// An async prompt next to a template one.
#[prompt]
async fn later(#[arg(flatten)] repo: Repo) -> String {
    repo.repo
}

const ALL: Catalog = catalog![review, summarize_repo, later, pick];
static ALSO: Catalog = catalog![review];

fn main() {
    assert_eq!(ALL.len(), 4);
    assert_eq!(Size::parse_arg("large").map(|s| s.to_string()), Ok("L".to_owned()));
    let _ = pick::args().size("small");
    assert_eq!(ALSO[0].name(), review::NAME);
    assert_eq!(Depth::parse_arg("VERY-THOROUGH"), Ok(Depth::VeryThorough));
    assert_eq!(Depth::parse_arg("deep"), Ok(Depth::VeryThorough));
    assert_eq!(Depth::Maximum.to_string(), "max");
    let names: Vec<_> = review::PROMPT.arguments().map(|a| a.name()).collect();
    assert_eq!(names, ["repository", "branch", "depth", "pr", "strict"]);
    let request: GetPrompt = review::args()
        .review(|r| r.repo(|r| r.repo("a/b")).depth(Depth::Maximum).pr(7))
        .strict(true)
        .into();
    assert_eq!(
        request.arguments().collect::<Vec<_>>(),
        [("repository", "a/b"), ("depth", "max"), ("pr", "7"), ("strict", "true")]
    );
    let _ = summarize_repo::args().repo(|r| r.branch("dev")).depth("deep");
}
