//! Sessions and their events, over sqlx: SQLite (the embedded default) or PostgreSQL (several
//! instances sharing the work), chosen by the `database.url` scheme.
//!
//! Every event is appended here before any subscriber sees it, so a replay after
//! `Last-Event-ID` is exact.
//!
//! Both backends run the same SQL text: every statement sticks to what SQLite and PostgreSQL
//! both understand (`$n` placeholders, `RETURNING`, `TRUE`/`FALSE`), and [`with_pool!`] hands the
//! typed pool of whichever backend is configured to that one body (one exception: appending
//! an event on PostgreSQL is a single CTE statement, see [`Store::append_event`]). The
//! migrations are one directory per backend because column types differ (`TIMESTAMPTZ`/
//! `BIGSERIAL` vs `TEXT`/`AUTOINCREMENT`); they share version numbers and meaning.

mod notify;
mod recover;

pub use frontier::FrontierEntry;
pub use notify::EventWatch;
pub use queue::QueuedClaim;
pub use recover::Closing;

use std::collections::HashMap;
use std::fs::File;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Map, Value};
use sqlx::Connection;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
    SqliteSynchronous,
};

use crate::events::{Event, EventType, ResumeReason, RunStatus};
use crate::settings::DatabaseSettings;

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// A session with that id exists already.
    #[error("session `{0}` already exists")]
    Duplicate(String),
    /// No session with that id.
    #[error("session `{0}` not found")]
    NotFound(String),
    /// The session is no longer running under this instance (another instance closed it
    /// after finding this one's heartbeat stale): this instance must stop writing to it.
    #[error("session `{0}` is not running under this instance")]
    NotOwner(String),
    /// The database failed (or `database.url` names no supported database).
    #[error("database error: {0}")]
    Database(String),
    /// Another server holds the lock of this SQLite file: one file has one server.
    #[error(
        "another scrape-agent server is using this SQLite database: its lock file {} is held \
         (one server per SQLite file; stop the other one, give this one a database of its own, \
         or share PostgreSQL between several)",
        .0.display()
    )]
    Locked(PathBuf),
}

