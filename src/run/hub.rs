//! The runs this server is executing, and their subscribers.
//!
//! A run is a task owned by the server, not by a connection. Subscribers replay stored
//! events after their `Last-Event-ID`, then follow live; a run whose last subscriber left is
//! cancelled after `runs.orphan_grace_secs` unless it was started detached.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures::Stream;
use serde_json::Value;
use tokio::sync::{Mutex, OwnedSemaphorePermit, Semaphore, broadcast};

use super::control::{RunControl, StopReason};
use super::emitter::Emitter;
use super::request::ValidRequest;
use super::session::{self, RunDeps};
use crate::events::{Event, EventType};
use crate::store::{Store, StoreError};

/// Events buffered per run for slow subscribers; past it they re-read from the store.
const LIVE_BUFFER: usize = 1024;
/// How often a subscriber polls the store for a run it cannot follow live (one on another instance).
const POLL_INTERVAL: Duration = Duration::from_millis(200);
/// How often such a subscriber tells the store it is still there.
const WATCH_INTERVAL: Duration = Duration::from_secs(1);

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

/// A run executing in this process.
#[derive(Debug)]
struct LiveRun {
    id: String,
    store: Store,
    control: RunControl,
    live: broadcast::Sender<Event>,
    subscribers: AtomicUsize,
    detached: bool,
    orphan_grace: Duration,
}

/// Why a run could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StartError {
    /// Too many runs at once.
    #[error("{0} runs are already executing; try again shortly")]
    Busy(usize),
    /// The session id is taken.
    #[error("session `{0}` already exists")]
    Duplicate(String),
    /// The store failed.
    #[error(transparent)]
    Store(StoreError),
}

/// All live runs, with their concurrency limit.
#[derive(Debug, Clone)]
pub struct Hub {
    runs: Arc<Mutex<HashMap<String, Arc<LiveRun>>>>,
    store: Store,
    permits: Arc<Semaphore>,
    max_runs: usize,
    orphan_grace: Duration,
    run_timeout: Duration,
}

impl Hub {
    /// A hub over `store` allowing `max_runs` concurrent runs.
    pub fn new(
        store: Store,
        max_runs: usize,
        orphan_grace: Duration,
        run_timeout: Duration,
    ) -> Self {
        Self {
            runs: Arc::default(),
            store,
            permits: Arc::new(Semaphore::new(max_runs)),
            max_runs,
            orphan_grace,
            run_timeout,
        }
    }

