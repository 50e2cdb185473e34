//! Main-content extraction quality: word-level F1 per page type on the WCXB dev split and on
//! the Mozilla Readability test pages, for our extractor and the crates we compared it with.
//!
//! ```text
//! cargo run --release --features compare-extractors --example eval_content -- /work/shared/corpora
//! cargo run --release --features compare-extractors --example eval_content -- /work/shared/corpora --extractors ours,dom_smoothie
//! cargo run --release --example eval_content -- /work/shared/corpora --per-page      # ours only, no other parsers compiled
//! cargo run --release --features compare-extractors --example eval_content -- /work/shared/corpora --extractors ours --split even
//! cargo run --release --features compare-extractors --example eval_content -- /work/shared/corpora --extractors ours --dump /tmp/dump
//! ```
//!
//! Score: lower-case the text, take `\w+` tokens as a bag of words, F1 between the extracted
//! text and the ground truth, averaged over pages. A panicking or failing extractor scores 0
//! on that page (it is counted, not hidden). Seven WCXB pages have an empty ground truth
//! (bot walls, apps); they score 1 only for an empty extraction.
//!
//! Results (2026-11-22, quiet 2-core machine; ms/page includes each crate's own parse):
//!
//! ```text
//! extractor         article  service  product collect.    forum  listing     docs     WCXB  readab.   failed ms/page
//! ours                0.912    0.839    0.564    0.697    0.795    0.736    0.957    0.786    0.954        0     4.7
//! dom_smoothie        0.914    0.686    0.331    0.432    0.499    0.545    0.930    0.620    0.997        7     4.7
//! rs_trafilatura      0.923    0.851    0.532    0.686    0.777    0.649    0.952    0.767    0.929        0    23.1
//! readabilityrs       0.850    0.714    0.413    0.449    0.547    0.412    0.907    0.613    0.942        7    43.0
//! llm_readability     0.835    0.651    0.342    0.223    0.320    0.259    0.564    0.456    0.803        0     7.6
//! readability         0.720    0.379    0.354    0.252    0.231    0.231    0.485    0.379    0.845        0     5.7
//! ```
//!
//! `--folds tuning` scores WCXB's folds 0–2 (by site: `wcxb::site_fold`), on which the
//! fitted block score is fitted, and `--folds held-out` the folds 3–4 nobody tunes on (see
//! docs/evaluation.md); `--fold K` one fold. `--blocks FILE` writes every page's scored blocks
//! for `eval/fit_content_blocks.py`.
//!
//! `--split even` scores the tuning half of WCXB (even page ids), `--split odd` the held-out
//! half; a change should help both. The `ours` line by half:
//!
//! ```text
//! even                0.952    0.887    0.519    0.748    0.895    0.736    0.958    0.807    0.954        0     4.3
//! odd                 0.889    0.766    0.604    0.610    0.665    0.736    0.957    0.764    0.954        0     4.4
//! ```
//!
//! The Python trafilatura itself is scored on the same pages by `eval/trafilatura_baseline.py`
//! (same tokens, same F1); see the README for its figures.
//!
//! The Readability column is graded against Readability.js's own output, which favours
//! Readability ports (dom_smoothie) by construction.

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use scrape_agent::page::Page;

#[path = "common/wcxb.rs"]
mod wcxb;

#[cfg(not(feature = "compare-extractors"))]
const ALL: &[&str] = &["ours"];
#[cfg(feature = "compare-extractors")]
const ALL: &[&str] = &[
    "ours",
    "dom_smoothie",
    "rs_trafilatura",
    "readabilityrs",
    "llm_readability",
    "readability",
];
const TYPES: &[&str] = &[
    "article",
    "service",
    "product",
    "collection",
    "forum",
    "listing",
    "documentation",
];

struct Sample {
    id: String,
    kind: String,
    /// The WCXB fold (by site, see `wcxb::site_fold`); None for Readability's pages.
    fold: Option<u64>,
    url: String,
    html: String,
    truth: String,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = args
        .iter()
        .find(|a| !a.starts_with("--") && !is_flag_value(&args, a))
        .map_or_else(|| PathBuf::from("/work/shared/corpora"), PathBuf::from);
    let extractors: Vec<String> = flag_value(&args, "--extractors").map_or_else(
        || ALL.iter().map(|s| (*s).to_owned()).collect(),
        |v| v.split(',').map(str::to_owned).collect(),
    );
    let per_page = args.iter().any(|a| a == "--per-page");
    // Tuning happens on even page ids; odd ids are held out to catch overfitting.
    let split = flag_value(&args, "--split");
    // Folds by site (issue #32): `--folds tuning` (0,1,2) or `--folds held-out` (3,4), a list
    // (`--folds 0,2`), or one fold (`--fold 3`).
    let folds = flag_value(&args, "--folds").or_else(|| flag_value(&args, "--fold"));
    let dump = flag_value(&args, "--dump").map(PathBuf::from);

