//! `data.*`: reshaping records (dedupe, sort, filter, columns).
//!
//! Every tool reads the working value (an array of records; when there is none yet, the
//! records of the current selection), and replaces it. When the selection maps 1:1 onto the
//! records it is reordered and cut with them, so later element tools still line up;
//! otherwise it is cleared.

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashSet};

use indexmap::IndexMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::html::element_record;
use super::registry::{Effect, Tool, ToolError, ToolParams};
use super::workspace::Workspace;
use crate::page::dom::{compile_regex, field_value, first_number};
use crate::page::money::amount_of_price_text;

/// The `data` namespace, in catalog order.
pub fn tools() -> Vec<Tool> {
    vec![
        Tool::new(
            "Drop repeated records: equal on the `by` fields (records missing all of them are kept), or equal as a whole.",
            "Array of records, first occurrences in their order.",
            Effect::Replace,
            dedupe,
        ),
        Tool::new(
            "Sort records by a field (numbers, and texts starting with a number or a currency, compare as numbers; dates and relative times like `3 hours ago` compare as moments; records without the field go last).",
            "Array of the same records, sorted (stable).",
            Effect::Replace,
            sort,
        ),
        Tool::new(
            "Keep the records whose field passes a test: eq, ne, contains, not_contains (case-insensitive), gt, gte, lt, lte (numbers as numbers, else text order; a range like 2–4 meets a bound when some number in it does), holds (a range holds the number, a single count is at least it), matches (regex), exists, missing.",
            "Array of the records that pass, in their order.",
            Effect::Replace,
            filter,
        ),
        Tool::new(
            "Keep only some fields of every record (or of the one object the working value is, such as `html.meta`'s), in the given order, optionally renamed (dotted paths like `offers.price` reach into nested objects).",
            "Array of records with exactly those fields (null where a record lacks one); an object when the working value was one object.",
            Effect::Replace,
            select_columns,
        ),
    ]
}

/// The records to work on, with the selection when it maps 1:1 onto them.
fn records<'p>(
    ws: &Workspace<'p>,
    tool: &str,
) -> Result<(Vec<Value>, Option<Vec<scraper::ElementRef<'p>>>), ToolError> {
    let records = match &ws.value {
        Value::Array(items) => items.clone(),
        Value::Null => match &ws.selection {
            Some(elements) => elements.iter().map(|el| element_record(ws, *el)).collect(),
            None => {
                return Err(ToolError::Failed(format!(
                    "{tool}: there are no records yet; select items or build records first"
                )));
            }
        },
        other => {
            return Err(ToolError::Failed(format!(
                "{tool}: the working value is {}, not a list of records",
                kind_of(other)
            )));
        }
    };
    let selection = ws
        .selection
        .clone()
        .filter(|sel| sel.len() == records.len());
    Ok((records, selection))
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "empty",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a text",
        Value::Array(_) => "a list",
        Value::Object(_) => "a single object",
    }
}

/// Keeps the records at `indices` (in that order), and the selection with them.
fn keep<'p>(
    ws: &mut Workspace<'p>,
    records: Vec<Value>,
    selection: Option<Vec<scraper::ElementRef<'p>>>,
    indices: &[usize],
) -> Value {
    ws.selection = selection.map(|sel| indices.iter().map(|i| sel[*i]).collect());
    let mut slots: Vec<Option<Value>> = records.into_iter().map(Some).collect();
    Value::Array(
        indices
            .iter()
            .filter_map(|i| slots.get_mut(*i).and_then(Option::take))
            .collect(),
    )
}

/// Params of `data.dedupe`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DedupeParams {
    /// Fields that identify a record (e.g. `["url"]`); without them, whole records are compared.
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub by: Option<Vec<String>>,
}

impl ToolParams for DedupeParams {
    const TOOL: &'static str = "data.dedupe";
}

