//! The page's metadata, read once for every tool: headline, authors, publication date,
//! language, description, site name, canonical URL.
//!
//! Each fact is read as a careful person would copy it: the date printed beside the byline
//! over one declared for machines (which is often the first draft's, or the CMS's); the
//! published date over the modified one unless only the latter is shown; every author,
//! without "By", job titles, e-mail addresses or the site's own name; the page's own `<h1>`
//! as the title when what the page declares agrees with it.

use scraper::{ElementRef, Html};
use serde_json::{Map, Value};

use super::people::{authors_in, is_publisher, site_owner};
use crate::page::Page;
use crate::page::dates::{month_first, normalise_date, other_reading};
use crate::page::dom::{collapse_whitespace, shorten};
use crate::page::interrupt::SelectChecked;
use crate::read::structured::types_of;
use crate::static_selector;

/// Longest description kept, in characters.
const MAX_DESCRIPTION: usize = 500;
/// How many `<meta>` tags are read at most (a page could hold millions).
const MAX_META_TAGS: usize = 2000;
/// A headline agrees with a declared title when this share of its words is in it.
const AGREEMENT: f64 = 0.3;

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

/// `<meta>` names of the publication date, most specific first.
const PUBLISHED_KEYS: &[&str] = &[
    "article:published_time",
    "og:article:published_time",
    "published_time",
    "datepublished",
    "date_published",
    "parsely-pub-date",
    "sailthru.date",
    "publishdate",
    "publish_date",
    "publication_date",
    "pubdate",
    "citation_publication_date",
    "citation_date",
    "dc.date.issued",
    "dcterms.issued",
    "dc.date.created",
    "dcterms.created",
    "article.published",
];

/// `<meta>` names that may hold the publication date among others.
const LOOSE_DATE_KEYS: &[&str] = &["published", "date", "dc.date", "dcterms.date"];

/// `<meta>` names of the last modification.
const MODIFIED_KEYS: &[&str] = &[
    "article:modified_time",
    "og:updated_time",
    "datemodified",
    "dc.date.modified",
    "dcterms.modified",
    "last-modified",
];

/// `<meta>` names of the author.
const AUTHOR_KEYS: &[&str] = &[
    "author",
    "article:author",
    "dc.creator",
    "dcterms.creator",
    "citation_author",
    "parsely-author",
    "sailthru.author",
    "byl",
    "twitter:creator:name",
];

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

