//! The server's edge under attack (issue 28), through the real server: DNS rebinding, pages
//! starting runs with `<img>`, connections that never send anything, slow bodies, keys in logs,
//! and error responses without a JSON body.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::support::{
    FixtureServer, Server, TempDir, error_code, read_stream, spawn_app, spawn_app_with,
};

/// Every route the server has, with a method it answers.
const ROUTES: &[(&str, &str)] = &[
    ("GET", "/"),
    ("GET", "/healthz"),
    ("GET", "/readyz"),
    ("GET", "/docs"),
    ("GET", "/metrics"),
    ("GET", "/api/openapi.json"),
    ("GET", "/api/tools"),
    ("GET", "/api/tools/html.select"),
    ("GET", "/api/scrape"),
    ("POST", "/api/scrape"),
    ("POST", "/api/scrape/stream"),
    (
        "GET",
        "/api/scrape/stream?url=http://127.0.0.1:9/&instructions=x",
    ),
    ("GET", "/api/scrape/some-session"),
    ("DELETE", "/api/scrape/some-session"),
    ("GET", "/api/scrape/some-session/events"),
    ("POST", "/mcp"),
    ("GET", "/no/such/route"),
];

#[tokio::test]
async fn a_rebound_page_is_refused_on_every_route_and_listed_names_are_served() {
    let app = spawn_app().await;
    let port = app.base.rsplit(':').next().unwrap().to_owned();
    let evil = format!("evil.example:{port}");
    let evil_origin = format!("http://{evil}");
    for (method, path) in ROUTES {
        let response = app
            .client
            .request(method.parse().unwrap(), format!("{}{path}", app.base))
            .header("host", &evil)
            .header("origin", &evil_origin)
            .header("content-type", "application/json")
            .body(r#"{"urls":["http://127.0.0.1:9/"],"instructions":"x"}"#)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "{method} {path}");
        assert_eq!(
            error_code(response).await,
            "foreign_host",
            "{method} {path}"
        );
    }
    // No run was started by any of them.
    let sessions: Value = app.get("/api/scrape").await.json().await.unwrap();
    assert_eq!(sessions["sessions"].as_array().unwrap().len(), 0);

    // The names the operator lists are served, and so are loopback names.
    let listed = spawn_app_with(|s| s.server.allowed_hosts = vec!["scrape.example".into()]).await;
    let port = listed.base.rsplit(':').next().unwrap().to_owned();
    for host in [
        format!("scrape.example:{port}"),
        format!("localhost:{port}"),
    ] {
        let response = listed
            .client
            .get(format!("{}/api/tools", listed.base))
            .header("host", &host)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{host}");
    }
}

#[tokio::test]
async fn a_run_starting_get_is_refused_from_any_other_page_even_on_the_same_site() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let query = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("url", &fixtures.url("/pages/news.html"))
        .append_pair("instructions", "the top 3 stories")
        .finish();
    let path = format!("/api/scrape/stream?{query}");
    for site in ["same-site", "cross-site"] {
        let refused = app.get_with(&path, &[("sec-fetch-site", site)]).await;
        assert_eq!(refused.status(), StatusCode::FORBIDDEN, "{site}");
        assert_eq!(error_code(refused).await, "cross_site_request");
    }
    let sessions: Value = app.get("/api/scrape").await.json().await.unwrap();
    assert_eq!(sessions["sessions"].as_array().unwrap().len(), 0);
    // Typed into the address bar (`none`) or sent by curl (no header): the run starts.
    let typed = app.get_with(&path, &[("sec-fetch-site", "none")]).await;
    assert_eq!(typed.status(), StatusCode::OK);
    let frames = read_stream(typed).await;
    assert_eq!(frames.last().unwrap().event, "complete");
}

