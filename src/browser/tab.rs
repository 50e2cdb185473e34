//! One open page in the browser ([`Tab`]): opened from a document we fetched, in a browser
//! context of its own behind a guarded egress proxy, and worked on step by step — wait for it,
//! click in it, scroll it, photograph it, read its DOM. The pool's one-shot render and the
//! `browser.*` tools both work through it, so a "Load more" round is the same click whether the
//! run's `render` step or a planned `browser.click` makes it.
//!
//! A tab holds a slot of the pool. Dropped or closed, whatever way its caller ended (done,
//! failed, timed out, cancelled), its interceptor, its browser context and its slot go.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use base64::Engine;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::{OwnedSemaphorePermit, mpsc};
use url::Url;

use super::cdp::{Connection, Event};
use super::proxy::EgressProxy;
use super::{Browser, Gauges, Instance, RenderError, Round, RoundKind, decide, group_rss_bytes};

/// Milliseconds without a change in the page before it counts as settled.
const QUIET_MS: u64 = 1000;
/// Milliseconds between two looks at the page while it settles.
const POLL_MS: u64 = 200;
/// Milliseconds without a new request before the network counts as idle.
const NETWORK_QUIET_MS: u64 = 500;
/// Screenshots too large for the byte cap are taken again at half the scale, down to this.
const MIN_SCREENSHOT_SCALE: f64 = 0.125;

/// What a page is waited for before it is read (`browser.render`'s `wait`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wait {
    /// The load event, then the page quiet (its elements and text unchanged for a second).
    Load,
    /// As `Load`, and no new request for half a second.
    NetworkIdle,
    /// An element matching this CSS selector.
    Selector(String),
    /// A fixed time in milliseconds (within `browser.timeout_secs`).
    Time(u64),
}

/// What a click aims at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// The visible control whose text (or value, or label) is this, ignoring case and spaces;
    /// failing an equal one, the first that contains it.
    Text(String),
    /// The first visible element matching this CSS selector.
    Selector(String),
}

/// When scrolling stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Until {
    /// When a scroll adds nothing to the page.
    Still,
    /// When the page's longest list holds this many items (or it stops growing first).
    Count(u64),
}

/// A PNG of the page.
#[derive(Debug, Clone)]
pub struct Screenshot {
    /// The PNG.
    pub png: Vec<u8>,
    /// Width and height in CSS pixels of the part taken.
    pub width: u64,
    /// Height in CSS pixels.
    pub height: u64,
    /// The scale it was taken at (below 1 when the byte cap made it smaller).
    pub scale: f64,
}

/// What the page's requests came to so far.
#[derive(Debug, Clone, Default)]
pub struct Traffic {
    /// Requests the page made (the document included).
    pub requests: u32,
    /// Bytes received through the proxy.
    pub bytes: u64,
    /// Requests the address guard refused, each as `host: why`.
    pub refused: Vec<String>,
}

/// What a tab holds in the browser and the pool; given back when the tab goes.
struct Held {
    instance: Arc<Instance>,
    gauges: Gauges,
    context: Option<String>,
    session: Option<String>,
    interceptor: Option<tokio::task::AbortHandle>,
    slot: Option<OwnedSemaphorePermit>,
    /// Whether the `active` gauge counts this tab (it does once it has a browser).
    counted: bool,
}

impl Held {
    /// Everything to give back, taken out (so a second release has nothing to do).
    fn take(&mut self) -> Release {
        Release {
            instance: self.instance.clone(),
            gauges: self.gauges.clone(),
            context: self.context.take(),
            session: self.session.take(),
            interceptor: self.interceptor.take(),
            slot: self.slot.take(),
            counted: std::mem::take(&mut self.counted),
        }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let release = self.take();
        if release.slot.is_none() {
            return;
        }
        // A caller that stopped waiting (a cancelled run) drops its tab mid-way: the context
        // still has to be disposed, which takes a call to the browser.
        match tokio::runtime::Handle::try_current() {
            Ok(handle) => drop(handle.spawn(release.run())),
            Err(_) => release.sync_part(),
        }
    }
}

struct Release {
    instance: Arc<Instance>,
    gauges: Gauges,
    context: Option<String>,
    session: Option<String>,
    interceptor: Option<tokio::task::AbortHandle>,
    slot: Option<OwnedSemaphorePermit>,
    counted: bool,
}

impl Release {
    fn sync_part(&self) {
        if let Some(interceptor) = &self.interceptor {
            interceptor.abort();
        }
        if self.counted {
            self.gauges.active.dec();
            self.gauges.done.inc();
        }
    }

