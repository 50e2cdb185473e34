//! The wire types of the event contract (DESIGN §2): plain data, no I/O.
//!
//! Every frame a client sees is an [`Event`]: a uniform envelope (`type`, `session_id`, `seq`,
//! `data`). The payloads below are what `data` holds for each event type.

use chrono::{DateTime, SecondsFormat, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

mod step;
mod tally;

pub use step::*;
pub use tally::{RunTally, round_reward};

/// The six event types of the contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EventType {
    /// The session exists; carries the accepted request.
    Init,
    /// Processing of one URL begins.
    UrlStart,
    /// One step of the agent (fetch, decision, tool call, output, …).
    Step,
    /// Processing of one URL ended (successfully or not).
    UrlComplete,
    /// The run ended; always the last event and carries everything gathered.
    Complete,
    /// A typed failure; the run goes on with the next URL.
    Error,
}

impl EventType {
    /// The name used in the SSE `event:` line.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Init => "init",
            Self::UrlStart => "url_start",
            Self::Step => "step",
            Self::UrlComplete => "url_complete",
            Self::Complete => "complete",
            Self::Error => "error",
        }
    }
}

/// The uniform envelope of every event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Event {
    /// Event type, repeated from the SSE `event:` line so `data` is self-describing.
    #[serde(rename = "type")]
    pub kind: EventType,
    /// The session this event belongs to.
    pub session_id: String,
    /// Monotonic per session, starting at 1; also the SSE `id:`.
    pub seq: u64,
    /// The type-specific payload.
    pub data: Value,
}

/// Runtime state of a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StepStatus {
    /// Still going (e.g. a streamed LLM decision that is not final yet).
    Running,
    /// Finished successfully.
    Completed,
    /// Finished with an error.
    Failed,
    /// Not run (e.g. budget exhausted before it).
    Skipped,
}

/// The payload of an `init` event: the accepted request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct InitData {
    /// The session id.
    pub session_id: String,
    /// The URLs, in order.
    pub urls: Vec<String>,
    /// What the user wants.
    pub instructions: String,
    /// The output format's name.
    pub output_format: String,
    /// Tool calls allowed per URL.
    pub max_steps: u32,
    /// The planner that will decide (`heuristic`, `llm`, `client`).
    pub planner: String,
    /// The client's explicit plan, when it sent one.
    pub tools: Option<Value>,
    /// The id of the HTTP request that started the run (`X-Request-Id`), to find its log lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
}

/// The payload of a `url_start` event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct UrlStartData {
    /// The URL, exactly as sent.
    pub url: String,
    /// Its position in the request, from 0.
    pub index: usize,
    /// How many URLs the request has.
    pub total: usize,
}

/// How one URL ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UrlStatus {
    /// It produced an answer.
    Completed,
    /// It failed (see the `error` event before it).
    Failed,
}

/// The payload of a `url_complete` event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct UrlCompleteData {
    /// The URL, exactly as sent.
    pub url: String,
    /// Its position in the request, from 0.
    pub index: usize,
    /// How it ended.
    pub status: UrlStatus,
    /// Items in its answer.
    pub items: usize,
    /// The error's code when it failed.
    pub error_code: Option<ErrorCode>,
    /// Time spent on it.
    pub duration_ms: u64,
    /// Fields the request named that no item of the answer has (they are `null` columns).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub empty_fields: Vec<String>,
}

/// An event's payload, typed: what producers emit and consumers read. On the wire and in the
/// store it is the envelope's `data` (see [`Event`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[expect(
    clippy::large_enum_variant,
    reason = "a payload lives for one emit; boxing steps would only add an allocation"
)]
pub enum EventPayload {
    /// `init`.
    Init(InitData),
    /// `url_start`.
    UrlStart(UrlStartData),
    /// `step`.
    Step(ScrapeStep),
    /// `url_complete`.
    UrlComplete(UrlCompleteData),
    /// `complete`.
    Complete(Box<CompleteData>),
    /// `error`.
    Error(ErrorData),
}

impl EventPayload {
    /// The event type this payload is sent as.
    pub fn kind(&self) -> EventType {
        match self {
            Self::Init(_) => EventType::Init,
            Self::UrlStart(_) => EventType::UrlStart,
            Self::Step(_) => EventType::Step,
            Self::UrlComplete(_) => EventType::UrlComplete,
            Self::Complete(_) => EventType::Complete,
            Self::Error(_) => EventType::Error,
        }
    }

    /// The payload as the envelope's `data`.
    pub fn to_data(&self) -> Value {
        let data = match self {
            Self::Init(d) => serde_json::to_value(d),
            Self::UrlStart(d) => serde_json::to_value(d),
            Self::Step(d) => serde_json::to_value(d),
            Self::UrlComplete(d) => serde_json::to_value(d),
            Self::Complete(d) => serde_json::to_value(d),
            Self::Error(d) => serde_json::to_value(d),
        };
        // These types hold only strings, numbers and JSON values: serialising cannot fail.
        data.unwrap_or(Value::Null)
    }

