//! Navigation tools through the real server (issue 12).

use serde_json::json;

use crate::support::{FixtureServer, spawn_app};

#[tokio::test]
async fn next_page_names_the_link_its_number_and_how_it_was_found() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let url = fixtures.url("/pages/paged-list.html");
    let frames = app
        .stream(
            &json!({"urls": [&url], "instructions": "where does this list go on", "tools": [
                {"tool": "nav.next_page", "params": {}, "reasoning": "find page 3"}
            ]}),
        )
        .await;
    let step = frames
        .iter()
        .find(|f| f.event == "step" && f.action() == "tool_call")
        .unwrap()
        .payload();
    let result = &step["extracted_data"]["result"];
    assert_eq!(step["extracted_data"]["success"], true, "{step}");
    assert_eq!(
        result,
        &json!({
            "url": fixtures.url("/pages/paged-list.html?page=3"),
            "page": 3,
            "evidence": "label_in_pagination",
            "text": "Next ›",
        })
    );
}