fn dedupe(ws: &mut Workspace<'_>, params: DedupeParams) -> Result<Value, ToolError> {
    let (records, selection) = records(ws, "data.dedupe")?;
    let mut seen = HashSet::new();
    let mut kept = Vec::new();
    let mut ticker = crate::page::interrupt::Ticker::default();
    for (i, record) in records.iter().enumerate() {
        ticker.tick()?;
        let key = match &params.by {
            Some(fields) if !fields.is_empty() => {
                let values: Vec<Option<&Value>> = fields
                    .iter()
                    .map(|f| field_value(record, f).filter(|v| !v.is_null()))
                    .collect();
                // Nothing to compare by: we cannot tell it repeats anything.
                if values.iter().all(Option::is_none) {
                    kept.push(i);
                    continue;
                }
                serde_json::to_string(&values).unwrap_or_default()
            }
            _ => serde_json::to_string(record).unwrap_or_default(),
        };
        if seen.insert(key) {
            kept.push(i);
        }
    }
    Ok(keep(ws, records, selection, &kept))
}

/// Params of `data.sort`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SortParams {
    /// Field to sort by.
    #[schemars(length(min = 1))]
    pub by: String,
    /// Largest first (default false: smallest first).
    #[serde(default)]
    pub descending: bool,
}

impl ToolParams for SortParams {
    const TOOL: &'static str = "data.sort";
}

fn sort(ws: &mut Workspace<'_>, params: SortParams) -> Result<Value, ToolError> {
    let (records, selection) = records(ws, "data.sort")?;
    let order = sorted_order(&records, &params.by, params.descending);
    Ok(keep(ws, records, selection, &order))
}

/// The order of `records` by one field (see [`compare_keys`]); equal keys keep their order.
///
/// Keys are read once, against one clock reading: "3 hours ago" must mean the same moment
/// in every comparison, or the order would not be total.
pub(crate) fn sorted_order(records: &[Value], field: &str, descending: bool) -> Vec<usize> {
    let now = chrono::Utc::now().timestamp();
    let mut ticker = crate::page::interrupt::Ticker::default();
    let keys: Vec<Option<SortKey>> = records
        .iter()
        // Once interrupted, every key reads as missing: the sort ends at the cost of
        // comparing nothing, and the executor throws the order away.
        .map(|record| (!ticker.stop()).then(|| sort_key(field_value(record, field), now))?)
        .collect();
    let mut order: Vec<usize> = (0..records.len()).collect();
    order.sort_by(|a, b| compare_keys(keys[*a].as_ref(), keys[*b].as_ref(), descending));
    order
}

/// A value as a sort key: a number when it is one or reads as one.
#[derive(Debug, PartialEq)]
enum SortKey {
    Number(f64),
    Text(String),
}

/// The number a value stands for: a JSON number, a price as the one money reader reads it
/// (`$1,227.00`, `Price $ 4.99`, `1.299,00 €`, `¥1,299`), or a text that starts with a number
/// (`30 points`, `-4 °C`); `Chapter 2` is a text.
pub(crate) fn numeric(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) if let Some(amount) = amount_of_price_text(s) => Some(amount),
        // "Unlimited data" is more than any amount: it meets every "at least" and tops an order.
        Value::String(s) if is_unlimited(s) => Some(f64::INFINITY),
        // A price column's "Free" (or "Free for customers") is nothing to pay.
        Value::String(s) if crate::page::money::is_free_text(s) => Some(0.0),
        // "06:30" is 390 (minutes after midnight), not 6: a time of day compares as its
        // minutes, so "before 12:00" keeps the morning.
        Value::String(s) if let Some(minutes) = crate::page::dates::clock_minutes(s) => {
            Some(minutes)
        }
        // "1 hr 10 min" is 70 (minutes), not 1: a length of time compares as its minutes.
        Value::String(s) if let Some(minutes) = crate::page::dom::minutes(s) => Some(minutes),
        Value::String(s) => {
            // A currency sign, or an icon's arrow ("↑ 840 m"), before the number.
            let start = s
                .trim()
                .trim_start_matches(|c: char| !c.is_alphanumeric() && !matches!(c, '-' | '.'))
                .trim_start();
            let mut chars = start.chars();
            let first = chars.next()?;
            let leads = first.is_ascii_digit()
                || (first == '-' || first == '.')
                    && chars.next().is_some_and(|c| c.is_ascii_digit());
            if !leads {
                return None;
            }
            first_number(start)
        }
        _ => None,
    }
}

