//! Firecrawl's v2 API, the subset integrations use: `POST /v2/scrape`, `POST /v2/map`,
//! `POST /v2/crawl`, `GET /v2/crawl/{id}`, `DELETE /v2/crawl/{id}`, `POST /v2/batch/scrape`,
//! `GET /v2/batch/scrape/{id}`, `DELETE /v2/batch/scrape/{id}`. Each scrape and crawl is
//! one of our sessions (listed, replayable, cancellable like any other); answers and errors
//! have Firecrawl's shapes (`{success, data}`, `{success: false, error}`), fields are camelCase
//! and fields we do not read are ignored, as Firecrawl's own server does.

use std::time::Duration;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::app::{AppState, RunOrigin};
use crate::events::{EventPayload, RunStatus, StepPayload};
use crate::page::Page;
use crate::read::links::page_links;
use crate::run::ScrapeRequest;
use crate::run::crawl::CrawlOptions;
use crate::run::map::{self, MapRequest, SitemapMode};
use crate::run::request::valid_session_id;
use crate::store::StoreError;
use crate::tools::ToolCall;
use crate::tools::registry::ToolParams;

/// Firecrawl's error body: `{success: false, error}`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Failure {
    /// Always false.
    pub success: bool,
    /// What went wrong, for people.
    pub error: String,
    /// Our error code (`unauthorized`, `too_many_runs`, …), when one of the checks every
    /// route shares refused the request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

/// `{success: false, error}` with `status`.
fn failure(status: StatusCode, error: impl Into<String>) -> Response {
    let body = Failure {
        success: false,
        error: error.into(),
        code: None,
    };
    (status, Json(body)).into_response()
}

/// Gives every error answer on a `/v2/` route Firecrawl's shape, `{success: false, error,
/// code}`: those of the checks all routes share (API key 401, origin 403, body timeout 408,
/// body limit 413, unknown route 404, 429) are built in ours, [`super::error::ErrorBody`]. Its
/// headers (`Retry-After`, `WWW-Authenticate`) stay.
pub async fn firecrawl_errors(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    if !request.uri().path().starts_with("/v2/") {
        return next.run(request).await;
    }
    let response = next.run(request).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let (parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, OUR_ERROR_MAX_BYTES).await else {
        return failure(status, status.canonical_reason().unwrap_or("error"));
    };
    let ours: Option<OurError> = serde_json::from_slice(&bytes).ok();
    let Some(OurError { error }) = ours else {
        // Already Firecrawl's (or not JSON at all): as it was.
        return Response::from_parts(parts, axum::body::Body::from(bytes));
    };
    let mut rewritten = (
        status,
        Json(Failure {
            success: false,
            error: error.message,
            code: Some(error.code),
        }),
    )
        .into_response();
    for (name, value) in &parts.headers {
        if name != axum::http::header::CONTENT_TYPE && name != axum::http::header::CONTENT_LENGTH {
            rewritten.headers_mut().insert(name.clone(), value.clone());
        }
    }
    rewritten
}

/// Bytes of an error body read to rewrite it (ours are small).
const OUR_ERROR_MAX_BYTES: usize = 64 * 1024;

/// Our error body, as read back ([`super::error::ErrorBody`]).
#[derive(Deserialize)]
struct OurError {
    error: OurErrorDetail,
}

#[derive(Deserialize)]
struct OurErrorDetail {
    code: String,
    message: String,
}

/// `{success: true, …}` with 200.
fn success<T: Serialize>(body: T) -> Response {
    Json(body).into_response()
}

fn parse<T: serde::de::DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
) -> Result<T, Response> {
    let bytes = body.map_err(|r| failure(r.status(), r.body_text()))?;
    serde_json::from_slice(&bytes)
        .map_err(|e| failure(StatusCode::BAD_REQUEST, format!("Bad Request: {e}")))
}

/// A format of `formats`: a name, or `{type, prompt?, schema?}`. Names we do not answer are
/// refused with 400 (README lists them).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Format {
    /// `markdown`, `html`, `rawHtml`, `links`, `json` or `screenshot`.
    Name(String),
    /// `{type: "json", prompt?, schema?}`: the fields answered by our planner.
    Object {
        /// The format's name.
        #[serde(rename = "type")]
        kind: String,
        /// What to extract, in words.
        #[serde(default)]
        prompt: Option<String>,
        /// A JSON Schema; its property names are the fields asked for.
        #[serde(default)]
        schema: Option<Value>,
        /// `screenshot`: the whole page instead of the viewport.
        #[serde(default, rename = "fullPage")]
        full_page: bool,
    },
}

