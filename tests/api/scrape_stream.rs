//! The streaming run, end to end (issue 2).

use serde_json::{Value, json};

use crate::support::{FixtureServer, Frame, complete, spawn_app};

fn events(frames: &[Frame]) -> Vec<String> {
    frames
        .iter()
        .map(|f| {
            if f.event == "step" {
                format!("step:{}", f.action())
            } else {
                f.event.clone()
            }
        })
        .collect()
}

#[tokio::test]
async fn two_url_run_emits_the_contract_order() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let news = fixtures.url("/pages/news.html");
    let shop = fixtures.url("/pages/shop.html");
    let frames = app
        .stream(&json!({"urls": [news, shop], "instructions": "top 3 items with title and link"}))
        .await;
    let per_url = [
        "url_start",
        "step:fetch",
        "step:render",
        "step:agent_decision",
        "step:tool_call",
        "step:tool_call",
        "step:tool_call",
        "step:tool_call",
        "step:tool_call",
        "step:output",
        "url_complete",
    ];
    let mut expected = vec!["init".to_owned()];
    for _ in 0..2 {
        expected.extend(per_url.iter().map(|s| (*s).to_owned()));
    }
    expected.push("complete".into());
    assert_eq!(events(&frames), expected);
    assert_eq!(frames[1].payload()["url"], json!(news));
    assert_eq!(frames[12].payload()["url"], json!(shop));
    let done = complete(&frames);
    assert_eq!(done["status"], "completed");
    assert_eq!(done["urls_processed"], 2);
    assert_eq!(done["extracted_data"][&news].as_array().unwrap().len(), 3);
    assert_eq!(done["extracted_data"][&shop].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn envelope_ids_and_step_numbers_are_monotonic() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let frames = app.stream(&json!({"urls": [fixtures.url("/pages/news.html"), fixtures.url("/status/404")], "instructions": "top 5 stories"})).await;
    let session = frames[0].data["session_id"].as_str().unwrap().to_owned();
    let mut last_step = 0;
    let mut reward_sum = 0.0;
    for (index, frame) in frames.iter().enumerate() {
        let seq = index as u64 + 1;
        assert_eq!(
            frame.id.as_deref(),
            Some(seq.to_string().as_str()),
            "id is the seq"
        );
        assert_eq!(frame.data["seq"], json!(seq));
        assert_eq!(frame.data["type"], json!(frame.event));
        assert_eq!(frame.data["session_id"], json!(session));
        if frame.event == "step" {
            let number = frame.payload()["step_number"].as_u64().unwrap();
            assert!(number > last_step, "step numbers increase");
            last_step = number;
            reward_sum += frame.payload()["reward"].as_f64().unwrap();
            assert!(
                ["running", "completed", "failed", "skipped"]
                    .contains(&frame.payload()["status"].as_str().unwrap())
            );
            assert!(
                frame.payload()["timestamp"]
                    .as_str()
                    .unwrap()
                    .ends_with('Z')
            );
        }
    }
    let done = complete(&frames);
    assert_eq!(done["total_steps"], json!(last_step));
    assert!(
        (done["total_reward"].as_f64().unwrap() - reward_sum).abs() < 1e-6,
        "total_reward is the sum of step rewards"
    );
    assert_eq!(frames.iter().filter(|f| f.event == "complete").count(), 1);
}

