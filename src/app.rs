//! Application state shared by every face (HTTP, MCP, the CLI): the store, the hub of runs, the
//! planners, the fetcher and the registry, and the background retention sweep. Serving it over
//! HTTP is the `http` module's `Application`.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::fetch::Fetcher;
use crate::metrics::Metrics;
use crate::planner::heuristic::HeuristicPlanner;
use crate::planner::llm::LlmPlanner;
use crate::planner::{Planner, WordsReader};
use crate::run::page::PageBudget;
use crate::run::request::Rejection;
use crate::run::{
    Admission, Hub, HubSettings, PlannerChoice, QUEUE_SWEEP, RunDeps, ScrapeRequest, StartError,
    ValidRequest, WatchSettings,
};
use crate::settings::{DefaultPlanner, Settings};
use crate::store::Store;
use crate::tools::Registry;

/// The header that carries a request's id (the client's own when it sends one). HTTP sets it;
/// MCP over HTTP reads it into its runs.
pub const REQUEST_ID: axum::http::HeaderName = axum::http::HeaderName::from_static("x-request-id");

/// Which of `auth.api_keys` a request came with (its position), for per-key limits. HTTP's
/// access layer sets it; MCP over HTTP reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyId(pub usize);

/// The request's id (`X-Request-Id`: the client's own, or the one the router gave it).
pub fn request_id(headers: &axum::http::HeaderMap) -> Option<String> {
    headers
        .get(REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// What a face knows about where a run's request came from.
#[derive(Debug, Clone, Default)]
pub struct RunOrigin {
    /// The request's id, carried into the run's session and logs.
    pub request_id: Option<String>,
    /// The API key the request came with: the run counts against that key's own limit too.
    pub key: Option<KeyId>,
    /// Whether the run goes on with no one following it (`POST /api/scrape`): a run someone
    /// follows is cancelled when they all leave.
    pub detached: bool,
}

/// Why [`AppState::start_run`] started no run. Each face turns it into its own error shape
/// (an HTTP status and JSON body, an MCP tool error, a CLI exit status).
#[derive(Debug, thiserror::Error)]
pub enum StartRefusal {
    /// The request cannot run here: it breaks a limit, or asks for a planner or a model this
    /// server does not offer.
    #[error("{}: {}", .0.code, .0.message)]
    Rejected(Rejection),
    /// The request is fine, but the hub took no run now (too many runs, shutting down, the
    /// session id taken, the store failing).
    #[error(transparent)]
    NotStarted(#[from] StartError),
}

impl From<Rejection> for StartRefusal {
    fn from(rejection: Rejection) -> Self {
        Self::Rejected(rejection)
    }
}

/// The planners a run can use.
#[derive(Clone)]
pub struct Planners {
    /// Always available.
    pub heuristic: Arc<dyn Planner>,
    /// Present when `[llm] base_url` is set.
    pub llm: Option<Arc<dyn Planner>>,
    /// The same model reading only a request's words (`planner: llm_words`).
    pub words: Option<Arc<dyn WordsReader>>,
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
    /// The browser that renders script-built pages.
    pub browser: Arc<crate::browser::Browser>,
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
        let store = Store::connect_exclusive(&settings.database)
            .await
            .map_err(|err| match err {
                crate::store::StoreError::Locked(path) => StartupError::StoreLocked(path),
                other => StartupError::Store(other),
            })?
            .with_lease(Duration::from_secs(settings.runs.lease_secs.max(1)));
        let stale_after = Duration::from_secs(settings.runs.stale_after_secs.max(1));
        // A shared PostgreSQL may hold runs of stopped instances nobody had room to claim:
        // stale ones are closed. A SQLite file has one server, so whatever it left running was
        // cut off by a crash: those runs are resumed below, not closed.
        if store.is_shared() {
            let stale_before =
                chrono::Utc::now() - chrono::Duration::from_std(stale_after).unwrap_or_default();
            let closed = store.interrupt_running(Some(stale_before)).await?;
            if !closed.is_empty() {
                tracing::warn!(
                    count = closed.len(),
                    "sessions interrupted by the last stop were closed"
                );
            }
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
        let model: Option<Arc<LlmPlanner>> = if settings.llm.is_configured() {
            Some(Arc::new(LlmPlanner::new(&settings.llm, registry.clone())?))
        } else {
            None
        };
        let llm = model.clone().map(|m| m as Arc<dyn Planner>);
        let words = model.map(|m| m as Arc<dyn WordsReader>);
        let guard = crate::fetch::guard::Guard::from_settings(&settings.fetch)
            .map_err(crate::fetch::BuildError::Settings)?;
        let browser = Arc::new(crate::browser::Browser::new(
            &settings.browser,
            Arc::new(guard),
        ));
        let gauges = &browser.gauges;
        metrics.register(
            "browser_renders_active",
            "Renders running in the browser now",
            gauges.active.clone(),
        );
        metrics.register(
            "browser_renders_waiting",
            "Renders waiting for a slot or for free memory",
            gauges.waiting.clone(),
        );
        metrics.register("browser_renders", "Renders done", gauges.done.clone());
        metrics.register(
            "browser_launches",
            "Browser processes started",
            gauges.launches.clone(),
        );
        metrics.register(
            "browser_rss_bytes",
            "Resident memory of the browser's process group, summed over its processes",
            gauges.rss_bytes.clone(),
        );
        metrics.register(
            "browser_rss_recycles",
            "Browsers replaced because their resident memory passed browser.recycle_rss_mib",
            gauges.rss_recycles.clone(),
        );
        match browser.executable() {
            Some(path) => tracing::info!(browser = %path.display(), "rendering available"),
            None => tracing::warn!(
                "rendering unavailable: no browser found (install the Debian package `{}`); pages are read from their HTML",
                crate::browser::PACKAGE
            ),
        }
        let state = Self {
            browser,
            fetcher: Fetcher::new(&settings.fetch)?,
            registry,
            page_budget: PageBudget::new(&settings.limits),
            planners: Planners {
                heuristic: Arc::new(HeuristicPlanner),
                llm,
                words,
            },
            hub,
            metrics,
            settings,
            closing: CancellationToken::new(),
        };
        // Webhook deliveries of any instance's runs, from the store's outbox; stops at shutdown.
        crate::run::webhooks::Sender::new(
            state.hub.store().clone(),
            state.fetcher.clone(),
            state.settings.webhooks.clone(),
            crate::run::webhooks::DeliveryMetrics::registered(&state.metrics),
        )
        .spawn(state.closing.clone());
        // Runs stopped instances left (on SQLite: the previous server on this file) are
        // resumed here when there is room, with the dependencies a request gets here (the same
        // one answer as a new run's): first now, before any new or queued run takes the room.
        let resumer = state.clone();
        let deps_for: Arc<crate::run::hub::DepsFor> = Arc::new(move |request: &ValidRequest| {
            resumer.run_deps(request).map_err(|refused| refused.message)
        });
        let max_attempts = state.settings.runs.max_attempts.max(1);
        state
            .hub
            .resume_left_runs(max_attempts, deps_for.as_ref())
            .await;
        let lease = state.hub.store().lease();
        state.hub.spawn_claimer(
            Duration::from_secs(1).min(lease / 3),
            max_attempts,
            deps_for.clone(),
        );
        // Detached runs queued when every slot was taken start here when there is room.
        state.hub.spawn_queue_claimer(QUEUE_SWEEP, deps_for);
        Ok(state)
    }

    /// Starts a run of `request`: the one way every face (HTTP, MCP, the CLI) starts one. The
    /// request is checked against the limits, given its planners, and handed to the hub; the
    /// run's session id comes back.
    ///
    /// # Errors
    /// [`StartRefusal::Rejected`] for a request that cannot run here,
    /// [`StartRefusal::NotStarted`] when the hub takes no run now.
    pub async fn start_run(
        &self,
        request: ScrapeRequest,
        origin: RunOrigin,
    ) -> Result<String, StartRefusal> {
        let (valid, deps, key) = self.admit(request, &origin).await?;
        Ok(self
            .hub
            .start_for(deps, valid, origin.detached, key)
            .await?)
    }

    /// Starts a detached run of `request` like [`AppState::start_run`], or, when every slot of
    /// this instance is taken, queues it in the store for the first instance with room.
    ///
    /// # Errors
    /// As [`AppState::start_run`], except that a busy server queues rather than refuses.
    pub async fn start_or_queue(
        &self,
        request: ScrapeRequest,
        origin: RunOrigin,
    ) -> Result<Admission, StartRefusal> {
        let (valid, deps, key) = self.admit(request, &origin).await?;
        Ok(self.hub.start_or_queue(deps, valid, key).await?)
    }

    /// A request checked against the limits, with its dependencies and the position of the
    /// API key it came with.
    async fn admit(
        &self,
        request: ScrapeRequest,
        origin: &RunOrigin,
    ) -> Result<(ValidRequest, RunDeps, Option<usize>), StartRefusal> {
        let mut valid = request.validate(&self.settings.limits)?;
        if let Some(crawl) = &valid.crawl {
            crawl.check(&self.settings.crawl)?;
        }
        if let Some(hook) = &valid.webhook {
            self.check_webhook(&hook.url).await?;
        }
        valid.request_id.clone_from(&origin.request_id);
        let deps = self.run_deps(&valid)?;
        let key = origin.key.map(|KeyId(position)| position);
        Ok((valid, deps, key))
    }

    /// Starts a run like [`AppState::start_run`] and waits for its `complete` event: the
    /// answer of a run for a client that wants no stream. The wait is bounded by the run's own
    /// timeout (`limits.run_timeout_secs`, after which the run ends itself with `complete`),
    /// with a margin for the run to write its end.
    ///
    /// # Errors
    /// As [`AppState::start_run`]; `Ok(None)` when the events ended without `complete` (the
    /// server shutting down) or the wait outlived its bound.
    pub async fn run_to_completion(
        &self,
        request: ScrapeRequest,
        origin: RunOrigin,
    ) -> Result<(String, Option<crate::events::CompleteData>), StartRefusal> {
        use futures::StreamExt;
        let id = self.start_run(request, origin).await?;
        let bound = Duration::from_secs(self.settings.limits.run_timeout_secs.saturating_add(30));
        let mut events = std::pin::pin!(self.hub.subscribe(&id, 0));
        let complete = tokio::time::timeout(bound, async {
            while let Some(event) = events.next().await {
                if let Ok(crate::events::EventPayload::Complete(complete)) =
                    crate::events::EventPayload::from_event(&event)
                {
                    return Some(*complete);
                }
            }
            None
        })
        .await
        .ok()
        .flatten();
        Ok((id, complete))
    }

    /// Whether this server can deliver to webhook `url`: a signing secret is configured, and the
    /// fetcher's address guard lets it reach the URL's host (every address it resolves to),
    /// unless the server allows private addresses — the rule every page fetch follows, checked
    /// before the run starts.
    ///
    /// # Errors
    /// `webhooks_not_configured`, `blocked_address`, or `invalid_webhook` (not a URL the fetcher
    /// takes, or a host that does not resolve).
    async fn check_webhook(&self, url: &str) -> Result<(), Rejection> {
        if !self.settings.webhooks.is_configured() {
            return Err(Rejection::new(
                "webhooks_not_configured",
                "this server sends no webhooks: set webhooks.secret (SCRAPE_AGENT__WEBHOOKS__SECRET) \
                 to sign them",
                serde_json::json!({"url": url}),
            ));
        }
        let parsed = url::Url::parse(url).map_err(|err| {
            Rejection::new(
                "invalid_webhook",
                format!("webhook `{url}` is not a URL: {err}"),
                serde_json::json!({"url": url}),
            )
        })?;
        match self.fetcher.check_target(&parsed).await {
            Ok(()) => Ok(()),
            Err(err @ crate::fetch::FetchError::BlockedAddress(_)) => Err(Rejection::new(
                "blocked_address",
                format!("webhook `{url}`: {err}"),
                serde_json::json!({"url": url}),
            )),
            Err(err) => Err(Rejection::new(
                "invalid_webhook",
                format!("webhook `{url}`: {err}"),
                serde_json::json!({"url": url}),
            )),
        }
    }

    /// The dependencies of a run: the planner the request asks for (with the heuristic one as
    /// its fallback), the fetcher, the registry and the settings.
    ///
    /// # Errors
    /// `llm_not_configured` when the request asks for the LLM planner and none is configured.
    fn run_deps(&self, request: &ValidRequest) -> Result<RunDeps, Rejection> {
        let heuristic = self.planners.heuristic.clone();
        let choice = match (request.planner, self.settings.planner.default) {
            (PlannerChoice::Auto, DefaultPlanner::Heuristic) => PlannerChoice::Heuristic,
            (PlannerChoice::Auto, DefaultPlanner::Llm) => PlannerChoice::Llm,
            (chosen, _) => chosen,
        };
        let words = match (choice, &self.planners.words) {
            (PlannerChoice::LlmWords, Some(words)) => Some(words.clone()),
            (PlannerChoice::LlmWords, None) => {
                return Err(Rejection {
                    code: "llm_not_configured",
                    message:
                        "planner `llm_words` was asked for but no [llm] base_url is configured"
                            .into(),
                    details: serde_json::Value::Null,
                });
            }
            _ => None,
        };
        let (planner, uses_llm) = match (choice, &self.planners.llm) {
            (PlannerChoice::Heuristic, _) | (PlannerChoice::Auto, None) => {
                (heuristic.clone(), false)
            }
            (PlannerChoice::LlmWords, _) => (heuristic.clone(), true),
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
            words,
            page_budget: self.page_budget.clone(),
            browser: self.browser.clone(),
        })
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

/// The request that reads each URL's main content (the article, without navigation and
/// boilerplate) and answers it as Markdown: `GET /api/markdown`, `run --markdown`. An explicit
/// one-call plan, so no planner decides.
pub fn markdown_request(urls: Vec<String>) -> ScrapeRequest {
    ScrapeRequest {
        output_format: Some(crate::output::OutputFormat::Markdown.as_str().to_owned()),
        tools: Some(vec![crate::tools::ToolCall::new(
            "extract.main_content",
            serde_json::json!({}),
            "the page's main content as Markdown",
        )]),
        ..ScrapeRequest::new(urls, String::new())
    }
}
