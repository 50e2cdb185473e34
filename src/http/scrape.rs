//! The scrape resource: start runs (streamed or detached), follow them, read and cancel them.

use std::convert::Infallible;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Path, Query, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use futures::{Stream, StreamExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::access::KeyId;
use super::error::ApiError;
use crate::app::{AppState, RunOrigin, request_id};
use crate::events::{Event, RunStatus};
use crate::run::{Admission, ScrapeRequest};
use crate::store::SessionFilter;

/// `POST /api/scrape/stream`: start a run and stream its events (as JSON when waited for, as
/// for `POST /api/scrape`).
///
/// # Errors
/// A 4xx JSON error when the request cannot run.
pub async fn stream_post(
    State(state): State<AppState>,
    key: Option<Extension<KeyId>>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let wait = wait_asked(&headers, query.as_deref())?;
    let request = parse_body(body)?;
    if wait {
        return answer_when_complete(&state, request, key, &headers).await;
    }
    start_and_stream(&state, request, key, &headers).await
}

/// Whether a client asked for the answer as JSON rather than a stream or a session to follow:
/// `?wait=true`, or an `Accept` header that lists `application/json` and not
/// `text/event-stream`.
///
/// # Errors
/// 400 for an unknown query parameter or a `wait` that is not `true` or `false`.
fn wait_asked(headers: &HeaderMap, query: Option<&str>) -> Result<bool, ApiError> {
    let mut wait = None;
    for (key, value) in url::form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
        match (key.as_ref(), value.as_ref()) {
            ("wait", "true") => wait = Some(true),
            ("wait", "false") => wait = Some(false),
            // The API key, read by the access layer.
            ("access_token", _) => {}
            ("wait", other) => {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "invalid_query",
                    format!(
                        "query parameter `wait` has an invalid value `{other}`: expected true or false"
                    ),
                ));
            }
            (other, _) => {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "invalid_query",
                    format!("unknown query parameter `{other}`"),
                ));
            }
        }
    }
    Ok(wait.unwrap_or_else(|| {
        let accept: Vec<String> = headers
            .get_all(header::ACCEPT)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(|part| {
                part.split(';')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase()
            })
            .collect();
        accept.iter().any(|t| t == "application/json")
            && !accept.iter().any(|t| t == "text/event-stream")
    }))
}

/// Runs `request` and answers the `data` of its `complete` event as JSON (200), whatever the
/// run's status: the status, each URL's answer and every error are in it.
///
/// # Errors
/// A 4xx JSON error when the request cannot run; 504 `wait_timeout` when the run did not end
/// within its timeout (its session stays readable at `result_url`).
async fn answer_when_complete(
    state: &AppState,
    request: ScrapeRequest,
    key: Option<Extension<KeyId>>,
    headers: &HeaderMap,
) -> Result<Response, ApiError> {
    let (id, complete) = state
        .run_to_completion(request, origin(headers, key, false))
        .await?;
    let Some(complete) = complete else {
        return Err(unfinished(&id));
    };
    let mut response = Json(complete).into_response();
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert("x-session-id", value);
    }
    Ok(response)
}

/// 504: a run waited for that sent no `complete` in time.
fn unfinished(id: &str) -> ApiError {
    ApiError {
        details: json!({"session_id": id, "result_url": format!("/api/scrape/{id}")}),
        ..ApiError::new(
            StatusCode::GATEWAY_TIMEOUT,
            "wait_timeout",
            format!(
                "session {id} did not end within limits.run_timeout_secs; read it at /api/scrape/{id}"
            ),
        )
    }
}

