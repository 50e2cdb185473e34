//! Webhooks: a signed `POST` to the URL a request names when its run ends (and, when asked, each
//! time one of its URLs is answered).
//!
//! Deliveries are durable: the row of a delivery is written into the store's outbox in the same
//! transaction as the event it announces (see `store::outbox`), so whichever instance finishes a
//! run — the one that started it, one that took it over, or one that closed it after a crash —
//! the delivery exists the moment the run's end does. A background sender on every instance
//! (`run::webhooks::Sender`)
//! claims due rows (a lease, so two instances never send one row at once), posts each through the
//! fetcher's guarded client (the address guard decides where it may go, on the addresses the
//! connection uses), and marks it delivered once, or retries it with exponential backoff, or
//! gives up after `webhooks.max_attempts`.
//!
//! Every body is signed: `X-Scrape-Agent-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
//! "<t>.<body>">` with `webhooks.secret`; [`verify`] is the receiver's side.

use std::time::Duration;

use hmac::{Hmac, KeyInit, Mac};
use reqwest::header::HeaderName;
use schemars::JsonSchema;
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::Sha256;

use crate::events::{CompleteData, Event, EventType, RunStatus, UrlCompleteData};

/// The header carrying a delivery's signature.
pub const SIGNATURE_HEADER: HeaderName = HeaderName::from_static("x-scrape-agent-signature");
/// The header naming the delivery (the same on every retry: a receiver can drop a repeat).
pub const DELIVERY_HEADER: HeaderName = HeaderName::from_static("x-scrape-agent-delivery");
/// The header naming the announced event (`complete`, `url_complete`).
pub const EVENT_HEADER: HeaderName = HeaderName::from_static("x-scrape-agent-event");

/// What a webhook announces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WebhookEvent {
    /// The run ended (completed, partial, failed, cancelled or interrupted): its `complete`.
    Complete,
    /// One URL was answered: its `url_complete` and its answer.
    UrlComplete,
}

impl WebhookEvent {
    /// The stored / wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Complete => "complete",
            Self::UrlComplete => "url_complete",
        }
    }

    /// Parses a stored name back.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "complete" => Some(Self::Complete),
            "url_complete" => Some(Self::UrlComplete),
            _ => None,
        }
    }

    /// The event type of the run's log this announces.
    fn of(kind: EventType) -> Option<Self> {
        match kind {
            EventType::Complete => Some(Self::Complete),
            EventType::UrlComplete => Some(Self::UrlComplete),
            _ => None,
        }
    }
}

fn default_events() -> Vec<WebhookEvent> {
    vec![WebhookEvent::Complete]
}

/// `webhook` on a scrape request: where to POST, and what.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WebhookRequest {
    /// The receiver (http or https). It must pass the same address guard as any page.
    pub url: String,
    /// What to announce: `complete` (the default) when the run ends, `url_complete` each time
    /// one of its URLs is answered.
    #[serde(default = "default_events")]
    #[schemars(length(min = 1))]
    pub events: Vec<WebhookEvent>,
}

impl WebhookRequest {
    /// Whether this webhook announces `event`.
    pub fn wants(&self, event: WebhookEvent) -> bool {
        self.events.contains(&event)
    }
}

/// The JSON body of a delivery, told apart by `event`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum WebhookPayload {
    /// The run ended.
    Complete {
        /// The run's session id.
        session_id: String,
        /// Its final status.
        status: RunStatus,
        /// Its `complete` payload, as its stream ended with it.
        complete: Box<CompleteData>,
    },
    /// One of the run's URLs was answered.
    UrlComplete {
        /// The run's session id.
        session_id: String,
        /// The run's status (`running`).
        status: RunStatus,
        /// Its `url_complete` payload.
        url_complete: UrlCompleteData,
        /// The URL's answer (`null` when it failed).
        answer: Value,
    },
}

/// A delivery to write into the outbox with the event it announces.
#[derive(Debug, Clone, PartialEq)]
pub struct NewDelivery {
    /// What it announces.
    pub event: WebhookEvent,
    /// The URL's position for `url_complete`; -1 for `complete`.
    pub url_index: i64,
    /// The receiver.
    pub target: String,
    /// The body, as it will be sent and signed.
    pub body: String,
}

/// The delivery `event` (about to be stored) calls for, if the run's stored `request` names a
/// webhook that announces it. `answer`: the URL's answer stored with a `url_complete`.
pub fn delivery_for(request: &Value, event: &Event, answer: Option<&Value>) -> Option<NewDelivery> {
    let kind = WebhookEvent::of(event.kind)?;
    let hook = request.get("webhook").filter(|hook| !hook.is_null())?;
    let hook: WebhookRequest = match serde_json::from_value(hook.clone()) {
        Ok(hook) => hook,
        Err(err) => {
            tracing::warn!(session_id = %event.session_id, %err, "the stored webhook does not read back; nothing is delivered");
            return None;
        }
    };
    if !hook.wants(kind) {
        return None;
    }
    let (payload, url_index) = match kind {
        WebhookEvent::Complete => {
            let complete: CompleteData = parse_payload(event)?;
            let payload = WebhookPayload::Complete {
                session_id: event.session_id.clone(),
                status: complete.status,
                complete: Box::new(complete),
            };
            (payload, -1)
        }
        WebhookEvent::UrlComplete => {
            let url_complete: UrlCompleteData = parse_payload(event)?;
            let index = i64::try_from(url_complete.index).unwrap_or(i64::MAX);
            let payload = WebhookPayload::UrlComplete {
                session_id: event.session_id.clone(),
                status: RunStatus::Running,
                answer: answer.cloned().unwrap_or(Value::Null),
                url_complete,
            };
            (payload, index)
        }
    };
    let body = serde_json::to_string(&payload).ok()?;
    Some(NewDelivery {
        event: kind,
        url_index,
        target: hook.url,
        body,
    })
}

