//! The runs this server is executing, their supervisor, and their subscribers.
//!
//! A run is a task owned by the server, not by a connection. Every run is spawned on one task
//! tracker under one root cancellation token; its body runs under `catch_unwind`, and whatever
//! happens inside (a panic, a store failure, a timeout, shutdown) the supervisor makes sure an
//! `error` and a `complete` end its event log, the hub forgets it, and its subscribers' streams
//! end. Subscribers replay stored events after their `Last-Event-ID`, then follow live; a run
//! whose last subscriber left is cancelled `runs.orphan_grace_secs` after that last departure
//! unless it was started detached.

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use futures::{FutureExt, Stream};
use serde_json::{Map, Value};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, broadcast, oneshot, watch};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::control::{RunControl, StopReason};
use super::emitter::{Emitter, LogBroken};
use super::request::ValidRequest;
use super::session::{self, Resume, RunDeps};
use crate::events::{
    ErrorCode, ErrorData, Event, EventPayload, EventType, ResumeDetails, RunStatus,
};
use crate::metrics::Metrics;
use crate::store::{Claim, Closing, QueuedClaim, Store, StoreError};

/// Events buffered per run for slow subscribers; past it they re-read from the store.
const LIVE_BUFFER: usize = 1024;
/// How often a subscriber polls the store for a run on another instance when it cannot be woken
/// by the store's notifications (their listening connection could not be opened).
const POLL_INTERVAL: Duration = Duration::from_millis(200);
/// How often such a subscriber tells the store it is still there.
const WATCH_INTERVAL: Duration = Duration::from_secs(1);
/// First wait before closing a run whose end could not be stored is tried again; it doubles
/// up to [`CLOSE_RETRY_MAX`], so a store that comes back is noticed within seconds.
const CLOSE_RETRY_FIRST: Duration = Duration::from_millis(250);
/// Longest wait between two tries of closing such a run.
const CLOSE_RETRY_MAX: Duration = Duration::from_secs(5);
/// How often the queue claimer looks at the store's queue when nothing woke it: a run that
/// ended here, a run queued here, and (PostgreSQL) a run queued anywhere wake it at once; this
/// catches what those miss (room freed on another instance after its enqueue was announced).
pub const QUEUE_SWEEP: Duration = Duration::from_secs(5);

/// Timings of [`Hub::spawn_watcher`].
#[derive(Debug, Clone, Copy)]
pub struct WatchSettings {
    /// How often stored cancel requests are checked (bounds cross-instance cancel latency).
    pub cancel_poll: Duration,
    /// How often this instance refreshes the heartbeat of the sessions it runs.
    pub heartbeat: Duration,
    /// A running session whose heartbeat is older than this belongs to a dead instance.
    pub stale_after: Duration,
}

/// Limits and timings of a [`Hub`].
#[derive(Debug, Clone, Copy)]
pub struct HubSettings {
    /// Runs executing at once.
    pub max_runs: usize,
    /// How long a run nobody follows keeps going.
    pub orphan_grace: Duration,
    /// Wall-clock limit of one run.
    pub run_timeout: Duration,
    /// Events per page of a replay.
    pub replay_page: u32,
    /// Runs one API key may have executing at once (0: no limit of its own).
    pub max_runs_per_key: usize,
}

/// A run executing in this process.
#[derive(Debug)]
struct LiveRun {
    id: String,
    store: Store,
    metrics: Arc<Metrics>,
    control: RunControl,
    live: broadcast::Sender<Event>,
    /// Flips to true once, when the run has ended (its `complete` is stored, or cannot be).
    finished: watch::Sender<bool>,
    subscribers: AtomicUsize,
    /// Counts the times the last subscriber left: an orphan timer acts only if no subscriber
    /// came and went after it was armed, so the grace period counts from the last departure.
    departures: AtomicU64,
    detached: bool,
    orphan_grace: Duration,
}

impl LiveRun {
    /// Cancels the run `orphan_grace` after departure number `departure`, unless someone
    /// follows it by then (here or, through the store, on another instance).
    fn arm_orphan_timer(self: &Arc<Self>, departure: u64) {
        if self.detached || *self.finished.borrow() {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let run = self.clone();
        let mut finished = self.finished.subscribe();
        runtime.spawn(async move {
            loop {
                // A run that ends by itself ends its timer too: the timer holds the run (and
                // its live buffer) only while there is something to cancel.
                tokio::select! {
                    () = tokio::time::sleep(run.orphan_grace) => {}
                    () = run.control.stopped() => return,
                    _ = finished.wait_for(|ended| *ended) => return,
                }
                if run.subscribers.load(Ordering::SeqCst) > 0
                    || run.departures.load(Ordering::SeqCst) != departure
                {
                    return;
                }
                // Subscribers on other instances (sharing the store) count too: they mark
                // the session as watched while they follow it. The window spans a few marks,
                // so a slow poll is not taken for absence.
                let window = run.orphan_grace.max(WATCH_INTERVAL * 3);
                let since =
                    chrono::Utc::now() - chrono::Duration::from_std(window).unwrap_or_default();
                match run.store.watched_since(&run.id, since).await {
                    Ok(true) => continue,
                    Ok(false) => {}
                    Err(err) => {
                        tracing::warn!(session_id = %run.id, %err, "could not read remote subscribers");
                    }
                }
                tracing::info!(session_id = %run.id, "no subscriber for the grace period; cancelling the run");
                run.control.stop(StopReason::Abandoned);
                return;
            }
        });
    }
}

/// Why a run could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StartError {
    /// Too many runs at once.
    #[error("{0} runs are already executing; try again shortly")]
    Busy(usize),
    /// Too many runs at once for the API key the request came with.
    #[error("this API key already has {0} runs executing; try again shortly")]
    KeyBusy(usize),
    /// The session id is taken.
    #[error("session `{0}` already exists")]
    Duplicate(String),
    /// The server is shutting down and takes no new runs.
    #[error("the server is shutting down and takes no new runs")]
    ShuttingDown,
    /// The store failed.
    #[error(transparent)]
    Store(StoreError),
}