    /// The store behind the hub.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Starts a run; returns its session id.
    ///
    /// # Errors
    /// Busy, duplicate id, or a store failure.
    pub async fn start(
        &self,
        deps: RunDeps,
        request: ValidRequest,
        detached: bool,
    ) -> Result<String, StartError> {
        let permit: OwnedSemaphorePermit = self
            .permits
            .clone()
            .try_acquire_owned()
            .map_err(|_| StartError::Busy(self.max_runs))?;
        let id = request.session_id.clone();
        let request_json = serde_json::to_value(&request).unwrap_or(Value::Null);
        self.store
            .create_session(&id, &request_json, detached)
            .await
            .map_err(|e| match e {
                StoreError::Duplicate(id) => StartError::Duplicate(id),
                other => StartError::Store(other),
            })?;
        let (live, _) = broadcast::channel(LIVE_BUFFER);
        let run = Arc::new(LiveRun {
            id: id.clone(),
            store: self.store.clone(),
            control: RunControl::new(),
            live: live.clone(),
            subscribers: AtomicUsize::new(0),
            detached,
            orphan_grace: self.orphan_grace,
        });
        self.runs.lock().await.insert(id.clone(), run.clone());
        let hub = self.clone();
        let run_timeout = self.run_timeout;
        let session_id = id.clone();
        tokio::spawn(async move {
            let control = run.control.clone();
            let timer = {
                let control = control.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(run_timeout).await;
                    control.stop(StopReason::Timeout);
                })
            };
            let mut emitter = Emitter::new(session_id.clone(), hub.store.clone(), live);
            let complete = session::run(deps, request, control, &mut emitter).await;
            timer.abort();
            let result = serde_json::to_value(&complete).unwrap_or(Value::Null);
            if let Err(err) = hub
                .store
                .finish_session(&session_id, complete.status, &result, complete.total_reward)
                .await
            {
                tracing::error!(%session_id, %err, "could not store the end of a run");
            }
            hub.runs.lock().await.remove(&session_id);
            drop(permit);
            tracing::info!(%session_id, status = complete.status.as_str(), steps = complete.total_steps, "run finished");
        });
        Ok(id)
    }

    /// Cancels a running session wherever it runs: the request is stored (so the instance
    /// running it notices within [`WatchSettings::cancel_poll`]) and, when the run is live in
    /// this process, it is stopped at once. False when the session is not running.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn cancel(&self, id: &str) -> Result<bool, StoreError> {
        let requested = self.store.request_cancel(id).await?;
        let local = self.stop_local(id, StopReason::Cancelled).await;
        Ok(requested || local)
    }

    /// Stops a run executing here. False when it is not live in this process.
    async fn stop_local(&self, id: &str, reason: StopReason) -> bool {
        match self.runs.lock().await.get(id) {
            Some(run) => {
                run.control.stop(reason);
                true
            }
            None => false,
        }
    }

    /// Starts the background task that keeps this instance in step with the shared store:
    /// it stops local runs whose cancel was requested elsewhere, refreshes the heartbeat of
    /// the sessions it owns, and (on a shared database) closes sessions whose owner stopped
    /// beating. Ends when the hub's last clone is gone.
    pub fn spawn_watcher(&self, watch: WatchSettings) -> tokio::task::JoinHandle<()> {
        let runs = Arc::downgrade(&self.runs);
        let store = self.store.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(watch.cancel_poll);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut last_beat = tokio::time::Instant::now();
            let mut last_sweep = tokio::time::Instant::now();
            loop {
                tick.tick().await;
                let Some(runs) = runs.upgrade() else { return };
                let live: Vec<(String, Arc<LiveRun>)> = runs
                    .lock()
                    .await
                    .iter()
                    .map(|(id, run)| (id.clone(), run.clone()))
                    .collect();
                drop(runs);
                // One query per tick, and none at all while nothing runs here.
                if !live.is_empty() {
                    match store.cancel_requests().await {
                        Ok(ids) => {
                            for (id, run) in &live {
                                if ids.contains(id) && !run.control.is_stopped() {
                                    tracing::info!(session_id = %id, "cancel requested through the store");
                                    run.control.stop(StopReason::Cancelled);
                                }
                            }
                        }
                        Err(err) => tracing::warn!(%err, "could not poll cancel requests"),
                    }
                }
                if last_beat.elapsed() >= watch.heartbeat {
                    last_beat = tokio::time::Instant::now();
                    if !live.is_empty()
                        && let Err(err) = store.heartbeat().await
                    {
                        tracing::warn!(%err, "could not refresh the heartbeat");
                    }
                }
                if store.is_shared() && last_sweep.elapsed() >= watch.stale_after / 2 {
                    last_sweep = tokio::time::Instant::now();
                    let cutoff = chrono::Utc::now()
                        - chrono::Duration::from_std(watch.stale_after)
                            .unwrap_or(chrono::Duration::MAX);
                    match store.interrupt_running(Some(cutoff)).await {
                        Ok(closed) if !closed.is_empty() => {
                            tracing::warn!(
                                count = closed.len(),
                                "closed sessions of a stopped instance"
                            );
                        }
                        Ok(_) => {}
                        Err(err) => tracing::warn!(%err, "could not close stale sessions"),
                    }
                }
            }
        })
    }

    /// Whether a run is executing in this process.
    pub async fn is_live(&self, id: &str) -> bool {
        self.runs.lock().await.contains_key(id)
    }

    /// Stops every run after giving them `grace` to finish, and waits until all have ended.
    pub async fn shutdown(&self, grace: Duration) {
        let deadline = tokio::time::Instant::now() + grace;
        while !self.runs.lock().await.is_empty() && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        for run in self.runs.lock().await.values() {
            run.control.stop(StopReason::Shutdown);
        }
        while !self.runs.lock().await.is_empty() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The events of a session after `after`: stored ones first, then live ones, ending with
    /// `complete`. No gap and no duplicate, whatever the timing.
    pub async fn subscribe(
        &self,
        id: &str,
        after: u64,
    ) -> impl Stream<Item = Event> + Send + 'static {
        let run = self.runs.lock().await.get(id).cloned();
        let store = self.store.clone();
        let id = id.to_owned();
        // Attach (and subscribe to live events) before reading the store, so nothing emitted
        // between the read and the subscription is missed.
        let guard = run.as_ref().map(|r| SubscriberGuard::attach(r.clone()));
        let receiver = run.as_ref().map(|r| r.live.subscribe());
        async_stream::stream! {
            let _guard = guard;
            let mut last = after;
            let mut receiver = receiver;
            let mut last_watch: Option<tokio::time::Instant> = None;
            loop {
                // Replay (or catch up) from the store.
                match store.events_after(&id, last).await {
                    Ok(events) => {
                        for event in events {
                            last = event.seq;
                            let done = event.kind == EventType::Complete;
                            yield event;
                            if done {
                                return;
                            }
                        }
                    }
                    Err(err) => {
                        tracing::warn!(session_id = %id, %err, "replay failed");
                        return;
                    }
                }
                let Some(rx) = receiver.as_mut() else {
                    // Not live here: finished (its complete was replayed above) or running on
                    // another instance sharing the store. Poll until it completes.
                    match store.session(&id).await {
                        Ok(session) if session.status.is_final() => {
                            // A final status with no complete event replayed yet: one more read.
                            if let Ok(events) = store.events_after(&id, last).await {
                                for event in events {
                                    yield event;
                                }
                            }
                            return;
                        }
                        Ok(_) => {
                            // Tell the instance running it that someone still follows, so it
                            // does not cancel the run as abandoned. Once a second is plenty.
                            if last_watch.is_none_or(|at| at.elapsed() >= WATCH_INTERVAL) {
                                last_watch = Some(tokio::time::Instant::now());
                                if let Err(err) = store.mark_watched(&id).await {
                                    tracing::warn!(session_id = %id, %err, "could not mark the session watched");
                                }
                            }
                            tokio::time::sleep(POLL_INTERVAL).await;
                            continue;
                        }
                        Err(_) => return,
                    }
                };
                loop {
                    match rx.recv().await {
                        Ok(event) if event.seq <= last => {}
                        Ok(event) => {
                            last = event.seq;
                            let done = event.kind == EventType::Complete;
                            yield event;
                            if done {
                                return;
                            }
                        }
                        // Fell behind the live buffer, or the run ended: catch up from the store.
                        Err(broadcast::error::RecvError::Lagged(_)) => break,
                        Err(broadcast::error::RecvError::Closed) => {
                            receiver = None;
                            break;
                        }
                    }
                }
            }
        }
    }
}

