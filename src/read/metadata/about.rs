//! What the page says about itself besides its title, authors and dates: the site's name, a
//! description, its language, its canonical address, whether it is an article.

use serde_json::{Map, Value};

use super::sources::{MetaTags, PROSE_TYPES, Sources, names_of, string_of};
use crate::page::dom::{collapse_whitespace, shorten};
use crate::page::interrupt::SelectChecked;
use crate::read::structured::types_of;
use crate::static_selector;

/// Longest description kept, in characters.
const MAX_DESCRIPTION: usize = 500;

/// The site's name: `og:site_name` and the app-name tags, else the article's publisher, else
/// the JSON-LD `WebSite`'s name.
pub(super) fn site_name(
    metas: &MetaTags,
    ld: &[Value],
    article: Option<&Map<String, Value>>,
) -> Option<String> {
    metas
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
        })
}

/// The language tag: `<html lang>`, else the `<meta>` that names one.
pub(super) fn lang(sources: &Sources<'_>) -> Option<String> {
    let root = sources.doc().root_element();
    root.value()
        .attr("lang")
        .or_else(|| root.value().attr("xml:lang"))
        .map(str::to_owned)
        .or_else(|| {
            sources
                .metas
                .first(&["content-language", "og:locale", "dc.language"])
        })
        .map(|l| l.trim().to_owned())
        .filter(|l| !l.is_empty())
}

/// The page's own summary, at most [`MAX_DESCRIPTION`] characters.
pub(super) fn description(sources: &Sources<'_>) -> Option<String> {
    sources
        .metas
        .first(&["description", "og:description", "twitter:description"])
        .or_else(|| sources.article_text("description"))
        .map(|d| shorten(&collapse_whitespace(&d), MAX_DESCRIPTION))
}

/// The canonical address, absolute: `<link rel=canonical>`, else `og:url`.
pub(super) fn canonical(sources: &Sources<'_>) -> Option<String> {
    let page = sources.page;
    sources
        .doc()
        .select_checked(static_selector!("link[rel][href]"))
        .find(|l| {
            l.value().attr("rel").is_some_and(|r| {
                r.split_whitespace()
                    .any(|w| w.eq_ignore_ascii_case("canonical"))
            })
        })
        .and_then(|l| l.value().attr("href"))
        .and_then(|h| page.absolute(h))
        .or_else(|| {
            sources
                .metas
                .first(&["og:url"])
                .and_then(|u| page.absolute(&u))
        })
}

/// Whether the page declares itself an article: `og:type` `article` or a JSON-LD item of an
/// article type proper.
pub(super) fn is_article(sources: &Sources<'_>) -> bool {
    sources
        .metas
        .first(&["og:type"])
        .is_some_and(|t| t.eq_ignore_ascii_case("article"))
        || sources.ld.iter().filter_map(Value::as_object).any(|m| {
            types_of(m)
                .iter()
                .any(|t| PROSE_TYPES.contains(&t.as_str()))
        })
}