/// `GET /api/markdown?url=…`: the page's main content (the article, without navigation and
/// boilerplate) as Markdown, `text/markdown`. The run is an ordinary session (one
/// `extract.main_content` call), stored and visible like any other.
///
/// # Errors
/// 400 for a missing or bad `url`; the request errors of any run; 422 with the URL's error
/// code (`fetch_failed`, `blocked_address`, …) when the page could not be read; 504 when the
/// run did not end in time.
pub async fn markdown(
    State(state): State<AppState>,
    key: Option<Extension<KeyId>>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let mut url = None;
    for (name, value) in url::form_urlencoded::parse(query.as_deref().unwrap_or("").as_bytes()) {
        match name.as_ref() {
            "url" if url.is_none() => url = Some(value.into_owned()),
            "url" => {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "invalid_query",
                    "give one `url`: this endpoint answers one page",
                ));
            }
            other => {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "invalid_query",
                    format!("unknown query parameter `{other}`"),
                ));
            }
        }
    }
    let Some(url) = url else {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_query",
            "query parameter `url` is required: /api/markdown?url=https://…",
        ));
    };
    let request = crate::app::markdown_request(vec![url]);
    let (id, complete) = state
        .run_to_completion(request, origin(&headers, key, false))
        .await?;
    let Some(complete) = complete else {
        return Err(unfinished(&id));
    };
    if complete.status != RunStatus::Completed {
        let first = complete.errors.first();
        return Err(ApiError {
            details: json!({"session_id": id, "errors": complete.errors}),
            ..ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                first.map_or("url_failed", |e| e.code.as_str()),
                first.map_or_else(
                    || format!("the page could not be read (session {id})"),
                    |e| e.message.clone(),
                ),
            )
        });
    }
    let mut response = (
        [(header::CONTENT_TYPE, "text/markdown; charset=utf-8")],
        complete.output,
    )
        .into_response();
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert("x-session-id", value);
    }
    Ok(response)
}

/// `GET /api/scrape/stream?url=…&url=…&instructions=…`: the same, for `EventSource`.
///
/// # Errors
/// A 4xx JSON error when the request cannot run.
pub async fn stream_get(
    State(state): State<AppState>,
    key: Option<Extension<KeyId>>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let request = request_from_query(query.as_deref().unwrap_or(""))?;
    start_and_stream(&state, request, key, &headers).await
}

/// Where a detached run stands when `POST /api/scrape` answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DetachedStatus {
    /// It started on the instance that took the request.
    Running,
    /// Every slot was taken: it waits in the store for an instance with room.
    Queued,
}

/// The answer of `POST /api/scrape` (202): the run, where it stands, and where to follow it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DetachedRun {
    /// The run's session id.
    pub session_id: String,
    /// `running`, or `queued` when every slot was taken.
    pub status: DetachedStatus,
    /// When queued: its place in the queue, oldest first (1: the next to start).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<u64>,
    /// Its events (SSE), from the start even while it is queued.
    pub events_url: String,
    /// Its session: status and, once finished, the result.
    pub result_url: String,
}

impl DetachedRun {
    fn of(admission: Admission) -> Self {
        let (status, position) = match &admission {
            Admission::Started(_) => (DetachedStatus::Running, None),
            Admission::Queued { position, .. } => (DetachedStatus::Queued, Some(*position)),
        };
        let id = admission.id();
        Self {
            events_url: format!("/api/scrape/{id}/events"),
            result_url: format!("/api/scrape/{id}"),
            session_id: id.to_owned(),
            status,
            position,
        }
    }
}

/// `POST /api/scrape`: start a detached run; answer 202 with where to find it. Past this
/// instance's capacity the run is queued in the store (202, `status: queued` and its
/// position) for the first instance with room, not refused. With `?wait=true` or
/// `Accept: application/json`: wait for the run and answer its `complete` payload as JSON
/// (429 when busy, as a stream).
///
/// # Errors
/// A 4xx JSON error when the request cannot run.
pub async fn start_detached(
    State(state): State<AppState>,
    key: Option<Extension<KeyId>>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let wait = wait_asked(&headers, query.as_deref())?;
    let request = parse_body(body)?;
    if wait {
        return answer_when_complete(&state, request, key, &headers).await;
    }
    let admission = state
        .start_or_queue(request, origin(&headers, key, true))
        .await?;
    let body = DetachedRun::of(admission);
    Ok((
        StatusCode::ACCEPTED,
        [(header::LOCATION, body.result_url.clone())],
        Json(body),
    )
        .into_response())
}