fn parse_payload<T: serde::de::DeserializeOwned>(event: &Event) -> Option<T> {
    serde_json::from_value(event.data.clone())
        .inspect_err(|err| {
            tracing::warn!(session_id = %event.session_id, seq = event.seq, %err, "an announced event does not parse; nothing is delivered");
        })
        .ok()
}

/// The signature header's value for `body` sent at `timestamp` (unix seconds):
/// `t=<timestamp>,v1=<hex HMAC-SHA256 of "<timestamp>.<body>">`.
pub fn signature(secret: &SecretString, timestamp: i64, body: &[u8]) -> String {
    let mac = signed(secret, timestamp, body);
    format!(
        "t={timestamp},v1={}",
        hex::encode(mac.finalize().into_bytes())
    )
}

fn signed(secret: &SecretString, timestamp: i64, body: &[u8]) -> Hmac<Sha256> {
    // HMAC takes a key of any length, so this cannot fail.
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(secret.expose_secret().as_bytes())
        .unwrap_or_else(|_| unreachable!("HMAC accepts keys of any length"));
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// The receiver's check: whether `header` (the signature header's value) signs `body` with
/// `secret`, at a time within `tolerance` of `now` (unix seconds). Compared in constant time.
pub fn verify(
    secret: &SecretString,
    header: &str,
    body: &[u8],
    now: i64,
    tolerance: Duration,
) -> bool {
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", t)) => timestamp = t.parse::<i64>().ok(),
            Some(("v1", v1)) => signatures.extend(hex::decode(v1).ok()),
            _ => {}
        }
    }
    let Some(timestamp) = timestamp else {
        return false;
    };
    let window = i64::try_from(tolerance.as_secs()).unwrap_or(i64::MAX);
    if timestamp.abs_diff(now) > window.unsigned_abs() {
        return false;
    }
    signatures
        .iter()
        .any(|sig| signed(secret, timestamp, body).verify_slice(sig).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_verifies_with_its_secret_only_and_within_its_window() {
        let secret = SecretString::from("s3cret");
        let body = br#"{"event":"complete"}"#;
        let header = signature(&secret, 1_700_000_000, body);
        assert!(header.starts_with("t=1700000000,v1="), "{header}");
        let window = Duration::from_secs(300);
        assert!(verify(&secret, &header, body, 1_700_000_100, window));
        assert!(!verify(&secret, &header, b"{}", 1_700_000_100, window));
        assert!(!verify(
            &SecretString::from("other"),
            &header,
            body,
            1_700_000_100,
            window
        ));
        assert!(!verify(&secret, &header, body, 1_700_001_000, window));
        assert!(!verify(&secret, "v1=00", body, 1_700_000_000, window));
    }

    #[test]
    fn a_complete_is_announced_by_default_and_url_completes_only_when_asked() {
        let complete = Event {
            kind: EventType::Complete,
            session_id: "s1".into(),
            seq: 9,
            data: serde_json::to_value(CompleteData {
                session_id: "s1".into(),
                status: RunStatus::Completed,
                extracted_data: serde_json::Map::new(),
                output: String::new(),
                output_format: "json".into(),
                total_steps: 1,
                total_reward: 0.5,
                duration_ms: 3,
                urls_processed: 1,
                urls_failed: 0,
                errors: Vec::new(),
                empty_fields: serde_json::Map::new(),
                metrics: crate::events::RunMetrics::default(),
            })
            .unwrap(),
        };
        let by_default = serde_json::json!({"webhook": {"url": "https://hook.example/x"}});
        let Some(delivery) = delivery_for(&by_default, &complete, None) else {
            panic!("a complete is announced by default");
        };
        assert_eq!(delivery.event, WebhookEvent::Complete);
        assert_eq!(delivery.url_index, -1);
        assert_eq!(delivery.target, "https://hook.example/x");
        let body: WebhookPayload = serde_json::from_str(&delivery.body).unwrap();
        let WebhookPayload::Complete { status, .. } = body else {
            panic!("a complete body: {}", delivery.body);
        };
        assert_eq!(status, RunStatus::Completed);
        let url_complete = Event {
            kind: EventType::UrlComplete,
            seq: 5,
            data: serde_json::json!({"url": "https://a.b/", "index": 0, "status": "completed",
                "items": 1, "error_code": null, "duration_ms": 2}),
            ..complete.clone()
        };
        assert_eq!(delivery_for(&by_default, &url_complete, None), None);
        let both = serde_json::json!({"webhook": {"url": "https://hook.example/x",
            "events": ["complete", "url_complete"]}});
        let answer = serde_json::json!({"title": "A"});
        let Some(delivery) = delivery_for(&both, &url_complete, Some(&answer)) else {
            panic!("a url_complete is announced when asked");
        };
        assert_eq!(delivery.url_index, 0);
        let body: Value = serde_json::from_str(&delivery.body).unwrap();
        assert_eq!(body["event"], "url_complete");
        assert_eq!(body["answer"]["title"], "A");
        assert_eq!(delivery_for(&serde_json::json!({}), &complete, None), None);
    }
}
