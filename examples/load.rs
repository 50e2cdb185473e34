//! Load generator: many concurrent streamed runs against the real server (in-process, port 0)
//! and a local page server; reports runs/s, events/s, latency percentiles and peak memory.
//!
//! Run: `cargo run --release --example load [-- RUNS CONCURRENCY PAGE]` (defaults: 400 runs,
//! 32 at once, the WCXB listing page 0203 from ../shared/corpora, decompressed).
//!
//! Multi-URL runs against a slow site, to measure fetch-ahead: `LOAD_URLS_PER_RUN` (default 1)
//! distinct URLs per run, `LOAD_PAGE_DELAY_MS` (default 0) before each page is answered,
//! `LOAD_FETCH_CONCURRENCY` and `LOAD_PER_HOST` override `runs.fetch_concurrency` and
//! `fetch.per_host_concurrency` (every URL is on one local host, so set the latter high to
//! stand for many sites).
//!
//! Several instances: `LOAD_INSTANCES` servers in this process on one database
//! (`LOAD_DATABASE_URL`, a PostgreSQL URL), each admitting `LOAD_MAX_RUNS` runs at once; runs
//! are spread over them round robin, and one refused for want of room (429) goes to the next.

use std::io::Read;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use serde_json::json;
use tokio::sync::Semaphore;

mod common;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(400);
    let concurrency: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(32);
    let page_path = args.get(2).cloned().unwrap_or_else(|| {
        format!(
            "{}/../shared/corpora/wcxb-dev/html/0203.html.gz",
            env!("CARGO_MANIFEST_DIR")
        )
    });
    let raw = std::fs::read(&page_path)?;
    let html = if page_path.ends_with(".gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(raw.as_slice()).read_to_end(&mut out)?;
        out
    } else {
        raw
    };
    tokio::runtime::Runtime::new()?.block_on(run(runs, concurrency, html))
}

/// A whole-number knob from the environment.
fn knob(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

async fn run(
    runs: usize,
    concurrency: usize,
    html: Vec<u8>,
) -> Result<(), Box<dyn std::error::Error>> {
    let page_bytes = html.len();
    let delay = Duration::from_millis(knob("LOAD_PAGE_DELAY_MS").unwrap_or(0));
    let urls_per_run = usize::try_from(knob("LOAD_URLS_PER_RUN").unwrap_or(1).max(1))?;
    let page_url = common::serve_one_page(html, delay).await?;
    // Several instances share one database (LOAD_DATABASE_URL, PostgreSQL) like a cluster
    // behind a proxy; the generator spreads runs over them, and a run an instance refuses for
    // want of room (429) is sent to the next one.
    let instances = usize::try_from(knob("LOAD_INSTANCES").unwrap_or(1).max(1))?;
    let database = std::env::var("LOAD_DATABASE_URL").ok();
    let mut apis = Vec::with_capacity(instances);
    for _ in 0..instances {
        let database = database.clone();
        let base = common::start_server(|settings| {
            settings.limits.max_concurrent_runs = knob("LOAD_MAX_RUNS")
                .and_then(|n| usize::try_from(n).ok())
                .unwrap_or(concurrency.max(1) * 2);
            settings.limits.max_urls_per_request =
                settings.limits.max_urls_per_request.max(urls_per_run);
            if let Some(n) = knob("LOAD_FETCH_CONCURRENCY") {
                settings.runs.fetch_concurrency = usize::try_from(n).unwrap_or(1);
            }
            if let Some(n) = knob("LOAD_PER_HOST") {
                settings.fetch.per_host_concurrency = usize::try_from(n).unwrap_or(1);
            }
            if let Some(url) = database {
                settings.database.url = url;
            }
        })
        .await?;
        apis.push(format!("{base}/api/scrape/stream"));
    }
    let apis = Arc::new(apis);
    let refused = Arc::new(std::sync::atomic::AtomicUsize::new(0));

    let client = reqwest::Client::new();
    let gate = Arc::new(Semaphore::new(concurrency));
    let started = Instant::now();
    let mut tasks = Vec::with_capacity(runs);
    for run in 0..runs {
        let permit = gate.clone().acquire_owned().await?;
        let (client, apis, page_url) = (client.clone(), apis.clone(), page_url.clone());
        let refused = refused.clone();
        tasks.push(tokio::spawn(async move {
            let _permit = permit;
            let begun = Instant::now();
            let urls: Vec<String> = (0..urls_per_run)
                .map(|k| format!("{page_url}?n={k}"))
                .collect();
            let body =
                json!({"urls": urls, "instructions": "the first 10 items with title and link"});
            let mut attempt = run;
            let response = loop {
                let response = client
                    .post(&apis[attempt % apis.len()])
                    .json(&body)
                    .send()
                    .await
                    .map_err(|e| e.to_string())?;
                if response.status() != reqwest::StatusCode::TOO_MANY_REQUESTS {
                    break response;
                }
                refused.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                attempt += 1;
                tokio::time::sleep(Duration::from_millis(20)).await;
            };
            let mut events = 0usize;
            let mut completed = false;
            let mut stream = response.bytes_stream();
            while let Some(chunk) = stream.next().await {
                let text = String::from_utf8_lossy(&chunk.map_err(|e| e.to_string())?).into_owned();
                events +=
                    text.matches("\nevent: ").count() + usize::from(text.starts_with("event: "));
                completed |= text.contains("event: complete");
            }
            Ok::<_, String>((begun.elapsed(), events, completed))
        }));
    }
    let mut latencies = Vec::with_capacity(runs);
    let (mut events, mut failures) = (0usize, 0usize);
    for task in tasks {
        match task.await? {
            Ok((latency, n, true)) => {
                latencies.push(latency);
                events += n;
            }
            _ => failures += 1,
        }
    }
    let elapsed = started.elapsed();
    latencies.sort();
    let pct = |p: f64| {
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss
        )]
        let index = ((latencies.len() as f64 - 1.0) * p).round() as usize;
        latencies.get(index).copied().unwrap_or(Duration::ZERO)
    };
    let secs = elapsed.as_secs_f64();
    #[allow(clippy::cast_precision_loss)]
    let (runs_per_sec, events_per_sec) = (latencies.len() as f64 / secs, events as f64 / secs);
    println!(
        "page: {page_bytes} bytes; runs: {runs} ({failures} failed) of {urls_per_run} URL(s); concurrency: {concurrency}; instances: {instances} ({} refusals for want of room, sent on)",
        refused.load(std::sync::atomic::Ordering::Relaxed)
    );
    #[allow(clippy::cast_precision_loss)]
    let urls_per_sec = (latencies.len() * urls_per_run) as f64 / elapsed.as_secs_f64();
    println!("{urls_per_sec:.1} URLs/s end to end");
    println!("wall: {secs:.2} s; {runs_per_sec:.1} runs/s; {events_per_sec:.0} events/s delivered");
    println!(
        "latency per run: p50 {:?}, p90 {:?}, p99 {:?}, max {:?}",
        pct(0.5),
        pct(0.9),
        pct(0.99),
        pct(1.0)
    );
    println!(
        "peak RSS of the process (server + load generator): {}",
        peak_rss()
    );
    Ok(())
}

fn peak_rss() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l.trim_start_matches("VmHWM:").trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".into())
}
