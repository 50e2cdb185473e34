//! Layered configuration: embedded `config/default.toml` < `--config` file <
//! `SCRAPE_AGENT__<SECTION>__<KEY>` environment variables < CLI flags.

use std::net::SocketAddr;
use std::path::Path;

use config::{Config, Environment, File, FileFormat};
use secrecy::SecretString;
use serde::Deserialize;

/// The embedded defaults, so the binary runs with no files beside it.
pub const DEFAULT_TOML: &str = include_str!("../config/default.toml");

/// All settings; the sections mirror `config/default.toml`.
#[derive(Debug, Clone, Deserialize)]
pub struct Settings {
    /// Listening and HTTP behaviour.
    pub server: ServerSettings,
    /// Caps on requests and runs.
    pub limits: LimitSettings,
    /// The page fetcher.
    pub fetch: FetchSettings,
    /// Planner selection.
    pub planner: PlannerSettings,
    /// `[auth]`
    pub auth: AuthSettings,
    /// `[log]`
    pub log: LogSettings,
    /// The OpenAI-compatible LLM planner.
    pub llm: LlmSettings,
    /// Where sessions and events are stored.
    pub database: DatabaseSettings,
    /// Run lifecycle.
    pub runs: RunSettings,
    /// Retention of stored sessions.
    pub store: StoreSettings,
    /// The headless browser that renders pages built by scripts.
    pub browser: BrowserSettings,
    /// Whole sites: `crawl` on scrape requests and `POST /api/map`.
    pub crawl: CrawlSettings,
    /// Signed deliveries of a run's end to the `webhook` its request names.
    pub webhooks: WebhookSettings,
}

/// `[webhooks]`
#[derive(Clone, Deserialize)]
pub struct WebhookSettings {
    /// The key every delivery is signed with (HMAC-SHA256); empty: requests naming a `webhook`
    /// are refused, and this instance sends no deliveries. Never logged (see the `Debug`).
    pub secret: SecretString,
    /// POSTs of one delivery at most (the first included); then it is marked failed.
    pub max_attempts: u32,
    /// Milliseconds before the first retry; each further retry waits twice as long.
    pub backoff_ms: u64,
    /// Seconds between two retries at most.
    pub max_backoff_secs: u64,
    /// Seconds one POST may take (connect, send, answer).
    pub timeout_secs: u64,
    /// Milliseconds between two looks for due deliveries.
    pub poll_ms: u64,
    /// Deliveries one instance claims (and sends at once) per look.
    pub batch: u32,
}

impl std::fmt::Debug for WebhookSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use secrecy::ExposeSecret;
        f.debug_struct("WebhookSettings")
            .field(
                "secret",
                &if self.secret.expose_secret().is_empty() {
                    ""
                } else {
                    "<redacted>"
                },
            )
            .field("max_attempts", &self.max_attempts)
            .field("backoff_ms", &self.backoff_ms)
            .field("max_backoff_secs", &self.max_backoff_secs)
            .field("timeout_secs", &self.timeout_secs)
            .field("poll_ms", &self.poll_ms)
            .field("batch", &self.batch)
            .finish()
    }
}

impl WebhookSettings {
    /// Whether a signing secret is configured (deliveries can be made).
    pub fn is_configured(&self) -> bool {
        use secrecy::ExposeSecret;
        !self.secret.expose_secret().trim().is_empty()
    }
}

/// `[crawl]`
#[derive(Debug, Clone, Deserialize)]
pub struct CrawlSettings {
    /// Pages a crawl reads when the request does not say.
    pub default_max_pages: u32,
    /// Pages a crawl may read at most (a request asking for more is refused).
    pub max_pages: u32,
    /// Link depth from the seeds when the request does not say.
    pub default_max_depth: u32,
    /// Link depth a request may ask for at most.
    pub max_depth: u32,
    /// URLs waiting in a crawl's frontier in memory at most; past it they wait in the store.
    pub max_frontier: usize,
    /// URLs waiting in the store for one crawl at most; links past it are dropped and counted.
    pub max_spilled: usize,
    /// Sitemap documents one crawl or map reads at most (indexes included).
    pub max_sitemaps: usize,
    /// URLs a map returns when the request does not say.
    pub map_default_limit: usize,
    /// URLs a map may return at most.
    pub map_max_limit: usize,
    /// Pages a map's link walk fetches at most (it reads links, never extracts).
    pub map_max_link_pages: usize,
    /// Link depth of a map's walk from the given URL.
    pub map_link_depth: u32,
}

