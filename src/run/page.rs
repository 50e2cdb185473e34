//! The page worker: parses a page once on a blocking thread and runs tools there, so a large
//! page never stalls the async workers that carry other streams.

use std::sync::Arc;

use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use url::Url;

use crate::page::{Interrupt, Page};
use crate::planner::Outline;
use crate::planner::outline::outline;
use crate::tools::{Registry, ToolCall, ToolCallResult, ToolLimits, Workspace};

enum Job {
    Outline(oneshot::Sender<Outline>),
    Execute(ToolCall, oneshot::Sender<(ToolCallResult, bool)>),
    Answer(oneshot::Sender<Value>),
}

/// A handle to one page's worker; dropping it ends the worker.
#[derive(Debug, Clone)]
pub struct PageWorker {
    jobs: mpsc::Sender<Job>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Outline(_) => "Outline",
            Self::Execute(..) => "Execute",
            Self::Answer(_) => "Answer",
        })
    }
}

/// The worker stopped (it panicked while parsing, which the tests say it does not).
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("the page worker stopped unexpectedly")]
pub struct WorkerGone;

impl PageWorker {
    /// Starts a worker for `html` fetched from `url`; `interrupt` stops a tool mid-way.
    pub fn spawn(
        url: Url,
        html: String,
        registry: Arc<Registry>,
        limits: ToolLimits,
        interrupt: Interrupt,
    ) -> Self {
        let (jobs, mut inbox) = mpsc::channel::<Job>(4);
        tokio::task::spawn_blocking(move || {
            let page = Page::parse(url, &html);
            drop(html);
            let mut ws = Workspace::new(&page, limits).with_interrupt(interrupt);
            while let Some(job) = inbox.blocking_recv() {
                match job {
                    Job::Outline(reply) => {
                        let _ = reply.send(outline(&page));
                    }
                    Job::Execute(call, reply) => {
                        let result = registry.execute(&mut ws, &call);
                        let have_answer = has_content(&ws.answer());
                        let _ = reply.send((result, have_answer));
                    }
                    Job::Answer(reply) => {
                        let _ = reply.send(ws.answer());
                    }
                }
            }
        });
        Self { jobs }
    }

    /// The page outline.
    ///
    /// # Errors
    /// When the worker is gone.
    pub async fn outline(&self) -> Result<Outline, WorkerGone> {
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(Job::Outline(reply))
            .await
            .map_err(|_| WorkerGone)?;
        answer.await.map_err(|_| WorkerGone)
    }

    /// Runs one call; also says whether the workspace now holds a non-empty answer.
    ///
    /// # Errors
    /// When the worker is gone.
    pub async fn execute(&self, call: ToolCall) -> Result<(ToolCallResult, bool), WorkerGone> {
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(Job::Execute(call, reply))
            .await
            .map_err(|_| WorkerGone)?;
        answer.await.map_err(|_| WorkerGone)
    }

    /// The current answer for the URL.
    ///
    /// # Errors
    /// When the worker is gone.
    pub async fn answer(&self) -> Result<Value, WorkerGone> {
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(Job::Answer(reply))
            .await
            .map_err(|_| WorkerGone)?;
        answer.await.map_err(|_| WorkerGone)
    }
}

/// Whether an answer holds anything: a non-empty list, a non-empty text, an object with a value.
pub fn has_content(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Array(items) => !items.is_empty(),
        Value::String(text) => !text.trim().is_empty(),
        Value::Object(map) => map.values().any(has_content),
        _ => true,
    }
}
