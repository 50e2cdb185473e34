//! `html.*`: selecting elements and reading what the markup says.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::dom::{parse_selector, text_of};
use super::registry::{Effect, Tool, ToolError};
use super::workspace::Workspace;

/// The `html` namespace, in catalog order.
pub fn tools() -> Vec<Tool> {
    vec![
        Tool::new(
            "html.select",
            "Select every element matching a CSS selector (in the document, or inside the current selection with `within`).",
            "Array of {text, url} per element (url: the element's first link, absolute); the elements become the selection.",
            Effect::Replace,
            select,
        ),
        Tool::new(
            "html.select_one",
            "Select the first element matching a CSS selector.",
            "{text, url, tag} of the element, or an error when nothing matches; it becomes the selection.",
            Effect::Replace,
            select_one,
        ),
        Tool::new(
            "html.text",
            "Text of the current selection or of the elements matching `selector`, whitespace collapsed.",
            "Array of strings, one per element.",
            Effect::Replace,
            text,
        ),
        Tool::new(
            "html.attr",
            "An attribute of every element matching `selector` (URLs in href/src are made absolute).",
            "Array of attribute values (elements without it are skipped).",
            Effect::Replace,
            attr,
        ),
    ]
}

/// Params of `html.select`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SelectParams {
    /// CSS selector.
    pub selector: String,
    /// Keep at most this many elements.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub limit: Option<usize>,
    /// Search inside the current selection instead of the whole document.
    #[serde(default)]
    pub within: bool,
}

fn select(ws: &mut Workspace<'_>, params: SelectParams) -> Result<Value, ToolError> {
    let selector = parse_selector(&params.selector)
        .map_err(|e| ToolError::InvalidParams(format!("html.select: {e}")))?;
    let scope = if params.within {
        ws.scope()
    } else {
        vec![ws.page.document.root_element()]
    };
    let cap = params.limit.unwrap_or(usize::MAX).min(ws.limits.max_items);
    let mut found = Vec::new();
    for root in scope {
        for el in root.select(&selector) {
            if found.len() >= cap {
                break;
            }
            if !found.contains(&el) {
                found.push(el);
            }
        }
    }
    let records: Vec<Value> = found.iter().map(|el| element_record(ws, *el)).collect();
    ws.selection = Some(found);
    Ok(Value::Array(records))
}

/// The default record of an element: its text and its first link.
pub fn element_record(ws: &Workspace<'_>, el: scraper::ElementRef<'_>) -> Value {
    let link = if el.value().name() == "a" {
        el.value().attr("href")
    } else {
        el.select(crate::static_selector!("a[href]"))
            .next()
            .and_then(|a| a.value().attr("href"))
    };
    let mut record = serde_json::Map::new();
    record.insert("text".into(), Value::String(ws.cap_text(text_of(el))));
    if let Some(url) = link.and_then(|h| ws.page.absolute(h)) {
        record.insert("url".into(), Value::String(url));
    }
    Value::Object(record)
}

/// Params of `html.select_one`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SelectOneParams {
    /// CSS selector.
    pub selector: String,
}

fn select_one(ws: &mut Workspace<'_>, params: SelectOneParams) -> Result<Value, ToolError> {
    let selector = parse_selector(&params.selector)
        .map_err(|e| ToolError::InvalidParams(format!("html.select_one: {e}")))?;
    let el = ws.page.document.select(&selector).next().ok_or_else(|| {
        ToolError::Failed(format!(
            "html.select_one: nothing matches `{}`",
            params.selector
        ))
    })?;
    let mut record = element_record(ws, el);
    if let Some(obj) = record.as_object_mut() {
        obj.insert("tag".into(), json!(el.value().name()));
    }
    ws.selection = Some(vec![el]);
    Ok(record)
}

/// Params of `html.text`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TextParams {
    /// CSS selector; without it, the current selection (or the whole page).
    #[serde(default)]
    pub selector: Option<String>,
}

fn text(ws: &mut Workspace<'_>, params: TextParams) -> Result<Value, ToolError> {
    let elements = match &params.selector {
        Some(css) => {
            let selector = parse_selector(css)
                .map_err(|e| ToolError::InvalidParams(format!("html.text: {e}")))?;
            ws.page
                .document
                .select(&selector)
                .take(ws.limits.max_items)
                .collect()
        }
        None => ws.scope(),
    };
    let texts: Vec<Value> = elements
        .into_iter()
        .map(|el| Value::String(ws.cap_text(text_of(el))))
        .collect();
    Ok(Value::Array(texts))
}

/// Params of `html.attr`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttrParams {
    /// CSS selector; without it, the current selection.
    #[serde(default)]
    pub selector: Option<String>,
    /// Attribute name, e.g. `href`.
    pub attribute: String,
}

fn attr(ws: &mut Workspace<'_>, params: AttrParams) -> Result<Value, ToolError> {
    let elements: Vec<_> = match &params.selector {
        Some(css) => {
            let selector = parse_selector(css)
                .map_err(|e| ToolError::InvalidParams(format!("html.attr: {e}")))?;
            ws.page
                .document
                .select(&selector)
                .take(ws.limits.max_items)
                .collect()
        }
        None => ws.scope(),
    };
    let values: Vec<Value> = elements
        .into_iter()
        .filter_map(|el| el.value().attr(&params.attribute))
        .map(|v| Value::String(attribute_value(ws, &params.attribute, v)))
        .collect();
    Ok(Value::Array(values))
}

/// An attribute value, made absolute when it is a URL attribute.
pub fn attribute_value(ws: &Workspace<'_>, name: &str, raw: &str) -> String {
    if matches!(
        name,
        "href"
            | "src"
            | "data-src"
            | "data-href"
            | "action"
            | "poster"
            | "data-original"
            | "data-lazy-src"
    ) {
        ws.page
            .absolute(raw)
            .unwrap_or_else(|| raw.trim().to_owned())
    } else {
        raw.trim().to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::{Page, Registry, ToolCall, ToolLimits};

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
}
