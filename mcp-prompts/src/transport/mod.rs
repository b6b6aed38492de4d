//! Transports carry messages between a client and a [`Session`](crate::Session).

mod connection;
pub(crate) mod edge;
mod empty;
#[cfg(feature = "http")]
pub(crate) mod http;
mod lines;
mod output;
mod signal;
mod stdio;
mod stream;

pub use edge::{Reply, ResponseFuture};
pub use signal::shutdown_signal;
