//! The page's metadata, read once for every tool: headline, authors, publication date,
//! language, description, site name, canonical URL.
//!
//! Each fact is read as a careful person would copy it: the date printed beside the byline
//! over one declared for machines (which is often the first draft's, or the CMS's); the
//! published date over the modified one unless only the latter is shown; every author,
//! without "By", job titles, e-mail addresses or the site's own name; the page's own `<h1>`
//! as the title when what the page declares agrees with it.

mod authors;
mod byline;
mod dates;
mod people;
mod sources;
mod title;

use serde_json::{Map, Value};

use crate::page::Page;
use crate::page::dates::{month_first, normalise_date};
use crate::page::dom::{collapse_whitespace, shorten};
use crate::page::interrupt::SelectChecked;
use crate::read::structured::types_of;
use crate::static_selector;
use authors::{authors, home_links, title_parts};
use dates::{MODIFIED_KEYS, published_at};
use people::{is_publisher, site_owner};
use sources::{MetaTags, names_of, string_of};
use title::title;

pub(crate) use byline::headline;

/// Longest description kept, in characters.
const MAX_DESCRIPTION: usize = 500;

/// What the page says about itself.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Metadata {
    /// The headline a reader sees.
    pub title: Option<String>,
    /// `<title>`, as written for tabs and search results.
    pub document_title: Option<String>,
    /// The page's own summary (`description`, `og:description`, JSON-LD).
    pub description: Option<String>,
    /// The canonical URL, absolute.
    pub canonical: Option<String>,
    /// Language tag.
    pub lang: Option<String>,
    /// Every author, cleaned, in the page's order.
    pub authors: Vec<String>,
    /// Publication date, ISO-8601.
    pub published_at: Option<String>,
    /// Last modification date, ISO-8601.
    pub modified_at: Option<String>,
    /// The site's name.
    pub site_name: Option<String>,
    /// Whether the page declares itself an article (`og:type` `article`, a JSON-LD
    /// `Article`, `NewsArticle`, `BlogPosting`…), not a product, a listing or a web page.
    pub is_article: bool,
}

impl Metadata {
    /// The authors as one line, as a person writes it ("Ann Lee", "Ann Lee and Bo Chen",
    /// "Ann Lee, Bo Chen and Cy Diaz"), None when there are none.
    pub fn byline(&self) -> Option<String> {
        match self.authors.as_slice() {
            [] => None,
            [one] => Some(one.clone()),
            [rest @ .., last] => Some(format!("{} and {last}", rest.join(", "))),
        }
    }
}

/// Article types whose JSON-LD describes the page's own text; the first
/// [`PROSE_TYPE_COUNT`] are written text (see [`PROSE_TYPES`]).
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
const PROSE_TYPES: &[&str] = ARTICLE_TYPES.split_at(PROSE_TYPE_COUNT).0;

/// Reads the metadata of `page`.
pub fn read(page: &Page) -> Metadata {
    let doc = &page.document;
    let metas = MetaTags::of(doc);
    let ld = crate::read::structured::json_ld(page);
    let article = main_item(&ld);
    let ld_str = |key: &str| article.and_then(|m| m.get(key)).and_then(string_of);
    let month_first = month_first(doc);

    let document_title = doc
        .select_checked(static_selector!("title"))
        .next()
        .map(|t| collapse_whitespace(&t.text().collect::<String>()))
        .filter(|t| !t.is_empty());
    let site_name = metas
        .first(&[
            "og:site_name",
            "application-name",
            "apple-mobile-web-app-title",
        ])
        .or_else(|| {
            article
                .and_then(|m| m.get("publisher"))
                .and_then(|p| names_of(p).into_iter().next())
        })
        .or_else(|| {
            ld.iter()
                .filter_map(Value::as_object)
                .find(|m| types_of(m).iter().any(|t| t == "WebSite"))
                .and_then(|m| m.get("name"))
                .and_then(string_of)
        });
    let title = title(doc, &metas, ld_str("headline"), document_title.as_deref());

    let mut publishers: Vec<String> = site_name.iter().cloned().collect();
    publishers.extend(
        article
            .and_then(|m| m.get("publisher"))
            .map(names_of)
            .unwrap_or_default(),
    );
    let mut authors = authors(doc, &metas, &ld, article, &publishers);
    if authors.iter().all(|n| is_publisher(n, &publishers)) {
        let titles = document_title
            .as_deref()
            .map(title_parts)
            .unwrap_or_default();
        let home_links = home_links(page);
        let names = site_name
            .iter()
            .map(String::as_str)
            .chain(titles)
            .chain(home_links.iter().map(String::as_str));
        if let Some(owner) = site_owner(names, page.url.host_str(), page.url.path()) {
            authors = vec![owner];
        }
    }

    let modified_at = article
        .and_then(|m| m.get("dateModified"))
        .and_then(string_of)
        .or_else(|| metas.first(MODIFIED_KEYS))
        .and_then(|d| normalise_date(&d, month_first));
    let published_at = published_at(
        doc,
        page,
        &metas,
        &ld,
        article,
        modified_at.as_deref(),
        month_first,
    );

    let lang = doc
        .root_element()
        .value()
        .attr("lang")
        .or_else(|| doc.root_element().value().attr("xml:lang"))
        .map(str::to_owned)
        .or_else(|| metas.first(&["content-language", "og:locale", "dc.language"]))
        .map(|l| l.trim().to_owned())
        .filter(|l| !l.is_empty());
    let description = metas
        .first(&["description", "og:description", "twitter:description"])
        .or_else(|| ld_str("description"))
        .map(|d| shorten(&collapse_whitespace(&d), MAX_DESCRIPTION));
    let canonical = doc
        .select_checked(static_selector!("link[rel][href]"))
        .find(|l| {
            l.value().attr("rel").is_some_and(|r| {
                r.split_whitespace()
                    .any(|w| w.eq_ignore_ascii_case("canonical"))
            })
        })
        .and_then(|l| l.value().attr("href"))
        .and_then(|h| page.absolute(h))
        .or_else(|| metas.first(&["og:url"]).and_then(|u| page.absolute(&u)));

    let is_article = metas
        .first(&["og:type"])
        .is_some_and(|t| t.eq_ignore_ascii_case("article"))
        || ld.iter().filter_map(Value::as_object).any(|m| {
            types_of(m)
                .iter()
                .any(|t| PROSE_TYPES.contains(&t.as_str()))
        });

    Metadata {
        title,
        document_title,
        description,
        canonical,
        lang,
        authors,
        published_at,
        modified_at,
        site_name,
        is_article,
    }
}

/// The JSON-LD item that describes the page's text: a specific article type over a generic
/// `WebPage`.
fn main_item(ld: &[Value]) -> Option<&Map<String, Value>> {
    ld.iter()
        .filter_map(Value::as_object)
        .filter(|m| {
            types_of(m)
                .iter()
                .any(|t| ARTICLE_TYPES.contains(&t.as_str()))
        })
        .min_by_key(|m| types_of(m).iter().any(|t| t == "WebPage"))
}

#[cfg(test)]
mod tests;