/// What became of a detached run handed to [`Hub::start_or_queue`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Admission {
    /// It runs here now.
    Started(String),
    /// Every slot was taken: it waits in the store until an instance with room claims it.
    Queued {
        /// Its session id.
        id: String,
        /// Its place in the queue, oldest first (1: the next to be claimed).
        position: u64,
    },
}

impl Admission {
    /// The run's session id.
    pub fn id(&self) -> &str {
        match self {
            Self::Started(id) | Self::Queued { id, .. } => id,
        }
    }
}

type RunMap = HashMap<String, Arc<LiveRun>>;

/// A run claimed from another instance: where it starts again, and its stored events (the
/// emitter numbers on after them).
#[derive(Debug)]
struct Takeover {
    resume: Resume,
    events: Vec<Event>,
}

/// Builds the dependencies of a resumed run from its stored request (the server's planners,
/// fetcher and browser); `Err` says why the request cannot run here any more.
pub type DepsFor = dyn Fn(&ValidRequest) -> Result<RunDeps, String> + Send + Sync;

/// All live runs, with their concurrency limit and supervisor.
#[derive(Debug, Clone)]
pub struct Hub {
    runs: Arc<Mutex<RunMap>>,
    store: Store,
    permits: Arc<Semaphore>,
    /// Per API key (its position in `auth.api_keys`), when keys have a limit of their own.
    key_permits: Arc<Mutex<HashMap<usize, Arc<Semaphore>>>>,
    settings: HubSettings,
    metrics: Arc<Metrics>,
    tracker: TaskTracker,
    root: CancellationToken,
    shutting_down: Arc<AtomicBool>,
    /// Wakes the queue claimer: a slot was freed or a run was queued here.
    queue_wake: Arc<Notify>,
}

/// Locks the run map; a panic elsewhere while it was held does not make it unusable (every
/// change to it is a single insert or remove).
fn lock(runs: &Mutex<RunMap>) -> MutexGuard<'_, RunMap> {
    runs.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Ends a run's presence in the hub whatever way its task ends (even by a panic the
/// supervisor did not catch): the hub forgets it, its subscribers are told it finished, and
/// its concurrency permit is returned.
struct RunGuard {
    runs: Arc<Mutex<RunMap>>,
    run: Arc<LiveRun>,
    /// The server's permit, until the run's work is over.
    permit: Option<OwnedSemaphorePermit>,
    /// The API key's own permit, when the key has a limit.
    key_permit: Option<OwnedSemaphorePermit>,
    /// Told when the server's permit is given back, so a queued run takes the slot.
    queue_wake: Arc<Notify>,
}

impl RunGuard {
    /// Gives the run's concurrency permits back while it stays in the hub: it does no more
    /// work, it only waits for the store to take its end.
    fn release_permits(&mut self) {
        self.key_permit = None;
        if self.permit.take().is_some() {
            self.queue_wake.notify_one();
        }
    }
}

impl Drop for RunGuard {
    fn drop(&mut self) {
        self.run.metrics.run_ended();
        lock(&self.runs).remove(&self.run.id);
        self.run.finished.send_replace(true);
        // Given back here rather than with the fields, so the slot is free before the queue
        // claimer is told (it would find no room otherwise).
        self.release_permits();
    }
}

impl Hub {
    /// A hub over `store`.
    pub fn new(store: Store, settings: HubSettings) -> Self {
        Self {
            runs: Arc::default(),
            store,
            permits: Arc::new(Semaphore::new(settings.max_runs)),
            key_permits: Arc::default(),
            settings,
            metrics: Arc::default(),
            tracker: TaskTracker::new(),
            root: CancellationToken::new(),
            shutting_down: Arc::default(),
            queue_wake: Arc::new(Notify::new()),
        }
    }

    /// Counts into `metrics` (by default the hub has figures of its own nobody reads).
    #[must_use]
    pub fn with_metrics(mut self, metrics: Arc<Metrics>) -> Self {
        self.metrics = metrics;
        self
    }

    /// The store behind the hub.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Whether the hub stopped taking runs because the server is shutting down.
    pub fn is_shutting_down(&self) -> bool {
        self.shutting_down.load(Ordering::SeqCst)
    }

    /// Runs executing in this process now.
    pub fn live_count(&self) -> usize {
        lock(&self.runs).len()
    }

    /// Starts a run; returns its session id once its session is stored.
    ///
    /// The session row is created inside the run's own task, so a caller that goes away
    /// while this is pending (a client disconnecting) can never leave a `running` row without
    /// a task: the run starts anyway and, nobody following it, is cancelled after the orphan
    /// grace period.
    ///
    /// # Errors
    /// Busy, shutting down, duplicate id, or a store failure.
    pub async fn start(
        &self,
        deps: RunDeps,
        request: ValidRequest,
        detached: bool,
    ) -> Result<String, StartError> {
        self.start_for(deps, request, detached, None).await
    }

