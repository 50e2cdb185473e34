//! Event sequencing: one place assigns `seq` and `step_number`, stores the event, then fans
//! it out. Every send is awaited, so no event can race the final `complete`.

use chrono::Utc;
use serde_json::Value;
use tokio::sync::broadcast;

use crate::events::{Event, EventType, ScrapeStep, StepStatus, timestamp};
use crate::store::Store;

/// A step about to be emitted; the emitter fills in its number and time.
#[derive(Debug, Clone)]
pub struct NewStep {
    /// Logical action.
    pub action: &'static str,
    /// URL worked on.
    pub url: Option<String>,
    /// Status.
    pub status: StepStatus,
    /// Human summary.
    pub message: String,
    /// Reward delta.
    pub reward: f64,
    /// Structured details.
    pub extracted_data: Option<Value>,
    /// Elapsed time.
    pub duration_ms: Option<u64>,
}

/// Emits the events of one session, in order.
#[derive(Debug)]
pub struct Emitter {
    session_id: String,
    store: Store,
    live: broadcast::Sender<Event>,
    seq: u64,
    steps: u64,
    total_reward: f64,
}

impl Emitter {
    /// An emitter for a fresh session.
    pub fn new(session_id: String, store: Store, live: broadcast::Sender<Event>) -> Self {
        Self {
            session_id,
            store,
            live,
            seq: 0,
            steps: 0,
            total_reward: 0.0,
        }
    }

    /// The session id.
    pub fn session_id(&self) -> &str {
        &self.session_id
    }

    /// Steps emitted so far.
    pub fn total_steps(&self) -> u64 {
        self.steps
    }

    /// Sum of the rewards of every step emitted.
    pub fn total_reward(&self) -> f64 {
        self.total_reward
    }

    /// Stores then publishes one event. A store failure is logged and the event still goes
    /// to live subscribers: a client watching now should not hang because replay is broken.
    pub async fn emit(&mut self, kind: EventType, data: Value) -> Event {
        self.seq += 1;
        let event = Event {
            kind,
            session_id: self.session_id.clone(),
            seq: self.seq,
            data,
        };
        if let Err(err) = self.store.append_event(&event).await {
            tracing::error!(session_id = %self.session_id, seq = self.seq, %err, "could not store an event");
        }
        // No receiver is fine: subscribers replay from the store when they attach.
        let _ = self.live.send(event.clone());
        event
    }

    /// Emits a `step`, numbering it and adding its reward to the total.
    pub async fn step(&mut self, step: NewStep) -> ScrapeStep {
        self.steps += 1;
        self.total_reward += step.reward;
        let scrape_step = ScrapeStep {
            step_number: self.steps,
            action: step.action.to_owned(),
            url: step.url,
            status: step.status,
            message: step.message,
            reward: step.reward,
            extracted_data: step.extracted_data,
            duration_ms: step.duration_ms,
            timestamp: timestamp(Utc::now()),
        };
        let data = serde_json::to_value(&scrape_step).unwrap_or(Value::Null);
        self.emit(EventType::Step, data).await;
        scrape_step
    }
}
