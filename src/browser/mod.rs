//! Pages built by scripts, rendered by a real headless browser (Debian's
//! `chromium-headless-shell`) that the server drives over a pipe ([`cdp`]).
//!
//! - Every request of the page goes through an [`proxy::EgressProxy`] of its own render that
//!   applies the fetcher's address guard and connects to the address it checked.
//! - One browser, one isolated context per render, at most `browser.max_concurrent` renders at
//!   once, admission by free memory, the browser replaced after `browser.recycle_after` renders;
//!   its whole process group is killed when it is replaced, crashes or the server stops.
//! - The main document is the one the fetcher already fetched, served to the browser.
//! - [`decide`] says, with its evidence, whether a page needs rendering (`render: auto`).
//! - A [`Tab`] is one page open in the browser, worked on step by step (wait, click, scroll,
//!   screenshot); the one-shot [`Browser::render`] and the `browser.*` tools both use it.

pub mod cdp;
pub mod decide;
pub mod proxy;
pub mod tab;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;
use tokio::sync::{Mutex, Semaphore};
use url::Url;

use crate::fetch::guard::Guard;
use crate::settings::BrowserSettings;
use cdp::Connection;
use proxy::EgressProxy;
pub use tab::{Screenshot, Tab, Target, Traffic, Until, Wait};

/// The Debian package that provides the browser.
pub const PACKAGE: &str = "chromium-headless-shell";

/// Where the browser is looked for when `browser.executable` is empty.
const CANDIDATES: &[&str] = &[
    "/usr/lib/chromium/chromium-headless-shell",
    "/usr/bin/chromium-headless-shell",
    "/usr/lib/chromium/headless_shell",
];

/// Why a render gave no page.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    /// No browser is installed.
    #[error("no browser is available to render pages (install the Debian package `{PACKAGE}`)")]
    Unavailable,
    /// The browser failed, crashed, or rendered an error page.
    #[error("the page did not render: {0}")]
    Failed(String),
    /// The render took longer than `browser.timeout_secs`.
    #[error("the render took longer than {0} s")]
    Timeout(u64),
}

/// How the render grows a list before it reads the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grow {
    /// Reads the page once settled.
    No,
    /// Clicks "Load more" or scrolls to the end, round after round, until the page stops
    /// growing, its longest list holds `want` items, or `max_rounds` are done.
    UntilStill {
        /// Rounds at most.
        max_rounds: u32,
        /// Items wanted (the request's count), when it says.
        want: Option<u64>,
    },
}

/// One round of growing a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundKind {
    /// A "Load more" control was clicked.
    LoadMore,
    /// The page was scrolled to its end.
    Scroll,
    /// A control named by its text or a selector was clicked (`browser.click`).
    Click,
}

/// What one round did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Round {
    /// Click or scroll.
    pub kind: RoundKind,
    /// The control clicked (its text), for `load_more`.
    pub control: Option<String>,
    /// Elements in the page before and after.
    pub elements_before: u64,
    /// Elements after the page settled.
    pub elements_after: u64,
    /// Items of the page's longest list after the page settled.
    pub items: u64,
}

/// A rendered page.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The DOM after scripts ran, as HTML.
    pub html: String,
    /// Requests the page made (the document included).
    pub requests: u32,
    /// Bytes the page received through the proxy.
    pub bytes: u64,
    /// Requests the address guard refused, each as `host: why`.
    pub refused: Vec<String>,
    /// The rounds that grew the page.
    pub rounds: Vec<Round>,
    /// How long the render took.
    pub took: Duration,
}

struct Instance {
    connection: Arc<Connection>,
    renders: AtomicU32,
    profile: PathBuf,
    /// The launch-wide proxy (requests outside any render context go through it too).
    _proxy: EgressProxy,
}

impl Drop for Instance {
    fn drop(&mut self) {
        cdp::kill_group(self.connection.pgid);
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Pool gauges (shown in `/metrics`).
#[derive(Debug, Default, Clone)]
pub struct Gauges {
    /// Renders running now.
    pub active: prometheus_client::metrics::gauge::Gauge,
    /// Renders waiting for a slot or for free memory now.
    pub waiting: prometheus_client::metrics::gauge::Gauge,
    /// Renders done since start.
    pub done: prometheus_client::metrics::counter::Counter,
    /// Browser processes started since start.
    pub launches: prometheus_client::metrics::counter::Counter,
    /// Resident bytes of the browser's process group, as last measured (before each render
    /// starts and after it ends); 0 while no browser runs.
    pub rss_bytes: prometheus_client::metrics::gauge::Gauge,
    /// Browsers replaced because their group's RSS passed `browser.recycle_rss_mib`.
    pub rss_recycles: prometheus_client::metrics::counter::Counter,
}

/// The browser of the server: a bounded pool of renders over one browser process.
pub struct Browser {
    settings: BrowserSettings,
    guard: Arc<Guard>,
    executable: Option<PathBuf>,
    slots: Arc<Semaphore>,
    current: Mutex<Option<Arc<Instance>>>,
    /// Pool gauges.
    pub gauges: Gauges,
    launches: AtomicU64,
    /// The hosts whose pages needed rendering, for every run of the server.
    pub host_memory: decide::HostMemory,
}

impl std::fmt::Debug for Browser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Browser")
            .field("executable", &self.executable)
            .finish_non_exhaustive()
    }
}

