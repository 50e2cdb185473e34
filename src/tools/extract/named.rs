//! `extract.named_fields`: the values a page about one thing (a product, a job, a person) shows
//! for fields named in plain words — "sku", "salary", "description" — wherever the page keeps
//! them: schema.org data, a label next to its value, `itemprop`, a class named after the field,
//! the page's meta description.
//!
//! This is what an item's own page is read with when a run enriches a list's records, so it
//! must work on pages nobody wrote a selector for.

use schemars::JsonSchema;
use scraper::ElementRef;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::super::registry::{ToolError, ToolParams};
use super::super::workspace::Workspace;
use crate::page::dom::{bound_json, collapse_whitespace, is_block, squashed, text_capped};
use crate::page::interrupt::SelectChecked;
use crate::static_selector;

/// Params of `extract.named_fields`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NamedFieldsParams {
    /// Field names in the user's words ("sku", "salary", "full description"). Empty: every
    /// labelled value the page shows (`<dt>`/`<dd>`, two-cell rows, `Label: value` lines),
    /// with the page's title and description.
    #[serde(default)]
    pub fields: Vec<String>,
}

impl ToolParams for NamedFieldsParams {
    const TOOL: &'static str = "extract.named_fields";
}

/// Longest value kept for one field; a longer text is a container, not a value.
const MAX_VALUE_CHARS: usize = 2_000;
/// Longest text read as a label.
const MAX_LABEL_CHARS: usize = 40;
/// Labelled values returned at most when no field is named.
const MAX_PAIRS: usize = 60;

/// Other names a page uses for a field, by the field's normalised name.
const SYNONYMS: &[(&str, &[&str])] = &[
    ("title", &["name", "headline", "title"]),
    ("name", &["name", "title", "headline"]),
    (
        "salary",
        &[
            "basesalary",
            "salary",
            "pay",
            "compensation",
            "wage",
            "estimatedsalary",
        ],
    ),
    ("pay", &["basesalary", "salary", "pay", "compensation"]),
    (
        "description",
        &["description", "summary", "about", "overview"],
    ),
    ("price", &["price", "lowprice", "offerprice", "saleprice"]),
    ("rating", &["ratingvalue", "rating", "stars", "score"]),
    (
        "location",
        &[
            "joblocation",
            "location",
            "address",
            "addresslocality",
            "place",
        ],
    ),
    (
        "company",
        &[
            "hiringorganization",
            "company",
            "employer",
            "organization",
            "brand",
        ],
    ),
    (
        "employer",
        &["hiringorganization", "employer", "company", "organization"],
    ),
    ("brand", &["brand", "manufacturer", "make"]),
    (
        "date",
        &["dateposted", "datepublished", "date", "published", "posted"],
    ),
    ("author", &["author", "writer", "by", "creator"]),
    (
        "sku",
        &[
            "sku",
            "productid",
            "itemnumber",
            "partnumber",
            "articlenumber",
            "mpn",
        ],
    ),
    ("type", &["employmenttype", "type", "jobtype"]),
    ("availability", &["availability", "stock", "instock"]),
    ("isbn", &["isbn"]),
    ("phone", &["telephone", "phone", "tel"]),
    ("email", &["email", "mail"]),
];

/// The names a field goes by on pages, its own first.
fn names_for(field: &str) -> Vec<String> {
    let own = squashed(field);
    let mut names = vec![own.clone()];
    if let Some((_, others)) = SYNONYMS.iter().find(|(key, _)| *key == own) {
        names.extend(others.iter().map(|s| (*s).to_owned()));
    }
    names.dedup();
    names
}

/// Where a value was found (the tool's evidence, one per field).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
enum Source {
    /// schema.org JSON-LD or microdata.
    StructuredData,
    /// An `itemprop` attribute.
    Itemprop,
    /// A visible label next to the value (`<dt>`, `<th>`, `Label: value`).
    Label,
    /// An element whose class or id names the field.
    ClassName,
    /// The page's meta description or title.
    Meta,
}

