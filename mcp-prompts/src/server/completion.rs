//! `completion/complete`: finds the argument's completer, runs it, and
//! shapes the values (prefix filter or ranking, the 100 cap, `total`,
//! `hasMore`).

use std::borrow::Cow;

use crate::caller::Access;

use serde::Serialize;

use super::Service;
use super::handler::{Handled, Handler, Handling};
use super::methods::unknown_prompt;
use super::now_or_later::NowOrLater;
use crate::catalog::{AnyPrompt, ArgCompletion};
use crate::complete::{MAX_VALUES, Matches, fold, rank, starts_with_folded};
use crate::descriptor::{CompletionCall, CompletionInput};
use crate::error::{Error, excerpt};
use crate::invoke::catching::{CatchPanic, PanicSite, call_catching};
use crate::protocol::ProtocolVersion;
use crate::protocol::answer::Answer;
use crate::protocol::method::CompletionComplete;
use crate::protocol::params::CompleteParams;

/// What is being completed, whichever way the request arrived.
pub(crate) struct Query<'a> {
    /// `ref/prompt` (a prompt's name) or `ref/resource` (a URI template).
    reference: Reference<'a>,
    argument: &'a str,
    value: &'a str,
    /// The arguments the user already filled in.
    filled: Vec<(String, String)>,
    /// Who asks: a prompt hidden from them completes as an unknown one.
    access: &'a Access,
}

impl<'a> Query<'a> {
    /// Completing `argument` of `reference`, `value` typed so far, the
    /// arguments `filled` in already, for `access`.
    pub(crate) fn new(
        reference: Reference<'a>,
        (argument, value): (&'a str, &'a str),
        filled: Vec<(String, String)>,
        access: &'a Access,
    ) -> Self {
        Self {
            reference,
            argument,
            value,
            filled,
            access,
        }
    }
}

