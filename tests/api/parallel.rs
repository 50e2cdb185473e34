//! Fetch-ahead and per-host politeness, through the real server: the pages of later URLs are
//! fetched while earlier ones are worked on, the events stay grouped per URL in request order,
//! and no host ever sees more than `fetch.per_host_concurrency` requests at once (across runs),
//! nor two request starts closer than its delay.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use scrape_agent::settings::Settings;
use serde_json::{Value, json};

use crate::support::{Frame, FrameReader, TestApp, spawn_app_with};

/// A small list page: the point here is the network, so working on a page costs little.
const NEWS: &str = r#"<!doctype html><html><head><title>News</title></head><body>
<nav><a href="/">Home</a> <a href="/new">New</a></nav>
<main><ol class="stories">
<li class="story"><a class="title" href="/s/1">The first story</a> <span class="score">41 points</span></li>
<li class="story"><a class="title" href="/s/2">The second story</a> <span class="score">32 points</span></li>
<li class="story"><a class="title" href="/s/3">The third story</a> <span class="score">23 points</span></li>
<li class="story"><a class="title" href="/s/4">The fourth story</a> <span class="score">14 points</span></li>
<li class="story"><a class="title" href="/s/5">The fifth story</a> <span class="score">5 points</span></li>
</ol></main></body></html>"#;

/// What the fixture site saw: page requests in flight now and at most, and when each started.
#[derive(Default)]
struct Seen {
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
    starts: Mutex<Vec<Instant>>,
    /// Milliseconds each page takes to answer.
    delay_ms: u64,
    /// The robots.txt served (404 when empty).
    robots: String,
}

/// A local site serving the news fixture at `/p/{n}` after `delay_ms`, counting requests.
struct Site {
    base: String,
    seen: Arc<Seen>,
}

impl Site {
    async fn start(delay_ms: u64, robots: &str) -> Self {
        let seen = Arc::new(Seen {
            delay_ms,
            robots: robots.to_owned(),
            ..Seen::default()
        });
        let router = Router::new()
            .route("/p/{n}", get(page))
            .route("/robots.txt", get(robots_txt))
            .route("/missing/{n}", get(|| async { StatusCode::NOT_FOUND }))
            .with_state(seen.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, router).await });
        Self { base, seen }
    }

    fn urls(&self, prefix: &str, n: usize) -> Vec<String> {
        (0..n)
            .map(|i| format!("{}/p/{prefix}{i}", self.base))
            .collect()
    }

    fn started(&self) -> usize {
        self.seen.starts.lock().unwrap().len()
    }

    fn max_in_flight(&self) -> usize {
        self.seen.max_in_flight.load(Ordering::SeqCst)
    }

    /// Gaps between consecutive request starts, in order of arrival.
    fn gaps(&self) -> Vec<Duration> {
        let mut starts = self.seen.starts.lock().unwrap().clone();
        starts.sort();
        starts.windows(2).map(|w| w[1] - w[0]).collect()
    }
}

/// Decrements the in-flight count when the request ends, also when the client dropped it.
struct InFlight(Arc<Seen>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn page(State(seen): State<Arc<Seen>>, Path(_n): Path<String>) -> Response {
    seen.starts.lock().unwrap().push(Instant::now());
    let now = seen.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    seen.max_in_flight.fetch_max(now, Ordering::SeqCst);
    let _guard = InFlight(seen.clone());
    tokio::time::sleep(Duration::from_millis(seen.delay_ms)).await;
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], NEWS).into_response()
}

async fn robots_txt(State(seen): State<Arc<Seen>>) -> Response {
    if seen.robots.is_empty() {
        StatusCode::NOT_FOUND.into_response()
    } else {
        seen.robots.clone().into_response()
    }
}

fn tune(fetch_concurrency: usize, per_host: usize, delay_ms: u64) -> impl FnOnce(&mut Settings) {
    move |settings| {
        settings.runs.fetch_concurrency = fetch_concurrency;
        settings.fetch.per_host_concurrency = per_host;
        settings.fetch.per_host_delay_ms = delay_ms;
        settings.fetch.timeout_secs = 20;
    }
}