#[tokio::test]
async fn top_five_stories_are_exactly_the_first_five() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let url = fixtures.url("/pages/news.html");
    let frames = app.stream(&json!({"urls": [url], "instructions": "the top 5 stories with title, link and points"})).await;
    let answer = &complete(&frames)["extracted_data"][&url];
    assert_eq!(
        answer,
        &json!([
            {"title": "Show HN: A tiny SQLite-backed job queue in Rust", "link": "https://github.com/example/jobq", "points": 412},
            {"title": "The hidden cost of microservices at small scale", "link": "https://blog.example.org/microservices-cost", "points": 389},
            {"title": "Why our CI got 4x faster after switching to nextest", "link": "https://engineering.acme.io/ci-nextest", "points": 305},
            {"title": "Understanding Server-Sent Events behind reverse proxies", "link": "https://devnotes.net/sse-proxies", "points": 288},
            {"title": "Ask HN: How do you test code that talks to LLMs?", "link": format!("{}/pages/item?id=9005", fixtures.base), "points": 251},
        ])
    );
    // The decision names the tools and why, and each tool step carries both payload patterns.
    let decision = frames
        .iter()
        .find(|f| f.action() == "agent_decision")
        .unwrap()
        .payload();
    assert_eq!(decision["extracted_data"]["planner"], "heuristic");
    assert_eq!(
        decision["extracted_data"]["tool_calls"][0]["tool"],
        "html.select"
    );
    assert!(
        !decision["extracted_data"]["tool_calls"][0]["reasoning"]
            .as_str()
            .unwrap()
            .is_empty()
    );
    let call = frames
        .iter()
        .find(|f| f.action() == "tool_call")
        .unwrap()
        .payload();
    let data = &call["extracted_data"];
    assert_eq!(data["tool"], "html.select");
    assert_eq!(data["tool_name"], "html.select");
    assert_eq!(data["success"], true);
    assert!(
        data["tool_description"]
            .as_str()
            .unwrap()
            .contains("CSS selector")
    );
    assert!(
        data["result_preview"]
            .as_str()
            .unwrap()
            .starts_with("12 item(s)")
    );
    assert!(
        data["parameters"]["selector"]
            .as_str()
            .unwrap()
            .ends_with("tr.athing.submission")
    );
    assert!(data["duration_ms"].is_u64());
}

#[tokio::test]
async fn products_skip_navigation_and_read_prices() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let url = fixtures.url("/pages/shop.html");
    let frames = app.stream(&json!({"urls": [url], "instructions": "all products with name, price and image", "output_format": "csv"})).await;
    let done = complete(&frames);
    let answer = done["extracted_data"][&url].as_array().unwrap();
    assert_eq!(answer.len(), 8, "every product card, no menu entries");
    assert_eq!(answer[0]["name"], "Trail Runner GTX");
    assert_eq!(answer[0]["price"], "$129.00");
    assert_eq!(
        answer[0]["image"],
        format!("{}/img/trail-runner-gtx.jpg", fixtures.base)
    );
    assert_eq!(answer[7]["name"], "Court Classic Leather");
    let csv = done["output"].as_str().unwrap();
    assert!(
        csv.starts_with("name,price,image\nTrail Runner GTX,$129.00,"),
        "{csv}"
    );
    assert_eq!(done["output_format"], "csv");
}

#[tokio::test]
async fn code_examples_come_back_with_their_lines_and_language() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let url = fixtures.url("/pages/docs-code.html");
    let frames = app
        .stream(&json!({"urls": [url], "instructions": "all code examples on this page"}))
        .await;
    let done = complete(&frames);
    let answer = done["extracted_data"][&url].as_array().unwrap();
    assert_eq!(
        answer.len(),
        2,
        "the page's two blocks, not the menu's or inline code"
    );
    assert_eq!(answer[0]["language"], "rust");
    assert!(
        answer[0]["code"]
            .as_str()
            .unwrap()
            .starts_with("use widget::Widget;\n\nfn main() {\n    let w"),
        "{answer:?}"
    );
    assert_eq!(
        answer[1],
        json!({"code": "cargo run\n# prints: demo", "language": "shell"})
    );
}