/// Query of `GET /api/scrape/{id}/events`.
#[derive(Debug, Deserialize)]
pub struct EventsQuery {
    /// Replay after this seq (for clients that cannot set headers).
    pub last_event_id: Option<u64>,
}

/// `GET /api/scrape/{id}/events`: replay after `Last-Event-ID`, then follow live.
///
/// # Errors
/// 404 for an unknown session, 400 for a malformed `Last-Event-ID`.
pub async fn events(
    State(state): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<EventsQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    // A malformed query gets the API's JSON error, not the extractor's plain-text one.
    let Query(query) = query.map_err(|rejection| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_query",
            rejection.body_text(),
        )
    })?;
    state.hub.store().session(&id).await?;
    let header_id = match headers
        .get("last-event-id")
        .map(|v| v.to_str().map(str::trim))
    {
        None => None,
        Some(Ok("")) => Some(0),
        Some(Ok(text)) => Some(text.parse::<u64>().map_err(|_| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "invalid_last_event_id",
                format!("Last-Event-ID `{text}` is not a sequence number"),
            )
        })?),
        Some(Err(_)) => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "invalid_last_event_id",
                "Last-Event-ID is not text",
            ));
        }
    };
    let after = header_id.or(query.last_event_id).unwrap_or(0);
    let events = state.hub.subscribe(&id, after);
    Ok(sse_response(&state, &id, events))
}

/// `DELETE /api/scrape/{id}`: cancel a running session.
///
/// # Errors
/// 404 for an unknown session.
pub async fn cancel(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let session = state.hub.store().session(&id).await?;
    if session.status.is_final() {
        return Ok((
            StatusCode::OK,
            Json(json!({"session_id": id, "status": session.status, "cancelled": false})),
        )
            .into_response());
    }
    // Stored first, so the instance running it (this one or another) stops it; the stream
    // then ends with `complete` status `cancelled` carrying what was gathered.
    let cancelled = state.hub.cancel(&id).await?;
    if !cancelled {
        // It finished between the read above and the cancel.
        let session = state.hub.store().session(&id).await?;
        return Ok((
            StatusCode::OK,
            Json(json!({"session_id": id, "status": session.status, "cancelled": false})),
        )
            .into_response());
    }
    Ok((
        StatusCode::ACCEPTED,
        Json(json!({
            "session_id": id,
            "status": "cancelling",
            "cancelled": true,
            "events_url": format!("/api/scrape/{id}/events"),
            "result_url": format!("/api/scrape/{id}"),
        })),
    )
        .into_response())
}

/// Sessions per page unless `limit` says otherwise.
const DEFAULT_PAGE: u32 = 20;
/// Largest `limit` accepted.
const MAX_PAGE: u32 = 100;

