//! Runs beyond one page, through the real server (issue 12): a local shop whose catalogue of 57
//! products is paginated four ways (`rel=next` only, a "Next ›" link only, a numbered bar, and
//! a trap that serves the same page forever), with a page per product. The runs must return
//! exactly the right records in page order, show every link they follow, and stop by the rule
//! that applies.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};

use crate::support::{Frame, FrameReader, TestApp, spawn_app};

const PRODUCTS: usize = 57;
const PER_PAGE: usize = 20;

/// What the shop saw: the paths requested, in order.
#[derive(Default)]
struct Log {
    paths: Mutex<Vec<String>>,
}

struct Shop {
    base: String,
    log: Arc<Log>,
}

impl Shop {
    async fn start() -> Self {
        let log = Arc::new(Log::default());
        let router = Router::new()
            .route("/{style}/page/{n}", get(list_page))
            .route("/item/{n}", get(item_page))
            .route(
                "/robots.txt",
                get(|| async { "User-agent: *\nDisallow: /robo/page/3\n" }),
            )
            .with_state(log.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, router).await });
        Self { base, log }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    fn requested(&self, prefix: &str) -> Vec<String> {
        self.log
            .paths
            .lock()
            .unwrap()
            .iter()
            .filter(|p| p.starts_with(prefix))
            .cloned()
            .collect()
    }
}

fn product_card(n: usize, site: &str) -> String {
    format!(
        r#"<li class="product-card">
  <a class="product-link" href="{site}/item/{n}"><img src="/img/{n}.jpg" alt="Product {n}">
  <h2 class="product-name">Product {n}</h2></a>
  <p class="blurb">A useful thing, number {n} in the catalogue.</p>
  <span class="price">${n}.99</span>
</li>"#
    )
}