    let wcxb: Vec<Sample> = wcxb::load(&root.join("wcxb-dev"))
        .into_iter()
        .filter(|page| page.in_split(split) && page.in_folds(folds))
        .map(|page| Sample {
            truth: page.truth_str("main_content").to_owned(),
            fold: Some(page.fold()),
            id: page.id,
            kind: page.kind,
            url: page.url,
            html: page.html,
        })
        .collect();
    let readability = load_readability(&root.join("readability/test-pages"));
    eprintln!(
        "{} WCXB pages, {} Readability pages",
        wcxb.len(),
        readability.len()
    );
    if let Some(path) = flag_value(&args, "--blocks") {
        write_blocks(Path::new(path), &wcxb, &readability);
        return;
    }
    if let Some(id) = flag_value(&args, "--show") {
        // Debugging aid: one page's extraction next to its ground truth.
        for sample in wcxb.iter().chain(&readability).filter(|s| s.id == id) {
            for name in &extractors {
                let text = run(name, &sample.html, &sample.url).unwrap_or_default();
                println!(
                    "== {name} ({:.3})\n{text}\n",
                    wcxb::overlap(&text, &sample.truth).f1
                );
            }
            println!("== truth\n{}", sample.truth);
        }
        return;
    }
    // Extractors print diagnostics of their own on panics; keep the table readable.
    if std::env::var_os("EVAL_PANICS").is_none() {
        std::panic::set_hook(Box::new(|_| {}));
    }

    let mut header = format!("{:<16}", "extractor");
    for t in TYPES {
        header.push_str(&format!(" {:>8}", abbreviate(t)));
    }
    header.push_str(&format!(
        " {:>8} {:>8} {:>8} {:>7}",
        "WCXB", "readab.", "failed", "ms/page"
    ));
    let mut rows = Vec::new();
    for name in &extractors {
        let mut by_type: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
        let mut tally = Tally::default();
        let mut article_overlaps = Vec::new();
        for sample in &wcxb {
            let (text, score) = tally.score(name, sample, &sample.kind, per_page);
            if sample.kind == "article" {
                article_overlaps.push(wcxb::overlap(&text, &sample.truth));
            }
            if let Some(dir) = &dump {
                write_dump(dir, name, sample, &text);
            }
            by_type
                .entry(type_key(&sample.kind))
                .or_default()
                .push(score);
        }
        let read_scores: Vec<f64> = readability
            .iter()
            .map(|sample| tally.score(name, sample, "readability", per_page).1)
            .collect();
        let Tally {
            failed,
            elapsed,
            pages,
        } = tally;
        let mut row = format!("{name:<16}");
        for t in TYPES {
            row.push_str(&format!(
                " {:>8.3}",
                mean(by_type.get(t).map_or(&[][..], Vec::as_slice))
            ));
        }
        let all: Vec<f64> = by_type.values().flatten().copied().collect();
        row.push_str(&format!(
            " {:>8.3} {:>8.3} {:>8} {:>7.1}",
            mean(&all),
            mean(&read_scores),
            failed,
            elapsed.as_secs_f64() * 1000.0 / f64::from(pages.max(1))
        ));
        eprintln!("{row}");
        rows.push(row);
        let precision: Vec<f64> = article_overlaps.iter().map(|o| o.precision).collect();
        let recall: Vec<f64> = article_overlaps.iter().map(|o| o.recall).collect();
        rows.push(format!(
            "{:<16} article precision {:.3}, recall {:.3}",
            "",
            mean(&precision),
            mean(&recall)
        ));
    }
    println!("{header}");
    for row in rows {
        println!("{row}");
    }
}

/// Failures, time and pages counted over one extractor's run.
#[derive(Default)]
struct Tally {
    failed: usize,
    elapsed: Duration,
    pages: u32,
}

impl Tally {
    /// Runs `name` on one page, timed; returns its text (empty on failure) and its F1.
    fn score(&mut self, name: &str, sample: &Sample, kind: &str, per_page: bool) -> (String, f64) {
        let started = Instant::now();
        let text = run(name, &sample.html, &sample.url);
        self.elapsed += started.elapsed();
        self.pages += 1;
        self.failed += usize::from(text.is_none());
        if per_page && text.is_none() {
            println!("{name}\t{kind}\t{}\tFAILED", sample.id);
        }
        let text = text.unwrap_or_default();
        let score = wcxb::overlap(&text, &sample.truth).f1;
        if per_page {
            println!("{name}\t{kind}\t{}\t{score:.3}", sample.id);
        }
        (text, score)
    }
}

