//! Asking the user for input from inside a prompt, one API for both eras:
//! a session whose client can elicit gets an `elicitation/create` request
//! and the prompt waits for the answer; a stateless (2026-07-28) request
//! ends its run with "input required" and the prompt runs again, from the
//! start, when the client retries with the answers.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::Waker;

use serde_json::Value;

use super::RequestContext;
use crate::Error;
use crate::args::param::{invalid_value, missing_arguments};
use crate::args::{Input, PromptArg, PromptArgs, PromptParam};
use crate::catalog::ArgInfo;
use crate::descriptor::{ArgDef, PromptDef};
use crate::protocol::elicitation::{Answer, create_params, form_schema, read_answer};

/// What the user did with a form a prompt asked them to fill in
/// ([`RequestContext::elicit`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Elicited<T> {
    /// The user submitted the form; its values, parsed and checked as
    /// prompt arguments are.
    Accepted(T),
    /// The user said no.
    Declined,
    /// The user dismissed the form without choosing.
    Cancelled,
    /// Nobody was asked: the client cannot show forms (it declared no
    /// `elicitation` capability), or as many of the connection's requests
    /// as the server allows already wait for answers
    /// ([`Server::max_waiting_questions`](crate::Server::max_waiting_questions)).
    Unsupported,
}

/// How a request can ask its client's user for input.
#[derive(Clone)]
pub(crate) enum Asking {
    /// It cannot: the client declared no form elicitation.
    Unable,
    /// By sending `elicitation/create` on its session and waiting.
    Client,
    /// By ending the run with the questions (stateless requests).
    Rounds(Arc<InputRound>),
}

/// One run of a stateless request: the answers it came with (from
/// `inputResponses` and its request state), and the questions asked in it
/// that have no answer yet.
#[derive(Default)]
pub(crate) struct InputRound {
    answers: HashMap<String, Value>,
    asked: Mutex<Asked>,
}

/// The questions of a round, and who to wake when one is asked.
#[derive(Default)]
struct Asked {
    questions: Vec<(String, Value)>,
    /// The run waiting for the prompt, woken by a question asked from
    /// another task than the prompt's own.
    waker: Option<Waker>,
    /// The round has been answered: no more questions.
    finished: bool,
}

impl InputRound {
    pub(crate) fn new(answers: HashMap<String, Value>) -> Self {
        Self {
            answers,
            asked: Mutex::default(),
        }
    }

    pub(crate) fn answer(&self, key: &str) -> Option<&Value> {
        self.answers.get(key)
    }

    pub(crate) fn answers(&self) -> &HashMap<String, Value> {
        &self.answers
    }

    /// Records a question (an `elicitation/create` request) under `key`;
    /// false once the round has been answered.
    pub(crate) fn ask(&self, key: &str, request: Value) -> bool {
        let mut asked = self.asked();
        if asked.finished {
            return false;
        }
        if !asked.questions.iter().any(|(k, _)| k == key) {
            asked.questions.push((key.to_owned(), request));
        }
        if let Some(waker) = asked.waker.take() {
            waker.wake();
        }
        true
    }

    /// The questions asked so far; `waker` is woken by the next one.
    pub(crate) fn questions(&self, waker: &Waker) -> Vec<(String, Value)> {
        let mut asked = self.asked();
        asked.waker = Some(waker.clone());
        asked.questions.clone()
    }

    /// The round is answered: questions asked from now on fail.
    pub(crate) fn finish(&self) {
        let mut asked = self.asked();
        asked.finished = true;
        asked.waker = None;
    }

