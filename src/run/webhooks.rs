//! The webhook sender: every instance's background task that claims due deliveries of the
//! store's outbox (a lease, so two instances never send one row at once), posts each through the
//! fetcher's guarded client, signed (see [`crate::webhook`]), and marks it delivered once, or
//! retries it with exponential backoff, or gives up after `webhooks.max_attempts`.

use std::sync::Arc;
use std::time::Duration;

use prometheus_client::metrics::counter::Counter;
use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderValue};
use tokio_util::sync::CancellationToken;

use crate::fetch::{FetchError, Fetcher};
use crate::metrics::Metrics;
use crate::settings::WebhookSettings;
use crate::store::{Delivery, DeliveryOutcome, Store};
use crate::webhook::{DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signature};

/// A claimed delivery is leased for the POST's timeout plus this margin: no other instance
/// claims it before its POST has ended one way or the other.
const LEASE_MARGIN: Duration = Duration::from_secs(10);

/// How one POST of a delivery went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attempt {
    /// The receiver answered 2xx.
    Accepted(u16),
    /// It answered something else, maybe asking for a wait before the next attempt
    /// (`Retry-After`).
    Refused(u16, Option<Duration>),
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

    /// The wait before the next attempt: the backoff, or longer when the receiver asked for
    /// longer (`Retry-After`), never past `webhooks.max_backoff_secs` (a receiver cannot park a
    /// delivery for good).
    pub fn retry_in(&self, attempts: u32, asked: Option<Duration>) -> Duration {
        let longest = Duration::from_secs(self.settings.max_backoff_secs.max(1));
        self.backoff(attempts)
            .max(asked.unwrap_or_default())
            .min(longest)
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
                match self.send_due().await {
                    Ok(_) => {}
                    // The shutdown closed the pool while this look was under way.
                    Err(_) if self.store.is_closed() || stop.is_cancelled() => return,
                    Err(err) => tracing::warn!(%err, "could not send webhook deliveries"),
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
                let (status, error, permanent, asked_wait) = match other {
                    Attempt::Refused(status, wait) => (
                        Some(status),
                        format!("the receiver answered HTTP {status}"),
                        false,
                        wait,
                    ),
                    Attempt::Failed { error, permanent } => (None, error, permanent, None),
                    Attempt::Accepted(_) => unreachable!("handled above"),
                };
                if permanent || attempts >= self.settings.max_attempts.max(1) {
                    self.metrics.failed.inc();
                    tracing::warn!(session_id = %delivery.session_id, delivery = delivery.id, attempts, %error, "webhook delivery failed; giving up");
                    DeliveryOutcome::GaveUp { status, error }
                } else {
                    let after = self.retry_in(attempts, asked_wait);
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
            Ok(answer) if (200..300).contains(&answer.status) => Attempt::Accepted(answer.status),
            Ok(answer) => Attempt::Refused(answer.status, answer.retry_after),
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