/// The headline: the page's own `<h1>` when what the page declares (JSON-LD `headline`,
/// `og:title`, `<title>`) agrees with it or declares nothing; otherwise the `<h1>` is a
/// section heading or a logo, and the declared title is the page's.
fn title(
    doc: &Html,
    metas: &MetaTags,
    ld_headline: Option<String>,
    document_title: Option<&str>,
) -> Option<String> {
    let h1 = super::byline::headline(doc).map(super::flat_text);
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

/// Authors from the first source that names any: JSON-LD, `<meta>`, elements marked as the
/// author (`itemprop=author`, `rel=author`: forums mark each post's), then the visible
/// byline. A source that names only the site or its publisher gives way to a later one
/// that names someone else; when none does, the publisher is the author the page gives.
fn authors(
    doc: &Html,
    metas: &MetaTags,
    ld: &[Value],
    article: Option<&Map<String, Value>>,
    publishers: &[String],
) -> Vec<String> {
    let clean = |raw: &[String]| -> Vec<String> {
        dedupe(raw.iter().flat_map(|n| authors_in(n, publishers)).collect())
    };
    // The page's item first; else the first author anywhere in its JSON-LD (a forum's
    // `QAPage` names the question's author inside `mainEntity`).
    let from_ld = || {
        let author = article
            .and_then(|m| m.get("author"))
            .or_else(|| ld.iter().find_map(|item| first_key(item, "author", 0)));
        clean(&author.map(people_of).unwrap_or_default())
    };
    let from_meta = || {
        AUTHOR_KEYS
            .iter()
            .map(|key| {
                let values: Vec<String> = metas
                    .all(key)
                    .into_iter()
                    .filter(|v| !v.starts_with("http") && !v.starts_with('@'))
                    .map(str::to_owned)
                    .collect();
                clean(&values)
            })
            .find(|names| !names.is_empty())
            .unwrap_or_default()
    };
    let from_marked = || {
        let first = doc
            .select_checked(static_selector!("[itemprop=author], a[rel~=author]"))
            .map(|el| {
                el.select_checked(static_selector!("[itemprop=name]"))
                    .next()
                    .map_or_else(
                        || super::flat_text(el),
                        |name| {
                            name.value()
                                .attr("content")
                                .map_or_else(|| super::flat_text(name), str::to_owned)
                        },
                    )
            })
            .find(|name| !name.is_empty() && name.chars().count() <= 100);
        clean(&first.into_iter().collect::<Vec<_>>())
    };
    // Forum software marks each post's author (`<a class="username">`);
    // the first is the thread's. Handles are kept as written ("galitsyn", "Ejp55230").
    let from_poster = || {
        let first = doc
            .select_checked(static_selector!("[class]"))
            .filter(|el| el.value().classes().any(names_poster))
            .find_map(|el| {
                el.text()
                    .map(str::trim)
                    .find(|t| !t.is_empty())
                    .filter(|t| t.chars().count() <= 60)
                    .map(str::to_owned)
            });
        clean(&first.into_iter().collect::<Vec<_>>())
    };
    let from_byline = || clean(&super::byline::author(doc).into_iter().collect::<Vec<_>>());
    // `twitter:label1 = "Written by"`, `twitter:data1 = "Ann Lee"`.
    let from_card = || {
        let named = (1..=4).find_map(|n| {
            let label = metas.first(&[&format!("twitter:label{n}")])?;
            label
                .to_lowercase()
                .contains("written by")
                .then(|| metas.first(&[&format!("twitter:data{n}")]))
                .flatten()
        });
        clean(&named.into_iter().collect::<Vec<_>>())
    };
    // A label element ("Written by", "Author") with the name in the element after it.
    let from_label = || {
        let named = doc
            .select_checked(static_selector!("p, span, div, dt, strong, b, small"))
            .filter(|el| {
                let text = super::flat_text(*el).to_lowercase();
                let text = text.trim_end_matches(':').trim();
                matches!(
                    text,
                    "written by" | "by" | "author" | "authors" | "posted by" | "words by"
                )
            })
            .find_map(|label| {
                let next = label.next_siblings().find_map(ElementRef::wrap)?;
                let name = super::flat_text(next);
                (!name.is_empty() && name.chars().count() <= 80).then_some(name)
            });
        clean(&named.into_iter().collect::<Vec<_>>())
    };
    // An author box's photo: `<div class="post-author"><img alt="Ann Lee">`.
    let from_photo = || {
        let named = doc
            .select_checked(static_selector!("img[alt]"))
            .filter(|img| {
                img.ancestors()
                    .filter_map(ElementRef::wrap)
                    .take(3)
                    .any(|a| {
                        a.value()
                            .classes()
                            .any(|c| c.to_ascii_lowercase().contains("author"))
                    })
            })
            .filter_map(|img| img.value().attr("alt"))
            .map(|alt| {
                let alt = strip_photo_words(alt);
                alt.split(',').next().unwrap_or(alt).trim().to_owned()
            })
            .find(|alt| {
                let words = alt.split_whitespace().count();
                (2..=4).contains(&words)
                    && alt.chars().all(|c| c.is_alphabetic() || " .'-".contains(c))
                    && alt
                        .split_whitespace()
                        .all(|w| w.chars().next().is_some_and(char::is_uppercase))
            });
        clean(&named.into_iter().collect::<Vec<_>>())
    };
    // An author box's name: `<h4 class="elementor-author-box__name">`, `<span class="author-name">`.
    let from_box = || {
        let named = doc
            .select_checked(static_selector!("[class]"))
            .filter(|el| el.value().classes().any(names_author_name))
            .map(|el| super::flat_text(el))
            .find(|name| !name.is_empty() && name.chars().count() <= 60);
        clean(&named.into_iter().collect::<Vec<_>>())
    };
    let sources: [&dyn Fn() -> Vec<String>; 9] = [
        &from_ld,
        &from_meta,
        &from_card,
        &from_marked,
        &from_poster,
        &from_label,
        &from_byline,
        &from_box,
        &from_photo,
    ];
    let mut fallback = Vec::new();
    for source in sources {
        let names = source();
        if names.is_empty() {
            continue;
        }
        if names.iter().all(|n| is_publisher(n, publishers)) {
            if fallback.is_empty() {
                fallback = names;
            }
            continue;
        }
        return names;
    }
    fallback
}

/// How a document title may name its site: the part after the last separator ("Story |
/// Ann Lee") and a closing parenthesis ("Story (Ann Lee)").
fn title_parts(title: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    if let Some(i) = [" | ", " - ", " – ", " — ", " :: ", " » ", " · "]
        .iter()
        .filter_map(|sep| title.rfind(sep).map(|i| i + sep.len()))
        .max()
    {
        parts.push(title[i..].trim());
    }
    if let Some(inner) = title
        .trim_end()
        .strip_suffix(')')
        .and_then(|t| t.rfind('(').map(|i| &t[i + 1..]))
    {
        parts.push(inner.trim());
    }
    parts
}

/// The texts of the first few links to the site's home page (a personal site's name
/// heads every page as one).
fn home_links(page: &Page) -> Vec<String> {
    const MAX_HOME_LINKS: usize = 3;
    /// Home links head the page: only the first links are looked at.
    const LINKS_READ: usize = 200;
    let home = page.absolute("/");
    page.document
        .select_checked(static_selector!("a[href]"))
        .take(LINKS_READ)
        .filter(|a| {
            a.value()
                .attr("href")
                .and_then(|h| page.absolute(h))
                .is_some_and(|h| Some(&h) == home.as_ref())
        })
        .map(super::flat_text)
        .filter(|t| !t.is_empty())
        .take(MAX_HOME_LINKS)
        .collect()
}

/// Whether a class names an author's name (`author-name`, `author-box__name`, `authorName`).
fn names_author_name(class: &str) -> bool {
    let class = class.to_ascii_lowercase();
    let parts: Vec<&str> = class.split(['-', '_']).filter(|p| !p.is_empty()).collect();
    match parts.as_slice() {
        [one] => *one == "authorname",
        _ => parts.iter().any(|p| p.starts_with("author")) && parts.last() == Some(&"name"),
    }
}

/// An author photo's `alt` without the words around the name ("Picture of Liz Kenny",
/// "Headshot of Ann Lee, with a lake behind").
fn strip_photo_words(alt: &str) -> &str {
    let lower = alt.to_ascii_lowercase();
    let start = [
        "picture of ",
        "photo of ",
        "headshot of ",
        "image of ",
        "portrait of ",
        "avatar of ",
    ]
    .iter()
    .find(|p| lower.starts_with(*p))
    .map_or(0, |p| p.len());
    let alt = &alt[start..];
    alt.find(" with ").map_or(alt, |end| &alt[..end])
}

/// A class forum software gives a post's author: `username`, `username--style2`.
fn names_poster(class: &str) -> bool {
    class
        .split(['-', '_'])
        .next()
        .is_some_and(|first| first.eq_ignore_ascii_case("username"))
}

/// The first value of `key` in a JSON-LD value, depth first, at most a few levels down.
fn first_key<'v>(value: &'v Value, key: &str, depth: usize) -> Option<&'v Value> {
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

