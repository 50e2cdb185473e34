//! Renders of a local script-built page (tests/fixtures/render/list.html) through the browser
//! pool: pages per second and the peak resident memory of the browser's process group, at
//! 1, 4 and 8 renders at once; at the end, the processes left once the pool is shut down.
//!
//! `cargo run --release --example bench_render -- [renders per level, default 40]`
//!
//! `… -- soak [renders, default 500]`: that many renders, 4 at once, every fifth cancelled after
//! 300 ms; the browser group's resident memory after each hundred, then the processes left.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::Path;
use axum::http::header;
use axum::routing::get;
use scrape_agent::browser::{Browser, Grow};
use scrape_agent::fetch::guard::Guard;
use scrape_agent::settings::Settings;

/// Resident KiB of every process in group `pgid` (the pool's own measure).
fn group_rss_kib(pgid: u32) -> u64 {
    scrape_agent::browser::group_rss_bytes(pgid) / 1024
}

fn processes_in(pgid: u32) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| {
            std::fs::read_to_string(e.path().join("stat")).is_ok_and(|stat| {
                stat.rsplit_once(") ").is_some_and(|(_, rest)| {
                    let fields: Vec<&str> = rest.split_whitespace().collect();
                    // A zombie (`Z`) is dead, only not yet reaped by its parent.
                    fields.first() != Some(&"Z")
                        && fields.get(2) == Some(&pgid.to_string().as_str())
                })
            })
        })
        .count()
}

#[tokio::main]
async fn main() {
    let per_level: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(40);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/render");
    let router = Router::new().route(
        "/render/{name}",
        get(move |Path(name): Path<String>| {
            let dir = dir.clone();
            async move {
                let kind = if name.ends_with(".json") {
                    "application/json"
                } else {
                    "text/html"
                };
                (
                    [(header::CONTENT_TYPE, kind)],
                    std::fs::read_to_string(dir.join(name.replace('/', ""))).unwrap_or_default(),
                )
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    let url = url::Url::parse(&format!("http://{addr}/render/list.html")).unwrap();
    let html = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/render/list.html"),
    )
    .unwrap();

    let soak: Option<usize> = (std::env::args().nth(1).as_deref() == Some("soak")).then(|| {
        std::env::args()
            .nth(2)
            .and_then(|n| n.parse().ok())
            .unwrap_or(500)
    });
    let mut settings = Settings::defaults();
    settings.fetch.allow_private_networks = true;
    settings.browser.max_concurrent = 8;
    settings.browser.recycle_after = if soak.is_some() { 100 } else { 1000 };
    let guard = Arc::new(Guard::from_settings(&settings.fetch).unwrap());
    let browser = Arc::new(Browser::new(&settings.browser, guard));
    assert!(browser.available(), "install chromium-headless-shell");
    browser.render(&url, &html, None, Grow::No).await.unwrap();
    let pgid = browser.process_group().await.unwrap();
    if let Some(total) = soak {
        println!("renders done  cancelled  browser group RSS (MiB)");
        let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let cancelled = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut tasks = tokio::task::JoinSet::new();
        for _ in 0..4 {
            let (browser, url, html, next, cancelled) = (
                browser.clone(),
                url.clone(),
                html.clone(),
                next.clone(),
                cancelled.clone(),
            );
            tasks.spawn(async move {
                loop {
                    let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if n >= total {
                        break;
                    }
                    let render = browser.render(&url, &html, None, Grow::No);
                    if n % 5 == 4 {
                        if tokio::time::timeout(Duration::from_millis(300), render)
                            .await
                            .is_err()
                        {
                            cancelled.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                    } else {
                        render.await.unwrap();
                    }
                    if n % 100 == 99 {
                        let pgid = browser.process_group().await.unwrap_or(pgid);
                        println!(
                            "{:>12}  {:>9}  {:>6}",
                            n + 1,
                            cancelled.load(std::sync::atomic::Ordering::Relaxed),
                            group_rss_kib(pgid) / 1024
                        );
                    }
                }
            });
        }
        while tasks.join_next().await.is_some() {}
        let last = browser.process_group().await.unwrap_or(pgid);
        browser.shutdown().await;
        tokio::time::sleep(Duration::from_millis(1000)).await;
        println!(
            "processes left after shutdown: {} (first browser group), {} (last)",
            processes_in(pgid),
            processes_in(last)
        );
        return;
    }
    println!("concurrent  renders  pages/s  peak RSS (MiB, browser group)");
    for concurrent in [1usize, 4, 8] {
        let started = Instant::now();
        let peak = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let sampler = {
            let peak = peak.clone();
            tokio::spawn(async move {
                loop {
                    peak.fetch_max(group_rss_kib(pgid), std::sync::atomic::Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            })
        };
        let mut tasks = tokio::task::JoinSet::new();
        let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        for _ in 0..concurrent {
            let (browser, url, html, next) =
                (browser.clone(), url.clone(), html.clone(), next.clone());
            tasks.spawn(async move {
                while next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < per_level {
                    let rendered = browser.render(&url, &html, None, Grow::No).await.unwrap();
                    assert!(rendered.html.contains("Brass Compass"));
                }
            });
        }
        while tasks.join_next().await.is_some() {}
        sampler.abort();
        let secs = started.elapsed().as_secs_f64();
        println!(
            "{concurrent:>10}  {per_level:>7}  {:>7.1}  {:>6}",
            per_level as f64 / secs,
            peak.load(std::sync::atomic::Ordering::Relaxed) / 1024
        );
    }
    browser.shutdown().await;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    println!(
        "processes left in the browser's group after shutdown: {}",
        processes_in(pgid)
    );
}
