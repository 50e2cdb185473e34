//! One run: for each URL fetch → outline → [plan → execute → observe]* → answer; every step
//! an event; `complete` always last and carrying everything gathered.

use std::sync::Arc;
use std::time::Instant;

use serde_json::{Map, Value, json};
use tokio::sync::mpsc;

use super::control::{RunControl, StopReason};
use super::emitter::{Emitter, NewStep};
use super::page::{PageWorker, has_content};
use super::request::ValidRequest;
use super::rewards;
use crate::events::{
    CompleteData, ErrorCode, ErrorData, EventType, RunMetrics, RunStatus, StepStatus,
};
use crate::fetch::Fetcher;
use crate::output;
use crate::planner::outline::shorten;
use crate::planner::{DraftCall, Observation, Plan, Planner, PlannerContext, ToolSpec};
use crate::settings::Settings;
use crate::tools::{Registry, ToolCall, ToolCallResult, ToolLimits};

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
}

struct Run<'a> {
    deps: &'a RunDeps,
    request: &'a ValidRequest,
    control: &'a RunControl,
    emitter: &'a mut Emitter,
    metrics: RunMetrics,
    errors: Vec<ErrorData>,
}

/// Runs a whole request and returns the `complete` payload (already emitted).
pub async fn run(
    deps: RunDeps,
    request: ValidRequest,
    control: RunControl,
    emitter: &mut Emitter,
) -> CompleteData {
    let started = Instant::now();
    let mut run = Run {
        deps: &deps,
        request: &request,
        control: &control,
        emitter,
        metrics: RunMetrics::default(),
        errors: Vec::new(),
    };
    run.emitter
        .emit(
            EventType::Init,
            json!({
                "session_id": run.emitter.session_id(),
                "urls": request.urls,
                "instructions": request.instructions,
                "output_format": request.output_format,
                "max_steps": request.max_steps,
                "planner": if request.tools.is_some() { "client" } else { deps.planner.name() },
                "tools": request.tools,
            }),
        )
        .await;

    let mut answers = Map::new();
    let mut processed = 0;
    let mut failed = 0;
    for (index, url) in request.urls.iter().enumerate() {
        if control.is_stopped() {
            break;
        }
        let outcome = run.process_url(index, url).await;
        if outcome.error.is_none() {
            processed += 1;
        } else {
            failed += 1;
        }
        answers.insert(url.clone(), outcome.answer);
    }
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
        };
        run.report_error(ErrorData {
            code,
            message,
            url: None,
            retryable: matches!(reason, StopReason::Timeout | StopReason::Shutdown),
        })
        .await;
    }
    // URLs never reached still get a key, so clients can index by every URL they sent.
    for url in &request.urls {
        answers.entry(url.clone()).or_insert(Value::Null);
    }
    let unreached = request.urls.len() as u64 - processed - failed;
    let status = match stop {
        Some(StopReason::Cancelled | StopReason::Abandoned | StopReason::Shutdown) => {
            RunStatus::Cancelled
        }
        _ if failed == 0 && unreached == 0 && processed > 0 => RunStatus::Completed,
        _ if processed > 0 => RunStatus::Partial,
        _ => RunStatus::Failed,
    };
    let complete = CompleteData {
        session_id: run.emitter.session_id().to_owned(),
        status,
        output: output::render(request.output_format, &answers),
        extracted_data: answers,
        output_format: request.output_format.as_str().to_owned(),
        total_steps: run.emitter.total_steps(),
        total_reward: rewards::round(run.emitter.total_reward()),
        duration_ms: millis(started),
        urls_processed: processed,
        urls_failed: failed,
        errors: run.errors.clone(),
        metrics: run.metrics.clone(),
    };
    let data = serde_json::to_value(&complete).unwrap_or(Value::Null);
    run.emitter.emit(EventType::Complete, data).await;
    complete
}

fn millis(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
}