fn request(urls: &[String], session_id: &str) -> Value {
    json!({"urls": urls, "instructions": "top 3 stories", "session_id": session_id})
}

/// Checks that the events are grouped per URL in request order, each URL with exactly the
/// contract's sequence: `url_start`, `fetch`, a decision, decisions and tool calls, `output`,
/// `url_complete` (completed).
fn assert_grouped_in_order(frames: &[Frame], urls: &[String]) {
    assert_eq!(frames.first().unwrap().event, "init");
    assert_eq!(frames.last().unwrap().event, "complete");
    let body = &frames[1..frames.len() - 1];
    let mut groups: Vec<Vec<&Frame>> = Vec::new();
    for frame in body {
        if frame.event == "url_start" {
            groups.push(Vec::new());
        }
        groups.last_mut().expect("a url_start first").push(frame);
    }
    assert_eq!(groups.len(), urls.len(), "one group per URL");
    for (i, (group, url)) in groups.iter().zip(urls).enumerate() {
        let kinds: Vec<String> = group
            .iter()
            .map(|f| {
                if f.event == "step" {
                    f.action().to_owned()
                } else {
                    f.event.clone()
                }
            })
            .collect();
        assert_eq!(group[0].payload()["url"], url.as_str(), "URL {i} in order");
        assert_eq!(group[0].payload()["index"], i);
        let n = kinds.len();
        assert!(n >= 5, "URL {i}: {kinds:?}");
        assert_eq!(
            kinds[..4],
            ["url_start", "fetch", "render", "agent_decision"],
            "URL {i}"
        );
        assert_eq!(kinds[n - 2..], ["output", "url_complete"], "URL {i}");
        assert!(
            kinds[4..n - 2]
                .iter()
                .all(|k| k == "agent_decision" || k == "tool_call"),
            "URL {i}: {kinds:?}"
        );
        for frame in &group[1..] {
            assert_eq!(frame.payload()["url"], url.as_str(), "URL {i}: {frame:?}");
        }
        assert_eq!(group[n - 1].payload()["status"], "completed", "URL {i}");
        assert_eq!(group[1].payload()["status"], "completed", "URL {i} fetched");
    }
}

#[tokio::test]
async fn twenty_slow_pages_take_under_a_third_of_sequential_time_with_events_in_order() {
    let app = spawn_app_with(tune(8, 8, 0)).await;
    // The same run against pages that answer at once: the cost of the work besides fetching.
    let instant = Site::start(0, "").await;
    let started = Instant::now();
    app.stream(&request(&instant.urls("", 20), "ahead-0")).await;
    let work = started.elapsed();
    let site = Site::start(200, "").await;
    let urls = site.urls("", 20);
    let started = Instant::now();
    let frames = app.stream(&request(&urls, "ahead-1")).await;
    let took = started.elapsed();
    eprintln!(
        "20 URLs, fetch_concurrency 8, per_host_concurrency 8: {took:?} at 200 ms a page, \
         {work:?} at 0 ms (sequential fetching alone: 4 s)"
    );
    assert_grouped_in_order(&frames, &urls);
    let done = frames.last().unwrap().payload();
    assert_eq!(done["status"], "completed");
    assert_eq!(done["urls_processed"], 20);
    assert_eq!(done["metrics"]["fetches"], 20);
    assert!(
        took <= Duration::from_millis(20 * 200 / 3),
        "took {took:?}, sequential would be 4 s"
    );
    assert!(site.max_in_flight() > 1, "fetches overlapped");
    assert!(site.max_in_flight() <= 8);
    // Each fetch step carries the real fetch time (the page takes 200 ms).
    for frame in frames.iter().filter(|f| f.action() == "fetch") {
        assert!(frame.payload()["duration_ms"].as_u64().unwrap() >= 190);
    }
}

#[tokio::test]
async fn a_host_never_has_more_than_per_host_concurrency_requests_even_across_runs() {
    let site = Site::start(100, "").await;
    let app = spawn_app_with(tune(6, 2, 0)).await;
    let first = site.urls("a", 10);
    let second = site.urls("b", 10);
    let (body_a, body_b) = (request(&first, "polite-a"), request(&second, "polite-b"));
    let (a, b) = tokio::join!(app.stream(&body_a), app.stream(&body_b));
    assert_grouped_in_order(&a, &first);
    assert_grouped_in_order(&b, &second);
    assert_eq!(site.started(), 20);
    assert_eq!(
        site.max_in_flight(),
        2,
        "two runs × fetch_concurrency 6 against one host: at most 2 at once, and 2 were used"
    );
}

