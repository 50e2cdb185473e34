//! The whole catalog against hostile input: every tool is listed with a schema, and random
//! calls on random pages never panic and keep their output within the limits.

use proptest::prelude::*;
use serde_json::{Value, json};

use crate::page::Page;
use crate::tools::{Registry, ToolCall, ToolLimits, Workspace};

const LIMITS: ToolLimits = ToolLimits {
    max_items: 12,
    max_text_chars: 80,
    max_selector_chars: 1024,
    max_selector_parts: 32,
};

fn words() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("March 3, 2025".to_owned()),
        Just("03/04/2025".to_owned()),
        Just("2025-02-30T25:61".to_owned()),
        Just("$1,249.00".to_owned()),
        Just("19,99 €".to_owned()),
        Just("+44 20 7946 0958".to_owned()),
        Just("a [at] b [dot] com".to_owned()),
        Just("x@y.io".to_owned()),
        Just("Tel. 555-123-4567".to_owned()),
        "[a-zA-Z0-9 $€£¥@.,:;/()+#%-]{0,30}",
        "\\PC{0,12}",
    ]
}

fn attr_value() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("javascript:alert(1)".to_owned()),
        Just("#".to_owned()),
        Just("mailto:A@B.example?x=%41".to_owned()),
        Just("tel:%2B1%20555%20123%204567".to_owned()),
        Just("data:image/gif;base64,AAAA, b.jpg 2x, c.jpg 999999999999999999999w".to_owned()),
        Just("//other.example/x".to_owned()),
        Just("100000".to_owned()),
        Just("-3".to_owned()),
        Just("2025-03-03T10:00:00Z".to_owned()),
        "[a-z0-9/:.?=&#%, -]{0,24}",
    ]
}

fn node() -> impl Strategy<Value = String> {
    let tags = prop_oneof![
        Just("a"),
        Just("img"),
        Just("table"),
        Just("tr"),
        Just("td"),
        Just("th"),
        Just("thead"),
        Just("caption"),
        Just("form"),
        Just("input"),
        Just("select"),
        Just("option"),
        Just("p"),
        Just("div"),
        Just("time"),
        Just("meta"),
        Just("li"),
        Just("h2"),
        Just("script"),
        Just("span"),
        Just("link"),
        Just("title"),
        Just("html"),
    ];
    let attrs = prop_oneof![
        Just("href"),
        Just("src"),
        Just("data-src"),
        Just("srcset"),
        Just("colspan"),
        Just("rowspan"),
        Just("datetime"),
        Just("content"),
        Just("property"),
        Just("name"),
        Just("type"),
        Just("class"),
        Just("id"),
        Just("rel"),
        Just("lang"),
        Just("action"),
        Just("data-cfemail"),
        Just("width"),
    ];
    prop_oneof![
        words(),
        (
            tags.clone(),
            prop::collection::vec((attrs, attr_value()), 0..3)
        )
            .prop_map(|(tag, attrs)| {
                let attrs: String = attrs
                    .into_iter()
                    .map(|(k, v)| format!(" {k}=\"{}\"", v.replace('"', "&quot;")))
                    .collect();
                format!("<{tag}{attrs}>")
            }),
        tags.prop_map(|tag| format!("</{tag}>")),
    ]
}

fn html() -> impl Strategy<Value = String> {
    prop::collection::vec(node(), 0..80).prop_map(|nodes| nodes.concat())
}

fn text_param() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!("a")),
        Just(json!("table")),
        Just(json!("td")),
        Just(json!("p")),
        Just(json!("img")),
        Just(json!("(\\d+)")),
        Just(json!("(?P<n>[a-z]+)")),
        Just(json!("li > a[href]")),
        Just(json!("div[")),
        Just(json!("(?i)\\d+")),
        Just(json!("(a|b)*c{2,}")),
        Just(json!("\\w{1000}{1000}")),
        Just(json!("text")),
        Just(json!("url")),
        Just(json!("")),
        "[a-z.#\\[\\]()*+?|^$\\\\ >:-]{0,12}".prop_map(Value::String),
    ]
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        text_param(),
        Just(json!(0)),
        Just(json!(1)),
        Just(json!(3)),
        Just(json!(usize::MAX)),
        Just(json!(-1)),
        Just(json!(2.5)),
        any::<bool>().prop_map(Value::Bool),
        Just(Value::Null),
        Just(json!("eq")),
        Just(json!("contains")),
        Just(json!("gt")),
        Just(json!("matches")),
        Just(json!("exists")),
    ]
}

