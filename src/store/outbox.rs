//! The webhook outbox: deliveries written with the event they announce (in the same fenced
//! transaction, by [`enqueue_webhook!`]), claimed by the sender of any instance under a lease,
//! and marked once — delivered, to retry later, or given up — by the claim that sent them.
//!
//! A claim moves the row's `next_attempt_at` to the end of its lease and adds one to `claims`:
//! until then no other instance takes it, and afterwards (an instance that died mid-POST) any
//! may. Marking a row is conditional on the claim it was sent under, so an instance whose claim
//! ran out cannot overwrite what the next claimer recorded. PostgreSQL claims with
//! `FOR UPDATE SKIP LOCKED`, so concurrent senders split the due rows instead of waiting on one
//! another; SQLite's single statement runs under its write lock.

use std::time::Duration;

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::Serialize;

use super::{Pool, Store, StoreError};
use crate::webhook::WebhookEvent;

/// Writes the outbox row `$event` calls for (see [`crate::webhook::delivery_for`]) inside the
/// transaction `$tx` that stores the event, when the run's `$request` (its stored JSON) names a
/// webhook announcing it. A row that exists already (the same event announced twice) is kept.
macro_rules! enqueue_webhook {
    ($tx:ident, $request:expr, $event:expr, $answer:expr, $now:expr) => {
        if let Some(delivery) =
            crate::webhook::delivery_for($request, $event, $answer.map(|a: &UrlAnswer| &a.answer))
        {
            sqlx::query(
                "INSERT INTO webhook_outbox (session_id, event, url_index, target, body, \
                 created_at) VALUES ($1, $2, $3, $4, $5, $6) \
                 ON CONFLICT (session_id, event, url_index) DO NOTHING",
            )
            .bind(&$event.session_id)
            .bind(delivery.event.as_str())
            .bind(delivery.url_index)
            .bind(&delivery.target)
            .bind(&delivery.body)
            .bind($now)
            .execute(&mut *$tx)
            .await?;
        }
    };
}

/// Where a delivery stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryState {
    /// Not accepted yet: waiting for its next attempt (or being sent).
    Pending,
    /// A receiver accepted it (2xx).
    Delivered,
    /// Given up: `webhooks.max_attempts` reached, or its address is refused.
    Failed,
}

impl DeliveryState {
    fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Delivered => "delivered",
            Self::Failed => "failed",
        }
    }

    fn parse(name: &str) -> Self {
        match name {
            "delivered" => Self::Delivered,
            "failed" => Self::Failed,
            _ => Self::Pending,
        }
    }
}

/// A delivery claimed for sending.
#[derive(Debug, Clone)]
pub struct Delivery {
    /// Its id (sent as `X-Scrape-Agent-Delivery`, the same on every attempt).
    pub id: i64,
    /// The claim it is sent under: marking it is conditional on it.
    pub claim: i64,
    /// The run it belongs to.
    pub session_id: String,
    /// What it announces.
    pub event: WebhookEvent,
    /// The receiver.
    pub target: String,
    /// The body, as signed and sent.
    pub body: String,
    /// Attempts made before this one.
    pub attempts: u32,
}

/// How an attempt ended, as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeliveryOutcome {
    /// Accepted with this status: never sent again.
    Delivered {
        /// The receiver's status.
        status: u16,
    },
    /// Not accepted: tried again `after` this long.
    Retry {
        /// The receiver's status, when it answered.
        status: Option<u16>,
        /// Why it failed.
        error: String,
        /// The wait before the next attempt.
        after: Duration,
    },
    /// Not accepted, and never tried again.
    GaveUp {
        /// The receiver's status, when it answered.
        status: Option<u16>,
        /// Why it failed.
        error: String,
    },
}

/// One delivery of a run, as `GET /api/scrape/{id}/webhooks` shows it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DeliveryRecord {
    /// Its id (the `X-Scrape-Agent-Delivery` header).
    pub id: i64,
    /// What it announces.
    pub event: WebhookEvent,
    /// The URL's position in the request, for `url_complete`.
    pub url_index: Option<u64>,
    /// The receiver.
    pub url: String,
    /// Where it stands.
    pub state: DeliveryState,
    /// POSTs made so far.
    pub attempts: u32,
    /// The last attempt's HTTP status, when the receiver answered.
    pub last_status: Option<u16>,
    /// Why the last attempt failed, when it did.
    pub last_error: Option<String>,
    /// When it was written (with the event it announces).
    pub created_at: DateTime<Utc>,
    /// When a receiver accepted it.
    pub delivered_at: Option<DateTime<Utc>>,
}

/// A row of `webhook_outbox` as listed.
#[derive(Debug, sqlx::FromRow)]
struct DeliveryRow {
    id: i64,
    event: String,
    url_index: i64,
    target: String,
    state: String,
    attempts: i32,
    last_status: Option<i32>,
    last_error: Option<String>,
    created_at: DateTime<Utc>,
    delivered_at: Option<DateTime<Utc>>,
}

/// A claimed row as returned.
type ClaimedRow = (i64, i64, String, String, String, String, i32);

fn status_of(status: Option<u16>) -> Option<i32> {
    status.map(i32::from)
}

