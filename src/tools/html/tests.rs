//! Unit tests of the `html.*` tools: exact results on the fixture pages and on small inline pages.

use super::*;
use crate::page::Page;
use crate::tools::{Registry, ToolCall, ToolLimits};

fn page() -> Page {
    Page::parse(
        url::Url::parse("https://example.com/list/").unwrap(),
        r#"<ul><li class="item"><a href="/a">Alpha</a></li><li class="item"><a href="b">Beta</a></li></ul>"#,
    )
}

#[test]
fn select_returns_records_with_absolute_links() {
    let page = page();
    let registry = Registry::builtin();
    let mut ws = Workspace::new(&page, ToolLimits::default());
    let out = registry.execute(
        &mut ws,
        &ToolCall::new("html.select", json!({"selector": "li.item"}), ""),
    );
    assert!(out.success, "{:?}", out.error);
    assert_eq!(
        out.result.unwrap(),
        json!([{"text": "Alpha", "url": "https://example.com/a"}, {"text": "Beta", "url": "https://example.com/list/b"}])
    );
    assert_eq!(ws.selection.as_ref().map(Vec::len), Some(2));
}

/// A spanning cell fills a row no wider than a list may be long (found by the robustness
/// property test: `<td colspan="100000">` under `max_items: 12` gave a row of 50 cells).
#[test]
fn a_wide_colspan_fills_no_more_cells_than_a_list_may_hold() {
    let page = Page::parse(
        url::Url::parse("https://example.com/").unwrap(),
        r#"<p><table><td colspan="100000">"#,
    );
    let limits = ToolLimits {
        max_items: 12,
        ..ToolLimits::default()
    };
    let mut ws = Workspace::new(&page, limits);
    let out = Registry::builtin().execute(
        &mut ws,
        &ToolCall::new("html.tables", json!({"selector": "p", "all": true}), ""),
    );
    fn widest(value: &Value) -> usize {
        match value {
            Value::Array(items) => items.iter().map(widest).max().unwrap_or(0).max(items.len()),
            Value::Object(map) => map.values().map(widest).max().unwrap_or(0).max(map.len()),
            _ => 0,
        }
    }
    if let Some(result) = out.result {
        assert!(widest(&result) <= 12, "{result}");
    }
}

#[test]
fn bad_params_fail_the_call_with_a_clear_message() {
    let page = page();
    let registry = Registry::builtin();
    let mut ws = Workspace::new(&page, ToolLimits::default());
    let missing = registry.execute(&mut ws, &ToolCall::new("html.select", json!({}), ""));
    assert!(!missing.success);
    assert!(missing.error.unwrap().contains("selector"));
    let invalid = registry.execute(
        &mut ws,
        &ToolCall::new("html.select", json!({"selector": "div["}), ""),
    );
    assert!(
        invalid
            .error
            .unwrap()
            .starts_with("html.select: invalid CSS selector `div[`")
    );
}

mod catalog {
    use crate::tools::testkit::{CONTACT, SHOP, TABLES, call, call_err, chain, page};
    use serde_json::json;

    const SHOP_URL: &str = "https://northwind.example/shoes/trail";

    #[test]
    fn links_are_absolute_deduplicated_and_skip_scripts_and_bare_anchors() {
        let shop = page(SHOP, SHOP_URL);
        assert_eq!(
            call(&shop, "html.links", json!({})),
            json!([
                {"url": "https://northwind.example/", "text": "Northwind"},
                {"url": "https://northwind.example/shoes/", "text": "Shoes"},
                {"url": "https://northwind.example/p/ridge-runner", "text": "Ridge Runner"},
                {"url": "https://northwind.example/p/mud-king", "text": "Mud King"},
                {"url": "https://northwind.example/p/scree-pro", "text": "Scree Pro"},
                {"url": "mailto:Sales@Northwind.example?subject=Shoes", "text": "our sales team"},
                {"url": "https://www.partner.example/northwind", "text": "Partner Store", "rel": "nofollow sponsored"},
                {"url": "https://northwind.example/outlet", "text": "the outlet"}
            ])
        );
    }

