//! The client of a running server: start a detached run, follow its events over SSE (resuming
//! with `Last-Event-ID` when the connection drops), cancel it, list and read sessions.

use std::time::Duration;

use eventsource_stream::Eventsource;
use futures::StreamExt;
use reqwest::header::{AUTHORIZATION, HeaderValue};
use reqwest::{Method, RequestBuilder, Response, StatusCode};
use serde::Deserialize;
use serde_json::Value;

use super::watch::Watch;
use super::{CliError, Interrupts};
use crate::events::Event;
use crate::run::ScrapeRequest;

/// Reconnections in a row that bring no new event before the client gives up.
const MAX_RESUMES: u32 = 5;
/// A stream that sends nothing (not even the server's keep-alive comments) for this long is
/// taken for dead and resumed.
const READ_TIMEOUT: Duration = Duration::from_secs(60);

/// What to do on Ctrl-C while following a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Interrupt {
    /// Cancel the run on the server (the run this command started), then read it to its end.
    CancelRun,
    /// Just stop reading (someone else's run, or a replay).
    Leave,
}

/// A running server.
#[derive(Debug, Clone)]
pub(super) struct Remote {
    client: reqwest::Client,
    base: String,
    api_key: Option<String>,
}

/// The answer to `POST /api/scrape`.
#[derive(Debug, Deserialize)]
pub(super) struct Started {
    /// The new session.
    pub(super) session_id: String,
}

/// The API's error body: `{"error": {code, message}}`.
#[derive(Debug, Deserialize)]
struct ErrorBody {
    error: ErrorDetail,
}

#[derive(Debug, Deserialize)]
struct ErrorDetail {
    code: String,
    message: String,
}

