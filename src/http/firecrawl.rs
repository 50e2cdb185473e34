//! Firecrawl's v2 API, the subset integrations use: `POST /v2/scrape`, `POST /v2/map`,
//! `POST /v2/crawl`, `GET /v2/crawl/{id}`, `DELETE /v2/crawl/{id}`, `POST /v2/batch/scrape`,
//! `GET /v2/batch/scrape/{id}`, `DELETE /v2/batch/scrape/{id}`. Each scrape and crawl is
//! one of our sessions (listed, replayable, cancellable like any other); answers and errors
//! have Firecrawl's shapes (`{success, data}`, `{success: false, error}`), fields are camelCase
//! and fields we do not read are ignored, as Firecrawl's own server does.

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::app::{AppState, RunOrigin};
use crate::events::RunStatus;
use crate::page::Page;
use crate::read::links::page_links;
use crate::run::ScrapeRequest;
use crate::run::crawl::CrawlOptions;
use crate::run::map::{self, MapRequest, SitemapMode};
use crate::run::request::valid_session_id;
use crate::store::StoreError;

/// `{success: false, error}` with `status`.
fn failure(status: StatusCode, error: impl Into<String>) -> Response {
    (
        status,
        Json(json!({"success": false, "error": error.into()})),
    )
        .into_response()
}

fn parse<T: serde::de::DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
) -> Result<T, Response> {
    let bytes = body.map_err(|r| failure(r.status(), r.body_text()))?;
    serde_json::from_slice(&bytes)
        .map_err(|e| failure(StatusCode::BAD_REQUEST, format!("Bad Request: {e}")))
}

/// A format of `formats`: a name, or `{type, prompt?, schema?}`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Format {
    Name(String),
    Object {
        #[serde(rename = "type")]
        kind: String,
        #[serde(default)]
        prompt: Option<String>,
        #[serde(default)]
        schema: Option<Value>,
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
const SUPPORTED_FORMATS: &[&str] = &["markdown", "html", "rawHtml", "links", "json"];

/// The body of `POST /v2/scrape` (what we read of it).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ScrapeBody {
    url: String,
    #[serde(default)]
    formats: Option<Vec<Format>>,
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

/// The request that answers `markdown`: the page's main content (`extract.main_content`).
/// `onlyMainContent: false` is read but not honoured: we have no whole-page Markdown (README).
fn markdown_request(url: &str) -> ScrapeRequest {
    crate::app::markdown_request(vec![url.to_owned()])
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
    let formats = body
        .formats
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
    let mut data = Map::new();
    let mut metadata = Map::new();
    metadata.insert("sourceURL".into(), json!(body.url));
    if formats.iter().any(|f| f.kind() == "markdown") {
        let request = markdown_request(&body.url);
        match run(&state, request).await {
            Ok((id, complete)) => {
                data.insert("markdown".into(), json!(complete.output));
                metadata.insert("scrapeId".into(), json!(id));
            }
            Err(response) => return response,
        }
    }
    if let Some(format) = formats.iter().find(|f| f.kind() == "json") {
        let (prompt, schema) = match format {
            Format::Object { prompt, schema, .. } => (prompt.as_deref(), schema.as_ref()),
            Format::Name(_) => (None, None),
        };
        let request = ScrapeRequest::new(vec![body.url.clone()], json_instructions(prompt, schema));
        match run(&state, request).await {
            Ok((id, complete)) => {
                let answer = complete
                    .extracted_data
                    .get(&body.url)
                    .cloned()
                    .unwrap_or(Value::Null);
                data.insert("json".into(), answer);
                metadata.entry("scrapeId").or_insert(json!(id));
            }
            Err(response) => return response,
        }
    }
    let wants_page = formats
        .iter()
        .any(|f| matches!(f.kind(), "html" | "rawHtml" | "links"))
        || !metadata.contains_key("scrapeId");
    if wants_page {
        let page = match state.fetcher.fetch_html(&body.url).await {
            Ok(page) => page,
            Err(err) => return failure(StatusCode::BAD_REQUEST, err.to_string()),
        };
        let links = page_links(&Page::parse(page.final_url.clone(), &page.html));
        for format in &formats {
            match format.kind() {
                // Our HTML is the page as served: no cleaning (see README).
                "html" | "rawHtml" => {
                    data.insert(format.kind().to_owned(), json!(page.html));
                }
                "links" => {
                    data.insert("links".into(), json!(links.links));
                }
                _ => {}
            }
        }
        metadata.insert("url".into(), json!(page.final_url.as_str()));
        metadata.insert("statusCode".into(), json!(page.status));
        metadata.insert("contentType".into(), json!(page.content_type));
        if let Some(title) = links.title {
            metadata.insert("title".into(), json!(title));
        }
    } else {
        metadata.insert("url".into(), json!(body.url));
        metadata.insert("statusCode".into(), json!(200));
    }
    data.insert("metadata".into(), Value::Object(metadata));
    Json(json!({"success": true, "data": data})).into_response()
}

/// Runs `request` to its end; a run that fails is Firecrawl's error body.
async fn run(
    state: &AppState,
    request: ScrapeRequest,
) -> Result<(String, crate::events::CompleteData), Response> {
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
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct MapBody {
    url: String,
    #[serde(default)]
    search: Option<String>,
    #[serde(default)]
    sitemap: Option<SitemapMode>,
    #[serde(default)]
    include_subdomains: Option<bool>,
    #[serde(default)]
    limit: Option<usize>,
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
        Ok(answer) => {
            let links: Vec<Value> = answer
                .links
                .iter()
                .map(|l| match &l.title {
                    Some(title) => json!({"url": l.url, "title": title}),
                    None => json!({"url": l.url}),
                })
                .collect();
            Json(json!({"success": true, "links": links})).into_response()
        }
        Err(err) => failure(StatusCode::BAD_REQUEST, err.to_string()),
    }
}

/// The body of `POST /v2/crawl`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CrawlBody {
    url: String,
    #[serde(default)]
    limit: Option<u32>,
    #[serde(default)]
    max_discovery_depth: Option<u32>,
    #[serde(default)]
    include_paths: Vec<String>,
    #[serde(default)]
    exclude_paths: Vec<String>,
    #[serde(default)]
    sitemap: Option<SitemapMode>,
    #[serde(default)]
    allow_subdomains: Option<bool>,
    #[serde(default)]
    ignore_query_parameters: Option<bool>,
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
    let mut request = markdown_request(&body.url);
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
    match state.start_run(request, origin).await {
        Ok(id) => Json(json!({"success": true, "id": id, "url": format!("/v2/crawl/{id}")}))
            .into_response(),
        Err(refusal) => {
            let error = super::ApiError::from(refusal);
            failure(error.status, error.message)
        }
    }
}

