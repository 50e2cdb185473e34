//! Fixture pages and a call helper for the tools' unit tests.

use serde_json::Value;

use crate::page::Page;
use crate::tools::{Registry, ToolCall, ToolCallResult, ToolLimits, Workspace};

/// `tests/fixtures/tools/shop.html`: a shop listing with meta, lazy images, prices, links.
pub const SHOP: &str = include_str!("../../tests/fixtures/tools/shop.html");
/// `tests/fixtures/tools/contact.html`: contact details among near-misses, dates, forms.
pub const CONTACT: &str = include_str!("../../tests/fixtures/tools/contact.html");
/// `tests/fixtures/tools/tables.html`: layout and data tables.
pub const TABLES: &str = include_str!("../../tests/fixtures/tools/tables.html");

/// Parses a fixture as if fetched from `url`.
pub fn page(html: &str, url: &str) -> Page {
    Page::parse(url::Url::parse(url).unwrap(), html)
}

/// Runs calls in order on one workspace; returns every result and the final answer.
pub fn chain(page: &Page, calls: &[(&str, Value)]) -> (Vec<ToolCallResult>, Value) {
    let registry = Registry::builtin();
    let mut ws = Workspace::new(page, ToolLimits::default());
    let results = calls
        .iter()
        .map(|(tool, params)| registry.execute(&mut ws, &ToolCall::new(tool, params.clone(), "")))
        .collect();
    (results, ws.answer())
}

/// Runs one call that must succeed; returns its result.
pub fn call(page: &Page, tool: &str, params: Value) -> Value {
    let (mut results, _) = chain(page, &[(tool, params)]);
    let result = results.remove(0);
    assert!(result.success, "{tool} failed: {:?}", result.error);
    result.result.unwrap()
}

/// Runs one call that must fail; returns its error.
pub fn call_err(page: &Page, tool: &str, params: Value) -> String {
    let (mut results, _) = chain(page, &[(tool, params)]);
    let result = results.remove(0);
    assert!(!result.success, "{tool} should fail: {:?}", result.result);
    result.error.unwrap()
}
