//! The test kit answers what prompts ask, as a user would, in both eras'
//! ways: a session's `elicitation/create`, and 2026-07-28's "input
//! required" rounds. Accepting, declining and cancelling; missing
//! arguments asked for; a closure that sees the question.

use mcp_prompts::testing::{Answer, Answers, Client};
use mcp_prompts::{Elicited, Error, PromptArgs, RequestContext, Server, Service, catalog, prompt};
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