/// Page `n` of the catalogue in a pagination `style`.
async fn list_page(
    State(log): State<Arc<Log>>,
    Path((style, n)): Path<(String, usize)>,
    headers: HeaderMap,
) -> Response {
    log.paths.lock().unwrap().push(format!("/{style}/page/{n}"));
    if style == "slow" && n > 1 {
        tokio::time::sleep(Duration::from_millis(400)).await;
    }
    let pages = PRODUCTS.div_ceil(PER_PAGE);
    if n == 0 || n > pages && style != "trap" {
        return StatusCode::NOT_FOUND.into_response();
    }
    // The trap serves page 1's products at every number, each linking to the next number.
    let first = if style == "trap" {
        1
    } else {
        (n - 1) * PER_PAGE + 1
    };
    let last = (first + PER_PAGE - 1).min(PRODUCTS);
    // "ext" links each product on another origin: the same server under the name `localhost`;
    // "relx" links its next page there.
    let other_origin = if style == "ext" || style == "relx" {
        let port = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .and_then(|h| h.rsplit(':').next())
            .unwrap_or_default();
        format!("http://localhost:{port}")
    } else {
        String::new()
    };
    let site = if style == "ext" {
        other_origin.as_str()
    } else {
        ""
    };
    let cards: String = (first..=last).map(|n| product_card(n, site)).collect();
    let has_next = n < pages || style == "trap";
    let next = format!("/{style}/page/{}", n + 1);
    let (head, bar) = match style.as_str() {
        // Only <link rel=next> in the head; the body has no pagination at all.
        "rel" => (
            if has_next {
                format!(r#"<link rel="next" href="{next}">"#)
            } else {
                String::new()
            },
            String::new(),
        ),
        "relx" => (
            format!(r#"<link rel="next" href="{other_origin}{next}">"#),
            String::new(),
        ),
        // A numbered bar with the current page marked.
        "num" => {
            let links: String = (1..=pages)
                .map(|p| {
                    if p == n {
                        format!(r#"<span class="current" aria-current="page">{p}</span> "#)
                    } else {
                        format!(r#"<a href="/num/page/{p}">{p}</a> "#)
                    }
                })
                .collect();
            (
                String::new(),
                format!(r#"<nav class="pagination">{links}</nav>"#),
            )
        }
        // "loop": page 2's Next goes back to page 1.
        "loop" if n == 2 => (
            String::new(),
            r#"<div class="pager"><a href="/loop/page/1">Next ›</a></div>"#.to_owned(),
        ),
        // A plain "Next ›" link (next, robo, slow, trap, loop page 1).
        _ => (
            String::new(),
            if has_next {
                format!(r#"<div class="pager"><a href="{next}">Next ›</a></div>"#)
            } else {
                String::new()
            },
        ),
    };
    let html = format!(
        r#"<!doctype html><html><head><title>Shop — page {n}</title>{head}</head><body>
<header><nav class="menu"><a href="/">Home</a> <a href="/about">About us</a> <a href="/contact">Contact</a></nav></header>
<main><h1>All products</h1><ul class="products">{cards}</ul>{bar}</main>
<aside><h3>Popular</h3><ul><li><a href="/item/1">Product 1</a></li><li><a href="/item/2">Product 2</a></li></ul></aside>
<footer><p>© Shop</p></footer></body></html>"#
    );
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response()
}

/// A product's own page: SKU and weight in a definition list, the description in the meta
/// tags. Item 3's page is broken.
async fn item_page(State(log): State<Arc<Log>>, Path(n): Path<usize>) -> Response {
    log.paths.lock().unwrap().push(format!("/item/{n}"));
    if n == 3 {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    }
    let html = format!(
        r#"<!doctype html><html><head><title>Product {n}</title>
<meta name="description" content="Product {n} is a useful thing."></head><body>
<main><h1>Product {n}</h1><dl class="specs"><dt>SKU</dt><dd>SKU-{n:04}</dd><dt>Weight</dt><dd>{n}00 g</dd></dl>
<p>Ships in 2 days.</p></main></body></html>"#
    );
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response()
}

fn steps<'a>(frames: &'a [Frame], action: &str) -> Vec<&'a Value> {
    frames
        .iter()
        .filter(|f| f.event == "step" && f.action() == action)
        .map(|f| &f.payload()["extracted_data"])
        .collect()
}

fn complete(frames: &[Frame]) -> &Value {
    frames
        .iter()
        .find(|f| f.event == "complete")
        .expect("complete")
        .payload()
}

/// The records of the URL's answer.
fn records<'a>(frames: &'a [Frame], url: &str) -> &'a Vec<Value> {
    complete(frames)["extracted_data"][url]
        .as_array()
        .unwrap_or_else(|| panic!("a list answer: {}", complete(frames)))
}

/// The product number a record names (from its title text).
fn product_numbers(records: &[Value]) -> Vec<usize> {
    records
        .iter()
        .map(|r| {
            let text = r.to_string();
            let at = text.find("Product ").expect("a product record");
            text[at + 8..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
                .parse()
                .unwrap()
        })
        .collect()
}

fn pages_of(records: &[Value]) -> Vec<u64> {
    records
        .iter()
        .map(|r| r["_page"].as_u64().expect("_page"))
        .collect()
}

fn stop_rule(frames: &[Frame]) -> String {
    let stops: Vec<&Value> = steps(frames, "navigate")
        .into_iter()
        .filter(|d| d["kind"] == "stop")
        .collect();
    assert_eq!(stops.len(), 1, "one stop step: {stops:?}");
    stops[0]["rule"].as_str().unwrap().to_owned()
}

async fn scrape(app: &TestApp, body: Value) -> Vec<Frame> {
    app.stream(&body).await
}

#[tokio::test]
async fn the_first_50_items_across_rel_next_pages_in_page_order() {
    let shop = Shop::start().await;
    let app = spawn_app().await;
    let url = shop.url("/rel/page/1");
    let frames = scrape(
        &app,
        json!({"urls": [&url], "instructions": "the first 50 products"}),
    )
    .await;
    let got = records(&frames, &url);
    assert_eq!(product_numbers(got), (1..=50).collect::<Vec<_>>());
    let mut expected_pages = vec![1; 20];
    expected_pages.extend([2; 20]);
    expected_pages.extend([3; 10]);
    assert_eq!(pages_of(got), expected_pages);
    let follows: Vec<&Value> = steps(&frames, "navigate")
        .into_iter()
        .filter(|d| d["kind"] == "next_page")
        .collect();
    assert_eq!(follows.len(), 2);
    assert_eq!(follows[0]["to"], shop.url("/rel/page/2"));
    assert_eq!(follows[0]["from"], url);
    assert_eq!(follows[0]["evidence"], "rel_next");
    assert_eq!(follows[1]["page"], 3);
    assert_eq!(follows[1]["number"], 3);
    assert_eq!(stop_rule(&frames), "count_reached");
    // Each followed page has its own fetch, decision and tool steps, all under the user's URL.
    assert_eq!(steps(&frames, "fetch").len(), 3);
    let replays = steps(&frames, "agent_decision")
        .into_iter()
        .filter(|d| d["planner"] == "replay")
        .count();
    assert_eq!(replays, 2);
    assert!(
        frames
            .iter()
            .filter(|f| f.event == "step")
            .all(|f| f.payload()["url"] == url.as_str())
    );
    let done = complete(&frames);
    assert_eq!(done["status"], "completed");
    assert_eq!(done["metrics"]["pages_followed"], 2);
}

#[tokio::test]
async fn all_items_by_a_next_label_stop_when_there_is_no_next_link() {
    let shop = Shop::start().await;
    let app = spawn_app().await;
    let url = shop.url("/next/page/1");
    let frames = scrape(
        &app,
        json!({"urls": [&url], "instructions": "all products, across all pages"}),
    )
    .await;
    let got = records(&frames, &url);
    assert_eq!(
        product_numbers(got),
        (1..=PRODUCTS).collect::<Vec<_>>(),
        "{got:?}"
    );
    let follows: Vec<&Value> = steps(&frames, "navigate")
        .into_iter()
        .filter(|d| d["kind"] == "next_page")
        .collect();
    assert!(
        follows
            .iter()
            .all(|d| d["evidence"] == "label_in_pagination")
    );
    assert_eq!(follows[0]["link_text"], "Next ›");
    assert_eq!(stop_rule(&frames), "no_next_link");
    // The records carry every detail the cards show, not only a title.
    let first = got[0].as_object().unwrap();
    let values: Vec<String> = first.values().map(Value::to_string).collect();
    assert!(
        values.iter().any(|v| v.contains("$1.99") || v == "1.99"),
        "{first:?}"
    );
    assert!(values.iter().any(|v| v.contains("/item/1")), "{first:?}");
}

#[tokio::test]
async fn numbered_pages_stop_at_the_page_budget() {
    let shop = Shop::start().await;
    let app = spawn_app().await;
    let url = shop.url("/num/page/1");
    let frames = scrape(
        &app,
        json!({"urls": [&url], "instructions": "the products on the first 2 pages"}),
    )
    .await;
    let got = records(&frames, &url);
    assert_eq!(product_numbers(got), (1..=40).collect::<Vec<_>>());
    let follow = steps(&frames, "navigate")
        .into_iter()
        .find(|d| d["kind"] == "next_page")
        .cloned()
        .unwrap();
    assert_eq!(follow["evidence"], "number_after_current");
    assert_eq!(stop_rule(&frames), "page_budget");
    assert_eq!(shop.requested("/num/").len(), 2, "page 3 never fetched");

    // The request's max_pages says the same in a field.
    let frames = scrape(
        &app,
        json!({"urls": [&url], "instructions": "all products", "max_pages": 3}),
    )
    .await;
    assert_eq!(records(&frames, &url).len(), PRODUCTS);

    // An explicit client plan is replayed on each page the same way.
    let frames = scrape(
        &app,
        json!({"urls": [&url], "max_pages": 2, "tools": [
            {"tool": "extract.records", "params": {}, "reasoning": "the product cards"}
        ]}),
    )
    .await;
    assert_eq!(
        product_numbers(records(&frames, &url)),
        (1..=40).collect::<Vec<_>>()
    );
}

#[tokio::test]
async fn a_page_that_repeats_ends_pagination() {
    let shop = Shop::start().await;
    let app = spawn_app().await;
    // Same items under a new URL each time.
    let trap = shop.url("/trap/page/1");
    let frames = scrape(
        &app,
        json!({"urls": [&trap], "instructions": "all products on every page"}),
    )
    .await;
    assert_eq!(
        product_numbers(records(&frames, &trap)),
        (1..=20).collect::<Vec<_>>()
    );
    assert_eq!(stop_rule(&frames), "repeated_page");
    assert_eq!(shop.requested("/trap/").len(), 2);
    // A next link back to a page already read.
    let looping = shop.url("/loop/page/1");
    let frames = scrape(
        &app,
        json!({"urls": [&looping], "instructions": "all products on every page"}),
    )
    .await;
    assert_eq!(records(&frames, &looping).len(), 40);
    assert_eq!(stop_rule(&frames), "repeated_page");
    let stop = steps(&frames, "navigate")
        .into_iter()
        .find(|d| d["kind"] == "stop")
        .cloned()
        .unwrap();
    assert_eq!(stop["next"], looping);
}

#[tokio::test]
async fn a_next_page_on_another_site_stops_as_cross_origin_and_is_not_fetched() {
    let shop = Shop::start().await;
    let app = spawn_app().await;
    let url = shop.url("/relx/page/1");
    let frames = scrape(
        &app,
        json!({"urls": [&url], "instructions": "all products, across all pages"}),
    )
    .await;
    assert_eq!(records(&frames, &url).len(), PER_PAGE);
    assert_eq!(stop_rule(&frames), "cross_origin");
    let stop = steps(&frames, "navigate")
        .into_iter()
        .find(|d| d["kind"] == "stop")
        .unwrap();
    assert!(
        stop["next"]
            .as_str()
            .unwrap()
            .starts_with("http://localhost:"),
        "{stop}"
    );
    assert_eq!(shop.requested("/relx/"), vec!["/relx/page/1"]);
}

#[tokio::test]
async fn robots_disallowing_page_3_keeps_the_first_two_pages() {
    let shop = Shop::start().await;
    let app = spawn_app().await;
    let url = shop.url("/robo/page/1");
    let frames = scrape(
        &app,
        json!({"urls": [&url], "instructions": "all products across all pages"}),
    )
    .await;
    assert_eq!(records(&frames, &url).len(), 40);
    assert_eq!(stop_rule(&frames), "fetch_failed");
    let failed = steps(&frames, "fetch")
        .into_iter()
        .find(|d| d["code"].is_string())
        .cloned()
        .unwrap();
    assert!(
        failed["error"].as_str().unwrap().contains("robots"),
        "{failed}"
    );
    assert!(shop.requested("/robo/page/3").is_empty(), "never requested");
    assert_eq!(complete(&frames)["status"], "completed");
}

#[tokio::test]
async fn detail_pages_enrich_each_record_and_a_failing_one_marks_only_its_record() {
    let shop = Shop::start().await;
    let app = spawn_app().await;
    let url = shop.url("/rel/page/1");
    let frames = scrape(
        &app,
        json!({
            "urls": [&url],
            "instructions": "the products with their SKU and weight from each product page",
            "max_detail_pages": 5,
        }),
    )
    .await;
    let got = records(&frames, &url);
    assert_eq!(product_numbers(got), (1..=20).collect::<Vec<_>>());
    for (i, record) in got.iter().enumerate().take(5) {
        let n = i + 1;
        if n == 3 {
            assert!(
                record["_detail_error"].as_str().unwrap().contains("500"),
                "{record}"
            );
            assert_eq!(record["sku"], Value::Null);
        } else {
            assert_eq!(record["sku"], format!("SKU-{n:04}"), "{record}");
            assert_eq!(record["weight"], format!("{n}00 g"));
            assert!(record.get("_detail_error").is_none());
        }
    }
    assert!(got[5].get("sku").is_none(), "past the budget: {}", got[5]);
    let opened: Vec<&Value> = steps(&frames, "navigate")
        .into_iter()
        .filter(|d| d["kind"] == "detail_page")
        .collect();
    assert_eq!(opened.len(), 5);
    assert_eq!(opened[0]["to"], shop.url("/item/1"));
    assert_eq!(stop_rule(&frames), "detail_budget");
    assert_eq!(shop.requested("/item/").len(), 5);
    let done = complete(&frames);
    assert_eq!(done["status"], "completed");
    assert_eq!(done["metrics"]["detail_pages"], 5);
}

#[tokio::test]
async fn cancelling_in_the_middle_of_pagination_keeps_the_records_gathered() {
    let shop = Shop::start().await;
    let app = spawn_app().await;
    let url = shop.url("/slow/page/1");
    let response = app
        .post(
            "/api/scrape/stream",
            &json!({"urls": [&url], "instructions": "all products across all pages", "session_id": "paging-cancel"}),
        )
        .await;
    let mut reader = FrameReader::new(response);
    // Wait until page 3 is being followed (pages 1 and 2 are read), then cancel.
    reader
        .until(|f| {
            f.event == "step"
                && f.action() == "navigate"
                && f.payload()["extracted_data"]["page"] == 3
        })
        .await;
    assert_eq!(app.delete("/api/scrape/paging-cancel").await.status(), 202);
    let rest = reader.rest().await;
    let done = complete(&rest);
    assert_eq!(done["status"], "cancelled");
    assert_eq!(
        product_numbers(done["extracted_data"][&url].as_array().unwrap()),
        (1..=40).collect::<Vec<_>>()
    );
}

/// A field named for a list that no item of it shows is looked for on the first item's page
/// and, found there, on every item's (rule `missing_on_list`), with no words about item pages.
#[tokio::test]
async fn a_field_the_list_lacks_is_read_on_the_items_pages_when_the_first_shows_it() {
    let shop = Shop::start().await;
    let app = spawn_app().await;
    let url = shop.url("/rel/page/1");
    let frames = scrape(
        &app,
        json!({"urls": [&url], "instructions": "the products with their name and SKU"}),
    )
    .await;
    let got = records(&frames, &url);
    assert_eq!(product_numbers(got), (1..=20).collect::<Vec<_>>());
    for (i, record) in got.iter().enumerate() {
        let n = i + 1;
        if n == 3 {
            assert_eq!(record["sku"], Value::Null, "its page fails: {record}");
        } else {
            assert_eq!(record["sku"], format!("SKU-{n:04}"), "{record}");
        }
    }
    assert_eq!(shop.requested("/item/").len(), 20);
    let noted = steps(&frames, "agent_decision")
        .into_iter()
        .any(|d| d.to_string().contains("missing_on_list"));
    assert!(noted, "the decision names its rule");
    assert_eq!(stop_rule(&frames), "details_done");
    assert_eq!(complete(&frames)["status"], "completed");
}

/// The first item's page shows the missing field no more than the list: no other item page is
/// opened, and the list is answered as it is, the field empty and no link added.
#[tokio::test]
async fn a_field_the_first_item_page_lacks_too_is_looked_for_no_further() {
    let shop = Shop::start().await;
    let app = spawn_app().await;
    let url = shop.url("/rel/page/1");
    let frames = scrape(
        &app,
        json!({"urls": [&url], "instructions": "the products with their name and colour"}),
    )
    .await;
    let got = records(&frames, &url);
    assert_eq!(product_numbers(got), (1..=20).collect::<Vec<_>>());
    assert_eq!(shop.requested("/item/"), ["/item/1"]);
    assert_eq!(stop_rule(&frames), "not_on_item_pages");
    for record in got {
        assert_eq!(record["colour"], Value::Null, "{record}");
        assert!(record.get("url").is_none(), "no link was asked: {record}");
    }
    let done = complete(&frames);
    assert_eq!(done["empty_fields"][&url], json!(["colour"]), "{done}");
}

/// A list showing every field named opens no item page, and keeps no link nobody asked for.
#[tokio::test]
async fn a_list_showing_every_named_field_opens_no_item_page() {
    let shop = Shop::start().await;
    let app = spawn_app().await;
    let url = shop.url("/rel/page/1");
    let frames = scrape(
        &app,
        json!({"urls": [&url], "instructions": "the products with their name and price"}),
    )
    .await;
    let got = records(&frames, &url);
    assert_eq!(product_numbers(got), (1..=20).collect::<Vec<_>>());
    assert!(
        got[0]["price"].is_number() || got[0]["price"].is_string(),
        "{}",
        got[0]
    );
    assert!(got.iter().all(|r| r.get("url").is_none()), "{}", got[0]);
    assert!(shop.requested("/item/").is_empty());
    assert!(steps(&frames, "navigate").is_empty());
}

#[tokio::test]
async fn item_pages_on_another_origin_are_not_opened() {
    let shop = Shop::start().await;
    let app = spawn_app().await;
    let url = shop.url("/ext/page/1");
    let frames = scrape(
        &app,
        json!({
            "urls": [&url],
            "instructions": "the products with their SKU from each product page",
            "max_detail_pages": 2,
        }),
    )
    .await;
    let got = records(&frames, &url);
    assert_eq!(got.len(), 20);
    for record in &got[..2] {
        let why = record["_detail_error"].as_str().unwrap_or_default();
        assert!(why.contains("another site"), "{record}");
    }
    assert!(shop.requested("/item/").is_empty());
    assert_eq!(complete(&frames)["metrics"]["detail_pages"], 0);

    // The same verdict from the tool a planner or a client plan calls.
    let frames = scrape(
        &app,
        json!({"urls": [&url], "tools": [
            {"tool": "extract.records", "params": {}, "reasoning": "the product cards"},
            {"tool": "nav.item_links", "params": {}, "reasoning": "where each product leads"}
        ]}),
    )
    .await;
    let links = steps(&frames, "tool_call")
        .into_iter()
        .find(|d| d["tool"] == "nav.item_links")
        .cloned()
        .unwrap();
    let rows = links["result"].as_array().unwrap();
    assert_eq!(rows.len(), 20);
    assert_eq!(
        rows[0]["url"],
        url.replace("127.0.0.1", "localhost")
            .replace("/ext/page/1", "/item/1")
    );
    assert_eq!(rows[0]["refused"], "the item's page is on another site");
}

/// A field nothing but the items' names was asked beside, on no item of the list nor on the
/// first item's page: `no_match` naming it, not the list of names with an empty column.
#[tokio::test]
async fn a_field_neither_the_list_nor_an_item_page_shows_is_no_match() {
    let shop = Shop::start().await;
    let app = spawn_app().await;
    let url = shop.url("/rel/page/1");
    let frames = scrape(
        &app,
        json!({"urls": [&url], "instructions": "the ISBN of each product"}),
    )
    .await;
    assert_eq!(shop.requested("/item/"), ["/item/1"]);
    assert_eq!(stop_rule(&frames), "not_on_item_pages");
    let error = frames
        .iter()
        .find(|f| f.event == "error")
        .map(|f| f.payload().clone())
        .expect("an error event");
    assert_eq!(error["code"], "no_match", "{error}");
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.contains("isbn")),
        "{error}"
    );
}