impl Format {
    fn kind(&self) -> &str {
        match self {
            Self::Name(name) => name,
            Self::Object { kind, .. } => kind,
        }
    }
}

/// The formats we answer.
const SUPPORTED_FORMATS: &[&str] = &["markdown", "html", "rawHtml", "links", "json", "screenshot"];

/// The body of `POST /v2/scrape` (what we read of it; other Firecrawl fields are ignored).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScrapeBody {
    /// The page (http or https).
    pub url: String,
    /// What to answer (default `["markdown"]`).
    #[serde(default)]
    pub formats: Option<Vec<Format>>,
    /// `markdown` of the main content only (default true); false: of the whole page.
    #[serde(default)]
    pub only_main_content: Option<bool>,
    /// `markdown` of the elements these CSS selectors match (tags, `.class`, `#id`), in page
    /// order, instead of the main content.
    #[serde(default)]
    pub include_tags: Option<Vec<String>>,
    /// CSS selectors of elements left out of `markdown` (with what they hold).
    #[serde(default)]
    pub exclude_tags: Option<Vec<String>>,
    /// Milliseconds to wait in the browser after the page loaded, before it is read (the
    /// page is rendered by the server's browser; `browser.render` with `wait: ms`).
    #[serde(default)]
    pub wait_for: Option<u64>,
    /// Browser actions before the page is read, in order: `wait`, `click`, `scroll` (down),
    /// `screenshot` (the `browser.*` tools).
    #[serde(default)]
    pub actions: Option<Vec<Action>>,
    /// Milliseconds the whole scrape may take; past it the runs are cancelled and the answer
    /// is 408.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub timeout: Option<u64>,
}

/// A browser action of `actions`, by `type`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Action {
    /// Wait `milliseconds`, or until an element matches `selector` (one of them).
    #[serde(rename_all = "camelCase")]
    Wait {
        /// Milliseconds to wait.
        #[serde(default)]
        milliseconds: Option<u64>,
        /// A CSS selector to wait for.
        #[serde(default)]
        selector: Option<String>,
    },
    /// Click the first visible element matching `selector`.
    Click {
        /// A CSS selector.
        selector: String,
        /// Every element matching it: not answered (400).
        #[serde(default)]
        all: bool,
    },
    /// Scroll the page down one round (`direction: down`, the default).
    Scroll {
        /// Only `down` is answered.
        #[serde(default)]
        direction: Option<String>,
    },
    /// A PNG of the page, kept with the session; its URL is in `actions.screenshots`.
    #[serde(rename_all = "camelCase")]
    Screenshot {
        /// The whole page instead of the viewport.
        #[serde(default)]
        full_page: bool,
    },
    /// Any other type (`write`, `press`, `executeJavascript`, `scrape`, `pdf`): refused with
    /// 400 — the server runs no code from a request, and types nothing into pages.
    #[serde(other)]
    Unsupported,
}

/// The answer of `POST /v2/scrape`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ScrapeResponse {
    /// Always true.
    pub success: bool,
    /// The page in the formats asked for.
    pub data: ScrapeDocument,
}

/// One page in the formats asked for (a format not asked for is absent).
#[derive(Debug, Default, Serialize, JsonSchema)]
pub struct ScrapeDocument {
    /// The main content as Markdown (`markdown`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub markdown: Option<String>,
    /// The page as served (`html`; not cleaned).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub html: Option<String>,
    /// The page as served (`rawHtml`).
    #[serde(rename = "rawHtml", skip_serializing_if = "Option::is_none")]
    pub raw_html: Option<String>,
    /// The page's http(s) links, absolute (`links`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub links: Option<Vec<String>>,
    /// Our planner's answer to the prompt/schema (`json`; null when nothing was found).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub json: Option<Value>,
    /// Where the page's screenshot is served (`screenshot`; a path on this server).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub screenshot: Option<String>,
    /// What the `actions` gave: the screenshots' URLs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actions: Option<ActionResults>,
    /// About the page and the read.
    pub metadata: ScrapeMetadata,
}