/// The body of `POST /v2/batch/scrape`.
#[derive(Debug, Deserialize)]
struct BatchBody {
    urls: Vec<String>,
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
    match state.start_run(request, origin).await {
        Ok(id) => Json(json!({"success": true, "id": id, "url": format!("/v2/batch/scrape/{id}")}))
            .into_response(),
        Err(refusal) => {
            let error = super::ApiError::from(refusal);
            failure(error.status, error.message)
        }
    }
}

/// Firecrawl's name for a session's status.
fn crawl_status(status: RunStatus) -> &'static str {
    match status {
        RunStatus::Running => "scraping",
        RunStatus::Completed | RunStatus::Partial => "completed",
        RunStatus::Cancelled => "cancelled",
        _ => "failed",
    }
}

/// `GET /v2/crawl/{id}`: `{success, status, completed, total, creditsUsed, expiresAt, next,
/// data: [{markdown, metadata: {sourceURL, url, statusCode}}]}`; pages appear as they are read.
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
    let data: Vec<Value> = answers
        .iter()
        .filter(|(_, answer)| !answer.is_null())
        .map(|(url, answer)| {
            let mut metadata = json!({"sourceURL": url, "url": url, "statusCode": 200});
            if let Some(title) = answer.get("title").filter(|t| !t.is_null()) {
                metadata["title"] = title.clone();
            }
            json!({
                "markdown": answer.get("markdown").cloned().unwrap_or(Value::Null),
                "metadata": metadata,
            })
        })
        .collect();
    let total = session
        .request
        .get("crawl")
        .and_then(|c| c.get("max_pages"))
        .and_then(Value::as_u64)
        .filter(|_| session.status == RunStatus::Running)
        .unwrap_or(answers.len() as u64);
    Json(json!({
        "success": true,
        "status": crawl_status(session.status),
        "completed": data.len(),
        "total": total.max(data.len() as u64),
        "creditsUsed": data.len(),
        "expiresAt": (session.created_at + chrono::Duration::days(1)).to_rfc3339(),
        "next": null,
        "data": data,
    }))
    .into_response()
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
        Ok(_) => Json(json!({"success": true, "status": "cancelled"})).into_response(),
        Err(err) => failure(StatusCode::INTERNAL_SERVER_ERROR, err.to_string()),
    }
}
