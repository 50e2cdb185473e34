//! Parse + outline + heuristic plan on real pages: the fixed cost of every URL before tools
//! run; and the records engine on the same pages.
#![allow(clippy::expect_used)] // a benchmark with a broken constant URL should stop at once

use std::io::Read;

use criterion::{Criterion, criterion_group, criterion_main};
use scrape_agent::page::Page;
use scrape_agent::planner::heuristic;
use scrape_agent::planner::{Outline, PlannerContext};
use scrape_agent::read::outline::outline;

fn corpus_page(id: &str) -> Option<String> {
    let path = format!(
        "{}/../shared/corpora/wcxb-dev/html/{id}.html.gz",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(path).ok()?;
    let mut html = String::new();
    flate2::read::GzDecoder::new(bytes.as_slice())
        .read_to_string(&mut html)
        .ok()?;
    Some(html)
}

fn context(outline: Outline) -> PlannerContext {
    PlannerContext {
        instructions: "the top 10 items with title, link and price".into(),
        output_instructions: None,
        understood: scrape_agent::planner::intent::parse(
            "the top 10 items with title, link and price",
            None,
        ),
        url: "https://example.com/".into(),
        outline,
        observations: Vec::new(),
        round: 0,
        steps_left: 20,
        have_answer: false,
        tools: Vec::new(),
        model: None,
    }
}

fn bench(c: &mut Criterion) {
    let url = url::Url::parse("https://example.com/").expect("valid URL");
    // A listing, a product collection, an article and a forum thread.
    for id in ["0203", "0634", "0107", "0504"] {
        let Some(html) = corpus_page(id) else {
            eprintln!("corpus page {id} not found; skipping");
            continue;
        };
        let mut group = c.benchmark_group(format!("page_{id}_{}kb", html.len() / 1024));
        group.bench_function("parse", |b| b.iter(|| Page::parse(url.clone(), &html)));
        let page = Page::parse(url.clone(), &html);
        group.bench_function("outline", |b| b.iter(|| outline(&page)));
        // Record detection + field alignment (extract.records) on the parsed page.
        group.bench_function("records", |b| {
            b.iter(|| scrape_agent::read::records::find(&page, 1000))
        });
        // Every list of the page (extract.records with `lists: "all"`).
        group.bench_function("records_all", |b| {
            b.iter(|| scrape_agent::read::records::find_all(&page, 1000))
        });
        let ctx = context(outline(&page));
        group.bench_function("heuristic_plan", |b| b.iter(|| heuristic::plan(&ctx)));
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
