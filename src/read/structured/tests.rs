//! Tests over the fixture pages in `tests/fixtures/structured/` (see the README there for
//! their sources and licenses).

#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};

use super::*;

fn page(url: &str, html: &str) -> Page {
    Page::parse(url::Url::parse(url).unwrap(), html)
}

#[test]
fn json_ld_product_every_field() {
    let p = page(
        "https://www.ifixit.com/products/jimmy",
        include_str!("../../../tests/fixtures/structured/jsonld_product.html"),
    );
    assert_eq!(
        product(&p, false).unwrap(),
        json!({
            "name": "Jimmy: The Ultimate Device Opener, 301 Stainless Steel Blade",
            "price": 7.95,
            "currency": "USD",
            "availability": "InStock",
            "sku": "145259",
            "brand": "iFixit",
            "gtin": null,
            "mpn": "IF145-259-1",
            "image": "https://cdn.shopify.com/s/files/1/0045/4092/4007/files/aIovhEfHIZ1hBUuY.jpg?v=1764008100",
            "description": "Handy tool for opening electronics."
        })
    );
}

#[test]
fn microdata_only_product() {
    let p = page(
        "http://example.com/shop/anvil",
        include_str!("../../../tests/fixtures/structured/microdata_product.html"),
    );
    assert_eq!(
        product(&p, false).unwrap(),
        json!({
            "name": "Executive Anvil",
            "price": 119.99,
            "currency": "USD",
            "availability": "InStock",
            "sku": null,
            "brand": "ACME",
            "gtin": null,
            "mpn": "925872",
            "image": "http://example.com/shop/anvil_executive.jpg",
            "description": "Sleeker than ACME's Classic Anvil, the Executive Anvil is perfect for the business traveler looking for something to drop from a height."
        })
    );
    assert_eq!(
        items(&p),
        vec![json!({
            "@context": "http://schema.org",
            "@type": "Product",
            "brand": "ACME",
            "name": "Executive Anvil",
            "image": "http://example.com/shop/anvil_executive.jpg",
            "description": "Sleeker than ACME's Classic Anvil, the Executive Anvil is perfect for the business traveler looking for something to drop from a height.",
            "mpn": "925872",
            "aggregateRating": {"@type": "AggregateRating", "ratingValue": "4.4", "reviewCount": "89"},
            "offers": {
                "@type": "Offer",
                "priceCurrency": "USD",
                "price": "119.99",
                "priceValidUntil": "2020-11-05",
                "seller": {"@type": "Organization", "name": "Executive Objects"},
                "itemCondition": "http://schema.org/UsedCondition",
                "availability": "http://schema.org/InStock"
            }
        })]
    );
}

#[test]
fn microdata_itemref_is_followed() {
    let p = page(
        "http://example.com/",
        include_str!("../../../tests/fixtures/structured/microdata_product_ref.html"),
    );
    let items = items(&p);
    let product = items.iter().find(|i| i["@type"] == "Product").unwrap();
    // Properties of the elements named by `itemref` belong to the product.
    let expected: Value = serde_json::from_str(include_str!(
        "../../../tests/fixtures/structured/microdata_product_ref.expected.json"
    ))
    .unwrap();
    let want_props = expected[0]["properties"].as_object().unwrap();
    let got_keys: Vec<&String> = product
        .as_object()
        .unwrap()
        .keys()
        .filter(|k| !k.starts_with('@'))
        .collect();
    let mut want_keys: Vec<&String> = want_props.keys().collect();
    let mut got_sorted = got_keys.clone();
    want_keys.sort();
    got_sorted.sort();
    assert_eq!(got_sorted, want_keys);
}

#[test]
fn opengraph_only_product() {
    let p = page(
        "https://www.fye.com/better-off-dead.html",
        include_str!("../../../tests/fixtures/structured/opengraph_product.html"),
    );
    assert!(items(&p).is_empty());
    assert_eq!(
        product(&p, false).unwrap(),
        json!({
            "name": "Better Off Dead [Exclusive Blu-ray Steelbook] - New on Blu-ray Disc | FYE",
            "price": 17.99,
            "currency": "USD",
            "availability": "InStock",
            "sku": "fye.000000032429335302",
            "brand": null,
            "gtin": "32429335302",
            "mpn": null,
            "image": "https://www.fye.com/dw/image/v2/BBNF_PRD/on/demandware.static/-/Sites-fye-master/default/dw74ad83df/fye/000/000000/fye.000000032429335302_0.jpg?sw=272",
            "description": "Better Off Dead [Exclusive Blu-ray Steelbook] - 1980's classic starring John Cusack"
        })
    );
}

#[test]
fn json_ld_with_js_comments_matches_extruct() {
    let p = page(
        "http://example.com/",
        include_str!("../../../tests/fixtures/structured/jsonld_js_comment.html"),
    );
    let expected: Value = serde_json::from_str(include_str!(
        "../../../tests/fixtures/structured/jsonld_js_comment.expected.jsonld"
    ))
    .unwrap();
    assert_eq!(Value::Array(items(&p)), expected);
}

