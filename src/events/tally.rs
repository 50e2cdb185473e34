//! The one reducer over a run's events: the live run feeds it every event it emits, and a
//! session closed after a crash feeds it the events it finds stored, so `complete` says the
//! same counts either way.

use super::{
    DecisionDetails, ErrorData, EventPayload, FetchDetails, NavigateDetails, RunMetrics,
    StepPayload, StepStatus, UrlStatus,
};

/// What a run's events add up to so far.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunTally {
    /// Steps emitted (the highest `step_number`).
    pub total_steps: u64,
    /// URLs that produced an answer.
    pub urls_processed: u64,
    /// URLs that failed.
    pub urls_failed: u64,
    /// Every `error` event's payload, in order.
    pub errors: Vec<ErrorData>,
    /// Counters for `complete.metrics`.
    pub metrics: RunMetrics,
    /// Per URL, the named fields its answer left empty (from `url_complete`).
    pub empty_fields: serde_json::Map<String, serde_json::Value>,
    reward: f64,
}

impl RunTally {
    /// Adds one event.
    pub fn observe(&mut self, payload: &EventPayload) {
        match payload {
            EventPayload::Step(step) => {
                self.total_steps = self.total_steps.max(step.step_number);
                self.reward += step.reward;
                self.observe_step(&step.payload, step.status);
            }
            EventPayload::UrlComplete(done) => {
                match done.status {
                    UrlStatus::Completed => self.urls_processed += 1,
                    UrlStatus::Failed => self.urls_failed += 1,
                }
                if !done.empty_fields.is_empty() {
                    self.empty_fields
                        .insert(done.url.clone(), done.empty_fields.clone().into());
                }
            }
            EventPayload::Error(error) => self.errors.push(error.clone()),
            EventPayload::Init(_) | EventPayload::UrlStart(_) | EventPayload::Complete(_) => {}
        }
    }

    fn observe_step(&mut self, payload: &StepPayload, status: StepStatus) {
        let metrics = &mut self.metrics;
        match payload {
            StepPayload::Fetch(details) => {
                metrics.fetches += 1;
                if let FetchDetails::Fetched(page) = details {
                    metrics.bytes_fetched += page.bytes;
                }
            }
            StepPayload::AgentDecision(DecisionDetails::Final(decision)) => {
                metrics.planner_rounds += 1;
                if let Some(usage) = decision.usage {
                    metrics.llm_prompt_tokens += usage.prompt_tokens;
                    metrics.llm_completion_tokens += usage.completion_tokens;
                }
            }
            StepPayload::ToolCall(call) if status != StepStatus::Skipped => {
                metrics.tool_calls += 1;
                if !call.success {
                    metrics.tool_failures += 1;
                }
            }
            StepPayload::Navigate(NavigateDetails::NextPage(_)) => metrics.pages_followed += 1,
            StepPayload::Navigate(NavigateDetails::DetailPage(_)) => metrics.detail_pages += 1,
            StepPayload::AgentDecision(DecisionDetails::Partial(_))
            | StepPayload::Navigate(
                NavigateDetails::Stop(_)
                | NavigateDetails::LoadMore(_)
                | NavigateDetails::Click(_)
                | NavigateDetails::Scroll(_)
                | NavigateDetails::Crawl(_)
                | NavigateDetails::CrawlSkip(_)
                | NavigateDetails::CrawlEnd(_),
            )
            | StepPayload::Render(_)
            | StepPayload::ToolCall(_)
            | StepPayload::PlannerFallback(_)
            | StepPayload::Resume(_)
            | StepPayload::Output(_) => {}
        }
    }

    /// The exact sum of the step rewards, rounded to 6 decimals so sums of tenths print as
    /// people expect (0.3, not 0.30000000000000004).
    pub fn total_reward(&self) -> f64 {
        round_reward(self.reward)
    }
}

/// Rounds a reward to 6 decimals.
pub fn round_reward(value: f64) -> f64 {
    (value * 1e6).round() / 1e6
}
