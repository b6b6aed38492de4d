//! The `requestState` of an "input required" answer: the answers a
//! stateless prompt has received in earlier rounds, carried by the client
//! from one round to the next. The client is not trusted with it: it is
//! signed (HMAC-SHA256 with the server's key), bound to the prompt, its
//! arguments and the caller who was asked, and expires, so a tampered, foreign or stale state is refused.
//! It also names the questions its round asked: only those may be answered
//! in the next, and never an answer it carries sealed.

use std::collections::HashMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::error::Error;
use crate::protocol::Arguments;

/// How long a client may take to answer before its state is refused.
pub(crate) const LIFETIME: Duration = Duration::from_secs(15 * 60);

/// The key request states are signed with.
#[derive(Clone)]
pub(crate) struct StateKey([u8; 32]);

/// Never prints the key.
impl std::fmt::Debug for StateKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StateKey(..)")
    }
}

impl StateKey {
    /// A key of the system's randomness: states survive only as long as
    /// the process (and reach only this replica). `None` when the system
    /// gives no randomness: no key is better than a guessable one, so
    /// stateless prompts then cannot ask (unless the application gives a
    /// secret).
    pub(crate) fn random() -> Option<Self> {
        let mut key = [0; 32];
        getrandom::fill(&mut key).ok()?;
        Some(Self(key))
    }

    /// The fewest bytes a secret may have: as many as the key it becomes.
    pub(crate) const MIN_SECRET_BYTES: usize = 32;

    /// A key derived from the application's secret, the same on every
    /// replica that shares it; `None` for a secret shorter than
    /// [`MIN_SECRET_BYTES`](Self::MIN_SECRET_BYTES), too easy to guess.
    pub(crate) fn from_secret(secret: &[u8]) -> Option<Self> {
        (secret.len() >= Self::MIN_SECRET_BYTES).then(|| Self(Sha256::digest(secret).into()))
    }

    fn mac(&self) -> Hmac<Sha256> {
        // HMAC takes a key of any length.
        Hmac::new_from_slice(&self.0).unwrap_or_else(|_| unreachable!())
    }

    /// A state carrying `answers` and the keys of the questions `asked`
    /// in this round, for the call `bound` names.
    pub(crate) fn seal(
        &self,
        bound: &Binding<'_>,
        answers: &HashMap<String, Value>,
        asked: Vec<String>,
    ) -> String {
        let expires = now() + LIFETIME.as_secs();
        let body = State {
            prompt: bound.prompt.to_owned(),
            arguments: bound.arguments.to_owned(),
            caller: bound.principal.to_owned(),
            expires,
            answers: answers.clone(),
            asked,
        };
        let body = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&body).unwrap_or_default());
        let mut mac = self.mac();
        mac.update(body.as_bytes());
        let tag = URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes());
        format!("{body}.{tag}")
    }

    /// The answers a state carries and the questions its round asked, if
    /// it is ours, intact, unexpired and for the call `bound` names.
    pub(crate) fn open(&self, state: &str, bound: &Binding<'_>) -> Result<Opened, Error> {
        let refused = |why: &str| Error::invalid_params(format!("invalid requestState: {why}"));
        let (body, tag) = state.split_once('.').ok_or_else(|| refused("malformed"))?;
        let tag = URL_SAFE_NO_PAD
            .decode(tag)
            .map_err(|_| refused("malformed"))?;
        let mut mac = self.mac();
        mac.update(body.as_bytes());
        mac.verify_slice(&tag)
            .map_err(|_| refused("not issued by this server, or altered"))?;
        let body = URL_SAFE_NO_PAD
            .decode(body)
            .map_err(|_| refused("malformed"))?;
        let state: State = serde_json::from_slice(&body).map_err(|_| refused("malformed"))?;
        if state.prompt != bound.prompt || state.arguments != bound.arguments {
            return Err(refused("issued for another prompt or other arguments"));
        }
        if state.caller != bound.principal {
            return Err(refused("issued to another caller"));
        }
        if state.expires < now() {
            return Err(refused("expired: get the prompt again"));
        }
        Ok(Opened {
            answers: state.answers,
            asked: state.asked,
        })
    }
}

/// The call a state belongs to: the prompt, the [`fingerprint`] of its
/// arguments, and the [`principal`] of its caller.
pub(crate) struct Binding<'a> {
    pub(super) prompt: &'a str,
    pub(super) arguments: &'a str,
    pub(super) principal: &'a str,
}

/// What an opened state holds.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Opened {
    /// The answers of every earlier round.
    answers: HashMap<String, Value>,
    /// The keys of the questions the last round asked.
    asked: Vec<String>,
}

impl Opened {
    /// The answers for this round: those sealed, then the client's
    /// `responses` to the questions the last round asked. A response that
    /// would replace a sealed answer, or answers a question never asked,
    /// is ignored (the specification: servers SHOULD ignore unknown extra
    /// inputs).
    pub(crate) fn answers_with(self, responses: HashMap<String, Value>) -> HashMap<String, Value> {
        let Self { mut answers, asked } = self;
        for (key, value) in responses {
            if asked.contains(&key) && !answers.contains_key(&key) {
                answers.insert(key, value);
            }
        }
        answers
    }
}

