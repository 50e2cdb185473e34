//! Prometheus metrics, read off the events a run stores (so they count what clients see) and
//! off the hub (runs, subscribers) and the store (append latency). Served at `/metrics`.
//!
//! One registry per server, no global state: several servers in one process (the tests) keep
//! their own figures.

use std::sync::Mutex;
use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

use crate::events::{
    DecisionDetails, EventPayload, FetchDetails, StepPayload, StepStatus, UrlStatus,
};

/// A `status` label.
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct StatusLabel {
    status: String,
}

/// A `code` label.
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CodeLabel {
    code: String,
}

/// A `planner` label.
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct PlannerLabel {
    planner: String,
}

/// `tool` and `outcome` labels.
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ToolLabel {
    tool: String,
    outcome: String,
}

/// A `kind` label (prompt or completion tokens).
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct KindLabel {
    kind: String,
}

type HistogramFamily<L> = Family<L, Histogram, fn() -> Histogram>;

fn seconds_histogram() -> Histogram {
    // 1 ms … ~65 s
    Histogram::new(exponential_buckets(0.001, 2.0, 17))
}

/// The server's metrics.
pub struct Metrics {
    registry: Mutex<Registry>,
    runs_started: Counter,
    lease_losses: Counter,
    runs_resumed: Counter,
    leases_handed_back: Counter,
    runs_queued: Counter,
    queue_claims: Counter,
    queue_depth: Gauge,
    runs_active: Gauge,
    runs_finished: Family<StatusLabel, Counter>,
    urls_finished: Family<StatusLabel, Counter>,
    events_stored: Counter,
    fetch_seconds: Histogram,
    fetch_bytes: Histogram,
    fetch_failures: Family<CodeLabel, Counter>,
    tool_calls: Family<ToolLabel, Counter>,
    tool_seconds: HistogramFamily<ToolLabel>,
    errors: Family<CodeLabel, Counter>,
    planner_rounds: Family<PlannerLabel, Counter>,
    llm_tokens: Family<KindLabel, Counter>,
    subscribers: Gauge,
    store_append_seconds: Histogram,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    /// Every metric, registered under the `scrape_agent` prefix.
    pub fn new() -> Self {
        let mut registry = Registry::with_prefix("scrape_agent");
        let metrics = Self {
            runs_started: Counter::default(),
            lease_losses: Counter::default(),
            runs_resumed: Counter::default(),
            leases_handed_back: Counter::default(),
            runs_queued: Counter::default(),
            queue_claims: Counter::default(),
            queue_depth: Gauge::default(),
            runs_active: Gauge::default(),
            runs_finished: Family::default(),
            urls_finished: Family::default(),
            events_stored: Counter::default(),
            fetch_seconds: seconds_histogram(),
            // 1 KiB … 64 MiB
            fetch_bytes: Histogram::new(exponential_buckets(1024.0, 4.0, 9)),
            fetch_failures: Family::default(),
            tool_calls: Family::default(),
            tool_seconds: Family::new_with_constructor(seconds_histogram),
            errors: Family::default(),
            planner_rounds: Family::default(),
            llm_tokens: Family::default(),
            subscribers: Gauge::default(),
            store_append_seconds: seconds_histogram(),
            registry: Mutex::new(Registry::default()),
        };
        registry.register("runs_started", "Runs started", metrics.runs_started.clone());
        registry.register(
            "lease_losses",
            "Runs stopped because this instance lost their lease",
            metrics.lease_losses.clone(),
        );
        registry.register(
            "runs_resumed",
            "Runs this instance took over after their lease expired or was handed back",
            metrics.runs_resumed.clone(),
        );
        registry.register(
            "leases_handed_back",
            "Leases this instance handed back at shutdown for another instance to resume",
            metrics.leases_handed_back.clone(),
        );
        registry.register(
            "runs_queued",
            "Detached runs this instance put in the store's queue because every slot was taken",
            metrics.runs_queued.clone(),
        );
        registry.register(
            "queue_claims",
            "Queued runs this instance claimed and started",
            metrics.queue_claims.clone(),
        );
        registry.register(
            "queue_depth",
            "Runs waiting in the store's queue (every instance's), as of this instance's last \
             look: each enqueue, claim and sweep",
            metrics.queue_depth.clone(),
        );
        registry.register(
            "runs_active",
            "Runs executing now",
            metrics.runs_active.clone(),
        );
        registry.register(
            "runs_finished",
            "Runs finished, by final status",
            metrics.runs_finished.clone(),
        );
        registry.register(
            "urls_finished",
            "URLs finished, by status",
            metrics.urls_finished.clone(),
        );
        registry.register(
            "events_stored",
            "Events stored (every event a client can see)",
            metrics.events_stored.clone(),
        );
        registry.register(
            "fetch_duration_seconds",
            "Time to fetch a page, waits for the host included",
            metrics.fetch_seconds.clone(),
        );
        registry.register(
            "fetch_body_bytes",
            "Body bytes of fetched pages",
            metrics.fetch_bytes.clone(),
        );
        registry.register(
            "fetch_failures",
            "Fetches that failed, by error code",
            metrics.fetch_failures.clone(),
        );
        registry.register(
            "tool_calls",
            "Tool calls, by tool and outcome (ok, failed, skipped)",
            metrics.tool_calls.clone(),
        );
        registry.register(
            "tool_duration_seconds",
            "Time a tool call took, by tool and outcome",
            metrics.tool_seconds.clone(),
        );
        registry.register("errors", "Error events, by code", metrics.errors.clone());
        registry.register(
            "planner_rounds",
            "Planner decisions, by planner",
            metrics.planner_rounds.clone(),
        );
        registry.register(
            "llm_tokens",
            "LLM tokens spent, by kind (prompt, completion)",
            metrics.llm_tokens.clone(),
        );
        registry.register(
            "subscribers",
            "Clients following a run's events now",
            metrics.subscribers.clone(),
        );
        registry.register(
            "store_append_duration_seconds",
            "Time to store one event (retries included)",
            metrics.store_append_seconds.clone(),
        );
        *metrics
            .registry
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = registry;
        metrics
    }