#[tokio::test]
async fn an_explicit_plan_is_run_as_given() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let url = fixtures.url("/pages/news.html");
    let plan = json!([
        {"tool": "html.select", "params": {"selector": "span.titleline > a"}, "reasoning": "story links"},
        {"tool": "extract.top_n", "params": {"n": 2}, "reasoning": "two are enough"},
    ]);
    let frames = app.stream(&json!({"urls": [url], "tools": plan})).await;
    let decision = frames
        .iter()
        .find(|f| f.action() == "agent_decision")
        .unwrap()
        .payload();
    assert_eq!(decision["extracted_data"]["planner"], "client");
    assert_eq!(
        decision["extracted_data"]["tool_calls"],
        json!([
            {"tool": "html.select", "params": {"selector": "span.titleline > a"}, "reasoning": "story links"},
            {"tool": "extract.top_n", "params": {"n": 2}, "reasoning": "two are enough"},
        ])
    );
    let tools: Vec<&str> = frames
        .iter()
        .filter(|f| f.action() == "tool_call")
        .map(|f| f.payload()["extracted_data"]["tool"].as_str().unwrap())
        .collect();
    assert_eq!(tools, vec!["html.select", "extract.top_n"]);
    let answer = &complete(&frames)["extracted_data"][&url];
    assert_eq!(
        answer[0]["text"],
        "Show HN: A tiny SQLite-backed job queue in Rust"
    );
    assert_eq!(
        answer[1]["url"],
        "https://blog.example.org/microservices-cost"
    );
    assert_eq!(answer.as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn a_bad_tool_call_fails_its_step_not_the_run() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let url = fixtures.url("/pages/news.html");
    let plan = json!([
        {"tool": "html.select", "params": {"selector": "div["}},
        {"tool": "no.such_tool", "params": {}},
        {"tool": "html.select", "params": {}},
        {"tool": "html.select", "params": {"selector": ".hnuser"}},
    ]);
    let frames = app.stream(&json!({"urls": [url], "tools": plan})).await;
    let steps: Vec<&Value> = frames
        .iter()
        .filter(|f| f.action() == "tool_call")
        .map(Frame::payload)
        .collect();
    assert_eq!(steps.len(), 4);
    assert_eq!(steps[0]["status"], "failed");
    assert!(
        steps[0]["extracted_data"]["error"]
            .as_str()
            .unwrap()
            .contains("invalid CSS selector `div[`")
    );
    assert_eq!(
        steps[1]["extracted_data"]["error"],
        "unknown tool `no.such_tool`"
    );
    assert!(
        steps[2]["extracted_data"]["error"]
            .as_str()
            .unwrap()
            .contains("selector")
    );
    assert_eq!(steps[3]["status"], "completed");
    let done = complete(&frames);
    assert_eq!(done["status"], "completed");
    assert_eq!(done["metrics"]["tool_failures"], 3);
    assert_eq!(done["metrics"]["tool_calls"], 4);
}

#[tokio::test]
async fn failing_urls_get_typed_errors_and_the_run_goes_on() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let good = fixtures.url("/pages/news.html");
    let missing = fixtures.url("/status/404");
    let json_url = fixtures.url("/json");
    // A port nothing listens on: bind one, then close it.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}/", listener.local_addr().unwrap())
    };
    let frames = app
        .stream(
            &json!({"urls": [missing, good, json_url, closed], "instructions": "top 3 stories"}),
        )
        .await;
    let errors: Vec<&Value> = frames
        .iter()
        .filter(|f| f.event == "error")
        .map(Frame::payload)
        .collect();
    let codes: Vec<(&str, &str)> = errors
        .iter()
        .map(|e| (e["url"].as_str().unwrap(), e["code"].as_str().unwrap()))
        .collect();
    assert_eq!(
        codes,
        vec![
            (missing.as_str(), "fetch_failed"),
            (json_url.as_str(), "not_html"),
            (closed.as_str(), "fetch_failed")
        ]
    );
    assert!(errors[0]["message"].as_str().unwrap().contains("404"));
    assert_eq!(errors[2]["retryable"], true);
    let completes: Vec<&str> = frames
        .iter()
        .filter(|f| f.event == "url_complete")
        .map(|f| f.payload()["status"].as_str().unwrap())
        .collect();
    assert_eq!(completes, vec!["failed", "completed", "failed", "failed"]);
    let done = complete(&frames);
    assert_eq!(done["status"], "partial");
    assert_eq!(done["urls_processed"], 1);
    assert_eq!(done["urls_failed"], 3);
    assert_eq!(done["errors"].as_array().unwrap().len(), 3);
    assert_eq!(done["extracted_data"][&good].as_array().unwrap().len(), 3);
    assert!(done["extracted_data"][&missing].is_null());
}

