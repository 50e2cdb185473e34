//! The page model: a fetched page parsed once, and the DOM readers everything above it shares.
//!
//! This module sits at the bottom of the dependency graph: page readers (`content`,
//! `structured`, `records`), tools and planners use it; it uses none of them.

pub mod chrome;
pub mod dates;
pub(crate) mod disclosure;
pub mod dom;
pub mod interrupt;
pub mod locale;
pub mod money;
pub mod nesting;
pub mod nodes;

use ego_tree::iter::Edge;
use scraper::{ElementRef, Html, Node};
use url::Url;

pub use interrupt::{Interrupt, Interrupted};
pub use nodes::TooManyNodes;

/// A page parsed once; every tool of the URL reads the same document.
#[derive(Debug)]
pub struct Page {
    /// The page's final URL (base for relative links, unless `<base href>` says otherwise).
    pub url: Url,
    /// The parsed document.
    pub document: Html,
}

impl Page {
    /// Parses `html` fetched from `url` (trusted or test markup: no cap on its nodes).
    pub fn parse(url: Url, html: &str) -> Self {
        let whole = |source: &str, options| {
            use html5ever::tendril::TendrilSink;
            let sink = scraper::HtmlTreeSink::new(Html::new_document());
            Ok::<_, std::convert::Infallible>(
                html5ever::driver::parse_document(sink, options).one(source),
            )
        };
        match Self::assemble(url, html, whole) {
            Ok(page) => page,
            Err(never) => match never {},
        }
    }

    /// Parses `html` fetched from `url`, giving up once the document holds more than
    /// `max_nodes` nodes, before the rest of it is parsed.
    ///
    /// # Errors
    /// [`TooManyNodes`] when the parsed tree would pass `max_nodes`.
    pub fn parse_within(url: Url, html: &str, max_nodes: usize) -> Result<Self, TooManyNodes> {
        Self::assemble(url, html, |source, options| {
            nodes::parse_capped(source, options, max_nodes)
        })
    }

    /// The page from `html`, each parse done by `parse`: the nesting guard first, then the
    /// document, read again from its `<noscript>` when that is where the content is.
    fn assemble<E>(
        url: Url,
        html: &str,
        parse: impl Fn(&str, html5ever::ParseOpts) -> Result<Html, E>,
    ) -> Result<Self, E> {
        let source = nesting::limit_depth(html);
        let mut document = parse(&source, html5ever::ParseOpts::default())?;
        if renders_in_noscript(&document) {
            document = parse_noscript_as_content(&source, parse)?;
        }
        let base = document
            .select(&dom::selector_static("base[href]"))
            .next()
            .and_then(|el| el.value().attr("href"))
            .and_then(|href| url.join(href).ok());
        Ok(Self {
            url: base.unwrap_or(url),
            document,
        })
    }

    /// Resolves a link found in the page to an absolute URL string (None for `javascript:` etc.).
    pub fn absolute(&self, href: &str) -> Option<String> {
        let href = href.trim();
        if href.is_empty() || href.starts_with('#') && href.len() == 1 {
            return None;
        }
        let joined = self.url.join(href).ok()?;
        matches!(joined.scheme(), "http" | "https" | "mailto" | "tel" | "ftp")
            .then(|| joined.to_string())
    }
}

/// Pages that render with JavaScript often put a server-rendered copy of the content in
/// `<noscript>` (Discourse forums do). A parser with scripting on keeps that as raw text, so
/// it is read as markup when the visible page holds almost no prose and a `<noscript>` holds
/// a lot of markup.
fn renders_in_noscript(document: &Html) -> bool {
    const MIN_NOSCRIPT: usize = 2_000;
    let Some(markup) = document
        .select(&dom::selector_static("body noscript"))
        .map(|n| n.text().collect::<String>())
        .filter(|text| text.len() >= MIN_NOSCRIPT && text.contains('<'))
        .map(|text| text.len())
        .max()
    else {
        return false;
    };
    prose_chars(document) * 16 <= markup
}

