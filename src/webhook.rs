//! Webhooks: a signed `POST` to the URL a request names when its run ends (and, when asked, each
//! time one of its URLs is answered).
//!
//! Deliveries are durable: the row of a delivery is written into the store's outbox in the same
//! transaction as the event it announces (see `store::outbox`), so whichever instance finishes a
//! run — the one that started it, one that took it over, or one that closed it after a crash —
//! the delivery exists the moment the run's end does. A background [`Sender`] on every instance
//! claims due rows (a lease, so two instances never send one row at once), posts each through the
//! fetcher's guarded client (the address guard decides where it may go, on the addresses the
//! connection uses), and marks it delivered once, or retries it with exponential backoff, or
//! gives up after `webhooks.max_attempts`.
//!
//! Every body is signed: `X-Scrape-Agent-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
//! "<t>.<body>">` with `webhooks.secret`; [`verify`] is the receiver's side.

use std::sync::Arc;
use std::time::Duration;

use hmac::{Hmac, KeyInit, Mac};
use prometheus_client::metrics::counter::Counter;
use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use schemars::JsonSchema;
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::Sha256;
use tokio_util::sync::CancellationToken;

use crate::events::{CompleteData, Event, EventType, RunStatus, UrlCompleteData};
use crate::fetch::{FetchError, Fetcher};
use crate::metrics::Metrics;
use crate::settings::WebhookSettings;
use crate::store::{Delivery, DeliveryOutcome, Store, UrlAnswer};

/// The header carrying a delivery's signature.
pub const SIGNATURE_HEADER: HeaderName = HeaderName::from_static("x-scrape-agent-signature");
/// The header naming the delivery (the same on every retry: a receiver can drop a repeat).
pub const DELIVERY_HEADER: HeaderName = HeaderName::from_static("x-scrape-agent-delivery");
/// The header naming the announced event (`complete`, `url_complete`).
pub const EVENT_HEADER: HeaderName = HeaderName::from_static("x-scrape-agent-event");

/// A claimed delivery is leased for the POST's timeout plus this margin: no other instance
/// claims it before its POST has ended one way or the other.
const LEASE_MARGIN: Duration = Duration::from_secs(10);

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
pub fn delivery_for(
    request: &Value,
    event: &Event,
    answer: Option<&UrlAnswer>,
) -> Option<NewDelivery> {
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
                answer: answer.map_or(Value::Null, |a| a.answer.clone()),
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

/// How one POST of a delivery went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attempt {
    /// The receiver answered 2xx.
    Accepted(u16),
    /// It answered something else.
    Refused(u16),
    /// No answer: the network, a timeout, or the address guard (`permanent`: trying again
    /// cannot work, as for a refused address).
    Failed {
        /// What happened.
        error: String,
        /// Whether another attempt is pointless.
        permanent: bool,
    },
}

/// Counters of deliveries, registered on the server's `/metrics`.
#[derive(Debug, Clone, Default)]
pub struct DeliveryMetrics {
    /// Deliveries a receiver accepted.
    pub sent: Counter,
    /// Attempts that failed (each retry counts).
    pub failed_attempts: Counter,
    /// Deliveries given up after their last attempt.
    pub failed: Counter,
}

impl DeliveryMetrics {
    /// Counters registered on `metrics`.
    pub fn registered(metrics: &Metrics) -> Self {
        let counters = Self::default();
        metrics.register(
            "webhook_deliveries_sent",
            "Webhook deliveries a receiver accepted (2xx)",
            counters.sent.clone(),
        );
        metrics.register(
            "webhook_attempts_failed",
            "Webhook POSTs that failed (refused, unreachable, or blocked by the address guard)",
            counters.failed_attempts.clone(),
        );
        metrics.register(
            "webhook_deliveries_failed",
            "Webhook deliveries given up (webhooks.max_attempts reached, or a refused address)",
            counters.failed.clone(),
        );
        counters
    }
}

/// Sends the deliveries of the outbox: this instance's share of them.
#[derive(Debug, Clone)]
pub struct Sender {
    store: Store,
    fetcher: Fetcher,
    settings: Arc<WebhookSettings>,
    metrics: DeliveryMetrics,
}

impl Sender {
    /// A sender over `store`, posting through `fetcher`'s guarded client.
    pub fn new(
        store: Store,
        fetcher: Fetcher,
        settings: WebhookSettings,
        metrics: DeliveryMetrics,
    ) -> Self {
        Self {
            store,
            fetcher,
            settings: Arc::new(settings),
            metrics,
        }
    }

    fn timeout(&self) -> Duration {
        Duration::from_secs(self.settings.timeout_secs.max(1))
    }

    /// How long a claim keeps a delivery from other instances.
    fn lease(&self) -> Duration {
        self.timeout() + LEASE_MARGIN
    }