/// Whether a value says there is no limit ("Unlimited data", "Illimité"), in the languages the
/// lexicon reads.
fn is_unlimited(text: &str) -> bool {
    const UNLIMITED: &[&str] = &[
        "unlimited",
        "unbegrenzt",
        "illimité",
        "illimitée",
        "ilimitado",
        "ilimitados",
    ];
    text.split_whitespace()
        .next()
        .is_some_and(|first| UNLIMITED.contains(&first.to_lowercase().as_str()))
}

/// The ends of a range of counts a text value is written as ("👥 2–4"), when it names no
/// moment (a span of years is compared as dates are).
fn range(value: &Value) -> Option<(f64, f64)> {
    match value {
        Value::String(text) if moment(value, 0).is_none() => crate::page::dom::number_range(text),
        _ => None,
    }
}

/// The moment a text value names ("3 hours ago", "2026-11-26"), counted from `now`: dates
/// and relative times order and compare by it, before a number read off their first digits
/// could.
fn moment(value: &Value, now: i64) -> Option<i64> {
    match value {
        Value::String(text) => crate::page::dates::timestamp(text, now),
        _ => None,
    }
}

fn sort_key(value: Option<&Value>, now: i64) -> Option<SortKey> {
    let value = value.filter(|v| !v.is_null())?;
    if let Some(moment) = moment(value, now) {
        return Some(SortKey::Number(moment as f64));
    }
    if let Some(n) = numeric(value) {
        return Some(SortKey::Number(n));
    }
    Some(SortKey::Text(match value {
        Value::String(s) => s.trim().to_lowercase(),
        other => other.to_string(),
    }))
}

/// Orders two sort keys: numbers before texts, numbers numerically, texts case-insensitively;
/// records without the field go last whichever the direction.
fn compare_keys(a: Option<&SortKey>, b: Option<&SortKey>, descending: bool) -> Ordering {
    let ordered = |o: Ordering| if descending { o.reverse() } else { o };
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Greater,
        (Some(_), None) => Ordering::Less,
        (Some(SortKey::Number(x)), Some(SortKey::Number(y))) => {
            ordered(x.partial_cmp(y).unwrap_or(Ordering::Equal))
        }
        (Some(SortKey::Number(_)), Some(SortKey::Text(_))) => ordered(Ordering::Less),
        (Some(SortKey::Text(_)), Some(SortKey::Number(_))) => ordered(Ordering::Greater),
        (Some(SortKey::Text(x)), Some(SortKey::Text(y))) => ordered(x.cmp(y)),
    }
}

/// A `data.filter` test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FilterOp {
    /// Equal (numbers as numbers, texts exactly after trimming).
    Eq,
    /// Not equal.
    Ne,
    /// Contains the text (case-insensitive); for a list, one of its items does.
    Contains,
    /// Does not contain the text.
    NotContains,
    /// Greater than.
    Gt,
    /// Greater than or equal.
    Gte,
    /// Less than.
    Lt,
    /// Less than or equal.
    Lte,
    /// Matches the regular expression.
    Matches,
    /// The item takes the number: a range of counts ("2–4 players") holds it when it lies
    /// between the ends, a single count ("Sleeps 6") when it is no more than the count.
    Holds,
    /// The field is present and not empty.
    Exists,
    /// The field is absent, null or empty.
    Missing,
}

/// Params of `data.filter`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FilterParams {
    /// Field to test.
    #[schemars(length(min = 1))]
    pub field: String,
    /// The test.
    pub op: FilterOp,
    /// What to compare with (not needed for `exists` and `missing`).
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub value: Option<Value>,
}

impl ToolParams for FilterParams {
    const TOOL: &'static str = "data.filter";
}

