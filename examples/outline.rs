//! Prints the page outline the planners see, for a local HTML file (optionally `.gz`).
//! Run: `cargo run --example outline -- PAGE.html[.gz] [URL]`.

use std::io::Read;

use scrape_agent::page::Page;
use scrape_agent::read::outline::outline;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: outline PAGE.html[.gz] [URL]")?;
    let url = url::Url::parse(&args.next().unwrap_or_else(|| "https://example.com/".into()))?;
    let bytes = std::fs::read(&path)?;
    let html = if path.ends_with(".gz") {
        let mut text = String::new();
        flate2::read::GzDecoder::new(bytes.as_slice()).read_to_string(&mut text)?;
        text
    } else {
        String::from_utf8_lossy(&bytes).into_owned()
    };
    let started = std::time::Instant::now();
    let page = Page::parse(url, &html);
    let parsed = started.elapsed();
    let outline = outline(&page);
    eprintln!("parse {parsed:?}, outline {:?}", started.elapsed() - parsed);
    println!("{}", serde_json::to_string_pretty(&outline)?);
    Ok(())
}
