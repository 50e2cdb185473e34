//! The web console at `/`: a form to start runs, a live timeline over `EventSource`, the answer
//! as a table, text and JSON, and the stored sessions.
//!
//! Plain HTML, CSS and JavaScript under `console/`, embedded in the binary so nothing is built
//! or fetched at run time. The page holds no data (every API call carries the user's key), so
//! these routes are open like `/docs`. The policy allows scripts and styles from this server
//! only: no inline script, nothing from elsewhere, and the page cannot be framed.

use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::ApiError;

/// The Content-Security-Policy of the console: its own scripts, styles and API only.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; \
     form-action 'none'; frame-ancestors 'none'";

/// One embedded file.
struct Asset {
    body: &'static str,
    content_type: &'static str,
}

const INDEX: Asset = Asset {
    body: include_str!("../../console/index.html"),
    content_type: "text/html; charset=utf-8",
};

/// The files served under `/console/`, by name.
const ASSETS: [(&str, Asset); 2] = [
    (
        "app.js",
        Asset {
            body: include_str!("../../console/app.js"),
            content_type: "text/javascript; charset=utf-8",
        },
    ),
    (
        "app.css",
        Asset {
            body: include_str!("../../console/app.css"),
            content_type: "text/css; charset=utf-8",
        },
    ),
];

/// `GET /`: the console page.
pub async fn index(headers: HeaderMap) -> Response {
    serve(&INDEX, &headers)
}

/// `GET /console/{asset}`: the console's script and style sheet.
pub async fn asset(Path(name): Path<String>, headers: HeaderMap) -> Response {
    match ASSETS.iter().find(|(known, _)| *known == name) {
        Some((_, asset)) => serve(asset, &headers),
        None => ApiError::not_found("no such console asset").into_response(),
    }
}

/// Answers with the file, or 304 when the browser's copy is current. The files change only
/// with the binary, so browsers revalidate every time (`no-cache`) against a tag of the
/// content and the answer is usually an empty 304.
fn serve(asset: &Asset, request: &HeaderMap) -> Response {
    let etag = format!("\"{:016x}\"", fnv1a(asset.body.as_bytes()));
    let fresh = request
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| tags.split(',').any(|tag| tag.trim() == etag));
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        ([(header::CONTENT_TYPE, asset.content_type)], asset.body).into_response()
    };
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(&etag) {
        headers.insert(header::ETAG, value);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

/// FNV-1a, 64 bits: a stable tag of a file's content (not a security measure).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_loads_only_its_own_files_and_runs_no_inline_script() {
        let page = INDEX.body;
        for (name, _) in ASSETS {
            assert!(page.contains(&format!("/console/{name}")), "{name} linked");
        }
        // Every <script> has a src: the policy would block an inline one anyway.
        assert_eq!(
            page.matches("<script").count(),
            page.matches("<script src=").count()
        );
        // Nothing is loaded from elsewhere (a placeholder may show an example URL).
        for attribute in ["src=\"http", "href=\"http", "src=\"//", "href=\"//"] {
            assert!(!page.contains(attribute), "{attribute}");
        }
    }

    #[test]
    fn tags_follow_the_content() {
        assert_ne!(fnv1a(b"a"), fnv1a(b"b"));
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
    }
}
