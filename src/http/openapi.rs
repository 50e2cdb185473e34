//! The contract as a document: OpenAPI 3.1 at `/api/openapi.json`, and `/docs` to read it.
//!
//! Every schema comes from the Rust types the server speaks (schemars reads their serde
//! attributes), so the document cannot say what the code does not do; the SSE events are
//! described one event type at a time (`init`, `url_start`, `step`, `url_complete`,
//! `complete`, `error`) with the payload type of each. The paths are written out here.

use std::sync::OnceLock;

use axum::Json;
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema};
use serde_json::{Map, Value, json};

use super::error::ErrorBody;
use crate::events::{CompleteData, ErrorData, InitData, ScrapeStep, UrlCompleteData, UrlStartData};
use crate::run::ScrapeRequest;

/// `GET /api/openapi.json`.
pub async fn document() -> Json<Value> {
    Json(openapi().clone())
}

/// `GET /docs`: a page that renders the document, with nothing fetched from elsewhere.
pub async fn docs() -> Response {
    (
        [(
            header::CONTENT_SECURITY_POLICY,
            "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'",
        )],
        Html(include_str!("docs.html")),
    )
        .into_response()
}

/// The payload type of each SSE event type, in contract order.
pub const EVENT_TYPES: [&str; 6] = [
    "init",
    "url_start",
    "step",
    "url_complete",
    "complete",
    "error",
];

/// The document (built once).
pub fn openapi() -> &'static Value {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(build)
}

/// Schemas gathered under `#/components/schemas/`.
struct Components {
    generator: schemars::SchemaGenerator,
}

impl Components {
    fn new() -> Self {
        let settings = SchemaSettings::draft2020_12().with(|s| {
            s.definitions_path = "/components/schemas".into();
        });
        Self {
            generator: settings.into_generator(),
        }
    }

    /// A `$ref` to `T`'s schema, registering it (and what it uses).
    fn of<T: JsonSchema>(&mut self) -> Value {
        let schema: Schema = self.generator.subschema_for::<T>();
        schema.to_value()
    }
}

