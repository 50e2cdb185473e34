//! Sessions and their events.
//!
//! Every event is appended here before any subscriber sees it, so a replay after
//! `Last-Event-ID` is exact.

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use tokio::sync::RwLock;

use crate::events::{Event, RunStatus};

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
    /// The database failed.
    #[error("database error: {0}")]
    Database(String),
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
}

#[derive(Debug, Default)]
struct Inner {
    sessions: HashMap<String, SessionRecord>,
    events: HashMap<String, Vec<Event>>,
}

/// The session and event store.
#[derive(Debug, Clone, Default)]
pub struct Store {
    inner: Arc<RwLock<Inner>>,
}

impl Store {
    /// An empty in-memory store.
    pub fn in_memory() -> Self {
        Self::default()
    }

    /// Creates a running session.
    ///
    /// # Errors
    /// [`StoreError::Duplicate`] when the id is taken.
    pub async fn create_session(
        &self,
        id: &str,
        request: &Value,
        detached: bool,
    ) -> Result<(), StoreError> {
        let mut inner = self.inner.write().await;
        if inner.sessions.contains_key(id) {
            return Err(StoreError::Duplicate(id.into()));
        }
        let now = Utc::now();
        inner.sessions.insert(
            id.into(),
            SessionRecord {
                id: id.into(),
                status: RunStatus::Running,
                request: request.clone(),
                detached,
                created_at: now,
                updated_at: now,
                finished_at: None,
                result: None,
                total_reward: 0.0,
                event_count: 0,
            },
        );
        inner.events.insert(id.into(), Vec::new());
        Ok(())
    }

    /// Appends one event.
    ///
    /// # Errors
    /// When the session is unknown or the database fails.
    pub async fn append_event(&self, event: &Event) -> Result<(), StoreError> {
        let mut inner = self.inner.write().await;
        let events = inner
            .events
            .get_mut(&event.session_id)
            .ok_or_else(|| StoreError::NotFound(event.session_id.clone()))?;
        events.push(event.clone());
        let count = events.len() as u64;
        if let Some(session) = inner.sessions.get_mut(&event.session_id) {
            session.event_count = count;
            session.updated_at = Utc::now();
        }
        Ok(())
    }

    /// Events of a session with `seq > after`, in order.
    ///
    /// # Errors
    /// When the session is unknown or the database fails.
    pub async fn events_after(&self, id: &str, after: u64) -> Result<Vec<Event>, StoreError> {
        let inner = self.inner.read().await;
        let events = inner
            .events
            .get(id)
            .ok_or_else(|| StoreError::NotFound(id.into()))?;
        Ok(events.iter().filter(|e| e.seq > after).cloned().collect())
    }

    /// Marks a session finished with its final payload.
    ///
    /// # Errors
    /// When the session is unknown or the database fails.
    pub async fn finish_session(
        &self,
        id: &str,
        status: RunStatus,
        result: &Value,
        total_reward: f64,
    ) -> Result<(), StoreError> {
        let mut inner = self.inner.write().await;
        let session = inner
            .sessions
            .get_mut(id)
            .ok_or_else(|| StoreError::NotFound(id.into()))?;
        let now = Utc::now();
        session.status = status;
        session.result = Some(result.clone());
        session.total_reward = total_reward;
        session.updated_at = now;
        session.finished_at = Some(now);
        Ok(())
    }

    /// One session.
    ///
    /// # Errors
    /// [`StoreError::NotFound`] when unknown.
    pub async fn session(&self, id: &str) -> Result<SessionRecord, StoreError> {
        self.inner
            .read()
            .await
            .sessions
            .get(id)
            .cloned()
            .ok_or_else(|| StoreError::NotFound(id.into()))
    }
}
