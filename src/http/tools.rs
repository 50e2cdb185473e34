//! `GET /api/tools` and `GET /api/tools/{name}`: the self-describing catalog.

use axum::Json;
use axum::extract::{Path, State};
use serde_json::Value;

use super::error::ApiError;
use crate::app::AppState;

/// Every tool with its schema.
pub async fn list(State(state): State<AppState>) -> Json<Value> {
    Json(state.registry.catalog())
}

/// One tool.
///
/// # Errors
/// 404 when no tool has that name.
pub async fn get(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<Value>, ApiError> {
    state
        .registry
        .get(&name)
        .map(|tool| Json(tool.describe()))
        .ok_or_else(|| ApiError::not_found(format!("no tool named `{name}`")))
}
