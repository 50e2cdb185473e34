//! Property tests of parsing hostile markup: random tag soup, deep nesting, huge attributes,
//! broken entities and unclosed raw text never panic `Page::parse_within` or the main page
//! readers, the node cap answers honestly (a page is refused only when its tree really passes
//! the cap, and a page it keeps is the page an uncapped parse gives), and outputs stay bounded.

use proptest::prelude::*;
use serde_json::{Value, json};

use crate::page::Page;
use crate::tools::ToolLimits;
use crate::tools::testkit::chain;

/// Cases per property; `PROPTEST_CASES` runs more (e.g. 20000 for a long soak).
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// One piece of hostile markup.
fn fragment() -> impl Strategy<Value = String> {
    let tag = prop::sample::select(vec![
        "div",
        "p",
        "b",
        "i",
        "a",
        "li",
        "ul",
        "table",
        "tr",
        "td",
        "span",
        "script",
        "style",
        "title",
        "textarea",
        "noscript",
        "template",
        "svg",
        "math",
        "select",
        "option",
        "form",
        "h1",
        "article",
        "main",
        "time",
        "meta",
        "base",
        "img",
        "br",
        "plaintext",
        "iframe",
    ]);
    let entity = prop::sample::select(vec![
        "&",
        "&amp",
        "&amp;",
        "&#",
        "&#x;",
        "&#x110000;",
        "&#0;",
        "&#55296;",
        "&nosuch;",
        "&notin",
        "&NotANamedEntityAtAll;",
        "&#9999999999999;",
        "&lt;div&gt;",
    ]);
    prop_oneof![
        4 => (tag.clone(), "[a-z-]{0,6}", "[^\"]{0,20}").prop_map(|(t, attr, value)| format!("<{t} {attr}=\"{value}\">")),
        3 => tag.clone().prop_map(|t| format!("</{t}>")),
        3 => "\\PC{0,24}",
        2 => entity.prop_map(str::to_owned),
        1 => (tag.clone(), 1usize..2_000).prop_map(|(t, n)| format!("<{t}>").repeat(n)),
        1 => (1usize..100_000).prop_map(|n| format!("<a href=\"/{}\" title='{}'>x</a>", "y".repeat(n), "\"<>".repeat(n / 64))),
        1 => Just("<!-- unclosed comment <div>".to_owned()),
        1 => Just("<![CDATA[ <b> ]]>".to_owned()),
        1 => Just("<script>document.write('<div>')".to_owned()),
        1 => Just("\u{0}\u{feff}\r\n".to_owned()),
        1 => Just("<base href=\"javascript:alert(1)\"><base href=\"//[::1\">".to_owned()),
    ]
}

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(fragment(), 0..40).prop_map(|parts| parts.concat())
}

/// Lists of at most `max_items`, texts of at most `max_text_chars` (and a margin for the
/// fixed keys of objects).
fn assert_bounded(value: &Value, tool: &str, limits: &ToolLimits) {
    match value {
        Value::String(text) => assert!(
            text.chars().count() <= limits.max_text_chars + 64,
            "{tool}: text of {} chars",
            text.chars().count()
        ),
        Value::Array(items) => {
            assert!(
                items.len() <= limits.max_items,
                "{tool}: {} items",
                items.len()
            );
            items.iter().for_each(|v| assert_bounded(v, tool, limits));
        }
        Value::Object(map) => map.values().for_each(|v| assert_bounded(v, tool, limits)),
        _ => {}
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn the_node_cap_refuses_only_pages_that_pass_it(html in soup(), cap in 1usize..3_000) {
        let url = url::Url::parse("https://soup.example/a/").unwrap();
        let whole = Page::parse(url.clone(), &html);
        let nodes = whole.document.tree.values().len();
        match Page::parse_within(url, &html, cap) {
            Ok(page) => {
                prop_assert!(nodes <= cap, "{} nodes kept under a cap of {}", nodes, cap);
                prop_assert_eq!(page.document.html(), whole.document.html());
                prop_assert_eq!(page.url, whole.url);
            }
            Err(refused) => {
                prop_assert_eq!(refused.limit, cap);
                prop_assert!(nodes > cap, "refused at {} with only {} nodes", cap, nodes);
            }
        }
    }

    #[test]
    fn the_main_readers_never_panic_on_hostile_pages_and_stay_bounded(html in soup()) {
        let page = Page::parse(url::Url::parse("https://soup.example/a/b?c=d").unwrap(), &html);
        let limits = ToolLimits::default();
        for (tool, params) in [
            ("extract.main_content", json!({})),
            ("html.outline", json!({})),
            ("html.links", json!({})),
            ("html.meta", json!({})),
            ("html.tables", json!({})),
            ("extract.records", json!({})),
            ("extract.dates", json!({})),
            ("extract.prices", json!({})),
        ] {
            let (results, _) = chain(&page, &[(tool, params)]);
            let out = &results[0];
            let internal = format!("{tool}: internal error");
            prop_assert_ne!(out.error.as_deref(), Some(internal.as_str()));
            if let Some(result) = &out.result {
                assert_bounded(result, tool, &limits);
            }
        }
    }
}
