//! The test kit answers what prompts ask, as a user would, in both eras'
//! ways: a session's `elicitation/create`, and 2026-07-28's "input
//! required" rounds. Accepting, declining and cancelling; missing
//! arguments asked for; a closure that sees the question. And the
//! argument matrix: examples from `#[arg]`, run-time prompts and files,
//! asking prompts skipped or answered.

use mcp_prompts::testing::{Answer, Answers, Client};
use mcp_prompts::{
    DynamicArgument, DynamicPrompt, Elicited, Error, PromptArgs, RequestContext, Server, Service,
    catalog, prompt,
};
use serde_json::json;

#[derive(PromptArgs)]
struct Deployment {
    /// Where the service goes
    environment: String,
    /// Whether to deploy a canary first
    #[arg(default = false)]
    canary: bool,
}

/// Deployment notes, after asking where
#[prompt]
async fn deploy_notes(ctx: RequestContext, service: String) -> Result<String, Error> {
    let question = format!("Where is {service} being deployed?");
    Ok(
        match ctx.elicit::<Deployment>("deployment", &question).await? {
            Elicited::Accepted(d) => {
                format!("{service} to {} (canary: {}).", d.environment, d.canary)
            }
            Elicited::Declined => format!("{service}: declined."),
            _ => format!("{service}: no answer."),
        },
    )
}

/// Review code in a language
#[prompt]
fn review(language: String) -> String {
    format!("Review this {language} code.")
}

fn service() -> Service {
    Server::new("kit", "1.0")
        .catalog(catalog![deploy_notes, review])
        .build()
        .unwrap()
}

/// A session client and a stateless one, each answering with `answers`.
fn clients(service: &Service, answers: &Answers) -> [Client; 2] {
    [
        Client::new(service).answering(answers.clone()),
        Client::new(service).stateless().answering(answers.clone()),
    ]
}

#[tokio::test]
async fn accepted_declined_and_cancelled_in_both_eras() {
    let service = service();
    let accept = Answers::fields([("environment", json!("prod")), ("canary", json!(true))]);
    for (answers, expected) in [
        (accept, "db to prod (canary: true)."),
        (Answers::decline(), "db: declined."),
        (Answers::cancel(), "db: no answer."),
    ] {
        for client in clients(&service, &answers) {
            let got = client
                .get(("deploy_notes", [("service", "db")]))
                .await
                .unwrap();
            assert_eq!(got.texts(), [expected]);
        }
    }
}

#[tokio::test]
async fn a_missing_argument_is_asked_for_and_answered() {
    let service = service();
    let answers = Answers::fields([("language", json!("rust"))]);
    for client in clients(&service, &answers) {
        let got = client.get(("review", [])).await.unwrap();
        assert_eq!(got.texts(), ["Review this rust code."]);
    }
}

#[tokio::test]
async fn a_closure_sees_each_question() {
    let service = service();
    let answers = Answers::with(|question| {
        assert_eq!(question.message(), "Where is api being deployed?");
        assert_eq!(question.fields(), ["canary", "environment"]);
        let mut content = serde_json::Map::new();
        content.insert("environment".into(), json!("staging"));
        Answer::Accept(content)
    });
    for client in clients(&service, &answers) {
        let got = client
            .get(("deploy_notes", [("service", "api")]))
            .await
            .unwrap();
        assert_eq!(got.texts(), ["api to staging (canary: false)."]);
    }
}

#[tokio::test]
async fn without_answers_nobody_is_asked() {
    let service = service();
    // A session client that shows no forms: the prompt hears no answer.
    let session = Client::new(&service);
    let got = session
        .get(("deploy_notes", [("service", "db")]))
        .await
        .unwrap();
    assert_eq!(got.texts(), ["db: no answer."]);
    // A stateless one is told it would have to answer a missing argument.
    let stateless = Client::new(&service).stateless();
    let error = stateless.get(("review", [])).await.unwrap_err();
    assert_eq!(error.code(), Error::INVALID_PARAMS, "{error:?}");
}

/// Part of a file
#[prompt]
fn excerpt(
    /// Which file
    #[arg(example = "src/lib.rs")]
    path: String,
    /// How many lines
    #[arg(example = 3)]
    lines: Option<u8>,
    brief: bool,
) -> String {
    let lines = lines.map_or("all".to_owned(), |n| n.to_string());
    let how = if brief { "briefly" } else { "fully" };
    format!("Show {lines} lines of {path}, {how}.")
}