#[test]
fn dom_fallback_and_no_product() {
    let p = page(
        "https://shop.example/p/1",
        r#"<html><head><meta name="description" content="A mug."></head><body>
        <h1>Blue mug</h1><span class="product-price">€12,50</span></body></html>"#,
    );
    let got = product(&p, false).unwrap();
    assert_eq!(got["name"], "Blue mug");
    assert_eq!(got["price"], 12.5);
    assert_eq!(got["currency"], "EUR");
    assert_eq!(got["description"], "A mug.");
    let article = page(
        "https://news.example/",
        "<html><body><h1>News</h1><p>No price here.</p></body></html>",
    );
    assert_eq!(product(&article, false), None);
}

#[test]
fn assumed_product_page_is_read_from_its_heading() {
    let p = page(
        "https://phones.example/13",
        r#"<html><head><title>Phones | Example</title></head><body>
        <nav><h1>Example</h1></nav><main><h1>Phone 13</h1><p>Fast and light.</p></main></body></html>"#,
    );
    assert_eq!(product(&p, false), None);
    let got = product(&p, true).unwrap();
    assert_eq!(got["name"], "Phone 13");
    assert_eq!(got["price"], Value::Null);
    let empty = page(
        "https://phones.example/",
        "<html><body><p>Hi</p></body></html>",
    );
    assert_eq!(product(&empty, true), None);
}

#[test]
fn opengraph_name_loses_the_site_when_the_heading_shows_it() {
    let p = page(
        "https://shop.example/tee",
        r#"<html><head><meta property="og:type" content="product">
        <meta property="og:title" content="Staple Tee | Example Shop"></head>
        <body><h1>Staple Tee</h1></body></html>"#,
    );
    assert_eq!(product(&p, false).unwrap()["name"], "Staple Tee");
}

#[test]
fn prices_parse_in_both_conventions() {
    let en = product::Locale::parse("en-US");
    let amount = |text: &str| product::parse_money(text, &en).map(|m| m.amount);
    assert_eq!(amount("$1,299.00"), Some(1299.0));
    assert_eq!(amount("1.299,00 €"), Some(1299.0));
    assert_eq!(amount("19,99 €"), Some(19.99));
    assert_eq!(amount("free"), None);
}

#[test]
fn hostile_inputs_do_not_panic() {
    let nested =
        "<div itemscope itemtype=\"http://schema.org/Thing\"><span itemprop=\"x\" itemscope>"
            .repeat(2000);
    let p = page("https://example.com/", &nested);
    let _ = items(&p);
    let _ = product(&p, false);
    let loops = r#"<div itemscope itemref="a" id="a"><span itemprop="n" itemscope itemref="a">x</span></div>"#;
    let _ = items(&page("https://example.com/", loops));
    for html in [
        "",
        "<script type=\"application/ld+json\">{{{{</script>",
        "<script type=\"application/ld+json\">[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]</script>",
        "<script type=\"application/ld+json\">{\"@graph\": 5}</script>",
        "<meta property=\"product:price:amount\" content=\"1e400\">",
    ] {
        let p = page("https://example.com/", html);
        let _ = items(&p);
        let _ = product(&p, false);
    }
}

#[test]
fn markup_inside_json_ld_strings_is_read_as_text() {
    let p = page(
        "https://shop.example/cream",
        r#"<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Product",
            "name": "The Cream with TFC8&reg; Face Moisturizer", "description": "Zub<wbr/>eh&ouml;r &amp; more",
            "offers": {"@type": "Offer", "price": "12.50", "priceCurrency": "EUR"}}</script>"#,
    );
    let product = product(&p, false).unwrap();
    assert_eq!(product["name"], "The Cream with TFC8® Face Moisturizer");
    assert_eq!(product["description"], "Zubehör & more");
}

#[test]
fn json_ld_a_head_manager_wrote_into_a_meta_tag_is_read() {
    let p = page(
        "https://www.example.com/articles/full-ev-cars-guide",
        r#"<html><head><meta name="script:ld+json" content="{&quot;@type&quot;:&quot;Article&quot;,&quot;@context&quot;:&quot;https://schema.org&quot;,&quot;datePublished&quot;:&quot;2025-11-17T09:00:00-05:00&quot;}"/>
        <script type="application/ld+json">{"@type": "WebSite", "name": "Recharged"}</script></head><body></body></html>"#,
    );
    assert_eq!(
        json_ld(&p),
        vec![
            json!({"@type": "WebSite", "name": "Recharged"}),
            json!({"@type": "Article", "@context": "https://schema.org", "datePublished": "2025-11-17T09:00:00-05:00"}),
        ]
    );
}