pub(super) fn named_fields(
    ws: &mut Workspace<'_>,
    params: NamedFieldsParams,
) -> Result<Value, ToolError> {
    if params.fields.len() > 64 {
        return Err(ToolError::InvalidParams(
            "extract.named_fields: at most 64 fields".into(),
        ));
    }
    let page = ws.page;
    let structured = crate::read::structured::items(page);
    let root = page.document.root_element();
    let pairs = labelled_pairs(root);
    if params.fields.is_empty() {
        let mut out = Map::new();
        if let Some(title) = heading(root) {
            out.insert("title".into(), Value::String(title));
        }
        if let Some(description) = meta_description(root) {
            out.insert("description".into(), Value::String(description));
        }
        for (label, value) in pairs.into_iter().take(MAX_PAIRS) {
            let key = key_of(&label);
            if !key.is_empty() && !out.contains_key(&key) {
                out.insert(key, Value::String(value));
            }
        }
        if out.is_empty() {
            return Err(ToolError::Failed(
                "extract.named_fields: the page shows no title, description or labelled values"
                    .into(),
            ));
        }
        return Ok(bounded(ws, out));
    }
    let mut out = Map::new();
    let mut evidence = Map::new();
    for field in &params.fields {
        let names = names_for(field);
        let found = from_structured(&structured, &names)
            .map(|v| (v, Source::StructuredData))
            .or_else(|| from_itemprop(root, &names).map(|v| (v, Source::Itemprop)))
            .or_else(|| {
                pairs
                    .iter()
                    .find(|(label, _)| names.contains(&squashed(label)))
                    .map(|(_, value)| (value.clone(), Source::Label))
            })
            .or_else(|| from_class(root, &names).map(|v| (v, Source::ClassName)))
            .or_else(|| from_meta(root, &names).map(|v| (v, Source::Meta)));
        let key = key_of(field);
        match found {
            Some((value, source)) => {
                out.insert(key.clone(), Value::String(value));
                evidence.insert(key, serde_json::to_value(source).unwrap_or(Value::Null));
            }
            None => {
                out.insert(key, Value::Null);
            }
        }
    }
    if out.values().all(Value::is_null) {
        return Err(ToolError::Failed(format!(
            "extract.named_fields: none of {} found on the page",
            params.fields.join(", ")
        )));
    }
    ws.evidence = Some(Value::Object(evidence));
    Ok(bounded(ws, out))
}

/// The result within the tool limits (items and characters).
fn bounded(ws: &Workspace<'_>, out: Map<String, Value>) -> Value {
    bound_json(
        Value::Object(out),
        ws.limits.max_items,
        ws.limits.max_text_chars,
    )
}

/// The output key for a field named in plain words: "Full description" → "full_description".
pub fn key_of(field: &str) -> String {
    let words: Vec<String> = field
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    words.join("_")
}

/// A value of structured data as text: a name, an amount with its range and unit, or the scalar.
fn structured_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(collapse_whitespace(s)).filter(|s| !s.is_empty()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().filter_map(structured_text).collect();
            (!parts.is_empty()).then(|| parts.join(", "))
        }
        Value::Object(map) => {
            let get = |k: &str| {
                map.iter()
                    .find(|(key, _)| key.eq_ignore_ascii_case(k))
                    .and_then(|(_, v)| structured_text(v))
            };
            if let (Some(min), Some(max)) = (get("minValue"), get("maxValue")) {
                let unit = get("unitText").map(|u| format!(" per {}", u.to_lowercase()));
                let currency = map.get("currency").and_then(structured_text);
                return Some(format!(
                    "{}{min}–{max}{}",
                    currency.map(|c| format!("{c} ")).unwrap_or_default(),
                    unit.unwrap_or_default()
                ));
            }
            if let Some(inner) = get("value") {
                let currency = get("currency").map(|c| format!("{c} ")).unwrap_or_default();
                let unit = get("unitText")
                    .map(|u| format!(" per {}", u.to_lowercase()))
                    .unwrap_or_default();
                return Some(format!("{currency}{inner}{unit}"));
            }
            get("name")
                .or_else(|| get("price"))
                .or_else(|| get("addressLocality"))
                .or_else(|| get("address"))
                .or_else(|| get("text"))
        }
        Value::Null => None,
    }
}

/// The first value under a key (at any depth, `@`-keys skipped) whose normalised name is one of
/// `names`, trying the names in order.
fn from_structured(items: &[Value], names: &[String]) -> Option<String> {
    fn find<'v>(value: &'v Value, name: &str, depth: usize) -> Option<&'v Value> {
        if depth > 6 {
            return None;
        }
        match value {
            Value::Object(map) => map
                .iter()
                .filter(|(k, _)| !k.starts_with('@'))
                .find(|(k, _)| squashed(k) == name)
                .map(|(_, v)| v)
                .or_else(|| map.values().find_map(|v| find(v, name, depth + 1))),
            Value::Array(items) => items.iter().find_map(|v| find(v, name, depth + 1)),
            _ => None,
        }
    }
    names.iter().find_map(|name| {
        items
            .iter()
            .find_map(|item| find(item, name, 0).and_then(structured_text))
    })
}

fn from_itemprop(root: ElementRef<'_>, names: &[String]) -> Option<String> {
    let marked: Vec<ElementRef<'_>> = root
        .select_checked(static_selector!("[itemprop]"))
        .collect();
    names.iter().find_map(|name| {
        marked.iter().find_map(|el| {
            let prop = el.value().attr("itemprop")?;
            if !prop.split_whitespace().any(|p| squashed(p) == *name) {
                return None;
            }
            let value = el
                .value()
                .attr("content")
                .map(collapse_whitespace)
                .unwrap_or_else(|| text_capped(*el, MAX_VALUE_CHARS));
            Some(value).filter(|v| !v.is_empty())
        })
    })
}

