//! Beyond the URL's own page: the next pages of its list, and each item's own page.
//!
//! Both are the run's work, not a tool's: the tools only read a page and say which link leads
//! on (`nav.next_page`) or what a page shows (`extract.named_fields`); the run fetches through
//! the same fetcher (address guard, robots.txt, per-host politeness) and shows every link it
//! follows as a `navigate` step, then that page's own fetch, decision and tool steps.

use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::time::Instant;

use serde_json::{Map, Value};
use url::Url;

use super::super::prefetch::Prefetch;
use super::{NewStep, Run, page_error, stopped_error};
use crate::events::{
    Decision, DecisionDetails, DetailPageLink, ErrorData, ItemCap, NavigateDetails, NavigateStop,
    NextPageLink, PlannedCall, StepPayload, StepStatus, StopRule,
};
use crate::fetch::FetchError;
use crate::planner::reach::{self, PagesWanted};
use crate::read::navigation::{NextPage, item_link};
use crate::run::page::{PageWorker, WorkerError};
use crate::run::request::ValidRequest;
use crate::settings::LimitSettings;
use crate::tools::ToolCall;
use crate::tools::extract::{NamedFieldsParams, key_of};
use crate::tools::nav::NextPageParams;

/// The record key that says which page of the list a record came from (1 is the URL's own),
/// added when more than one page was read.
pub const PAGE_KEY: &str = "_page";
/// The record key that says why an item's own page gave nothing.
pub const DETAIL_ERROR_KEY: &str = "_detail_error";

/// How far one request's URLs reach beyond their own page.
#[derive(Debug, Clone)]
pub(in crate::run) struct Reach {
    /// Pages of each URL's list to read, its own included (1: the URL's page only).
    pub max_pages: u32,
    /// Items to collect across pages, when the request names a number.
    pub target: Option<usize>,
    /// Whether the request asked for pages in so many words (or `max_pages`), rather than
    /// only naming a number of items.
    pub pages_asked: bool,
    /// Item pages to read, when asked.
    pub details: Option<DetailPlan>,
    /// The words the list page is planned from (the request's, without the part about
    /// item pages).
    pub list_instructions: String,
}

/// What to read on each item's own page.
#[derive(Debug, Clone)]
pub(in crate::run) struct DetailPlan {
    /// Field names in the user's words (empty: every labelled value).
    pub fields: Vec<String>,
    /// Item pages read at most.
    pub limit: usize,
}

impl Reach {
    /// Reads the request: its `max_pages` / `max_detail_pages` first, else its words.
    pub(in crate::run) fn of(request: &ValidRequest, limits: &LimitSettings) -> Self {
        // The words as the parser reads them: "go into each product" is "open each product".
        let words = &crate::planner::lexicon::canonical(&request.instructions);
        let target = reach::item_target(words);
        let pages_said = reach::pages(words);
        let pages_asked = pages_said.is_some() || request.max_pages.is_some();
        let max_pages = request.max_pages.unwrap_or(match pages_said {
            Some(PagesWanted::Exactly(n)) => n.clamp(1, limits.max_pages),
            Some(PagesWanted::All) => limits.max_pages,
            // A number of items to collect: as many pages as it takes (within the cap).
            None if target.is_some() => limits.max_pages,
            None => 1,
        });
        let asked = reach::details(words);
        let details = match (request.max_detail_pages, &asked) {
            (Some(0), _) | (None, None) => None,
            (limit, _) => Some(DetailPlan {
                fields: asked.as_ref().map(|a| a.fields.clone()).unwrap_or_default(),
                limit: limit.unwrap_or(limits.max_detail_pages) as usize,
            }),
        };
        let list_instructions = asked
            .map(|a| a.list_instructions)
            .filter(|text| !text.trim().is_empty())
            // "open each product and get its SKU" says nothing else about the list: its
            // items are every item.
            .unwrap_or_else(|| {
                if details.is_some() {
                    "every item".to_owned()
                } else {
                    words.clone()
                }
            });
        Self {
            max_pages,
            target,
            pages_asked,
            details,
            list_instructions,
        }
    }
}

/// Whether item pages were asked for, or are read because the list lacks a named field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DetailMode {
    /// The request asked for the items' pages: every one is read.
    Asked,
    /// The list lacks a named field: the first item's page decides whether the rest are read.
    FirstDecides,
}

