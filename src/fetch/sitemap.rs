//! Sitemaps (sitemaps.org): a `<urlset>` of pages or a `<sitemapindex>` of more sitemaps,
//! plain or gzip, found through robots.txt `Sitemap:` lines and `/sitemap.xml`. Every sitemap is
//! fetched as a page is (guard, robots, politeness, body cap), and reading them is bounded: at
//! most [`SitemapLimits::max_sitemaps`] documents, [`SitemapLimits::max_urls`] URLs, indexes
//! nested at most [`MAX_INDEX_DEPTH`] deep, and a gzip body inflated to at most
//! [`MAX_INFLATED_BYTES`].

use std::collections::{HashSet, VecDeque};
use std::io::Read;

use quick_xml::Reader;
use quick_xml::events::Event;
use url::Url;

use super::Fetcher;

/// The sitemaps.org limit on one sitemap file, uncompressed (50 MB): a gzip body that inflates
/// past it is refused rather than read (a small "gzip bomb" cannot fill memory).
pub const MAX_INFLATED_BYTES: u64 = 50 * 1024 * 1024;

/// How deep sitemap indexes may nest: the protocol allows one level (an index of sitemaps); two
/// tolerates sites that index their indexes, and stops an index that lists itself.
pub const MAX_INDEX_DEPTH: u32 = 2;

/// What one sitemap document is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sitemap {
    /// `<urlset>`: pages.
    Pages(Vec<SitemapEntry>),
    /// `<sitemapindex>`: more sitemaps.
    Index(Vec<String>),
}

/// One `<url>` of a `<urlset>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitemapEntry {
    /// `<loc>`.
    pub loc: String,
    /// `<lastmod>`, as written.
    pub lastmod: Option<String>,
}

/// Why a sitemap could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SitemapError {
    /// The gzip stream is broken or inflates past [`MAX_INFLATED_BYTES`].
    #[error("the gzip body cannot be inflated: {0}")]
    Gzip(String),
    /// Not XML, or neither `<urlset>` nor `<sitemapindex>`.
    #[error("not a sitemap: {0}")]
    NotSitemap(String),
}

/// Reads a sitemap body: gzip (by its magic bytes, whatever the URL or type says) or XML.
///
/// # Errors
/// [`SitemapError`] when the body is neither.
pub fn parse(body: &[u8]) -> Result<Sitemap, SitemapError> {
    if body.starts_with(&[0x1f, 0x8b]) {
        let mut inflated = Vec::new();
        flate2::read::MultiGzDecoder::new(body)
            .take(MAX_INFLATED_BYTES + 1)
            .read_to_end(&mut inflated)
            .map_err(|e| SitemapError::Gzip(e.to_string()))?;
        if inflated.len() as u64 > MAX_INFLATED_BYTES {
            return Err(SitemapError::Gzip(format!(
                "inflates past {MAX_INFLATED_BYTES} bytes"
            )));
        }
        return parse_xml(&inflated);
    }
    parse_xml(body)
}

/// Which element's text is being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    None,
    Loc,
    Lastmod,
}

