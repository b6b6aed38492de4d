//! The showcase catalog plus prompts that misbehave on purpose, served over
//! stdio for the integration tests. `FIXTURE_*` variables configure the
//! server (see `main`).

#[path = "../../examples/showcase/prompts.rs"]
mod showcase;

use std::time::Duration;

use std::sync::OnceLock;

use mcp_prompts::{
    CompletionInput, Content, DynamicArgument, DynamicPrompt, Elicited, Error, Json, LogLevel,
    Message, PromptArg, RequestContext, ResourceLink, Server, prompt,
};

/// Panics while building the prompt
#[prompt]
fn panics() -> String {
    panic!("the prompt broke")
}

/// Panics inside an async prompt
#[prompt]
async fn panics_async() -> String {
    tokio::task::yield_now().await;
    panic!("the async prompt broke")
}

/// Fails with an error
#[prompt]
fn fails() -> Result<String, Error> {
    Err(Error::internal("the backend is down"))
}

/// Fails with a standard error
#[prompt]
fn fails_io() -> Result<String, std::io::Error> {
    Err(std::io::Error::other("disk on fire"))
}

/// Sleeps before answering
#[prompt]
async fn slow(
    /// How long to sleep, in milliseconds
    ms: u64,
) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    format!("slept {ms}ms")
}

/// Returns audio content
#[prompt]
fn audio_clip() -> Message {
    Message::user(Content::audio([1u8, 2, 3], "audio/wav"))
}

/// Returns a resource link
#[prompt]
fn link() -> Message {
    Message::user(Content::resource_link(ResourceLink::new(
        "file:///a.txt",
        "a.txt",
    )))
}

/// Tells the request context
#[prompt]
fn whoami(ctx: RequestContext, who: Option<String>) -> String {
    ctx.log(LogLevel::Info, "whoami was called");
    format!(
        "{} asks request {} over {}",
        who.as_deref().unwrap_or("nobody"),
        ctx.request_id(),
        ctx.protocol_version()
    )
}

/// Parses every kind of scalar
#[prompt(name = "typed.args", title = "Typed")]
fn typed(
    flag: bool,
    letter: char,
    ratio: f64,
    list: Json<Vec<u32>>,
    small: Option<i8>,
    #[arg(default = -1)] offset: i32,
) -> String {
    let Json(list) = list;
    format!("{flag} {letter} {ratio} {list:?} {small:?} {offset}")
}

/// Repeats a text: a large response from a small request
#[prompt]
fn repeat(text: String, times: u32) -> String {
    text.repeat(times as usize)
}

/// Repeats a text after a pause, as an async prompt
#[prompt]
async fn repeat_later(text: String, times: u32) -> String {
    tokio::task::yield_now().await;
    text.repeat(times as usize)
}

/// Waits to be cancelled; a task it started says when it sees it
#[prompt]
async fn awaits_cancel(ctx: RequestContext) -> String {
    let watcher = ctx.clone();
    tokio::spawn(async move {
        watcher.cancelled().await;
        let seen = watcher.is_cancelled();
        watcher.log(LogLevel::Info, format!("cancelled: {seen}"));
    });
    tokio::time::sleep(Duration::from_secs(30)).await;
    "not cancelled".into()
}

/// Waits once, then says which thread it went on in
#[prompt]
async fn waits_then_says_where() -> String {
    tokio::task::yield_now().await;
    std::thread::current()
        .name()
        .unwrap_or("unnamed")
        .to_owned()
}

/// Waits to be cancelled, having asked at once whether it was
#[prompt]
async fn awaits_cancel_asked_at_once(ctx: RequestContext) -> String {
    // Asked in the first poll: the request must be in flight already, or
    // the context would remember it as one that cannot be cancelled.
    let at_once = ctx.is_cancelled();
    let watcher = ctx.clone();
    tokio::spawn(async move {
        watcher.cancelled().await;
        watcher.log(LogLevel::Info, format!("cancelled after {at_once}"));
    });
    tokio::time::sleep(Duration::from_secs(30)).await;
    "not cancelled".into()
}

/// Plans focus time: a date and a ranged number, described as written
#[prompt]
fn dated(
    /// The day
    day: chrono::NaiveDate,
    /// Hours of focus
    #[arg(range = 1..=8, default = 4)]
    hours: u8,
) -> String {
    format!("Focus {hours} h on {day}.")
}

/// The day `ask_day` asks for.
#[derive(mcp_prompts::PromptArgs)]
struct Day {
    /// The day
    day: chrono::NaiveDate,
}

