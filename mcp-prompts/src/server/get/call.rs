//! One call of a prompt, with what its context is made of: a `#[prompt]`
//! through its generated glue, a run-time prompt through its handler or
//! template, either under the panic guard.

use std::future::poll_fn;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::Poll;

use serde_json::value::RawValue;

use super::missing::{MissingForm, fill_missing};
use super::{Answering, GetOutcome, Round, Site, checked_outcome};
use crate::catalog::AnyPrompt;
use crate::context::{Asking, InputRound, Progress, RequestParts};
use crate::error::Error;
use crate::invoke::Invocation;
use crate::invoke::catching::CatchPanic;
use crate::message::PromptResult;
use crate::protocol::language::Language;
use crate::protocol::{Arguments, ProtocolVersion};
use crate::server::Service;
use crate::server::now_or_later::{Later, NowOrLater, PolledOnce, poll_once};

/// One call of the prompt a `prompts/get` found, where the request runs.
pub(super) struct Call<'a> {
    pub(super) site: Site<'a>,
    pub(super) prompt: AnyPrompt,
    pub(super) asking: Asking,
    /// The server's limit on the result's text.
    pub(super) max_result_bytes: usize,
    /// The language it answers in.
    pub(super) answering: Answering<'a>,
}

/// A call's parts that finishing it needs, owned.
struct CallParts {
    id: Box<RawValue>,
    /// The language the result names, if any.
    language: Option<Language>,
    prompt: AnyPrompt,
    version: ProtocolVersion,
    progress: Option<Arc<Progress>>,
}

impl CallParts {
    /// The outcome of the prompt's `result`, checked against `service`'s
    /// limits.
    fn outcome(
        self,
        result: Result<PromptResult, Error>,
        service: &Service,
    ) -> Result<GetOutcome, Error> {
        checked_outcome(
            (&self.id, self.language),
            self.prompt,
            (self.version, service.limits().result_bytes),
            self.progress.as_deref(),
            result,
        )
    }

    /// The run ended with `questions` asked: its progress ends, and the
    /// client is told what to answer.
    fn input_required(
        self,
        round: &Round,
        questions: Vec<(String, serde_json::Value)>,
        service: &Service,
    ) -> Result<GetOutcome, Error> {
        if let Some(progress) = &self.progress {
            progress.stop();
        }
        round.input_required(&service.0, (&self.prompt, self.language), questions)
    }
}

/// What calling a prompt gave: its result now, or a guarded future of it.
pub(super) type Called = NowOrLater<Result<PromptResult, Error>>;

impl Call<'_> {
    pub(super) fn run(&self, arguments: &Arguments<'_>) -> Called {
        let made = AtomicBool::new(false);
        let request = RequestParts::new(
            (self.site.id, self.site.era),
            &self.asking,
            self.site.progress.as_ref(),
            (self.site.outbound, self.site.sender),
            self.max_result_bytes,
            self.answering.language(),
        )
        .noting_context(&made);
        let culprit = self.prompt.culprit("prompt");
        let called = self
            .prompt
            .invoke(arguments, request, self.max_result_bytes, &culprit);
        match called {
            Err(error) => NowOrLater::Now(Err(error)),
            Ok(Invocation::Ready(result)) => NowOrLater::Now(result),
            Ok(Invocation::Pending(future)) => {
                let mut guarded = CatchPanic::new(culprit, future);
                // A prompt with no context cannot tell whether it is
                // cancelled: one ready at its first poll (most are) is
                // answered now, never put in flight or boxed again. One
                // with a context is in flight before its first poll, so
                // that it can watch for its cancellation from the start.
                if made.load(Ordering::Relaxed) {
                    return NowOrLater::later(guarded);
                }
                match poll_once(&mut guarded) {
                    Some(result) => NowOrLater::Now(result),
                    None => NowOrLater::later(PolledOnce::new(guarded)),
                }
            }
        }
    }

    /// What finishing the call needs once it has moved into a future.
    fn finishing(self) -> CallParts {
        CallParts {
            id: self.site.id.to_owned(),
            language: self.answering.named(),
            prompt: self.prompt,
            version: self.site.era.version(),
            progress: self.site.progress,
        }
    }

    /// The outcome of a prompt that has returned.
    pub(super) fn outcome(self, result: Result<PromptResult, Error>) -> Result<GetOutcome, Error> {
        let version = self.site.era.version();
        checked_outcome(
            (self.site.id, self.answering.named()),
            self.prompt,
            (version, self.max_result_bytes),
            self.site.progress.as_deref(),
            result,
        )
    }

    /// The outcome of a prompt still running, once it returns.
    pub(super) fn finish_later(
        self,
        future: Later<Result<PromptResult, Error>>,
        service: Service,
    ) -> Later<Result<GetOutcome, Error>> {
        let finishing = self.finishing();
        Box::pin(async move { finishing.outcome(future.await, &service) })
    }

    /// A stateless run of a prompt that waits: it runs until it finishes,
    /// or waits with questions asked; then the run ends, and the client is
    /// told what to answer.
    pub(super) fn finish_or_ask(
        self,
        mut future: Later<Result<PromptResult, Error>>,
        (round, input): (Round, Arc<InputRound>),
        service: Service,
    ) -> Later<Result<GetOutcome, Error>> {
        let finishing = self.finishing();
        Box::pin(async move {
            let outcome = poll_fn(|cx| match future.as_mut().poll(cx) {
                Poll::Ready(result) => Poll::Ready(Ok(result)),
                Poll::Pending => match input.questions(cx.waker()) {
                    questions if questions.is_empty() => Poll::Pending,
                    questions => Poll::Ready(Err(questions)),
                },
            })
            .await;
            input.close();
            drop(future);
            match outcome {
                Ok(result) => finishing.outcome(result, &service),
                Err(questions) => {
                    let round = Round {
                        answers: input.answers().clone(),
                        ..round
                    };
                    finishing.input_required(&round, questions, &service)
                }
            }
        })
    }

    /// In a session: asks the client for the `missing` arguments with
    /// `form`, then calls the prompt with them.
    pub(super) fn ask_then_run(
        self,
        arguments: Arguments<'_>,
        missing: &[&str],
        form: MissingForm,
    ) -> Later<Result<GetOutcome, Error>> {
        let id = self.site.id.to_owned();
        let (outbound, sender) = (self.site.outbound.clone(), self.site.sender.clone());
        let (default, chosen) = self.answering.owned();
        let Self {
            site: Site { era, progress, .. },
            prompt,
            asking,
            max_result_bytes,
            ..
        } = self;
        let arguments = arguments.into_owned();
        let missing: Vec<String> = missing.iter().map(|&name| name.to_owned()).collect();
        Box::pin(async move {
            let missing: Vec<&str> = missing.iter().map(String::as_str).collect();
            let asked = form.ask(&outbound, sender.backchannel(), prompt.name(), &missing);
            let filled = asked
                .await
                .and_then(|answer| fill_missing(arguments, answer, prompt.name(), &missing));
            let arguments = filled?;
            let site = Site {
                id: &id,
                era,
                progress,
                outbound: &outbound,
                sender: &sender,
            };
            let call = Call {
                site,
                prompt,
                asking,
                max_result_bytes,
                answering: Answering {
                    default: &default,
                    chosen,
                },
            };
            match call.run(&arguments) {
                NowOrLater::Now(result) => call.outcome(result),
                NowOrLater::Later(future) => {
                    let result = future.await;
                    call.outcome(result)
                }
            }
        })
    }
}
