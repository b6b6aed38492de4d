//! `prompts/get`: checks the arguments, asks the user for missing ones
//! where the client can show a form, binds them and calls the prompt. On a
//! stateless request, a prompt that asks for input ends its run with an
//! "input required" result, and runs again when the client retries with
//! the answers.

use std::borrow::Cow;
use std::collections::HashMap;
use std::future::{Future, poll_fn};
use std::sync::Arc;
use std::task::Poll;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use tokio::sync::mpsc;

use super::guard::{CatchPanic, Culprit, call_catching};
use super::handlers::{params, unknown_prompt};
use super::request_state::{Opened, StateKey, fingerprint};
use super::{Era, Inner, Reply, Session};
use crate::args::param::missing_arguments;
use crate::catalog::{AnyPrompt, Kind};
use crate::context::{Asking, InputRound, Outbound, Progress, RequestParts};
use crate::descriptor::Input;
use crate::dynamic::{ArgumentValues, Handler};
use crate::elicit::form::{Answer, create_params, form_schema, read_answer};
use crate::error::Error;
use crate::invoke::Invocation;
use crate::message::PromptResult;
use crate::protocol::jsonrpc::{failure, success};
use crate::protocol::modern::ModernMeta;
use crate::protocol::{Arguments, ProtocolVersion, cow_str};

/// The question under which missing arguments are asked for.
/// Namespaced, so that it cannot be the key of a prompt's own question.
const MISSING_ARGUMENTS: &str = "mcp-prompts/missing-arguments";

#[derive(Deserialize)]
struct GetParams<'a> {
    #[serde(borrow, deserialize_with = "cow_str")]
    name: Cow<'a, str>,
    #[serde(default, borrow)]
    arguments: Arguments<'a>,
    /// 2026-07-28: the answers to the questions of the previous round.
    #[serde(rename = "inputResponses", default)]
    input_responses: Option<HashMap<String, Value>>,
    /// 2026-07-28: the state the previous round handed the client.
    #[serde(rename = "requestState", default)]
    request_state: Option<String>,
    #[serde(rename = "_meta", default, borrow)]
    meta: Option<&'a RawValue>,
}

/// The request's `progressToken`, if it sent a valid one (a string or an
/// integer); a `_meta` of another shape is not an error.
fn progress_token(meta: Option<&RawValue>) -> Option<Box<RawValue>> {
    #[derive(Deserialize)]
    struct Meta<'a> {
        #[serde(rename = "progressToken", borrow)]
        progress_token: Option<&'a RawValue>,
    }
    let meta: Meta<'_> = serde_json::from_str(meta?.get()).ok()?;
    let token = meta.progress_token?;
    let text = token.get();
    (text.starts_with('"') || text.parse::<i64>().is_ok()).then(|| token.to_owned())
}