/// The list without the links its plan kept for item pages it did not read (the user named
/// no link); items that differed only by their link are one item again.
fn without_item_links(answer: Value) -> Value {
    let Value::Array(items) = answer else {
        return answer;
    };
    let mut seen = std::collections::HashSet::new();
    let items = items
        .into_iter()
        .map(|mut item| {
            if let Value::Object(record) = &mut item {
                record.remove(ITEM_LINK_KEY);
            }
            item
        })
        .filter(|item| seen.insert(serde_json::to_string(item).unwrap_or_default()))
        .collect();
    Value::Array(items)
}

/// The key a plan keeps each item's link under when the user named no link.
const ITEM_LINK_KEY: &str = "url";

/// A URL without its fragment, for telling pages apart.
fn page_key(url: &str) -> String {
    url.split('#').next().unwrap_or(url).to_owned()
}

/// Asks the page for the link to its list's next page (`nav.next_page`, shown as a tool step
/// like any call) and reads the answer; `None` when the page links to none.
async fn next_page(
    worker: &PageWorker,
    cross_origin: bool,
    reasoning: &str,
) -> Result<Option<NextPage>, WorkerError> {
    let lookup = ToolCall::typed(&NextPageParams { cross_origin }, reasoning);
    let (found, _) = worker.execute(lookup).await?;
    Ok(found
        .result
        .filter(|_| found.success)
        .and_then(|value| serde_json::from_value(value).ok()))
}

/// A digest of a page's items, to notice a page that repeats another under a new URL.
fn digest(items: &[Value]) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    serde_json::to_string(items)
        .unwrap_or_default()
        .hash(&mut hasher);
    hasher.finish()
}

