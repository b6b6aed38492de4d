//! The showcase catalog. The integration tests' fixture server includes this
//! file too, so the texts they check are the ones the showcase serves. The
//! MCP conformance suite's fixtures (`test_*`) are kept out of the prompt
//! tools (`as_tool = false`): they are for the suite, not for a model.

use mcp_prompts::{
    Catalog, CompletionInput, Content, Elicited, Error, Message, PromptArg, PromptArgs,
    RequestContext, catalog, prompt,
};

/// The 1x1 red PNG the MCP conformance suite uses.
const RED_PIXEL_PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/// A simple prompt without arguments
#[prompt(title = "Simple Test Prompt", as_tool = false)]
pub fn test_simple_prompt() -> String {
    "This is a simple prompt for testing.".into()
}

/// A prompt with required arguments
#[prompt(title = "Prompt With Arguments", as_tool = false)]
pub fn test_prompt_with_arguments(
    /// First test argument
    arg1: String,
    /// Second test argument
    arg2: String,
) -> String {
    format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'")
}

/// A prompt that includes an embedded resource
#[prompt(title = "Prompt With Embedded Resource", as_tool = false)]
pub fn test_prompt_with_embedded_resource(
    /// URI of the resource to embed
    #[arg(name = "resourceUri")]
    resource_uri: String,
) -> Vec<Message> {
    vec![
        Message::user(Content::embedded_text(
            resource_uri,
            "text/plain",
            "Embedded resource content for testing.",
        )),
        Message::user("Please process the embedded resource above."),
    ]
}

/// A prompt that includes image content
#[prompt(title = "Prompt With Image", as_tool = false)]
pub fn test_prompt_with_image() -> Vec<Message> {
    vec![
        Message::user(Content::image_base64(RED_PIXEL_PNG, "image/png")),
        Message::user("Please analyze the image above."),
    ]
}

/// The languages `code_review` completes, in the order offered.
pub const LANGUAGES: &[&str] = &[
    "c",
    "cpp",
    "csharp",
    "elixir",
    "go",
    "haskell",
    "java",
    "javascript",
    "kotlin",
    "lua",
    "ocaml",
    "perl",
    "php",
    "python",
    "ruby",
    "rust",
    "scala",
    "swift",
    "typescript",
    "zig",
];

/// Review focus areas, suggested from the language the user already chose.
pub fn focus_areas(input: &CompletionInput) -> Vec<&'static str> {
    let rust = input
        .filled("language")
        .is_some_and(|language| language.eq_ignore_ascii_case("rust"));
    let areas: &[&'static str] = if rust {
        &["ownership", "lifetimes", "unsafe code", "error handling"]
    } else {
        &["error handling", "performance", "readability"]
    };
    input.matching(areas.iter().copied()).collect()
}

/// Review a code snippet
#[prompt(
    title = "Review code",
    icon_file = "examples/showcase/assets/review.svg",
    tags = ["code", "review"]
)]
pub fn code_review(
    /// Programming language of the snippet
    #[arg(complete = LANGUAGES, example = "rust")]
    language: String,
    /// The code to review
    #[arg(example = "fn add(a: i32, b: i32) -> i32 { a - b }")]
    code: String,
    /// What the review should focus on
    #[arg(complete = focus_areas)]
    focus: Option<String>,
) -> Vec<Message> {
    let focus = focus.as_deref().unwrap_or("general quality");
    vec![
        Message::user(format!("I am reviewing {language} code.")),
        Message::assistant("I will look at correctness first, then style."),
        Message::user(format!(
            "Review this code with a focus on {focus}:\n\n{code}"
        )),
    ]
}

/// Summarize a text
#[prompt(
    title = "Summarize",
    icon(url = "https://www.rust-lang.org/static/images/favicon-32x32.png", sizes = ["32x32"])
)]
pub fn summarize(
    /// The text to summarize
    #[arg(example = "The meeting moved to Thursday; bring the budget.")]
    text: String,
    /// The most words the summary may use
    #[arg(default = 50)]
    max_words: u32,
) -> String {
    format!("Summarize the following text in at most {max_words} words:\n\n{text}")
}

/// How a greeting should sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PromptArg)]
pub enum Tone {
    /// Polite and reserved.
    Formal,
    /// Relaxed and friendly.
    Casual,
}