/// Asks the user for a day
#[prompt]
async fn ask_day(ctx: RequestContext) -> Result<String, Error> {
    Ok(match ctx.elicit::<Day>("day", "Which day?").await? {
        Elicited::Accepted(Day { day }) => format!("On {day}."),
        _ => "No day.".to_owned(),
    })
}

/// The fixture's live catalog, for the prompts that change it.
static PROMPTS: OnceLock<mcp_prompts::Prompts> = OnceLock::new();

fn prompts() -> &'static mcp_prompts::Prompts {
    PROMPTS.get().expect("the catalog is live")
}

/// Disables the prompt `name` if it is served, else enables it
#[prompt]
fn toggle(name: String) -> String {
    let prompts = prompts();
    if prompts.served().contains(&name) {
        format!("disabled {name}: {}", prompts.disable(&name))
    } else {
        format!("enabled {name}: {}", prompts.enable(&name))
    }
}

/// A change to the catalog.
#[derive(Clone, Copy, Debug, PromptArg)]
enum Change {
    Add,
    Remove,
    Enable,
    Disable,
}

/// Applies `change` to the prompt `name` (`whoami` or `slow` for `add`)
#[prompt]
fn change(change: Change, name: String) -> Result<String, Error> {
    let prompts = prompts();
    let done = match change {
        Change::Add => {
            let def = match name.as_str() {
                "whoami" => whoami::PROMPT,
                "slow" => slow::PROMPT,
                _ => return Err(Error::invalid_params("only whoami and slow can be added")),
            };
            prompts.add(def).is_ok()
        }
        Change::Remove => prompts.remove(&name),
        Change::Enable => prompts.enable(&name),
        Change::Disable => prompts.disable(&name),
    };
    Ok(format!("{change:?} {name}: {done}"))
}

/// Changes the catalog six times in a row, ending where it began
#[prompt]
fn churn() -> String {
    for _ in 0..3 {
        prompts().disable("greet");
        prompts().enable("greet");
    }
    "churned".into()
}

/// Reports progress in `count` steps, answers, and tries once more after
#[prompt]
async fn steps(ctx: RequestContext, count: u32) -> String {
    for i in 1..=count {
        let step = f64::from(i);
        ctx.progress(step, Some(f64::from(count)), Some(&format!("step {i}")));
        // Not above the last value: dropped.
        ctx.progress(step, None, None);
        tokio::task::yield_now().await;
    }
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(50)).await;
        ctx.progress(f64::from(count + 1), None, Some("too late"));
    });
    format!("{count} steps")
}

/// Kept out of the prompt tools
#[prompt(as_tool = false, meta("com.example/kind" = "internal", "com.example/rank" = -2, "com.example/weight" = 0.5, "com.example/beta" = true))]
fn not_a_tool() -> String {
    "only through prompts/get".to_owned()
}

/// Asks the user for a tone
#[prompt]
async fn ask_tone(ctx: RequestContext) -> Result<String, Error> {
    Ok(
        match ctx.choose::<showcase::Tone>("tone", "Which tone?").await? {
            Elicited::Accepted(tone) => format!("tone: {tone}"),
            other => format!("no tone: {other:?}"),
        },
    )
}

/// Answers at once, then logs `count` messages of about 1 KB
#[prompt]
fn chatty(ctx: RequestContext, count: u32) -> String {
    tokio::spawn(async move {
        let filler = "x".repeat(1000);
        for i in 0..count {
            ctx.log(LogLevel::Info, format!("{i} {filler}"));
            if i % 1000 == 0 {
                tokio::task::yield_now().await;
            }
        }
    });
    "chatting".into()
}

/// Answers at once and logs a moment later, after its request is done
#[prompt]
fn notify_later(ctx: RequestContext) -> String {
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        ctx.log(LogLevel::Info, "done later");
    });
    "scheduled".into()
}

/// Completes after a pause: the typed text plus `-later`, and one value
/// that does not match, which the server ranks last.
async fn later_suggestions(input: CompletionInput) -> Vec<String> {
    tokio::time::sleep(Duration::from_millis(5)).await;
    vec!["other".to_owned(), format!("{}-later", input.value())]
}

fn broken_suggestions(_: &CompletionInput) -> Result<Vec<String>, Error> {
    Err(Error::internal("the suggestion index is down"))
}

fn explosive_suggestions(_: &CompletionInput) -> Vec<String> {
    panic!("the completer broke")
}

async fn explosive_later(_: CompletionInput) -> Vec<String> {
    tokio::task::yield_now().await;
    panic!("the async completer broke")
}

