//! Fields the user named, as columns of the records the one list engine found: "name and
//! price", "title, author and link" are read from the same records as "every item", each field
//! filled from the column that matches it by an ordered table of named rules, and `null` where
//! the records have nothing for it — never dropped.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::page::dates::timestamp;
use crate::page::money::is_price_text;
use crate::read::records::{Column, ColumnKind, NameSource};

/// What a named field is, as far as its values show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FieldRole {
    /// The item's name or headline.
    Title,
    /// A link to the item.
    Url,
    /// Points, votes, a rating.
    Score,
    /// A price.
    Price,
    /// A picture.
    Image,
    /// A date or time.
    Date,
    /// Who wrote or posted it.
    Author,
    /// A count of comments.
    Comments,
    /// Its description or own words.
    Description,
    /// Anything else: matched by name only.
    Text,
}

/// A field the user named.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WantedField {
    /// The key in the answer (the user's own word).
    pub name: String,
    /// What it is.
    #[serde(default = "text_role")]
    pub role: FieldRole,
    /// Column names that mean it (the planner's words for the role: `writer`, `byline`, `by`).
    #[serde(default)]
    pub words: Vec<String>,
}

fn text_role() -> FieldRole {
    FieldRole::Text
}

/// Which column filled a field, and by which rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldSource {
    /// The field.
    pub field: String,
    /// The column, or None when no column has it.
    pub column: Option<String>,
    /// The rule that chose it.
    pub rule: Option<&'static str>,
}

/// What a column is made of, for the rules.
struct ColumnView<'a> {
    column: &'a Column,
    /// Its filled values, as text.
    values: Vec<String>,
}

impl ColumnView<'_> {
    /// The column's name without the `_2` that tells repeated names apart.
    fn base_name(&self) -> &str {
        let name = self.column.name.as_str();
        match name.rsplit_once('_') {
            Some((base, n)) if n.chars().all(|c| c.is_ascii_digit()) => base,
            _ => name,
        }
    }

    /// Whether most of its values pass `test`.
    fn mostly(&self, test: impl Fn(&str) -> bool) -> bool {
        !self.values.is_empty()
            && self.values.iter().filter(|v| test(v)).count() * 2 > self.values.len()
    }
}

