//! The sources every fact reads: the page's `<meta>` tags and its JSON-LD values.

use scraper::Html;
use serde_json::Value;

use crate::page::dom::collapse_whitespace;
use crate::page::interrupt::SelectChecked;
use crate::static_selector;

/// How many `<meta>` tags are read at most (a page could hold millions).
pub(super) const MAX_META_TAGS: usize = 2000;

/// The first value of `key` in a JSON-LD value, depth first, at most a few levels down.
pub(super) fn first_key<'v>(value: &'v Value, key: &str, depth: usize) -> Option<&'v Value> {
    const MAX_DEPTH: usize = 6;
    if depth > MAX_DEPTH {
        return None;
    }
    match value {
        Value::Object(map) => map
            .get(key)
            .filter(|v| !v.is_null())
            .or_else(|| map.values().find_map(|v| first_key(v, key, depth + 1))),
        Value::Array(values) => values.iter().find_map(|v| first_key(v, key, depth + 1)),
        _ => None,
    }
}

/// `<meta>` tags as (lower-cased name or property, content), in page order.
pub(super) struct MetaTags(Vec<(String, String)>);

impl MetaTags {
    pub(super) fn of(doc: &Html) -> Self {
        let mut out = Vec::new();
        for m in doc.select_checked(static_selector!(
            "meta[property], meta[name], meta[itemprop], meta[http-equiv]"
        )) {
            let v = m.value();
            let key = v
                .attr("property")
                .or_else(|| v.attr("name"))
                .or_else(|| v.attr("itemprop"))
                .or_else(|| v.attr("http-equiv"))
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            if let Some(content) = v.attr("content") {
                let content = collapse_whitespace(content);
                if !content.is_empty() {
                    out.push((key, content));
                }
            }
            if out.len() >= MAX_META_TAGS {
                break;
            }
        }
        Self(out)
    }

    /// The first value of the first key present.
    pub(super) fn first(&self, keys: &[&str]) -> Option<String> {
        keys.iter().find_map(|k| {
            self.0
                .iter()
                .find(|(mk, _)| mk == k)
                .map(|(_, v)| v.clone())
        })
    }

    /// Every value of one key (`citation_author` repeats once per author).
    pub(super) fn all(&self, key: &str) -> Vec<&str> {
        self.0
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// Values of vendors' own publication tags (`w-published-date`, `publish-time`).
    pub(super) fn vendor_published(&self) -> Vec<String> {
        self.0
            .iter()
            .filter(|(k, _)| k.contains("publish") && (k.contains("date") || k.contains("time")))
            .map(|(_, v)| v.clone())
            .collect()
    }
}

pub(super) fn string_of(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(ld_text(s)).filter(|s| !s.is_empty()),
        Value::Array(a) => a.iter().find_map(string_of),
        Value::Object(m) => m.get("@value").and_then(string_of),
        _ => None,
    }
}

/// A JSON-LD string as text. A `<script>`'s content is not HTML, so the parser left its
/// entities alone, yet CMSs escape names and headlines in it as HTML (`Maria &amp; Katerina`).
pub(super) fn ld_text(raw: &str) -> String {
    collapse_whitespace(&html_escape::decode_html_entities(raw))
}

/// Names in a JSON-LD value: a string, an object's `name`, or a list of them.
pub(super) fn names_of(value: &Value) -> Vec<String> {
    match value {
        Value::Array(a) => a.iter().flat_map(names_of).collect(),
        Value::String(s) => vec![ld_text(s)],
        Value::Object(m) => m.get("name").and_then(string_of).into_iter().collect(),
        _ => Vec::new(),
    }
    .into_iter()
    .filter(|n| !n.is_empty())
    .collect()
}