fn dedupe(names: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for name in names {
        if !out.iter().any(|n| n.eq_ignore_ascii_case(&name)) {
            out.push(name);
        }
    }
    out
}

/// The publication date. What the page declares (`article:published_time` and kin, JSON-LD
/// `datePublished`, `itemprop=datePublished`, `<time pubdate>`) and the date printed near the
/// headline usually agree. When they do not, a `<meta>` publication tag wins: the CMS writes
/// it from the post's own record, while the printed date is often the last update ("Updated
/// Feb 27, 2025"). A date declared only elsewhere (JSON-LD, which is more often generated apart
/// from the page and stale, or the first draft's) gives way to the printed one, unless the
/// page's first `<time datetime>` gives the same day. A printed `09.10.2024` is read the way
/// another source (an ISO `<time>` anywhere on the page included) dates the page when one of
/// its two readings agrees. Then any
/// `<time datetime>` outside the page chrome, the URL's date (`/2024/05/31/`), the first date
/// printed in an element named as a date or a byline (a forum post's "by Ann » Tue Aug 27,
/// 2019"), and last the modification date: when that is all the page tells, it is the date a
/// reader would quote. Only real dates count: a duration (`PT7M`) or a bare year is skipped
/// for the next source.
fn published_at(
    doc: &Html,
    page: &Page,
    metas: &MetaTags,
    ld: &[Value],
    article: Option<&Map<String, Value>>,
    modified: Option<&str>,
    month_first: bool,
) -> Option<String> {
    let valid = |raw: String| normalise_date(&collapse_whitespace(&raw), month_first);
    // `article:published_time` and kin are kept by the CMS with the page; JSON-LD blocks are
    // more often generated apart from it (and stale), so the `<meta>` comes first.
    let in_meta = PUBLISHED_KEYS
        .iter()
        .find_map(|k| metas.first(&[k]).and_then(valid))
        .or_else(|| metas.vendor_published().into_iter().find_map(valid));
    let declared = in_meta
        .clone()
        .or_else(|| {
            article
                .and_then(|m| m.get("datePublished").or_else(|| m.get("dateCreated")))
                .and_then(string_of)
                .and_then(valid)
        })
        .or_else(|| {
            LOOSE_DATE_KEYS
                .iter()
                .find_map(|k| metas.first(&[k]).and_then(valid))
        })
        .or_else(|| {
            doc.select_checked(static_selector!(
                "[itemprop=datePublished], time[pubdate], [itemprop=dateCreated]"
            ))
            .find_map(|el| {
                el.value()
                    .attr("datetime")
                    .or_else(|| el.value().attr("content"))
                    .map(str::to_owned)
                    .or_else(|| Some(super::flat_text(el)))
                    .and_then(valid)
            })
        })
        .or_else(|| {
            ld.iter()
                .find_map(|item| first_key(item, "datePublished", 0))
                .and_then(string_of)
                .and_then(valid)
        });
    // Days the page's `<time datetime>` elements give in ISO form, wherever they stand (a
    // sidebar's link to this very article counts): witnesses for a numeric date that reads
    // two ways.
    let iso_times: Vec<String> = doc
        .select_checked(static_selector!("time[datetime]"))
        .filter_map(|t| t.value().attr("datetime"))
        .filter(|raw| is_iso_date(raw))
        .filter_map(|raw| valid(raw.to_owned()))
        .collect();
    let in_url = url_date(page);
    let witnesses: Vec<String> = [declared.clone(), in_url.clone()]
        .into_iter()
        .flatten()
        .chain(iso_times)
        .collect();
    let witnessed = |day: &str| witnesses.iter().any(|d| same_day(d, day));
    // A numeric date that reads two ways is read the way another source dates the page.
    let read_numeric = |raw: &str| {
        let read = normalise_date(raw, month_first)?;
        match other_reading(raw, month_first) {
            Some(other) if !witnessed(&read) && witnessed(&other) => Some(other),
            _ => Some(read),
        }
    };
    let in_body_time = doc
        .select_checked(static_selector!("time[datetime]"))
        .filter(|t| !crate::page::chrome::in_chrome(*t))
        .find_map(|t| {
            t.value()
                .attr("datetime")
                .and_then(|raw| read_numeric(&collapse_whitespace(raw)))
        });
    // The page's `<time>` may write the declared moment in its own zone (`2025-12-18T19:05
    // -08:00` for `2025-12-19T03:05Z`): the day a reader sees is that zone's.
    let declared = match (declared, &in_body_time) {
        (Some(d), Some(t)) if !same_day(&d, t) && same_instant(&d, t) => Some(t.clone()),
        (declared, _) => declared,
    };
    // `09.10.2024` on a page that declares 2024-09-10 was written month first.
    let printed = super::byline::date(doc, month_first).map(|printed| {
        let agrees =
            |day: &str| witnessed(day) || in_body_time.as_deref().is_some_and(|t| same_day(t, day));
        match printed.other_reading {
            Some(other) if !agrees(&printed.day) && agrees(&other) => other,
            _ => printed.day,
        }
    });
    // A `<time datetime>` in the page that gives the declared day is a second witness for it.
    let declared_is_witnessed = in_meta.is_some()
        || matches!((&declared, &in_body_time), (Some(d), Some(t)) if same_day(d, t));
    match (printed, declared) {
        (Some(printed), Some(declared)) if !same_day(&printed, &declared) => {
            if declared_is_witnessed {
                Some(declared)
            } else {
                Some(printed)
            }
        }
        (printed, declared) => declared.or(printed),
    }
    .or(in_body_time)
    .or(in_url)
    .or_else(|| super::byline::named_date(doc, month_first))
    .or_else(|| modified.map(str::to_owned))
    // "Last updated: Nov 13, 2025" as a page's only date is the one a reader would quote.
    .or_else(|| {
        super::byline::labelled_date(doc, super::byline::DateLabel::Updated)
            .and_then(|found| normalise_date(&found, month_first))
    })
}

