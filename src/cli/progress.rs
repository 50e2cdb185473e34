//! What a person sees on stderr while a run goes: on a terminal a bar for the URLs and a
//! spinner per URL showing its current step; otherwise (a pipe, a log file, CI) one plain line
//! per event worth reading.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::events::{
    CompleteData, ErrorData, EventPayload, InitData, ScrapeStep, StepStatus, UrlCompleteData,
    UrlStartData, UrlStatus,
};

/// How progress is shown.
#[derive(Debug)]
pub(super) enum Progress {
    /// Live bars on a terminal.
    Bars(Bars),
    /// One line per event.
    Lines(Position),
    /// Nothing (`--quiet`).
    Quiet,
}

impl Progress {
    /// Bars when `live` and stderr is a terminal; plain lines otherwise; nothing when `quiet`.
    pub(super) fn choose(quiet: bool, live: bool) -> Self {
        if quiet {
            Self::Quiet
        } else if live && std::io::stderr().is_terminal() {
            Self::Bars(Bars::new())
        } else {
            Self::Lines(Position::default())
        }
    }

    /// Shows one event.
    pub(super) fn show(&mut self, payload: &EventPayload) {
        match self {
            // Quiet, but a URL that fails still says why.
            Self::Quiet => {
                if let EventPayload::Error(error) = payload {
                    eprintln!("{}", error_text(error));
                }
            }
            Self::Lines(position) => {
                if let Some(line) = position.line(payload) {
                    eprintln!("{line}");
                }
            }
            Self::Bars(bars) => bars.show(payload),
        }
    }

    /// A remark of the client itself (a dropped connection, a cancel), above any bars.
    pub(super) fn note(&self, text: &str) {
        match self {
            Self::Quiet => {}
            Self::Lines(_) => eprintln!("{text}"),
            Self::Bars(bars) => bars.println(text),
        }
    }
}

/// Which URL a run is on: steps do not repeat it (a followed page has its own URL).
#[derive(Debug, Default)]
pub(super) struct Position {
    index: usize,
    total: usize,
}

impl Position {
    fn tag(&self) -> String {
        format!("[{}/{}]", self.index + 1, self.total.max(1))
    }

    /// The line an event is shown as, when it is worth one. Running steps (a decision still
    /// streaming) are left out: their final form follows.
    pub(super) fn line(&mut self, payload: &EventPayload) -> Option<String> {
        match payload {
            EventPayload::Init(init) => Some(init_line(init)),
            EventPayload::UrlStart(start) => {
                self.index = start.index;
                self.total = start.total;
                Some(format!("{} {}", self.tag(), start.url))
            }
            EventPayload::Step(step) if step.status != StepStatus::Running => {
                Some(format!("{} {}", self.tag(), step_text(step)))
            }
            EventPayload::Error(error) => Some(format!("{} {}", self.tag(), error_text(error))),
            EventPayload::UrlComplete(done) => {
                Some(format!("{} {}", self.tag(), url_done_text(done)))
            }
            EventPayload::Complete(complete) => Some(complete_line(complete)),
            _ => None,
        }
    }
}

fn init_line(init: &InitData) -> String {
    format!(
        "session {}: {} URL(s), planner {}",
        init.session_id,
        init.urls.len(),
        init.planner
    )
}

fn step_text(step: &ScrapeStep) -> String {
    match step.status {
        StepStatus::Failed => format!("{} failed: {}", step.action(), step.message),
        StepStatus::Skipped => format!("{} skipped: {}", step.action(), step.message),
        StepStatus::Running | StepStatus::Completed => {
            format!("{}: {}", step.action(), step.message)
        }
    }
}

fn error_text(error: &ErrorData) -> String {
    format!("error {}: {}", error.code.as_str(), error.message)
}

fn url_done_text(done: &UrlCompleteData) -> String {
    match (done.status, done.error_code) {
        (UrlStatus::Completed, _) if !done.empty_fields.is_empty() => format!(
            "done: {} item(s) in {} ms; nothing found for {}",
            done.items,
            done.duration_ms,
            done.empty_fields.join(", ")
        ),
        (UrlStatus::Completed, _) => {
            format!("done: {} item(s) in {} ms", done.items, done.duration_ms)
        }
        (UrlStatus::Failed, Some(code)) => {
            format!("failed: {} after {} ms", code.as_str(), done.duration_ms)
        }
        (UrlStatus::Failed, None) => format!("failed after {} ms", done.duration_ms),
    }
}

