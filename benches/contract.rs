//! The catalog as a contract at 1,000 prompts: making the document from a
//! service, writing and reading it, and classifying the changes between
//! two (every tenth prompt changed: a choice removed, an argument made
//! required, one added). What `mcp-prompts catalog` and `diff` spend
//! beyond reading the folders.
//!
//! Run with `cargo bench --bench contract`.

use std::sync::OnceLock;

use mcp_prompts::contract::{Changes, Contract};
use mcp_prompts::{DynamicArgument, DynamicPrompt, Server, Service};

const PROMPTS: usize = 1_000;

/// A service of 1,000 prompts of three arguments each; `changed` alters
/// every tenth.
fn service(changed: bool) -> Service {
    let prompts = (0..PROMPTS).map(|at| {
        let altered = changed && at % 10 == 0;
        let tones: &[&str] = if altered {
            &["formal"]
        } else {
            &["formal", "casual"]
        };
        let mut arguments = vec![
            DynamicArgument::new("topic").description("What it is about"),
            DynamicArgument::new("tone")
                .optional()
                .choices(tones.iter().copied()),
            if altered {
                DynamicArgument::new("audience")
            } else {
                DynamicArgument::new("audience").optional()
            },
        ];
        if altered {
            arguments.push(DynamicArgument::new("length").optional());
        }
        let mut prompt = DynamicPrompt::builder(format!("prompt_{at:04}"))
            .title(format!("Prompt {at}"))
            .description("A prompt of the benchmark")
            .template("About {topic} for {audience}.");
        for argument in arguments {
            prompt = prompt.argument(argument);
        }
        prompt.build().expect("the prompt is valid")
    });
    Server::new("contract", "1.0")
        .prompts(prompts)
        .build()
        .expect("the catalog is valid")
}

fn services() -> &'static (Service, Service) {
    static SERVICES: OnceLock<(Service, Service)> = OnceLock::new();
    SERVICES.get_or_init(|| (service(false), service(true)))
}

fn main() {
    divan::main();
}

/// `catalog`: the document of 1,000 prompts, written.
#[divan::bench]
fn catalog_of_1000_prompts() -> String {
    Contract::of(&services().0).to_json()
}

/// Reading a committed catalog of 1,000 prompts back.
#[divan::bench]
fn read_a_catalog_of_1000_prompts(bencher: divan::Bencher) {
    let text = Contract::of(&services().0).to_json();
    bencher.bench(|| Contract::from_json(divan::black_box(&text)).expect("it reads"));
}

/// `diff`: two catalogs of 1,000 prompts, 100 of them changed.
#[divan::bench]
fn diff_of_1000_prompts(bencher: divan::Bencher) {
    let (old, new) = (Contract::of(&services().0), Contract::of(&services().1));
    bencher.bench(|| {
        let changes = Changes::between(divan::black_box(&old), divan::black_box(&new));
        assert_eq!(changes.breaking().len(), 200);
        changes
    });
}
