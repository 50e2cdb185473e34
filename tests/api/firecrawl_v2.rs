//! Firecrawl's v2 scrape options beyond the formats (issue 35): `excludeTags`, `timeout`, and
//! the errors of the checks every route shares in Firecrawl's shape. (`waitFor` and `actions`
//! need the browser: tests/api/render.rs.)

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{FixtureServer, spawn_app, spawn_app_with};

#[tokio::test]
async fn exclude_tags_leave_elements_out_of_the_main_content_and_the_whole_page() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let url = fixtures.url("/pages/console-article.html");
    let main = app.v2_markdown(json!({"url": url})).await;
    assert!(main.contains("A second paragraph"), "{main}");
    let less = app
        .v2_markdown(json!({"url": url, "excludeTags": ["p:nth-of-type(2)"]}))
        .await;
    assert!(!less.contains("A second paragraph"), "{less}");
    assert!(less.contains("A third paragraph"), "{less}");
    assert!(!less.contains("Home"), "the main content still: {less}");

    let whole = app
        .v2_markdown(json!({"url": url, "onlyMainContent": false}))
        .await;
    assert!(whole.contains("Escaping in practice"), "{whole}");
    let less = app
        .v2_markdown(json!({"url": url, "onlyMainContent": false, "excludeTags": ["h1"]}))
        .await;
    assert!(!less.contains("Escaping in practice"), "{less}");
    assert!(less.contains("A third paragraph"), "{less}");

    // A selector that is not CSS is Firecrawl's 400, naming it.
    let response = app
        .post("/v2/scrape", &json!({"url": url, "excludeTags": ["p[["]}))
        .await;
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["success"], false);
    assert!(body["error"].as_str().unwrap().contains("p[["), "{body}");
}

#[tokio::test]
async fn a_scrape_past_its_timeout_is_a_408_and_its_run_is_cancelled() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let started = Instant::now();
    let response = app
        .post(
            "/v2/scrape",
            &json!({"url": fixtures.url("/slow"), "timeout": 400}),
        )
        .await;
    assert_eq!(response.status(), 408);
    assert!(started.elapsed() < Duration::from_secs(10));
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["success"], false);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("Request timed out"),
        "{body}"
    );
    // The session the scrape started ends cancelled, not running on.
    let mut status = Value::Null;
    for _ in 0..100 {
        let sessions: Value = app.get("/api/scrape").await.json().await.unwrap();
        status = sessions["sessions"][0]["status"].clone();
        if status != "running" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(status, "cancelled");
}

#[tokio::test]
async fn the_shared_checks_answer_v2_routes_in_firecrawls_shape() {
    let app = spawn_app_with(|s| s.auth.api_keys = vec!["fc-key-0123456789".into()]).await;
    let body = json!({"url": "https://example.com/"});
    let response = app.post("/v2/scrape", &body).await;
    assert_eq!(response.status(), 401);
    assert_eq!(
        response.headers()["www-authenticate"],
        "Bearer",
        "the header stays"
    );
    let failure: Value = response.json().await.unwrap();
    assert_eq!(failure["success"], false, "{failure}");
    assert_eq!(failure["code"], "unauthorized", "{failure}");
    assert!(failure["error"].as_str().unwrap().contains("API key"));

    let response = app
        .client
        .get(format!("{}/v2/no-such-route", app.base))
        .bearer_auth("fc-key-0123456789")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
    let failure: Value = response.json().await.unwrap();
    assert_eq!(failure["success"], false, "{failure}");

    // Our own routes keep our shape.
    let response = app.post("/api/scrape", &json!({"urls": []})).await;
    assert_eq!(response.status(), 401);
    let ours: Value = response.json().await.unwrap();
    assert_eq!(ours["error"]["code"], "unauthorized", "{ours}");
}