/// What `actions` gave.
#[derive(Debug, Default, Serialize, JsonSchema)]
pub struct ActionResults {
    /// The `screenshot` actions' PNGs, in order (paths on this server).
    pub screenshots: Vec<String>,
}

/// `metadata` of a scraped page.
#[derive(Debug, Default, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScrapeMetadata {
    /// The URL asked for.
    #[serde(rename = "sourceURL")]
    pub source_url: String,
    /// The URL that answered (after redirects).
    pub url: String,
    /// The HTTP status of the page.
    pub status_code: u16,
    /// The page's Content-Type, when it was fetched here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// The page's `<title>`, when it was fetched here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The session that read it (`GET /api/scrape/{id}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scrape_id: Option<String>,
}

/// `{prompt, schema}` as instructions for our planner: the prompt, and the schema's property
/// names as the fields to answer.
fn json_instructions(prompt: Option<&str>, schema: Option<&Value>) -> String {
    let fields: Vec<&str> = schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default();
    match (
        prompt.map(str::trim).filter(|p| !p.is_empty()),
        fields.is_empty(),
    ) {
        (Some(prompt), true) => prompt.to_owned(),
        (Some(prompt), false) => format!("{prompt} ({})", fields.join(", ")),
        (None, false) => format!("the {}", fields.join(", ")),
        (None, true) => "the page's metadata".to_owned(),
    }
}

/// The trimmed, non-empty selectors of `includeTags`/`excludeTags` (`field`), as one CSS list,
/// or the 400 naming one that is not CSS.
fn selector_list(field: &str, tags: Option<&[String]>) -> Result<Option<String>, Response> {
    let mut list = Vec::new();
    for tag in tags.unwrap_or_default().iter().map(|t| t.trim()) {
        if tag.is_empty() {
            continue;
        }
        if let Err(why) = crate::page::dom::parse_selector(tag) {
            return Err(failure(
                StatusCode::BAD_REQUEST,
                format!("Bad Request: {field}: `{tag}` is not a CSS selector: {why}"),
            ));
        }
        list.push(tag);
    }
    Ok((!list.is_empty()).then(|| list.join(", ")))
}

/// The `browser.*` calls `waitFor`, `actions` and the `screenshot` format ask for, in order,
/// or the 400 refusing an action we do not answer.
fn browser_calls(body: &ScrapeBody, screenshot: Option<bool>) -> Result<Vec<ToolCall>, Response> {
    use crate::tools::browser::{
        ClickParams, RenderParams, ScreenshotParams, ScrollParams, WaitFor,
    };
    let refuse = |why: String| failure(StatusCode::BAD_REQUEST, format!("Bad Request: {why}"));
    let mut calls = Vec::new();
    if let Some(ms) = body.wait_for.filter(|ms| *ms > 0) {
        let params = RenderParams {
            wait: WaitFor::Ms,
            ms: Some(ms),
            selector: None,
        };
        calls.push(ToolCall::typed(&params, format!("waitFor: {ms} ms")));
    }
    for (i, action) in body.actions.iter().flatten().enumerate() {
        let why = format!("actions[{i}]");
        let call = match action {
            Action::Wait {
                milliseconds: Some(ms),
                selector: None,
            } => ToolCall::typed(
                &RenderParams {
                    wait: WaitFor::Ms,
                    ms: Some(*ms),
                    selector: None,
                },
                why,
            ),
            Action::Wait {
                milliseconds: None,
                selector: Some(selector),
            } => ToolCall::typed(
                &RenderParams {
                    wait: WaitFor::Selector,
                    ms: None,
                    selector: Some(selector.clone()),
                },
                why,
            ),
            Action::Wait { .. } => {
                return Err(refuse(format!(
                    "{why}: a wait takes `milliseconds` or `selector`, one of them"
                )));
            }
            Action::Click { all: true, .. } => {
                return Err(refuse(format!(
                    "{why}: `all: true` is not answered here; click one element by its selector"
                )));
            }
            Action::Click {
                selector,
                all: false,
            } => ToolCall::typed(
                &ClickParams {
                    text: None,
                    selector: Some(selector.clone()),
                },
                why,
            ),
            Action::Scroll { direction } => {
                if direction.as_deref().is_some_and(|d| d != "down") {
                    return Err(refuse(format!(
                        "{why}: only `direction: down` scrolls here"
                    )));
                }
                ToolCall::typed(
                    &ScrollParams {
                        count: None,
                        max_rounds: Some(1),
                    },
                    why,
                )
            }
            Action::Screenshot { full_page } => ToolCall::typed(
                &ScreenshotParams {
                    full_page: *full_page,
                },
                why,
            ),
            Action::Unsupported => {
                return Err(refuse(format!(
                    "{why}: the action types answered here are wait, click, scroll and screenshot"
                )));
            }
        };
        calls.push(call);
    }
    if let Some(full_page) = screenshot {
        calls.push(ToolCall::typed(
            &ScreenshotParams { full_page },
            "formats: screenshot",
        ));
    }
    Ok(calls)
}

