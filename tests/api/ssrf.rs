//! The address guard end to end, with `fetch.allow_private_networks = false` (issue 10).
//!
//! Network rule of these tests: the only connections ever made go to loopback. Names resolve
//! through `fetch.resolve` (never real DNS) to loopback; redirects point only at loopback
//! addresses; the literal addresses of every refused range are requested through a loopback
//! proxy, so a broken guard would hand them to that recorder instead of sending traffic there.

use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::Query;
use axum::response::Redirect;
use axum::routing::get;
use scrape_agent::fetch::guard::{NOT_GLOBAL_UNICAST, SPECIAL_RANGES};
use scrape_agent::settings::Settings;
use serde_json::{Value, json};

use crate::support::{FixtureServer, Frame, TempDir, read_stream, spawn_app_with};

/// Strict settings: private networks refused, fast failure, nothing real resolved.
fn strict(settings: &mut Settings) {
    settings.fetch.allow_private_networks = false;
    settings.fetch.connect_timeout_secs = 1;
    settings.fetch.timeout_secs = 3;
    settings.fetch.resolve = vec![
        "loopback.test=127.0.0.1".into(),
        "loopback2.test=127.0.0.2".into(),
        "loopback6.test=::1".into(),
    ];
    settings.limits.max_urls_per_request = 100;
}

/// Every URL's error code (the URL must have one), and the run's `complete`.
fn outcome(frames: &[Frame]) -> (BTreeMap<String, String>, &Value) {
    let codes = frames
        .iter()
        .filter(|f| f.event == "error")
        .map(|f| {
            let p = f.payload();
            (
                p["url"].as_str().unwrap().to_owned(),
                p["code"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let last = frames.last().expect("frames");
    assert_eq!(last.event, "complete", "complete is last");
    (codes, last.payload())
}

fn assert_all_blocked(frames: &[Frame], urls: &[String]) {
    let (codes, done) = outcome(frames);
    for url in urls {
        assert_eq!(
            codes.get(url).map(String::as_str),
            Some("blocked_address"),
            "{url}: {codes:?}"
        );
    }
    for frame in frames.iter().filter(|f| f.event == "error") {
        let message = frame.payload()["message"].as_str().unwrap();
        assert!(!message.is_empty());
    }
    let url_completes = frames.iter().filter(|f| f.event == "url_complete").count();
    assert_eq!(url_completes, urls.len(), "every URL ends");
    assert_eq!(done["metrics"]["bytes_fetched"], 0, "nothing was fetched");
}

/// A loopback listener that counts connections and answers nothing.
async fn recorder() -> (SocketAddr, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let hits = Arc::new(AtomicUsize::new(0));
    let count = hits.clone();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::SeqCst);
            drop(socket);
        }
    });
    (addr, hits)
}

