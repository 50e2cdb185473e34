//! The headline a reader sees: the page's own `<h1>` or what the page declares.

use scraper::Html;

use super::sources::MetaTags;
use crate::page::dom::flat_text;

/// A headline agrees with a declared title when this share of its words is in it.
const AGREEMENT: f64 = 0.3;

/// The headline: the page's own `<h1>` when what the page declares (JSON-LD `headline`,
/// `og:title`, `<title>`) agrees with it or declares nothing; otherwise the `<h1>` is a
/// section heading or a logo, and the declared title is the page's.
pub(super) fn title(
    doc: &Html,
    metas: &MetaTags,
    ld_headline: Option<String>,
    document_title: Option<&str>,
) -> Option<String> {
    let h1 = super::byline::headline(doc).map(flat_text);
    let declared: Vec<String> = ld_headline
        .into_iter()
        .chain(metas.first(&["og:title", "twitter:title", "dc.title"]))
        .chain(document_title.map(clean_title))
        .filter(|t| !t.is_empty())
        .collect();
    match h1 {
        Some(h1) if declared.is_empty() || declared.iter().any(|d| agrees(&h1, d)) => Some(h1),
        _ => declared.into_iter().next(),
    }
}

/// A title's words, lower-cased, for comparing titles.
pub(super) fn title_words(title: &str) -> Vec<String> {
    title
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether most words of the shorter title are in the longer one.
fn agrees(a: &str, b: &str) -> bool {
    let (a, b) = (title_words(a), title_words(b));
    let (short, long) = if a.len() <= b.len() {
        (&a, &b)
    } else {
        (&b, &a)
    };
    if short.is_empty() {
        return false;
    }
    let shared = short.iter().filter(|w| long.contains(w)).count();
    shared as f64 >= AGREEMENT * short.len() as f64
}

/// Drops a site name appended to a document title ("Story | Site" → "Story") when what
/// remains is still a real title.
pub(super) fn clean_title(title: &str) -> String {
    for sep in [" | ", " - ", " – ", " — ", " :: ", " » ", " · "] {
        if let Some(i) = title.rfind(sep) {
            let head = title[..i].trim();
            if head.split_whitespace().count() >= 3 {
                return head.to_owned();
            }
        }
    }
    title.to_owned()
}
