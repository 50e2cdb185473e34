//! The queue of detached runs waiting for room (issue #34, part 5): a detached run that finds
//! every slot of its instance taken is stored `queued` instead of refused, and an instance with
//! room claims queued runs oldest first and starts them.
//!
//! A queued session has no owner, no lease and epoch 0: its claim gives it the first epoch, one
//! attempt and a lease, exactly what a run started at once has, so from then on it is an
//! ordinary run (fenced writes, renewal, takeover). PostgreSQL: claims skip the rows another
//! instance is claiming (`FOR UPDATE SKIP LOCKED`), and an enqueue notifies
//! [`QUEUE_CHANNEL`] so instances with room claim at once rather than at their next sweep.
//! SQLite: one instance, whose single `UPDATE … RETURNING` is the claim.

use chrono::Utc;
use serde_json::Value;
use sqlx::Connection;

use super::{Closing, Pool, Store, StoreError};
use crate::events::{ErrorCode, ErrorData, RunStatus};

/// The channel an enqueue notifies on PostgreSQL (listened to with the events' channel).
pub(super) const QUEUE_CHANNEL: &str = "scrape_agent_queue";

/// A queued run this process claimed: it holds its lease from the claim on, and starts it.
#[derive(Debug, Clone)]
pub struct QueuedClaim {
    /// Session id.
    pub id: String,
    /// The accepted request, as stored.
    pub request: Value,
    /// Whether it was started detached.
    pub detached: bool,
}

impl Closing {
    /// A queued run this process claimed but cannot start (`why`: its stored request does not
    /// read back, or asks for what this server does not offer): `failed`.
    pub fn not_startable(why: &str) -> Self {
        Self {
            error: ErrorData {
                code: ErrorCode::Internal,
                message: format!("the queued run could not be started: {why}"),
                url: None,
                retryable: false,
            },
            status: RunStatus::Failed,
        }
    }

    /// A queued run cancelled before it started: `cancelled`, every URL unanswered.
    pub fn cancelled_in_queue() -> Self {
        Self {
            error: ErrorData {
                code: ErrorCode::Cancelled,
                message: "the run was cancelled while it waited in the queue; it never started"
                    .into(),
                url: None,
                retryable: false,
            },
            status: RunStatus::Cancelled,
        }
    }
}

impl Store {
    /// Stores a run that waits for room: status `queued`, no owner, no lease. Returns its
    /// position among the queued runs, oldest first (1: the next to be claimed). On PostgreSQL
    /// the instances listening are told at commit.
    ///
    /// # Errors
    /// [`StoreError::Duplicate`] when the id is taken, or the database failed.
    pub async fn enqueue(
        &self,
        id: &str,
        request: &Value,
        detached: bool,
    ) -> Result<u64, StoreError> {
        let now = Utc::now();
        let request = request.to_string();
        let shared = self.is_shared();
        let result = with_conn!(self, conn => {
            let mut tx = conn.begin().await?;
            let n: i64 = sqlx::query_scalar(
                "INSERT INTO sessions (id, status, request, detached, created_at, updated_at, \
                 epoch, attempts) VALUES ($1, 'queued', $2, $3, $4, $4, 0, 0) RETURNING n",
            )
            .bind(id)
            .bind(&request)
            .bind(detached)
            .bind(now)
            .fetch_one(&mut *tx)
            .await?;
            let position: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM sessions WHERE status = 'queued' AND n <= $1",
            )
            .bind(n)
            .fetch_one(&mut *tx)
            .await?;
            if shared {
                sqlx::query("SELECT pg_notify($1, $2)")
                    .bind(QUEUE_CHANNEL)
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Ok(position)
        });
        match result {
            Ok(position) => Ok(u64::try_from(position).unwrap_or(1)),
            Err(sqlx::Error::Database(err)) if err.is_unique_violation() => {
                Err(StoreError::Duplicate(id.into()))
            }
            Err(err) => Err(err.into()),
        }
    }