/// The request that answers `markdown` (and the browser's calls before it): the page's main
/// content (`extract.main_content`, less `excludeTags`), or with `onlyMainContent: false`
/// the whole page and with `includeTags` the elements they select (`extract.markdown`).
fn markdown_request(
    url: &str,
    body: &ScrapeBody,
    browser: Vec<ToolCall>,
) -> Result<ScrapeRequest, Response> {
    use crate::tools::extract::{MainContentParams, MarkdownParams};
    let mut request = crate::app::markdown_request(vec![url.to_owned()]);
    let include = selector_list("includeTags", body.include_tags.as_deref())?;
    let exclude = selector_list("excludeTags", body.exclude_tags.as_deref())?;
    let whole_page = body.only_main_content == Some(false);
    if include.is_none() && !whole_page && exclude.is_none() && browser.is_empty() {
        return Ok(request);
    }
    let content = if include.is_none() && !whole_page {
        let why = exclude.as_ref().map_or_else(
            || "the page's main content as Markdown".to_owned(),
            |css| format!("the main content as Markdown, less excludeTags `{css}`"),
        );
        ToolCall::typed(&MainContentParams { exclude }, why)
    } else {
        let why = include.as_ref().map_or_else(
            || "onlyMainContent: false — the whole page as Markdown".to_owned(),
            |css| format!("includeTags — the elements `{css}` as Markdown"),
        );
        ToolCall::typed(
            &MarkdownParams {
                selector: include,
                exclude,
            },
            why,
        )
    };
    request.tools = Some(browser.into_iter().chain([content]).collect());
    Ok(request)
}

