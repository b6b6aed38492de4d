//! Transports carry messages between a client and a [`Session`](crate::Session).

mod connection;
mod empty;
#[cfg(feature = "http")]
pub(crate) mod http;
mod lines;
mod output;
mod signal;
mod stdio;
mod stream;

pub use signal::shutdown_signal;