#[tokio::test]
async fn private_addresses_are_refused_by_default() {
    let fixtures = FixtureServer::start().await;
    let app = crate::support::spawn_app_with(|s| s.fetch.allow_private_networks = false).await;
    let url = fixtures.url("/pages/news.html");
    let frames = app.stream(&json!({"urls": [url, format!("http://localhost:{}/pages/news.html", fixtures.addr.port())], "instructions": "top 3 stories"})).await;
    let codes: Vec<&str> = frames
        .iter()
        .filter(|f| f.event == "error")
        .map(|f| f.payload()["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, vec!["blocked_address", "blocked_address"]);
    assert_eq!(complete(&frames)["status"], "failed");
    assert_eq!(complete(&frames)["metrics"]["bytes_fetched"], 0);
}

#[tokio::test]
async fn stream_headers_and_keep_alive() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let response = app.post("/api/scrape/stream", &json!({"urls": [fixtures.url("/slow"), fixtures.url("/pages/news.html")], "instructions": "top 2 stories", "session_id": "keepalive-1"})).await;
    assert_eq!(response.status(), 200);
    let headers = response.headers().clone();
    assert_eq!(headers["content-type"], "text/event-stream");
    assert_eq!(headers["cache-control"], "no-cache");
    assert_eq!(headers["x-accel-buffering"], "no");
    assert_eq!(headers["x-session-id"], "keepalive-1");
    let raw = response.text().await.unwrap();
    assert!(
        raw.contains(": keep-alive\n"),
        "a keep-alive comment went out while the slow fetch was pending"
    );
    assert!(
        raw.contains("\"code\":\"timeout\""),
        "the slow URL timed out"
    );
    assert!(raw.trim_end().ends_with('}') && raw.contains("event: complete"));
}

#[tokio::test]
async fn duplicate_session_id_is_a_conflict() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let body = json!({"urls": [fixtures.url("/pages/news.html")], "instructions": "top 1 story", "session_id": "dup-1"});
    let frames = app.stream(&body).await;
    assert_eq!(frames.last().unwrap().event, "complete");
    let again = app.post("/api/scrape/stream", &body).await;
    assert_eq!(again.status(), 409);
    let error: Value = again.json().await.unwrap();
    assert_eq!(error["error"]["code"], "duplicate_session");
}

#[tokio::test]
async fn a_body_over_the_cap_is_too_large_and_nothing_more_is_read() {
    let fixtures = FixtureServer::start().await;
    let app = crate::support::spawn_app_with(|s| s.fetch.max_body_bytes = 64 * 1024).await;
    let big = fixtures.url("/big");
    let good = fixtures.url("/pages/news.html");
    let frames = app
        .stream(&json!({"urls": [big, good], "instructions": "top 2 stories"}))
        .await;
    let errors: Vec<&Value> = frames
        .iter()
        .filter(|f| f.event == "error")
        .map(Frame::payload)
        .collect();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0]["code"], "too_large");
    assert_eq!(errors[0]["url"], json!(big));
    let done = complete(&frames);
    assert_eq!(done["status"], "partial");
    assert_eq!(done["extracted_data"][&good].as_array().unwrap().len(), 2);
    // The capped body was not counted: only the good page's bytes are.
    assert!(done["metrics"]["bytes_fetched"].as_u64().unwrap() < 64 * 1024);
}

#[tokio::test]
async fn a_spent_budget_fails_the_url_with_budget_exhausted_and_keeps_the_partial_value() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let news = fixtures.url("/pages/news.html");
    // The plan for this request takes 5 calls; the budget allows 2.
    let frames = app
        .stream(&json!({"urls": [news], "instructions": "top 3 items with title and link", "max_steps": 2}))
        .await;
    let statuses: Vec<&str> = frames
        .iter()
        .filter(|f| f.event == "step" && f.action() == "tool_call")
        .map(|f| f.payload()["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        vec!["completed", "completed", "skipped", "skipped", "skipped"]
    );
    let error = frames
        .iter()
        .find(|f| f.event == "error")
        .expect("an error event")
        .payload();
    assert_eq!(error["code"], "budget_exhausted");
    assert_eq!(error["url"], json!(news));
    let url_complete = frames
        .iter()
        .find(|f| f.event == "url_complete")
        .unwrap()
        .payload();
    assert_eq!(url_complete["status"], "failed");
    let done = complete(&frames);
    assert_eq!(done["status"], "failed");
    assert_eq!(done["urls_failed"], 1);
    // What the two calls produced is kept: every story as a record, not yet cut to three.
    let partial = done["extracted_data"][&news]
        .as_array()
        .expect("partial records");
    assert!(partial.len() > 3, "{partial:?}");
    assert_eq!(
        partial[0]["title"],
        "Show HN: A tiny SQLite-backed job queue in Rust"
    );
}
