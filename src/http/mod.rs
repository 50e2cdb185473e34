//! The HTTP API, one module per resource, and the MCP endpoint at `/mcp`.

pub mod error;
pub mod health;
pub mod scrape;
pub mod tools;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::get;
use tower_http::trace::TraceLayer;

use crate::app::AppState;
pub use error::ApiError;

/// Builds the router over shared state.
pub fn router(state: AppState) -> Router {
    let body_limit = state.settings.server.max_body_bytes;
    Router::new()
        .route("/healthz", get(health::healthz))
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
        // MCP over Streamable HTTP (POST for calls, GET for the server's stream, DELETE to end
        // an MCP session); the SDK's service answers all of them.
        .nest_service("/mcp", crate::mcp::http_service(state.clone()))
        .fallback(|| async { ApiError::not_found("no such route") })
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}
