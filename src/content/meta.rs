//! Article metadata: title, byline, publication time, language, excerpt, site name.
//!
//! Sources in order of trust: JSON-LD (what the publisher declares for machines), OpenGraph
//! and other `<meta>`, then the visible page.

use scraper::Html;
use serde_json::Value;

use crate::page::Page;
use crate::page::dates::{month_first, normalise_date};
use crate::page::dom::collapse_whitespace;
use crate::page::interrupt::SelectChecked;
use crate::static_selector;
use crate::structured::types_of;

/// Longest excerpt, in characters.
const MAX_EXCERPT: usize = 500;
/// A byline longer than this is a paragraph, not a name.
const MAX_BYLINE: usize = 120;

/// Metadata found on the page.
#[derive(Debug, Default)]
pub(crate) struct Meta {
    pub title: Option<String>,
    pub byline: Option<String>,
    pub published_at: Option<String>,
    pub lang: Option<String>,
    pub excerpt: Option<String>,
    pub site_name: Option<String>,
}

const ARTICLE_TYPES: &[&str] = &[
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
    "WebPage",
    "Recipe",
    "VideoObject",
];

/// Reads the metadata of `page`.
pub(crate) fn read(page: &Page) -> Meta {
    let doc = &page.document;
    let metas = meta_tags(doc);
    let meta = |keys: &[&str]| -> Option<String> {
        keys.iter().find_map(|k| {
            metas
                .iter()
                .find(|(mk, v)| mk == k && !v.is_empty())
                .map(|(_, v)| v.clone())
        })
    };
    let ld = crate::structured::json_ld(page);
    let article = ld
        .iter()
        .filter_map(Value::as_object)
        .filter(|m| {
            types_of(m)
                .iter()
                .any(|t| ARTICLE_TYPES.contains(&t.as_str()))
        })
        // A specific article type says more than a generic WebPage.
        .min_by_key(|m| types_of(m).iter().any(|t| t == "WebPage"));
    let ld_str = |key: &str| article.and_then(|m| m.get(key)).and_then(string_of);

    let document_title = doc
        .select_checked(static_selector!("title"))
        .next()
        .map(|t| collapse_whitespace(&t.text().collect::<String>()))
        .filter(|t| !t.is_empty());
    let h1 = doc
        .select_checked(static_selector!("h1"))
        .map(crate::content::flat_text)
        .find(|t| !t.is_empty());
    let title = ld_str("headline")
        .or_else(|| meta(&["og:title", "twitter:title", "dc.title"]))
        .or_else(|| document_title.as_deref().map(clean_title))
        .or(h1);

    let byline = article
        .and_then(|m| m.get("author"))
        .and_then(names_of)
        .or_else(|| meta(&["author", "article:author", "dc.creator", "parsely-author"]))
        .filter(|a| !a.starts_with("http"))
        .or_else(|| super::byline::author(doc))
        .map(|b| collapse_whitespace(&b))
        .filter(|b| !b.is_empty() && b.chars().count() <= MAX_BYLINE);

    let published_at = ld_str("datePublished")
        .or_else(|| {
            meta(&[
                "article:published_time",
                "og:article:published_time",
                "datepublished",
                "publishdate",
                "pubdate",
                "date",
                "dc.date.issued",
                "dc.date",
                "dcterms.created",
                "sailthru.date",
                "parsely-pub-date",
                "article.published",
            ])
        })
        .or_else(|| {
            // Vendors name their own tags (`w-published-date`, `publish-time`).
            metas
                .iter()
                .find(|(k, v)| {
                    k.contains("publish")
                        && (k.contains("date") || k.contains("time"))
                        && !v.is_empty()
                })
                .map(|(_, v)| v.clone())
        })
        .or_else(|| {
            doc.select_checked(static_selector!(
                "[itemprop=datePublished], time[pubdate], article time[datetime], time[datetime]"
            ))
            .find_map(|el| {
                el.value()
                    .attr("datetime")
                    .or_else(|| el.value().attr("content"))
                    .map(str::to_owned)
            })
        })
        .or_else(|| super::byline::date(doc, month_first(doc)))
        .map(|d| collapse_whitespace(&d))
        .filter(|d| !d.is_empty())
        .map(|d| normalise_date(&d, month_first(doc)).unwrap_or(d));

    let lang = doc
        .root_element()
        .value()
        .attr("lang")
        .or_else(|| doc.root_element().value().attr("xml:lang"))
        .map(str::to_owned)
        .or_else(|| meta(&["content-language", "og:locale", "dc.language"]))
        .map(|l| l.trim().to_owned())
        .filter(|l| !l.is_empty());

    let excerpt = meta(&["og:description", "description", "twitter:description"])
        .or_else(|| ld_str("description"))
        .map(|e| clip(&e, MAX_EXCERPT));

    let site_name = meta(&["og:site_name", "application-name"])
        .or_else(|| article.and_then(|m| m.get("publisher")).and_then(names_of))
        .or_else(|| {
            ld.iter()
                .filter_map(Value::as_object)
                .find(|m| types_of(m).iter().any(|t| t == "WebSite"))
                .and_then(|m| m.get("name"))
                .and_then(string_of)
        });

    Meta {
        title,
        byline,
        published_at,
        lang,
        excerpt,
        site_name,
    }
}

/// `<meta>` tags as (lower-cased name or property, content).
fn meta_tags(doc: &Html) -> Vec<(String, String)> {
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
            out.push((key, collapse_whitespace(content)));
        }
        if out.len() > 2000 {
            break;
        }
    }
    out
}

fn string_of(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(collapse_whitespace(s)).filter(|s| !s.is_empty()),
        Value::Array(a) => a.iter().find_map(string_of),
        Value::Object(m) => m.get("@value").and_then(string_of),
        _ => None,
    }
}

/// Author or publisher names: a string, an object's `name`, or several joined with ", ".
fn names_of(value: &Value) -> Option<String> {
    let name = |v: &Value| match v {
        Value::String(s) => Some(collapse_whitespace(s)),
        Value::Object(m) => m.get("name").and_then(string_of),
        _ => None,
    };
    let names: Vec<String> = match value {
        Value::Array(a) => a.iter().filter_map(name).collect(),
        other => name(other).into_iter().collect(),
    };
    let names: Vec<String> = names.into_iter().filter(|n| !n.is_empty()).collect();
    (!names.is_empty()).then(|| names.join(", "))
}

/// Drops a site name appended to a document title ("Story | Site" → "Story") when what
/// remains is still a real title.
fn clean_title(title: &str) -> String {
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

fn clip(s: &str, max: usize) -> String {
    let s = collapse_whitespace(s);
    if s.chars().count() <= max {
        s
    } else {
        let mut out: String = s.chars().take(max).collect();
        out.push('…');
        out
    }
}
