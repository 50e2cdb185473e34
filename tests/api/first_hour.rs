//! What a newcomer meets first (issue 31): one page as Markdown, an answer as JSON without a
//! stream, local pages refused with the way to allow them, the MCP session's end, limits that
//! name their setting, a failed URL's CSV, and the OpenAPI document's fixes.

use serde_json::{Value, json};

use crate::support::fixtures::FixtureServer;
use crate::support::{complete, spawn_app, spawn_app_with};

/// The article of `console-article.html`, as `extract.main_content` reads it.
const HEADLINE: &str = "Escaping in practice";
const LAST_SENTENCE: &str = "A third paragraph ends the article";

#[tokio::test]
async fn api_markdown_answers_the_article_as_markdown() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let page = fixtures.url("/pages/console-article.html");
    let query: String = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("url", &page)
        .finish();
    let response = app.get(&format!("/api/markdown?{query}")).await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["content-type"],
        "text/markdown; charset=utf-8"
    );
    let session = response.headers()["x-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let markdown = response.text().await.unwrap();
    assert!(
        markdown.starts_with(&format!("# {HEADLINE}\n")),
        "{markdown}"
    );
    assert!(markdown.contains(LAST_SENTENCE), "{markdown}");
    assert!(!markdown.contains("Home"), "no navigation: {markdown}");
    assert!(
        !markdown.contains("**text**"),
        "not a key/value list: {markdown}"
    );
    // An ordinary stored session.
    let stored: Value = app
        .get(&format!("/api/scrape/{session}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(stored["status"], "completed");
}

#[tokio::test]
async fn api_markdown_refuses_a_missing_url_and_reports_a_failed_page() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let missing = app.get("/api/markdown").await;
    assert_eq!(missing.status(), 400);
    assert_eq!(crate::support::error_code(missing).await, "invalid_query");
    let bad = app.get("/api/markdown?url=ftp://x.example/").await;
    assert_eq!(bad.status(), 400);
    assert_eq!(crate::support::error_code(bad).await, "invalid_url");
    let gone = fixtures.url("/status/404");
    let failed = app
        .get(&format!(
            "/api/markdown?url={}",
            url::form_urlencoded::byte_serialize(gone.as_bytes()).collect::<String>()
        ))
        .await;
    assert_eq!(failed.status(), 422);
    let body: Value = failed.json().await.unwrap();
    assert_eq!(body["error"]["code"], "fetch_failed", "{body}");
    assert!(body["error"]["details"]["session_id"].is_string(), "{body}");
}

#[tokio::test]
async fn a_local_page_is_refused_with_the_flag_and_variable_that_allow_it() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|s| s.fetch.allow_private_networks = false).await;
    let page = fixtures.url("/pages/news.html");
    let response = app
        .client
        .post(format!("{}/api/scrape?wait=true", app.base))
        .json(&json!({"urls": [page], "instructions": "the top 3 stories"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer["status"], "failed", "{answer}");
    let error = &answer["errors"][0];
    assert_eq!(error["code"], "blocked_address", "{answer}");
    let message = error["message"].as_str().unwrap();
    for hint in [
        "--allow-private",
        "SCRAPE_AGENT__FETCH__ALLOW_PRIVATE_NETWORKS=true",
        "fetch.allowed_hosts",
    ] {
        assert!(message.contains(hint), "{hint} in {message}");
    }
}

/// The stories of a run answered as JSON (its `complete` payload), however the client asked
/// for it.
async fn waited(app: &crate::support::TestApp, path: &str, accept: Option<&str>) -> Value {
    let fixtures = FixtureServer::start().await;
    let page = fixtures.url("/pages/news.html");
    let mut request = app.client.post(format!("{}{path}", app.base)).json(
        &json!({"urls": [page], "instructions": "the top 3 stories with title, link and points"}),
    );
    if let Some(accept) = accept {
        request = request.header("accept", accept);
    }
    let response = request.send().await.unwrap();
    assert_eq!(response.status(), 200, "{path} {accept:?}");
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/json")
    );
    let session = response.headers()["x-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer["session_id"], session);
    assert_eq!(answer["status"], "completed", "{answer}");
    let stories = answer["extracted_data"][&page].as_array().unwrap();
    assert_eq!(stories.len(), 3, "{answer}");
    assert_eq!(
        stories[0]["title"],
        "Show HN: A tiny SQLite-backed job queue in Rust"
    );
    assert_eq!(stories[0]["points"], 412);
    stories.clone().into()
}

#[tokio::test]
async fn post_scrape_answers_json_when_asked_to_wait() {
    let app = spawn_app().await;
    let by_header = waited(&app, "/api/scrape", Some("application/json")).await;
    let by_query = waited(&app, "/api/scrape?wait=true", None).await;
    assert_eq!(by_header, by_query);
    let on_stream = waited(&app, "/api/scrape/stream", Some("application/json")).await;
    assert_eq!(on_stream, by_query);
    // Without asking: still a detached run (202) and a stream.
    let detached = app
        .post(
            "/api/scrape",
            &json!({"urls": ["http://127.0.0.1:9/"], "instructions": "x"}),
        )
        .await;
    assert_eq!(detached.status(), 202);
    let bad = app
        .post(
            "/api/scrape?wait=soon",
            &json!({"urls": ["http://127.0.0.1:9/"], "instructions": "x"}),
        )
        .await;
    assert_eq!(bad.status(), 400);
    assert_eq!(crate::support::error_code(bad).await, "invalid_query");
}

#[tokio::test]
async fn markdown_and_text_of_a_main_content_answer_are_the_article_once() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let page = fixtures.url("/pages/console-article.html");
    for (format, starts) in [
        ("markdown", format!("# {HEADLINE}\n")),
        ("text", "Pages are untrusted.".to_owned()),
    ] {
        let frames = app
            .stream(&json!({
                "urls": [page],
                "tools": [{"tool": "extract.main_content"}],
                "output_format": format,
            }))
            .await;
        let done = complete(&frames);
        let output = done["output"].as_str().unwrap();
        assert!(output.starts_with(&starts), "{format}: {output}");
        assert_eq!(
            output.matches(LAST_SENTENCE).count(),
            1,
            "{format}: {output}"
        );
        assert!(!output.contains("byline"), "{format}: {output}");
    }
}