type Rule = fn(&WantedField, &ColumnView<'_>) -> bool;

/// The rules, in order: the first rule any unused column passes chooses it.
const RULES: &[(&str, Rule)] = &[
    ("same_name", |field, column| {
        normalised(&column.column.name) == normalised(&field.name)
    }),
    ("word_for_the_role", |field, column| {
        let base = normalised(column.base_name());
        field.words.iter().any(|w| normalised(w) == base)
    }),
    ("value_kind", |field, column| match field.role {
        FieldRole::Url => column.column.kind == ColumnKind::Url && column.base_name() == "url",
        FieldRole::Image => column.column.kind == ColumnKind::Image,
        FieldRole::Date => {
            column.column.kind == ColumnKind::Date || column.mostly(|v| timestamp(v, 0).is_some())
        }
        FieldRole::Price => column.mostly(is_price_text),
        FieldRole::Author => column.mostly(|v| by_line(v).is_some()),
        FieldRole::Score => column.mostly(|v| counts(v, SCORE_UNITS)),
        FieldRole::Comments => column.mostly(|v| counts(v, COMMENT_UNITS)),
        FieldRole::Title => {
            column.column.kind == ColumnKind::Text
                && column.column.source == NameSource::Kind
                && column.base_name() == "title"
        }
        FieldRole::Description | FieldRole::Text => false,
    }),
    ("any_link", |field, column| {
        field.role == FieldRole::Url && column.column.kind == ColumnKind::Url
    }),
];

/// Units after a number that make it a score ("412 points").
const SCORE_UNITS: &[&str] = &["point", "points", "vote", "votes", "like", "likes", "stars"];
/// Units after a number that make it a comment count ("96 comments").
const COMMENT_UNITS: &[&str] = &["comment", "comments", "reply", "replies"];

fn normalised(name: &str) -> String {
    name.trim().to_lowercase().replace([' ', '-'], "_")
}

/// The name in a "by Ann Lee" line.
fn by_line(text: &str) -> Option<&str> {
    let rest = text
        .trim()
        .strip_prefix("by ")
        .or_else(|| text.trim().strip_prefix("By "))?;
    let name = rest.trim();
    (!name.is_empty() && name.split_whitespace().count() <= 5).then_some(name)
}

/// Whether a text is a number followed by one of `units` ("412 points").
fn counts(text: &str, units: &[&str]) -> bool {
    let mut words = text.split_whitespace();
    let number = words
        .next()
        .is_some_and(|w| w.replace(',', "").parse::<f64>().is_ok());
    number
        && words
            .next()
            .is_some_and(|u| units.contains(&u.to_lowercase().as_str()))
}

/// Chooses a column for each wanted field, each column used once.
pub fn choose(
    fields: &[WantedField],
    columns: &[Column],
    rows: &[Map<String, Value>],
) -> Vec<FieldSource> {
    let views: Vec<ColumnView<'_>> = columns
        .iter()
        .map(|column| ColumnView {
            column,
            values: rows
                .iter()
                .filter_map(|r| r.get(&column.name))
                .filter(|v| !v.is_null())
                .map(|v| match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .collect(),
        })
        .collect();
    let mut used = vec![false; views.len()];
    let mut sources: Vec<FieldSource> = fields
        .iter()
        .map(|f| FieldSource {
            field: f.name.clone(),
            column: None,
            rule: None,
        })
        .collect();
    // Rule by rule across every field, so a field's exact name is never taken by another
    // field's weaker match.
    for (rule_name, rule) in RULES {
        for (field, source) in fields.iter().zip(sources.iter_mut()) {
            if source.column.is_some() {
                continue;
            }
            if let Some(i) = (0..views.len()).find(|i| !used[*i] && rule(field, &views[*i])) {
                used[i] = true;
                source.column = Some(views[i].column.name.clone());
                source.rule = Some(rule_name);
            }
        }
    }
    sources
}

/// The rows with exactly the wanted fields, in order, from the chosen columns (`null` where
/// none): an author's "by " is left out of its value.
pub fn project(
    fields: &[WantedField],
    sources: &[FieldSource],
    rows: Vec<Map<String, Value>>,
) -> Vec<Map<String, Value>> {
    rows.into_iter()
        .map(|row| {
            fields
                .iter()
                .zip(sources)
                .map(|(field, source)| {
                    let value = source
                        .column
                        .as_ref()
                        .and_then(|c| row.get(c))
                        .cloned()
                        .unwrap_or(Value::Null);
                    let value = match (&value, field.role) {
                        (Value::String(s), FieldRole::Author) => {
                            by_line(s).map_or(value.clone(), |name| Value::String(name.to_owned()))
                        }
                        _ => value,
                    };
                    (field.name.clone(), value)
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn column(name: &str, kind: ColumnKind, source: NameSource) -> Column {
        Column {
            name: name.into(),
            kind,
            source,
            filled: 3,
        }
    }

    fn rows(values: Value) -> Vec<Map<String, Value>> {
        values
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_object().unwrap().clone())
            .collect()
    }

    fn wanted(spec: &[(&str, FieldRole, &[&str])]) -> Vec<WantedField> {
        spec.iter()
            .map(|(name, role, words)| WantedField {
                name: (*name).into(),
                role: *role,
                words: words.iter().map(|w| (*w).to_owned()).collect(),
            })
            .collect()
    }

    #[test]
    fn each_rule_chooses_its_column_and_a_field_without_one_is_null() {
        let columns = vec![
            column("title", ColumnKind::Text, NameSource::Kind),
            column("url", ColumnKind::Url, NameSource::Kind),
            column("text", ColumnKind::Text, NameSource::Kind),
            column("text_2", ColumnKind::Text, NameSource::Kind),
            column("score", ColumnKind::Text, NameSource::Class),
            column("link_2", ColumnKind::Url, NameSource::Kind),
        ];
        let data = rows(json!([
            {"title": "A", "url": "https://x/a", "text": "by Ann Lee", "text_2": "$4.99", "score": "3 points", "link_2": "https://x/u"},
            {"title": "B", "url": "https://x/b", "text": "by Bo", "text_2": "$7", "score": "5 points", "link_2": "https://x/v"},
        ]));
        let fields = wanted(&[
            ("name", FieldRole::Title, &["title", "name"]),
            ("writer", FieldRole::Author, &["author", "by"]),
            ("cost", FieldRole::Price, &["price", "cost"]),
            ("points", FieldRole::Score, &["points", "score"]),
            ("link", FieldRole::Url, &["url", "link"]),
            ("when", FieldRole::Date, &["date"]),
        ]);
        let sources = choose(&fields, &columns, &data);
        let chosen: Vec<(Option<&str>, Option<&str>)> = sources
            .iter()
            .map(|s| (s.column.as_deref(), s.rule))
            .collect();
        assert_eq!(
            chosen,
            vec![
                (Some("title"), Some("word_for_the_role")),
                (Some("text"), Some("value_kind")),
                (Some("text_2"), Some("value_kind")),
                (Some("score"), Some("word_for_the_role")),
                (Some("url"), Some("word_for_the_role")),
                (None, None),
            ]
        );
        let projected = project(&fields, &sources, data);
        assert_eq!(
            Value::Object(projected[0].clone()),
            json!({"name": "A", "writer": "Ann Lee", "cost": "$4.99", "points": "3 points", "link": "https://x/a", "when": null})
        );
    }

    #[test]
    fn an_exact_name_wins_over_another_fields_weaker_match() {
        let columns = vec![
            column("url", ColumnKind::Url, NameSource::Kind),
            column("homepage", ColumnKind::Url, NameSource::Label),
        ];
        let data = rows(json!([{"url": "https://x/a", "homepage": "https://a.example"}]));
        let fields = wanted(&[
            ("link", FieldRole::Url, &["url", "link"]),
            ("homepage", FieldRole::Url, &[]),
        ]);
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].column.as_deref(), Some("url"));
        assert_eq!(sources[1].column.as_deref(), Some("homepage"));
        assert_eq!(sources[1].rule, Some("same_name"));
    }

    #[test]
    fn any_link_is_the_last_resort_for_a_link() {
        let columns = vec![column("link", ColumnKind::Url, NameSource::Kind)];
        let data = rows(json!([{"link": "https://x/a"}]));
        let fields = wanted(&[("address", FieldRole::Url, &[])]);
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].rule, Some("any_link"));
    }
}
