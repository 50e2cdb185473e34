//! One run: for each URL fetch → outline → [plan → execute → observe]* → answer; every step
//! an event; `complete` always last and carrying everything gathered.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Map, Value};
use tokio::sync::mpsc;

use super::control::{RunControl, StopReason};
use super::crawl::Crawl;
use super::emitter::{Emitter, NewStep};
use super::fault::{self, FaultPoint};
use super::named::{self, Settled};
use super::page::{PageBudget, PageWorker, WorkerError, has_content};
use super::prefetch::Prefetch;
use super::request::ValidRequest;
use super::rewards;
use crate::browser::Browser;
use crate::events::{
    CompleteData, Decision, DecisionDetails, DraftedCall, ErrorCode, ErrorData, EventPayload,
    FallbackDetails, FetchDetails, FetchFailure, FetchSuccess, InitData, ItemCap, OutputDetails,
    PartialDecision, PlannedCall, ResumeDetails, RunStatus, StepPayload, StepStatus, TokenUsage,
    ToolCallDetails, UnderstoodRequest, UrlCompleteData, UrlStartData, UrlStatus,
};
use crate::fetch::{FetchError, FetchedPage, Fetcher};
use crate::output;
use crate::page::dom::shorten;
use crate::planner::intent::{self, Request};
use crate::planner::{
    DraftCall, Observation, Plan, Planner, PlannerContext, ToolSpec, WordsReader,
};
use crate::read::links::PageLinks;
use crate::settings::Settings;
use crate::store::UrlAnswer;
use crate::tools::{Registry, ToolCall, ToolCallResult, ToolLimits};
use follow::{DetailMode, Reach};

mod browsing;
mod crawling;
mod follow;
mod render;

/// What a run needs from the server.
#[derive(Clone)]
pub struct RunDeps {
    /// Settings.
    pub settings: Arc<Settings>,
    /// The fetcher.
    pub fetcher: Fetcher,
    /// The tools.
    pub registry: Arc<Registry>,
    /// The planner chosen for this run.
    pub planner: Arc<dyn Planner>,
    /// The fallback when the chosen planner fails (the heuristic planner).
    pub fallback: Arc<dyn Planner>,
    /// Reads the request's words into the intent (`planner: llm_words`); without it the
    /// heuristic parser reads them.
    pub words: Option<Arc<dyn WordsReader>>,
    /// The server-wide memory budget of parsed pages, shared by every run.
    pub page_budget: PageBudget,
    /// The browser that renders script-built pages (unavailable when none is installed).
    pub browser: Arc<Browser>,
}

impl std::fmt::Debug for RunDeps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunDeps")
            .field("planner", &self.planner.name())
            .finish_non_exhaustive()
    }
}

struct UrlOutcome {
    answer: Value,
    error: Option<ErrorData>,
    /// Fields the request named that the answer left empty.
    empty_fields: Vec<String>,
}

impl UrlOutcome {
    /// An answer (possibly partial) that ended in an error.
    fn failed(answer: Value, error: ErrorData) -> Self {
        Self {
            answer,
            error: Some(error),
            empty_fields: Vec::new(),
        }
    }
}

struct Run<'a> {
    deps: &'a RunDeps,
    request: &'a ValidRequest,
    control: &'a RunControl,
    emitter: &'a mut Emitter,
    drafts: DraftThrottle,
    /// Set when a tool of the current URL stopped at `limits.max_items` (items kept, items
    /// the page has), so the URL's `output` step says the answer is not the whole list.
    item_cap: Option<ItemCap>,
    /// The fetches of this run, started ahead of their turn (`runs.fetch_concurrency`).
    prefetch: Prefetch,
    /// How far each URL reaches beyond its own page (more pages, item pages).
    reach: Reach,
    /// The calls of the current URL that succeeded, in order: replayed on its next pages.
    executed: Vec<ToolCall>,
    /// The request as understood, parsed once: every planner round, the answer's named
    /// fields and the `agent_decision` steps read this one value.
    understood: Request,
    /// The current URL's list may look on its items' own pages for a named field it lacks
    /// (the heuristic planner's plan, a list asked for values beyond its items' names).
    may_look_on_item_pages: bool,
    /// The current URL's plan kept each item's link although the user named none, for that.
    item_links_kept: bool,
    /// Why the current URL's bounds ("under $20") or text matches left no item, when they did.
    choice_miss: Option<crate::planner::bounds::FilterMiss>,
    /// The named fields the current URL's list lacked were looked for on the first item's
    /// page and were not there either (rule `missing_on_list`, stop `not_on_item_pages`).
    looked_in_vain: bool,
    /// Who read the words: `heuristic`, or `llm` with `planner: llm_words`.
    words_read_by: &'static str,
    /// Tokens the model spent reading the words (prompt, completion).
    words_usage: (u64, u64),
    /// The crawl, when the request asks for one.
    crawl: Option<Crawl>,
    /// The links of the page just read (crawls only), offered once its URL is done.
    page_links: Option<PageLinks>,
    /// URLs the run knows: the request's, then the pages its crawl found.
    known_urls: usize,
    /// The page the `browser.*` tools work on, and the screenshots kept.
    browsing: browsing::Browsing,
}

