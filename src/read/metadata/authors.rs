//! The authors: every person the page names as having written it, from the first rule that
//! names one.

use scraper::ElementRef;
use serde_json::Value;

use super::people::{authors_in, is_publisher};
use super::sources::{Sources, first_key, names_of};
use super::{Chosen, SourcesRule};
use crate::page::Page;
use crate::page::dom::flat_text;
use crate::page::interrupt::SelectChecked;
use crate::read::structured::types_of;
use crate::static_selector;

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

/// The authors' rules, tried in order: JSON-LD, `<meta>`, a Twitter card, elements marked as
/// the author (`itemprop=author`, `rel=author`), a forum's first poster, a label ("Written
/// by") before the name, the visible byline, an author box's name, an author box's photo.
/// A rule that names only the site or its publisher gives way to a later one that names
/// someone else; when none does, the site's owner ([`SITE_OWNER`]) and then the publisher are
/// the author the page gives.
pub(super) const RULES: &[SourcesRule<Vec<String>>] = &[
    ("jsonld_author", jsonld_author),
    ("meta_author", meta_author),
    ("twitter_written_by", twitter_written_by),
    ("marked_author", marked_author),
    ("forum_poster", forum_poster),
    ("author_label", author_label),
    ("byline", byline),
    ("author_box_name", author_box_name),
    ("author_photo", author_photo),
];

/// The rule that takes a personal site's owner for the author when the rules above name no
/// one but the site (see [`site_owner`]).
const SITE_OWNER: &str = "site_owner";

/// Longest name an element marked as the author may hold, in characters. Chosen by hand in
/// commit ceab6a2; not fitted.
const MAX_MARKED_CHARS: usize = 100;
/// Longest forum handle, in characters. Chosen by hand in commit c5887fb; not fitted.
const MAX_POSTER_CHARS: usize = 60;
/// Longest name after an author label, in characters. Chosen by hand in commit 8bbe156; not
/// fitted.
const MAX_LABELLED_CHARS: usize = 80;
/// Longest name in an author box, in characters. Chosen by hand in commit 1e67b95; not fitted.
const MAX_BOX_NAME_CHARS: usize = 60;
/// How many words an author photo's `alt` may have to be a name. Chosen by hand in commit
/// 860bd10; not fitted.
const PHOTO_NAME_WORDS: std::ops::RangeInclusive<usize> = 2..=4;
/// How many ancestors of an author photo are looked at for an `author` class. Chosen by hand
/// in commit 860bd10; not fitted.
const PHOTO_BOX_DEPTH: usize = 3;
/// How many `twitter:labelN`/`twitter:dataN` pairs are read (Twitter shows two; some pages
/// write more). Chosen by hand in commit 8bbe156; not fitted.
const TWITTER_LABELS: usize = 4;

/// Every author, and the rule that named them; None when the page names no one.
pub(super) fn authors(sources: &Sources<'_>) -> Option<Chosen<Vec<String>>> {
    let publishers = &sources.publishers;
    let mut publisher_only = None;
    for (rule, read) in RULES {
        let Some(names) = read(sources) else {
            continue;
        };
        if names.iter().all(|n| is_publisher(n, publishers)) {
            publisher_only.get_or_insert(Chosen { value: names, rule });
            continue;
        }
        return Some(Chosen { value: names, rule });
    }
    site_owner(sources)
        .map(|owner| Chosen {
            value: vec![owner],
            rule: SITE_OWNER,
        })
        .or(publisher_only)
}

/// Names as authors: "By", job titles, e-mail addresses and the publishers left out, each
/// once; None when none is left.
fn cleaned<S: AsRef<str>>(
    sources: &Sources<'_>,
    raw: impl IntoIterator<Item = S>,
) -> Option<Vec<String>> {
    let names = dedupe(
        raw.into_iter()
            .flat_map(|n| authors_in(n.as_ref(), &sources.publishers))
            .collect(),
    );
    (!names.is_empty()).then_some(names)
}

/// The page's item's `author`; else the first author anywhere in its JSON-LD (a forum's
/// `QAPage` names the question's author inside `mainEntity`).
fn jsonld_author(sources: &Sources<'_>) -> Option<Vec<String>> {
    let author = sources
        .article()
        .and_then(|m| m.get("author"))
        .or_else(|| {
            sources
                .ld
                .iter()
                .find_map(|item| first_key(item, "author", 0))
        })?;
    cleaned(sources, people_of(author))
}

/// The first `<meta>` author tag that names someone (every value of it: `citation_author`
/// repeats once per author); profile links and handles are not names.
fn meta_author(sources: &Sources<'_>) -> Option<Vec<String>> {
    AUTHOR_KEYS.iter().find_map(|key| {
        let values = sources
            .metas
            .all(key)
            .into_iter()
            .filter(|v| !v.starts_with("http") && !v.starts_with('@'));
        cleaned(sources, values)
    })
}

