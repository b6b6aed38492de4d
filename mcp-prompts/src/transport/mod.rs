//! Transports carry messages between a client and a [`Session`](crate::Session).

mod lines;
mod stdio;