impl Run<'_> {
    async fn report_error(&mut self, error: ErrorData) {
        self.emitter
            .emit(
                EventType::Error,
                serde_json::to_value(&error).unwrap_or(Value::Null),
            )
            .await;
        self.errors.push(error);
    }

    async fn process_url(&mut self, index: usize, url: &str) -> UrlOutcome {
        let started = Instant::now();
        self.emitter
            .emit(
                EventType::UrlStart,
                json!({"url": url, "index": index, "total": self.request.urls.len()}),
            )
            .await;
        let outcome = self.work_on_url(url).await;
        if let Some(error) = &outcome.error {
            self.report_error(error.clone()).await;
        }
        self.emitter
            .emit(
                EventType::UrlComplete,
                json!({
                    "url": url,
                    "index": index,
                    "status": if outcome.error.is_none() { "completed" } else { "failed" },
                    "items": rewards::items_in(&outcome.answer),
                    "error_code": outcome.error.as_ref().map(|e| e.code),
                    "duration_ms": millis(started),
                }),
            )
            .await;
        outcome
    }

    async fn work_on_url(&mut self, url: &str) -> UrlOutcome {
        let fail = |code, message: String, retryable| UrlOutcome {
            answer: Value::Null,
            error: Some(ErrorData {
                code,
                message,
                url: Some(url.to_owned()),
                retryable,
            }),
        };
        let fetch_started = Instant::now();
        let fetched = tokio::select! {
            biased;
            () = self.control.stopped() => return UrlOutcome { answer: Value::Null, error: Some(stopped_error(self.control, url)) },
            fetched = self.deps.fetcher.fetch_html(url) => fetched,
        };
        self.metrics.fetches += 1;
        let page = match fetched {
            Ok(page) => page,
            Err(err) => {
                self.emitter
                    .step(NewStep {
                        action: "fetch",
                        url: Some(url.to_owned()),
                        status: StepStatus::Failed,
                        message: format!("Fetch failed: {err}"),
                        reward: 0.0,
                        extracted_data: Some(json!({"error": err.to_string(), "code": err.code()})),
                        duration_ms: Some(millis(fetch_started)),
                    })
                    .await;
                return fail(err.code(), err.to_string(), err.retryable());
            }
        };
        self.metrics.bytes_fetched += page.bytes;
        self.emitter
            .step(NewStep {
                action: "fetch",
                url: Some(url.to_owned()),
                status: StepStatus::Completed,
                message: format!("Fetched {} bytes (HTTP {})", page.bytes, page.status),
                reward: 0.0,
                extracted_data: Some(json!({
                    "status": page.status,
                    "final_url": page.final_url.as_str(),
                    "content_type": page.content_type,
                    "bytes": page.bytes,
                    "encoding": page.encoding,
                    "redirects": page.redirects,
                    "attempts": page.attempts,
                })),
                duration_ms: Some(millis(fetch_started)),
            })
            .await;

        let limits = ToolLimits {
            max_items: self.deps.settings.limits.max_items,
            max_text_chars: self.deps.settings.limits.max_text_chars,
        };
        let worker = PageWorker::spawn(
            page.final_url.clone(),
            page.html,
            self.deps.registry.clone(),
            limits,
        );
        let Ok(outline) = worker.outline().await else {
            return fail(
                ErrorCode::Internal,
                "the page could not be parsed".into(),
                false,
            );
        };
        let budget_result = self.agent_loop(url, &worker, outline).await;
        let answer = worker.answer().await.unwrap_or(Value::Null);
        let items = rewards::items_in(&answer);
        let wanted = crate::planner::intent::count(&self.request.instructions);
        let reward = rewards::output_reward(&answer, wanted);
        self.emitter
            .step(NewStep {
                action: "output",
                url: Some(url.to_owned()),
                status: if has_content(&answer) {
                    StepStatus::Completed
                } else {
                    StepStatus::Failed
                },
                message: format!("Answer for this URL: {items} item(s)"),
                reward,
                extracted_data: Some(
                    json!({"items": items, "requested": wanted, "preview": preview(&answer, 300)}),
                ),
                duration_ms: None,
            })
            .await;
        if let Err(error) = budget_result {
            return UrlOutcome {
                answer,
                error: Some(error),
            };
        }
        if !has_content(&answer) {
            return UrlOutcome {
                answer,
                error: Some(ErrorData {
                    code: ErrorCode::PlannerFailed,
                    message: "no tool call produced data for this request on this page".into(),
                    url: Some(url.to_owned()),
                    retryable: false,
                }),
            };
        }
        UrlOutcome {
            answer,
            error: None,
        }
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
                        instructions: self.request.instructions.clone(),
                        output_instructions: self.request.output_instructions.clone(),
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
            self.metrics.planner_rounds += 1;
            self.metrics.llm_prompt_tokens += plan.usage.0;
            self.metrics.llm_completion_tokens += plan.usage.1;
            let calls_json: Vec<Value> = plan
                .tool_calls
                .iter()
                .map(|c| json!({"tool": c.tool, "params": c.params, "reasoning": c.reasoning}))
                .collect();
            self.emitter
                .step(NewStep {
                    action: "agent_decision",
                    url: Some(url.to_owned()),
                    status: StepStatus::Completed,
                    message: if plan.tool_calls.is_empty() {
                        "Agent decided it is done".into()
                    } else {
                        format!("Agent selected {} tool(s)", plan.tool_calls.len())
                    },
                    reward: rewards::decision_reward(&plan),
                    extracted_data: Some(json!({
                        "tool_calls": calls_json,
                        "planner": planner_name,
                        "round": round,
                        "done": plan.done,
                        "notes": plan.notes,
                    })),
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
                let Ok((result, answer_now)) = worker.execute(call.clone()).await else {
                    return Err(ErrorData {
                        code: ErrorCode::Internal,
                        message: "the page worker stopped".into(),
                        url: Some(url.to_owned()),
                        retryable: false,
                    });
                };
                have_answer = answer_now;
                round_failed |= !result.success || result.items == 0;
                self.tool_step(url, call, &result).await;
                observations.push(observe(round, call, &result));
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
                self.emitter
                    .step(NewStep {
                        action: "planner_fallback",
                        url: Some(url.to_owned()),
                        status: StepStatus::Completed,
                        message: format!("Planner `{}` failed; using `{}`: {why}", planner.name(), self.deps.fallback.name()),
                        reward: rewards::FALLBACK,
                        extracted_data: Some(json!({"from": planner.name(), "to": self.deps.fallback.name(), "reason": why})),
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

    async fn draft_step(&mut self, url: &str, drafts: &[DraftCall], planner: &str) {
        let calls: Vec<Value> = drafts
            .iter()
            .map(|d| json!({"tool": d.tool, "params": d.params, "arguments": d.arguments}))
            .collect();
        self.emitter
            .step(NewStep {
                action: "agent_decision",
                url: Some(url.to_owned()),
                status: StepStatus::Running,
                message: format!("Agent is choosing tools ({} so far)", drafts.len()),
                reward: 0.0,
                extracted_data: Some(
                    json!({"tool_calls": calls, "planner": planner, "partial": true}),
                ),
                duration_ms: None,
            })
            .await;
    }

    async fn tool_step(&mut self, url: &str, call: &ToolCall, result: &ToolCallResult) {
        self.metrics.tool_calls += 1;
        if !result.success {
            self.metrics.tool_failures += 1;
        }
        let description = self.deps.registry.get(&call.tool).map(|t| t.description);
        let max_bytes = self.deps.settings.limits.max_step_result_bytes;
        let (bounded, truncated) = bound(result.result.as_ref(), max_bytes);
        self.emitter
            .step(NewStep {
                action: "tool_call",
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
                extracted_data: Some(json!({
                    "tool": call.tool,
                    "tool_name": call.tool,
                    "tool_description": description,
                    "parameters": call.params,
                    "reasoning": call.reasoning,
                    "success": result.success,
                    "items": result.items,
                    "result_preview": result.result.as_ref().map(|r| preview(r, 200)),
                    "result": bounded,
                    "result_truncated": truncated,
                    "error": result.error,
                    "duration_ms": result.duration_ms,
                })),
                duration_ms: Some(result.duration_ms),
            })
            .await;
    }

    async fn skip_step(&mut self, url: &str, call: &ToolCall, budget: u32) {
        self.emitter
            .step(NewStep {
                action: "tool_call",
                url: Some(url.to_owned()),
                status: StepStatus::Skipped,
                message: format!("Tool {}: skipped, budget of {budget} spent", call.tool),
                reward: 0.0,
                extracted_data: Some(json!({
                    "tool": call.tool, "tool_name": call.tool, "parameters": call.params,
                    "success": false, "error": "budget exhausted", "result_preview": null, "result": null, "duration_ms": null,
                })),
                duration_ms: None,
            })
            .await;
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