/// `twitter:label1 = "Written by"`, `twitter:data1 = "Ann Lee"`.
fn twitter_written_by(sources: &Sources<'_>) -> Option<Vec<String>> {
    let metas = &sources.metas;
    let named = (1..=TWITTER_LABELS).find_map(|n| {
        let label = metas.first(&[&format!("twitter:label{n}")])?;
        label
            .to_lowercase()
            .contains("written by")
            .then(|| metas.first(&[&format!("twitter:data{n}")]))
            .flatten()
    })?;
    cleaned(sources, [named])
}

/// The first element marked as the author (`itemprop=author`, `rel=author`: forums mark each
/// post's), by its `itemprop=name` when it has one.
fn marked_author(sources: &Sources<'_>) -> Option<Vec<String>> {
    let first = sources
        .doc()
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
        .find(|name| !name.is_empty() && name.chars().count() <= MAX_MARKED_CHARS)?;
    cleaned(sources, [first])
}

/// Forum software marks each post's author (`<a class="username">`); the first is the
/// thread's. Handles are kept as written ("galitsyn", "Ejp55230").
fn forum_poster(sources: &Sources<'_>) -> Option<Vec<String>> {
    let first = sources
        .doc()
        .select_checked(static_selector!("[class]"))
        .filter(|el| el.value().classes().any(names_poster))
        .find_map(|el| {
            el.text()
                .map(str::trim)
                .find(|t| !t.is_empty())
                .filter(|t| t.chars().count() <= MAX_POSTER_CHARS)
                .map(str::to_owned)
        })?;
    cleaned(sources, [first])
}

/// A label element ("Written by", "Author") with the name in the element after it.
fn author_label(sources: &Sources<'_>) -> Option<Vec<String>> {
    let named = sources
        .doc()
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
            (!name.is_empty() && name.chars().count() <= MAX_LABELLED_CHARS).then_some(name)
        })?;
    cleaned(sources, [named])
}

/// The byline printed near the headline ("By Ann Lee · May 2").
fn byline(sources: &Sources<'_>) -> Option<Vec<String>> {
    cleaned(sources, super::byline::author(sources.doc()))
}

/// An author box's name: `<h4 class="elementor-author-box__name">`, `<span class="author-name">`.
fn author_box_name(sources: &Sources<'_>) -> Option<Vec<String>> {
    let named = sources
        .doc()
        .select_checked(static_selector!("[class]"))
        .filter(|el| el.value().classes().any(names_author_name))
        .map(flat_text)
        .find(|name| !name.is_empty() && name.chars().count() <= MAX_BOX_NAME_CHARS)?;
    cleaned(sources, [named])
}

/// An author box's photo: `<div class="post-author"><img alt="Ann Lee">`.
fn author_photo(sources: &Sources<'_>) -> Option<Vec<String>> {
    let named = sources
        .doc()
        .select_checked(static_selector!("img[alt]"))
        .filter(|img| {
            img.ancestors()
                .filter_map(ElementRef::wrap)
                .take(PHOTO_BOX_DEPTH)
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
            PHOTO_NAME_WORDS.contains(&words)
                && alt.chars().all(|c| c.is_alphabetic() || " .'-".contains(c))
                && alt
                    .split_whitespace()
                    .all(|w| w.chars().next().is_some_and(char::is_uppercase))
        })?;
    cleaned(sources, [named])
}