/// Parses with scripting off, so `<noscript>` content is markup, and turns the body's
/// `<noscript>` elements into plain containers: every tool then reads that content as the page.
fn parse_noscript_as_content<E>(
    source: &str,
    parse: impl Fn(&str, html5ever::ParseOpts) -> Result<Html, E>,
) -> Result<Html, E> {
    let options = html5ever::ParseOpts {
        tree_builder: html5ever::tree_builder::TreeBuilderOpts {
            scripting_enabled: false,
            ..Default::default()
        },
        ..Default::default()
    };
    let mut document = parse(source, options)?;
    let noscripts: Vec<_> = document
        .select(&dom::selector_static("body noscript"))
        .map(|el| el.id())
        .collect();
    for id in noscripts {
        if let Some(mut node) = document.tree.get_mut(id)
            && let scraper::Node::Element(element) = node.value()
        {
            element.name =
                html5ever::QualName::new(None, html5ever::ns!(html), html5ever::local_name!("div"));
        }
    }
    Ok(document)
}

/// Characters of prose in the body (link text discounted, chrome left out), to judge whether
/// the visible page holds any content at all.
fn prose_chars(document: &Html) -> usize {
    let body = document
        .select(&dom::selector_static("body"))
        .next()
        .unwrap_or_else(|| document.root_element());
    let (mut text, mut link) = (0usize, 0usize);
    let mut skipping = None;
    let mut links_open = 0usize;
    for edge in body.traverse() {
        match edge {
            Edge::Open(node) if skipping.is_none() => match node.value() {
                Node::Element(element) => {
                    if ElementRef::wrap(node).is_some_and(chrome::is_structural_chrome) {
                        skipping = Some(node.id());
                    } else if element.name() == "a" {
                        links_open += 1;
                    }
                }
                Node::Text(t) => {
                    let n = t.chars().filter(|c| !c.is_whitespace()).count();
                    text += n;
                    if links_open > 0 {
                        link += n;
                    }
                }
                _ => {}
            },
            Edge::Close(node) => {
                if skipping == Some(node.id()) {
                    skipping = None;
                } else if skipping.is_none()
                    && node.value().as_element().is_some_and(|e| e.name() == "a")
                {
                    links_open = links_open.saturating_sub(1);
                }
            }
            Edge::Open(_) => {}
        }
    }
    text.saturating_sub(link * 4 / 5)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn discourse_like(posts: usize) -> String {
        let post = r#"<div class="topic-body crawler-post"><span class="creator" itemprop="author"><a href="/u/ann"><span itemprop="name">ann</span></a></span><div class="post"><p>A reply long enough to be a real post in a thread about MSRV and editions.</p></div></div>"#;
        format!(
            r#"<html><head><title>Thread</title><meta name="description" content="About MSRV"></head>
            <body><div id="app"></div><noscript><div id="main-outlet"><h1>Thread</h1>{}</div></noscript></body></html>"#,
            post.repeat(posts)
        )
    }

    #[test]
    fn a_page_rendered_in_noscript_is_read_from_it() {
        let page = Page::parse(
            Url::parse("https://forum.example/t/1").unwrap(),
            &discourse_like(40),
        );
        let posts = page
            .document
            .select(&dom::selector_static("div.crawler-post"))
            .count();
        assert_eq!(posts, 40);
        // The head is kept: metadata still reads.
        assert_eq!(
            page.document
                .select(&dom::selector_static("meta[name=description]"))
                .count(),
            1
        );
        let text: String = page.document.root_element().text().collect();
        assert!(text.contains("A reply long enough"));
    }

    #[test]
    fn a_page_with_visible_content_keeps_noscript_as_fallback_text() {
        let html = format!(
            "<html><body><main>{}</main><noscript><p>{}</p></noscript></body></html>",
            "<p>Visible prose of the page, long enough to count as its content.</p>".repeat(40),
            "<b>enable scripts</b> ".repeat(200)
        );
        let page = Page::parse(Url::parse("https://example.com/").unwrap(), &html);
        assert_eq!(page.document.select(&dom::selector_static("b")).count(), 0);
    }
}
