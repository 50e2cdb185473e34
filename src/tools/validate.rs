//! `validate.*`: checking records (completeness, JSON Schema).
//!
//! Both tools only report: the working value stays, so a plan can check and carry on.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::registry::{Effect, Tool, ToolError, ToolParams};
use super::workspace::Workspace;
use crate::page::dom::field_value;

/// The `validate` namespace, in catalog order.
pub fn tools() -> Vec<Tool> {
    vec![
        Tool::new(
            "How complete the records are: the share of filled cells over the given fields (default: every field seen).",
            "{score (0..1), records, complete_records, missing: {field: count of records where it is null, empty or absent}}.",
            Effect::Observe,
            completeness,
        ),
        Tool::new(
            "Check every record (or the value, when it is not a list) against a JSON Schema.",
            "{valid, records, errors: [{index, path, message}]} (index: the record's position).",
            Effect::Observe,
            schema,
        ),
    ]
}

/// The records to check: the list, or a single object as a list of one.
fn records<'v>(value: &'v Value, tool: &str) -> Result<Vec<&'v Value>, ToolError> {
    match value {
        Value::Array(items) => Ok(items.iter().collect()),
        Value::Object(_) => Ok(vec![value]),
        Value::Null => Err(ToolError::Failed(format!(
            "{tool}: there is nothing to check yet; build records first"
        ))),
        _ => Err(ToolError::Failed(format!(
            "{tool}: the working value is not a record or a list of records"
        ))),
    }
}

/// Params of `validate.completeness`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CompletenessParams {
    /// Fields to check (dotted paths reach into nested objects); default: every field seen.
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub fields: Option<Vec<String>>,
}

impl ToolParams for CompletenessParams {
    const TOOL: &'static str = "validate.completeness";
}

fn filled(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) => !s.trim().is_empty(),
        Some(Value::Array(items)) => !items.is_empty(),
        Some(Value::Object(map)) => !map.is_empty(),
        Some(_) => true,
    }
}

fn completeness(ws: &mut Workspace<'_>, params: CompletenessParams) -> Result<Value, ToolError> {
    let records = records(&ws.value, "validate.completeness")?;
    let fields: Vec<String> = match params.fields.filter(|f| !f.is_empty()) {
        Some(fields) => fields.into_iter().take(ws.limits.max_items).collect(),
        None => {
            let mut seen: Vec<String> = Vec::new();
            for record in &records {
                if let Value::Object(map) = record {
                    for key in map.keys() {
                        if seen.len() < ws.limits.max_items && !seen.contains(key) {
                            seen.push(key.clone());
                        }
                    }
                }
            }
            seen
        }
    };
    let mut missing: Map<String, Value> = Map::new();
    let mut filled_cells = 0usize;
    let mut complete = 0usize;
    let mut counts = vec![0usize; fields.len()];
    for record in &records {
        let mut all = true;
        for (i, field) in fields.iter().enumerate() {
            if filled(field_value(record, field)) {
                filled_cells += 1;
            } else {
                counts[i] += 1;
                all = false;
            }
        }
        complete += usize::from(all);
    }
    for (field, count) in fields.iter().zip(counts) {
        missing.insert(field.clone(), json!(count));
    }
    let cells = records.len() * fields.len();
    #[allow(
        clippy::cast_precision_loss,
        reason = "a ratio of counts; exactness is not needed"
    )]
    let score = if cells == 0 {
        0.0
    } else {
        (filled_cells as f64 / cells as f64 * 10_000.0).round() / 10_000.0
    };
    Ok(json!({
        "score": score,
        "records": records.len(),
        "complete_records": complete,
        "missing": missing,
    }))
}

/// Params of `validate.schema`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SchemaParams {
    /// A JSON Schema every record must satisfy (no remote `$ref`s).
    pub schema: Value,
}

impl ToolParams for SchemaParams {
    const TOOL: &'static str = "validate.schema";
}

/// Error messages quote the offending value; a page's text can be long.
const MAX_MESSAGE_CHARS: usize = 300;

fn schema(ws: &mut Workspace<'_>, params: SchemaParams) -> Result<Value, ToolError> {
    // The regex engine, not the default backtracking one: a schema's `pattern` comes from a
    // client or a model and must not be able to hang the tool.
    let validator = jsonschema::options()
        .with_pattern_options(
            jsonschema::PatternOptions::regex()
                .size_limit(1 << 20)
                .dfa_size_limit(2 << 20),
        )
        .build(&params.schema)
        .map_err(|e| {
            ToolError::InvalidParams(format!(
                "validate.schema: invalid JSON Schema: {}",
                short(&e.to_string(), MAX_MESSAGE_CHARS)
            ))
        })?;
    let (checked, is_list): (Vec<&Value>, bool) = match &ws.value {
        Value::Array(items) => (items.iter().collect(), true),
        Value::Null => {
            return Err(ToolError::Failed(
                "validate.schema: there is nothing to check yet; build records first".into(),
            ));
        }
        other => (vec![other], false),
    };
    let mut errors = Vec::new();
    let mut invalid_records = 0usize;
    for (index, record) in checked.iter().enumerate() {
        let mut any = false;
        for err in validator.iter_errors(record) {
            any = true;
            if errors.len() >= ws.limits.max_items {
                break;
            }
            errors.push(json!({
                "index": if is_list { json!(index) } else { Value::Null },
                "path": short(&err.instance_path().to_string(), ws.limits.max_text_chars),
                "message": short(&err.to_string(), ws.limits.max_text_chars),
            }));
        }
        invalid_records += usize::from(any);
    }
    Ok(json!({
        "valid": invalid_records == 0,
        "records": checked.len(),
        "invalid_records": invalid_records,
        "errors": errors,
    }))
}