/// `[server]`
#[derive(Debug, Clone, Deserialize)]
pub struct ServerSettings {
    /// Address to listen on.
    pub bind: SocketAddr,
    /// Largest accepted request body.
    pub max_body_bytes: usize,
    /// Seconds between keep-alive comments.
    pub keep_alive_secs: u64,
    /// Seconds runs get to finish at shutdown.
    pub shutdown_grace_secs: u64,
    /// Seconds, after the grace period, for cancelled runs to end and connections to close
    /// before the process exits anyway.
    pub shutdown_drain_secs: u64,
    /// Host names (besides IP literals and loopback names) the server answers to.
    pub allowed_hosts: Vec<String>,
    /// Seconds a client has to send a request's headers, on a new connection and between
    /// requests on a kept-alive one.
    pub header_read_timeout_secs: u64,
    /// Seconds a client has to send a request's body.
    pub body_read_timeout_secs: u64,
    /// Open client connections at most (lowered to fit the open-file limit).
    pub max_connections: usize,
}

/// `[log]`
#[derive(Debug, Clone, Deserialize)]
pub struct LogSettings {
    /// How log lines are written.
    pub format: LogFormat,
}

/// `log.format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LogFormat {
    /// One human-readable line per event.
    Text,
    /// One JSON object per event, with the request's span (method, URI, request id).
    Json,
}

/// `[auth]`: who may use the API, and from which browser origins.
#[derive(Debug, Clone, Deserialize)]
pub struct AuthSettings {
    /// API keys. When any is set, every `/api/*` route needs `Authorization: Bearer <key>`.
    #[serde(default, deserialize_with = "key_list")]
    pub api_keys: Vec<SecretString>,
    /// Browser origins allowed to call the API (CORS), e.g. `https://console.example`.
    #[serde(default)]
    pub allowed_origins: Vec<String>,
    /// Runs one API key may have running at once (0: only `limits.max_concurrent_runs`).
    pub max_runs_per_key: usize,
    /// Whether `/metrics` needs a key too (when keys are set).
    pub metrics_need_key: bool,
}

/// API keys from a TOML list, or from one string (the environment): comma-separated or a
/// JSON list.
fn key_list<'de, D: serde::Deserializer<'de>>(de: D) -> Result<Vec<SecretString>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Keys {
        List(Vec<String>),
        One(String),
    }
    let keys = match Keys::deserialize(de)? {
        Keys::List(keys) => keys,
        Keys::One(text) if text.trim_start().starts_with('[') => {
            serde_json::from_str(&text).map_err(serde::de::Error::custom)?
        }
        Keys::One(text) => text.split(',').map(str::to_owned).collect(),
    };
    Ok(keys
        .into_iter()
        .map(|k| k.trim().to_owned())
        .filter(|k| !k.is_empty())
        .map(SecretString::from)
        .collect())
}

/// `[limits]`
#[derive(Debug, Clone, Deserialize)]
pub struct LimitSettings {
    /// URLs accepted in one request.
    pub max_urls_per_request: usize,
    /// Per-URL step budget when the request gives none.
    pub default_max_steps: u32,
    /// Upper bound for a request's budget.
    pub max_steps_cap: u32,
    /// Wall-clock limit of a run.
    pub run_timeout_secs: u64,
    /// Runs executing at once.
    pub max_concurrent_runs: usize,
    /// Bytes of tool result carried in a step.
    pub max_step_result_bytes: usize,
    /// Items one tool may produce.
    pub max_items: usize,
    /// Characters of text one tool may produce.
    pub max_text_chars: usize,
    /// Characters of one CSS selector given to a tool.
    pub max_selector_chars: usize,
    /// Parts (compound selectors) of one CSS selector given to a tool.
    pub max_selector_parts: usize,
    /// Pages one URL may follow through its pagination (the URL's own page counts).
    pub max_pages: u32,
    /// Item pages one URL may open to enrich its records.
    pub max_detail_pages: u32,
    /// Nodes (elements, texts, comments) one parsed page may hold.
    pub max_page_nodes: usize,
    /// Memory all pages being parsed or read may take together, in bytes (0: no budget).
    pub max_page_memory_bytes: u64,
}