    async fn run(self) {
        if let Some(interceptor) = &self.interceptor {
            interceptor.abort();
        }
        let cdp = &self.instance.connection;
        if let Some(session) = &self.session {
            cdp.forget(session).await;
        }
        if let Some(id) = &self.context {
            let _ = tokio::time::timeout(
                Duration::from_secs(2),
                cdp.call(
                    None,
                    "Target.disposeBrowserContext",
                    json!({"browserContextId": id}),
                ),
            )
            .await;
        }
        if self.counted {
            self.gauges.active.dec();
            self.gauges.done.inc();
            self.gauges
                .rss_bytes
                .set(i64::try_from(group_rss_bytes(cdp.pgid)).unwrap_or(i64::MAX));
        }
        drop(self.slot);
    }
}

/// One page open in the browser.
pub struct Tab {
    held: Held,
    session: String,
    page: mpsc::UnboundedReceiver<PageSignal>,
    proxy: EgressProxy,
    requests: Arc<AtomicU32>,
    limit: Duration,
    /// When the tab was opened.
    pub opened_at: Instant,
}

impl std::fmt::Debug for Tab {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tab")
            .field("session", &self.session)
            .finish_non_exhaustive()
    }
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

/// `fut` within `limit`, a [`RenderError::Timeout`] of `secs` after.
async fn within<T>(
    limit: Duration,
    fut: impl Future<Output = Result<T, RenderError>>,
) -> Result<T, RenderError> {
    tokio::time::timeout(limit, fut)
        .await
        .unwrap_or(Err(RenderError::Timeout(limit.as_secs())))
}

impl Browser {
    /// Opens `url`, whose document is `html` (already fetched), in a tab: the browser runs its
    /// scripts and the page settles. Waits for a slot of the pool and for free memory first;
    /// all of it within `browser.timeout_secs`.
    ///
    /// # Errors
    /// [`RenderError`].
    pub async fn open(self: &Arc<Self>, url: &Url, html: &str) -> Result<Tab, RenderError> {
        if !self.available() {
            return Err(RenderError::Unavailable);
        }
        let limit = Duration::from_secs(self.settings.timeout_secs.max(1));
        within(limit, self.open_within(url, html, limit)).await
    }

    async fn open_within(
        self: &Arc<Self>,
        url: &Url,
        html: &str,
        limit: Duration,
    ) -> Result<Tab, RenderError> {
        self.gauges.waiting.inc();
        let waiting = Waiting(self.gauges.waiting.clone());
        let slot = self
            .slots
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| RenderError::Failed("the browser pool is closed".into()))?;
        while super::available_mib().is_some_and(|free| free < self.settings.min_free_mib) {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        drop(waiting);
        let instance = self.instance().await?;
        instance.renders.fetch_add(1, Ordering::Relaxed);
        self.gauges.active.inc();
        let mut held = Held {
            instance,
            gauges: self.gauges.clone(),
            context: None,
            session: None,
            interceptor: None,
            slot: Some(slot),
            counted: true,
        };
        let cdp = held.instance.connection.clone();
        let failed = |e: super::cdp::CdpError| RenderError::Failed(e.to_string());
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
                    // Chromium sends loopback and link-local requests around any proxy without this.
                    "proxyBypassList": "<-loopback>",
                }),
            )
            .await
            .map_err(failed)?;
        held.context = Some(context.id.clone());
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
        held.session = Some(session.clone());
        let events = cdp.listen(&session).await;
        let (page_events, page) = mpsc::unbounded_channel();
        let requests = Arc::new(AtomicU32::new(0));
        let interceptor = tokio::spawn(intercept(
            cdp.clone(),
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
        held.interceptor = Some(interceptor.abort_handle());
        let mut tab = Tab {
            held,
            session,
            page,
            proxy,
            requests,
            limit,
            opened_at: Instant::now(),
        };
        let s = Some(tab.session.as_str());
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
        if !matches!(tab.page.recv().await, Some(PageSignal::Loaded)) {
            return Err(RenderError::Failed("the renderer crashed".into()));
        }
        tab.settle().await?;
        Ok(tab)
    }
}

/// Counts a render waiting for a slot or for memory, until dropped (the wait ended whatever way).
struct Waiting(prometheus_client::metrics::gauge::Gauge);

impl Drop for Waiting {
    fn drop(&mut self) {
        self.0.dec();
    }
}

impl Tab {
    fn cdp(&self) -> &Connection {
        &self.held.instance.connection
    }

    async fn eval(&self, expression: &str) -> Result<Value, RenderError> {
        evaluate(self.cdp(), &self.session, expression).await
    }