pub(crate) enum Reference<'a> {
    Prompt(&'a str),
    Resource(&'a str),
}

/// Completion values found: at most [`MAX_VALUES`] of them are sent,
/// with how many there were. A fixed list's values are borrowed, not
/// copied.
pub(crate) struct Completion(Matches<Cow<'static, str>>);

/// Completion values, now or later.
pub(crate) type Completed = NowOrLater<Result<Completion, Error>>;

impl Answer for Completion {
    fn body(&self, _: ProtocolVersion) -> impl Serialize + '_ {
        // Written from the same view the rmcp adapter converts.
        let (values, has_more, total) = self.shown();
        CompleteResult {
            completion: CompletionValues {
                values,
                total,
                has_more,
            },
        }
    }
}

impl Completion {
    /// Values a completer found (its own, or shaped from its list).
    fn found(found: Matches<String>) -> Self {
        Self(found.map(Cow::Owned))
    }

    /// The values sent, whether more were found, and how many.
    pub(crate) fn shown(&self) -> (&[Cow<'static, str>], bool, usize) {
        let found = &self.0;
        let values = &found.values()[..found.values().len().min(MAX_VALUES)];
        (values, found.total() > values.len(), found.total())
    }
}

impl Handler for CompletionComplete {
    type Result = Completion;

    fn handle<'a>(cx: &Handling<'a>, p: CompleteParams<'a>) -> Handled<Completion> {
        complete(cx, &p).into()
    }
}

/// `completion/complete`, read from its params.
fn complete(cx: &Handling<'_>, p: &CompleteParams<'_>) -> Completed {
    let reference = match (p.reference_kind(), p.reference_name(), p.reference_uri()) {
        ("ref/prompt", Some(name), _) => Reference::Prompt(name),
        ("ref/resource", _, Some(uri)) => Reference::Resource(uri),
        ("ref/prompt", None, _) => {
            return NowOrLater::Now(Err(Error::invalid_params("`ref/prompt` needs a `name`")));
        }
        ("ref/resource", _, None) => {
            return NowOrLater::Now(Err(Error::invalid_params("`ref/resource` needs a `uri`")));
        }
        (other, _, _) => {
            return NowOrLater::Now(Err(Error::invalid_params(format!(
                "unknown reference type `{}`: expected `ref/prompt` or `ref/resource`",
                excerpt(other)
            ))));
        }
    };
    let filled = p
        .filled()
        .map(|arguments| {
            arguments
                .iter()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect()
        })
        .unwrap_or_default();
    let typed = (p.argument_name(), p.argument_value());
    let query = Query::new(reference, typed, filled, cx.access());
    query.complete(cx.service())
}

impl Query<'_> {
    /// Completes an argument of a prompt or a resource template; the
    /// transport-neutral core of `completion/complete`.
    pub(crate) fn complete(&self, service: &Service) -> Completed {
        let inner = &service.0;
        let input = |prompt: Option<&AnyPrompt>, uri: Option<&str>| {
            let reference = (
                prompt.and_then(AnyPrompt::static_def),
                prompt.map(|p| p.name().to_owned()),
                uri.map(str::to_owned),
            );
            let (argument, value) = (self.argument.to_owned(), self.value.to_owned());
            CompletionInput::new(reference, argument, value, self.filled.clone())
        };
        let typed = self.value;
        match self.reference {
            Reference::Prompt(name) => {
                let served = service.snapshot();
                let Some(entry) = served.get(name, self.access) else {
                    return NowOrLater::Now(Err(unknown_prompt(name)));
                };
                let culprit = entry.prompt().culprit("completer of prompt");
                match entry.completion(self.argument) {
                    None | Some(ArgCompletion::Nothing) => {
                        NowOrLater::Now(Ok(Completion(Matches::none())))
                    }
                    Some(ArgCompletion::Index(index)) => {
                        let found = index.complete(typed);
                        NowOrLater::Now(Ok(Completion(found.map(Cow::Borrowed))))
                    }
                    Some(ArgCompletion::Choices(choices)) => {
                        // As an enum's choices: matches only, exact first.
                        let folded = fold(typed);
                        let matching = choices
                            .iter()
                            .filter(|c| starts_with_folded(c, &folded))
                            .cloned()
                            .collect();
                        NowOrLater::Now(Ok(Completion::found(rank(matching, typed))))
                    }
                    Some(ArgCompletion::Call(call)) => {
                        let input = input(Some(entry.prompt()), None);
                        run_completer(service, culprit, input, *call)
                    }
                    Some(ArgCompletion::Dyn(completer)) => {
                        let input = input(Some(entry.prompt()), None);
                        let completer = completer.clone();
                        run_completer(service, culprit, input, move |i| completer.call(i))
                    }
                }
            }
            Reference::Resource(uri) => {
                let Some(resources) = &inner.resources else {
                    return NowOrLater::Now(Err(Error::invalid_params(format!(
                        "no resource templates are served, so `{}` cannot be completed",
                        excerpt(uri)
                    ))
                    .with_detail("uri", excerpt(uri))));
                };
                let resources = resources.clone();
                let culprit = PanicSite::new("completer of", "resource templates");
                run_completer(service, culprit, input(None, Some(uri)), move |i| {
                    resources.call(i)
                })
            }
        }
    }
}

/// Runs a completer, catching panics, and shapes its values.
fn run_completer(
    service: &Service,
    culprit: PanicSite,
    input: CompletionInput,
    call: impl FnOnce(CompletionInput) -> CompletionCall,
) -> Completed {
    let typed = input.value().to_owned();
    let service = service.clone();
    let shape = move |source| Completion::found(service.0.static_indexes.matches(source, &typed));
    match call_catching(&culprit, || Ok(call(input))) {
        Err(error) => NowOrLater::Now(Err(error)),
        Ok(CompletionCall::Ready(outcome)) => NowOrLater::Now(outcome.map(shape)),
        Ok(CompletionCall::Pending(future)) => {
            let future = CatchPanic::new(culprit, future);
            NowOrLater::later(async move { future.await.map(shape) })
        }
    }
}

/// A `completion/complete` result: at most [`MAX_VALUES`] of the values
/// found, with how many there were.
#[derive(Serialize)]
struct CompleteResult<'a, T> {
    completion: CompletionValues<'a, T>,
}

#[derive(Serialize)]
struct CompletionValues<'a, T> {
    values: &'a [T],
    total: usize,
    #[serde(rename = "hasMore")]
    has_more: bool,
}