fn build() -> Value {
    let mut components = Components::new();
    let request = components.of::<ScrapeRequest>();
    let error = components.of::<ErrorBody>();
    let map_request = components.of::<crate::run::map::MapRequest>();
    let map_response = components.of::<crate::run::map::MapResponse>();
    let deliveries = components.of::<super::scrape::WebhookDeliveries>();
    let webhook_payload = components.of::<crate::webhook::WebhookPayload>();
    let detached_run = components.of::<super::scrape::DetachedRun>();
    let v2 = firecrawl_paths(&mut components);
    let payloads = [
        components.of::<InitData>(),
        components.of::<UrlStartData>(),
        components.of::<ScrapeStep>(),
        components.of::<UrlCompleteData>(),
        components.of::<CompleteData>(),
        components.of::<ErrorData>(),
    ];
    let mut schemas: Map<String, Value> = components
        .generator
        .take_definitions(true)
        .into_iter()
        .collect();
    if let Some(request) = schemas.get_mut("ScrapeRequest") {
        describe_request(request);
    }
    let event_examples = event_examples();
    // One envelope per event type: `type` names it, `data` has that type's payload.
    let mut envelopes = Vec::new();
    for ((kind, payload), example) in EVENT_TYPES.iter().zip(payloads).zip(event_examples) {
        let name = format!("{}Event", pascal(kind));
        schemas.insert(
            name.clone(),
            json!({
                "type": "object",
                "description": format!("The `{kind}` event: the SSE `event:` line is `{kind}`, its `id:` is `seq`, its `data:` is this object."),
                "required": ["type", "session_id", "seq", "data"],
                "properties": {
                    "type": {"const": kind},
                    "session_id": {"type": "string"},
                    "seq": {"type": "integer", "minimum": 1},
                    "data": payload,
                },
                "examples": [{"type": kind, "session_id": EXAMPLE_SESSION, "seq": 1, "data": example}],
            }),
        );
        envelopes.push(json!({"$ref": format!("#/components/schemas/{name}")}));
    }
    schemas.insert(
        "StreamEvent".into(),
        json!({
            "description": "Any event of a run's stream, told apart by `type`.",
            "oneOf": envelopes,
            "discriminator": {"propertyName": "type"},
        }),
    );
    let errors = |codes: &[(&str, &str)]| -> Map<String, Value> {
        codes
            .iter()
            .map(|(status, what)| {
                (
                    (*status).to_owned(),
                    json!({"description": what, "content": {"application/json": {"schema": error}}}),
                )
            })
            .collect()
    };
    let stream = json!({
        "description": "The run's events as Server-Sent Events (`text/event-stream`): one `init`, per URL a `url_start`, its `step`s and a `url_complete` (`error` events where something failed), and a last `complete`. Keep-alive comments while quiet.",
        "headers": {"X-Session-Id": {"schema": {"type": "string"}, "description": "The run's session id"}},
        "content": {"text/event-stream": {
            // OpenAPI 3.2's description of one SSE event: its `data:` is a JSON text of a
            // StreamEvent.
            "itemSchema": {
                "type": "object",
                "required": ["data"],
                "properties": {
                    "event": {"enum": EVENT_TYPES},
                    "id": {"type": "string"},
                    "data": {
                        "type": "string",
                        "contentMediaType": "application/json",
                        "contentSchema": {"$ref": "#/components/schemas/StreamEvent"},
                    },
                },
            },
        }},
    });
    let complete_schema = json!({"$ref": "#/components/schemas/CompleteData"});
    let waited = json!({
        "description": "With `?wait=true` or `Accept: application/json` (without `text/event-stream`): the run's `complete` payload, once the run has ended (within `limits.run_timeout_secs`), whatever its status.",
        "headers": {"X-Session-Id": {"schema": {"type": "string"}, "description": "The run's session id"}},
        "content": {"application/json": {"schema": complete_schema, "example": complete_example()}},
    });
    let wait_param = json!({"name": "wait", "in": "query", "schema": {"type": "boolean"}, "description": "Wait for the run and answer its `complete` payload as JSON (as `Accept: application/json` does)"});
    let mut start_errors = errors(&[
        ("400", "The request cannot run (see `error.code`)"),
        ("401", "An API key is needed (`unauthorized`)"),
        (
            "403",
            "A page of another site sent it (`cross_site_request`), or a host name the server does not answer to (`foreign_host`)",
        ),
        ("408", "The body did not arrive in time (`request_timeout`)"),
        ("409", "The session id is taken (`duplicate_session`)"),
        ("413", "Too many URLs or too large a body"),
        (
            "429",
            "Too many runs (`too_many_runs`, `too_many_runs_for_key`); see Retry-After",
        ),
        (
            "503",
            "The server is shutting down (`shutting_down`), or the session store cannot take \
             the run now (`store_unavailable`, retryable); see Retry-After",
        ),
    ]);
    start_errors.append(&mut errors(&[(
        "504",
        "Asked to wait, the run did not end in time (`wait_timeout`); read it at `result_url`",
    )]));
    let mut stream_or_json = stream.clone();
    stream_or_json["description"] = json!(format!(
        "{} {}",
        stream["description"].as_str().unwrap_or_default(),
        waited["description"].as_str().unwrap_or_default()
    ));
    stream_or_json["content"]["application/json"] = waited["content"]["application/json"].clone();
    let mut stream_responses = Map::new();
    stream_responses.insert("200".into(), stream.clone());
    stream_responses.append(&mut start_errors.clone());
    let mut stream_post_responses = stream_responses.clone();
    stream_post_responses.insert("200".into(), stream_or_json);
    let mut detached = Map::new();
    detached.insert(
        "202".into(),
        json!({"description": "The run started (`status: running`), or every slot of this instance was taken and it waits in the store's queue for the first instance with room (`status: queued`, with its `position`, 1 being the next to start) instead of being refused. Either way follow `events_url` (from the start, even while queued) and read `result_url`.", "headers": {"Location": {"schema": {"type": "string"}, "description": "The run's session (`result_url`)"}}, "content": {"application/json": {"schema": detached_run, "examples": {
            "running": {"value": {"session_id": EXAMPLE_SESSION, "status": "running", "events_url": format!("/api/scrape/{EXAMPLE_SESSION}/events"), "result_url": format!("/api/scrape/{EXAMPLE_SESSION}")}},
            "queued": {"value": {"session_id": EXAMPLE_SESSION, "status": "queued", "position": 2, "events_url": format!("/api/scrape/{EXAMPLE_SESSION}/events"), "result_url": format!("/api/scrape/{EXAMPLE_SESSION}")}},
        }}}}),
    );
    detached.insert("200".into(), waited);
    let mut markdown_responses = Map::new();
    markdown_responses.insert(
        "200".into(),
        json!({"description": "The page's main content (the article, without navigation and boilerplate) as Markdown", "headers": {"X-Session-Id": {"schema": {"type": "string"}, "description": "The run's session id"}}, "content": {"text/markdown": {"schema": {"type": "string"}, "example": "# Escaping in practice\n\nPages are untrusted. …"}}}),
    );
    markdown_responses.append(&mut start_errors.clone());
    markdown_responses.append(&mut errors(&[(
        "422",
        "The page could not be read: `error.code` is the URL's error (`fetch_failed`, `blocked_address`, `timeout`, …), `error.details.errors` every error",
    )]));
    detached.append(&mut start_errors);
    let query_params = json!([
        {"name": "url", "in": "query", "required": true, "schema": {"type": "array", "items": {"type": "string", "format": "uri"}}, "style": "form", "explode": true, "description": "A URL to scrape (repeat for more)"},
        {"name": "instructions", "in": "query", "schema": {"type": "string"}},
        {"name": "output_format", "in": "query", "schema": {"enum": ["json", "csv", "markdown", "text"]}},
        {"name": "output_instructions", "in": "query", "schema": {"type": "string"}},
        {"name": "max_steps", "in": "query", "schema": {"type": "integer", "minimum": 1}},
        {"name": "max_pages", "in": "query", "schema": {"type": "integer", "minimum": 1}},
        {"name": "max_detail_pages", "in": "query", "schema": {"type": "integer", "minimum": 0}},
        {"name": "planner", "in": "query", "schema": {"enum": ["auto", "heuristic", "llm", "llm_words"]}},
        {"name": "model", "in": "query", "schema": {"type": "string"}},
        {"name": "session_id", "in": "query", "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"}},
        {"name": "tools", "in": "query", "schema": {"type": "string"}, "description": "An explicit plan, as JSON"},
        {"name": "access_token", "in": "query", "schema": {"type": "string"}, "description": "The API key, for EventSource (which cannot send headers)"},
    ]);
    let id = json!({"name": "id", "in": "path", "required": true, "schema": {"type": "string"}});
    let not_found = errors(&[
        ("400", "A bad parameter (`invalid_query`)"),
        ("401", "An API key is needed"),
        ("404", "No such session (`not_found`)"),
    ]);
    let with = |mut base: Map<String, Value>, more: &Map<String, Value>| {
        base.extend(more.clone());
        Value::Object(base)
    };
    let ok = |what: &str, schema: Value| -> Map<String, Value> {
        let mut map = Map::new();
        map.insert(
            "200".into(),
            json!({"description": what, "content": {"application/json": {"schema": schema}}}),
        );
        map
    };
    let any_object = json!({"type": "object"});
    let mut doc = json!({
        "openapi": "3.1.0",
        "info": {
            "title": "scrape-agent",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Turns URLs and plain-word instructions into structured data, streaming every decision as Server-Sent Events.",
        },
        "servers": [{"url": "/"}],
        "security": [{"apiKey": []}],
        "paths": {
            "/api/scrape/stream": {
                "post": {
                    "operationId": "scrapeStream",
                    "summary": "Run a scrape and stream its events",
                    "parameters": [wait_param.clone()],
                    "requestBody": {"required": true, "content": {"application/json": {"schema": request, "examples": request_examples()}}},
                    "responses": stream_post_responses,
                },
                "get": {
                    "operationId": "scrapeStreamGet",
                    "summary": "The same run, for browser EventSource",
                    "parameters": query_params,
                    "responses": stream_responses,
                },
            },
            "/api/scrape": {
                "post": {
                    "operationId": "scrapeDetached",
                    "summary": "Start a detached run, or wait for its answer as JSON",
                    "parameters": [wait_param],
                    "requestBody": {"required": true, "content": {"application/json": {"schema": request, "examples": request_examples()}}},
                    "responses": detached,
                },
                "get": {
                    "operationId": "listSessions",
                    "summary": "Stored sessions, newest first",
                    "parameters": [
                        {"name": "status", "in": "query", "schema": {"enum": ["queued", "running", "completed", "partial", "failed", "cancelled", "interrupted"]}},
                        {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1}},
                        {"name": "before", "in": "query", "schema": {"type": "string"}},
                    ],
                    "responses": with(ok("A page of sessions", any_object.clone()), &errors(&[("400", "A bad filter"), ("401", "An API key is needed")])),
                },
            },
            "/api/scrape/{id}": {
                "get": {
                    "operationId": "getSession",
                    "summary": "A session's status, counts and (when finished) result",
                    "parameters": [id],
                    "responses": with(ok("The session", any_object.clone()), &not_found),
                },
                "delete": {
                    "operationId": "cancelSession",
                    "summary": "Cancel a running session",
                    "parameters": [id],
                    "responses": with({
                        let mut m = Map::new();
                        m.insert("202".into(), json!({"description": "Cancellation requested", "content": {"application/json": {"schema": any_object}}}));
                        m.insert("200".into(), json!({"description": "The session had ended already: nothing to cancel (`cancelled: false`)", "content": {"application/json": {"schema": any_object}}}));
                        m
                    }, &not_found),
                },
            },
            "/api/scrape/{id}/events": {
                "get": {
                    "operationId": "sessionEvents",
                    "summary": "Replay a session's events after Last-Event-ID, then follow it live",
                    "parameters": [
                        id,
                        {"name": "Last-Event-ID", "in": "header", "schema": {"type": "integer", "minimum": 0}},
                        {"name": "last_event_id", "in": "query", "schema": {"type": "integer", "minimum": 0}},
                        {"name": "access_token", "in": "query", "schema": {"type": "string"}},
                    ],
                    "responses": with({
                        let mut m = Map::new();
                        m.insert("200".into(), stream);
                        m
                    }, &not_found),
                },
            },
            "/api/scrape/{id}/webhooks": {
                "get": {
                    "operationId": "sessionWebhooks",
                    "summary": "A session's webhook deliveries and where each stands",
                    "description": "One delivery per announced event (`complete`, and `url_complete` per URL when the request asked for it), oldest first: `pending` (waiting for its next attempt), `delivered` (a receiver answered 2xx) or `failed` (given up after `webhooks.max_attempts`, or refused by the address guard), with the last attempt's status and error.",
                    "parameters": [id],
                    "responses": with(ok("The deliveries", deliveries), &not_found),
                },
            },
            "/api/scrape/{id}/screenshots/{file}": {
                "get": {
                    "operationId": "sessionScreenshot",
                    "summary": "A PNG a run's `browser.screenshot` kept",
                    "description": "Its `tool_call` step links it (`result.url`). Numbered from 1 in the order the run took them; at most `browser.screenshot_max_bytes` each.",
                    "parameters": [
                        id,
                        {"name": "file", "in": "path", "required": true, "schema": {"type": "string", "pattern": "^[0-9]+\\.png$"}, "example": "1.png"},
                    ],
                    "responses": with({
                        let mut m = Map::new();
                        m.insert("200".into(), json!({"description": "The PNG", "content": {"image/png": {"schema": {"type": "string", "format": "binary"}}}}));
                        m
                    }, &not_found),
                },
            },
            "/api/markdown": {
                "get": {
                    "operationId": "markdown",
                    "summary": "One page's main content as Markdown",
                    "description": "Runs `extract.main_content` on the page (an ordinary, stored session) and answers the article as `text/markdown`.",
                    "parameters": [{"name": "url", "in": "query", "required": true, "schema": {"type": "string", "format": "uri"}, "description": "The page (http or https)", "example": "https://example.com/blog/post"}],
                    "responses": markdown_responses,
                },
            },
            "/api/map": {
                "post": {
                    "operationId": "mapSite",
                    "summary": "A site's URLs, without extracting",
                    "description": "Reads the site's sitemaps (robots.txt `Sitemap:` lines, else `/sitemap.xml`; indexes and gzip followed), then walks its links `crawl.map_link_depth` deep (at most `crawl.map_max_link_pages` pages). robots.txt and the address guard hold for every request; URLs are normalised (fragments and tracking parameters dropped, query sorted) and listed once.",
                    "requestBody": {"required": true, "content": {"application/json": {"schema": map_request, "example": {"url": "https://docs.example/", "limit": 100, "search": "install"}}}},
                    "responses": with(ok("The site's URLs", map_response), &errors(&[
                        ("400", "A body that is not a map request, a URL that is not http(s), a limit past `crawl.map_max_limit` (`limit_exceeded`), or a site the address guard refuses (`site_unreachable`)"),
                        ("401", "An API key is needed"),
                        ("403", "A page of another site sent it, or a host name the server does not answer to"),
                        ("413", "Too large a body"),
                    ])),
                },
            },
            "/api/tools": {"get": {"operationId": "listTools", "summary": "The tool catalog with parameter schemas", "responses": with(ok("The tools", json!({
                "type": "object",
                "required": ["count", "tools"],
                "properties": {"count": {"type": "integer"}, "tools": {"type": "array", "items": any_object}},
            })), &errors(&[("401", "An API key is needed")]))}},
            "/api/tools/{name}": {"get": {"operationId": "getTool", "summary": "One tool", "parameters": [{"name": "name", "in": "path", "required": true, "schema": {"type": "string"}}], "responses": with(ok("The tool", any_object.clone()), &errors(&[("401", "An API key is needed"), ("404", "No such tool")]))}},
            "/api/openapi.json": {"get": {"operationId": "openapi", "summary": "This document", "security": [], "responses": ok("OpenAPI 3.1", any_object.clone())}},
            "/healthz": {"get": {"operationId": "healthz", "summary": "Liveness", "security": [], "responses": ok("The process answers", any_object.clone())}},
            "/readyz": {"get": {"operationId": "readyz", "summary": "Readiness", "security": [], "responses": with(ok("Ready", any_object.clone()), &{
                let mut m = Map::new();
                m.insert("503".into(), json!({"description": "Shutting down or the store does not answer", "content": {"application/json": {"schema": any_object}}}));
                m
            })}},
            "/metrics": {"get": {"operationId": "metrics", "summary": "Prometheus metrics (OpenMetrics text)", "security": [], "responses": {"200": {"description": "The metrics", "content": {"application/openmetrics-text": {"schema": {"type": "string"}}}}}}},
        },
        "webhooks": {
            "runEvent": {
                "post": {
                    "summary": "What a request's `webhook.url` receives",
                    "description": "Sent when the run ends (`complete`) and, when `webhook.events` lists `url_complete`, each time one of its URLs is answered. Deliveries come from a durable outbox in the store (any instance sends them), are retried with exponential backoff until a 2xx answer or `webhooks.max_attempts`, and go through the same address guard as page fetches. `X-Scrape-Agent-Signature` is `t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<body>\" keyed with webhooks.secret>`; check it (and that `t` is recent) before trusting the body. `X-Scrape-Agent-Delivery` is the same on every attempt of one delivery: a receiver that answered 2xx but whose answer was lost can drop the repeat.",
                    "parameters": [
                        {"name": "X-Scrape-Agent-Signature", "in": "header", "required": true, "schema": {"type": "string", "pattern": "^t=[0-9]+,v1=[0-9a-f]{64}$"}},
                        {"name": "X-Scrape-Agent-Delivery", "in": "header", "required": true, "schema": {"type": "integer"}},
                        {"name": "X-Scrape-Agent-Event", "in": "header", "required": true, "schema": {"enum": ["complete", "url_complete"]}},
                    ],
                    "requestBody": {"required": true, "content": {"application/json": {"schema": webhook_payload}}},
                    "responses": {"200": {"description": "Any 2xx marks the delivery delivered; anything else (or no answer) is retried"}},
                },
            },
        },
        "components": {
            "schemas": schemas,
            "securitySchemes": {"apiKey": {"type": "http", "scheme": "bearer", "description": "One of auth.api_keys, when the server has keys"}},
        },
    });
    if let Some(paths) = doc["paths"].as_object_mut() {
        paths.extend(v2);
    }
    doc
}