fn short(text: &str, max_chars: usize) -> String {
    let cap = MAX_MESSAGE_CHARS.min(max_chars);
    if text.chars().count() <= cap {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(cap.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use crate::page::Page;
    use crate::tools::{Registry, ToolCall, ToolLimits, Workspace};
    use serde_json::{Value, json};

    fn run(value: Value, tool: &str, params: Value) -> (Result<Value, String>, Value) {
        let page = Page::parse(url::Url::parse("https://x.example/").unwrap(), "<p>x</p>");
        let mut ws = Workspace::new(&page, ToolLimits::default());
        ws.value = value;
        let out = Registry::builtin().execute(&mut ws, &ToolCall::new(tool, params, ""));
        let result = if out.success {
            Ok(out.result.unwrap())
        } else {
            Err(out.error.unwrap())
        };
        (result, ws.value)
    }

    fn records() -> Value {
        json!([
            {"name": "A", "price": 10, "url": "https://x.example/a"},
            {"name": "B", "price": null, "url": ""},
            {"name": " ", "price": "12", "sku": "S-1"}
        ])
    }

    #[test]
    fn completeness_over_all_fields_and_given_fields() {
        let (out, value) = run(records(), "validate.completeness", json!({}));
        assert_eq!(
            out.unwrap(),
            json!({"score": 0.5, "records": 3, "complete_records": 0, "missing": {"name": 1, "price": 1, "url": 2, "sku": 2}})
        );
        // Observe: the records stay the working value.
        assert_eq!(value, records());
        let (out, _) = run(
            records(),
            "validate.completeness",
            json!({"fields": ["price"]}),
        );
        assert_eq!(
            out.unwrap(),
            json!({"score": 0.6667, "records": 3, "complete_records": 2, "missing": {"price": 1}})
        );
        let (out, _) = run(json!([]), "validate.completeness", json!({}));
        assert_eq!(
            out.unwrap(),
            json!({"score": 0.0, "records": 0, "complete_records": 0, "missing": {}})
        );
        let (out, _) = run(Value::Null, "validate.completeness", json!({}));
        assert!(out.unwrap_err().contains("nothing to check"));
    }

    #[test]
    fn schema_reports_each_record() {
        let schema = json!({
            "type": "object",
            "required": ["name", "url"],
            "properties": {"price": {"type": "number"}, "url": {"type": "string", "pattern": "^https://"}}
        });
        let (out, _) = run(records(), "validate.schema", json!({"schema": schema}));
        assert_eq!(
            out.unwrap(),
            json!({
                "valid": false, "records": 3, "invalid_records": 2,
                "errors": [
                    {"index": 1, "path": "/price", "message": "null is not of type \"number\""},
                    {"index": 1, "path": "/url", "message": "\"\" does not match \"^https://\""},
                    {"index": 2, "path": "", "message": "\"url\" is a required property"},
                    {"index": 2, "path": "/price", "message": "\"12\" is not of type \"number\""}
                ]
            })
        );
        let (out, _) = run(
            json!({"name": "A"}),
            "validate.schema",
            json!({"schema": {"required": ["name"]}}),
        );
        assert_eq!(
            out.unwrap(),
            json!({"valid": true, "records": 1, "invalid_records": 0, "errors": []})
        );
    }

    #[test]
    fn bad_schemas_fail_clearly_and_patterns_cannot_backtrack() {
        let (out, _) = run(
            records(),
            "validate.schema",
            json!({"schema": {"type": "nonsense"}}),
        );
        assert!(
            out.unwrap_err()
                .starts_with("validate.schema: invalid JSON Schema")
        );
        let (out, _) = run(
            records(),
            "validate.schema",
            json!({"schema": {"$ref": "https://schemas.example/x.json"}}),
        );
        assert!(
            out.unwrap_err()
                .starts_with("validate.schema: invalid JSON Schema")
        );
        // Look-around needs a backtracking engine; ours refuses it instead of risking a hang.
        let (out, _) = run(
            records(),
            "validate.schema",
            json!({"schema": {"properties": {"name": {"pattern": "(?=a)a"}}}}),
        );
        assert!(
            out.unwrap_err()
                .starts_with("validate.schema: invalid JSON Schema")
        );
        let (out, _) = run(
            json!([{"name": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"}]),
            "validate.schema",
            json!({"schema": {"properties": {"name": {"pattern": "^(a+)+$"}}}}),
        );
        assert_eq!(out.unwrap()["valid"], json!(false));
    }
}