/// What the browser's calls of session `id` did: the screenshots' URLs, in order, or the
/// first call that failed (a click that found nothing, a wait that timed out).
async fn browser_outcome(state: &AppState, id: &str) -> Result<Vec<String>, Response> {
    let events = state
        .hub
        .store()
        .events_after(id, 0)
        .await
        .map_err(|e| failure(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    let mut screenshots = Vec::new();
    for event in &events {
        let Ok(EventPayload::Step(step)) = EventPayload::from_event(event) else {
            continue;
        };
        let StepPayload::ToolCall(call) = step.payload else {
            continue;
        };
        if !call.tool.starts_with("browser.") {
            continue;
        }
        if !call.success {
            let why = call
                .error
                .unwrap_or_else(|| format!("{} failed", call.tool));
            return Err(failure(StatusCode::BAD_REQUEST, why));
        }
        if call.tool == crate::tools::browser::ScreenshotParams::TOOL
            && let Some(url) = call.result.get("url").and_then(Value::as_str)
        {
            screenshots.push(url.to_owned());
        }
    }
    Ok(screenshots)
}

/// `POST /v2/scrape`.
pub async fn scrape(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body: ScrapeBody = match parse(body) {
        Ok(body) => body,
        Err(response) => return response,
    };
    let started = Sessions::default();
    let Some(timeout) = body.timeout else {
        return scrape_page(&state, body, &started).await;
    };
    let within = Duration::from_millis(timeout);
    match tokio::time::timeout(within, scrape_page(&state, body, &started)).await {
        Ok(response) => response,
        Err(_) => {
            // The runs this scrape started go on in their sessions until cancelled here.
            for id in started.take() {
                if let Err(err) = state.hub.cancel(&id).await {
                    tracing::warn!(session = %id, error = %err, "a timed-out scrape's run was not cancelled");
                }
            }
            failure(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "Request timed out: the scrape took longer than its timeout of {timeout} ms"
                ),
            )
        }
    }
}

/// `POST /v2/scrape` within its timeout.
async fn scrape_page(state: &AppState, mut body: ScrapeBody, started: &Sessions) -> Response {
    let formats = body
        .formats
        .take()
        .unwrap_or_else(|| vec![Format::Name("markdown".into())]);
    if let Some(unsupported) = formats
        .iter()
        .find(|f| !SUPPORTED_FORMATS.contains(&f.kind()))
    {
        return failure(
            StatusCode::BAD_REQUEST,
            format!(
                "format `{}` is not supported here; supported: {}",
                unsupported.kind(),
                SUPPORTED_FORMATS.join(", ")
            ),
        );
    }
    let mut data = ScrapeDocument {
        metadata: ScrapeMetadata {
            source_url: body.url.clone(),
            ..ScrapeMetadata::default()
        },
        ..ScrapeDocument::default()
    };
    let screenshot = formats.iter().find_map(|f| match f {
        Format::Name(name) if name == "screenshot" => Some(false),
        Format::Object {
            kind, full_page, ..
        } if kind == "screenshot" => Some(*full_page),
        _ => None,
    });
    let browser = match browser_calls(&body, screenshot) {
        Ok(calls) => calls,
        Err(response) => return response,
    };
    let uses_browser = !browser.is_empty();
    let wants_markdown = formats.iter().any(|f| f.kind() == "markdown");
    if wants_markdown || uses_browser {
        let request = match markdown_request(&body.url, &body, browser) {
            Ok(request) => request,
            Err(response) => return response,
        };
        match run(state, request, started).await {
            Ok((id, complete)) => {
                if uses_browser {
                    let shots = match browser_outcome(state, &id).await {
                        Ok(shots) => shots,
                        Err(response) => return response,
                    };
                    let from_actions = shots.len() - usize::from(screenshot.is_some());
                    if body.actions.as_ref().is_some_and(|a| !a.is_empty()) {
                        data.actions = Some(ActionResults {
                            screenshots: shots[..from_actions].to_vec(),
                        });
                    }
                    if screenshot.is_some() {
                        data.screenshot = shots.last().cloned();
                    }
                }
                if wants_markdown {
                    // `extract.markdown` answers the text itself; the main content answers a
                    // record whose Markdown is the run's Markdown output.
                    data.markdown = Some(match complete.extracted_data.get(&body.url) {
                        Some(Value::String(text)) => text.clone(),
                        _ => complete.output,
                    });
                }
                data.metadata.scrape_id = Some(id);
            }
            Err(response) => return response,
        }
    }
    if let Some(format) = formats.iter().find(|f| f.kind() == "json") {
        let (prompt, schema) = match format {
            Format::Object { prompt, schema, .. } => (prompt.as_deref(), schema.as_ref()),
            Format::Name(_) => (None, None),
        };
        let mut request =
            ScrapeRequest::new(vec![body.url.clone()], json_instructions(prompt, schema));
        if uses_browser {
            // The planner's tools read the page as the browser shows it.
            request.render = crate::events::RenderMode::Always;
        }
        match run(state, request, started).await {
            Ok((id, complete)) => {
                let answer = complete
                    .extracted_data
                    .get(&body.url)
                    .cloned()
                    .unwrap_or(Value::Null);
                data.json = Some(answer);
                data.metadata.scrape_id.get_or_insert(id);
            }
            Err(response) => return response,
        }
    }
    let wants_page = formats
        .iter()
        .any(|f| matches!(f.kind(), "html" | "rawHtml" | "links"))
        || data.metadata.scrape_id.is_none();
    if wants_page {
        let page = match state.fetcher.fetch_html(&body.url).await {
            Ok(page) => page,
            Err(err) => return failure(StatusCode::BAD_REQUEST, err.to_string()),
        };
        let links = page_links(&Page::parse(page.final_url.clone(), &page.html));
        for format in &formats {
            match format.kind() {
                // Our HTML is the page as served: no cleaning (see README).
                "html" => data.html = Some(page.html.clone()),
                "rawHtml" => data.raw_html = Some(page.html.clone()),
                "links" => data.links = Some(links.links.clone()),
                _ => {}
            }
        }
        data.metadata.url = page.final_url.to_string();
        data.metadata.status_code = page.status;
        data.metadata.content_type = Some(page.content_type);
        data.metadata.title = links.title;
    } else {
        data.metadata.url.clone_from(&body.url);
        data.metadata.status_code = 200;
    }
    success(ScrapeResponse {
        success: true,
        data,
    })
}

/// Runs `request` to its end; a run that fails is Firecrawl's error body.
/// The sessions a `/v2/scrape` started, so a timeout can cancel them.
#[derive(Default)]
struct Sessions(std::sync::Mutex<Vec<String>>);

impl Sessions {
    /// A new session id, remembered.
    fn next(&self) -> String {
        let id = uuid::Uuid::new_v4().to_string();
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(id.clone());
        id
    }

    fn take(&self) -> Vec<String> {
        std::mem::take(
            &mut *self
                .0
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    }
}

async fn run(
    state: &AppState,
    mut request: ScrapeRequest,
    started: &Sessions,
) -> Result<(String, crate::events::CompleteData), Response> {
    request.session_id = Some(started.next());
    let started = state.run_to_completion(request, RunOrigin::default()).await;
    let (id, complete) = match started {
        Ok(done) => done,
        Err(refusal) => {
            let error = super::ApiError::from(refusal);
            return Err(failure(error.status, error.message));
        }
    };
    let Some(complete) = complete else {
        return Err(failure(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the run of session {id} did not finish"),
        ));
    };
    if complete.status != RunStatus::Completed {
        let message = complete.errors.first().map_or_else(
            || format!("the page could not be read (session {id})"),
            |e| e.message.clone(),
        );
        return Err(failure(StatusCode::BAD_REQUEST, message));
    }
    Ok((id, complete))
}

/// The body of `POST /v2/map`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MapBody {
    /// The site (http or https).
    pub url: String,
    /// Words ranking the URLs (in URL and title).
    #[serde(default)]
    pub search: Option<String>,
    /// Whether the sitemaps are read: `include` (default), `only`, `skip`.
    #[serde(default)]
    pub sitemap: Option<SitemapMode>,
    /// Whether subdomains of the site are listed.
    #[serde(default)]
    pub include_subdomains: Option<bool>,
    /// URLs listed at most (at most `crawl.map_max_limit`).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// The answer of `POST /v2/map`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MapAnswer {
    /// Always true.
    pub success: bool,
    /// The site's URLs.
    pub links: Vec<MapEntry>,
}

/// One URL of a map.
#[derive(Debug, Serialize, JsonSchema)]
pub struct MapEntry {
    /// The page.
    pub url: String,
    /// Its title, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// `POST /v2/map`: `{success, links: [{url, title?}]}`.
pub async fn map_site(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body: MapBody = match parse(body) {
        Ok(body) => body,
        Err(response) => return response,
    };
    let request = MapRequest {
        url: body.url,
        limit: body
            .limit
            .map(|l| l.min(state.settings.crawl.map_max_limit)),
        search: body.search,
        sitemap: body.sitemap.unwrap_or_default(),
        include_subdomains: body.include_subdomains.unwrap_or(false),
    };
    let valid = match request.validate(&state.settings.crawl) {
        Ok(valid) => valid,
        Err(rejection) => return failure(StatusCode::BAD_REQUEST, rejection.message),
    };
    match map::map(&state.fetcher, &state.settings.crawl, valid, |_| {}).await {
        Ok(answer) => success(MapAnswer {
            success: true,
            links: answer
                .links
                .into_iter()
                .map(|l| MapEntry {
                    url: l.url,
                    title: l.title,
                })
                .collect(),
        }),
        Err(err) => failure(StatusCode::BAD_REQUEST, err.to_string()),
    }
}

/// The body of `POST /v2/crawl` (what we read of it; other Firecrawl fields are ignored).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CrawlBody {
    /// The seed (http or https).
    pub url: String,
    /// Pages read at most (`crawl.max_pages`).
    #[serde(default)]
    pub limit: Option<u32>,
    /// Links followed from the seed at most (`crawl.max_depth`).
    #[serde(default)]
    pub max_discovery_depth: Option<u32>,
    /// Path patterns (globs) a page must match one of (`crawl.include`).
    #[serde(default)]
    pub include_paths: Vec<String>,
    /// Path patterns a page must match none of (`crawl.exclude`).
    #[serde(default)]
    pub exclude_paths: Vec<String>,
    /// Whether the sitemaps are read: `include` (default), `only`, `skip`.
    #[serde(default)]
    pub sitemap: Option<SitemapMode>,
    /// Whether subdomains of the seed's site are crawled.
    #[serde(default)]
    pub allow_subdomains: Option<bool>,
    /// Whether URLs that differ only in their query are one page.
    #[serde(default)]
    pub ignore_query_parameters: Option<bool>,
}

/// The answer of `POST /v2/crawl` and `POST /v2/batch/scrape`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct JobStarted {
    /// Always true.
    pub success: bool,
    /// The job's id (our session id).
    pub id: String,
    /// Where its status is read.
    pub url: String,
}

