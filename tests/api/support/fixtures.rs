//! A local HTTP server for fixture pages and misbehaving endpoints.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, Request};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;

/// Serves `tests/fixtures/pages/*.html` at `/pages/{name}`, the shop pages of
/// `tests/fixtures/products/` at `/products/{name}`, plus endpoints that fail on purpose.
pub struct FixtureServer {
    /// Base URL.
    pub base: String,
    /// Port.
    pub addr: SocketAddr,
    /// Requests received, by path and query: what a test counts fetches with.
    hits: Arc<Mutex<HashMap<String, usize>>>,
}

impl FixtureServer {
    /// Starts the server on a free port.
    pub async fn start() -> Self {
        let router = Router::new()
            .route("/pages/{name}", get(page))
            .route(
                "/products/{name}",
                get(|Path(name): Path<String>| fixture_file("products", name)),
            )
            .route(
                "/tools/{name}",
                get(|Path(name): Path<String>| fixture_file("tools", name)),
            )
            .route("/status/{code}", get(status))
            .route(
                "/json",
                get(|| async {
                    (
                        [(header::CONTENT_TYPE, "application/json")],
                        r#"{"not": "html"}"#,
                    )
                }),
            )
            .route("/slow", get(slow))
            .route(
                "/delay/{ms}/{name}",
                get(|Path((ms, name)): Path<(u64, String)>| async move {
                    tokio::time::sleep(Duration::from_millis(ms)).await;
                    page(Path(name)).await
                }),
            )
            .route(
                "/redirect-to/{name}",
                get(|Path(name): Path<String>| async move {
                    Redirect::temporary(&format!("/pages/{name}"))
                }),
            )
            .route(
                "/big",
                get(|| async {
                    (
                        [(header::CONTENT_TYPE, "text/html")],
                        format!("<html><body>{}</body></html>", "<p>x</p>".repeat(400_000)),
                    )
                }),
            );
        let hits: Arc<Mutex<HashMap<String, usize>>> = Arc::default();
        let counted = hits.clone();
        let router = router.layer(middleware::from_fn(move |request: Request, next: Next| {
            let key = request
                .uri()
                .path_and_query()
                .map_or_else(String::new, ToString::to_string);
            *counted
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .entry(key)
                .or_default() += 1;
            next.run(request)
        }));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind fixtures");
        let addr = listener.local_addr().expect("addr");
        tokio::spawn(async move { axum::serve(listener, router).await.expect("fixture server") });
        Self {
            base: format!("http://{addr}"),
            addr,
            hits,
        }
    }

    /// URL of a path on this server.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// How many requests this server received for `url` (one of its URLs, query included).
    pub fn hits(&self, url: &str) -> usize {
        let key = url.strip_prefix(&self.base).unwrap_or(url);
        self.hits
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(key)
            .copied()
            .unwrap_or(0)
    }
}

async fn page(Path(name): Path<String>) -> Response {
    fixture_file("pages", name).await
}

/// A file of `tests/fixtures/{dir}/` as HTML; 404 for names that could leave the folder.
async fn fixture_file(dir: &str, name: String) -> Response {
    let safe = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && !name.contains("..");
    let path = format!("{}/tests/fixtures/{dir}/{name}", env!("CARGO_MANIFEST_DIR"));
    match (safe, tokio::fs::read(&path).await) {
        (true, Ok(bytes)) => {
            ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], bytes).into_response()
        }
        _ => (StatusCode::NOT_FOUND, "no such fixture").into_response(),
    }
}

async fn status(Path(code): Path<u16>) -> Response {
    let status = StatusCode::from_u16(code).unwrap_or(StatusCode::BAD_REQUEST);
    (
        status,
        [(header::CONTENT_TYPE, "text/html")],
        format!("<html><body>status {code}</body></html>"),
    )
        .into_response()
}

async fn slow() -> Response {
    tokio::time::sleep(Duration::from_secs(30)).await;
    (
        [(header::CONTENT_TYPE, "text/html")],
        "<html><body>late</body></html>",
    )
        .into_response()
}
