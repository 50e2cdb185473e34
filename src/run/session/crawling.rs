//! A crawl inside the run: its sitemaps read at the start, the pages it found handed to the
//! run's loop (a `navigate` step of kind `crawl` each), repeats and traps shown by rule, and
//! a `crawl_end` step saying why it ended.

use super::{NewStep, Run};
use crate::events::{CrawlSkip, NavigateDetails, StepPayload, StepStatus};
use crate::fetch::FetchedPage;
use crate::page::Page;
use crate::read::links::{PageLinks, page_links};
use crate::run::crawl::{Crawl, Spill};

impl Run<'_> {
    /// Starts the request's crawl, when it asks for one: reads the seeds' sitemaps.
    pub(super) async fn start_crawl(&mut self) {
        let Some(options) = &self.request.crawl else {
            return;
        };
        let mut crawl = Crawl::new(options, &self.request.urls, &self.deps.settings.crawl);
        let store = self.emitter.store().clone();
        match Spill::open(store, self.emitter.session_id().to_owned()).await {
            Ok(spill) => crawl = crawl.with_spill(spill),
            // The crawl goes on with its frontier in memory only (links past it dropped).
            Err(err) => {
                tracing::warn!(session_id = %self.emitter.session_id(), %err, "the crawl's frontier cannot spill to the store");
            }
        }
        let shown = tokio::select! {
            biased;
            () = self.control.stopped() => Vec::new(),
            shown = crawl.read_sitemaps(&self.deps.fetcher, &self.request.urls) => shown,
        };
        self.crawl = Some(crawl);
        self.show_skips(shown).await;
    }

    /// Hands the next pages of the crawl to the run (as many as it fetches at once); false
    /// when there is none (no crawl, the budget spent, or nothing left in scope).
    pub(super) async fn discover(&mut self, urls: &mut Vec<String>, depths: &mut Vec<u32>) -> bool {
        let window = self.deps.settings.runs.fetch_concurrency.max(1);
        let Some(crawl) = self.crawl.as_mut() else {
            return false;
        };
        crawl.refill(window).await;
        let batch: Vec<_> = std::iter::from_fn(|| crawl.next()).take(window).collect();
        if batch.is_empty() {
            return false;
        }
        self.known_urls += batch.len();
        for candidate in batch {
            let message = match &candidate.found_on {
                Some(on) => format!(
                    "Crawl: {} (depth {}, linked from {on})",
                    candidate.url, candidate.depth
                ),
                None => format!(
                    "Crawl: {} (depth {}, from a sitemap)",
                    candidate.url, candidate.depth
                ),
            };
            self.step(NewStep {
                payload: StepPayload::Navigate(NavigateDetails::Crawl(candidate.step())),
                url: Some(candidate.url.clone()),
                status: StepStatus::Completed,
                message,
                reward: 0.0,
                duration_ms: None,
            })
            .await;
            self.prefetch.push(candidate.url.clone());
            urls.push(candidate.url);
            depths.push(candidate.depth);
        }
        true
    }

    /// The links of `page`, read off the async threads (parsing a large page takes a while,
    /// as the page worker knows).
    async fn links_of(&self, page: &FetchedPage) -> PageLinks {
        let (final_url, html, max_nodes) = (
            page.final_url.clone(),
            page.html.clone(),
            self.deps.settings.limits.max_page_nodes,
        );
        tokio::task::spawn_blocking(move || {
            Page::parse_within(final_url, &html, max_nodes)
                .ok()
                .map(|page| page_links(&page))
        })
        .await
        .ok()
        .flatten()
        .unwrap_or_default()
    }

    /// Reads the links of a crawled page that arrived; false when it repeats a page read
    /// before (shown as a `crawl_skip` step).
    pub(super) async fn read_crawled(&mut self, url: &str, page: &FetchedPage) -> bool {
        let links = self.links_of(page).await;
        let repeat = self
            .crawl
            .as_mut()
            .and_then(|crawl| crawl.read(url, &links));
        if let Some(skip) = repeat {
            self.show_skips(vec![skip]).await;
            return false;
        }
        self.page_links = Some(links);
        true
    }

    /// Adds the links of the crawled page as the browser drew it to the ones of its HTML: a
    /// page whose script builds its links feeds the crawl too. (Whether it repeats a page read
    /// before was decided on its HTML.)
    pub(super) async fn read_rendered_links(&mut self, rendered: &FetchedPage) {
        if self.page_links.is_none() {
            return;
        }
        let drawn = self.links_of(rendered).await;
        let Some(links) = self.page_links.as_mut() else {
            return;
        };
        let known: std::collections::HashSet<String> = links.links.iter().cloned().collect();
        links
            .links
            .extend(drawn.links.into_iter().filter(|link| !known.contains(link)));
        links.nofollow |= drawn.nofollow;
    }

    /// Offers the links of the page just read to the crawl.
    pub(super) async fn offer_links(&mut self, url: &str, depth: u32) {
        let Some(links) = self.page_links.take() else {
            return;
        };
        let fetcher = self.deps.fetcher.clone();
        let Some(crawl) = self.crawl.as_mut() else {
            return;
        };
        let shown = crawl.offer_links(&fetcher, url, &links, depth).await;
        self.show_skips(shown).await;
    }

    async fn show_skips(&mut self, skips: Vec<CrawlSkip>) {
        for skip in skips {
            let message = format!("Crawl left out {} by rule `{}`", skip.url, rule_name(&skip));
            self.step(NewStep {
                url: Some(skip.url.clone()),
                payload: StepPayload::Navigate(NavigateDetails::CrawlSkip(skip)),
                status: StepStatus::Skipped,
                message,
                reward: 0.0,
                duration_ms: None,
            })
            .await;
        }
    }

    /// The `crawl_end` step, when the run crawled.
    pub(super) async fn end_crawl(&mut self) {
        let Some(crawl) = &self.crawl else {
            return;
        };
        let end = crawl.end(self.control.is_stopped());
        let rule = serde_json::to_value(end.rule)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        let message = format!(
            "Crawl ended by rule `{rule}`: {} page(s) read, {} still queued",
            end.pages, end.queued
        );
        self.step(NewStep {
            payload: StepPayload::Navigate(NavigateDetails::CrawlEnd(end)),
            url: None,
            status: StepStatus::Completed,
            message,
            reward: 0.0,
            duration_ms: None,
        })
        .await;
    }
}

fn rule_name(skip: &CrawlSkip) -> String {
    serde_json::to_value(skip.rule)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}
