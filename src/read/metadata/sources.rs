//! The sources every fact reads, gathered once per page: the page's `<meta>` tags, its JSON-LD
//! items (from the one JSON-LD reader, [`crate::read::structured::json_ld`]) and the item among
//! them that describes the page's text.

use scraper::Html;
use serde_json::{Map, Value};

use crate::page::Page;
use crate::page::dates::month_first;
use crate::page::dom::collapse_whitespace;
use crate::page::interrupt::SelectChecked;
use crate::read::structured::types_of;
use crate::static_selector;

/// How many `<meta>` tags are read at most (a page could hold millions).
pub(super) const MAX_META_TAGS: usize = 2000;

/// What every rule reads, gathered once per page.
pub(super) struct Sources<'p> {
    /// The page.
    pub page: &'p Page,
    /// Its `<meta>` tags.
    pub metas: MetaTags,
    /// Its JSON-LD items.
    pub ld: Vec<Value>,
    /// Where in `ld` the item that describes the page's text is (see [`main_item`]).
    article: Option<usize>,
    /// Whether the page writes numeric dates month first (`03/10/2023` is March 10).
    pub month_first: bool,
    /// `<title>`, whitespace collapsed, None when empty.
    pub document_title: Option<String>,
    /// The site's name (see [`super::about::site_name`]).
    pub site_name: Option<String>,
    /// Names that sign for the site rather than for a person: the site's name and the
    /// article's publisher.
    pub publishers: Vec<String>,
}

impl<'p> Sources<'p> {
    pub(super) fn of(page: &'p Page) -> Self {
        let doc = &page.document;
        let metas = MetaTags::of(doc);
        let ld = crate::read::structured::json_ld(page);
        let article = main_item(&ld);
        let document_title = doc
            .select_checked(static_selector!("title"))
            .next()
            .map(|t| collapse_whitespace(&t.text().collect::<String>()))
            .filter(|t| !t.is_empty());
        let article_item = article.and_then(|i| ld[i].as_object());
        let site_name = super::about::site_name(&metas, &ld, article_item);
        let mut publishers: Vec<String> = site_name.iter().cloned().collect();
        publishers.extend(
            article_item
                .and_then(|m| m.get("publisher"))
                .map(names_of)
                .unwrap_or_default(),
        );
        Self {
            page,
            metas,
            month_first: month_first(doc),
            document_title,
            site_name,
            publishers,
            article,
            ld,
        }
    }

    /// The parsed document.
    pub(super) fn doc(&self) -> &'p Html {
        &self.page.document
    }

    /// The JSON-LD item that describes the page's text.
    pub(super) fn article(&self) -> Option<&Map<String, Value>> {
        self.article.and_then(|i| self.ld[i].as_object())
    }

    /// A text field of the page's JSON-LD item.
    pub(super) fn article_text(&self, key: &str) -> Option<String> {
        self.article().and_then(|m| m.get(key)).and_then(string_of)
    }
}

/// Article types whose JSON-LD describes the page's own text; the first
/// [`PROSE_TYPE_COUNT`] are written text (see [`PROSE_TYPES`]).
pub(super) const ARTICLE_TYPES: &[&str] = &[
    "Article",
    "NewsArticle",
    "BlogPosting",
    "Report",
    "ScholarlyArticle",
    "TechArticle",
    "AnalysisNewsArticle",
    "OpinionNewsArticle",
    "ReportageNewsArticle",
    "ReviewNewsArticle",
    "LiveBlogPosting",
    "SocialMediaPosting",
    "DiscussionForumPosting",
    "QAPage",
    "Question",
    "WebPage",
    "Recipe",
    "VideoObject",
    "HowTo",
];

/// How many of [`ARTICLE_TYPES`], from the first, are articles proper.
const PROSE_TYPE_COUNT: usize = 10;

/// JSON-LD types of an article proper: the types of [`ARTICLE_TYPES`] that are written text.
pub(super) const PROSE_TYPES: &[&str] = ARTICLE_TYPES.split_at(PROSE_TYPE_COUNT).0;