/// `[fetch]`
#[derive(Clone, Deserialize)]
pub struct FetchSettings {
    /// Allow loopback/private/link-local targets.
    pub allow_private_networks: bool,
    /// Seconds per fetch.
    pub timeout_secs: u64,
    /// Seconds to connect.
    pub connect_timeout_secs: u64,
    /// Redirect hops followed.
    pub max_redirects: usize,
    /// Body cap in bytes.
    pub max_body_bytes: usize,
    /// User-Agent header.
    pub user_agent: String,
    /// Honour robots.txt.
    pub respect_robots: bool,
    /// Follow next-page and item links to other origins (scheme, host, port) than the page's.
    pub follow_cross_origin: bool,
    /// Retries of transient failures.
    pub retries: u32,
    /// Base backoff in milliseconds.
    pub retry_backoff_ms: u64,
    /// Minimum delay between requests to one host.
    pub per_host_delay_ms: u64,
    /// Requests in flight to one host at most, across every run of the server.
    pub per_host_concurrency: usize,
    /// Largest robots.txt `Crawl-delay` honoured, in milliseconds (0 ignores `Crawl-delay`).
    pub max_crawl_delay_ms: u64,
    /// Exact addresses or host names exempt from the refused ranges.
    #[serde(default)]
    pub allowed_hosts: Vec<String>,
    /// Static `name=address` answers used instead of DNS (still checked by the guard).
    #[serde(default)]
    pub resolve: Vec<String>,
    /// Proxy for every fetch; empty for none. System proxy variables are never used.
    #[serde(default)]
    pub proxy: String,
    /// Bytes of robots.txt read at most.
    pub robots_max_bytes: usize,
    /// Hosts remembered at most by the robots.txt and politeness caches.
    pub cache_max_hosts: usize,
    /// Seconds a fetched robots.txt is trusted.
    pub robots_ttl_secs: u64,
}

impl std::fmt::Debug for FetchSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // A proxy URL may carry `user:password@`: never printed.
        let proxy = url::Url::parse(&self.proxy).map_or_else(
            |_| {
                if self.proxy.is_empty() {
                    String::new()
                } else {
                    "<unparsable>".to_owned()
                }
            },
            |mut u| {
                if !u.username().is_empty() || u.password().is_some() {
                    let _ = u.set_username("redacted");
                    let _ = u.set_password(None);
                }
                u.to_string()
            },
        );
        f.debug_struct("FetchSettings")
            .field("allow_private_networks", &self.allow_private_networks)
            .field("timeout_secs", &self.timeout_secs)
            .field("connect_timeout_secs", &self.connect_timeout_secs)
            .field("max_redirects", &self.max_redirects)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("user_agent", &self.user_agent)
            .field("respect_robots", &self.respect_robots)
            .field("retries", &self.retries)
            .field("retry_backoff_ms", &self.retry_backoff_ms)
            .field("per_host_delay_ms", &self.per_host_delay_ms)
            .field("per_host_concurrency", &self.per_host_concurrency)
            .field("max_crawl_delay_ms", &self.max_crawl_delay_ms)
            .field("allowed_hosts", &self.allowed_hosts)
            .field("resolve", &self.resolve)
            .field("proxy", &proxy)
            .field("robots_max_bytes", &self.robots_max_bytes)
            .field("cache_max_hosts", &self.cache_max_hosts)
            .field("robots_ttl_secs", &self.robots_ttl_secs)
            .field("follow_cross_origin", &self.follow_cross_origin)
            .finish()
    }
}

/// `[planner]`
#[derive(Debug, Clone, Deserialize)]
pub struct PlannerSettings {
    /// The planner of a request that says `auto` (or names none).
    pub default: DefaultPlanner,
}

/// `planner.default`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DefaultPlanner {
    /// The LLM planner when `[llm]` is configured, else the heuristic one.
    Auto,
    /// The heuristic planner (a request may still ask for `llm`).
    Heuristic,
    /// The LLM planner; the server does not start without `[llm] base_url`.
    Llm,
}