#[derive(Serialize, Deserialize)]
struct State {
    #[serde(rename = "p")]
    prompt: String,
    #[serde(rename = "a")]
    arguments: String,
    /// The caller's [`principal`]; empty when none was proven.
    #[serde(rename = "c", default)]
    caller: String,
    #[serde(rename = "e")]
    expires: u64,
    #[serde(rename = "r")]
    answers: HashMap<String, Value>,
    #[serde(rename = "q")]
    asked: Vec<String>,
}

/// The arguments' fingerprint, independent of their order.
pub(crate) fn fingerprint(arguments: &Arguments<'_>) -> String {
    let mut pairs: Vec<(&str, &str)> = arguments.iter().collect();
    pairs.sort_unstable();
    let mut hash = Sha256::new();
    for (name, value) in pairs {
        hash.update(name.len().to_le_bytes());
        hash.update(name.as_bytes());
        hash.update(value.len().to_le_bytes());
        hash.update(value.as_bytes());
    }
    URL_SAFE_NO_PAD.encode(hash.finalize())
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caller::Caller;

    fn args(pairs: &[(&'static str, &'static str)]) -> Arguments<'static> {
        let mut arguments = Arguments::default();
        for &(name, value) in pairs {
            arguments.insert(name, value);
        }
        arguments
    }

    fn bound<'a>(prompt: &'a str, arguments: &'a str, caller: &'a str) -> Binding<'a> {
        Binding {
            prompt,
            arguments,
            principal: caller,
        }
    }

    #[test]
    fn opens_only_what_it_sealed_for_the_same_call() {
        let key = StateKey::random().unwrap();
        let answers = HashMap::from([("k".to_owned(), serde_json::json!({"action": "decline"}))]);
        let ab = fingerprint(&args(&[("a", "1"), ("b", "2")]));
        let state = key.seal(&bound("p", &ab, ""), &answers, vec!["n".to_owned()]);
        // Argument order does not matter.
        let ba = fingerprint(&args(&[("b", "2"), ("a", "1")]));
        let opened = key.open(&state, &bound("p", &ba, "")).unwrap();
        assert_eq!(opened.answers, answers);
        assert_eq!(opened.asked, ["n"]);
        assert!(key.open(&state, &bound("q", &ab, "")).is_err());
        let a = fingerprint(&args(&[("a", "1")]));
        assert!(key.open(&state, &bound("p", &a, "")).is_err());
        assert!(
            StateKey::random()
                .unwrap()
                .open(&state, &bound("p", &ab, ""))
                .is_err()
        );
        let mut tampered = state.clone().into_bytes();
        tampered[3] ^= 1;
        let tampered = String::from_utf8(tampered).unwrap();
        let error = key.open(&tampered, &bound("p", &ab, "")).unwrap_err();
        assert_eq!(error.code(), Error::INVALID_PARAMS);
        assert!(key.open("garbage", &bound("p", &ab, "")).is_err());
    }

    #[test]
    fn a_state_opens_only_for_the_caller_it_was_issued_to() {
        let key = StateKey::random().unwrap();
        let none = fingerprint(&args(&[]));
        let issuer = "https://auth.example.com";
        let ann = crate::caller::principal(Some(&Caller::new("ann").with_issuer(issuer)));
        let bob = crate::caller::principal(Some(&Caller::new("bob").with_issuer(issuer)));
        let elsewhere =
            crate::caller::principal(Some(&Caller::new("ann").with_issuer("https://other")));
        let state = key.seal(&bound("p", &none, &ann), &HashMap::new(), Vec::new());
        assert!(key.open(&state, &bound("p", &none, &ann)).is_ok());
        for other in [&bob, &elsewhere, ""] {
            let error = key.open(&state, &bound("p", &none, other)).unwrap_err();
            assert!(error.message().contains("another caller"), "{error:?}");
        }
    }

    #[test]
    fn keys_from_the_same_secret_agree() {
        let (s, t) = (&[b's'; 32], &[b't'; 32]);
        let none = fingerprint(&args(&[]));
        let state = StateKey::from_secret(s).unwrap().seal(
            &bound("p", &none, ""),
            &HashMap::new(),
            Vec::new(),
        );
        let key = |secret| StateKey::from_secret(secret).unwrap();
        assert!(key(s).open(&state, &bound("p", &none, "")).is_ok());
        assert!(key(t).open(&state, &bound("p", &none, "")).is_err());
    }

    #[test]
    fn secrets_shorter_than_the_key_are_refused() {
        assert!(StateKey::from_secret(b"").is_none());
        assert!(StateKey::from_secret(&[7; 31]).is_none());
        assert!(StateKey::from_secret(&[7; 32]).is_some());
    }

    #[test]
    fn sealed_answers_win_and_unasked_questions_are_ignored() {
        use serde_json::json;
        let opened = Opened {
            answers: HashMap::from([("first".to_owned(), json!("sealed"))]),
            asked: vec!["second".to_owned()],
        };
        let answers = opened.answers_with(HashMap::from([
            ("first".to_owned(), json!("replaced")),
            ("second".to_owned(), json!("given")),
            ("never".to_owned(), json!("asked")),
        ]));
        assert_eq!(answers.len(), 2);
        assert_eq!(answers["first"], "sealed");
        assert_eq!(answers["second"], "given");
    }
}
