//! Each message watched as the telemetry conventions ask: the span it runs
//! in, what it names judged by what its caller may see, its reply read for
//! the outcome and the log line.

use serde_json::value::RawValue;

use super::{Reply, Service, Session};
use crate::caller::Access;
use crate::context::Sender;
use crate::protocol::ProtocolVersion;
use crate::telemetry::{Asked, Known, Read, Watch};

impl Session {
    /// Starts watching request `id` from `sender`, if anyone watches.
    #[inline]
    pub(super) fn watch_request(
        &self,
        id: &RawValue,
        method: &str,
        params: Option<&RawValue>,
        sender: &Sender,
    ) -> Watch {
        // The common case, no subscriber at all, in a few instructions.
        if !crate::telemetry::may_watch() {
            return Watch::OFF;
        }
        self.start_watch(id, method, params, sender)
    }

    #[inline(never)]
    fn start_watch(
        &self,
        id: &RawValue,
        method: &str,
        params: Option<&RawValue>,
        sender: &Sender,
    ) -> Watch {
        let subject = sender.caller().map(|caller| caller.subject());
        let read = || Read::params(method, params);
        let mut watch = Watch::request(method, id.get(), read, sender.wire(), subject);
        if watch.is_on() {
            let known = watch.asked().map_or(Known::Unknown, |asked| {
                self.service.known(asked, sender.access())
            });
            watch.judge(known);
        }
        watch
    }
}

impl Service {
    /// Whether the caller behind `access` may see what a request names.
    pub(crate) fn known(&self, asked: &Asked, access: &Access) -> Known {
        match asked {
            Asked::Prompt(name) => {
                let served = self.snapshot();
                if served.get(name, access).is_some() {
                    Known::Visible
                } else if served.get(name, &Access::Local).is_some() {
                    Known::Hidden
                } else {
                    Known::Unknown
                }
            }
            Asked::Tool(name) => {
                let ours = [super::tools::LIST_PROMPTS, super::tools::GET_PROMPT];
                if self.0.info.declared.tools && ours.contains(&name.as_str()) {
                    Known::Visible
                } else {
                    Known::Unknown
                }
            }
            // A URI names no span and no metric: only its attribute.
            Asked::Resource(_) => Known::Unknown,
        }
    }
}

impl Session {
    /// The revision request `watch` is served in: a 2026-07-28 request's
    /// own, else the session's (negotiated by now for an `initialize`).
    fn watched_version(&self, watch: &Watch) -> Option<ProtocolVersion> {
        watch.stateless_version().or_else(|| self.state.version())
    }

    /// Ends the watch on `reply` (once sent, for one still being made).
    #[inline]
    pub(super) fn observed(
        &self,
        watch: Watch,
        id: &RawValue,
        reply: Reply,
        sender: &Sender,
    ) -> Reply {
        if !watch.is_on() {
            return reply;
        }
        self.observed_on(watch, id, reply, sender)
    }

    #[inline(never)]
    fn observed_on(&self, watch: Watch, id: &RawValue, reply: Reply, sender: &Sender) -> Reply {
        let version = self.watched_version(&watch);
        let http = sender.wire().http().is_some();
        // The status the transport answers a dispatched message with.
        let status = move |code: u16| http.then_some(code);
        match reply {
            Reply::Now(text) => {
                watch.end(Some(&text), id.get(), version, status(200));
                Reply::Now(text)
            }
            Reply::Rejected(text) => {
                watch.end(Some(&text), id.get(), version, status(400));
                Reply::Rejected(text)
            }
            Reply::None => {
                watch.end(None, id.get(), version, status(202));
                Reply::None
            }
            Reply::Later(future) => {
                let span = watch.span();
                let id = id.to_owned();
                let future = async move {
                    let message = future.await;
                    watch.end(message.as_deref(), id.get(), version, status(200));
                    message
                };
                Reply::Later(Box::pin(tracing::Instrument::instrument(future, span)))
            }
        }
    }
}
