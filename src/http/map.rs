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
/// A 4xx JSON error for a malformed body, a URL that is not http(s), or a limit past
/// `crawl.map_max_limit`.
pub async fn map_site(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<MapResponse>, ApiError> {
    let request: MapRequest = parse_json_body(body, "map request")?;
    let valid = request.validate(&state.settings.crawl)?;
    Ok(Json(
        map::map(&state.fetcher, &state.settings.crawl, valid, |_| {}).await,
    ))
}
