//! Runs that end well (issue 10): a cancel reaches a tool that is working through a large page.

use std::time::{Duration, Instant};

use axum::Router;
use axum::http::header;
use axum::routing::get;
use futures::StreamExt;
use serde_json::{Value, json};

use crate::support::{Frame, spawn_app};

/// Items on the generated page: about 3 MB and 120,000 elements.
const ITEMS: usize = 12_000;

/// A selector whose matching is quadratic in the number of items: `:has(~ …)` walks every
/// later sibling's subtree for every item. On this page it runs for minutes.
const HEAVY: &str = "div.item:has(~ div.item a[href$='/none'])";

fn heavy_page() -> String {
    let items: String = (0..ITEMS)
        .map(|i| {
            format!(
                "<div class=item><h3><a href=/i/{i}>Item number {i}</a></h3><p>A description of item {i}, long enough to make the page weigh what a large listing weighs: {}</p><span class=points>{i} points</span><span class=by>by someone</span></div>\n",
                "words ".repeat(20)
            )
        })
        .collect();
    format!("<html><head><title>Big</title></head><body><main>{items}</main></body></html>")
}

async fn serve(page: String) -> String {
    let router = Router::new().route(
        "/heavy",
        get(move || {
            let page = page.clone();
            async move { ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], page) }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, router).await.expect("serve") });
    format!("http://{addr}/heavy")
}

/// Reads SSE frames one at a time from a streaming response.
struct Frames {
    body: std::pin::Pin<Box<dyn futures::Stream<Item = reqwest::Result<axum::body::Bytes>> + Send>>,
    buffer: String,
}

impl Frames {
    fn new(response: reqwest::Response) -> Self {
        assert_eq!(response.status(), 200, "the stream starts");
        Self {
            body: Box::pin(response.bytes_stream()),
            buffer: String::new(),
        }
    }

    async fn next(&mut self) -> Option<Frame> {
        loop {
            while let Some(end) = self.buffer.find("\n\n") {
                let raw: String = self.buffer.drain(..end + 2).collect();
                let mut event = String::from("message");
                let mut data = String::new();
                for line in raw.lines() {
                    if let Some(v) = line.strip_prefix("event:") {
                        event = v.trim().to_owned();
                    } else if let Some(v) = line.strip_prefix("data:") {
                        data.push_str(v.strip_prefix(' ').unwrap_or(v));
                    }
                }
                if !data.is_empty() {
                    return Some(Frame {
                        id: None,
                        event,
                        data: serde_json::from_str(&data).expect("data is JSON"),
                    });
                }
            }
            let chunk = tokio::time::timeout(Duration::from_secs(120), self.body.next())
                .await
                .expect("a frame in time")?;
            self.buffer
                .push_str(&String::from_utf8_lossy(&chunk.expect("chunk")));
        }
    }
}

/// What the uncancelled call costs: the same call on the same page, stopped by a deadline
/// only. It is still running when the deadline passes.
fn uncancelled_outlasts(url: &str, html: &str, deadline: Duration) -> bool {
    use scrape_agent::page::{Interrupt, Page};
    use scrape_agent::tools::{Registry, ToolCall, ToolLimits, Workspace};
    let page = Page::parse(url::Url::parse(url).expect("url"), html);
    let interrupt = Interrupt::never().with_deadline(Instant::now() + deadline);
    let mut ws = Workspace::new(&page, ToolLimits::default()).with_interrupt(interrupt);
    let result = Registry::builtin().execute(
        &mut ws,
        &ToolCall::new("html.select", json!({"selector": HEAVY}), ""),
    );
    result.error.is_some_and(|e| e.starts_with("interrupted"))
}

