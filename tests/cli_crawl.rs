//! `scrape-agent map` and `scrape-agent crawl`, the built binary run as a subprocess against
//! the fixture site of tests/support_site (issue 35): both find exactly the allowed pages.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed unwrap is a failed test

#[path = "support_site/mod.rs"]
mod support_site;

use std::collections::BTreeSet;
use std::sync::OnceLock;
use std::time::Duration;

use assert_cmd::Command;
use serde_json::Value;
use support_site::{ALLOWED, Site};
use tokio::runtime::Runtime;

fn site() -> &'static Site {
    static RUNTIME: OnceLock<Runtime> = OnceLock::new();
    static SITE: OnceLock<Site> = OnceLock::new();
    let runtime = RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a runtime")
    });
    SITE.get_or_init(|| runtime.block_on(Site::start()))
}

fn cli() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_scrape-agent"));
    command
        .env("SCRAPE_AGENT__FETCH__RESOLVE", Site::resolve().join(","))
        .env("SCRAPE_AGENT__FETCH__RETRIES", "0")
        .env("RUST_LOG", "warn")
        .env_remove("SCRAPE_AGENT_SERVER")
        .env_remove("SCRAPE_AGENT_CONFIG")
        .env_remove("SCRAPE_AGENT__DATABASE__URL")
        .timeout(Duration::from_secs(120));
    command
}

fn allowed(site: &Site) -> BTreeSet<String> {
    ALLOWED.iter().map(|p| site.url(p)).collect()
}

#[test]
fn map_prints_the_sitemap_pages_one_a_line_with_progress() {
    let site = site();
    let output = cli()
        .args([
            "map",
            &site.url("/"),
            "--sitemap",
            "only",
            "--allow-private",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let urls: BTreeSet<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| l.split('\t').next().unwrap().to_owned())
        .collect();
    let mut expected = allowed(site);
    expected.remove(&site.url("/docs/intro")); // linked only, and no link is walked
    assert_eq!(urls, expected);
    assert!(stderr.contains("3 sitemap(s) read"), "{stderr}");
}

#[test]
fn map_refuses_a_private_site_without_allow_private() {
    let site = site();
    let output = cli()
        .args(["map", &site.url("/"), "--json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("blocked_address") && stderr.contains("--allow-private"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());
}

#[test]
fn crawl_answers_every_allowed_page_keyed_by_url() {
    let site = site();
    let output = cli()
        .args([
            "crawl",
            &site.url("/"),
            "-i",
            "the title of the page",
            "--max-pages",
            "50",
            "--max-depth",
            "2",
            "--exclude",
            "/calendar",
            "--exclude",
            "/mirror/**",
            "--allow-private",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
    let keys: BTreeSet<String> = answer.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, allowed(site), "{answer:#}");
    assert_eq!(answer[site.url("/only-in-sitemap")]["title"], "Hidden gem");
    assert!(
        stderr.contains("/docs/install"),
        "progress names the pages: {stderr}"
    );
    assert!(site.requests().iter().all(|r| !r.contains("/private/")));
}
