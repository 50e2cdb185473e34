//! `GET /healthz`, `GET /readyz` and `GET /metrics`.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use crate::app::AppState;

/// Liveness: the process answers.
pub async fn healthz() -> Json<Value> {
    Json(json!({"status": "ok", "version": env!("CARGO_PKG_VERSION")}))
}

/// Readiness: the store takes a write and the server takes new runs (503 otherwise, with the
/// reason), so a load balancer stops sending work to an instance that is shutting down or whose
/// store cannot write (a full disk, a read-only or deleted file, a database that is down).
pub async fn readyz(State(state): State<AppState>) -> Response {
    if state.hub.is_shutting_down() {
        return not_ready(
            "shutting_down",
            "the server is shutting down and takes no new runs",
        );
    }
    match state.hub.store().check_writable().await {
        Ok(()) => Json(json!({
            "status": "ready",
            "store": state.hub.store().backend(),
            "rendering": rendering(&state),
        }))
        .into_response(),
        Err(err) => not_ready(
            "store_unavailable",
            &format!("the session store does not take writes: {err}"),
        ),
    }
}

/// Whether script-built pages can be rendered here, and by which browser.
fn rendering(state: &AppState) -> Value {
    match state.browser.executable() {
        Some(path) => json!({"available": true, "browser": path.display().to_string()}),
        None => json!({
            "available": false,
            "install": crate::browser::PACKAGE,
        }),
    }
}

fn not_ready(code: &str, message: &str) -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        Json(json!({"status": "not_ready", "error": {"code": code, "message": message}})),
    )
        .into_response()
}

/// Prometheus metrics in the text exposition format.
pub async fn metrics(State(state): State<AppState>) -> Response {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        state.metrics.render(),
    )
        .into_response()
}
