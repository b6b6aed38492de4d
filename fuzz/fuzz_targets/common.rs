//! What every target shares: a few prompts (sync, async that waits, with a
//! choice argument, one that asks the user for input) and the runtime
//! futures run on. Each target uses part.
#![allow(dead_code)]

use std::sync::OnceLock;

use mcp_prompts::{Elicited, Error, PromptArg, PromptArgs, RequestContext, Server, Service, prompt};

#[derive(Debug, PartialEq, PromptArg)]
pub enum Tone {
    Formal,
    #[prompt_arg(alias = "relaxed")]
    Casual,
}

/// Echoes its arguments
#[prompt]
fn echo(text: String, count: Option<u8>, tone: Option<Tone>) -> String {
    format!("{text} {count:?} {tone:?}")
}

/// Waits, then answers
#[prompt]
async fn later(text: String, #[arg(default = 2)] times: u8) -> String {
    tokio::task::yield_now().await;
    text.repeat(times.into())
}

/// What `asks` asks for.
#[derive(PromptArgs)]
pub struct Form {
    pub name: String,
    #[arg(default = 3)]
    pub count: u8,
    pub tone: Option<Tone>,
}

/// Asks the user to fill in a form, then answers
#[prompt]
async fn asks(ctx: RequestContext, topic: String) -> Result<String, Error> {
    Ok(match ctx.elicit::<Form>("form", "Fill it in").await? {
        Elicited::Accepted(form) => format!("{topic} {} {} {:?}", form.name, form.count, form.tone),
        Elicited::Declined => format!("{topic} declined"),
        Elicited::Cancelled => format!("{topic} cancelled"),
        Elicited::Unsupported => format!("{topic} unasked"),
    })
}

/// Renders a template
#[prompt(template = "Say {text}\n--- assistant\nSaid {text}")]
fn templated(text: String);

pub fn service() -> &'static Service {
    static SERVICE: OnceLock<Service> = OnceLock::new();
    SERVICE.get_or_init(|| Server::new("fuzz", "1.0").build().unwrap())
}

pub fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    })
}