    /// Elements in the page.
    async fn elements(&self) -> Result<u64, RenderError> {
        Ok(self
            .eval("document.getElementsByTagName('*').length")
            .await?
            .as_u64()
            .unwrap_or(0))
    }

    /// Items of the page's longest list: the most children of one parent sharing a tag and
    /// class (cards in a grid, rows of a feed).
    async fn list_items(&self) -> Result<u64, RenderError> {
        Ok(self.eval(LIST_ITEMS).await?.as_u64().unwrap_or(0))
    }

    /// Waits until the page's elements and text stop changing for [`QUIET_MS`].
    async fn settle(&mut self) -> Result<(), RenderError> {
        let probe = "document.getElementsByTagName('*').length + ':' + (document.body ? document.body.innerText.length : 0)";
        let mut last = Value::Null;
        let mut quiet_since = Instant::now();
        loop {
            if let Ok(PageSignal::Crashed) = self.page.try_recv() {
                return Err(RenderError::Failed("the renderer crashed".into()));
            }
            let now = self.eval(probe).await?;
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

    /// Waits for what `wait` says, within `browser.timeout_secs`.
    ///
    /// # Errors
    /// [`RenderError::Timeout`] when it does not come; [`RenderError::Failed`] when the page
    /// crashed or the selector is not valid CSS.
    pub async fn wait(&mut self, wait: &Wait) -> Result<(), RenderError> {
        let limit = self.limit;
        within(limit, async {
            match wait {
                Wait::Load => self.settle().await,
                Wait::NetworkIdle => {
                    let mut last = self.requests.load(Ordering::Relaxed);
                    let mut since = Instant::now();
                    while since.elapsed() < Duration::from_millis(NETWORK_QUIET_MS) {
                        tokio::time::sleep(Duration::from_millis(POLL_MS / 2)).await;
                        let now = self.requests.load(Ordering::Relaxed);
                        if now != last {
                            last = now;
                            since = Instant::now();
                        }
                    }
                    self.settle().await
                }
                Wait::Selector(selector) => {
                    let expression = format!(
                        "!!document.querySelector({})",
                        serde_json::to_string(selector).unwrap_or_default()
                    );
                    while self.eval(&expression).await?.as_bool() != Some(true) {
                        tokio::time::sleep(Duration::from_millis(POLL_MS)).await;
                    }
                    Ok(())
                }
                Wait::Time(ms) => {
                    tokio::time::sleep(Duration::from_millis(*ms)).await;
                    Ok(())
                }
            }
        })
        .await
    }

    /// One round: clicks `target` (or, with `None`, the first "Load more" style control, else
    /// scrolls to the end), then waits for the page to settle. `None` when `target` was given
    /// and nothing visible matches it.
    async fn round(&mut self, how: Move<'_>) -> Result<Option<Round>, RenderError> {
        let before = self.elements().await?;
        let (kind, control) = match how {
            Move::Click(target) => {
                let (by, what) = match target {
                    Target::Text(text) => ("text", text),
                    Target::Selector(selector) => ("selector", selector),
                };
                let expression = format!(
                    "({CLICK})({}, {})",
                    serde_json::to_string(by).unwrap_or_default(),
                    serde_json::to_string(what).unwrap_or_default()
                );
                let Some(control) = self.eval(&expression).await?.as_str().map(str::to_owned)
                else {
                    return Ok(None);
                };
                // A control that reads "Load more" grows a list however it was named.
                let kind = if decide::is_load_more(&control) {
                    RoundKind::LoadMore
                } else {
                    RoundKind::Click
                };
                (kind, Some(control))
            }
            Move::LoadMoreOrScroll => match self.eval(&click_load_more()).await?.as_str() {
                Some(text) => (RoundKind::LoadMore, Some(text.to_owned())),
                None => {
                    self.eval(SCROLL_TO_END).await?;
                    (RoundKind::Scroll, None)
                }
            },
            Move::Scroll => {
                self.eval(SCROLL_TO_END).await?;
                (RoundKind::Scroll, None)
            }
        };
        self.settle().await?;
        Ok(Some(Round {
            kind,
            control,
            elements_before: before,
            elements_after: self.elements().await?,
            items: self.list_items().await?,
        }))
    }

    /// Clicks `target` and waits for the page to settle.
    ///
    /// # Errors
    /// [`RenderError::Failed`] when nothing visible matches `target` (the message says what
    /// was looked for) or the page failed; [`RenderError::Timeout`].
    pub async fn click(&mut self, target: &Target) -> Result<Round, RenderError> {
        let limit = self.limit;
        within(limit, async {
            self.round(Move::Click(target)).await?.ok_or_else(|| {
                RenderError::Failed(match target {
                    Target::Text(text) => format!("no visible control reads “{text}”"),
                    Target::Selector(selector) => {
                        format!("no visible element matches `{selector}`")
                    }
                })
            })
        })
        .await
    }

    /// Scrolls to the end, round after round, until `until` or `max_rounds`; each round waits
    /// for the page to settle.
    ///
    /// # Errors
    /// [`RenderError`]; the whole scroll within `browser.timeout_secs`.
    pub async fn scroll(
        &mut self,
        until: Until,
        max_rounds: u32,
    ) -> Result<Vec<Round>, RenderError> {
        self.rounds(|_| Move::Scroll, until, max_rounds).await
    }

    /// Grows the page's list: clicks its "Load more" control, or scrolls to the end when it has
    /// none, round after round, until it stops growing, holds `want` items, or `max_rounds`.
    ///
    /// # Errors
    /// [`RenderError`]; the whole growth within `browser.timeout_secs`.
    pub async fn grow(
        &mut self,
        want: Option<u64>,
        max_rounds: u32,
    ) -> Result<Vec<Round>, RenderError> {
        let until = want.map_or(Until::Still, Until::Count);
        self.rounds(|_| Move::LoadMoreOrScroll, until, max_rounds)
            .await
    }

    async fn rounds(
        &mut self,
        how: impl Fn(u32) -> Move<'static>,
        until: Until,
        max_rounds: u32,
    ) -> Result<Vec<Round>, RenderError> {
        let limit = self.limit;
        within(limit, async {
            let mut rounds = Vec::new();
            if let Until::Count(want) = until
                && self.list_items().await? >= want
            {
                return Ok(rounds);
            }
            for n in 0..max_rounds {
                let Some(round) = self.round(how(n)).await? else {
                    break;
                };
                let still = round.elements_after <= round.elements_before;
                let enough = matches!(until, Until::Count(want) if round.items >= want);
                rounds.push(round);
                if still || enough {
                    break;
                }
            }
            Ok(rounds)
        })
        .await
    }

    /// A PNG of the page: the viewport, or with `full_page` the whole page down to
    /// `max_height` CSS pixels; taken again at half the scale while it is over `max_bytes`.
    ///
    /// # Errors
    /// [`RenderError::Failed`] when even at 1/8 scale it is over `max_bytes`.
    pub async fn screenshot(
        &mut self,
        full_page: bool,
        max_height: u64,
        max_bytes: usize,
    ) -> Result<Screenshot, RenderError> {
        #[derive(Deserialize)]
        struct Size {
            height: f64,
        }
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Viewport {
            client_width: f64,
            client_height: f64,
        }
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Layout {
            css_content_size: Size,
            css_layout_viewport: Viewport,
        }
        #[derive(Deserialize)]
        struct Shot {
            data: String,
        }
        let limit = self.limit;
        let session = self.session.clone();
        within(limit, async {
            let failed = |e: super::cdp::CdpError| RenderError::Failed(e.to_string());
            let layout: Layout = self
                .cdp()
                .call_as(Some(&session), "Page.getLayoutMetrics", json!({}))
                .await
                .map_err(failed)?;
            let width = layout.css_layout_viewport.client_width.max(1.0).round();
            let height = if full_page {
                layout.css_content_size.height
            } else {
                layout.css_layout_viewport.client_height
            };
            // Whole CSS pixels; the casts are of small positive numbers.
            #[allow(clippy::cast_precision_loss)]
            let height = height.clamp(1.0, max_height.max(1) as f64).round();
            let mut scale = 1.0_f64;
            loop {
                let shot: Shot = self
                    .cdp()
                    .call_as(
                        Some(&session),
                        "Page.captureScreenshot",
                        json!({
                            "format": "png",
                            "captureBeyondViewport": full_page,
                            "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": scale},
                        }),
                    )
                    .await
                    .map_err(failed)?;
                let png = base64::engine::general_purpose::STANDARD
                    .decode(shot.data)
                    .map_err(|e| RenderError::Failed(format!("the screenshot is not base64: {e}")))?;
                if png.len() <= max_bytes {
                    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                    return Ok(Screenshot {
                        png,
                        width: width as u64,
                        height: height as u64,
                        scale,
                    });
                }
                scale /= 2.0;
                if scale < MIN_SCREENSHOT_SCALE {
                    return Err(RenderError::Failed(format!(
                        "the screenshot is over {max_bytes} bytes (browser.screenshot_max_bytes) even at 1/8 scale"
                    )));
                }
            }
        })
        .await
    }

    /// The DOM as HTML. A page whose text reads as an error page ("Application error", an empty
    /// app root) is a failure, not a page.
    ///
    /// # Errors
    /// [`RenderError::Failed`].
    pub async fn html(&mut self) -> Result<String, RenderError> {
        let limit = self.limit;
        within(limit, async {
            let html = self
                .eval("'<!DOCTYPE html>' + document.documentElement.outerHTML")
                .await?
                .as_str()
                .map(str::to_owned)
                .ok_or_else(|| RenderError::Failed("the page has no document".into()))?;
            let text = self
                .eval("document.body ? document.body.innerText.trim() : ''")
                .await?;
            if let Some(why) = decide::error_page(text.as_str().unwrap_or("")) {
                return Err(RenderError::Failed(why.to_owned()));
            }
            Ok(html)
        })
        .await
    }

    /// The page's address now (a click may have followed a link).
    ///
    /// # Errors
    /// [`RenderError::Failed`].
    pub async fn url(&self) -> Result<String, RenderError> {
        Ok(self
            .eval("location.href")
            .await?
            .as_str()
            .unwrap_or_default()
            .to_owned())
    }

    /// The page's requests so far.
    pub async fn traffic(&self) -> Traffic {
        Traffic {
            requests: self.requests.load(Ordering::Relaxed),
            bytes: self
                .proxy
                .log
                .bytes
                .load(std::sync::atomic::Ordering::Relaxed),
            refused: self.proxy.log.refused.lock().await.clone(),
        }
    }

    /// Closes the tab: its context is disposed and its slot freed before this returns.
    pub async fn close(mut self) {
        self.held.take().run().await;
    }
}

/// What one round does.
enum Move<'a> {
    Click(&'a Target),
    LoadMoreOrScroll,
    Scroll,
}

const SCROLL_TO_END: &str = "window.scrollTo(0, document.documentElement.scrollHeight); true";

/// The most children of one parent that share a tag and class.
const LIST_ITEMS: &str = r"(() => {
  let best = 0;
  for (const parent of document.querySelectorAll('body, body *')) {
    if (parent.children.length <= best) continue;
    const counts = new Map();
    for (const child of parent.children) {
      const key = child.tagName + '.' + child.className;
      const n = (counts.get(key) || 0) + 1;
      counts.set(key, n);
      if (n > best) best = n;
    }
  }
  return best;
})()";

