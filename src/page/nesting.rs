//! A guard against pathologically deep markup before it reaches the HTML parser.
//!
//! html5ever's time grows with the square of the nesting depth (5,000 nested `<div>`s take
//! seconds, 20,000 minutes), and a body at the fetch cap can hold far more. Browsers stop
//! nesting at a few hundred levels; no real page needs more than [`MAX_DEPTH`]. The scan is
//! approximate by design: it counts elements that must be closed explicitly, and skips void
//! elements, elements the parser closes by itself (`<p>`, `<li>`, `<td>`…), comments and the
//! contents of raw-text elements, so ordinary pages are never cut.

use std::borrow::Cow;

/// Open elements allowed before the rest of the document is dropped.
pub const MAX_DEPTH: usize = 1024;

/// Elements that never have content or are closed implicitly by the parser.
const NOT_COUNTED: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr", "p", "li", "dt", "dd", "td", "th", "tr", "tbody", "thead", "tfoot", "option",
    "optgroup", "colgroup", "rb", "rt", "rp", "html", "head", "body", "!doctype",
];

/// Elements whose content is text, not markup.
const RAW_TEXT: &[&str] = &[
    "script",
    "style",
    "textarea",
    "title",
    "xmp",
    "noembed",
    "noframes",
    "plaintext",
];

/// The document cut before the element that would nest deeper than [`MAX_DEPTH`], or the
/// document itself when it never does.
pub fn limit_depth(html: &str) -> Cow<'_, str> {
    let bytes = html.as_bytes();
    let mut depth = 0usize;
    let mut at = 0;
    while let Some(offset) = memchr(b'<', &bytes[at..]) {
        let start = at + offset;
        let rest = &html[start..];
        if rest.starts_with("<!--") {
            at = rest.find("-->").map_or(bytes.len(), |end| start + end + 3);
            continue;
        }
        let closing = rest.starts_with("</");
        let name_start = start + if closing { 2 } else { 1 };
        let name: String = html[name_start..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '!')
            .take(32)
            .collect::<String>()
            .to_ascii_lowercase();
        let tag_end = html[name_start..]
            .find('>')
            .map_or(bytes.len(), |end| name_start + end + 1);
        if name.is_empty() {
            at = start + 1;
            continue;
        }
        if closing {
            if !NOT_COUNTED.contains(&name.as_str()) {
                depth = depth.saturating_sub(1);
            }
            at = tag_end;
            continue;
        }
        if RAW_TEXT.contains(&name.as_str()) {
            // Skip to the matching end tag: `"<div>"` inside a script is not markup.
            at = end_tag(bytes, tag_end, name.as_bytes());
            continue;
        }
        let self_closing = html[start..tag_end].trim_end_matches('>').ends_with('/');
        if !NOT_COUNTED.contains(&name.as_str()) && !self_closing {
            depth += 1;
            if depth > MAX_DEPTH {
                tracing::warn!(
                    depth,
                    cut_at = start,
                    "document nests too deep; the rest is dropped"
                );
                return Cow::Owned(html[..start].to_owned());
            }
        }
        at = tag_end;
    }
    Cow::Borrowed(html)
}

/// Where `</name` (any case) starts at or after `from`, or the end of the document.
fn end_tag(bytes: &[u8], from: usize, name: &[u8]) -> usize {
    let mut search = from;
    while let Some(offset) = memchr(b'<', bytes.get(search..).unwrap_or_default()) {
        let candidate = search + offset;
        let after = bytes.get(candidate + 1..).unwrap_or_default();
        if after.first() == Some(&b'/')
            && after.len() > name.len()
            && after[1..=name.len()].eq_ignore_ascii_case(name)
        {
            return candidate;
        }
        search = candidate + 1;
    }
    bytes.len()
}

fn memchr(needle: u8, haystack: &[u8]) -> Option<usize> {
    haystack.iter().position(|b| *b == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_markup_is_untouched() {
        let page = "<!DOCTYPE html><html><head><title>a < b</title><script>var s = '<div><div><div>';</script></head>\
                    <body><ul><li>one<li>two</ul><p>unclosed<p>paragraphs<table><tr><td>x<td>y</table><img src=a><br/>\
                    <!-- <div><div> --><div><span>ok</span></div></body></html>";
        assert!(matches!(limit_depth(page), Cow::Borrowed(_)));
        let many_paragraphs = "<p>text".repeat(50_000);
        assert!(matches!(limit_depth(&many_paragraphs), Cow::Borrowed(_)));
    }

    #[test]
    fn deep_nesting_is_cut_at_the_limit() {
        let deep = format!(
            "<html><body>{}x{}</body></html>",
            "<div>".repeat(50_000),
            "</div>".repeat(50_000)
        );
        let cut = limit_depth(&deep);
        assert_eq!(cut.matches("<div>").count(), MAX_DEPTH);
        // Page::parse applies the guard: the parsed document holds the capped nesting only.
        let page =
            super::super::Page::parse(url::Url::parse("https://deep.example/").unwrap(), &deep);
        let divs = page
            .document
            .select(&scraper::Selector::parse("div").unwrap())
            .count();
        assert_eq!(divs, MAX_DEPTH);
    }
}
