//! Where a page leads: the next page of a paginated list, and each record's own page.
//!
//! These readers only say which link to follow and why; fetching it is the run's job (it goes
//! through the same address guard and robots rules). The `nav.*` tools are their adapters.

use scraper::ElementRef;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use url::Url;

use crate::page::Page;
use crate::page::dom::text_capped;
use crate::page::interrupt::SelectChecked;
use crate::static_selector;

/// How a next-page link was recognised: a wire type, since `navigate` steps carry it.
pub use crate::events::NextEvidence;

/// A record's own page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ItemLink {
    /// The record field the link came from.
    pub field: String,
    /// The absolute URL.
    pub url: String,
}

/// The link to a record's own page: its `url`/`link` field, else the first field holding a
/// web address that is not a picture.
pub fn item_link(record: &Value) -> Option<ItemLink> {
    let fields = record.as_object()?;
    let web = |value: &Value| {
        let url = Url::parse(value.as_str()?).ok()?;
        let path = url.path().to_ascii_lowercase();
        let picture = [".jpg", ".jpeg", ".png", ".gif", ".webp", ".svg", ".avif"]
            .iter()
            .any(|ext| path.ends_with(ext));
        (matches!(url.scheme(), "http" | "https") && !picture).then(|| url.to_string())
    };
    const PREFERRED: &[&str] = &["url", "link", "href", "permalink", "detail_url", "page"];
    let make = |field: &str, url| ItemLink {
        field: field.to_owned(),
        url,
    };
    PREFERRED
        .iter()
        .find_map(|key| fields.get(*key).and_then(web).map(|u| make(key, u)))
        .or_else(|| {
            fields
                .iter()
                .filter(|(key, _)| {
                    let key = key.to_ascii_lowercase();
                    !["image", "img", "photo", "thumb", "logo", "avatar", "icon"]
                        .iter()
                        .any(|p| key.contains(p))
                })
                .find_map(|(key, value)| web(value).map(|u| make(key, u)))
        })
}

/// The next page of a list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NextPage {
    /// The page to fetch.
    pub url: String,
    /// Its number, when the link text or its URL (`?page=3`, `/page/3/`) says.
    pub page: Option<u32>,
    /// How it was found.
    pub evidence: NextEvidence,
    /// The link's text.
    pub text: String,
}

/// Link texts (lower case, trimmed) that mean "the next page".
const NEXT_LABELS: &[&str] = &[
    "next",
    "next page",
    "next ›",
    "next »",
    "next >",
    "next →",
    "›",
    "»",
    ">",
    "→",
    "older posts",
    "older entries",
    "older",
    "more results",
    "load more",
    "show more",
    "suivant",
    "page suivante",
    "weiter",
    "nächste seite",
    "siguiente",
    "successivo",
    "volgende",
];

/// The next page of `page`'s list, on its site unless `cross_origin`; best evidence first.
pub fn next_page(page: &Page, cross_origin: bool) -> Option<NextPage> {
    find_next(
        page.document.root_element(),
        &page.url,
        cross_origin,
        |href| page.absolute(href),
    )
}

