//! Memory of the worst legal pages: bodies at the fetch cap made of tiny elements, fetched by
//! many runs at once through the real server (in-process, port 0). Prints the peak RSS while
//! the runs work and the RSS once they are done.
//!
//! Run: `cargo run --release --example memory_worst_page [-- RUNS PAGE]` with `PAGE` one of
//! - `li`: `<li><a href="#">x</a>` up to the body cap (~500k list items, ~1.5M nodes),
//! - `b`: `<b>x</b>` up to the body cap (~1.3M elements, ~2.6M nodes),
//! - `under`: `<li><a href="#">x</a>` just under `limits.max_page_nodes` (the worst page the
//!   node cap lets through).
//!
//! (defaults: 16 runs, `li`). `MEMORY_UNBOUNDED=1` turns the node cap and the memory budget
//! off, to compare with the server as it was before them.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures::StreamExt;
use scrape_agent::settings::Settings;
use serde_json::json;

mod common;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(16);
    let kind = args.get(1).cloned().unwrap_or_else(|| "li".to_owned());
    tokio::runtime::Runtime::new()?.block_on(run(runs, &kind))
}

/// The page: `item` repeated until the body cap (or the node cap, for `under`) is reached.
fn page(kind: &str, defaults: &Settings) -> Result<String, String> {
    let (item, count) = match kind {
        "li" | "under" => {
            let item = "<li><a href=\"#\">x</a>";
            // Three nodes per item (li, a, text), a dozen for the document around them.
            let count = if kind == "under" {
                defaults.limits.max_page_nodes.saturating_sub(64) / 3
            } else {
                usize::MAX
            };
            (item, count)
        }
        "b" => ("<b>x</b>", usize::MAX),
        other => return Err(format!("PAGE is li, b or under, not {other}")),
    };
    let (head, tail) = (
        "<!DOCTYPE html><html><head><title>worst</title></head><body><ul>",
        "</ul></body></html>",
    );
    let room = defaults.fetch.max_body_bytes - head.len() - tail.len();
    let count = count.min(room / item.len());
    Ok(format!("{head}{}{tail}", item.repeat(count)))
}

async fn run(runs: usize, kind: &str) -> Result<(), Box<dyn std::error::Error>> {
    let unbounded = std::env::var("MEMORY_UNBOUNDED").is_ok_and(|v| v == "1");
    let html = page(kind, &Settings::defaults())?;
    let page_bytes = html.len();
    let page_url = common::serve_one_page(html, Duration::ZERO).await?;
    let api = format!(
        "{}/api/scrape/stream",
        common::start_server(|settings| {
            settings.limits.max_concurrent_runs = runs.max(1);
            settings.fetch.per_host_concurrency = runs.max(1);
            settings.fetch.per_host_delay_ms = 0;
            if unbounded {
                settings.limits.max_page_nodes = usize::MAX;
                settings.limits.max_page_memory_bytes = 0;
            }
        })
        .await?
    );
    let idle = rss_kib("VmRSS:");
    let peak = Arc::new(AtomicU64::new(0));
    let sampler = {
        let peak = peak.clone();
        tokio::spawn(async move {
            loop {
                peak.fetch_max(rss_kib("VmRSS:"), Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
    };
    let client = reqwest::Client::new();
    let started = Instant::now();
    let tasks: Vec<_> = (0..runs)
        .map(|k| {
            let (client, api) = (client.clone(), api.clone());
            let body = json!({
                "urls": [format!("{page_url}?run={k}")],
                "instructions": "all items with their links",
            });
            tokio::spawn(async move {
                let response = client.post(&api).json(&body).send().await?;
                let mut text = String::new();
                let mut stream = response.bytes_stream();
                while let Some(chunk) = stream.next().await {
                    text.push_str(&String::from_utf8_lossy(&chunk?));
                }
                let refused = text.contains("\"code\":\"too_large\"");
                let completed = text.contains("event: complete");
                Ok::<_, reqwest::Error>((completed, refused))
            })
        })
        .collect();
    let (mut completed, mut refused) = (0, 0);
    for task in tasks {
        let (done, too_large) = task.await??;
        completed += usize::from(done);
        refused += usize::from(too_large);
    }
    let took = started.elapsed();
    sampler.abort();
    let during = peak.load(Ordering::Relaxed);
    tokio::time::sleep(Duration::from_secs(3)).await;
    let after = rss_kib("VmRSS:");
    println!(
        "page `{kind}`: {page_bytes} bytes; {runs} runs at once ({completed} completed, {refused} refused too_large) in {:.1} s{}",
        took.as_secs_f64(),
        if unbounded {
            "; node cap and memory budget OFF"
        } else {
            ""
        }
    );
    println!(
        "RSS: idle {} MiB, peak during the runs {} MiB, 3 s after them {} MiB (VmHWM {} MiB)",
        idle / 1024,
        during / 1024,
        after / 1024,
        rss_kib("VmHWM:") / 1024
    );
    Ok(())
}

/// A `/proc/self/status` figure in KiB (0 where there is none).
fn rss_kib(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(field))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}
