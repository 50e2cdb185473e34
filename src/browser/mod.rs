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

pub mod cdp;
pub mod decide;
pub mod proxy;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use base64::Engine;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::{Mutex, Semaphore, mpsc};
use url::Url;

use crate::fetch::guard::Guard;
use crate::settings::BrowserSettings;
use cdp::{CdpError, Connection, Event};
use proxy::EgressProxy;

/// The Debian package that provides the browser.
pub const PACKAGE: &str = "chromium-headless-shell";

/// Where the browser is looked for when `browser.executable` is empty.
const CANDIDATES: &[&str] = &[
    "/usr/lib/chromium/chromium-headless-shell",
    "/usr/bin/chromium-headless-shell",
    "/usr/lib/chromium/headless_shell",
];

/// Milliseconds without a change in the page before it counts as settled.
const QUIET_MS: u64 = 1000;
/// Milliseconds between two looks at the page while it settles.
const POLL_MS: u64 = 200;

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
    /// growing or `max_rounds` are done.
    UntilStill {
        /// Rounds at most.
        max_rounds: u32,
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

#[derive(Deserialize)]
struct ContextReply {
    #[serde(rename = "browserContextId")]
    id: String,
}

#[derive(Deserialize)]
struct TargetReply {
    #[serde(rename = "targetId")]
    id: String,
}

#[derive(Deserialize)]
struct SessionReply {
    #[serde(rename = "sessionId")]
    id: String,
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
    /// returns the DOM.
    ///
    /// The render runs as a task of its own: a caller that stops waiting (a cancelled run)
    /// cancels it, and the task still closes the render's browser context and frees its slot.
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
        tokio::spawn(async move {
            this.render_task(&url, &html, wait_for.as_deref(), grow, cancel)
                .await
        })
        .await
        .unwrap_or_else(|e| Err(RenderError::Failed(format!("the render task failed: {e}"))))
    }

    async fn render_task(
        &self,
        url: &Url,
        html: &str,
        wait_for: Option<&str>,
        grow: Grow,
        cancel: tokio_util::sync::CancellationToken,
    ) -> Result<Rendered, RenderError> {
        let started = Instant::now();
        let limit = Duration::from_secs(self.settings.timeout_secs.max(1));
        self.gauges.waiting.inc();
        let _slot = self
            .slots
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| RenderError::Failed("the browser pool is closed".into()))?;
        while available_mib().is_some_and(|free| free < self.settings.min_free_mib) {
            if started.elapsed() > limit {
                self.gauges.waiting.dec();
                return Err(RenderError::Timeout(self.settings.timeout_secs));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        self.gauges.waiting.dec();
        self.gauges.active.inc();
        let instance = match self.instance().await {
            Ok(instance) => instance,
            Err(err) => {
                self.gauges.active.dec();
                return Err(err);
            }
        };
        instance.renders.fetch_add(1, Ordering::Relaxed);
        let mut opened = Opened::default();
        let result = tokio::select! {
            result = tokio::time::timeout(
                limit.saturating_sub(started.elapsed()),
                self.render_in(&instance, &mut opened, url, html, wait_for, grow),
            ) => Some(result),
            () = cancel.cancelled() => None,
        };
        // Whatever way the render ended (done, failed, timed out, cancelled): its listener, its
        // interceptor and its browser context go.
        if let Some(interceptor) = opened.interceptor {
            interceptor.abort();
        }
        if let Some(session) = &opened.session {
            instance.connection.forget(session).await;
        }
        if let Some(id) = opened.context {
            let _ = tokio::time::timeout(
                Duration::from_secs(2),
                instance.connection.call(
                    None,
                    "Target.disposeBrowserContext",
                    json!({"browserContextId": id}),
                ),
            )
            .await;
        }
        self.gauges.active.dec();
        self.gauges.done.inc();
        self.gauges
            .rss_bytes
            .set(i64::try_from(group_rss_bytes(instance.connection.pgid)).unwrap_or(i64::MAX));
        let mut rendered = match result {
            Some(Ok(Ok(rendered))) => rendered,
            Some(Ok(Err(err))) => return Err(err),
            Some(Err(_)) => return Err(RenderError::Timeout(self.settings.timeout_secs)),
            None => return Err(RenderError::Failed("cancelled".into())),
        };
        rendered.took = started.elapsed();
        Ok(rendered)
    }

    async fn render_in(
        &self,
        instance: &Instance,
        opened: &mut Opened,
        url: &Url,
        html: &str,
        wait_for: Option<&str>,
        grow: Grow,
    ) -> Result<Rendered, RenderError> {
        let cdp = &instance.connection;
        let failed = |e: CdpError| RenderError::Failed(e.to_string());
        let proxy = EgressProxy::start(self.guard.clone(), self.settings.max_bytes)
            .await
            .map_err(|e| RenderError::Failed(format!("no egress proxy: {e}")))?;
        let context: ContextReply = cdp
            .call_as(
                None,
                "Target.createBrowserContext",
                json!({
                    "disposeOnDetach": true,
                    "proxyServer": proxy.url(),
                    "proxyBypassList": "<-loopback>",
                }),
            )
            .await
            .map_err(failed)?;
        opened.context = Some(context.id.clone());
        cdp.call(
            None,
            "Browser.setDownloadBehavior",
            json!({"behavior": "deny", "browserContextId": context.id}),
        )
        .await
        .map_err(failed)?;
        let target: TargetReply = cdp
            .call_as(
                None,
                "Target.createTarget",
                json!({"url": "about:blank", "browserContextId": context.id}),
            )
            .await
            .map_err(failed)?;
        let session: SessionReply = cdp
            .call_as(
                None,
                "Target.attachToTarget",
                json!({"targetId": target.id, "flatten": true}),
            )
            .await
            .map_err(failed)?;
        let session = session.id;
        opened.session = Some(session.clone());
        let events = cdp.listen(&session).await;
        let (page_events, mut page_rx) = mpsc::unbounded_channel();
        let requests = Arc::new(AtomicU32::new(0));
        let interceptor = tokio::spawn(intercept(
            instance.connection.clone(),
            session.clone(),
            events,
            page_events,
            Document {
                url: without_fragment(url),
                body: base64::engine::general_purpose::STANDARD.encode(html),
            },
            requests.clone(),
            self.settings.max_requests,
        ));
        opened.interceptor = Some(interceptor.abort_handle());
        let outcome = async {
            let s = Some(session.as_str());
            cdp.call(
                s,
                "Fetch.enable",
                json!({"patterns": [{"urlPattern": "*", "requestStage": "Request"}]}),
            )
            .await
            .map_err(failed)?;
            cdp.call(s, "Page.enable", json!({}))
                .await
                .map_err(failed)?;
            let navigated = cdp
                .call(s, "Page.navigate", json!({"url": url.as_str()}))
                .await
                .map_err(failed)?;
            if let Some(error) = navigated.get("errorText").and_then(Value::as_str) {
                return Err(RenderError::Failed(format!("navigation failed: {error}")));
            }
            // The load event, or a crash.
            if !matches!(page_rx.recv().await, Some(PageSignal::Loaded)) {
                return Err(RenderError::Failed("the renderer crashed".into()));
            }
            settle(cdp, &session, &mut page_rx).await?;
            if let Some(selector) = wait_for {
                let expression = format!(
                    "!!document.querySelector({})",
                    serde_json::to_string(selector).unwrap_or_default()
                );
                while evaluate(cdp, &session, &expression).await?.as_bool() != Some(true) {
                    tokio::time::sleep(Duration::from_millis(POLL_MS)).await;
                }
            }
            let mut rounds = Vec::new();
            if let Grow::UntilStill { max_rounds } = grow {
                for _ in 0..max_rounds {
                    let before = elements(cdp, &session).await?;
                    let clicked = evaluate(cdp, &session, CLICK_LOAD_MORE).await?;
                    let control = clicked.as_str().map(str::to_owned);
                    if control.is_none() {
                        evaluate(
                            cdp,
                            &session,
                            "window.scrollTo(0, document.documentElement.scrollHeight); true",
                        )
                        .await?;
                    }
                    settle(cdp, &session, &mut page_rx).await?;
                    let after = elements(cdp, &session).await?;
                    rounds.push(Round {
                        kind: if control.is_some() {
                            RoundKind::LoadMore
                        } else {
                            RoundKind::Scroll
                        },
                        control,
                        elements_before: before,
                        elements_after: after,
                    });
                    if after <= before {
                        break;
                    }
                }
            }
            let html = evaluate(
                cdp,
                &session,
                "'<!DOCTYPE html>' + document.documentElement.outerHTML",
            )
            .await?
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| RenderError::Failed("the page has no document".into()))?;
            let text = evaluate(
                cdp,
                &session,
                "document.body ? document.body.innerText.trim() : ''",
            )
            .await?;
            if let Some(why) = decide::error_page(text.as_str().unwrap_or("")) {
                return Err(RenderError::Failed(why.to_owned()));
            }
            Ok((html, rounds))
        }
        .await;
        let (html, rounds) = outcome?;
        Ok(Rendered {
            html,
            requests: requests.load(Ordering::Relaxed),
            bytes: proxy.log.bytes.load(Ordering::Relaxed),
            refused: proxy.log.refused.lock().await.clone(),
            rounds,
            took: Duration::ZERO,
        })
    }
}