#[tokio::test]
async fn errors_made_by_the_framework_and_the_mcp_service_have_json_bodies() {
    let app = spawn_app().await;
    let not_allowed = app
        .client
        .put(format!("{}/api/scrape", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(not_allowed.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert!(not_allowed.headers().contains_key("allow"));
    assert_eq!(error_code(not_allowed).await, "method_not_allowed");

    let long = format!("/api/tools?padding={}", "a".repeat(40 * 1024));
    let too_long = app.get(&long).await;
    assert_eq!(too_long.status(), StatusCode::URI_TOO_LONG);
    assert_eq!(error_code(too_long).await, "uri_too_long");

    let wrong_type = app
        .client
        .post(format!("{}/mcp", app.base))
        .header("content-type", "text/plain")
        .header("accept", "application/json, text/event-stream")
        .body("hello")
        .send()
        .await
        .unwrap();
    assert_eq!(wrong_type.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(error_code(wrong_type).await, "unsupported_media_type");

    let huge = app
        .client
        .post(format!("{}/api/scrape", app.base))
        .header("content-type", "application/json")
        .body(vec![b' '; 300 * 1024])
        .send()
        .await
        .unwrap();
    assert_eq!(huge.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(error_code(huge).await, "body_too_large");
}

#[tokio::test]
async fn a_connection_that_sends_nothing_or_a_slow_body_is_closed() {
    let app = spawn_app_with(|s| {
        s.server.header_read_timeout_secs = 1;
        s.server.body_read_timeout_secs = 1;
    })
    .await;
    let addr = app.base.trim_start_matches("http://").to_owned();

    // Silent: closed after the header timeout.
    let mut silent = TcpStream::connect(&addr).await.unwrap();
    let started = Instant::now();
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), silent.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "the server closed the silent connection");
    assert!(started.elapsed() < Duration::from_secs(5));

    // A body promised and never finished: 408 with a JSON body.
    let mut slow = TcpStream::connect(&addr).await.unwrap();
    slow.write_all(
        format!(
            "POST /api/scrape HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{{\"urls\""
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), slow.read_to_end(&mut answer)).await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"request_timeout\""), "{answer}");
}

#[tokio::test]
async fn eleven_hundred_silent_connections_under_a_1024_file_limit_leave_the_server_reachable() {
    // This process holds the attackers' ends: it needs more than 1,100 files itself.
    let _ = rlimit::increase_nofile_limit(4096);
    let fixtures = FixtureServer::start().await;
    let dir = TempDir::new();
    let log = dir.0.join("server.log");
    let server = Server::start_limited(&dir.sqlite_url(), 1024, Some(&log)).await;
    let addr = server.base.trim_start_matches("http://").to_owned();
    let mut held = Vec::new();
    for _ in 0..1100 {
        match TcpStream::connect(&addr).await {
            Ok(stream) => held.push(stream),
            Err(err) => panic!("connect {}: {err}", held.len()),
        }
    }
    // Give the server time to accept them all (and close the oldest).
    tokio::time::sleep(Duration::from_millis(500)).await;
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    let health = client
        .get(format!("{}/healthz", server.base))
        .send()
        .await
        .expect("/healthz answers");
    assert_eq!(health.status(), StatusCode::OK);
    // A real run still works while the silent connections are held.
    let stream = client
        .post(format!("{}/api/scrape/stream", server.base))
        .json(&json!({"urls": [fixtures.url("/pages/news.html")], "instructions": "the top 3 stories"}))
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), StatusCode::OK);
    let frames = read_stream(stream).await;
    assert_eq!(frames.last().unwrap().event, "complete");
    drop(held);
    let logged = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(!logged.contains("Too many open files"), "{logged}");
}