fn filter(ws: &mut Workspace<'_>, params: FilterParams) -> Result<Value, ToolError> {
    let needs_value = !matches!(params.op, FilterOp::Exists | FilterOp::Missing);
    let value = params.value.clone().filter(|v| !v.is_null());
    if needs_value && value.is_none() {
        return Err(ToolError::InvalidParams(format!(
            "data.filter: `value` is required for op `{}`",
            serde_json::to_value(params.op)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default()
        )));
    }
    let regex = if params.op == FilterOp::Matches {
        let Some(Value::String(pattern)) = &value else {
            return Err(ToolError::InvalidParams(
                "data.filter: `value` must be a regular expression (a string) for op `matches`"
                    .into(),
            ));
        };
        Some(
            compile_regex(pattern)
                .map_err(|e| ToolError::InvalidParams(format!("data.filter: {e}")))?,
        )
    } else {
        None
    };
    let (records, selection) = records(ws, "data.filter")?;
    let now = chrono::Utc::now().timestamp();
    let kept: Vec<usize> = records
        .iter()
        .enumerate()
        .filter(|(_, record)| {
            passes(
                field_value(record, &params.field),
                params.op,
                value.as_ref(),
                regex.as_ref(),
                now,
            )
        })
        .map(|(i, _)| i)
        .collect();
    Ok(keep(ws, records, selection, &kept))
}

fn is_filled(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) => !s.trim().is_empty(),
        Some(Value::Array(items)) => !items.is_empty(),
        Some(Value::Object(map)) => !map.is_empty(),
        Some(_) => true,
    }
}

fn as_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.trim().to_owned(),
        other => other.to_string(),
    }
}

fn passes(
    field: Option<&Value>,
    op: FilterOp,
    value: Option<&Value>,
    regex: Option<&regex::Regex>,
    now: i64,
) -> bool {
    match op {
        FilterOp::Exists => return is_filled(field),
        FilterOp::Missing => return !is_filled(field),
        _ => {}
    }
    let (Some(field), Some(value)) = (field.filter(|f| !f.is_null()), value) else {
        // A record without the field passes only the negative tests.
        return matches!(op, FilterOp::Ne | FilterOp::NotContains);
    };
    match op {
        FilterOp::Eq => equal(field, value),
        FilterOp::Ne => !equal(field, value),
        FilterOp::Contains => contains(field, value),
        FilterOp::NotContains => !contains(field, value),
        FilterOp::Matches => regex.is_some_and(|re| match field {
            Value::Array(items) => items.iter().any(|i| re.is_match(&as_text(i))),
            other => re.is_match(&as_text(other)),
        }),
        FilterOp::Holds => match (range(field), numeric(value)) {
            (Some((low, high)), Some(n)) => low <= n && n <= high,
            _ => match (numeric(field), numeric(value)) {
                (Some(count), Some(n)) => n <= count,
                _ => false,
            },
        },
        // A range of counts meets a bound when some count in it does: a game for "2–4"
        // players is one for at least 3, and one for at most 2.
        FilterOp::Gt | FilterOp::Gte | FilterOp::Lt | FilterOp::Lte
            if let (Some((low, high)), Some(n)) = (range(field), numeric(value)) =>
        {
            match op {
                FilterOp::Gt => high > n,
                FilterOp::Gte => high >= n,
                FilterOp::Lt => low < n,
                _ => low <= n,
            }
        }
        FilterOp::Gt | FilterOp::Gte | FilterOp::Lt | FilterOp::Lte => {
            let ordering = match (moment(field, now), moment(value, now)) {
                // "posted since 24 hours ago": later is greater.
                (Some(x), Some(y)) => Some(x.cmp(&y)),
                _ => match (numeric(field), numeric(value)) {
                    (Some(x), Some(y)) => x.partial_cmp(&y),
                    (None, None) => Some(as_text(field).cmp(&as_text(value))),
                    // A number and a word do not compare.
                    _ => None,
                },
            };
            ordering.is_some_and(|o| match op {
                FilterOp::Gt => o == Ordering::Greater,
                FilterOp::Gte => o != Ordering::Less,
                FilterOp::Lt => o == Ordering::Less,
                _ => o != Ordering::Greater,
            })
        }
        FilterOp::Exists | FilterOp::Missing => false,
    }
}