/// The browser named by `setting`, or the first installed candidate.
pub fn find_executable(setting: &str) -> Option<PathBuf> {
    if !setting.is_empty() {
        let path = Path::new(setting);
        return path.is_file().then(|| path.to_path_buf());
    }
    CANDIDATES
        .iter()
        .map(Path::new)
        .find(|p| p.is_file())
        .map(Path::to_path_buf)
}

/// Resident bytes of the processes in group `pgid` (the browser and its renderers), summed.
///
/// Pages shared between the processes count once per process, so this says more than the
/// group's real footprint: a ceiling on it errs toward recycling early.
pub fn group_rss_bytes(pgid: u32) -> u64 {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .flatten()
        .filter(|entry| {
            std::fs::read_to_string(entry.path().join("stat")).is_ok_and(|stat| {
                // Fields after the name `(…)`: state ppid pgrp …
                stat.rsplit_once(") ").is_some_and(|(_, rest)| {
                    rest.split_whitespace()
                        .nth(2)
                        .and_then(|g| g.parse::<u32>().ok())
                        == Some(pgid)
                })
            })
        })
        .filter_map(|entry| {
            let status = std::fs::read_to_string(entry.path().join("status")).ok()?;
            let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib * 1024)
        })
        .sum()
}

/// Free memory of the machine in MiB (`MemAvailable`), when known.
fn available_mib() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

impl Browser {
    /// The pool of `settings`, with the guard of the fetcher. No process starts before the
    /// first render.
    pub fn new(settings: &BrowserSettings, guard: Arc<Guard>) -> Self {
        Self {
            executable: find_executable(&settings.executable),
            slots: Arc::new(Semaphore::new(settings.max_concurrent.max(1))),
            settings: settings.clone(),
            guard,
            current: Mutex::new(None),
            gauges: Gauges::default(),
            launches: AtomicU64::new(0),
            host_memory: decide::HostMemory::default(),
        }
    }

    /// Whether a browser is installed.
    pub fn available(&self) -> bool {
        self.executable.is_some()
    }

    /// The browser's path, when installed.
    pub fn executable(&self) -> Option<&Path> {
        self.executable.as_deref()
    }

    /// Kills the browser (at shutdown); a later render starts a new one.
    pub async fn shutdown(&self) {
        if let Some(instance) = self.current.lock().await.take() {
            instance.connection.kill().await;
        }
    }

    /// The process group of the running browser, if any (for tests and the soak benchmark).
    pub async fn process_group(&self) -> Option<u32> {
        self.current
            .lock()
            .await
            .as_ref()
            .map(|i| i.connection.pgid)
    }

    /// Measures the group's RSS into the gauge; whether it is above `browser.recycle_rss_mib`
    /// (never when that is 0).
    fn over_rss_ceiling(&self, pgid: u32) -> bool {
        let rss = group_rss_bytes(pgid);
        self.gauges
            .rss_bytes
            .set(i64::try_from(rss).unwrap_or(i64::MAX));
        let ceiling = self.settings.recycle_rss_mib.saturating_mul(1024 * 1024);
        let over = ceiling > 0 && rss > ceiling;
        if over {
            self.gauges.rss_recycles.inc();
            tracing::info!(
                rss_mib = rss / (1024 * 1024),
                ceiling_mib = self.settings.recycle_rss_mib,
                "browser replaced: its resident memory passed the ceiling"
            );
        }
        over
    }

