//! How many nodes real pages parse into: the figure `limits.max_page_nodes` is set against.
//!
//! Run: `cargo run --release --example memory_page_nodes` (reads the WCXB dev split, the
//! NEXT-EVAL pages and the Readability test pages from `../shared/corpora/`). Prints the
//! largest pages by node count, with their body size and nodes per KiB of body.

use std::io::Read;
use std::path::{Path, PathBuf};

use scrape_agent::page::Page;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let corpora = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora");
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in ["wcxb-dev/html", "next-eval-dev/html"] {
        for entry in std::fs::read_dir(corpora.join(dir))? {
            files.push(entry?.path());
        }
    }
    for entry in std::fs::read_dir(corpora.join("readability/test-pages"))? {
        files.push(entry?.path().join("source.html"));
    }
    let mut counted: Vec<(usize, usize, String)> = Vec::with_capacity(files.len());
    for path in &files {
        let Ok(raw) = std::fs::read(path) else {
            continue;
        };
        let bytes = if path.extension().is_some_and(|e| e == "gz") {
            let mut out = Vec::new();
            flate2::read::GzDecoder::new(raw.as_slice()).read_to_end(&mut out)?;
            out
        } else {
            raw
        };
        let html = String::from_utf8_lossy(&bytes);
        let page = Page::parse(url::Url::parse("https://corpus.example/")?, &html);
        let nodes = page.document.tree.values().len();
        let name = path
            .strip_prefix(&corpora)
            .unwrap_or(path)
            .display()
            .to_string();
        counted.push((nodes, html.len(), name));
    }
    counted.sort_by_key(|c| std::cmp::Reverse(c.0));
    println!("{} pages; the largest by nodes:", counted.len());
    for (nodes, bytes, name) in counted.iter().take(10) {
        println!(
            "{nodes:>9} nodes  {:>9} bytes  {:>5.1} nodes/KiB  {name}",
            bytes,
            *nodes as f64 * 1024.0 / (*bytes).max(1) as f64
        );
    }
    let at = |share: f64| {
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss
        )]
        let index = ((counted.len() as f64 - 1.0) * (1.0 - share)).round() as usize;
        counted.get(index).map_or(0, |c| c.0)
    };
    println!("median {} nodes, p99 {} nodes", at(0.5), at(0.99));
    Ok(())
}
