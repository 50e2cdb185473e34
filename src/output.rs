//! Rendering the answers of a run as json, csv, markdown or text.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The output formats a client can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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

/// Characters that make a spreadsheet read a cell as a formula when they lead it (OWASP's
/// "CSV Injection" list: `=`, `+`, `-`, `@`, tab, carriage return; NUL as in ASVS 1.2.10).
pub const FORMULA_TRIGGERS: [char; 7] = ['=', '+', '-', '@', '\t', '\r', '\0'];

/// Whether a text is one plain decimal number (`-5`, `+3.25`, `-1e5`): a spreadsheet reads it
/// as that number, which cannot call a function or reference a cell.
pub fn is_plain_number(text: &str) -> bool {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (mantissa, exponent) = match digits.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e.strip_prefix(['+', '-']).unwrap_or(e))),
        None => (digits, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all_digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    (!whole.is_empty() || !fraction.is_empty())
        && all_digits(whole)
        && all_digits(fraction)
        && exponent.is_none_or(|e| !e.is_empty() && all_digits(e))
}

/// A CSV cell made safe to open in a spreadsheet: a text that starts with a formula trigger
/// gets a leading `'` (the spreadsheet then shows it as text), unless it is a plain number.
///
/// JSON numbers render as plain numbers and stay as they are; so do texts like `"-5"`: a
/// spreadsheet reads them as the number they show, which runs nothing, and quoting them would
/// turn a scraped numeric column (score changes, temperatures) into text that no longer sums
/// or sorts.
pub fn csv_safe(text: String) -> String {
    if text.starts_with(FORMULA_TRIGGERS) && !is_plain_number(&text) {
        format!("'{text}")
    } else {
        text
    }
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
    // A URL column when there are several URLs, and when there is nothing else to name: a run
    // without records (a failed URL) is a header and no rows, not an empty cell.
    if several || header.is_empty() {
        header.insert(0, "url".into());
    }
    let mut writer = csv::Writer::from_writer(Vec::new());
    // Column names come from the page too (table headers): they are made safe like cells.
    let _ = writer.write_record(header.iter().map(|h| csv_safe(h.clone())));
    for (url, row) in &rows {
        let line: Vec<String> = header
            .iter()
            .enumerate()
            .map(|(i, col)| {
                csv_safe(if several && i == 0 {
                    (*url).clone()
                } else {
                    cell(row.get(col))
                })
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

/// A main-content answer (`extract.main_content`: an object with the article's `text` and
/// `markdown`): written as the article itself, not as a list of its fields.
#[derive(Debug)]
pub struct Article<'a> {
    /// The article as Markdown.
    pub markdown: &'a str,
    /// The article as plain text.
    pub text: &'a str,
}

impl<'a> Article<'a> {
    /// The article of an answer, when the answer is one.
    pub fn of(answer: &'a Value) -> Option<Self> {
        let map = answer.as_object()?;
        let markdown = map.get("markdown")?.as_str()?;
        // "this page as markdown" keeps only the Markdown: its text is the Markdown.
        let text = match map.get("text") {
            Some(text) => text.as_str()?,
            None if map.len() == 1 => markdown,
            None => return None,
        };
        Some(Self { markdown, text })
    }
}

/// The article, when the answers are one URL's and that answer is an article.
fn single_article(answers: &Map<String, Value>) -> Option<Article<'_>> {
    match answers.values().collect::<Vec<_>>().as_slice() {
        [answer] => Article::of(answer),
        _ => None,
    }
}

fn markdown_cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

fn markdown_of(answers: &Map<String, Value>) -> String {
    // One article: the article itself, as a reader of "this page as Markdown" expects.
    if let Some(article) = single_article(answers) {
        return article.markdown.trim().to_owned() + "\n";
    }
    let mut out = String::new();
    for (url, answer) in answers {
        out.push_str(&format!("## {url}\n\n"));
        if let Some(article) = Article::of(answer) {
            out.push_str(article.markdown.trim());
            out.push_str("\n\n");
            continue;
        }
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
    if let Some(article) = single_article(answers) {
        return article.text.trim().to_owned() + "\n";
    }
    let mut out = String::new();
    for (url, answer) in answers {
        out.push_str(url);
        out.push('\n');
        if let Some(article) = Article::of(answer) {
            out.push_str(article.text.trim());
            out.push_str("\n\n");
            continue;
        }
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

    fn article() -> Map<String, Value> {
        json!({"https://a.example/post": {
            "title": "A post",
            "byline": "Ann",
            "text": "A post\n\nFirst paragraph.",
            "markdown": "# A post\n\nFirst *paragraph*.",
        }})
        .as_object()
        .unwrap()
        .clone()
    }

    #[test]
    fn markdown_of_the_page_as_markdown_is_that_markdown() {
        let answers = Map::from_iter([(
            "https://a.example/".to_owned(),
            json!({"markdown": "# A post\n\nFirst *paragraph*."}),
        )]);
        assert_eq!(
            render(OutputFormat::Markdown, &answers),
            "# A post\n\nFirst *paragraph*.\n"
        );
    }

    #[test]
    fn markdown_of_an_article_is_its_markdown() {
        assert_eq!(
            render(OutputFormat::Markdown, &article()),
            "# A post\n\nFirst *paragraph*.\n"
        );
        let mut two = article();
        two.insert("https://b.example/".into(), json!([{"a": 1}]));
        let md = render(OutputFormat::Markdown, &two);
        assert!(
            md.starts_with("## https://a.example/post\n\n# A post\n\nFirst *paragraph*.\n\n## https://b.example/"),
            "{md}"
        );
    }

    #[test]
    fn text_of_an_article_is_its_text_once() {
        let text = render(OutputFormat::Text, &article());
        assert_eq!(text, "A post\n\nFirst paragraph.\n");
        assert_eq!(text.matches("First paragraph").count(), 1);
    }

    #[test]
    fn csv_of_a_failed_url_is_a_header_without_rows() {
        let answers = json!({"https://a.example/": null});
        assert_eq!(
            render(OutputFormat::Csv, answers.as_object().unwrap()),
            "url\n"
        );
    }

    fn csv_of_one(value: Value) -> String {
        let answers = json!({"https://a.example/": [{"v": value}]});
        render(OutputFormat::Csv, answers.as_object().unwrap())
    }

    #[test]
    fn csv_neutralises_each_formula_trigger() {
        for (raw, written) in [
            ("=1+1", "'=1+1"),
            ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
            ("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"),
            ("@SUM(A1:A9)", "'@SUM(A1:A9)"),
            ("\t=1+1", "'\t=1+1"),
            ("\r=1+1", "\"'\r=1+1\""),
            ("\0x", "'\0x"),
            ("-", "'-"),
            ("-5 points", "'-5 points"),
        ] {
            assert_eq!(csv_of_one(json!(raw)), format!("v\n{written}\n"), "{raw:?}");
        }
    }

    #[test]
    fn csv_keeps_numbers_and_ordinary_text() {
        for (value, written) in [
            (json!(-5), "-5"),
            (json!(-2.5), "-2.5"),
            (json!("-5"), "-5"),
            (json!("+3.25"), "+3.25"),
            (json!("-1e5"), "-1e5"),
            (json!("a=b"), "a=b"),
            (json!(" =1"), " =1"),
            (json!("'quoted"), "'quoted"),
        ] {
            assert_eq!(
                csv_of_one(value.clone()),
                format!("v\n{written}\n"),
                "{value}"
            );
        }
    }

    #[test]
    fn csv_neutralises_column_names_and_several_urls() {
        let answers =
            json!({"https://a.example/": [{"=x": "@y"}], "https://b.example/": {"z": "=1"}});
        assert_eq!(
            render(OutputFormat::Csv, answers.as_object().unwrap()),
            "url,'=x,z\nhttps://a.example/,'@y,\nhttps://b.example/,,'=1\n"
        );
    }

    #[test]
    fn markdown_leaves_formula_characters_alone() {
        let answers = json!({"https://a.example/": [{"v": "=1+1"}]});
        assert!(render(OutputFormat::Markdown, answers.as_object().unwrap()).contains("| =1+1 |"));
    }

    #[test]
    fn plain_numbers() {
        for yes in [
            "0",
            "-5",
            "+5",
            "5.",
            ".5",
            "-0.25",
            "1e5",
            "-1E-5",
            "12345678901234567890",
        ] {
            assert!(is_plain_number(yes), "{yes}");
        }
        for no in [
            "", "-", "+", ".", "-.", "1e", "1e+", "--5", "-5-", "1,5", "-5 ", "0x10", "-inf",
            "-1e5e3", "=5",
        ] {
            assert!(!is_plain_number(no), "{no}");
        }
    }

    mod properties {
        use proptest::prelude::*;
        use serde_json::{Map, Value};

        use super::super::{FORMULA_TRIGGERS, OutputFormat, is_plain_number, render};

        fn text() -> impl Strategy<Value = String> {
            prop_oneof![
                any::<String>(),
                "[=+@\\-\\t\\r\\n\\x00\"',;|# a-z0-9.eE]{0,10}",
                "\\PC{0,10}",
                prop::sample::select(vec!["-5", "+3.25", "-1e5", "=1+1", "@x", "-", "", " "])
                    .prop_map(str::to_owned),
            ]
        }

        fn leaf() -> impl Strategy<Value = Value> {
            prop_oneof![
                Just(Value::Null),
                any::<bool>().prop_map(Value::Bool),
                any::<i64>().prop_map(Value::from),
                any::<u64>().prop_map(Value::from),
                any::<f64>().prop_filter_map("finite", |f| {
                    serde_json::Number::from_f64(f).map(Value::Number)
                }),
                text().prop_map(Value::String),
            ]
        }

        fn value() -> impl Strategy<Value = Value> {
            leaf().prop_recursive(6, 48, 6, |inner| {
                prop_oneof![
                    prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                    prop::collection::vec((text(), inner), 0..6)
                        .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
                ]
            })
        }

        /// A value nested `depth` levels deep (serde_json parses at most 128 levels, so a tool
        /// result read from JSON is never deeper; rendering goes deeper than that anyway).
        fn deep(depth: usize, leaf: Value) -> Value {
            (0..depth).fold(leaf, |inner, i| {
                if i % 2 == 0 {
                    Value::Array(vec![inner])
                } else {
                    Value::Object(Map::from_iter([("k".to_owned(), inner)]))
                }
            })
        }

        fn answers() -> impl Strategy<Value = Map<String, Value>> {
            let answer = prop_oneof![
                4 => value(),
                1 => (0usize..300, leaf()).prop_map(|(depth, leaf)| deep(depth, leaf)),
            ];
            prop::collection::vec((text(), answer), 0..4)
                .prop_map(|pairs| pairs.into_iter().collect())
        }

        /// Rows the CSV holds for the answers: what `records` makes of each one.
        fn record_count(answers: &Map<String, Value>) -> usize {
            answers
                .values()
                .map(|answer| match answer {
                    Value::Array(items) => items.len(),
                    Value::Null => 0,
                    _ => 1,
                })
                .sum()
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

            #[test]
            fn every_format_renders_anything(answers in answers()) {
                for format in [OutputFormat::Json, OutputFormat::Csv, OutputFormat::Markdown, OutputFormat::Text] {
                    let _ = render(format, &answers);
                }
                // JSON stays JSON, keyed like the answers (floats may differ in the last digit).
                // (serde_json reads back 128 levels at most; deeper answers are rendered all the same.)
                match serde_json::from_str::<Value>(&render(OutputFormat::Json, &answers)) {
                    Ok(json) => {
                        let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
                        prop_assert_eq!(keys, answers.keys().collect::<Vec<_>>());
                    }
                    Err(e) => prop_assert!(e.to_string().contains("recursion limit"), "{}", e),
                }
            }

            #[test]
            fn csv_parses_back_with_a_row_per_record_and_no_formula(answers in answers()) {
                let csv = render(OutputFormat::Csv, &answers);
                let mut reader = csv::ReaderBuilder::new()
                    .has_headers(false)
                    .from_reader(csv.as_bytes());
                let mut rows = 0;
                let mut width = None;
                for row in reader.records() {
                    let row = row.unwrap();
                    prop_assert_eq!(*width.get_or_insert(row.len()), row.len());
                    for cell in &row {
                        prop_assert!(
                            !cell.starts_with(FORMULA_TRIGGERS) || is_plain_number(cell),
                            "cell {:?} would run as a formula", cell
                        );
                    }
                    rows += 1;
                }
                // The header row, then one row per record.
                prop_assert_eq!(rows, 1 + record_count(&answers), "{}", csv);
            }
        }
    }
}