impl From<sqlx::Error> for StoreError {
    fn from(err: sqlx::Error) -> Self {
        Self::Database(err.to_string())
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(err: sqlx::migrate::MigrateError) -> Self {
        Self::Database(format!("migration failed: {err}"))
    }
}

/// A stored session.
#[derive(Debug, Clone, Serialize)]
pub struct SessionRecord {
    /// Session id.
    pub id: String,
    /// Current status.
    pub status: RunStatus,
    /// The accepted request.
    pub request: Value,
    /// Whether it was started detached (POST /api/scrape).
    pub detached: bool,
    /// Creation time.
    pub created_at: DateTime<Utc>,
    /// Last change.
    pub updated_at: DateTime<Utc>,
    /// End time, when finished.
    pub finished_at: Option<DateTime<Utc>>,
    /// The `complete` payload, when finished.
    pub result: Option<Value>,
    /// Sum of step rewards, when finished.
    pub total_reward: f64,
    /// Events stored so far.
    pub event_count: u64,
    /// `step` events stored so far.
    pub step_count: u64,
    /// Whether a cancel was asked for (by any instance).
    pub cancel_requested: bool,
}

/// One page of a session listing.
#[derive(Debug, Clone, Serialize)]
pub struct SessionPage {
    /// Sessions, newest first; `result` is left out to keep pages small.
    pub sessions: Vec<SessionRecord>,
    /// Pass as `cursor` to get the next page; `None` on the last page.
    pub next_cursor: Option<String>,
}

/// What [`Store::list_sessions`] returns.
#[derive(Debug, Clone, Default)]
pub struct SessionFilter {
    /// Only sessions with one of these statuses (all when empty).
    pub statuses: Vec<RunStatus>,
    /// Page size.
    pub limit: u32,
    /// The `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

/// The typed pool of the configured backend.
#[derive(Debug, Clone)]
enum Pool {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// `status = '<status>'`, for a statement that names its session by `id`, written so that the
/// planner cannot make it an index condition: such a statement must find its row through the
/// unique `id` index. Written plainly, PostgreSQL may scan `sessions_status_n` over every
/// session with that status instead (it costs the same to a planner whose statistics say few
/// sessions are running: a new table, a burst of runs), and every event then reads every
/// running session: the events bench read 348 index entries per event, and its 8 concurrent runs
/// ran at 5,000 instead of 7,500 events/s. SQLite ignores an index for `status || ''` as well.
macro_rules! status_is {
    ($status:literal) => {
        concat!("status || '' = '", $status, "'")
    };
    ($alias:literal, $status:literal) => {
        concat!($alias, "status || '' = '", $status, "'")
    };
}

/// Runs `$body` with `$pool` bound to the configured backend's typed pool. The body is
/// compiled once per backend, so it may only use SQL both understand.
macro_rules! with_pool {
    ($store:expr, $pool:ident => $body:expr) => {
        match &$store.pool {
            Pool::Sqlite($pool) => $body,
            Pool::Postgres($pool) => $body,
        }
    };
}

/// Runs `$body` (an expression of type `Result<T, sqlx::Error>`) with `$conn` bound to a
/// connection acquired for it alone, and gives back its result as `Result<T, sqlx::Error>`.
///
/// A connection on which anything failed is closed, never handed back to the pool: a failed
/// `COMMIT` (disk full, a read-only or deleted file, a killed server connection) can leave it
/// inside a transaction that never ends, and sqlx would then turn the next `BEGIN` on it into a
/// `SAVEPOINT` whose "commit" commits nothing while it keeps holding the write lock.
macro_rules! with_conn {
    ($store:expr, $conn:ident => $body:expr) => {
        with_pool!($store, pool => {
            match pool.acquire().await {
                Err(err) => Err(err),
                Ok(mut pooled) => {
                    let result = async {
                        let $conn = &mut *pooled;
                        $body
                    }
                    .await;
                    if result.is_err() {
                        pooled.close_on_drop();
                    }
                    result
                }
            }
        })
    };
}

// After the macros it uses (`with_conn!`), before the code that uses its own (`enqueue_webhook!`).
#[macro_use]
mod outbox;
pub use outbox::{Delivery, DeliveryOutcome, DeliveryRecord, DeliveryState};

/// How long the write probe of [`Store::check_writable`] may take: past it the store counts
/// as unable to write (a wedged writer holds SQLite's lock, or the server does not answer).
const PROBE_TIMEOUT: Duration = Duration::from_secs(3);

/// How long a lease lasts when nobody says otherwise ([`Store::with_lease`]): the bound
/// (≤ 10 s), so a run of a dead instance is free to take over within seconds.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(10);

/// The epoch of a session's first claim (its creation); each later claim adds one.
const FIRST_EPOCH: i64 = 1;

/// The session and event store.
#[derive(Debug, Clone)]
pub struct Store {
    pool: Pool,
    /// This process's identity: written as the owner of the sessions it runs.
    instance: Arc<str>,
    /// The leases this process holds: session id → epoch. Every write to a session is
    /// conditional on its epoch here, in the same statement; a session missing from it (never
    /// claimed, finished, or its lease lost) takes no write from this process.
    leases: Arc<Mutex<HashMap<String, i64>>>,
    /// How long a claim or a renewal holds a lease, on the database's clock.
    lease: Duration,
    /// The lock file of a SQLite database this process serves (see [`Store::connect_exclusive`]),
    /// held open (and so locked) until [`Store::close`].
    lock: Arc<Mutex<Option<File>>>,
    /// PostgreSQL: this process's `LISTEN`ing connection, started by the first follower.
    listener: Arc<tokio::sync::OnceCell<notify::EventListener>>,
}

/// A `sessions` row as selected by `session_columns!()`.
#[derive(Debug, sqlx::FromRow)]
struct SessionRow {
    n: i64,
    id: String,
    status: String,
    request: String,
    detached: bool,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
    finished_at: Option<DateTime<Utc>>,
    result: Option<String>,
    total_reward: f64,
    event_count: i64,
    step_count: i64,
    cancel_requested: bool,
}

/// The columns of [`SessionRow`], as a literal so queries stay `&'static str`.
macro_rules! session_columns {
    () => {
        "n, id, status, request, detached, created_at, updated_at, finished_at, result, \
         total_reward, event_count, step_count, cancel_requested"
    };
}

impl SessionRow {
    fn into_record(self, with_result: bool) -> SessionRecord {
        SessionRecord {
            status: RunStatus::parse(&self.status).unwrap_or(RunStatus::Failed),
            request: serde_json::from_str(&self.request).unwrap_or(Value::Null),
            result: self
                .result
                .filter(|_| with_result)
                .and_then(|text| serde_json::from_str(&text).ok()),
            id: self.id,
            detached: self.detached,
            created_at: self.created_at,
            updated_at: self.updated_at,
            finished_at: self.finished_at,
            total_reward: self.total_reward,
            event_count: u64::try_from(self.event_count).unwrap_or(0),
            step_count: u64::try_from(self.step_count).unwrap_or(0),
            cancel_requested: self.cancel_requested,
        }
    }
}

/// An `events` row.
#[derive(Debug, sqlx::FromRow)]
struct EventRow {
    seq: i64,
    #[sqlx(rename = "type")]
    kind: String,
    payload: String,
}

impl EventRow {
    fn into_event(self, session_id: &str) -> Option<Event> {
        let kind = serde_json::from_value(Value::String(self.kind)).ok()?;
        Some(Event {
            kind,
            session_id: session_id.to_owned(),
            seq: u64::try_from(self.seq).ok()?,
            data: serde_json::from_str(&self.payload).unwrap_or(Value::Null),
        })
    }
}

/// One URL's answer, stored with its `url_complete` event.
#[derive(Debug, Clone)]
pub struct UrlAnswer {
    /// The URL's position in the request, from 0.
    pub index: usize,
    /// The URL exactly as sent.
    pub url: String,
    /// Its answer (`null` when it failed).
    pub answer: Value,
}

/// A run this process claimed after its lease expired (or was handed back): what resuming it
/// needs. This process holds its lease under the new epoch from the claim on.
#[derive(Debug, Clone)]
pub struct Claim {
    /// Session id.
    pub id: String,
    /// The accepted request, as stored.
    pub request: Value,
    /// Whether it was started detached.
    pub detached: bool,
    /// The epoch this process writes under now.
    pub epoch: u64,
    /// Claims of the run so far, this one included (its creation was the first).
    pub attempts: u32,
    /// The instance that held it before, when known.
    pub previous_owner: Option<String>,
    /// Why its lease was free.
    pub reason: ResumeReason,
    /// When the run was created.
    pub created_at: DateTime<Utc>,
    /// Its stored events, in order.
    pub events: Vec<Event>,
    /// The answers stored for its URLs, by URL.
    pub answers: Map<String, Value>,
}

/// A session row as a claim of [`Store::claim_expired`] took it.
#[derive(Debug, sqlx::FromRow)]
struct ClaimedRow {
    /// Its place in creation order.
    n: i64,
    id: String,
    /// The owner before the claim.
    previous_owner: Option<String>,
    /// The lease before the claim (how it ended: expired, or handed back).
    lease_until: Option<f64>,
    /// The epoch and attempts after the claim.
    epoch: i64,
    attempts: i32,
    request: String,
    detached: bool,
    created_at: DateTime<Utc>,
}

/// How a lease handed back is marked: expired since 1970, which no lease renewed on a real
/// clock is, so the next claim can tell a hand-back from a holder that stopped.
const HANDED_BACK: f64 = 0.0;

/// What a stale run is closed by: which condition makes this process the one to close it.
#[derive(Debug, Clone, Copy)]
enum Fence {
    /// Running, with a heartbeat older than the cutoff (or none): its owner is gone.
    Stale(DateTime<Utc>),
    /// Running under this process at this epoch: a run it claimed and will not resume.
    Held(i64),
}

const ANSWERS_SQL: &str =
    "SELECT url, answer FROM url_answers WHERE session_id = $1 ORDER BY url_index";

/// Stored answer rows as a map by URL; a row that no longer parses counts as `null`.
fn answers_of(rows: Vec<(String, String)>) -> Map<String, Value> {
    rows.into_iter()
        .map(|(url, answer)| (url, serde_json::from_str(&answer).unwrap_or(Value::Null)))
        .collect()
}

fn to_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// What finishing a session writes, from a `complete` payload.
fn final_fields(data: &Value) -> (String, String, f64) {
    let status = data["status"]
        .as_str()
        .and_then(RunStatus::parse)
        .unwrap_or(RunStatus::Failed);
    (
        status.as_str().to_owned(),
        data.to_string(),
        data["total_reward"].as_f64().unwrap_or(0.0),
    )
}

impl Store {
    /// Opens the database named by `settings.url` and applies the embedded migrations.
    ///
    /// SQLite: the file and its directory are created when missing, by this call only: the
    /// pool's own connections never create it, so a file deleted under a running server gives
    /// errors instead of a fresh empty database. WAL journal (readers never block the writer),
    /// `synchronous = NORMAL` (durable across a process crash, which is what matters here), and
    /// a busy timeout so concurrent writers wait instead of failing.
    ///
    /// This takes no lock: tools that read a database a server is using open it this way. A
    /// server opens it with [`Store::connect_exclusive`].
    ///
    /// # Errors
    /// An unsupported URL, an unreachable database, or a failed migration.
    pub async fn connect(settings: &DatabaseSettings) -> Result<Self, StoreError> {
        Self::open(settings, false).await
    }

    /// [`Store::connect`] for a server: a SQLite file is locked first (`<file>.lock`, held
    /// until [`Store::close`]), so a second server on the same file is refused before it reads
    /// or writes anything, instead of taking the first one's live runs for a crash's leftovers.
    /// In-memory SQLite and PostgreSQL take no lock (PostgreSQL is meant to be shared).
    ///
    /// # Errors
    /// [`StoreError::Locked`] when another process holds the lock; as [`Store::connect`].
    pub async fn connect_exclusive(settings: &DatabaseSettings) -> Result<Self, StoreError> {
        Self::open(settings, true).await
    }