    /// [`Hub::start`] for a request that came with API key number `key`, which counts against
    /// that key's own limit (`max_runs_per_key`) as well as the server's.
    ///
    /// # Errors
    /// As [`Hub::start`], and [`StartError::KeyBusy`].
    pub async fn start_for(
        &self,
        deps: RunDeps,
        request: ValidRequest,
        detached: bool,
        key: Option<usize>,
    ) -> Result<String, StartError> {
        if self.is_shutting_down() {
            return Err(StartError::ShuttingDown);
        }
        let per_key = self.settings.max_runs_per_key;
        let key_permit = match key {
            Some(key) if per_key > 0 => {
                let semaphore = self
                    .key_permits
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .entry(key)
                    .or_insert_with(|| Arc::new(Semaphore::new(per_key)))
                    .clone();
                Some(
                    semaphore
                        .try_acquire_owned()
                        .map_err(|_| StartError::KeyBusy(per_key))?,
                )
            }
            _ => None,
        };
        let permit = self
            .permits
            .clone()
            .try_acquire_owned()
            .map_err(|_| StartError::Busy(self.settings.max_runs))?;
        let id = request.session_id.clone();
        let (created_tx, created_rx) = oneshot::channel();
        let hub = self.clone();
        self.tracker.spawn(async move {
            let request_json = serde_json::to_value(&request).unwrap_or(Value::Null);
            let created = hub
                .store
                .create_session(&request.session_id, &request_json, detached)
                .await;
            if let Err(err) = created {
                let _ = created_tx.send(Err(err));
                return;
            }
            let run = hub.register(&request.session_id, detached);
            hub.metrics.run_started();
            let mut guard = RunGuard {
                runs: hub.runs.clone(),
                run: run.clone(),
                permit: Some(permit),
                key_permit,
                queue_wake: hub.queue_wake.clone(),
            };
            // The caller may be gone; the run goes on either way.
            let _ = created_tx.send(Ok(()));
            if hub.supervise(&run, deps, request, None).await {
                // Its subscribers stay attached meanwhile, and get the closing events.
                guard.release_permits();
                hub.close_unfinished(&run.id).await;
            }
            drop(guard);
        });
        match created_rx.await {
            Ok(Ok(())) => Ok(id),
            Ok(Err(StoreError::Duplicate(id))) => Err(StartError::Duplicate(id)),
            Ok(Err(err)) => Err(StartError::Store(err)),
            // The task ended before answering: it panicked while creating the session.
            Err(_) => Err(StartError::Store(StoreError::Database(
                "the run could not be created".into(),
            ))),
        }
    }

    fn register(&self, id: &str, detached: bool) -> Arc<LiveRun> {
        let (live, _) = broadcast::channel(LIVE_BUFFER);
        let run = Arc::new(LiveRun {
            id: id.to_owned(),
            store: self.store.clone(),
            control: RunControl::child_of(&self.root),
            live,
            metrics: self.metrics.clone(),
            finished: watch::Sender::new(false),
            subscribers: AtomicUsize::new(0),
            departures: AtomicU64::new(0),
            detached,
            orphan_grace: self.settings.orphan_grace,
        });
        lock(&self.runs).insert(id.to_owned(), run.clone());
        // Counted as a departure that never had an arrival: a run whose caller vanished
        // before subscribing ends after the grace period like any abandoned run.
        run.arm_orphan_timer(0);
        run
    }

    /// Runs the session's body and makes sure its log ends with `complete`. True when it could
    /// not: the store failed under it, and the run is left for [`Hub::close_unfinished`].
    /// `takeover`: the run was claimed from another instance and goes on where it stopped.
    async fn supervise(
        &self,
        run: &Arc<LiveRun>,
        deps: RunDeps,
        request: ValidRequest,
        takeover: Option<Takeover>,
    ) -> bool {
        let started = Instant::now();
        let control = run.control.clone();
        let session_id = run.id.clone();
        let (emitter, resume) = match takeover {
            None => (
                Emitter::new(session_id.clone(), self.store.clone(), run.live.clone()),
                None,
            ),
            Some(takeover) => (
                Emitter::resumed(
                    session_id.clone(),
                    self.store.clone(),
                    run.live.clone(),
                    &takeover.events,
                ),
                Some(takeover.resume),
            ),
        };
        let mut emitter = emitter
            .measured(self.metrics.clone())
            .stopping(control.clone());
        let timer = {
            let control = control.clone();
            let timeout = self.settings.run_timeout;
            tokio::spawn(async move {
                tokio::time::sleep(timeout).await;
                control.stop(StopReason::Timeout);
            })
        };
        let body = session::run(deps, request.clone(), control.clone(), &mut emitter, resume);
        let outcome = AssertUnwindSafe(body).catch_unwind().await;
        timer.abort();
        match outcome {
            Ok(complete) => {
                tracing::info!(%session_id, status = complete.status.as_str(), steps = complete.total_steps, "run finished");
            }
            Err(panic) => {
                tracing::error!(%session_id, panic = panic_message(panic.as_ref()), "a run panicked; ending it with an internal error");
                control.stop(StopReason::Internal);
                // The emitter only advances after an event is stored, so it is consistent.
                end_after_panic(&mut emitter, &request, started).await;
            }
        }
        matches!(emitter.broken(), Some(LogBroken::Store(_)))
    }