/// `[llm]`
#[derive(Clone, Deserialize)]
pub struct LlmSettings {
    /// Chat Completions base URL; empty disables the LLM planner.
    pub base_url: String,
    /// Bearer token; never logged (see the manual `Debug`).
    pub api_key: String,
    /// Default model.
    pub model: String,
    /// Models a request may name (`model`); empty: only `model`.
    #[serde(default)]
    pub allowed_models: Vec<String>,
    /// Seconds per planner reply.
    pub timeout_secs: u64,
    /// Characters of page context offered to the model.
    pub max_context_chars: usize,
    /// Characters of a streaming call's argument text carried in a partial decision step.
    pub max_draft_chars: usize,
    /// Milliseconds between two partial decision steps that bring no new tool or parameters.
    pub draft_interval_ms: u64,
}

impl std::fmt::Debug for LlmSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmSettings")
            .field("base_url", &self.base_url)
            .field(
                "api_key",
                &if self.api_key.is_empty() {
                    ""
                } else {
                    "<redacted>"
                },
            )
            .field("model", &self.model)
            .field("timeout_secs", &self.timeout_secs)
            .field("max_context_chars", &self.max_context_chars)
            .field("max_draft_chars", &self.max_draft_chars)
            .field("draft_interval_ms", &self.draft_interval_ms)
            .finish()
    }
}

impl LlmSettings {
    /// Whether an endpoint is configured.
    pub fn is_configured(&self) -> bool {
        !self.base_url.trim().is_empty()
    }

    /// The least time between two partial decision steps that bring nothing new.
    pub fn draft_interval(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.draft_interval_ms)
    }
}

/// `[database]`
#[derive(Debug, Clone, Deserialize)]
pub struct DatabaseSettings {
    /// `sqlite://…` or `postgres://…`.
    pub url: String,
    /// Pool size.
    pub max_connections: u32,
}

/// `[runs]`
#[derive(Debug, Clone, Deserialize)]
pub struct RunSettings {
    /// Seconds an abandoned run keeps going.
    pub orphan_grace_secs: u64,
    /// Milliseconds between checks for cancel requests made on another instance.
    pub cancel_poll_ms: u64,
    /// Seconds between heartbeats of the sessions this instance runs.
    pub heartbeat_secs: u64,
    /// Seconds without a heartbeat after which another instance closes a running session
    /// as `interrupted` (shared databases only).
    pub stale_after_secs: u64,
    /// Seconds a run's lease lasts on the database's clock; renewed every third of it.
    pub lease_secs: u64,
    /// Claims of one run at most (its start and each takeover by another instance after its
    /// lease expired); a run claimed once more is closed with `too_many_attempts`.
    pub max_attempts: u32,
    /// Events read from the store per page when a subscriber replays a session.
    pub replay_page_events: u32,
    /// Fetches of one run in flight at once: the current URL's and those fetched ahead.
    pub fetch_concurrency: usize,
}

/// `[store]`
#[derive(Debug, Clone, Deserialize)]
pub struct StoreSettings {
    /// Days sessions are kept; 0 keeps them forever.
    pub retention_days: u32,
    /// Seconds between two retention sweeps.
    pub retention_check_secs: u64,
    /// Sessions deleted per transaction by a retention sweep.
    pub retention_batch: u32,
}

/// `[browser]`
#[derive(Debug, Clone, Deserialize)]
pub struct BrowserSettings {
    /// Path of the browser; empty looks for Debian's `chromium-headless-shell`.
    pub executable: String,
    /// Renders at once at most (one browser, one isolated context per render).
    pub max_concurrent: usize,
    /// Seconds one render may take at most.
    pub timeout_secs: u64,
    /// Requests one render may make at most (the document, scripts, XHR, images, …).
    pub max_requests: u32,
    /// Bytes one render may receive at most through the egress proxy.
    pub max_bytes: u64,
    /// Renders after which the browser is replaced by a fresh one.
    pub recycle_after: u32,
    /// Resident memory (MiB) of the browser's process group above which it is replaced before
    /// the next render; 0: no ceiling.
    pub recycle_rss_mib: u64,
    /// Runs the browser without Chromium's sandbox. Off by default: a default `docker run`
    /// blocks the sandbox's namespaces (see the README), and turning it off is the operator's
    /// explicit choice, logged at every launch. (As root the sandbox cannot start at all and is
    /// always off.)
    pub no_sandbox: bool,
    /// Free memory (MiB) a render needs before it starts; it waits otherwise.
    pub min_free_mib: u64,
    /// Rounds of "Load more" or scrolling at most in one render, and in one `browser.scroll`.
    pub max_grow_rounds: u32,
    /// Bytes of one `browser.screenshot` PNG at most; a larger one is taken again at half
    /// the scale (down to 1/8), else the call fails.
    pub screenshot_max_bytes: usize,
    /// CSS pixels of page height one full-page screenshot covers at most.
    pub screenshot_max_height: u64,
    /// Screenshots one run may keep at most.
    pub max_screenshots_per_run: u32,
}

