//! Who may use the API: API keys, and browser pages from other sites.
//!
//! Three middlewares: [`refuse_foreign_host`], on every route, stops a page that reached the
//! server through DNS rebinding (its browser sends the attacker's name as `Host`, and to the
//! browser the answers are same-origin); over `/api/*`, [`refuse_cross_site`] stops a web page
//! on another origin from using the server through its visitor's browser (a page cannot make a
//! local server scrape on its behalf, keys or not); [`require_key`] asks for
//! `Authorization: Bearer <key>` when `auth.api_keys` is set.

use axum::extract::{Request, State};
use std::net::{IpAddr, SocketAddr};

use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use secrecy::{ExposeSecret, SecretString};
use subtle::ConstantTimeEq;

use super::ApiError;
use crate::app::AppState;

/// The query parameter that carries a key where no header can (browser `EventSource`).
pub const ACCESS_TOKEN: &str = "access_token";

pub use crate::app::KeyId;

/// Which `Host` names the server answers to: a rebinding page can make a browser send any
/// name it controls, never an IP literal or a loopback name it does not serve from.
#[derive(Debug, Clone)]
pub struct HostRule {
    /// `server.allowed_hosts`, lower-cased, without ports.
    listed: Vec<String>,
    /// Whether any name is accepted: bound to a public or unspecified address (meant to be
    /// reached by its public names) and no `server.allowed_hosts` given.
    any: bool,
}

impl HostRule {
    /// The rule for a server bound to `bind` with `server.allowed_hosts = allowed`.
    pub fn new(bind: SocketAddr, allowed: &[String]) -> Self {
        let listed: Vec<String> = allowed
            .iter()
            .map(|h| host_name(h.trim()).to_ascii_lowercase())
            .filter(|h| !h.is_empty())
            .collect();
        Self {
            any: listed.is_empty() && !bind.ip().is_loopback(),
            listed,
        }
    }

    /// Whether a request whose `Host` (or HTTP/2 `:authority`) is `authority` may be served.
    /// IP literals always pass: no rebinding can make a browser send one for a page it got
    /// from a name, and a page served from another port is stopped by the `Origin` checks.
    pub fn allows(&self, authority: &str) -> bool {
        let name = host_name(authority).to_ascii_lowercase();
        self.any
            || name.parse::<IpAddr>().is_ok()
            || name == "localhost"
            || name.ends_with(".localhost")
            || self.listed.contains(&name)
    }
}

/// `host` of `host[:port]` or `[v6]:port`, brackets dropped.
fn host_name(authority: &str) -> &str {
    if let Some(rest) = authority.strip_prefix('[') {
        return rest.split(']').next().unwrap_or_default();
    }
    match authority.rsplit_once(':') {
        Some((host, port)) if port.chars().all(|c| c.is_ascii_digit()) => host,
        _ => authority,
    }
    .trim_end_matches('.')
}

/// Refuses (403 `foreign_host`) a request whose `Host` is none of the server's names (see
/// [`HostRule`]), before anything else looks at it.
pub async fn refuse_foreign_host(
    State(hosts): State<HostRule>,
    request: Request,
    next: Next,
) -> Response {
    let authority = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .or_else(|| request.uri().authority().map(|a| a.as_str()))
        .unwrap_or_default()
        .to_owned();
    if !hosts.allows(&authority) {
        return ApiError::new(
            StatusCode::FORBIDDEN,
            "foreign_host",
            format!(
                "this server does not answer to the host name `{authority}`; add it to server.allowed_hosts (SCRAPE_AGENT__SERVER__ALLOWED_HOSTS) to allow it"
            ),
        )
        .into_response();
    }
    next.run(request).await
}

/// Refuses a request sent by a browser page of another origin than this server's and those
/// of `auth.allowed_origins`: its `Origin` names another origin, or (without `Origin`) its
/// `Sec-Fetch-Site` says `cross-site`. Clients that are not browsers send neither.
pub async fn refuse_cross_site(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let starts_run =
        request.method() == Method::GET && request.uri().path() == "/api/scrape/stream";
    if let Some(why) = cross_site(
        request.headers(),
        &state.settings.auth.allowed_origins,
        starts_run,
    ) {
        return ApiError::new(StatusCode::FORBIDDEN, "cross_site_request", why).into_response();
    }
    next.run(request).await
}

