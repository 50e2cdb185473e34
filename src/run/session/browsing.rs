//! The `browser.*` tools in a run: the first one opens the URL's page (as fetched) in a tab of
//! the browser, each one works on that tab, and the page the browser then shows replaces the
//! parsed page in the worker, so the tools after it read the rendered DOM. Their rounds are
//! `navigate` steps, their screenshots are kept with the session, and the call is the same
//! `tool_call` step as any tool's. The tab closes when the URL's plan is done.

use std::time::Instant;

use serde::Serialize;
use url::Url;

use super::Run;
use crate::browser::{RenderError, Tab};
use crate::events::RenderMode;
use crate::fetch::FetchedPage;
use crate::run::page::{PageWorker, has_content};
use crate::tools::browser::{self as tools, BrowserCall, Done, Shot};
use crate::tools::{ToolCall, ToolCallResult, ToolError};

/// The browser side of the current URL.
#[derive(Default)]
pub(super) struct Browsing {
    /// The URL's page as fetched: what a tab opens.
    page: Option<(Url, String)>,
    /// The open tab, once a browser tool ran.
    tab: Option<Tab>,
    /// Screenshots kept by the run so far.
    screenshots: u32,
}

impl Browsing {
    /// A new URL's page: the tab of the last one (if still open) goes.
    pub(super) fn on_page(&mut self, page: &FetchedPage) {
        self.tab = None;
        self.page = Some((page.final_url.clone(), page.html.clone()));
    }

    /// Closes the tab, waiting until its browser context is gone.
    pub(super) async fn close(&mut self) {
        self.page = None;
        if let Some(tab) = self.tab.take() {
            tab.close().await;
        }
    }
}

impl Run<'_> {
    /// Executes a browser tool's call (`checked` by the registry) on the URL's tab; answers as
    /// the page worker does: the call's result, and whether the workspace holds an answer.
    pub(super) async fn browser_tool(
        &mut self,
        url: &str,
        worker: &PageWorker,
        call: &ToolCall,
        checked: Result<BrowserCall, ToolError>,
    ) -> (ToolCallResult, bool) {
        let started = Instant::now();
        let outcome = match checked {
            Ok(browser_call) => self.in_browser(url, worker, &browser_call).await,
            Err(err) => Err(err),
        };
        let have_answer = has_content(&worker.answer().await.unwrap_or_default());
        let duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let result = ToolCallResult::of(&call.tool, outcome, duration_ms, None, None);
        (result, have_answer)
    }

    async fn in_browser(
        &mut self,
        url: &str,
        worker: &PageWorker,
        call: &BrowserCall,
    ) -> Result<serde_json::Value, ToolError> {
        let tool = match call {
            BrowserCall::Render(_) => "browser.render",
            BrowserCall::Click(_) => "browser.click",
            BrowserCall::Scroll { .. } => "browser.scroll",
            BrowserCall::Screenshot { .. } => "browser.screenshot",
        };
        let failed = |err: RenderError| ToolError::Failed(format!("{tool}: {err}"));
        if self.request.render == RenderMode::Never {
            return Err(ToolError::Failed(format!(
                "{tool}: the request says `render: never`"
            )));
        }
        let settings = &self.deps.settings.browser;
        if let BrowserCall::Screenshot { .. } = call
            && self.browsing.screenshots >= settings.max_screenshots_per_run
        {
            return Err(ToolError::Failed(format!(
                "{tool}: the run already kept {} screenshots (browser.max_screenshots_per_run)",
                settings.max_screenshots_per_run
            )));
        }
        if self.browsing.tab.is_none() {
            let Some((page_url, html)) = self.browsing.page.clone() else {
                return Err(ToolError::Failed(format!("{tool}: no page to open")));
            };
            let browser = self.deps.browser.clone();
            let tab = tokio::select! {
                biased;
                () = self.control.stopped() => return Err(ToolError::Interrupted),
                tab = browser.open(&page_url, &html) => tab.map_err(failed)?,
            };
            self.browsing.tab = Some(tab);
        }
        let Some(tab) = self.browsing.tab.as_mut() else {
            return Err(ToolError::Failed(format!("{tool}: no tab")));
        };
        let done = tokio::select! {
            biased;
            () = self.control.stopped() => return Err(ToolError::Interrupted),
            done = tools::execute(call, tab, settings) => done,
        };
        let done = match done {
            Ok(done) => done,
            Err(err) => {
                // A failed page is not worked on further: the next browser tool opens it again.
                self.browsing.tab = None;
                return Err(err);
            }
        };
        let (value, html) = match done {
            Done::Rendered(rendered, html) => (to_value(tool, &rendered)?, Some(html)),
            Done::Clicked(clicked, round, html) => {
                self.round_steps(url, std::slice::from_ref(&round)).await;
                (to_value(tool, &clicked)?, Some(html))
            }
            Done::Scrolled(scrolled, rounds, html) => {
                self.round_steps(url, &rounds).await;
                (to_value(tool, &scrolled)?, Some(html))
            }
            Done::Screenshot(screenshot) => {
                let n = self.browsing.screenshots + 1;
                let session = self.emitter.session_id().to_owned();
                self.emitter
                    .store()
                    .save_screenshot(&session, n, url, &screenshot.png)
                    .await
                    .map_err(|e| {
                        ToolError::Failed(format!("{tool}: the screenshot was not kept: {e}"))
                    })?;
                self.browsing.screenshots = n;
                let shot = Shot {
                    url: format!("/api/scrape/{session}/screenshots/{n}.png"),
                    bytes: screenshot.png.len(),
                    width: screenshot.width,
                    height: screenshot.height,
                    scale: screenshot.scale,
                };
                (to_value(tool, &shot)?, None)
            }
        };
        if let Some(html) = html {
            let page_url = match self.browsing.tab.as_ref() {
                Some(tab) => tab.url().await.ok().and_then(|u| Url::parse(&u).ok()),
                None => None,
            };
            let page_url = page_url
                .or_else(|| self.browsing.page.as_ref().map(|(u, _)| u.clone()))
                .ok_or_else(|| ToolError::Failed(format!("{tool}: no page")))?;
            worker
                .replace(page_url, html)
                .await
                .map_err(|e| ToolError::Failed(format!("{tool}: {e}")))?;
        }
        Ok(value)
    }
}

fn to_value(tool: &str, value: &impl Serialize) -> Result<serde_json::Value, ToolError> {
    serde_json::to_value(value).map_err(|e| ToolError::Failed(format!("{tool}: {e}")))
}