    /// Reads the typed payload back from a stored or received event.
    ///
    /// # Errors
    /// When `data` does not have the shape of its event type.
    pub fn from_event(event: &Event) -> Result<Self, serde_json::Error> {
        let data = event.data.clone();
        Ok(match event.kind {
            EventType::Init => Self::Init(serde_json::from_value(data)?),
            EventType::UrlStart => Self::UrlStart(serde_json::from_value(data)?),
            EventType::Step => Self::Step(serde_json::from_value(data)?),
            EventType::UrlComplete => Self::UrlComplete(serde_json::from_value(data)?),
            EventType::Complete => Self::Complete(Box::new(serde_json::from_value(data)?)),
            EventType::Error => Self::Error(serde_json::from_value(data)?),
        })
    }
}

/// Typed error codes of `error` events and of `complete.errors[]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorCode {
    /// The URL could not be parsed or is not http(s).
    InvalidUrl,
    /// The fetch failed (connection refused, DNS failure, bad status, …).
    FetchFailed,
    /// A fetch or the run took too long.
    Timeout,
    /// robots.txt disallows the URL.
    BlockedByRobots,
    /// The URL resolves to an address the fetcher refuses.
    BlockedAddress,
    /// The body exceeded the configured cap.
    TooLarge,
    /// The response is not HTML.
    NotHtml,
    /// The planner could not produce a plan.
    PlannerFailed,
    /// The step budget ran out before an answer.
    BudgetExhausted,
    /// The run was cancelled.
    Cancelled,
    /// A bug or an unexpected failure inside the server.
    Internal,
    /// The page has none of what was asked ("this page shows no price"): no rows are invented.
    NoMatch,
    /// `render: always` on a server without a browser.
    RenderUnavailable,
    /// The browser failed, crashed, or rendered an error page.
    RenderFailed,
    /// The render took longer than `browser.timeout_secs`.
    RenderTimeout,
    /// The run was taken over more than `runs.max_attempts` times (each instance running it
    /// stopped before it ended): it is closed instead of being resumed once more.
    TooManyAttempts,
}

impl ErrorCode {
    /// The wire name (`fetch_failed`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InvalidUrl => "invalid_url",
            Self::FetchFailed => "fetch_failed",
            Self::Timeout => "timeout",
            Self::BlockedByRobots => "blocked_by_robots",
            Self::BlockedAddress => "blocked_address",
            Self::TooLarge => "too_large",
            Self::NotHtml => "not_html",
            Self::PlannerFailed => "planner_failed",
            Self::BudgetExhausted => "budget_exhausted",
            Self::Cancelled => "cancelled",
            Self::Internal => "internal",
            Self::NoMatch => "no_match",
            Self::RenderUnavailable => "render_unavailable",
            Self::RenderFailed => "render_failed",
            Self::RenderTimeout => "render_timeout",
            Self::TooManyAttempts => "too_many_attempts",
        }
    }
}

/// The payload of an `error` event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorData {
    /// Machine-readable code.
    pub code: ErrorCode,
    /// Human-readable explanation.
    pub message: String,
    /// The URL concerned, when there is one.
    pub url: Option<String>,
    /// Whether retrying the same request later may succeed.
    pub retryable: bool,
}

/// Final status of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// Detached, waiting in the store for an instance with room (only seen in session
    /// listings): every slot was taken when it came.
    Queued,
    /// Still running (only seen in session listings).
    Running,
    /// Every URL produced an answer.
    Completed,
    /// Some URLs failed, some succeeded.
    Partial,
    /// Every URL failed.
    Failed,
    /// Stopped on request (or abandoned by every subscriber).
    Cancelled,
    /// The server stopped while the run was going and the run was not resumed (a crawl, a
    /// store that failed under it, or on PostgreSQL a run nobody had room to claim in time).
    Interrupted,
}

impl RunStatus {
    /// The stored / wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Queued => "queued",
            Self::Running => "running",
            Self::Completed => "completed",
            Self::Partial => "partial",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
            Self::Interrupted => "interrupted",
        }
    }

    /// Parses a stored name back.
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "queued" => Self::Queued,
            "running" => Self::Running,
            "completed" => Self::Completed,
            "partial" => Self::Partial,
            "failed" => Self::Failed,
            "cancelled" => Self::Cancelled,
            "interrupted" => Self::Interrupted,
            _ => return None,
        })
    }

    /// Whether the run has ended.
    pub fn is_final(self) -> bool {
        !matches!(self, Self::Queued | Self::Running)
    }
}

