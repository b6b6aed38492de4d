//! Each message watched as the telemetry conventions ask: the span it runs
//! in, what it names judged by what its caller may see, and its typed
//! outcome, which ends the watch once it is written.

use serde_json::value::RawValue;

use std::sync::Arc;

use super::outcome::Response;
use super::{Service, Session};
use crate::caller::Access;
use crate::context::Sender;
use crate::protocol::method::Subject;
use crate::telemetry::{Asked, Delivered, Ended, Observation, ParamsRead, Visibility};

/// Starts watching request `id` from `sender`, if anyone watches.
#[inline]
pub(super) fn observe_request(
    session: &Session,
    id: &RawValue,
    method: &str,
    params: Option<&RawValue>,
    sender: &Sender,
) -> Observation {
    // The common case, no subscriber at all, in a few instructions.
    if !crate::telemetry::may_watch() {
        return Observation::OFF;
    }
    start_observation(session, id, method, params, sender)
}

#[inline(never)]
fn start_observation(
    session: &Session,
    id: &RawValue,
    method: &str,
    params: Option<&RawValue>,
    sender: &Sender,
) -> Observation {
    let subject = sender.caller().map(|caller| caller.subject());
    let read = || ParamsRead::params(Subject::of(method), params);
    let judge = |asked: &Asked| visibility(&session.service, asked, sender.access());
    Observation::request(method, id.get(), read, judge, (sender.network(), subject))
}

/// Whether the caller behind `access` may see what a request names.
pub(crate) fn visibility(service: &Service, asked: &Asked, access: &Access) -> Visibility {
    match asked {
        Asked::Prompt(name) => {
            let served = service.snapshot();
            if served.get(name, access).is_some() {
                Visibility::Visible
            } else if served.get(name, &Access::Local).is_some() {
                Visibility::Hidden
            } else {
                Visibility::Unknown
            }
        }
        Asked::Tool(name) => {
            let ours = [super::tools::LIST_PROMPTS, super::tools::GET_PROMPT];
            if service.0.info.declared.tools && ours.contains(&name.as_str()) {
                Visibility::Visible
            } else {
                Visibility::Unknown
            }
        }
        // A URI names no span and no metric: only its attribute.
        Asked::Resource(_) => Visibility::Unknown,
    }
}

/// Hands `watch` to the request's outcome, to end when it is written;
/// a response that writes nothing (none, a rejection) ends it now.
#[inline]
pub(super) fn observed<'a>(
    session: &Session,
    watch: Observation,
    response: Response<'a>,
) -> Response<'a> {
    if !watch.is_on() {
        return response;
    }
    observed_on(session, watch, response)
}

#[inline(never)]
fn observed_on<'a>(session: &Session, watch: Observation, response: Response<'a>) -> Response<'a> {
    // The revision it is served in: its own, or its session's (the
    // one negotiated by now, for an `initialize`).
    let in_session = session.state.version();
    match response {
        Response::Now(outcome) => {
            let version = outcome.version().or(in_session);
            Response::Now(outcome.watched(watch, version))
        }
        Response::Rejected(error) => {
            watch.end(&Ended::failed(&error), in_session, Delivered::Rejected);
            Response::Rejected(error)
        }
        Response::None | Response::Batch(_) => {
            watch.end(&Ended::Unanswered, in_session, Delivered::Nothing);
            response
        }
        Response::Later(future) => {
            let span = watch.span();
            let state = Arc::clone(&session.state);
            let future = async move {
                match future.await {
                    Some(outcome) => {
                        let version = outcome.version().or(state.version());
                        Some(outcome.watched(watch, version))
                    }
                    None => {
                        watch.end(&Ended::Unanswered, state.version(), Delivered::Nothing);
                        None
                    }
                }
            };
            Response::Later(Box::pin(tracing::Instrument::instrument(future, span)))
        }
    }
}