    async fn open(settings: &DatabaseSettings, exclusive: bool) -> Result<Self, StoreError> {
        let url = settings.url.trim();
        let max = settings.max_connections.max(1);
        let mut lock = None;
        let pool = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let options = PgConnectOptions::from_str(url)?;
            let pool = PgPoolOptions::new()
                .max_connections(max)
                .acquire_timeout(Duration::from_secs(10))
                .after_release(|conn, _| Box::pin(refuse_unfinished_transaction(conn, false)))
                .connect_with(options)
                .await?;
            sqlx::migrate!("migrations/postgres").run(&pool).await?;
            Pool::Postgres(pool)
        } else if url.starts_with("sqlite:") {
            let options = SqliteConnectOptions::from_str(url)?
                .create_if_missing(false)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .busy_timeout(Duration::from_secs(10))
                .foreign_keys(true);
            let file = options.get_filename().to_path_buf();
            let on_disk = !is_in_memory(url);
            let mut identity = None;
            if on_disk {
                create_parent_dir(&file)?;
                if exclusive {
                    lock = Some(lock_file(&file)?);
                }
                // The one connection allowed to create the file.
                SqliteConnection::connect_with(&options.clone().create_if_missing(true))
                    .await?
                    .close()
                    .await?;
                identity = file_identity(&file);
            }
            let pool = SqlitePoolOptions::new()
                .max_connections(max)
                .acquire_timeout(Duration::from_secs(10))
                .after_release(|conn, _| Box::pin(refuse_unfinished_transaction(conn, true)))
                // A connection to a file that was deleted (or replaced) since it was opened
                // writes where nobody will ever read: it is closed, and its replacement fails
                // to open instead of creating an empty database.
                .before_acquire(move |_, _| {
                    let same = identity.is_none() || file_identity(&file) == identity;
                    Box::pin(async move { Ok(same) })
                })
                .connect_with(options)
                .await?;
            sqlx::migrate!("migrations/sqlite").run(&pool).await?;
            Pool::Sqlite(pool)
        } else {
            return Err(StoreError::Database(format!(
                "unsupported database url `{url}`: use sqlite://path or postgres://user@host/db"
            )));
        };
        Ok(Self {
            pool,
            instance: uuid::Uuid::new_v4().to_string().into(),
            leases: Arc::default(),
            lease: DEFAULT_LEASE,
            lock: Arc::new(Mutex::new(lock)),
            listener: Arc::default(),
        })
    }

    /// `"sqlite"` or `"postgres"`.
    pub fn backend(&self) -> &'static str {
        match self.pool {
            Pool::Sqlite(_) => "sqlite",
            Pool::Postgres(_) => "postgres",
        }
    }

    /// Whether other server processes may share this database (PostgreSQL). A SQLite file
    /// belongs to one process, so anything left running in it at start was interrupted.
    pub fn is_shared(&self) -> bool {
        matches!(self.pool, Pool::Postgres(_))
    }

    /// A wake-up call for a follower of session `id` on a shared database: it wakes whenever
    /// one of the session's events is stored, by any instance (PostgreSQL `LISTEN/NOTIFY`),
    /// while the session is marked watched ([`Store::mark_watched`], within the last 10 s).
    /// Mark first, then read the store, then wait: nothing stored after the read goes
    /// unannounced.
    /// `None` on SQLite (one instance: its followers are woken in memory) or when the
    /// listening connection cannot be opened now (the caller falls back to polling).
    pub async fn watch_events(&self, id: &str) -> Option<EventWatch> {
        let Pool::Postgres(pool) = &self.pool else {
            return None;
        };
        let started = self
            .listener
            .get_or_try_init(|| notify::EventListener::start(pool))
            .await;
        match started {
            Ok(listener) => Some(listener.follow(id)),
            Err(err) => {
                tracing::warn!(%err, "could not listen for stored events; following by polling");
                None
            }
        }
    }

    /// The same store with leases lasting `lease` (`runs.lease_secs`).
    #[must_use]
    pub fn with_lease(mut self, lease: Duration) -> Self {
        self.lease = lease.max(Duration::from_secs(1));
        self
    }

    /// How long a lease lasts.
    pub fn lease(&self) -> Duration {
        self.lease
    }

    fn lease_secs(&self) -> f64 {
        self.lease.as_secs_f64()
    }

    /// The database's clock as seconds since 1970, in its own SQL: leases expire on one clock
    /// whatever the clocks of the instances say.
    fn db_clock(&self) -> &'static str {
        match self.pool {
            Pool::Sqlite(_) => "((julianday('now') - 2440587.5) * 86400.0)",
            Pool::Postgres(_) => "EXTRACT(EPOCH FROM clock_timestamp())::float8",
        }
    }

    fn leases(&self) -> MutexGuard<'_, HashMap<String, i64>> {
        self.leases.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records that this process holds `id`'s lease under `epoch`.
    fn hold(&self, id: &str, epoch: i64) {
        self.leases().insert(id.to_owned(), epoch);
    }

    /// Forgets `id`'s lease: no write to it leaves this process any more.
    fn release(&self, id: &str) {
        self.leases().remove(id);
    }

    /// The epoch under which this process holds `id`, if it does.
    fn epoch_of(&self, id: &str) -> Option<i64> {
        self.leases().get(id).copied()
    }

    /// Whether this process holds `id`'s lease (it may write to the session).
    pub fn holds_lease(&self, id: &str) -> bool {
        self.epoch_of(id).is_some()
    }

    /// The epoch under which this process holds `id`'s lease, if it does.
    pub fn lease_epoch(&self, id: &str) -> Option<u64> {
        self.epoch_of(id)
            .and_then(|epoch| u64::try_from(epoch).ok())
    }

    /// Renews the leases this process holds on `live` (the runs it executes now) for another
    /// [`Store::lease`] on the database's clock, one conditional update per run on `(id, epoch)`.
    /// Returns the ids whose lease is lost (another claim or a close moved the epoch on):
    /// they are forgotten at once, so no write of theirs leaves this process again.
    ///
    /// # Errors
    /// When the database fails; the leases renewed before the failure stay renewed.
    pub async fn renew_leases(&self, live: &[String]) -> Result<Vec<String>, StoreError> {
        let sql = format!(
            concat!(
                "UPDATE sessions SET lease_until = {} + $3, heartbeat_at = $4 \
             WHERE id = $1 AND epoch = $2 AND owner = $5 AND ",
                status_is!("running")
            ),
            self.db_clock()
        );
        let mut lost = Vec::new();
        for id in live {
            // No lease held: the run finished (its lease ended with it) or its loss was
            // found by a refused write, which stopped it already.
            let Some(epoch) = self.epoch_of(id) else {
                continue;
            };
            let renewed = with_conn!(self, conn => {
                sqlx::query(sqlx::AssertSqlSafe(sql.as_str()))
                    .bind(id)
                    .bind(epoch)
                    .bind(self.lease_secs())
                    .bind(Utc::now())
                    .bind(&*self.instance)
                    .execute(&mut *conn)
                    .await
                    .map(|done| done.rows_affected())
            })?;
            if renewed == 0 {
                // Only the epoch that was checked is dropped: a fresh claim meanwhile stays.
                let mut leases = self.leases();
                if leases.get(id) == Some(&epoch) {
                    leases.remove(id);
                }
                lost.push(id.clone());
            }
        }
        Ok(lost)
    }

