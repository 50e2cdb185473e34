//! `scrape-agent mcp`: the MCP tools over stdin/stdout, for clients that launch a process.
//!
//! stdout carries the protocol and nothing else (logs go to stderr, see `main.rs`). The
//! process serves until the client closes stdin or a signal arrives, then shuts the hub down
//! the way the HTTP server does, so every run it started ends with a stored `complete`.

use std::time::Duration;

use rmcp::ServiceExt;

use super::ScrapeMcp;
use crate::app::AppState;

/// Why the stdio server stopped with an error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StdioError {
    /// The MCP handshake failed (the client spoke something else, or closed at once).
    #[error("the MCP session could not start: {0}")]
    Initialize(String),
    /// The service task ended abnormally.
    #[error("the MCP session ended abnormally: {0}")]
    Join(#[from] tokio::task::JoinError),
}

/// Serves MCP on stdin/stdout until the client leaves or `shutdown` resolves.
///
/// # Errors
/// When the session cannot start or its task fails.
pub async fn serve(
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), StdioError> {
    let hub = state.hub.clone();
    let grace = Duration::from_secs(state.settings.server.shutdown_grace_secs);
    let drain = Duration::from_secs(state.settings.server.shutdown_drain_secs);
    let served = ScrapeMcp::new(state)
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|err| StdioError::Initialize(err.to_string()));
    let result = match served {
        Ok(service) => {
            let token = service.cancellation_token();
            tokio::select! {
                ended = service.waiting() => ended.map(|reason| {
                    tracing::info!(?reason, "MCP client closed the session");
                }).map_err(StdioError::from),
                () = shutdown => {
                    tracing::info!("shutting down the MCP session");
                    token.cancel();
                    Ok(())
                }
            }
        }
        Err(err) => Err(err),
    };
    // Calls still going were dropped with the session, which cancelled their runs; the hub
    // gives them the same grace as an HTTP shutdown to store their `complete`.
    hub.shutdown(grace, drain).await;
    hub.store().close().await;
    result
}