/// A thousand fixed values, `item0999` down to `item0000`.
fn many_items(_: &CompletionInput) -> &'static [&'static str] {
    static ITEMS: OnceLock<Vec<&'static str>> = OnceLock::new();
    ITEMS.get_or_init(|| {
        (0..1000)
            .rev()
            .map(|i| &*Box::leak(format!("item{i:04}").into_boxed_str()))
            .collect()
    })
}

/// Exercises every kind of completer
#[prompt]
#[allow(clippy::too_many_arguments)]
fn completes(
    #[arg(complete = later_suggestions)] later: Option<String>,
    #[arg(complete = broken_suggestions)] broken: Option<String>,
    #[arg(complete = explosive_suggestions)] explosive: Option<String>,
    #[arg(complete = explosive_later)] explosive_async: Option<String>,
    #[arg(complete = many_items)] many: Option<String>,
    #[arg(complete = ["alpha", "beta", "Alphabet"])] inline: Option<String>,
    flag: Option<bool>,
    #[arg(complete = ["yes please"])] overridden: Option<bool>,
    plain: Option<String>,
) -> String {
    format!(
        "{later:?} {broken:?} {explosive:?} {explosive_async:?} {many:?} {inline:?} {flag:?} {overridden:?} {plain:?}"
    )
}

/// `FIXTURE_CURRENT_THREAD` picks tokio's single-threaded runtime instead of
/// the multi-threaded one `#[tokio::main]` gives. Logs go to stderr,
/// filtered by `RUST_LOG` (errors by default).
/// Prompts built at run time, without macros: a closure with a completer
/// and choices, and one that panics with a secret in its message.
fn runtime_prompts() -> Vec<DynamicPrompt> {
    let echo = DynamicPrompt::builder("runtime_echo")
        .title("Runtime echo")
        .description("Echo a text, built at run time")
        .argument(
            DynamicArgument::new("text")
                .description("What to echo")
                .complete(|input: &CompletionInput| {
                    input
                        .matching(["alpha", "beta", "alphabet"])
                        .map(str::to_owned)
                        .collect::<Vec<_>>()
                }),
        )
        .argument(
            DynamicArgument::new("tone")
                .default("plain")
                .choices(["plain", "loud"]),
        )
        .async_handler(|args, ctx: RequestContext| async move {
            let text = args.get("text").unwrap_or_default();
            let text = match args.get("tone") {
                Some("loud") => text.to_uppercase(),
                _ => text.to_owned(),
            };
            format!("{text} ({})", ctx.protocol_version())
        })
        .build();
    let panics = DynamicPrompt::builder("runtime_panics")
        .description("Panics, with a secret in the message")
        .handler(|_, _| -> String {
            panic!("could not connect to postgres://admin:hunter2@db.internal/prod")
        })
        .build();
    [echo, panics]
        .into_iter()
        .map(|built| built.expect("the fixture's run-time prompts are valid"))
        .collect()
}

fn main() -> std::io::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("error")),
        )
        .init();
    let mut runtime = if std::env::var_os("FIXTURE_CURRENT_THREAD").is_some() {
        tokio::runtime::Builder::new_current_thread()
    } else {
        tokio::runtime::Builder::new_multi_thread()
    };
    runtime.enable_all().build()?.block_on(serve())
}

/// Two skills defined in code: one built with its files (a binary one
/// among them), and one generated, made anew at each read.
fn code_skills() -> (mcp_prompts::DynamicSkill, mcp_prompts::DynamicSkill) {
    let skill = mcp_prompts::DynamicSkill::builder("team/notes")
        .description("Take notes the team's way")
        .field("license", "MIT")
        .instructions("# Notes\n\nFollow `style.md`.\n")
        .file("style.md", "text/markdown", "Short lines.\n")
        .file("logo.png", "image/png", vec![0x89, b'P', b'N', b'G', 0xff])
        .build()
        .expect("the fixture's skill is valid");
    // Made anew at each read: the count of reads so far.
    let reads = std::sync::atomic::AtomicUsize::new(0);
    let generated = mcp_prompts::DynamicSkill::builder("team/tally")
        .description("How often this skill was read")
        .generated(move || {
            let n = reads.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            mcp_prompts::SkillContent::new(format!("# Tally\n\nRead {n} times.\n")).file(
                "count.txt",
                "text/plain",
                n.to_string(),
            )
        })
        .build()
        .expect("the fixture's generated skill is valid");
    (skill, generated)
}

