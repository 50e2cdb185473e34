//! Scores the records engine (`extract.records`) on NEXT-EVAL list pages.
//!
//! `cargo run --release --example eval_records -- ../shared/corpora/next-eval-dev [--split tune|held|held2|held6|all] [--lists main|all] [--per-page] [--show N] [--page ID] [--outline]`
//!
//! Each page's ground truth lists the records of its main list as XPaths; a record's text is
//! the text of its elements. A returned record matches a distinct true record when 60% of its
//! words occur in that record's text (greedy, in page order); precision, recall and F1 per
//! page, averaged over pages. Detail coverage: the share of a matched true record's distinct
//! words found in the returned record. Link and image columns are left out of the words;
//! true records without text (empty placeholder cards) are left out, and so are true records
//! that lie inside another true record (four pages label each card twice, as the card and as
//! its inner `<a>` or `<article>`; the raw figure that counts them is printed beside).
//! `--features FILE` writes, for every candidate list of every page, its features, its hand-set
//! score and its F1 against the page's true records (one JSON object a line), for
//! `eval/fit_list_score.py`; each line also says where the list sits (`place`).
//! `--wcxb DIR --features FILE` writes the same for the WCXB dev split's listing and collection
//! pages, each candidate labelled by the word F1 of its text against the page's main content.
//! `--outline` scores the page outline's best content block instead (the list the heuristic
//! planner reads named fields from): each item's text, by the block's selector.
//! Pages whose id is a multiple of 4 are the tuning half (`--split tune`); the others are
//! held out (`held`). In session 10 the held-out half split in two: `held2` (ids 2 mod 8)
//! became tuning pages too, `held6` (ids 6 mod 8) stays unseen.
//!
//! The summary also prints a bound: the F1 of an answer that returned exactly the true records
//! of one shape (the most common tag path of a record's first element, indices left out) and
//! nothing else. Several pages label the union of unrelated lists (a card grid and the header's
//! menus) as their main list; no answer that is one list can score above that bound there.

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Instant;

use scrape_agent::page::Page;
use scrape_agent::read::records::{self, ColumnKind};
use scraper::{ElementRef, Html};

#[path = "common/wcxb.rs"]
mod wcxb;

const MATCH_SHARE: f64 = 0.6;

fn words(text: &str) -> Vec<String> {
    static WORD: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    WORD.get_or_init(|| regex::Regex::new(r"\w+").unwrap())
        .find_iter(&text.to_lowercase())
        .map(|m| m.as_str().to_owned())
        .collect()
}

/// The element an absolute XPath of `name[k]` steps points to, from `<html>`.
fn resolve<'a>(doc: &'a Html, xpath: &str) -> Option<ElementRef<'a>> {
    let mut current = doc.root_element();
    for step in xpath.trim_start_matches('/').split('/') {
        let (name, index) = match step.split_once('[') {
            Some((name, rest)) => (name, rest.trim_end_matches(']').parse::<usize>().ok()?),
            None => (step, 1),
        };
        current = current
            .children()
            .filter_map(ElementRef::wrap)
            .filter(|e| e.value().name().eq_ignore_ascii_case(name))
            .nth(index.checked_sub(1)?)?;
    }
    Some(current)
}

/// The words of each record of `list`, link and image columns left out.
fn record_words(list: &records::RecordList) -> Vec<Vec<String>> {
    let text_columns: HashSet<&str> = list
        .columns
        .iter()
        .filter(|c| !matches!(c.kind, ColumnKind::Url | ColumnKind::Image))
        .map(|c| c.name.as_str())
        .collect();
    list.records
        .iter()
        .map(|record| {
            record
                .iter()
                .filter(|(k, _)| text_columns.contains(k.as_str()))
                .flat_map(|(_, v)| match v {
                    serde_json::Value::String(s) => words(s),
                    serde_json::Value::Number(n) => words(&n.to_string()),
                    _ => Vec::new(),
                })
                .collect()
        })
        .collect()
}