impl Store {
    /// Claims up to `limit` deliveries due now (oldest first) for `lease`: no other instance
    /// claims them before it runs out. PostgreSQL skips rows another instance is claiming at the
    /// same moment (`FOR UPDATE SKIP LOCKED`).
    ///
    /// # Errors
    /// When the database fails.
    pub async fn claim_deliveries(
        &self,
        limit: u32,
        lease: Duration,
    ) -> Result<Vec<Delivery>, StoreError> {
        let clock = self.db_clock();
        let returning = "RETURNING id, claims, session_id, event, target, body, attempts";
        let sql = match self.pool {
            Pool::Postgres(_) => format!(
                "WITH due AS (SELECT id FROM webhook_outbox \
                 WHERE state = 'pending' AND next_attempt_at <= {clock} \
                 ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED) \
                 UPDATE webhook_outbox o SET claims = o.claims + 1, claimed_by = $2, \
                 next_attempt_at = {clock} + $3 FROM due WHERE o.id = due.id \
                 RETURNING o.id, o.claims, o.session_id, o.event, o.target, o.body, o.attempts"
            ),
            Pool::Sqlite(_) => format!(
                "UPDATE webhook_outbox SET claims = claims + 1, claimed_by = $2, \
                 next_attempt_at = {clock} + $3 \
                 WHERE id IN (SELECT id FROM webhook_outbox \
                 WHERE state = 'pending' AND next_attempt_at <= {clock} ORDER BY id LIMIT $1) \
                 {returning}"
            ),
        };
        let rows: Vec<ClaimedRow> = with_conn!(self, conn => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(i64::from(limit))
                .bind(&*self.instance)
                .bind(lease.as_secs_f64())
                .fetch_all(&mut *conn)
                .await
        })?;
        let mut claimed: Vec<Delivery> = rows
            .into_iter()
            .filter_map(|(id, claim, session_id, event, target, body, attempts)| {
                Some(Delivery {
                    id,
                    claim,
                    session_id,
                    event: WebhookEvent::parse(&event)?,
                    target,
                    body,
                    attempts: u32::try_from(attempts).unwrap_or(0),
                })
            })
            .collect();
        claimed.sort_by_key(|delivery| delivery.id);
        Ok(claimed)
    }

    /// Records how an attempt of `delivery` ended, if its claim still holds (no other instance
    /// claimed the row since). False when it does not: the other claimer records its own.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn finish_delivery(
        &self,
        delivery: &Delivery,
        outcome: &DeliveryOutcome,
    ) -> Result<bool, StoreError> {
        let now = Utc::now();
        let (state, status, error, after) = match outcome {
            DeliveryOutcome::Delivered { status } => {
                (DeliveryState::Delivered, Some(*status), None, 0.0)
            }
            DeliveryOutcome::Retry {
                status,
                error,
                after,
            } => (
                DeliveryState::Pending,
                *status,
                Some(error.as_str()),
                after.as_secs_f64(),
            ),
            DeliveryOutcome::GaveUp { status, error } => {
                (DeliveryState::Failed, *status, Some(error.as_str()), 0.0)
            }
        };
        let sql = format!(
            "UPDATE webhook_outbox SET state = $3, attempts = attempts + 1, last_status = $4, \
             last_error = $5, next_attempt_at = {} + $6, \
             delivered_at = CASE WHEN $3 = 'delivered' THEN $7 ELSE delivered_at END \
             WHERE id = $1 AND claims = $2 AND state = 'pending'",
            self.db_clock()
        );
        let updated = with_conn!(self, conn => {
            sqlx::query(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(delivery.id)
                .bind(delivery.claim)
                .bind(state.as_str())
                .bind(status_of(status))
                .bind(error)
                .bind(after)
                .bind(now)
                .execute(&mut *conn)
                .await
                .map(|done| done.rows_affected())
        })?;
        Ok(updated == 1)
    }

    /// The webhook deliveries of session `id`, oldest first.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] for an unknown session; database errors.
    pub async fn deliveries(&self, id: &str) -> Result<Vec<DeliveryRecord>, StoreError> {
        self.exists(id).await?;
        let rows: Vec<DeliveryRow> = with_conn!(self, conn => {
            sqlx::query_as(
                "SELECT id, event, url_index, target, state, attempts, last_status, last_error, \
                 created_at, delivered_at FROM webhook_outbox WHERE session_id = $1 ORDER BY id",
            )
            .bind(id)
            .fetch_all(&mut *conn)
            .await
        })?;
        Ok(rows
            .into_iter()
            .filter_map(|row| {
                Some(DeliveryRecord {
                    id: row.id,
                    event: WebhookEvent::parse(&row.event)?,
                    url_index: u64::try_from(row.url_index).ok(),
                    url: row.target,
                    state: DeliveryState::parse(&row.state),
                    attempts: u32::try_from(row.attempts).unwrap_or(0),
                    last_status: row.last_status.and_then(|s| u16::try_from(s).ok()),
                    last_error: row.last_error,
                    created_at: row.created_at,
                    delivered_at: row.delivered_at,
                })
            })
            .collect())
    }
}
