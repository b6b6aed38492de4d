//! JSON-RPC batches (revision 2025-03-26 only), bounded twice: in the
//! messages one batch may hold, and in the bytes its responses may take
//! together, so that a small request can never make a huge reply.

use std::fmt;

use serde::de::{Deserializer, IgnoredAny, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::Session;
use super::now_or_later::NowOrLater;
use super::outcome::Response;
use crate::context::Sender;
use crate::error::Error;
use crate::protocol::jsonrpc::{self, Incoming, failure};

/// Serves a batch, writing its responses as they come, within its
/// bound on their bytes.
pub(super) fn serve_batch<'a>(
    session: &'a Session,
    text: &'a str,
    sender: &'a Sender,
) -> Response<'a> {
    let allowed = session
        .state
        .version()
        .is_some_and(crate::protocol::ProtocolVersion::allows_batches);
    if !allowed {
        let error = match serde_json::from_str::<IgnoredAny>(text) {
            Ok(_) => Error::invalid_request(
                "JSON-RPC batches are only accepted when protocol 2025-03-26 was negotiated",
            ),
            Err(_) => jsonrpc::parse_failure(text),
        };
        return Response::rejected(error);
    }
    let limits = *session.service.limits();
    let items = match read_items(text, limits.batch_items) {
        Ok(Ok(items)) if items.is_empty() => {
            return Response::rejected(Error::invalid_request("the batch is empty"));
        }
        Ok(Ok(items)) => items,
        Ok(Err(count)) => {
            return Response::rejected(
                Error::invalid_request(format!(
                    "the batch holds {count} messages, over the limit of {}",
                    limits.batch_items
                ))
                .with_limit(limits.batch_items),
            );
        }
        Err(_) => return Response::rejected(jsonrpc::parse_failure(text)),
    };
    let mut responses = Responses::new(limits.batch_response_bytes);
    // The unsent budget's reservations of the answers the batch keeps;
    // an answer refused for the batch's limit gives its bytes back.
    let mut kept = Vec::new();
    let mut later = Vec::new();
    for item in items {
        let incoming = jsonrpc::classify(item.get());
        if let (Ok(Incoming::Request { id, .. }), true) = (&incoming, responses.full) {
            // Not run: its response could not be sent anyway.
            responses.refuse(id);
            continue;
        }
        let id = match &incoming {
            Ok(Incoming::Request { id, .. }) => Some(*id),
            _ => None,
        };
        let service = &session.service;
        let message = match session.handle_one(incoming, sender) {
            Response::None | Response::Batch(_) => continue,
            Response::Now(outcome) => outcome.write(service, sender.kept()),
            Response::Rejected(error) => Response::rejection(&error),
            Response::Later(future) => {
                // Answered in the batch's order once the rest is done;
                // only the id is kept, to refuse it if need be.
                let id = id.map(RawValue::to_owned);
                later.push((responses.reserve(), id, future));
                continue;
            }
        };
        let reserved = sender.take_reserved();
        if responses.add(id, message) {
            kept.extend(reserved);
        }
    }
    for reserved in kept {
        sender.keep(reserved);
    }
    if later.is_empty() {
        return Response::Batch(NowOrLater::Now(responses.into_response()));
    }
    let (service, kept) = (session.service.clone(), sender.kept().cloned());
    Response::Batch(NowOrLater::later(async move {
        for (slot, id, future) in later {
            if responses.full {
                // Dropped unpolled: the request is not run.
                drop(future);
                if let Some(id) = &id {
                    responses.fill_refused(slot, id);
                }
            } else if let Some(outcome) = future.await {
                let message = outcome.write(&service, kept.as_ref());
                responses.fill(slot, id.as_deref(), message);
            }
        }
        responses.into_response()
    }))
}