    /// The wait before the attempt after `attempts` failed ones.
    pub fn backoff(&self, attempts: u32) -> Duration {
        let first = self.settings.backoff_ms.max(1);
        let factor = 1u64 << attempts.saturating_sub(1).min(32);
        Duration::from_millis(first.saturating_mul(factor))
            .min(Duration::from_secs(self.settings.max_backoff_secs.max(1)))
    }

    /// Looks for due deliveries every `webhooks.poll_ms` and sends them, until `stop` is
    /// cancelled or the store closed. Does nothing without a signing secret: deliveries wait
    /// for an instance that has one.
    pub fn spawn(self, stop: CancellationToken) -> Option<tokio::task::JoinHandle<()>> {
        if !self.settings.is_configured() {
            return None;
        }
        Some(tokio::spawn(async move {
            let mut tick =
                tokio::time::interval(Duration::from_millis(self.settings.poll_ms.max(10)));
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    () = stop.cancelled() => return,
                }
                if self.store.is_closed() {
                    return;
                }
                if let Err(err) = self.send_due().await {
                    tracing::warn!(%err, "could not send webhook deliveries");
                }
            }
        }))
    }

    /// Claims the deliveries due now (as many as `webhooks.batch`) and sends them at once.
    /// Returns how many were claimed.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn send_due(&self) -> Result<usize, crate::store::StoreError> {
        let due = self
            .store
            .claim_deliveries(self.settings.batch.max(1), self.lease())
            .await?;
        let count = due.len();
        futures::future::join_all(due.into_iter().map(|delivery| self.deliver(delivery))).await;
        Ok(count)
    }

    async fn deliver(&self, delivery: Delivery) {
        let attempt = self.post(&delivery).await;
        let attempts = delivery.attempts + 1;
        let outcome = match attempt {
            Attempt::Accepted(status) => {
                self.metrics.sent.inc();
                tracing::info!(session_id = %delivery.session_id, delivery = delivery.id, status, attempts, "webhook delivered");
                DeliveryOutcome::Delivered { status }
            }
            other => {
                self.metrics.failed_attempts.inc();
                let (status, error, permanent) = match other {
                    Attempt::Refused(status) => (
                        Some(status),
                        format!("the receiver answered HTTP {status}"),
                        false,
                    ),
                    Attempt::Failed { error, permanent } => (None, error, permanent),
                    Attempt::Accepted(_) => unreachable!("handled above"),
                };
                if permanent || attempts >= self.settings.max_attempts.max(1) {
                    self.metrics.failed.inc();
                    tracing::warn!(session_id = %delivery.session_id, delivery = delivery.id, attempts, %error, "webhook delivery failed; giving up");
                    DeliveryOutcome::GaveUp { status, error }
                } else {
                    let after = self.backoff(attempts);
                    tracing::info!(session_id = %delivery.session_id, delivery = delivery.id, attempts, %error, retry_in = ?after, "webhook delivery failed; retrying");
                    DeliveryOutcome::Retry {
                        status,
                        error,
                        after,
                    }
                }
            }
        };
        match self.store.finish_delivery(&delivery, &outcome).await {
            Ok(true) => {}
            Ok(false) => {
                tracing::warn!(session_id = %delivery.session_id, delivery = delivery.id, "a webhook delivery was claimed by another instance meanwhile");
            }
            Err(err) => {
                tracing::warn!(session_id = %delivery.session_id, delivery = delivery.id, %err, "could not record a webhook attempt; it is tried again when its claim runs out");
            }
        }
    }

    /// One signed POST of `delivery`.
    async fn post(&self, delivery: &Delivery) -> Attempt {
        let timestamp = chrono::Utc::now().timestamp();
        let body = delivery.body.as_bytes();
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        let signed = signature(&self.settings.secret, timestamp, body);
        if let Ok(value) = HeaderValue::from_str(&signed) {
            headers.insert(SIGNATURE_HEADER, value);
        }
        headers.insert(DELIVERY_HEADER, HeaderValue::from(delivery.id));
        headers.insert(
            EVENT_HEADER,
            HeaderValue::from_static(delivery.event.as_str()),
        );
        match self
            .fetcher
            .post(&delivery.target, headers, body.to_vec(), self.timeout())
            .await
        {
            Ok(status) if (200..300).contains(&status) => Attempt::Accepted(status),
            Ok(status) => Attempt::Refused(status),
            Err(err) => Attempt::Failed {
                permanent: matches!(
                    err,
                    FetchError::BlockedAddress(_) | FetchError::InvalidUrl(_)
                ),
                error: err.to_string(),
            },
        }
    }
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
        let answer = UrlAnswer {
            index: 0,
            url: "https://a.b/".into(),
            answer: serde_json::json!({"title": "A"}),
        };
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