    /// A session's lease as the database sees it: its epoch, and the seconds left before it
    /// expires on the database's clock (negative once expired; `None` when no lease is set, as
    /// on a finished session).
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when unknown, or the database failed.
    pub async fn lease_of(&self, id: &str) -> Result<(u64, Option<f64>), StoreError> {
        let sql = format!(
            "SELECT epoch, lease_until - {} FROM sessions WHERE id = $1",
            self.db_clock()
        );
        let row: Option<(i64, Option<f64>)> = with_pool!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
                .bind(id)
                .fetch_optional(pool)
                .await?
        });
        let (epoch, left) = row.ok_or_else(|| StoreError::NotFound(id.into()))?;
        Ok((u64::try_from(epoch).unwrap_or(0), left))
    }

    /// Lets go of the leases this process holds without touching the sessions: nothing
    /// leaves this process for them any more (a renewal timer that could not renew in time).
    pub fn drop_leases(&self, ids: &[String]) {
        let mut leases = self.leases();
        for id in ids {
            leases.remove(id);
        }
    }

    /// Hands the leases of `ids` back (graceful shutdown): nothing leaves this process for them
    /// any more, and each lease is marked expired on the database so another instance claims
    /// the run at once instead of after the lease time. Returns how many were handed back.
    ///
    /// # Errors
    /// When the database fails; the local leases are dropped whatever happens, so the runs
    /// are claimed at the latest when their leases run out.
    pub async fn hand_back(&self, ids: &[String]) -> Result<u64, StoreError> {
        let held: Vec<(String, i64)> = {
            let mut leases = self.leases();
            ids.iter()
                .filter_map(|id| leases.remove(id).map(|epoch| (id.clone(), epoch)))
                .collect()
        };
        let mut handed = 0;
        for (id, epoch) in held {
            handed += with_conn!(self, conn => {
                sqlx::query(
                    concat!("UPDATE sessions SET lease_until = $3 \
                     WHERE id = $1 AND epoch = $2 AND owner = $4 AND ", status_is!("running")),
                )
                .bind(&id)
                .bind(epoch)
                .bind(HANDED_BACK)
                .bind(&*self.instance)
                .execute(&mut *conn)
                .await
                .map(|done| done.rows_affected())
            })?;
        }
        Ok(handed)
    }

    /// Claims up to `limit` running sessions whose lease expired (their holder stopped renewing,
    /// or handed them back), oldest first: each gets this process as its owner, the next epoch,
    /// one more attempt and a fresh lease. PostgreSQL: one statement, skipping the rows another
    /// instance is claiming at the same moment (`FOR UPDATE SKIP LOCKED`), so each run goes to
    /// one claimer. SQLite: the file is locked by one server (see [`Store::connect_exclusive`]),
    /// so a running session this process does not hold belongs to a process that died: its
    /// lease counts as expired at once, and the claim is one `BEGIN IMMEDIATE` transaction (no
    /// other writer to skip).
    ///
    /// `busy`: runs still executing in this process (one whose lease it lost is still ending):
    /// never claimed here, or each tick would count another attempt against it.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn claim_expired(
        &self,
        limit: usize,
        busy: &[String],
    ) -> Result<Vec<Claim>, StoreError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let rows = match &self.pool {
            Pool::Postgres(pool) => self.claim_expired_postgres(pool, limit, busy).await?,
            Pool::Sqlite(pool) => self.claim_expired_sqlite(pool, limit, busy).await?,
        };
        let shared = self.is_shared();
        let mut claims = Vec::with_capacity(rows.len());
        for row in rows {
            self.hold(&row.id, row.epoch);
            let events = self.events_after(&row.id, 0).await?;
            let answers = self.answers(&row.id).await?;
            let reason = if !shared {
                ResumeReason::Restarted
            } else if row.lease_until.is_some_and(|until| until <= HANDED_BACK) {
                ResumeReason::HandedBack
            } else {
                ResumeReason::LeaseExpired
            };
            claims.push(Claim {
                request: serde_json::from_str(&row.request).unwrap_or(Value::Null),
                detached: row.detached,
                epoch: u64::try_from(row.epoch).unwrap_or(0),
                attempts: u32::try_from(row.attempts).unwrap_or(u32::MAX),
                previous_owner: row.previous_owner,
                reason,
                created_at: row.created_at,
                events,
                answers,
                id: row.id,
            });
        }
        Ok(claims)
    }

    /// [`Store::claim_expired`] on PostgreSQL: the locking select in a CTE (run once), the
    /// claim in the same statement.
    async fn claim_expired_postgres(
        &self,
        pool: &PgPool,
        limit: usize,
        busy: &[String],
    ) -> Result<Vec<ClaimedRow>, StoreError> {
        let clock = self.db_clock();
        let sql = format!(
            "WITH c AS (SELECT id, owner, lease_until FROM sessions \
             WHERE status = 'running' AND lease_until < {clock} AND id <> ALL($5) \
             ORDER BY n LIMIT $2 FOR UPDATE SKIP LOCKED) \
             UPDATE sessions s SET owner = $1, epoch = s.epoch + 1, attempts = s.attempts + 1, \
             lease_until = {clock} + $3, heartbeat_at = $4 \
             FROM c WHERE s.id = c.id \
             RETURNING s.n, s.id, c.owner AS previous_owner, c.lease_until, s.epoch, s.attempts, \
             s.request, s.detached, s.created_at"
        );
        let mut rows: Vec<ClaimedRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
            .bind(&*self.instance)
            .bind(i64::try_from(limit).unwrap_or(i64::MAX))
            .bind(self.lease_secs())
            .bind(Utc::now())
            .bind(busy)
            .fetch_all(pool)
            .await?;
        // `RETURNING` comes in no particular order; runs are resumed oldest first.
        rows.sort_by_key(|row| row.n);
        Ok(rows)
    }

    /// [`Store::claim_expired`] on SQLite. Free: running and not held by this process (its
    /// owner died with the lock it held), or held by it with an expired lease (handed back when
    /// it had no room after all). A plain read first, so a claimer with nothing to claim never
    /// takes the write lock live runs' appends wait for.
    async fn claim_expired_sqlite(
        &self,
        pool: &SqlitePool,
        limit: usize,
        busy: &[String],
    ) -> Result<Vec<ClaimedRow>, StoreError> {
        let clock = self.db_clock();
        let free = format!(
            "SELECT n, id, owner, lease_until FROM sessions WHERE status = 'running' \
             AND (owner IS NOT $1 OR lease_until < {clock}) ORDER BY n"
        );
        let claim = format!(
            concat!(
                "UPDATE sessions SET owner = $1, epoch = epoch + 1, attempts = attempts + 1, \
                 lease_until = {clock} + $3, heartbeat_at = $4 WHERE id = $2 AND ",
                status_is!("running"),
                " RETURNING epoch, attempts, request, detached, created_at"
            ),
            clock = clock
        );
        type Free = (i64, String, Option<String>, Option<f64>);
        let pick = |rows: Vec<Free>| -> Vec<Free> {
            rows.into_iter()
                .filter(|row| !busy.contains(&row.1))
                .take(limit)
                .collect()
        };
        let seen: Vec<Free> = sqlx::query_as(sqlx::AssertSqlSafe(free.as_str()))
            .bind(&*self.instance)
            .fetch_all(pool)
            .await?;
        if pick(seen).is_empty() {
            return Ok(Vec::new());
        }
        // As `with_conn!` does, on the SQLite pool alone: a connection on which anything failed
        // is closed, not handed back inside a transaction that never ends.
        let mut pooled = pool.acquire().await?;
        let result: Result<Vec<ClaimedRow>, sqlx::Error> = async {
            let mut tx = pooled.begin_with("BEGIN IMMEDIATE").await?;
            // Read again under the write lock: this is the set that is claimed.
            let free: Vec<Free> = sqlx::query_as(sqlx::AssertSqlSafe(free.as_str()))
                .bind(&*self.instance)
                .fetch_all(&mut *tx)
                .await?;
            let mut rows = Vec::new();
            for (n, id, previous_owner, lease_until) in pick(free) {
                let (epoch, attempts, request, detached, created_at) =
                    sqlx::query_as(sqlx::AssertSqlSafe(claim.as_str()))
                        .bind(&*self.instance)
                        .bind(&id)
                        .bind(self.lease_secs())
                        .bind(Utc::now())
                        .fetch_one(&mut *tx)
                        .await?;
                rows.push(ClaimedRow {
                    n,
                    id,
                    previous_owner,
                    lease_until,
                    epoch,
                    attempts,
                    request,
                    detached,
                    created_at,
                });
            }
            tx.commit().await?;
            Ok(rows)
        }
        .await;
        if result.is_err() {
            pooled.close_on_drop();
        }
        Ok(result?)
    }

    /// Closes a run this process claimed and will not resume (`closing` says why): its error
    /// and a `complete` rebuilt from what was stored, fenced by the claim's epoch. False when
    /// the lease was lost meanwhile.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn close_claimed(&self, id: &str, closing: &Closing) -> Result<bool, StoreError> {
        let Some(epoch) = self.epoch_of(id) else {
            return Ok(false);
        };
        self.close_one(id, Fence::Held(epoch), closing).await
    }

    /// This process's identity as a session owner.
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// Closes the pool (waits for connections in use to be returned), then lets go of the
    /// SQLite file's lock.
    pub async fn close(&self) {
        if let Some(listener) = self.listener.get() {
            listener.close().await;
        }
        with_pool!(self, pool => pool.close().await);
        self.lock
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
    }

    /// Whether the database answers a trivial query.
    ///
    /// # Errors
    /// The database's error when it does not.
    pub async fn ping(&self) -> Result<(), StoreError> {
        with_conn!(self, conn => sqlx::query("SELECT 1").execute(&mut *conn).await.map(|_| ()))?;
        Ok(())
    }

    /// Whether the database takes a write now (for `/readyz`): one row of `store_probe`
    /// updated in a transaction and committed, within [`PROBE_TIMEOUT`]. Answering a read is
    /// not enough: a full disk or a read-only file still answers `SELECT 1`.
    ///
    /// # Errors
    /// The database's error, or a timeout, when it does not.
    pub async fn check_writable(&self) -> Result<(), StoreError> {
        let probe = async {
            with_conn!(self, conn => {
                let mut tx = conn.begin().await?;
                sqlx::query("UPDATE store_probe SET checked_at = $1, instance = $2 WHERE id = 1")
                    .bind(Utc::now())
                    .bind(&*self.instance)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await
            })
        };
        match tokio::time::timeout(PROBE_TIMEOUT, probe).await {
            Ok(result) => Ok(result?),
            Err(_) => Err(StoreError::Database(format!(
                "a write did not finish within {PROBE_TIMEOUT:?}"
            ))),
        }
    }

    /// Whether [`Store::close`] was called.
    pub fn is_closed(&self) -> bool {
        with_pool!(self, pool => pool.is_closed())
    }

    /// Creates a running session owned by this process.
    ///
    /// # Errors
    /// [`StoreError::Duplicate`] when the id is taken.
    pub async fn create_session(
        &self,
        id: &str,
        request: &Value,
        detached: bool,
    ) -> Result<(), StoreError> {
        let now = Utc::now();
        let request = request.to_string();
        let sql = format!(
            "INSERT INTO sessions (id, status, request, detached, created_at, updated_at, \
             owner, heartbeat_at, epoch, lease_until) \
             VALUES ($1, 'running', $2, $3, $4, $4, $5, $4, {FIRST_EPOCH}, {} + $6)",
            self.db_clock()
        );
        let lease = self.lease_secs();
        let result = with_conn!(self, conn => {
            sqlx::query(sqlx::AssertSqlSafe(sql.as_str()))
            .bind(id)
            .bind(&request)
            .bind(detached)
            .bind(now)
            .bind(&*self.instance)
            .bind(lease)
            .execute(&mut *conn)
            .await
            .map(|_| ())
        });
        match result {
            Ok(_) => {
                self.hold(id, FIRST_EPOCH);
                Ok(())
            }
            Err(sqlx::Error::Database(err)) if err.is_unique_violation() => {
                Err(StoreError::Duplicate(id.into()))
            }
            Err(err) => Err(err.into()),
        }
    }

    /// Appends one event and updates the session's counters in one transaction. A `complete`
    /// event also finishes the session (status, result, reward), so a reader never sees the
    /// final event of a session that still says `running`.
    ///
    /// The write is fenced: it only happens while the session is `running` and owned by this
    /// instance, checked in the same statement that updates the session row, so an instance
    /// whose session was taken over can never add events after the closing ones.
    ///
    /// # Errors
    /// [`StoreError::NotOwner`] when the session is not running under this instance, or the
    /// database failed.
    pub async fn append_event(&self, event: &Event) -> Result<(), StoreError> {
        self.append_answered(event, None).await
    }

    /// [`Store::append_event`] with a URL's answer stored in the same fenced transaction (a
    /// `url_complete` event): when the event is stored, so is the answer, and a `complete`
    /// rebuilt after a crash finds it.
    ///
    /// # Errors
    /// As [`Store::append_event`].
    pub async fn append_answered(
        &self,
        event: &Event,
        answer: Option<&UrlAnswer>,
    ) -> Result<(), StoreError> {
        match self.insert_event(event, answer).await {
            Err(StoreError::Database(err)) if self.holds(event).await => {
                // The same event is stored already: an earlier attempt committed and only its
                // answer was lost (a connection killed after its `COMMIT`). Its retry is done.
                tracing::warn!(session_id = %event.session_id, seq = event.seq, %err, "the append had committed before it failed");
                Ok(())
            }
            other => other,
        }
    }

    /// Whether exactly `event` (same seq, type and data) is stored.
    async fn holds(&self, event: &Event) -> bool {
        let stored: Result<Option<EventRow>, sqlx::Error> = with_conn!(self, conn => {
            sqlx::query_as(
                "SELECT seq, type, payload FROM events WHERE session_id = $1 AND seq = $2",
            )
            .bind(&event.session_id)
            .bind(to_i64(event.seq))
            .fetch_optional(&mut *conn)
            .await
        });
        stored.ok().flatten().is_some_and(|row| {
            row.kind == event.kind.as_str()
                && serde_json::from_str::<Value>(&row.payload).is_ok_and(|data| data == event.data)
        })
    }

    async fn insert_event(
        &self,
        event: &Event,
        answer: Option<&UrlAnswer>,
    ) -> Result<(), StoreError> {
        let now = Utc::now();
        let payload = event.data.to_string();
        let is_step = i64::from(event.kind == EventType::Step);
        let finish = (event.kind == EventType::Complete).then(|| final_fields(&event.data));
        let Some(epoch) = self.epoch_of(&event.session_id) else {
            return Err(StoreError::NotOwner(event.session_id.clone()));
        };
        if let (Pool::Postgres(_), None, None) = (&self.pool, &finish, answer) {
            // The hot path on PostgreSQL: one statement (atomic by itself) instead of
            // BEGIN/UPDATE/INSERT/COMMIT, so each event costs one round trip, not four.
            // SQLite has no data-modifying CTEs; it is in-process, so round trips are cheap.
            // (Compiled for both backends by `with_conn!`; only PostgreSQL gets here.)
            let inserted = with_conn!(self, conn => sqlx::query(
                concat!("WITH s AS (UPDATE sessions SET event_count = event_count + 1, \
                 step_count = step_count + $5, updated_at = $6 \
                 WHERE id = $1 AND owner = $7 AND epoch = $8 AND ", status_is!("running"), " \
                 RETURNING id) \
                 INSERT INTO events (session_id, seq, type, payload, created_at) \
                 SELECT id, $2, $3, $4, $6 FROM s"),
            )
            .bind(&event.session_id)
            .bind(to_i64(event.seq))
            .bind(event.kind.as_str())
            .bind(&payload)
            .bind(is_step)
            .bind(now)
            .bind(&*self.instance)
            .bind(epoch)
            .execute(&mut *conn)
            .await
            .map(|done| done.rows_affected()))?;
            return if inserted == 1 {
                Ok(())
            } else {
                self.release(&event.session_id);
                Err(StoreError::NotOwner(event.session_id.clone()))
            };
        }
        let updated = with_conn!(self, conn => {
            let mut tx = conn.begin().await?;
            // The session row first: it is the write lock SQLite takes anyway, and a missing
            // session is found before the event is inserted.
            let updated = match &finish {
                None => sqlx::query(
                    concat!("UPDATE sessions SET event_count = event_count + 1, \
                     step_count = step_count + $2, updated_at = $3 \
                     WHERE id = $1 AND owner = $4 AND epoch = $5 AND ", status_is!("running")),
                )
                .bind(&event.session_id)
                .bind(is_step)
                .bind(now)
                .bind(&*self.instance)
                .bind(epoch)
                .execute(&mut *tx)
                .await?,
                Some((status, result, reward)) => sqlx::query(
                    concat!("UPDATE sessions SET event_count = event_count + 1, updated_at = $2, \
                     status = $3, result = $4, total_reward = $5, \
                     finished_at = COALESCE(finished_at, $2) \
                     WHERE id = $1 AND owner = $6 AND epoch = $7 AND ", status_is!("running")),
                )
                .bind(&event.session_id)
                .bind(now)
                .bind(status)
                .bind(result)
                .bind(reward)
                .bind(&*self.instance)
                .bind(epoch)
                .execute(&mut *tx)
                .await?,
            }
            .rows_affected();
            if updated == 1 {
                sqlx::query(
                    "INSERT INTO events (session_id, seq, type, payload, created_at) \
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(&event.session_id)
                .bind(to_i64(event.seq))
                .bind(event.kind.as_str())
                .bind(&payload)
                .bind(now)
                .execute(&mut *tx)
                .await?;
                if let Some(answer) = answer {
                    sqlx::query(
                        "INSERT INTO url_answers (session_id, url_index, url, answer) \
                         VALUES ($1, $2, $3, $4)",
                    )
                    .bind(&event.session_id)
                    .bind(to_i64(answer.index as u64))
                    .bind(&answer.url)
                    .bind(answer.answer.to_string())
                    .execute(&mut *tx)
                    .await?;
                }
                // A run's end, or an answered URL: the webhook delivery that announces it (if
                // its request names one) is written with it, fenced by the same update.
                if finish.is_some() || answer.is_some() {
                    let request: String =
                        sqlx::query_scalar("SELECT request FROM sessions WHERE id = $1")
                            .bind(&event.session_id)
                            .fetch_one(&mut *tx)
                            .await?;
                    let request = serde_json::from_str(&request).unwrap_or(Value::Null);
                    enqueue_webhook!(tx, &request, event, answer, now);
                }
                // Delivered only after this returns: the commit is confirmed, or the
                // connection is closed and the event counts as not stored.
                tx.commit().await?;
            }
            Ok(updated)
        })?;
        if updated == 1 {
            if finish.is_some() {
                // Finished: the lease ends with the run.
                self.release(&event.session_id);
            }
            Ok(())
        } else {
            self.release(&event.session_id);
            Err(StoreError::NotOwner(event.session_id.clone()))
        }
    }

    /// The answers stored for a session's URLs, by URL (see [`Store::append_answered`]).
    ///
    /// # Errors
    /// When the database fails.
    pub async fn answers(&self, id: &str) -> Result<Map<String, Value>, StoreError> {
        let rows: Vec<(String, String)> = with_conn!(self, conn => {
            sqlx::query_as(ANSWERS_SQL)
                .bind(id)
                .fetch_all(&mut *conn)
                .await
        })?;
        Ok(answers_of(rows))
    }

    /// Keeps screenshot `n` of session `id`, a PNG of `url` (`browser.screenshot`).
    ///
    /// # Errors
    /// When the database fails (an unknown session among them).
    pub async fn save_screenshot(
        &self,
        id: &str,
        n: u32,
        url: &str,
        png: &[u8],
    ) -> Result<(), StoreError> {
        with_conn!(self, conn => {
            sqlx::query("INSERT INTO screenshots (session_id, n, url, png) VALUES ($1, $2, $3, $4)")
                .bind(id)
                .bind(i64::from(n))
                .bind(url)
                .bind(png)
                .execute(&mut *conn)
                .await
                .map(|_| ())
        })?;
        Ok(())
    }

    /// Screenshot `n` of session `id`, as PNG bytes.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when the session has no such screenshot.
    pub async fn screenshot(&self, id: &str, n: u32) -> Result<Vec<u8>, StoreError> {
        let png: Option<Vec<u8>> = with_pool!(self, pool => {
            sqlx::query_scalar("SELECT png FROM screenshots WHERE session_id = $1 AND n = $2")
                .bind(id)
                .bind(i64::from(n))
                .fetch_optional(pool)
                .await?
        });
        png.ok_or_else(|| StoreError::NotFound(format!("{id}/screenshots/{n}")))
    }

    /// Events of a session with `seq > after`, in order.
    ///
    /// # Errors
    /// When the session is unknown or the database fails.
    pub async fn events_after(&self, id: &str, after: u64) -> Result<Vec<Event>, StoreError> {
        self.events_page(id, after, u32::MAX).await
    }

    /// At most `limit` events of a session with `seq > after`, in order: one page of a replay.
    ///
    /// # Errors
    /// When the session is unknown or the database fails.
    pub async fn events_page(
        &self,
        id: &str,
        after: u64,
        limit: u32,
    ) -> Result<Vec<Event>, StoreError> {
        let rows: Vec<EventRow> = with_pool!(self, pool => {
            sqlx::query_as(
                "SELECT seq, type, payload FROM events WHERE session_id = $1 AND seq > $2 \
                 ORDER BY seq LIMIT $3",
            )
            .bind(id)
            .bind(to_i64(after))
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await?
        });
        if rows.is_empty() {
            // Nothing new, or no such session: tell the two apart.
            self.exists(id).await?;
        }
        Ok(rows.into_iter().filter_map(|r| r.into_event(id)).collect())
    }

    async fn exists(&self, id: &str) -> Result<(), StoreError> {
        let found: Option<i64> = with_pool!(self, pool => {
            sqlx::query_scalar("SELECT n FROM sessions WHERE id = $1")
                .bind(id)
                .fetch_optional(pool)
                .await?
        });
        found
            .map(|_| ())
            .ok_or_else(|| StoreError::NotFound(id.into()))
    }

    /// One session.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when unknown.
    pub async fn session(&self, id: &str) -> Result<SessionRecord, StoreError> {
        let sql = concat!(
            "SELECT ",
            session_columns!(),
            " FROM sessions WHERE id = $1"
        );
        let row: Option<SessionRow> = with_pool!(self, pool => {
            sqlx::query_as(sql).bind(id).fetch_optional(pool).await?
        });
        row.map(|r| r.into_record(true))
            .ok_or_else(|| StoreError::NotFound(id.into()))
    }

    /// Sessions, newest first, one page at a time.
    ///
    /// # Errors
    /// A malformed cursor (reported as [`StoreError::NotFound`] of the cursor) or a database
    /// failure.
    pub async fn list_sessions(&self, filter: &SessionFilter) -> Result<SessionPage, StoreError> {
        let before = match filter.cursor.as_deref() {
            None | Some("") => i64::MAX,
            Some(text) => text
                .parse::<i64>()
                .map_err(|_| StoreError::NotFound(format!("cursor {text}")))?,
        };
        let limit = filter.limit.clamp(1, 1000);
        // Statuses are a closed set of names, so they are bound as one comma-joined value and
        // matched with a portable string test instead of a variable-length IN list.
        let statuses = filter
            .statuses
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(",");
        let sql = concat!(
            "SELECT ",
            session_columns!(),
            " FROM sessions WHERE n < $1 \
             AND ($2 = '' OR ',' || $2 || ',' LIKE '%,' || status || ',%') \
             ORDER BY n DESC LIMIT $3"
        );
        // One row more than asked tells whether there is a next page.
        let rows: Vec<SessionRow> = with_pool!(self, pool => {
            sqlx::query_as(sql)
                .bind(before)
                .bind(&statuses)
                .bind(i64::from(limit) + 1)
                .fetch_all(pool)
                .await?
        });
        let more = rows.len() > limit as usize;
        let rows: Vec<SessionRow> = rows.into_iter().take(limit as usize).collect();
        let next_cursor = more.then(|| rows.last().map(|r| r.n.to_string())).flatten();
        Ok(SessionPage {
            sessions: rows.into_iter().map(|r| r.into_record(false)).collect(),
            next_cursor,
        })
    }

    /// Records a cancel request for a running session; the instance running it notices.
    /// False when the session is not running.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn request_cancel(&self, id: &str) -> Result<bool, StoreError> {
        let updated = with_conn!(self, conn => {
            sqlx::query(
                concat!("UPDATE sessions SET cancel_requested = TRUE, updated_at = $2 \
                 WHERE id = $1 AND ", status_is!("running")),
            )
            .bind(id)
            .bind(Utc::now())
            .execute(&mut *conn)
            .await
            .map(|done| done.rows_affected())
        })?;
        Ok(updated > 0)
    }

    /// Whether a cancel was requested for a session.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when unknown.
    pub async fn cancel_requested(&self, id: &str) -> Result<bool, StoreError> {
        Ok(self.session(id).await?.cancel_requested)
    }

    /// Records that a subscriber (on any instance) follows a running session now.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn mark_watched(&self, id: &str) -> Result<(), StoreError> {
        with_conn!(self, conn => {
            sqlx::query(
                concat!("UPDATE sessions SET watched_at = $2 WHERE id = $1 AND ", status_is!("running")),
            )
            .bind(id)
            .bind(Utc::now())
            .execute(&mut *conn)
            .await
            .map(|_| ())
        })?;
        Ok(())
    }

    /// Whether a subscriber marked the session watched at or after `since`.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn watched_since(&self, id: &str, since: DateTime<Utc>) -> Result<bool, StoreError> {
        let found: Option<i64> = with_pool!(self, pool => {
            sqlx::query_scalar("SELECT n FROM sessions WHERE id = $1 AND watched_at >= $2")
                .bind(id)
                .bind(since)
                .fetch_optional(pool)
                .await?
        });
        Ok(found.is_some())
    }

    /// Running sessions owned by this process with a pending cancel request.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn cancel_requests(&self) -> Result<Vec<String>, StoreError> {
        Ok(with_pool!(self, pool => {
            sqlx::query_scalar(
                "SELECT id FROM sessions WHERE owner = $1 AND status = 'running' \
                 AND cancel_requested = TRUE",
            )
            .bind(&*self.instance)
            .fetch_all(pool)
            .await?
        }))
    }

    /// Tells other instances this process is alive: refreshes the heartbeat of the running
    /// sessions it owns among `live` (the runs it is executing now). A session whose run ended
    /// without storing its `complete` is not among them, so it goes stale and gets closed.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn heartbeat(&self, live: &[String]) -> Result<u64, StoreError> {
        if live.is_empty() {
            return Ok(0);
        }
        // Ids are `[A-Za-z0-9_-]`, so they are bound as one comma-joined value and matched with
        // a portable string test instead of a variable-length IN list; `_` is a LIKE wildcard,
        // so it is escaped (`job_1` must not match a live `jobA1`).
        let ids = live.join(",");
        Ok(with_conn!(self, conn => {
            sqlx::query(
                "UPDATE sessions SET heartbeat_at = $2 WHERE owner = $1 AND status = 'running' \
                 AND ',' || $3 || ',' LIKE '%,' || replace(id, '_', '\\_') || ',%' ESCAPE '\\'",
            )
            .bind(&*self.instance)
            .bind(Utc::now())
            .bind(&ids)
            .execute(&mut *conn)
            .await
            .map(|done| done.rows_affected())
        })?)
    }

    /// Closes sessions left `running` by a process that is gone: status `interrupted`, an
    /// `error` and a final `complete` event appended (with what the stored events tell), so
    /// replays still end. `stale_before: None` closes every running session not owned by this
    /// process (a SQLite file at start); otherwise only those whose owner's heartbeat is older.
    /// Returns the ids closed.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn interrupt_running(
        &self,
        stale_before: Option<DateTime<Utc>>,
    ) -> Result<Vec<String>, StoreError> {
        // Not `DateTime::MAX_UTC`: SQLite compares these as text, and a year past 9999 is
        // written with a sign that sorts before every real date.
        let far_future = Utc::now() + chrono::Duration::days(365 * 100);
        let cutoff = stale_before.unwrap_or(far_future);
        let candidates: Vec<String> = with_pool!(self, pool => {
            sqlx::query_scalar(
                "SELECT id FROM sessions WHERE status = 'running' \
                 AND (owner IS NULL OR owner <> $1) \
                 AND (heartbeat_at IS NULL OR heartbeat_at < $2) ORDER BY n",
            )
            .bind(&*self.instance)
            .bind(cutoff)
            .fetch_all(pool)
            .await?
        });
        let mut closed = Vec::new();
        for id in candidates {
            if self.interrupt_one(&id, cutoff).await? {
                closed.push(id);
            }
        }
        Ok(closed)
    }

    /// Closes a session this instance owns whose run ended without storing its `complete`
    /// (the store failed meanwhile): an `error` and a `complete` rebuilt from what was stored,
    /// as after a crash. False when it is not running under this instance any more.
    ///
    /// # Errors
    /// When the database fails (still): the next start, or another instance, resumes it.
    pub async fn close_unfinished(&self, id: &str) -> Result<bool, StoreError> {
        let far_future = Utc::now() + chrono::Duration::days(365 * 100);
        self.interrupt_one(id, far_future).await
    }

    /// Closes one session, unless another instance closed it (or its owner came back) first.
    async fn interrupt_one(&self, id: &str, cutoff: DateTime<Utc>) -> Result<bool, StoreError> {
        self.close_one(id, Fence::Stale(cutoff), &Closing::interrupted())
            .await
    }

    /// Closes one running session as `closing` says, if `fence` still holds.
    async fn close_one(
        &self,
        id: &str,
        fence: Fence,
        closing: &Closing,
    ) -> Result<bool, StoreError> {
        let now = Utc::now();
        let events_sql = "SELECT seq, type, payload FROM events WHERE session_id = $1 ORDER BY seq";
        let status = closing.status.as_str();
        let closed = with_conn!(self, conn => {
            let mut tx = conn.begin().await?;
            // Claim it first: the conditional update is the lock, so two instances sweeping at
            // once cannot both append a `complete`.
            let claimed = match fence {
                Fence::Stale(cutoff) => sqlx::query(
                    concat!("UPDATE sessions SET status = $4, updated_at = $2, epoch = epoch + 1, \
                     lease_until = NULL WHERE id = $1 AND ", status_is!("running"), " \
                     AND (heartbeat_at IS NULL OR heartbeat_at < $3)"),
                )
                .bind(id)
                .bind(now)
                .bind(cutoff)
                .bind(status),
                Fence::Held(epoch) => sqlx::query(
                    concat!("UPDATE sessions SET status = $4, updated_at = $2, epoch = epoch + 1, \
                     lease_until = NULL WHERE id = $1 AND ", status_is!("running"), " \
                     AND epoch = $3 AND owner = $5"),
                )
                .bind(id)
                .bind(now)
                .bind(epoch)
                .bind(status)
                .bind(&*self.instance),
            }
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if claimed == 0 {
                tx.rollback().await?;
                return Ok(false);
            }
            let (request, created_at): (String, DateTime<Utc>) =
                sqlx::query_as("SELECT request, created_at FROM sessions WHERE id = $1")
                    .bind(id)
                    .fetch_one(&mut *tx)
                    .await?;
            let rows: Vec<EventRow> = sqlx::query_as(events_sql)
                .bind(id)
                .fetch_all(&mut *tx)
                .await?;
            // Numbered after the last committed row, whether or not it still parses: a seq
            // any client may have seen is never given to another event.
            let last_seq = rows
                .iter()
                .map(|r| u64::try_from(r.seq).unwrap_or(0))
                .max()
                .unwrap_or(0);
            let events: Vec<Event> = rows.into_iter().filter_map(|r| r.into_event(id)).collect();
            let request = serde_json::from_str(&request).unwrap_or(Value::Null);
            let answers: Vec<(String, String)> = sqlx::query_as(ANSWERS_SQL)
                .bind(id)
                .fetch_all(&mut *tx)
                .await?;
            let stored = answers_of(answers);
            let closing = recover::closing_events(
                id, &request, &events, &stored, last_seq, created_at, now, closing,
            );
            for event in &closing {
                sqlx::query(
                    "INSERT INTO events (session_id, seq, type, payload, created_at) \
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(id)
                .bind(to_i64(event.seq))
                .bind(event.kind.as_str())
                .bind(event.data.to_string())
                .bind(now)
                .execute(&mut *tx)
                .await?;
            }
            if let Some(last) = closing.last() {
                enqueue_webhook!(tx, &request, last, None, now);
            }
            let complete = closing.last().map(|e| e.data.clone()).unwrap_or(Value::Null);
            sqlx::query(
                "UPDATE sessions SET result = $2, total_reward = $3, finished_at = $4, \
                 event_count = event_count + $5 WHERE id = $1",
            )
            .bind(id)
            .bind(complete.to_string())
            .bind(complete["total_reward"].as_f64().unwrap_or(0.0))
            .bind(now)
            .bind(i64::try_from(closing.len()).unwrap_or(0))
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(true)
        })?;
        if !closed {
            return Ok(false);
        }
        // Its epoch moved on: whatever this process held of it is void.
        self.release(id);
        match fence {
            Fence::Stale(_) => {
                tracing::warn!(session_id = %id, "closed a session left running by a stopped server");
            }
            Fence::Held(_) => {
                tracing::warn!(session_id = %id, code = closing.error.code.as_str(), "closed a claimed session instead of resuming it");
            }
        }
        Ok(true)
    }

    /// Deletes finished sessions (and their events) created more than `days` days ago,
    /// `batch` sessions per transaction so no sweep holds SQLite's write lock for long (appends
    /// of live runs wait for it); `days = 0` keeps everything. Returns how many sessions went.
    ///
    /// # Errors
    /// When the database fails.
    pub async fn delete_older_than(&self, days: u32, batch: u32) -> Result<u64, StoreError> {
        if days == 0 {
            return Ok(0);
        }
        let cutoff = Utc::now() - chrono::Duration::days(i64::from(days));
        let batch = i64::from(batch.max(1));
        let mut total = 0;
        loop {
            let deleted = with_conn!(self, conn => {
                let mut tx = conn.begin().await?;
                let ids: Vec<String> = sqlx::query_scalar(
                    "SELECT id FROM sessions WHERE created_at < $1 \
                     AND status NOT IN ('running', 'queued') ORDER BY n LIMIT $2",
                )
                .bind(cutoff)
                .bind(batch)
                .fetch_all(&mut *tx)
                .await?;
                // Events explicitly rather than by cascade: SQLite enforces foreign keys only
                // when the pragma is on, and this must not depend on it. One id at a time, by
                // index: the batch is small.
                let mut deleted = 0;
                for id in &ids {
                    sqlx::query("DELETE FROM screenshots WHERE session_id = $1")
                        .bind(id)
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query("DELETE FROM webhook_outbox WHERE session_id = $1")
                        .bind(id)
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query("DELETE FROM url_answers WHERE session_id = $1")
                        .bind(id)
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query("DELETE FROM events WHERE session_id = $1")
                        .bind(id)
                        .execute(&mut *tx)
                        .await?;
                    deleted += sqlx::query("DELETE FROM sessions WHERE id = $1")
                        .bind(id)
                        .execute(&mut *tx)
                        .await?
                        .rows_affected();
                }
                tx.commit().await?;
                Ok(deleted)
            })?;
            total += deleted;
            if deleted < u64::try_from(batch).unwrap_or(u64::MAX) {
                return Ok(total);
            }
            // Let waiting writers in between two batches.
            tokio::task::yield_now().await;
        }
    }

    /// Moves a session's creation time (tests of retention, which cannot wait days).
    ///
    /// # Errors
    /// When the database fails.
    #[doc(hidden)]
    pub async fn backdate(&self, id: &str, created_at: DateTime<Utc>) -> Result<(), StoreError> {
        with_conn!(self, conn => {
            sqlx::query("UPDATE sessions SET created_at = $2 WHERE id = $1")
                .bind(id)
                .bind(created_at)
                .execute(&mut *conn)
                .await
                .map(|_| ())
        })?;
        Ok(())
    }
}