fn cross_site(headers: &HeaderMap, allowed: &[String], starts_run: bool) -> Option<String> {
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
    // A GET that starts a run can be sent by any element of a page (`<img src>`), so it is
    // taken only from the server's own pages, a typed address, or clients without fetch
    // metadata; `same-site` is another port or subdomain, which is another page.
    let refused = if starts_run {
        !matches!(fetch_site, "" | "same-origin" | "none")
    } else {
        fetch_site == "cross-site"
    };
    refused.then(|| "requests from pages on other sites are refused".to_owned())
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

/// The URI as logs show it: an `access_token` value replaced by `REDACTED`, whatever way its
/// name is written (`access%5Ftoken` and `access_token` are the same parameter to
/// [`require_key`], so they are the same to redaction).
pub fn redacted(uri: &Uri) -> String {
    let Some(query) = uri.query() else {
        return uri.to_string();
    };
    let shown: Vec<String> = query
        .split('&')
        .map(|pair| {
            let raw_name = pair.split_once('=').map_or(pair, |(name, _)| name);
            let is_token = url::form_urlencoded::parse(raw_name.as_bytes())
                .next()
                .is_some_and(|(name, _)| name == ACCESS_TOKEN);
            if is_token {
                format!("{raw_name}=REDACTED")
            } else {
                pair.to_owned()
            }
        })
        .collect();
    format!("{}?{}", uri.path(), shown.join("&"))
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
        assert!(cross_site(&headers(&[("host", "127.0.0.1:8080")]), &allowed, false).is_none());
        assert!(
            cross_site(
                &headers(&[
                    ("host", "127.0.0.1:8080"),
                    ("origin", "http://127.0.0.1:8080")
                ]),
                &allowed,
                false
            )
            .is_none()
        );
        assert!(
            cross_site(
                &headers(&[
                    ("host", "api.example"),
                    ("origin", "https://console.example")
                ]),
                &allowed,
                false
            )
            .is_none()
        );
        assert!(
            cross_site(
                &headers(&[("host", "api.example"), ("origin", "https://evil.example")]),
                &allowed,
                false
            )
            .is_some()
        );
        assert!(
            cross_site(
                &headers(&[("host", "api.example"), ("sec-fetch-site", "cross-site")]),
                &allowed,
                false
            )
            .is_some()
        );
    }

    #[test]
    fn a_run_starting_get_comes_only_from_the_servers_own_pages_or_no_page() {
        let allowed = Vec::new();
        for (site, refused) in [
            ("cross-site", true),
            ("same-site", true),
            ("same-origin", false),
            ("none", false),
        ] {
            let mut map = headers(&[("host", "127.0.0.1:8080")]);
            map.insert("sec-fetch-site", HeaderValue::from_static(site));
            assert_eq!(
                cross_site(&map, &allowed, true).is_some(),
                refused,
                "{site}"
            );
        }
        assert!(cross_site(&headers(&[("host", "127.0.0.1:8080")]), &allowed, true).is_none());
        let mut same_site = headers(&[("host", "127.0.0.1:8080")]);
        same_site.insert("sec-fetch-site", HeaderValue::from_static("same-site"));
        assert!(
            cross_site(&same_site, &allowed, false).is_none(),
            "other routes still take same-site pages"
        );
    }

    #[test]
    fn a_loopback_server_answers_to_ip_literals_loopback_names_and_listed_hosts_only() {
        let loopback = SocketAddr::from(([127, 0, 0, 1], 8080));
        let rule = HostRule::new(loopback, &["Scrape.Example:443".to_owned()]);
        for host in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST",
            "app.localhost:8080",
            "[::1]:8080",
            "192.0.2.7",
            "scrape.example",
            "scrape.example.:8080",
        ] {
            assert!(rule.allows(host), "{host}");
        }
        for host in [
            "evil.example:8080",
            "localhost.evil.example",
            "",
            "127.0.0.1.evil.example",
        ] {
            assert!(!rule.allows(host), "{host}");
        }
        let unlisted = HostRule::new(loopback, &[]);
        assert!(!unlisted.allows("scrape.example"));
        let public = HostRule::new(SocketAddr::from(([0, 0, 0, 0], 8080)), &[]);
        assert!(
            public.allows("scrape.example"),
            "a public bind with no list takes any name"
        );
        let public_listed = HostRule::new(
            SocketAddr::from(([0, 0, 0, 0], 8080)),
            &["a.example".to_owned()],
        );
        assert!(public_listed.allows("a.example:8080"));
        assert!(!public_listed.allows("evil.example"));
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
        let encoded: Uri = "/api/scrape/stream?access%5Ftoken=beta&acc%65ss_token=beta&a=1"
            .parse()
            .unwrap();
        assert_eq!(
            redacted(&encoded),
            "/api/scrape/stream?access%5Ftoken=REDACTED&acc%65ss_token=REDACTED&a=1"
        );
        assert_eq!(query_token(&encoded).as_deref(), Some("beta"));
    }
}