    #[test]
    fn links_filter_by_host_pattern_and_limit() {
        let shop = page(SHOP, SHOP_URL);
        assert_eq!(
            call(&shop, "html.links", json!({"same_host": false})),
            json!([{"url": "https://www.partner.example/northwind", "text": "Partner Store", "rel": "nofollow sponsored"}])
        );
        assert_eq!(
            call(
                &shop,
                "html.links",
                json!({"same_host": true, "pattern": "/p/", "limit": 2})
            ),
            json!([
                {"url": "https://northwind.example/p/ridge-runner", "text": "Ridge Runner"},
                {"url": "https://northwind.example/p/mud-king", "text": "Mud King"}
            ])
        );
        // The pattern also matches the link text.
        assert_eq!(
            call(
                &shop,
                "html.links",
                json!({"pattern": "(?i)^outlet|the outlet"})
            ),
            json!([{"url": "https://northwind.example/outlet", "text": "the outlet"}])
        );
        assert!(
            call_err(&shop, "html.links", json!({"pattern": "(unclosed"}))
                .starts_with("html.links: invalid regular expression `(unclosed`")
        );
    }

    #[test]
    fn links_within_the_selection_and_selection_follows_links() {
        let shop = page(SHOP, SHOP_URL);
        let (results, answer) = chain(
            &shop,
            &[
                ("html.select_one", json!({"selector": "nav"})),
                ("html.links", json!({"within": true})),
                ("html.attr", json!({"attribute": "href"})),
            ],
        );
        assert!(results.iter().all(|r| r.success));
        assert_eq!(
            results[1].result,
            Some(json!([
                {"url": "https://northwind.example/", "text": "Home"},
                {"url": "https://northwind.example/shoes/", "text": "Shoes"}
            ]))
        );
        assert_eq!(
            answer,
            json!([
                "https://northwind.example/",
                "https://northwind.example/shoes/"
            ])
        );
    }

    #[test]
    fn images_resolve_lazy_sources_and_srcset() {
        let shop = page(SHOP, SHOP_URL);
        assert_eq!(
            call(&shop, "html.images", json!({"selector": "li.product"})),
            json!([
                {"src": "https://northwind.example/img/ridge-runner.jpg", "alt": "Ridge Runner", "width": 300, "height": 200},
                {"src": "https://northwind.example/img/mud-king-800.jpg", "alt": "Mud King", "width": 300},
                {"src": "https://cdn.northwind.example/scree.jpg", "alt": "Scree Pro"}
            ])
        );
        assert_eq!(
            call(&shop, "html.images", json!({"limit": 1})),
            json!([{"src": "https://northwind.example/static/logo.svg", "alt": "Northwind"}])
        );
    }

    #[test]
    fn srcset_parsing_handles_densities_commas_and_junk() {
        let base = url::Url::parse("https://x.example/a/").unwrap();
        let resolve = |u: &str| base.join(u).ok().map(|u| u.to_string());
        assert_eq!(
            super::super::best_srcset_candidate("s.jpg 1x, l.jpg 2x,m.jpg 1.5x", resolve),
            Some("https://x.example/a/l.jpg".into())
        );
        assert_eq!(
            super::super::best_srcset_candidate(
                "data:image/gif;base64,AAA=, real.jpg 640w",
                resolve
            ),
            Some("https://x.example/a/real.jpg".into())
        );
        assert_eq!(super::super::best_srcset_candidate(" , ,", resolve), None);
        // Candidates with nonsense descriptors are dropped, as browsers do.
        assert_eq!(
            super::super::best_srcset_candidate("a.jpg NaNw, b.jpg infx", resolve),
            None
        );
    }

    #[test]
    fn tables_pick_the_largest_data_table_and_expand_spans() {
        let tables = page(TABLES, "https://conf.example/");
        assert_eq!(
            call(&tables, "html.tables", json!({})),
            json!([
                {"Day": "Monday", "Session": "Keynote", "Session_2": "Keynote", "column_4": "Hall A"},
                {"Day": "Monday", "Session": "Rust", "Session_2": "Go", "column_4": "Rooms 1–2"},
                {"Day": "Tuesday", "Session": "Workshops", "Session_2": "Panels", "column_4": "Hall B"},
                {"Day": "Wednesday", "Session": "Closing", "Session_2": null, "column_4": null}
            ])
        );
    }

