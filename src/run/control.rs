//! Stopping a run: an explicit cancel, the run timeout, abandonment or shutdown, with the
//! reason kept so `complete` can say why.

use std::sync::{Arc, Mutex};

use tokio_util::sync::CancellationToken;

/// Why a run stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// `DELETE /api/scrape/{id}`.
    Cancelled,
    /// Nobody listened for the grace period.
    Abandoned,
    /// `limits.run_timeout_secs` passed.
    Timeout,
    /// The server is shutting down.
    Shutdown,
    /// The session store failed (or another instance took the session over): the run cannot
    /// record what it does, so it stops.
    StoreFailed,
    /// The run's body failed unexpectedly (a panic); the supervisor ended it.
    Internal,
}

/// A cancellation token plus the first reason given.
#[derive(Debug, Clone, Default)]
pub struct RunControl {
    token: CancellationToken,
    reason: Arc<Mutex<Option<StopReason>>>,
}

impl RunControl {
    /// A control that has not been stopped.
    pub fn new() -> Self {
        Self::default()
    }

    /// A control stopped also when `parent` is cancelled (then the reason is
    /// [`StopReason::Shutdown`]: the parent is the server's root token).
    pub fn child_of(parent: &CancellationToken) -> Self {
        Self {
            token: parent.child_token(),
            reason: Arc::default(),
        }
    }

    /// Stops the run; the first reason wins.
    pub fn stop(&self, reason: StopReason) {
        if let Ok(mut current) = self.reason.lock() {
            current.get_or_insert(reason);
        }
        self.token.cancel();
    }

    /// Whether the run was stopped.
    pub fn is_stopped(&self) -> bool {
        self.token.is_cancelled()
    }

    /// Resolves when the run is stopped.
    pub async fn stopped(&self) {
        self.token.cancelled().await;
    }

    /// What stops a tool of this run mid-way: the run's token, so a cancel, the run timeout,
    /// abandonment and shutdown all reach a tool that is running.
    pub fn interrupt(&self) -> crate::page::Interrupt {
        crate::page::Interrupt::from_token(self.token.clone())
    }

    /// Why it stopped, if it did.
    pub fn reason(&self) -> Option<StopReason> {
        let given = self.reason.lock().ok().and_then(|r| *r);
        given.or_else(|| self.token.is_cancelled().then_some(StopReason::Shutdown))
    }
}