#[tokio::test]
async fn csv_of_a_failed_url_is_a_header_without_rows() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let frames = app
        .stream(&json!({
            "urls": [fixtures.url("/status/404")],
            "instructions": "the top 3 stories",
            "output_format": "csv",
        }))
        .await;
    let done = complete(&frames);
    assert_eq!(done["status"], "failed");
    assert_eq!(done["output"], "url\n");
}

#[tokio::test]
async fn too_large_names_its_setting() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|s| s.fetch.max_body_bytes = 10_000).await;
    let frames = app
        .stream(&json!({"urls": [fixtures.url("/big")], "instructions": "everything"}))
        .await;
    let errors = crate::support::errors(&frames);
    assert_eq!(errors[0]["code"], "too_large", "{errors:?}");
    assert!(
        errors[0]["message"]
            .as_str()
            .unwrap()
            .contains("fetch.max_body_bytes"),
        "{errors:?}"
    );
}

#[tokio::test]
async fn deleting_an_mcp_session_answers_200() {
    let app = spawn_app().await;
    let init = app
        .client
        .post(format!("{}/mcp", app.base))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(init.status(), 200);
    let session = init.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    drop(init);
    let ended = app
        .client
        .delete(format!("{}/mcp", app.base))
        .header("mcp-session-id", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(ended.status(), 200);
}

#[tokio::test]
async fn openapi_describes_the_request_exactly_with_examples() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    let request = &doc["components"]["schemas"]["ScrapeRequest"];
    assert_eq!(request["additionalProperties"], false, "{request}");
    assert!(request["properties"]["assets"].is_object(), "{request}");
    assert_eq!(
        request["properties"]["output_format"]["enum"],
        json!(["json", "csv", "markdown", "text", null]),
        "{request}"
    );
    assert_eq!(
        request["properties"]["max_steps"]["minimum"], 1,
        "{request}"
    );
    assert!(!request["examples"].as_array().unwrap().is_empty());
    for kind in [
        "Init",
        "UrlStart",
        "Step",
        "UrlComplete",
        "Complete",
        "Error",
    ] {
        let event = &doc["components"]["schemas"][format!("{kind}Event")];
        assert!(
            event["examples"].as_array().is_some_and(|e| !e.is_empty()),
            "{kind}: {event}"
        );
    }
    let markdown = &doc["paths"]["/api/markdown"]["get"];
    assert!(markdown["responses"]["200"]["content"]["text/markdown"].is_object());
    let waited = &doc["paths"]["/api/scrape"]["post"]["responses"]["200"];
    assert!(
        waited["content"]["application/json"]["example"].is_object(),
        "{waited}"
    );
}
