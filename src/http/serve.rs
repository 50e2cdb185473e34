//! A bound server: the listener, the application state, and serving with graceful shutdown.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::net::TcpListener;

use crate::app::{AppState, StartupError};
use crate::settings::Settings;

/// A bound, ready-to-serve application.
#[derive(Debug)]
pub struct Application {
    listener: TcpListener,
    state: AppState,
    limits: super::listener::ConnectionLimits,
}

impl Application {
    /// Builds state and binds `settings.server.bind` (port 0 picks a free port).
    ///
    /// # Errors
    /// When the address cannot be bound or a dependency cannot start.
    pub async fn build(settings: Settings) -> Result<Self, StartupError> {
        let listener = TcpListener::bind(settings.server.bind)
            .await
            .map_err(|e| StartupError::Bind(settings.server.bind, e))?;
        let open_files = super::listener::raise_open_file_limit();
        let limits = super::listener::ConnectionLimits::new(&settings.server, open_files);
        tracing::info!(
            open_files,
            max_connections = limits.max_connections,
            "connection limits"
        );
        let state = AppState::build(settings).await?;
        Ok(Self {
            listener,
            state,
            limits,
        })
    }

    /// The address actually bound.
    ///
    /// # Errors
    /// When the socket has no local address.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The shared state (for tests and embedding).
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until `shutdown` resolves, then shuts down in order: new runs are refused at
    /// once (503 `shutting_down`) while connections are still answered, running ones get
    /// `server.shutdown_grace_secs` to finish, the rest are cancelled (each stores its
    /// `complete`), then the listener closes and open connections get
    /// `server.shutdown_drain_secs` to end. Returns within grace + 2 × drain.
    ///
    /// # Errors
    /// When serving fails.
    pub async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let hub = self.state.hub.clone();
        let closing = self.state.closing.clone();
        let store = hub.store().clone();
        let browser = self.state.browser.clone();
        let grace = Duration::from_secs(self.state.settings.server.shutdown_grace_secs);
        let drain = Duration::from_secs(self.state.settings.server.shutdown_drain_secs);
        let router = super::router(self.state);
        let (runs_ended_tx, runs_ended) = tokio::sync::oneshot::channel::<()>();
        let served = super::listener::serve(self.listener, router, self.limits, async move {
            shutdown.await;
            tracing::info!("shutting down: refusing new runs, letting running ones finish");
            hub.shutdown(grace, drain).await;
            // No browser process outlives the server: its whole process group is killed.
            browser.shutdown().await;
            closing.cancel();
            let _ = runs_ended_tx.send(());
        });
        // Streams of finished runs end by themselves; a connection that lingers past the drain
        // time (a client following another instance's run) does not hold the process.
        let drain_deadline = async move {
            if runs_ended.await.is_ok() {
                tokio::time::sleep(drain).await;
            } else {
                std::future::pending::<()>().await;
            }
        };
        let result = tokio::select! {
            served = served => served,
            () = drain_deadline => {
                tracing::warn!("connections still open after the drain time; closing them");
                Ok(())
            }
        };
        // Every run has stored its `complete` by now; closing also ends the retention task.
        store.close().await;
        result
    }
}