fn param_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => scalar(),
        1 => prop::collection::vec(text_param(), 0..3).prop_map(Value::Array),
        1 => Just(json!({"type": "object", "required": ["text"], "properties": {"text": {"pattern": "^a"}}})),
        1 => Just(json!({"title": "h2", "url": "a@href", "n": {"selector": ".", "kind": "number"}})),
        1 => Just(json!({"text": "title"})),
    ]
}

const KEYS: &[&str] = &[
    "selector",
    "pattern",
    "limit",
    "same_host",
    "within",
    "all",
    "field",
    "group",
    "by",
    "descending",
    "op",
    "value",
    "columns",
    "rename",
    "schema",
    "fields",
    "n",
    "sort_by",
    "attribute",
    "order",
];

fn call(names: Vec<&'static str>) -> impl Strategy<Value = ToolCall> {
    let keys = prop::collection::btree_map(prop::sample::select(KEYS), param_value(), 0..4);
    (prop::sample::select(names), keys).prop_map(|(tool, params)| {
        let params: serde_json::Map<String, Value> =
            params.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
        ToolCall::new(tool, Value::Object(params), "")
    })
}

/// Calls with the right param names and random values: they get past validation.
fn templated_call() -> impl Strategy<Value = ToolCall> {
    let templates: Vec<(&'static str, Value)> = vec![
        (
            "html.select",
            json!({"selector": "$S", "limit": "$N", "within": "$B"}),
        ),
        ("html.select_one", json!({"selector": "$S"})),
        ("html.text", json!({"selector": "$S"})),
        ("html.attr", json!({"selector": "$S", "attribute": "$F"})),
        (
            "html.links",
            json!({"pattern": "$S", "same_host": "$B", "limit": "$N", "within": "$B"}),
        ),
        (
            "html.images",
            json!({"selector": "$S", "limit": "$N", "within": "$B"}),
        ),
        ("html.code", json!({"limit": "$N", "within": "$B"})),
        ("html.tables", json!({"selector": "$S", "all": "$B"})),
        ("html.tables", json!({"all": "$B"})),
        (
            "extract.fields",
            json!({"selector": "$S", "fields": {"a": "$S", "b": {"selector": "$S", "kind": "number", "next_sibling": "$B"}, "c": {"selector": "$S", "kind": "list"}, "d": {"selector": "$S", "kind": "date"}}}),
        ),
        (
            "extract.top_n",
            json!({"n": "$N", "sort_by": "$F", "descending": "$B"}),
        ),
        (
            "extract.regex",
            json!({"pattern": "$S", "group": "$N", "limit": "$N"}),
        ),
        ("extract.regex", json!({"pattern": "$S", "field": "$F"})),
        ("extract.regex", json!({"pattern": "$S"})),
        ("extract.markdown", json!({"selector": "$S"})),
        ("data.dedupe", json!({"by": ["$F"]})),
        ("data.sort", json!({"by": "$F", "descending": "$B"})),
        (
            "data.filter",
            json!({"field": "$F", "op": "$O", "value": "$V"}),
        ),
        (
            "data.select_columns",
            json!({"columns": ["$F", "$F"], "rename": {"$F": "$F"}}),
        ),
        ("validate.completeness", json!({"fields": ["$F"]})),
        (
            "validate.schema",
            json!({"schema": {"type": "object", "properties": {"$F": {"type": "string", "pattern": "$S", "maxLength": "$N"}}}}),
        ),
    ];
    let ops = prop::sample::select(vec![
        "eq",
        "ne",
        "contains",
        "not_contains",
        "holds",
        "gt",
        "gte",
        "lt",
        "lte",
        "matches",
        "exists",
        "missing",
    ]);
    let field = prop::sample::select(vec![
        "text", "url", "src", "amount", "date", "a", "b.c", "Plan", "0",
    ]);
    let number = prop_oneof![4 => 1usize..4, 1 => Just(1000usize), 1 => 0usize..20];
    (
        prop::sample::select(templates),
        prop::collection::vec(
            (text_param(), number, any::<bool>(), field, ops, scalar()),
            8,
        ),
    )
        .prop_map(|((tool, template), fills)| {
            let mut fills = fills.into_iter().cycle();
            let params = fill(template, &mut fills);
            ToolCall::new(tool, params, "")
        })
}

type Fill = (Value, usize, bool, &'static str, &'static str, Value);