fn equal(field: &Value, value: &Value) -> bool {
    match (field, value) {
        (Value::Array(items), v) if !v.is_array() => items.iter().any(|i| equal(i, v)),
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Object(_) | Value::Array(_), _) | (_, Value::Object(_) | Value::Array(_)) => {
            field == value
        }
        _ => match (numeric(field), numeric(value)) {
            (Some(x), Some(y)) if value.is_number() || field.is_number() => x == y,
            _ => as_text(field) == as_text(value),
        },
    }
}

fn contains(field: &Value, value: &Value) -> bool {
    let needle = as_text(value).to_lowercase();
    match field {
        Value::Array(items) => items
            .iter()
            .any(|i| as_text(i).to_lowercase().contains(&needle)),
        other => as_text(other).to_lowercase().contains(&needle),
    }
}

/// Params of `data.select_columns`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SelectColumnsParams {
    /// Fields to keep, in this order.
    #[schemars(length(min = 1))]
    pub columns: Vec<String>,
    /// New names for some of them: {old: new}.
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    // Kept in the order given, so a call shows it as its maker wrote it.
    #[schemars(with = "Option<BTreeMap<String, String>>")]
    pub rename: Option<IndexMap<String, String>>,
}

impl ToolParams for SelectColumnsParams {
    const TOOL: &'static str = "data.select_columns";
}

fn select_columns(ws: &mut Workspace<'_>, params: SelectColumnsParams) -> Result<Value, ToolError> {
    let rename = params.rename.unwrap_or_default();
    // The first unknown name in name order, as the message has always named it.
    if let Some(unknown) = rename.keys().filter(|k| !params.columns.contains(k)).min() {
        return Err(ToolError::InvalidParams(format!(
            "data.select_columns: `rename` names `{unknown}`, which is not one of `columns`"
        )));
    }
    let project = |record: &Value| -> Value {
        let row: Map<String, Value> = params
            .columns
            .iter()
            .map(|col| {
                let name = rename.get(col).unwrap_or(col).clone();
                (
                    name,
                    field_value(record, col).cloned().unwrap_or(Value::Null),
                )
            })
            .collect();
        Value::Object(row)
    };
    // One object (a page's metadata, a product) keeps its shape.
    if ws.value.is_object() {
        return Ok(project(&ws.value));
    }
    let (records, selection) = records(ws, "data.select_columns")?;
    if let Some(bad) = records.iter().find(|r| !r.is_object()) {
        return Err(ToolError::Failed(format!(
            "data.select_columns: the records must be objects, found {}",
            kind_of(bad)
        )));
    }
    let out: Vec<Value> = records.iter().map(project).collect();
    ws.selection = selection;
    Ok(Value::Array(out))
}

#[cfg(test)]
mod tests {
    use crate::page::Page;

    #[test]
    fn a_length_of_time_and_a_number_after_an_icon_are_read_as_numbers() {
        assert_eq!(super::numeric(&Value::from("1 hr 10 min")), Some(70.0));
        assert_eq!(super::numeric(&Value::from("↑ 840 m")), Some(840.0));
        assert_eq!(super::numeric(&Value::from("$4.99")), Some(4.99));
        assert_eq!(super::numeric(&Value::from("-4 °C")), Some(-4.0));
        assert_eq!(super::numeric(&Value::from("Chapter 2")), None);
        // A price column's "Free" is nothing to pay.
        assert_eq!(
            super::numeric(&Value::from("Free for customers")),
            Some(0.0)
        );
        // No limit is more than any amount; "unlimited" later in a text is no such value.
        assert_eq!(
            super::numeric(&Value::from("Unlimited data")),
            Some(f64::INFINITY)
        );
        assert_eq!(
            super::numeric(&Value::from("illimité")),
            Some(f64::INFINITY)
        );
        assert_eq!(super::numeric(&Value::from("Data: unlimited")), None);
    }
    use crate::tools::testkit::{SHOP, call_err, chain, page};
    use crate::tools::{Registry, ToolCall, ToolLimits, Workspace};
    use serde_json::{Value, json};