#[tokio::test]
async fn the_matrix_renders_the_authors_examples() {
    let service = Server::new("kit", "1.0")
        .catalog(catalog![excerpt])
        .build()
        .unwrap();
    let document = Client::new(&service).matrix("excerpt").await.unwrap();
    // One value for the path, the line count left out or given, both
    // booleans: four, each under its arguments.
    assert_eq!(
        document,
        "# excerpt: 4 combinations\n\
         \n## path=src/lib.rs brief=true\n\nuser: Show all lines of src/lib.rs, briefly.\n\
         \n## path=src/lib.rs brief=false\n\nuser: Show all lines of src/lib.rs, fully.\n\
         \n## path=src/lib.rs lines=3 brief=true\n\nuser: Show 3 lines of src/lib.rs, briefly.\n\
         \n## path=src/lib.rs lines=3 brief=false\n\nuser: Show 3 lines of src/lib.rs, fully.\n"
    );
}

/// Ping a host
#[prompt]
fn ping(host: std::net::IpAddr, count: Option<u16>) -> String {
    format!("Ping {host} {} times.", count.unwrap_or(1))
}

#[tokio::test]
async fn without_an_example_a_number_gets_a_number_and_other_types_a_hint() {
    let service = Server::new("kit", "1.0")
        .catalog(catalog![ping])
        .build()
        .unwrap();
    let document = Client::new(&service).matrix("ping").await.unwrap();
    // The integer is sent as one; the address's placeholder is refused,
    // and the document says how to show it with a value.
    assert_eq!(
        document,
        "# ping: 2 combinations\n\
         \n## host=<host>\n\n\
         refused (-32602): invalid value for argument `host`: expected an IP address (invalid IP address syntax)\n\
         (give `host` an example: `#[arg(example = ..)]`, or `example` in its file)\n\
         \n## host=<host> count=3\n\n\
         refused (-32602): invalid value for argument `host`: expected an IP address (invalid IP address syntax)\n\
         (give `host` an example: `#[arg(example = ..)]`, or `example` in its file)\n"
    );
}

#[tokio::test]
async fn run_time_and_file_prompts_give_examples_too() {
    let built = DynamicPrompt::builder("greet")
        .argument(DynamicArgument::new("who").example("Ada"))
        .argument(DynamicArgument::new("place"))
        .template("Hello {who} from {place}.")
        .build()
        .unwrap();
    let file = "+++\n[[arguments]]\nname = \"topic\"\nexample = \"tides\"\n\n[[arguments]]\nname = \"tone\"\nrequired = false\nexample = \"dry\"\nchoices = [\"dry\", \"warm\"]\n+++\nWrite about {topic}{tone}.";
    let filed = DynamicPrompt::from_prompt_file("essay", file).unwrap();
    let service = Server::new("kit", "1.0")
        .prompts([built, filed])
        .build()
        .unwrap();
    let client = Client::new(&service);
    let greet = client.matrix("greet").await.unwrap();
    assert!(
        greet.contains("## who=Ada place=<place>\n\nuser: Hello Ada from <place>.\n"),
        "{greet}"
    );
    // A choice argument goes through its choices; its example changes
    // nothing.
    let essay = client.matrix("essay").await.unwrap();
    assert!(essay.starts_with("# essay: 3 combinations\n"), "{essay}");
    assert!(essay.contains("## topic=tides tone=warm\n"), "{essay}");

    // An example outside the choices is the file's problem, on its line.
    let wrong = file.replace("example = \"dry\"", "example = \"wet\"");
    let problem = DynamicPrompt::from_prompt_file("essay", &wrong).unwrap_err();
    assert!(
        problem
            .message
            .contains("example `wet` of argument `tone` is not one of its choices"),
        "{problem:?}"
    );
    assert_eq!(problem.line, Some(6));
}

#[tokio::test]
async fn an_asking_prompt_is_rendered_as_answered_or_unasked() {
    let service = service();
    // Without answers the client shows no forms, as a host that cannot
    // ask: the document holds what the prompt says then.
    for client in [Client::new(&service), Client::new(&service).stateless()] {
        let unasked = client.matrix("deploy_notes").await.unwrap();
        assert!(
            unasked.contains("## service=<service>\n\nuser: <service>: no answer.\n"),
            "{unasked}"
        );
    }
    let answers = Answers::fields([("environment", json!("prod"))]);
    for client in clients(&service, &answers) {
        let answered = client.matrix("deploy_notes").await.unwrap();
        assert!(
            answered.contains("user: <service> to prod (canary: false).\n"),
            "{answered}"
        );
    }
}