/// The paths of Firecrawl's v2 API we serve (src/http/firecrawl.rs). Every error they answer
/// has Firecrawl's shape (`{success: false, error, code?}`), the shared checks' too
/// ([`super::firecrawl::firecrawl_errors`]).
fn firecrawl_paths(components: &mut Components) -> Map<String, Value> {
    use super::firecrawl::{
        BatchBody, CrawlBody, Failure, JobCancelled, JobStarted, JobStatus, MapAnswer, MapBody,
        ScrapeBody, ScrapeResponse,
    };
    let failure = components.of::<Failure>();
    let responses = |ok: (&str, Value), failures: &[(&str, &str)]| -> Value {
        let mut map = Map::new();
        map.insert(
            "200".into(),
            json!({"description": ok.0, "content": {"application/json": {"schema": ok.1}}}),
        );
        for (status, what) in failures {
            map.insert(
                (*status).to_owned(),
                json!({"description": what, "content": {"application/json": {"schema": failure}}}),
            );
        }
        for (status, what) in [
            (
                "401",
                "An API key is needed (`Authorization: Bearer`); `code: unauthorized`",
            ),
            (
                "403",
                "A page of another site sent it, or a host name the server does not answer to",
            ),
            (
                "408",
                "The body did not arrive in time, or (`/v2/scrape`) the scrape took longer than its `timeout`",
            ),
        ] {
            map.insert(
                status.to_owned(),
                json!({"description": what, "content": {"application/json": {"schema": failure}}}),
            );
        }
        Value::Object(map)
    };
    let body = |schema: Value, example: Value| json!({"required": true, "content": {"application/json": {"schema": schema, "example": example}}});
    let id = json!([{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}, "description": "The job's id (a session id)"}]);
    let started = components.of::<JobStarted>();
    let status = components.of::<JobStatus>();
    let cancelled = components.of::<JobCancelled>();
    let start_failures: &[(&str, &str)] = &[
        (
            "400",
            "A body that is not a request, a URL that is not http(s), options past the server's limits",
        ),
        ("413", "Too large a body, or too many URLs"),
        ("429", "Too many runs; see Retry-After"),
        (
            "503",
            "The server is shutting down or the store cannot take the run now; see Retry-After",
        ),
    ];
    let status_failures: &[(&str, &str)] = &[
        ("400", "An id that cannot be a job's"),
        ("404", "No such job"),
    ];
    let status_op = |operation: &str, what: &str| {
        json!({
            "operationId": operation,
            "summary": what,
            "tags": ["Firecrawl v2"],
            "parameters": id,
            "responses": responses(("The job and the pages answered so far", status.clone()), status_failures),
        })
    };
    let cancel_op = |operation: &str, what: &str| {
        json!({
            "operationId": operation,
            "summary": what,
            "tags": ["Firecrawl v2"],
            "parameters": id,
            "responses": responses(("Cancellation requested", cancelled.clone()), status_failures),
        })
    };
    let mut paths = Map::new();
    paths.insert(
        "/v2/scrape".into(),
        json!({"post": {
            "operationId": "firecrawlScrape",
            "summary": "Firecrawl v2: one page in the formats asked for",
            "description": "`markdown` is the page's main content (`extract.main_content`; `includeTags`, `excludeTags` and `onlyMainContent: false` select what), `json` our planner's answer to `prompt` and the schema's property names, `html`/`rawHtml` the page as served, `links` its links, `screenshot` a PNG's path. `waitFor` and `actions` run in the server's browser before the page is read (the `browser.*` tools). Each run is one of our sessions (`metadata.scrapeId`).",
            "tags": ["Firecrawl v2"],
            "requestBody": body(components.of::<ScrapeBody>(), json!({"url": "https://example.com/blog/post", "formats": ["markdown", "links"]})),
            "responses": responses(("The page", components.of::<ScrapeResponse>()), &[
                ("400", "A body that is not a scrape request, a format or action we do not answer, an action that failed, a page that cannot be read"),
                ("413", "Too large a body"),
                ("429", "Too many runs; see Retry-After"),
                ("503", "The server is shutting down or the store cannot take the run now; see Retry-After"),
            ]),
        }}),
    );
    paths.insert(
        "/v2/map".into(),
        json!({"post": {
            "operationId": "firecrawlMap",
            "summary": "Firecrawl v2: a site's URLs (as `POST /api/map`)",
            "tags": ["Firecrawl v2"],
            "requestBody": body(components.of::<MapBody>(), json!({"url": "https://docs.example/", "limit": 100})),
            "responses": responses(("The site's URLs", components.of::<MapAnswer>()), &[
                ("400", "A body that is not a map request, a URL that is not http(s), a site the address guard refuses"),
                ("413", "Too large a body"),
            ]),
        }}),
    );
    paths.insert(
        "/v2/crawl".into(),
        json!({"post": {
            "operationId": "firecrawlCrawl",
            "summary": "Firecrawl v2: start a crawl (a detached run with a `crawl` object answering each page's Markdown)",
            "tags": ["Firecrawl v2"],
            "requestBody": body(components.of::<CrawlBody>(), json!({"url": "https://docs.example/", "limit": 10, "includePaths": ["/docs/**"]})),
            "responses": responses(("The crawl started", started.clone()), start_failures),
        }}),
    );
    paths.insert(
        "/v2/crawl/{id}".into(),
        json!({
            "get": status_op("firecrawlCrawlStatus", "Firecrawl v2: a crawl's status and pages"),
            "delete": cancel_op("firecrawlCrawlCancel", "Firecrawl v2: cancel a crawl"),
        }),
    );
    paths.insert(
        "/v2/batch/scrape".into(),
        json!({"post": {
            "operationId": "firecrawlBatchScrape",
            "summary": "Firecrawl v2: start a batch scrape (a detached run answering each URL's Markdown)",
            "tags": ["Firecrawl v2"],
            "requestBody": body(components.of::<BatchBody>(), json!({"urls": ["https://example.com/a", "https://example.com/b"]})),
            "responses": responses(("The batch started", started), start_failures),
        }}),
    );
    paths.insert(
        "/v2/batch/scrape/{id}".into(),
        json!({
            "get": status_op("firecrawlBatchStatus", "Firecrawl v2: a batch's status and pages"),
            "delete": cancel_op("firecrawlBatchCancel", "Firecrawl v2: cancel a batch"),
        }),
    );
    paths
}

