//! A small site for crawl and map tests, served on 127.0.0.1 under two names (`site.test` and
//! its subdomain `blog.site.test`, resolved by `fetch.resolve`): a robots.txt that disallows
//! `/private/` and names a sitemap index, a plain and a gzip sitemap, duplicate URLs (a
//! tracking parameter, a fragment, a mirror page with the same content), and three traps (an
//! endless calendar, a relative-link loop, a query that repeats a parameter). Every request is
//! logged as `host path?query`.

use std::io::Write;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

/// The site, and what it was asked.
#[allow(dead_code)] // each test binary uses part of it
pub struct Site {
    /// The port both names answer on.
    pub port: u16,
    log: Arc<Mutex<Vec<String>>>,
}

/// The pages a crawl or map of `site.test` may read and answer, as paths.
#[allow(dead_code)]
pub const ALLOWED: &[&str] = &[
    "/",
    "/about",
    "/only-in-sitemap",
    "/docs/intro",
    "/docs/install",
    "/docs/usage",
];

#[allow(dead_code)]
impl Site {
    /// Starts the site on a free port.
    pub async fn start() -> Self {
        let log = Arc::new(Mutex::new(Vec::new()));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let router = Router::new()
            .fallback(serve)
            .with_state((log.clone(), port));
        tokio::spawn(async move { axum::serve(listener, router).await });
        Self { port, log }
    }

    /// `http://site.test:PORT{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("http://site.test:{}{path}", self.port)
    }

    /// `http://blog.site.test:PORT{path}`.
    pub fn blog(&self, path: &str) -> String {
        format!("http://blog.site.test:{}{path}", self.port)
    }

    /// The `fetch.resolve` entries that send both names to the site.
    pub fn resolve() -> Vec<String> {
        vec![
            "site.test=127.0.0.1".into(),
            "blog.site.test=127.0.0.1".into(),
        ]
    }

    /// Requests made, as `host path?query`.
    pub fn requests(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }
}

fn page(title: &str, updated: &str, body: &str) -> Response {
    let html = format!(
        "<!doctype html><html><head><title>{title}</title></head><body><main><h1>{title}</h1>\
         <p>Last updated: {updated}</p>{body}</main></body></html>"
    );
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response()
}

fn xml(body: String) -> Response {
    ([(header::CONTENT_TYPE, "application/xml")], body).into_response()
}

fn urlset(locs: &[String]) -> String {
    let urls: String = locs
        .iter()
        .map(|l| {
            format!(
                "<url><loc>{}</loc><lastmod>2024-05-01</lastmod></url>",
                l.replace('&', "&amp;")
            )
        })
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>"#
    )
}

async fn serve(
    State((log, port)): State<(Arc<Mutex<Vec<String>>>, u16)>,
    request: Request,
) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default()
        .split(':')
        .next()
        .unwrap_or_default()
        .to_owned();
    let path = request.uri().path().to_owned();
    let query = request.uri().query().unwrap_or_default().to_owned();
    log.lock().unwrap().push(if query.is_empty() {
        format!("{host} {path}")
    } else {
        format!("{host} {path}?{query}")
    });
    let base = format!("http://site.test:{port}");
    let blog = format!("http://blog.site.test:{port}");
    if host == "blog.site.test" {
        return match path.as_str() {
            "/" => page("Blog", "2024-03-01", r#"<a href="/post-1">First post</a>"#),
            "/post-1" => page("First post", "2024-03-02", r#"<a href="/">Blog</a>"#),
            _ => StatusCode::NOT_FOUND.into_response(),
        };
    }
    if host != "site.test" {
        return StatusCode::NOT_FOUND.into_response();
    }
    match path.as_str() {
        "/robots.txt" => {
            format!("User-agent: *\nDisallow: /private/\nSitemap: {base}/sitemap_index.xml\n")
                .into_response()
        }
        "/sitemap_index.xml" => xml(format!(
            r#"<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>{base}/sitemap-pages.xml</loc></sitemap><sitemap><loc>{base}/sitemap-docs.xml.gz</loc></sitemap></sitemapindex>"#
        )),
        "/sitemap-pages.xml" => xml(urlset(&[
            format!("{base}/"),
            format!("{base}/about"),
            format!("{base}/about?utm_source=news"),
            format!("{base}/only-in-sitemap"),
            format!("{base}/private/secret"),
        ])),
        "/sitemap-docs.xml.gz" => {
            let body = urlset(&[
                format!("{base}/docs/install"),
                format!("{base}/docs/usage"),
                format!("{blog}/"),
            ]);
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            gz.write_all(body.as_bytes()).unwrap();
            (
                [(header::CONTENT_TYPE, "application/gzip")],
                gz.finish().unwrap(),
            )
                .into_response()
        }
        "/" => page(
            "Home",
            "2024-01-01",
            &format!(
                r#"<a href="/about">About</a> <a href="/about#team">Team</a>
                <a href="/docs/intro">Docs</a> <a href="/private/secret">Secret</a>
                <a href="/calendar?month=2024-01">Events</a> <a href="/mirror/about">Mirror</a>
                <a href="{blog}/post-1">Blog</a> <a href="mailto:hi@site.test">Mail</a>"#
            ),
        ),
        "/about" | "/mirror/about" => page(
            "About",
            "2024-02-01",
            r#"<p>We make things.</p><a href="/">Home</a>"#,
        ),
        "/only-in-sitemap" => page(
            "Hidden gem",
            "2024-02-02",
            "<p>Only the sitemap knows me.</p>",
        ),
        "/docs/intro" => page(
            "Introduction",
            "2024-04-01",
            r#"<a href="install">Install</a> <a href="/docs/usage">Usage</a>
            <a href="/loop/x/loop/x/loop/">Loop</a>"#,
        ),
        "/docs/install" => page(
            "Install",
            "2024-04-02",
            r#"<a href="/docs/intro">Intro</a>"#,
        ),
        "/docs/usage" => page(
            "Usage",
            "2024-04-03",
            r#"<a href="/search?q=a&q=b">Search</a>"#,
        ),
        "/calendar" => {
            let month = query.strip_prefix("month=").unwrap_or("2024-01").to_owned();
            let (y, m) = month.split_once('-').unwrap_or(("2024", "01"));
            let (y, m): (u32, u32) = (y.parse().unwrap_or(2024), m.parse().unwrap_or(1));
            let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
            page(
                &format!("Events {y}-{m:02}"),
                "2024-01-01",
                &format!(r#"<a href="/calendar?month={ny}-{nm:02}">Next month</a>"#),
            )
        }
        "/private/secret" => page("Secret", "2024-01-01", "<p>robots said no</p>"),
        _ => StatusCode::NOT_FOUND.into_response(),
    }
}