impl Session {
    /// Serves `prompts/get`. A sync prompt whose arguments are all there is
    /// answered inline; anything that waits becomes a future.
    pub(super) fn get_prompt(
        &self,
        id: &RawValue,
        era: Era,
        raw: Option<&RawValue>,
        route: Option<&mpsc::Sender<String>>,
    ) -> Reply {
        let fail = |error: Error| Reply::Now(failure(Some(id), &error));
        let p: GetParams<'_> = match params(raw) {
            Ok(p) => p,
            Err(error) => return fail(error),
        };
        let served = self.service.served();
        let Some(entry) = served.get(&p.name) else {
            return fail(unknown_prompt(&p.name));
        };
        let span = tracing::Span::current();
        if !span.is_disabled() {
            // Names only: argument values may be anything a user typed.
            let names: Vec<&str> = p.arguments.iter().map(|(name, _)| name).collect();
            span.record("prompt", entry.prompt.name());
            span.record("arguments", names.join(",").as_str());
        }
        let missing: Vec<&str> = entry
            .required
            .iter()
            .map(|name| &**name)
            .filter(|name| p.arguments.get(name).is_none())
            .collect();
        let progress = progress_token(p.meta).map(|token| Arc::new(Progress::new(&token)));
        let call = Call {
            id,
            era,
            prompt: entry.prompt.clone(),
            asking: Asking::Unable,
            progress,
            outbound: &self.state.outbound,
            route,
        };
        match era {
            Era::Session(version) => self.get_in_session(call, version, p.arguments, &missing),
            Era::Stateless(meta) => self.get_stateless(call, meta, p, &missing),
        }
    }

    fn get_in_session(
        &self,
        mut call: Call<'_>,
        version: ProtocolVersion,
        arguments: Arguments<'_>,
        missing: &[&str],
    ) -> Reply {
        let can_elicit = call.outbound.can_elicit();
        if can_elicit {
            call.asking = Asking::Client;
        }
        if missing.is_empty() {
            return call.run(&arguments).into_reply(&call, version);
        }
        let id = call.id;
        if !(can_elicit && self.service.inner().ask_for_missing) {
            return Reply::Now(failure(
                Some(id),
                &missing_arguments(call.prompt.name(), missing),
            ));
        }
        // Asks the client for the missing ones, then calls the prompt.
        let request = missing_form(&call.prompt, missing, version);
        let (id, outbound, route) = (id.to_owned(), call.outbound.clone(), call.route.cloned());
        let (era, asking, progress, prompt) = (call.era, call.asking, call.progress, call.prompt);
        let arguments = arguments.into_owned();
        let missing: Vec<String> = missing.iter().map(|&name| name.to_owned()).collect();
        Reply::Later(Box::pin(async move {
            let missing: Vec<&str> = missing.iter().map(String::as_str).collect();
            let asked = ask_missing(&outbound, route.as_ref(), &request, prompt.name(), &missing);
            let arguments = match asked
                .await
                .and_then(|a| complete(arguments, &a, prompt.name(), &missing))
            {
                Ok(arguments) => arguments,
                Err(error) => return Some(failure(Some(&id), &error)),
            };
            let call = Call {
                id: &id,
                era,
                prompt,
                asking,
                progress,
                outbound: &outbound,
                route: route.as_ref(),
            };
            let called = call.run(&arguments);
            called.into_reply(&call, version).into_message().await
        }))
    }

    fn get_stateless(
        &self,
        mut call: Call<'_>,
        meta: ModernMeta,
        p: GetParams<'_>,
        missing: &[&str],
    ) -> Reply {
        let id = call.id;
        let prompt = call.prompt.clone();
        let name = prompt.name();
        let fail = |error: Error| Reply::Now(failure(Some(id), &error));
        let inner = self.service.inner();
        // The state binds the client's arguments as sent, before any
        // answer fills in missing ones.
        let fingerprint = fingerprint(&p.arguments);
        let opened = match &p.request_state {
            Some(state) => {
                match state_key(inner).and_then(|key| key.open(state, name, &fingerprint)) {
                    Ok(opened) => opened,
                    Err(error) => return fail(error),
                }
            }
            None => Opened::default(),
        };
        let answers = opened.answers_with(p.input_responses.unwrap_or_default());
        let mut arguments = p.arguments;
        if !missing.is_empty() {
            if !(meta.can_elicit && inner.ask_for_missing) {
                return fail(missing_arguments(name, missing));
            }
            match answers.get(MISSING_ARGUMENTS) {
                Some(answer) => match complete(arguments, answer, name, missing) {
                    Ok(completed) => arguments = completed,
                    Err(error) => return fail(error),
                },
                None => {
                    let question = (
                        MISSING_ARGUMENTS.to_owned(),
                        missing_form(&prompt, missing, meta.version),
                    );
                    let message =
                        input_required(id, inner, name, &fingerprint, &answers, vec![question]);
                    return Reply::Now(message);
                }
            }
        }
        let round = Arc::new(InputRound::new(answers));
        if meta.can_elicit {
            call.asking = Asking::Rounds(Arc::clone(&round));
        }
        let version = meta.version;
        let mut future = match call.run(&arguments) {
            Called::Pending(future) => future,
            done @ Called::Ready(_) => {
                round.finish();
                return done.into_reply(&call, version);
            }
        };
        let (id, service, progress) = (id.to_owned(), self.service.clone(), call.progress);
        Reply::Later(Box::pin(async move {
            // Runs the prompt until it finishes, or waits with questions
            // asked: then the run ends, and the client is told what to ask.
            let outcome = poll_fn(|cx| match future.as_mut().poll(cx) {
                Poll::Ready(result) => Poll::Ready(Ok(result)),
                Poll::Pending => match round.questions(cx.waker()) {
                    questions if questions.is_empty() => Poll::Pending,
                    questions => Poll::Ready(Err(questions)),
                },
            })
            .await;
            round.finish();
            drop(future);
            if let Some(progress) = &progress {
                progress.finish();
            }
            Some(match outcome {
                Ok(result) => respond(&id, &prompt, version, result),
                Err(questions) => {
                    let answers = round.answers();
                    input_required(
                        &id,
                        service.inner(),
                        prompt.name(),
                        &fingerprint,
                        answers,
                        questions,
                    )
                }
            })
        }))
    }
}