/// The session id of the examples.
const EXAMPLE_SESSION: &str = "3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b";
/// The page of the examples.
const EXAMPLE_URL: &str = "https://news.example/";

/// What the schema of the request cannot say from its Rust type: `assets`, the alias of
/// `urls`; the names `output_format` takes; `max_steps` and `max_pages` start at 1; examples.
fn describe_request(request: &mut Value) {
    let urls = request["properties"]["urls"].clone();
    let properties = &mut request["properties"];
    let mut assets = urls;
    assets["description"] = json!("Another name for `urls` (send one of the two).");
    properties["assets"] = assets;
    properties["output_format"] = json!({
        "enum": ["json", "csv", "markdown", "text", null],
        "description": "How `complete.output` is written: `json` (the default), `csv`, `markdown` or `text`. The answer of a main-content read (`extract.main_content`) is the article itself in `markdown` and `text`.",
        "default": null,
    });
    for name in ["max_steps", "max_pages"] {
        properties[name]["minimum"] = json!(1);
    }
    if let Some(object) = request.as_object_mut() {
        object.remove("required");
        object.insert(
            "anyOf".into(),
            json!([{"required": ["urls"]}, {"required": ["assets"]}]),
        );
        object.insert(
            "examples".into(),
            Value::Array(request_examples().as_object().map_or_else(Vec::new, |all| {
                all.values()
                    .map(|example| example["value"].clone())
                    .collect()
            })),
        );
    }
}