/// `POST /v2/crawl`: a detached run with a `crawl` object answering each page's Markdown;
/// `{success, id, url}` where `id` is the session id.
pub async fn crawl_start(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body: CrawlBody = match parse(body) {
        Ok(body) => body,
        Err(response) => return response,
    };
    let mut request = crate::app::markdown_request(vec![body.url.clone()]);
    request.crawl = Some(CrawlOptions {
        max_pages: body.limit.map(|l| l.min(state.settings.crawl.max_pages)),
        max_depth: body
            .max_discovery_depth
            .map(|d| d.min(state.settings.crawl.max_depth)),
        include: body.include_paths,
        exclude: body.exclude_paths,
        sitemap: body.sitemap.unwrap_or_default(),
        allow_subdomains: body.allow_subdomains.unwrap_or(false),
        ignore_query: body.ignore_query_parameters.unwrap_or(false),
    });
    let origin = RunOrigin {
        detached: true,
        ..RunOrigin::default()
    };
    // Past this instance's capacity the job waits in the store's queue (its status says
    // `scraping` meanwhile, Firecrawl having no word for it), as a detached run does.
    let admitted = state.start_or_queue(request, origin).await;
    match admitted.map(|admission| admission.id().to_owned()) {
        Ok(id) => success(JobStarted {
            success: true,
            url: format!("/v2/crawl/{id}"),
            id,
        }),
        Err(refusal) => {
            let error = super::ApiError::from(refusal);
            failure(error.status, error.message)
        }
    }
}