/// One call of a prompt, with what its context is made of.
struct Call<'a> {
    id: &'a RawValue,
    era: Era,
    prompt: AnyPrompt,
    asking: Asking,
    progress: Option<Arc<Progress>>,
    outbound: &'a Outbound,
    route: Option<&'a mpsc::Sender<String>>,
}

/// What calling a prompt gave.
enum Called {
    Ready(Result<PromptResult, Error>),
    Pending(std::pin::Pin<Box<CatchPanic<PromptResult>>>),
}

impl Call<'_> {
    fn run(&self, arguments: &Arguments<'_>) -> Called {
        let request = RequestParts {
            id: self.id,
            version: self.era.version(),
            log: self.era.log(),
            asking: &self.asking,
            progress: self.progress.as_ref(),
            outbound: self.outbound,
            route: self.route,
        };
        let culprit = Culprit::prompt(&self.prompt);
        let called = match &self.prompt.0 {
            Kind::Macro(def) => {
                let input = Input {
                    def,
                    arguments,
                    request,
                };
                call_catching(&culprit, || (def.invoke)(&input))
            }
            Kind::Dynamic(prompt) => {
                ArgumentValues::read(&prompt.0.arguments, arguments).and_then(|values| {
                    match &prompt.0.handler {
                        // A template needs no context, so none is made.
                        Handler::Template(template) => Ok(Invocation::Ready(Ok(
                            PromptResult::new(template.render(&values)),
                        ))),
                        Handler::Call(handler) => {
                            call_catching(&culprit, || Ok(handler(values, request.context())))
                        }
                    }
                })
            }
        };
        match called {
            Err(error) => Called::Ready(Err(error)),
            Ok(Invocation::Ready(result)) => Called::Ready(result),
            Ok(Invocation::Pending(future)) => {
                Called::Pending(Box::pin(CatchPanic { culprit, future }))
            }
        }
    }
}

impl Called {
    /// The response, once the prompt is done; the request's progress ends
    /// with it.
    fn into_reply(self, call: &Call<'_>, version: ProtocolVersion) -> Reply {
        let progress = call.progress.clone();
        match self {
            Self::Ready(result) => {
                if let Some(progress) = &progress {
                    progress.finish();
                }
                Reply::Now(respond(call.id, &call.prompt, version, result))
            }
            Self::Pending(future) => {
                let id = call.id.to_owned();
                let prompt = call.prompt.clone();
                Reply::Later(Box::pin(async move {
                    let result = future.await;
                    if let Some(progress) = &progress {
                        progress.finish();
                    }
                    Some(respond(&id, &prompt, version, result))
                }))
            }
        }
    }
}

/// Asks the client for the missing arguments with `request` (from
/// [`missing_form`]): its answer, or -32602 naming them if nobody could be
/// asked.
async fn ask_missing(
    outbound: &Outbound,
    route: Option<&mpsc::Sender<String>>,
    request: &Value,
    prompt: &str,
    missing: &[&str],
) -> Result<Value, Error> {
    let answered = outbound
        .request("elicitation/create", &request["params"], route)
        .await?;
    answered.ok_or_else(|| missing_arguments(prompt, missing))
}

/// The `elicitation/create` request for the arguments `missing`, with a
/// form built from their definitions.
fn missing_form(prompt: &AnyPrompt, missing: &[&str], version: ProtocolVersion) -> Value {
    let arguments = prompt.arguments();
    let fields = arguments
        .into_iter()
        .filter(|arg| missing.contains(&arg.name));
    let names = missing
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let title = prompt.title().unwrap_or(prompt.name());
    let message = format!("The prompt `{title}` needs: {names}");
    serde_json::json!({
        "method": "elicitation/create",
        "params": create_params(&message, &form_schema(fields, version)),
    })
}

/// The arguments with the answer to the missing-arguments form added;
/// -32602 for the missing ones if the user declined or left any out.
fn complete<'a>(
    mut arguments: Arguments<'a>,
    answer: &Value,
    prompt: &str,
    missing: &[&str],
) -> Result<Arguments<'a>, Error> {
    let refused = || missing_arguments(prompt, missing);
    let Answer::Accepted(form) = read_answer(answer)? else {
        return Err(refused());
    };
    for (name, value) in form.iter() {
        if missing.contains(&name) {
            arguments.insert(name.to_owned(), value.to_owned());
        }
    }
    let still: Vec<&str> = missing
        .iter()
        .copied()
        .filter(|name| arguments.get(name).is_none())
        .collect();
    if still.is_empty() {
        Ok(arguments)
    } else {
        Err(missing_arguments(prompt, &still))
    }
}