/// The next page `root` links to on `page_url`'s site (or anywhere with `cross_origin`),
/// best evidence first.
fn find_next(
    root: ElementRef<'_>,
    page_url: &Url,
    cross_origin: bool,
    absolute: impl Fn(&str) -> Option<String>,
) -> Option<NextPage> {
    let same_site = |href: &str| -> Option<String> {
        let url = absolute(href)?;
        let parsed = Url::parse(&url).ok()?;
        let here = page_url.as_str().split('#').next().unwrap_or_default();
        let there = url.split('#').next().unwrap_or_default();
        let allowed = matches!(parsed.scheme(), "http" | "https")
            && (cross_origin || parsed.origin() == page_url.origin());
        (allowed && there != here).then_some(url)
    };
    let make = |el: ElementRef<'_>, url: String, evidence| {
        let text = text_capped(el, 80);
        NextPage {
            page: number_in(&text).or_else(|| page_number_in_url(&url)),
            url,
            evidence,
            text,
        }
    };
    let links: Vec<ElementRef<'_>> = root
        .select_checked(static_selector!("a[href], link[href]"))
        .collect();
    let href = |el: &ElementRef<'_>| el.value().attr("href").unwrap_or_default().to_owned();
    if let Some((el, url)) = links
        .iter()
        .filter(|el| {
            el.value().attr("rel").is_some_and(|rel| {
                rel.split_whitespace()
                    .any(|r| r.eq_ignore_ascii_case("next"))
            })
        })
        .find_map(|el| same_site(&href(el)).map(|url| (*el, url)))
    {
        return Some(make(el, url, NextEvidence::RelNext));
    }
    let anchors = || links.iter().filter(|el| el.value().name() == "a");
    let labelled: Vec<(ElementRef<'_>, String)> = anchors()
        .filter(|el| says_next(**el))
        .filter_map(|el| same_site(&href(el)).map(|url| (*el, url)))
        .collect();
    if let Some((el, url)) = labelled.iter().find(|(el, _)| in_pagination(*el)) {
        return Some(make(*el, url.clone(), NextEvidence::LabelInPagination));
    }
    if let Some(found) = after_current(root, &same_site) {
        return Some(make(found.0, found.1, NextEvidence::NumberAfterCurrent));
    }
    labelled
        .into_iter()
        .next()
        .map(|(el, url)| make(el, url, NextEvidence::Label))
}

/// Whether a link's text, `aria-label` or `title` says "next".
fn says_next(el: ElementRef<'_>) -> bool {
    let text = text_capped(el, 40).trim().to_lowercase();
    if NEXT_LABELS.contains(&text.as_str()) {
        return true;
    }
    ["aria-label", "title"].iter().any(|attr| {
        el.value().attr(attr).is_some_and(|label| {
            let label = label.trim().to_lowercase();
            label == "next" || label.starts_with("next page") || label.starts_with("go to next")
        })
    })
}

/// Whether an element sits in a pagination bar (`nav`/class/role naming pagination).
fn in_pagination(el: ElementRef<'_>) -> bool {
    el.ancestors()
        .filter_map(ElementRef::wrap)
        .take(6)
        .any(|a| {
            let v = a.value();
            v.attr("aria-label")
                .is_some_and(|l| l.to_lowercase().contains("pagination"))
                || v.id().into_iter().chain(v.classes()).any(|name| {
                    let lower = name.to_ascii_lowercase();
                    lower.contains("pagination")
                        || lower.contains("pager")
                        || lower.contains("paging")
                })
        })
}

/// In a numbered bar, the link to the number after the current one (marked
/// `aria-current="page"` or by a `current`/`active` class).
fn after_current<'a>(
    root: ElementRef<'a>,
    same_site: &impl Fn(&str) -> Option<String>,
) -> Option<(ElementRef<'a>, String)> {
    let current = root.descendants().filter_map(ElementRef::wrap).find(|el| {
        let v = el.value();
        let marked = v.attr("aria-current") == Some("page")
            || v.classes().any(|c| {
                let c = c.to_ascii_lowercase();
                c == "current"
                    || c == "active"
                    || c.ends_with("--current")
                    || c.ends_with("-active")
            });
        marked && number_in(&text_capped(*el, 12)).is_some() && in_pagination(*el)
    })?;
    let wanted = number_in(&text_capped(current, 12))?.checked_add(1)?;
    let bar = current
        .ancestors()
        .filter_map(ElementRef::wrap)
        .find(|a| in_pagination_itself(*a) || a.value().name() == "nav")?;
    bar.select_checked(static_selector!("a[href]"))
        .filter(|a| number_in(&text_capped(*a, 12)) == Some(wanted))
        .find_map(|a| same_site(a.value().attr("href").unwrap_or_default()).map(|url| (a, url)))
}

