//! The one writer: a request's typed [`Outcome`], serialized once, at the
//! transport's edge, as the request's era has it. In a session a result is written as it is; a
//! 2026-07-28 result goes in its envelope (`resultType`, `_meta` with the
//! server's info, caching hints on listings). Errors are written the same
//! in both. An answer of the skills and their files, which may be large,
//! is first sized (by its bound, or written where nothing is kept) and its
//! bytes reserved from the unsent budget, or it is refused as busy.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::value::RawValue;

use super::Service;
use super::modern::{CacheScope, Hints};
use super::outcome::Held;
use crate::context::Kept;
use crate::error::Error;
use crate::protocol::answer::{Answer, Cached, ResultMeta};
use crate::protocol::era::Era;
use crate::protocol::jsonrpc::{success, success_after, success_len, success_within};
use crate::protocol::language::{CONTENT_LANGUAGE, Language};
use crate::protocol::modern::{ResultType, SERVER_INFO};
use crate::protocol::to_client::SUBSCRIPTION_ID;

/// The size from which any answer is held within the unsent budget: a
/// prompt's messages or a listing as large as a skill's file, which a
/// client that never reads would keep the server holding.
pub(crate) const HELD_FROM: usize = 64 * 1024;

/// A result as its era writes it: its body as it is in a session (with a
/// `_meta` naming its language, where the request asked for one), in its
/// envelope statelessly.
enum Written<'a, T> {
    Session(T),
    SessionIn(InLanguage<'a, T>),
    Stateless(Enveloped<'a, T>),
}

impl<T: Serialize> Serialize for Written<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Session(body) => body.serialize(s),
            Self::SessionIn(body) => body.serialize(s),
            Self::Stateless(enveloped) => enveloped.serialize(s),
        }
    }
}

/// A session's result in a language the request asked for: `_meta`
/// names it (written when the language was read), then the body's own
/// fields.
#[derive(Serialize)]
struct InLanguage<'a, T> {
    #[serde(flatten)]
    head: LanguageHead<'a>,
    #[serde(flatten)]
    body: T,
}

/// What goes ahead of a session's body in a language: `_meta` naming it.
struct LanguageHead<'a> {
    language: &'a Language,
}

impl Serialize for LanguageHead<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Named<'a>(&'a Language);
        impl Serialize for Named<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut map = s.serialize_map(Some(1))?;
                map.serialize_entry(CONTENT_LANGUAGE, self.0.as_str())?;
                map.end()
            }
        }
        let mut map = s.serialize_map(Some(1))?;
        map.serialize_entry("_meta", &Named(self.language))?;
        map.end()
    }
}

/// A 2026-07-28 result: its envelope, then the body's own fields.
#[derive(Serialize)]
struct Enveloped<'a, T> {
    #[serde(flatten)]
    head: EnvelopeHead<'a>,
    #[serde(flatten)]
    body: T,
}

/// A 2026-07-28 result's envelope: its type, its `_meta`, its caching
/// hints if it has them.
#[derive(Serialize)]
struct EnvelopeHead<'a> {
    #[serde(rename = "resultType")]
    result_type: ResultType,
    #[serde(rename = "_meta")]
    meta: Meta<'a>,
    #[serde(flatten)]
    hints: Option<Hints>,
}

/// A body with no fields: what a result takes around its body, measured.
struct NoFields;

impl Serialize for NoFields {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_map(Some(0))?.end()
    }
}

/// A 2026-07-28 result's `_meta`: the server's info (serialized when the
/// server was built), or with a listen's subscription or the answer's
/// language beside it.
enum Meta<'a> {
    Built(&'a RawValue),
    InLanguage {
        language: &'a str,
        server_info: &'a RawValue,
    },
    Subscription {
        subscription: &'a RawValue,
        server_info: &'a RawValue,
    },
}

impl Serialize for Meta<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            Self::Built(meta) => meta.serialize(s),
            Self::Subscription {
                subscription,
                server_info,
            } => {
                let mut map = s.serialize_map(Some(2))?;
                map.serialize_entry(SUBSCRIPTION_ID, subscription)?;
                map.serialize_entry(SERVER_INFO, server_info)?;
                map.end()
            }
            Self::InLanguage {
                language,
                server_info,
            } => {
                let mut map = s.serialize_map(Some(2))?;
                map.serialize_entry(CONTENT_LANGUAGE, language)?;
                map.serialize_entry(SERVER_INFO, server_info)?;
                map.end()
            }
        }
    }
}

impl Service {
    /// The caching hints a 2026-07-28 result carries, if any: the server's,
    /// private whatever the server's scope for a result that differs by
    /// who asks.
    pub(crate) fn hints(&self, cached: Cached) -> Option<Hints> {
        let hints = self.0.modern.hints;
        match cached {
            Cached::No => None,
            Cached::Shared => Some(hints),
            Cached::PerCaller => Some(Hints {
                scope: CacheScope::Private,
                ..hints
            }),
        }
    }

