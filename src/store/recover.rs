//! Closing a session whose server died mid-run: an `error` and a `complete` event rebuilt from
//! the events already stored, so a replay ends the way every run ends.
//!
//! The per-URL answers themselves are not in the stored events (steps carry previews only), so
//! each URL maps to `null`; counts, reward, errors and metrics are recovered exactly.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use crate::events::{
    CompleteData, ErrorCode, ErrorData, Event, EventType, RunMetrics, RunStatus, ScrapeStep,
};
use crate::output::{self, OutputFormat};
use crate::run::rewards;

/// The events that close `events` (the session's stored events, in order): an `error` saying
/// the server stopped, then `complete` with status `interrupted`.
pub(super) fn closing_events(
    session_id: &str,
    request: &Value,
    events: &[Event],
    created_at: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Vec<Event> {
    let mut next_seq = events.last().map_or(0, |e| e.seq);
    let mut event = |kind: EventType, data: Value| {
        next_seq += 1;
        Event {
            kind,
            session_id: session_id.to_owned(),
            seq: next_seq,
            data,
        }
    };
    let stopped = ErrorData {
        code: ErrorCode::Internal,
        message: "the server stopped while this run was going; it was closed at the next start"
            .into(),
        url: None,
        retryable: true,
    };
    let mut complete = summarize(session_id, request, events, created_at, now);
    complete.errors.push(stopped.clone());
    let error = event(
        EventType::Error,
        serde_json::to_value(&stopped).unwrap_or(Value::Null),
    );
    let complete = event(
        EventType::Complete,
        serde_json::to_value(&complete).unwrap_or(Value::Null),
    );
    vec![error, complete]
}

/// What the stored events say about a run that never reached `complete`.
fn summarize(
    session_id: &str,
    request: &Value,
    events: &[Event],
    created_at: DateTime<Utc>,
    now: DateTime<Utc>,
) -> CompleteData {
    let mut answers = Map::new();
    for url in request["urls"].as_array().into_iter().flatten() {
        if let Some(url) = url.as_str() {
            answers.insert(url.to_owned(), Value::Null);
        }
    }
    let format = request["output_format"]
        .as_str()
        .and_then(OutputFormat::parse)
        .unwrap_or(OutputFormat::Json);
    let mut complete = CompleteData {
        session_id: session_id.to_owned(),
        status: RunStatus::Interrupted,
        output: output::render(format, &answers),
        extracted_data: answers,
        output_format: format.as_str().to_owned(),
        total_steps: 0,
        total_reward: 0.0,
        duration_ms: u64::try_from((now - created_at).num_milliseconds()).unwrap_or(0),
        urls_processed: 0,
        urls_failed: 0,
        errors: Vec::new(),
        metrics: RunMetrics::default(),
    };
    let mut reward = 0.0;
    for event in events {
        match event.kind {
            EventType::Step => {
                let Ok(step) = serde_json::from_value::<ScrapeStep>(event.data.clone()) else {
                    continue;
                };
                complete.total_steps = complete.total_steps.max(step.step_number);
                reward += step.reward;
                let details = step.extracted_data.unwrap_or(Value::Null);
                match step.action.as_str() {
                    "fetch" => complete.metrics.fetches += 1,
                    "agent_decision" => complete.metrics.planner_rounds += 1,
                    "tool_call" => {
                        complete.metrics.tool_calls += 1;
                        if details["success"] == Value::Bool(false) {
                            complete.metrics.tool_failures += 1;
                        }
                    }
                    _ => {}
                }
            }
            EventType::UrlComplete => {
                if event.data["status"] == "completed" {
                    complete.urls_processed += 1;
                } else {
                    complete.urls_failed += 1;
                }
            }
            EventType::Error => {
                if let Ok(error) = serde_json::from_value::<ErrorData>(event.data.clone()) {
                    complete.errors.push(error);
                }
            }
            EventType::Init | EventType::UrlStart | EventType::Complete => {}
        }
    }
    complete.total_reward = rewards::round(reward);
    complete
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn ev(seq: u64, kind: EventType, data: Value) -> Event {
        Event {
            kind,
            session_id: "s".into(),
            seq,
            data,
        }
    }

    #[test]
    fn closing_events_follow_the_stored_ones_and_count_what_happened() {
        let url = "https://example.com/";
        let step = |n: u64, action: &str, reward: f64| {
            json!({"step_number": n, "action": action, "url": url, "status": "completed",
                   "message": "", "reward": reward, "extracted_data": {"success": true},
                   "duration_ms": null, "timestamp": "2026-01-01T00:00:00Z"})
        };
        let events = vec![
            ev(1, EventType::Init, json!({})),
            ev(2, EventType::UrlStart, json!({"url": url})),
            ev(3, EventType::Step, step(1, "fetch", 0.1)),
            ev(4, EventType::Step, step(2, "tool_call", 0.2)),
        ];
        let now = Utc::now();
        let closing = closing_events(
            "s",
            &json!({"urls": [url], "output_format": "json"}),
            &events,
            now,
            now,
        );
        assert_eq!(closing.len(), 2);
        assert_eq!((closing[0].seq, closing[0].kind), (5, EventType::Error));
        assert_eq!((closing[1].seq, closing[1].kind), (6, EventType::Complete));
        let data = &closing[1].data;
        assert_eq!(data["status"], "interrupted");
        assert_eq!(data["total_steps"], 2);
        assert!((data["total_reward"].as_f64().unwrap_or(0.0) - 0.3).abs() < 1e-9);
        assert_eq!(data["metrics"]["fetches"], 1);
        assert_eq!(data["metrics"]["tool_calls"], 1);
        assert_eq!(data["extracted_data"][url], Value::Null);
        assert_eq!(data["errors"][0]["code"], "internal");
    }
}