/// Where the JSON-LD item that describes the page's text is: a specific article type over a
/// generic `WebPage` (the first of equals).
fn main_item(ld: &[Value]) -> Option<usize> {
    ld.iter()
        .enumerate()
        .filter_map(|(i, item)| item.as_object().map(|m| (i, m)))
        .filter(|(_, m)| {
            types_of(m)
                .iter()
                .any(|t| ARTICLE_TYPES.contains(&t.as_str()))
        })
        .min_by_key(|(_, m)| types_of(m).iter().any(|t| t == "WebPage"))
        .map(|(i, _)| i)
}

/// The first value of `key` in a JSON-LD value, depth first, at most a few levels down.
pub(super) fn first_key<'v>(value: &'v Value, key: &str, depth: usize) -> Option<&'v Value> {
    const MAX_DEPTH: usize = 6;
    if depth > MAX_DEPTH {
        return None;
    }
    match value {
        Value::Object(map) => map
            .get(key)
            .filter(|v| !v.is_null())
            .or_else(|| map.values().find_map(|v| first_key(v, key, depth + 1))),
        Value::Array(values) => values.iter().find_map(|v| first_key(v, key, depth + 1)),
        _ => None,
    }
}

/// `<meta>` tags as (lower-cased name or property, content), in page order.
pub(super) struct MetaTags(Vec<(String, String)>);

impl MetaTags {
    pub(super) fn of(doc: &Html) -> Self {
        let mut out = Vec::new();
        for m in doc.select_checked(static_selector!(
            "meta[property], meta[name], meta[itemprop], meta[http-equiv]"
        )) {
            let v = m.value();
            let key = v
                .attr("property")
                .or_else(|| v.attr("name"))
                .or_else(|| v.attr("itemprop"))
                .or_else(|| v.attr("http-equiv"))
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            if let Some(content) = v.attr("content") {
                let content = collapse_whitespace(content);
                if !content.is_empty() {
                    out.push((key, content));
                }
            }
            if out.len() >= MAX_META_TAGS {
                break;
            }
        }
        Self(out)
    }

    /// The first value of the first key present.
    pub(super) fn first(&self, keys: &[&str]) -> Option<String> {
        keys.iter().find_map(|k| {
            self.0
                .iter()
                .find(|(mk, _)| mk == k)
                .map(|(_, v)| v.clone())
        })
    }

    /// Every value of one key (`citation_author` repeats once per author).
    pub(super) fn all(&self, key: &str) -> Vec<&str> {
        self.0
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// Values of vendors' own publication tags (`w-published-date`, `publish-time`).
    pub(super) fn vendor_published(&self) -> Vec<String> {
        self.0
            .iter()
            .filter(|(k, _)| k.contains("publish") && (k.contains("date") || k.contains("time")))
            .map(|(_, v)| v.clone())
            .collect()
    }
}

pub(super) fn string_of(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(ld_text(s)).filter(|s| !s.is_empty()),
        Value::Array(a) => a.iter().find_map(string_of),
        Value::Object(m) => m.get("@value").and_then(string_of),
        _ => None,
    }
}

/// A JSON-LD string as text. A `<script>`'s content is not HTML, so the parser left its
/// entities alone, yet CMSs escape names and headlines in it as HTML (`Maria &amp; Katerina`).
pub(super) fn ld_text(raw: &str) -> String {
    collapse_whitespace(&html_escape::decode_html_entities(raw))
}

/// Names in a JSON-LD value: a string, an object's `name`, or a list of them.
pub(super) fn names_of(value: &Value) -> Vec<String> {
    match value {
        Value::Array(a) => a.iter().flat_map(names_of).collect(),
        Value::String(s) => vec![ld_text(s)],
        Value::Object(m) => m.get("name").and_then(string_of).into_iter().collect(),
        _ => Vec::new(),
    }
    .into_iter()
    .filter(|n| !n.is_empty())
    .collect()
}