    /// `answer` to request `id`, as `era` writes it, held within the
    /// unsent budget as `held` says (its bytes left in `kept`, if the
    /// transport keeps them, to hold until it has written them); the
    /// error to answer with instead when the budget has no room for it.
    pub(crate) fn write_answer<A: Answer>(
        &self,
        id: &RawValue,
        era: Era,
        answer: &A,
        held: Held,
        kept: Option<&Kept>,
    ) -> Result<String, Error> {
        match held {
            Held::IfLarge => self.write_held(id, era, answer, kept),
            Held::Always => self.write_unsent(id, era, answer, kept),
        }
    }

    /// `answer` to request `id`, as `era` writes it.
    fn write_plain<A: Answer>(&self, id: &RawValue, era: Era, answer: &A) -> String {
        // The head and the body are each serialized as they are: serde's
        // `flatten` would send every member of the body through a map.
        match self.written(era, answer, answer.body(era.version())) {
            Written::Session(body) => success(id, &body),
            // Its head written once, when the language was read.
            Written::SessionIn(InLanguage { head, body }) => {
                success_after(id, head.language.as_result_head(), &body)
            }
            Written::Stateless(Enveloped { head, body }) => success_after(id, &head, &body),
        }
    }

    /// Like [`write_plain`](Self::write_plain), for an answer that may be large, and
    /// that `sender`'s client may never read: its bytes are reserved from
    /// the unsent budget before it is written at its bound (a file's
    /// contents), or once written (a page of a listing, which the page
    /// size keeps small), and left in
    /// `kept` for the transport to hold until it has written them. An
    /// answer that does not fit beside those waiting is refused with
    /// -32603 at once, never allocated, and never waited for.
    fn write_unsent<A: Answer>(
        &self,
        id: &RawValue,
        era: Era,
        answer: &A,
        kept: Option<&Kept>,
    ) -> Result<String, Error> {
        let body = answer.body(era.version());
        let result = self.written(era, answer, &body);
        let Some(bound) = answer.size_bound() else {
            // An answer with no bound known beforehand is a page, whose
            // entries the page size bounds: written once, then reserved.
            let text = success(id, &result);
            return match self.0.unsent.try_reserve(text.capacity()) {
                Some(reserved) => {
                    keep(kept, reserved);
                    Ok(text)
                }
                None => Err(self.unsent_full(text.capacity())),
            };
        };
        let size = success_len(id, &self.written(era, answer, NoFields))
            .map(|around| around.saturating_add(bound));
        // What cannot be serialized is answered with a short error.
        let Some(size) = size else {
            return Ok(success(id, &result));
        };
        let Some(mut reserved) = self.0.unsent.try_reserve(size) else {
            return Err(self.unsent_full(size));
        };
        let mut text = success_within(id, &result, size);
        debug_assert!(text.len() <= size, "{} bytes over {size}", text.len());
        // Reserved at an upper bound: keep what it takes.
        text.shrink_to_fit();
        reserved.shrink_to(text.capacity());
        keep(kept, reserved);
        Ok(text)
    }

    /// Like [`write_plain`](Self::write_plain), for an answer of any method that may
    /// turn out large (a prompt's messages, a listing): once written, an
    /// answer of [`HELD_FROM`] bytes or more takes its bytes from the unsent
    /// budget, kept in `kept` for the transport to hold until it has
    /// written it, or is refused with -32603 at once when they do not fit.
    /// Smaller answers cost a comparison: many connections at once hold
    /// little of them.
    fn write_held<A: Answer>(
        &self,
        id: &RawValue,
        era: Era,
        answer: &A,
        kept: Option<&Kept>,
    ) -> Result<String, Error> {
        let text = self.write_plain(id, era, answer);
        if text.len() < HELD_FROM {
            return Ok(text);
        }
        match self.0.unsent.try_reserve(text.capacity()) {
            Some(reserved) => {
                keep(kept, reserved);
                Ok(text)
            }
            None => Err(self.unsent_full(text.capacity())),
        }
    }

    /// Why an answer of `size` bytes is not sent: the budget is full for
    /// now, or smaller than the answer.
    fn unsent_full(&self, size: usize) -> Error {
        let max = self.0.unsent.max();
        let message = if size > max {
            format!(
                "the answer takes {size} bytes, more than the server holds for clients that \
                 have not read their answers ({max} bytes, max_unsent_bytes)"
            )
        } else {
            format!(
                "the server is busy: answers its clients have not read yet fill its budget of \
                 {max} bytes (max_unsent_bytes), and this one takes {size}; try again later"
            )
        };
        Error::internal(message).with_limit(max)
    }