    fn records() -> Value {
        json!([
            {"name": "Ridge Runner", "price": "$129.99", "rating": 4.5, "tags": ["trail", "light"]},
            {"name": "Mud King", "price": "$1,249.00", "rating": null, "tags": ["mud"]},
            {"name": "scree pro", "price": "$89.00", "rating": 4.8, "tags": []},
            {"name": "Ridge Runner", "price": "$129.99", "rating": 4.5, "tags": ["trail", "light"]},
            {"name": "Alpine 2", "price": "$99", "rating": 3, "offers": {"seller": "Peak"}}
        ])
    }

    /// Runs one data call on `value`; returns the result (or error) and what happened to a
    /// selection of `n_selected` elements.
    fn run(value: Value, tool: &str, params: Value) -> Result<Value, String> {
        let page = Page::parse(url::Url::parse("https://x.example/").unwrap(), "<p>x</p>");
        let mut ws = Workspace::new(&page, ToolLimits::default());
        ws.value = value;
        let out = Registry::builtin().execute(&mut ws, &ToolCall::new(tool, params, ""));
        if out.success {
            Ok(out.result.unwrap())
        } else {
            Err(out.error.unwrap())
        }
    }

    fn names(v: &Value) -> Vec<&str> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap())
            .collect()
    }

    #[test]
    fn dedupe_whole_records_and_by_fields() {
        let out = run(records(), "data.dedupe", json!({})).unwrap();
        assert_eq!(
            names(&out),
            ["Ridge Runner", "Mud King", "scree pro", "Alpine 2"]
        );
        let out = run(records(), "data.dedupe", json!({"by": ["price"]})).unwrap();
        assert_eq!(
            names(&out),
            ["Ridge Runner", "Mud King", "scree pro", "Alpine 2"]
        );
        // Records without the key cannot be told apart: all are kept.
        let out = run(records(), "data.dedupe", json!({"by": ["rating"]})).unwrap();
        assert_eq!(
            names(&out),
            ["Ridge Runner", "Mud King", "scree pro", "Alpine 2"]
        );
        let out = run(json!(["a", "b", "a"]), "data.dedupe", json!({})).unwrap();
        assert_eq!(out, json!(["a", "b"]));
    }

    #[test]
    fn sort_dates_and_relative_times_as_moments() {
        let posts = json!([
            {"name": "a", "age": "3 hours ago", "on": "March 3, 2025"},
            {"name": "b", "age": "12 minutes ago", "on": "2025-11-02"},
            {"name": "c", "age": "yesterday", "on": "02/01/2025"},
            {"name": "d", "age": "2 days ago", "on": "2025-03-03T09:30:00Z"},
        ]);
        let out = run(
            posts.clone(),
            "data.sort",
            json!({"by": "age", "descending": true}),
        )
        .unwrap();
        assert_eq!(names(&out), ["b", "a", "c", "d"]);
        let out = run(posts, "data.sort", json!({"by": "on"})).unwrap();
        assert_eq!(names(&out), ["c", "a", "d", "b"]);
    }

    #[test]
    fn sort_numbers_as_numbers_missing_last() {
        let out = run(records(), "data.sort", json!({"by": "price"})).unwrap();
        assert_eq!(
            names(&out),
            [
                "scree pro",
                "Alpine 2",
                "Ridge Runner",
                "Ridge Runner",
                "Mud King"
            ]
        );
        let out = run(
            records(),
            "data.sort",
            json!({"by": "rating", "descending": true}),
        )
        .unwrap();
        assert_eq!(
            names(&out),
            [
                "scree pro",
                "Ridge Runner",
                "Ridge Runner",
                "Alpine 2",
                "Mud King"
            ]
        );
        let out = run(records(), "data.sort", json!({"by": "name"})).unwrap();
        assert_eq!(
            names(&out),
            [
                "Alpine 2",
                "Mud King",
                "Ridge Runner",
                "Ridge Runner",
                "scree pro"
            ]
        );
        // Prices as the money reader reads them, whatever the label or convention.
        let priced = json!([
            {"name": "big", "price": "$1,227.00"},
            {"name": "small", "price": "Price $ 4.99"},
            {"name": "euro", "price": "1.299,00 €"},
            {"name": "yen", "price": "¥1,299"},
            {"name": "crowns", "price": "1 234,50 kr"},
            {"name": "titled", "price": "Bike 2 with bell, now $3"}
        ]);
        let out = run(priced, "data.sort", json!({"by": "price"})).unwrap();
        assert_eq!(
            names(&out),
            ["small", "big", "crowns", "euro", "yen", "titled"]
        );
        let out = run(
            records(),
            "data.sort",
            json!({"by": "offers.seller", "descending": true}),
        )
        .unwrap();
        assert_eq!(names(&out)[0], "Alpine 2");
    }

    #[test]
    fn comparisons_of_dates_and_relative_times_compare_the_moments() {
        let posts = json!([
            {"name": "fresh", "date": "3 hours ago"},
            {"name": "old", "date": "2 days ago"},
            {"name": "dated", "date": "2001-05-04"},
            {"name": "undated", "date": "soon"},
        ]);
        let since = |value: &str| {
            let out = run(
                posts.clone(),
                "data.filter",
                json!({"field": "date", "op": "gte", "value": value}),
            )
            .unwrap();
            names(&out)
                .into_iter()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        };
        // Not "3 >= 24" read off the first digits: three hours ago is within the last day.
        assert_eq!(since("24 hours ago"), ["fresh"]);
        assert_eq!(since("7 days ago"), ["fresh", "old"]);
        assert_eq!(since("2000-01-01"), ["fresh", "old", "dated"]);
    }

    #[test]
    fn a_range_of_counts_holds_a_number_between_its_ends_and_meets_bounds_at_either_end() {
        let games = json!([
            {"name": "duel", "players": "👥 2"},
            {"name": "party", "players": "👥 4–8"},
            {"name": "family", "players": "2–5 players"},
            {"name": "solo", "players": "1"},
            {"name": "cottage", "players": "6 guests"},
        ]);
        let f = |op: &str, n: u32| {
            let params = json!({"field": "players", "op": op, "value": n});
            names(&run(games.clone(), "data.filter", params).unwrap())
                .into_iter()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        };
        // A range holds a number between its ends; a single count holds any up to it.
        assert_eq!(f("holds", 2), ["duel", "family", "cottage"]);
        assert_eq!(f("holds", 6), ["party", "cottage"]);
        assert_eq!(f("holds", 1), ["duel", "solo", "cottage"]);
        // "at least 5": a range with 5 or more in it; "at most 2": one with 2 or fewer.
        assert_eq!(f("gte", 5), ["party", "family", "cottage"]);
        assert_eq!(f("lte", 2), ["duel", "family", "solo"]);
    }

    #[test]
    fn filter_ops() {
        let f = |field: &str, op: &str, value: Value| {
            let params = if value.is_null() {
                json!({"field": field, "op": op})
            } else {
                json!({"field": field, "op": op, "value": value})
            };
            names(&run(records(), "data.filter", params).unwrap())
                .into_iter()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        };
        assert_eq!(f("name", "eq", json!("Mud King")), ["Mud King"]);
        assert_eq!(
            f("rating", "eq", json!(4.5)),
            ["Ridge Runner", "Ridge Runner"]
        );
        assert_eq!(
            f("name", "ne", json!("Ridge Runner")),
            ["Mud King", "scree pro", "Alpine 2"]
        );
        assert_eq!(
            f("name", "contains", json!("RIDGE")),
            ["Ridge Runner", "Ridge Runner"]
        );
        assert_eq!(f("tags", "contains", json!("mud")), ["Mud King"]);
        assert_eq!(
            f("name", "not_contains", json!("r")),
            ["Mud King", "Alpine 2"]
        );
        assert_eq!(f("price", "lt", json!(100)), ["scree pro", "Alpine 2"]);
        assert_eq!(
            f("price", "gte", json!("129.99")),
            ["Ridge Runner", "Mud King", "Ridge Runner"]
        );
        assert_eq!(
            f("rating", "gt", json!(4)),
            ["Ridge Runner", "scree pro", "Ridge Runner"]
        );
        assert_eq!(f("rating", "lte", json!(3)), ["Alpine 2"]);
        assert_eq!(
            f("name", "matches", json!("^[A-Z][a-z]+ [A-Z]")),
            ["Ridge Runner", "Mud King", "Ridge Runner"]
        );
        assert_eq!(f("rating", "missing", Value::Null), ["Mud King"]);
        assert_eq!(
            f("tags", "exists", Value::Null),
            ["Ridge Runner", "Mud King", "Ridge Runner"]
        );
    }

    #[test]
    fn filter_errors() {
        assert_eq!(
            run(
                records(),
                "data.filter",
                json!({"field": "name", "op": "eq"})
            )
            .unwrap_err(),
            "data.filter: `value` is required for op `eq`"
        );
        assert!(
            run(
                records(),
                "data.filter",
                json!({"field": "name", "op": "like", "value": "x"})
            )
            .unwrap_err()
            .starts_with("data.filter:")
        );
        assert!(
            run(
                records(),
                "data.filter",
                json!({"field": "name", "op": "matches", "value": "("})
            )
            .unwrap_err()
            .starts_with("data.filter: invalid regular expression")
        );
        assert_eq!(
            run(
                json!({"a": 1}),
                "data.filter",
                json!({"field": "a", "op": "exists"})
            )
            .unwrap_err(),
            "data.filter: the working value is a single object, not a list of records"
        );
        assert!(
            run(Value::Null, "data.sort", json!({"by": "a"}))
                .unwrap_err()
                .contains("no records yet")
        );
    }

    #[test]
    fn select_columns_orders_and_renames() {
        let out = run(records(), "data.select_columns", json!({"columns": ["price", "name", "offers.seller"], "rename": {"offers.seller": "seller"}})).unwrap();
        assert_eq!(
            out[4],
            json!({"price": "$99", "name": "Alpine 2", "seller": "Peak"})
        );
        assert_eq!(
            out[0],
            json!({"price": "$129.99", "name": "Ridge Runner", "seller": null})
        );
        assert_eq!(
            run(
                records(),
                "data.select_columns",
                json!({"columns": ["name"], "rename": {"price": "p"}})
            )
            .unwrap_err(),
            "data.select_columns: `rename` names `price`, which is not one of `columns`"
        );
        assert!(
            run(records(), "data.select_columns", json!({"columns": []}))
                .unwrap_err()
                .starts_with("data.select_columns:")
        );
        assert!(
            run(
                json!(["a"]),
                "data.select_columns",
                json!({"columns": ["a"]})
            )
            .unwrap_err()
            .contains("must be objects")
        );
    }

    #[test]
    fn selection_follows_the_records() {
        let shop = page(SHOP, "https://northwind.example/shoes/trail");
        let (results, answer) = chain(
            &shop,
            &[
                (
                    "extract.fields",
                    json!({"selector": "li.product", "fields": {"name": "h2", "price": ".price"}}),
                ),
                ("data.sort", json!({"by": "price", "descending": true})),
                (
                    "data.filter",
                    json!({"field": "price", "op": "contains", "value": "$"}),
                ),
                ("html.images", json!({"within": true})),
            ],
        );
        assert!(results.iter().all(|r| r.success), "{results:?}");
        assert_eq!(
            answer,
            json!([
                {"src": "https://northwind.example/img/mud-king-800.jpg", "alt": "Mud King", "width": 300},
                {"src": "https://northwind.example/img/ridge-runner.jpg", "alt": "Ridge Runner", "width": 300, "height": 200}
            ])
        );
        // On a selection alone (no records yet) the tools read the elements' records.
        let (_, answer) = chain(
            &shop,
            &[
                ("html.select", json!({"selector": "li.product h2"})),
                (
                    "data.filter",
                    json!({"field": "text", "op": "contains", "value": "king"}),
                ),
            ],
        );
        assert_eq!(
            answer,
            json!([{"text": "Mud King", "url": "https://northwind.example/p/mud-king"}])
        );
        assert!(call_err(&shop, "data.dedupe", json!({})).contains("no records yet"));
    }
}