/// Whether two ISO-8601 date-times with offsets name the same moment.
fn same_instant(a: &str, b: &str) -> bool {
    match (
        chrono::DateTime::parse_from_rfc3339(a),
        chrono::DateTime::parse_from_rfc3339(b),
    ) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Whether `raw` starts as an ISO-8601 date does (`2025-12-02`), the one numeric form that
/// reads only one way.
fn is_iso_date(raw: &str) -> bool {
    let raw = raw.trim().as_bytes();
    raw.len() >= 10
        && raw[..10].iter().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                *b == b'-'
            } else {
                b.is_ascii_digit()
            }
        })
}

/// Whether two ISO-8601 dates (or date-times) fall on the same day as written.
fn same_day(a: &str, b: &str) -> bool {
    a.get(..10) == b.get(..10)
}

/// A date in the URL's path: `/2024/05/31/`, `/2024-05-31-title`, `/2023/october/03/`.
fn url_date(page: &Page) -> Option<String> {
    static PATTERN: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let pattern = PATTERN.get_or_init(|| {
        #[allow(
            clippy::expect_used,
            reason = "a pattern in our source; the tests compile it"
        )]
        regex::Regex::new(
            r"(?i)/((?:19|20)\d{2})[/-](0[1-9]|1[0-2]|[a-z]{3,9})[/-](0[1-9]|[12]\d|3[01])(?:/|-|$)",
        )
        .expect("URL date pattern is valid")
    });
    let caps = pattern.captures(page.url.path())?;
    let (year, month, day) = (&caps[1], &caps[2], &caps[3]);
    if month.starts_with(|c: char| c.is_ascii_digit()) {
        normalise_date(&format!("{year}-{month}-{day}"), false)
    } else {
        // `/2023/october/03/`: only a month's name reads as a date.
        normalise_date(&format!("{day} {month} {year}"), false)
    }
}

