//! A cap on the nodes a parsed page may hold, checked while the parser builds the tree.
//!
//! A parsed node costs far more than the markup that makes it: `<b>x</b>` is 8 bytes of body
//! and two nodes (an element with its name and attribute list, a text node), around 20 times
//! that in memory. A page under the body cap made of tiny elements (1.4 million `<b>`s in
//! 10 MiB) would hold hundreds of megabytes per run. The tree builder can also make more
//! nodes than the markup shows (formatting elements reopened in every block), so the nodes
//! are counted where they are made, in the tree, not guessed from the source: the document
//! is fed to html5ever in slices and the tree's size is read after each one, so a page over
//! the cap stops one slice past it instead of being parsed whole first.

use html5ever::tendril::{StrTendril, TendrilSink};
use scraper::{Html, HtmlTreeSink};

/// Bytes of markup fed to the parser between two looks at the tree's size: small enough that
/// a page stops soon after the cap (a slice makes at most a few thousand nodes from its own
/// tags), large enough that the looks cost nothing next to the parse.
const SLICE_BYTES: usize = 16 * 1024;

/// A byte-order mark.
const BOM: char = '\u{feff}';

/// A page whose parsed tree grew past the node cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the page has more than {limit} HTML nodes (elements, texts, comments)")]
pub struct TooManyNodes {
    /// The cap that was passed.
    pub limit: usize,
}

/// Parses `source` with `options`, giving up as soon as the tree holds more than `limit`
/// nodes.
pub(super) fn parse_capped(
    source: &str,
    options: html5ever::ParseOpts,
    limit: usize,
) -> Result<Html, TooManyNodes> {
    let mut parser =
        html5ever::driver::parse_document(HtmlTreeSink::new(Html::new_document()), options);
    let mut rest = source;
    while !rest.is_empty() {
        let mut end = rest.floor_char_boundary(SLICE_BYTES.min(rest.len()));
        // A first character wider than the slice (impossible at 16 KiB, but cheap to handle)
        // would otherwise give an empty slice forever.
        if end == 0 {
            end = rest.ceil_char_boundary(1);
        }
        // The tokenizer drops a byte-order mark at the start of every chunk it is fed (it
        // means the document's first): no slice after the first starts with one.
        while rest[end..].starts_with(BOM) {
            end += BOM.len_utf8();
        }
        let (slice, after) = rest.split_at(end);
        parser.process(StrTendril::from_slice(slice));
        if parser.tokenizer.sink.sink.0.borrow().tree.values().len() > limit {
            return Err(TooManyNodes { limit });
        }
        rest = after;
    }
    let document = parser.finish();
    // Closing the document can add the elements it implies (`<html>`, `<head>`, `<body>`).
    if document.tree.values().len() > limit {
        return Err(TooManyNodes { limit });
    }
    Ok(document)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(source: &str, max_nodes: usize) -> Result<Html, TooManyNodes> {
        parse_capped(source, html5ever::ParseOpts::default(), max_nodes)
    }

    #[test]
    fn a_capped_parse_builds_the_same_tree_as_one_pass() {
        // Slices end inside tags, entities and multi-byte characters: the tokenizer carries
        // its state across them.
        let page = format!(
            "<!DOCTYPE html><html><head><title>t</title></head><body>{}</body></html>",
            "<p class=\"a\">caf\u{e9} &amp; cr\u{e8}me &eacute; <a href='/x?a=1&b=2'>\u{1f600} link</a></p>"
                .repeat(2_000)
        );
        let whole = Html::parse_document(&page);
        let sliced = parse(&page, usize::MAX).unwrap();
        assert_eq!(whole.html(), sliced.html());
        assert_eq!(whole.tree.values().len(), sliced.tree.values().len());
    }

    #[test]
    fn a_byte_order_mark_at_a_slice_boundary_is_kept_as_one_pass_keeps_it() {
        // Found by the property test of the node cap: a mark that began the second slice
        // was dropped.
        for shift in 0..4 {
            let page = format!("{}\u{feff}\r\n\0x", "y".repeat(SLICE_BYTES - shift));
            let whole = Html::parse_document(&page);
            let sliced = parse(&page, usize::MAX).unwrap();
            assert_eq!(whole.html(), sliced.html(), "shift {shift}");
        }
    }

    #[test]
    fn a_page_past_the_cap_stops_soon_after_it() {
        let page = "<b>x</b>".repeat(200_000);
        let err = parse(&page, 10_000).unwrap_err();
        assert_eq!(err, TooManyNodes { limit: 10_000 });
        // Under the cap nothing changes.
        assert!(parse("<p>one</p><p>two</p>", 100).is_ok());
    }

    #[test]
    fn nodes_the_parser_makes_count_too() {
        // Eight formatting elements left open are reopened in every block that follows: the
        // markup has 2 tags per block, the tree 10 elements.
        let open: String = (0..8).map(|i| format!("<b id=b{i}>")).collect();
        let page = format!("<div>{open}</div>{}", "<div>x</div>".repeat(3_000));
        let tags = page.matches('<').count();
        assert!(parse(&page, tags * 2).is_err());
    }
}
