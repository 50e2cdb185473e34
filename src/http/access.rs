//! Who may use the API: API keys, and browser pages from other sites.
//!
//! Two middlewares over `/api/*`: [`refuse_cross_site`] stops a web page on another origin
//! from using the server through its visitor's browser (a page cannot make a local server
//! scrape on its behalf, keys or not); [`require_key`] asks for `Authorization: Bearer <key>`
//! when `auth.api_keys` is set.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use secrecy::{ExposeSecret, SecretString};
use subtle::ConstantTimeEq;

use super::ApiError;
use crate::app::AppState;

/// The query parameter that carries a key where no header can (browser `EventSource`).
pub const ACCESS_TOKEN: &str = "access_token";

/// Which of `auth.api_keys` a request came with (its position), for per-key limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyId(pub usize);

/// Refuses a request sent by a browser page of another origin than this server's and those
/// of `auth.allowed_origins`: its `Origin` names another origin, or (without `Origin`) its
/// `Sec-Fetch-Site` says `cross-site`. Clients that are not browsers send neither.
pub async fn refuse_cross_site(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    if let Some(why) = cross_site(request.headers(), &state.settings.auth.allowed_origins) {
        return ApiError::new(StatusCode::FORBIDDEN, "cross_site_request", why).into_response();
    }
    next.run(request).await
}

fn cross_site(headers: &HeaderMap, allowed: &[String]) -> Option<String> {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or_default();
        let own = host.is_some_and(|host| {
            origin
                .split_once("://")
                .is_some_and(|(_, authority)| authority.eq_ignore_ascii_case(host))
        });
        let listed = allowed
            .iter()
            .any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin));
        return (!own && !listed).then(|| {
            format!(
                "requests from pages on `{origin}` are refused; add the origin to auth.allowed_origins to allow it"
            )
        });
    }
    let fetch_site = headers
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    (fetch_site == "cross-site")
        .then(|| "requests from pages on other sites are refused".to_owned())
}

/// When `auth.api_keys` is set, lets a request through only with one of them, as
/// `Authorization: Bearer <key>` or, on the GET routes an `EventSource` opens, as
/// `?access_token=<key>` (taken out of the URI before the handler sees it).
pub async fn require_key(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    let keys = &state.settings.auth.api_keys;
    if keys.is_empty() {
        return next.run(request).await;
    }
    let from_header = bearer(request.headers());
    let from_query = (request.method() == Method::GET && takes_query_token(request.uri().path()))
        .then(|| query_token(request.uri()))
        .flatten();
    let presented = from_header.or(from_query.clone());
    let Some(id) = presented.as_deref().and_then(|key| matching_key(keys, key)) else {
        let mut response = ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            if presented.is_some() {
                "the API key is not valid"
            } else {
                "this server needs an API key: send `Authorization: Bearer <key>`"
            },
        )
        .into_response();
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        return response;
    };
    if from_query.is_some()
        && let Some(uri) = without_token(request.uri())
    {
        *request.uri_mut() = uri;
    }
    request.extensions_mut().insert(KeyId(id));
    next.run(request).await
}

/// The GET routes a browser opens with `EventSource`.
fn takes_query_token(path: &str) -> bool {
    path == "/api/scrape/stream" || path.starts_with("/api/scrape/") && path.ends_with("/events")
}

fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, key) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| key.trim().to_owned())
}

fn query_token(uri: &Uri) -> Option<String> {
    url::form_urlencoded::parse(uri.query()?.as_bytes())
        .find(|(name, _)| name == ACCESS_TOKEN)
        .map(|(_, value)| value.into_owned())
}

/// The position of the key that matches, comparing with every key in constant time (per key
/// length), so timing does not tell how much of a guess was right.
fn matching_key(keys: &[SecretString], presented: &str) -> Option<usize> {
    let mut found = None;
    for (i, key) in keys.iter().enumerate() {
        let equal: bool = key
            .expose_secret()
            .as_bytes()
            .ct_eq(presented.as_bytes())
            .into();
        if equal && found.is_none() {
            found = Some(i);
        }
    }
    found
}

/// The URI without its `access_token` parameter.
fn without_token(uri: &Uri) -> Option<Uri> {
    let kept: Vec<(String, String)> = url::form_urlencoded::parse(uri.query()?.as_bytes())
        .filter(|(name, _)| name != ACCESS_TOKEN)
        .map(|(n, v)| (n.into_owned(), v.into_owned()))
        .collect();
    let query = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(kept)
        .finish();
    let path = uri.path();
    let rebuilt = if query.is_empty() {
        path.to_owned()
    } else {
        format!("{path}?{query}")
    };
    rebuilt.parse().ok()
}

/// The URI as logs show it: an `access_token` value replaced by `REDACTED`.
pub fn redacted(uri: &Uri) -> String {
    match uri.query() {
        Some(query) if query.contains(ACCESS_TOKEN) => {
            let shown: Vec<String> = query
                .split('&')
                .map(|pair| match pair.split_once('=') {
                    Some((name, _)) if name == ACCESS_TOKEN => format!("{name}=REDACTED"),
                    _ => pair.to_owned(),
                })
                .collect();
            format!("{}?{}", uri.path(), shown.join("&"))
        }
        _ => uri.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn own_and_listed_origins_pass_others_do_not() {
        let allowed = vec!["https://console.example".to_owned()];
        assert!(cross_site(&headers(&[("host", "127.0.0.1:8080")]), &allowed).is_none());
        assert!(
            cross_site(
                &headers(&[
                    ("host", "127.0.0.1:8080"),
                    ("origin", "http://127.0.0.1:8080")
                ]),
                &allowed
            )
            .is_none()
        );
        assert!(
            cross_site(
                &headers(&[
                    ("host", "api.example"),
                    ("origin", "https://console.example")
                ]),
                &allowed
            )
            .is_none()
        );
        assert!(
            cross_site(
                &headers(&[("host", "api.example"), ("origin", "https://evil.example")]),
                &allowed
            )
            .is_some()
        );
        assert!(
            cross_site(
                &headers(&[("host", "api.example"), ("sec-fetch-site", "cross-site")]),
                &allowed
            )
            .is_some()
        );
    }

    #[test]
    fn keys_match_exactly_and_tokens_are_redacted() {
        let keys = vec![SecretString::from("alpha"), SecretString::from("beta")];
        assert_eq!(matching_key(&keys, "beta"), Some(1));
        assert_eq!(matching_key(&keys, "bet"), None);
        assert_eq!(matching_key(&keys, "betaa"), None);
        let uri: Uri = "/api/scrape/stream?url=a&access_token=beta&instructions=x"
            .parse()
            .unwrap();
        assert_eq!(
            redacted(&uri),
            "/api/scrape/stream?url=a&access_token=REDACTED&instructions=x"
        );
        assert_eq!(
            without_token(&uri).unwrap().to_string(),
            "/api/scrape/stream?url=a&instructions=x"
        );
    }
}
