//! The headline a reader sees: the page's own `<h1>` or what the page declares.

use super::byline::headline;
use super::sources::Sources;
use super::{Chosen, SourcesRule, first_rule};
use crate::page::dom::flat_text;

/// The headline's rules, tried in order: the page's own `<h1>` when what the page declares
/// agrees with it (or it declares nothing); otherwise the `<h1>` is a section heading or a
/// logo, and the first declared title is the page's.
pub(super) const RULES: &[SourcesRule<String>] = &[
    ("h1", h1),
    ("jsonld_headline", jsonld_headline),
    ("og_title", |s| s.metas.first(&["og:title"])),
    ("twitter_title", |s| s.metas.first(&["twitter:title"])),
    ("dc_title", |s| s.metas.first(&["dc.title"])),
    ("document_title", document_title),
];

/// The `<meta>` titles of the rules above, in their order.
const META_TITLE_KEYS: &[&str] = &["og:title", "twitter:title", "dc.title"];

/// A headline agrees with a declared title when this share of the shorter one's words is in
/// the other. Chosen by hand in commit 25f3d02 ("a declared title gives way to the h1 at a
/// lower word agreement"); not fitted.
const AGREEMENT: f64 = 0.3;

/// The headline a reader sees, and the rule that read it.
pub(super) fn title(sources: &Sources<'_>) -> Option<Chosen<String>> {
    first_rule(RULES, sources)
}

/// The page's own `<h1>`, when nothing is declared or a declared title agrees with it. The
/// declared titles are the JSON-LD headline, the first `<meta>` title the page has (pages
/// write the same one to `og:title`, `twitter:title` and `dc.title`) and the `<title>`.
fn h1(sources: &Sources<'_>) -> Option<String> {
    let h1 = headline(sources.doc()).map(flat_text)?;
    let declared: Vec<String> = [
        jsonld_headline(sources),
        sources.metas.first(META_TITLE_KEYS),
        document_title(sources),
    ]
    .into_iter()
    .flatten()
    .collect();
    (declared.is_empty() || declared.iter().any(|d| agrees(&h1, d))).then_some(h1)
}

/// The JSON-LD item's `headline`.
fn jsonld_headline(sources: &Sources<'_>) -> Option<String> {
    sources.article_text("headline")
}

/// `<title>` without the site's name appended to it.
fn document_title(sources: &Sources<'_>) -> Option<String> {
    sources
        .document_title
        .as_deref()
        .map(clean_title)
        .filter(|t| !t.is_empty())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::Page;

    /// What the rule called `name` reads on a page.
    fn by_rule(name: &str, html: &str) -> Option<String> {
        let page = Page::parse(
            url::Url::parse("https://ocean.example/salty").unwrap(),
            html,
        );
        let sources = Sources::of(&page);
        let (_, read) = RULES.iter().find(|(rule, _)| *rule == name).unwrap();
        read(&sources)
    }

    #[test]
    fn h1_is_the_title_when_a_declared_title_agrees_or_none_is_declared() {
        assert_eq!(
            by_rule(
                "h1",
                "<title>Why the sea is salty - Ocean Facts</title><h1>Why is the sea salty?</h1>"
            )
            .as_deref(),
            Some("Why is the sea salty?")
        );
        assert_eq!(
            by_rule("h1", "<h1>Why is the sea salty?</h1>").as_deref(),
            Some("Why is the sea salty?")
        );
        // A logo in `<h1>` that no declared title shares words with.
        assert_eq!(
            by_rule(
                "h1",
                r#"<meta property="og:title" content="Why the sea is salty"><h1>Ocean Facts</h1>"#
            ),
            None
        );
    }

    #[test]
    fn only_the_first_meta_title_is_asked_whether_it_agrees_with_h1() {
        // `dc.title` agrees, but the page's first `<meta>` title is `twitter:title`.
        let html = r#"<meta name="twitter:title" content="Tides explained"><meta name="dc.title" content="Ocean Facts"><h1>Ocean Facts</h1>"#;
        assert_eq!(by_rule("h1", html), None);
    }

    #[test]
    fn declared_titles_each_have_a_rule() {
        let ld = r#"<script type="application/ld+json">{"@type":"Article","headline":"Tips &amp; tricks"}</script>"#;
        assert_eq!(
            by_rule("jsonld_headline", ld).as_deref(),
            Some("Tips & tricks")
        );
        let metas = r#"<meta property="og:title" content="A"><meta name="twitter:title" content="B"><meta name="dc.title" content="C">"#;
        assert_eq!(by_rule("og_title", metas).as_deref(), Some("A"));
        assert_eq!(by_rule("twitter_title", metas).as_deref(), Some("B"));
        assert_eq!(by_rule("dc_title", metas).as_deref(), Some("C"));
        assert_eq!(
            by_rule(
                "document_title",
                "<title>Why the sea is salty | Ocean Facts</title>"
            )
            .as_deref(),
            Some("Why the sea is salty")
        );
        assert_eq!(by_rule("document_title", "<p>x</p>"), None);
    }

    #[test]
    fn the_title_names_the_rule_that_read_it() {
        let page = Page::parse(
            url::Url::parse("https://ocean.example/salty").unwrap(),
            r#"<title>Why the sea is salty | Ocean Facts</title><meta property="og:title" content="Why the sea is salty"><h1>Ocean Facts</h1>"#,
        );
        assert_eq!(
            title(&Sources::of(&page)),
            Some(Chosen {
                value: "Why the sea is salty".to_owned(),
                rule: "og_title"
            })
        );
    }
}
