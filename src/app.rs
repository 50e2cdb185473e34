//! Application wiring: shared state, the listener, serving with graceful shutdown.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::fetch::Fetcher;
use crate::metrics::Metrics;
use crate::planner::Planner;
use crate::planner::heuristic::HeuristicPlanner;
use crate::planner::llm::LlmPlanner;
use crate::run::page::PageBudget;
use crate::run::request::Rejection;
use crate::run::{Hub, HubSettings, PlannerChoice, RunDeps, ValidRequest, WatchSettings};
use crate::settings::{DefaultPlanner, Settings};
use crate::store::Store;
use crate::tools::Registry;

/// The planners a run can use.
#[derive(Clone)]
pub struct Planners {
    /// Always available.
    pub heuristic: Arc<dyn Planner>,
    /// Present when `[llm] base_url` is set.
    pub llm: Option<Arc<dyn Planner>>,
}

impl std::fmt::Debug for Planners {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Planners")
            .field("llm", &self.llm.is_some())
            .finish()
    }
}

/// State shared by every handler.
#[derive(Debug, Clone)]
pub struct AppState {
    /// Settings in force.
    pub settings: Arc<Settings>,
    /// The page fetcher.
    pub fetcher: Fetcher,
    /// The tool registry.
    pub registry: Arc<Registry>,
    /// The memory budget of parsed pages, shared by every run.
    pub page_budget: PageBudget,
    /// The planners.
    pub planners: Planners,
    /// Live runs.
    pub hub: Hub,
    /// The server's Prometheus metrics.
    pub metrics: Arc<Metrics>,
    /// Cancelled at shutdown once the runs have ended: connections that would stay open by
    /// themselves (MCP sessions and their streams) close then, instead of at the drain time.
    pub closing: CancellationToken,
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StartupError {
    /// The address could not be bound.
    #[error("cannot listen on {0}: {1}")]
    Bind(SocketAddr, std::io::Error),
    /// The HTTP client could not be built.
    #[error("cannot build the HTTP client: {0}")]
    Client(#[from] reqwest::Error),
    /// The fetcher's settings are unusable.
    #[error("cannot build the fetcher: {0}")]
    Fetcher(#[from] crate::fetch::BuildError),
    /// The session store could not be opened or migrated.
    #[error("cannot open the session store: {0}")]
    Store(#[from] crate::store::StoreError),
    /// Another server uses the same SQLite file (it holds the lock file named here).
    #[error(
        "another scrape-agent server is using this SQLite database: its lock file {} is held \
         (one server per SQLite file; stop the other one, give this one a database of its own, \
         or share PostgreSQL between several)",
        .0.display()
    )]
    StoreLocked(std::path::PathBuf),
    /// `planner.default` is `llm` but no LLM is configured.
    #[error("planner.default is \"llm\" but [llm] base_url is empty")]
    LlmRequired,
    /// Other I/O failure.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl AppState {
    /// Opens the store, starts the hub and its background tasks, and builds the planners: all
    /// a run needs, without a listener (`scrape-agent mcp` serves on stdio with this alone).
    ///
    /// # Errors
    /// When a dependency cannot start.
    pub async fn build(settings: Settings) -> Result<Self, StartupError> {
        if settings.planner.default == DefaultPlanner::Llm && !settings.llm.is_configured() {
            return Err(StartupError::LlmRequired);
        }
        let settings = Arc::new(settings);
        // Locks a SQLite file before anything reads it: a second server on the same file stops
        // here, before it could take the first one's live runs for a crash's leftovers.
        let store =
            Store::connect_exclusive(&settings.database)
                .await
                .map_err(|err| match err {
                    crate::store::StoreError::Locked(path) => StartupError::StoreLocked(path),
                    other => StartupError::Store(other),
                })?;
        let stale_after = Duration::from_secs(settings.runs.stale_after_secs.max(1));
        // A SQLite file has one server: whatever it left running was cut off by a crash. A
        // shared PostgreSQL may hold live runs of other instances: only stale ones are closed.
        let stale_before = store.is_shared().then(|| {
            chrono::Utc::now() - chrono::Duration::from_std(stale_after).unwrap_or_default()
        });
        let closed = store.interrupt_running(stale_before).await?;
        if !closed.is_empty() {
            tracing::warn!(
                count = closed.len(),
                "sessions interrupted by the last stop were closed"
            );
        }
        tracing::info!(backend = store.backend(), "session store ready");
        let metrics = Arc::new(Metrics::new());
        let hub = Hub::new(
            store.clone(),
            HubSettings {
                max_runs: settings.limits.max_concurrent_runs,
                orphan_grace: Duration::from_secs(settings.runs.orphan_grace_secs),
                run_timeout: Duration::from_secs(settings.limits.run_timeout_secs),
                replay_page: settings.runs.replay_page_events,
                max_runs_per_key: settings.auth.max_runs_per_key,
            },
        )
        .with_metrics(metrics.clone());
        hub.spawn_watcher(WatchSettings {
            cancel_poll: Duration::from_millis(settings.runs.cancel_poll_ms.max(10)),
            heartbeat: Duration::from_secs(settings.runs.heartbeat_secs.max(1)),
            stale_after,
        });
        spawn_retention(
            store,
            settings.store.retention_days,
            settings.store.retention_batch,
            Duration::from_secs(settings.store.retention_check_secs.max(1)),
        );
        let registry = Arc::new(Registry::builtin());
        // The LLM planner checks the model's calls against the same registry that runs them.
        let llm: Option<Arc<dyn Planner>> = if settings.llm.is_configured() {
            Some(Arc::new(LlmPlanner::new(&settings.llm, registry.clone())?))
        } else {
            None
        };
        let state = Self {
            fetcher: Fetcher::new(&settings.fetch)?,
            registry,
            page_budget: PageBudget::new(&settings.limits),
            planners: Planners {
                heuristic: Arc::new(HeuristicPlanner),
                llm,
            },
            hub,
            metrics,
            settings,
            closing: CancellationToken::new(),
        };
        Ok(state)
    }

    /// The dependencies of a run: the planner the request asks for (with the heuristic one as
    /// its fallback), the fetcher, the registry and the settings. The same for every face of
    /// the server (HTTP, MCP).
    ///
    /// # Errors
    /// `llm_not_configured` when the request asks for the LLM planner and none is configured.
    pub fn run_deps(&self, request: &ValidRequest) -> Result<RunDeps, Rejection> {
        let heuristic = self.planners.heuristic.clone();
        let choice = match (request.planner, self.settings.planner.default) {
            (PlannerChoice::Auto, DefaultPlanner::Heuristic) => PlannerChoice::Heuristic,
            (PlannerChoice::Auto, DefaultPlanner::Llm) => PlannerChoice::Llm,
            (chosen, _) => chosen,
        };
        let (planner, uses_llm) = match (choice, &self.planners.llm) {
            (PlannerChoice::Heuristic, _) | (PlannerChoice::Auto, None) => {
                (heuristic.clone(), false)
            }
            (PlannerChoice::Llm | PlannerChoice::Auto, Some(llm)) => (llm.clone(), true),
            (PlannerChoice::Llm, None) => {
                return Err(Rejection {
                    code: "llm_not_configured",
                    message: "planner `llm` was asked for but no [llm] base_url is configured"
                        .into(),
                    details: serde_json::Value::Null,
                });
            }
        };
        if uses_llm && let Some(model) = &request.model {
            let llm = &self.settings.llm;
            let allowed: Vec<&str> = if llm.allowed_models.is_empty() {
                vec![llm.model.as_str()]
            } else {
                llm.allowed_models.iter().map(String::as_str).collect()
            };
            if !allowed.contains(&model.as_str()) {
                return Err(Rejection {
                    code: "model_not_allowed",
                    message: format!(
                        "model `{model}` is not allowed here; allowed: {} (llm.allowed_models)",
                        allowed.join(", ")
                    ),
                    details: serde_json::json!({"given": model, "allowed": allowed}),
                });
            }
        }
        Ok(RunDeps {
            settings: self.settings.clone(),
            fetcher: self.fetcher.clone(),
            registry: self.registry.clone(),
            planner,
            fallback: heuristic,
            page_budget: self.page_budget.clone(),
        })
    }
}

/// A bound, ready-to-serve application.
#[derive(Debug)]
pub struct Application {
    listener: TcpListener,
    state: AppState,
    limits: crate::http::listener::ConnectionLimits,
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
        let open_files = crate::http::listener::raise_open_file_limit();
        let limits = crate::http::listener::ConnectionLimits::new(&settings.server, open_files);
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
        let grace = Duration::from_secs(self.state.settings.server.shutdown_grace_secs);
        let drain = Duration::from_secs(self.state.settings.server.shutdown_drain_secs);
        let router = crate::http::router(self.state);
        let (runs_ended_tx, runs_ended) = tokio::sync::oneshot::channel::<()>();
        let served = crate::http::listener::serve(self.listener, router, self.limits, async move {
            shutdown.await;
            tracing::info!("shutting down: refusing new runs, letting running ones finish");
            hub.shutdown(grace, drain).await;
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

/// Deletes sessions older than `days` (0 keeps them) now and every `every` after.
fn spawn_retention(store: Store, days: u32, batch: u32, every: Duration) {
    if days == 0 {
        return;
    }
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        loop {
            tick.tick().await;
            if store.is_closed() {
                return;
            }
            match store.delete_older_than(days, batch).await {
                Ok(0) => {}
                Ok(count) => tracing::info!(count, days, "deleted sessions past retention"),
                Err(err) => tracing::warn!(%err, "retention sweep failed"),
            }
        }
    });
}

/// Resolves on Ctrl-C or SIGTERM.
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
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}