/// `GET /api/scrape?status=…&limit=…&cursor=…`: sessions, newest first, one page at a time.
/// `status` may repeat or be comma-separated; `cursor` is the `next_cursor` of the previous
/// page.
///
/// # Errors
/// 400 for an unknown status, a bad limit or a bad cursor.
pub async fn list(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let mut filter = SessionFilter {
        limit: DEFAULT_PAGE,
        ..SessionFilter::default()
    };
    let bad = |name: &str, value: &str, why: &str| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_query",
            format!("query parameter `{name}` has an invalid value `{value}`: {why}"),
        )
    };
    for (key, value) in url::form_urlencoded::parse(query.as_deref().unwrap_or("").as_bytes()) {
        match key.as_ref() {
            "status" => {
                for name in value.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                    let status = RunStatus::parse(name).ok_or_else(|| {
                        bad("status", name, "expected queued, running, completed, partial, failed, cancelled or interrupted")
                    })?;
                    filter.statuses.push(status);
                }
            }
            "limit" => {
                filter.limit = value
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (1..=MAX_PAGE).contains(n))
                    .ok_or_else(|| bad("limit", &value, "expected 1 to 100"))?;
            }
            "cursor" => {
                if value.parse::<i64>().is_err() {
                    return Err(bad(
                        "cursor",
                        &value,
                        "use the next_cursor of a previous page",
                    ));
                }
                filter.cursor = Some(value.into_owned());
            }
            other => {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "invalid_query",
                    format!("unknown query parameter `{other}`"),
                ));
            }
        }
    }
    let page = state.hub.store().list_sessions(&filter).await?;
    let sessions: Vec<Value> = page
        .sessions
        .iter()
        .map(|session| {
            let mut value = serde_json::to_value(session).unwrap_or(Value::Null);
            if let Some(object) = value.as_object_mut() {
                object.remove("result");
                object.insert(
                    "events_url".into(),
                    json!(format!("/api/scrape/{}/events", session.id)),
                );
                object.insert(
                    "result_url".into(),
                    json!(format!("/api/scrape/{}", session.id)),
                );
            }
            value
        })
        .collect();
    Ok(Json(json!({
        "sessions": sessions,
        "next_cursor": page.next_cursor,
    })))
}

/// `GET /api/scrape/{id}`: status, counts and, when finished, the result; while queued, its
/// `position` in the queue.
///
/// # Errors
/// 404 for an unknown session.
pub async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let session = state.hub.store().session(&id).await?;
    let mut value = serde_json::to_value(&session).unwrap_or(Value::Null);
    // A queued run says where it stands: its place falls as the runs before it start.
    if session.status == RunStatus::Queued
        && let Some(position) = state.hub.store().queue_position(&id).await?
        && let Some(object) = value.as_object_mut()
    {
        object.insert("position".into(), json!(position));
    }
    Ok(Json(value))
}

/// The body of `GET /api/scrape/{id}/webhooks`.
#[derive(Debug, Clone, serde::Serialize, schemars::JsonSchema)]
pub struct WebhookDeliveries {
    /// The session.
    pub session_id: String,
    /// Its webhook deliveries, oldest first (none when its request named no webhook).
    pub deliveries: Vec<crate::store::DeliveryRecord>,
}

/// `GET /api/scrape/{id}/webhooks`: the webhook deliveries of a session and where each stands
/// (pending, delivered, failed with its last error).
///
/// # Errors
/// 404 for an unknown session.
pub async fn webhooks(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<WebhookDeliveries>, ApiError> {
    let deliveries = state.hub.store().deliveries(&id).await?;
    Ok(Json(WebhookDeliveries {
        session_id: id,
        deliveries,
    }))
}

/// `GET /api/scrape/{id}/screenshots/{n}.png`: a PNG a run's `browser.screenshot` kept (its
/// `tool_call` step links it).
pub async fn screenshot(
    State(state): State<AppState>,
    Path((id, file)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let n = file
        .strip_suffix(".png")
        .and_then(|n| n.parse::<u32>().ok())
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "no screenshot `{file}`: they are named 1.png, 2.png, …"
            ))
        })?;
    let png = state.hub.store().screenshot(&id, n).await?;
    Ok((
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("image/png")),
            // A kept screenshot never changes.
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("private, max-age=86400, immutable"),
            ),
        ],
        png,
    )
        .into_response())
}

fn parse_body(body: Result<Bytes, BytesRejection>) -> Result<ScrapeRequest, ApiError> {
    parse_json_body(body, "scrape request")
}

/// A JSON body of type `T` (`what` names it in the error), with the API's errors for a body
/// that is late, too large or malformed.
pub(super) fn parse_json_body<T: serde::de::DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
    what: &str,
) -> Result<T, ApiError> {
    let bytes = body.map_err(|rejection| {
        if timed_out(&rejection) {
            return ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "request_timeout",
                "the request body did not arrive in time (server.body_read_timeout_secs)",
            );
        }
        let status = rejection.status();
        let code = if status == StatusCode::PAYLOAD_TOO_LARGE {
            "body_too_large"
        } else {
            "invalid_body"
        };
        ApiError::new(status, code, rejection.body_text())
    })?;
    serde_json::from_slice::<T>(&bytes).map_err(|err| ApiError {
        details: json!({"line": err.line(), "column": err.column()}),
        ..ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_json",
            format!("the body is not a valid {what}: {err}"),
        )
    })
}