/// `<meta>` tags as (lower-cased name or property, content), in page order.
struct MetaTags(Vec<(String, String)>);

impl MetaTags {
    fn of(doc: &Html) -> Self {
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
    fn first(&self, keys: &[&str]) -> Option<String> {
        keys.iter().find_map(|k| {
            self.0
                .iter()
                .find(|(mk, _)| mk == k)
                .map(|(_, v)| v.clone())
        })
    }

    /// Every value of one key (`citation_author` repeats once per author).
    fn all(&self, key: &str) -> Vec<&str> {
        self.0
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// Values of vendors' own publication tags (`w-published-date`, `publish-time`).
    fn vendor_published(&self) -> Vec<String> {
        self.0
            .iter()
            .filter(|(k, _)| k.contains("publish") && (k.contains("date") || k.contains("time")))
            .map(|(_, v)| v.clone())
            .collect()
    }
}

fn string_of(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(ld_text(s)).filter(|s| !s.is_empty()),
        Value::Array(a) => a.iter().find_map(string_of),
        Value::Object(m) => m.get("@value").and_then(string_of),
        _ => None,
    }
}

/// A JSON-LD string as text. A `<script>`'s content is not HTML, so the parser left its
/// entities alone, yet CMSs escape names and headlines in it as HTML (`Maria &amp; Katerina`).
fn ld_text(raw: &str) -> String {
    collapse_whitespace(&html_escape::decode_html_entities(raw))
}

/// Names in a JSON-LD value: a string, an object's `name`, or a list of them.
fn names_of(value: &Value) -> Vec<String> {
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

/// The people among JSON-LD authors: an `Organization` author is the publisher signing,
/// kept only when no person is named.
fn people_of(value: &Value) -> Vec<String> {
    let items: Vec<&Value> = match value {
        Value::Array(a) => a.iter().collect(),
        other => vec![other],
    };
    let is_org = |v: &Value| {
        v.as_object()
            .is_some_and(|m| types_of(m).iter().any(|t| t.contains("Organization")))
    };
    let people: Vec<String> = items
        .iter()
        .filter(|v| !is_org(v))
        .flat_map(|v| names_of(v))
        .collect();
    if people.is_empty() {
        items.iter().flat_map(|v| names_of(v)).collect()
    } else {
        people
    }
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

    fn meta_of(html: &str, url: &str) -> Metadata {
        read(&Page::parse(url::Url::parse(url).unwrap(), html))
    }

    #[test]
    fn the_printed_date_beats_a_declared_one_and_durations_are_not_dates() {
        let m = meta_of(
            r#"<html><head><script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2019-01-02","dateModified":"2025-03-01","timeRequired":"PT7M"}</script></head>
            <body><article><h1>Ten ways to cook rice well</h1><p class="date">Updated March 1, 2025</p><p>Body text of the article that goes on.</p></article></body></html>"#,
            "https://news.example/rice",
        );
        assert_eq!(m.published_at.as_deref(), Some("2025-03-01"));
        assert_eq!(m.modified_at.as_deref(), Some("2025-03-01"));
        let m = meta_of(
            r#"<html><head><meta property="article:published_time" content="PT7M"><meta name="date" content="2023 Jan 7"></head><body><p>x</p></body></html>"#,
            "https://news.example/2020/05/31/story",
        );
        assert_eq!(m.published_at.as_deref(), Some("2023-01-07"));
        let m = meta_of(
            "<html><body><p>x</p></body></html>",
            "https://news.example/2020/05/31/story",
        );
        assert_eq!(m.published_at.as_deref(), Some("2020-05-31"));
    }

    #[test]
    fn the_cms_publication_tag_beats_a_printed_update() {
        let page = |head: &str| {
            format!(
                r#"<html><head>{head}</head><body><article><h1>Ten ways to cook rice well</h1>
                <p>By Ann Lee · Updated March 1, 2025</p><p>Body text of the article.</p></article></body></html>"#
            )
        };
        let m = meta_of(
            &page(
                r#"<meta property="article:published_time" content="2019-01-02T08:00:00+00:00"><meta property="article:modified_time" content="2025-03-01T08:00:00+00:00">"#,
            ),
            "https://news.example/rice",
        );
        assert_eq!(m.published_at.as_deref(), Some("2019-01-02T08:00:00+00:00"));
        let m = meta_of(
            &page(
                r#"<script type="application/ld+json">{"@type":"BlogPosting","datePublished":"2019-01-02"}</script>"#,
            ),
            "https://news.example/rice",
        );
        assert_eq!(m.published_at.as_deref(), Some("2025-03-01"));
        let m = meta_of(
            r#"<html><head><meta property="article:modified_time" content="2025-03-01T08:00:00+00:00"></head><body><p>x</p></body></html>"#,
            "https://news.example/rice",
        );
        assert_eq!(m.published_at.as_deref(), Some("2025-03-01T08:00:00+00:00"));
    }

    #[test]
    fn a_button_in_the_headline_is_not_part_of_the_title() {
        let m = meta_of(
            r#"<html><head><title>Module runtime - Docs</title></head><body><main><h1>Module <span>runtime</span>&nbsp;<button id="copy-path">Copy item path</button><svg><title>copy</title></svg></h1><p>The runtime.</p></main></body></html>"#,
            "https://docs.example/runtime",
        );
        assert_eq!(m.title.as_deref(), Some("Module runtime"));
    }

    #[test]
    fn an_ambiguous_printed_date_is_read_the_way_the_page_declares_it() {
        let m = meta_of(
            r#"<html lang="en"><head><script type="application/ld+json">{"@type":"BlogPosting","datePublished":"2024-09-10T16:07:00Z"}</script></head>
            <body><article><h1>Ten ways to cook rice well</h1><p class="post-date">09.10.2024</p><p>Body text.</p></article></body></html>"#,
            "https://news.example/rice",
        );
        assert_eq!(m.published_at.as_deref(), Some("2024-09-10T16:07:00Z"));
        let m = meta_of(
            r#"<html lang="en"><body><article><h1>Ten ways to cook rice well</h1><p class="post-date">03/10/2023</p><p>Body text.</p></article></body></html>"#,
            "https://news.example/blog/2023/october/03/rice",
        );
        assert_eq!(m.published_at.as_deref(), Some("2023-10-03"));
        // Without another source, the page's language decides.
        let m = meta_of(
            r#"<html lang="en"><body><article><h1>Ten ways to cook rice well</h1><p class="post-date">03/10/2023</p><p>Body text.</p></article></body></html>"#,
            "https://news.example/blog/rice",
        );
        assert_eq!(m.published_at.as_deref(), Some("2023-03-10"));
        // A sidebar's ISO `<time>` on a link to this article witnesses the day-first reading,
        // also of a `<time>` whose `datetime` is not ISO.
        let m = meta_of(
            r#"<html lang="en"><body><article><h1>Ten ways to cook rice well</h1><time datetime="02-12-2025">02-12-2025</time><p>Body text.</p></article>
            <div class="recent"><a href="/rice">Ten ways to cook rice well</a><time datetime="2025-12-02">December 02, 2025</time>
            <a href="/beans">Beans</a><time datetime="2024-06-03">June 03, 2024</time></div></body></html>"#,
            "https://news.example/blog/rice",
        );
        assert_eq!(m.published_at.as_deref(), Some("2025-12-02"));
    }

    #[test]
    fn labelled_dates_in_the_shapes_pages_print_them() {
        // "Publish date", and a date written with dots year first.
        let m = meta_of(
            r#"<html><body><h1>Small business guide</h1><p>How to improve your security.</p>
            <div><h4>Published</h4><h3 class="sr-only">Publish date</h3><time datetime="2018-11-15T12:00:00Z">15 November 2018</time></div>
            <ul class="related"><li><h3 class="sr-only">Publish date</h3><time datetime="2019-01-17T12:00:00Z">17 Jan 2019</time></li></ul></body></html>"#,
            "https://gov.example/guide",
        );
        assert_eq!(m.published_at.as_deref(), Some("2018-11-15"));
        let m = meta_of(
            r#"<html><body><h1>How small languages die</h1><p><span>Essay - Published: 2025.12.17 | </span><a href="/tags/ai">AI</a></p></body></html>"#,
            "https://blog.example/essay",
        );
        assert_eq!(m.published_at.as_deref(), Some("2025-12-17"));
    }

    #[test]
    fn the_byline_that_ends_an_article_names_and_dates_it() {
        let body = "<p>A paragraph of the article that goes on for a while.</p>".repeat(120);
        let m = meta_of(
            &format!(
                r#"<html><body><article><h1>How are apps created?</h1>{body}
                <p><em>The article was originally published in April 2020.</em></p>
                <div><p>Written by <a href="/blog/author/moses-kim">Moses Kim and Kate Shokurova</a></p><p>April 8, 2024</p></div></article></body></html>"#
            ),
            "https://studio.example/blog/how-are-apps-created",
        );
        assert_eq!(m.published_at.as_deref(), Some("2024-04-08"));
        assert_eq!(m.authors, ["Moses Kim", "Kate Shokurova"]);
    }

    #[test]
    fn a_declared_date_that_the_pages_time_element_gives_beats_another_printed_one() {
        let page = |time: &str| {
            format!(
                r#"<html><head><script type="application/ld+json">{{"@type":"BlogPosting","datePublished":"2009-05-02T00:01:21Z"}}</script></head>
                <body><div id="question"><h1>Why is RAID not a backup?</h1>{time}<p>Asked by Ann.</p>
                <p>Viewed 30k times. Related: Aug 1, 2014</p></div></body></html>"#
            )
        };
        let m = meta_of(
            &page(r#"<time datetime="2009-05-02T00:01:21Z">16 years ago</time>"#),
            "https://qa.example/q/2888",
        );
        assert_eq!(m.published_at.as_deref(), Some("2009-05-02T00:01:21Z"));
        let m = meta_of(&page(""), "https://qa.example/q/2888");
        assert_eq!(m.published_at.as_deref(), Some("2014-08-01"));
    }

    #[test]
    fn the_day_is_the_one_the_page_writes_for_the_declared_moment() {
        let page = |time: &str| {
            format!(
                r#"<html><head><meta property="article:published_time" content="2025-12-19T03:05:00+00:00"></head>
                <body><article><h1>Ten ways to cook rice well</h1>{time}<p>Body text.</p></article></body></html>"#
            )
        };
        let published = |time: &str| {
            meta_of(
                &page(&format!(
                    r#"<time datetime="{time}">December 18, 2025</time>"#
                )),
                "https://news.example/rice",
            )
            .published_at
        };
        assert_eq!(
            published("2025-12-18T19:05:00-08:00").as_deref(),
            Some("2025-12-18T19:05:00-08:00")
        );
        // Another moment on the day before is another date: the CMS's tag stays.
        assert_eq!(
            published("2025-12-18T11:00:00-08:00").as_deref(),
            Some("2025-12-19T03:05:00+00:00")
        );
    }

    #[test]
    fn a_date_in_the_first_sentences_is_not_the_byline_date() {
        let m = meta_of(
            r#"<html><body><main><div class="meta"><span>Dec 17, 2025</span><span>Ann Lee</span></div>
            <h1>Attested builds</h1><figure><p>Signing of the Peace Protocol Between Spain and the United States, August 12, 1898, by Theobald Chartran. Signing a document, either as a witness or a party, is an old way of saying that you stand behind it.</p></figure>
            <p>Body text.</p></main></body></html>"#,
            "https://blog.example/attested",
        );
        assert_eq!(m.published_at.as_deref(), Some("2025-12-17"));
    }

    #[test]
    fn a_last_updated_line_dates_a_page_that_shows_no_other_date() {
        let m = meta_of(
            r#"<html><body><main><h1>Webcams</h1><p>See the valley live from five cameras.</p></main>
            <div><p style="text-align:right;">Last updated: November 13, 2025</p></div></body></html>"#,
            "https://parks.example/webcams.htm",
        );
        assert_eq!(m.published_at.as_deref(), Some("2025-11-13"));
    }

    #[test]
    fn json_ld_text_is_read_without_its_html_escapes() {
        let m = meta_of(
            r#"<html><head><script type="application/ld+json">{"@type":"Article","headline":"Tips &amp; tricks","author":{"@type":"Person","name":"Maria &amp; Katerina"}}</script></head><body></body></html>"#,
            "https://travel.example/post",
        );
        assert_eq!(m.title.as_deref(), Some("Tips & tricks"));
        assert_eq!(m.authors, ["Maria", "Katerina"]);
    }

    #[test]
    fn authors_are_people_not_the_site() {
        let m = meta_of(
            r#"<html><head><meta property="og:site_name" content="Codiant WP"><meta name="author" content="Codiant WP"></head>
            <body><article><h1>How we ship software every week</h1><p class="byline">By Ann Lee and Bo Chen</p><p>Body.</p></article></body></html>"#,
            "https://codiant.example/post",
        );
        assert_eq!(m.authors, ["Ann Lee", "Bo Chen"]);
        assert_eq!(m.byline().as_deref(), Some("Ann Lee and Bo Chen"));
        let m = meta_of(
            r#"<html><head><script type="application/ld+json">{"@type":"Article","author":[{"@type":"Organization","name":"Acme"},{"@type":"Person","name":"By Cy Diaz"}]}</script></head><body></body></html>"#,
            "https://acme.example/post",
        );
        assert_eq!(m.authors, ["Cy Diaz"]);
    }

    #[test]
    fn authors_from_a_card_a_label_or_an_author_photo() {
        let card = meta_of(
            r#"<html><head><meta name="twitter:label1" content="Written by"><meta name="twitter:data1" content="Nia Cole"></head><body></body></html>"#,
            "https://blog.example/post",
        );
        assert_eq!(card.authors, ["Nia Cole"]);
        let label = meta_of(
            r#"<html><body><div><p>Written by</p><p>Edo Tabb</p></div></body></html>"#,
            "https://blog.example/post",
        );
        assert_eq!(label.authors, ["Edo Tabb"]);
        let photo = meta_of(
            r#"<html><body><div class="post-author"><figure><img src="a.jpg" alt="Chris Winter, Staff Writer"></figure></div><p>Text.</p></body></html>"#,
            "https://blog.example/post",
        );
        assert_eq!(photo.authors, ["Chris Winter"]);
        let described = meta_of(
            r#"<html><body><p>Text.</p><div class="author-box"><img src="a.jpg" alt="Picture of Liz Kenny with a lake behind her"></div></body></html>"#,
            "https://blog.example/post",
        );
        assert_eq!(described.authors, ["Liz Kenny"]);
    }

    #[test]
    fn an_author_box_at_the_end_names_the_author() {
        let m = meta_of(
            r#"<html><body><main><h1>Pros and cons of consulting</h1><p>Consulting is a career many weigh for years before they start.</p>
            <div class="elementor-author-box"><div class="elementor-author-box__text"><h4 class="elementor-author-box__name"> Liz Kenny </h4>
            <div class="elementor-author-box__bio"><p>Former consultant.</p></div></div></div></main></body></html>"#,
            "https://consulting.example/pros-and-cons",
        );
        assert_eq!(m.authors, ["Liz Kenny"]);
    }

    #[test]
    fn a_forum_thread_is_by_its_first_poster_and_handles_are_names() {
        let m = meta_of(
            r#"<html><body><h1>Which kettle?</h1>
            <ul class="p-description"><li><span>Thread starter</span> <a href="/members/ridwan123.29/" class="username u-concealed">ridwan123</a></li></ul>
            <article class="message"><p>Which kettle should I buy for pour-over coffee at home?</p></article>
            <article class="message"><p class="byline">By Lutfij</p><a class="username" href="/members/lutfij.7/">Lutfij</a><p>This one.</p></article>
            </body></html>"#,
            "https://forum.example/threads/kettle.1/",
        );
        assert_eq!(m.authors, ["ridwan123"]);
    }

    #[test]
    fn a_thread_without_a_headline_is_dated_by_its_first_post() {
        let m = meta_of(
            r#"<html><body><aside><span class="date">Jan 1, 2020</span></aside>
            <h2>SMF vs MyBB?</h2>
            <div class="post"><p class="author">by <strong><a href="/u/1">Outer Armatonis</a></strong> &raquo; Tue Aug 27, 2019 1:47 am</p>
            <div class="content">Which one should I pick for a small forum?</div></div>
            <div class="post"><span class="post_date">2019-08-28, 09:14 PM</span><div class="content">MyBB.</div></div>
            </body></html>"#,
            "https://forum.example/viewtopic.php?t=1",
        );
        assert_eq!(m.published_at.as_deref(), Some("2019-08-27"));
    }

    #[test]
    fn a_personal_site_is_written_by_its_owner() {
        let named = meta_of(
            r#"<html><head><title>Go ahead, self-host Postgres | Pierce Freeman</title></head>
            <body><a href="/">Pierce Freeman</a><h1>Go ahead, self-host Postgres</h1><p>Text.</p></body></html>"#,
            "https://pierce.dev/notes/postgres",
        );
        assert_eq!(named.authors, ["Pierce Freeman"]);
        let blog = meta_of(
            r#"<html><head><meta property="og:site_name" content="Colin Watson's blog"></head>
            <body><h1>Preparing a transition</h1><p>Text.</p></body></html>"#,
            "https://www.chiark.example/~cjwatson/blog/transition.html",
        );
        assert_eq!(blog.authors, ["Colin Watson"]);
        // A site named like a person at another address is not a person's site, nor is one
        // named after its address whose page is not a post (a shop, a firm).
        let firm = meta_of(
            r#"<html><head><title>Contact us | Harbour Books</title></head>
            <body><h1>Contact Harbour Books</h1><p>Text.</p></body></html>"#,
            "https://harbourbooks.example/contact",
        );
        assert!(firm.authors.is_empty(), "{:?}", firm.authors);
        let shop = meta_of(
            r#"<html><head><title>Ten kettles | Ocean Facts</title></head>
            <body><h1>Ten kettles</h1><p>Text.</p></body></html>"#,
            "https://kettles.example/ten",
        );
        assert!(shop.authors.is_empty(), "{:?}", shop.authors);
    }

    #[test]
    fn a_section_heading_in_h1_gives_way_to_the_declared_title() {
        let m = meta_of(
            r#"<html><head><title>Why the sea is salty | Ocean Facts</title><meta property="og:title" content="Why the sea is salty"></head>
            <body><h1>Ocean Facts</h1><p>x</p></body></html>"#,
            "https://ocean.example/salty",
        );
        assert_eq!(m.title.as_deref(), Some("Why the sea is salty"));
        let m = meta_of(
            r#"<html><head><title>Why the sea is salty - Ocean Facts</title></head><body><h1>Why is the sea salty?</h1></body></html>"#,
            "https://ocean.example/salty",
        );
        assert_eq!(m.title.as_deref(), Some("Why is the sea salty?"));
    }
}