/// The batch's items, at most `max`; `Err(count)` when there are more
/// (counted without being kept).
fn read_items(text: &str, max: usize) -> serde_json::Result<Result<Vec<&RawValue>, usize>> {
    struct Items(usize);

    impl<'de> Visitor<'de> for Items {
        type Value = Result<Vec<&'de RawValue>, usize>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON-RPC batch")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut items = Vec::new();
            while let Some(item) = seq.next_element::<&'de RawValue>()? {
                if items.len() == self.0 {
                    let mut count = items.len() + 1;
                    while seq.next_element::<IgnoredAny>()?.is_some() {
                        count += 1;
                    }
                    return Ok(Err(count));
                }
                items.push(item);
            }
            Ok(Ok(items))
        }
    }

    let mut de = serde_json::Deserializer::from_str(text);
    let items = (&mut de).deserialize_seq(Items(max))?;
    de.end()?;
    Ok(items)
}

/// The responses of one batch, in order, within a byte budget.
struct Responses {
    slots: Vec<Option<String>>,
    used: usize,
    limit: usize,
    /// Set once a response did not fit: later requests are not run.
    full: bool,
}

/// Where a response still being produced goes.
#[derive(Clone, Copy)]
struct Slot(usize);

impl Responses {
    fn new(limit: usize) -> Self {
        Self {
            slots: Vec::new(),
            used: 0,
            limit,
            full: false,
        }
    }

    /// Adds a response if it fits the budget; otherwise the request gets a
    /// short refusal instead (an error without an id is short already).
    /// Adds `message`; `false` when it is refused for the limit.
    fn add(&mut self, id: Option<&RawValue>, message: String) -> bool {
        let slot = self.reserve();
        self.fill(slot, id, message)
    }

    fn refuse(&mut self, id: &RawValue) {
        let slot = self.reserve();
        self.fill_refused(slot, id);
    }

    fn reserve(&mut self) -> Slot {
        self.slots.push(None);
        Slot(self.slots.len() - 1)
    }

    fn fill(&mut self, slot: Slot, id: Option<&RawValue>, message: String) -> bool {
        match id {
            Some(id) if self.full || self.used + message.len() > self.limit => {
                self.full = true;
                self.fill_refused(slot, id);
                false
            }
            _ => {
                self.used += message.len();
                self.slots[slot.0] = Some(message);
                true
            }
        }
    }

    fn fill_refused(&mut self, slot: Slot, id: &RawValue) {
        let error = Error::internal(format!(
            "not run: the responses to this batch reached the limit of {} bytes; \
             send this request on its own",
            self.limit
        ));
        self.slots[slot.0] = Some(failure(Some(id), &error));
    }

    /// The batch response, or `None` if only notifications were sent.
    fn into_response(self) -> Option<String> {
        let mut out = String::with_capacity(self.used + 2);
        out.push('[');
        for message in self.slots.into_iter().flatten() {
            if out.len() > 1 {
                out.push(',');
            }
            out.push_str(&message);
        }
        out.push(']');
        (out.len() > 2).then_some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_are_counted_past_the_limit_but_not_kept() {
        assert_eq!(read_items("[1, {}]", 5).unwrap().unwrap().len(), 2);
        assert_eq!(read_items("[1,2,3,4]", 2).unwrap().unwrap_err(), 4);
        assert!(read_items("[1,2", 5).is_err());
        assert!(read_items("[1] x", 5).is_err());
    }

    #[test]
    fn responses_stay_within_the_budget() {
        let id = |n: u32| RawValue::from_string(n.to_string()).unwrap();
        let message = |n: u32| format!(r#"{{"id":{n},"pad":"{}"}}"#, "x".repeat(40));
        let mut responses = Responses::new(100);
        responses.add(Some(&id(1)), message(1));
        responses.add(Some(&id(2)), message(2));
        responses.add(None, r#"{"error":"no id"}"#.to_owned());
        responses.refuse(&id(3));
        let out: serde_json::Value =
            serde_json::from_str(&responses.into_response().unwrap()).unwrap();
        assert_eq!(out[0]["pad"].as_str().map(str::len), Some(40));
        assert_eq!(out[1]["id"], 2, "over the budget: refused");
        assert_eq!(out[1]["error"]["code"], Error::INTERNAL_ERROR);
        assert_eq!(out[2]["error"], "no id", "short errors without ids stay");
        assert_eq!(out[3]["id"], 3);
        assert_eq!(out[3]["error"]["code"], Error::INTERNAL_ERROR);
    }
}