/// The answer that ends a stateless run with questions: an
/// `InputRequiredResult` whose state carries every answer so far.
fn input_required(
    id: &RawValue,
    inner: &Inner,
    prompt: &str,
    fingerprint: &str,
    answers: &HashMap<String, Value>,
    questions: Vec<(String, Value)>,
) -> String {
    let key = match state_key(inner) {
        Ok(key) => key,
        Err(error) => return failure(Some(id), &error),
    };
    let asked = questions.iter().map(|(key, _)| key.clone()).collect();
    let state = key.seal(prompt, fingerprint, answers, asked);
    let requests: serde_json::Map<String, Value> = questions.into_iter().collect();
    let rest = serde_json::json!({ "inputRequests": requests, "requestState": state });
    let rest = rest.to_string();
    let result = format!(
        "{{\"resultType\":\"input_required\",{},{}",
        inner.modern.server_meta(),
        &rest[1..]
    );
    crate::protocol::jsonrpc::success_raw(id, &result)
}

/// The key request states are signed with; without one (no randomness,
/// no secret) a stateless prompt cannot ask, and says why.
fn state_key(inner: &Inner) -> Result<&StateKey, Error> {
    inner.state_key.as_ref().ok_or_else(|| {
        Error::internal(
            "this server cannot ask for input statelessly: the system gave no randomness \
             for its request-state key (give one with Server::request_state_secret)",
        )
    })
}

fn respond(
    id: &RawValue,
    prompt: &AnyPrompt,
    version: ProtocolVersion,
    result: Result<PromptResult, Error>,
) -> String {
    match result.and_then(|r| r.check_version(version).map(|()| r)) {
        Ok(result) => success(id, &result.wire(prompt.description(), version)),
        Err(error) => {
            let error = error.redacted(&format!("prompt `{}`", prompt.name()), id.get());
            failure(Some(id), &error)
        }
    }
}

impl super::Service {
    /// `prompts/get` for a host SDK that has parsed the request and will
    /// send the answer itself (rmcp): the prompt's result and the prompt,
    /// typed. Missing arguments are asked for where the client can show a
    /// form, else refused (-32602); a handler's hidden error is redacted.
    pub(crate) async fn get_typed(
        &self,
        request: TypedGet<'_>,
        arguments: &Arguments<'_>,
    ) -> Result<(PromptResult, AnyPrompt), Error> {
        let TypedGet {
            id,
            version,
            name,
            progress,
            outbound,
            route,
        } = request;
        let (prompt, missing) = {
            let served = self.served();
            let entry = served.get(name).ok_or_else(|| unknown_prompt(name))?;
            let missing: Vec<String> = entry
                .required
                .iter()
                .filter(|name| arguments.get(name).is_none())
                .map(ToString::to_string)
                .collect();
            (entry.prompt.clone(), missing)
        };
        // A client that can show a form is asked, in a handshake session of
        // a revision that has forms.
        let can_ask = outbound.can_elicit()
            && version >= ProtocolVersion::V2025_06_18
            && !version.is_modern();
        let asked;
        let arguments = if missing.is_empty() {
            arguments
        } else {
            let missing: Vec<&str> = missing.iter().map(String::as_str).collect();
            if !(can_ask && self.inner().ask_for_missing) {
                return Err(missing_arguments(prompt.name(), &missing));
            }
            let request = missing_form(&prompt, &missing, version);
            let answer = ask_missing(outbound, route, &request, prompt.name(), &missing).await?;
            let sent = Arguments::clone_owned(arguments);
            asked = complete(sent, &answer, prompt.name(), &missing)?;
            &asked
        };
        let call = Call {
            id,
            era: Era::Session(version),
            prompt,
            asking: if can_ask {
                Asking::Client
            } else {
                Asking::Unable
            },
            progress,
            outbound,
            route,
        };
        let result = match call.run(arguments) {
            Called::Ready(result) => result,
            Called::Pending(future) => future.await,
        };
        if let Some(progress) = &call.progress {
            progress.finish();
        }
        match result.and_then(|r| r.check_version(version).map(|()| r)) {
            Ok(result) => Ok((result, call.prompt)),
            Err(error) => {
                let culprit = format!("prompt `{}`", call.prompt.name());
                Err(error.redacted(&culprit, id.get()))
            }
        }
    }
}

/// What a typed `prompts/get` is made of.
pub(crate) struct TypedGet<'a> {
    /// The request's id, as JSON.
    pub(crate) id: &'a RawValue,
    pub(crate) version: ProtocolVersion,
    pub(crate) name: &'a str,
    pub(crate) progress: Option<Arc<Progress>>,
    pub(crate) outbound: &'a Outbound,
    /// Where the request's own messages go while it runs (its stream).
    pub(crate) route: Option<&'a mpsc::Sender<String>>,
}
