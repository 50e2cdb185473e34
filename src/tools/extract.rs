//! `extract.*`: turning the selection and the page into records and facts.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use scraper::ElementRef;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::dom::{first_number, parse_selector, text_of};
use super::html::{attribute_value, element_record};
use super::registry::{Effect, Tool, ToolError};
use super::workspace::Workspace;

/// The `extract` namespace, in catalog order.
pub fn tools() -> Vec<Tool> {
    vec![
        Tool::new(
            "extract.fields",
            "Build one record per selected element from a map of field → spec (`css`, `css@attr`, `@attr`, `.` for the element's own text, a leading `+` to look in the next sibling element).",
            "Array of records (objects with the requested fields; a field not found is null; records with no field found are dropped).",
            Effect::Replace,
            fields,
        ),
        Tool::new(
            "extract.top_n",
            "Keep the first n records, optionally sorted by a field (numbers compare as numbers).",
            "Array of at most n records.",
            Effect::Replace,
            top_n,
        ),
    ]
}

/// How to read one field from an item.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum FieldSpec {
    /// `css` (text), `css@attr`, `@attr`, `.` (own text); prefix `+` searches the next sibling.
    Short(String),
    /// The long form.
    Full(FullFieldSpec),
}

/// The long form of a field spec.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FullFieldSpec {
    /// CSS selector inside the item; empty or `.` for the item itself.
    #[serde(default)]
    pub selector: String,
    /// Attribute to read instead of the text.
    #[serde(default)]
    pub attr: Option<String>,
    /// `text` (default), `number` (first number in the text), `html` (inner HTML) or `list` (all matches' texts).
    #[serde(default)]
    pub kind: FieldKind,
    /// Look in the item's next sibling element (rows split over two `<tr>`s, `<dt>`/`<dd>` pairs).
    #[serde(default)]
    pub next_sibling: bool,
}

/// What to produce from a matched element.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FieldKind {
    /// Collapsed text (or the attribute).
    #[default]
    Text,
    /// The first number in the text.
    Number,
    /// Inner HTML.
    Html,
    /// Texts of every match.
    List,
}

impl FieldSpec {
    /// Normalises both forms into the long one.
    pub fn to_full(&self) -> FullFieldSpec {
        match self {
            Self::Full(full) => full.clone(),
            Self::Short(short) => {
                let mut spec = short.trim();
                let next_sibling = spec.starts_with('+');
                if next_sibling {
                    spec = spec[1..].trim_start();
                }
                let (selector, attr) = match spec.rsplit_once('@') {
                    // `a[href^="mailto:x@y"]` is a selector, not an attribute read.
                    Some((sel, attr)) if !attr.contains([']', ' ', '"', '\'']) => {
                        (sel.trim(), Some(attr.trim().to_owned()))
                    }
                    _ => (spec, None),
                };
                FullFieldSpec {
                    selector: selector.to_owned(),
                    attr,
                    kind: FieldKind::Text,
                    next_sibling,
                }
            }
        }
    }
}

/// Params of `extract.fields`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FieldsParams {
    /// Field name → spec. Keys keep their order in the records.
    pub fields: BTreeMap<String, FieldSpec>,
    /// Select the items first with this CSS selector (otherwise the current selection is used).
    #[serde(default)]
    pub selector: Option<String>,
    /// Order of the fields in each record (defaults to the order of `fields`' keys, sorted).
    #[serde(default)]
    pub order: Option<Vec<String>>,
}

