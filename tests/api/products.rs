//! A product's name, price, currency, SKU, brand and availability through the real server
//! (issue 13): shop pages from `tests/fixtures/products/`, served by the fixture server, read
//! with the request a user would type.

use serde_json::{Value, json};

use crate::support::{FixtureServer, spawn_app};

/// The request of issue 13, word for word.
const REQUEST: &str = "name, price, currency, sku, brand and availability";

/// What the run answers for one fixture page.
async fn answer(page: &str) -> Value {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let url = fixtures.url(&format!("/products/{page}"));
    let frames = app
        .stream(&json!({
            "urls": [&url],
            "instructions": REQUEST,
        }))
        .await;
    let complete = frames.last().unwrap().payload();
    assert_eq!(complete["status"], "completed", "{complete}");
    complete["extracted_data"][&url].clone()
}

/// The answer holds exactly the fields the user named, in their order, and nothing else.
fn named_fields(product: &Value) -> Value {
    let keys: Vec<&str> = product
        .as_object()
        .map(|o| o.keys().map(String::as_str).collect())
        .unwrap_or_default();
    assert_eq!(
        keys,
        ["name", "price", "currency", "sku", "brand", "availability"],
        "{product}"
    );
    product.clone()
}

#[tokio::test]
async fn a_page_without_structured_data_answers_the_named_fields() {
    // French separators with narrow no-break spaces, a "Réf." label, the main product out of
    // stock while the related ones are in stock.
    let product = answer("fr_boutique_bag.html").await;
    assert_eq!(
        named_fields(&product),
        json!({
            "name": "Sac cabas en cuir grainé",
            "price": 1299,
            "currency": "EUR",
            "sku": "SAC-CAB-07",
            "brand": "Maison Aubrac",
            "availability": "OutOfStock",
        })
    );
}

#[tokio::test]
async fn the_sale_price_not_the_struck_one_nor_shipping() {
    // `<del>£45.00</del> <ins>£36.00</ins>`, "+ £4.99 delivery", related products in stock
    // and out of stock.
    let product = answer("gb_woocommerce_teapot.html").await;
    assert_eq!(
        named_fields(&product),
        json!({
            "name": "Stoneware Teapot, Moss Glaze",
            "price": 36,
            "currency": "GBP",
            "sku": "TP-1042-MOS",
            "brand": null,
            "availability": "InStock",
        })
    );
}

#[tokio::test]
async fn structured_data_traps_are_normalised() {
    // JSON-LD price "1.299,00" as a string, availability "InStock" without its URL.
    let drill = answer("de_magento_drill.html").await;
    assert_eq!(drill["price"], 1299);
    assert_eq!(drill["currency"], "EUR");
    assert_eq!(drill["availability"], "InStock");
    // Microdata availability "NOT SOLD".
    let headset = answer("de_marketplace_headset.html").await;
    assert_eq!(headset["price"], 79.99);
    assert_eq!(headset["availability"], "OutOfStock");
    assert_eq!(headset["sku"], "OA-71-BLK");
}