/// Runs `count` URLs of a site serving `robots` under `adjust`ed settings; returns the gaps
/// between request starts the site saw (the run's events checked for order on the way).
async fn start_gaps(
    robots: &str,
    count: usize,
    adjust: impl FnOnce(&mut scrape_agent::settings::Settings),
) -> Vec<Duration> {
    let site = Site::start(0, robots).await;
    let app = spawn_app_with(adjust).await;
    let urls = site.urls("", count);
    let frames = app.stream(&request(&urls, "spaced")).await;
    assert_grouped_in_order(&frames, &urls);
    site.gaps()
}

/// Settings with `tune(4, 4, 0)` and a Crawl-delay bound.
fn crawl_delay_bound(bound_ms: u64) -> impl FnOnce(&mut scrape_agent::settings::Settings) {
    move |settings| {
        tune(4, 4, 0)(settings);
        settings.fetch.max_crawl_delay_ms = bound_ms;
    }
}

#[tokio::test]
async fn per_host_delay_spaces_request_starts_under_concurrency() {
    let gaps = start_gaps("", 6, tune(8, 4, 150)).await;
    assert_eq!(gaps.len(), 5);
    // 150 ms apart at the client; arrival jitter on loopback is far below the 30 ms slack.
    assert!(
        gaps.iter().all(|g| *g >= Duration::from_millis(120)),
        "{gaps:?}"
    );
}

#[tokio::test]
async fn robots_crawl_delay_spaces_requests_to_that_host() {
    let gaps = start_gaps(
        "User-agent: *\nCrawl-delay: 1\nAllow: /\n",
        3,
        crawl_delay_bound(2000),
    )
    .await;
    assert_eq!(gaps.len(), 2);
    assert!(
        gaps.iter().all(|g| *g >= Duration::from_millis(950)),
        "Crawl-delay: 1 → {gaps:?}"
    );
}

#[tokio::test]
async fn a_crawl_delay_past_the_bound_is_capped() {
    let started = Instant::now();
    let gaps = start_gaps(
        "User-agent: *\nCrawl-delay: 30\n",
        3,
        crawl_delay_bound(200),
    )
    .await;
    assert!(started.elapsed() < Duration::from_secs(5), "not 30 s apart");
    assert!(
        gaps.iter().all(|g| *g >= Duration::from_millis(170)),
        "capped at 200 ms: {gaps:?}"
    );
}

fn is_url_start_at(index: usize) -> impl Fn(&Frame) -> bool {
    move |f: &Frame| f.event == "url_start" && f.payload()["index"] == index
}

async fn cancel(app: &TestApp, id: &str) {
    let response = app.delete(&format!("/api/scrape/{id}")).await;
    assert_eq!(response.status(), 202);
}

#[tokio::test]
async fn cancel_in_the_middle_stops_the_fetches_ahead_promptly() {
    let site = Site::start(200, "").await;
    let app = spawn_app_with(tune(4, 2, 0)).await;
    let urls = site.urls("", 20);
    let mut stream = FrameReader::new(
        app.post("/api/scrape/stream", &request(&urls, "stop-1"))
            .await,
    );
    let before = stream.until(is_url_start_at(5)).await;
    let asked = Instant::now();
    cancel(&app, "stop-1").await;
    let rest = stream.rest().await;
    let waited = asked.elapsed();
    assert!(waited < Duration::from_secs(1), "cancel took {waited:?}");
    let done = rest.last().expect("frames");
    assert_eq!(done.event, "complete");
    assert_eq!(done.payload()["status"], "cancelled");
    assert_eq!(
        rest.iter().filter(|f| f.event == "complete").count(),
        1,
        "nothing after complete"
    );
    // No URL past the one being worked on was reported, prefetched or not: the cancel was
    // asked once the sixth had started, and one more may start while the request is on its way
    // (four are fetched ahead, so without a prompt stop ten or more would be).
    let reported: Vec<&Frame> = before
        .iter()
        .chain(&rest)
        .filter(|f| f.event == "url_start")
        .collect();
    assert!(reported.len() <= 7, "{}", reported.len());
    // The stored log ends with the same `complete`.
    let session: Value = app.get("/api/scrape/stop-1").await.json().await.unwrap();
    assert_eq!(session["status"], "cancelled");
    // The fetches started ahead were dropped: no new request reaches the site afterwards.
    let started_then = site.started();
    assert!(
        started_then < 20,
        "not every URL was fetched: {started_then}"
    );
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        site.started(),
        started_then,
        "no fetch starts after the cancel"
    );
}