fn fields(ws: &mut Workspace<'_>, params: FieldsParams) -> Result<Value, ToolError> {
    if params.fields.is_empty() {
        return Err(ToolError::InvalidParams(
            "extract.fields: `fields` is empty".into(),
        ));
    }
    if let Some(css) = &params.selector {
        let selector = parse_selector(css)
            .map_err(|e| ToolError::InvalidParams(format!("extract.fields: {e}")))?;
        let found: Vec<_> = ws
            .page
            .document
            .select(&selector)
            .take(ws.limits.max_items)
            .collect();
        ws.selection = Some(found);
    }
    let Some(items) = ws.selection.clone() else {
        return Err(ToolError::Failed(
            "extract.fields: nothing is selected; call html.select first or pass `selector`".into(),
        ));
    };
    let mut compiled = Vec::new();
    for (name, spec) in &params.fields {
        let full = spec.to_full();
        let selector = match full.selector.trim() {
            "" | "." => None,
            css => Some(parse_selector(css).map_err(|e| {
                ToolError::InvalidParams(format!("extract.fields: field `{name}`: {e}"))
            })?),
        };
        compiled.push((name.clone(), full, selector));
    }
    let order: Vec<String> = params
        .order
        .clone()
        .unwrap_or_else(|| params.fields.keys().cloned().collect());
    let mut records = Vec::new();
    let mut kept = Vec::new();
    for item in items {
        let mut record = Map::new();
        let mut found_any = false;
        for (name, spec, selector) in &compiled {
            let value = read_field(ws, item, spec, selector.as_ref());
            found_any |= !value.is_null();
            record.insert(name.clone(), value);
        }
        if found_any {
            records.push(Value::Object(ordered(record, &order)));
            kept.push(item);
        }
    }
    ws.selection = Some(kept);
    Ok(Value::Array(records))
}

fn ordered(mut record: Map<String, Value>, order: &[String]) -> Map<String, Value> {
    let mut out = Map::new();
    for key in order {
        if let Some(v) = record.remove(key) {
            out.insert(key.clone(), v);
        }
    }
    out.extend(record);
    out
}

fn read_field(
    ws: &Workspace<'_>,
    item: ElementRef<'_>,
    spec: &FullFieldSpec,
    selector: Option<&scraper::Selector>,
) -> Value {
    let base = if spec.next_sibling {
        match item.next_siblings().find_map(ElementRef::wrap) {
            Some(sibling) => sibling,
            None => return Value::Null,
        }
    } else {
        item
    };
    let matches: Vec<ElementRef<'_>> = match selector {
        None => vec![base],
        Some(sel) => base.select(sel).take(ws.limits.max_items).collect(),
    };
    if spec.kind == FieldKind::List {
        let texts: Vec<Value> = matches
            .iter()
            .map(|el| Value::String(text_of(*el)))
            .filter(|v| v != &Value::String(String::new()))
            .collect();
        return if texts.is_empty() {
            Value::Null
        } else {
            Value::Array(texts)
        };
    }
    let Some(el) = matches.first() else {
        return Value::Null;
    };
    let raw = match &spec.attr {
        Some(attr) => match el.value().attr(attr) {
            Some(v) => attribute_value(ws, attr, v),
            None => return Value::Null,
        },
        None if spec.kind == FieldKind::Html => el.inner_html(),
        None => text_of(*el),
    };
    if raw.is_empty() {
        return Value::Null;
    }
    match spec.kind {
        FieldKind::Number => first_number(&raw)
            .and_then(serde_json::Number::from_f64)
            .map_or(Value::Null, |n| {
                // Whole numbers print as integers: 42, not 42.0.
                if n.as_f64()
                    .is_some_and(|f| f.fract() == 0.0 && f.abs() < 9e15)
                {
                    #[allow(clippy::cast_possible_truncation)]
                    Value::from(n.as_f64().unwrap_or_default() as i64)
                } else {
                    Value::Number(n)
                }
            }),
        _ => Value::String(ws.cap_text(raw)),
    }
}

/// Params of `extract.top_n`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TopNParams {
    /// How many records to keep.
    #[schemars(range(min = 1))]
    pub n: usize,
    /// Sort by this field first (numbers compare as numbers; records without it go last).
    #[serde(default)]
    pub sort_by: Option<String>,
    /// Sort largest first (default true).
    #[serde(default = "yes")]
    pub descending: bool,
}

fn yes() -> bool {
    true
}

