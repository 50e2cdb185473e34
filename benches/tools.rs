//! Per-tool cost of the catalog on real pages.
//!
//! Each page is parsed once; every tool then runs on a fresh workspace over that parse, so the
//! figures are the tool's own cost (plus copying the prepared working value for `data.*`,
//! `validate.*` and `extract.top_n`, which need records to work on).
//!
//! Pages come from `../shared/corpora` (WCXB dev split and Mozilla Readability's test pages);
//! a page that is not there is skipped. Run: `cargo bench --bench tools`.

use std::io::Read;
use std::path::PathBuf;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use scrape_agent::page::Page;
use scrape_agent::tools::{Registry, ToolCall, ToolLimits, Workspace};
use serde_json::{Value, json};

/// (label, path relative to the corpora folder). One article, one product, one listing, one
/// forum page from WCXB, and Readability's `ars-1`.
const PAGES: &[(&str, &str)] = &[
    ("article-0107", "wcxb-dev/html/0107.html.gz"),
    ("product-0185", "wcxb-dev/html/0185.html.gz"),
    ("listing-0205", "wcxb-dev/html/0205.html.gz"),
    ("forum-0504", "wcxb-dev/html/0504.html.gz"),
    (
        "readability-ars-1",
        "readability/test-pages/ars-1/source.html",
    ),
];

fn corpora() -> PathBuf {
    std::env::var_os("SCRAPE_AGENT_CORPORA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora"),
        PathBuf::from,
    )
}

fn load(path: &str) -> Option<String> {
    let full = corpora().join(path);
    let bytes = std::fs::read(&full).ok()?;
    if path.ends_with(".gz") {
        let mut html = String::new();
        flate2::read::GzDecoder::new(bytes.as_slice())
            .read_to_string(&mut html)
            .ok()?;
        Some(html)
    } else {
        Some(String::from_utf8_lossy(&bytes).into_owned())
    }
}

/// The call benchmarked for each tool: params a planner would plausibly send on any page.
fn calls() -> Vec<(&'static str, Value)> {
    vec![
        ("html.select", json!({"selector": "a"})),
        ("html.select_one", json!({"selector": "body"})),
        ("html.text", json!({"selector": "p"})),
        ("html.attr", json!({"selector": "a", "attribute": "href"})),
        ("html.links", json!({})),
        ("html.images", json!({})),
        ("html.tables", json!({"all": true})),
        ("html.forms", json!({})),
        ("html.meta", json!({})),
        ("html.jsonld", json!({})),
        ("html.outline", json!({})),
        (
            "extract.fields",
            json!({"selector": "li", "fields": {"text": ".", "url": "a@href"}}),
        ),
        (
            "extract.top_n",
            json!({"n": 10, "sort_by": "text", "descending": false}),
        ),
        ("extract.regex", json!({"pattern": r"\b\d{2,}\b"})),
        ("extract.emails", json!({})),
        ("extract.phones", json!({})),
        ("extract.prices", json!({})),
        ("extract.dates", json!({})),
        ("extract.main_content", json!({})),
        ("extract.product", json!({})),
        ("extract.markdown", json!({})),
        ("data.dedupe", json!({"by": ["text"]})),
        ("data.sort", json!({"by": "text"})),
        (
            "data.filter",
            json!({"field": "url", "op": "contains", "value": "/"}),
        ),
        (
            "data.select_columns",
            json!({"columns": ["url", "text"], "rename": {"url": "href"}}),
        ),
        ("validate.completeness", json!({})),
        (
            "validate.schema",
            json!({"schema": {"type": "object", "required": ["url", "text"], "properties": {"url": {"type": "string", "pattern": "^https?://"}}}}),
        ),
    ]
}

/// Tools that read records get the page's links as their working value.
fn needs_records(tool: &str) -> bool {
    tool.starts_with("data.") || tool.starts_with("validate.") || tool == "extract.top_n"
}

fn bench_tools(c: &mut Criterion) {
    let registry = Registry::builtin();
    let limits = ToolLimits::default();
    let pages: Vec<(&str, Page)> = PAGES
        .iter()
        .filter_map(|(label, path)| {
            let html = load(path)?;
            let url = url::Url::parse("https://example.com/page").ok()?;
            Some((*label, Page::parse(url, &html)))
        })
        .collect();
    if pages.is_empty() {
        eprintln!(
            "no corpus pages under {}; nothing to bench",
            corpora().display()
        );
        return;
    }
    let prepared: Vec<Value> = pages
        .iter()
        .map(|(_, page)| {
            let mut ws = Workspace::new(page, limits);
            registry
                .execute(&mut ws, &ToolCall::new("html.links", json!({}), ""))
                .result
                .unwrap_or(Value::Null)
        })
        .collect();
    for (tool, params) in calls() {
        let call = ToolCall::new(tool, params, "");
        let mut group = c.benchmark_group(tool);
        group.sample_size(20);
        for ((label, page), records) in pages.iter().zip(&prepared) {
            group.bench_function(*label, |b| {
                b.iter_batched(
                    || {
                        let mut ws = Workspace::new(page, limits);
                        if needs_records(tool) {
                            ws.value = records.clone();
                        }
                        ws
                    },
                    |mut ws| registry.execute(&mut ws, &call),
                    BatchSize::SmallInput,
                );
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench_tools);
criterion_main!(benches);