async fn serve() -> std::io::Result<()> {
    fn env<T: std::str::FromStr>(name: &str) -> Option<T> {
        std::env::var(name).ok().and_then(|v| v.parse().ok())
    }
    // The showcase's catalog and every prompt registered here: the catalog's
    // prompts are registered too, and are served once.
    let mut server = Server::new("fixture", "1.0.0")
        .title("Fixture")
        .catalog(showcase::CATALOG)
        .translations(showcase::translations())
        .prompts(runtime_prompts())
        .include_registered();
    if let Some(limit) = env("FIXTURE_MAX_IN_FLIGHT") {
        server = server.max_in_flight(limit);
    }
    if std::env::var_os("FIXTURE_PROMPTS_AS_TOOLS").is_some() {
        server = server.prompts_as_tools();
    }
    if std::env::var_os("FIXTURE_RESOURCES").is_some() {
        server = server.serve_resources();
    }
    if std::env::var_os("FIXTURE_CODE_SKILL").is_some() {
        let (built, generated) = code_skills();
        server = server.skill(built).skill(generated);
    }
    if std::env::var_os("FIXTURE_SKILLS_AS_PROMPTS").is_some() {
        server = server.skills_as_prompts();
    }
    if std::env::var_os("FIXTURE_NO_ASK_MISSING").is_some() {
        server = server.ask_for_missing_arguments(false);
    }
    if let Some(size) = env("FIXTURE_PAGE_SIZE") {
        server = server.page_size(size);
    }
    if let Some(limit) = env("FIXTURE_MAX_MESSAGE_BYTES") {
        server = server.max_message_bytes(limit);
    }
    if let Some(limit) = env("FIXTURE_MAX_BATCH_RESPONSE_BYTES") {
        server = server.max_batch_response_bytes(limit);
    }
    if let Some(secret) = env::<String>("FIXTURE_STATE_SECRET") {
        server = server.request_state_secret(secret);
    }
    if let Some(limit) = env("FIXTURE_MAX_WAITING") {
        server = server.max_waiting_questions(limit);
    }
    if let Some(ms) = env("FIXTURE_QUESTION_TIMEOUT_MS") {
        server = server.question_timeout(Duration::from_millis(ms));
    }
    if let Some(dir) = env::<String>("FIXTURE_SKILLS_DIR") {
        server = server.skills_dir(dir);
    }
    if let Some(limit) = env("FIXTURE_MAX_UNSENT_BYTES") {
        server = server.max_unsent_bytes(limit);
    }
    // Live, so that prompts can change the catalog (`toggle`, `churn`).
    let (service, prompts) = server
        .build_live()
        .map_err(|err| std::io::Error::new(std::io::ErrorKind::InvalidInput, err))?;
    let _ = PROMPTS.set(prompts);
    let Some(addr) = env::<std::net::SocketAddr>("FIXTURE_HTTP") else {
        // SIGTERM ends the service as the end of stdin does, once the
        // requests in flight are answered.
        return service
            .serve_stdio_until(mcp_prompts::shutdown_signal())
            .await;
    };
    // Streamable HTTP, configured from the environment; the bound address
    // goes to stderr for the test to read.
    let mut options = mcp_prompts::HttpOptions::for_addr(addr);
    if std::env::var_os("FIXTURE_STATELESS").is_some() {
        options = options.stateless();
    }
    if std::env::var_os("FIXTURE_NO_STREAMS").is_some() {
        options = options.event_streams(false);
    }
    if let Some(ms) = env("FIXTURE_IDLE_MS") {
        options = options.session_idle_timeout(Duration::from_millis(ms));
    }
    if let Some(max) = env("FIXTURE_MAX_SESSIONS") {
        options = options.max_sessions(max);
    }
    if let Some(ms) = env("FIXTURE_EVICTION_GRACE_MS") {
        options = options.eviction_grace(Duration::from_millis(ms));
    }
    if let Some(ms) = env("FIXTURE_HEADER_TIMEOUT_MS") {
        options = options.header_timeout(Duration::from_millis(ms));
    }
    if let Some(ms) = env("FIXTURE_BODY_TIMEOUT_MS") {
        options = options.body_timeout(Duration::from_millis(ms));
    }
    if let Some(ms) = env("FIXTURE_WRITE_TIMEOUT_MS") {
        options = options.write_timeout(Duration::from_millis(ms));
    }
    if let Some(max) = env("FIXTURE_MAX_CONNECTIONS") {
        options = options.max_connections(max);
    }
    if let Some(ms) = env("FIXTURE_DRAIN_MS") {
        options = options.drain_delay(Duration::from_millis(ms));
    }
    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!("listening on http://{}/mcp", listener.local_addr()?);
    service
        .serve_http_on(listener, options, mcp_prompts::shutdown_signal())
        .await
}