/// Clicks the first visible, enabled "Load more" style control; returns its text or `null`.
const CLICK_LOAD_MORE: &str = r#"(() => {
  const words = /^\s*(load|show|see|view)\s+more\b|^\s*more\s+(results|items|products|posts|stories)\b/i;
  const controls = document.querySelectorAll('button, a, [role=button], input[type=button]');
  for (const el of controls) {
    const text = (el.innerText || el.value || '').trim();
    if (!words.test(text) || el.disabled) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (el.tagName === 'A') {
      const href = el.getAttribute('href') || '';
      if (href && !href.startsWith('#') && !href.startsWith('javascript:')) continue;
    }
    el.scrollIntoView();
    el.click();
    return text.slice(0, 80);
  }
  return null;
})()"#;

/// What a render opened in the browser, closed when it ends whatever way.
#[derive(Default)]
struct Opened {
    context: Option<String>,
    session: Option<String>,
    interceptor: Option<tokio::task::AbortHandle>,
}

enum PageSignal {
    Loaded,
    Crashed,
}

struct Document {
    url: String,
    body: String,
}

fn without_fragment(url: &Url) -> String {
    let mut url = url.clone();
    url.set_fragment(None);
    url.to_string()
}

#[derive(Deserialize)]
struct Paused {
    #[serde(rename = "requestId")]
    id: String,
    request: PausedRequest,
    #[serde(rename = "resourceType", default)]
    resource_type: String,
}

