//! Structured-data check against the extruct test samples: for every page with an expected
//! JSON-LD (`.jsonld`) or microdata (`.json` in extruct's `{type, properties}` shape) output,
//! compares what `structured::json_ld` / `structured::microdata` find, and prints
//! `extract.product` for the pages that have one.
//!
//! With `--wcxb DIR` it also reports how many fields `extract.product` fills on the WCXB
//! product pages (no ground truth for products there: coverage, not accuracy).
//!
//! ```text
//! cargo run --release --example eval_structured -- /work/shared/corpora/extruct/samples
//! cargo run --release --example eval_structured -- /work/shared/corpora/extruct/samples \
//!     --wcxb /work/shared/corpora/wcxb-dev
//! ```

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::path::{Path, PathBuf};

use scrape_agent::page::Page;
use serde_json::{Map, Value};

/// Relative URLs in the samples resolve against this; it is stripped again before comparing,
/// because extruct's expected outputs keep them relative.
const BASE: &str = "http://extruct.invalid/";

fn main() {
    let root = std::env::args().nth(1).map_or_else(
        || PathBuf::from("/work/shared/corpora/extruct/samples"),
        PathBuf::from,
    );
    let verbose = std::env::args().any(|a| a == "--verbose");
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    let (mut ld_ok, mut ld_n, mut md_ok, mut md_n) = (0, 0, 0, 0);
    for html_path in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
    {
        let Ok(bytes) = std::fs::read(html_path) else {
            continue;
        };
        let html = String::from_utf8_lossy(&bytes);
        let page = Page::parse(url::Url::parse(BASE).unwrap(), &html);
        let name = html_path.strip_prefix(&root).unwrap_or(html_path).display();
        let jsonld = html_path.with_extension("jsonld");
        if let Some(expected) = read_json(&jsonld) {
            ld_n += 1;
            let mut want = Vec::new();
            // Some samples wrap the expected items as {"items": [[…], […]]}.
            let expected = match expected {
                Value::Object(mut m) if m.contains_key("items") && m.len() == 1 => {
                    m.remove("items").unwrap_or_default()
                }
                other => other,
            };
            flatten(expected, None, &mut want);
            let got: Vec<Value> = scrape_agent::read::structured::json_ld(&page);
            let ok = same_items(&got, &want);
            ld_ok += usize::from(ok);
            println!("json-ld   {} {name}", if ok { "ok  " } else { "DIFF" });
            if !ok && verbose {
                println!("  want {}\n  got  {}", Value::from(want), Value::from(got));
            }
        }
        let md = html_path.with_extension("json");
        if let Some(expected) = read_json(&md).filter(is_microdata_shape) {
            md_n += 1;
            let got: Vec<Value> = scrape_agent::read::structured::microdata(&page)
                .iter()
                .map(|i| normalize(&to_extruct(i, "", true)))
                .collect();
            let want = expected.as_array().cloned().unwrap_or_default();
            let want: Vec<Value> = want.iter().map(normalize).collect();
            let ok = same_items(&got, &want);
            md_ok += usize::from(ok);
            println!("microdata {} {name}", if ok { "ok  " } else { "DIFF" });
            if !ok && verbose {
                println!("  want {}\n  got  {}", Value::from(want), Value::from(got));
            }
        }
        if let Some(product) = scrape_agent::read::structured::product(&page, false)
            && (name.to_string().contains("product") || verbose)
        {
            println!("product   {name}: {product}");
        }
    }
    println!("\nJSON-LD:   {ld_ok}/{ld_n} pages match extruct exactly");
    println!("microdata: {md_ok}/{md_n} pages match extruct exactly");
    let args: Vec<String> = std::env::args().collect();
    if let Some(dir) = args
        .windows(2)
        .find(|w| w[0] == "--wcxb")
        .map(|w| PathBuf::from(&w[1]))
    {
        product_coverage(&dir, verbose);
    }
}