/// The body of `POST /v2/batch/scrape` (other Firecrawl fields are ignored).
#[derive(Debug, Deserialize, JsonSchema)]
pub struct BatchBody {
    /// The pages (http or https).
    pub urls: Vec<String>,
}

/// `POST /v2/batch/scrape`: a detached run answering each URL's Markdown; `{success, id, url}`.
/// Its status is `GET /v2/batch/scrape/{id}` (the same answer as a crawl's).
pub async fn batch_start(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body: BatchBody = match parse(body) {
        Ok(body) => body,
        Err(response) => return response,
    };
    let request = crate::app::markdown_request(body.urls);
    let origin = RunOrigin {
        detached: true,
        ..RunOrigin::default()
    };
    let admitted = state.start_or_queue(request, origin).await;
    match admitted.map(|admission| admission.id().to_owned()) {
        Ok(id) => success(JobStarted {
            success: true,
            url: format!("/v2/batch/scrape/{id}"),
            id,
        }),
        Err(refusal) => {
            let error = super::ApiError::from(refusal);
            failure(error.status, error.message)
        }
    }
}

/// Firecrawl's name for a session's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum JobState {
    /// Running.
    Scraping,
    /// Ended with answers (ours `completed` or `partial`).
    Completed,
    /// Cancelled.
    Cancelled,
    /// Ended without answers (ours `failed` or `interrupted`).
    Failed,
}