fn parse_xml(body: &[u8]) -> Result<Sitemap, SitemapError> {
    let mut reader = Reader::from_reader(body);
    let mut buf = Vec::new();
    let mut root: Option<bool> = None; // Some(true) for an index
    let mut field = Field::None;
    let mut text = String::new();
    let mut loc: Option<String> = None;
    let mut lastmod: Option<String> = None;
    let mut pages = Vec::new();
    let mut sitemaps = Vec::new();
    loop {
        let event = reader
            .read_event_into(&mut buf)
            .map_err(|e| SitemapError::NotSitemap(e.to_string()))?;
        match event {
            Event::Start(e) => match e.local_name().as_ref() {
                "urlset" if root.is_none() => root = Some(false),
                "sitemapindex" if root.is_none() => root = Some(true),
                "url" | "sitemap" => {
                    loc = None;
                    lastmod = None;
                }
                "loc" => {
                    field = Field::Loc;
                    text.clear();
                }
                "lastmod" => {
                    field = Field::Lastmod;
                    text.clear();
                }
                _ => {}
            },
            Event::Text(t) if field != Field::None => text.push_str(&t.xml10_content()),
            Event::CData(t) if field != Field::None => {
                text.push_str(&t.xml10_content());
            }
            Event::GeneralRef(r) if field != Field::None => {
                let name = r.to_string();
                match r.resolve_char_ref() {
                    Ok(Some(c)) => text.push(c),
                    _ => text.push_str(match name.as_str() {
                        "amp" => "&",
                        "lt" => "<",
                        "gt" => ">",
                        "quot" => "\"",
                        "apos" => "'",
                        _ => "",
                    }),
                }
            }
            Event::End(e) => match e.local_name().as_ref() {
                "loc" => {
                    loc = Some(text.trim().to_owned());
                    field = Field::None;
                }
                "lastmod" => {
                    lastmod = Some(text.trim().to_owned());
                    field = Field::None;
                }
                "url" => {
                    if let Some(loc) = loc.take().filter(|l| !l.is_empty()) {
                        pages.push(SitemapEntry {
                            loc,
                            lastmod: lastmod.take(),
                        });
                    }
                }
                "sitemap" => {
                    if let Some(loc) = loc.take().filter(|l| !l.is_empty()) {
                        sitemaps.push(loc);
                    }
                }
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    match root {
        Some(true) => Ok(Sitemap::Index(sitemaps)),
        Some(false) => Ok(Sitemap::Pages(pages)),
        None => Err(SitemapError::NotSitemap(
            "neither <urlset> nor <sitemapindex>".into(),
        )),
    }
}

/// How much of a site's sitemaps one discovery reads.
#[derive(Debug, Clone, Copy)]
pub struct SitemapLimits {
    /// Sitemap documents fetched at most (indexes included).
    pub max_sitemaps: usize,
    /// Page URLs kept at most.
    pub max_urls: usize,
}

/// What reading a site's sitemaps found.
#[derive(Debug, Clone, Default)]
pub struct SitemapPages {
    /// The pages listed, in the order read (not yet deduplicated or scoped).
    pub pages: Vec<SitemapEntry>,
    /// The sitemaps read, in order.
    pub read: Vec<String>,
    /// Sitemaps that could not be fetched or read, and why.
    pub failed: Vec<(String, String)>,
    /// Whether a limit stopped the reading.
    pub truncated: bool,
}

/// Reads the sitemaps of `site`'s origin: the robots.txt `Sitemap:` lines, else `/sitemap.xml`;
/// indexes are followed breadth-first. Sitemaps on another origin are read only when
/// `accept_sitemap` says so (the caller's scope).
pub async fn discover(
    fetcher: &Fetcher,
    site: &Url,
    limits: SitemapLimits,
    accept_sitemap: impl Fn(&Url) -> bool,
) -> SitemapPages {
    let mut found = SitemapPages::default();
    let mut starts = fetcher.robots_sitemaps(site).await;
    if starts.is_empty()
        && let Ok(default) = site.join("/sitemap.xml")
    {
        starts.push(default.to_string());
    }
    let mut queue: VecDeque<(String, u32)> = starts.into_iter().map(|s| (s, 0)).collect();
    let mut seen: HashSet<String> = HashSet::new();
    while let Some((address, depth)) = queue.pop_front() {
        if !seen.insert(address.clone()) {
            continue;
        }
        let Ok(url) = Url::parse(&address) else {
            found.failed.push((address, "not a URL".into()));
            continue;
        };
        if !accept_sitemap(&url) {
            found.failed.push((address, "outside the site".into()));
            continue;
        }
        if found.read.len() >= limits.max_sitemaps {
            found.truncated = true;
            break;
        }
        found.read.push(address.clone());
        let body = match fetcher.fetch_bytes(&address).await {
            Ok(body) => body,
            Err(err) => {
                found.failed.push((address, err.to_string()));
                continue;
            }
        };
        match parse(&body.body) {
            Ok(Sitemap::Pages(pages)) => {
                for page in pages {
                    if found.pages.len() >= limits.max_urls {
                        found.truncated = true;
                        break;
                    }
                    found.pages.push(page);
                }
            }
            Ok(Sitemap::Index(more)) if depth < MAX_INDEX_DEPTH => {
                queue.extend(more.into_iter().map(|m| (m, depth + 1)));
            }
            Ok(Sitemap::Index(_)) => {
                found
                    .failed
                    .push((address, format!("indexes nested past {MAX_INDEX_DEPTH}")));
            }
            Err(err) => found.failed.push((address, err.to_string())),
        }
        if found.pages.len() >= limits.max_urls {
            found.truncated = true;
            break;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use std::io::Write;

    use super::*;

    #[test]
    fn a_urlset_gives_its_pages_with_lastmod_and_entities() {
        let xml = br#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://a.test/x?a=1&amp;b=2</loc><lastmod>2024-01-02</lastmod></url>
  <url><loc> https://a.test/y </loc></url>
  <url><loc></loc></url>
</urlset>"#;
        let Sitemap::Pages(pages) = parse(xml).unwrap() else {
            panic!("a urlset")
        };
        assert_eq!(pages.len(), 2);
        assert_eq!(pages[0].loc, "https://a.test/x?a=1&b=2");
        assert_eq!(pages[0].lastmod.as_deref(), Some("2024-01-02"));
        assert_eq!(pages[1].loc, "https://a.test/y");
    }

    #[test]
    fn an_index_gives_its_sitemaps() {
        let xml = br#"<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://a.test/s1.xml</loc></sitemap>
  <sitemap><loc><![CDATA[https://a.test/s2.xml.gz]]></loc></sitemap>
</sitemapindex>"#;
        assert_eq!(
            parse(xml).unwrap(),
            Sitemap::Index(vec![
                "https://a.test/s1.xml".into(),
                "https://a.test/s2.xml.gz".into()
            ])
        );
    }

    #[test]
    fn a_gzip_sitemap_is_inflated() {
        let xml = br#"<urlset><url><loc>https://a.test/z</loc></url></urlset>"#;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(xml).unwrap();
        let body = gz.finish().unwrap();
        let Sitemap::Pages(pages) = parse(&body).unwrap() else {
            panic!("a urlset")
        };
        assert_eq!(pages[0].loc, "https://a.test/z");
    }

    #[test]
    fn html_and_broken_gzip_are_refused_by_name() {
        assert!(matches!(
            parse(b"<html><body>hi</body></html>"),
            Err(SitemapError::NotSitemap(_))
        ));
        assert!(matches!(
            parse(&[0x1f, 0x8b, 0, 1, 2]),
            Err(SitemapError::Gzip(_))
        ));
    }

    #[test]
    fn a_gzip_bomb_stops_at_the_inflated_cap() {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let zeros = vec![b' '; 1024 * 1024];
        for _ in 0..=(MAX_INFLATED_BYTES / zeros.len() as u64) {
            gz.write_all(&zeros).unwrap();
        }
        let body = gz.finish().unwrap();
        assert!(body.len() < 1024 * 1024, "small on the wire");
        assert!(matches!(parse(&body), Err(SitemapError::Gzip(_))));
    }
}
