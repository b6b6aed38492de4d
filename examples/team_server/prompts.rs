//! The team's prompts written in Rust: a review with choices, a report that
//! asks the person for what it needs, and a release plan only release
//! managers see.

use mcp_prompts::{Elicited, Error, PromptArg, PromptArgs, RequestContext, prompt};

/// The languages the team writes.
#[derive(Clone, Copy, Debug, PartialEq, PromptArg)]
pub enum Language {
    Rust,
    #[prompt_arg(rename = "typescript")]
    TypeScript,
    Python,
    Sql,
}

/// How deep a review goes.
#[derive(Clone, Copy, Debug, PartialEq, PromptArg)]
pub enum Depth {
    /// Obvious mistakes only
    Quick,
    /// Correctness, tests and naming
    Normal,
    /// Everything, design included
    Thorough,
}

/// Review code the way the team does
#[prompt(title = "Code review", tags = ["code"])]
pub fn review(
    /// The code to review
    #[arg(example = "fn add(a: i32, b: i32) -> i32 { a - b }")]
    code: String,
    /// Its language
    language: Language,
    /// How deep to go
    #[arg(default = "normal")]
    depth: Depth,
) -> String {
    let checklist = match depth {
        Depth::Quick => "obvious mistakes",
        Depth::Normal => "correctness, tests and naming",
        Depth::Thorough => "correctness, tests, naming, error handling and design",
    };
    format!("Review this {language} code for {checklist}; cite the lines you mean.\n\n{code}")
}

/// How bad an incident is.
#[derive(Clone, Copy, Debug, PartialEq, PromptArg)]
pub enum Severity {
    Minor,
    Major,
    Critical,
}

/// What the incident report asks the person filing it.
#[derive(PromptArgs)]
pub struct Incident {
    /// How bad it is
    pub severity: Severity,
    /// Whether customers noticed
    #[arg(default = false)]
    pub customers_affected: bool,
}

/// Draft an incident report; asks how bad it was
#[prompt(title = "Incident report", tags = ["ops"])]
pub async fn incident_report(
    ctx: RequestContext,
    /// The service that failed
    #[arg(example = "checkout")]
    service: String,
) -> Result<String, Error> {
    let question = format!("How bad was the incident in {service}?");
    Ok(match ctx.elicit::<Incident>("incident", &question).await? {
        Elicited::Accepted(incident) => {
            let customers = if incident.customers_affected {
                "noticed"
            } else {
                "did not notice"
            };
            format!(
                "Draft a {} incident report for {service}; customers {customers} it. \
                 Cover the timeline, the cause and the follow-ups.",
                incident.severity
            )
        }
        // Declined, or a client that cannot show forms: a report to fill in.
        _ => format!("Draft an incident report for {service} with blanks for severity and impact."),
    })
}

/// Plan a release: shown only to callers with the `release` scope
#[prompt(title = "Release plan", scopes = ["release"], tags = ["ops"])]
pub fn release_plan(
    /// The version to release
    #[arg(example = "2.4.0")]
    version: String,
) -> String {
    format!(
        "Plan the release of {version}: freeze, checks, rollout in stages, and how to roll back."
    )
}