/// Where a run taken over from another instance starts again.
#[derive(Debug, Clone)]
pub struct Resume {
    /// The answers stored before the takeover, by URL: those URLs are not worked on again.
    pub answers: Map<String, Value>,
    /// What the `resume` step says (who, from whom, why).
    pub details: ResumeDetails,
    /// Whether the run's `init` was stored before it stopped (a server killed right after
    /// creating the session stored none).
    pub init_stored: bool,
    /// How long the run had been going when it was claimed: `complete.duration_ms` counts
    /// from its start, not from the takeover.
    pub elapsed: Duration,
}

/// Runs a whole request and returns the `complete` payload (already emitted).
///
/// A resumed run (`resume`) goes on from its first URL without a stored answer: its `init`
/// was stored by the instance that started it, so it says `resume` instead, and the emitter
/// numbers on from the stored events.
pub async fn run(
    deps: RunDeps,
    request: ValidRequest,
    control: RunControl,
    emitter: &mut Emitter,
    resume: Option<Resume>,
) -> CompleteData {
    let started = resume
        .as_ref()
        .and_then(|resume| Instant::now().checked_sub(resume.elapsed))
        .unwrap_or_else(Instant::now);
    let mut run = Run {
        deps: &deps,
        request: &request,
        control: &control,
        emitter,
        drafts: DraftThrottle::default(),
        item_cap: None,
        prefetch: Prefetch::new(
            deps.fetcher.clone(),
            request.urls.clone(),
            deps.settings.runs.fetch_concurrency,
        ),
        reach: Reach::of(&request, &deps.settings.limits),
        executed: Vec::new(),
        understood: Request::default(),
        may_look_on_item_pages: false,
        item_links_kept: false,
        choice_miss: None,
        looked_in_vain: false,
        words_read_by: "heuristic",
        words_usage: (0, 0),
        crawl: None,
        page_links: None,
        known_urls: request.urls.len(),
        browsing: browsing::Browsing::default(),
    };
    let init = InitData {
        session_id: run.emitter.session_id().to_owned(),
        urls: request.urls.clone(),
        instructions: request.instructions.clone(),
        output_format: request.output_format.as_str().to_owned(),
        max_steps: request.max_steps,
        planner: if request.tools.is_some() {
            "client".to_owned()
        } else {
            deps.planner.name().to_owned()
        },
        tools: request
            .tools
            .as_ref()
            .and_then(|tools| serde_json::to_value(tools).ok()),
        request_id: request.request_id.clone(),
    };
    let stored = match resume {
        Some(resume) => {
            // Its server died before it stored the run's `init`: the log starts with it here.
            if !resume.init_stored {
                run.emit(EventPayload::Init(init.clone())).await;
            }
            run.resumed(resume.details).await;
            Some(resume.answers)
        }
        None => None,
    };
    run.understood = run.read_words().await;
    run.understood.item_pages = run.reach.details.is_some();
    if stored.is_none() {
        run.emit(EventPayload::Init(init)).await;
    }

    let mut answers = Map::new();
    // The request's URLs, then (in a crawl) the pages found, each with its link depth.
    let mut urls = request.urls.clone();
    let mut depths = vec![0; urls.len()];
    run.start_crawl().await;
    let mut index = 0;
    loop {
        if control.is_stopped()
            || index >= urls.len() && !run.discover(&mut urls, &mut depths).await
        {
            break;
        }
        let url = urls[index].clone();
        // Answered before a takeover: stored already, not worked on again.
        if let Some(answer) = stored.as_ref().and_then(|stored| stored.get(&url)) {
            answers.insert(url, answer.clone());
            index += 1;
            continue;
        }
        let outcome = run.process_url(index, &url).await;
        answers.insert(url.clone(), outcome.answer);
        run.offer_links(&url, depths[index]).await;
        index += 1;
    }
    run.end_crawl().await;
    // URLs done and failed, as their `url_complete` events count them (the same reducer gives
    // `complete` its figures).
    let (processed, failed) = {
        let tally = run.emitter.tally();
        (tally.urls_processed, tally.urls_failed)
    };
    // Fetches started ahead for URLs the run never reached are aborted here, before the
    // run's last events: none of them can show up after `complete`.
    run.prefetch.abort_all();
    let stop = control.reason();
    if let Some(reason) = stop {
        let (code, message) = match reason {
            StopReason::Cancelled => (ErrorCode::Cancelled, "the run was cancelled".to_owned()),
            StopReason::Abandoned => (
                ErrorCode::Cancelled,
                "every subscriber left and the grace period ended".to_owned(),
            ),
            StopReason::Timeout => (
                ErrorCode::Timeout,
                format!(
                    "the run exceeded {} s",
                    deps.settings.limits.run_timeout_secs
                ),
            ),
            StopReason::Shutdown => (
                ErrorCode::Cancelled,
                "the server is shutting down".to_owned(),
            ),
            StopReason::StoreFailed => (
                ErrorCode::Internal,
                "the session store failed; the run could not record its work".to_owned(),
            ),
            StopReason::Internal => (
                ErrorCode::Internal,
                "the run stopped on an internal error".to_owned(),
            ),
        };
        run.report_error(ErrorData {
            code,
            message,
            url: None,
            retryable: matches!(
                reason,
                StopReason::Timeout | StopReason::Shutdown | StopReason::StoreFailed
            ),
        })
        .await;
    }
    // `complete` is assembled from the stored answers, as the one rebuilt after a crash is (the
    // ones gathered here are the same; they stand in only when the store cannot be read).
    match run.emitter.stored_answers().await {
        Ok(stored) => {
            answers = urls
                .iter()
                .filter_map(|url| Some((url.clone(), stored.get(url)?.clone())))
                .collect();
        }
        Err(err) => {
            tracing::warn!(session_id = %run.emitter.session_id(), %err, "the stored answers could not be read; complete uses the ones in memory");
        }
    }
    // URLs never reached still get a key, so clients can index by every URL they sent.
    for url in &urls {
        answers.entry(url.clone()).or_insert(Value::Null);
    }
    let unreached = (urls.len() as u64).saturating_sub(processed + failed);
    let status = match stop {
        Some(StopReason::Cancelled | StopReason::Abandoned | StopReason::Shutdown) => {
            RunStatus::Cancelled
        }
        Some(StopReason::StoreFailed | StopReason::Internal) => RunStatus::Failed,
        _ if failed == 0 && unreached == 0 && processed > 0 => RunStatus::Completed,
        _ if processed > 0 => RunStatus::Partial,
        _ => RunStatus::Failed,
    };
    fault::inject(FaultPoint::Output, &request.instructions);
    let complete = complete_data(run.emitter, &request, status, answers, started);
    run.emit(EventPayload::Complete(Box::new(complete.clone())))
        .await;
    complete
}