/// Counts a subscriber while it lives; the last one leaving starts the orphan timer.
#[derive(Debug)]
struct SubscriberGuard {
    run: Arc<LiveRun>,
}

impl SubscriberGuard {
    fn attach(run: Arc<LiveRun>) -> Self {
        run.subscribers.fetch_add(1, Ordering::SeqCst);
        Self { run }
    }
}

impl Drop for SubscriberGuard {
    fn drop(&mut self) {
        let left = self.run.subscribers.fetch_sub(1, Ordering::SeqCst) - 1;
        if left > 0 || self.run.detached || self.run.control.is_stopped() {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let run = self.run.clone();
        runtime.spawn(async move {
            loop {
                tokio::time::sleep(run.orphan_grace).await;
                if run.subscribers.load(Ordering::SeqCst) > 0 || run.control.is_stopped() {
                    return;
                }
                // Subscribers on other instances (sharing the store) count too: they mark
                // the session as watched while they follow it.
                // The window spans a few marks, so a slow poll is not taken for absence.
                let window = run.orphan_grace.max(WATCH_INTERVAL * 3);
                let since =
                    chrono::Utc::now() - chrono::Duration::from_std(window).unwrap_or_default();
                match run.store.watched_since(&run.id, since).await {
                    Ok(true) => continue,
                    Ok(false) => {}
                    Err(err) => tracing::warn!(session_id = %run.id, %err, "could not read remote subscribers"),
                }
                tracing::info!(session_id = %run.id, "no subscriber for the grace period; cancelling the run");
                run.control.stop(StopReason::Abandoned);
                return;
            }
        });
    }
}