/// An element whose class or id names the field ("sku", "product-sku", "job__salary"); its
/// text, with a leading label ("SKU:") taken off.
fn from_class(root: ElementRef<'_>, names: &[String]) -> Option<String> {
    let body = root
        .select_checked(static_selector!("body"))
        .next()
        .unwrap_or(root);
    names.iter().find_map(|name| {
        body.descendants()
            .filter_map(ElementRef::wrap)
            .filter(|el| !matches!(el.value().name(), "body" | "html" | "script" | "style"))
            .find_map(|el| {
                let v = el.value();
                let named = v.id().into_iter().chain(v.classes()).any(|c| {
                    c.split(['-', '_'])
                        .filter(|part| !part.is_empty())
                        .any(|part| squashed(part) == *name)
                        || squashed(c) == *name
                });
                if !named {
                    return None;
                }
                let text = text_capped(el, MAX_VALUE_CHARS + 1);
                if text.chars().count() > MAX_VALUE_CHARS {
                    return None;
                }
                let value = strip_label(&text, name);
                Some(value).filter(|v| !v.is_empty())
            })
    })
}

/// "SKU: AB-12" → "AB-12" when the text starts with a label naming `name`.
fn strip_label(text: &str, name: &str) -> String {
    if let Some((label, rest)) = text.split_once([':', '：'])
        && label.chars().count() <= MAX_LABEL_CHARS
        && squashed(label).contains(name)
    {
        return rest.trim().to_owned();
    }
    text.trim().to_owned()
}

fn from_meta(root: ElementRef<'_>, names: &[String]) -> Option<String> {
    if names.iter().any(|n| n == "description" || n == "summary") {
        return meta_description(root);
    }
    if names
        .iter()
        .any(|n| n == "title" || n == "name" || n == "headline")
    {
        return heading(root);
    }
    None
}

fn meta_description(root: ElementRef<'_>) -> Option<String> {
    root.select_checked(static_selector!(
        "meta[name=description], meta[property='og:description'], meta[name='twitter:description']"
    ))
    .find_map(|m| m.value().attr("content"))
    .map(collapse_whitespace)
    .filter(|d| !d.is_empty())
}

fn heading(root: ElementRef<'_>) -> Option<String> {
    root.select_checked(static_selector!("h1"))
        .map(|h| text_capped(h, 300))
        .find(|t| !t.is_empty())
        .or_else(|| {
            root.select_checked(static_selector!("title"))
                .map(|t| text_capped(t, 300))
                .find(|t| !t.is_empty())
        })
}