/// The `complete` payload: the answers given, everything else from the events emitted.
pub(super) fn complete_data(
    emitter: &Emitter,
    request: &ValidRequest,
    status: RunStatus,
    answers: Map<String, Value>,
    started: Instant,
) -> CompleteData {
    let tally = emitter.tally();
    CompleteData {
        session_id: emitter.session_id().to_owned(),
        status,
        output: output::render(request.output_format, &answers),
        extracted_data: answers,
        output_format: request.output_format.as_str().to_owned(),
        total_steps: tally.total_steps,
        total_reward: tally.total_reward(),
        duration_ms: millis(started),
        urls_processed: tally.urls_processed,
        urls_failed: tally.urls_failed,
        errors: tally.errors.clone(),
        empty_fields: tally.empty_fields.clone(),
        metrics: tally.metrics.clone(),
    }
}

fn millis(since: Instant) -> u64 {
    millis_of(since.elapsed())
}

fn millis_of(took: Duration) -> u64 {
    u64::try_from(took.as_millis()).unwrap_or(u64::MAX)
}

impl Run<'_> {
    /// Emits an event. A broken log has already stopped the run (the loops see it), so the
    /// event's fate needs no handling here.
    async fn emit(&mut self, payload: EventPayload) {
        let _ = self.emitter.emit(payload).await;
    }

    /// Emits a step (see [`Run::emit`]).
    async fn step(&mut self, step: NewStep) {
        let _ = self.emitter.step(step).await;
    }

    /// Says the run was taken over and by whom: the first step of a resumed run.
    async fn resumed(&mut self, details: ResumeDetails) {
        let previous = details
            .previous_instance
            .clone()
            .unwrap_or_else(|| "an unknown instance".to_owned());
        self.step(NewStep {
            message: format!(
                "Resumed on instance {} (attempt {}) because {}: {} of {} URLs were answered by {previous}",
                details.instance,
                details.attempt,
                details.reason.describe(),
                details.urls_answered,
                details.urls_answered + details.urls_left,
            ),
            payload: StepPayload::Resume(details),
            url: None,
            status: StepStatus::Completed,
            reward: 0.0,
            duration_ms: None,
        })
        .await;
    }

    async fn report_error(&mut self, error: ErrorData) {
        self.emit(EventPayload::Error(error)).await;
    }

    async fn process_url(&mut self, index: usize, url: &str) -> UrlOutcome {
        let started = Instant::now();
        self.item_cap = None;
        self.emit(EventPayload::UrlStart(UrlStartData {
            url: url.to_owned(),
            index,
            total: self.known_urls,
        }))
        .await;
        let outcome = self.work_on_url(index, url).await;
        if let Some(error) = &outcome.error {
            self.report_error(error.clone()).await;
        }
        let answer = UrlAnswer {
            index,
            url: url.to_owned(),
            answer: outcome.answer.clone(),
        };
        let _ = self
            .emitter
            .emit_answered(
                EventPayload::UrlComplete(UrlCompleteData {
                    url: url.to_owned(),
                    index,
                    status: if outcome.error.is_none() {
                        UrlStatus::Completed
                    } else {
                        UrlStatus::Failed
                    },
                    items: rewards::items_in(&outcome.answer),
                    error_code: outcome.error.as_ref().map(|e| e.code),
                    duration_ms: millis(started),
                    empty_fields: outcome.empty_fields.clone(),
                }),
                Some(&answer),
            )
            .await;
        outcome
    }

    async fn work_on_url(&mut self, index: usize, url: &str) -> UrlOutcome {
        let fail = |code, message: String, retryable| {
            UrlOutcome::failed(
                Value::Null,
                ErrorData {
                    code,
                    message,
                    url: Some(url.to_owned()),
                    retryable,
                },
            )
        };
        // This URL's fetch (started earlier when the window allowed) and the next ones'.
        let Some(handle) = self.prefetch.take(index) else {
            return fail(
                ErrorCode::Internal,
                "the fetch of this URL was lost".into(),
                false,
            );
        };
        let joined = tokio::select! {
            biased;
            () = self.control.stopped() => return UrlOutcome::failed(Value::Null, stopped_error(self.control, url)),
            joined = handle => joined,
        };
        let (fetched, took) = match joined {
            Ok(fetched) => (fetched.result, fetched.took),
            Err(join) => (
                Err(FetchError::Network(format!(
                    "the fetch task failed: {join}"
                ))),
                Duration::ZERO,
            ),
        };
        let page = match fetched {
            Ok(page) => page,
            Err(err) => {
                self.failed_fetch_step(url, &err, took).await;
                return fail(err.code(), err.to_string(), err.retryable());
            }
        };
        self.fetched_step(url, &page, took).await;
        if self.crawl.is_some() && !self.read_crawled(url, &page).await {
            // The same page as one read before: shown, not answered again.
            return UrlOutcome {
                answer: Value::Null,
                error: None,
                empty_fields: Vec::new(),
            };
        }
        // The `browser.*` tools open this page as fetched (its scripts run again in their tab).
        self.browsing.on_page(&page);
        let mut rendered_again = false;
        let (mut page, mut second_chance) = match self.render_if_needed(url, page).await {
            Ok((page, chance, rendered)) => {
                if rendered {
                    self.read_rendered_links(&page).await;
                }
                (page, chance)
            }
            Err(error) => return UrlOutcome::failed(Value::Null, error),
        };
        // Planned on the page as read; once more on the rendered page when the tools found
        // nothing in its HTML and it ships scripts (render.rs).
        let (first_url, worker, budget_result, mut answer) = loop {
            let first_url = page.final_url.clone();
            let worker = self.spawn_worker(page);
            // The outline of a large page takes a while and cannot be stopped half-way; a stop
            // ends the wait (the worker ends once it is done and sees its handle gone).
            let outline = tokio::select! {
                biased;
                () = self.control.stopped() => return UrlOutcome::failed(Value::Null, stopped_error(self.control, url)),
                outline = worker.outline() => outline,
            };
            let outline = match outline {
                Ok(outline) => outline,
                Err(err) => return UrlOutcome::failed(Value::Null, page_error(url, err)),
            };
            self.executed.clear();
            let budget_result = self.agent_loop(url, &worker, outline).await;
            let answer = worker.answer().await.unwrap_or(Value::Null);
            if budget_result.is_ok()
                && !has_content(&answer)
                && let Some(chance) = second_chance.take()
                && let Some(rendered) = self.render_when_nothing_found(url, chance).await
            {
                self.read_rendered_links(&rendered).await;
                page = rendered;
                rendered_again = true;
                continue;
            }
            if rendered_again
                && matches!(named::settle(answer.clone(), &self.understood, false),
                    Settled::Answer { answer, .. } if has_content(&answer))
            {
                self.rendering_helped(&first_url);
            }
            break (first_url, worker, budget_result, answer);
        };
        // The browser tools' tab is of this URL's page: its slot goes back now.
        self.browsing.close().await;
        let mut stopped_early = budget_result.err();
        if stopped_early.is_none() && self.reach.max_pages > 1 {
            (answer, stopped_early) = self.follow_pages(url, worker, &first_url, answer).await;
        } else {
            // The page's share of the memory budget goes back before item pages take theirs:
            // a run holding one page while it waits for another could wait forever on runs
            // doing the same.
            drop(worker);
        }
        if let Some(plan) = self
            .reach
            .details
            .clone()
            .filter(|_| stopped_early.is_none())
        {
            (answer, stopped_early) = self
                .read_details(url, &first_url, answer, &plan, DetailMode::Asked)
                .await;
        } else if self.may_look_on_item_pages {
            (answer, stopped_early) = if stopped_early.is_none() {
                self.look_on_item_pages(url, &first_url, answer).await
            } else {
                (self.without_kept_links(answer), stopped_early)
            };
        }
        // Every field named is a column of the answer, and an answer with none of them is
        // none at all: the URL fails with `no_match` instead of showing rows of something else.
        let settled = named::settle(answer, &self.understood, self.looked_in_vain);
        let (answer, empty_fields, no_match) = match settled {
            // "under $20" where nothing is: the bound says why there is no item.
            Settled::Answer { answer, .. }
                if !has_content(&answer)
                    && let Some(miss) = self.choice_miss.take() =>
            {
                (Value::Null, Vec::new(), Some(miss.message()))
            }
            Settled::Answer {
                answer,
                empty_fields,
            } => (answer, empty_fields, None),
            Settled::NoMatch(message) => (Value::Null, Vec::new(), Some(message)),
        };
        let items = rewards::items_in(&answer);
        let wanted = self.understood.count;
        let reward = if no_match.is_some() {
            rewards::NO_MATCH_REWARD
        } else {
            rewards::output_reward(&answer, wanted)
        };
        self.step(NewStep {
            payload: StepPayload::Output(OutputDetails {
                items,
                requested: wanted,
                preview: preview(&answer, 300),
                item_cap: self.item_cap,
            }),
            url: Some(url.to_owned()),
            status: if has_content(&answer) {
                StepStatus::Completed
            } else {
                StepStatus::Failed
            },
            message: match self.item_cap {
                Some(cap) => format!(
                    "Answer for this URL: {items} item(s); the page has {} but limits.max_items is {}",
                    cap.on_page, cap.limit
                ),
                None => format!("Answer for this URL: {items} item(s)"),
            },
            reward,
            duration_ms: None,
        })
        .await;
        if let Some(error) = stopped_early {
            return UrlOutcome::failed(answer, error);
        }
        if let Some(message) = no_match {
            return UrlOutcome::failed(
                Value::Null,
                ErrorData {
                    code: ErrorCode::NoMatch,
                    message,
                    url: Some(url.to_owned()),
                    retryable: false,
                },
            );
        }
        if !has_content(&answer) {
            return UrlOutcome::failed(
                answer,
                ErrorData {
                    code: ErrorCode::PlannerFailed,
                    message: "no tool call produced data for this request on this page".into(),
                    url: Some(url.to_owned()),
                    retryable: false,
                },
            );
        }
        UrlOutcome {
            answer,
            error: None,
            empty_fields,
        }
    }

    /// Starts the worker that parses `page` and runs tools on it.
    fn spawn_worker(&self, page: FetchedPage) -> PageWorker {
        let limits = &self.deps.settings.limits;
        PageWorker::spawn(
            page.final_url,
            page.html,
            self.deps.registry.clone(),
            ToolLimits {
                max_items: limits.max_items,
                max_text_chars: limits.max_text_chars,
                max_selector_chars: limits.max_selector_chars,
                max_selector_parts: limits.max_selector_parts,
            },
            self.control.interrupt(),
            &self.deps.page_budget,
        )
    }

    /// The `fetch` step of a page that arrived (the URL's own page, a next page, an item page).
    async fn fetched_step(&mut self, url: &str, page: &FetchedPage, took: Duration) {
        self.step(NewStep {
            payload: StepPayload::Fetch(FetchDetails::Fetched(FetchSuccess {
                status: page.status,
                final_url: page.final_url.to_string(),
                content_type: page.content_type.clone(),
                bytes: page.bytes,
                encoding: page.encoding.to_owned(),
                redirects: page.redirects.clone(),
                attempts: page.attempts,
            })),
            url: Some(url.to_owned()),
            status: StepStatus::Completed,
            message: format!("Fetched {} bytes (HTTP {})", page.bytes, page.status),
            reward: 0.0,
            duration_ms: Some(millis_of(took)),
        })
        .await;
    }

    /// The `fetch` step of a page that did not arrive.
    async fn failed_fetch_step(&mut self, url: &str, err: &FetchError, took: Duration) {
        self.step(NewStep {
            payload: StepPayload::Fetch(FetchDetails::Failed(FetchFailure {
                error: err.to_string(),
                code: err.code(),
            })),
            url: Some(url.to_owned()),
            status: StepStatus::Failed,
            message: format!("Fetch failed: {err}"),
            reward: 0.0,
            duration_ms: Some(millis_of(took)),
        })
        .await;
    }

    /// Plan → execute → observe until done, out of budget, or stopped.
    async fn agent_loop(
        &mut self,
        url: &str,
        worker: &PageWorker,
        outline: crate::planner::Outline,
    ) -> Result<(), ErrorData> {
        let budget = self.request.max_steps;
        let mut used: u32 = 0;
        let mut observations: Vec<Observation> = Vec::new();
        self.choice_miss = None;
        self.looked_in_vain = false;
        let mut have_answer = false;
        let mut use_fallback = false;
        let tools: Vec<ToolSpec> = self
            .deps
            .registry
            .tools()
            .iter()
            .map(|t| ToolSpec {
                name: t.name.into(),
                description: t.description.into(),
                params: t.params_schema.clone(),
            })
            .collect();
        let control = self.control.clone();
        let stopped = |url: &str| stopped_error(&control, url);
        for round in 0u32.. {
            if self.control.is_stopped() {
                return Err(stopped(url));
            }
            let (plan, planner_name) = match &self.request.tools {
                Some(calls) if round == 0 => (
                    Plan {
                        tool_calls: calls.clone(),
                        done: true,
                        ..Plan::default()
                    },
                    "client",
                ),
                Some(_) => return Ok(()),
                None => {
                    let context = PlannerContext {
                        instructions: self.reach.list_instructions.clone(),
                        output_instructions: self.request.output_instructions.clone(),
                        understood: self.understood.clone(),
                        url: url.to_owned(),
                        outline: outline.clone(),
                        observations: observations.clone(),
                        round,
                        steps_left: budget - used,
                        have_answer,
                        tools: tools.clone(),
                        model: self.request.model.clone(),
                    };
                    match self.decide(url, &context, use_fallback).await {
                        Some(decided) => {
                            // Once the chosen planner failed on this URL, keep to the fallback: a planner that
                            // is down would otherwise add a fallback step to every round.
                            use_fallback |= decided.1 != self.deps.planner.name();
                            decided
                        }
                        None => return Err(stopped(url)),
                    }
                }
            };
            let heuristic = planner_name == crate::planner::heuristic::HeuristicPlanner::NAME;
            self.may_look_on_item_pages = heuristic && self.understood.may_look_on_item_pages();
            self.item_links_kept =
                self.may_look_on_item_pages && self.understood.keeps_item_links();
            // The tokens the model spent reading the words count with the first decision.
            let spent = (
                plan.usage.0 + self.words_usage.0,
                plan.usage.1 + self.words_usage.1,
            );
            self.words_usage = (0, 0);
            let decision = Decision {
                tool_calls: plan.tool_calls.iter().map(PlannedCall::from).collect(),
                planner: planner_name.to_owned(),
                round,
                done: plan.done,
                notes: plan.notes.clone(),
                usage: (spent != (0, 0)).then_some(TokenUsage {
                    prompt_tokens: spent.0,
                    completion_tokens: spent.1,
                }),
                intent: (planner_name != "client").then(|| Box::new(self.intent_view())),
            };
            self.step(NewStep {
                payload: StepPayload::AgentDecision(DecisionDetails::Final(decision)),
                url: Some(url.to_owned()),
                status: StepStatus::Completed,
                message: if plan.tool_calls.is_empty() {
                    "Agent decided it is done".into()
                } else {
                    format!("Agent selected {} tool(s)", plan.tool_calls.len())
                },
                reward: rewards::decision_reward(&plan),
                duration_ms: None,
            })
            .await;
            if plan.tool_calls.is_empty() {
                return Ok(());
            }
            let mut round_failed = false;
            for (i, call) in plan.tool_calls.iter().enumerate() {
                if self.control.is_stopped() {
                    return Err(stopped(url));
                }
                if used >= budget {
                    for skipped in &plan.tool_calls[i..] {
                        self.skip_step(url, skipped, budget).await;
                    }
                    return Err(ErrorData {
                        code: ErrorCode::BudgetExhausted,
                        message: format!("the budget of {budget} tool calls ran out"),
                        url: Some(url.to_owned()),
                        retryable: false,
                    });
                }
                used += 1;
                let executed = match self.deps.registry.browser_call(call) {
                    Some(checked) => Ok(self.browser_tool(url, worker, call, checked).await),
                    None => worker.execute(call.clone()).await,
                };
                let Ok((result, answer_now)) = executed else {
                    return Err(ErrorData {
                        code: ErrorCode::Internal,
                        message: "the page worker stopped".into(),
                        url: Some(url.to_owned()),
                        retryable: false,
                    });
                };
                have_answer = answer_now;
                round_failed |= !result.success || result.items == 0;
                if result.success {
                    self.executed.push(call.clone());
                }
                self.tool_step(url, call, &result).await;
                observations.push(observe(round, call, &result));
                self.choice_miss = crate::planner::bounds::emptied(&observations);
            }
            if plan.done && have_answer && !round_failed {
                return Ok(());
            }
            if used >= budget {
                return if have_answer {
                    Ok(())
                } else {
                    Err(ErrorData {
                        code: ErrorCode::BudgetExhausted,
                        message: format!(
                            "the budget of {budget} tool calls ran out without an answer"
                        ),
                        url: Some(url.to_owned()),
                        retryable: false,
                    })
                };
            }
        }
        Ok(())
    }

    /// The request as understood: by the model when the request asks for it (`llm_words`),
    /// else, or when the model fails (a `planner_fallback` step says why), by the parser.
    async fn read_words(&mut self) -> Request {
        let words = self.reach.list_instructions.clone();
        let shape = self.request.output_instructions.clone();
        let Some(reader) = self.deps.words.clone() else {
            return intent::parse(&words, shape.as_deref());
        };
        // The model reads the user's own words (the parser reads them through the lexicon).
        let said = self.request.instructions.clone();
        let failure = match reader.read_words(&said, shape.as_deref()).await {
            Ok((understood, usage)) => {
                self.words_usage = usage;
                self.words_read_by = "llm";
                return understood;
            }
            Err(err) => err,
        };
        self.words_usage = failure.usage();
        self.step(NewStep {
            payload: StepPayload::PlannerFallback(FallbackDetails {
                from: "llm_words".to_owned(),
                to: "heuristic".to_owned(),
                reason: failure.to_string(),
            }),
            url: None,
            status: StepStatus::Completed,
            message: format!("The model could not read the request; the parser read it: {failure}"),
            reward: rewards::FALLBACK,
            duration_ms: None,
        })
        .await;
        intent::parse(&words, shape.as_deref())
    }

    /// The request as understood, with how far the run reaches beyond the page.
    fn intent_view(&self) -> UnderstoodRequest {
        let mut view = self.understood.view();
        view.read_by = self.words_read_by.to_owned();
        view.max_pages = self.reach.max_pages;
        view.target = self.reach.target;
        view.item_pages = self.reach.details.as_ref().map(|d| d.fields.clone());
        view
    }

    /// Asks the planner, streaming its drafts as `running` decision steps; falls back to the
    /// heuristic planner when it fails. None when the run was stopped meanwhile.
    async fn decide(
        &mut self,
        url: &str,
        context: &PlannerContext,
        use_fallback: bool,
    ) -> Option<(Plan, &'static str)> {
        let planner = if use_fallback {
            self.deps.fallback.clone()
        } else {
            self.deps.planner.clone()
        };
        let (drafts_tx, mut drafts_rx) = mpsc::channel::<Vec<DraftCall>>(16);
        let decided = {
            fault::inject(FaultPoint::Planning, &self.request.instructions);
            let planning = planner.decide_tools(context, &drafts_tx);
            tokio::pin!(planning);
            loop {
                tokio::select! {
                    biased;
                    () = self.control.stopped() => return None,
                    Some(drafts) = drafts_rx.recv() => self.draft_step(url, &drafts, planner.name()).await,
                    result = &mut planning => break result,
                }
            }
        };
        // Drafts sent before the plan was returned are still queued: emit them first, so every
        // partial of the round precedes its final decision.
        drop(drafts_tx);
        while let Some(drafts) = drafts_rx.recv().await {
            self.draft_step(url, &drafts, planner.name()).await;
        }
        match decided {
            Ok(plan) if !plan.tool_calls.is_empty() || plan.done || context.round > 0 => {
                Some((plan, planner.name()))
            }
            outcome => {
                let (why, spent) = match outcome {
                    Err(err) => (err.to_string(), err.usage()),
                    Ok(plan) => ("the planner returned an empty plan".into(), plan.usage),
                };
                self.step(NewStep {
                    payload: StepPayload::PlannerFallback(FallbackDetails {
                        from: planner.name().to_owned(),
                        to: self.deps.fallback.name().to_owned(),
                        reason: why.clone(),
                    }),
                    url: Some(url.to_owned()),
                    status: StepStatus::Completed,
                    message: format!(
                        "Planner `{}` failed; using `{}`: {why}",
                        planner.name(),
                        self.deps.fallback.name()
                    ),
                    reward: rewards::FALLBACK,
                    duration_ms: None,
                })
                .await;
                let (unused_tx, _unused_rx) = mpsc::channel(1);
                let mut plan = self
                    .deps
                    .fallback
                    .decide_tools(context, &unused_tx)
                    .await
                    .unwrap_or_default();
                // The failed reply still cost tokens: carry them into the metrics instead of
                // losing them on the error path.
                plan.usage.0 += spent.0;
                plan.usage.1 += spent.1;
                Some((plan, self.deps.fallback.name()))
            }
        }
    }

    /// Emits a partial decision, unless the throttle holds it back (see [`DraftThrottle`]).
    async fn draft_step(&mut self, url: &str, drafts: &[DraftCall], planner: &str) {
        let max_chars = self.deps.settings.llm.max_draft_chars;
        if !self
            .drafts
            .should_emit(drafts, self.deps.settings.llm.draft_interval())
        {
            return;
        }
        let calls: Vec<DraftedCall> = drafts
            .iter()
            .map(|d| {
                let total = d.arguments.chars().count();
                DraftedCall {
                    tool: d.tool.clone(),
                    params: d.params.clone(),
                    arguments: d.arguments.chars().take(max_chars).collect(),
                    arguments_chars: (total > max_chars).then_some(total),
                }
            })
            .collect();
        self.step(NewStep {
            payload: StepPayload::AgentDecision(DecisionDetails::Partial(PartialDecision {
                tool_calls: calls,
                planner: planner.to_owned(),
                partial: true,
            })),
            url: Some(url.to_owned()),
            status: StepStatus::Running,
            message: format!("Agent is choosing tools ({} so far)", drafts.len()),
            reward: 0.0,
            duration_ms: None,
        })
        .await;
    }

    async fn tool_step(&mut self, url: &str, call: &ToolCall, result: &ToolCallResult) {
        if let Some(on_page) = result.items_on_page {
            self.item_cap = Some(ItemCap {
                limit: self.deps.settings.limits.max_items,
                on_page: u64::try_from(on_page).unwrap_or(u64::MAX),
            });
        }
        let description = self.deps.registry.get(&call.tool).map(|t| t.description);
        let max_bytes = self.deps.settings.limits.max_step_result_bytes;
        let (bounded, truncated) = bound(result.result.as_ref(), max_bytes);
        self.step(NewStep {
            payload: StepPayload::ToolCall(ToolCallDetails {
                tool: call.tool.clone(),
                tool_name: call.tool.clone(),
                tool_description: description.map(str::to_owned),
                parameters: call.params.clone(),
                reasoning: Some(call.reasoning.clone()),
                success: result.success,
                items: Some(result.items),
                result_preview: result.result.as_ref().map(|r| preview(r, 200)),
                result: bounded,
                result_truncated: Some(truncated),
                error: result.error.clone(),
                duration_ms: Some(result.duration_ms),
                evidence: result.evidence.clone(),
            }),
            url: Some(url.to_owned()),
            status: if result.success {
                StepStatus::Completed
            } else {
                StepStatus::Failed
            },
            message: match &result.error {
                None => format!("Tool {}: ok ({} item(s))", call.tool, result.items),
                Some(err) => format!("Tool {}: failed: {err}", call.tool),
            },
            reward: rewards::tool_reward(result),
            duration_ms: Some(result.duration_ms),
        })
        .await;
    }

    async fn skip_step(&mut self, url: &str, call: &ToolCall, budget: u32) {
        self.step(NewStep {
            payload: StepPayload::ToolCall(ToolCallDetails {
                tool: call.tool.clone(),
                tool_name: call.tool.clone(),
                tool_description: None,
                parameters: call.params.clone(),
                reasoning: None,
                success: false,
                items: None,
                result_preview: None,
                result: Value::Null,
                result_truncated: None,
                error: Some("budget exhausted".into()),
                duration_ms: None,
                evidence: None,
            }),
            url: Some(url.to_owned()),
            status: StepStatus::Skipped,
            message: format!("Tool {}: skipped, budget of {budget} spent", call.tool),
            reward: 0.0,
            duration_ms: None,
        })
        .await;
    }
}