/// Whether this element itself names pagination.
fn in_pagination_itself(el: ElementRef<'_>) -> bool {
    let v = el.value();
    v.id().into_iter().chain(v.classes()).any(|name| {
        let lower = name.to_ascii_lowercase();
        lower.contains("pagination") || lower.contains("pager") || lower.contains("paging")
    })
}

/// A text that is only a page number ("3", " 3 ").
fn number_in(text: &str) -> Option<u32> {
    let t = text.trim();
    (!t.is_empty() && t.len() <= 5 && t.chars().all(|c| c.is_ascii_digit()))
        .then(|| t.parse().ok())
        .flatten()
}

/// The page number a URL names: `?page=3`, `?p=3`, `/page/3/`, `/p/3`.
fn page_number_in_url(url: &str) -> Option<u32> {
    let parsed = Url::parse(url).ok()?;
    if let Some((_, value)) = parsed
        .query_pairs()
        .find(|(k, _)| matches!(k.as_ref(), "page" | "p" | "pg" | "paged"))
    {
        return value.parse().ok();
    }
    let segments: Vec<&str> = parsed.path_segments()?.filter(|s| !s.is_empty()).collect();
    segments
        .windows(2)
        .rev()
        .find(|w| matches!(w[0], "page" | "p"))
        .and_then(|w| w[1].parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::Page;

    fn next_of(html: &str) -> Option<NextPage> {
        let page = Page::parse(
            Url::parse("https://shop.example/list?page=2").unwrap(),
            html,
        );
        find_next(page.document.root_element(), &page.url, false, |h| {
            page.absolute(h)
        })
    }

    #[test]
    fn rel_next_wins() {
        let found = next_of(
            "<html><head><link rel='next' href='/list?page=3'></head><body>\
             <a href='/other'>Next</a></body></html>",
        )
        .unwrap();
        assert_eq!(found.url, "https://shop.example/list?page=3");
        assert_eq!(found.page, Some(3));
        assert_eq!(found.evidence, NextEvidence::RelNext);
    }

    #[test]
    fn a_next_link_in_the_pagination_bar_beats_one_elsewhere() {
        let found = next_of(
            "<body><a href='/blog/next-steps'>Next</a>\
             <div class='pagination'><a href='/list?page=1'>‹ Prev</a> <a href='/list?page=3'>Next ›</a></div></body>",
        )
        .unwrap();
        assert_eq!(found.url, "https://shop.example/list?page=3");
        assert_eq!(found.evidence, NextEvidence::LabelInPagination);
        assert_eq!(found.text, "Next ›");
    }

    #[test]
    fn the_number_after_the_current_page() {
        let found = next_of(
            "<body><nav class='pager'><a href='/list/page/1/'>1</a>\
             <span aria-current='page' class='current'>2</span><a href='/list/page/3/'>3</a>\
             <a href='/list/page/4/'>4</a></nav></body>",
        )
        .unwrap();
        assert_eq!(found.url, "https://shop.example/list/page/3/");
        assert_eq!(found.page, Some(3));
        assert_eq!(found.evidence, NextEvidence::NumberAfterCurrent);
    }

    #[test]
    fn older_posts_and_arrows_are_next_links() {
        let found = next_of("<body><a href='/blog?paged=3'>Older posts</a></body>").unwrap();
        assert_eq!(found.page, Some(3));
        assert_eq!(found.evidence, NextEvidence::Label);
        let arrow = next_of("<body><a aria-label='Next page' href='/l/p/3'>→</a></body>").unwrap();
        assert_eq!(arrow.page, Some(3));
    }

    #[test]
    fn no_next_link_and_other_sites_give_nothing() {
        assert!(next_of("<body><a href='/about'>About</a></body>").is_none());
        assert!(
            next_of("<body><a rel='next' href='https://elsewhere.example/p/3'>Next</a></body>")
                .is_none()
        );
        assert!(
            next_of("<body><a href='/list?page=2'>Next</a></body>").is_none(),
            "a link to this very page is no next page"
        );
    }
}