struct PageScore {
    id: u32,
    precision: f64,
    recall: f64,
    f1: f64,
    coverage: Option<f64>,
    /// F1 when true records nested in other true records count.
    raw_f1: f64,
    /// F1 of returning exactly the true records of the most common shape.
    one_shape_bound: f64,
    truth: usize,
    returned: usize,
    millis: f64,
}

/// How one answer matched one set of true records.
struct Matching {
    precision: f64,
    recall: f64,
    f1: f64,
    coverage: Option<f64>,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut root = PathBuf::from("../shared/corpora/next-eval-dev");
    let mut split = "all".to_owned();
    let mut per_page = false;
    let mut show = 0usize;
    let mut only: Option<u32> = None;
    let mut all_lists = false;
    let mut outline = false;
    let mut features_to: Option<PathBuf> = None;
    let mut wcxb_root: Option<PathBuf> = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--split" => split = args.next().expect("--split tune|held|all"),
            "--per-page" => per_page = true,
            "--lists" => all_lists = args.next().as_deref() == Some("all"),
            "--page" => only = args.next().and_then(|n| n.parse().ok()),
            "--outline" => outline = true,
            "--features" => features_to = args.next().map(PathBuf::from),
            "--wcxb" => wcxb_root = args.next().map(PathBuf::from),
            "--show" => show = args.next().and_then(|n| n.parse().ok()).expect("--show N"),
            other => root = PathBuf::from(other),
        }
    }
    let mut ids: Vec<u32> = std::fs::read_dir(root.join("html"))
        .expect("next-eval html folder")
        .filter_map(|e| {
            e.ok()?
                .file_name()
                .to_str()?
                .strip_suffix(".html.gz")?
                .parse()
                .ok()
        })
        .filter(|id| only.is_none_or(|only| only == *id))
        .filter(|id| match split.as_str() {
            "tune" => id % 4 == 0,
            "held" => id % 4 != 0,
            "held2" => id % 8 == 2,
            "held6" => id % 8 == 6,
            _ => true,
        })
        .collect();
    ids.sort_unstable();
    if let (Some(path), Some(dir)) = (&features_to, &wcxb_root) {
        let pages: Vec<wcxb::Page> = wcxb::load(dir)
            .into_iter()
            .filter(|p| matches!(p.kind.as_str(), "listing" | "collection"))
            .collect();
        let mut out = String::new();
        for page in &pages {
            out.push_str(&wcxb_candidate_lines(page));
        }
        std::fs::write(path, out).expect("write features");
        println!(
            "features of {} WCXB listing and collection pages written to {}",
            pages.len(),
            path.display()
        );
        return;
    }
    if let Some(path) = features_to {
        let mut out = String::new();
        for id in &ids {
            out.push_str(&candidate_lines(&root, *id));
        }
        std::fs::write(&path, out).expect("write features");
        println!(
            "features of {} pages written to {}",
            ids.len(),
            path.display()
        );
        return;
    }
    let mut scores = Vec::new();
    for id in ids {
        let score = evaluate(&root, id, show, all_lists, outline);
        if per_page {
            println!(
                "{:>4}  F1 {:.3}  P {:.3}  R {:.3}  cov {}  truth {:>4}  got {:>4}  {:.1} ms  raw F1 {:.3}  bound {:.3}",
                score.id,
                score.f1,
                score.precision,
                score.recall,
                score.coverage.map_or("  -  ".into(), |c| format!("{c:.3}")),
                score.truth,
                score.returned,
                score.millis,
                score.raw_f1,
                score.one_shape_bound,
            );
        }
        scores.push(score);
    }
    let n = scores.len() as f64;
    let mean = |f: &dyn Fn(&PageScore) -> f64| scores.iter().map(f).sum::<f64>() / n;
    let covered: Vec<f64> = scores.iter().filter_map(|s| s.coverage).collect();
    println!(
        "split {split}: {} pages  F1 {:.3}  P {:.3}  R {:.3}  pages F1>=0.95: {}  detail coverage {:.3}  {:.1} ms/page",
        scores.len(),
        mean(&|s| s.f1),
        mean(&|s| s.precision),
        mean(&|s| s.recall),
        scores.iter().filter(|s| s.f1 >= 0.95).count(),
        covered.iter().sum::<f64>() / covered.len().max(1) as f64,
        mean(&|s| s.millis),
    );
    println!(
        "  counting nested true records: F1 {:.3}, pages F1>=0.95: {}",
        mean(&|s| s.raw_f1),
        scores.iter().filter(|s| s.raw_f1 >= 0.95).count(),
    );
    println!(
        "  one-shape bound: F1 {:.3}, pages F1>=0.95: {}",
        mean(&|s| s.one_shape_bound),
        scores.iter().filter(|s| s.one_shape_bound >= 0.95).count(),
    );
}

