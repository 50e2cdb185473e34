//! Access through the real server (issue 14): API keys, `access_token` for `EventSource`,
//! pages of other sites, CORS, per-key run limits, request ids and readiness.

use reqwest::header::{HeaderMap, HeaderValue};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use std::time::Duration;

use crate::support::{
    FixtureServer, Server, TempDir, TestApp, error_code, read_stream, spawn_app_with,
};

const KEY_A: &str = "key-alpha-0123456789";
const KEY_B: &str = "key-beta-9876543210";

async fn keyed_app(per_key: usize) -> TestApp {
    spawn_app_with(|s| {
        s.auth.api_keys = vec![KEY_A.into(), KEY_B.into()];
        s.auth.max_runs_per_key = per_key;
    })
    .await
}

async fn send(
    app: &TestApp,
    method: Method,
    path: &str,
    headers: &[(&'static str, &str)],
    body: Option<&Value>,
) -> reqwest::Response {
    let mut map = HeaderMap::new();
    for (name, value) in headers {
        map.insert(*name, HeaderValue::from_str(value).unwrap());
    }
    let mut request = app
        .client
        .request(method, format!("{}{path}", app.base))
        .headers(map);
    if let Some(body) = body {
        request = request.json(body);
    }
    request.send().await.expect("request sent")
}

/// `send` with `Authorization: Bearer <key>`.
async fn send_keyed(
    app: &TestApp,
    key: &str,
    method: Method,
    path: &str,
    body: Option<&Value>,
) -> reqwest::Response {
    let bearer = format!("Bearer {key}");
    send(app, method, path, &[("authorization", &bearer)], body).await
}

fn scrape_body(fixtures: &FixtureServer) -> Value {
    json!({"urls": [fixtures.url("/pages/news.html")], "instructions": "the top 3 stories"})
}

#[tokio::test]
async fn keys_are_needed_on_the_api_and_not_on_health() {
    let fixtures = FixtureServer::start().await;
    let app = keyed_app(0).await;
    let body = scrape_body(&fixtures);

    let missing = send(&app, Method::POST, "/api/scrape/stream", &[], Some(&body)).await;
    assert_eq!(missing.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(missing.headers()["www-authenticate"], "Bearer");
    assert_eq!(error_code(missing).await, "unauthorized");

    let wrong = format!("Bearer {KEY_A}x");
    let wrong = send(
        &app,
        Method::GET,
        "/api/scrape",
        &[("authorization", &wrong)],
        None,
    )
    .await;
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);

    let listed = send_keyed(&app, KEY_B, Method::GET, "/api/scrape", None).await;
    assert_eq!(listed.status(), StatusCode::OK);
    let streamed = send_keyed(&app, KEY_B, Method::POST, "/api/scrape/stream", Some(&body)).await;
    assert_eq!(streamed.status(), StatusCode::OK);
    let frames = read_stream(streamed).await;
    assert_eq!(frames.last().unwrap().event, "complete");

    for open in ["/healthz", "/readyz"] {
        assert_eq!(app.get(open).await.status(), StatusCode::OK, "{open}");
    }
    // The EventSource token works only where EventSource goes.
    let tools = send(
        &app,
        Method::GET,
        &format!("/api/tools?access_token={KEY_A}"),
        &[],
        None,
    )
    .await;
    assert_eq!(tools.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn event_source_passes_its_key_as_access_token_and_logs_never_show_it() {
    let fixtures = FixtureServer::start().await;
    let dir = TempDir::new();
    let log = dir.0.join("server.log");
    let server = Server::start_logging(
        &dir.sqlite_url(),
        &[
            (
                "SCRAPE_AGENT__AUTH__API_KEYS",
                &format!(r#"["{KEY_A}","{KEY_B}"]"#),
            ),
            ("RUST_LOG", "debug,tower_http=debug"),
        ],
        Some(&log),
    )
    .await;
    let client = reqwest::Client::new();
    let page = fixtures.url("/pages/news.html");
    let query = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("url", &page)
        .append_pair("instructions", "the top 3 stories")
        .append_pair("session_id", "with-token")
        .append_pair("access_token", KEY_A)
        .finish();
    let stream = client
        .get(format!("{}/api/scrape/stream?{query}", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), StatusCode::OK);
    let frames = read_stream(stream).await;
    assert_eq!(frames.last().unwrap().event, "complete");
    // The replay route takes the token too; without it, 401.
    let replay = client
        .get(format!(
            "{}/api/scrape/with-token/events?last_event_id=2&access_token={KEY_B}",
            server.base
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(replay.status(), StatusCode::OK);
    let replayed = read_stream(replay).await;
    assert_eq!(replayed.len(), frames.len() - 2);
    let refused = client
        .get(format!("{}/api/scrape/with-token/events", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(
        logged.contains("access_token=REDACTED"),
        "the request URIs are in the log: {logged}"
    );
    assert!(
        !logged.contains(KEY_A) && !logged.contains(KEY_B),
        "{logged}"
    );
}

#[tokio::test]
async fn pages_of_other_sites_cannot_start_runs_and_cors_follows_the_allowed_origins() {
    let fixtures = FixtureServer::start().await;
    let app =
        spawn_app_with(|s| s.auth.allowed_origins = vec!["https://console.example".into()]).await;
    let query = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("url", &fixtures.url("/pages/news.html"))
        .append_pair("instructions", "the top 3 stories")
        .finish();
    let start = format!("/api/scrape/stream?{query}");

    let cross_site = send(
        &app,
        Method::GET,
        &start,
        &[("sec-fetch-site", "cross-site")],
        None,
    )
    .await;
    assert_eq!(cross_site.status(), StatusCode::FORBIDDEN);
    assert_eq!(error_code(cross_site).await, "cross_site_request");
    let evil = send(
        &app,
        Method::POST,
        "/api/scrape",
        &[("origin", "https://evil.example")],
        Some(&scrape_body(&fixtures)),
    )
    .await;
    assert_eq!(evil.status(), StatusCode::FORBIDDEN);
    let listed: Value = app.get("/api/scrape").await.json().await.unwrap();
    assert_eq!(
        listed["sessions"].as_array().map(Vec::len),
        Some(0),
        "{listed}"
    );

    // The server's own origin and the allowed one pass.
    let own = app.base.clone();
    let same = send(&app, Method::GET, &start, &[("origin", &own)], None).await;
    assert_eq!(same.status(), StatusCode::OK);
    read_stream(same).await;
    let allowed = send(
        &app,
        Method::GET,
        &start,
        &[("origin", "https://console.example")],
        None,
    )
    .await;
    assert_eq!(allowed.status(), StatusCode::OK);
    assert_eq!(
        allowed.headers()["access-control-allow-origin"],
        "https://console.example"
    );
    read_stream(allowed).await;

    // Preflight: allowed for the listed origin, not for another.
    let preflight = async |origin: &'static str| {
        send(
            &app,
            Method::OPTIONS,
            "/api/scrape/stream",
            &[
                ("origin", origin),
                ("access-control-request-method", "POST"),
                (
                    "access-control-request-headers",
                    "authorization,content-type",
                ),
            ],
            None,
        )
        .await
    };
    let ok = preflight("https://console.example").await;
    assert_eq!(
        ok.headers()["access-control-allow-origin"],
        "https://console.example"
    );
    let refused = preflight("https://evil.example").await;
    assert!(
        refused
            .headers()
            .get("access-control-allow-origin")
            .is_none()
    );
}

#[tokio::test]
async fn each_key_has_its_own_run_limit() {
    let fixtures = FixtureServer::start().await;
    let app = keyed_app(1).await;
    let slow = json!({"urls": [fixtures.url("/slow")], "instructions": "the title"});
    let first = send_keyed(&app, KEY_A, Method::POST, "/api/scrape", Some(&slow)).await;
    assert_eq!(first.status(), StatusCode::ACCEPTED);
    let first: Value = first.json().await.unwrap();
    let second = send_keyed(&app, KEY_A, Method::POST, "/api/scrape", Some(&slow)).await;
    assert_eq!(second.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(second.headers().contains_key("retry-after"));
    assert_eq!(error_code(second).await, "too_many_runs_for_key");
    let other = send_keyed(&app, KEY_B, Method::POST, "/api/scrape", Some(&slow)).await;
    assert_eq!(other.status(), StatusCode::ACCEPTED);
    let other: Value = other.json().await.unwrap();
    // Once A's run ends, A may start another.
    for id in [&first["session_id"], &other["session_id"]] {
        let path = format!("/api/scrape/{}", id.as_str().unwrap());
        send_keyed(&app, KEY_A, Method::DELETE, &path, None).await;
    }
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while app.hub.live_count() > 0 {
        assert!(std::time::Instant::now() < deadline, "the runs end");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let again = send_keyed(
        &app,
        KEY_A,
        Method::POST,
        "/api/scrape",
        Some(&json!({"urls": [fixtures.url("/pages/news.html")], "instructions": "the title"})),
    )
    .await;
    assert_eq!(again.status(), StatusCode::ACCEPTED);
}

#[tokio::test]
async fn responses_carry_a_request_id_and_readiness_follows_shutdown() {
    let app = spawn_app_with(|_| {}).await;
    let generated = app.get("/api/tools").await;
    let id = generated.headers()["x-request-id"]
        .to_str()
        .unwrap()
        .to_owned();
    assert_eq!(id.len(), 36, "a UUID: {id}");
    let kept = app
        .get_with("/api/tools", &[("x-request-id", "client-chosen-42")])
        .await;
    assert_eq!(kept.headers()["x-request-id"], "client-chosen-42");
    // The run a request starts names it in its `init` event.
    let fixtures = FixtureServer::start().await;
    let started = send(
        &app,
        Method::POST,
        "/api/scrape/stream",
        &[("x-request-id", "run-request-7")],
        Some(&scrape_body(&fixtures)),
    )
    .await;
    let frames = read_stream(started).await;
    assert_eq!(frames[0].event, "init");
    assert_eq!(frames[0].payload()["request_id"], "run-request-7");

    let ready: Value = app.get("/readyz").await.json().await.unwrap();
    assert_eq!(ready["status"], "ready");
    app.hub.begin_shutdown();
    let draining = app.get("/readyz").await;
    assert_eq!(draining.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: Value = draining.json().await.unwrap();
    assert_eq!(body["error"]["code"], "shutting_down");
    // Liveness is not readiness.
    assert_eq!(app.get("/healthz").await.status(), StatusCode::OK);
}

#[tokio::test]
async fn json_logs_are_one_object_a_line_with_the_request_id() {
    let dir = TempDir::new();
    let log = dir.0.join("server.log");
    let server = Server::start_logging(
        &dir.sqlite_url(),
        &[
            ("SCRAPE_AGENT__LOG__FORMAT", "json"),
            ("RUST_LOG", "info,tower_http=debug"),
        ],
        Some(&log),
    )
    .await;
    let answered = reqwest::Client::new()
        .get(format!("{}/api/tools", server.base))
        .header("x-request-id", "json-log-1")
        .send()
        .await
        .unwrap();
    assert_eq!(answered.status(), StatusCode::OK);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let logged = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<Value> = logged
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| l["span"]["request_id"] == "json-log-1" && l["span"]["uri"] == "/api/tools"),
        "{logged}"
    );
}

/// The value of one sample line of the text exposition (`name{labels} value`).
fn sample(text: &str, name_and_labels: &str) -> f64 {
    text.lines()
        .find_map(|line| {
            line.strip_prefix(name_and_labels)
                .and_then(|rest| rest.strip_prefix(' '))
        })
        .and_then(|value| value.trim().parse().ok())
        .unwrap_or_else(|| panic!("no sample `{name_and_labels}` in:\n{text}"))
}

#[tokio::test]
async fn metrics_move_after_a_run_and_may_need_a_key() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|_| {}).await;
    let before = app.get("/metrics").await.text().await.unwrap();
    assert_eq!(sample(&before, "scrape_agent_runs_started_total"), 0.0);
    let frames = app.stream(&scrape_body(&fixtures)).await;
    let events = frames.len() as f64;
    let failing = json!({"urls": [fixtures.url("/status/500")], "instructions": "the title"});
    app.stream(&failing).await;
    let after = app.get("/metrics").await;
    assert!(
        after.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/openmetrics-text")
    );
    let after = after.text().await.unwrap();
    assert_eq!(sample(&after, "scrape_agent_runs_started_total"), 2.0);
    assert_eq!(sample(&after, "scrape_agent_runs_active"), 0.0);
    assert_eq!(
        sample(
            &after,
            r#"scrape_agent_runs_finished_total{status="completed"}"#
        ),
        1.0
    );
    assert_eq!(
        sample(
            &after,
            r#"scrape_agent_runs_finished_total{status="failed"}"#
        ),
        1.0
    );
    assert!(sample(&after, "scrape_agent_events_stored_total") >= events);
    assert_eq!(
        sample(&after, "scrape_agent_fetch_duration_seconds_count"),
        2.0
    );
    assert_eq!(
        sample(
            &after,
            r#"scrape_agent_fetch_failures_total{code="fetch_failed"}"#
        ),
        1.0
    );
    assert!(
        sample(
            &after,
            r#"scrape_agent_planner_rounds_total{planner="heuristic"}"#
        ) >= 1.0
    );
    assert!(
        after.contains(r#"scrape_agent_tool_calls_total{tool="#),
        "{after}"
    );
    assert!(sample(&after, "scrape_agent_store_append_duration_seconds_count") >= events);

    let keyed = spawn_app_with(|s| {
        s.auth.api_keys = vec![KEY_A.into()];
        s.auth.metrics_need_key = true;
    })
    .await;
    assert_eq!(
        keyed.get("/metrics").await.status(),
        StatusCode::UNAUTHORIZED
    );
    let open = keyed_app(0).await;
    assert_eq!(open.get("/metrics").await.status(), StatusCode::OK);
}