impl Run<'_> {
    /// The list without the links its plan kept for item pages it did not read, when the
    /// user named no link.
    pub(super) fn without_kept_links(&self, answer: Value) -> Value {
        if self.item_links_kept {
            without_item_links(answer)
        } else {
            answer
        }
    }

    /// Announces calls the run makes without asking the planner (a replay of page 1's calls on
    /// a next page, the reading of item pages).
    async fn run_decision(&mut self, url: &str, calls: &[ToolCall], planner: &str, note: String) {
        self.step(NewStep {
            payload: StepPayload::AgentDecision(DecisionDetails::Final(Decision {
                tool_calls: calls.iter().map(PlannedCall::from).collect(),
                planner: planner.to_owned(),
                round: 0,
                done: true,
                notes: vec![note.clone()],
                usage: None,
                intent: None,
            })),
            url: Some(url.to_owned()),
            status: StepStatus::Completed,
            message: note,
            reward: 0.0,
            duration_ms: None,
        })
        .await;
    }

    async fn navigate_step(&mut self, url: &str, details: NavigateDetails, message: String) {
        self.step(NewStep {
            payload: StepPayload::Navigate(details),
            url: Some(url.to_owned()),
            status: StepStatus::Completed,
            message,
            reward: 0.0,
            duration_ms: None,
        })
        .await;
    }

    /// Fetches `link` for this URL, showing the `fetch` step; None when the run stopped.
    async fn fetch_linked(
        &mut self,
        url: &str,
        link: &str,
    ) -> Option<Result<crate::fetch::FetchedPage, FetchError>> {
        let started = Instant::now();
        let fetched = tokio::select! {
            biased;
            () = self.control.stopped() => return None,
            fetched = self.deps.fetcher.fetch_html(link) => fetched,
        };
        match &fetched {
            Ok(page) => self.fetched_step(url, page, started.elapsed()).await,
            Err(err) => self.failed_fetch_step(url, err, started.elapsed()).await,
        }
        Some(fetched)
    }

    /// Runs `calls` on a page, each shown as a `tool_call` step; the URL's error when the run
    /// stopped or the worker could not answer (a page over the node cap, a lost worker).
    async fn replay(
        &mut self,
        url: &str,
        worker: &PageWorker,
        calls: &[ToolCall],
    ) -> Result<(), ErrorData> {
        for call in calls {
            if self.control.is_stopped() {
                return Err(stopped_error(self.control, url));
            }
            // A `browser.*` call of page 1 works on this page's own tab.
            let executed = match self.deps.registry.browser_call(call) {
                Some(checked) => Ok(self.browser_tool(url, worker, call, checked).await),
                None => worker.execute(call.clone()).await,
            };
            let (result, _) = match executed {
                Ok(done) => done,
                Err(_) if self.control.is_stopped() => {
                    return Err(stopped_error(self.control, url));
                }
                Err(err) => return Err(page_error(url, err)),
            };
            self.tool_step(url, call, &result).await;
        }
        self.browsing.close().await;
        Ok(())
    }

    /// Follows the list's next pages from the URL's own page (read by `first`), replaying the
    /// calls that answered it on each, until a stop rule holds. Returns the merged answer
    /// (records tagged with their page when more than one was read) and the error that cut it
    /// short, if any (the records gathered so far are kept).
    pub(super) async fn follow_pages(
        &mut self,
        url: &str,
        first: PageWorker,
        first_url: &Url,
        answer: Value,
    ) -> (Value, Option<ErrorData>) {
        let target = self.reach.target;
        let max_pages = self.reach.max_pages as usize;
        // Only a number of items named ("the cheapest product", "the top 10") and page 1 has
        // them, or is no list: nothing to follow, nothing to say.
        let quiet = !self.reach.pages_asked;
        let Value::Array(first_items) = answer else {
            if !quiet {
                let items = usize::from(!answer.is_null());
                self.stop_step(url, StopRule::NotAList, 1, items, None)
                    .await;
            }
            return (answer, None);
        };
        if quiet && target.is_some_and(|t| first_items.len() >= t) {
            return (Value::Array(first_items), None);
        }
        let calls = self.executed.clone();
        let mut pages: Vec<Vec<Value>> = vec![first_items];
        let mut seen_urls: HashSet<String> = [page_key(url), page_key(first_url.as_str())].into();
        let mut seen_items: HashSet<u64> = [digest(&pages[0])].into();
        let mut worker = first;
        let mut page_url = first_url.to_string();
        let mut error = None;
        let gathered = |pages: &[Vec<Value>]| pages.iter().map(Vec::len).sum::<usize>();
        let stop: Option<(StopRule, Option<String>)> = loop {
            if target.is_some_and(|t| gathered(&pages) >= t) {
                break Some((StopRule::CountReached, None));
            }
            if pages.len() >= max_pages {
                break Some((StopRule::PageBudget, None));
            }
            if self.control.is_stopped() {
                error = Some(stopped_error(self.control, url));
                break None;
            }
            let cross_origin = self.deps.settings.fetch.follow_cross_origin;
            let next =
                match next_page(&worker, cross_origin, "find the next page of the list").await {
                    Ok(next) => next,
                    Err(err) => {
                        error = Some(page_error(url, err));
                        break None;
                    }
                };
            let Some(next) = next else {
                // A `rel=next` to another site is filtered out by the lookup above; ask once
                // more, allowing other sites, so the stop names the real reason.
                if !cross_origin
                    && let Ok(Some(other)) = next_page(
                        &worker,
                        true,
                        "check whether the next page is on another site",
                    )
                    .await
                {
                    break Some((StopRule::CrossOrigin, Some(other.url)));
                }
                break Some((StopRule::NoNextLink, None));
            };
            if !seen_urls.insert(page_key(&next.url)) {
                break Some((StopRule::RepeatedPage, Some(next.url)));
            }
            let position = u32::try_from(pages.len() + 1).unwrap_or(u32::MAX);
            self.navigate_step(
                url,
                NavigateDetails::NextPage(NextPageLink {
                    from: page_url.clone(),
                    to: next.url.clone(),
                    page: position,
                    number: next.page,
                    evidence: next.evidence,
                    link_text: next.text.clone(),
                }),
                format!("Following page {position}: {} ({})", next.url, next.text),
            )
            .await;
            let Some(fetched) = self.fetch_linked(url, &next.url).await else {
                error = Some(stopped_error(self.control, url));
                break None;
            };
            let Ok(page) = fetched else {
                break Some((StopRule::FetchFailed, Some(next.url)));
            };
            self.browsing.on_page(&page);
            let page = match self.render_linked(url, page).await {
                Ok(page) => page,
                Err(why) => {
                    error = Some(why);
                    break None;
                }
            };
            seen_urls.insert(page_key(page.final_url.as_str()));
            page_url = page.final_url.to_string();
            worker = self.spawn_worker(page);
            self.run_decision(
                url,
                &calls,
                "replay",
                format!("Page {position}: the calls that answered page 1"),
            )
            .await;
            if let Err(why) = self.replay(url, &worker, &calls).await {
                error = Some(why);
                break None;
            }
            let items = match worker.answer().await {
                Ok(Value::Array(items)) => items,
                _ => Vec::new(),
            };
            if items.is_empty() {
                break Some((StopRule::EmptyPage, None));
            }
            if !seen_items.insert(digest(&items)) {
                break Some((StopRule::RepeatedPage, Some(page_url.clone())));
            }
            pages.push(items);
        };
        let read = u32::try_from(pages.len()).unwrap_or(u32::MAX);
        let tag = pages.len() > 1;
        let mut merged: Vec<Value> = Vec::with_capacity(gathered(&pages));
        for (index, items) in pages.into_iter().enumerate() {
            for mut item in items {
                if tag && let Value::Object(fields) = &mut item {
                    fields.insert(PAGE_KEY.to_owned(), Value::from(index + 1));
                }
                merged.push(item);
            }
        }
        if let Some((rule, next)) = stop {
            self.stop_step(url, rule, read, merged.len(), next).await;
        }
        if let Some(t) = target {
            merged.truncate(t);
        }
        let max_items = self.deps.settings.limits.max_items;
        if merged.len() > max_items {
            self.item_cap = Some(ItemCap {
                limit: max_items,
                on_page: merged.len() as u64,
            });
            merged.truncate(max_items);
        }
        (Value::Array(merged), error)
    }

    async fn stop_step(
        &mut self,
        url: &str,
        rule: StopRule,
        pages: u32,
        items: usize,
        next: Option<String>,
    ) {
        let message = format!(
            "Stopped following links: {} ({pages} page(s), {items} item(s))",
            rule.describe()
        );
        self.navigate_step(
            url,
            NavigateDetails::Stop(NavigateStop {
                rule,
                pages,
                items,
                next,
            }),
            message,
        )
        .await;
    }

    /// A list answer whose plan kept each item's link although none was named: when a named
    /// field is on no item of the list (rule `missing_on_list`), the first item's page is read
    /// for it, and every item's page when the first shows it; otherwise, or when the first
    /// does not, the links go and the list is answered as it was.
    pub(super) async fn look_on_item_pages(
        &mut self,
        url: &str,
        first_url: &Url,
        answer: Value,
    ) -> (Value, Option<ErrorData>) {
        let missing = super::super::named::empty_in_every_item(&answer, &self.understood);
        if missing.is_empty() || self.request.max_detail_pages == Some(0) {
            return (self.without_kept_links(answer), None);
        }
        let plan = DetailPlan {
            fields: missing,
            limit: self.deps.settings.limits.max_detail_pages as usize,
        };
        self.read_details(url, first_url, answer, &plan, DetailMode::FirstDecides)
            .await
    }

    /// Opens each record's own page (up to the plan's limit, fetched ahead like the run's URLs)
    /// and merges the fields read there into the record. A page that fails gives its record a
    /// `_detail_error`; the run goes on. With `DetailMode::FirstDecides`, a first page showing
    /// none of the fields ends the reading and the list is answered as it came, without links.
    pub(super) async fn read_details(
        &mut self,
        url: &str,
        first_url: &Url,
        answer: Value,
        plan: &DetailPlan,
        mode: DetailMode,
    ) -> (Value, Option<ErrorData>) {
        let mut untouched = (mode == DetailMode::FirstDecides).then(|| answer.clone());
        let Value::Array(mut items) = answer else {
            let items = usize::from(!answer.is_null());
            self.stop_step(url, StopRule::NotAList, 0, items, None)
                .await;
            return (answer, None);
        };
        let cross_origin = self.deps.settings.fetch.follow_cross_origin;
        let home = Url::parse(url).ok().map(|u| u.origin());
        let allowed = |link: &str| {
            cross_origin
                || Url::parse(link)
                    .is_ok_and(|l| l.origin() == first_url.origin() || Some(l.origin()) == home)
        };
        // (record index, field, link) for the records within the limit.
        let mut visits: Vec<(usize, String, String)> = Vec::new();
        for (index, record) in items.iter_mut().enumerate().take(plan.limit) {
            let Value::Object(fields) = record else {
                continue;
            };
            match item_link(&Value::Object(fields.clone())).map(|l| (l.field, l.url)) {
                Some((_, link)) if !allowed(&link) => {
                    fields.insert(
                        DETAIL_ERROR_KEY.into(),
                        Value::from(
                            "the item's page is on another site (fetch.follow_cross_origin is off)",
                        ),
                    );
                }
                Some((field, link)) => visits.push((index, field, link)),
                None => {
                    fields.insert(
                        DETAIL_ERROR_KEY.into(),
                        Value::from("the record has no link to its own page"),
                    );
                }
            }
        }
        if let Some(untouched) = untouched.as_ref().filter(|_| visits.is_empty()) {
            return (self.without_kept_links(untouched.clone()), None);
        }
        let read_call = ToolCall::typed(
            &NamedFieldsParams {
                fields: plan.fields.clone(),
            },
            if plan.fields.is_empty() {
                "read what the item's page shows".to_owned()
            } else {
                format!("read {} on the item's page", plan.fields.join(", "))
            },
        );
        let note = match mode {
            DetailMode::Asked => format!(
                "Reading {} item page(s) of {} record(s)",
                visits.len(),
                items.len()
            ),
            DetailMode::FirstDecides => format!(
                "No item of the list shows {}: looking on the first item's page, then on all {} \
                 when it is there (rule missing_on_list)",
                plan.fields.join(", "),
                visits.len()
            ),
        };
        self.run_decision(url, std::slice::from_ref(&read_call), "details", note)
            .await;
        let keys: Vec<String> = plan.fields.iter().map(|f| key_of(f)).collect();
        // The first page decides alone whether the others are fetched at all.
        let window = self.deps.settings.runs.fetch_concurrency;
        let mut ahead = Prefetch::new(
            self.deps.fetcher.clone(),
            visits.iter().map(|(_, _, link)| link.clone()).collect(),
            if untouched.is_some() { 1 } else { window },
        );
        let mut error = None;
        let mut opened = 0u32;
        for (k, (index, field, link)) in visits.iter().enumerate() {
            if self.control.is_stopped() {
                error = Some(stopped_error(self.control, url));
                break;
            }
            self.navigate_step(
                url,
                NavigateDetails::DetailPage(DetailPageLink {
                    item: *index,
                    to: link.clone(),
                    field: field.clone(),
                }),
                format!("Opening item {}'s page: {link}", index + 1),
            )
            .await;
            opened += 1;
            let Some(handle) = ahead.take(k) else {
                break;
            };
            let joined = tokio::select! {
                biased;
                () = self.control.stopped() => {
                    error = Some(stopped_error(self.control, url));
                    break;
                }
                joined = handle => joined,
            };
            let (fetched, took) = match joined {
                Ok(done) => (done.result, done.took),
                Err(join) => (
                    Err(FetchError::Network(format!(
                        "the fetch task failed: {join}"
                    ))),
                    std::time::Duration::ZERO,
                ),
            };
            let outcome: Result<Map<String, Value>, String> = match fetched {
                Err(err) => {
                    self.failed_fetch_step(url, &err, took).await;
                    Err(err.to_string())
                }
                Ok(page) => {
                    self.fetched_step(url, &page, took).await;
                    match self.render_linked(url, page).await {
                        Err(why) => Err(why.message),
                        Ok(page) => {
                            let worker = self.spawn_worker(page);
                            match worker.execute(read_call.clone()).await {
                                Err(err) => Err(err.to_string()),
                                Ok((result, _)) => {
                                    self.tool_step(url, &read_call, &result).await;
                                    match result.result {
                                        Some(Value::Object(found)) if result.success => Ok(found),
                                        _ => Err(result.error.unwrap_or_else(|| {
                                            "nothing found on the item's page".into()
                                        })),
                                    }
                                }
                            }
                        }
                    }
                }
            };
            let shown = matches!(&outcome,
                Ok(found) if keys.iter().any(|k| found.get(k).is_some_and(|v| !v.is_null())));
            if k == 0
                && !shown
                && let Some(untouched) = untouched.take()
            {
                ahead.abort_all();
                self.looked_in_vain = true;
                self.stop_step(url, StopRule::NotOnItemPages, opened, items.len(), None)
                    .await;
                return (self.without_kept_links(untouched), None);
            }
            ahead.widen(window);
            if let Some(Value::Object(record)) = items.get_mut(*index) {
                match outcome {
                    Ok(found) => {
                        for key in &keys {
                            record.entry(key.clone()).or_insert(Value::Null);
                        }
                        for (key, value) in found {
                            if !value.is_null() {
                                record.insert(key, value);
                            }
                        }
                    }
                    Err(why) => {
                        for key in &keys {
                            record.entry(key.clone()).or_insert(Value::Null);
                        }
                        record.insert(DETAIL_ERROR_KEY.into(), Value::String(why));
                    }
                }
            }
        }
        ahead.abort_all();
        if error.is_none() {
            let rule = if items.len() > plan.limit {
                StopRule::DetailBudget
            } else {
                StopRule::DetailsDone
            };
            self.stop_step(url, rule, opened, items.len(), None).await;
        }
        (Value::Array(items), error)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn links_kept_for_item_pages_go_and_items_they_told_apart_are_one_again() {
        let answer = json!([
            {"name": "Mug", "url": "/mug"},
            {"name": "Mug", "url": "/mug?ref=carousel"},
            {"name": "Jug", "url": "/jug"},
        ]);
        assert_eq!(
            without_item_links(answer),
            json!([{"name": "Mug"}, {"name": "Jug"}])
        );
        assert_eq!(
            without_item_links(json!({"name": "Mug"})),
            json!({"name": "Mug"})
        );
    }
}