/// Writes every page's scored blocks (`content::block_samples`) as JSON lines for
/// `eval/fit_content_blocks.py`: the page, its type, fold (null for Readability's pages), its
/// truth, and each block's text and features.
fn write_blocks(path: &Path, wcxb: &[Sample], readability: &[Sample]) {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let names: Vec<&str> = scrape_agent::read::content::Feature::ALL
        .iter()
        .map(|f| f.name())
        .collect();
    writeln!(out, "{}", serde_json::json!({ "features": names })).unwrap();
    for sample in wcxb.iter().chain(readability) {
        let Some(page) = url::Url::parse(&sample.url)
            .ok()
            .map(|u| Page::parse(u, &sample.html))
        else {
            continue;
        };
        let blocks = scrape_agent::read::content::block_samples(&page);
        let text = scrape_agent::read::content::main_content(&page).text;
        let row = serde_json::json!({
            "page": sample.id,
            "kind": sample.kind,
            "fold": sample.fold,
            "truth": sample.truth,
            "text": text,
            "blocks": blocks,
        });
        writeln!(out, "{row}").unwrap();
    }
}

/// Debugging aid: writes `ID.NAME.txt` and `ID.truth.txt` for comparing outside the tool.
fn write_dump(dir: &Path, name: &str, sample: &Sample, text: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join(format!("{}.{name}.txt", sample.id)), text).unwrap();
    std::fs::write(dir.join(format!("{}.truth.txt", sample.id)), &sample.truth).unwrap();
}

fn is_flag_value(args: &[String], a: &String) -> bool {
    args.windows(2)
        .any(|w| w[0].starts_with("--") && w[0] != "--per-page" && &w[1] == a)
}

fn flag_value<'a>(args: &'a [String], flag: &str) -> Option<&'a str> {
    args.windows(2)
        .find(|w| w[0] == flag)
        .map(|w| w[1].as_str())
}

fn type_key(kind: &str) -> &'static str {
    TYPES
        .iter()
        .find(|t| **t == kind)
        .copied()
        .unwrap_or("other")
}

fn abbreviate(t: &str) -> &str {
    match t {
        "collection" => "collect.",
        "documentation" => "docs",
        other => other,
    }
}

fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

/// Runs one extractor, None when it failed or panicked.
fn run(name: &str, html: &str, url: &str) -> Option<String> {
    std::panic::catch_unwind(|| run_inner(name, html, url))
        .ok()
        .flatten()
}

fn run_inner(name: &str, html: &str, url: &str) -> Option<String> {
    match name {
        "ours" => {
            let page = Page::parse(url::Url::parse(url).ok()?, html);
            Some(scrape_agent::read::content::main_content(&page).text)
        }
        #[cfg(feature = "compare-extractors")]
        "dom_smoothie" => {
            let mut r = dom_smoothie::Readability::new(html, Some(url), None).ok()?;
            Some(r.parse().ok()?.text_content.to_string())
        }
        #[cfg(feature = "compare-extractors")]
        "rs_trafilatura" => Some(rs_trafilatura::extract(html).ok()?.content_text),
        #[cfg(feature = "compare-extractors")]
        "readabilityrs" => {
            readabilityrs::Readability::new(html, Some(url), None)
                .ok()?
                .parse()?
                .text_content
        }
        #[cfg(feature = "compare-extractors")]
        "llm_readability" => {
            let u = url::Url::parse(url).ok()?;
            Some(
                llm_readability::extractor::extract(&mut html.as_bytes(), &u)
                    .ok()?
                    .text,
            )
        }
        #[cfg(feature = "compare-extractors")]
        "readability" => {
            let u = url::Url::parse(url).ok()?;
            Some(
                readability::extractor::extract(&mut html.as_bytes(), &u)
                    .ok()?
                    .text,
            )
        }
        other => panic!("unknown extractor {other}"),
    }
}

fn load_readability(dir: &Path) -> Vec<Sample> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let (Ok(source), Ok(expected)) = (
            std::fs::read(path.join("source.html")),
            std::fs::read_to_string(path.join("expected.html")),
        ) else {
            continue;
        };
        let expected = scraper::Html::parse_document(&expected);
        out.push(Sample {
            id: entry.file_name().to_string_lossy().into_owned(),
            kind: "readability".into(),
            fold: None,
            // The URL the Readability test suite uses for every page.
            url: "http://fakehost/test/page.html".into(),
            html: wcxb::decode(&source),
            truth: scrape_agent::page::dom::text_of(expected.root_element()),
        });
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    out
}