/// Requests as a client writes them, by name (OpenAPI `examples`).
fn request_examples() -> Value {
    json!({
        "list": {"summary": "A list in plain words", "value": {
            "urls": [EXAMPLE_URL],
            "instructions": "the top 10 stories with title, link and points",
        }},
        "csv": {"summary": "Columns as CSV", "value": {
            "urls": [EXAMPLE_URL],
            "instructions": "the top 10 stories",
            "output_format": "csv",
            "output_instructions": "columns: title, link, points",
        }},
        "plan": {"summary": "An explicit plan (no planner)", "value": {
            "urls": ["https://example.com/blog/post"],
            "tools": [{"tool": "extract.main_content", "params": {}, "reasoning": "the article"}],
            "output_format": "markdown",
        }},
    })
}

/// The `complete` payload of the examples' run.
fn complete_example() -> Value {
    json!({
        "session_id": EXAMPLE_SESSION,
        "status": "completed",
        "extracted_data": {EXAMPLE_URL: [
            {"title": "Show HN: A tiny SQLite-backed job queue in Rust", "link": "https://github.com/example/jobq", "points": 412},
            {"title": "The hidden cost of microservices at small scale", "link": "https://blog.example.org/microservices-cost", "points": 389},
        ]},
        "output": "{\n  \"https://news.example/\": [ … ]\n}",
        "output_format": "json",
        "total_steps": 4,
        "total_reward": 1.6,
        "duration_ms": 412,
        "urls_processed": 1,
        "urls_failed": 0,
        "errors": [],
        "metrics": {"fetches": 1, "bytes_fetched": 48213, "tool_calls": 1, "tool_failures": 0, "planner_rounds": 1, "llm_prompt_tokens": 0, "llm_completion_tokens": 0, "pages_followed": 0, "detail_pages": 0},
    })
}