fn evaluate(root: &Path, id: u32, show: usize, all_lists: bool, outline: bool) -> PageScore {
    let (html, truth) = load(root, id);
    let doc = Html::parse_document(&html);
    let all_xpaths: Vec<&String> = truth.iter().flatten().collect();
    let nested = |xpaths: &[String]| {
        xpaths.iter().all(|x| {
            all_xpaths.iter().any(|outer| {
                x.strip_prefix(outer.as_str())
                    .is_some_and(|rest| rest.starts_with('/'))
            })
        })
    };
    // Each true record's words, whether it lies inside another one, and its XPaths.
    let labelled: Vec<(HashSet<String>, bool, &Vec<String>)> = truth
        .iter()
        .map(|xpaths| {
            let words = xpaths
                .iter()
                .filter_map(|x| resolve(&doc, x))
                .flat_map(|e| words(&e.text().collect::<Vec<_>>().join(" ")))
                .collect::<HashSet<String>>();
            (words, nested(xpaths), xpaths)
        })
        .filter(|(w, _, _)| !w.is_empty())
        .collect();
    let raw_records: Vec<HashSet<String>> = labelled.iter().map(|(w, _, _)| w.clone()).collect();
    let true_records: Vec<HashSet<String>> = labelled
        .iter()
        .filter(|(_, nested, _)| !nested)
        .map(|(w, _, _)| w.clone())
        .collect();
    let one_shape_bound = {
        let mut shapes: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        for (_, _, xpaths) in labelled.iter().filter(|(_, nested, _)| !nested) {
            let shape: Vec<&str> = xpaths[0]
                .split('/')
                .map(|step| step.split('[').next().unwrap_or(step))
                .collect();
            *shapes.entry(shape.join("/")).or_default() += 1;
        }
        let most = shapes.values().copied().max().unwrap_or(0) as f64;
        2.0 * most / (most + true_records.len().max(1) as f64)
    };

    let started = Instant::now();
    let page = Page::parse(url::Url::parse("https://example.com/").unwrap(), &html);
    let lists = if outline {
        Vec::new()
    } else if all_lists {
        records::find_all(&page, usize::MAX)
    } else {
        records::find(&page, usize::MAX).into_iter().collect()
    };
    let returned: Vec<Vec<String>> = if outline {
        outline_items(&page)
    } else {
        lists.iter().flat_map(record_words).collect()
    };
    let millis = started.elapsed().as_secs_f64() * 1000.0;
    if show > 0 && outline {
        println!(
            "--- {id}: outline block of {} items (truth {})",
            returned.len(),
            true_records.len()
        );
    }
    if show > 0 && !outline {
        if lists.is_empty() {
            println!("--- {id}: no list");
        }
        for list in &lists {
            println!(
                "--- {id}: {} records (truth {}), selector {:?}, columns {:?}",
                list.total,
                true_records.len(),
                list.selector,
                list.columns
                    .iter()
                    .map(|c| format!("{}:{:?}", c.name, c.source))
                    .collect::<Vec<_>>()
            );
            for alt in &list.alternatives {
                println!(
                    "    alt {:.0} x{} {} | {}",
                    alt.score, alt.count, alt.path, alt.sample
                );
            }
            let matching = record_words(list)
                .iter()
                .filter(|got| {
                    !got.is_empty()
                        && true_records.iter().any(|truth| {
                            got.iter().filter(|w| truth.contains(*w)).count() as f64
                                >= MATCH_SHARE * got.len() as f64
                        })
                })
                .count();
            println!(
                "    score {:.0} ({:.2} of the first)  {matching}/{} records in the truth  page {id} columns {}",
                list.score,
                list.score / lists[0].score,
                list.records.len(),
                list.columns.len(),
            );
            println!("    fill {:.2}", list.filled_share());
            for record in list.records.iter().take(show) {
                println!("    {}", serde_json::to_string(record).unwrap());
            }
        }
    }

    let raw_f1 = matching(&returned, &raw_records).f1;
    let Matching {
        precision,
        recall,
        f1,
        coverage,
    } = matching(&returned, &true_records);
    PageScore {
        id,
        precision,
        recall,
        f1,
        coverage,
        raw_f1,
        one_shape_bound,
        truth: true_records.len(),
        returned: returned.len(),
        millis,
    }
}