impl From<RunStatus> for JobState {
    fn from(status: RunStatus) -> Self {
        match status {
            RunStatus::Queued | RunStatus::Running => Self::Scraping,
            RunStatus::Completed | RunStatus::Partial => Self::Completed,
            RunStatus::Cancelled => Self::Cancelled,
            RunStatus::Failed | RunStatus::Interrupted => Self::Failed,
        }
    }
}

/// The answer of `GET /v2/crawl/{id}` and `GET /v2/batch/scrape/{id}`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobStatus {
    /// Always true.
    pub success: bool,
    /// Where the job is.
    pub status: JobState,
    /// Pages answered so far.
    pub completed: u64,
    /// Pages the job reads at most while running; pages answered once it ended.
    pub total: u64,
    /// Pages answered (we count no credits).
    pub credits_used: u64,
    /// When the job's answers may be gone (a day after it started).
    pub expires_at: String,
    /// Always null: every page is in `data`.
    pub next: Option<String>,
    /// The pages answered so far.
    pub data: Vec<JobDocument>,
}

/// One page of a job.
#[derive(Debug, Serialize, JsonSchema)]
pub struct JobDocument {
    /// The page's main content as Markdown.
    pub markdown: Option<String>,
    /// About the page.
    pub metadata: JobMetadata,
}

/// `metadata` of a job's page.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobMetadata {
    /// The page.
    #[serde(rename = "sourceURL")]
    pub source_url: String,
    /// The page.
    pub url: String,
    /// 200: only pages read are listed.
    pub status_code: u16,
    /// The page's title, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// The answer of `DELETE /v2/crawl/{id}` and `DELETE /v2/batch/scrape/{id}`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct JobCancelled {
    /// Always true.
    pub success: bool,
    /// Always `cancelled`.
    pub status: JobState,
}

/// `GET /v2/crawl/{id}`: a [`JobStatus`]; pages appear as they are read.
pub async fn crawl_status_of(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    if !valid_session_id(&id) {
        return failure(StatusCode::BAD_REQUEST, "invalid crawl id");
    }
    let store = state.hub.store();
    let session = match store.session(&id).await {
        Ok(session) => session,
        Err(StoreError::NotFound(_)) => {
            return failure(StatusCode::NOT_FOUND, "Crawl job not found");
        }
        Err(err) => return failure(StatusCode::INTERNAL_SERVER_ERROR, err.to_string()),
    };
    let answers = match &session.result {
        Some(result) => result
            .get("extracted_data")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default(),
        None => store.answers(&id).await.unwrap_or_default(),
    };
    let data: Vec<JobDocument> = answers
        .iter()
        .filter(|(_, answer)| !answer.is_null())
        .map(|(url, answer)| JobDocument {
            markdown: answer
                .get("markdown")
                .and_then(Value::as_str)
                .map(str::to_owned),
            metadata: JobMetadata {
                source_url: url.clone(),
                url: url.clone(),
                status_code: 200,
                title: answer
                    .get("title")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            },
        })
        .collect();
    let answered = data.len() as u64;
    let total = session
        .request
        .get("crawl")
        .and_then(|c| c.get("max_pages"))
        .and_then(Value::as_u64)
        .filter(|_| !session.status.is_final())
        .unwrap_or(answers.len() as u64);
    success(JobStatus {
        success: true,
        status: session.status.into(),
        completed: answered,
        total: total.max(answered),
        credits_used: answered,
        expires_at: (session.created_at + chrono::Duration::days(1)).to_rfc3339(),
        next: None,
        data,
    })
}

/// `DELETE /v2/crawl/{id}`: cancels the session; `{success, status: "cancelled"}`.
pub async fn crawl_cancel(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    if !valid_session_id(&id) {
        return failure(StatusCode::BAD_REQUEST, "invalid crawl id");
    }
    match state.hub.store().session(&id).await {
        Ok(_) => {}
        Err(StoreError::NotFound(_)) => {
            return failure(StatusCode::NOT_FOUND, "Crawl job not found");
        }
        Err(err) => return failure(StatusCode::INTERNAL_SERVER_ERROR, err.to_string()),
    }
    match state.hub.cancel(&id).await {
        Ok(_) => success(JobCancelled {
            success: true,
            status: JobState::Cancelled,
        }),
        Err(err) => failure(StatusCode::INTERNAL_SERVER_ERROR, err.to_string()),
    }
}