/// One `data` example per event type, in [`EVENT_TYPES`] order.
fn event_examples() -> [Value; 6] {
    [
        json!({"session_id": EXAMPLE_SESSION, "urls": [EXAMPLE_URL], "instructions": "the top 10 stories with title, link and points", "output_format": "json", "max_steps": 8, "planner": "heuristic", "tools": null}),
        json!({"url": EXAMPLE_URL, "index": 0, "total": 1}),
        json!({"step_number": 3, "action": "tool_call", "url": EXAMPLE_URL, "status": "completed", "message": "Tool extract.records: ok (10 item(s))", "reward": 0.4, "extracted_data": {"tool": "extract.records", "tool_name": "extract.records", "parameters": {}, "success": true, "result_preview": "[{\"title\": \"Show HN: …\"}, …]", "duration_ms": 3}, "duration_ms": 3, "timestamp": "2026-11-26T18:00:00.412000Z"}),
        json!({"url": EXAMPLE_URL, "index": 0, "status": "completed", "items": 10, "error_code": null, "duration_ms": 398}),
        complete_example(),
        json!({"code": "blocked_address", "message": "127.0.0.1 is a loopback address: refused. To fetch private and loopback addresses on purpose, start the server (or `run`) with --allow-private, …", "url": "http://127.0.0.1:8000/", "retryable": false}),
    ]
}

/// `url_start` → `UrlStart`.
fn pascal(snake: &str) -> String {
    snake
        .split('_')
        .map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}
