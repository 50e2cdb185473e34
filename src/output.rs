//! Rendering the answers of a run as json, csv, markdown or text.

use serde::Serialize;
use serde_json::{Map, Value};

/// The output formats a client can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OutputFormat {
    /// Pretty JSON of the answers keyed by URL.
    Json,
    /// One CSV table of every record (a `url` column first when there are several URLs).
    Csv,
    /// Markdown: a table per URL for records, a list for objects.
    Markdown,
    /// Plain text.
    Text,
}

impl OutputFormat {
    /// Parses a format name.
    pub fn parse(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "json" => Some(Self::Json),
            "csv" => Some(Self::Csv),
            "markdown" | "md" => Some(Self::Markdown),
            "text" | "txt" => Some(Self::Text),
            _ => None,
        }
    }

    /// The format's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Json => "json",
            Self::Csv => "csv",
            Self::Markdown => "markdown",
            Self::Text => "text",
        }
    }
}

/// Renders the answers (keyed by URL, in request order).
pub fn render(format: OutputFormat, answers: &Map<String, Value>) -> String {
    match format {
        OutputFormat::Json => serde_json::to_string_pretty(answers).unwrap_or_default(),
        OutputFormat::Csv => csv_of(answers),
        OutputFormat::Markdown => markdown_of(answers),
        OutputFormat::Text => text_of(answers),
    }
}

/// Records of an answer: arrays of objects as they are; an object as one record; scalars
/// as `{value}`.
fn records(answer: &Value) -> Vec<Map<String, Value>> {
    match answer {
        Value::Array(items) => items
            .iter()
            .map(|item| match item {
                Value::Object(map) => map.clone(),
                other => Map::from_iter([("value".to_owned(), other.clone())]),
            })
            .collect(),
        Value::Object(map) => vec![map.clone()],
        Value::Null => Vec::new(),
        other => vec![Map::from_iter([("value".to_owned(), other.clone())])],
    }
}

/// Column names in first-seen order.
fn columns<'a>(rows: impl Iterator<Item = &'a Map<String, Value>>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for row in rows {
        for key in row.keys() {
            if !out.contains(key) {
                out.push(key.clone());
            }
        }
    }
    out
}

/// A cell: strings as they are, null empty, anything else as compact JSON.
fn cell(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

fn csv_of(answers: &Map<String, Value>) -> String {
    let several = answers.len() > 1;
    let rows: Vec<(&String, Map<String, Value>)> = answers
        .iter()
        .flat_map(|(url, a)| records(a).into_iter().map(move |r| (url, r)))
        .collect();
    let mut header = columns(rows.iter().map(|(_, r)| r));
    if several {
        header.insert(0, "url".into());
    }
    let mut writer = csv::Writer::from_writer(Vec::new());
    let _ = writer.write_record(&header);
    for (url, row) in &rows {
        let line: Vec<String> = header
            .iter()
            .enumerate()
            .map(|(i, col)| {
                if several && i == 0 {
                    (*url).clone()
                } else {
                    cell(row.get(col))
                }
            })
            .collect();
        let _ = writer.write_record(&line);
    }
    writer
        .into_inner()
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .unwrap_or_default()
}

fn markdown_cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

fn markdown_of(answers: &Map<String, Value>) -> String {
    let mut out = String::new();
    for (url, answer) in answers {
        out.push_str(&format!("## {url}\n\n"));
        match answer {
            Value::String(text) => out.push_str(text),
            Value::Object(map) => {
                for (key, value) in map {
                    out.push_str(&format!(
                        "- **{key}**: {}\n",
                        markdown_cell(&cell(Some(value)))
                    ));
                }
            }
            _ => {
                let rows = records(answer);
                if rows.is_empty() {
                    out.push_str("_No data._\n");
                } else {
                    let header = columns(rows.iter());
                    out.push_str(&format!("| {} |\n", header.join(" | ")));
                    out.push_str(&format!("|{}\n", " --- |".repeat(header.len())));
                    for row in &rows {
                        let cells: Vec<String> = header
                            .iter()
                            .map(|c| markdown_cell(&cell(row.get(c))))
                            .collect();
                        out.push_str(&format!("| {} |\n", cells.join(" | ")));
                    }
                }
            }
        }
        out.push('\n');
    }
    out.trim_end().to_owned() + "\n"
}

fn text_of(answers: &Map<String, Value>) -> String {
    let mut out = String::new();
    for (url, answer) in answers {
        out.push_str(url);
        out.push('\n');
        match answer {
            Value::String(text) => {
                out.push_str(text);
                out.push('\n');
            }
            _ => {
                for (i, row) in records(answer).iter().enumerate() {
                    let parts: Vec<String> = row
                        .iter()
                        .filter(|(_, v)| !v.is_null())
                        .map(|(k, v)| format!("{k}: {}", cell(Some(v))))
                        .collect();
                    out.push_str(&format!("{}. {}\n", i + 1, parts.join(" | ")));
                }
            }
        }
        out.push('\n');
    }
    out.trim_end().to_owned() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answers() -> Map<String, Value> {
        json!({"https://a.example/": [{"title": "One, with comma", "points": 3}, {"title": "Two", "points": null}]})
            .as_object()
            .unwrap()
            .clone()
    }

    #[test]
    fn csv_quotes_and_orders_columns() {
        assert_eq!(
            render(OutputFormat::Csv, &answers()),
            "title,points\n\"One, with comma\",3\nTwo,\n"
        );
    }

    #[test]
    fn markdown_table() {
        let md = render(OutputFormat::Markdown, &answers());
        assert!(
            md.contains("| title | points |\n| --- | --- |\n| One, with comma | 3 |\n| Two |  |"),
            "{md}"
        );
    }

    #[test]
    fn text_lists_records() {
        assert!(
            render(OutputFormat::Text, &answers())
                .contains("1. title: One, with comma | points: 3\n2. title: Two\n")
        );
    }
}
