//! The HTTP API, one module per resource, and the MCP endpoint at `/mcp`.

pub mod access;
pub mod console;
pub mod error;
pub mod firecrawl;
pub mod health;
pub mod listener;
pub mod map;
pub mod openapi;
pub mod scrape;
pub mod serve;
pub mod tools;

use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderName, HeaderValue, Method, Request, header};
use axum::middleware::from_fn_with_state;
use axum::routing::get;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

use crate::app::AppState;
pub use error::ApiError;
pub use serve::Application;

pub use crate::app::REQUEST_ID;

/// Builds the router over shared state.
pub fn router(state: AppState) -> Router {
    let body_limit = state.settings.server.max_body_bytes;
    let metrics_route = Router::new().route("/metrics", get(health::metrics));
    let (keyed_metrics, open_metrics) = if state.settings.auth.metrics_need_key {
        (metrics_route, Router::new())
    } else {
        (Router::new(), metrics_route)
    };
    let api = Router::new()
        .merge(keyed_metrics)
        .route("/api/tools", get(tools::list))
        .route("/api/tools/{name}", get(tools::get))
        .route(
            "/api/scrape/stream",
            get(scrape::stream_get).post(scrape::stream_post),
        )
        .route(
            "/api/scrape",
            get(scrape::list).post(scrape::start_detached),
        )
        .route("/api/scrape/{id}", get(scrape::get).delete(scrape::cancel))
        .route("/api/scrape/{id}/events", get(scrape::events))
        .route("/api/scrape/{id}/webhooks", get(scrape::webhooks))
        .route(
            "/api/scrape/{id}/screenshots/{file}",
            get(scrape::screenshot),
        )
        .route("/api/markdown", get(scrape::markdown))
        .route("/api/map", axum::routing::post(map::map_site))
        // Firecrawl's v2 API, the subset integrations use (src/http/firecrawl.rs).
        .route("/v2/scrape", axum::routing::post(firecrawl::scrape))
        .route("/v2/map", axum::routing::post(firecrawl::map_site))
        .route("/v2/crawl", axum::routing::post(firecrawl::crawl_start))
        .route(
            "/v2/crawl/{id}",
            get(firecrawl::crawl_status_of).delete(firecrawl::crawl_cancel),
        )
        .route(
            "/v2/batch/scrape",
            axum::routing::post(firecrawl::batch_start),
        )
        .route(
            "/v2/batch/scrape/{id}",
            get(firecrawl::crawl_status_of).delete(firecrawl::crawl_cancel),
        )
        // MCP over Streamable HTTP (POST for calls, GET for the server's stream, DELETE to end
        // an MCP session); the SDK's service answers all of them. Keys and origins are checked
        // for it as for the API.
        .merge(
            Router::new()
                .nest_service("/mcp", crate::mcp::http_service(state.clone()))
                .layer(axum::middleware::from_fn(mcp_session_ended_ok)),
        )
        .route_layer(from_fn_with_state(state.clone(), access::require_key))
        .route_layer(from_fn_with_state(state.clone(), access::refuse_cross_site));
    let mut router = Router::new()
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .route("/api/openapi.json", get(openapi::document))
        .route("/docs", get(openapi::docs))
        // The console is a page without data: its API calls carry the key.
        .route("/", get(console::index))
        .route("/console/{asset}", get(console::asset))
        .merge(open_metrics)
        .merge(api)
        .fallback(|| async { ApiError::not_found("no such route") })
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(axum::middleware::from_fn(refuse_long_uri))
        .layer(axum::middleware::from_fn(error::json_errors))
        // Outside every other check: a request for a name the server does not answer to
        // (DNS rebinding) learns nothing else.
        .layer(from_fn_with_state(
            access::HostRule::new(
                state.settings.server.bind,
                &state.settings.server.allowed_hosts,
            ),
            access::refuse_foreign_host,
        ))
        // Firecrawl's routes answer every error, the host check's included, in Firecrawl's
        // shape.
        .layer(axum::middleware::from_fn(firecrawl::firecrawl_errors));
    if let Some(cors) = cors(&state.settings.auth.allowed_origins) {
        router = router.layer(cors);
    }
    router
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(
            TraceLayer::new_for_http().make_span_with(|request: &Request<_>| {
                let id = request
                    .headers()
                    .get(REQUEST_ID)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default();
                tracing::info_span!(
                    "request",
                    method = %request.method(),
                    uri = %access::redacted(request.uri()),
                    request_id = %id,
                )
            }),
        )
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
        .with_state(state)
}

/// Bytes of a request's path and query accepted: room for a run started by `GET` with every
/// URL a request may carry, and under the HTTP parser's own limit (64 KiB), past which it
/// answers a bare 414 before any handler runs.
pub const MAX_URI_BYTES: usize = 32 * 1024;

/// Refuses a request whose URI is longer than [`MAX_URI_BYTES`] with a JSON 414.
async fn refuse_long_uri(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let length = request
        .uri()
        .path_and_query()
        .map_or(0, |p| p.as_str().len());
    if length > MAX_URI_BYTES {
        return axum::response::IntoResponse::into_response(ApiError::new(
            axum::http::StatusCode::URI_TOO_LONG,
            "uri_too_long",
            format!(
                "the request's URI has {length} bytes; at most {MAX_URI_BYTES} are accepted (send long requests as a POST body)"
            ),
        ));
    }
    next.run(request).await
}

/// `DELETE /mcp` that ended a session answers 200, not the SDK's 202: the official Python MCP
/// client takes anything but 200 and 204 for a failed termination and warns on every exit.
async fn mcp_session_ended_ok(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let delete = request.method() == Method::DELETE;
    let mut response = next.run(request).await;
    if delete && response.status() == axum::http::StatusCode::ACCEPTED {
        *response.status_mut() = axum::http::StatusCode::OK;
    }
    response
}

/// CORS for the configured origins; None (no CORS headers: browsers refuse) when there are none.
fn cors(origins: &[String]) -> Option<CorsLayer> {
    let allowed: Vec<HeaderValue> = origins
        .iter()
        .filter_map(|o| HeaderValue::from_str(o.trim_end_matches('/')).ok())
        .collect();
    (!allowed.is_empty()).then(|| {
        CorsLayer::new()
            .allow_origin(AllowOrigin::list(allowed))
            .allow_methods([Method::GET, Method::POST, Method::DELETE])
            .allow_headers([
                header::AUTHORIZATION,
                header::CONTENT_TYPE,
                HeaderName::from_static("last-event-id"),
            ])
            .expose_headers([HeaderName::from_static("x-session-id"), REQUEST_ID])
            .max_age(Duration::from_secs(600))
    })
}
