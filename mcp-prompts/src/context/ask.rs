//! Asking the user for input from inside a prompt, one API for both eras:
//! a session whose client can elicit gets an `elicitation/create` request
//! and the prompt waits for the answer; a stateless (2026-07-28) request
//! ends its run with "input required" and the prompt runs again, from the
//! start, when the client retries with the answers.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::task::Waker;

use serde_json::Value;

use super::RequestContext;
use crate::error::Error;
use crate::sync::lock;

/// How a request can ask its client's user for input.
#[derive(Clone)]
pub(crate) enum Asking {
    /// It cannot, for the reason given (the client declared no form
    /// elicitation, or its revision has none).
    Unable(&'static str),
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
    pub(crate) fn close(&self) {
        let mut asked = self.asked();
        asked.finished = true;
        asked.waker = None;
    }

    fn asked(&self) -> std::sync::MutexGuard<'_, Asked> {
        lock(&self.asked)
    }
}

impl RequestContext {
    /// Asks the question `params` (an `elicitation/create` request's) under
    /// `key`; the client's `ElicitResult`, or `None` if it cannot be asked.
    pub(crate) async fn ask(&self, key: &str, params: Value) -> Result<Option<Value>, Error> {
        match &self.asking {
            Asking::Unable(why) => {
                tracing::debug!(question = key, why, "the prompt's question is not asked");
                Ok(None)
            }
            // Not sent (no stream can carry it now): nobody can answer.
            Asking::Client => {
                let mut params = params;
                let span = crate::telemetry::outgoing("elicitation/create", &mut params);
                let asked = self.outbound.elicit(params, self.route.as_ref());
                let answered = tracing::Instrument::instrument(asked, span.clone()).await;
                if let Err(error) = &answered {
                    crate::telemetry::outgoing_failed(&span, error.code());
                }
                answered
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
