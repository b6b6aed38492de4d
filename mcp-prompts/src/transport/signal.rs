//! The signals a server stops on.

use std::future::Future;

/// Completes on Ctrl-C, or on SIGTERM where there is one (a container's
/// stop, a client ending the server it started): give it to
/// [`Server::serve_stdio_until`](crate::Server::serve_stdio_until) or
/// [`Service::serve_http_on`](crate::Service::serve_http_on) to finish the
/// requests in flight and return, so the process can flush its telemetry
/// and exit 0.
///
/// ```no_run
/// # async fn run() -> std::io::Result<()> {
/// mcp_prompts::Server::new("prompts", "1.0")
///     .serve_stdio_until(mcp_prompts::shutdown_signal())
///     .await
/// # }
/// ```
///
/// The signals are listened for from the call on (call it in a runtime,
/// before saying the server is up), so that none sent meanwhile is lost.
pub fn shutdown_signal() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let interrupt = signal(SignalKind::interrupt()).ok();
        let terminate = signal(SignalKind::terminate()).ok();
        async move {
            let (Some(mut interrupt), Some(mut terminate)) = (interrupt, terminate) else {
                // No signal handling here: Ctrl-C as tokio knows it.
                let _ = tokio::signal::ctrl_c().await;
                return;
            };
            std::future::poll_fn(|cx| {
                if interrupt.poll_recv(cx).is_ready() || terminate.poll_recv(cx).is_ready() {
                    std::task::Poll::Ready(())
                } else {
                    std::task::Poll::Pending
                }
            })
            .await;
        }
    }
    #[cfg(not(unix))]
    async {
        let _ = tokio::signal::ctrl_c().await;
    }
}
