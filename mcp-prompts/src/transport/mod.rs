//! Transports carry messages between a client and a [`Session`](crate::Session).

mod connection;
#[cfg(feature = "http")]
pub(crate) mod http;
mod lines;
mod output;
mod stdio;
mod stream;