/// A loopback server whose `/redirect?to=URL` redirects anywhere.
async fn redirector() -> String {
    let router = Router::new().route(
        "/redirect",
        get(|Query(q): Query<BTreeMap<String, String>>| async move {
            Redirect::temporary(q.get("to").map_or("/", String::as_str))
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    base
}

#[tokio::test]
async fn a_name_that_resolves_to_loopback_is_blocked_address() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(strict).await;
    let port = fixtures.addr.port();
    let urls = vec![
        format!("http://loopback.test:{port}/pages/news.html"),
        format!("http://LOOPBACK6.test.:{port}/pages/news.html"),
    ];
    let frames = app
        .stream(&json!({"urls": urls, "instructions": "top 3 stories"}))
        .await;
    let (codes, _) = outcome(&frames);
    let messages: Vec<&str> = frames
        .iter()
        .filter(|f| f.event == "error")
        .map(|f| f.payload()["message"].as_str().unwrap())
        .collect();
    assert!(
        messages[0].contains("127.0.0.0/8 (loopback)"),
        "{messages:?}"
    );
    assert_eq!(codes.len(), 2, "{codes:?}");
    assert!(codes.values().all(|c| c == "blocked_address"), "{codes:?}");
    assert_eq!(outcome(&frames).1["status"], "failed");
    assert_eq!(outcome(&frames).1["metrics"]["bytes_fetched"], 0);
}

#[tokio::test]
async fn a_redirect_from_an_allowed_host_to_a_private_address_is_blocked_address() {
    let fixtures = FixtureServer::start().await;
    let redirector = redirector().await;
    let app = spawn_app_with(|s| {
        strict(s);
        s.fetch.allowed_hosts = vec!["127.0.0.1".into()];
    })
    .await;
    let port = fixtures.addr.port();
    // Targets that are loopback under any guard, so a broken one still stays on this machine.
    let targets = [
        format!("http://127.0.0.2:{port}/pages/news.html"),
        format!("http://[::1]:{port}/pages/news.html"),
        format!("http://[::ffff:127.0.0.1]:{port}/pages/news.html"),
        format!("http://0.0.0.0:{port}/pages/news.html"),
        format!("http://localhost:{port}/pages/news.html"),
        // A name is refused by what it resolves to: 127.0.0.2 is not the allowed 127.0.0.1.
        format!("http://loopback2.test:{port}/pages/news.html"),
    ];
    let urls: Vec<String> = targets
        .iter()
        .map(|t| {
            format!(
                "{redirector}/redirect?to={}",
                url::form_urlencoded::byte_serialize(t.as_bytes()).collect::<String>()
            )
        })
        .collect();
    let allowed = fixtures.url("/pages/news.html");
    let mut all = urls.clone();
    all.push(allowed.clone());
    let frames = app
        .stream(&json!({"urls": all, "instructions": "top 3 stories"}))
        .await;
    let (codes, done) = outcome(&frames);
    for url in &urls {
        assert_eq!(
            codes.get(url).map(String::as_str),
            Some("blocked_address"),
            "{url}: {codes:?}"
        );
    }
    assert!(!codes.contains_key(&allowed), "the allowed host is fetched");
    assert_eq!(done["status"], "partial");
    assert_eq!(done["urls_failed"], urls.len());
    assert_eq!(
        done["extracted_data"][&allowed].as_array().unwrap().len(),
        3
    );
}

#[tokio::test]
async fn an_address_of_every_special_purpose_range_is_blocked_address() {
    // Every request goes to a loopback proxy: the guard must refuse before it, and if it did
    // not, the recorder would see the request — no packet ever leaves for these ranges.
    let (proxy, proxy_hits) = recorder().await;
    let app = spawn_app_with(|s| {
        strict(s);
        s.fetch.proxy = format!("http://{proxy}");
    })
    .await;
    let mut addrs: Vec<IpAddr> = SPECIAL_RANGES.iter().map(|r| r.network).collect();
    addrs.push(NOT_GLOBAL_UNICAST.network);
    addrs.push("4000::1".parse().unwrap());
    let urls: Vec<String> = addrs
        .iter()
        .map(|ip| match ip {
            IpAddr::V4(v4) => format!("http://{v4}:8080/"),
            IpAddr::V6(v6) => format!("http://[{v6}]:8080/"),
        })
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert!(urls.len() >= 35, "{} ranges", urls.len());
    let frames = app
        .stream(&json!({"urls": urls, "instructions": "the title"}))
        .await;
    assert_all_blocked(&frames, &urls);
    assert_eq!(outcome(&frames).1["status"], "failed");
    assert_eq!(
        proxy_hits.load(Ordering::SeqCst),
        0,
        "nothing reached the proxy"
    );
}

/// The real binary with proxy variables in its environment pointing at a recorder.
struct ProxiedServer {
    child: std::process::Child,
    base: String,
    _dir: TempDir,
}

impl Drop for ProxiedServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn start_with_proxy_env(proxy: &str) -> ProxiedServer {
    let dir = TempDir::new();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_scrape-agent"));
    command
        .args(["--bind", &format!("127.0.0.1:{port}")])
        .env("SCRAPE_AGENT__DATABASE__URL", dir.sqlite_url())
        .env("SCRAPE_AGENT__FETCH__ALLOW_PRIVATE_NETWORKS", "false")
        .env(
            "SCRAPE_AGENT__FETCH__RESOLVE",
            "loopback.test=127.0.0.1,loopback6.test=::1",
        )
        .env("SCRAPE_AGENT__FETCH__CONNECT_TIMEOUT_SECS", "1")
        .env("SCRAPE_AGENT__FETCH__TIMEOUT_SECS", "3")
        .env("SCRAPE_AGENT__FETCH__RETRIES", "0")
        .env("RUST_LOG", "warn")
        .env_remove("NO_PROXY")
        .env_remove("no_proxy")
        .stdout(std::process::Stdio::null());
    for var in [
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    ] {
        command.env(var, proxy);
    }
    let child = command.spawn().expect("the binary starts");
    let base = format!("http://127.0.0.1:{port}");
    // This client must not take the proxy of the test's own environment either.
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while client.get(format!("{base}/healthz")).send().await.is_err() {
        assert!(Instant::now() < deadline, "the server answers in time");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    ProxiedServer {
        child,
        base,
        _dir: dir,
    }
}

#[tokio::test]
async fn proxy_variables_in_the_environment_are_ignored() {
    let fixtures = FixtureServer::start().await;
    let (proxy, proxy_hits) = recorder().await;
    let server = start_with_proxy_env(&format!("http://{proxy}")).await;
    let port = fixtures.addr.port();
    let urls = vec![
        format!("http://loopback.test:{port}/pages/news.html"),
        format!("http://loopback6.test:{port}/pages/news.html"),
    ];
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let response = client
        .post(format!("{}/api/scrape/stream", server.base))
        .json(&json!({"urls": urls, "instructions": "top 3 stories"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let frames = read_stream(response).await;
    assert_all_blocked(&frames, &urls);
    assert_eq!(
        proxy_hits.load(Ordering::SeqCst),
        0,
        "the environment's proxy was never contacted"
    );
}