    /// A run started.
    pub fn run_started(&self) {
        self.runs_started.inc();
        self.runs_active.inc();
    }

    /// A run was stopped because its lease was lost.
    pub fn lease_lost(&self) {
        self.lease_losses.inc();
    }

    /// A run was taken over by this instance.
    pub fn run_resumed(&self) {
        self.runs_resumed.inc();
    }

    /// Leases were handed back at shutdown.
    pub fn handed_back(&self, count: u64) {
        self.leases_handed_back.inc_by(count);
    }

    /// A detached run was queued.
    pub fn run_queued(&self) {
        self.runs_queued.inc();
    }

    /// A queued run was claimed by this instance.
    pub fn queue_claimed(&self) {
        self.queue_claims.inc();
    }

    /// The queue holds `depth` runs now.
    pub fn queue_depth(&self, depth: u64) {
        self.queue_depth
            .set(i64::try_from(depth).unwrap_or(i64::MAX));
    }

    /// A run's task ended (whatever way).
    pub fn run_ended(&self) {
        self.runs_active.dec();
    }

    /// A client started (`+1`) or stopped (`-1`) following a run.
    pub fn subscriber(&self, delta: i64) {
        self.subscribers.inc_by(delta);
    }

    /// One event was stored in `took`.
    pub fn stored(&self, payload: &EventPayload, took: Duration) {
        self.events_stored.inc();
        self.store_append_seconds.observe(took.as_secs_f64());
        match payload {
            EventPayload::Step(step) => self.step(&step.payload, step.status, step.duration_ms),
            EventPayload::UrlComplete(done) => {
                let status = match done.status {
                    UrlStatus::Completed => "completed",
                    UrlStatus::Failed => "failed",
                };
                self.urls_finished
                    .get_or_create(&StatusLabel {
                        status: status.into(),
                    })
                    .inc();
            }
            EventPayload::Error(error) => {
                self.errors
                    .get_or_create(&CodeLabel {
                        code: error.code.as_str().into(),
                    })
                    .inc();
            }
            EventPayload::Complete(complete) => {
                self.runs_finished
                    .get_or_create(&StatusLabel {
                        status: complete.status.as_str().into(),
                    })
                    .inc();
            }
            EventPayload::Init(_) | EventPayload::UrlStart(_) => {}
        }
    }

    fn step(&self, payload: &StepPayload, status: StepStatus, duration_ms: Option<u64>) {
        let seconds = duration_ms.map(|ms| Duration::from_millis(ms).as_secs_f64());
        match payload {
            StepPayload::Fetch(FetchDetails::Fetched(page)) => {
                if let Some(s) = seconds {
                    self.fetch_seconds.observe(s);
                }
                // Bytes fit f64 exactly far past any body cap.
                #[allow(clippy::cast_precision_loss)]
                self.fetch_bytes.observe(page.bytes as f64);
            }
            StepPayload::Fetch(FetchDetails::Failed(failure)) => {
                if let Some(s) = seconds {
                    self.fetch_seconds.observe(s);
                }
                self.fetch_failures
                    .get_or_create(&CodeLabel {
                        code: failure.code.as_str().into(),
                    })
                    .inc();
            }
            StepPayload::ToolCall(call) => {
                let outcome = match status {
                    StepStatus::Skipped => "skipped",
                    _ if call.success => "ok",
                    _ => "failed",
                };
                let labels = ToolLabel {
                    tool: call.tool.clone(),
                    outcome: outcome.into(),
                };
                self.tool_calls.get_or_create(&labels).inc();
                if let Some(s) = seconds {
                    self.tool_seconds.get_or_create(&labels).observe(s);
                }
            }
            StepPayload::AgentDecision(DecisionDetails::Final(decision)) => {
                self.planner_rounds
                    .get_or_create(&PlannerLabel {
                        planner: decision.planner.clone(),
                    })
                    .inc();
                if let Some(usage) = decision.usage {
                    for (kind, tokens) in [
                        ("prompt", usage.prompt_tokens),
                        ("completion", usage.completion_tokens),
                    ] {
                        self.llm_tokens
                            .get_or_create(&KindLabel { kind: kind.into() })
                            .inc_by(tokens);
                    }
                }
            }
            _ => {}
        }
    }

    /// Registers a metric owned elsewhere (the browser pool's gauges) under `name`.
    pub fn register(
        &self,
        name: &str,
        help: &str,
        metric: impl prometheus_client::registry::Metric,
    ) {
        self.registry
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .register(name, help, metric);
    }

    /// The text exposition format.
    pub fn render(&self) -> String {
        let mut text = String::new();
        let registry = self
            .registry
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut text, &registry);
        text
    }
}