    #[test]
    fn tables_by_selector_with_thead_and_first_row_headers() {
        let tables = page(TABLES, "https://conf.example/");
        assert_eq!(
            call(&tables, "html.tables", json!({"selector": "#plans"})),
            json!([
                {"Plan": "Starter", "Price": "$9", "Seats": "1"},
                {"Plan": "Team", "Price": "$49", "Seats": "10"},
                {"Plan": "Business", "Price": "$199", "Seats": ""}
            ])
        );
        assert_eq!(
            call(&tables, "html.tables", json!({"selector": "#facts"})),
            json!([{"Founded": "Staff", "2019": "42"}])
        );
        assert_eq!(
            call(&tables, "html.tables", json!({"selector": "#titled"})),
            json!([{"Year": "2024", "Visitors": "1,200"}, {"Year": "2025", "Visitors": "1,850"}])
        );
        assert_eq!(
            call_err(&tables, "html.tables", json!({"selector": "#nope"})),
            "html.tables: no table matches `#nope`"
        );
        let shop = page(SHOP, SHOP_URL);
        assert!(call_err(&shop, "html.tables", json!({})).contains("no data table"));
    }

    #[test]
    fn tables_all_skips_layout_tables() {
        let tables = page(TABLES, "https://conf.example/");
        let all = call(&tables, "html.tables", json!({"all": true}));
        let summary: Vec<_> = all
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                (
                    t["caption"].clone(),
                    t["headers"].clone(),
                    t["rows"].as_array().unwrap().len(),
                )
            })
            .collect();
        assert_eq!(
            summary,
            vec![
                (json!("Plans"), json!(["Plan", "Price", "Seats"]), 3),
                (
                    json!(null),
                    json!(["Day", "Session", "Session_2", "column_4"]),
                    4
                ),
                (json!(null), json!(["Founded", "2019"]), 1),
                (json!("Visitors per year"), json!(["Year", "Visitors"]), 2),
            ]
        );
    }

    #[test]
    fn tables_rows_become_the_selection() {
        let tables = page(TABLES, "https://conf.example/");
        let (results, answer) = chain(
            &tables,
            &[
                ("html.tables", json!({"selector": "#plans"})),
                ("html.text", json!({})),
            ],
        );
        assert!(results.iter().all(|r| r.success));
        assert_eq!(
            answer,
            json!(["Starter $9 1", "Team $49 10", "Business $199"])
        );
    }

    #[test]
    fn forms_list_fields_with_options() {
        let contact = page(CONTACT, "https://harbourbooks.example/contact");
        assert_eq!(
            call(&contact, "html.forms", json!({})),
            json!([
                {"action": "https://harbourbooks.example/contact", "method": "POST", "fields": [
                    {"name": "csrf", "type": "hidden", "required": false},
                    {"name": "name", "type": "text", "required": true},
                    {"name": "topic", "type": "select", "required": true, "options": ["", "order", "Events"]},
                    {"name": "reply", "type": "radio", "required": false, "options": ["email", "phone"]},
                    {"name": "newsletter", "type": "checkbox", "required": false, "options": ["on"]},
                    {"name": "message", "type": "textarea", "required": false}
                ]},
                {"action": "https://search.example/find", "method": "GET", "fields": [
                    {"name": "q", "type": "search", "required": false}
                ]}
            ])
        );
    }

    #[test]
    fn meta_reads_head_opengraph_and_twitter() {
        let shop = page(SHOP, SHOP_URL);
        assert_eq!(
            call(&shop, "html.meta", json!({})),
            json!({
                "title": "Trail Shoes",
                "document_title": "Trail Shoes – Northwind Outfitters",
                "description": "Lightweight trail running shoes for every terrain.",
                "canonical": "https://northwind.example/shoes/trail",
                "lang": "en-US",
                "author": "Northwind Editorial",
                "authors": ["Northwind Editorial"],
                "published_time": "2025-03-03T09:30:00+01:00",
                "modified_time": null,
                "site_name": "Northwind Outfitters",
                "og": {
                    "title": "Trail Shoes",
                    "type": "website",
                    "site_name": "Northwind Outfitters",
                    "image": ["https://cdn.northwind.example/og/trail-1.jpg", "https://cdn.northwind.example/og/trail-2.jpg"]
                },
                "twitter": {"card": "summary_large_image", "site": "@northwind"},
                "rules": {"title": "h1", "authors": "meta_author", "published_time": "meta_published_time", "modified_time": null}
            })
        );
        let contact = page(CONTACT, "https://harbourbooks.example/contact");
        assert_eq!(
            call(&contact, "html.meta", json!({})),
            json!({"title": "Contact Harbour Books", "document_title": "Contact us | Harbour Books", "description": null, "canonical": null, "lang": "en-GB",
                   "author": null,
                "authors": [], "published_time": "2024-11-05",
                "modified_time": null, "site_name": null, "og": {}, "twitter": {},
                "rules": {"title": "h1", "authors": null, "published_time": "meta_date", "modified_time": null}})
        );
    }

    #[test]
    fn meta_author_from_markup_and_jsonld_facts() {
        let p = page(
            r#"<html><head><meta name="twitter:creator" content="@ada"><meta property="article:author" content="https://x.example/ada"></head>
            <body><p class="byline">By <span itemprop="author" itemscope><span itemprop="name">Ada Lovelace</span></span></p></body></html>"#,
            "https://x.example/",
        );
        let meta = call(&p, "html.meta", json!({}));
        assert_eq!(meta["author"], json!("Ada Lovelace"));
        assert_eq!(meta["twitter"], json!({"creator": "@ada"}));
        let graph = page(
            r#"<html><head><script type="application/ld+json">{"@graph": [{"@type": "WebSite", "name": "Acme"}, {"@type": "Article", "datePublished": "2025-01-02", "author": [{"name": "Ada"}, {"name": " Grace  Hopper "}], "publisher": {"name": "Acme"}}]}</script></head><body></body></html>"#,
            "https://x.example/",
        );
        let meta = call(&graph, "html.meta", json!({}));
        assert_eq!(meta["published_time"], json!("2025-01-02"));
        assert_eq!(meta["author"], json!("Ada and Grace Hopper"));
        assert_eq!(meta["authors"], json!(["Ada", "Grace Hopper"]));
        assert_eq!(meta["site_name"], json!("Acme"));
    }

    #[test]
    fn meta_names_the_rule_behind_each_chosen_fact() {
        let p = page(
            r#"<html><head><title>Why the sea is salty | Ocean Facts</title><meta property="og:title" content="Why the sea is salty">
            <script type="application/ld+json">{"@type": "Article", "datePublished": "2025-01-02", "author": {"name": "Ada Lovelace"}}</script></head>
            <body><h1>Ocean Facts</h1><p>Text.</p></body></html>"#,
            "https://x.example/salty",
        );
        let meta = call(&p, "html.meta", json!({}));
        assert_eq!(meta["title"], json!("Why the sea is salty"));
        assert_eq!(
            meta["rules"],
            json!({
                "title": "og_title",
                "authors": "jsonld_author",
                "published_time": "jsonld_date_published",
                "modified_time": null
            })
        );
    }

    #[test]
    fn jsonld_and_outline() {
        let shop = page(SHOP, SHOP_URL);
        let items = call(&shop, "html.jsonld", json!({}));
        assert_eq!(
            items,
            serde_json::Value::Array(crate::read::structured::items(&shop))
        );
        let (results, answer) = chain(
            &shop,
            &[
                ("html.select", json!({"selector": "h1"})),
                ("html.outline", json!({})),
            ],
        );
        let outline = results[1].result.clone().unwrap();
        assert_eq!(
            outline["blocks"][0]["selector"],
            json!("ul.products > li.product")
        );
        assert_eq!(outline["blocks"][0]["count"], json!(3));
        assert_eq!(outline["jsonld_types"], json!(["ItemList"]));
        // Observe: the working value is still the selection's records.
        assert_eq!(answer, json!([{"text": "Trail Shoes"}]));
    }

    #[test]
    fn unknown_params_are_rejected() {
        let shop = page(SHOP, SHOP_URL);
        assert!(call_err(&shop, "html.meta", json!({"x": 1})).starts_with("html.meta:"));
        assert!(call_err(&shop, "html.links", json!({"limit": 0})).starts_with("html.links:"));
    }

    #[test]
    fn code_blocks_keep_their_lines_and_name_their_language() {
        let docs = page(
            include_str!("../../../tests/fixtures/pages/docs-code.html"),
            "https://docs.example/start",
        );
        assert_eq!(
            call(&docs, "html.code", json!({})),
            json!([
                {"code": "use widget::Widget;\n\nfn main() {\n    let w = Widget::new(\"demo\");\n    println!(\"{}\", w.name());\n}", "language": "rust"},
                {"code": "cargo run\n# prints: demo", "language": "shell"}
            ])
        );
        assert_eq!(
            call(&docs, "html.code", json!({"limit": 1}))
                .as_array()
                .map(Vec::len),
            Some(1)
        );
    }
}