    /// Claims up to `limit` queued runs, oldest first: each becomes `running` under this
    /// process with the first epoch, one attempt and a fresh lease, in one statement.
    /// PostgreSQL: rows another instance is claiming at the same moment are skipped, so each
    /// queued run goes to one instance.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn claim_queued(&self, limit: usize) -> Result<Vec<QueuedClaim>, StoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let clock = self.db_clock();
        let set = "status = 'running', owner = $1, epoch = epoch + 1, attempts = attempts + 1, \
                   heartbeat_at = $4, updated_at = $4";
        let sql = match self.pool {
            // One statement: the single instance's writes are serialised anyway.
            Pool::Sqlite(_) => format!(
                "UPDATE sessions SET {set}, lease_until = {clock} + $3 \
                 WHERE status = 'queued' AND id IN (SELECT id FROM sessions \
                 WHERE status = 'queued' ORDER BY n LIMIT $2) \
                 RETURNING n, id, epoch, request, detached"
            ),
            // The locking select in a CTE, which runs once: as a subquery of `IN` it may be run
            // again for rows it has not locked, and a claim would take more than `limit`.
            Pool::Postgres(_) => format!(
                "WITH c AS (SELECT id FROM sessions WHERE status = 'queued' \
                 ORDER BY n LIMIT $2 FOR UPDATE SKIP LOCKED) \
                 UPDATE sessions s SET {set}, lease_until = {clock} + $3 \
                 FROM c WHERE s.id = c.id \
                 RETURNING s.n, s.id, s.epoch, s.request, s.detached"
            ),
        };
        let mut rows: Vec<(i64, String, i64, String, bool)> = with_conn!(self, conn => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(&*self.instance)
                .bind(i64::try_from(limit).unwrap_or(i64::MAX))
                .bind(self.lease_secs())
                .bind(Utc::now())
                .fetch_all(&mut *conn)
                .await
        })?;
        rows.sort_by_key(|row| row.0);
        Ok(rows
            .into_iter()
            .map(|(_, id, epoch, request, detached)| {
                self.hold(&id, epoch);
                QueuedClaim {
                    request: serde_json::from_str(&request).unwrap_or(Value::Null),
                    detached,
                    id,
                }
            })
            .collect())
    }

    /// Puts a queued run this process claimed back in the queue, in its place, before it wrote
    /// anything (the room it was claimed for went to another run meanwhile). False when its
    /// lease was lost meanwhile.
    ///
    /// # Errors
    /// When the database fails; the run is then left to its lease, and resumed once it expires.
    pub async fn requeue(&self, id: &str) -> Result<bool, StoreError> {
        let Some(epoch) = self.epoch_of(id) else {
            return Ok(false);
        };
        self.release(id);
        let requeued = with_conn!(self, conn => {
            sqlx::query(concat!(
                "UPDATE sessions SET status = 'queued', owner = NULL, lease_until = NULL, \
                 heartbeat_at = NULL, attempts = attempts - 1 \
                 WHERE id = $1 AND epoch = $2 AND owner = $3 AND ",
                status_is!("running"),
                " AND event_count = 0",
            ))
            .bind(id)
            .bind(epoch)
            .bind(&*self.instance)
            .execute(&mut *conn)
            .await
            .map(|done| done.rows_affected())
        })?;
        Ok(requeued == 1)
    }

    /// Runs waiting in the queue now.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn queue_depth(&self) -> Result<u64, StoreError> {
        let depth: i64 = with_pool!(self, pool => {
            sqlx::query_scalar("SELECT COUNT(*) FROM sessions WHERE status = 'queued'")
                .fetch_one(pool)
                .await?
        });
        Ok(u64::try_from(depth).unwrap_or(0))
    }

    /// A queued run's position, oldest first (1: the next to be claimed); `None` when it is
    /// not queued (any more).
    ///
    /// # Errors
    /// When the database fails.
    pub async fn queue_position(&self, id: &str) -> Result<Option<u64>, StoreError> {
        let position: Option<i64> = with_pool!(self, pool => {
            sqlx::query_scalar(
                concat!(
                    "SELECT (SELECT COUNT(*) FROM sessions q WHERE q.status = 'queued' AND q.n <= s.n) \
                     FROM sessions s WHERE s.id = $1 AND ",
                    status_is!("s.", "queued"),
                ),
            )
            .bind(id)
            .fetch_optional(pool)
            .await?
        });
        Ok(position.and_then(|p| u64::try_from(p).ok()))
    }

    /// Cancels a run still waiting in the queue: it is claimed here and closed at once with
    /// status `cancelled` (an `error` and a `complete`, every URL unanswered), so its followers'
    /// streams end as every run's do. False when it is not queued (any more).
    ///
    /// # Errors
    /// When the database fails.
    pub async fn cancel_queued(&self, id: &str) -> Result<bool, StoreError> {
        let sql = format!(
            concat!(
                "UPDATE sessions SET status = 'running', owner = $2, epoch = epoch + 1, \
                 lease_until = {} + $3, heartbeat_at = $4, updated_at = $4 \
                 WHERE id = $1 AND ",
                status_is!("queued"),
                " RETURNING epoch"
            ),
            self.db_clock()
        );
        let epoch: Option<i64> = with_conn!(self, conn => {
            sqlx::query_scalar(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(id)
                .bind(&*self.instance)
                .bind(self.lease_secs())
                .bind(Utc::now())
                .fetch_optional(&mut *conn)
                .await
        })?;
        let Some(epoch) = epoch else {
            return Ok(false);
        };
        self.hold(id, epoch);
        self.close_claimed(id, &Closing::cancelled_in_queue()).await
    }

    /// Resolves when another instance may have queued a run (PostgreSQL `NOTIFY` on
    /// [`QUEUE_CHANNEL`], or notifications may have been lost). Never on SQLite (one
    /// instance: it knows what it queues), nor when the listening connection cannot be opened
    /// (the caller's sweep finds queued runs then).
    pub async fn queue_changed(&self) {
        let Pool::Postgres(pool) = &self.pool else {
            return std::future::pending().await;
        };
        match self
            .listener
            .get_or_try_init(|| super::notify::EventListener::start(pool))
            .await
        {
            Ok(listener) => listener.queue_changed().await,
            Err(err) => {
                tracing::warn!(%err, "could not listen for queued runs; finding them by sweeping");
                std::future::pending().await
            }
        }
    }
}
