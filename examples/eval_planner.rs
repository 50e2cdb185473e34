//! Planner accuracy per intent, through the real server.
//!
//! Serves pages from `../shared/corpora/` (and `eval/pages/`, `tests/fixtures/pages/`) on a
//! local port, starts the server in-process, runs every task of `eval/planner_tasks.json` as a
//! client would (POST, read the SSE stream to `complete`), and checks each answer against the
//! ground truth. Run: `cargo run --release --example eval_planner [-- CORPORA_DIR TASKS_FILE]`.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Path as UrlPath, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use serde::Deserialize;
use serde_json::{Value, json};

mod common;

#[derive(Debug, Deserialize)]
struct Task {
    id: String,
    intent: String,
    /// `wcxb/NNNN`, `readability/NAME`, `extruct/PATH`, `fixtures/NAME`.
    page: String,
    instructions: String,
    #[serde(default)]
    output_instructions: Option<String>,
    check: Check,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Check {
    /// `count` records, each with a non-empty `field` found in the ground truth's main content.
    GtItems { count: usize, field: String },
    /// Exactly these records, in this order, each `field` naming the expected value (words
    /// compared, punctuation aside): for pages whose ground truth leaves the items out.
    Items {
        field: String,
        expected: Vec<String>,
    },
    /// Word F1 of the answer's `text` against the ground truth at least `min`.
    F1 { min: f64 },
    /// Each field equals (case- and space-insensitively) the value; `$gt.KEY` reads the ground truth.
    Fields { expected: BTreeMap<String, Value> },
    /// The answer, as JSON text, contains every value.
    Contains { values: Vec<String> },
    /// The answer equals this value.
    Exact { value: Value },
    /// A list whose `key` values are exactly `expected`, in order, and whose `also` columns
    /// hold these values (words or numbers compared). A key may list alternatives, `a|b`: the
    /// user's own label or the canonical one (the paraphrase set, issue #30).
    Records {
        key: String,
        expected: Vec<String>,
        #[serde(default)]
        also: BTreeMap<String, Vec<String>>,
    },
    /// A list of at least `min_items` records, each with a non-empty value for every column.
    Columns {
        min_items: usize,
        columns: Vec<String>,
    },
    /// The answer is Markdown text (a string, or an object's `markdown`) whose word F1
    /// against the ground truth is at least `min`.
    Markdown { min: f64 },
    /// The page does not have what was asked: no rows, no values.
    NoAnswer,
}

#[derive(Clone)]
struct Corpora {
    root: PathBuf,
    repo: PathBuf,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let root = args
        .first()
        .map_or_else(|| repo.join("../shared/corpora"), PathBuf::from);
    let tasks_path = args
        .get(1)
        .map_or_else(|| repo.join("eval/planner_tasks.json"), PathBuf::from);
    let planner = std::env::var("EVAL_PLANNER").unwrap_or_else(|_| "heuristic".into());
    let mut tasks: Vec<Task> = serde_json::from_str(&std::fs::read_to_string(&tasks_path)?)?;
    // `EVAL_ONLY=meta-,list-` keeps the tasks whose id contains one of the parts.
    if let Ok(only) = std::env::var("EVAL_ONLY") {
        tasks.retain(|t| only.split(',').any(|part| t.id.contains(part)));
    }
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(run(Corpora { root, repo }, tasks, planner))
}

async fn run(
    corpora: Corpora,
    tasks: Vec<Task>,
    planner: String,
) -> Result<(), Box<dyn std::error::Error>> {
    let pages = Router::new()
        .route("/{*path}", axum::routing::get(serve_page))
        .with_state(Arc::new(corpora.clone()));
    let page_base = common::serve_pages(pages).await?;
    let api = common::start_server(|_| {}).await?;

    let client = reqwest::Client::new();
    let mut per_intent: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for task in &tasks {
        let url = format!("{page_base}/{}", task.page);
        let body = json!({"urls": [url], "instructions": task.instructions, "output_instructions": task.output_instructions, "planner": planner});
        let answer = match run_task(&client, &api, &body).await {
            Ok(complete) => complete["extracted_data"][&url].clone(),
            Err(err) => json!({"eval_error": err}),
        };
        let verdict = check(&corpora, task, &answer, &page_base);
        let entry = per_intent.entry(task.intent.clone()).or_default();
        entry.1 += 1;
        match verdict {
            Ok(()) => entry.0 += 1,
            Err(why) => failures.push(format!("{} ({}): {why}", task.id, task.intent)),
        }
        match std::env::var("EVAL_VERBOSE").as_deref() {
            Ok("full") => println!("{} → {answer}", task.id),
            Ok(_) => println!("{} → {}", task.id, short(&answer)),
            Err(_) => {}
        }
    }
    println!("planner: {planner}; {} tasks\n", tasks.len());
    println!("| intent | correct | tasks | accuracy |\n|---|---|---|---|");
    let (mut all_ok, mut all) = (0, 0);
    for (intent, (ok, total)) in &per_intent {
        all_ok += ok;
        all += total;
        println!(
            "| {intent} | {ok} | {total} | {:.0}% |",
            percent(*ok, *total)
        );
    }
    println!(
        "| **all** | {all_ok} | {all} | {:.0}% |",
        percent(all_ok, all)
    );
    if !failures.is_empty() {
        println!("\nfailures:");
        for failure in failures {
            println!("- {failure}");
        }
    }
    Ok(())
}

#[allow(clippy::cast_precision_loss)]
fn percent(ok: usize, total: usize) -> f64 {
    if total == 0 {
        0.0
    } else {
        ok as f64 * 100.0 / total as f64
    }
}

async fn run_task(client: &reqwest::Client, api: &str, body: &Value) -> Result<Value, String> {
    let response = client
        .post(format!("{api}/api/scrape/stream"))
        .json(body)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if !response.status().is_success() {
        return Err(format!(
            "HTTP {}: {}",
            response.status(),
            response.text().await.unwrap_or_default()
        ));
    }
    let mut stream = response.bytes_stream();
    let mut buffer = String::new();
    while let Some(chunk) = stream.next().await {
        buffer.push_str(&String::from_utf8_lossy(&chunk.map_err(|e| e.to_string())?));
        while let Some(end) = buffer.find("\n\n") {
            let frame: String = buffer.drain(..end + 2).collect();
            if frame.lines().any(|l| l == "event: complete") {
                let data = frame
                    .lines()
                    .find_map(|l| l.strip_prefix("data: "))
                    .ok_or("complete without data")?;
                let envelope: Value = serde_json::from_str(data).map_err(|e| e.to_string())?;
                return Ok(envelope["data"].clone());
            }
        }
    }
    Err("stream ended without complete".into())
}

async fn serve_page(
    State(corpora): State<Arc<Corpora>>,
    UrlPath(path): UrlPath<String>,
) -> Response {
    match read_page(&corpora, &path) {
        Some(html) => ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response(),
        None => (StatusCode::NOT_FOUND, "no such page").into_response(),
    }
}

fn read_page(corpora: &Corpora, path: &str) -> Option<Vec<u8>> {
    if path.contains("..") {
        return None;
    }
    let (kind, rest) = path.split_once('/')?;
    let file = match kind {
        "wcxb" => corpora.root.join(format!("wcxb-dev/html/{rest}.html.gz")),
        "readability" => corpora
            .root
            .join(format!("readability/test-pages/{rest}/source.html")),
        "extruct" => corpora.root.join(format!("extruct/samples/{rest}")),
        "fixtures" => {
            let eval = corpora.repo.join(format!("eval/pages/{rest}"));
            if eval.exists() {
                eval
            } else {
                corpora.repo.join(format!("tests/fixtures/pages/{rest}"))
            }
        }
        _ => return None,
    };
    let bytes = std::fs::read(&file).ok()?;
    if file.extension().is_some_and(|e| e == "gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(bytes.as_slice())
            .read_to_end(&mut out)
            .ok()?;
        return Some(out);
    }
    Some(bytes)
}

/// The ground truth of a page: WCXB's JSON, or Readability's expected text and metadata.
fn ground_truth(corpora: &Corpora, page: &str) -> Option<Value> {
    let (kind, rest) = page.split_once('/')?;
    match kind {
        "wcxb" => {
            let text = std::fs::read_to_string(
                corpora
                    .root
                    .join(format!("wcxb-dev/ground-truth/{rest}.json")),
            )
            .ok()?;
            serde_json::from_str::<Value>(&text)
                .ok()
                .map(|v| v["ground_truth"].clone())
        }
        "readability" => {
            let dir = corpora.root.join(format!("readability/test-pages/{rest}"));
            let expected = std::fs::read_to_string(dir.join("expected.html")).ok()?;
            let text = scraper::Html::parse_document(&expected)
                .root_element()
                .text()
                .collect::<Vec<_>>()
                .join(" ");
            let meta: Value = std::fs::read_to_string(dir.join("expected-metadata.json"))
                .ok()
                .and_then(|t| serde_json::from_str(&t).ok())
                .unwrap_or(Value::Null);
            Some(
                json!({"main_content": text, "title": meta["title"], "author": meta["byline"], "publish_date": meta["publishedTime"]}),
            )
        }
        _ => None,
    }
}

fn normalize(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

fn tokens(text: &str) -> BTreeMap<String, usize> {
    let mut bag = BTreeMap::new();
    for m in word_regex().find_iter(&text.to_lowercase()) {
        *bag.entry(m.as_str().to_owned()).or_insert(0) += 1;
    }
    bag
}

/// The word pattern of the WCXB score.
#[allow(clippy::expect_used)] // a constant pattern
fn word_regex() -> &'static regex::Regex {
    static WORD: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    WORD.get_or_init(|| regex::Regex::new(r"\w+").expect("valid regex"))
}

/// Lower-cased `\w+` words in order.
fn word_list(text: &str) -> Vec<String> {
    word_regex()
        .find_iter(&text.to_lowercase())
        .map(|m| m.as_str().to_owned())
        .collect()
}

/// Bag-of-words F1 (the WCXB score).
fn f1(extracted: &str, truth: &str) -> f64 {
    let (a, b) = (tokens(extracted), tokens(truth));
    let common: usize = a
        .iter()
        .map(|(w, n)| (*n).min(b.get(w).copied().unwrap_or(0)))
        .sum();
    let (na, nb): (usize, usize) = (a.values().sum(), b.values().sum());
    if common == 0 || na == 0 || nb == 0 {
        return 0.0;
    }
    #[allow(clippy::cast_precision_loss)]
    let (p, r) = (common as f64 / na as f64, common as f64 / nb as f64);
    2.0 * p * r / (p + r)
}

fn as_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn check(corpora: &Corpora, task: &Task, answer: &Value, page_base: &str) -> Result<(), String> {
    let truth = ground_truth(corpora, &task.page);
    match &task.check {
        Check::GtItems { count, field } => {
            let items = answer
                .as_array()
                .ok_or_else(|| format!("not a list: {}", short(answer)))?;
            if items.len() != *count {
                return Err(format!(
                    "{} items, expected {count}: {}",
                    items.len(),
                    short(answer)
                ));
            }
            let main = word_list(
                truth
                    .as_ref()
                    .and_then(|t| t["main_content"].as_str())
                    .ok_or("no ground truth")?,
            );
            let mut seen = std::collections::HashSet::new();
            for item in items {
                let value = normalize(&as_text(&item[field.as_str()]));
                // The item's words must appear in this order in the ground truth (punctuation
                // and quotes aside): the item is part of the main content, not navigation.
                let words = word_list(&value);
                if words.is_empty() || !main.windows(words.len()).any(|w| w == words.as_slice()) {
                    return Err(format!("`{value}` is not an item of the main content"));
                }
                if !seen.insert(value.clone()) {
                    return Err(format!("`{value}` appears twice"));
                }
            }
            Ok(())
        }
        Check::Items { field, expected } => {
            let items = answer
                .as_array()
                .ok_or_else(|| format!("not a list: {}", short(answer)))?;
            let got: Vec<Vec<String>> = items
                .iter()
                .map(|item| word_list(&normalize(&as_text(&item[field.as_str()]))))
                .collect();
            let want: Vec<Vec<String>> =
                expected.iter().map(|e| word_list(&normalize(e))).collect();
            if got == want {
                Ok(())
            } else {
                Err(format!("expected {expected:?}, got {}", short(answer)))
            }
        }
        Check::F1 { min } => {
            let text = answer.get("text").map_or_else(|| as_text(answer), as_text);
            let main = truth
                .as_ref()
                .and_then(|t| t["main_content"].as_str())
                .ok_or("no ground truth")?;
            let score = f1(&text, main);
            if score >= *min {
                Ok(())
            } else {
                Err(format!("F1 {score:.2} < {min}"))
            }
        }
        Check::Fields { expected } => {
            for (key, want) in expected {
                let want = match want.as_str().and_then(|s| s.strip_prefix("$gt.")) {
                    Some(gt_key) => truth.as_ref().map_or(Value::Null, |t| t[gt_key].clone()),
                    None => want.clone(),
                };
                let got = normalize(&as_text(pick(answer, key)));
                if want == "$any" {
                    if got.is_empty() {
                        return Err(format!("{key}: nothing in {}", short(answer)));
                    }
                    continue;
                }
                let want = normalize(&as_text(&want));
                // Punctuation is not an error ("Tee | 5001" is "Tee - 5001").
                let (got_words, want_words) = (word_list(&got), word_list(&want));
                let words_match = !got_words.is_empty()
                    && !want_words.is_empty()
                    && (contains_run(&got_words, &want_words)
                        || contains_run(&want_words, &got_words));
                if got.is_empty() || !(got.contains(&want) || want.contains(&got) || words_match) {
                    return Err(format!("{key}: got `{got}`, expected `{want}`"));
                }
            }
            Ok(())
        }
        Check::Contains { values } => {
            let text = answer.to_string();
            match values.iter().find(|v| !text.contains(v.as_str())) {
                None => Ok(()),
                Some(missing) => Err(format!("`{missing}` missing from {}", short(answer))),
            }
        }
        Check::Records {
            key,
            expected,
            also,
        } => {
            let items = answer
                .as_array()
                .ok_or_else(|| format!("not a list: {}", short(answer)))?;
            let got: Vec<Vec<String>> = items
                .iter()
                .map(|item| word_list(&normalize(&as_text(pick(item, key)))))
                .collect();
            let want: Vec<Vec<String>> =
                expected.iter().map(|e| word_list(&normalize(e))).collect();
            if got != want {
                return Err(format!(
                    "{key}: expected {expected:?}, got {}",
                    short(answer)
                ));
            }
            for (column, values) in also {
                for (item, value) in items.iter().zip(values) {
                    let got = as_text(pick(item, column));
                    if !loose_eq(&got, value) {
                        return Err(format!(
                            "{column}: got `{got}`, expected `{value}` in {}",
                            short(item)
                        ));
                    }
                }
            }
            Ok(())
        }
        Check::Columns { min_items, columns } => {
            let items = answer
                .as_array()
                .ok_or_else(|| format!("not a list: {}", short(answer)))?;
            if items.len() < *min_items {
                return Err(format!("{} items: {}", items.len(), short(answer)));
            }
            for item in items {
                if let Some(column) = columns
                    .iter()
                    .find(|c| as_text(pick(item, c)).trim().is_empty())
                {
                    return Err(format!("no {column} in {}", short(item)));
                }
            }
            Ok(())
        }
        Check::Markdown { min } => {
            let text = answer
                .as_str()
                .or_else(|| answer.get("markdown").and_then(Value::as_str))
                .ok_or_else(|| format!("not Markdown text: {}", short(answer)))?;
            let main = truth
                .as_ref()
                .and_then(|t| t["main_content"].as_str())
                .ok_or("no ground truth")?;
            let score = f1(text, main);
            if score >= *min {
                Ok(())
            } else {
                Err(format!("F1 {score:.2} < {min}"))
            }
        }
        Check::NoAnswer => {
            let empty = match answer {
                Value::Null => true,
                Value::Array(items) => items.is_empty(),
                Value::Object(map) => map
                    .values()
                    .all(|v| v.is_null() || v.as_array().is_some_and(Vec::is_empty) || v == ""),
                _ => false,
            };
            if empty {
                Ok(())
            } else {
                Err(format!("answered {}", short(answer)))
            }
        }
        Check::Exact { value } => {
            // Links are absolute, so expected values name the page server as `{base}`.
            let expected: Value =
                serde_json::from_str(&value.to_string().replace("{base}", page_base))
                    .map_err(|e| e.to_string())?;
            if answer == &expected {
                Ok(())
            } else {
                Err(format!("got {}", short(answer)))
            }
        }
    }
}

/// The value of the first of `key`'s alternatives (`a|b|c`) the record has.
fn pick<'a>(record: &'a Value, key: &str) -> &'a Value {
    key.split('|')
        .map(|k| &record[k])
        .find(|v| !v.is_null())
        .unwrap_or(&Value::Null)
}

/// The same words, one inside the other, or the same number ("€49.00" and 49).
fn loose_eq(got: &str, want: &str) -> bool {
    // A moment on the day asked for is that day ("2026-12-03T19:00:00+01:00" is 2026-12-03).
    if !want.is_empty() && got.starts_with(want) {
        return true;
    }
    let (g, w) = (word_list(&normalize(got)), word_list(&normalize(want)));
    if !g.is_empty() && !w.is_empty() && (contains_run(&g, &w) || contains_run(&w, &g)) {
        return true;
    }
    let number = |text: &str| {
        text.chars()
            .filter(|c| c.is_ascii_digit() || *c == '.')
            .collect::<String>()
            .parse::<f64>()
            .ok()
    };
    matches!((number(got), number(want)), (Some(a), Some(b)) if (a - b).abs() < 1e-6)
}

/// Whether `run` appears in `words` as consecutive words.
fn contains_run(words: &[String], run: &[String]) -> bool {
    words.windows(run.len()).any(|w| w == run)
}

fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.len() > 200 {
        format!(
            "{}…",
            &text[..text.char_indices().nth(200).map_or(text.len(), |(i, _)| i)]
        )
    } else {
        text
    }
}