    /// `answer` as `era` writes it, with `body` for its own fields: as it
    /// is in a session, in its envelope statelessly.
    fn written<'a, A: Answer, T>(&'a self, era: Era, answer: &'a A, body: T) -> Written<'a, T> {
        let language = answer.content_language();
        let Era::Stateless(_) = era else {
            return match language {
                Some(language) => Written::SessionIn(InLanguage {
                    head: LanguageHead { language },
                    body,
                }),
                None => Written::Session(body),
            };
        };
        let language = language.map(Language::as_str);
        let modern = &self.0.modern;
        let meta = match answer.meta() {
            ResultMeta::ServerInfo => match language {
                Some(language) => Meta::InLanguage {
                    language,
                    server_info: modern.server_info(),
                },
                None => Meta::Built(modern.meta()),
            },
            ResultMeta::ServerInfoWithIcons => Meta::Built(modern.discover_meta()),
            ResultMeta::Subscription(subscription) => Meta::Subscription {
                subscription,
                server_info: modern.server_info(),
            },
        };
        Written::Stateless(Enveloped {
            head: EnvelopeHead {
                result_type: answer.result_type(),
                meta,
                hints: self.hints(answer.cached()),
            },
            body,
        })
    }
}

/// Leaves `reserved` in `kept` for the transport; where nothing is kept,
/// the bytes come back at once.
fn keep(kept: Option<&Kept>, reserved: crate::context::Reservation) {
    if let Some(kept) = kept {
        kept.keep(reserved);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use crate::context::Sender;
    use crate::server::{Server, Session};
    use crate::skills::DynamicSkill;
    use crate::transport::edge::{Reply, written};

    /// What `session` answers `text` from `sender`, written.
    fn reply(session: &Session, text: &str, sender: &Sender) -> Reply {
        written(session, session.serve_text(text, sender), sender)
    }

    const READ: &str = r#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"skill://big/data.txt"}}"#;

    /// A session of a server serving one file of 10,000 bytes, within a
    /// budget of `budget` bytes for answers not yet read.
    fn session(budget: usize) -> Session {
        session_of(budget, "2025-11-25", usize::MAX)
    }

    /// The same, at `version`, with batch responses held to `batch_bytes`.
    fn session_of(budget: usize, version: &str, batch_bytes: usize) -> Session {
        let skill = DynamicSkill::builder("big")
            .description("One file")
            .file("data.txt", "text/plain", "x".repeat(10_000))
            .build()
            .unwrap();
        let service = Server::new("t", "1")
            .embedded_skills(false)
            .skill(skill)
            .max_unsent_bytes(budget)
            .max_batch_response_bytes(batch_bytes)
            .build()
            .unwrap();
        let session = service.session(None);
        let initialize = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
        );
        assert!(matches!(session.handle(&initialize), Reply::Now(_)));
        session
    }

    fn answer(session: &Session, sender: &Sender) -> Value {
        match reply(session, READ, sender) {
            Reply::Now(text) => serde_json::from_str(&text).unwrap(),
            _ => panic!("no answer"),
        }
    }

    #[test]
    fn answers_past_the_unsent_budget_are_refused_until_written() {
        let session = session(25_000);
        let sender = Sender::LOCAL.keeping_reservations(false);
        let first = answer(&session, &sender);
        assert_eq!(
            first["result"]["contents"][0]["text"]
                .as_str()
                .map(str::len),
            Some(10_000)
        );
        let first = sender.take_reserved().expect("its bytes are kept");
        assert!(answer(&session, &sender)["result"].is_object());
        // Two answers wait: a third does not fit, and is refused at once.
        let busy = answer(&session, &sender);
        assert_eq!(busy["error"]["code"], -32603, "{busy}");
        assert!(
            busy["error"]["message"].as_str().unwrap().contains("busy"),
            "{busy}"
        );
        assert_eq!(busy["error"]["data"]["limit"], 25_000);
        // The first is written: its bytes come back.
        drop(first);
        assert!(answer(&session, &sender)["result"].is_object());
        // A sender that keeps nothing gives them back as soon as it is made.
        drop(sender.take_reserved());
        for _ in 0..4 {
            assert!(answer(&session, &Sender::LOCAL)["result"].is_object());
        }
    }

    #[test]
    fn a_batch_keeps_the_reservations_of_the_answers_it_sends_only() {
        // Room for two answers; a batch response holds one.
        let session = session_of(25_000, "2025-03-26", 15_000);
        let sender = Sender::LOCAL.keeping_reservations(false);
        let batch = format!("[{READ},{}]", READ.replace(r#""id":2"#, r#""id":3"#));
        let Reply::Now(text) = reply(&session, &batch, &sender) else {
            panic!("no answer");
        };
        let answers: Value = serde_json::from_str(&text).unwrap();
        assert!(answers[0]["result"].is_object(), "{answers}");
        assert_eq!(answers[1]["error"]["code"], -32603, "{answers}");
        // The refused answer's bytes came back: one more answer fits.
        assert!(answer(&session, &sender)["result"].is_object());
        assert_eq!(answer(&session, &sender)["error"]["code"], -32603);
    }

    #[test]
    fn an_answer_larger_than_the_budget_is_refused_for_good() {
        let session = session(5_000);
        let refused = answer(&session, &Sender::LOCAL.keeping_reservations(false));
        assert_eq!(refused["error"]["code"], -32603, "{refused}");
        let message = refused["error"]["message"].as_str().unwrap();
        assert!(message.contains("more than the server holds"), "{message}");
    }
}