#[tokio::test]
async fn a_key_sent_under_an_encoded_parameter_name_is_redacted_in_every_log_line() {
    const KEY: &str = "key-encoded-5555";
    let fixtures = FixtureServer::start().await;
    let dir = TempDir::new();
    let log = dir.0.join("server.log");
    let server = Server::start_logging(
        &dir.sqlite_url(),
        &[
            ("SCRAPE_AGENT__AUTH__API_KEYS", KEY),
            ("RUST_LOG", "debug,tower_http=debug"),
        ],
        Some(&log),
    )
    .await;
    let client = reqwest::Client::new();
    // Accepted as the key (the name is decoded) ...
    let missing = client
        .get(format!(
            "{}/api/scrape/none/events?access%5Ftoken={KEY}",
            server.base
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), StatusCode::NOT_FOUND, "the key was taken");
    // ... and on a 5xx: a run refused while the server shuts down, which it does slowly
    // because a run is still fetching a slow page.
    let slow = client
        .post(format!("{}/api/scrape", server.base))
        .bearer_auth(KEY)
        .json(&json!({"urls": [fixtures.url("/delay/4000/news.html")], "instructions": "the top 3 stories"}))
        .send()
        .await
        .unwrap();
    assert_eq!(slow.status(), StatusCode::ACCEPTED);
    let pid = server.child.id().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    let query = format!("url=http://127.0.0.1:9/&instructions=x&acc%65ss_token={KEY}");
    let deadline = Instant::now() + Duration::from_secs(3);
    let refused = loop {
        let response = client
            .get(format!("{}/api/scrape/stream?{query}", server.base))
            .send()
            .await
            .unwrap();
        if response.status() == StatusCode::SERVICE_UNAVAILABLE || Instant::now() > deadline {
            break response;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(error_code(refused).await, "shutting_down");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(logged.contains("access%5Ftoken=REDACTED"), "{logged}");
    assert!(logged.contains("acc%65ss_token=REDACTED"), "{logged}");
    assert!(!logged.contains(KEY), "{logged}");
}

#[tokio::test]
async fn a_page_that_trickles_costs_the_fetch_budget_once_and_says_so() {
    use axum::body::Body;
    use futures::StreamExt;
    // A page that sends its head and then a byte every 200 ms, for ever.
    let router = axum::Router::new().route(
        "/trickle",
        axum::routing::get(|| async {
            let head = futures::stream::once(async {
                Ok::<_, std::io::Error>(axum::body::Bytes::from_static(b"<html><body><p>"))
            });
            let drip = futures::stream::unfold((), |()| async {
                tokio::time::sleep(Duration::from_millis(200)).await;
                Some((Ok(axum::body::Bytes::from_static(b"x")), ()))
            });
            (
                [("content-type", "text/html")],
                Body::from_stream(head.chain(drip)),
            )
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let page = format!("http://{}/trickle", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    let app = spawn_app_with(|s| {
        s.fetch.timeout_secs = 2;
        s.fetch.retries = 2;
        s.fetch.retry_backoff_ms = 10;
    })
    .await;
    let started = Instant::now();
    let frames = app
        .stream(&json!({"urls": [&page], "instructions": "the article"}))
        .await;
    let took = started.elapsed();
    let error = frames
        .iter()
        .find(|f| f.event == "error")
        .expect("an error event")
        .payload()
        .clone();
    assert_eq!(error["code"], "timeout", "{error}");
    assert!(
        error["message"].as_str().unwrap().contains("2 s"),
        "{error}"
    );
    // Three attempts of 2 s each would take 6 s; the budget is spent once.
    assert!(took < Duration::from_secs(4), "took {took:?}");
    assert_eq!(frames.last().unwrap().event, "complete");
}

#[tokio::test]
async fn when_every_connection_is_busy_a_new_one_is_refused_clearly() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|s| s.server.max_connections = 2).await;
    // Two runs streaming a slow page: two busy connections (one client each, so they do not
    // share a kept-alive connection).
    let mut streams = Vec::new();
    for n in 0..2 {
        let response = reqwest::Client::new()
            .post(format!("{}/api/scrape/stream", app.base))
            .json(&json!({"urls": [fixtures.url(&format!("/delay/2000/news.html?{n}"))], "instructions": "the top 3 stories"}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        streams.push(response);
    }
    let refused = reqwest::Client::new()
        .get(format!("{}/healthz", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(refused.headers()["retry-after"], "1");
    assert_eq!(error_code(refused).await, "too_many_connections");
    // The busy streams were not cut: both end with `complete`.
    for stream in streams {
        let frames = read_stream(stream).await;
        assert_eq!(frames.last().unwrap().event, "complete");
    }
    let after = reqwest::Client::new()
        .get(format!("{}/healthz", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(after.status(), StatusCode::OK);
}

#[tokio::test]
async fn credentials_in_a_url_are_never_stored_streamed_or_listed() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let page = fixtures.url("/pages/news.html");
    let with_credentials = page.replacen("http://", "http://ann:s3cret-pw@", 1);
    let frames = app
        .stream(&json!({"urls": [&with_credentials], "instructions": "the top 3 stories", "session_id": "creds"}))
        .await;
    assert_eq!(frames.last().unwrap().event, "complete");
    let streamed: String = frames.iter().map(|f| f.payload().to_string()).collect();
    assert!(!streamed.contains("s3cret-pw"), "{streamed}");
    assert!(
        streamed.contains(&page),
        "the run answers the URL without them"
    );
    let stored = app.get("/api/scrape/creds").await.text().await.unwrap();
    let listed = app.get("/api/scrape").await.text().await.unwrap();
    let replayed = read_stream(app.get("/api/scrape/creds/events").await).await;
    let replayed: String = replayed.iter().map(|f| f.payload().to_string()).collect();
    for text in [&stored, &listed, &replayed] {
        assert!(
            !text.contains("s3cret-pw") && !text.contains("ann:"),
            "{text}"
        );
    }
}