/// Holds back partial decisions that say nothing new: one is emitted when a call's tool name
/// or parsed parameters change (a milestone a viewer wants to see), otherwise at most once per
/// `llm.draft_interval_ms`. Without it a long argument streamed a few characters at a time
/// would store a step per chunk, each repeating everything before it.
#[derive(Debug, Default)]
struct DraftThrottle {
    last_at: Option<Instant>,
    last_shape: Vec<(Option<String>, bool)>,
}

impl DraftThrottle {
    fn should_emit(&mut self, drafts: &[DraftCall], interval: std::time::Duration) -> bool {
        let shape: Vec<(Option<String>, bool)> = drafts
            .iter()
            .map(|d| (d.tool.clone(), d.params.is_some()))
            .collect();
        let milestone = shape != self.last_shape;
        let due = self.last_at.is_none_or(|at| at.elapsed() >= interval);
        if milestone || due {
            self.last_at = Some(Instant::now());
            self.last_shape = shape;
            true
        } else {
            false
        }
    }
}

/// The `error` of a URL whose page worker could not answer.
fn page_error(url: &str, err: WorkerError) -> ErrorData {
    let message = match err {
        WorkerError::TooManyNodes(too_many) => {
            format!("{too_many}, the limit set by limits.max_page_nodes; the page was not read")
        }
        WorkerError::Gone => "the page worker stopped".to_owned(),
    };
    ErrorData {
        code: match err {
            WorkerError::TooManyNodes(_) => ErrorCode::TooLarge,
            WorkerError::Gone => ErrorCode::Internal,
        },
        message,
        url: Some(url.to_owned()),
        retryable: false,
    }
}