impl Settings {
    /// Loads the layers: embedded defaults, then `file` if given, then the environment.
    ///
    /// # Errors
    /// A missing or malformed file, or a value of the wrong type.
    pub fn load(file: Option<&Path>) -> Result<Self, config::ConfigError> {
        let mut builder =
            Config::builder().add_source(File::from_str(DEFAULT_TOML, FileFormat::Toml));
        if let Some(path) = file {
            builder = builder.add_source(File::from(path).required(true));
        }
        builder
            .add_source(
                Environment::with_prefix("SCRAPE_AGENT")
                    .prefix_separator("__")
                    .separator("__")
                    .try_parsing(true)
                    .list_separator(",")
                    .with_list_parse_key("fetch.allowed_hosts")
                    .with_list_parse_key("server.allowed_hosts")
                    .with_list_parse_key("fetch.resolve")
                    .with_list_parse_key("auth.allowed_origins")
                    .with_list_parse_key("llm.allowed_models"),
            )
            .build()?
            .try_deserialize()
    }

    /// The embedded defaults alone (what tests start from).
    ///
    /// # Panics
    /// Never in practice: the embedded file is checked by a unit test.
    #[allow(clippy::expect_used)]
    pub fn defaults() -> Self {
        Config::builder()
            .add_source(File::from_str(DEFAULT_TOML, FileFormat::Toml))
            .build()
            .and_then(Config::try_deserialize)
            .expect("embedded config/default.toml is valid")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_keys_come_as_a_list_a_comma_list_or_a_json_list() {
        use secrecy::ExposeSecret;
        #[derive(Deserialize)]
        struct Keys {
            #[serde(deserialize_with = "key_list")]
            keys: Vec<SecretString>,
        }
        let read = |v: serde_json::Value| -> Vec<String> {
            serde_json::from_value::<Keys>(serde_json::json!({ "keys": v }))
                .unwrap()
                .keys
                .iter()
                .map(|k| k.expose_secret().to_owned())
                .collect()
        };
        assert_eq!(read(serde_json::json!(["a", "b"])), ["a", "b"]);
        assert_eq!(read(serde_json::json!("a, b,")), ["a", "b"]);
        assert_eq!(read(serde_json::json!(r#"["a,1", "b"]"#)), ["a,1", "b"]);
        assert!(read(serde_json::json!("")).is_empty());
        assert!(Settings::defaults().auth.api_keys.is_empty());
    }

    #[test]
    fn embedded_defaults_parse() {
        let settings = Settings::defaults();
        assert_eq!(settings.server.bind.port(), 8080);
        assert!(!settings.fetch.allow_private_networks);
        assert_eq!(settings.limits.max_urls_per_request, 50);
        assert!(settings.fetch.proxy.is_empty());
        assert!(settings.fetch.allowed_hosts.is_empty());
        assert!(settings.fetch.resolve.is_empty());
        assert_eq!(settings.fetch.robots_max_bytes, 512 * 1024);
        assert_eq!(settings.fetch.cache_max_hosts, 10_000);
        assert_eq!(settings.fetch.robots_ttl_secs, 3600);
    }

    #[test]
    fn api_key_is_not_in_debug_output() {
        let mut settings = Settings::defaults();
        settings.llm.api_key = "sk-secret".into();
        settings.webhooks.secret = "whsec-secret".into();
        let debug = format!("{settings:?}");
        assert!(!debug.contains("sk-secret"), "{debug}");
        assert!(!debug.contains("whsec-secret"), "{debug}");
        assert!(settings.webhooks.is_configured());
        assert!(!Settings::defaults().webhooks.is_configured());
    }

    #[test]
    fn proxy_credentials_are_not_in_debug_output() {
        let mut settings = Settings::defaults();
        settings.fetch.proxy = "http://alice:hunter2@proxy.internal:3128".into();
        let debug = format!("{settings:?}");
        assert!(
            !debug.contains("hunter2") && !debug.contains("alice"),
            "{debug}"
        );
        assert!(debug.contains("proxy.internal:3128"), "{debug}");
    }
}