/// Whether reading the body failed because its deadline passed.
fn timed_out(rejection: &BytesRejection) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(rejection);
    while let Some(err) = source {
        if err.is::<tower_http::timeout::TimeoutError>() {
            return true;
        }
        source = err.source();
    }
    false
}

/// Reads a request from query parameters; `url` (or `urls`) may repeat.
fn request_from_query(query: &str) -> Result<ScrapeRequest, ApiError> {
    let mut request = ScrapeRequest::new(Vec::new(), String::new());
    let bad = |name: &str, value: &str| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_query",
            format!("query parameter `{name}` has an invalid value `{value}`"),
        )
    };
    for (key, value) in url::form_urlencoded::parse(query.as_bytes()) {
        let value = value.into_owned();
        match key.as_ref() {
            "url" | "urls" | "asset" | "assets" => request.urls.push(value),
            "instructions" => request.instructions = value,
            "output_format" => request.output_format = Some(value),
            "output_instructions" => request.output_instructions = Some(value),
            "max_steps" => {
                request.max_steps = Some(value.parse().map_err(|_| bad("max_steps", &value))?)
            }
            "planner" => {
                request.planner = serde_json::from_value(Value::String(value.clone()))
                    .map_err(|_| bad("planner", &value))?
            }
            "max_pages" => {
                request.max_pages = Some(value.parse().map_err(|_| bad("max_pages", &value))?)
            }
            "max_detail_pages" => {
                request.max_detail_pages =
                    Some(value.parse().map_err(|_| bad("max_detail_pages", &value))?)
            }
            "model" => request.model = Some(value),
            "session_id" => request.session_id = Some(value),
            "tools" => {
                request.tools =
                    Some(serde_json::from_str(&value).map_err(|_| bad("tools", &value))?)
            }
            other => {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "invalid_query",
                    format!("unknown query parameter `{other}`"),
                ));
            }
        }
    }
    Ok(request)
}

/// Where a run's request came from: its id (`X-Request-Id`, set by the router when the client
/// sent none) and the API key the access layer found.
fn origin(headers: &HeaderMap, key: Option<Extension<KeyId>>, detached: bool) -> RunOrigin {
    RunOrigin {
        request_id: request_id(headers),
        key: key.map(|Extension(key)| key),
        detached,
    }
}

async fn start_and_stream(
    state: &AppState,
    request: ScrapeRequest,
    key: Option<Extension<KeyId>>,
    headers: &HeaderMap,
) -> Result<Response, ApiError> {
    let id = state
        .start_run(request, origin(headers, key, false))
        .await?;
    let events = state.hub.subscribe(&id, 0);
    Ok(sse_response(state, &id, events))
}

/// The SSE response: `id`, `event` and `data` per event, keep-alive comments while quiet, and
/// headers that stop proxies from buffering.
fn sse_response(
    state: &AppState,
    id: &str,
    events: impl Stream<Item = Event> + Send + 'static,
) -> Response {
    let frames = events.map(|event| {
        let data = serde_json::to_string(&event).unwrap_or_default();
        Ok::<_, Infallible>(
            SseEvent::default()
                .id(event.seq.to_string())
                .event(event.kind.as_str())
                .data(data),
        )
    });
    let keep_alive = KeepAlive::new()
        .interval(Duration::from_secs(
            state.settings.server.keep_alive_secs.max(1),
        ))
        .text("keep-alive");
    let mut response = Sse::new(frames).keep_alive(keep_alive).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    if let Ok(value) = HeaderValue::from_str(id) {
        headers.insert("x-session-id", value);
    }
    response
}