/// Creates the directory of a SQLite file so a fresh checkout runs with no setup.
fn create_parent_dir(file: &Path) -> Result<(), StoreError> {
    match file.parent() {
        Some(dir) if !dir.as_os_str().is_empty() && file.to_str() != Some(":memory:") => {
            std::fs::create_dir_all(dir).map_err(|err| {
                StoreError::Database(format!("cannot create {}: {err}", dir.display()))
            })
        }
        _ => Ok(()),
    }
}

/// Whether a SQLite URL names an in-memory database (no file, so nothing to create or lock).
fn is_in_memory(url: &str) -> bool {
    let rest = url.trim_start_matches("sqlite:").trim_start_matches("//");
    let (database, params) = rest.split_once('?').unwrap_or((rest, ""));
    database.is_empty() && params.is_empty()
        || database == ":memory:"
        || params.split('&').any(|param| param == "mode=memory")
}

/// The device and inode of a file: which file a path names now, or `None` when none.
fn file_identity(file: &Path) -> Option<(u64, u64)> {
    std::fs::metadata(file).ok().map(|m| (m.dev(), m.ino()))
}

/// Locks `<file>.lock` for this process (created when missing, never removed: removing a lock
/// file races with the next process taking it). The lock goes with the returned handle, and
/// with the process whatever way it ends.
fn lock_file(file: &Path) -> Result<File, StoreError> {
    let path = PathBuf::from(format!("{}.lock", file.display()));
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|err| StoreError::Database(format!("cannot open {}: {err}", path.display())))?;
    match lock.try_lock() {
        Ok(()) => Ok(lock),
        Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::Locked(path)),
        Err(std::fs::TryLockError::Error(err)) => Err(StoreError::Database(format!(
            "cannot lock {}: {err}",
            path.display()
        ))),
    }
}

/// The pool's second line behind [`with_conn!`]: a connection that comes back still inside a
/// transaction (its rollback failed, or the work holding it was dropped mid-way) is closed.
///
/// `settle`: SQLite's connection counts a dropped transaction's rollback only once its worker
/// thread ran it, so a ping (an in-process round trip) waits for that first. PostgreSQL's
/// counts it when it is queued, and a ping there would cost a network round trip per release.
async fn refuse_unfinished_transaction<C: Connection>(
    conn: &mut C,
    settle: bool,
) -> Result<bool, sqlx::Error> {
    if settle {
        conn.ping().await?;
    }
    Ok(!conn.is_in_transaction())
}

// After the macros they use (`with_conn!`).
mod frontier;
mod queue;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_memory_urls_are_told_from_files() {
        for url in [
            "sqlite::memory:",
            "sqlite://:memory:",
            "sqlite://?mode=memory",
            "sqlite:",
        ] {
            assert!(is_in_memory(url), "{url}");
        }
        for url in [
            "sqlite://data/a.db",
            "sqlite:a.db",
            "sqlite://a.db?mode=rwc",
        ] {
            assert!(!is_in_memory(url), "{url}");
        }
    }
}