/// One JSON line per candidate list of page `id`: its features, hand-set score and F1 (each
/// record's words are its elements' text).
fn candidate_lines(root: &Path, id: u32) -> String {
    let (doc_html, true_records) = page_and_truth(root, id);
    let page = Page::parse(url::Url::parse("https://example.com/").unwrap(), &doc_html);
    let mut out = String::new();
    for (records, features, hand) in records::candidate_features(&page) {
        let returned: Vec<Vec<String>> = records
            .iter()
            .map(|ids| {
                ids.iter()
                    .filter_map(|id| page.document.tree.get(*id).and_then(ElementRef::wrap))
                    .flat_map(|el| words(&el.text().collect::<Vec<_>>().join(" ")))
                    .collect()
            })
            .collect();
        let f1 = matching(&returned, &true_records).f1;
        out.push_str(
            &serde_json::json!({
                "page": id,
                "f1": f1,
                "hand": hand,
                "features": features,
                "place": place(&page, &records),
            })
            .to_string(),
        );
        out.push('\n');
    }
    out
}

/// One JSON line per candidate list of a WCXB listing or collection page: its features,
/// hand-set score, where it sits, and the word F1 of its text against the page's labelled main
/// content (the proxy label: the main list is most of a listing page's main content).
fn wcxb_candidate_lines(page: &wcxb::Page) -> String {
    let parsed = Page::parse(
        url::Url::parse(&page.url)
            .unwrap_or_else(|_| url::Url::parse("https://example.com/").unwrap()),
        &page.html,
    );
    let truth = page.truth_str("main_content");
    let mut out = String::new();
    for (records, features, hand) in records::candidate_features(&parsed) {
        let text: String = records
            .iter()
            .flatten()
            .filter_map(|id| parsed.document.tree.get(*id).and_then(ElementRef::wrap))
            .map(|el| el.text().collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join(" ");
        let overlap = wcxb::overlap(&text, truth);
        out.push_str(
            &serde_json::json!({
                "page": format!("w{}", page.id),
                "fold": page.fold(),
                "kind": page.kind,
                "f1": overlap.f1,
                "precision": overlap.precision,
                "recall": overlap.recall,
                "hand": hand,
                "features": features,
                "place": place(&parsed, &records),
            })
            .to_string(),
        );
        out.push('\n');
    }
    out
}

/// Where a list sits on its page: the share of the page's text before its first record, the
/// share the list holds, whether it is inside `<main>`, and the depth of its first record.
fn place(page: &Page, records: &[Vec<ego_tree::NodeId>]) -> serde_json::Value {
    let doc = &page.document;
    let first = records.first().and_then(|r| r.first()).copied();
    let mut total = 0usize;
    let mut before = 0usize;
    for node in doc.tree.nodes() {
        if let Some(text) = node.value().as_text() {
            let len = text.trim().chars().count();
            total += len;
            if first.is_some_and(|f| node.id() < f) {
                before += len;
            }
        }
    }
    let held: usize = records
        .iter()
        .flatten()
        .filter_map(|id| doc.tree.get(*id).and_then(ElementRef::wrap))
        .map(|el| el.text().map(|t| t.trim().chars().count()).sum::<usize>())
        .sum();
    let first_el = first
        .and_then(|id| doc.tree.get(id))
        .and_then(ElementRef::wrap);
    let in_main = first_el.is_some_and(|el| {
        el.ancestors()
            .filter_map(ElementRef::wrap)
            .any(|a| a.value().name() == "main" || a.value().attr("role") == Some("main"))
    });
    let depth = first_el.map_or(0, |el| el.ancestors().count());
    let total = total.max(1) as f64;
    serde_json::json!({
        "before": before as f64 / total,
        "held": held as f64 / total,
        "in_main": in_main,
        "depth": depth,
    })
}

/// A page's HTML and its ground truth (each true record as the XPaths of its elements).
fn load(root: &Path, id: u32) -> (String, Vec<Vec<String>>) {
    let mut html = String::new();
    flate2::read::GzDecoder::new(
        std::fs::File::open(root.join(format!("html/{id}.html.gz"))).expect("page"),
    )
    .read_to_string(&mut html)
    .expect("gzip");
    let truth: Vec<Vec<String>> = serde_json::from_str(
        &std::fs::read_to_string(root.join(format!("ground-truth/{id}.json"))).expect("truth"),
    )
    .expect("truth JSON");
    (html, truth)
}

/// A page's HTML and its true records' words (records nested in others left out).
fn page_and_truth(root: &Path, id: u32) -> (String, Vec<HashSet<String>>) {
    let (html, truth) = load(root, id);
    let doc = Html::parse_document(&html);
    let all: Vec<&String> = truth.iter().flatten().collect();
    let records = truth
        .iter()
        .filter(|xpaths| {
            !xpaths.iter().all(|x| {
                all.iter().any(|outer| {
                    x.strip_prefix(outer.as_str())
                        .is_some_and(|rest| rest.starts_with('/'))
                })
            })
        })
        .map(|xpaths| {
            xpaths
                .iter()
                .filter_map(|x| resolve(&doc, x))
                .flat_map(|e| words(&e.text().collect::<Vec<_>>().join(" ")))
                .collect::<HashSet<String>>()
        })
        .filter(|w| !w.is_empty())
        .collect();
    (html, records)
}

/// The words of each item of the outline's best block outside page chrome (the first block
/// when every block is in chrome), as the heuristic planner selects them.
fn outline_items(page: &Page) -> Vec<Vec<String>> {
    let outline = scrape_agent::read::outline::outline(page);
    let Some(block) = outline
        .blocks
        .iter()
        .find(|b| !b.in_chrome)
        .or_else(|| outline.blocks.first())
    else {
        return Vec::new();
    };
    let Ok(selector) = scraper::Selector::parse(&block.selector) else {
        return Vec::new();
    };
    page.document
        .select(&selector)
        .map(|item| words(&item.text().collect::<Vec<_>>().join(" ")))
        .collect()
}

/// Matches each returned record, in page order, to the unused true record holding most of
/// its words (at least [`MATCH_SHARE`]).
fn matching(returned: &[Vec<String>], true_records: &[HashSet<String>]) -> Matching {
    let mut used = vec![false; true_records.len()];
    let mut matched = 0usize;
    let mut coverage = Vec::new();
    for got in returned {
        if got.is_empty() {
            continue;
        }
        let best = true_records
            .iter()
            .enumerate()
            .filter(|(i, _)| !used[*i])
            .map(|(i, truth)| {
                let inside = got.iter().filter(|w| truth.contains(*w)).count();
                (i, inside as f64 / got.len() as f64)
            })
            .filter(|(_, share)| *share >= MATCH_SHARE)
            .max_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((i, _)) = best {
            used[i] = true;
            matched += 1;
            let got: HashSet<&String> = got.iter().collect();
            let truth = &true_records[i];
            coverage
                .push(truth.iter().filter(|w| got.contains(w)).count() as f64 / truth.len() as f64);
        }
    }
    let precision = if returned.is_empty() {
        0.0
    } else {
        matched as f64 / returned.len() as f64
    };
    let recall = matched as f64 / true_records.len().max(1) as f64;
    let f1 = if precision + recall == 0.0 {
        0.0
    } else {
        2.0 * precision * recall / (precision + recall)
    };
    Matching {
        precision,
        recall,
        f1,
        coverage: (!coverage.is_empty())
            .then(|| coverage.iter().sum::<f64>() / coverage.len() as f64),
    }
}