    /// A run whose `complete` could not be stored: closed as after a crash (a typed error,
    /// then `complete` numbered after what was committed) as soon as the store answers again,
    /// tried with a growing wait until it works, the store is closed, or the server shuts
    /// down (then the next start, or another instance, resumes it).
    async fn close_unfinished(&self, session_id: &str) {
        let mut wait = CLOSE_RETRY_FIRST;
        loop {
            match self.store.close_unfinished(session_id).await {
                Ok(true) => {
                    tracing::warn!(%session_id, "closed a run whose end could not be stored");
                    return;
                }
                Ok(false) => return,
                Err(err) if self.store.is_closed() || self.root.is_cancelled() => {
                    tracing::error!(%session_id, %err, "a run's end could not be stored; the next start resumes it");
                    return;
                }
                Err(err) => {
                    tracing::warn!(%session_id, %err, retry_in = ?wait, "a run's end could not be stored yet");
                }
            }
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                () = self.root.cancelled() => {}
            }
            wait = (wait * 2).min(CLOSE_RETRY_MAX);
        }
    }

    /// Cancels a running session wherever it runs: the request is stored (so the instance
    /// running it notices within [`WatchSettings::cancel_poll`]) and, when the run is live in
    /// this process, it is stopped at once. False when the session is not running.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn cancel(&self, id: &str) -> Result<bool, StoreError> {
        // A run still waiting in the queue is closed at once: nobody runs it yet.
        if self.store.cancel_queued(id).await? {
            tracing::info!(session_id = %id, "cancelled a queued run");
            // The claimer notes the queue's new depth.
            self.queue_wake.notify_one();
            return Ok(true);
        }
        let requested = self.store.request_cancel(id).await?;
        let local = self.stop_local(id, StopReason::Cancelled);
        Ok(requested || local)
    }

    /// Stops a run executing here. False when it is not live in this process.
    fn stop_local(&self, id: &str, reason: StopReason) -> bool {
        match lock(&self.runs).get(id) {
            Some(run) => {
                run.control.stop(reason);
                true
            }
            None => false,
        }
    }

    fn live_runs(&self) -> Vec<Arc<LiveRun>> {
        lock(&self.runs).values().cloned().collect()
    }

    /// Starts the background task that keeps this instance in step with the shared store:
    /// it stops local runs whose cancel was requested elsewhere, refreshes the heartbeat of
    /// the sessions it runs, and (on a shared database) closes sessions whose owner stopped
    /// beating. Ends when the hub shuts down.
    pub fn spawn_watcher(&self, watch: WatchSettings) -> tokio::task::JoinHandle<()> {
        let hub = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(watch.cancel_poll);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut last_beat = tokio::time::Instant::now();
            let mut last_renewed = last_beat;
            // A third of the lease: two renewals can fail before it runs out.
            let renew_every = watch.heartbeat.min(hub.store.lease() / 3);
            let mut last_sweep = tokio::time::Instant::now();
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    () = hub.root.cancelled() => return,
                }
                let live = hub.live_runs();
                // One query per tick, and none at all while nothing runs here.
                if !live.is_empty() {
                    match hub.store.cancel_requests().await {
                        Ok(ids) => {
                            for run in &live {
                                if ids.contains(&run.id) && !run.control.is_stopped() {
                                    tracing::info!(session_id = %run.id, "cancel requested through the store");
                                    run.control.stop(StopReason::Cancelled);
                                }
                            }
                        }
                        Err(_) if hub.store.is_closed() => return,
                        Err(err) => tracing::warn!(%err, "could not poll cancel requests"),
                    }
                }
                if last_beat.elapsed() >= renew_every {
                    let started = tokio::time::Instant::now();
                    last_beat = started;
                    let ids: Vec<String> = live.iter().map(|run| run.id.clone()).collect();
                    match hub.store.renew_leases(&ids).await {
                        Ok(lost) => {
                            // Every lease held was renewed from `started` on (or is lost).
                            last_renewed = started;
                            for run in live.iter().filter(|run| lost.contains(&run.id)) {
                                hub.lease_lost(run, "another claim or a close took it");
                            }
                        }
                        Err(_) if hub.store.is_closed() => return,
                        Err(err) => {
                            tracing::warn!(%err, "could not renew the leases of this instance's runs");
                            // Past the lease since the last renewal began, another instance may
                            // hold these runs: they stop writing now rather than race it.
                            if last_renewed.elapsed() >= hub.store.lease() {
                                hub.store.drop_leases(&ids);
                                for run in &live {
                                    hub.lease_lost(run, "it could not be renewed in time");
                                }
                            }
                        }
                    }
                }
                if hub.store.is_shared() && last_sweep.elapsed() >= watch.stale_after / 2 {
                    last_sweep = tokio::time::Instant::now();
                    let cutoff = chrono::Utc::now()
                        - chrono::Duration::from_std(watch.stale_after)
                            .unwrap_or(chrono::Duration::MAX);
                    match hub.store.interrupt_running(Some(cutoff)).await {
                        Ok(closed) if !closed.is_empty() => {
                            tracing::warn!(
                                count = closed.len(),
                                "closed sessions of a stopped instance"
                            );
                        }
                        Ok(_) => {}
                        Err(_) if hub.store.is_closed() => return,
                        Err(err) => tracing::warn!(%err, "could not close stale sessions"),
                    }
                }
            }
        })
    }

    /// Starts the task that takes over the runs stopped instances left: every `every`, while
    /// this instance has room for runs, it claims them (see [`Hub::resume_left_runs`]). On
    /// PostgreSQL those are runs whose lease expired or was handed back; on SQLite, runs the
    /// previous server on the file left running, found at start, and claimed here as room
    /// frees. Ends when the hub shuts down.
    pub fn spawn_claimer(
        &self,
        every: Duration,
        max_attempts: u32,
        deps_for: Arc<DepsFor>,
    ) -> tokio::task::JoinHandle<()> {
        let hub = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    () = hub.root.cancelled() => return,
                }
                if hub.is_shutting_down() {
                    return;
                }
                hub.resume_left_runs(max_attempts, deps_for.as_ref()).await;
            }
        })
    }

    /// Claims as many runs left by a stopped instance as there is room for, and resumes each
    /// from its first URL without a stored answer; a run claimed more than `max_attempts` times
    /// is closed with `too_many_attempts` instead. The server calls it once at start, before it
    /// takes new runs or starts queued ones, so runs cut off by the last stop go first.
    pub async fn resume_left_runs(&self, max_attempts: u32, deps_for: &DepsFor) {
        if self.closing_down() {
            return;
        }
        let room = self.permits.available_permits();
        if room == 0 {
            return;
        }
        let busy: Vec<String> = self.live_runs().iter().map(|run| run.id.clone()).collect();
        match self.store.claim_expired(room, &busy).await {
            Ok(claims) => {
                for claim in claims {
                    self.take_over(claim, max_attempts, deps_for).await;
                }
            }
            Err(_) if self.closing_down() => {}
            Err(err) => tracing::warn!(%err, "could not claim runs left by a stopped instance"),
        }
    }

    /// Resumes a claimed run, or closes it when it cannot be resumed (too many attempts, a
    /// crawl, a request this server cannot run), or hands it back when there is no room after
    /// all.
    async fn take_over(&self, claim: Claim, max_attempts: u32, deps_for: &DepsFor) {
        let id = claim.id.clone();
        let closing = if claim.attempts > max_attempts {
            Err(Closing::too_many_attempts(claim.attempts, max_attempts))
        } else {
            match serde_json::from_value::<ValidRequest>(claim.request.clone()) {
                Err(err) => Err(Closing::not_resumable(&format!(
                    "its stored request does not read back ({err})"
                ))),
                // A crawl's frontier lives in the memory of the instance that ran it.
                Ok(request) if request.crawl.is_some() => {
                    Err(Closing::not_resumable("a crawl is not resumed"))
                }
                Ok(request) => deps_for(&request)
                    .map(|deps| (request, deps))
                    .map_err(|why| Closing::not_resumable(&why)),
            }
        };
        let (request, deps) = match closing {
            Ok(ready) => ready,
            Err(closing) => {
                match self.store.close_claimed(&id, &closing).await {
                    Ok(_) => {
                        tracing::warn!(session_id = %id, code = closing.error.code.as_str(), attempts = claim.attempts, "closed a run left by a stopped instance instead of resuming it")
                    }
                    Err(err) => {
                        tracing::warn!(session_id = %id, %err, "could not close a claimed run; its lease runs out and it is claimed again")
                    }
                }
                return;
            }
        };
        // Room was counted before claiming, but a run may have started since; and a run still
        // ending here (its own lease lost) keeps its place in the run map until it is gone.
        let permit = match self.permits.clone().try_acquire_owned() {
            Ok(permit) if !self.is_live(&id) && !self.is_shutting_down() => permit,
            _ => {
                if let Err(err) = self.store.hand_back(std::slice::from_ref(&id)).await {
                    tracing::warn!(session_id = %id, %err, "could not hand back a claimed run");
                }
                return;
            }
        };
        let answered = request
            .urls
            .iter()
            .filter(|url| claim.answers.contains_key(*url))
            .count();
        let details = ResumeDetails {
            instance: self.store.instance().to_owned(),
            previous_instance: claim.previous_owner,
            reason: claim.reason,
            attempt: claim.attempts,
            epoch: claim.epoch,
            urls_answered: answered,
            urls_left: request.urls.len().saturating_sub(answered),
        };
        tracing::info!(session_id = %id, attempt = claim.attempts, reason = ?claim.reason, answered, "resuming a run left by a stopped instance");
        let takeover = Takeover {
            resume: Resume {
                answers: claim.answers,
                details,
                init_stored: claim.events.iter().any(|e| e.kind == EventType::Init),
                elapsed: (chrono::Utc::now() - claim.created_at)
                    .to_std()
                    .unwrap_or_default(),
            },
            events: claim.events,
        };
        self.metrics.run_resumed();
        self.run_claimed(id, claim.detached, permit, deps, request, Some(takeover));
    }

    /// Runs a session this process claimed (from the queue, or from another instance when
    /// `takeover` says where it stopped) in the slot of `permit`.
    fn run_claimed(
        &self,
        id: String,
        detached: bool,
        permit: OwnedSemaphorePermit,
        deps: RunDeps,
        request: ValidRequest,
        takeover: Option<Takeover>,
    ) {
        // Registered before the task starts: a follower who finds the session claimed finds
        // its run live here too.
        let run = self.register(&id, detached);
        self.metrics.run_started();
        let mut guard = RunGuard {
            runs: self.runs.clone(),
            run: run.clone(),
            permit: Some(permit),
            key_permit: None,
            queue_wake: self.queue_wake.clone(),
        };
        let hub = self.clone();
        self.tracker.spawn(async move {
            if hub.supervise(&run, deps, request, takeover).await {
                guard.release_permits();
                hub.close_unfinished(&run.id).await;
            }
            drop(guard);
        });
    }

    /// [`Hub::start_for`] for a detached run, which waits in the store's queue instead of being
    /// refused when every slot of this instance is taken; an instance with room (this one as
    /// soon as a run of its own ends) claims it.
    ///
    /// # Errors
    /// As [`Hub::start_for`], except [`StartError::Busy`]; a failing store while queueing.
    pub async fn start_or_queue(
        &self,
        deps: RunDeps,
        request: ValidRequest,
        key: Option<usize>,
    ) -> Result<Admission, StartError> {
        match self.start_for(deps, request.clone(), true, key).await {
            Ok(id) => Ok(Admission::Started(id)),
            Err(StartError::Busy(_)) => self.enqueue(&request).await,
            Err(err) => Err(err),
        }
    }

    /// Stores `request` in the queue and wakes the claimer (a slot may have come free since).
    async fn enqueue(&self, request: &ValidRequest) -> Result<Admission, StartError> {
        let stored = serde_json::to_value(request).unwrap_or(Value::Null);
        let id = request.session_id.clone();
        let position = self
            .store
            .enqueue(&id, &stored, true)
            .await
            .map_err(|err| match err {
                StoreError::Duplicate(id) => StartError::Duplicate(id),
                other => StartError::Store(other),
            })?;
        tracing::info!(session_id = %id, position, "every slot is taken: the run is queued");
        self.metrics.run_queued();
        self.queue_wake.notify_one();
        Ok(Admission::Queued { id, position })
    }

    /// Starts the task that starts queued runs: whenever this instance has room, it claims
    /// queued runs (oldest first, as many as it has room for) and runs them. It looks when a
    /// slot here is freed, when a run is queued here, when another instance queues one
    /// (PostgreSQL `NOTIFY`), and every `sweep`. Ends when the hub shuts down.
    pub fn spawn_queue_claimer(
        &self,
        sweep: Duration,
        deps_for: Arc<DepsFor>,
    ) -> tokio::task::JoinHandle<()> {
        let hub = self.clone();
        tokio::spawn(async move {
            loop {
                if hub.is_shutting_down() {
                    return;
                }
                hub.claim_from_queue(deps_for.as_ref()).await;
                tokio::select! {
                    () = hub.queue_wake.notified() => {}
                    () = hub.store.queue_changed() => {}
                    () = tokio::time::sleep(sweep) => {}
                    () = hub.root.cancelled() => return,
                }
            }
        })
    }

    /// One look at the queue: claims as many queued runs as there is room for and starts
    /// them, then notes the queue's depth.
    async fn claim_from_queue(&self, deps_for: &DepsFor) {
        if self.store.is_closed() {
            return;
        }
        let room = self.permits.available_permits();
        if room > 0 {
            match self.store.claim_queued(room).await {
                Ok(claims) => {
                    for claim in claims {
                        self.start_queued(claim, deps_for).await;
                    }
                }
                Err(_) if self.closing_down() => return,
                Err(err) => tracing::warn!(%err, "could not claim queued runs"),
            }
        }
        match self.store.queue_depth().await {
            Ok(depth) => self.metrics.queue_depth(depth),
            Err(_) if self.closing_down() => {}
            Err(err) => tracing::warn!(%err, "could not read the queue's depth"),
        }
    }

    /// True once the store's pool closed or the hub was told to stop: a failed query then is
    /// the shutdown racing the claimer, not something to warn about.
    fn closing_down(&self) -> bool {
        self.store.is_closed() || self.root.is_cancelled() || self.is_shutting_down()
    }

    /// Starts a queued run this process claimed; puts it back in the queue when its slot went
    /// to another run meanwhile (or the server is shutting down), or closes it when it cannot
    /// run here.
    async fn start_queued(&self, claim: QueuedClaim, deps_for: &DepsFor) {
        let id = claim.id;
        let permit = match self.permits.clone().try_acquire_owned() {
            Ok(permit) if !self.is_shutting_down() => permit,
            _ => {
                match self.store.requeue(&id).await {
                    Ok(_) => {
                        tracing::info!(session_id = %id, "no room after all: the run waits in the queue again")
                    }
                    Err(err) => {
                        tracing::warn!(session_id = %id, %err, "could not put a claimed run back in the queue; it is resumed once its lease expires")
                    }
                }
                return;
            }
        };
        let ready = serde_json::from_value::<ValidRequest>(claim.request)
            .map_err(|err| format!("its stored request does not read back ({err})"))
            .and_then(|request| deps_for(&request).map(|deps| (request, deps)));
        let (request, deps) = match ready {
            Ok(ready) => ready,
            Err(why) => {
                match self
                    .store
                    .close_claimed(&id, &Closing::not_startable(&why))
                    .await
                {
                    Ok(_) => {
                        tracing::warn!(session_id = %id, why, "closed a queued run that cannot run here")
                    }
                    Err(err) => {
                        tracing::warn!(session_id = %id, %err, "could not close a queued run that cannot run here")
                    }
                }
                return;
            }
        };
        tracing::info!(session_id = %id, "starting a queued run");
        self.metrics.queue_claimed();
        self.run_claimed(id, claim.detached, permit, deps, request, None);
    }

    /// Graceful shutdown on a shared store: the leases of the runs executing here are handed
    /// back (another instance resumes them at once) and the runs stopped; nothing of theirs is
    /// written here any more, so their logs go on where another instance takes them.
    async fn hand_back_runs(&self) {
        let live = self.live_runs();
        if live.is_empty() {
            return;
        }
        let ids: Vec<String> = live.iter().map(|run| run.id.clone()).collect();
        match self.store.hand_back(&ids).await {
            Ok(count) => {
                tracing::info!(count, "handed the leases of this instance's runs back");
                self.metrics.handed_back(count);
            }
            Err(err) => {
                tracing::warn!(%err, "could not hand the leases back; other instances resume these runs when the leases run out");
            }
        }
        for run in &live {
            run.control.stop(StopReason::Shutdown);
        }
    }

    /// Stops a run whose lease this instance lost: it can write nothing more (the store refuses
    /// its writes), so it stops working at once instead of fetching pages nobody records.
    fn lease_lost(&self, run: &LiveRun, why: &str) {
        if run.control.is_stopped() {
            return;
        }
        tracing::warn!(session_id = %run.id, why, "lost the lease of a run; stopping it");
        self.metrics.lease_lost();
        run.control.stop(StopReason::StoreFailed);
    }

    /// Whether a run is executing in this process.
    pub fn is_live(&self, id: &str) -> bool {
        lock(&self.runs).contains_key(id)
    }

    /// Refuses new runs from now on (they get [`StartError::ShuttingDown`]).
    pub fn begin_shutdown(&self) {
        self.shutting_down.store(true, Ordering::SeqCst);
        self.tracker.close();
    }

    /// Shuts the hub down: refuses new runs, gives running ones `grace` to finish, then
    /// cancels the rest and gives them `drain` to store their `complete`. True when every run
    /// ended in time.
    ///
    /// On a shared store the runs are handed back at once instead (see [`Hub::hand_back_runs`]):
    /// another instance goes on with them, and waiting here would only delay that.
    pub async fn shutdown(&self, grace: Duration, drain: Duration) -> bool {
        self.begin_shutdown();
        if self.store.is_shared() {
            self.hand_back_runs().await;
        }
        if tokio::time::timeout(grace, self.tracker.wait())
            .await
            .is_ok()
        {
            self.root.cancel();
            return true;
        }
        tracing::info!(
            runs = self.live_count(),
            "grace period over: cancelling the runs still going"
        );
        self.root.cancel();
        let ended = tokio::time::timeout(drain, self.tracker.wait())
            .await
            .is_ok();
        if !ended {
            tracing::error!(
                runs = self.live_count(),
                "runs did not end after cancellation"
            );
        }
        ended
    }

    /// The events of a session after `after`: stored ones first (page by page), then live
    /// ones, ending with `complete` — or, when the run ended without storing one (its store
    /// failed), when the run is gone. No gap and no duplicate, whatever the timing.
    pub fn subscribe(&self, id: &str, after: u64) -> impl Stream<Item = Event> + Send + 'static {
        let runs = self.runs.clone();
        let run = lock(&runs).get(id).cloned();
        let store = self.store.clone();
        let page = self.settings.replay_page.max(1);
        let id = id.to_owned();
        // Attach (and subscribe to live events) before reading the store, so nothing emitted
        // between the read and the subscription is missed.
        let live = run.map(SubscriberGuard::follow);
        async_stream::stream! {
            let mut last = after;
            let mut live = live;
            let mut last_watch: Option<tokio::time::Instant> = None;
            // A run not live here may be running on another instance: its stored events wake
            // this subscriber (PostgreSQL `NOTIFY`). Taken before the first read of the store,
            // so nothing stored after that read goes unannounced.
            let mut stored = match live {
                None => store.watch_events(&id).await,
                Some(_) => None,
            };
            loop {
                // Whether the run had ended before this pass reads the store: only then does
                // the pass see its last event. (Read without marking it seen, so a run that
                // ends during the pass still wakes the live loop below.)
                let ended_before_pass = live
                    .as_ref()
                    .is_some_and(|(_, _, finished)| *finished.borrow());
                // Replay (or catch up) from the store, one page at a time.
                loop {
                    match store.events_page(&id, last, page).await {
                        Ok(events) => {
                            let full = events.len() >= page as usize;
                            for event in events {
                                last = event.seq;
                                let done = event.kind == EventType::Complete;
                                yield event;
                                if done {
                                    return;
                                }
                            }
                            if !full {
                                break;
                            }
                        }
                        Err(err) => {
                            tracing::warn!(session_id = %id, %err, "replay failed");
                            return;
                        }
                    }
                }
                if live.is_none()
                    && let Some(run) = lock(&runs).get(&id).cloned()
                {
                    // It started here since (claimed from the queue): followed live from now
                    // on, after one more read of the store.
                    live = Some(SubscriberGuard::follow(run));
                    continue;
                }
                let Some((_guard, receiver, finished)) = live.as_mut() else {
                    // Not live here: finished (its complete was replayed above), waiting in the
                    // queue, or running on another instance sharing the store.
                    match store.session(&id).await {
                        Ok(session) if session.status.is_final() => {
                            // A final status with no complete event replayed yet: one more read.
                            if let Ok(events) = store.events_page(&id, last, page).await {
                                for event in events {
                                    yield event;
                                }
                            }
                            return;
                        }
                        // Queued: claimed by this instance (found live above) or another one
                        // (then running) soon.
                        Ok(session) if session.status == RunStatus::Queued => {
                            tokio::time::sleep(POLL_INTERVAL).await;
                            continue;
                        }
                        // Running elsewhere (PostgreSQL), or, on either store, left by a
                        // stopped server and waiting to be resumed where there is room (on
                        // SQLite: here, by this server), or about to be live here (its row is
                        // stored a little before its run is registered). Followed through the
                        // store until it is live here or ends; the mark keeps a resumed run
                        // that was not detached from being cancelled as abandoned.
                        Ok(_) => {
                          loop {
                            // Tell the instance running it that someone still follows, so it
                            // does not cancel the run as abandoned. Once a second is plenty.
                            let first_mark = last_watch.is_none();
                            if last_watch.is_none_or(|at| at.elapsed() >= WATCH_INTERVAL) {
                                last_watch = Some(tokio::time::Instant::now());
                                if let Err(err) = store.mark_watched(&id).await {
                                    tracing::warn!(session_id = %id, %err, "could not mark the session watched");
                                }
                            }
                            // The store notifies only for runs marked watched: what was stored
                            // between the read above and the first mark is read once more.
                            if first_mark && stored.is_some() {
                                break;
                            }
                            let Some(watch) = stored.as_mut() else {
                                tokio::time::sleep(POLL_INTERVAL).await;
                                break;
                            };
                            // Woken by the next stored event; in between, only the mark above.
                            let next_mark = WATCH_INTERVAL
                                .saturating_sub(last_watch.map_or(Duration::ZERO, |at| at.elapsed()));
                            tokio::select! {
                                woke = watch.stored_after(last) => {
                                    if woke {
                                        break;
                                    }
                                    // The store was closed: nothing will come any more.
                                    return;
                                }
                                () = tokio::time::sleep(next_mark) => {}
                            }
                          }
                          continue;
                        }
                        Err(_) => return,
                    }
                };
                // The run had ended before the pass above, so the pass read all it stored:
                // nothing more will come (its `complete` was in the store, or could not be
                // stored). A run that ended during the pass is caught by `changed()` below.
                if ended_before_pass {
                    return;
                }
                loop {
                    tokio::select! {
                        received = receiver.recv() => match received {
                            Ok(event) if event.seq <= last => {}
                            Ok(event) => {
                                last = event.seq;
                                let done = event.kind == EventType::Complete;
                                yield event;
                                if done {
                                    return;
                                }
                            }
                            // Fell behind the live buffer: catch up from the store.
                            Err(broadcast::error::RecvError::Lagged(_)) => break,
                            Err(broadcast::error::RecvError::Closed) => break,
                        },
                        // The run ended: catch up from the store once more, then stop.
                        _ = finished.changed() => break,
                    }
                }
            }
        }
    }
}

