//! The event log of one run: one place assigns `seq` and `step_number`, stores the event, and
//! only then delivers it, so a subscriber never sees an event a replay would not have.
//!
//! "Stored" means committed: [`Store::append_event`] returns only once its commit is confirmed,
//! and a connection whose commit failed is closed rather than reused, so an event a client saw
//! is one a restart still has.
//!
//! An append that fails is retried; one that still fails (or that the store refuses because
//! this instance no longer owns the session) breaks the log: nothing more is stored or
//! delivered, and the run is stopped. Every send is awaited, so no event can race `complete`.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use serde_json::{Map, Value};
use tokio::sync::broadcast;

use super::control::{RunControl, StopReason};
use crate::events::{
    Event, EventPayload, RunTally, ScrapeStep, StepPayload, StepStatus, timestamp,
};
use crate::metrics::Metrics;
use crate::store::{Store, StoreError, UrlAnswer};

/// Waits before each retry of a failed append; the run stops after the last one fails.
const APPEND_RETRY_DELAYS: [Duration; 3] = [
    Duration::from_millis(50),
    Duration::from_millis(200),
    Duration::from_millis(800),
];

/// A step about to be emitted; the emitter fills in its number and time.
#[derive(Debug, Clone)]
pub struct NewStep {
    /// The action and its details.
    pub payload: StepPayload,
    /// URL worked on.
    pub url: Option<String>,
    /// Status.
    pub status: StepStatus,
    /// Human summary.
    pub message: String,
    /// Reward delta.
    pub reward: f64,
    /// Elapsed time.
    pub duration_ms: Option<u64>,
}

/// Why the event log stopped taking events.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum LogBroken {
    /// The store kept failing.
    #[error("the session store failed: {0}")]
    Store(String),
    /// Another instance took the session over (it found this one's heartbeat stale).
    #[error("this instance no longer owns the session")]
    NotOwner,
}

/// Emits the events of one session, in order.
#[derive(Debug)]
pub struct Emitter {
    session_id: String,
    store: Store,
    live: broadcast::Sender<Event>,
    control: Option<RunControl>,
    seq: u64,
    steps: u64,
    tally: RunTally,
    broken: Option<LogBroken>,
    metrics: Option<Arc<Metrics>>,
}

impl Emitter {
    /// An emitter for a fresh session.
    pub fn new(session_id: String, store: Store, live: broadcast::Sender<Event>) -> Self {
        Self {
            session_id,
            store,
            live,
            control: None,
            seq: 0,
            steps: 0,
            tally: RunTally::default(),
            broken: None,
            metrics: None,
        }
    }

    /// An emitter for a session taken over from another instance: numbering goes on after
    /// `stored` (the session's stored events, in order), and the tally starts from what they
    /// add up to, so `complete` counts the whole run.
    pub fn resumed(
        session_id: String,
        store: Store,
        live: broadcast::Sender<Event>,
        stored: &[Event],
    ) -> Self {
        let mut emitter = Self::new(session_id, store, live);
        for event in stored {
            // A stored row that no longer parses still took its seq.
            emitter.seq = emitter.seq.max(event.seq);
            match EventPayload::from_event(event) {
                Ok(payload) => {
                    if let EventPayload::Step(step) = &payload {
                        emitter.steps = emitter.steps.max(step.step_number);
                    }
                    emitter.tally.observe(&payload);
                }
                Err(err) => {
                    tracing::warn!(session_id = %emitter.session_id, seq = event.seq, %err, "a stored event does not parse");
                }
            }
        }
        emitter
    }

    /// Counts every stored event into `metrics`.
    #[must_use]
    pub fn measured(mut self, metrics: Arc<Metrics>) -> Self {
        self.metrics = Some(metrics);
        self
    }

    /// Stops `control` when the log breaks, so the run ends instead of working unseen.
    #[must_use]
    pub fn stopping(mut self, control: RunControl) -> Self {
        self.control = Some(control);
        self
    }

    /// The session id.
    pub fn session_id(&self) -> &str {
        &self.session_id
    }

    /// The store the session is kept in: besides its events, a run keeps its screenshots and
    /// its crawl's frontier there.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// What the events emitted so far add up to.
    pub fn tally(&self) -> &RunTally {
        &self.tally
    }

    /// Why the log stopped taking events, if it did.
    pub fn broken(&self) -> Option<&LogBroken> {
        self.broken.as_ref()
    }

    /// Stores then publishes one event; returns it as delivered.
    ///
    /// # Errors
    /// When the log is broken (now or before): the event was neither stored nor delivered.
    pub async fn emit(&mut self, payload: EventPayload) -> Result<Event, LogBroken> {
        self.emit_answered(payload, None).await
    }

    /// [`Emitter::emit`] with a URL's answer stored in the same fenced write as the event (its
    /// `url_complete`), so the answer survives the server.
    ///
    /// # Errors
    /// When the log is broken (now or before): neither the event nor the answer was stored.
    pub async fn emit_answered(
        &mut self,
        payload: EventPayload,
        answer: Option<&UrlAnswer>,
    ) -> Result<Event, LogBroken> {
        if let Some(broken) = &self.broken {
            return Err(broken.clone());
        }
        let event = Event {
            kind: payload.kind(),
            session_id: self.session_id.clone(),
            seq: self.seq + 1,
            data: payload.to_data(),
        };
        let started = std::time::Instant::now();
        if let Err(broken) = self.append(&event, answer).await {
            tracing::error!(session_id = %self.session_id, seq = event.seq, %broken, "the event log is broken; stopping the run");
            if let Some(control) = &self.control {
                control.stop(StopReason::StoreFailed);
            }
            self.broken = Some(broken.clone());
            return Err(broken);
        }
        self.seq = event.seq;
        self.tally.observe(&payload);
        if let Some(metrics) = &self.metrics {
            metrics.stored(&payload, started.elapsed());
        }
        // No receiver is fine: subscribers replay from the store when they attach.
        let _ = self.live.send(event.clone());
        Ok(event)
    }

    /// The answers stored for this session's URLs so far, by URL.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn stored_answers(&self) -> Result<Map<String, Value>, StoreError> {
        self.store.answers(&self.session_id).await
    }

    async fn append(&self, event: &Event, answer: Option<&UrlAnswer>) -> Result<(), LogBroken> {
        let mut delays = APPEND_RETRY_DELAYS.iter();
        loop {
            match self.store.append_answered(event, answer).await {
                Ok(()) => return Ok(()),
                Err(StoreError::NotOwner(_)) => return Err(LogBroken::NotOwner),
                Err(err) => match delays.next() {
                    Some(delay) => {
                        tracing::warn!(session_id = %self.session_id, seq = event.seq, %err, "append failed; retrying");
                        tokio::time::sleep(*delay).await;
                    }
                    None => return Err(LogBroken::Store(err.to_string())),
                },
            }
        }
    }

    /// Emits a `step`, numbering it.
    ///
    /// # Errors
    /// When the log is broken.
    pub async fn step(&mut self, step: NewStep) -> Result<ScrapeStep, LogBroken> {
        let scrape_step = ScrapeStep {
            step_number: self.steps + 1,
            payload: step.payload,
            url: step.url,
            status: step.status,
            message: step.message,
            reward: step.reward,
            duration_ms: step.duration_ms,
            timestamp: timestamp(Utc::now()),
        };
        self.emit(EventPayload::Step(scrape_step.clone())).await?;
        self.steps += 1;
        Ok(scrape_step)
    }
}
