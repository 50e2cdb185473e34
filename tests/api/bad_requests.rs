//! Bad input gets a 4xx JSON error before any streaming.

use serde_json::{Value, json};

use crate::support::spawn_app;

async fn rejected(
    app: &crate::support::TestApp,
    body: reqwest::Body,
    content_type: &str,
) -> (u16, Value) {
    let response = app
        .client
        .post(format!("{}/api/scrape/stream", app.base))
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    assert_eq!(
        response.headers()["content-type"],
        "application/json",
        "errors are JSON, not a stream"
    );
    (status, response.json().await.unwrap())
}

#[tokio::test]
async fn each_bad_request_is_rejected_with_a_json_error() {
    let app = spawn_app().await;
    let many: Vec<String> = (0..51)
        .map(|i| format!("https://example.com/{i}"))
        .collect();
    let cases: Vec<(String, u16, &str)> = vec![
        ("{not json".into(), 400, "invalid_json"),
        (
            json!({"urls": ["https://example.com/"], "instructions": "x", "output_format": "xml"})
                .to_string(),
            400,
            "invalid_output_format",
        ),
        (
            json!({"urls": [], "instructions": "x"}).to_string(),
            400,
            "no_urls",
        ),
        (json!({"instructions": "x"}).to_string(), 400, "no_urls"),
        (
            json!({"urls": many, "instructions": "x"}).to_string(),
            413,
            "too_many_urls",
        ),
        (
            json!({"urls": ["file:///etc/passwd"], "instructions": "x"}).to_string(),
            400,
            "invalid_url",
        ),
        (
            json!({"urls": ["javascript:alert(1)"], "instructions": "x"}).to_string(),
            400,
            "invalid_url",
        ),
        (
            json!({"urls": ["https://example.com/"]}).to_string(),
            400,
            "missing_instructions",
        ),
        (
            json!({"urls": ["https://example.com/"], "instructions": "  ", "tools": []})
                .to_string(),
            400,
            "missing_instructions",
        ),
        (
            json!({"urls": ["https://example.com/"], "instructions": "x", "max_steps": 0})
                .to_string(),
            400,
            "invalid_max_steps",
        ),
        (
            json!({"urls": ["https://example.com/"], "instructions": "x", "session_id": "../etc"})
                .to_string(),
            400,
            "invalid_session_id",
        ),
        (
            json!({"urls": ["https://example.com/"], "instructions": "x", "planner": "llm"})
                .to_string(),
            400,
            "llm_not_configured",
        ),
        (
            json!({"urls": ["https://example.com/"], "instructions": "x", "unknown_field": 1})
                .to_string(),
            400,
            "invalid_json",
        ),
    ];
    for (body, status, code) in cases {
        let (got_status, error) = rejected(&app, body.clone().into(), "application/json").await;
        assert_eq!(
            (got_status, error["error"]["code"].as_str().unwrap()),
            (status, code),
            "body: {body}"
        );
        assert!(!error["error"]["message"].as_str().unwrap().is_empty());
    }
}

#[tokio::test]
async fn oversized_bodies_are_refused() {
    let app = crate::support::spawn_app_with(|s| s.server.max_body_bytes = 1024).await;
    let body =
        json!({"urls": ["https://example.com/"], "instructions": "x".repeat(4096)}).to_string();
    let (status, error) = rejected(&app, body.into(), "application/json").await;
    assert_eq!(status, 413);
    assert_eq!(error["error"]["code"], "body_too_large");
}

#[tokio::test]
async fn get_stream_reads_query_parameters() {
    let app = spawn_app().await;
    let response = app
        .get("/api/scrape/stream?instructions=x&output_format=yaml&url=https://example.com/")
        .await;
    assert_eq!(response.status(), 400);
    let error: Value = response.json().await.unwrap();
    assert_eq!(error["error"]["code"], "invalid_output_format");
    let unknown = app.get("/api/scrape/stream?nope=1").await;
    assert_eq!(unknown.status(), 400);
}

#[tokio::test]
async fn unknown_routes_are_json_404s() {
    let app = spawn_app().await;
    let response = app.get("/api/nothing-here").await;
    assert_eq!(response.status(), 404);
    let error: Value = response.json().await.unwrap();
    assert_eq!(error["error"]["code"], "not_found");
    assert_eq!(app.get("/healthz").await.status(), 200);
}
