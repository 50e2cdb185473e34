//! Crawl benchmark: a local site of N pages (default 1,000; each page links to two more, a
//! binary tree 10 links deep) crawled in one run through the real server (in-process, port 0),
//! with "the title and last-updated date of the page" answered on every page. Reports pages/s
//! and the process's resident memory every 100 pages (flat when the frontier is bounded).
//!
//! Run: `cargo run --release --example crawl_site [-- PAGES]`. Politeness knobs:
//! `CRAWL_DELAY_MS` (fetch.per_host_delay_ms, default 0), `CRAWL_PER_HOST`
//! (fetch.per_host_concurrency, default 2), `CRAWL_FETCH_CONCURRENCY`
//! (runs.fetch_concurrency, default the setting's) and `CRAWL_MAX_FRONTIER`
//! (crawl.max_frontier: URLs in memory, the rest waiting in the store).

use std::time::Instant;

use axum::Router;
use axum::extract::Path;
use futures::StreamExt;
use serde_json::{Value, json};

mod common;

fn knob(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pages: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    tokio::runtime::Runtime::new()?.block_on(run(pages))
}

fn rss() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .map(|l| l.trim_start_matches("VmRSS:").trim().to_owned())
        })
        .unwrap_or_else(|| "?".into())
}

async fn run(pages: usize) -> Result<(), Box<dyn std::error::Error>> {
    let site = Router::new().route(
        "/p/{n}",
        axum::routing::get(move |Path(n): Path<usize>| async move {
            let links: String = [2 * n + 1, 2 * n + 2]
                .iter()
                .filter(|&&k| k < pages)
                .map(|k| format!(r#"<li><a href="/p/{k}">Page {k}</a></li>"#))
                .collect();
            let html = format!(
                "<!doctype html><html><head><title>Page {n}</title></head><body>\
                 <nav><a href=\"/p/0\">Home</a></nav><main><h1>Page {n}</h1>\
                 <p>Last updated: 2024-{:02}-{:02}</p><p>{}</p><ul>{links}</ul></main></body></html>",
                n % 12 + 1,
                n % 28 + 1,
                "Some words about this page. ".repeat(20)
            );
            ([(axum::http::header::CONTENT_TYPE, "text/html")], html)
        }),
    );
    let base = common::serve_pages(site).await?;
    let server = common::start_server(|settings| {
        settings.crawl.max_pages = settings.crawl.max_pages.max(pages as u32);
        settings.limits.run_timeout_secs = 3600;
        if let Some(ms) = knob("CRAWL_DELAY_MS") {
            settings.fetch.per_host_delay_ms = ms;
        }
        if let Some(n) = knob("CRAWL_PER_HOST") {
            settings.fetch.per_host_concurrency = n as usize;
        }
        if let Some(n) = knob("CRAWL_FETCH_CONCURRENCY") {
            settings.runs.fetch_concurrency = n as usize;
        }
        if let Some(n) = knob("CRAWL_MAX_FRONTIER") {
            settings.crawl.max_frontier = n as usize;
        }
    })
    .await?;
    println!("before the crawl: RSS {}", rss());
    let started = Instant::now();
    let response = reqwest::Client::new()
        .post(format!("{server}/api/scrape/stream"))
        .json(&json!({
            "urls": [format!("{base}/p/0")],
            "instructions": "the title and last-updated date of the page",
            "crawl": {"max_pages": pages, "max_depth": 10, "sitemap": "skip"},
        }))
        .send()
        .await?;
    let mut events = eventsource_stream::Eventsource::eventsource(response.bytes_stream());
    let (mut done, mut answered) = (0usize, 0usize);
    while let Some(event) = events.next().await {
        let event = event?;
        let data: Value = serde_json::from_str(&event.data)?;
        match event.event.as_str() {
            "url_complete" => {
                done += 1;
                if data["data"]["status"] == "completed" {
                    answered += 1;
                }
                if done % 100 == 0 {
                    println!(
                        "{done:>5} pages  {:>6.1} pages/s  RSS {}",
                        done as f64 / started.elapsed().as_secs_f64(),
                        rss()
                    );
                }
            }
            "complete" => break,
            _ => {}
        }
    }
    let took = started.elapsed().as_secs_f64();
    println!(
        "{done} pages ({answered} answered) in {took:.1} s: {:.1} pages/s; RSS at the end {}",
        done as f64 / took,
        rss()
    );
    Ok(())
}
