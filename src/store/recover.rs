//! Closing a session whose server died mid-run: an `error` and a `complete` event rebuilt from
//! the events already stored, so a replay ends the way every run ends.
//!
//! Each URL's answer comes from the `url_answers` row stored with its `url_complete` event, so
//! only URLs that never finished map to `null`; counts, reward, errors and metrics are recovered
//! exactly from the events.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use crate::events::{
    CompleteData, ErrorCode, ErrorData, Event, EventPayload, EventType, RunStatus, RunTally,
};
use crate::output::{self, OutputFormat};

/// How a session is closed without its run: the error said, and the final status.
#[derive(Debug, Clone)]
pub struct Closing {
    /// The `error` event's payload (also the last of `complete.errors`).
    pub error: ErrorData,
    /// `complete.status`.
    pub status: RunStatus,
}

impl Closing {
    /// A run whose server stopped and that nobody resumed: `interrupted`.
    pub fn interrupted() -> Self {
        Self {
            error: ErrorData {
                code: ErrorCode::Internal,
                message: "the run stopped without storing its end (its server stopped, or the \
                          store failed under it) and was not resumed"
                    .into(),
                url: None,
                retryable: true,
            },
            status: RunStatus::Interrupted,
        }
    }

    /// A run whose server stopped that this instance claimed but cannot resume (`why`):
    /// `interrupted`, as if nobody had claimed it.
    pub fn not_resumable(why: &str) -> Self {
        Self {
            error: ErrorData {
                code: ErrorCode::Internal,
                message: format!(
                    "the server running this run stopped, and the run could not be resumed: {why}"
                ),
                url: None,
                retryable: true,
            },
            status: RunStatus::Interrupted,
        }
    }

    /// A run taken over more than `max_attempts` times: `failed`, with `too_many_attempts`.
    pub fn too_many_attempts(attempts: u32, max_attempts: u32) -> Self {
        Self {
            error: ErrorData {
                code: ErrorCode::TooManyAttempts,
                message: format!(
                    "the run was claimed {attempts} times (runs.max_attempts = {max_attempts}): \
                     every instance running it stopped before it ended, so it is not resumed \
                     again"
                ),
                url: None,
                retryable: false,
            },
            status: RunStatus::Failed,
        }
    }
}

/// The events that close `events` (the session's stored events, in order): the `error` of
/// `closing`, then `complete` with its status, numbered after `last_seq`,
/// the highest seq committed (a stored row that no longer parses is not in `events`, but a
/// client may have seen its seq).
#[expect(
    clippy::too_many_arguments,
    reason = "each is one fact of the stored session"
)]
pub(super) fn closing_events(
    session_id: &str,
    request: &Value,
    events: &[Event],
    answers: &Map<String, Value>,
    last_seq: u64,
    created_at: DateTime<Utc>,
    now: DateTime<Utc>,
    closing: &Closing,
) -> Vec<Event> {
    let mut next_seq = events.last().map_or(0, |e| e.seq).max(last_seq);
    let mut event = |kind: EventType, data: Value| {
        next_seq += 1;
        Event {
            kind,
            session_id: session_id.to_owned(),
            seq: next_seq,
            data,
        }
    };
    let stopped = closing.error.clone();
    let mut complete = summarize(session_id, request, events, answers, created_at, now);
    complete.status = closing.status;
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

/// What the stored events say about a run that never reached `complete`: the same reducer a
/// live run uses, over what was stored.
fn summarize(
    session_id: &str,
    request: &Value,
    events: &[Event],
    stored: &Map<String, Value>,
    created_at: DateTime<Utc>,
    now: DateTime<Utc>,
) -> CompleteData {
    let mut answers = Map::new();
    for url in request["urls"].as_array().into_iter().flatten() {
        if let Some(url) = url.as_str() {
            let answer = stored.get(url).cloned().unwrap_or(Value::Null);
            answers.insert(url.to_owned(), answer);
        }
    }
    let format = request["output_format"]
        .as_str()
        .and_then(OutputFormat::parse)
        .unwrap_or(OutputFormat::Json);
    let mut tally = RunTally::default();
    for event in events {
        match EventPayload::from_event(event) {
            Ok(payload) => tally.observe(&payload),
            Err(err) => {
                tracing::warn!(session_id, seq = event.seq, %err, "a stored event does not parse");
            }
        }
    }
    CompleteData {
        session_id: session_id.to_owned(),
        status: RunStatus::Interrupted,
        output: output::render(format, &answers),
        extracted_data: answers,
        output_format: format.as_str().to_owned(),
        total_steps: tally.total_steps,
        total_reward: tally.total_reward(),
        duration_ms: u64::try_from((now - created_at).num_milliseconds()).unwrap_or(0),
        urls_processed: tally.urls_processed,
        urls_failed: tally.urls_failed,
        errors: tally.errors,
        empty_fields: tally.empty_fields,
        metrics: tally.metrics,
    }
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
        let step = |n: u64, action: &str, reward: f64, details: Value| {
            json!({"step_number": n, "action": action, "url": url, "status": "completed",
                   "message": "", "reward": reward, "extracted_data": details,
                   "duration_ms": null, "timestamp": "2026-01-01T00:00:00Z"})
        };
        let fetched = json!({"status": 200, "final_url": url, "content_type": "text/html",
                             "bytes": 1234, "encoding": "UTF-8", "redirects": [], "attempts": 1});
        let tool = json!({"tool": "html.select", "tool_name": "html.select", "parameters": {},
                          "success": false, "result_preview": null, "result": null,
                          "error": "no match", "duration_ms": 1});
        let events = vec![
            ev(1, EventType::Init, json!({})),
            ev(
                2,
                EventType::UrlStart,
                json!({"url": url, "index": 0, "total": 1}),
            ),
            ev(3, EventType::Step, step(1, "fetch", 0.1, fetched)),
            ev(4, EventType::Step, step(2, "tool_call", 0.2, tool)),
        ];
        let now = Utc::now();
        let closing = closing_events(
            "s",
            &json!({"urls": [url], "output_format": "json"}),
            &events,
            &Map::new(),
            4,
            now,
            now,
            &Closing::interrupted(),
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
        assert_eq!(data["metrics"]["tool_failures"], 1);
        assert_eq!(data["metrics"]["bytes_fetched"], 1234);
        assert_eq!(data["extracted_data"][url], Value::Null);
        assert_eq!(data["errors"][0]["code"], "internal");
    }

    #[test]
    fn closing_events_never_reuse_a_committed_seq_that_did_not_parse() {
        let events = vec![ev(1, EventType::Init, json!({}))];
        let now = Utc::now();
        let closing = closing_events(
            "s",
            &json!({"urls": []}),
            &events,
            &Map::new(),
            3,
            now,
            now,
            &Closing::interrupted(),
        );
        assert_eq!(closing[0].seq, 4);
        assert_eq!(closing[1].seq, 5);
    }
}