/// Counters reported in `complete.data.metrics`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RunMetrics {
    /// HTTP fetches of pages (not robots.txt).
    pub fetches: u64,
    /// Body bytes received over all fetches.
    pub bytes_fetched: u64,
    /// Tool calls executed.
    pub tool_calls: u64,
    /// Tool calls that failed.
    pub tool_failures: u64,
    /// Planner rounds (agent decisions).
    pub planner_rounds: u64,
    /// LLM prompt tokens, when an LLM planner was used.
    pub llm_prompt_tokens: u64,
    /// LLM completion tokens, when an LLM planner was used.
    pub llm_completion_tokens: u64,
    /// Next pages of lists followed (each URL's own page not counted).
    #[serde(default)]
    pub pages_followed: u64,
    /// Item (detail) pages opened.
    #[serde(default)]
    pub detail_pages: u64,
}

/// The payload of the final `complete` event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CompleteData {
    /// The session id.
    pub session_id: String,
    /// Final status.
    pub status: RunStatus,
    /// Answer per URL, keyed by the URL exactly as given in the request.
    pub extracted_data: Map<String, Value>,
    /// The whole answer rendered in `output_format`.
    pub output: String,
    /// The format of `output`.
    pub output_format: String,
    /// Steps emitted in the session.
    pub total_steps: u64,
    /// Sum of all step rewards.
    pub total_reward: f64,
    /// Wall time of the run.
    pub duration_ms: u64,
    /// URLs that produced an answer.
    pub urls_processed: u64,
    /// URLs that failed.
    pub urls_failed: u64,
    /// Every error reported during the run.
    pub errors: Vec<ErrorData>,
    /// Per URL, the fields the request named that stayed empty (URLs with none are left out).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub empty_fields: Map<String, Value>,
    /// Counters.
    pub metrics: RunMetrics,
}

/// Formats a timestamp the way every event does (UTC, ISO-8601, microseconds).
pub fn timestamp(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Micros, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelope_serializes_with_type_field() {
        let event = Event {
            kind: EventType::UrlStart,
            session_id: "s1".into(),
            seq: 3,
            data: serde_json::json!({"url": "https://example.com/"}),
        };
        let text = serde_json::to_string(&event).unwrap();
        assert_eq!(
            text,
            r#"{"type":"url_start","session_id":"s1","seq":3,"data":{"url":"https://example.com/"}}"#
        );
    }

    #[test]
    fn run_status_round_trips_through_its_name() {
        for status in [
            RunStatus::Queued,
            RunStatus::Running,
            RunStatus::Completed,
            RunStatus::Partial,
            RunStatus::Failed,
            RunStatus::Cancelled,
            RunStatus::Interrupted,
        ] {
            assert_eq!(RunStatus::parse(status.as_str()), Some(status));
        }
        assert_eq!(RunStatus::parse("bogus"), None);
    }

    #[test]
    fn error_codes_are_named_as_on_the_wire() {
        for code in [
            ErrorCode::InvalidUrl,
            ErrorCode::FetchFailed,
            ErrorCode::Timeout,
            ErrorCode::BlockedByRobots,
            ErrorCode::BlockedAddress,
            ErrorCode::TooLarge,
            ErrorCode::NotHtml,
            ErrorCode::PlannerFailed,
            ErrorCode::BudgetExhausted,
            ErrorCode::Cancelled,
            ErrorCode::Internal,
            ErrorCode::RenderUnavailable,
            ErrorCode::RenderFailed,
            ErrorCode::RenderTimeout,
        ] {
            assert_eq!(serde_json::to_value(code).unwrap(), code.as_str());
        }
    }

    #[test]
    fn navigate_steps_round_trip_with_their_kind() {
        let steps = [
            StepPayload::Navigate(NavigateDetails::NextPage(NextPageLink {
                from: "https://shop.example/list".into(),
                to: "https://shop.example/list?page=2".into(),
                page: 2,
                number: Some(2),
                evidence: NextEvidence::RelNext,
                link_text: "Next ›".into(),
            })),
            StepPayload::Navigate(NavigateDetails::DetailPage(DetailPageLink {
                item: 4,
                to: "https://shop.example/item/5".into(),
                field: "url".into(),
            })),
            StepPayload::Navigate(NavigateDetails::Stop(NavigateStop {
                rule: StopRule::RepeatedPage,
                pages: 3,
                items: 57,
                next: Some("https://shop.example/list?page=1".into()),
            })),
            StepPayload::Navigate(NavigateDetails::Click(GrowRound {
                round: 1,
                control: Some("Reviews".into()),
                elements_before: 40,
                elements_after: 44,
                items: Some(2),
            })),
        ];
        for step in steps {
            let wire = serde_json::to_value(&step).unwrap();
            assert_eq!(wire["action"], "navigate");
            assert!(wire["extracted_data"]["kind"].is_string(), "{wire}");
            let back: StepPayload = serde_json::from_value(wire).unwrap();
            assert_eq!(back, step);
        }
    }
}