/// Every (label, value) the page shows: `<dt>`/`<dd>`, a row of a header cell and a data cell
/// (or of two cells), a short "Label: value" line, a `<label>`/`<strong>`/`<b>` label followed
/// by its value. In document order.
fn labelled_pairs(root: ElementRef<'_>) -> Vec<(String, String)> {
    fn next_element(el: ElementRef<'_>) -> Option<ElementRef<'_>> {
        el.next_siblings().find_map(ElementRef::wrap)
    }
    let mut out: Vec<(String, String)> = Vec::new();
    let label_text = |el: ElementRef<'_>| -> Option<String> {
        let text = text_capped(el, MAX_LABEL_CHARS + 2);
        let label = text.trim().trim_end_matches([':', '：']).trim().to_owned();
        (!label.is_empty() && label.chars().count() <= MAX_LABEL_CHARS).then_some(label)
    };
    let value_text = |el: ElementRef<'_>| -> Option<String> {
        let text = text_capped(el, MAX_VALUE_CHARS + 1);
        (!text.is_empty() && text.chars().count() <= MAX_VALUE_CHARS).then_some(text)
    };
    for el in root.select_checked(static_selector!(
        "dt, tr, li, p, div, span, label, strong, b, th"
    )) {
        match el.value().name() {
            "dt" => {
                if let (Some(label), Some(dd)) = (label_text(el), next_element(el))
                    && dd.value().name() == "dd"
                    && let Some(value) = value_text(dd)
                {
                    out.push((label, value));
                }
            }
            "tr" => {
                let cells: Vec<ElementRef<'_>> = el
                    .children()
                    .filter_map(ElementRef::wrap)
                    .filter(|c| matches!(c.value().name(), "th" | "td"))
                    .collect();
                if let [label, value] = cells.as_slice()
                    && let (Some(label), Some(value)) = (label_text(*label), value_text(*value))
                {
                    out.push((label, value));
                }
            }
            "label" | "strong" | "b" | "th" | "span" => {
                // A label element followed by its value element: <b>Salary:</b> <span>…</span>
                // or <b>Salary:</b> text in the same parent.
                let raw = text_capped(el, MAX_LABEL_CHARS + 2);
                if el.value().name() == "span" && !raw.trim_end().ends_with([':', '：']) {
                    continue;
                }
                if el.value().name() == "th" {
                    continue; // handled with its row
                }
                let Some(label) = label_text(el) else {
                    continue;
                };
                if let Some(next) = next_element(el)
                    && !matches!(next.value().name(), "br" | "dt" | "dd")
                    && let Some(value) = value_text(next)
                {
                    out.push((label, value));
                    continue;
                }
                let trailing: String = el
                    .next_siblings()
                    .take_while(|n| n.value().as_element().is_none())
                    .filter_map(|n| n.value().as_text().map(|t| t.to_string()))
                    .collect();
                let value = collapse_whitespace(&trailing);
                if !value.is_empty() && value.chars().count() <= MAX_VALUE_CHARS {
                    out.push((label, value));
                }
            }
            _ => {
                // A short line "Label: value" holding no blocks of its own.
                if el
                    .children()
                    .filter_map(ElementRef::wrap)
                    .any(|c| is_block(c.value().name()))
                {
                    continue;
                }
                let text = text_capped(el, 301);
                if text.chars().count() > 300 {
                    continue;
                }
                if let Some((label, value)) = text.split_once([':', '：'])
                    && let label = label.trim()
                    && !label.is_empty()
                    && label.chars().count() <= MAX_LABEL_CHARS
                    && label.split_whitespace().count() <= 4
                    && !label.contains("http")
                    && !value.trim().is_empty()
                    && !value.starts_with("//")
                {
                    out.push((label.to_owned(), value.trim().to_owned()));
                }
            }
        }
    }
    // The same pair is often found twice (a <b> label and its <li> line): keep the first.
    let mut seen = std::collections::HashSet::new();
    out.retain(|(label, _)| seen.insert(squashed(label)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::Page;
    use crate::tools::ToolLimits;
    use serde_json::json;
    use url::Url;

    fn run(html: &str, fields: &[&str]) -> Result<Value, ToolError> {
        let page = Page::parse(Url::parse("https://shop.example/p/1").unwrap(), html);
        let mut ws = Workspace::new(&page, ToolLimits::default());
        named_fields(
            &mut ws,
            NamedFieldsParams {
                fields: fields.iter().map(|f| (*f).to_owned()).collect(),
            },
        )
    }

    #[test]
    fn reads_labels_json_ld_itemprop_class_and_meta() {
        let html = r#"<html><head><meta name="description" content="A sturdy mug.">
            <script type="application/ld+json">{"@type":"JobPosting","title":"Baker",
              "baseSalary":{"@type":"MonetaryAmount","currency":"EUR","value":{"@type":"QuantitativeValue","minValue":30000,"maxValue":40000,"unitText":"YEAR"}}}</script>
            </head><body><h1>Blue mug</h1>
            <dl><dt>SKU</dt><dd>MUG-0042</dd><dt>Colour:</dt><dd>Blue</dd></dl>
            <span itemprop="brand">Acme</span>
            <div class="product-weight">Weight: 350 g</div>
            <p>Material: stoneware</p></body></html>"#;
        let out = run(
            html,
            &[
                "SKU",
                "salary",
                "brand",
                "weight",
                "material",
                "description",
                "colour",
                "size",
            ],
        )
        .unwrap();
        assert_eq!(
            out,
            json!({"sku": "MUG-0042", "salary": "EUR 30000–40000 per year", "brand": "Acme",
                   "weight": "350 g", "material": "stoneware", "description": "A sturdy mug.",
                   "colour": "Blue", "size": null})
        );
    }

    #[test]
    fn table_rows_and_bold_labels() {
        let html = "<body><table><tr><th>Salary</th><td>$90k</td></tr></table>\
                    <p><b>Location:</b> Berlin</p></body>";
        let out = run(html, &["salary", "location"]).unwrap();
        assert_eq!(out, json!({"salary": "$90k", "location": "Berlin"}));
    }

    #[test]
    fn no_fields_gives_every_labelled_value() {
        let html = "<head><title>T</title></head><body><h1>Blue mug</h1>\
                    <dl><dt>SKU</dt><dd>MUG-1</dd></dl><li>Weight: 3 kg</li></body>";
        let out = run(html, &[]).unwrap();
        assert_eq!(
            out,
            json!({"title": "Blue mug", "sku": "MUG-1", "weight": "3 kg"})
        );
    }

    #[test]
    fn nothing_found_fails() {
        assert!(run("<body><p>hello</p></body>", &["sku"]).is_err());
    }
}