/// Ends the log of a run whose body panicked: an `internal` error, then `complete` with
/// status `failed` and what the stored events add up to. The answers gathered in memory went
/// with the body, so every URL maps to `null`.
async fn end_after_panic(emitter: &mut Emitter, request: &ValidRequest, started: Instant) {
    let error = ErrorData {
        code: ErrorCode::Internal,
        message: "the run stopped on an internal error; it has been logged".into(),
        url: None,
        retryable: false,
    };
    let _ = emitter.emit(EventPayload::Error(error)).await;
    let answers: Map<String, Value> = request
        .urls
        .iter()
        .map(|url| (url.clone(), Value::Null))
        .collect();
    let complete = session::complete_data(emitter, request, RunStatus::Failed, answers, started);
    let _ = emitter
        .emit(EventPayload::Complete(Box::new(complete)))
        .await;
}

/// The text of a panic's payload, for the log.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)")
}

/// Counts a subscriber while it lives; the last one leaving arms the orphan timer.
#[derive(Debug)]
struct SubscriberGuard {
    run: Arc<LiveRun>,
}

/// A subscriber's hold on a live run: its guard, its live events and its end.
type Following = (
    SubscriberGuard,
    broadcast::Receiver<Event>,
    watch::Receiver<bool>,
);

impl SubscriberGuard {
    fn attach(run: Arc<LiveRun>) -> Self {
        run.subscribers.fetch_add(1, Ordering::SeqCst);
        run.metrics.subscriber(1);
        Self { run }
    }

    /// Follows `run`: subscribed to its live events before anything is read from the store,
    /// so nothing emitted in between is missed.
    fn follow(run: Arc<LiveRun>) -> Following {
        let receiver = run.live.subscribe();
        let finished = run.finished.subscribe();
        (Self::attach(run), receiver, finished)
    }
}

impl Drop for SubscriberGuard {
    fn drop(&mut self) {
        self.run.metrics.subscriber(-1);
        let left = self.run.subscribers.fetch_sub(1, Ordering::SeqCst) - 1;
        if left > 0 || self.run.control.is_stopped() || *self.run.finished.borrow() {
            return;
        }
        let departure = self.run.departures.fetch_add(1, Ordering::SeqCst) + 1;
        self.run.arm_orphan_timer(departure);
    }
}
