//! The contract as a document (issue 14): `/api/openapi.json` describes every route and every
//! SSE event type from the server's own types, and the events real runs stream — a list, a
//! page's text, a failing URL, a cancelled run, the LLM planner, pages followed and item pages
//! read — validate against it, as do the error bodies.

use serde_json::{Value, json};

use crate::support::openai::{FakeOpenAi, Reply, completion};
use crate::support::{
    FixtureServer, Frame, FrameReader, TestApp, read_stream, spawn_app, spawn_app_with,
};

async fn document(app: &TestApp) -> Value {
    let response = app.get("/api/openapi.json").await;
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

/// A validator for one component of the document (its `$ref`s resolve inside it).
fn validator(doc: &Value, component: &str) -> jsonschema::Validator {
    let schema = json!({
        "$ref": format!("#/components/schemas/{component}"),
        "components": doc["components"],
    });
    jsonschema::draft202012::new(&schema).expect("the document's schemas compile")
}

fn check_events(validator: &jsonschema::Validator, frames: &[Frame], what: &str) -> usize {
    let mut checked = 0;
    for frame in frames {
        let event = &frame.data;
        let errors: Vec<String> = validator
            .iter_errors(event)
            .map(|e| e.to_string())
            .collect();
        assert!(
            errors.is_empty(),
            "{what}: {} event does not match the document: {errors:?}\n{event}",
            frame.event
        );
        assert_eq!(event["type"], frame.event.as_str());
        checked += 1;
    }
    checked
}

#[tokio::test]
async fn the_document_names_every_route_and_event_type() {
    let app = spawn_app().await;
    let doc = document(&app).await;
    assert_eq!(doc["openapi"], "3.1.0");
    for path in [
        "/api/scrape/stream",
        "/api/scrape",
        "/api/scrape/{id}",
        "/api/scrape/{id}/events",
        "/api/scrape/{id}/webhooks",
        "/api/tools",
        "/healthz",
        "/readyz",
        "/metrics",
    ] {
        assert!(doc["paths"][path].is_object(), "{path}");
    }
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    for name in [
        "InitEvent",
        "UrlStartEvent",
        "StepEvent",
        "UrlCompleteEvent",
        "CompleteEvent",
        "ErrorEvent",
        "StreamEvent",
        "ScrapeRequest",
        "ErrorBody",
        "NavigateDetails",
        "WebhookPayload",
        "WebhookDeliveries",
    ] {
        assert!(schemas.contains_key(name), "{name} in {:?}", schemas.keys());
    }
    // What a webhook receiver gets is described where OpenAPI 3.1 puts it.
    assert_eq!(
        doc["webhooks"]["runEvent"]["post"]["requestBody"]["content"]["application/json"]["schema"]
            ["$ref"],
        "#/components/schemas/WebhookPayload"
    );
    // The docs page renders it with nothing from elsewhere.
    let page = app.get("/docs").await;
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains("/api/openapi.json"));
    assert!(
        !html.contains("src=\"http") && !html.contains("href=\"http"),
        "no outside assets"
    );
}

#[tokio::test]
async fn streamed_events_of_every_kind_of_run_match_the_document() {
    let fixtures = FixtureServer::start().await;
    let fake = FakeOpenAi::start(vec![Reply::Json(completion(
        Some("Read the rows."),
        &[("extract__records", "{}")],
        (50, 10),
    ))])
    .await;
    let base = fake.base_url.clone();
    let app = spawn_app_with(move |s| s.llm.base_url = base).await;
    let doc = document(&app).await;
    let events = validator(&doc, "StreamEvent");
    let news = fixtures.url("/pages/news.html");
    let mut checked = 0;
    for (what, body) in [
        (
            "list",
            json!({"urls": [&news], "instructions": "the top 3 stories with title and points", "planner": "heuristic"}),
        ),
        (
            "main content",
            json!({"urls": [&news], "instructions": "the main text of the page", "planner": "heuristic"}),
        ),
        (
            "failing URL",
            json!({"urls": [fixtures.url("/status/500"), &news], "instructions": "the title", "planner": "heuristic"}),
        ),
        (
            "llm planner",
            json!({"urls": [fixtures.url("/pages/records-table.html")], "instructions": "every row", "planner": "llm"}),
        ),
        (
            "pages and item pages",
            json!({"urls": [fixtures.url("/pages/paged-list.html")], "instructions": "all items on every page, with their details from each item page", "max_pages": 2, "max_detail_pages": 2, "planner": "heuristic"}),
        ),
    ] {
        let frames = app.stream(&body).await;
        assert_eq!(
            frames.last().map(|f| f.event.as_str()),
            Some("complete"),
            "{what}"
        );
        checked += check_events(&events, &frames, what);
    }
    // A cancelled run.
    let response = app
        .post(
            "/api/scrape/stream",
            &json!({"urls": [fixtures.url("/slow")], "instructions": "the title", "session_id": "contract-cancel"}),
        )
        .await;
    let mut reader = FrameReader::new(response);
    reader.until(|f| f.event == "url_start").await;
    app.delete("/api/scrape/contract-cancel").await;
    let rest = reader.rest().await;
    let replay = read_stream(app.get("/api/scrape/contract-cancel/events").await).await;
    assert_eq!(replay.last().unwrap().payload()["status"], "cancelled");
    checked += check_events(&events, &replay, "cancelled");
    assert!(!rest.is_empty());
    assert!(checked > 40, "{checked} events checked");
    // And the schemas can fail: a step with an unknown status, or a fetch step without its
    // details, is not an event of the contract.
    let frames = app
        .stream(&json!({"urls": [&news], "instructions": "the title", "planner": "heuristic"}))
        .await;
    let step = frames
        .iter()
        .find(|f| f.event == "step")
        .unwrap()
        .data
        .clone();
    let mut bad_status = step.clone();
    bad_status["data"]["status"] = json!("bogus");
    assert!(!events.is_valid(&bad_status));
    let mut no_details = step.clone();
    no_details["data"]["extracted_data"] = json!({"unexpected": true});
    assert!(!events.is_valid(&no_details), "{no_details}");
    let mut wrong_kind = step;
    wrong_kind["type"] = json!("init");
    assert!(!events.is_valid(&wrong_kind));

    // Error bodies too.
    let errors = validator(&doc, "ErrorBody");
    let refused = app
        .post(
            "/api/scrape/stream",
            &json!({"urls": ["ftp://x"], "instructions": "x"}),
        )
        .await;
    assert_eq!(refused.status(), 400);
    let body: Value = refused.json().await.unwrap();
    assert!(errors.is_valid(&body), "{body}");
    let wrong_type = json!({"error": {"code": 4}});
    assert!(!errors.is_valid(&wrong_type), "the schema can fail");
}
