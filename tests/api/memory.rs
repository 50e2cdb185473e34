//! Memory bounds end to end (issue 28): a page over `limits.max_page_nodes` fails its URL with
//! `too_large` and the run goes on; pages wait for `limits.max_page_memory_bytes` instead of
//! all being parsed at once, and a run never waits on memory it holds itself.

use std::time::Duration;

use axum::Router;
use axum::extract::Path;
use axum::response::Html;
use axum::routing::get;
use serde_json::{Value, json};

use crate::support::{FixtureServer, complete, errors, spawn_app_with};

#[tokio::test]
async fn a_page_over_the_node_cap_fails_its_url_with_too_large_and_the_run_goes_on() {
    let fixtures = FixtureServer::start().await;
    // `/big` is 400,000 paragraphs in 3.2 MB: under the body cap, far over this node cap.
    let app = spawn_app_with(|s| s.limits.max_page_nodes = 5_000).await;
    let big = fixtures.url("/big");
    let good = fixtures.url("/pages/news.html");
    let frames = app
        .stream(&json!({"urls": [&big, &good], "instructions": "top 2 stories"}))
        .await;
    let errors = errors(&frames);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0]["code"], "too_large");
    assert_eq!(errors[0]["url"], json!(big));
    assert_eq!(errors[0]["retryable"], false);
    let message = errors[0]["message"].as_str().unwrap();
    assert!(
        message.contains("5000") && message.contains("limits.max_page_nodes"),
        "{message}"
    );
    let big_done = frames
        .iter()
        .find(|f| f.event == "url_complete" && f.payload()["url"] == json!(big))
        .unwrap();
    assert_eq!(big_done.payload()["error_code"], "too_large");
    let done = complete(&frames);
    assert_eq!(done["status"], "partial");
    assert_eq!(done["extracted_data"][&big], Value::Null);
    assert_eq!(done["extracted_data"][&good].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn runs_take_turns_when_each_page_needs_the_whole_memory_budget() {
    let fixtures = FixtureServer::start().await;
    // 4 KiB: every page's share is clamped to the whole budget, so one page is read at a time.
    let app = spawn_app_with(|s| s.limits.max_page_memory_bytes = 4 * 1024).await;
    let news = fixtures.url("/pages/news.html");
    let runs = (0..4).map(|k| {
        let body = json!({"urls": [format!("{news}?run={k}")], "instructions": "top 2 stories"});
        let app = &app;
        async move { app.stream(&body).await }
    });
    let all = tokio::time::timeout(Duration::from_secs(30), futures::future::join_all(runs))
        .await
        .expect("runs waiting for memory still end");
    for frames in &all {
        assert!(errors(frames).is_empty(), "{:?}", errors(frames));
        assert_eq!(complete(frames)["status"], "completed");
    }
}

/// A list of 6 products, each linking to its own page with a SKU.
async fn shop() -> String {
    let list = (1..=6)
        .map(|n| {
            format!(
                r#"<li class="product-card"><a class="product-link" href="/item/{n}"><h2 class="product-name">Product {n}</h2></a><p class="blurb">A useful thing, number {n} in the catalogue.</p><span class="price">${n}.99</span></li>"#
            )
        })
        .collect::<String>();
    let list = format!(
        r#"<!doctype html><html><head><title>Shop</title></head><body><main><h1>Products</h1><ul class="products">{list}</ul></main></body></html>"#
    );
    let router = Router::new()
        .route("/list", get(move || async move { Html(list.clone()) }))
        .route(
            "/item/{n}",
            get(|Path(n): Path<usize>| async move {
                Html(format!(
                    r#"<!doctype html><html><head><title>Product {n}</title></head><body><main><h1>Product {n}</h1><dl class="specs"><dt>SKU</dt><dd>SKU-{n:04}</dd></dl></main></body></html>"#
                ))
            }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    base
}

#[tokio::test]
async fn a_run_gives_its_page_back_before_it_opens_item_pages() {
    let site = shop().await;
    // Each page needs the whole budget: a run holding its list page while it waits for an
    // item page would wait until the run timeout.
    let app = spawn_app_with(|s| s.limits.max_page_memory_bytes = 4 * 1024).await;
    let list = format!("{site}/list");
    let body = json!({"urls": [&list], "instructions": "the products with their SKU from each product page", "max_detail_pages": 2});
    let frames = tokio::time::timeout(Duration::from_secs(30), app.stream(&body))
        .await
        .expect("the run does not wait on itself");
    let done = complete(&frames);
    assert_eq!(done["metrics"]["detail_pages"], 2, "{done}");
    let records = done["extracted_data"][&list].as_array().unwrap();
    assert_eq!(records[0]["sku"], "SKU-0001", "{}", records[0]);
    assert_eq!(records[1]["sku"], "SKU-0002", "{}", records[1]);
}
