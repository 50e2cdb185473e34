//! The links of a page for walking a site: its title, its canonical URL, and every http(s) link
//! it makes (anchors and `<link rel=next|prev>`), absolute, fragments dropped, in page order.
//! Links marked `rel=nofollow` are left out: the site asked crawlers not to follow them.

use scraper::ElementRef;

use crate::page::Page;
use crate::page::dom::text_capped;
use crate::page::interrupt::SelectChecked;
use crate::static_selector;

/// Characters of a title or link text kept (enough to rank by words, bounded for huge pages).
const MAX_TEXT_CHARS: usize = 200;

/// What a page says about where it sits in its site.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageLinks {
    /// `<title>`, trimmed (None when absent or empty).
    pub title: Option<String>,
    /// `<link rel=canonical href>`, absolute.
    pub canonical: Option<String>,
    /// Whether `<meta name=robots>` says `nofollow` (its links are then not walked).
    pub nofollow: bool,
    /// Whether `<meta name=robots>` says `noindex`.
    pub noindex: bool,
    /// http(s) links, absolute, without fragments, in page order (repeats kept once).
    pub links: Vec<String>,
    /// A hash of the page's visible words (whitespace collapsed): two pages with the same one
    /// show the same content, whatever their URLs and markup around the text.
    pub content_hash: u64,
}

/// Reads the links of `page`.
pub fn page_links(page: &Page) -> PageLinks {
    let document = &page.document;
    let title = document
        .select_checked(static_selector!("title"))
        .next()
        .map(|t| text_capped(t, MAX_TEXT_CHARS))
        .filter(|t| !t.is_empty());
    let canonical = document
        .select_checked(static_selector!("link[rel][href]"))
        .find(|el| has_token(*el, "rel", "canonical"))
        .and_then(|el| el.value().attr("href"))
        .and_then(|href| http_link(page, href));
    let robots: String = document
        .select_checked(static_selector!("meta[name][content]"))
        .filter(|el| {
            el.value()
                .attr("name")
                .is_some_and(|n| n.eq_ignore_ascii_case("robots"))
        })
        .filter_map(|el| el.value().attr("content"))
        .collect::<Vec<_>>()
        .join(",")
        .to_ascii_lowercase();
    let mut seen = std::collections::HashSet::new();
    let links = document
        .select_checked(static_selector!("a[href], link[rel][href]"))
        .filter(|el| {
            el.value().name() == "a"
                || has_token(*el, "rel", "next")
                || has_token(*el, "rel", "prev")
        })
        .filter(|el| !has_token(*el, "rel", "nofollow"))
        .filter_map(|el| http_link(page, el.value().attr("href")?))
        .filter(|link| seen.insert(link.clone()))
        .collect();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for word in document
        .root_element()
        .text()
        .flat_map(str::split_whitespace)
    {
        std::hash::Hash::hash(word, &mut hasher);
    }
    PageLinks {
        content_hash: std::hash::Hasher::finish(&hasher),
        title,
        canonical,
        nofollow: robots.contains("nofollow") || robots.contains("none"),
        noindex: robots.contains("noindex") || robots.contains("none"),
        links,
    }
}

fn has_token(el: ElementRef<'_>, attr: &str, token: &str) -> bool {
    el.value()
        .attr(attr)
        .is_some_and(|v| v.split_whitespace().any(|t| t.eq_ignore_ascii_case(token)))
}

/// `href` made absolute, http(s) only, without its fragment.
fn http_link(page: &Page, href: &str) -> Option<String> {
    let mut url = page.url.join(href.trim()).ok()?;
    if !matches!(url.scheme(), "http" | "https") {
        return None;
    }
    url.set_fragment(None);
    Some(url.into())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use url::Url;

    use super::*;

    #[test]
    fn links_are_absolute_unique_and_skip_nofollow_and_other_schemes() {
        let page = Page::parse(
            Url::parse("https://a.test/docs/").unwrap(),
            r##"<html><head><title> Docs </title>
            <link rel="canonical" href="/docs/index">
            <link rel="next" href="page2"><link rel="stylesheet" href="s.css"></head>
            <body><a href="x#top">x</a><a href="x">again</a><a href="#only">frag</a>
            <a href="mailto:a@b.c">m</a><a href="javascript:void(0)">j</a>
            <a rel="nofollow" href="/login">login</a><a href="https://b.test/y">y</a></body></html>"##,
        );
        let links = page_links(&page);
        assert_eq!(links.title.as_deref(), Some("Docs"));
        assert_eq!(
            links.canonical.as_deref(),
            Some("https://a.test/docs/index")
        );
        assert_eq!(
            links.links,
            [
                "https://a.test/docs/page2",
                "https://a.test/docs/x",
                "https://a.test/docs/",
                "https://b.test/y"
            ]
        );
        assert!(!links.nofollow);
    }

    #[test]
    fn meta_robots_nofollow_and_noindex_are_read() {
        let page = Page::parse(
            Url::parse("https://a.test/").unwrap(),
            r#"<meta name="ROBOTS" content="noindex, nofollow"><a href="/x">x</a>"#,
        );
        let links = page_links(&page);
        assert!(links.nofollow && links.noindex);
    }

    #[test]
    fn the_same_words_under_other_markup_hash_the_same() {
        let hash = |url: &str, html: &str| {
            page_links(&Page::parse(Url::parse(url).unwrap(), html)).content_hash
        };
        let a = hash(
            "https://a.test/a",
            "<p>Hello   world</p><a href='/x'>more</a>",
        );
        let b = hash(
            "https://a.test/b",
            "<div>Hello world</div>\n<a href='/y'>more</a>",
        );
        let c = hash("https://a.test/c", "<p>Hello there</p>");
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
