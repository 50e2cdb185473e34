//! Product check against the hand-labelled shop pages in `tests/fixtures/products/`: runs
//! `extract.product`'s reader on every page and prints, per set (`tuned`: the pages the code
//! was tuned on; `later`: pages written afterwards in other layouts), the share of pages whose
//! `sku`, `price`, `currency`, `availability` and `name` match the labels exactly (`brand` too,
//! for information). `--verbose` prints every mismatch.
//!
//! ```text
//! cargo run --example eval_products
//! cargo run --example eval_products -- --verbose
//! ```

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::collections::BTreeMap;
use std::path::Path;

use scrape_agent::page::Page;
use serde_json::Value;

/// The scored fields, in print order.
const FIELDS: &[&str] = &["sku", "price", "currency", "availability", "name", "brand"];

/// Whether the reader's value is the labelled one: prices as amounts (1299 = 1299.00),
/// everything else as the same JSON value (a missing label is `null`).
fn matches(field: &str, got: &Value, want: &Value) -> bool {
    if field == "price" {
        return match (got.as_f64(), want.as_f64()) {
            (Some(g), Some(w)) => (g - w).abs() < 1e-6,
            _ => got.is_null() && want.is_null(),
        };
    }
    got == want
}

fn main() {
    let verbose = std::env::args().any(|a| a == "--verbose");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/products");
    let labels: BTreeMap<String, Value> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("labels.json")).unwrap()).unwrap();
    // set → field → (right, total)
    let mut scores: BTreeMap<String, BTreeMap<&str, (usize, usize)>> = BTreeMap::new();
    for (file, label) in &labels {
        let html = std::fs::read_to_string(dir.join(file)).unwrap();
        let url = url::Url::parse(&format!("https://shop.example/{file}")).unwrap();
        let page = Page::parse(url, &html);
        let got = scrape_agent::read::structured::product(&page, true).unwrap_or(Value::Null);
        let set = label["set"].as_str().unwrap_or("tuned").to_owned();
        for field in FIELDS {
            let (got_value, want) = (&got[*field], &label[*field]);
            let ok = matches(field, got_value, want);
            let score = scores
                .entry(set.clone())
                .or_default()
                .entry(field)
                .or_default();
            score.1 += 1;
            if ok {
                score.0 += 1;
            } else if verbose {
                println!("{set:>5} {file}: {field} = {got_value}, want {want}");
            }
        }
    }
    println!("set    pages  {}", FIELDS.join("  "));
    for (set, fields) in &scores {
        let pages = fields.values().next().map_or(0, |s| s.1);
        let figures: Vec<String> = FIELDS
            .iter()
            .map(|f| {
                let (right, total) = fields.get(f).copied().unwrap_or((0, 0));
                format!("{right}/{total}")
            })
            .collect();
        println!("{set:<6} {pages:>5}  {}", figures.join("  "));
    }
}
