//! Metadata quality: title, author and publication date as `html.meta` reads them, against the
//! WCXB dev pages that label an author or a date.
//!
//! ```text
//! cargo run --release --example eval_metadata -- ../shared/corpora/wcxb-dev [--split even|odd|odd1|odd3|all] [--per-page] [--show ID]
//! ```
//!
//! Scores, averaged over the pages that label the field: **date** 1 when the answer is the
//! labelled day (ISO `YYYY-MM-DD`, the answer's first ten characters); **author** and **title**
//! the bag-of-words F1 of the answer with the label (a missing answer scores 0), so "Ada
//! Lovelace, Grace Hopper" against "Ada Lovelace and Grace Hopper" scores 1 and a site name
//! taken for the author 0. Tuning happens on even page ids; odd ids are held out.

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

#[path = "common/wcxb.rs"]
mod wcxb;

use std::path::PathBuf;

use scrape_agent::page::Page;
use scrape_agent::tools::{Registry, ToolCall, ToolLimits, Workspace};
use serde_json::{Value, json};

#[derive(Default)]
struct Field {
    scores: Vec<f64>,
}

impl Field {
    fn push(&mut self, score: f64) {
        self.scores.push(score);
    }
    fn mean(&self) -> f64 {
        if self.scores.is_empty() {
            return 0.0;
        }
        self.scores.iter().sum::<f64>() / self.scores.len() as f64
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .map(String::as_str)
    };
    let dir = args
        .iter()
        .enumerate()
        .find(|(i, a)| {
            !a.starts_with("--")
                && (*i == 0 || !["--split", "--show"].contains(&args[i - 1].as_str()))
        })
        .map_or_else(
            || PathBuf::from("../shared/corpora/wcxb-dev"),
            |(_, a)| PathBuf::from(a),
        );
    let split = flag("--split");
    let show = flag("--show");
    let per_page = args.iter().any(|a| a == "--per-page");

    let pages: Vec<wcxb::Page> = wcxb::load(&dir)
        .into_iter()
        .filter(|p| p.in_split(split))
        .filter(|p| !p.truth_str("author").is_empty() || !p.truth_str("publish_date").is_empty())
        .filter(|p| show.is_none_or(|id| id == p.id))
        .collect();
    let registry = Registry::builtin();
    let (mut title, mut author, mut date) = (Field::default(), Field::default(), Field::default());
    for sample in &pages {
        let page = Page::parse(url::Url::parse(&sample.url).unwrap(), &sample.html);
        let mut ws = Workspace::new(&page, ToolLimits::default());
        let meta = registry
            .execute(&mut ws, &ToolCall::new("html.meta", json!({}), ""))
            .result
            .unwrap_or(Value::Null);
        let answer = |key: &str| meta[key].as_str().unwrap_or("").to_owned();
        let (found_title, found_author, found_date) =
            (answer("title"), answer("author"), answer("published_time"));
        let title_score = wcxb::overlap(&found_title, sample.truth_str("title")).f1;
        title.push(title_score);
        let mut line = format!("{}\ttitle {title_score:.2}", sample.id);
        if !sample.truth_str("author").is_empty() {
            let score = if found_author.is_empty() {
                0.0
            } else {
                wcxb::overlap(&found_author, sample.truth_str("author")).f1
            };
            author.push(score);
            line.push_str(&format!(
                "\tauthor {score:.2} {found_author:?} / {:?}",
                sample.truth_str("author")
            ));
        }
        let truth_date = sample.truth_str("publish_date");
        if !truth_date.is_empty() {
            let same_day = found_date.get(..10) == truth_date.get(..10);
            date.push(f64::from(u8::from(same_day)));
            line.push_str(&format!(
                "\tdate {} {found_date:?} / {truth_date:?}",
                u8::from(same_day)
            ));
        }
        if per_page || show.is_some() {
            println!("{line}");
            if title_score < 0.8 {
                println!(
                    "\t\ttitle {found_title:?} / {:?}",
                    sample.truth_str("title")
                );
            }
        }
    }
    println!(
        "{} pages ({}): title {:.3} ({}), author {:.3} ({}), date {:.3} ({})",
        pages.len(),
        split.unwrap_or("all"),
        title.mean(),
        title.scores.len(),
        author.mean(),
        author.scores.len(),
        date.mean(),
        date.scores.len()
    );
}