    async fn instance(&self) -> Result<Arc<Instance>, RenderError> {
        let executable = self.executable.as_ref().ok_or(RenderError::Unavailable)?;
        let mut current = self.current.lock().await;
        if let Some(instance) = current.as_ref()
            && instance.connection.is_alive().await
            && instance.renders.load(Ordering::Relaxed) < self.settings.recycle_after.max(1)
            && !self.over_rss_ceiling(instance.connection.pgid)
        {
            return Ok(instance.clone());
        }
        // The old browser is killed once its last render ends (the last Arc is dropped).
        *current = None;
        let launch = self.launches.fetch_add(1, Ordering::Relaxed);
        let profile = std::env::temp_dir().join(format!(
            "scrape-agent-browser-{}-{launch}",
            std::process::id()
        ));
        let proxy = EgressProxy::start(self.guard.clone(), self.settings.max_bytes)
            .await
            .map_err(|e| RenderError::Failed(format!("no egress proxy: {e}")))?;
        let mut args = vec![
            "--headless".to_owned(),
            format!("--user-data-dir={}", profile.display()),
            format!("--proxy-server={}", proxy.url()),
            // Chromium sends loopback and link-local requests around any proxy without this.
            "--proxy-bypass-list=<-loopback>".to_owned(),
            "--force-webrtc-ip-handling-policy=disable_non_proxied_udp".to_owned(),
            "--webrtc-ip-handling-policy=disable_non_proxied_udp".to_owned(),
            "--disable-gpu".to_owned(),
            "--disable-dev-shm-usage".to_owned(),
            "--disable-extensions".to_owned(),
            "--disable-background-networking".to_owned(),
            "--disable-component-update".to_owned(),
            "--disable-sync".to_owned(),
            "--no-first-run".to_owned(),
            "--no-default-browser-check".to_owned(),
            "--mute-audio".to_owned(),
            "--hide-scrollbars".to_owned(),
            "about:blank".to_owned(),
        ];
        // Chromium's sandbox cannot start as root (containers, CI); elsewhere it stays on unless
        // the operator turned it off (`browser.no_sandbox`), which is said at every launch.
        let as_root = rustix::process::geteuid().is_root();
        if as_root || self.settings.no_sandbox {
            tracing::warn!(
                as_root,
                no_sandbox_setting = self.settings.no_sandbox,
                "the browser runs without Chromium's sandbox"
            );
            args.insert(0, "--no-sandbox".to_owned());
        }
        // A browser that exits at once with its sandbox on is, in practice, a container whose
        // seccomp profile denies the sandbox's namespaces (README, "Rendering in a container").
        let hint = if as_root || self.settings.no_sandbox {
            ""
        } else {
            " (with Chromium's sandbox on; inside a container it needs `--security-opt seccomp=unconfined` or a profile allowing user namespaces, else set browser.no_sandbox knowingly)"
        };
        let connection = Connection::launch(&executable.to_string_lossy(), &args)
            .map_err(|e| RenderError::Failed(e.to_string()))?;
        let connection = Arc::new(connection);
        // The browser answers once it is up.
        tokio::time::timeout(
            Duration::from_secs(self.settings.timeout_secs.max(1)),
            connection.call(None, "Browser.getVersion", json!({})),
        )
        .await
        .map_err(|_| RenderError::Failed(format!("the browser did not start in time{hint}")))?
        .map_err(|e| RenderError::Failed(format!("{e}{hint}")))?;
        self.gauges.launches.inc();
        let instance = Arc::new(Instance {
            connection,
            renders: AtomicU32::new(0),
            profile,
            _proxy: proxy,
        });
        *current = Some(instance.clone());
        Ok(instance)
    }

    /// Renders `url` whose document is `html` (already fetched): the browser runs its scripts,
    /// waits for it to settle (and for `wait_for` when given), grows it as `grow` says, and
    /// returns the DOM; all of it within `browser.timeout_secs`.
    ///
    /// The render runs as a task of its own: a caller that stops waiting (a cancelled run)
    /// cancels it, and its tab still closes (its browser context disposed, its slot freed).
    ///
    /// # Errors
    /// [`RenderError`].
    pub async fn render(
        self: &Arc<Self>,
        url: &Url,
        html: &str,
        wait_for: Option<&str>,
        grow: Grow,
    ) -> Result<Rendered, RenderError> {
        if !self.available() {
            return Err(RenderError::Unavailable);
        }
        let cancel = tokio_util::sync::CancellationToken::new();
        let _cancel_when_dropped = cancel.clone().drop_guard();
        let this = self.clone();
        let (url, html, wait_for) = (url.clone(), html.to_owned(), wait_for.map(str::to_owned));
        let limit = Duration::from_secs(self.settings.timeout_secs.max(1));
        tokio::spawn(async move {
            let started = Instant::now();
            let rendered = tokio::select! {
                rendered = tokio::time::timeout(
                    limit,
                    this.render_in_tab(&url, &html, wait_for, grow),
                ) => rendered,
                () = cancel.cancelled() => return Err(RenderError::Failed("cancelled".into())),
            };
            let mut rendered = rendered.unwrap_or(Err(RenderError::Timeout(limit.as_secs())))?;
            rendered.took = started.elapsed();
            Ok(rendered)
        })
        .await
        .unwrap_or_else(|e| Err(RenderError::Failed(format!("the render task failed: {e}"))))
    }

    async fn render_in_tab(
        self: &Arc<Self>,
        url: &Url,
        html: &str,
        wait_for: Option<String>,
        grow: Grow,
    ) -> Result<Rendered, RenderError> {
        let mut tab = self.open(url, html).await?;
        if let Some(selector) = wait_for {
            tab.wait(&Wait::Selector(selector)).await?;
        }
        let rounds = match grow {
            Grow::No => Vec::new(),
            Grow::UntilStill { max_rounds, want } => tab.grow(want, max_rounds).await?,
        };
        let html = tab.html().await?;
        let traffic = tab.traffic().await;
        tab.close().await;
        Ok(Rendered {
            html,
            requests: traffic.requests,
            bytes: traffic.bytes,
            refused: traffic.refused,
            rounds,
            took: Duration::ZERO,
        })
    }
}