fn complete_line(complete: &CompleteData) -> String {
    format!(
        "{}: {} URL(s) answered, {} failed, {} step(s), {} ms (session {})",
        complete.status.as_str(),
        complete.urls_processed,
        complete.urls_failed,
        complete.total_steps,
        complete.duration_ms,
        complete.session_id
    )
}

/// The bars: one for the run's URLs, one spinner per URL with its current step.
#[derive(Debug)]
pub(super) struct Bars {
    multi: MultiProgress,
    urls: Option<ProgressBar>,
    current: Option<ProgressBar>,
    position: Position,
}

impl Bars {
    fn new() -> Self {
        Self {
            multi: MultiProgress::with_draw_target(ProgressDrawTarget::stderr()),
            urls: None,
            current: None,
            position: Position::default(),
        }
    }

    fn style(template: &str) -> ProgressStyle {
        // The templates are constants of this file; a bad one falls back to the default style.
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar())
    }

    fn println(&self, text: &str) {
        if self.multi.println(text).is_err() {
            eprintln!("{text}");
        }
    }

    fn show(&mut self, payload: &EventPayload) {
        match payload {
            EventPayload::Init(init) => {
                self.println(&init_line(init));
                let bar = ProgressBar::new(init.urls.len() as u64).with_style(Self::style(
                    "{bar:30.cyan/blue} {pos}/{len} URL(s) [{elapsed}] {msg}",
                ));
                self.urls = Some(self.multi.add(bar));
            }
            EventPayload::UrlStart(start) => self.start_url(start),
            EventPayload::Step(step) => {
                if let Some(bar) = &self.current {
                    bar.set_message(step_text(step));
                }
            }
            EventPayload::Error(error) => {
                let line = format!("{} {}", self.position.tag(), error_text(error));
                self.println(&line);
            }
            EventPayload::UrlComplete(done) => {
                // The URL's spinner goes; a line of its own stays above the bars and in the
                // terminal's scrollback after the run, with what the URL gave.
                if let Some(bar) = self.current.take() {
                    bar.finish_and_clear();
                }
                let line = format!(
                    "{} {}: {}",
                    self.position.tag(),
                    done.url,
                    url_done_text(done)
                );
                self.println(&line);
                if let Some(urls) = &self.urls {
                    urls.inc(1);
                }
            }
            EventPayload::Complete(complete) => {
                if let Some(bar) = self.current.take() {
                    bar.finish();
                }
                if let Some(urls) = self.urls.take() {
                    urls.finish_and_clear();
                }
                self.println(&complete_line(complete));
            }
        }
    }

    fn start_url(&mut self, start: &UrlStartData) {
        self.position.index = start.index;
        self.position.total = start.total;
        if let Some(urls) = &self.urls {
            urls.set_length(start.total as u64);
        }
        let spinner = ProgressBar::new_spinner()
            .with_style(Self::style("{spinner} {prefix} {wide_msg}"))
            .with_prefix(format!("{} {}", self.position.tag(), start.url));
        let spinner = match &self.urls {
            // Above the URL bar, so the list of URLs grows downwards with the total last.
            Some(urls) => self.multi.insert_before(urls, spinner),
            None => self.multi.add(spinner),
        };
        spinner.enable_steady_tick(Duration::from_millis(120));
        self.current = Some(spinner);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{ErrorCode, UrlStatus};

    #[test]
    fn plain_lines_say_which_url_a_step_belongs_to() {
        let mut position = Position::default();
        let start = EventPayload::UrlStart(UrlStartData {
            url: "https://a.example/".into(),
            index: 1,
            total: 3,
        });
        assert_eq!(
            position.line(&start).as_deref(),
            Some("[2/3] https://a.example/")
        );
        let done = EventPayload::UrlComplete(UrlCompleteData {
            url: "https://a.example/".into(),
            index: 1,
            status: UrlStatus::Failed,
            items: 0,
            error_code: Some(ErrorCode::FetchFailed),
            duration_ms: 12,
            empty_fields: Vec::new(),
        });
        assert_eq!(
            position.line(&done).as_deref(),
            Some("[2/3] failed: fetch_failed after 12 ms")
        );
        let thin = EventPayload::UrlComplete(UrlCompleteData {
            url: "https://a.example/".into(),
            index: 1,
            status: UrlStatus::Completed,
            items: 4,
            error_code: None,
            duration_ms: 9,
            empty_fields: vec!["author".into()],
        });
        assert_eq!(
            position.line(&thin).as_deref(),
            Some("[2/3] done: 4 item(s) in 9 ms; nothing found for author")
        );
    }
}