#[derive(Deserialize)]
struct PausedRequest {
    url: String,
}

/// Answers every request the page makes: the main document from what we fetched, other http(s)
/// requests let on to the proxy up to the cap, anything else refused.
async fn intercept(
    cdp: Arc<Connection>,
    session: String,
    mut events: mpsc::UnboundedReceiver<Event>,
    page: mpsc::UnboundedSender<PageSignal>,
    document: Document,
    requests: Arc<AtomicU32>,
    max_requests: u32,
) {
    let mut served = false;
    while let Some(event) = events.recv().await {
        match event.method.as_str() {
            "Fetch.requestPaused" => {
                let Ok(paused) = serde_json::from_value::<Paused>(event.params) else {
                    continue;
                };
                let count = requests.fetch_add(1, Ordering::Relaxed) + 1;
                let scheme = paused.request.url.split(':').next().unwrap_or("");
                let (method, params) = if !served
                    && paused.resource_type == "Document"
                    && paused.request.url.split('#').next() == Some(document.url.as_str())
                {
                    served = true;
                    (
                        "Fetch.fulfillRequest",
                        json!({
                            "requestId": paused.id,
                            "responseCode": 200,
                            "responseHeaders": [{"name": "Content-Type", "value": "text/html; charset=utf-8"}],
                            "body": document.body,
                        }),
                    )
                } else if !matches!(scheme, "http" | "https") || count > max_requests {
                    (
                        "Fetch.failRequest",
                        json!({"requestId": paused.id, "errorReason": "BlockedByClient"}),
                    )
                } else {
                    ("Fetch.continueRequest", json!({"requestId": paused.id}))
                };
                let cdp = cdp.clone();
                let session = session.clone();
                tokio::spawn(async move {
                    let _ = cdp.call(Some(&session), method, params).await;
                });
            }
            "Page.loadEventFired" => {
                let _ = page.send(PageSignal::Loaded);
            }
            "Inspector.targetCrashed" | "Target.targetCrashed" => {
                let _ = page.send(PageSignal::Crashed);
            }
            _ => {}
        }
    }
    let _ = page.send(PageSignal::Crashed);
}

#[derive(Deserialize)]
struct Evaluated {
    result: RemoteObject,
    #[serde(rename = "exceptionDetails")]
    exception: Option<Value>,
}

#[derive(Deserialize)]
struct RemoteObject {
    #[serde(default)]
    value: Value,
}

async fn evaluate(cdp: &Connection, session: &str, expression: &str) -> Result<Value, RenderError> {
    let evaluated: Evaluated = cdp
        .call_as(
            Some(session),
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true}),
        )
        .await
        .map_err(|e| RenderError::Failed(e.to_string()))?;
    if let Some(exception) = evaluated.exception {
        return Err(RenderError::Failed(format!("script error: {exception}")));
    }
    Ok(evaluated.result.value)
}

async fn elements(cdp: &Connection, session: &str) -> Result<u64, RenderError> {
    Ok(
        evaluate(cdp, session, "document.getElementsByTagName('*').length")
            .await?
            .as_u64()
            .unwrap_or(0),
    )
}

/// Waits until the page's elements and text stop changing for [`QUIET_MS`].
async fn settle(
    cdp: &Connection,
    session: &str,
    page: &mut mpsc::UnboundedReceiver<PageSignal>,
) -> Result<(), RenderError> {
    let probe = "document.getElementsByTagName('*').length + ':' + (document.body ? document.body.innerText.length : 0)";
    let mut last = Value::Null;
    let mut quiet_since = Instant::now();
    loop {
        if let Ok(PageSignal::Crashed) = page.try_recv() {
            return Err(RenderError::Failed("the renderer crashed".into()));
        }
        let now = evaluate(cdp, session, probe).await?;
        if now == last {
            if quiet_since.elapsed() >= Duration::from_millis(QUIET_MS) {
                return Ok(());
            }
        } else {
            last = now;
            quiet_since = Instant::now();
        }
        tokio::time::sleep(Duration::from_millis(POLL_MS)).await;
    }
}