/// The error of a URL interrupted by a stop: `timeout` for the run timeout, else `cancelled`.
fn stopped_error(control: &RunControl, url: &str) -> ErrorData {
    let timed_out = control.reason() == Some(StopReason::Timeout);
    ErrorData {
        code: if timed_out {
            ErrorCode::Timeout
        } else {
            ErrorCode::Cancelled
        },
        message: if timed_out {
            "the run timed out while working on this URL".into()
        } else {
            "the run was stopped while working on this URL".into()
        },
        url: Some(url.to_owned()),
        retryable: timed_out,
    }
}

fn observe(round: u32, call: &ToolCall, result: &ToolCallResult) -> Observation {
    Observation {
        round,
        tool: call.tool.clone(),
        params: call.params.clone(),
        success: result.success,
        items: result.items,
        error: result.error.clone(),
        preview: result
            .result
            .as_ref()
            .map(|r| preview(r, 300))
            .unwrap_or_default(),
    }
}

/// A compact one-line rendering of a value, cut at `max` characters.
pub fn preview(value: &Value, max: usize) -> String {
    let text = match value {
        Value::Array(items) => format!(
            "{} item(s): {}",
            items.len(),
            serde_json::to_string(&items.iter().take(3).collect::<Vec<_>>()).unwrap_or_default()
        ),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    shorten(&text, max)
}

/// The result as carried in a step: whole when small, else its first items / first characters.
fn bound(result: Option<&Value>, max_bytes: usize) -> (Value, bool) {
    let Some(value) = result else {
        return (Value::Null, false);
    };
    let size = serde_json::to_string(value).map_or(0, |s| s.len());
    if size <= max_bytes {
        return (value.clone(), false);
    }
    match value {
        Value::Array(items) => {
            let mut kept = Vec::new();
            let mut used = 2;
            for item in items {
                let len = serde_json::to_string(item).map_or(0, |s| s.len()) + 1;
                if used + len > max_bytes {
                    break;
                }
                used += len;
                kept.push(item.clone());
            }
            (Value::Array(kept), true)
        }
        Value::String(s) => (Value::String(s.chars().take(max_bytes).collect()), true),
        other => (Value::String(shorten(&other.to_string(), max_bytes)), true),
    }
}