#[tokio::test]
async fn with_the_default_settings_one_slow_host_gets_two_fetches_at_a_time() {
    let site = Site::start(200, "").await;
    let app = spawn_app_with(|settings| settings.fetch.timeout_secs = 20).await;
    let urls = site.urls("", 20);
    let started = Instant::now();
    let frames = app.stream(&request(&urls, "defaults-1")).await;
    let took = started.elapsed();
    eprintln!("20 URLs × 200 ms with the default fetch settings: {took:?}");
    assert_grouped_in_order(&frames, &urls);
    assert_eq!(site.max_in_flight(), 2, "fetch.per_host_concurrency = 2");
    assert!(
        took <= Duration::from_millis(3000),
        "took {took:?}; 2 at a time is about 2 s, sequential 4 s"
    );
}

#[tokio::test]
async fn a_url_whose_fetch_ahead_failed_fails_at_its_turn_as_before() {
    let site = Site::start(100, "").await;
    let app = spawn_app_with(tune(4, 4, 0)).await;
    let mut urls = site.urls("", 4);
    urls.insert(1, format!("{}/missing/1", site.base));
    let frames = app.stream(&request(&urls, "failed-ahead")).await;
    let done = frames.last().unwrap();
    assert_eq!(done.event, "complete");
    assert_eq!(done.payload()["status"], "partial");
    assert_eq!(done.payload()["urls_failed"], 1);
    assert_eq!(done.payload()["urls_processed"], 4);
    // The failed URL's events sit between its neighbours', exactly as with sequential fetching.
    let start = frames
        .iter()
        .position(|f| f.event == "url_start" && f.payload()["index"] == 1)
        .unwrap();
    let group = &frames[start..start + 4];
    let kinds: Vec<&str> = group
        .iter()
        .map(|f| {
            if f.event == "step" {
                f.action()
            } else {
                f.event.as_str()
            }
        })
        .collect();
    assert_eq!(kinds, ["url_start", "fetch", "error", "url_complete"]);
    assert_eq!(group[1].payload()["status"], "failed");
    assert_eq!(group[2].payload()["code"], "fetch_failed");
    assert_eq!(group[2].payload()["url"], urls[1].as_str());
    assert_eq!(group[3].payload()["status"], "failed");
    assert_eq!(group[3].payload()["error_code"], "fetch_failed");
    assert_eq!(frames[start - 1].event, "url_complete");
    assert_eq!(frames[start - 1].payload()["index"], 0);
    assert_eq!(frames[start + 4].event, "url_start");
    assert_eq!(frames[start + 4].payload()["index"], 2);
}

#[tokio::test]
async fn the_run_timeout_stops_the_fetches_ahead_too() {
    let site = Site::start(200, "").await;
    let app = spawn_app_with(|settings| {
        tune(4, 2, 0)(settings);
        settings.limits.run_timeout_secs = 1;
    })
    .await;
    let urls = site.urls("", 20);
    let started = Instant::now();
    let frames = app.stream(&request(&urls, "timeout-1")).await;
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    let done = frames.last().unwrap();
    assert_eq!(done.event, "complete");
    assert_eq!(frames.iter().filter(|f| f.event == "complete").count(), 1);
    assert!(
        frames
            .iter()
            .any(|f| f.event == "error" && f.payload()["code"] == "timeout"),
        "a timeout error"
    );
    let started_then = site.started();
    assert!(
        started_then < 20,
        "not every URL was fetched: {started_then}"
    );
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        site.started(),
        started_then,
        "no fetch starts after the timeout"
    );
}
