//! `POST /api/map`: a site's URLs, from its sitemaps and a shallow walk of its links.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;

use super::error::ApiError;
use super::scrape::parse_json_body;
use crate::app::AppState;
use crate::run::map::{self, MapRequest, MapResponse};

/// Maps the site of the body's `url`.
///
/// # Errors
/// A 4xx JSON error for a malformed body, a URL that is not http(s), a limit past
/// `crawl.map_max_limit`, or a site the address guard refuses (`site_unreachable`, with the
/// fetch error's code in `details.code`).
pub async fn map_site(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<MapResponse>, ApiError> {
    let request: MapRequest = parse_json_body(body, "map request")?;
    let valid = request.validate(&state.settings.crawl)?;
    let answer = map::map(&state.fetcher, &state.settings.crawl, valid, |_| {})
        .await
        .map_err(|err| ApiError {
            details: serde_json::json!({ "code": err.code().as_str() }),
            ..ApiError::new(
                axum::http::StatusCode::BAD_REQUEST,
                "site_unreachable",
                err.to_string(),
            )
        })?;
    Ok(Json(answer))
}