/// The owner of a personal site, named by its site name, its `<title>`'s last part or its
/// home links, when the address agrees (see [`people::site_owner`](super::people::site_owner)).
fn site_owner(sources: &Sources<'_>) -> Option<String> {
    let page = sources.page;
    let titles = sources
        .document_title
        .as_deref()
        .map(title_parts)
        .unwrap_or_default();
    let home_links = home_links(page);
    let names = sources
        .site_name
        .iter()
        .map(String::as_str)
        .chain(titles)
        .chain(home_links.iter().map(String::as_str));
    super::people::site_owner(names, page.url.host_str(), page.url.path())
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

#[cfg(test)]
mod tests {
    use super::*;

    const URL: &str = "https://blog.example/post";

    /// What the rule called `name` reads on a page.
    fn by_rule(name: &str, html: &str) -> Option<Vec<String>> {
        let page = Page::parse(url::Url::parse(URL).unwrap(), html);
        let sources = Sources::of(&page);
        let (_, read) = RULES.iter().find(|(rule, _)| *rule == name).unwrap();
        read(&sources)
    }

    fn chosen(html: &str, url: &str) -> Option<Chosen<Vec<String>>> {
        let page = Page::parse(url::Url::parse(url).unwrap(), html);
        authors(&Sources::of(&page))
    }

    #[test]
    fn jsonld_author_prefers_people_to_the_organisation() {
        let html = r#"<script type="application/ld+json">{"@type":"Article","author":[{"@type":"Organization","name":"Acme"},{"@type":"Person","name":"By Cy Diaz"}]}</script>"#;
        assert_eq!(by_rule("jsonld_author", html).unwrap(), ["Cy Diaz"]);
        // A forum's question names its author inside `mainEntity`.
        let nested = r#"<script type="application/ld+json">{"@type":"QAPage","mainEntity":{"@type":"Question","author":{"name":"Ann Lee"}}}</script>"#;
        assert_eq!(by_rule("jsonld_author", nested).unwrap(), ["Ann Lee"]);
    }

    #[test]
    fn meta_author_skips_links_and_handles() {
        assert_eq!(
            by_rule("meta_author", r#"<meta name="author" content="Ann Lee">"#).unwrap(),
            ["Ann Lee"]
        );
        assert_eq!(
            by_rule(
                "meta_author",
                r#"<meta name="author" content="@annlee"><meta name="citation_author" content="Bo Chen"><meta name="citation_author" content="Cy Diaz">"#
            )
            .unwrap(),
            ["Bo Chen", "Cy Diaz"]
        );
    }

    #[test]
    fn twitter_written_by_reads_the_card() {
        let html = r#"<meta name="twitter:label1" content="Reading time"><meta name="twitter:data1" content="4 minutes"><meta name="twitter:label2" content="Written by"><meta name="twitter:data2" content="Nia Cole">"#;
        assert_eq!(by_rule("twitter_written_by", html).unwrap(), ["Nia Cole"]);
    }

    #[test]
    fn marked_author_reads_the_name_inside_the_mark() {
        let html = r#"<div itemprop="author"><img src="a.jpg"><span itemprop="name">Ann Lee</span> Staff</div>"#;
        assert_eq!(by_rule("marked_author", html).unwrap(), ["Ann Lee"]);
        let rel = r#"<p>By <a rel="author" href="/ann">Ann Lee</a></p>"#;
        assert_eq!(by_rule("marked_author", rel).unwrap(), ["Ann Lee"]);
    }

    #[test]
    fn forum_poster_is_the_first_username() {
        let html = r#"<a class="username u-concealed" href="/m/1">ridwan123</a><a class="username" href="/m/2">Lutfij</a>"#;
        assert_eq!(by_rule("forum_poster", html).unwrap(), ["ridwan123"]);
    }

    #[test]
    fn author_label_reads_the_element_after_it() {
        let html = "<div><p>Written by</p><p>Edo Tabb</p></div>";
        assert_eq!(by_rule("author_label", html).unwrap(), ["Edo Tabb"]);
    }

    #[test]
    fn byline_reads_the_line_under_the_headline() {
        let html = r#"<article><h1>How we ship software every week</h1><p class="byline">By Ann Lee and Bo Chen</p><p>Body.</p></article>"#;
        assert_eq!(by_rule("byline", html).unwrap(), ["Ann Lee", "Bo Chen"]);
    }

    #[test]
    fn author_box_name_reads_a_class_named_for_it() {
        let html = r#"<div class="elementor-author-box"><h4 class="elementor-author-box__name"> Liz Kenny </h4></div>"#;
        assert_eq!(by_rule("author_box_name", html).unwrap(), ["Liz Kenny"]);
    }

    #[test]
    fn author_photo_reads_a_name_shaped_alt() {
        let html = r#"<div class="post-author"><figure><img src="a.jpg" alt="Chris Winter, Staff Writer"></figure></div>"#;
        assert_eq!(by_rule("author_photo", html).unwrap(), ["Chris Winter"]);
        let logo = r#"<div class="post-author"><img src="a.jpg" alt="logo"></div>"#;
        assert_eq!(by_rule("author_photo", logo), None);
    }

    #[test]
    fn a_rule_that_names_only_the_site_gives_way_and_names_itself_when_nothing_else_does() {
        let site = r#"<meta property="og:site_name" content="Codiant WP"><meta name="author" content="Codiant WP">"#;
        let with_byline = format!(
            r#"{site}<article><h1>How we ship software every week</h1><p class="byline">By Ann Lee</p><p>Body.</p></article>"#
        );
        assert_eq!(chosen(&with_byline, URL).unwrap().rule, "byline");
        let alone = chosen(site, URL).unwrap();
        assert_eq!(
            (alone.value.as_slice(), alone.rule),
            (&["Codiant WP".to_owned()][..], "meta_author")
        );
    }

    #[test]
    fn site_owner_names_a_personal_sites_owner() {
        let html = r#"<title>Go ahead, self-host Postgres | Pierce Freeman</title><a href="/">Pierce Freeman</a><h1>Go ahead, self-host Postgres</h1>"#;
        let found = chosen(html, "https://pierce.dev/notes/postgres").unwrap();
        assert_eq!(
            (found.value, found.rule),
            (vec!["Pierce Freeman".to_owned()], SITE_OWNER)
        );
    }
}