fn fill(template: Value, fills: &mut impl Iterator<Item = Fill>) -> Value {
    match template {
        Value::String(s) if s.starts_with('$') => {
            let Some((text, number, flag, field, op, value)) = fills.next() else {
                return Value::Null;
            };
            match s.as_str() {
                "$S" => text,
                "$N" => json!(number),
                "$B" => json!(flag),
                "$F" => json!(field),
                "$O" => json!(op),
                _ => value,
            }
        }
        Value::Array(items) => Value::Array(items.into_iter().map(|v| fill(v, fills)).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| {
                    let key = if k == "$F" {
                        fills.next().map_or(k, |f| f.3.to_owned())
                    } else {
                        k
                    };
                    (key, fill(v, fills))
                })
                .collect(),
        ),
        other => other,
    }
}

fn registry() -> &'static Registry {
    static REGISTRY: std::sync::OnceLock<Registry> = std::sync::OnceLock::new();
    REGISTRY.get_or_init(Registry::builtin)
}

/// Every list holds at most `max_items`, every text at most `max_text_chars` characters.
fn assert_bounded(value: &Value, tool: &str) {
    match value {
        Value::String(s) => assert!(
            s.chars().count() <= LIMITS.max_text_chars,
            "{tool}: text of {} chars",
            s.chars().count()
        ),
        Value::Array(items) => {
            assert!(
                items.len() <= LIMITS.max_items,
                "{tool}: {} items",
                items.len()
            );
            items.iter().for_each(|v| assert_bounded(v, tool));
        }
        Value::Object(map) => {
            // Fixed-shape objects have a few more keys than a list may have items; a table's
            // row has a key per column, up to the tables' own cap (a `colspan` of 50 is one).
            assert!(
                map.len() <= (LIMITS.max_items + 16).max(crate::tools::html::MAX_TABLE_COLUMNS),
                "{tool}: {} keys",
                map.len()
            );
            for (k, v) in map {
                assert!(k.chars().count() <= 500, "{tool}: key of {} chars", k.len());
                assert_bounded(v, tool);
            }
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_calls_on_random_pages_never_panic_and_stay_bounded(
        html in html(),
        calls in prop::collection::vec(
            prop_oneof![
                1 => call(registry().tools().iter().map(|t| t.name).collect()),
                3 => templated_call(),
            ],
            1..6,
        ),
    ) {
        let page = Page::parse(url::Url::parse("https://www.example.com/a/b?c=d").unwrap(), &html);
        let registry = registry();
        let mut ws = Workspace::new(&page, LIMITS);
        for call in &calls {
            let out = registry.execute(&mut ws, call);
            let internal = format!("{}: internal error", call.tool);
            prop_assert_ne!(out.error.as_deref(), Some(internal.as_str()), "{:?} panicked on {:?}", call, html);
            if let Some(result) = &out.result {
                assert_bounded(result, &call.tool);
            }
        }
    }

    #[test]
    fn every_tool_without_params_on_random_pages(html in html()) {
        let page = Page::parse(url::Url::parse("https://example.com/").unwrap(), &html);
        let registry = registry();
        for tool in registry.tools() {
            let mut ws = Workspace::new(&page, LIMITS);
            let out = registry.execute(&mut ws, &ToolCall::new(tool.name, json!({}), ""));
            let internal = format!("{}: internal error", tool.name);
            prop_assert_ne!(out.error.as_deref(), Some(internal.as_str()));
            if let Some(result) = &out.result {
                assert_bounded(result, tool.name);
            }
        }
    }
}

#[test]
fn the_catalog_has_every_tool_with_an_object_schema() {
    let registry = crate::tools::Registry::builtin();
    let names: Vec<&str> = registry.tools().iter().map(|t| t.name).collect();
    assert_eq!(
        names,
        [
            "html.select",
            "html.select_one",
            "html.text",
            "html.attr",
            "html.links",
            "html.images",
            "html.code",
            "html.tables",
            "html.forms",
            "html.meta",
            "html.jsonld",
            "html.outline",
            "extract.fields",
            "extract.top_n",
            "extract.regex",
            "extract.emails",
            "extract.phones",
            "extract.prices",
            "extract.dates",
            "extract.main_content",
            "extract.records",
            "extract.named_fields",
            "extract.product",
            "extract.markdown",
            "data.dedupe",
            "data.sort",
            "data.filter",
            "data.select_columns",
            "validate.completeness",
            "validate.schema",
            "nav.next_page",
            "nav.item_links",
            "browser.render",
            "browser.click",
            "browser.scroll",
            "browser.screenshot",
        ]
    );
    for tool in registry.tools() {
        assert_eq!(tool.params_schema["type"], "object", "{}", tool.name);
        assert!(!tool.description.is_empty() && !tool.result_description.is_empty());
        // A call with no params either runs or names what is missing.
        if let Err(e) = tool.validate(&serde_json::json!({})) {
            assert!(e.to_string().starts_with(tool.name), "{e}");
        }
    }
}
