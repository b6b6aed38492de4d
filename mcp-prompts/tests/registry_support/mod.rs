//! What the registry's tests run against: a real PostgreSQL, nginx in
//! front of replicas, and a plain HTTP client.
// Each test binary uses some of these.
#![allow(dead_code)]

pub mod http;
pub mod nginx;
pub mod postgres;

/// A port nothing listens on now.
pub fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}