impl Remote {
    /// A client of the server at `base` (`http://host:port`, with or without a path prefix).
    ///
    /// # Errors
    /// When `base` is not an http(s) URL.
    pub(super) fn new(base: &str, api_key: Option<&str>) -> Result<Self, CliError> {
        let parsed = url::Url::parse(base)
            .map_err(|err| CliError::Usage(format!("--server `{base}` is not a URL: {err}")))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(CliError::Usage(format!(
                "--server `{base}` is not an http(s) URL"
            )));
        }
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .read_timeout(READ_TIMEOUT)
            .user_agent(concat!("scrape-agent-cli/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|err| CliError::Unavailable(format!("cannot build the HTTP client: {err}")))?;
        Ok(Self {
            client,
            base: base.trim_end_matches('/').to_owned(),
            api_key: api_key.filter(|key| !key.is_empty()).map(str::to_owned),
        })
    }

    fn request(&self, method: Method, path: &str) -> RequestBuilder {
        let builder = self.client.request(method, format!("{}{path}", self.base));
        match &self.api_key {
            Some(key) => match HeaderValue::from_str(&format!("Bearer {key}")) {
                Ok(mut value) => {
                    value.set_sensitive(true);
                    builder.header(AUTHORIZATION, value)
                }
                Err(_) => builder,
            },
            None => builder,
        }
    }

    /// Sends a request; a connection failure is the server being unavailable.
    async fn send(&self, builder: RequestBuilder) -> Result<Response, CliError> {
        builder
            .send()
            .await
            .map_err(|err| CliError::Unavailable(format!("cannot reach {}: {err}", self.base)))
    }

    /// Reads a JSON answer, or turns an error answer into the API's own words.
    async fn json<T: serde::de::DeserializeOwned>(
        &self,
        response: Response,
    ) -> Result<T, CliError> {
        if !response.status().is_success() {
            return Err(api_error(response).await);
        }
        response.json().await.map_err(|err| {
            CliError::Unavailable(format!(
                "{} answered something unreadable: {err}",
                self.base
            ))
        })
    }

    /// Starts a detached run (`POST /api/scrape`): it goes on if this client's connection drops,
    /// so the stream can be resumed.
    ///
    /// # Errors
    /// The server's refusal (exit 2 for the caller's mistakes, 3 when busy or unreachable).
    pub(super) async fn start(&self, request: &ScrapeRequest) -> Result<Started, CliError> {
        let response = self
            .send(self.request(Method::POST, "/api/scrape").json(request))
            .await?;
        self.json(response).await
    }

    /// Cancels a run (`DELETE /api/scrape/{id}`); it then ends with `complete` `cancelled`.
    async fn cancel(&self, id: &str) -> Result<(), CliError> {
        let response = self
            .send(self.request(Method::DELETE, &format!("/api/scrape/{id}")))
            .await?;
        self.json::<Value>(response).await.map(drop)
    }

    /// A session listing (`GET /api/scrape?limit=…`).
    ///
    /// # Errors
    /// When the server cannot be reached or refuses.
    pub(super) async fn sessions(&self, limit: u32) -> Result<Value, CliError> {
        let response = self
            .send(self.request(Method::GET, &format!("/api/scrape?limit={limit}")))
            .await?;
        self.json(response).await
    }

    /// Follows the events of session `id` from after the watch's last one to `complete`,
    /// reconnecting with `Last-Event-ID` whenever the stream drops before it.
    ///
    /// # Errors
    /// When the session is unknown or refused, or the stream cannot be resumed
    /// (`MAX_RESUMES` reconnections in a row without a new event).
    pub(super) async fn follow(
        &self,
        id: &str,
        watch: &mut Watch,
        interrupt: Interrupt,
        interrupts: &mut Interrupts,
    ) -> Result<(), CliError> {
        let path = format!("/api/scrape/{id}/events");
        let mut failures = 0;
        let mut cancelled = false;
        loop {
            let before = watch.last_seq();
            let mut request = self.request(Method::GET, &path);
            if before > 0 {
                request = request.header("last-event-id", before.to_string());
            }
            let read = tokio::select! {
                read = self.read_events(request, watch) => read?,
                () = interrupts.next() => {
                    if interrupt == Interrupt::Leave || cancelled {
                        return Err(CliError::Unavailable(format!(
                            "interrupted; session {id} goes on on the server"
                        )));
                    }
                    cancelled = true;
                    watch.note("cancelling (Ctrl-C again to quit at once)…");
                    self.cancel(id).await?;
                    // Read on: the run now ends with `complete` `cancelled` and what it gathered.
                    continue;
                }
            };
            let Some(why) = read else {
                return Ok(());
            };
            if watch.last_seq() > before {
                failures = 0;
            }
            failures += 1;
            if failures > MAX_RESUMES {
                return Err(CliError::Unavailable(format!(
                    "lost the events of session {id} ({why}); the run goes on on the server: \
                     scrape-agent replay {id} --server {}",
                    self.base
                )));
            }
            watch.note(&format!(
                "connection lost ({why}); resuming after event {}",
                watch.last_seq()
            ));
            tokio::time::sleep(Duration::from_millis(250 * 2_u64.pow(failures - 1))).await;
        }
    }

    /// Reads one connection's events into the watch: `None` once the run's `complete` is
    /// taken, else why the connection dropped before it (worth a reconnection); `Err` when the
    /// server refuses the stream itself.
    async fn read_events(
        &self,
        request: RequestBuilder,
        watch: &mut Watch,
    ) -> Result<Option<String>, CliError> {
        let response = match request.send().await {
            Ok(response) => response,
            Err(err) => return Ok(Some(format!("cannot reach {}: {err}", self.base))),
        };
        let status = response.status();
        if status.is_server_error() || status == StatusCode::TOO_MANY_REQUESTS {
            return Ok(Some(format!("the server answered {status}")));
        }
        if !status.is_success() {
            return Err(api_error(response).await);
        }
        let mut frames = response.bytes_stream().eventsource();
        while let Some(frame) = frames.next().await {
            let frame = match frame {
                Ok(frame) => frame,
                Err(err) => return Ok(Some(err.to_string())),
            };
            let event: Event = match serde_json::from_str(&frame.data) {
                Ok(event) => event,
                Err(err) => {
                    tracing::warn!(id = %frame.id, %err, "a frame that is not an event was skipped");
                    continue;
                }
            };
            watch.take(&event)?;
            if watch.is_done() {
                return Ok(None);
            }
        }
        Ok(Some("the stream ended before the run did".to_owned()))
    }
}

/// The API's error answer as a one-line error: its code and message when it has them.
async fn api_error(response: Response) -> CliError {
    let status = response.status();
    let text = response.text().await.unwrap_or_default();
    let message = match serde_json::from_str::<ErrorBody>(&text) {
        Ok(body) => format!("{}: {}", body.error.code, body.error.message),
        Err(_) => format!("the server answered {status}: {}", text.trim()),
    };
    if status.is_client_error() && status != StatusCode::TOO_MANY_REQUESTS {
        CliError::Usage(message)
    } else {
        CliError::Unavailable(message)
    }
}
