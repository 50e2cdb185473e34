//! The authors: every person the page names as having written it, from the first source
//! that names one.

use scraper::{ElementRef, Html};
use serde_json::{Map, Value};

use super::people::{authors_in, is_publisher};
use super::sources::{MetaTags, first_key, names_of};
use crate::page::Page;
use crate::page::dom::flat_text;
use crate::page::interrupt::SelectChecked;
use crate::read::structured::types_of;
use crate::static_selector;

/// `<meta>` names of the author.
pub(super) const AUTHOR_KEYS: &[&str] = &[
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

/// Authors from the first source that names any: JSON-LD, `<meta>`, elements marked as the
/// author (`itemprop=author`, `rel=author`: forums mark each post's), then the visible
/// byline. A source that names only the site or its publisher gives way to a later one
/// that names someone else; when none does, the publisher is the author the page gives.
pub(super) fn authors(
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
                        || flat_text(el),
                        |name| {
                            name.value()
                                .attr("content")
                                .map_or_else(|| flat_text(name), str::to_owned)
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
                let text = flat_text(*el).to_lowercase();
                let text = text.trim_end_matches(':').trim();
                matches!(
                    text,
                    "written by" | "by" | "author" | "authors" | "posted by" | "words by"
                )
            })
            .find_map(|label| {
                let next = label.next_siblings().find_map(ElementRef::wrap)?;
                let name = flat_text(next);
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
            .map(|el| flat_text(el))
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
pub(super) fn title_parts(title: &str) -> Vec<&str> {
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
pub(super) fn home_links(page: &Page) -> Vec<String> {
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
        .map(flat_text)
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

fn dedupe(names: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for name in names {
        if !out.iter().any(|n| n.eq_ignore_ascii_case(&name)) {
            out.push(name);
        }
    }
    out
}

/// The people among JSON-LD authors: an `Organization` author is the publisher signing,
/// kept only when no person is named.
pub(super) fn people_of(value: &Value) -> Vec<String> {
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