fn top_n(ws: &mut Workspace<'_>, params: TopNParams) -> Result<Value, ToolError> {
    let mut records = match &ws.value {
        Value::Array(items) => items.clone(),
        _ => match &ws.selection {
            Some(elements) => elements.iter().map(|el| element_record(ws, *el)).collect(),
            None => {
                return Err(ToolError::Failed(
                    "extract.top_n: there is no list to cut; select items or build records first"
                        .into(),
                ));
            }
        },
    };
    let mut selection = ws
        .selection
        .clone()
        .filter(|sel| sel.len() == records.len());
    if let Some(field) = &params.sort_by {
        let mut indexed: Vec<(usize, Value)> = records.into_iter().enumerate().collect();
        indexed.sort_by(|(_, a), (_, b)| {
            let ord = compare_field(a.get(field), b.get(field));
            if params.descending {
                ord.reverse()
            } else {
                ord
            }
        });
        if let Some(sel) = selection.as_mut() {
            *sel = indexed.iter().map(|(i, _)| sel[*i]).collect();
        }
        records = indexed.into_iter().map(|(_, v)| v).collect();
    }
    records.truncate(params.n);
    if let Some(mut sel) = selection {
        sel.truncate(params.n);
        ws.selection = Some(sel);
    }
    Ok(Value::Array(records))
}

/// Orders two field values: present before missing, numbers numerically, else as text.
fn compare_field(a: Option<&Value>, b: Option<&Value>) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let key = |v: Option<&Value>| -> Option<(Option<f64>, String)> {
        let v = v.filter(|v| !v.is_null())?;
        let text = match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        Some((v.as_f64().or_else(|| first_number(&text)), text))
    };
    match (key(a), key(b)) {
        // Missing values sort as the smallest, so they end up last when descending.
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some((Some(x), _)), Some((Some(y), _))) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
        (Some((_, x)), Some((_, y))) => x.cmp(&y),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::{Page, Registry, ToolCall, ToolLimits};
    use serde_json::json;

    const LISTING: &str = r#"<table>
      <tr class="athing"><td><a class="t" href="/1">One</a></td></tr><tr><td><span class="score">10 points</span></td></tr>
      <tr class="athing"><td><a class="t" href="/2">Two</a></td></tr><tr><td><span class="score">30 points</span></td></tr>
      <tr class="athing"><td><a class="t" href="/3">Three</a></td></tr><tr><td><span class="score">20 points</span></td></tr>
    </table>"#;

    fn run(calls: &[ToolCall]) -> (Value, Vec<crate::tools::ToolCallResult>) {
        let page = Page::parse(url::Url::parse("https://news.example/").unwrap(), LISTING);
        let registry = Registry::builtin();
        let mut ws = Workspace::new(&page, ToolLimits::default());
        let results = calls.iter().map(|c| registry.execute(&mut ws, c)).collect();
        (ws.answer(), results)
    }

    #[test]
    fn fields_read_text_attributes_and_next_sibling() {
        let (answer, results) = run(&[
            ToolCall::new("html.select", json!({"selector": "tr.athing"}), ""),
            ToolCall::new(
                "extract.fields",
                json!({"fields": {"title": "a.t", "url": "a.t@href", "points": {"selector": ".score", "kind": "number", "next_sibling": true}}, "order": ["title", "url", "points"]}),
                "",
            ),
        ]);
        assert!(results.iter().all(|r| r.success), "{results:?}");
        assert_eq!(
            answer[1],
            json!({"title": "Two", "url": "https://news.example/2", "points": 30})
        );
        assert_eq!(answer.as_array().unwrap().len(), 3);
    }

    #[test]
    fn top_n_sorts_numerically_and_cuts() {
        let (answer, _) = run(&[
            ToolCall::new(
                "extract.fields",
                json!({"selector": "tr.athing", "fields": {"title": "a.t", "points": "+.score"}}),
                "",
            ),
            ToolCall::new("extract.top_n", json!({"n": 2, "sort_by": "points"}), ""),
        ]);
        assert_eq!(
            answer,
            json!([{"points": "30 points", "title": "Two"}, {"points": "20 points", "title": "Three"}])
        );
    }

    #[test]
    fn fields_without_selection_is_a_clear_failure() {
        let (_, results) = run(&[ToolCall::new(
            "extract.fields",
            json!({"fields": {"a": "a"}}),
            "",
        )]);
        assert!(
            results[0]
                .error
                .as_deref()
                .unwrap()
                .contains("nothing is selected")
        );
    }
}
