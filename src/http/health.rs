//! `GET /healthz`.

use axum::Json;
use serde_json::{Value, json};

/// Liveness: the process answers.
pub async fn healthz() -> Json<Value> {
    Json(json!({"status": "ok", "version": env!("CARGO_PKG_VERSION")}))
}