#[tokio::test]
async fn cancel_stops_a_tool_mid_way_and_the_run_completes_cancelled() {
    let html = heavy_page();
    assert!(html.len() > 2_500_000, "{} bytes", html.len());
    let url = serve(html.clone()).await;
    let app = spawn_app().await;

    // Without a cancel the call runs past 5 s (it would run for minutes).
    let (check_url, check_html) = (url.clone(), html);
    let outlasts = tokio::task::spawn_blocking(move || {
        uncancelled_outlasts(&check_url, &check_html, Duration::from_secs(5))
    })
    .await
    .expect("join");
    assert!(outlasts, "the uncancelled call finished within 5 s");

    let mut frames = Frames::new(
        app.post(
            "/api/scrape/stream",
            &json!({
                "urls": [&url],
                "instructions": "every item",
                "session_id": "heavy-1",
                "tools": [
                    {"tool": "html.select", "params": {"selector": HEAVY}, "reasoning": "heavy"},
                    {"tool": "extract.fields", "params": {"fields": {"title": "h3"}}, "reasoning": "never runs"}
                ]
            }),
        )
        .await,
    );
    let started = Instant::now();
    let mut seen: Vec<Frame> = Vec::new();
    while let Some(frame) = frames.next().await {
        let decided = frame.event == "step" && frame.action() == "agent_decision";
        seen.push(frame);
        if decided {
            break;
        }
    }
    // The decision is emitted just before the first call starts; give it time to be well
    // inside the page.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let asked = Instant::now();
    let response = app.delete("/api/scrape/heavy-1").await;
    assert_eq!(response.status(), 202);
    while let Some(frame) = frames.next().await {
        seen.push(frame);
    }
    let waited = asked.elapsed();
    eprintln!(
        "fetch + parse + outline + decision: {:?}; cancel to the end of the stream: {waited:?}",
        asked - started - Duration::from_millis(500)
    );
    assert!(
        waited < Duration::from_secs(3),
        "the run took {waited:?} to end after the cancel"
    );

    let done = seen.last().expect("frames");
    assert_eq!(done.event, "complete", "complete is last");
    assert_eq!(done.payload()["status"], "cancelled");

    let tools: Vec<&Value> = seen
        .iter()
        .filter(|f| f.event == "step" && f.action() == "tool_call")
        .map(Frame::payload)
        .collect();
    assert_eq!(tools.len(), 1, "the second call never runs: {tools:?}");
    let step = tools[0];
    assert_eq!(step["status"], "failed");
    let error = step["extracted_data"]["error"].as_str().unwrap_or_default();
    assert!(error.starts_with("interrupted"), "{error}");
    // It was stopped while it ran, not before it started.
    assert!(
        step["duration_ms"].as_u64().unwrap_or_default() >= 300,
        "{step}"
    );

    // Order: the failed call, then the URL's cancelled error, then `complete`.
    let position = |pred: &dyn Fn(&Frame) -> bool| seen.iter().position(pred);
    let tool_at = position(&|f| f.event == "step" && f.action() == "tool_call").expect("tool");
    let error_at = position(&|f| f.event == "error" && f.payload()["code"] == "cancelled")
        .expect("a cancelled error");
    assert!(tool_at < error_at && error_at < seen.len() - 1);
}

#[tokio::test]
async fn the_run_timeout_stops_a_tool_mid_way() {
    let url = serve(heavy_page()).await;
    // Fetching, parsing and outlining the page take 1–3 s here, and several times that on a
    // loaded two-core machine; the timeout leaves room for that and still falls inside the
    // call, which alone would run for minutes.
    let app = crate::support::spawn_app_with(|s| s.limits.run_timeout_secs = 15).await;
    let started = Instant::now();
    let frames = app
        .stream(&json!({
            "urls": [&url],
            "instructions": "every item",
            "tools": [{"tool": "html.select", "params": {"selector": HEAVY}, "reasoning": "heavy"}]
        }))
        .await;
    let took = started.elapsed();
    eprintln!("run with a 15 s timeout ended after {took:?}");
    assert!(took < Duration::from_secs(18), "{took:?}");
    let done = frames.last().expect("frames");
    assert_eq!(done.event, "complete");
    // A timed-out run that produced nothing failed (see the contract); its errors say timeout.
    assert_eq!(done.payload()["status"], "failed");
    assert!(
        frames
            .iter()
            .any(|f| f.event == "error" && f.payload()["code"] == "timeout")
    );
    let tool = frames
        .iter()
        .find(|f| f.event == "step" && f.action() == "tool_call")
        .expect("the call started before the timeout");
    assert!(
        tool.payload()["extracted_data"]["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("interrupted")),
        "{}",
        tool.payload()
    );
}
