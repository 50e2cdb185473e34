//! Following a run's events, wherever they come from (this process, a server, the store):
//! showing them, and keeping the `complete` event that carries the answer.

use std::path::Path;

use super::progress::Progress;
use super::{CliError, Exit, write_stdout};
use crate::events::{CompleteData, Event, EventPayload, RunStatus};
use crate::output::OutputFormat;

/// One run being followed.
#[derive(Debug)]
pub(super) struct Watch {
    progress: Progress,
    json_events: bool,
    last_seq: u64,
    complete: Option<CompleteData>,
    format: Option<OutputFormat>,
}

impl Watch {
    /// Shows progress as `progress` says; with `json_events` every event is also printed on
    /// stdout as one JSON line (the SSE `data` of the server's stream).
    pub(super) fn new(progress: Progress, json_events: bool) -> Self {
        Self {
            progress,
            json_events,
            last_seq: 0,
            complete: None,
            format: None,
        }
    }

    /// Writes the answer in `format` rather than in the run's own.
    pub(super) fn with_format(mut self, format: Option<OutputFormat>) -> Self {
        self.format = format;
        self
    }

    /// The `seq` of the last event taken (what a resumed stream sends as `Last-Event-ID`).
    pub(super) fn last_seq(&self) -> u64 {
        self.last_seq
    }

    /// Whether the run's last event (`complete`) has been taken.
    pub(super) fn is_done(&self) -> bool {
        self.complete.is_some()
    }

    /// A remark of the client itself, on stderr.
    pub(super) fn note(&self, text: &str) {
        self.progress.note(text);
    }

    /// Takes one event. An event already taken (a resumed stream repeating itself) is skipped.
    ///
    /// # Errors
    /// When stdout cannot be written (a closed pipe).
    pub(super) fn take(&mut self, event: &Event) -> Result<(), CliError> {
        if event.seq <= self.last_seq || self.is_done() {
            return Ok(());
        }
        self.last_seq = event.seq;
        if self.json_events {
            let mut line = serde_json::to_string(event).unwrap_or_default();
            line.push('\n');
            write_stdout(&line)?;
        }
        match EventPayload::from_event(event) {
            Ok(payload) => {
                self.progress.show(&payload);
                if let EventPayload::Complete(complete) = payload {
                    self.complete = Some(*complete);
                }
            }
            Err(err) => {
                tracing::warn!(seq = event.seq, %err, "an event of an unknown shape was skipped");
            }
        }
        Ok(())
    }

    /// Writes the answer (to `out`, else to stdout unless the events went there) and says how
    /// the run ended.
    ///
    /// # Errors
    /// When the run ended without its `complete` event, or the answer cannot be written.
    pub(super) fn finish(self, session_id: &str, out: Option<&Path>) -> Result<Exit, CliError> {
        let Some(complete) = self.complete else {
            return Err(CliError::Unavailable(format!(
                "the events of session {session_id} ended before its `complete` event"
            )));
        };
        let mut answer = match self.format {
            Some(format) => crate::output::render(format, &complete.extracted_data),
            None => complete.output,
        };
        if !answer.ends_with('\n') {
            answer.push('\n');
        }
        match out {
            Some(path) => {
                std::fs::write(path, &answer).map_err(|err| {
                    CliError::Unavailable(format!("cannot write {}: {err}", path.display()))
                })?;
                self.progress
                    .note(&format!("answer written to {}", path.display()));
            }
            None if self.json_events => {}
            None => write_stdout(&answer)?,
        }
        Ok(match complete.status {
            RunStatus::Completed => Exit::Success,
            _ => Exit::UrlFailed,
        })
    }
}
