//! Progress a request's client asked for, by sending a `progressToken` in
//! its `_meta`: values only grow, and nothing is sent once the request is
//! answered.

use std::sync::Mutex;

use crate::sync::lock;
use serde_json::value::RawValue;

/// One request's progress token and how far it has been reported.
pub(crate) struct Progress {
    token: Box<RawValue>,
    /// The last value sent, and whether the request has been answered.
    state: Mutex<(Option<f64>, bool)>,
}

impl Progress {
    pub(crate) fn new(token: &RawValue) -> Self {
        Self {
            token: token.to_owned(),
            state: Mutex::new((None, false)),
        }
    }

    pub(crate) fn token(&self) -> &RawValue {
        &self.token
    }

    /// Whether `value` may be sent now: above the last value sent, and
    /// before the response. Records it if so.
    pub(crate) fn advance(&self, value: f64) -> bool {
        let mut state = lock(&self.state);
        let (last, answered) = &mut *state;
        if *answered || !value.is_finite() || last.is_some_and(|last| value <= last) {
            return false;
        }
        *last = Some(value);
        true
    }

    /// The request is answered: no progress after this.
    pub(crate) fn stop(&self) {
        lock(&self.state).1 = true;
    }
}
