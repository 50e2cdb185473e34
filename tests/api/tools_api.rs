//! The self-describing tool catalog.

use serde_json::Value;

use crate::support::spawn_app;

#[tokio::test]
async fn catalog_lists_every_tool_with_its_schema() {
    let app = spawn_app().await;
    let catalog: Value = app.get("/api/tools").await.json().await.unwrap();
    let tools = catalog["tools"].as_array().unwrap();
    assert!(tools.len() >= 6);
    for tool in tools {
        let name = tool["name"].as_str().unwrap();
        let (namespace, action) = name.split_once('.').expect("namespace.action");
        assert_eq!(tool["namespace"], namespace);
        assert!(!action.is_empty());
        assert!(
            !tool["description"].as_str().unwrap().is_empty(),
            "{name} has a description"
        );
        assert_eq!(
            tool["params"]["type"], "object",
            "{name} params are an object schema"
        );
        assert!(!tool["result"].as_str().unwrap().is_empty());
    }
    let select: Value = app
        .get("/api/tools/html.select")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        select["params"]["required"],
        serde_json::json!(["selector"])
    );
    let missing = app.get("/api/tools/html.nope").await;
    assert_eq!(missing.status(), 404);
    let error: Value = missing.json().await.unwrap();
    assert_eq!(error["error"]["code"], "not_found");
}