    fn asked(&self) -> std::sync::MutexGuard<'_, Asked> {
        self.asked.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl RequestContext {
    /// Asks the user to fill in the form `T`, a
    /// [`#[derive(PromptArgs)]`](derive@crate::PromptArgs) struct: each
    /// field becomes a form field (its type decides the kind: text, a
    /// number within the type's range, a yes/no, a choice of a choice
    /// enum's values; its doc comment the description; its default the
    /// initial value), and the answer is parsed and checked as prompt
    /// arguments are. `key` names the question, unique within the prompt.
    ///
    /// Only an `async` prompt can ask. On a stateless 2026-07-28 request,
    /// the first run of the prompt stops here, the client is told what to
    /// ask, and the prompt runs again from the start with the answer;
    /// anything it does before asking must be safe to repeat. A client
    /// that cannot show forms gets no question: the answer is
    /// [`Elicited::Unsupported`]. A question left unanswered past
    /// [`Server::question_timeout`](crate::Server::question_timeout) is
    /// withdrawn and reads as [`Elicited::Declined`].
    ///
    /// ```
    /// use mcp_prompts::{Elicited, PromptArg, PromptArgs, RequestContext, prompt};
    ///
    /// #[derive(PromptArg)]
    /// #[prompt_arg(rename_all = "lowercase")]
    /// enum Environment { Staging, Production }
    ///
    /// #[derive(PromptArgs)]
    /// struct Target {
    ///     /// Target environment
    ///     environment: Environment,
    /// }
    ///
    /// /// Draft deployment notes
    /// #[prompt]
    /// async fn deploy(ctx: RequestContext, service: String) -> Result<String, mcp_prompts::Error> {
    ///     let question = format!("Where is {service} being deployed?");
    ///     Ok(match ctx.elicit::<Target>("target", &question).await? {
    ///         Elicited::Accepted(target) => format!("Notes for {service} on {}", target.environment),
    ///         _ => format!("Generic notes for {service}"),
    ///     })
    /// }
    /// ```
    pub async fn elicit<T: PromptArgs>(
        &self,
        key: &str,
        message: &str,
    ) -> Result<Elicited<T>, Error> {
        let params = create_params(
            message,
            &form_schema(T::ARGS.iter().map(ArgInfo::from), self.version),
        );
        let Some(answer) = self.ask(key, params).await? else {
            return Ok(Elicited::Unsupported);
        };
        Ok(match read_answer(&answer)? {
            Answer::Declined => Elicited::Declined,
            Answer::Cancelled => Elicited::Cancelled,
            Answer::Accepted(arguments) => {
                let def = PromptDef::form(T::ARGS);
                let input = Input {
                    def: &def,
                    arguments: &arguments,
                    request: self.parts(),
                };
                Elicited::Accepted(T::bind_args(&input)?)
            }
        })
    }

    /// Asks the user to pick one value of `T`, a
    /// [`#[derive(PromptArg)]`](derive@crate::PromptArg) choice enum (or
    /// any argument type): a form of one field, `choice`. Otherwise as
    /// [`elicit`](Self::elicit).
    ///
    /// ```
    /// use mcp_prompts::{Elicited, PromptArg, RequestContext, prompt};
    ///
    /// #[derive(PromptArg)]
    /// enum Depth { Quick, Thorough }
    ///
    /// /// Review the change
    /// #[prompt]
    /// async fn review(ctx: RequestContext) -> Result<String, mcp_prompts::Error> {
    ///     Ok(match ctx.choose::<Depth>("depth", "How deep should the review go?").await? {
    ///         Elicited::Accepted(depth) => format!("Review the change, {depth}."),
    ///         _ => "Review the change.".to_owned(),
    ///     })
    /// }
    /// ```
    pub async fn choose<T: PromptArg>(
        &self,
        key: &str,
        message: &str,
    ) -> Result<Elicited<T>, Error> {
        let field = ArgDef {
            name: CHOICE,
            title: None,
            description: None,
            default: None,
            ty: <T as PromptParam>::TYPE,
            complete: None,
        };
        let params = create_params(message, &form_schema([ArgInfo::from(&field)], self.version));
        let Some(answer) = self.ask(key, params).await? else {
            return Ok(Elicited::Unsupported);
        };
        Ok(match read_answer(&answer)? {
            Answer::Declined => Elicited::Declined,
            Answer::Cancelled => Elicited::Cancelled,
            Answer::Accepted(arguments) => match arguments.get(CHOICE) {
                Some(value) => Elicited::Accepted(
                    T::parse_arg(value).map_err(|reason| invalid_value(&field, &reason))?,
                ),
                None => return Err(missing_arguments("form", &[CHOICE])),
            },
        })
    }

    /// Asks the question `params` (an `elicitation/create` request's) under
    /// `key`; the client's `ElicitResult`, or `None` if it cannot be asked.
    async fn ask(&self, key: &str, params: Value) -> Result<Option<Value>, Error> {
        match &self.asking {
            Asking::Unable => Ok(None),
            // Not sent (no stream can carry it now): nobody can answer.
            Asking::Client => {
                self.outbound
                    .request("elicitation/create", &params, self.route.as_ref())
                    .await
            }
            Asking::Rounds(round) => match round.answer(key) {
                Some(answer) => Ok(Some(answer.clone())),
                None => {
                    let request =
                        serde_json::json!({ "method": "elicitation/create", "params": params });
                    if !round.ask(key, request) {
                        return Err(Error::internal(
                            "the request has been answered: it can ask no more questions",
                        ));
                    }
                    // The run ends here: the server answers "input
                    // required" and drops this future.
                    std::future::pending().await
                }
            },
        }
    }
}

/// The one field of a [`RequestContext::choose`] form.
const CHOICE: &str = "choice";
