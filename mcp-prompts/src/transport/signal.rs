//! The signals a server stops on.

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
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    let mut ctrl_c = std::pin::pin!(ctrl_c);
    let mut terminate = std::pin::pin!(terminate);
    std::future::poll_fn(|cx| {
        if ctrl_c.as_mut().poll(cx).is_ready() || terminate.as_mut().poll(cx).is_ready() {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    })
    .await;
}