/// Clicks the visible element `what` names (`by` text or selector); returns what it reads, or
/// `null` when nothing visible matches.
const CLICK: &str = r"(by, what) => {
  const visible = el => { const box = el.getBoundingClientRect(); return box.width > 0 || box.height > 0; };
  const label = el => (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().replace(/\s+/g, ' ');
  let el = null;
  if (by === 'selector') {
    el = Array.from(document.querySelectorAll(what)).find(visible) || null;
  } else {
    const want = what.trim().replace(/\s+/g, ' ').toLowerCase();
    const controls = Array.from(document.querySelectorAll(
      'button, a, [role=button], [role=tab], [role=link], [role=menuitem], summary, label, input[type=button], input[type=submit], [onclick]'
    )).filter(el => visible(el) && !el.disabled);
    el = controls.find(el => label(el).toLowerCase() === want)
      || controls.find(el => label(el).toLowerCase().includes(want)) || null;
  }
  if (!el) return null;
  el.scrollIntoView({block: 'center'});
  el.click();
  return (label(el) || el.tagName.toLowerCase()).slice(0, 80);
}";

/// Clicks the first visible, enabled "Load more" style control; returns its text or `null`.
fn click_load_more() -> String {
    let words = serde_json::to_string(decide::LOAD_MORE_LABEL).unwrap_or_default();
    format!(
        r#"(() => {{
  const words = new RegExp({words}, 'i');
  const controls = document.querySelectorAll('button, a, [role=button], input[type=button]');
  for (const el of controls) {{
    const text = (el.innerText || el.value || '').trim();
    if (!words.test(text) || el.disabled) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (el.tagName === 'A') {{
      const href = el.getAttribute('href') || '';
      if (href && !href.startsWith('#') && !href.startsWith('javascript:')) continue;
    }}
    el.scrollIntoView();
    el.click();
    return text.slice(0, 80);
  }}
  return null;
}})()"#
    )
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_browser_reads_the_load_more_pattern_of_the_rules() {
        assert!(
            click_load_more().contains(&serde_json::to_string(decide::LOAD_MORE_LABEL).unwrap())
        );
    }
}