/// Compose a greeting
#[prompt(title = "Greeting")]
pub fn greet(
    /// Who to greet
    #[arg(example = "Ada")]
    name: String,
    /// How the greeting should sound
    #[arg(default = "casual")]
    tone: Tone,
    ctx: RequestContext,
) -> String {
    // Its titles and descriptions in French and German are in `i18n/`;
    // the body follows the language the request gets.
    match (ctx.language(), tone) {
        ("fr", Tone::Formal) => format!("Rédige une salutation courte et soutenue pour {name}."),
        ("fr", Tone::Casual) => format!("Rédige une salutation courte et détendue pour {name}."),
        ("de", Tone::Formal) => format!("Verfasse eine kurze, förmliche Begrüßung für {name}."),
        ("de", Tone::Casual) => format!("Verfasse eine kurze, lockere Begrüßung für {name}."),
        _ => format!("Compose a short, {tone} greeting for {name}."),
    }
}

/// The showcase's prompts in other languages: Fluent files embedded at
/// compile time.
pub fn translations() -> mcp_prompts::Translations {
    mcp_prompts::Translations::new()
        .add("fr", "i18n/fr.ftl", include_str!("i18n/fr.ftl"))
        .add("de", "i18n/de.ftl", include_str!("i18n/de.ftl"))
}

/// Draft a status update on the work done since a day
#[prompt(title = "Status update", tags = ["planning"])]
pub fn status_update(
    /// The first day the update covers
    #[arg(example = "2026-07-28")]
    since: chrono::NaiveDate,
    /// What was done, one item per line
    #[arg(example = "Shipped the playground")]
    work: String,
) -> String {
    let day = since.format("%A %-d %B %Y");
    format!("Write a short status update on the work done since {day}:\n\n{work}")
}

/// What is being released; any prompt about a release can flatten it.
#[derive(PromptArgs)]
pub struct Release {
    /// Project name
    #[arg(example = "mcp-prompts")]
    pub project: String,
    /// Version being released
    #[arg(example = "0.2.0")]
    pub version: String,
    /// One change per line
    #[arg(example = "Skills served from folders")]
    pub changes: String,
    /// Who reads the notes (say, operators); anyone if left out
    #[arg(example = "operators")]
    pub audience: Option<String>,
}

/// Draft release notes from a change list
#[prompt(
    title = "Release notes",
    template_file = "examples/showcase/release_notes.md"
)]
pub fn release_notes(
    #[arg(flatten)] release: Release,
    /// Whether some changes break compatibility
    #[arg(default = "false")]
    breaking: bool,
);

/// Where a service is deployed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PromptArg)]
pub enum Environment {
    /// The rehearsal.
    Staging,
    /// The real thing.
    Production,
}

/// What `deploy_notes` asks the user.
#[derive(PromptArgs)]
pub struct Deployment {
    /// Target environment
    pub environment: Environment,
    /// Deploy as a canary first
    #[arg(default = false)]
    pub canary: bool,
}

/// Draft deployment notes
#[prompt(title = "Deployment notes")]
pub async fn deploy_notes(
    ctx: RequestContext,
    /// The service being deployed
    service: String,
) -> Result<String, Error> {
    let question = format!("Where is {service} being deployed?");
    Ok(
        match ctx.elicit::<Deployment>("deployment", &question).await? {
            Elicited::Accepted(Deployment {
                environment,
                canary,
            }) => format!(
                "Write deployment notes for {service} going to {environment} (canary: {canary})."
            ),
            // Declined, cancelled, or a client that cannot ask.
            _ => format!("Write generic deployment notes for {service}."),
        },
    )
}

/// The context `test_input_required_result_prompt` asks for.
#[derive(PromptArgs)]
pub struct UserContext {
    context: String,
}

/// A prompt that asks the user for context before it is rendered
#[prompt(title = "Prompt With Input Required Result", as_tool = false)]
pub async fn test_input_required_result_prompt(ctx: RequestContext) -> Result<String, Error> {
    let question = "What context should the prompt use?";
    Ok(
        match ctx.elicit::<UserContext>("user_context", question).await? {
            Elicited::Accepted(answer) => format!("Prompt with context: {}", answer.context),
            _ => "Prompt without context.".to_owned(),
        },
    )
}

/// Every showcase prompt, checked by the compiler: a misspelt entry or two
/// entries with the same name fail the build.
pub const CATALOG: Catalog = catalog![
    test_simple_prompt,
    test_prompt_with_arguments,
    test_prompt_with_embedded_resource,
    test_prompt_with_image,
    code_review,
    summarize,
    greet,
    status_update,
    release_notes,
    deploy_notes,
    test_input_required_result_prompt,
];