fn product_coverage(dir: &Path, verbose: bool) {
    use std::io::Read;
    let meta = read_json(&dir.join("metadata.json")).unwrap_or_default();
    let mut pages = 0;
    let mut found = 0;
    let mut filled: std::collections::BTreeMap<String, usize> = Default::default();
    for (id, info) in meta.as_object().into_iter().flatten() {
        if info["page_type"] != "product" {
            continue;
        }
        let Ok(gz) = std::fs::read(dir.join(format!("html/{id}.html.gz"))) else {
            continue;
        };
        let mut html = String::new();
        if flate2::read::GzDecoder::new(&gz[..])
            .read_to_string(&mut html)
            .is_err()
        {
            continue;
        }
        pages += 1;
        let url = read_json(&dir.join(format!("ground-truth/{id}.json")))
            .and_then(|t| t["url"].as_str().map(str::to_owned))
            .and_then(|u| url::Url::parse(&u).ok())
            .unwrap_or_else(|| url::Url::parse(BASE).unwrap());
        let page = Page::parse(url, &html);
        if let Some(product) = scrape_agent::read::structured::product(&page, false) {
            found += 1;
            for (k, v) in product.as_object().into_iter().flatten() {
                if !v.is_null() {
                    *filled.entry(k.clone()).or_default() += 1;
                }
            }
            if verbose {
                println!("wcxb {id}: {product}");
            }
        }
    }
    println!("\nWCXB product pages: {found}/{pages} give a product; fields filled:");
    for (k, n) in filled {
        println!("  {k:<13} {n}/{pages}");
    }
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

fn is_microdata_shape(v: &Value) -> bool {
    // OpenGraph and microformat samples carry `properties` too, but as lists or with
    // `namespace`/`children`; microdata items are objects of properties.
    v.as_array().is_some_and(|a| {
        !a.is_empty()
            && a.iter().all(|i| {
                i.get("properties").is_some_and(Value::is_object)
                    && i.get("namespace").is_none()
                    && i.get("children").is_none()
                    && !i["type"].as_str().is_some_and(|t| t.starts_with("h-"))
                    && !i["type"][0].as_str().is_some_and(|t| t.starts_with("h-"))
            })
    })
}

fn flatten(value: Value, context: Option<&Value>, out: &mut Vec<Value>) {
    match value {
        Value::Array(a) => a.into_iter().for_each(|v| flatten(v, context, out)),
        Value::Object(mut m) => {
            let ctx = m.get("@context").cloned();
            let ctx = ctx.as_ref().or(context);
            if let Some(graph) = m.remove("@graph") {
                for mut member in graph.as_array().cloned().unwrap_or_default() {
                    if let (Some(c), Some(obj)) = (ctx, member.as_object_mut())
                        && !obj.contains_key("@context")
                    {
                        obj.insert("@context".into(), c.clone());
                    }
                    out.push(member);
                }
            } else if !m.is_empty() {
                out.push(Value::Object(m));
            }
        }
        _ => {}
    }
}

/// Our JSON-LD-shaped microdata item in extruct's `{type, properties, id}` shape.
fn to_extruct(item: &Value, inherited: &str, is_item: bool) -> Value {
    let Some(map) = item.as_object() else {
        return strip_base(item);
    };
    if !is_item && !map.contains_key("@type") && !map.contains_key("@context") {
        return strip_base(item);
    }
    let vocab = map
        .get("@context")
        .and_then(Value::as_str)
        .unwrap_or(inherited);
    let join = |t: &Value| {
        Value::String(format!(
            "{vocab}{}{}",
            if vocab.is_empty() { "" } else { "/" },
            t.as_str().unwrap_or("")
        ))
    };
    let mut out = Map::new();
    match map.get("@type") {
        Some(Value::Array(ts)) => {
            out.insert("type".into(), Value::Array(ts.iter().map(join).collect()));
        }
        Some(t) => {
            out.insert("type".into(), join(t));
        }
        None => {}
    }
    if let Some(id) = map.get("@id") {
        out.insert("id".into(), strip_base(id));
    }
    let mut props = Map::new();
    for (k, v) in map {
        if k.starts_with('@') {
            continue;
        }
        let v = match v {
            Value::Array(a) => {
                Value::Array(a.iter().map(|i| to_extruct(i, vocab, false)).collect())
            }
            other => to_extruct(other, vocab, false),
        };
        props.insert(k.clone(), v);
    }
    out.insert("properties".into(), Value::Object(props));
    Value::Object(out)
}

fn strip_base(v: &Value) -> Value {
    match v {
        Value::String(s) => Value::String(s.strip_prefix(BASE).unwrap_or(s).to_owned()),
        other => other.clone(),
    }
}

/// Removes differences of form, not of content: single-value lists (extruct's w3c samples
/// list every value) become the value, whitespace is trimmed, and URLs are compared the way
/// a URL parser writes them (extruct keeps attribute values unresolved, we resolve them:
/// `/a` and `a` both resolve to `BASE` + `a`; `http://x.com` gains its `/`).
fn normalize(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            Value::Object(m.iter().map(|(k, v)| (k.clone(), normalize(v))).collect())
        }
        Value::Array(a) if a.len() == 1 => normalize(&a[0]),
        Value::Array(a) => Value::Array(a.iter().map(normalize).collect()),
        Value::String(s) => {
            let s = s.trim();
            let s = s
                .strip_prefix('/')
                .filter(|r| !r.starts_with('/'))
                .unwrap_or(s);
            Value::String(s.trim_end_matches('/').to_owned())
        }
        other => other.clone(),
    }
}

fn same_items(got: &[Value], want: &[Value]) -> bool {
    got.len() == want.len() && want.iter().all(|w| got.contains(w))
}
